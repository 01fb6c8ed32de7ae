"""Reign Supreme (seed ``003_03e2ba03e336101c``): a hex-board wargame of four armies.

``GAME`` is the instance registered in :mod:`rules.registry`. Rules and rulings:
``docs/rules/reign-supreme.md``.
"""

from rules.reign_supreme.game import ReignSupreme

GAME = ReignSupreme()

__all__ = ["GAME", "ReignSupreme"]
