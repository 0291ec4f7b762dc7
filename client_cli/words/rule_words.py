"""The words naming a room's rule option, for its lobby and its results."""

from __future__ import annotations

from engine import find_variant

__all__ = ["redeal_rule"]


def redeal_rule(variant: str, option: str) -> str:
    """The line naming the redeal rule of ``variant`` under ``option``; empty
    for a game that never redeals."""
    rules = find_variant(variant, option)
    if not rules.has_redeal:
        return ""
    if rules.redeals is None:
        return (
            "Redeals: unlimited until blocked - redeal whenever no fan's top card fits;"
            " a redeal that leaves none fitting ends the game"
        )
    return f"Redeals: {rules.redeals} in all, when no fan's top card fits (the standard rules)"
