"""The spectator page's msgpack, run in headless Chromium against Python's msgpack.

The page's module is imported in a page of the real server and called
directly. Every format is written by hand here (Python's packer always picks
the shortest, so the long forms of small values would otherwise go untested).
"""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest

from protocol import BoardView, Hello, JoinRoom, decode_client, encode
from protocol.events import RaceStarted
from server.app import RaceServer
from tests.server._browser import Tab, code_box

DECODE = """async ([cases]) => {
  const { decode } = await import("./static/msgpack.js");
  const plain = (v) => {
    if (typeof v === "bigint") return { big: v.toString() };
    // A whole Number beyond 2^53 as its exact value (JSON would round it again).
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) return { double: BigInt(v).toString() };
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
  return values.map((v) => {
    try {
      return hex(encode(revive(v)));
    } catch (e) {
      return { error: e.name + ": " + e.message };
    }
  });
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
        # Beyond 2^53 a 64-bit integer is the nearest double (a Number, as the
        # library reads it); the server never sends one (see msgpack.js).
        (_head(0xCF, ">Q", 2**53 + 1), {"double": str(2**53)}),
        (_head(0xCF, ">Q", 2**64 - 1), {"double": str(2**64)}),
        (b"\xd0\x9c", -100),
        (_head(0xD1, ">h", -30000), -30000),
        (_head(0xD2, ">i", -2_000_000_000), -2_000_000_000),
        (_head(0xD3, ">q", 7), 7),
        (_head(0xD3, ">q", -(2**53 - 1)), -(2**53 - 1)),
        (_head(0xD3, ">q", -(2**63)), {"double": str(-(2**63))}),
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
        # Bad UTF-8 is not refused: the library has no strict option, and
        # Python's msgpack, which writes the server's frames, never writes it.
        # A short str is read by the library's own decoder (here each bad byte
        # becomes the code point of its value), a long one by TextDecoder.
        (b"\xa2\xff\xfe", "\xff\xfe"),
        (_head(0xDA, ">H", 300) + b"\xff" * 300, "\ufffd" * 300),
        (_head(0xC4, ">B", 2) + b"\x01\xff", {"bin": [1, 255]}),
        (_head(0xC5, ">H", 1) + b"\x07", {"bin": [7]}),
        (_head(0xC6, ">I", 0), {"bin": []}),
        (b"\x92\x01\xa1a", [1, "a"]),
        (msgpack.packb(many), many),
        (_head(0xDD, ">I", 2) + b"\xc0\xc3", [None, True]),
        (b"\x81\xa4type\xa5hello", {"type": "hello"}),
        (msgpack.packb(pairs), pairs),
        (_head(0xDF, ">I", 1) + b"\xa1k\x90", {"k": []}),
    ]


BAD_FRAMES = {
    "92 01": "truncated",
    "01 02": "1 byte left after the value",
    "01 02 03": "2 bytes left after the value",
    "d4 01 00": "an extension type",
    "c7 01 05 00": "an extension type",
    "c1": "0xc1",
    "da 00": "truncated",
    "": "truncated",
    "82 01 a1 61 02 a1 62": "a map key that is not a str",
    "81 a9 5f 5f 70 72 6f 74 6f 5f 5f 01": "__proto__",
}


@pytest.fixture
async def tab(race_server: RaceServer) -> AsyncIterator[Tab]:
    async with code_box(race_server.port) as opened:
        yield opened


async def test_every_msgpack_format_decodes(tab: Tab) -> None:
    cases = _decode_cases()
    decoded = await tab.run(DECODE, [data.hex() for data, _ in cases])
    for (data, want), got in zip(cases, decoded, strict=True):
        assert got == want, data.hex()


async def test_a_map_key_named_like_a_prototype_touches_no_prototype(tab: Tab) -> None:
    script = """async () => {
      const { decode } = await import("./static/msgpack.js");
      const text = (s) => new TextEncoder().encode(s);
      let refused = null;
      try {
        decode(Uint8Array.of(0x81, 0xa9, ...text("__proto__"), 0x81, 0xa8, ...text("polluted"), 1));
      } catch (e) {
        refused = e.name;
      }
      const map = decode(Uint8Array.of(0x81, 0xa8, ...text("toString"), 1));
      return [refused, Object.keys(map), map.toString, ({}).polluted, typeof ({}).toString];
    }"""
    assert await tab.run(script) == ["MsgpackError", ["toString"], 1, None, "function"]


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
    blobs = [{"bin": [1, 2]}, {"bin": list(range(256))}]
    encoded = await tab.run(ENCODE, blobs)
    assert [msgpack.unpackb(bytes.fromhex(data)) for data in encoded] == [
        b"\x01\x02",
        bytes(range(256)),
    ]
    # Not exact in JavaScript, so not written as an int; the page never sends one.
    (beyond,) = await tab.run(ENCODE, [2**53])
    assert beyond == msgpack.packb(float(2**53)).hex()
    (big,) = await tab.run(ENCODE, [{"big": str(2**64 - 1)}])
    assert big["error"].startswith("MsgpackError: a BigInt"), big
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
