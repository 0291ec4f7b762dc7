"""A finished race in its accounts, over the wire: a rated race rates each account
once, exact ties tie, bots and guests change nothing, and the accounts' readers
(history, profile, leaderboard) show what was written."""

from __future__ import annotations

from protocol import (
    GetHistory,
    GetLeaderboard,
    GetProfile,
    RequestRematch,
    SetSettings,
    Settings,
    Sync,
)
from server.clock import ManualClock
from server.race_flow import deadlines, records
from server.store import Store
from tests.server._client import Client
from tests.server._players import greedy_line, open_race, pin_secrets, race_over, serve, start
from tests.server.conftest import opened_clients
from tests.server.race_flow._records import (
    GAME,
    HOME,
    RATED,
    SEED,
    Accounts,
    logged,
    rated_race,
    seat_accounts,
    signing_in,
)

PAIR = ["Ann", "Bob"]


async def test_a_rated_race_rates_both_accounts_once(
    store: Store, clock: ManualClock, accounts: Accounts
) -> None:
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race = await rated_race(open_, server, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
            ann, bob = race.racers
            await ann.play(HOME)
            await bob.resign()
            await ann.resign()
            over = await race_over(race)
            rated = await ann.client.wait_event("race_rated")
            assert await bob.client.wait_event("race_rated") == rated
            await records.record_race(server.services, race.code)
            await deadlines.on_deadline(server.services, race.code)
            snapshot = (await bob.client.call(Sync)).room
            assert len(await logged(store, race.code, "race_rated")) == 1
    (up, down) = rated.changes
    assert (up.seat, up.name, up.before, down.seat, down.before) == (0, "Ann", 1500, 1, 1500)
    assert up.after > 1500 > down.after and up.provisional and down.provisional
    assert snapshot.rating_changes == rated.changes
    assert [p.rating for p in snapshot.players] == [up.after, down.after]
    assert await accounts.races("a-ann") == await accounts.races("a-bob") == 1
    (ann_entry,) = await accounts.history("a-ann")
    (bob_entry,) = await accounts.history("a-bob")
    assert (ann_entry.place, ann_entry.racers, ann_entry.rated) == (1, 2, True)
    assert (ann_entry.rating_before, ann_entry.rating_after) == (1500, up.after)
    assert (bob_entry.place, bob_entry.rating_after, bob_entry.outcome) == (
        2,
        down.after,
        "resigned",
    )
    assert ann_entry.at_ms == over.start_at_ms and ann_entry.code == race.code
    assert ann_entry.deal_number is None and ann_entry.progress == 1 and ann_entry.moves == 1


async def test_an_exact_tie_gives_equal_changes(
    store: Store, clock: ManualClock, accounts: Accounts
) -> None:
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race = await rated_race(open_, server, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
            for racer in race.racers:
                await racer.resign()
            over = await race_over(race)
            rated = await race.racers[0].client.wait_event("race_rated")
    assert over.ranking[1].decided_by == "seat"
    first, second = rated.changes
    assert first.after - first.before == second.after - second.before
    places = [(await accounts.history(a))[0].place for a in ("a-ann", "a-bob")]
    assert places == [1, 1]


async def test_a_bot_and_a_guest_change_nobody_s_rating(
    store: Store, clock: ManualClock, accounts: Accounts
) -> None:
    """The same two accounts' order with and without a bot (seated as an account too)
    and a guest ahead of them gives the same changes."""
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            await accounts.create("a-ann", "a-bob", "a-bot", "a-cyd", "a-dan")
            crowded = await open_race(open_, GAME, ["Botty", "Ann", "Guest", "Bob"], RATED, 0)
            await seat_accounts(
                server, crowded, {0: "a-bot", 1: "a-ann", 3: "a-bob"}, frozenset({0})
            )
            await start(crowded, SEED)
            bot, ann, guest, bob = crowded.racers
            await bot.play_all(greedy_line(GAME, SEED)[:7])
            await ann.play(HOME)
            for racer in (bot, guest, bob, ann):
                await racer.resign()
            with_others = await ann.client.wait_event("race_rated")
            pair = await rated_race(open_, server, accounts, ["Cyd", "Dan"], ["a-cyd", "a-dan"])
            await pair.racers[0].play(HOME)
            for racer in pair.racers:
                await racer.resign()
            alone = await pair.racers[0].client.wait_event("race_rated")
    moved = [(c.before, c.after) for c in with_others.changes]
    assert moved == [(c.before, c.after) for c in alone.changes]
    assert [c.seat for c in with_others.changes] == [1, 3]
    assert await accounts.history("a-bot") == [] and await accounts.races("a-bot") is None
    ann_entry = (await accounts.history("a-ann"))[0]
    assert (ann_entry.place, ann_entry.racers) == (2, 4)


async def test_signed_in_accounts_race_and_read_their_records_back(
    store: Store, clock: ManualClock
) -> None:
    """Accounts made over the wire race a rated race; their history, profiles and the
    game's board then show it (the readers of what the records wrote)."""
    async with serve(store, clock, leaderboard_min_races=1) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race = await open_race(
                signing_in(open_, ["Ann", "Bob"]), GAME, ["Ann", "Bob"], RATED, 0
            )
            await start(race, SEED)
            ann, bob = race.racers
            await ann.play(HOME)
            await bob.resign()
            await ann.resign()
            rated = await bob.client.wait_event("race_rated")
            reader = await open_()
            history = await reader.call(GetHistory, name="Bob")
            profile = (await reader.call(GetProfile, name="Ann")).profile
            board = await reader.call(GetLeaderboard, variant=GAME)
    up, down = rated.changes
    (entry,) = history.races
    assert (entry.place, entry.rating_before, entry.rating_after) == (2, 1500, down.after)
    (game,) = profile.ratings
    assert (game.variant, game.rating, game.races, game.provisional) == (GAME, up.after, 1, True)
    assert [(row.name, row.rating) for row in board.rows] == [
        ("Ann", up.after),
        ("Bob", down.after),
    ]


async def test_a_public_deal_won_outside_practice_is_a_best_time(
    store: Store, clock: ManualClock
) -> None:
    """A practice win of public deal 1, then a slower win of it in a room that is not
    practice: only the second is a best time and on the deal's board; both are history."""
    deal, line = 1, greedy_line(GAME, b"deal:1")
    practice = Settings(countdown_s=1, deal_number=deal, practice=True)
    async with serve(store, clock) as server, opened_clients(Client.open, server) as open_:
        race = await open_race(signing_in(open_, PAIR), GAME, PAIR, practice, watchers=0)
        ann, bob = race.racers
        for settings in (practice, Settings(countdown_s=1, deal_number=deal)):
            changed = await ann.client.call(SetSettings, variant=GAME, settings=settings)
            assert changed.type == "ok"
            began = (await start(race)).start_at_ms
            clock.advance_to(began + 5_000 * race.race_no)
            await ann.play_all(line)
            await bob.resign()
            await race_over(race)
            assert (await ann.client.call(RequestRematch)).type == "ok"
            race.race_no += 1
        reader = await open_()
        profile = (await reader.call(GetProfile, name="Ann")).profile
        board = await reader.call(GetLeaderboard, variant=GAME, deal_number=deal)
        history = await reader.call(GetHistory, name="Ann")
    (best,) = profile.best
    assert (best.variant, best.deal_number, best.elapsed_ms) == (GAME, deal, 10_000)
    assert [(row.name, row.elapsed_ms) for row in board.rows] == [("Ann", 10_000)]
    assert [(e.practice, e.outcome, e.elapsed_ms) for e in history.races] == [
        (False, "won", 10_000),
        (True, "won", 5_000),
    ]
    assert ann.client.events("race_rated") == []
