"""Typing at a terminal: editing, history, completion, and news that leaves the line alone."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Iterator

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.patch_stdout import patch_stdout

from client_cli.line.keyboard import make_prompt, prompted_lines

UP, LEFT, CTRL_L, BACKSPACE, TAB = "\x1b[A", "\x1b[D", "\x0c", "\x7f", "\t"


@pytest.fixture
def keys() -> Iterator[PipeInput]:
    with create_pipe_input() as pipe:
        yield pipe


def _lines(keys: PipeInput, candidates: list[str] | None = None) -> AsyncIterator[str]:
    prompt = make_prompt(lambda: candidates or [], input=keys, output=DummyOutput())
    return prompted_lines(prompt)


async def test_up_arrow_recalls_the_last_line_instead_of_sending_an_escape(keys: PipeInput) -> None:
    lines = _lines(keys)
    keys.send_text("t3 t7\r")
    assert await anext(lines) == "t3 t7"
    keys.send_text(UP + "\r")
    assert await anext(lines) == "t3 t7"


async def test_ctrl_l_and_editing_keys_change_the_screen_or_the_line_not_the_text(
    keys: PipeInput,
) -> None:
    lines = _lines(keys)
    keys.send_text("t3" + CTRL_L + " t8" + BACKSPACE + "7\r")
    assert await anext(lines) == "t3 t7"
    keys.send_text("w f" + LEFT + LEFT + "2" + "\r")
    assert await anext(lines) == "w2 f"


async def test_tab_completes_to_a_legal_move(keys: PipeInput) -> None:
    prompt = make_prompt(lambda: ["ready", "t3:1 t7", "draw"], input=keys, output=DummyOutput())
    lines = prompted_lines(prompt)
    keys.send_text("t3" + TAB)
    line = asyncio.ensure_future(anext(lines))
    async with asyncio.timeout(5):
        while prompt.default_buffer.text != "t3:1 t7":
            await asyncio.sleep(0.01)
    keys.send_text("\r")
    assert await line == "t3:1 t7"


async def test_news_printed_while_typing_goes_above_the_typed_line(keys: PipeInput) -> None:
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm")
    prompt = make_prompt(list, input=keys, output=output)
    with create_app_session(input=keys, output=output), patch_stdout():
        line = asyncio.ensure_future(anext(prompted_lines(prompt)))
        keys.send_text("dr")
        async with asyncio.timeout(5):
            while prompt.default_buffer.text != "dr":
                await asyncio.sleep(0.01)
        print("Bob has 3 of 104 cards home after 9 moves.")
        async with asyncio.timeout(5):
            while "Bob has 3" not in screen.getvalue():
                await asyncio.sleep(0.01)
        keys.send_text("aw\r")
        assert await line == "draw"
    shown = screen.getvalue()
    assert shown.index("Bob has 3") < shown.rindex("> draw")


async def test_ctrl_d_ends_the_input(keys: PipeInput) -> None:
    lines = _lines(keys)
    keys.send_text("\x04")
    with pytest.raises(StopAsyncIteration):
        await anext(lines)
