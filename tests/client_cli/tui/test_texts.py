from __future__ import annotations

from client_cli.tui.texts import (
    HELP,
    TIE_BREAKS,
    folded_checks,
    last_race_block,
    lobby_keys,
    lobby_lines,
    results_lines,
)
from protocol import HostEnd, RatingChange, Settings
from tests.client_cli._samples import last_race, log, player, race_over, result, room


def test_the_lobby_shows_the_code_game_settings_and_who_is_ready() -> None:
    lobby = room(settings=Settings(deal_number=7, time_limit_s=300), spectators=2)
    text = "\n".join(line.plain for line in lobby_lines(lobby, 1))
    assert "Room K7PQ2M" in text and "solrace join K7PQ2M" in text
    assert "Little Forty  (public deal 7)" in text
    assert "Seats 2/4   time limit 5:00   countdown 3 s   spectators 2" in text
    assert "#1 host Ada              guest  ready" in text
    assert "#2      Bob              guest  not ready  (you)" in text


def test_only_the_host_is_offered_the_settings_keys() -> None:
    lobby = room()
    assert "g game" in lobby_keys(lobby, 0)
    assert "g game" not in lobby_keys(lobby, 1)
    assert "watching" in lobby_keys(lobby, None)


def test_results_show_the_tie_breaks_the_times_and_the_checks() -> None:
    over = race_over(
        (
            result(1, 1, "Bob", outcome="stuck", progress=9, moves=2, log=log("t9:1 f1", "draw")),
            result(2, 0, "Ada", progress=0, elapsed_ms=61_250),
        )
    )
    lines = results_lines(over, 104, ["Seed ok", "WARNING: bad"])
    text = [line.plain for line in lines]
    assert text[1] == TIE_BREAKS
    assert text[3] == " 1. Bob              stuck       9/104   0:04.000     2 moves"
    assert text[4] == " 2. Ada              resigned    0/104   1:01.250     0 moves"
    assert lines[-1].style == "bold red" and lines[-2].style == "green"


def test_results_say_the_host_ended_the_race_and_whom_it_stopped() -> None:
    over = race_over(
        (
            result(1, 1, "Bob", outcome="timeout", progress=9, elapsed_ms=7_000),
            result(2, 0, "Ada", outcome="timeout", progress=0, elapsed_ms=5_000),
        ),
        ended_by_host=HostEnd(seat=1, elapsed_ms=7_000),
    )
    text = [line.plain for line in results_lines(over, 104, [])]
    assert text[1] == (
        "The host, Bob, ended the race early at 0:07.000: those still racing stopped."
    )
    assert text[4] == " 1. Bob              stopped     9/104   0:07.000     0 moves"
    assert text[5] == " 2. Ada              timeout     0/104   0:05.000     0 moves"


def test_the_last_race_is_told_a_line_a_player_or_folded_in_a_paragraph() -> None:
    heading = "Last race (race 1), ended early by the host, Ada, at 3:00.000:"
    assert [line.plain for line in last_race_block(last_race())] == [
        "",
        heading,
        "  1. Bob won in 2:41.250",
        "  2. Ada was stopped by the host after 3:00.000 with 61/104 cards home",
        "  3. Cy resigned after 1:35.500 with 40/104 cards home",
        "  4. Dee timed out after 2:50.000 with 12/104 cards home",
    ]
    (folded,) = last_race_block(last_race(), folded=True)
    assert folded.plain == (
        f"{heading} 1. Bob won 2:41.250   2. Ada 61/104 stopped   3. Cy 40/104 resigned"
        "   4. Dee 12/104 timed out"
    )


def test_help_fits_the_help_box_at_80_columns() -> None:
    assert max(len(line) for line in HELP.splitlines()) <= 74
    assert len(HELP.splitlines()) <= 20


def test_the_lobby_names_a_winnable_deal_and_offers_its_key_to_the_host() -> None:
    lobby = room(settings=Settings(winnable_only=True))
    assert "Little Forty  (winnable deal)" in "\n".join(
        line.plain for line in lobby_lines(lobby, 0)
    )
    assert "w winnable" in lobby_keys(lobby, 0)


def test_the_lobby_gives_the_idle_limit_and_the_spectator_delay_when_set() -> None:
    def shown(settings: Settings) -> str:
        return "\n".join(line.plain for line in lobby_lines(room(settings=settings), 0))

    both = Settings(idle_limit_s=60, spectator_delay_s=5)
    assert "Idle limit 60 s once someone has finished   spectators see boards 5 s late" in (
        shown(both)
    )
    assert "Spectators see boards 5 s late" in shown(Settings(spectator_delay_s=5))
    assert "dle limit" not in shown(Settings()) and "late" not in shown(Settings())


def test_only_a_practice_lobby_says_hints_are_given() -> None:
    def shown(settings: Settings) -> str:
        return "\n".join(line.plain for line in lobby_lines(room(settings=settings), 0))

    assert "Practice room: H gives a hint" in shown(Settings(practice=True))
    assert "Practice" not in shown(Settings())


def test_folded_checks_keep_the_seed_and_every_warning_and_count_the_replays() -> None:
    checks = [
        "Seed 1234... matches the commit",
        "Replayed Ada's 2 moves: 1 cards home, agrees.",
        "WARNING: Bob's replay ends with 3 cards home, not 4.",
        "Replayed Cy's 1 move: 0 cards home, agrees.",
    ]
    assert folded_checks(checks) == [
        "Seed 1234... matches the commit",
        "WARNING: Bob's replay ends with 3 cards home, not 4.",
        "Replayed 2 players' moves: each agrees with their result.",
    ]
    assert folded_checks(checks[:2]) == checks[:2]


def test_a_rated_lobby_shows_each_racers_rating_and_marks_guests_and_bots() -> None:
    players = (
        player(0, "Ada", account=True, rating=1523, ready=True),
        player(1, "Bob", account=True, rating=1480, provisional=True),
        player(2, "Cy"),
        player(3, "Bot 1", bot=True, ready=True),
    )
    lines = lobby_lines(room(players=players, settings=Settings(rated=True)), 1)
    text = [line.plain for line in lines]
    assert "Rated: a race of two or more accounts changes their ratings." in text
    assert text[-4:] == [
        "  #1 host Ada              1523              ready",
        "  #2      Bob              1480 provisional  not ready  (you)",
        "  #3      Cy               guest             not ready",
        "  #4      Bot 1            bot               ready",
    ]
    bob = lines[-3]
    assert [(bob.plain[span.start : span.end], span.style) for span in bob.spans][:2] == [
        ("1480", "bold"),
        (" provisional", "dim"),
    ]


def test_results_show_each_accounts_change_once_the_race_is_rated() -> None:
    players = (player(0, "Ada", account=True), player(1, "Bob", account=True), player(2, "Cy"))
    over = race_over(
        (
            result(1, 1, "Bob", outcome="won", progress=104, moves=200, elapsed_ms=90_000),
            result(2, 0, "Ada", progress=50, moves=90, elapsed_ms=61_250),
            result(3, 2, "Cy", progress=3, moves=9, elapsed_ms=1_000),
        )
    )
    finished = room(phase="finished", players=players, settings=Settings(rated=True))
    waiting = [line.plain for line in results_lines(over, 104, [], finished)]
    assert "Rated race: the ratings change once the server has settled it." in waiting
    changes = (
        RatingChange(seat=1, name="Bob", before=1500, after=1514, provisional=True),
        RatingChange(seat=0, name="Ada", before=1500, after=1491, provisional=True),
    )
    rated = results_lines(over, 104, [], finished.model_copy(update={"rating_changes": changes}))
    text = [line.plain for line in rated]
    assert text[3:6] == [
        " 1. Bob              won       104/104   1:30.000   200 moves   +14",
        " 2. Ada              resigned   50/104   1:01.250    90 moves    -9",
        " 3. Cy               resigned    3/104   0:01.000     9 moves",
    ]
    assert text[7] == (
        "Ratings after race 1: Bob +14 (1514, provisional), Ada -9 (1491, provisional)."
    )
    assert rated[4].spans[-1].style == "bold red"
