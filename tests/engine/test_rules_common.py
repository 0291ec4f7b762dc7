"""Rules common to all four games (RULES.md) and the promises every variant keeps."""

from collections.abc import Callable

import pytest

from engine import (
    VARIANT_KEYS,
    EngineError,
    GameState,
    IllegalMove,
    InvalidMove,
    Move,
    NoEffect,
    Outcome,
    UnknownVariant,
    apply,
    legal_moves,
    new_game,
    outcome,
    progress,
    view,
)
from engine import play as engine_play
from engine.state import EMPTY
from tests.engine._positions import (
    BILLIE,
    CANFIELD,
    FORTY,
    MILLIGAN,
    assert_illegal,
    cards,
    double_canfield,
    little_billie,
    little_forty,
    little_milligan,
    play,
)

Builder = Callable[..., GameState]
WASTE_GAMES = [little_forty, double_canfield]


def cards_left(state: GameState) -> int:
    piles = (*state.tableau, state.stock, state.waste, state.reserve)
    return sum(len(pile) for pile in piles)


def test_variant_keys_are_stable() -> None:
    assert VARIANT_KEYS == (FORTY, MILLIGAN, BILLIE, CANFIELD)


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(UnknownVariant) as info:
        new_game("klondike", b"seed")
    assert isinstance(info.value, EngineError)
    assert str(info.value).strip()


def test_outcome_is_data_with_stable_names() -> None:
    assert [str(o) for o in (Outcome.PLAYING, Outcome.WON, Outcome.STUCK)] == [
        "playing",
        "won",
        "stuck",
    ]


def test_illegal_and_invalid_moves_are_engine_errors() -> None:
    assert issubclass(IllegalMove, EngineError)
    assert issubclass(InvalidMove, EngineError)


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_the_same_seed_gives_the_same_deal(variant: str) -> None:
    assert new_game(variant, b"same seed") == new_game(variant, b"same seed")
    assert new_game(variant, b"same seed") != new_game(variant, b"other seed")


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_a_deal_starts_playing(variant: str) -> None:
    state = new_game(variant, b"fresh")
    assert outcome(state) is Outcome.PLAYING
    assert view(state).outcome == "playing"


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_cards_on_a_foundation_never_move_again(variant: str) -> None:
    """Along a long line of legal moves, no foundation ever loses a card."""
    state = new_game(variant, b"walk")
    total = view(state).total
    for step in range(200):
        moves = legal_moves(state)
        if not moves:
            break
        home = [move for move in moves if move.dst == "f"]
        after = apply(state, home[0] if home else moves[(step * 7) % len(moves)])
        assert progress(after) >= progress(state)
        assert cards_left(after) + progress(after) == total
        for before_top, after_top in zip(state.foundations, after.foundations, strict=True):
            assert before_top == EMPTY or after_top != EMPTY
        state = after


@pytest.mark.parametrize(
    "state",
    [
        little_forty(["2h Ah"], foundations=[""]),
        little_milligan(["2s Ah"]),
        double_canfield(["2s Ah"], foundations=["Kh"], base_rank=3),
    ],
)
def test_only_one_card_at_a_time_goes_to_a_foundation(state: GameState) -> None:
    with pytest.raises((IllegalMove, InvalidMove)):
        play(state, "t1:2 f1")
    assert play(state, "t1:1 f1").tableau[0] == state.tableau[0][:1]


@pytest.mark.parametrize("text", ["f1 t1", "f1 f2", "f t1", "undo"])
def test_no_take_back_and_no_undo(text: str) -> None:
    with pytest.raises(InvalidMove):
        Move.parse(text)


@pytest.mark.parametrize(
    ("before", "move", "after"),
    [
        (little_forty(["Ah 9c", "Tc"]), "t1 t2", little_forty(["Ah", "Tc 9c"])),
        (little_forty(stock="Ah"), "draw", little_forty(waste="Ah")),
        (
            little_milligan(["Kc", "Kd"], stock="Ac Ad"),
            "deal",
            little_milligan(["Kc Ad", "Kd Ac"]),
        ),
        (
            little_billie(["Ac 5d"], foundations=["", "4d"]),
            "t1 f2",
            little_billie(["Ac"], foundations=["", "5d"]),
        ),
        (
            double_canfield(["Td"], base_rank=3, reserve="3h 9c"),
            "r t1",
            double_canfield(["Td 9c"], base_rank=3, reserve="3h"),
        ),
    ],
)
def test_no_card_moves_unless_the_player_asks(
    before: GameState, move: str, after: GameState
) -> None:
    """Going home "whenever possible" is advice: the engine never plays a card by itself."""
    assert play(before, move) == after


@pytest.mark.parametrize(
    "state",
    [
        little_forty(["9h 8s", "Kc"]),
        little_milligan(["Kh Qs", "9c"]),
        double_canfield(["9s 8h", "Kd"]),
    ],
)
def test_moving_a_whole_pile_into_an_empty_pile_changes_nothing(state: GameState) -> None:
    assert play(state, "t1:2 t3") == state
    assert Move("move", "t", 0, 2, "t", 2) not in legal_moves(state)


@pytest.mark.parametrize(
    ("state", "hint", "moved"),
    [
        (little_forty(["9h 8s 7d", "Kc"]), "e.g. t1:2 t3", "8s 7d"),
        (double_canfield(["9s 8h 7c", "Kd"]), "e.g. t1:2 t3", "8h 7c"),
        (little_forty(["9h 8s", "Kc"]), "e.g. t1:1 t3", "8s"),
    ],
)
def test_a_player_moving_a_whole_pile_into_an_empty_pile_is_told_to_give_a_count(
    state: GameState, hint: str, moved: str
) -> None:
    """`play` refuses what `apply` lets pass, and the count it suggests is a move that
    changes the game."""
    for text in ("t1 t3", f"t1:{len(state.tableau[0])} t3"):
        with pytest.raises(NoEffect) as info:
            engine_play(state, Move.parse(text))
        reason = str(info.value)
        assert isinstance(info.value, IllegalMove)
        assert "changes nothing" in reason and reason.endswith(hint)
    after = engine_play(state, Move.parse(hint.removeprefix("e.g. ")))
    assert after.tableau[2] == cards(moved)


def test_a_player_moving_a_whole_king_run_into_an_empty_pile_is_told_no_part_fits() -> None:
    """In Little Milligan an empty pile takes only a King-headed run: no part of a
    King-headed pile goes there."""
    state = little_milligan(["Kh Qs Jd", "9c"])
    with pytest.raises(NoEffect) as info:
        engine_play(state, Move.parse("t1 t3"))
    assert str(info.value) == (
        "moving all 3 cards of pile 1 onto empty pile 3 changes nothing,"
        " and no part of it may go there"
    )
    assert_illegal(state, "t1:2 t3")


def test_a_player_moving_a_lone_card_into_an_empty_pile_is_told_it_changes_nothing() -> None:
    with pytest.raises(NoEffect) as info:
        engine_play(little_forty(["9h 8s", "Kc"]), Move.parse("t2 t3"))
    assert str(info.value) == "moving the only card of pile 2 onto empty pile 3 changes nothing"


def test_little_billie_has_no_move_that_changes_nothing() -> None:
    """Nothing is built on a fan, so a fan onto an empty fan is illegal, not pointless."""
    state = little_billie(["Ac 5d"])
    with pytest.raises(IllegalMove) as info:
        engine_play(state, Move.parse("t1 t3"))
    assert not isinstance(info.value, NoEffect)


@pytest.mark.parametrize(
    ("state", "text"),
    [
        (little_forty(["9h 8s", "Kc", "7d"]), "t3 t1"),
        (little_milligan(["Kh Qs", "9c"], stock="2c"), "deal"),
        (double_canfield(["9s 8h", "Kd"], stock="2c"), "draw"),
        (little_billie(["5d Ac"]), "t1 f"),
    ],
)
def test_play_returns_what_apply_returns_for_a_move_that_changes_something(
    state: GameState, text: str
) -> None:
    move = Move.parse(text)
    assert engine_play(state, move) == apply(state, move) != state


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (little_forty(["Tc"], stock="Kc Qd 9s"), little_forty(["Tc"], stock="2h 3h 4h")),
        (little_milligan(["Tc"], stock="Kc Qd"), little_milligan(["Tc"], stock="2h 3h")),
        (
            double_canfield(["Tc"], reserve="9c Kd 5h", stock="Ac"),
            double_canfield(["Tc"], reserve="Ah 2s 5h", stock="Qs"),
        ),
    ],
)
def test_view_never_shows_face_down_cards(one: GameState, other: GameState) -> None:
    assert one != other
    assert view(one) == view(other)


def test_view_shows_the_face_up_reserve_top() -> None:
    one = double_canfield(["Tc"], reserve="9c Kd 5h")
    assert view(one) != view(double_canfield(["Tc"], reserve="9c Kd 6h"))


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_view_of_a_deal_shows_every_face_up_card_and_counts_the_rest(variant: str) -> None:
    shown = view(new_game(variant, b"view"))
    face_up = sum(len(pile) for pile in shown.tableau) + len(shown.waste)
    face_up += sum(top is not None for top in shown.foundations) + (shown.reserve is not None)
    assert face_up + shown.stock + shown.reserve_hidden == shown.total
    assert shown.variant == variant


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_legal_moves_are_fully_specified_and_each_changes_the_game(variant: str) -> None:
    state = new_game(variant, b"moves")
    moves = legal_moves(state)
    assert moves
    assert moves == legal_moves(state)
    for move in moves:
        if move.action == "move":
            assert move.dst_index is not None
            assert move.src != "t" or move.count is not None
        assert apply(state, move) != state


# Stock and waste, in the two games that have them (Little Forty, Double Canfield 40)


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_draw_turns_three_cards_one_by_one_last_drawn_on_top(build: Builder) -> None:
    after = play(build(stock="2c 3c 4c 5c 6c", waste="9s"), "draw")
    assert after == build(stock="2c 3c", waste="9s 6c 5c 4c")
    assert view(after).waste == ("9s", "6c", "5c", "4c")
    assert play(after, "draw") == build(waste="9s 6c 5c 4c 3c 2c")


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_draw_turns_fewer_cards_when_fewer_remain(build: Builder) -> None:
    assert play(build(stock="Ac 2d"), "draw") == build(waste="2d Ac")
    assert play(build(stock="Ac"), "draw") == build(waste="Ac")


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_draw_from_an_empty_stock_is_illegal(build: Builder) -> None:
    assert_illegal(build(waste="Kc Qd"), "draw")
    assert_illegal(build(), "draw")


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_only_the_waste_top_plays(build: Builder) -> None:
    state = build(["Ts"], waste="Ah 9d Kc")
    assert_illegal(state, "w f")
    assert_illegal(state, "w t1")


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_the_card_under_the_waste_top_plays_once_uncovered(build: Builder) -> None:
    state = build(["7s"], waste="Ah 5c 6h")
    assert play(state, "w t1", "w t1", "w f") == build(["7s 6h 5c"], foundations=["Ah"])


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_waste_top_plays_to_the_tableau_only_where_it_fits(build: Builder) -> None:
    assert play(build(["Ts"], waste="Kc 9d"), "w t1") == build(["Ts 9d"], waste="Kc")
    assert_illegal(build(["Js"], waste="9d"), "w t1")


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_playing_from_an_empty_waste_is_illegal(build: Builder) -> None:
    state = build(["Ts"], stock="9d Ac")
    assert_illegal(state, "w t1")
    assert_illegal(state, "w f")


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_turning_over_makes_a_stock_that_deals_in_first_drawn_order(build: Builder) -> None:
    after = play(build(waste="6c 5c 4c 3c 2c"), "recycle")
    assert (after.stock, after.waste) == (build(stock="2c 3c 4c 5c 6c").stock, ())
    assert play(after, "draw").waste == build(waste="6c 5c 4c").waste


@pytest.mark.parametrize(("variant", "draws"), [(FORTY, 22), (CANFIELD, 19)])
def test_a_full_pass_then_turning_over_restores_the_dealt_stock(variant: str, draws: int) -> None:
    dealt = new_game(variant, b"full pass")
    state = play(dealt, *["draw"] * draws)
    assert (state.stock, state.waste) == ((), tuple(reversed(dealt.stock)))
    recycled = play(state, "recycle")
    assert (recycled.stock, recycled.waste) == (dealt.stock, ())
    assert (recycled.tableau, recycled.reserve) == (dealt.tableau, dealt.reserve)


@pytest.mark.parametrize("build", WASTE_GAMES)
def test_turning_over_only_with_an_empty_stock_and_a_waste(build: Builder) -> None:
    for state in (build(stock="Kc", waste="Qd"), build(stock="Kc"), build()):
        assert_illegal(state, "recycle")
