"""The hot-path encoders give exactly the bytes the models would."""

from __future__ import annotations

import random

import pytest

import engine
from protocol import (
    BoardView,
    MoveOk,
    ProgressMade,
    decode_server,
    encode,
    encode_move_ok,
    encode_progress,
)


def _positions(variant: str) -> list[engine.GameState]:
    state = engine.new_game(variant, b"deal:5")
    rng = random.Random(variant)
    positions = [state]
    for _ in range(80):
        moves = engine.legal_moves(state)
        if not moves:
            break
        state = engine.apply(state, rng.choice(moves))
        positions.append(state)
    return positions


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_move_ok_bytes_equal_the_models(variant: str) -> None:
    for version, state in enumerate(_positions(variant)):
        view = engine.view(state)
        model = MoveOk(
            id=7,
            move_id=f"m{version}",
            version=version,
            board=BoardView.from_engine(view),
            at_ms=1_800_000_000_000 + version,
            progress=view.progress,
            outcome=view.outcome,  # type: ignore[arg-type]
        )
        fast = encode_move_ok(7, f"m{version}", version, view, 1_800_000_000_000 + version)
        assert fast == encode(model)
        assert decode_server(fast) == model


@pytest.mark.parametrize("outcome", ["playing", "won", "stuck"])
def test_progress_bytes_equal_the_model(outcome: str) -> None:
    model = ProgressMade(seat=3, progress=51, moves=120, outcome=outcome)  # type: ignore[arg-type]
    assert encode_progress(3, 51, 120, outcome) == encode(model)
