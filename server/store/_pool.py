"""The store's pool of winnable deals: secret seeds the solver has proven winnable.

One Redis set per game (server.store._keys). Each verb is one command, atomic on
its own, so none needs a script: SPOP hands a seed to exactly one caller, however
many processes draw at once, and the seed leaves the pool as it is drawn, so no
seed is dealt twice. The seeds never leave the store but through a draw: nothing
lists them, only their number is told.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from server.store._edge import translated
from server.store._reads import StoreReads


class StorePool(StoreReads):
    """Pool half of `server.store.Store`."""

    @translated
    async def add_winnable(self, variant: str, seeds: Collection[bytes]) -> int:
        """Put seeds the solver won into the game's pool; how many were not there yet."""
        if not seeds:
            return 0
        added: int = await self._client.sadd(self._names.winnable(variant), *seeds)
        return added

    @translated
    async def draw_winnable(self, variant: str) -> bytes | None:
        """Take one seed of the game's pool, at random, for this caller alone; None when empty."""
        seed: Any = await self._client.spop(self._names.winnable(variant))
        return None if seed is None else bytes(seed)

    @translated
    async def winnable_counts(self, variants: Sequence[str]) -> dict[str, int]:
        """How many seeds each game's pool holds, read in one round trip."""
        pipe = self._client.pipeline(transaction=False)
        for variant in variants:
            pipe.scard(self._names.winnable(variant))
        counts = await pipe.execute()
        return {variant: int(count) for variant, count in zip(variants, counts, strict=True)}
