"""Digests: of a state (each record entry's ``state_digest``) and of a seed (the commitment).

``state_digest`` is the lowercase hex SHA-256 of the state's canonical JSON (sorted keys, no
spaces, UTF-8; the contract's "byte for byte once serialised with sorted keys"). Two equal states
have one digest, so a replay proves it reached the recorded state without carrying it.

A digest of a state hides the state while the game runs: every state holds the session's secret
``seed`` and generator (``rng``, 64 bits), so nobody who lacks them can test a guess about the
hidden cards against a digest. (An *open* session shows its seed from the start, and with it
what the seed deals: it hides nothing from a determined player, digest or not.)
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rules.engine_types import State

__all__ = ["canonical", "state_digest", "commitment"]


def canonical(value: Any) -> bytes:
    """The canonical JSON bytes of ``value``: sorted keys, compact, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def state_digest(state: State) -> str:
    """The lowercase hex SHA-256 of ``state``'s canonical JSON."""
    return hashlib.sha256(canonical(state)).hexdigest()


def commitment(salt: str, seed: int) -> str:
    """The seed commitment: lowercase hex SHA-256 of the UTF-8 string ``"<salt>:<seed>"``
    (contract, "Fairness"; salt 32 lowercase hex digits, seed in decimal)."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()
