"""The bot process's side of its contract with the server: JSON lines (docs/bots.md).

The server writes one command per line on the process's standard input
(`parse_command`); the process answers on its standard output with the
lines `up`, `driving`, `gone` and `load` build. A line that is not a
command is refused with a `ControlError` naming what is wrong; the caller
logs it and reads on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from bots.levels import LEVELS, Level
from protocol import Resume

SEAT = re.compile(r"[A-Z0-9]{1,16}:\d{1,3}")
"""A seat's name: the room code and the seat number, ``"CODE:N"``."""


class ControlError(ValueError):
    """A line from the server that is not a command this process knows."""


@dataclass(frozen=True, slots=True)
class Drive:
    seat: str
    token: str
    level: Level
    seed: int


@dataclass(frozen=True, slots=True)
class Drop:
    seat: str


@dataclass(frozen=True, slots=True)
class Stop:
    pass


Command = Drive | Drop | Stop


def parse_command(line: str) -> Command:
    """One line from the server as a command; `ControlError` saying why it is none."""
    try:
        fields = json.loads(line)
    except json.JSONDecodeError as error:
        raise ControlError(f"not JSON: {error}") from None
    if not isinstance(fields, dict):
        raise ControlError("a command is a JSON object")
    op = fields.get("op")
    if op == "stop":
        return Stop()
    if op == "drop":
        return Drop(_seat(fields))
    if op == "drive":
        return Drive(_seat(fields), _token(fields), _level(fields), _seed(fields))
    raise ControlError(f"unknown op {op!r}: one of drive, drop, stop")


def _seat(fields: dict[str, Any]) -> str:
    seat = _text(fields, "seat")
    if not SEAT.fullmatch(seat):
        raise ControlError(f"seat {seat!r} is not CODE:N")
    return seat


def _token(fields: dict[str, Any]) -> str:
    """A token as ``resume`` takes it (the protocol's schema says what one is)."""
    token = _text(fields, "token")
    try:
        Resume(id=0, token=token, last_seq=0)
    except ValidationError:
        raise ControlError("token is not a seat token") from None
    return token


def _text(fields: dict[str, Any], name: str) -> str:
    value = fields.get(name)
    if not isinstance(value, str) or not value:
        raise ControlError(f"{name} must be a non-empty string")
    return value


def _level(fields: dict[str, Any]) -> Level:
    value = fields.get("level")
    for level in LEVELS:
        if value == level:
            return level
    raise ControlError(f"level must be one of {', '.join(LEVELS)}, not {value!r}")


def _seed(fields: dict[str, Any]) -> int:
    value = fields.get("seed")
    if not isinstance(value, int) or isinstance(value, bool):
        raise ControlError(f"seed must be an integer, not {value!r}")
    return value


def up_line(pid: int) -> str:
    return _line(op="up", pid=pid)


def driving_line(seat: str) -> str:
    return _line(op="driving", seat=seat)


def gone_line(seat: str, reason: str) -> str:
    return _line(op="gone", seat=seat, reason=reason)


def load_line(bots: int, rss_bytes: int) -> str:
    return _line(op="load", bots=bots, rss_bytes=rss_bytes)


def _line(**fields: object) -> str:
    return json.dumps(fields, separators=(",", ":"))
