"""The spectator page's other scripts, run in headless Chromium: the seed check,
board drawing and the room kept from events (msgpack: test_msgpack_js.py).

The page's modules are imported in a page of the real server and called
directly; hashlib and the protocol's models give the expected answers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from protocol import BoardView, Settings
from server.app import RaceServer
from tests.server._browser import Tab, code_box


@pytest.fixture
async def tab(race_server: RaceServer) -> AsyncIterator[Tab]:
    async with code_box(race_server.port) as opened:
        yield opened


SHA = """async ([inputs]) => {
  const seed = await import("./static/seed.js");
  const out = [];
  for (const hex of inputs) {
    const bytes = seed.hexToBytes(hex);
    out.push([seed.bytesToHex(seed.sha256Here(bytes)), await seed.sha256Hex(bytes)]);
  }
  return out;
}"""


async def test_sha256_here_and_by_the_browser_agree_with_hashlib(tab: Tab) -> None:
    inputs = [b"", b"abc", b"deal:7", b"a" * 55, b"b" * 56, b"c" * 64, bytes(range(256)) * 5]
    results = await tab.run(SHA, [data.hex() for data in inputs])
    for data, (here, browser_digest) in zip(inputs, results, strict=True):
        assert here == browser_digest == hashlib.sha256(data).hexdigest(), len(data)


async def test_a_page_without_crypto_subtle_checks_the_seed_itself(tab: Tab) -> None:
    """As on a plain http page at a LAN address, where the browser offers no crypto.subtle."""
    seed = b"deal:12"
    script = """async ([seed]) => {
      Object.defineProperty(globalThis.crypto, "subtle", { value: undefined });
      const { checkSeed } = await import("./static/seed.js");
      return [globalThis.crypto.subtle === undefined, await checkSeed(seed, "00")];
    }"""
    gone, checked = await tab.run(script, seed.hex())
    assert gone is True
    assert checked == {"ok": False, "digest": hashlib.sha256(seed).hexdigest()}


async def test_a_seed_is_checked_against_its_commitment(tab: Tab) -> None:
    seed = b"deal:12"
    secret = bytes(range(32))
    script = """async ([seed, commit, secret, secretCommit]) => {
      const { checkSeed, describeSeed } = await import("./static/seed.js");
      return [
        await checkSeed(seed, commit), await checkSeed(seed, secretCommit),
        await checkSeed(secret, secretCommit), describeSeed(seed), describeSeed(secret),
      ];
    }"""
    commit, secret_commit = hashlib.sha256(seed).hexdigest(), hashlib.sha256(secret).hexdigest()
    good, bad, secret_ok, public, hidden = await tab.run(
        script, seed.hex(), commit, secret.hex(), secret_commit
    )
    assert good == {"ok": True, "digest": commit}
    assert bad == {"ok": False, "digest": commit}
    assert secret_ok["ok"] is True
    assert public == 'public deal 12 (seed "deal:12")'
    assert hidden == f"secret seed {secret.hex()}"


DRAW = """async ([board]) => {
  const { drawBoard, shownCards } = await import("./static/board.js");
  const root = drawBoard(board);
  document.body.append(root);
  const all = (s) => Array.from(root.querySelectorAll(s));
  return {
    shown: shownCards(root),
    hiddenBacks: all('.card.back[data-card="??"]').length,
    counts: all(".card.back[data-count]").map((c) => c.querySelector(".count").textContent),
    red: all(".card.red").map((c) => c.dataset.card),
    black: all(".card.black").map((c) => c.dataset.card),
    faces: all(".card.face").map((c) => c.querySelector(".corner").textContent),
    labels: all(".card.face").map((c) => c.getAttribute("aria-label")),
    piles: all(".pile").map((p) => p.className),
    emptyFoundations: all(".foundation .card.empty").length,
    notes: root.querySelector(".board-notes").textContent,
  };
}"""


def _board(**fields: Any) -> dict[str, Any]:
    board = {
        "variant": "double-canfield-40",
        "tableau": [["Kh", "??", "Tc"], [], ["As"]],
        "foundations": ["??", "??", None, None],
        "stock": 12,
        "waste": ["2d", "??", "Qs", "9h"],
        "reserve": "Jd",
        "reserve_hidden": 7,
        "passes_left": None,
        "base_rank": 7,
        "outcome": "playing",
        "progress": 9,
        "total": 104,
    }
    board.update(fields)
    BoardView.model_validate_json(json.dumps(board))
    return board


def _billie_board(fans: list[list[str]], redeals_left: int) -> dict[str, Any]:
    """A Little Billie board of `fans`, no foundation started."""
    return _board(
        variant="little-billie",
        tableau=fans,
        foundations=[None] * 8,
        stock=0,
        waste=[],
        reserve=None,
        reserve_hidden=0,
        passes_left=redeals_left,
        base_rank=1,
    )


async def test_a_board_is_drawn_card_by_card_with_hidden_cards_as_backs(tab: Tab) -> None:
    drawn = await tab.run(DRAW, _board())
    assert drawn["shown"] == ["??", "Qs", "9h", "Jd", "??", "??", "Kh", "??", "Tc", "As"]
    assert drawn["hiddenBacks"] == drawn["shown"].count("??") == 4
    assert drawn["counts"] == ["12", "7"], "stock and reserve are face-down counts"
    assert drawn["red"] == ["9h", "Jd", "Kh"]
    assert drawn["black"] == ["Qs", "Tc", "As"]
    assert drawn["faces"] == ["Q♠", "9♥", "J♦", "K♥", "10♣", "A♠"]
    assert drawn["labels"][:2] == ["queen of spades", "nine of hearts"]
    assert drawn["piles"] == ["pile column"] * 3
    assert drawn["emptyFoundations"] == 2
    assert drawn["notes"] == (
        "unlimited passes · 9/104 home · foundations start at 7"
        " · 4 cards hidden until every racer still racing has seen them"
    )


async def test_twenty_six_fans_are_drawn_as_rows_and_passes_as_redeals(tab: Tab) -> None:
    board = _billie_board([["Ac", "2c"] for _ in range(26)], redeals_left=1)
    drawn = await tab.run(DRAW, board)
    assert drawn["piles"] == ["pile fan"] * 26
    assert drawn["counts"] == [], "Little Billie has no stock"
    assert drawn["notes"] == "1 redeal left · 9/104 home"


async def test_little_forty_counts_its_turn_overs_left(tab: Tab) -> None:
    forty: dict[str, Any] = {"variant": "little-forty", "foundations": [None] * 8}
    forty |= {"reserve": None, "reserve_hidden": 0, "base_rank": 1, "stock": 64, "waste": []}
    forty |= {"tableau": [["Kh", "Tc"], ["As"]]}
    # Three passes through the stock in all: the first, then two turn-overs of the waste.
    drawn = [await tab.run(DRAW, _board(**forty, passes_left=left)) for left in (2, 1)]
    assert [notes["notes"] for notes in drawn] == [
        "2 turn-overs left · 9/104 home",
        "1 turn-over left · 9/104 home",
    ]


FANS = """async ([board, width]) => {
  const { drawBoard } = await import("./static/board.js");
  const panel = document.createElement("article");
  panel.className = "panel";
  panel.style.width = `${width}px`;
  panel.append(drawBoard(board));
  document.body.append(panel);
  const hidden = [];
  for (const fan of panel.querySelectorAll(".pile.fan")) {
    const cards = Array.from(fan.querySelectorAll(".card"));
    cards.slice(0, -1).forEach((card, i) => {
      const corner = card.querySelector(".corner").getBoundingClientRect();
      const next = cards[i + 1].getBoundingClientRect();
      if (corner.right > next.left + 0.5) hidden.push(card.dataset.card);
    });
  }
  const fanRects = Array.from(panel.querySelectorAll(".fan"), (f) => f.getBoundingClientRect());
  const columns = new Set(fanRects.map((rect) => Math.round(rect.left))).size;
  const inside = fanRects.every((rect) => rect.right <= panel.getBoundingClientRect().right);
  panel.remove();
  return { hidden, columns, inside };
}"""


@pytest.mark.parametrize("width", [430, 340])
async def test_the_cards_under_a_fans_top_show_their_rank_and_suit(tab: Tab, width: int) -> None:
    board = _billie_board([["Th", "Qs", "Td", "Kc"] for _ in range(26)], redeals_left=2)
    drawn = await tab.run(FANS, board, width)
    assert drawn["hidden"] == [], "a card's corner is covered by the card above it"
    assert drawn["columns"] == 4 and drawn["inside"]


FOUNDATIONS = """async ([board]) => {
  const { drawBoard, shownCards } = await import("./static/board.js");
  const root = drawBoard(board);
  return {
    shown: shownCards(root),
    slots: Array.from(root.querySelectorAll(".foundation"), (slot) =>
      [slot.getAttribute("aria-label"), slot.dataset.direction ?? null, slot.textContent]),
  };
}"""


async def test_little_billies_foundations_show_their_suit_and_direction(tab: Tab) -> None:
    board = _board(
        variant="little-billie",
        tableau=[["Ac", "2c"]] * 26,
        foundations=["3c", None, None, None, None, "??", None, "Qs"],
        stock=0,
        waste=[],
        reserve=None,
        reserve_hidden=0,
        passes_left=2,
        base_rank=1,
    )
    drawn = await tab.run(FOUNDATIONS, board)
    up, down = "up from the Ace", "down from the King"
    assert drawn["slots"] == [
        [f"foundation 1: clubs, {up}", "up", "3♣♣↑"],
        [f"foundation 2: diamonds, {up}", "up", "♦↑"],
        [f"foundation 3: hearts, {up}", "up", "♥↑"],
        [f"foundation 4: spades, {up}", "up", "♠↑"],
        [f"foundation 5: clubs, {down}", "down", "♣↓"],
        [f"foundation 6: diamonds, {down}", "down", "↓"],
        [f"foundation 7: hearts, {down}", "down", "♥↓"],
        [f"foundation 8: spades, {down}", "down", "Q♠♠↓"],
    ]
    assert drawn["shown"][:3] == ["3c", "??", "Qs"], "the tops are drawn as before"
    forty = await tab.run(FOUNDATIONS, _board(variant="little-forty", foundations=["Ah", None]))
    assert forty["slots"] == [["foundation 1", None, "A♥♥"], ["foundation 2", None, ""]]


async def test_a_card_that_is_not_a_card_is_refused(tab: Tab) -> None:
    script = """async ([cards]) => {
      const { parseCard } = await import("./static/board.js");
      const one = (c) => { try { parseCard(c); return "ok"; } catch (e) { return e.message; } };
      return cards.map(one);
    }"""
    results = await tab.run(script, ["Ah", "??", "1h", "Ax", "A", None])
    assert results[:2] == ["ok", "ok"]
    assert all(result.startswith("not a card") for result in results[2:])


ROOM = """async ([room, frames]) => {
  const { Watch } = await import("./static/room.js");
  const watch = new Watch(room.code);
  watch.replace(room, 0);
  const applied = frames.map(([seq, event]) => watch.onEvent(seq, event));
  return { applied, room: watch.room, seqs: watch.lastSeq, boards: Object.fromEntries(watch.boards),
           commit: watch.commitSeen, result: watch.result && watch.result.seed };
}"""


async def test_room_events_change_the_room_as_the_server_did(tab: Tab) -> None:
    settings = Settings(countdown_s=1, deal_number=3).model_dump()
    room = {
        "code": "ABC234", "variant": "double-canfield-40", "settings": settings, "phase": "lobby",
        "race_no": 1, "host": 0, "spectators": 1, "start_at_ms": None, "seed_commit": None,
        "seed": None, "players": [],
    }  # fmt: skip
    commit = hashlib.sha256(b"deal:3").hexdigest()
    board = _board(progress=1)  # the deal puts a base card home
    frames = [
        (1, {"type": "player_joined", "seat": 0, "name": "Ada"}),
        (2, {"type": "player_joined", "seat": 1, "name": "Bob"}),
        (2, {"type": "player_joined", "seat": 5, "name": "old news"}),
        (3, {"type": "ready", "seat": 0, "ready": True}),
        (4, {"type": "countdown", "race_no": 1, "starts_in_ms": 1000, "start_at_ms": 9000,
             "seed_commit": commit}),
        (5, {"type": "race_started", "race_no": 1, "start_at_ms": 9000, "ends_at_ms": 909000,
             "board": board}),
        (6, {"type": "progress", "seat": 1, "progress": 2, "moves": 4, "outcome": "playing"}),
        (6, {"type": "board", "seat": 1, "board": board, "version": 4, "at_ms": 9500}),
        (6, {"type": "board", "seat": 1, "board": board, "version": 3, "at_ms": 9400}),
        (7, {"type": "player_left", "seat": 0, "away": True}),
        (8, {"type": "player_finished", "seat": 1, "outcome": "resigned", "at_ms": 9900,
             "elapsed_ms": 900}),
        (9, {"type": "something_new", "seat": 1}),
    ]  # fmt: skip
    got = await tab.run(ROOM, room, frames)
    old_news = {2, 8}
    assert got["applied"] == [i not in old_news for i in range(len(frames))]
    players = {player["seat"]: player for player in got["room"]["players"]}
    assert sorted(players) == [0, 1]
    assert players[0]["away"] is True and players[0]["ready"] is True
    assert (players[0]["progress"], players[0]["moves"]) == (1, 0)
    assert (players[1]["progress"], players[1]["moves"], players[1]["outcome"]) == (
        2,
        4,
        "resigned",
    )
    assert players[1]["finished_at_ms"] == 9900
    assert got["room"]["phase"] == "racing" and got["room"]["start_at_ms"] == 9000
    assert got["commit"] == commit and got["seqs"] == 9
    assert got["boards"]["1"]["version"] == 4


async def test_a_commitment_from_an_earlier_race_is_not_held_against_the_next(tab: Tab) -> None:
    settings = Settings(countdown_s=1).model_dump()
    first, second = hashlib.sha256(b"seed one").hexdigest(), hashlib.sha256(b"seed two").hexdigest()
    room = {
        "code": "ABC234", "variant": "little-forty", "settings": settings, "phase": "countdown",
        "race_no": 1, "host": 0, "spectators": 1, "start_at_ms": 9000, "seed_commit": first,
        "seed": None, "players": [],
    }  # fmt: skip
    # The page saw race 1's countdown, then was away until race 2 was over: a snapshot.
    over = {**room, "phase": "finished", "race_no": 2, "seed_commit": second,
            "seed": b"seed two".hex()}  # fmt: skip
    script = """async ([room, over]) => {
      const { Watch } = await import("./static/room.js");
      const { renderPage } = await import("./static/view.js");
      const watch = new Watch(room.code);
      watch.replace(room, 4);
      const seen = watch.commitSeen;
      watch.replace(over, 40);
      renderPage(watch, 0);
      return [seen, watch.commitSeen];
    }"""
    seen, after = await tab.run(script, room, over)
    assert seen == first
    assert after is None, "race 2's commitment was never seen at its countdown"
    check = "() => document.getElementById('seed-check')"
    await tab.wait_for(f"() => ({check})().dataset.ok !== ''")
    assert await tab.run(f"() => ({check})().dataset.ok") == "true"
    assert "published with the results" in await tab.run(f"() => ({check})().textContent")


async def test_a_reply_in_a_finished_room_brings_the_races_results(tab: Tab) -> None:
    settings = Settings(countdown_s=1).model_dump()
    room = {
        "code": "ABC234", "variant": "little-forty", "settings": settings, "phase": "finished",
        "race_no": 2, "host": 0, "spectators": 1, "start_at_ms": 9000,
        "seed_commit": hashlib.sha256(b"seed two").hexdigest(), "seed": b"seed two".hex(),
        "players": [],
    }  # fmt: skip
    results = {"type": "race_over", "race_no": 2, "start_at_ms": 9000, "ended_at_ms": 9900,
               "seed": room["seed"], "seed_commit": room["seed_commit"], "ranking": []}  # fmt: skip
    script = """async ([room, results]) => {
      const { Watch } = await import("./static/room.js");
      const watch = new Watch(room.code);
      watch.replace(room, 40, { ...results, race_no: 1 });
      const stale = watch.result;
      watch.replace(room, 40, results);
      const kept = watch.result && watch.result.ended_at_ms;
      watch.replace({ ...room, phase: "lobby", race_no: 3, seed: null }, 41, null);
      return [stale, kept, watch.result];
    }"""
    assert await tab.run(script, room, results) == [None, 9900, None]


async def test_the_idle_warnings_a_snapshot_says_stand_are_kept_until_their_racer_moves(
    tab: Tab,
) -> None:
    settings = Settings(countdown_s=1, idle_limit_s=30).model_dump()
    racer = {"seat": 1, "name": "Bob", "ready": True, "away": False, "outcome": "playing",
             "progress": 0, "moves": 3, "finished_at_ms": None,
             "idle_timeout_at_ms": None}  # fmt: skip
    room = {
        "code": "ABC234", "variant": "little-forty", "settings": settings, "phase": "racing",
        "race_no": 1, "host": 1, "spectators": 1, "start_at_ms": 9000,
        "seed_commit": hashlib.sha256(b"seed").hexdigest(), "seed": None, "players": [racer],
    }  # fmt: skip
    warned = {**room, "players": [{**racer, "idle_timeout_at_ms": 70000}]}
    script = """async ([room, warned]) => {
      const { Watch } = await import("./static/room.js");
      const watch = new Watch(room.code);
      watch.replace(room, 10);
      const before = watch.idleTimeoutAt(1);
      watch.onEvent(11, { type: "idle_warning", seat: 1, timeout_at_ms: 60000 });
      const told = watch.idleTimeoutAt(1);
      watch.replace(warned, 12);
      const kept = watch.idleTimeoutAt(1);
      watch.onEvent(13, { type: "progress", seat: 1, progress: 1, moves: 4, outcome: "playing" });
      const moved = watch.idleTimeoutAt(1);
      watch.replace(warned, 14);
      watch.replace(room, 15);
      return [before, told, kept, moved, watch.idleTimeoutAt(1)];
    }"""
    assert await tab.run(script, room, warned) == [None, 60000, 70000, None, None]


async def test_one_hidden_card_is_told_in_the_singular(tab: Tab) -> None:
    drawn = await tab.run(DRAW, _board(tableau=[["Kh"]], foundations=[None] * 4, waste=["??"]))
    assert drawn["notes"].endswith(" · 1 card hidden until every racer still racing has seen it")


async def test_the_lobby_after_a_rematch_tells_the_last_race_in_words(tab: Tab) -> None:
    places = [("Bob", "won", 104, 161_250), ("Ada", "timeout", 61, 180_000),
              ("Cy", "stuck", 40, 95_500), ("Dee", "timeout", 12, 170_000),
              ("Eve", "resigned", 3, 20_000)]  # fmt: skip
    summary = {
        "race_no": 1, "variant": "little-forty",
        "ranking": [
            {"rank": seat + 1, "seat": seat, "name": name, "outcome": outcome,
             "progress": progress, "elapsed_ms": elapsed}
            for seat, (name, outcome, progress, elapsed) in enumerate(places)
        ],
        "ended_by_host": {"seat": 1, "elapsed_ms": 180_000},
    }  # fmt: skip
    script = """async ([summary]) => {
      const { applyEvent } = await import("./static/room.js");
      const { lastRaceLines } = await import("./static/words.js");
      const room = { phase: "finished", race_no: 1, players: [] };
      const lobby = applyEvent(room, { type: "rematch", race_no: 2, last_race: summary });
      const older = applyEvent(room, { type: "rematch", race_no: 2 });
      return [lastRaceLines(lobby.last_race), older.last_race];
    }"""
    lines, older = await tab.run(script, summary)
    assert lines == [
        "Last race (race 1), ended early by the host, Ada, at 3:00.0:",
        "1. Bob won in 2:41.2",
        "2. Ada was stopped by the host after 3:00.0 with 61/104 cards home",
        "3. Cy got stuck after 1:35.5 with 40/104 cards home",
        "4. Dee timed out after 2:50.0 with 12/104 cards home",
        "5. Eve resigned after 0:20.0 with 3/104 cards home",
    ]
    assert older is None, "a rematch from a server that does not sum the race up"


async def test_a_seats_account_and_rating_follow_joins_new_settings_and_rated_races(
    tab: Tab,
) -> None:
    settings = Settings(countdown_s=1).model_dump()
    room = {
        "code": "ABC234", "variant": "little-forty", "settings": settings, "phase": "finished",
        "race_no": 1, "host": 0, "spectators": 0, "start_at_ms": 5000, "seed_commit": None,
        "seed": None, "players": [],
    }  # fmt: skip
    change = {"seat": 0, "name": "Ada", "before": 1500, "after": 1514, "provisional": True}
    frames = [
        (1, {"type": "player_joined", "seat": 0, "name": "Ada", "account": True, "rating": 1500,
             "provisional": True}),
        (2, {"type": "player_joined", "seat": 1, "name": "Bot", "bot": True}),
        (3, {"type": "player_joined", "seat": 2, "name": "Cy"}),
        (4, {"type": "race_rated", "race_no": 1, "changes": [change]}),
    ]  # fmt: skip
    got = await tab.run(ROOM, room, frames)
    shown = [
        (p["account"], p["bot"], p["rating"], p["provisional"]) for p in got["room"]["players"]
    ]
    assert shown == [
        (True, False, 1514, True),
        (False, True, None, False),
        (False, False, None, False),
    ]
    assert got["room"]["rating_changes"] == [change]
    stale = (5, {"type": "race_rated", "race_no": 7, "changes": [{**change, "after": 1}]})
    got = await tab.run(ROOM, room, [*frames, stale])
    assert got["room"]["players"][0]["rating"] == 1514, "another race's changes are not this one's"
    assert got["room"]["rating_changes"] == [change]
    later = [
        *frames,
        (6, {"type": "settings", "variant": "little-billie", "settings": settings,
             "ratings": [{"seat": 0, "rating": 1620, "provisional": False}]}),
        (7, {"type": "rematch", "race_no": 2}),
    ]  # fmt: skip
    got = await tab.run(ROOM, room, later)
    ada, bot, _ = got["room"]["players"]
    assert (ada["rating"], ada["provisional"], bot["rating"]) == (1620, False, None)
    assert got["room"]["rating_changes"] is None, "a rematch leaves the last race's changes"
