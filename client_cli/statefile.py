"""The small file that lets ``solrace resume`` get back into a room.

It holds the room's resume token, which is the only key to the seat, so it
is written readable by its owner alone, and replaced atomically so a crash
never leaves half a file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_NAME = "session.json"


@dataclass(frozen=True, slots=True)
class SavedSession:
    server: str
    code: str
    token: str
    seat: int | None
    """``None`` for a spectator."""
    last_seq: int = 0


def state_path(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_STATE_HOME/solrace/session.json``, else under ``~/.local/state``."""
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "solrace" / FILE_NAME


def load(path: Path) -> SavedSession | None:
    """The saved session, or ``None`` when there is none or it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return SavedSession(
            server=str(data["server"]),
            code=str(data["code"]),
            token=str(data["token"]),
            seat=None if data["seat"] is None else int(data["seat"]),
            last_seq=int(data.get("last_seq", 0)),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(path: Path, session: SavedSession) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        json.dump(asdict(session), file)
    temporary.replace(path)


def forget(path: Path) -> None:
    path.unlink(missing_ok=True)
