"""A compact, versioned binary form of `GameState`, for storage.

Layout (format 1), one byte per card (see `engine.cards`):

- format number, variant number (its place in `VARIANT_KEYS`), base rank;
- passes, as an unsigned LEB128 varint;
- each foundation's top card, 255 when empty;
- the tableau piles, then stock, waste and reserve, each bottom to top, with
  bit 7 set on a pile's last card, and an empty pile as the single byte 64;
- the seed's length, then the seed (empty where the variant needs none).

Format 2 is format 1 for a game under a rule option (`GameState.option`): the
option's number (its place in the variant's `VARIANT_OPTIONS`, from 1) follows
the variant number, and ``home_at_redeal`` follows passes, as a varint. A game
under the standard rules is still written in format 1, byte for byte.

A two-deck game stays under 200 bytes. Decoding checks everything it reads,
so bad bytes raise `EngineError` instead of yielding an impossible state.
"""

from __future__ import annotations

from engine import _foundation
from engine.deal import MAX_SEED_BYTES
from engine.errors import EngineError
from engine.rules import Rules
from engine.state import EMPTY, GameState
from engine.variants import VARIANT_KEYS, VARIANT_OPTIONS, find_variant

FORMAT = 1
FORMAT_OPTION = 2
_LAST = 0x80
_EMPTY_PILE = 0x40
_EMPTY_TOP = 0xFF
_MAX_VARINT_BYTES = 5


def to_bytes(state: GameState) -> bytes:
    """The storage form of ``state``."""
    rules = find_variant(state.variant, state.option)
    if rules.option:
        out = [FORMAT_OPTION, _VARIANT_NUMBER[rules.key], _option_number(rules), state.base_rank]
        _put_varint(out, state.passes)
        _put_varint(out, state.home_at_redeal)
    else:
        out = [FORMAT, _VARIANT_NUMBER[rules.key], state.base_rank]
        _put_varint(out, state.passes)
    out += map(_TOP_BYTE.get, state.foundations, state.foundations)
    for pile in (*state.tableau, state.stock, state.waste, state.reserve):
        if pile:
            out += pile
            out[-1] |= _LAST
        else:
            out.append(_EMPTY_PILE)
    out.append(len(state.seed))
    out += state.seed
    return bytes(bytearray(out))  # twice as fast as bytes(out) from a list


_VARIANT_NUMBER = {key: number for number, key in enumerate(VARIANT_KEYS)}


def _option_number(rules: Rules) -> int:
    return VARIANT_OPTIONS[rules.key].index(rules.option) + 1


_TOP_BYTE = {EMPTY: _EMPTY_TOP}
"""A foundation's top as a byte, where it is not its card."""


def from_bytes(data: bytes) -> GameState:
    """The state ``to_bytes`` made; `EngineError` for anything else."""
    try:
        state, end = _read(data)
    except IndexError:
        raise EngineError("game state bytes end too soon") from None
    if end != len(data):
        raise EngineError("game state bytes run on past their end")
    _check_cards(find_variant(state.variant, state.option), state)
    return state


def _put_varint(out: list[int], value: int) -> None:
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def _read(data: bytes) -> tuple[GameState, int]:
    if data[0] not in (FORMAT, FORMAT_OPTION):
        raise EngineError(f"unknown game state format {data[0]}")
    if data[1] >= len(VARIANT_KEYS):
        raise EngineError(f"unknown variant number {data[1]}")
    rules, at = find_variant(VARIANT_KEYS[data[1]]), 2
    if data[0] == FORMAT_OPTION:
        options = VARIANT_OPTIONS[rules.key]
        if not 1 <= data[2] <= len(options):
            raise EngineError(f"{rules.name} has no rule option number {data[2]}")
        rules, at = find_variant(rules.key, options[data[2] - 1]), 3
    base_rank = data[at]
    passes, at = _read_varint(data, at + 1)
    home_at_redeal = 0
    if rules.option:
        home_at_redeal, at = _read_varint(data, at)
    foundations = tuple(EMPTY if b == _EMPTY_TOP else b for b in data[at : at + rules.foundations])
    at += rules.foundations
    piles: list[tuple[int, ...]] = []
    for _ in range(rules.piles + 3):
        pile, at = _read_pile(data, at)
        piles.append(pile)
    seed = bytes(data[at + 1 : at + 1 + data[at]])
    at += 1 + data[at]
    stock, waste, reserve = piles[-3:]
    state = GameState(
        rules.key,
        tuple(piles[:-3]),
        foundations,
        stock,
        waste,
        reserve,
        passes,
        base_rank,
        seed,
        rules.option,
        home_at_redeal,
    )
    _check_header(rules, state)
    return state, at


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for shift in range(_MAX_VARINT_BYTES):
        byte = data[at + shift]
        value |= (byte & 0x7F) << (7 * shift)
        if not byte & 0x80:
            return value, at + shift + 1
    raise EngineError("pass count is too long")


def _read_pile(data: bytes, at: int) -> tuple[tuple[int, ...], int]:
    if data[at] == _EMPTY_PILE:
        return (), at + 1
    start = at
    while not data[at] & _LAST:
        at += 1
    pile = (*data[start:at], data[at] & ~_LAST)
    if max(pile) >= 52:
        raise EngineError("a pile holds a byte that is not a card")
    return pile, at + 1


def _check_header(rules: Rules, state: GameState) -> None:
    if not 1 <= state.base_rank <= 13 or (state.base_rank != 1 and not rules.base_from_deal):
        raise EngineError(f"base rank {state.base_rank} is impossible in {rules.name}")
    allowed = rules.passes
    if allowed is not None and state.passes > allowed:
        raise EngineError(f"{state.passes} passes is more than {rules.name} allows")
    if state.home_at_redeal > rules.total:
        raise EngineError(f"{state.home_at_redeal} cards home is more than {rules.name} has")
    if len(state.seed) > MAX_SEED_BYTES:
        raise EngineError("the seed is too long")
    if len(state.foundations) != rules.foundations:
        raise EngineError("game state bytes end too soon")


def _check_cards(rules: Rules, state: GameState) -> None:
    """Every card at most as often as the decks hold it, foundations included."""
    counts = [0] * 52
    for index, top in enumerate(state.foundations):
        if top != EMPTY:
            suit = rules.foundation_suits[index]
            if top >= 52 or (suit is not None and top // 13 != suit):
                raise EngineError(f"foundation {index + 1} holds an impossible card")
            for card in _foundation.cards_on(rules, state.base_rank, index, top):
                counts[card] += 1
    for pile in (*state.tableau, state.stock, state.waste, state.reserve):
        for card in pile:
            counts[card] += 1
    if max(counts) > rules.decks:
        raise EngineError("a card appears more often than the decks hold it")
