"""The play page in a browser, as a person uses it: join, ready, and moves made with
clicks, drags or the race screen's keys, each waiting for the server's answer."""

from __future__ import annotations

import json
import re
from typing import Any

import msgpack

import engine
from engine.solver import Budget, solve
from protocol import BoardView, CreateRoom, Ready, Settings
from server.clock import ManualClock
from tests.server._browser import Tab
from tests.server._client import Client

PILE_KEYS = "1234567890bcegijklmnopstuv"
STOCK_MOVES = {"draw", "recycle", "deal", "redeal"}
_MOVE = re.compile(r"(t(\d+)(?::(\d+))?|w|r) (t(\d+)|f\d*)")
VERSION = "() => document.getElementById('table').dataset.version"
STEP = "([step]) => document.body.dataset.step === step"
PHASE = "([phase]) => document.body.dataset.phase === phase"
SAID = "() => document.getElementById('said').textContent"
LOBBY_SAID = "() => document.getElementById('lobby-said').textContent"


def play_url(port: int, code: str = "") -> str:
    return f"http://127.0.0.1:{port}/play/{code}"


def record_frames(tab: Tab) -> list[dict[str, Any]]:
    """Every frame the page's WebSocket receives from now on, decoded."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(msgpack.unpackb(payload)))

    tab.page.on("websocket", on_socket)
    return frames


async def create(tab: Tab, name: str, button: str = "#create-room") -> None:
    """Type a name on the create form and make the room with `button` (or practise)."""
    await tab.wait_for(STEP, "create")
    await tab.page.fill("#create-name", name)
    await tab.page.click(button)
    await tab.wait_for(STEP, "room")


async def join(tab: Tab, name: str) -> None:
    """Type a name on the join form and take a seat."""
    await tab.wait_for(STEP, "join")
    await tab.page.fill("#join-name", name)
    await tab.page.click("#join-form button[type=submit]")
    await tab.wait_for(STEP, "room")


async def ready(tab: Tab) -> None:
    await tab.page.click("#ready")
    await tab.wait_for("() => document.getElementById('ready').textContent === 'Not ready'")


async def version(tab: Tab) -> int:
    return int(await tab.run(VERSION))


async def answered(tab: Tab, before: int, move: str) -> None:
    """Wait for the move_ok that takes the board past version `before`; a refusal fails."""
    said = await tab.wait_for(
        """([v]) => Number(document.getElementById('table').dataset.version) > v ? "ok"
          : document.getElementById('said').textContent.startsWith('Refused') &&
            document.getElementById('said').textContent""",
        before,
    )
    assert said == "ok", (move, said)


def _pile(index: str) -> str:
    return f'#table [data-target="t{int(index) - 1}"]'


async def click_move(tab: Tab, move: str) -> None:
    """`move` made with clicks (a run of more than one card dragged with the mouse)."""
    before = await version(tab)
    if move in STOCK_MOVES:
        await tab.page.click("#stock-action")
    else:
        found = _MOVE.fullmatch(move)
        assert found is not None, move
        source, index, count, _, onto = found.groups()
        drop = _pile(onto) if onto is not None else '#table [data-target="f"]'
        if count is not None and int(count) > 1:
            cards = tab.page.locator(f"{_pile(index)} .card")
            grab = cards.nth(await cards.count() - int(count))  # by its corner: the cards overlap
            await grab.drag_to(tab.page.locator(drop).first, source_position={"x": 4, "y": 3})
        else:
            await tab.page.locator(
                _pile(index) if index else f'#table [data-target="{source}"]'
            ).click()
            await tab.page.locator(drop).first.click()
    await answered(tab, before, move)


async def key_move(tab: Tab, move: str) -> None:
    """`move` typed with the race screen's keys."""
    before = await version(tab)
    if move in STOCK_MOVES:
        await tab.page.keyboard.press("d")
    else:
        found = _MOVE.fullmatch(move)
        assert found is not None, move
        source, index, count, _, onto = found.groups()
        key = source if index is None else PILE_KEYS[int(index) - 1]
        for _ in range(1 if count is None or int(count) == 1 else int(count)):
            await tab.page.keyboard.press(key)
        await tab.page.keyboard.press("f" if onto is None else PILE_KEYS[int(onto) - 1])
    await answered(tab, before, move)


async def seated_race(
    host: Client, port: int, tab: Tab, clock: ManualClock, *, variant: str, deal: int
) -> str:
    """The page joins `host`'s new room of `variant` on public deal `deal`; both say
    ready and the server's clock runs the countdown out: the race is on in the page."""
    created = await host.call(
        CreateRoom, variant=variant, name="Host", settings=Settings(deal_number=deal, countdown_s=3)
    )
    assert created.type == "joined", created
    await tab.page.goto(play_url(port, created.code))
    await join(tab, "Ada")
    await ready(tab)
    assert (await host.call(Ready, ready=True)).type == "ok"
    await tab.wait_for(PHASE, "countdown")
    clock.advance(3000)
    await tab.wait_for(PHASE, "racing")
    await tab.wait_for("() => document.getElementById('table').dataset.version === '0'")
    code: str = created.code
    return code


def assert_own_boards_only(
    frames: list[dict[str, Any]], seat: int, variant: str, seed: bytes
) -> None:
    """Every board the page received is its own seat's, exactly as the engine has it after
    the moves the race's log gives that seat (face-down cards as counts only), and no
    other racer's board ever came: a player's page cannot learn a card it should not."""
    events = [frame["event"] for frame in frames if frame["type"] == "event"]
    assert all(event["type"] != "board" for event in events)
    over = next(event for event in events if event["type"] == "race_over")
    log = next(line["log"] for line in over["ranking"] if line["seat"] == seat)
    moves = [entry["move"] for entry in log]
    boards = [(frame["version"], frame["board"]) for frame in frames if frame["type"] == "move_ok"]
    boards += [(0, event["board"]) for event in events if event["type"] == "race_started"]
    assert len(boards) == len(moves) + 1
    for version, board in boards:
        true = engine.replay(variant, seed, moves[:version])
        assert board == json.loads(BoardView.from_engine(engine.view(true)).model_dump_json())


def solver_line(variant: str, seed: bytes) -> list[str]:
    """The engine's solver's winning line of a deal it wins within 200,000 positions."""
    verdict = solve(engine.new_game(variant, seed), Budget(nodes=200_000))
    assert verdict.result == "won"
    return list(verdict.moves)
