"""Plain HTTP GETs to a real server, sent the way a browser sends them, and the
modules a page's script imports."""

from __future__ import annotations

import asyncio
import posixpath
import re

from server.app import RaceServer

Reply = tuple[int, dict[str, str], bytes]


async def get(server: RaceServer, path: str, **headers: str) -> Reply:
    """Status, headers (lower-case names) and body of ``GET path``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    raw = await reader.read()
    writer.close()
    await writer.wait_closed()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    fields = dict(line.split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), {k.lower(): v for k, v in fields.items()}, body


def module_imports(name: str, script: str) -> set[str]:
    """The files module `name` imports, as paths under static/ like `name`."""
    folder = posixpath.dirname(name)
    found = re.findall(r'from "(\.\.?/[^"]+)"', script)
    return {posixpath.normpath(posixpath.join(folder, path)) for path in found}
