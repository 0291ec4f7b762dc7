"""Many seeded positions of every variant, for checking fast paths against plain rules.

`walked` plays random legal moves until none is left, so its positions run
from the deal to a stuck end. `dealt_again` lays the loose cards of walked
positions out anew (random piles, stock, waste and reserve, any pass count),
which gives positions with fewer moves. `blocked` tops every pile with cards
of two ranks two apart, which leaves still fewer, so that the stock decides.
`one_card_decides` takes positions where nothing plays and puts a card that
would play at each place of the stock and waste in turn, so that only how
drawing brings cards up decides whether the game goes on.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine import GameState, apply, find_variant, legal_moves, new_game

WALK_CAP = 400


def walked(variant: str, games: int, seed: int) -> list[GameState]:
    """Every position of ``games`` random walks of legal moves."""
    rng = random.Random(f"{variant} walk {seed}")
    states: list[GameState] = []
    for game in range(games):
        state = new_game(variant, b"mixed %d %d" % (seed, game))
        states.append(state)
        for _ in range(WALK_CAP):
            moves = legal_moves(state)
            if not moves:
                break
            state = apply(state, rng.choice(moves))
            states.append(state)
    return states


def dealt_again(states: list[GameState], seed: int) -> list[GameState]:
    """Each position with its loose cards shuffled into new piles."""
    rng = random.Random(f"deal again {seed}")
    return [_redealt(state, rng) for state in states]


def _redealt(state: GameState, rng: random.Random) -> GameState:
    rules = find_variant(state.variant)
    loose = [
        card for pile in (*state.tableau, state.stock, state.waste, state.reserve) for card in pile
    ]
    rng.shuffle(loose)
    cuts = sorted(rng.randint(0, len(loose)) for _ in range(rules.piles + 2))
    parts = [loose[a:b] for a, b in zip([0, *cuts], [*cuts, len(loose)], strict=True)]
    tableau = tuple(tuple(part) for part in parts[: rules.piles])
    stock, waste, reserve = parts[rules.piles], parts[rules.piles + 1], parts[rules.piles + 2]
    if rules.stock == "none":
        tableau = (*tableau[:-1], tuple(tableau[-1]) + tuple(stock + waste + reserve))
        stock, waste, reserve = [], [], []
    elif rules.stock == "deal":
        stock, waste = (stock + waste, []) if rng.random() < 0.5 else ([], [])
    if not rules.reserve:
        stock, reserve = stock + reserve, []
    allowed = rules.passes
    passes = rng.randint(0, 3 if allowed is None else allowed)
    return replace(
        state,
        tableau=tableau,
        stock=tuple(stock),
        waste=tuple(waste),
        reserve=tuple(reserve),
        passes=passes,
    )


def blocked(states: list[GameState], seed: int) -> list[GameState]:
    """Each position with the top of every pile, the waste and the reserve
    replaced by a card of rank ``r`` or ``r + 2`` (``r`` drawn for each)."""
    rng = random.Random(f"blocked {seed}")
    found: list[GameState] = []
    for state in states:
        rank = rng.randrange(13)
        choices = [suit * 13 + (rank + step) % 13 for suit in range(4) for step in (0, 2)]
        tableau = tuple(_topped(pile, choices, rng) for pile in state.tableau)
        waste, reserve = _topped(state.waste, choices, rng), _topped(state.reserve, choices, rng)
        found.append(replace(state, tableau=tableau, waste=waste, reserve=reserve))
    return found


def _topped(pile: tuple[int, ...], choices: list[int], rng: random.Random) -> tuple[int, ...]:
    return (*pile[:-1], rng.choice(choices)) if pile else pile


def one_card_decides(states: list[GameState], fits: list[int]) -> list[GameState]:
    """For each stuck draw-stock position and each place in its stock and waste,
    the position with the card there replaced by one of ``fits`` (cards that play)."""
    found: list[GameState] = []
    for state, card in zip(states, fits, strict=True):
        for at in range(len(state.stock)):
            stock = (*state.stock[:at], card, *state.stock[at + 1 :])
            found.append(replace(state, stock=stock))
        for at in range(len(state.waste) - 1):
            waste = (*state.waste[:at], card, *state.waste[at + 1 :])
            found.append(replace(state, waste=waste))
    return found


def won(variant: str) -> GameState:
    """A won game of the variant, from its deal: every foundation full."""
    state = new_game(variant, b"won")
    rules = find_variant(variant)
    tops = []
    for index in range(rules.foundations):
        start = rules.start_rank(index, state.base_rank)
        last = start + 1 if rules.foundation_down[index] else start - 1
        suit = rules.foundation_suits[index]
        suit = index % 4 if suit is None else suit
        tops.append(suit * 13 + (last - 1) % 13)
    empty = ((),) * rules.piles
    return replace(state, tableau=empty, foundations=tuple(tops), stock=(), waste=(), reserve=())
