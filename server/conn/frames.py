"""Reading one connection's frames, with a stop that keeps what was already read.

`Frames.next` waits for the client's next frame. `Frames.stop` (a shutdown)
pauses reading from the network and cuts that wait short; from then on `next`
hands out only the frames already read, which wait in the WebSocket
connection's queue, and None when none is left. `Frames.restart` reads the
network again, so that the client's close reply can be seen.

The wait is cut short by cancelling the waiting task, the way `asyncio.timeout`
does, but without setting up a timeout for every frame: `next` runs once per
request, and a timeout that never fires cost more than the rest of the read.
"""

from __future__ import annotations

import asyncio

from websockets.asyncio.server import ServerConnection

from server.conn.fairconn import frames_waiting, pause_reading, resume_reading


class Frames:
    def __init__(self, conn: ServerConnection) -> None:
        self.conn = conn
        self.stopped = False
        self.reader: asyncio.Task[object] | None = None
        """The task waiting for the next frame, whose wait `stop` cuts short."""
        self.task: asyncio.Task[object] | None = None
        """The task that reads, from its first `next` on (kept: on Python 3.11, asking
        for the current task makes a system call)."""
        self.cut = False
        """`stop` cancelled the reader; that one cancellation is undone in `next`."""

    async def next(self) -> str | bytes | None:
        """The next frame; None once stopped and every frame already read was taken."""
        if not self.stopped:
            self.reader = self.task = self.task or asyncio.current_task()
            try:
                return await self.conn.recv()
            except asyncio.CancelledError:
                if not self._cut_by_stop():
                    raise
            finally:
                self.reader = None
        return await self._read_before_stop()

    def waiting(self) -> bool:
        """Whether a frame already read waits, so that `next` would return at once."""
        return frames_waiting(self.conn)

    def stop(self) -> None:
        self.stopped = True
        pause_reading(self.conn)
        if self.reader is not None and not self.cut:
            self.cut = True
            self.reader.cancel()

    def _cut_by_stop(self) -> bool:
        """Whether the cancellation caught was `stop`'s alone; if so it is undone.

        Another cancellation requested as well (the session is being torn down)
        still propagates.
        """
        if not self.cut or self.reader is None:
            return False
        self.cut = False
        return self.reader.uncancel() == 0

    def restart(self) -> None:
        resume_reading(self.conn)

    async def _read_before_stop(self) -> str | bytes | None:
        """A frame that came in before reading stopped, or None: none is left.

        `recv` takes a queued frame without waiting; when the queue is empty it
        would wait, and the zero timeout ends that. Taking a frame may resume
        reading from the network (the queue fell below its low mark), so
        reading is paused again.
        """
        try:
            async with asyncio.timeout(0):
                frame = await self.conn.recv()
        except TimeoutError:
            return None
        pause_reading(self.conn)
        return frame
