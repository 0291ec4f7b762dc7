"""``solrace history``, ``profile`` and ``leaderboard``: what anyone may read, as tables
or (``--json``) as the server's records.

History pages follow the server's cursor (``next_before``) from the newest, so
page N is the same with or without ``--game``; a leaderboard page is an offset.
"""

from __future__ import annotations

from client_cli.link.asking import Asker, asking
from client_cli.records.desk import Desk
from client_cli.records.options import PAGE_SIZE, RecordOptions
from client_cli.words.records import history_text, leaderboard_text, profile_text
from protocol import (
    Error,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    HistoryReply,
    LeaderboardReply,
    ProfileReply,
)


async def run_read(desk: Desk, options: RecordOptions) -> int:
    """One of ``history``, ``profile`` or ``leaderboard``; its exit status."""
    if options.command == "history":
        return await history(desk, options)
    if options.command == "profile":
        return await profile(desk, options)
    return await leaderboard(desk, options)


def _own_key(desk: Desk, options: RecordOptions) -> str | None:
    """With no name given the command reads your account: sign in to learn its name as
    the server knows it now (it may have been renamed on another machine)."""
    return None if options.name else desk.account().key


def _whose(asker: Asker, options: RecordOptions) -> str | Error:
    """The name to read: the one given, or the signed-in account's (or the refusal)."""
    connection = asker.connection
    if options.name:
        return options.name
    if connection.refusal is not None:
        return connection.refusal
    assert connection.account is not None  # signed in: no refusal
    return connection.account.name


async def history(desk: Desk, options: RecordOptions) -> int:
    found: HistoryReply | None = None
    async with asking(desk.server, _own_key(desk, options)) as asker:
        name = _whose(asker, options)
        if isinstance(name, Error):
            return desk.refused(name)
        for page in range(1, options.page + 1):
            if found is not None and found.next_before is None:
                desk.warn(
                    f"{found.name}'s history has no page {options.page}: it ends at {page - 1}."
                )
                return 1
            request = GetHistory(
                id=asker.next_id(),
                name=name,
                variant=options.game or None,
                before=None if found is None else found.next_before,
                limit=PAGE_SIZE,
            )
            reply = await asker.ask(request)
            if not isinstance(reply, HistoryReply):
                return desk.refused(reply)
            found = reply
    assert found is not None  # at least one page was asked for
    if options.json:
        desk.write(found.model_dump_json(exclude={"id"}))
    else:
        more = found.next_before is not None
        desk.write(history_text(found.name, found.races, options.page, more, desk.zone))
    return 0


async def profile(desk: Desk, options: RecordOptions) -> int:
    async with asking(desk.server, _own_key(desk, options)) as asker:
        name = _whose(asker, options)
        if isinstance(name, Error):
            return desk.refused(name)
        reply = await asker.ask(GetProfile(id=asker.next_id(), name=name))
    if not isinstance(reply, ProfileReply):
        return desk.refused(reply)
    desk.write(
        reply.profile.model_dump_json() if options.json else profile_text(reply.profile, desk.zone)
    )
    return 0


async def leaderboard(desk: Desk, options: RecordOptions) -> int:
    offset = (options.page - 1) * PAGE_SIZE
    async with asking(desk.server) as asker:
        request = GetLeaderboard(
            id=asker.next_id(),
            variant=options.game,
            deal_number=options.deal,
            offset=offset,
            limit=PAGE_SIZE,
        )
        reply = await asker.ask(request)
    if not isinstance(reply, LeaderboardReply):
        return desk.refused(reply)
    if options.json:
        desk.write(reply.model_dump_json(exclude={"id"}))
        return 0
    desk.write(leaderboard_text(reply, desk.zone))
    if offset + len(reply.rows) < reply.total:
        deal = "" if options.deal is None else f" --deal {options.deal}"
        desk.write(f"More: solrace leaderboard {options.game}{deal} --page {options.page + 1}")
    return 0
