"""How a bot picks its next move: a pure function of the board it sees.

A bot sees only what its player sees (a `BoardView`) and lists the legal
moves with ``engine.game_from_view``, like any client. It plays only moves
that can make progress:

1. a card home (to a foundation);
2. a move that shows a card or empties a pile: off the reserve, the whole of
   a tableau pile onto another, or a move that uncovers a card which can then
   go home;
3. a stock action (draw, recycle, deal, redeal), which shows stock cards.

Greedy and random never play a move that only shifts cards between piles.
Careful (the default) also plays such a move when a look-ahead of two moves
among face-up cards shows it frees a card for home or empties a pile, builds
waste cards onto the tableau before touching the stock, and bounds its
rearranging moves between two progress moves (see `bots.careful`).
In a fan game (Little Billie), where every card is face up and every move
goes home, careful plays the moves of the best lines a bounded search of the
current deal finds: the most cards home before the next redeal (see
`bots.fans`).

A move is never tried twice from the same board (`Tried`), so a bot cannot go
round in circles: boards are finite, and when no move is left it resigns
(`choose` returns ``None``). Greedy and careful take a move of the first class
that has one, ties broken by their own RNG (so bots with other seeds race the
deal differently); random picks uniformly among greedy's moves.

A bot may also play as an expert (`BotStrategy`): the server's hints in
practice rooms (see the client's `client_cli.bots.runner`), and careful moves where it has none.
"""

from __future__ import annotations

import random
from typing import Literal

from bots.careful import board_key, careful_class, may_rearrange
from bots.fans import fan_classes, is_fan_game
from bots.levels import SPECS, Level
from bots.strong import homeward_move, winning_move
from engine import GameState, Move, apply, find_variant, game_from_view, legal_moves
from protocol import BoardView

Strategy = Literal["careful", "greedy", "random"]
STRATEGIES: tuple[Strategy, ...] = ("careful", "greedy", "random")
BotStrategy = Literal[Strategy, "expert"]
"""What a bot plays by: a strategy of its own board, or the server's hints (expert)."""
BOT_STRATEGIES: tuple[BotStrategy, ...] = (*STRATEGIES, "expert")
DEFAULT_STRATEGY: Strategy = "careful"
Tried = set[tuple[BoardView, str]]
"""The moves already played from each board, as move text."""

HOME, SHOWS_OR_EMPTIES, STOCK = 0, 1, 2


def choose(board: BoardView, tried: Tried, strategy: Strategy, rng: random.Random) -> Move | None:
    """The next move, or ``None`` when no move can make progress (time to resign)."""
    ranked = careful_moves(board, tried) if strategy == "careful" else progress_moves(board, tried)
    if not ranked:
        return None
    if strategy == "random":
        return rng.choice(ranked)[1]
    best = min(kind for kind, _ in ranked)
    return rng.choice([move for kind, move in ranked if kind == best])


def choose_at(level: Level, board: BoardView, tried: Tried, rng: random.Random) -> Move | None:
    """The next move of a bot of ``level`` (an expert's where it has no hint),
    slips included (see `bots.levels`); ``None``: time to resign.

    A searching level plays a sampled winning line's first move, unless that
    is a stock action while careful has a move among the cards in sight: a
    line through stock cards it guessed is the part of a sample least likely
    to hold. Out of ranked moves, every level follows a sampled line to one
    more card home (`homeward_move`) before it resigns. A slip never makes a
    bot resign early: a poor move is tried only while
    a move of progress is left, and a miss only picks among such moves.
    """
    spec = SPECS[level]
    searching = spec.play in ("strong", "expert") and not _is_fans(board)
    play: Strategy = "greedy" if spec.play == "greedy" else "careful"
    ranked = careful_moves(board, tried) if play == "careful" else progress_moves(board, tried)
    found = winning_move(board, tried, rng) if searching else None
    if found is not None and (found.action == "move" or not _in_sight(ranked)):
        return found
    if not ranked:
        return None if _is_fans(board) else homeward_move(board, tried, rng)
    slip = rng.random()
    if slip < spec.poor:
        return rng.choice(_untried_legal(board, tried))
    kinds = sorted({kind for kind, _ in ranked})
    kind = kinds[1] if slip < spec.poor + spec.miss and len(kinds) > 1 else kinds[0]
    return rng.choice([move for each, move in ranked if each == kind])


def _in_sight(ranked: list[tuple[int, Move]]) -> bool:
    """Whether a move among the cards in sight (not a stock action) is ranked."""
    return any(move.action == "move" for _, move in ranked)


def _is_fans(board: BoardView) -> bool:
    return is_fan_game(find_variant(board.variant))


def _untried_legal(board: BoardView, tried: Tried) -> list[Move]:
    game = game_from_view(board.to_view())
    return [move for move in legal_moves(game) if (board, move.format()) not in tried]


def board_strategy(strategy: BotStrategy) -> Strategy:
    """The strategy a bot picks its own moves by (an expert's, where it has no hint)."""
    return "careful" if strategy == "expert" else strategy


def progress_moves(board: BoardView, tried: Tried) -> list[tuple[int, Move]]:
    """Each move that can make progress and was not tried on this board, with
    its class (`HOME`, `SHOWS_OR_EMPTIES`, `STOCK`), in the engine's order."""
    game = game_from_view(board.to_view())
    ranked: list[tuple[int, Move]] = []
    for move in legal_moves(game):
        kind = move_class(game, move)
        if kind is not None and (board, move.format()) not in tried:
            ranked.append((kind, move))
    return ranked


def careful_moves(board: BoardView, tried: Tried) -> list[tuple[int, Move]]:
    """Each move the careful strategy may play and has not tried on this
    board, with its class (see `bots.careful`), in the engine's order."""
    game = game_from_view(board.to_view())
    if is_fan_game(find_variant(game.variant)):
        return _untried(board, tried, fan_classes(game))
    played = {seen for seen, _ in tried}
    seen = {board_key(shown) for shown in played}
    rearrange = may_rearrange(board, played)
    ranked: list[tuple[int, Move]] = []
    for move in legal_moves(game):
        if (board, move.format()) in tried:
            continue
        kind = careful_class(game, move, seen, rearrange)
        if kind is not None:
            ranked.append((kind, move))
    return ranked


def _untried(
    board: BoardView, tried: Tried, ranked: list[tuple[int, Move]]
) -> list[tuple[int, Move]]:
    return [(kind, move) for kind, move in ranked if (board, move.format()) not in tried]


def move_class(game: GameState, move: Move) -> int | None:
    """What ``move`` does for progress; ``None`` for a move that only shifts cards."""
    if move.action != "move":
        return STOCK
    if move.dst == "f":
        return HOME
    if move.src == "r":
        return SHOWS_OR_EMPTIES
    if move.src == "t" and move.count == len(game.tableau[move.src_index]):
        return SHOWS_OR_EMPTIES
    if home_cards(apply(game, move)) - home_cards(game):
        return SHOWS_OR_EMPTIES
    return None


def home_cards(game: GameState) -> set[int]:
    """The cards that can go home now. (A move among face-up cards, as every
    move reaching this check is, gives a true position even on a game built
    from a view.)"""
    sources = {"w": game.waste, "r": game.reserve}
    cards = set()
    for move in legal_moves(game):
        if move.dst == "f":
            pile = game.tableau[move.src_index] if move.src == "t" else sources[move.src or "w"]
            cards.add(pile[-1])
    return cards
