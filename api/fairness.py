"""Provably fair sessions (issue 24): a secret seed, committed to from version 0, shown at the end.

The service draws each session's setup seed from a CSPRNG (``secrets``) together with a salt
of 128 random bits, and every session answer carries ``fairness``:

``{"open": bool, "seed_commitment": hex, "seed": int | null, "salt": hex | null}``

``seed_commitment`` is the lowercase hex SHA-256 of the UTF-8 string ``"<salt>:<seed>"`` (salt:
32 lowercase hex digits, seed: decimal), the same in every answer from version 0 on. ``seed``
and ``salt`` are null until the game is finished, then shown to everyone, who can check the
commitment and replay the game (``reign-referee verify``). The salt makes the commitment
unguessable: a 63-bit seed alone could be found from its hash by trying them all.

An *open* session (``"open": true`` at creation: tests, teaching) may choose its seed and shows
seed and salt from the start; every answer says ``open: true``, so nobody mistakes it for a
fair one.

No Flask here: the session hash keeps :meth:`Fairness.to_stored` (never shown as such), and
``api.sessions`` shows :meth:`Fairness.public`.
"""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any

from api import jsonio
from rules.integrity import is_seed
from rules.records import commitment as records_commitment
from schemas.requests import MAX_SEED

__all__ = ["Fairness", "commitment", "check_commitment"]

_SALT = re.compile(r"[0-9a-f]{32}")


def commitment(salt: str, seed: int) -> str:
    """The lowercase hex SHA-256 of ``"<salt>:<seed>"`` (contract, "Fairness"): the one
    definition, ``rules.records.commitment``, which replays check records with."""
    return records_commitment(salt, seed)


def check_commitment(fairness: Any) -> str | None:
    """Why a revealed ``fairness`` object does not hold its promise, or None when it does: its
    seed and salt are shown, well-formed, and hash to ``seed_commitment``."""
    if not isinstance(fairness, dict):
        return "no fairness object"
    salt, seed, promised = (
        fairness.get("salt"),
        fairness.get("seed"),
        fairness.get("seed_commitment"),
    )
    if salt is None or seed is None:
        return "the seed and salt are not revealed (is the game finished?)"
    if not isinstance(salt, str) or _SALT.fullmatch(salt) is None:
        return f"the salt {str(salt)[:40]!r} is not 32 lowercase hex digits"
    if not is_seed(seed):
        return f"the seed {str(seed)[:40]!r} is not an integer from 0 to 2^63 - 1"
    if not isinstance(promised, str) or not hmac.compare_digest(commitment(salt, seed), promised):
        actual = commitment(salt, seed)
        return f"SHA-256 of '<salt>:<seed>' is {actual}, not the commitment {promised!r}"
    return None


@dataclass(frozen=True, slots=True)
class Fairness:
    """A session's seed, its salt, and whether the session is open."""

    seed: int
    salt: str
    open: bool = False

    @classmethod
    def new(cls, seed: int | None = None, open_: bool = False) -> Fairness:
        """A fresh draw: the given ``seed`` (open sessions only) or one from the CSPRNG, and a
        random salt of 128 bits."""
        if seed is not None and not open_:
            raise ValueError("only an open session chooses its seed")
        drawn = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
        return cls(drawn, secrets.token_hex(16), open_)

    @property
    def commitment(self) -> str:
        return commitment(self.salt, self.seed)

    def public(self, finished: bool) -> dict[str, Any]:
        """What every session answer shows: the commitment always; seed and salt once the game
        is ``finished``, or from the start for an open session."""
        shown = self.open or finished
        return {
            "open": self.open,
            "seed_commitment": self.commitment,
            "seed": self.seed if shown else None,
            "salt": self.salt if shown else None,
        }

    def to_stored(self) -> bytes:
        """The session hash's ``fairness`` field."""
        return jsonio.dumps({"seed": self.seed, "salt": self.salt, "open": self.open})

    @classmethod
    def from_stored(cls, raw: bytes | None, state: dict[str, Any]) -> Fairness:
        """The stored field. A session created before fairness existed kept its seed in the state
        only, and it may have been the client's: it is shown as open, with a salt of zeros."""
        if raw is None:
            return cls(int(state.get("seed", 0)), "0" * 32, True)
        data = jsonio.loads(raw)
        return cls(int(data["seed"]), str(data["salt"]), bool(data["open"]))
