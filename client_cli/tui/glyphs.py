"""How cards and marks are drawn: suit symbols in red and black, or plain ASCII.

A terminal whose encoding cannot carry the suit symbols gets the ASCII set,
which keeps the notation's letters (``Th``, ``Ts``) and the colours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text

from engine import HIDDEN_CARD, InvalidMove
from engine.cards import RANKS, SUITS, is_red, parse_card

CARD_NAME = re.compile(rf"(?<![\w'])[{RANKS}][{SUITS}](?![\w'])")
"""A card as the engine names it in a refusal (``Kc``, ``Td``): an upper-case rank
letter or digit and a lower-case suit letter, standing alone."""
RED = "bold red"
BLACK = "bold"
BACK_STYLE = "blue"


@dataclass(frozen=True, slots=True)
class Glyphs:
    suits: str
    """Clubs, diamonds, hearts, spades, in the engine's suit order."""
    up: str
    down: str
    back: str
    """A face-down or masked card."""
    empty: str
    full: str
    """Progress bars: the filled and the empty part."""
    blank: str
    rule: str

    def card(self, text: str | None) -> Text:
        """One card, two cells wide; ``None`` is an empty place.

        A card a spectator may not see yet (`HIDDEN_CARD`), or any unreadable
        text, is drawn as a card back.
        """
        if text is None:
            return Text(self.empty, style="dim")
        if text == HIDDEN_CARD:
            return Text(self.back, style=BACK_STYLE)
        try:
            card = parse_card(text)
        except InvalidMove:
            return Text(self.back, style=BACK_STYLE)
        rank = text.strip()[0].upper()
        return Text(rank + self.suits[card // 13], style=RED if is_red(card) else BLACK)

    def suit(self, suit: int) -> Text:
        return Text(self.suits[suit], style=RED if suit in (1, 2) else BLACK)

    def cards_in(self, text: str, style: str = "") -> Text:
        """The engine's words ``text`` (a refusal) with every card it names drawn as
        on the board; the rest in ``style``. Only the engine's own card form is read,
        so this is for the engine's words, not for news or names."""
        line = Text(style=style)
        last = 0
        for found in CARD_NAME.finditer(text):
            line.append(text[last : found.start()])
            line.append_text(self.card(found.group()))
            last = found.end()
        line.append(text[last:])
        return line


UNICODE = Glyphs(
    suits="♣♦♥♠", up="↑", down="↓", back="▒▒", empty="--", full="█", blank="░", rule="─"
)
ASCII = Glyphs(suits="cdhs", up="^", down="v", back="##", empty="--", full="#", blank=".", rule="-")

_SAMPLE = UNICODE.suits + UNICODE.up + UNICODE.down + UNICODE.back + UNICODE.full + UNICODE.blank


def pick_glyphs(encoding: str | None, ascii_only: bool = False) -> Glyphs:
    """The symbol set a terminal of ``encoding`` can show; ASCII when asked or needed."""
    if ascii_only or not encoding:
        return ASCII
    try:
        _SAMPLE.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return ASCII
    return UNICODE
