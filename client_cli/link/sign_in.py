"""Opening a room's connection as an account or as a guest, and saying which."""

from __future__ import annotations

from collections.abc import Callable

from client_cli.link.connection import ConnectFailed, Connection
from client_cli.words.describe import sentence
from client_cli.words.records import account_error

Write = Callable[[str], None]


async def open_as(url: str, key: str | None, write: Write) -> Connection | None:
    """A connection signed in with ``key`` (``None``: as a guest); ``None`` after
    saying why there is none (no server, or the key refused)."""
    try:
        connection = await Connection.open(url, key=key)
    except ConnectFailed as error:
        write(sentence(str(error)))
        return None
    if connection.refusal is not None:
        refused = account_error(connection.refusal)
        write(f"Signing in failed. {refused} To play as a guest instead, add --guest.")
        await connection.close()
        return None
    if connection.account is not None:
        write(f"Signed in as {connection.account.name}.")
    return connection
