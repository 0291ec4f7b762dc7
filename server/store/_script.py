"""A Lua script with named KEYS and ARGV, and the call that binds values to those names.

Theory of operation. A script declares the names of its KEYS and of its ARGV. Its
Lua source starts with a generated header that binds each name to its slot
(``local room, events = KEYS[1], KEYS[2]``), so the body reads names, never
indexes; `Script.bind` takes the values by the same names and lays them out in the
declared order, so no caller builds a positional list. A script that takes a
variable number of keys or arguments finds them after the named ones, from
``KEY_REST + 1`` and ``ARG_REST + 1``. Every key a script touches is among its KEYS,
as Redis asks of scripts; names come from server.store._keys.

Replies are arrays whose first element is a `Status`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cached_property
from operator import itemgetter
from typing import Any, NamedTuple

from redis.typing import EncodableT

from server.store._types import AlreadyFinished, NotFound, VersionConflict


class Status(IntEnum):
    """First element of every script reply."""

    OK = 0
    DUPLICATE = 1
    CONFLICT = 2
    FINISHED = 3
    MISSING = 4


def checked(reply: list[Any]) -> list[Any]:
    """The reply after its status; a refusing status raised as the store's error."""
    if reply[0] == Status.OK:  # the common case, without making the enum member
        return reply[1:]
    status = Status(reply[0])
    if status is Status.MISSING:
        raise NotFound
    if status is Status.CONFLICT:
        raise VersionConflict(int(reply[1]))
    if status is Status.FINISHED:
        raise AlreadyFinished
    return reply[1:]


_STATUSES = ", ".join(status.name for status in Status)
_STATUS_VALUES = ", ".join(str(status.value) for status in Status)


class Call(NamedTuple):
    """One script call: the script and its KEYS and ARGV in the declared order."""

    script: Script
    keys: Sequence[str]
    args: Sequence[EncodableT]


@dataclass(frozen=True)
class Script:
    """A Lua body run with `keys` and `args` bound to locals of those names.

    `helpers` is Lua placed between the header and the body (shared functions,
    which may use the bound names).
    """

    keys: tuple[str, ...]
    args: tuple[str, ...]
    body: str
    helpers: str = ""
    source: str = field(init=False)
    sha: str = field(init=False)
    """The SHA1 of `source`, which is how Redis names a loaded script."""

    def __post_init__(self) -> None:
        source = "\n".join((self._header(), self.helpers, self.body))
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "sha", hashlib.sha1(source.encode()).hexdigest())

    def bind(
        self,
        keys: Mapping[str, str],
        args: Mapping[str, EncodableT],
        more_keys: Sequence[str] = (),
        more_args: Sequence[EncodableT] = (),
    ) -> Call:
        """The call with these values; `keys` and `args` must name exactly the declared ones.

        `more_keys` and `more_args` follow the named ones (``KEY_REST``, ``ARG_REST``).
        """
        if len(keys) != len(self.keys) or len(args) != len(self.args):
            raise ValueError(self._misnamed(keys, args))
        try:
            key_values, arg_values = self._keys_of(keys), self._args_of(args)
        except KeyError:
            raise ValueError(self._misnamed(keys, args)) from None
        return Call(self, [*key_values, *more_keys], [*arg_values, *more_args])

    @cached_property
    def _keys_of(self) -> Callable[[Mapping[str, str]], tuple[str, ...]]:
        return _getter(self.keys)

    @cached_property
    def _args_of(self) -> Callable[[Mapping[str, EncodableT]], tuple[EncodableT, ...]]:
        return _getter(self.args)

    def _misnamed(self, keys: Mapping[str, str], args: Mapping[str, EncodableT]) -> str:
        return f"keys {sorted(keys)} and args {sorted(args)}: expected {self.keys}, {self.args}"

    def _header(self) -> str:
        lines = [f"local {_STATUSES} = {_STATUS_VALUES}"]
        lines += _bind_line(self.keys, "KEYS")
        lines += _bind_line(self.args, "ARGV")
        lines.append(f"local KEY_REST, ARG_REST = {len(self.keys)}, {len(self.args)}")
        return "\n".join(lines)


def _getter(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """A function taking the values of `names` from a mapping, as a tuple in that order."""
    if len(names) == 1:
        (name,) = names
        return lambda values: (values[name],)
    return itemgetter(*names)


def _bind_line(names: tuple[str, ...], table: str) -> list[str]:
    if not names:
        return []
    slots = ", ".join(f"{table}[{index}]" for index in range(1, len(names) + 1))
    return [f"local {', '.join(names)} = {slots}"]
