from __future__ import annotations

from client_cli.tui.glyphs import ASCII, BLACK, RED, UNICODE, pick_glyphs


def test_a_terminal_that_cannot_encode_the_suits_gets_ascii() -> None:
    assert pick_glyphs("utf-8") is UNICODE
    assert pick_glyphs("ascii") is ASCII
    assert pick_glyphs("latin-1") is ASCII
    assert pick_glyphs(None) is ASCII
    assert pick_glyphs("no-such-encoding") is ASCII


def test_asking_for_ascii_wins_over_the_encoding() -> None:
    assert pick_glyphs("utf-8", ascii_only=True) is ASCII


def test_red_and_black_suits_differ_in_symbol_and_colour() -> None:
    hearts, spades = UNICODE.card("Th"), UNICODE.card("Ts")
    assert (hearts.plain, spades.plain) == ("T♥", "T♠")
    assert (hearts.style, spades.style) == (RED, BLACK)
    assert ASCII.card("Th").plain == "Th"
    assert ASCII.card("Th").style == RED


def test_an_unreadable_card_is_drawn_as_a_card_back_and_none_as_an_empty_place() -> None:
    assert UNICODE.card("??").plain == UNICODE.back
    assert ASCII.card("").plain == "##"
    assert UNICODE.card(None).plain == "--"


def test_cards_the_engine_names_are_drawn_as_on_the_board() -> None:
    line = UNICODE.cards_in("Td does not go on 9s, nor does any run under it", "bold")
    assert line.plain == "T♦ does not go on 9♠, nor does any run under it"
    assert [(line.plain[s.start : s.end], s.style) for s in line.spans] == [
        ("T♦", RED),
        ("9♠", BLACK),
    ]
    assert line.style == "bold"
    assert ASCII.cards_in("Kc fits on no foundation").plain == "Kc fits on no foundation"


def test_only_the_engines_card_form_standing_alone_is_a_card() -> None:
    for words in (
        "in Little Billie nothing is built on the tableau; tops go home",
        "as said, ks and KS are no cards, nor are 10h, Kcs, t3:2 or 'Kc'",
    ):
        assert UNICODE.cards_in(words).plain == words
    assert UNICODE.cards_in("not As.").plain == "not A♠."
