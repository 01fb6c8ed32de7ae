"""Reign Absolute (seeds ``001_652be7af15affa1b``, ``002_f9840845574dba9b``): hidden units on a
grid; locate and defeat every enemy Liege.

``GAME`` is the instance registered in :mod:`rules.registry`. Rules and rulings:
``docs/rules/reign-absolute.md``.
"""

from rules.reign_absolute.game import ReignAbsolute

GAME = ReignAbsolute()

__all__ = ["GAME", "ReignAbsolute"]
