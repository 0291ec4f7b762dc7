"""One bot process (``python -m bots.house``), started again whenever it exits.

Theory of operation. The worker keeps the seats it was told to play, with the
``drive`` line of each. While its process is up it writes each new ``drive`` or
``drop`` line to the process's standard input at once; when the process says
``up`` (first start or a restart) every seat it keeps is sent again, so a
process that died mid-race takes its seats back under the same tokens. A
process that exits is started again after a pause that doubles from
`first_backoff_s` up to `max_backoff_s`, and drops back to the first after a
minute of running. A ``gone`` line forgets the seat and is passed on to
`on_gone`. The protocol is JSON lines (docs/bots.md); a line the worker cannot
read is logged and skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from protocol import BotLevel

_log = logging.getLogger(__name__)

__all__ = ["BotWorker", "Drive"]

STEADY_S = 60.0
"""Running this long resets the restart pause to its first value."""


@dataclass(frozen=True, slots=True)
class Drive:
    """A seat the bot process plays: ``CODE:N``, the token that holds it, its level."""

    seat: str
    token: str
    level: BotLevel
    seed: int

    def line(self) -> str:
        fields = {"op": "drive", "seat": self.seat, "token": self.token}
        return _line({**fields, "level": self.level, "seed": self.seed})


class BotWorker:
    """One bot process run by `command`, its seats, and its restarts."""

    def __init__(
        self,
        command: Sequence[str],
        on_gone: Callable[[str, str], None],
        *,
        first_backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
    ) -> None:
        self.command, self.on_gone = list(command), on_gone
        self.first_backoff_s, self.max_backoff_s = first_backoff_s, max_backoff_s
        self.seats: dict[str, Drive] = {}
        self.up = False
        """The process said ``up`` and has not exited since."""
        self.came_up = asyncio.Event()
        """Set while `up`."""
        self.starts = 0
        self.rss_bytes = 0
        """The process's resident memory, as its last ``load`` line said."""
        self.process: asyncio.subprocess.Process | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="bot process")

    def drive(self, drive: Drive) -> None:
        self.seats[drive.seat] = drive
        self._send(drive.line())

    def drop(self, seat: str) -> None:
        if self.seats.pop(seat, None) is not None:
            self._send(_line({"op": "drop", "seat": seat}))

    async def close(self, grace_s: float) -> None:
        """Tell the process to stop; kill it if it has not exited within `grace_s`."""
        self._closing = True
        process = self.process
        if process is not None and process.returncode is None:
            self._send(_line({"op": "stop"}))
            with contextlib.suppress(OSError):
                assert process.stdin is not None
                process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), grace_s)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        backoff_s = self.first_backoff_s
        while not self._closing:
            began = loop.time()
            code = await self._run_once()
            if self._closing:
                return
            if loop.time() - began >= STEADY_S:
                backoff_s = self.first_backoff_s
            _log.warning("bot process exited (%s); starting it again in %g s", code, backoff_s)
            await asyncio.sleep(backoff_s)
            backoff_s = min(backoff_s * 2, self.max_backoff_s)

    async def _run_once(self) -> int | None:
        try:
            process = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
            )
        except OSError as error:
            _log.error("cannot start the bot process %s: %s", self.command, error)
            return None
        self.process = process
        self.starts += 1
        assert process.stdout is not None
        try:
            while line := await process.stdout.readline():
                self._heard(line)
        finally:
            self.up = False
            self.came_up.clear()
        return await process.wait()

    def _heard(self, raw: bytes) -> None:
        try:
            fields = json.loads(raw)
            op = fields["op"]
        except (ValueError, KeyError, TypeError):
            _log.warning("unreadable line from the bot process: %r", raw[:200])
            return
        if op == "up":
            self.up = True
            self.came_up.set()
            for drive in self.seats.values():
                self._send(drive.line())
        elif op == "gone" and isinstance(seat := fields.get("seat"), str):
            if self.seats.pop(seat, None) is not None:
                self.on_gone(seat, str(fields.get("reason", "")))
        elif op == "load":
            self.rss_bytes = int(fields.get("rss_bytes", 0))

    def _send(self, line: str) -> None:
        process = self.process
        if not self.up or process is None or process.stdin is None:
            return
        if process.stdin.is_closing():
            return
        process.stdin.write(line.encode() + b"\n")


def _line(fields: dict[str, Any]) -> str:
    return json.dumps(fields, separators=(",", ":"))
