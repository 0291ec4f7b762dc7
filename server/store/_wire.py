"""Redis connections that pack commands in C, with hiredis, and exchange a batch cheaply.

redis-py's asyncio connections pack every command in Python, argument by argument;
the store sends pipelines of EVALSHA calls with about twenty arguments each, where
that packing is a large share of the client's CPU per move. hiredis packs the same
bytes in one call. (redis-py also parses replies with hiredis by itself when it is
installed.) An argument hiredis does not take (a bool, None) goes
through redis-py's own packing, which accepts or refuses it as usual.

`exchange` writes a batch of packed commands and reads their replies under one
timeout object, moved on before each write and read so that each gets the whole
socket timeout as in redis-py: redis-py puts each write in a task of its own
(`asyncio.wait_for`) and each read under a timeout of its own, which costs more CPU
than the round trip. Failures are redis-py's: `ConnectionError` for a lost
connection, `TimeoutError` when Redis does not answer within the socket timeout,
and the connection is then closed (it may hold replies no one will read).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from typing import Any

import hiredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.typing import EncodableT


class PackedConnection(AbstractConnection):
    """A connection of `packing_in_c`'s making."""

    def pack_command(self, *args: EncodableT) -> list[bytes]:
        command = args[0]
        if isinstance(command, str) and " " in command:
            args = (*command.split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]  # type: ignore[arg-type]  # stub: 1-tuple
        except TypeError:
            return super().pack_command(*args)

    def pack_batch(self, commands: Sequence[tuple[EncodableT, ...]]) -> list[bytes]:
        """Each command as `pack_command` packs it (redis-py's `pack_commands` also
        regroups the bytes of a batch in Python, which costs more than writing them
        as they are)."""
        return [chunk for command in commands for chunk in self.pack_command(*command)]

    async def exchange(self, packed: list[bytes], count: int) -> list[Any]:
        """Write `packed` and read `count` replies; an error reply is returned, not raised."""
        if not self.is_connected:
            await self.connect_check_health(check_health=False)
        try:
            async with asyncio.timeout(None) as deadline:
                writer = self._writer
                assert writer is not None
                self._restart(deadline)
                writer.writelines(packed)
                await writer.drain()
                replies = []
                for _ in range(count):
                    self._restart(deadline)
                    replies.append(await self._reply())
                return replies
        except TimeoutError:
            await self.disconnect(nowait=True)
            raise RedisTimeoutError("Redis did not answer within the socket timeout") from None
        except OSError as error:
            await self.disconnect(nowait=True)
            raise RedisConnectionError(f"writing to Redis failed: {error}") from error
        except BaseException:
            await self.disconnect(nowait=True)
            raise

    def _restart(self, deadline: asyncio.Timeout) -> None:
        """Give the next write or read the whole socket timeout, as redis-py does.

        The loop's clock moves once per iteration, so a read that follows a write
        without waiting finds its deadline already where it belongs (moving a timer
        costs more than the rest of the exchange).
        """
        if self.socket_timeout is not None:
            when = asyncio.get_running_loop().time() + self.socket_timeout
            if deadline.when() != when:
                deadline.reschedule(when)

    async def _reply(self) -> Any:
        try:
            return await self.read_response(timeout=math.inf)
        except ResponseError as error:
            return error


def packing_in_c(base: type[AbstractConnection]) -> type[AbstractConnection]:
    """`base` (the class redis-py picked for the URL), packing with hiredis."""
    packed: type[AbstractConnection] = type(f"Packed{base.__name__}", (PackedConnection, base), {})
    return packed
