"""A game under a rule option (Little Billie's ``unlimited-redeals``) through
the rest of the engine: storage, views, spectators and the solver."""

from dataclasses import replace

import pytest

from engine import (
    EngineError,
    Outcome,
    Seen,
    TrackedGame,
    from_bytes,
    game_from_view,
    legal_moves,
    new_game,
    outcome,
    replay,
    spectator_view,
    to_bytes,
    view,
)
from engine.codec import FORMAT, FORMAT_OPTION
from engine.solver import Budget, solve
from tests.engine._positions import BILLIE
from tests.engine.test_rules_little_billie_unlimited import (
    BLOCKED_FANS,
    HOME,
    UNLIMITED,
    first_line,
    unlimited,
)

LINE = first_line(new_game(BILLIE, b"deal:1", UNLIMITED))
"""A game of 12 redeals, 81 cards home, that ends blocked (pinned in the rules tests)."""


def test_states_under_the_option_round_trip_in_format_2() -> None:
    for state in LINE:
        data = to_bytes(state)
        assert data[:3] == bytes((FORMAT_OPTION, 2, 1))
        assert from_bytes(data) == state


def test_standard_states_are_still_written_in_format_1() -> None:
    state = replace(LINE[40], option="", home_at_redeal=0, passes=2)
    assert to_bytes(state)[0] == FORMAT
    assert from_bytes(to_bytes(state)) == state


@pytest.mark.parametrize("number", [0, 2, 255])
def test_an_unknown_option_number_is_refused(number: int) -> None:
    data = bytearray(to_bytes(LINE[0]))
    data[2] = number
    with pytest.raises(EngineError, match="rule option"):
        from_bytes(bytes(data))


def test_the_view_counts_no_redeals_left_and_the_client_lists_the_servers_moves() -> None:
    for state in LINE:
        shown = view(state)
        assert shown.passes_left is None
        assert legal_moves(game_from_view(shown)) == legal_moves(state)
        assert outcome(game_from_view(shown)) is outcome(state)
    assert LINE[-1].passes == 12 and outcome(LINE[-1]) is Outcome.STUCK


def test_a_spectator_sees_a_later_redeal_only_once_every_racer_has_made_it() -> None:
    game = TrackedGame.start(BILLIE, b"deal:1", UNLIMITED)
    for state in LINE[:-1]:
        game = game.apply(legal_moves(state)[0])
    assert game.state == LINE[-1]
    behind = spectator_view(game, Seen(stock=0, reserve=0, redeals=11))
    level = spectator_view(game, Seen(stock=0, reserve=0, redeals=12))
    assert "??" in {card for fan in behind.tableau for card in fan}
    assert level == view(game.state)


def test_the_solver_wins_under_the_option_a_deal_it_proves_lost_under_two_redeals() -> None:
    standard = solve(new_game(BILLIE, b"deal:1"), Budget(nodes=200_000))
    won = solve(new_game(BILLIE, b"deal:1", UNLIMITED), Budget(nodes=200_000))
    assert (standard.result, won.result) == ("unwinnable", "won")
    assert outcome(replay(BILLIE, b"deal:1", won.moves, UNLIMITED)) is Outcome.WON


def test_the_solver_calls_a_game_its_redeal_blocked_lost() -> None:
    stuck = unlimited(BLOCKED_FANS, passes=3, home_at_redeal=HOME)
    assert solve(stuck, Budget(nodes=1000)).result == "unwinnable"
