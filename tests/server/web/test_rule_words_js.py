"""The watch page names a room's redeal rule as the terminal client does
(client_cli/words/rule_words.py), in headless Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from client_cli.words.rule_words import redeal_rule
from engine import VARIANT_KEYS, VARIANT_OPTIONS
from server.app import RaceServer
from tests.server._browser import Tab, code_box


@pytest.fixture
async def tab(race_server: RaceServer) -> AsyncIterator[Tab]:
    async with code_box(race_server.port) as opened:
        yield opened


async def test_the_page_says_each_games_redeal_rule_in_the_clients_words(tab: Tab) -> None:
    pairs = [(key, option) for key in VARIANT_KEYS for option in ("", *VARIANT_OPTIONS[key])]
    script = """async ([pairs]) => {
      const { redealRule } = await import("./static/words.js");
      return pairs.map(([variant, option]) => redealRule(variant, option));
    }"""
    said = await tab.run(script, [list(pair) for pair in pairs])
    assert said == [redeal_rule(variant, option) for variant, option in pairs]
    assert [text for text in said if text] == [
        redeal_rule("little-billie", o) for o in ("", *VARIANT_OPTIONS["little-billie"])
    ]
