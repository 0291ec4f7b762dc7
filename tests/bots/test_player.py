"""A bot's decisions over its seat's state: ready, then moves by its level, and the
pauses before each, all from its seed."""

from __future__ import annotations

from bots.player import BotPlan, BotPlayer, Sight
from protocol import Hint
from tests.client_cli._samples import board, player, room

HOUSE = BotPlan("Bot", speed=1.0, seats=1, seed=4, rematches=True, level="good", ready_pause_s=2.0)


def _lobby(ready: bool = False) -> Sight:
    players = (player(0, "Ada"), player(1, "Bot", ready=ready))
    return Sight(room(players=players), 1, None, None, None)


def _racing(practice: bool = False) -> Sight:
    start = board("little-milligan", b"deal:2")
    lobby = room(variant="little-milligan")
    settings = lobby.settings.model_copy(update={"practice": practice})
    racing = lobby.model_copy(update={"phase": "racing", "start_at_ms": 0, "settings": settings})
    return Sight(racing, 1, start, 0, None)


def test_a_house_bot_says_ready_whenever_it_is_not_after_a_short_pause() -> None:
    bot = BotPlayer(HOUSE)
    assert bot.next_line(_lobby()) == "ready"
    pause = bot.pause_s("ready")
    assert 0.5 <= pause <= 2.0
    assert bot.next_line(_lobby()) is None, "said once for these settings"
    assert bot.next_line(_lobby(ready=True)) is None
    assert bot.next_line(_lobby()) == "ready", "unready again: it says so again"
    assert pause != bot.pause_s("ready"), "no fixed beat"


def test_two_bots_of_one_seed_make_the_same_moves_after_the_same_pauses() -> None:
    def play(seed: int) -> list[tuple[str | None, float]]:
        bot = BotPlayer(BotPlan("Bot", seed=seed, level="casual"))
        lines = [bot.next_line(_racing()) for _ in range(3)]
        return [(line, bot.pause_s(line or "")) for line in lines]

    assert play(1) == play(1)
    assert [line for line, _ in play(1)] != [None] * 3


def test_after_the_race_a_house_bot_stays_for_the_rematch() -> None:
    finished = _lobby().room
    assert finished is not None
    over = Sight(finished.model_copy(update={"phase": "finished"}), 1, None, None, None)
    assert BotPlayer(HOUSE).next_line(over) is None
    assert BotPlayer(BotPlan("Bot")).next_line(over) == ""


def test_an_expert_plays_the_winning_hint_for_its_board_only() -> None:
    bot = BotPlayer(BotPlan("Ace", level="expert"))
    sight = _racing(practice=True)
    assert bot.next_line(sight) == "hint"
    assert bot.next_line(sight, Hint(id=1, version=0, verdict="won", move="t1 f")) == "t1 f"
    stale = Hint(id=2, version=7, verdict="won", move="t2 f")
    assert bot.next_line(sight, stale) not in ("hint", "t2 f")
