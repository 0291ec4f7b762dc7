"""Typed lines: command words, moves checked locally, typos answered at once."""

from __future__ import annotations

import pytest

from client_cli.session.commands import HELP, WORDS, CommandError, parse_command
from engine import Move
from protocol import AddBot, RemoveBot


@pytest.mark.parametrize("word", WORDS)
def test_every_command_word_is_read_and_explained(word: str) -> None:
    assert parse_command(f"  {word.upper()} \n").word == word
    assert f"  {word}" in HELP or f"/ {word}" in HELP


@pytest.mark.parametrize("text", ["t3 t7", "T3:2  t7", "w f", "w f2", "r t4", "draw", "redeal"])
def test_moves_are_parsed_with_the_engine_notation(text: str) -> None:
    command = parse_command(text)
    assert (command.word, command.move) == ("move", Move.parse(text))


def test_a_blank_line_is_nothing() -> None:
    assert parse_command("   \n").word == ""


@pytest.mark.parametrize("text", ["t99x", "t3", "x1 t2", "t0 t1", "hello there you"])
def test_typos_are_refused_locally_with_a_hint(text: str) -> None:
    with pytest.raises(CommandError, match="Type help for the commands"):
        parse_command(text)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("bot add", AddBot(id=0, level="good")),
        ("BOT add strong", AddBot(id=0, level="strong")),
        ("bot add 1 Little Bea", AddBot(id=0, level="beginner", name="Little Bea")),
        ("bot add Robo", AddBot(id=0, level="good", name="Robo")),
        ("bot remove 3", RemoveBot(id=0, seat=2)),
        ("bot remove #1", RemoveBot(id=0, seat=0)),
    ],
)
def test_bot_asks_the_server_to_seat_or_free_a_house_bot(text: str, asked: object) -> None:
    command = parse_command(text)
    assert (command.word, command.request) == ("bot", asked)


@pytest.mark.parametrize(
    "text", ["bot", "bot remove", "bot remove two", "bot remove 0", "bot kick 1"]
)
def test_a_bot_command_without_its_words_says_how_it_goes(text: str) -> None:
    with pytest.raises(CommandError, match="bot add \\[LEVEL\\] \\[NAME\\] or bot remove SEAT"):
        parse_command(text)
