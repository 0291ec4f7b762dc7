"""The spectator page's scripts, run in headless Chromium: msgpack, SHA-256, board drawing.

The page's modules are imported in a page of the real server and called
directly; Python's msgpack and hashlib give the expected answers. Every
msgpack format is written by hand here (Python's packer always picks the
shortest, so the long forms of small values would otherwise go untested).
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest

from protocol import BoardView, Hello, JoinRoom, Settings, decode_client, encode
from protocol.events import RaceStarted
from server.app import RaceServer
from tests.server._browser import Tab, browser, open_tab

DECODE = """async ([cases]) => {
  const { decode } = await import("./static/msgpack.js");
  const plain = (v) => {
    if (typeof v === "bigint") return { big: v.toString() };
    if (v instanceof Uint8Array) return { bin: Array.from(v) };
    if (v instanceof Map) return { map: Array.from(v, ([k, x]) => [plain(k), plain(x)]) };
    if (Array.isArray(v)) return v.map(plain);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
    }
    return v;
  };
  const hex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
  return cases.map((h) => {
    try { return plain(decode(hex(h))); } catch (e) { return { error: e.name + ": " + e.message }; }
  });
}"""

ENCODE = """async ([values]) => {
  const { encode } = await import("./static/msgpack.js");
  const revive = (v) => {
    if (Array.isArray(v)) return v.map(revive);
    if (v !== null && typeof v === "object") {
      if ("bin" in v) return Uint8Array.from(v.bin);
      if ("big" in v) return BigInt(v.big);
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]));
    }
    return v;
  };
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return values.map((v) => hex(encode(revive(v))));
}"""


def _head(code: int, fmt: str, length: int) -> bytes:
    return bytes([code]) + struct.pack(fmt, length)


def _str(code: int, fmt: str, text: str) -> bytes:
    data = text.encode()
    return _head(code, fmt, len(data)) + data


def _decode_cases() -> list[tuple[bytes, Any]]:
    """(bytes, the value as the page gives it back in plain JSON)."""
    many = list(range(20))
    pairs = {f"k{i}": i for i in range(20)}
    return [
        (b"\x00", 0),
        (b"\x7f", 127),
        (b"\xff", -1),
        (b"\xe0", -32),
        (b"\xcc\xc8", 200),
        (_head(0xCD, ">H", 60000), 60000),
        (_head(0xCE, ">I", 4_000_000_000), 4_000_000_000),
        (_head(0xCF, ">Q", 5), 5),
        (_head(0xCF, ">Q", 2**53 - 1), 2**53 - 1),
        (_head(0xCF, ">Q", 2**64 - 1), {"big": str(2**64 - 1)}),
        (b"\xd0\x9c", -100),
        (_head(0xD1, ">h", -30000), -30000),
        (_head(0xD2, ">i", -2_000_000_000), -2_000_000_000),
        (_head(0xD3, ">q", 7), 7),
        (_head(0xD3, ">q", -(2**63)), {"big": str(-(2**63))}),
        (b"\xca" + struct.pack(">f", 1.5), 1.5),
        (b"\xcb" + struct.pack(">d", -0.1), -0.1),
        (b"\xc0", None),
        (b"\xc2", False),
        (b"\xc3", True),
        (b"\xa0", ""),
        (b"\xa2\xc3\xa9", "é"),
        (_str(0xD9, ">B", "x" * 40), "x" * 40),
        (_str(0xDA, ">H", "♥" * 300), "♥" * 300),
        (_str(0xDB, ">I", "Qh"), "Qh"),
        (_head(0xC4, ">B", 2) + b"\x01\xff", {"bin": [1, 255]}),
        (_head(0xC5, ">H", 1) + b"\x07", {"bin": [7]}),
        (_head(0xC6, ">I", 0), {"bin": []}),
        (b"\x92\x01\xa1a", [1, "a"]),
        (msgpack.packb(many), many),
        (_head(0xDD, ">I", 2) + b"\xc0\xc3", [None, True]),
        (b"\x81\xa4type\xa5hello", {"type": "hello"}),
        (msgpack.packb(pairs), pairs),
        (_head(0xDF, ">I", 1) + b"\xa1k\x90", {"k": []}),
        (b"\x82\x01\xa1a\x02\xa1b", {"map": [[1, "a"], [2, "b"]]}),
    ]


BAD_FRAMES = {
    "92 01": "truncated",
    "01 02": "1 bytes left after the value",
    "d4 01 00": "an extension type",
    "c7 01 05 00": "an extension type",
    "c1": "0xc1",
    "a2 ff fe": "invalid UTF-8",
    "da 00": "truncated",
    "": "truncated",
}


@pytest.fixture
async def tab(race_server: RaceServer) -> AsyncIterator[Tab]:
    """The page's code-box view: its modules load, and nothing connects."""
    async with browser() as chromium:
        opened = await open_tab(chromium, f"http://127.0.0.1:{race_server.port}/watch/")
        yield opened
        assert opened.errors == []


async def test_every_msgpack_format_decodes(tab: Tab) -> None:
    cases = _decode_cases()
    decoded = await tab.run(DECODE, [data.hex() for data, _ in cases])
    for (data, want), got in zip(cases, decoded, strict=True):
        assert got == want, data.hex()


async def test_a_map_key_named_like_a_prototype_is_only_a_key(tab: Tab) -> None:
    script = """async () => {
      const { decode } = await import("./static/msgpack.js");
      const map = decode(Uint8Array.of(0x81, 0xa9, ...new TextEncoder().encode("__proto__"), 1));
      const bare = Object.getPrototypeOf(map) === null;
      return [bare, Object.keys(map), map["__proto__"], ({}).polluted];
    }"""
    assert await tab.run(script) == [True, ["__proto__"], 1, None]


async def test_broken_msgpack_is_refused_with_the_reason(tab: Tab) -> None:
    results = await tab.run(DECODE, [frame.replace(" ", "") for frame in BAD_FRAMES])
    for (frame, reason), result in zip(BAD_FRAMES.items(), results, strict=True):
        assert result["error"].startswith("MsgpackError: "), frame
        assert reason in result["error"], (frame, result)


async def test_server_frames_decode_to_the_fields_the_server_sent(tab: Tab) -> None:
    board = BoardView(
        variant="little-forty",
        tableau=(("Kh", "??"), ()),
        foundations=("??", None),
        stock=40,
        waste=("Tc",),
        reserve=None,
        reserve_hidden=0,
        passes_left=None,
        base_rank=1,
        outcome="playing",
        progress=3,
        total=104,
    )
    started = RaceStarted(race_no=1, start_at_ms=2**41, ends_at_ms=2**41 + 900_000, board=board)
    (got,) = await tab.run(DECODE, [encode(started).hex()])
    assert got == msgpack.unpackb(encode(started), use_list=True)


async def test_encoding_matches_msgpack_and_the_server_reads_it(tab: Tab) -> None:
    values: list[Any] = [
        0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**53 - 1,
        -1, -32, -33, -128, -129, -32768, -32769, -(2**31), -(2**31) - 1, -(2**53 - 1),
        0.5, -1e300, None, True, False, "", "x" * 31, "x" * 32, "é" * 200, "y" * 70000,
        list(range(15)), list(range(16)), list(range(70000)), {}, {"a": [1, {"b": None}]},
        {f"k{i}": i for i in range(16)},
    ]  # fmt: skip
    encoded = await tab.run(ENCODE, values)
    for value, data in zip(values, encoded, strict=True):
        assert data == msgpack.packb(value).hex(), repr(value)[:40]
    blobs = [{"bin": [1, 2]}, {"bin": list(range(256))}, {"big": str(2**64 - 1)}]
    encoded = await tab.run(ENCODE, blobs)
    assert [msgpack.unpackb(bytes.fromhex(data)) for data in encoded] == [
        b"\x01\x02",
        bytes(range(256)),
        2**64 - 1,
    ]
    requests = [
        {"type": "hello", "version": 1, "client": "solrace watch page", "id": 1},
        {"type": "join_room", "code": "ABC234", "name": "web", "role": "spectator", "id": 2},
    ]
    hello, join = await tab.run(ENCODE, requests)
    assert decode_client(bytes.fromhex(hello)) == Hello(
        id=1, version=1, client="solrace watch page"
    )
    assert decode_client(bytes.fromhex(join)) == JoinRoom(
        id=2, code="ABC234", name="web", role="spectator"
    )


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
    assert drawn["notes"] == "unlimited passes · 9/104 home · foundations start at 7"


async def test_twenty_six_fans_are_drawn_as_rows_and_passes_as_redeals(tab: Tab) -> None:
    fans = [["Ac", "2c"] for _ in range(26)]
    board = _board(
        variant="little-billie",
        tableau=fans,
        foundations=[None] * 8,
        stock=0,
        waste=[],
        reserve=None,
        reserve_hidden=0,
        passes_left=1,
        base_rank=1,
    )
    drawn = await tab.run(DRAW, board)
    assert drawn["piles"] == ["pile fan"] * 26
    assert drawn["counts"] == [], "Little Billie has no stock"
    assert drawn["notes"] == "1 redeal left · 9/104 home"


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
        "code": "ABC234", "variant": "little-forty", "settings": settings, "phase": "lobby",
        "race_no": 1, "host": 0, "spectators": 1, "start_at_ms": None, "seed_commit": None,
        "seed": None, "players": [],
    }  # fmt: skip
    commit = hashlib.sha256(b"deal:3").hexdigest()
    board = _board(variant="little-forty")
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
    assert (players[1]["progress"], players[1]["moves"], players[1]["outcome"]) == (
        2,
        4,
        "resigned",
    )
    assert players[1]["finished_at_ms"] == 9900
    assert got["room"]["phase"] == "racing" and got["room"]["start_at_ms"] == 9000
    assert got["commit"] == commit and got["seqs"] == 9
    assert got["boards"]["1"]["version"] == 4
