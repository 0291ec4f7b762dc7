"""Saved seats on disk: what lets ``solrace resume`` get back into a room.

A saved seat is one (server, room, seat), each in its own file, so two
clients on one machine never overwrite each other's seat. It holds the
room's resume token, the only key to the seat, so its file is readable by
its owner alone and replaced atomically so a crash never leaves half a file.
A saved seat is forgotten when its race ends or its seat is left.

A host's bots run inside the host's client, so their tokens are kept in the
host's saved seat, to bring them back with it. Every field after ``seat``
has a default, so a file written by an older client still reads.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

SUFFIX = ".json"


@dataclass(frozen=True, slots=True)
class SavedSeat:
    server: str
    code: str
    token: str
    seat: int | None
    """``None`` for a spectator."""
    last_seq: int = 0
    variant: str = ""
    """The game's key; ``""`` when unknown."""
    name: str = ""
    """The player's name in the room; ``""`` when unknown."""
    practice: bool = False
    bots: tuple[str, ...] = ()
    """The resume tokens of the bots this client seated, Bot 1 first."""
    bot_speed: float = 1.0
    """The bots' moves a second."""
    saved_at: float = 0.0
    """When the seat was saved (seconds since the epoch, this machine's clock)."""
    ends_at: float | None = None
    """When the race's time runs out, by this machine's clock; ``None``: unknown."""


def state_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_STATE_HOME/solrace/rooms``, else under ``~/.local/state``."""
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "solrace" / "rooms"


def seat_path(directory: Path, server: str, code: str, seat: int | None) -> Path:
    """The file of one (server, room, seat); the server is named by a digest."""
    host = hashlib.sha256(server.encode()).hexdigest()[:12]
    place = "watch" if seat is None else f"seat{seat + 1}"
    return directory / f"{code}-{place}-{host}{SUFFIX}"


def load(path: Path) -> SavedSeat | None:
    """The seat saved in ``path``, or ``None`` when there is none or it cannot be read.

    A saved seat without its time of saving (from an older client) takes its file's."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return SavedSeat(
            server=str(data["server"]),
            code=str(data["code"]),
            token=str(data["token"]),
            seat=None if data["seat"] is None else int(data["seat"]),
            last_seq=int(data.get("last_seq", 0)),
            variant=str(data.get("variant", "")),
            name=str(data.get("name", "")),
            practice=data.get("practice") is True,
            bots=tuple(str(token) for token in data.get("bots", ())),
            bot_speed=float(data.get("bot_speed", 1.0)),
            saved_at=float(data.get("saved_at") or path.stat().st_mtime),
            ends_at=None if data.get("ends_at") is None else float(data["ends_at"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load_all(directory: Path) -> list[SavedSeat]:
    """Every readable saved seat, by room code, seat, then server."""
    found = [saved for path in paths(directory) if (saved := load(path)) is not None]
    return sorted(found, key=_order)


def paths(directory: Path) -> list[Path]:
    """The saved seats' files in ``directory``, readable or not."""
    try:
        return sorted(directory.glob("*" + SUFFIX))
    except OSError:
        return []


def _order(saved: SavedSeat) -> tuple[str, int, str]:
    return saved.code, -1 if saved.seat is None else saved.seat, saved.server


def save(directory: Path, seat: SavedSeat) -> None:
    path = seat_path(directory, seat.server, seat.code, seat.seat)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        json.dump(asdict(seat), file)
    temporary.replace(path)


def forget(directory: Path, server: str, code: str, seat: int | None) -> None:
    seat_path(directory, server, code, seat).unlink(missing_ok=True)
