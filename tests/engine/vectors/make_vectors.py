"""Write the golden vectors in this folder: `python -m tests.engine.vectors.make_vectors`.

Run it once per deal algorithm version. The output of an existing
`DEAL_ALGO_VERSION` never changes: if a vector stops matching, the engine is
wrong, not the vector. A new version gets new files beside the old ones.

- ``deals-v<N>.json``: seed -> full layout, for every variant.
- ``perft-v<N>.json``: a fixed move sequence per game, the number of legal
  moves after each prefix, the two-ply move count, outcome and progress at
  the end, and the final state's storage bytes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine import (
    DEAL_ALGO_VERSION,
    VARIANT_KEYS,
    GameState,
    Move,
    apply,
    legal_moves,
    new_game,
    outcome,
    progress,
    to_bytes,
)
from engine.cards import format_card

HERE = Path(__file__).parent
SEEDS = (b"solrace", b"\x00", b"vector seed 2", bytes(range(64)))
PERFT_MOVES = 120


def layout(state: GameState) -> dict[str, Any]:
    """Every pile as card texts, bottom to top (the stock's last card is drawn first)."""
    return {
        "tableau": [[format_card(card) for card in pile] for pile in state.tableau],
        "foundations": [None if top < 0 else format_card(top) for top in state.foundations],
        "stock": [format_card(card) for card in state.stock],
        "reserve": [format_card(card) for card in state.reserve],
        "base_rank": state.base_rank,
    }


def perft(state: GameState, depth: int) -> int:
    """Move sequences of ``depth`` legal moves from ``state``."""
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, move), depth - 1) for move in moves)


def choose(moves: list[Move], chooser: random.Random) -> Move:
    """A foundation move when there is one; else the stock half the time
    (so that lines reach recycles and redeals); else any move."""
    home = [move for move in moves if move.dst == "f"]
    if home:
        return home[0]
    if moves[-1].action != "move" and chooser.random() < 0.5:
        return moves[-1]
    return chooser.choice(moves)


def play_line(variant: str, seed: bytes) -> dict[str, Any]:
    """A fixed line of play from the deal of ``seed``."""
    chooser = random.Random(seed)
    state = new_game(variant, seed)
    played: list[Move] = []
    counts = [len(legal_moves(state))]
    for _ in range(PERFT_MOVES):
        moves = legal_moves(state)
        if not moves:
            break
        move = choose(moves, chooser)
        state = apply(state, move)
        played.append(move)
        counts.append(len(legal_moves(state)))
    return {
        "variant": variant,
        "seed": seed.hex(),
        "moves": [move.format() for move in played],
        "legal_counts": counts,
        "perft2": perft(state, 2),
        "outcome": outcome(state).value,
        "progress": progress(state),
        "final_bytes": to_bytes(state).hex(),
    }


def main() -> None:
    deals = [
        {"variant": variant, "seed": seed.hex(), **layout(new_game(variant, seed))}
        for variant in VARIANT_KEYS
        for seed in SEEDS
    ]
    lines = [play_line(variant, seed) for variant in VARIANT_KEYS for seed in SEEDS]
    for name, items in (("deals", deals), ("perft", lines)):
        path = HERE / f"{name}-v{DEAL_ALGO_VERSION}.json"
        document = {"deal_algo_version": DEAL_ALGO_VERSION, name: items}
        path.write_text(json.dumps(document, indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
