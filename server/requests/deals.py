"""Where the secret of a new deal comes from: fresh random bytes, or, in a
winnable-only room, a seed drawn from the host's pool of deals the solver has
proven winnable (`server.store`, filled by ``solrace-server fill-pool``).

A room holds the secret of its next race from its creation or rematch on
(`server.lifecycle.room`). A winnable-only room draws its seed at those two points, and
when the host turns winnable-only on or changes the game while it is on,
since a seed is proven for one game only (`server.lifecycle.room.needs_new_deal`). The
draw takes the seed out of the pool, so it is dealt once. If the room then
refuses the request, the seed goes back: no room holds it, so nobody has seen
even its commit. The seed commit and reveal are the same as for any secret deal.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from protocol import ErrorCode, Settings
from server.lifecycle.room import RoomError
from server.services import Services

__all__ = ["fresh_secret"]


@asynccontextmanager
async def fresh_secret(
    services: Services, variant: str, settings: Settings, *, rematch: bool = False
) -> AsyncIterator[bytes]:
    """The secret for a new deal of `variant`; a pool seed returns to the pool when
    the request is refused inside the block (`RoomError`). ``rematch``: the room is
    finished, so its settings cannot change now (said when the pool is empty)."""
    if not settings.winnable_only:
        yield services.new_secret()
        return
    seed = await services.store.draw_winnable(variant)
    if seed is None:
        raise RoomError(ErrorCode.ROOM_NO_WINNABLE_DEAL, _empty_pool(variant, rematch))
    try:
        yield seed
    except RoomError:
        await services.store.add_winnable(variant, [seed])
        raise


def _empty_pool(variant: str, rematch: bool) -> str:
    fill = f"`solrace-server fill-pool --game {variant} --count N`"
    if rematch:
        return (
            f"no winnable {variant} deal is left on this server for a rematch: ask again"
            f" once whoever runs the server has added some with {fill}, or open a new room"
        )
    return (
        f"no winnable {variant} deal is left on this server: turn winnable-only off,"
        f" or whoever runs the server can add some with {fill}"
    )
