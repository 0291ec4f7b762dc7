"""The play page's own functions, run in the browser: the move text a pick makes, the
stock button's action, what "all home" tries, and the clock's warnings."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

import engine
from protocol import BoardView
from server.app import RaceServer
from tests.server._browser import Tab, code_box
from tests.server._players import greedy_line

HAND = """async ([board]) => {
  const hand = await import("./static/hand.js");
  let pick = null;
  const picks = [];
  for (let i = 0; i < 4; i += 1) {
    pick = hand.pickPile(pick, 0, board);
    picks.push(pick === null ? null : hand.pickText(pick));
  }
  return {
    picks,
    onto: hand.dropText({ source: "t", index: 0, count: 2 }, 6),
    home: hand.dropText({ source: "w", index: 0, count: null }, null),
    stock: hand.stockAction(board),
    candidates: hand.homeCandidates(board),
  };
}"""


@pytest.fixture
async def tab(race_server: RaceServer) -> AsyncIterator[Tab]:
    async with code_box(race_server.port) as opened:
        yield opened


def board_after(variant: str, deal: int, moves: list[str]) -> object:
    game = engine.replay(variant, b"deal:%d" % deal, moves)
    return json.loads(BoardView.from_engine(engine.view(game)).model_dump_json())


async def test_a_pile_tapped_again_takes_one_more_card_then_lets_go(tab: Tab) -> None:
    board = board_after("little-forty", 1, [])
    found = await tab.run(HAND, board)
    assert len(board["tableau"][0]) == 4  # type: ignore[index]
    assert found["picks"] == ["t1", "t1:2", "t1:3", "t1:4"]
    assert found["onto"] == "t1:2 t7"
    assert found["home"] == "w f"
    assert found["stock"] == "draw"


@pytest.mark.parametrize(
    ("variant", "action"),
    [
        ("little-forty", "draw"),
        ("little-milligan", "deal"),
        ("little-billie", "redeal"),
        ("double-canfield-40", "draw"),
    ],
)
async def test_the_stock_button_does_what_the_game_does(
    tab: Tab, variant: str, action: str
) -> None:
    board = board_after(variant, 1, [])
    found = await tab.run(HAND, board)
    assert found["stock"] == action
    assert engine.Move.parse(action).format() == action


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
async def test_all_home_tries_every_card_that_can_go_home(tab: Tab, variant: str) -> None:
    """At each position of the greedy player's first moves on a deal, every move that
    sends a card home is among what "all home" tries (as "source f")."""
    line = greedy_line(variant, b"deal:1")[:25]
    sent_home = 0
    for done in range(len(line) + 1):
        game = engine.replay(variant, b"deal:1", line[:done])
        texts = [move.format().split() for move in engine.legal_moves(game)]
        home = {words[0].split(":")[0] for words in texts if words[-1].startswith("f")}
        found = await tab.run(HAND, board_after(variant, 1, line[:done]))
        assert home <= {move.split()[0] for move in found["candidates"]}, line[:done]
        sent_home += len(home)
    assert sent_home > 0


CLOCK = """async ([left]) => {
  const { renderClock, warningFor } = await import("./static/racers.js");
  const said = [];
  const room = { phase: "racing", start_at_ms: 0, settings: { time_limit_s: 900 } };
  const watch = { room, endsAtMs: 900000 };
  const seen = [];
  for (const ms of left) {
    renderClock(watch, 900000 - ms, (text) => said.push(text));
    const clock = document.getElementById("clock");
    seen.push([warningFor(ms), clock.dataset.warn, clock.textContent]);
  }
  return { seen, said };
}"""


async def test_the_clock_warns_at_60_and_10_seconds_left_once_each(tab: Tab) -> None:
    found = await tab.run(CLOCK, [61_000, 60_000, 59_000, 10_000, 9_000])
    assert found["seen"] == [
        [0, "", "1:01 left"],
        [60, "60", "1:00 left"],
        [60, "60", "0:59 left"],
        [10, "10", "0:10 left"],
        [10, "10", "0:09 left"],
    ]
    assert found["said"] == ["60 seconds left", "10 seconds left"]


SETTINGS = """async ([variant, rated]) => {
  const lobby = await import("./static/lobby.js");
  const fieldset = document.createElement("fieldset");
  fieldset.innerHTML = `<select name="variant"><option value="${variant}" selected></option>
    </select><input name="deal_number" value=""><input name="minutes" value="15">
    <input name="max_players" value="4"><input type="checkbox" name="rated">`;
  fieldset.querySelector('[name="rated"]').checked = rated;
  const base = { max_players: 4, time_limit_s: 900, deal_number: null, winnable_only: false,
    practice: false, rated: false, idle_limit_s: null, rule_option: "unlimited-redeals" };
  const read = lobby.readSettings(fieldset, base);
  return { option: read.settings.rule_option,
    terms: lobby.termsText({ variant, settings: read.settings }) };
}"""


@pytest.mark.parametrize(
    ("variant", "rated", "kept"),
    [
        ("little-billie", False, True),
        ("little-billie", True, False),
        ("little-forty", False, False),
    ],
)
async def test_unlimited_redeals_stay_only_where_a_room_may_have_them(
    tab: Tab, variant: str, rated: bool, kept: bool
) -> None:
    found = await tab.run(SETTINGS, variant, rated)
    assert found["option"] == ("unlimited-redeals" if kept else "")
    assert ("Redeals: unlimited until blocked" in found["terms"]) is kept


async def test_a_hint_is_said_in_words_with_its_notation(tab: Tab) -> None:
    said = await tab.run(
        """async ([moves]) => {
          const { moveWords } = await import("./static/moves.js");
          return moves.map(moveWords);
        }""",
        ["t3:2 t7", "t9:1 t1", "t4 f", "w f2", "r t5", "recycle", "odd"],
    )
    assert said == [
        "2 cards of pile 3 onto pile 7 (t3:2 t7)",
        "pile 9's top card onto pile 1 (t9:1 t1)",
        "pile 4's top card home (t4 f)",
        "the waste's top card home (w f2)",
        "the reserve's top card onto pile 5 (r t5)",
        "turn the waste over (recycle)",
        "odd",
    ]
