"""The store's edge: Redis failures of availability become `StoreUnavailable`.

Callers of the store see its own errors only. What counts as unavailable follows
redis-py's exception tree: connection errors (which cover a server still loading
its data, and a pool with no free connection), timeouts, a replica that refuses
writes, a server out of memory, a cluster that is down or asks to try again.
Any other Redis error is a bug and goes through unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from redis import exceptions

from server.store._types import StoreUnavailable

UNAVAILABLE: tuple[type[Exception], ...] = (
    exceptions.ConnectionError,
    exceptions.TimeoutError,
    exceptions.ReadOnlyError,
    exceptions.OutOfMemoryError,
    exceptions.ClusterDownError,
    exceptions.TryAgainError,
)

P = ParamSpec("P")
T = TypeVar("T")


def translated(verb: Callable[P, Awaitable[T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """`verb`, raising `StoreUnavailable` (chained to the cause) for the errors above."""

    @functools.wraps(verb)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await verb(*args, **kwargs)
        except UNAVAILABLE as error:
            raise StoreUnavailable(f"storage unavailable: {error}") from error

    return guarded
