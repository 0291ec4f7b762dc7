"""Running a record command, and how a failure ends it: no server, a refusal (its code
named) or an accounts file that cannot be read or written is said on standard error,
with exit status 1."""

from __future__ import annotations

from client_cli.link.connection import ConnectFailed
from client_cli.records.account import run_account
from client_cli.records.challenges import create_from_seat, daily_board
from client_cli.records.desk import Desk
from client_cli.records.options import RecordOptions
from client_cli.records.reads import run_read
from client_cli.session.accounts import AccountFileError, UnknownAccount
from client_cli.words.describe import sentence


async def run_records(desk: Desk, options: RecordOptions) -> int:
    """Run one record command; its exit status."""
    try:
        if options.command == "account":
            return await run_account(desk, options)
        if options.command == "daily":
            return await daily_board(desk, options)
        if options.command == "challenge":
            return await create_from_seat(desk, options)
        return await run_read(desk, options)
    except ConnectFailed as error:
        desk.warn(sentence(str(error)))
    except (AccountFileError, UnknownAccount) as error:
        desk.warn(sentence(str(error)))
    return 1
