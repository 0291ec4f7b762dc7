"""The strong level: a search over the cards a player cannot see.

Theory of operation: a player's board shows the tableau, the waste, the top
of the reserve and the top of each foundation; the stock and the reserve
under its top are only counts. The cards not seen are known as a set: every
card of the game's decks, less those shown and those home (a foundation's
top fixes every card under it). Any order of them over the face-down places
is a complete deal consistent with the board. The strong bot draws
`SAMPLES` such deals from its own RNG, asks the solver for a winning line
in each within `NODES` positions (stopping after `FIRST_LOOK` when none has
one), and plays the first move most of those lines share. When neither they
nor careful's rules give a move, it asks for a line that puts one more card
home (`reach_home`, the search behind the server's dead-end notice, within
`REACH_NODES`), and plays the first move most of those share. Everything it
reads is the player's view, so its choice cannot
depend on the real order of the hidden cards (a test permutes them).

A move already played from this board, or a move among face-up cards that
leads back to a board already played from, is never chosen, so the bot
cannot go round in circles. When no sample gives a winning line, the bot
plays as careful does (which, in the games that deal rows, beats following
one-card-home lines); only when careful finds nothing does it follow the
lines to one more card home, and it resigns when no sample gives one either:
it never resigns while a move it can find leads to progress.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from bots.careful import board_key
from engine import GameState, Move, Rules, apply, find_variant, game_from_view, legal_moves, view
from engine.cards import CARDS_PER_DECK
from engine.solver import Budget, solve
from engine.solver.dead_end import reach_home
from engine.state import EMPTY
from protocol import BoardView

SAMPLES = 6
"""Deals drawn per move."""
FIRST_LOOK = 3
"""When none of the first this many samples gives a line, the rest are not
searched: a move most samples would vote for shows in the first few, and a
board with no line in sight costs half the search."""
NODES = 1500
"""Positions the solver may expand per sample."""
REACH_NODES = 1000
"""Positions the search for one more card home may expand per sample."""
FACE_UP_SOURCES = ("t", "w")
"""Moves from these piles show no hidden card: their result is a true board."""

Tried = set[tuple[BoardView, str]]


Search = Callable[[GameState], tuple[str, ...]]
"""A search of one complete deal: the line it finds, or none."""


def winning_move(board: BoardView, tried: Tried, rng: random.Random) -> Move | None:
    """The move most winning lines of the sampled deals start with, or ``None``
    when no sample gives one."""
    return _sampled_move(board, tried, rng, _winning_line)


def homeward_move(board: BoardView, tried: Tried, rng: random.Random) -> Move | None:
    """The move most lines to one more card home of the sampled deals start
    with, or ``None`` when no sample gives one (no progress found)."""
    return _sampled_move(board, tried, rng, _homeward_line)


def _winning_line(sample: GameState) -> tuple[str, ...]:
    verdict = solve(sample, Budget(nodes=NODES))
    return verdict.moves if verdict.result == "won" else ()


def _homeward_line(sample: GameState) -> tuple[str, ...]:
    reach = reach_home(sample, Budget(nodes=REACH_NODES))
    return reach.moves if reach.answer == "can" else ()


def _sampled_move(
    board: BoardView, tried: Tried, rng: random.Random, search: Search
) -> Move | None:
    game = game_from_view(board.to_view())
    allowed = _allowed(board, game, tried)
    if not allowed:
        return None
    votes: Counter[str] = Counter()
    for searched, sample in enumerate(sample_deals(game, rng, SAMPLES)):
        if searched == FIRST_LOOK and not votes:
            break
        line = search(sample)
        if line and line[0] in allowed:
            votes[line[0]] += 1
    if not votes:
        return None
    top = max(votes.values())
    return allowed[next(text for text in allowed if votes[text] == top)]


def _allowed(board: BoardView, game: GameState, tried: Tried) -> dict[str, Move]:
    """The legal moves not tried here that lead to no board played from, by text."""
    seen = {board_key(played) for played, _ in tried}
    allowed: dict[str, Move] = {}
    for move in legal_moves(game):
        text = move.format()
        if (board, text) in tried:
            continue
        face_up = move.action == "move" and move.src in FACE_UP_SOURCES
        if face_up and board_key(view(apply(game, move))) in seen:
            continue
        allowed[text] = move
    return allowed


def sample_deals(game: GameState, rng: random.Random, count: int) -> list[GameState]:
    """``count`` complete games alike to ``game`` in every card shown, the
    unseen cards shuffled over its face-down places (stock, reserve under its top)."""
    unseen = unseen_cards(game)
    hidden_reserve = max(0, len(game.reserve) - 1)
    if len(unseen) != len(game.stock) + hidden_reserve:
        raise ValueError("the unseen cards do not fill the face-down places")
    samples = []
    for _ in range(count):
        cards = list(unseen)
        rng.shuffle(cards)
        stock, reserve = cards[: len(game.stock)], cards[len(game.stock) :]
        samples.append(
            game.evolve(stock=tuple(stock), reserve=(*reserve, *game.reserve[hidden_reserve:]))
        )
    return samples


def unseen_cards(game: GameState) -> list[int]:
    """The cards a player of ``game`` has not in sight, in card order (with
    repeats in games of two decks). The face-down places of ``game`` are not read."""
    rules = find_variant(game.variant)
    left = Counter(dict.fromkeys(range(CARDS_PER_DECK), rules.decks))
    shown = [card for pile in game.tableau for card in pile]
    shown += [*game.waste, *game.reserve[-1:]]
    shown += home_cards(rules, game)
    left.subtract(shown)
    return sorted(left.elements())


def home_cards(rules: Rules, game: GameState) -> list[int]:
    """Every card on the foundations, from their tops."""
    cards: list[int] = []
    for index, top in enumerate(game.foundations):
        if top == EMPTY:
            continue
        suit, rank = divmod(top, 13)
        start = rules.start_rank(index, game.base_rank) - 1
        step = -1 if rules.foundation_down[index] else 1
        height = ((rank - start) * step) % 13 + 1
        cards += [suit * 13 + (start + step * k) % 13 for k in range(height)]
    return cards
