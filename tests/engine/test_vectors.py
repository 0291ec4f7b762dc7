"""Golden vectors: the deal of a seed and the rules' move counts never drift.

The files come from `tests/engine/vectors/make_vectors.py`; an existing
`DEAL_ALGO_VERSION`'s output never changes, so these files are never rewritten.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from engine import (
    DEAL_ALGO_VERSION,
    VARIANT_KEYS,
    Move,
    apply,
    from_bytes,
    legal_moves,
    new_game,
    outcome,
    progress,
    to_bytes,
)
from tests.engine.vectors.make_vectors import layout, perft

VECTORS = Path(__file__).parent / "vectors"


def load(name: str) -> list[dict[str, Any]]:
    document = json.loads((VECTORS / f"{name}-v{DEAL_ALGO_VERSION}.json").read_text())
    assert document["deal_algo_version"] == DEAL_ALGO_VERSION
    items: list[dict[str, Any]] = document[name]
    return items


DEALS = load("deals")
LINES = load("perft")


def label(item: dict[str, Any]) -> str:
    return f"{item['variant']}-{item['seed'][:12]}"


def test_vectors_cover_every_variant() -> None:
    for items in (DEALS, LINES):
        assert {item["variant"] for item in items} == set(VARIANT_KEYS)
        assert len(items) >= 3 * len(VARIANT_KEYS)


@pytest.mark.parametrize("item", DEALS, ids=label)
def test_deal_matches_vector(item: dict[str, Any]) -> None:
    state = new_game(item["variant"], bytes.fromhex(item["seed"]))
    expected = {key: item[key] for key in ("tableau", "foundations", "stock", "reserve")}
    expected["base_rank"] = item["base_rank"]
    assert layout(state) == expected


@pytest.mark.parametrize("item", LINES, ids=label)
def test_move_counts_match_vector(item: dict[str, Any]) -> None:
    state = new_game(item["variant"], bytes.fromhex(item["seed"]))
    counts = [len(legal_moves(state))]
    for text in item["moves"]:
        move = Move.parse(text)
        assert move in legal_moves(state)
        state = apply(state, move)
        counts.append(len(legal_moves(state)))
    assert counts == item["legal_counts"]
    assert perft(state, 2) == item["perft2"]
    assert (outcome(state).value, progress(state)) == (item["outcome"], item["progress"])
    assert to_bytes(state).hex() == item["final_bytes"]
    assert from_bytes(bytes.fromhex(item["final_bytes"])) == state
