"""Checking a finished race against its revealed seed.

The server commits to sha256(seed) before the start and reveals the seed at
the end. With it the client re-deals the game itself and replays every
player's move log through the engine: the commit, the public deal number and
each player's result must all agree, or the server is not to be trusted.
"""

from __future__ import annotations

import hashlib

from client_cli.words.render import counted
from engine import EngineError, GameState, Outcome, outcome, progress, replay, view
from protocol import BoardView, PlayerResult, RaceOver


def check_race(
    over: RaceOver,
    variant: str,
    deal_number: int | None = None,
    seat: int | None = None,
    board: BoardView | None = None,
    *,
    option: str = "",
) -> list[str]:
    """Lines saying what was checked and whether it held.

    ``seat`` and ``board`` are the caller's seat and last board: the replay
    of their own log must end on exactly that board. ``option`` is the room's
    rule option, under which the logs replay.
    """
    seed = bytes.fromhex(over.seed)
    lines = [_commit_line(seed, over.seed_commit)]
    if deal_number is not None:
        lines.append(_deal_line(seed, deal_number))
    for result in over.ranking:
        yours = result.seat == seat
        whose = "your" if yours else f"{result.name}'s"
        own = board if yours else None
        lines.append(_replay_line(result, (variant, option), seed, whose, own))
    return lines


def seed_matches(seed: bytes, commit: str) -> bool:
    return hashlib.sha256(seed).hexdigest() == commit


def _commit_line(seed: bytes, commit: str) -> str:
    if seed_matches(seed, commit):
        return f"Seed {seed.hex()[:16]}... matches the commit: sha256(seed) == {commit[:16]}..."
    return f"WARNING: sha256(seed) is not the commit {commit[:16]}...; the deal was changed."


def _deal_line(seed: bytes, deal_number: int) -> str:
    if seed == b"deal:%d" % deal_number:
        return f"The seed is public deal {deal_number}, as announced."
    return f"WARNING: the seed is not public deal {deal_number}."


def _replay_line(
    result: PlayerResult,
    game: tuple[str, str],
    seed: bytes,
    whose: str,
    own: BoardView | None,
) -> str:
    """`game` is the variant and rule option; `whose` names the player: "your", or
    their name's possessive."""
    variant, option = game
    try:
        state = replay(variant, seed, (entry.move for entry in result.log), option)
    except EngineError as error:
        return f"WARNING: {whose} moves do not replay: {error}"
    problem = _disagreement(result, state, own)
    if problem:
        return f"WARNING: {whose} replay {problem}."
    home = counted(progress(state), "card")
    return f"Replayed {whose} {counted(len(result.log), 'move')}: {home} home, agrees."


def _disagreement(result: PlayerResult, state: GameState, own: BoardView | None) -> str:
    if progress(state) != result.progress:
        return f"ends with {counted(progress(state), 'card')} home, not {result.progress}"
    if (result.outcome == "won") != (outcome(state) is Outcome.WON):
        return f"ends {outcome(state).value}, but the ranking says {result.outcome}"
    if own is not None and BoardView.from_engine(view(state)) != own:
        return "ends on a different board than the one you last saw"
    return ""
