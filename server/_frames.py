"""Reading one connection's frames, with a stop that keeps what was already read.

`Frames.next` waits for the client's next frame. `Frames.stop` (a shutdown)
pauses reading from the network and cuts that wait short; from then on `next`
hands out only the frames already read, which wait in the WebSocket
connection's queue, and None when none is left. `Frames.restart` reads the
network again, so that the client's close reply can be seen.
"""

from __future__ import annotations

import asyncio

from websockets.asyncio.server import ServerConnection


class Frames:
    def __init__(self, conn: ServerConnection) -> None:
        self.conn = conn
        self.stopped = False
        self.waiting: asyncio.Timeout | None = None
        """The wait for the next frame, which `stop` cuts short."""

    async def next(self) -> str | bytes | None:
        """The next frame; None once stopped and every frame already read was taken."""
        if not self.stopped:
            try:
                async with asyncio.timeout(None) as self.waiting:
                    return await self.conn.recv()
            except TimeoutError:
                if not self.stopped:
                    raise
            finally:
                self.waiting = None
        return await self._read_before_stop()

    def stop(self) -> None:
        self.stopped = True
        self.conn.transport.pause_reading()
        if self.waiting is not None:
            self.waiting.reschedule(asyncio.get_running_loop().time())

    def restart(self) -> None:
        self.conn.transport.resume_reading()

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
        self.conn.transport.pause_reading()
        return frame
