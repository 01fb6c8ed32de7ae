"""Reigns: The Council (seed ``004_418326d9c7b636cd``): advisors pitch proposals to the Monarch.

``GAME`` is the instance registered in :mod:`rules.registry`. Rules and rulings:
``docs/rules/reigns-the-council.md``.
"""

from rules.reigns_the_council.game import ReignsTheCouncil

GAME = ReignsTheCouncil()

__all__ = ["GAME", "ReignsTheCouncil"]
