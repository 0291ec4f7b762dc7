"""The rules core: pure, synchronous, deterministic (see docs/engine-api.md)."""

from engine.codec import from_bytes, to_bytes
from engine.deal import DEAL_ALGO_VERSION
from engine.display import View, view
from engine.errors import EngineError, IllegalMove, InvalidMove, NoEffect, UnknownVariant
from engine.fairview import HIDDEN_CARD, Seen, TrackedGame, seen, seen_by_all, spectator_view
from engine.game import apply, new_game, play, replay
from engine.legal import legal_moves
from engine.moves import Move
from engine.rules import Rules
from engine.state import GameState
from engine.status import Outcome, outcome, progress, wanted_cards
from engine.variants import OPTION_KEYS, VARIANT_KEYS, VARIANT_OPTIONS, find_variant
from engine.visible import PLACEHOLDER, game_from_view

__all__ = [
    "DEAL_ALGO_VERSION",
    "HIDDEN_CARD",
    "OPTION_KEYS",
    "PLACEHOLDER",
    "VARIANT_KEYS",
    "VARIANT_OPTIONS",
    "EngineError",
    "GameState",
    "IllegalMove",
    "InvalidMove",
    "Move",
    "NoEffect",
    "Outcome",
    "Rules",
    "Seen",
    "TrackedGame",
    "UnknownVariant",
    "View",
    "apply",
    "find_variant",
    "from_bytes",
    "game_from_view",
    "legal_moves",
    "new_game",
    "outcome",
    "play",
    "progress",
    "replay",
    "seen",
    "seen_by_all",
    "spectator_view",
    "to_bytes",
    "view",
    "wanted_cards",
]
