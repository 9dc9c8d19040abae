"""How a match's seed is made so that nobody, the site included, can choose its deals.

Before any contribution is taken, the table shows the **commitment**: the SHA-256 of a fresh
256-bit server **secret** for its next match. Players' browsers add random **contributions**
when their players sit down or ask to start. When the match starts, its **seed** is the
SHA-256 of the secret and the contributions; the engines draw every deal from the seed
(:mod:`games.engines.chance`). The secret is shown once the match is over, so anyone can check
the commitment, derive the seed and replay the deals (``python -m games.verify``).

Pure standard library: the verifier imports this module. ``docs/fair-deals.md`` states the
rules below in words.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from typing import TypedDict

#: The name of the seed's derivation below (recorded with every match log).
SEED_ALGORITHM = "cardroom-seed-1"
_HEX64 = re.compile(r"[0-9a-f]{64}")


class Contribution(TypedDict):
    """One player's random contribution to a match's seed."""

    seat: int
    value: str  # 64 lowercase hex digits


def new_secret() -> str:
    """A fresh server secret: 32 random bytes as 64 lowercase hex digits."""
    return secrets.token_hex(32)


def commitment(secret: str) -> str:
    """The SHA-256 of the secret's hex text, as hex: shown before any contribution is taken."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def is_contribution(text: object) -> bool:
    """Whether ``text`` is a well-formed contribution (64 lowercase hex digits)."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def derive_seed(secret: str, contributions: Iterable[Contribution]) -> str:
    """The match's seed: the SHA-256, as hex, of the UTF-8 text ``cardroom-seed-1``, a line
    break, the secret, a line break, then ``<seat>:<value>`` and a line break for each
    contribution in seat order."""
    lines = [SEED_ALGORITHM, secret]
    lines += [f"{c['seat']}:{c['value']}" for c in sorted(contributions, key=lambda c: c["seat"])]
    return hashlib.sha256("".join(f"{line}\n" for line in lines).encode()).hexdigest()
