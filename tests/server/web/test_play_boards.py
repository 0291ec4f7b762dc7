"""Every game's board on the play page at phone width (360 px) and on a desktop.

Each test seats the page in a race of one game on a public deal and checks the DOM:
the page never scrolls sideways, every pile, the stock, waste, reserve and each
foundation is drawn inside the width as a button, every race button is there and
usable, and the board says what the race screen says (passes or redeals left, base
rank). Each board is also kept as a screenshot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import VARIANT_KEYS
from protocol import BoardView
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._browser import DESKTOP, artifact_dir, browser, open_tab
from tests.server._client import Client
from tests.server._players import serve
from tests.server.web._play import seated_race

DEAL = 1
NARROW = {"width": 360, "height": 740}
LAYOUT = """() => {
  const inside = (node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.left >= 0 && box.right <= innerWidth;
  };
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  return {
    scroll: document.documentElement.scrollWidth,
    width: innerWidth,
    piles: all('#table .tableau [data-target]').filter(inside).length,
    foundations: all('#table [data-target="f"]').filter(inside).length,
    hand: all('#table .hand [data-target]').filter(inside).map((n) => n.dataset.target),
    focusable: all('#table [data-target]')
      .every((n) => n.tabIndex === 0 && n.getAttribute('aria-label')),
    buttons: all('#controls button').filter((b) => inside(b) && !b.disabled).map((b) => b.id),
    notes: document.querySelector('#table .board-notes').textContent,
  };
}"""


@pytest.fixture
async def server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(store, clock) as running:
        yield running


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    async with browser() as started:
        yield started


def hand_of(board: BoardView) -> list[str]:
    """The targets beside the foundations the page must offer for this board."""
    rules = engine.find_variant(board.variant)
    hand = ["s"] if rules.stock != "none" or board.stock else []
    hand += ["w"] if rules.stock == "draw" or board.waste else []
    return hand + (["r"] if board.reserve is not None or board.reserve_hidden else [])


@pytest.mark.parametrize("variant", VARIANT_KEYS)
@pytest.mark.parametrize("size", ["360", "desktop"])
async def test_every_pile_and_every_action_fits_the_width(
    server: RaceServer,
    clock: ManualClock,
    chromium: Any,
    *,
    tmp_path: Path,
    variant: str,
    size: str,
) -> None:
    viewport = NARROW if size == "360" else DESKTOP
    host = await Client.open(f"ws://127.0.0.1:{server.port}", clock)
    tab = await open_tab(chromium, "about:blank", viewport)
    await seated_race(host, server.port, tab, clock, variant=variant, deal=DEAL)
    board = BoardView.from_engine(engine.view(engine.new_game(variant, b"deal:%d" % DEAL)))
    layout = await tab.run(LAYOUT)
    await tab.page.screenshot(
        path=str(artifact_dir(tmp_path) / f"board-{variant}-{size}.png"), full_page=True
    )
    assert layout["scroll"] <= layout["width"], "the page scrolls sideways"
    assert layout["piles"] == len(board.tableau)
    assert layout["foundations"] == len(board.foundations)
    assert layout["hand"] == hand_of(board)
    assert layout["focusable"]
    assert set(layout["buttons"]) == {"stock-action", "all-home", "resign", "show-help"}
    assert f"{board.progress}/{board.total} home" in layout["notes"]
    if board.base_rank != 1:
        assert "foundations start at" in layout["notes"]
    assert tab.errors == []
    await host.close()
