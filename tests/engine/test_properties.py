"""Properties of random legal play, checked with hypothesis."""

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    VARIANT_KEYS,
    GameState,
    IllegalMove,
    Move,
    Outcome,
    View,
    apply,
    find_variant,
    from_bytes,
    legal_moves,
    new_game,
    outcome,
    replay,
    to_bytes,
    view,
)
from engine import play as player_move
from engine._foundation import cards_on
from engine._stock import redeal_order
from engine.cards import format_card

variants = st.sampled_from(VARIANT_KEYS)
seeds = st.binary(min_size=1, max_size=64)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=10, max_size=150)
FEW = settings(max_examples=40, deadline=None)


def all_cards(state: GameState) -> Counter[int]:
    """Every card in the game, foundations expanded from their tops."""
    rules = find_variant(state.variant)
    counts: Counter[int] = Counter()
    for index, top in enumerate(state.foundations):
        if top >= 0:
            counts.update(cards_on(rules, state.base_rank, index, top))
    for pile in (*state.tableau, state.stock, state.waste, state.reserve):
        counts.update(pile)
    return counts


def play(
    variant: str, seed: bytes, picks: list[int]
) -> tuple[GameState, list[GameState], list[Move]]:
    """Random legal play: the final state, every state on the way and the moves."""
    state = new_game(variant, seed)
    states, moves = [state], []
    for pick in picks:
        legal = legal_moves(state)
        if not legal:
            break
        move = legal[pick % len(legal)]
        state = apply(state, move)
        states.append(state)
        moves.append(move)
    return state, states, moves


@FEW
@given(variants, seeds, choices)
def test_play_never_creates_loses_or_duplicates_a_card(
    variant: str, seed: bytes, picks: list[int]
) -> None:
    decks = find_variant(variant).decks
    _, states, _ = play(variant, seed, picks)
    full = Counter(dict.fromkeys(range(52), decks))
    for state in states:
        assert all_cards(state) == full


@FEW
@given(variants, seeds, choices)
def test_every_legal_move_changes_the_game(variant: str, seed: bytes, picks: list[int]) -> None:
    _, states, _ = play(variant, seed, picks)
    for state in states:
        legal = legal_moves(state)
        assert len(set(legal)) == len(legal)
        for move in legal:
            assert apply(state, move) != state
        if not legal:
            assert outcome(state) != Outcome.PLAYING


def tableau_moves(state: GameState) -> list[Move]:
    """Every move of cards from one tableau pile onto another, with every count."""
    piles = range(len(state.tableau))
    return [
        Move("move", "t", src, count, "t", dst)
        for src in piles
        for count in range(1, len(state.tableau[src]) + 1)
        for dst in piles
        if dst != src
    ]


@FEW
@given(variants, seeds, choices)
def test_a_player_may_make_exactly_the_legal_tableau_moves(
    variant: str, seed: bytes, picks: list[int]
) -> None:
    """What `engine.play` accepts is what `legal_moves` lists, so the client's move
    list, the bots and the server agree, moves that change nothing included."""
    _, states, _ = play(variant, seed, picks)
    for state in states[::5]:
        legal = set(legal_moves(state))
        for move in tableau_moves(state):
            try:
                player_move(state, move)
            except IllegalMove:
                assert move not in legal
            else:
                assert move in legal


@FEW
@given(variants, seeds, choices)
def test_replay_reaches_the_played_state(variant: str, seed: bytes, picks: list[int]) -> None:
    state, _, moves = play(variant, seed, picks)
    assert replay(variant, seed, moves) == state
    assert replay(variant, seed, [move.format() for move in moves]) == state


@FEW
@given(variants, seeds, choices)
def test_legal_moves_read_back_from_their_text(variant: str, seed: bytes, picks: list[int]) -> None:
    _, states, _ = play(variant, seed, picks)
    for state in states[::5]:
        for move in legal_moves(state):
            assert Move.parse(move.format()) == move


@FEW
@given(variants, seeds, choices)
def test_storage_form_round_trips(variant: str, seed: bytes, picks: list[int]) -> None:
    _, states, _ = play(variant, seed, picks)
    for state in states:
        data = to_bytes(state)
        assert from_bytes(data) == state
        assert len(data) < 200


@FEW
@given(variants, seeds)
def test_same_seed_same_deal(variant: str, seed: bytes) -> None:
    assert new_game(variant, seed) == new_game(variant, bytes(seed))


def hide_differently(state: GameState) -> GameState:
    """The same position with its face-down cards in another order."""
    hidden = state.reserve[:-1]
    return replace(state, stock=state.stock[::-1], reserve=hidden[::-1] + state.reserve[-1:])


def visible(state: GameState) -> Counter[str]:
    """The face-up cards: tableau, waste, foundation tops and the reserve's top."""
    cards = [card for pile in (*state.tableau, state.waste) for card in pile]
    cards += [top for top in state.foundations if top >= 0] + list(state.reserve[-1:])
    return Counter(format_card(card) for card in cards)


def shown(seen: View) -> Counter[str]:
    texts = [card for pile in (*seen.tableau, seen.waste) for card in pile]
    texts += [top for top in seen.foundations if top] + ([seen.reserve] if seen.reserve else [])
    return Counter(texts)


@FEW
@given(variants, seeds, choices)
def test_view_never_shows_a_face_down_card(variant: str, seed: bytes, picks: list[int]) -> None:
    _, states, _ = play(variant, seed, picks)
    for state in states:
        seen = view(state)
        assert shown(seen) == visible(state)
        assert seen.stock == len(state.stock)
        # The outcome looks ahead through the stock, as the rules say it must.
        other = view(hide_differently(state))
        assert replace(seen, outcome="") == replace(other, outcome="")


non_home = [card for card in range(52) if card % 13 not in (0, 12)] * 2


@FEW
@given(
    st.permutations(non_home),
    st.integers(min_value=1, max_value=len(non_home)),
    st.randoms(use_true_random=False),
    st.integers(min_value=0, max_value=1),
    seeds,
)
def test_billie_players_with_the_same_cards_left_get_the_same_redeal(
    order: list[int], size: int, rng: random.Random, passes: int, seed: bytes
) -> None:
    """Two players whose fans hold the same cards in different places redeal alike."""
    left = order[:size]
    other = list(left)
    rng.shuffle(other)
    rules = find_variant("little-billie")
    first, second = (
        GameState(
            variant="little-billie",
            tableau=tuple(tuple(cards[i : i + 4]) for i in range(0, 104, 4)),
            foundations=(-1,) * 8,
            passes=passes,
            seed=seed,
        )
        for cards in (left, other)
    )
    redealt = apply(first, Move("redeal"))
    assert redealt == apply(second, Move("redeal"))
    assert redealt.passes == passes + 1
    assert redealt.tableau[0] == tuple(redeal_order(rules, seed, passes + 1, other)[:4])
    assert sorted(card for pile in redealt.tableau for card in pile) == sorted(left)
