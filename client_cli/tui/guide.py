"""The race screen's key line and the move line's examples, worded for the game
being played: its piles' keys, a waste or reserve only where it has one, and what
``d`` does there (draw, deal or redeal)."""

from __future__ import annotations

from engine import Rules, find_variant


def key_line(variant: str, practice: bool) -> str:
    """The race keys; in a practice room it names the hint key."""
    rules = find_variant(variant)
    tops = " ".join(
        top for top, has in (("w", rules.stock == "draw"), ("r", rules.reserve > 0)) if has
    )
    picks = f"{_pile_keys(rules.piles)}  {tops}" if tops else _pile_keys(rules.piles)
    end = "H: hint  ?" if practice else "?: help  Tab"
    return f"{picks}  f h: home  a: all home  d: {_stock_word(rules)}  x: resign  {end}"


def placeholder(variant: str) -> str:
    """The move line's words while it is empty."""
    return f"a move ({', '.join(examples(find_variant(variant)))}) or Esc for keys"


def examples(rules: Rules) -> list[str]:
    """Three moves in the game's notation: a build (or a card home where the game
    has no building), the reserve's or the waste's top home, and the stock's word."""
    first = f"t3 t{min(7, rules.piles)}" if rules.build is not None else "t3 f"
    if rules.reserve > 0:
        second = "r f"
    elif rules.stock == "draw":
        second = "w f"
    else:
        second = "t3 f" if rules.build is not None else "t3 f5"
    return [first, second, _stock_word(rules)]


def _pile_keys(piles: int) -> str:
    if piles <= 9:
        return f"1-{piles}: piles"
    return "1-9 0: piles" if piles == 10 else "1-9 0 b-v: piles"


def _stock_word(rules: Rules) -> str:
    if rules.redeals:
        return "redeal"
    return "deal" if rules.stock == "deal" else "draw"
