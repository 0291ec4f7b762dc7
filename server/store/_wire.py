"""Redis connections that pack commands in C, with hiredis.

redis-py's asyncio connections pack every command in Python, argument by argument;
the store sends pipelines of EVALSHA calls with about twenty arguments each, where
that packing is a large share of the client's CPU per move. hiredis packs the same
bytes in one call. (redis-py also parses replies with hiredis by itself when it is
installed.) An argument hiredis does not take (a bool, None) goes
through redis-py's own packing, which accepts or refuses it as usual.

`closed_by_redis` tells whether a connection redis-py holds has already seen Redis
close it, before its transport is taken over (`server.store._pipe`, `._pubsub`).
"""

from __future__ import annotations

from collections.abc import Sequence

import hiredis
from redis.asyncio.connection import AbstractConnection
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


def packing_in_c(base: type[AbstractConnection]) -> type[AbstractConnection]:
    """`base` (the class redis-py picked for the URL), packing with hiredis."""
    packed: type[AbstractConnection] = type(f"Packed{base.__name__}", (PackedConnection, base), {})
    return packed


def closed_by_redis(connection: AbstractConnection) -> bool:
    """Whether redis-py's stream of `connection` has read the end of Redis's side, or its
    transport is closing: a transport taken over in that state would wait forever."""
    reader, writer = connection._reader, connection._writer
    return reader is None or writer is None or reader.at_eof() or writer.is_closing()
