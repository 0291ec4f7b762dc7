"""A server that goes down mid-race and comes back: the client rides it out."""

from __future__ import annotations

from client_cli.link.asking import asking
from protocol import AccountCreated, CreateAccount, CreateRoom, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store
from tests.client_cli._driver import Terminal, ready_and_go
from tests.conftest import OpenStore


async def test_a_move_typed_while_the_server_is_down_is_sent_once_it_is_back(
    store: Store, open_store: OpenStore, clock: ManualClock
) -> None:
    server = RaceServer(Config(port=0), store, clock)
    await server.start()
    servers, port = [server], server.port
    ada = Terminal(f"ws://127.0.0.1:{port}")
    try:
        settings = Settings(countdown_s=1, time_limit_s=120, max_players=1, deal_number=7)
        ada.start(
            lambda id_: CreateRoom(id=id_, variant="little-forty", name="Ada", settings=settings)
        )
        await ready_and_go(clock, ada)
        await ada.type("draw", expect="waste 3, top")
        await server.stop()
        await ada.wait_for("Connection lost. Reconnecting...")
        await ada.type("draw", expect="Not connected: move draw will be sent once")
        refused = await ada.type("t1 t2", expect="a move is already waiting")
        assert "type t1 t2 again once your board is back" in refused

        mark = len(ada.output)
        servers.append(RaceServer(Config(port=port), await open_store(), clock))
        await servers[-1].start()
        back = await ada.wait_for("waste 6, top", mark)
        assert back.index("Back in room") < back.index("Your board:") < back.index("waste 3, top")
        assert ada.session.tracker.version == 2 and not ada.session.reconnecting
    finally:
        await ada.close()
        for running in servers:
            await running.stop()


async def test_a_signed_in_player_is_signed_in_again_after_a_drop(
    store: Store, open_store: OpenStore, clock: ManualClock
) -> None:
    server = RaceServer(Config(port=0), store, clock)
    await server.start()
    servers, port = [server], server.port
    url = f"ws://127.0.0.1:{port}"
    gus = Terminal(url)
    try:
        async with asking(url) as asker:
            made = await asker.ask(CreateAccount(id=asker.next_id(), name="Gus"))
        assert isinstance(made, AccountCreated)
        gus.session.account_key = made.key
        settings = Settings(countdown_s=1, max_players=2)
        gus.start(
            lambda id_: CreateRoom(id=id_, variant="little-forty", name="G", settings=settings)
        )
        await gus.wait_for("#1 Gus  unrated  host")
        await server.stop()
        await gus.wait_for("Connection lost. Reconnecting...")
        mark = len(gus.output)
        servers.append(RaceServer(Config(port=port), await open_store(), clock))
        await servers[-1].start()
        await gus.wait_for("Back in room", mark)
        assert gus.session.conn is not None and gus.session.conn.account is not None
        assert gus.session.conn.account.name == "Gus"
        room = gus.session.tracker.room
        assert room is not None and [(p.name, p.account) for p in room.players] == [("Gus", True)]
    finally:
        await gus.close()
        for running in servers:
            await running.stop()
