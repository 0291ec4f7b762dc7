"""Seeded deals that anyone can reproduce (the full recipe is in docs/deals.md).

Theory of operation: a race seed never feeds a general-purpose generator.
Each use of randomness has a *label* (``"deal/0"`` for the first deal,
``"deal/k"`` for Little Billie's k-th redeal), and the label alone picks an
HMAC-SHA256 sub-stream keyed by the seed. Adding a new use of randomness, or
drawing the uses in another order, therefore never changes an existing deal.
Words of the stream become unbiased integers by rejection sampling, and the
integers drive a Fisher-Yates shuffle of the canonical card slots. The output
of a released `DEAL_ALGO_VERSION` never changes; golden vectors pin it.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator

DEAL_ALGO_VERSION = 1
"""Version of the whole recipe; part of every HMAC message."""
MAX_SEED_BYTES = 64
"""A race seed is 1 to this many bytes."""

_BLOCK_WORDS = struct.Struct(">8I")
_SPAN = 1 << 32


def block(seed: bytes, variant: str, label: str, counter: int) -> bytes:
    """Block ``counter`` (32 bytes) of the sub-stream ``label``."""
    message = f"solrace/{DEAL_ALGO_VERSION}/{variant}/{label}/{counter}".encode()
    return hmac.digest(seed, message, hashlib.sha256)


def words(seed: bytes, variant: str, label: str) -> Iterator[int]:
    """The sub-stream as big-endian unsigned 32-bit words, without end."""
    counter = 0
    while True:
        yield from _BLOCK_WORDS.unpack(block(seed, variant, label, counter))
        counter += 1


def below(stream: Iterator[int], n: int) -> int:
    """An unbiased integer in ``range(n)``: words at or above the last whole
    multiple of ``n`` are skipped, so every remainder is equally likely."""
    if not 1 <= n <= _SPAN:
        raise ValueError(f"range size out of bounds: {n}")
    limit = _SPAN - _SPAN % n
    while True:
        word = next(stream)
        if word < limit:
            return word % n


def permutation(seed: bytes, variant: str, label: str, n: int) -> list[int]:
    """``range(n)`` shuffled by Fisher-Yates, swapping index i (from n-1 down
    to 1) with an index drawn below i + 1."""
    stream = words(seed, variant, label)
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def shuffled_cards(seed: bytes, variant: str, label: str, decks: int) -> list[int]:
    """The cards of ``decks`` decks in dealing order: slot ``s`` holds card ``s % 52``."""
    return [slot % 52 for slot in permutation(seed, variant, label, decks * 52)]
