"""The race screen's key line and the move line's examples, worded for the game
being played: its piles' keys, a waste or reserve only where it has one, and what
``d`` does there (draw, deal or redeal)."""

from __future__ import annotations

from engine import Rules, find_variant

EXAMPLES = {
    "little-forty": "t3 t7, w f, draw",
    "little-milligan": "t3 t7, t3 f, deal",
    "little-billie": "t3 f, t3 f5, redeal",
    "double-canfield-40": "t3 t5, r f, draw",
}
"""Moves in the notation each game has: no waste, reserve or building where it has none."""


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
    examples = EXAMPLES.get(variant, "t3 t7, draw")
    return f"a move ({examples}) or Esc for keys"


def _pile_keys(piles: int) -> str:
    if piles <= 9:
        return f"1-{piles}: piles"
    return "1-9 0: piles" if piles == 10 else "1-9 0 b-v: piles"


def _stock_word(rules: Rules) -> str:
    if rules.redeals:
        return "redeal"
    return "deal" if rules.stock == "deal" else "draw"
