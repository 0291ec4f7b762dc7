"""Redis commands packed in C, with hiredis.

redis-py's asyncio connections pack every command in Python, argument by argument;
the store sends pipelines of EVALSHA calls with about twenty arguments each, where
that packing is a large share of the client's CPU per move. hiredis packs the same
bytes in one call. `pack_batch` packs the script runner's pipelines (written on the
store's own connection, `server.store._pipe`); `packing_in_c` makes the pool's
connections pack their commands the same way, by overriding redis-py's public
`pack_command`. (redis-py also parses replies with hiredis by itself when it is
installed.) An argument hiredis does not take (a bool, None) goes through redis-py's
own packing, which accepts or refuses it as usual.
"""

from __future__ import annotations

from collections.abc import Sequence

import hiredis
from redis.asyncio.connection import AbstractConnection, Connection
from redis.typing import EncodableT


def pack_command(*args: EncodableT) -> list[bytes]:
    """The bytes redis-py would write for the command `args`."""
    command = args[0]
    if isinstance(command, str) and " " in command:
        args = (*command.split(), *args[1:])
    try:
        return [hiredis.pack_command(args)]  # type: ignore[arg-type]  # stub: 1-tuple
    except TypeError:
        return Connection().pack_command(*args)


def pack_batch(commands: Sequence[tuple[EncodableT, ...]]) -> list[bytes]:
    """Each command as `pack_command` packs it (redis-py's `pack_commands` also regroups
    the bytes of a batch in Python, which costs more than writing them as they are)."""
    return [chunk for command in commands for chunk in pack_command(*command)]


class PackedConnection(AbstractConnection):
    """A connection of `packing_in_c`'s making."""

    def pack_command(self, *args: EncodableT) -> list[bytes]:
        return pack_command(*args)


def packing_in_c(base: type[AbstractConnection]) -> type[AbstractConnection]:
    """`base` (the class redis-py picked for the URL), packing with hiredis."""
    packed: type[AbstractConnection] = type(f"Packed{base.__name__}", (PackedConnection, base), {})
    return packed
