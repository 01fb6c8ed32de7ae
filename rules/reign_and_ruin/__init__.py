"""Reign & Ruin (seed ``000_fe7cba912859082a``): draft a hand, then play it as fighters or
abilities.

``GAME`` is the instance registered in :mod:`rules.registry`. Rules and rulings:
``docs/rules/reign-and-ruin.md``.
"""

from rules.reign_and_ruin.game import ReignAndRuin

GAME = ReignAndRuin()

__all__ = ["GAME", "ReignAndRuin"]
