"""Typed lines: line editing, history and completion at a terminal; plain reads otherwise.

At a terminal, prompt_toolkit reads the line (arrows move and recall history,
Ctrl-L clears the screen, Tab completes commands and legal moves), and
everything the client prints while a line is being typed goes above the
prompt, leaving the half-typed line as it was. From a pipe or a file, lines
are read as they come, for scripts.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.patch_stdout import patch_stdout

PROMPT = "> "
Candidates = Callable[[], Iterable[str]]


@contextlib.contextmanager
def typed_lines(candidates: Candidates) -> Iterator[AsyncIterator[str]]:
    """The lines the player types, for as long as the context is open.

    ``candidates`` lists what Tab may complete to (commands, legal moves now).
    """
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        yield stdin_lines()
        return
    with patch_stdout():
        yield prompted_lines(make_prompt(candidates))


def make_prompt(
    candidates: Candidates, input: Input | None = None, output: Output | None = None
) -> PromptSession[str]:
    return PromptSession(
        history=InMemoryHistory(),
        completer=LineCompleter(candidates),
        complete_while_typing=False,
        input=input,
        output=output,
    )


async def prompted_lines(prompt: PromptSession[str]) -> AsyncIterator[str]:
    """Lines from the prompt until Ctrl-D or Ctrl-C, which end the input like ``quit``."""
    while True:
        try:
            line = await prompt.prompt_async(PROMPT)
        except (EOFError, KeyboardInterrupt):
            return
        yield line


class LineCompleter(Completer):
    """Completes the whole line to any candidate that starts with it."""

    def __init__(self, candidates: Candidates) -> None:
        self.candidates = candidates

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        typed = document.text_before_cursor.lstrip().lower()
        for text in self.candidates():
            if text.startswith(typed):
                yield Completion(text, start_position=-len(document.text_before_cursor))


async def stdin_lines() -> AsyncIterator[str]:
    """Lines read from stdin until it ends.

    A daemon thread does the blocking reads, so a read in progress never holds
    up the exit, and the same code serves pipes and files.
    """
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def put(line: str | None) -> None:
        try:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        except RuntimeError:  # the loop closed: the client is exiting
            return

    def read() -> None:
        for line in sys.stdin:
            put(line)
        put(None)

    threading.Thread(target=read, name="stdin", daemon=True).start()
    while (line := await lines.get()) is not None:
        yield line
