"""Move notation: the text players type and the wire carries must read back unchanged."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import moves
from engine.errors import EngineError, InvalidMove
from engine.moves import Move

CANONICAL = [
    "t3 t7",
    "t3:2 t7",
    "t1:13 t10",
    "t3 f",
    "t3 f5",
    "t26 f8",
    "w t1",
    "w f",
    "w f2",
    "r t1",
    "r f",
    "r f8",
    "draw",
    "recycle",
    "deal",
    "redeal",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_reads_back_unchanged(text: str) -> None:
    assert Move.parse(text).format() == text
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("t3 t7", Move("move", "t", 2, None, "t", 6)),
        ("t3:2 t7", Move("move", "t", 2, 2, "t", 6)),
        ("t3 f", Move("move", "t", 2, None, "f", None)),
        ("t3 f5", Move("move", "t", 2, None, "f", 4)),
        ("w t1", Move("move", "w", 0, None, "t", 0)),
        ("r f", Move("move", "r", 0, None, "f", None)),
        ("draw", Move("draw")),
        ("recycle", Move("recycle")),
        ("deal", Move("deal")),
        ("redeal", Move("redeal")),
    ],
)
def test_text_numbers_piles_from_one_and_fields_from_zero(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert move.format() == text


@pytest.mark.parametrize(
    "move",
    [
        Move("move", "t", 0, 1, "t", 1),
        Move("move", "t", 25, None, "f", 7),
        Move("move", "w", 0, None, "f", None),
        Move("move", "r", 0, None, "t", 5),
        Move("move", "t", 98, 104, "t", 98),
        Move("draw"),
    ],
)
def test_move_survives_format_then_parse(move: Move) -> None:
    assert Move.parse(move.format()) == move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("  T3   T7 ", "t3 t7"), ("W F2", "w f2"), ("DRAW", "draw"), (" Redeal ", "redeal")],
)
def test_parse_accepts_extra_spaces_and_upper_case(text: str, canonical: str) -> None:
    assert Move.parse(text).format() == canonical


def test_moves_are_values() -> None:
    assert Move.parse("t1 t2") == Move.parse("t1  t2")
    assert hash(Move.parse("t1 t2")) == hash(Move("move", "t", 0, None, "t", 1))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "t1",
        "t1 t2 t3",
        "shuffle",
        "draw 3",
        "t0 t1",
        "t1 t0",
        "t100 t1",
        "t1 f100",
        "tx t1",
        "t t1",
        "t1 t",
        "t1 f0",
        "t-1 t2",
        "t1:0 t2",
        "t1:105 t2",
        "t1:a t2",
        "t1: t2",
        "t1 w",
        "t1 r",
        "w r",
        "f1 t2",
        "f t1",
        "s t1",
        "t1 x",
        "w:2 t1",
    ],
)
def test_malformed_text_raises_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMove) as info:
        Move.parse(text)
    assert str(info.value).strip()


def test_foundation_cards_cannot_even_be_named_as_a_source() -> None:
    """Cards on a foundation never move again, so no move text starts from one."""
    for text in ("f1 t1", "f1 f2", "f t1"):
        with pytest.raises(InvalidMove):
            Move.parse(text)


def test_nothing_can_be_named_onto_the_reserve_or_waste() -> None:
    for text in ("t1 r", "w r", "r r", "t1 w", "r w"):
        with pytest.raises(InvalidMove):
            Move.parse(text)


def test_invalid_move_is_an_engine_error() -> None:
    assert issubclass(InvalidMove, EngineError)


@pytest.mark.parametrize(
    "text",
    [
        "t\u00b2 t1",
        "t1 t\u0663",
        "t\u0661 f",
        "t1:\u0662 t2",
        "t1 f\uff15",
        "\uff541 t2",
        "t1\u3000t2",
        "dr\u0430w",
        "t1:" + "1" * 5000 + " t2",
        "t" + "9" * 5000 + " t1",
    ],
)
def test_text_outside_the_ascii_notation_raises_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMove):
        Move.parse(text)


def test_leading_zeros_still_read_as_the_number() -> None:
    assert Move.parse("t007:0003 f08") == Move("move", "t", 6, 3, "f", 7)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=24) | st.from_regex(r"\A[trwf]\w{0,4}(:\w{0,4})? [tf]\w{0,4}\Z"))
def test_any_text_parses_or_raises_invalid_move_only(text: str) -> None:
    try:
        move = Move.parse(text)
    except InvalidMove:
        return
    assert text.isascii()
    assert Move.parse(move.format()) == move


def test_texts_read_alike_however_often_and_in_whatever_order_they_come() -> None:
    # Twice as many distinct texts as the table of recent texts holds, read in
    # turn three times over, with malformed ones in between.
    expected = {
        f"t{pile} {' ' * spaces}t{target}": Move("move", "t", pile - 1, None, "t", target - 1)
        for spaces in (1, 2)
        for pile in range(1, 100)
        for target in range(1, 100)
    }
    texts = list(expected)[: 2 * moves._PARSED.most]
    for text in [*texts, *reversed(texts), *texts]:
        assert Move.parse(text) == expected[text]
        with pytest.raises(InvalidMove, match="a move goes to"):
            Move.parse(text.replace(" t", " x"))
    assert len(moves._PARSED) <= moves._PARSED.most
