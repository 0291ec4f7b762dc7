"""Requests waiting for replies, and resending them on a new connection."""

from __future__ import annotations

from client_cli.link.pending import Pending
from protocol import Error, ErrorCode, MakeMove, Ok, Ready, Resume, Sync


async def test_a_reply_answers_the_request_with_its_id() -> None:
    pending = Pending()
    ready = Ready(id=pending.next_id(), ready=True)
    reply = pending.add(ready)
    assert pending.answered(Ok(id=ready.id)) == (ready, reply)
    assert pending.answered(Ok(id=ready.id)) == (None, None)


async def test_an_error_without_an_id_answers_the_oldest_request() -> None:
    pending = Pending()
    first, second = Sync(id=pending.next_id()), Sync(id=pending.next_id())
    pending.add(second)
    pending.add(first)
    limited = Error(id=None, code=ErrorCode.PROTO_RATE_LIMITED)
    assert pending.answered(limited)[0] == first
    assert pending.answered(limited)[0] == second
    assert pending.answered(limited) == (None, None)


async def test_renew_sends_resume_first_then_the_rest_under_new_ids() -> None:
    pending = Pending()
    move = MakeMove(id=pending.next_id(), move="draw", move_id="m1", expected_version=3)
    entry = Resume(id=pending.next_id(), token="t" * 24, last_seq=0)
    move_reply, entry_reply = pending.add(move), pending.add(entry)
    resume = Resume(id=pending.next_id(), token="t" * 24, last_seq=12)
    again = pending.renew(resume)
    assert again[0] == resume and len(again) == 2
    resent = again[1]
    assert isinstance(resent, MakeMove) and resent.id not in (move.id, entry.id)
    assert (resent.move_id, resent.expected_version) == ("m1", 3)
    assert pending.answered(Ok(id=resume.id)) == (resume, entry_reply)
    assert pending.answered(Ok(id=resent.id)) == (resent, move_reply)
