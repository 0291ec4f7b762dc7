"""Hypothesis strategies for every wire message, within the protocol's limits."""

from __future__ import annotations

from typing import Any, get_args

from hypothesis import strategies as st
from pydantic import BaseModel

import protocol as p
from engine import VARIANT_KEYS
from protocol import RankReason, Verdict, limits

_PRINTABLE = st.characters(exclude_categories=("C", "Zs", "Zl", "Zp"), include_characters=" ")


def text(max_size: int) -> st.SearchStrategy[str]:
    """Printable, not blank, 1 to ``max_size`` characters."""
    return st.text(_PRINTABLE, min_size=1, max_size=max_size).filter(
        lambda s: s.isprintable() and not s.isspace()
    )


def hex_text(min_bytes: int, max_bytes: int) -> st.SearchStrategy[str]:
    return st.binary(min_size=min_bytes, max_size=max_bytes).map(bytes.hex)


ids = st.integers(0, limits.MAX_REQUEST_ID)
times = st.integers(0, 2**53)
seqs = st.integers(1, 2**53)
seats = st.integers(0, limits.MAX_PLAYERS - 1)
bot_levels = st.sampled_from(["beginner", "casual", "good", "strong", "expert"])
versions = st.integers(0, limits.MAX_MOVES)
progresses = st.integers(0, limits.MAX_CARDS)
names = text(limits.MAX_NAME_CHARS)
move_texts = text(limits.MAX_MOVE_CHARS)
move_ids = text(limits.MAX_MOVE_ID_CHARS)
variants = st.sampled_from(VARIANT_KEYS)
codes = st.text(limits.ROOM_CODE_ALPHABET, min_size=6, max_size=6)
tokens = st.text(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", min_size=16, max_size=64
)
digests = hex_text(32, 32)
seeds = hex_text(1, limits.MAX_SEED_BYTES)
cards = st.builds(lambda r, s: r + s, st.sampled_from("A23456789TJQK"), st.sampled_from("cdhs"))
board_cards = cards | st.just(p.HIDDEN_CARD)
piles = st.lists(board_cards, max_size=6).map(tuple)
game_outcomes = st.sampled_from(["playing", "won", "stuck"])
player_outcomes = st.sampled_from(["playing", "won", "stuck", "resigned", "timeout"])
finish_outcomes = st.sampled_from(["won", "stuck", "resigned", "timeout"])

settings = st.builds(
    p.Settings,
    max_players=st.integers(1, limits.MAX_PLAYERS),
    time_limit_s=st.integers(60, 3600),
    spectator_delay_s=st.integers(0, 600),
    countdown_s=st.integers(1, 30),
    deal_number=st.none() | st.integers(1, limits.MAX_DEAL_NUMBER),
    practice=st.booleans(),
).flatmap(
    lambda chosen: st.builds(
        p.Settings.model_validate,
        st.just(chosen.model_dump())
        | st.just({**chosen.model_dump(), "deal_number": None, "winnable_only": True})
        | st.just({**chosen.model_dump(), "deal_number": None, "practice": False, "rated": True}),
    )
)
verdicts = st.sampled_from(get_args(Verdict))
deal_verdicts = st.builds(
    p.DealVerdict,
    race_no=st.integers(1, 1000),
    verdict=verdicts,
    line_moves=st.none() | versions,
    budget_s=st.floats(0, 60),
)
boards = st.builds(
    p.BoardView,
    variant=variants,
    tableau=st.lists(piles, max_size=limits.MAX_PILES).map(tuple),
    foundations=st.lists(st.none() | board_cards, max_size=limits.MAX_FOUNDATIONS).map(tuple),
    stock=st.integers(0, limits.MAX_CARDS),
    waste=piles,
    reserve=st.none() | board_cards,
    reserve_hidden=st.integers(0, limits.MAX_CARDS),
    passes_left=st.none() | st.integers(0, 5),
    base_rank=st.integers(1, 13),
    outcome=game_outcomes,
    progress=progresses,
    total=st.sampled_from([52, 104]),
)
account_names = st.text(_PRINTABLE, min_size=3, max_size=20).filter(
    lambda s: s.isprintable() and not s.isspace()
)
account_keys = st.text(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", min_size=22, max_size=64
)
ratings = st.integers(-100_000, 100_000)
deal_numbers = st.integers(1, limits.MAX_DEAL_NUMBER)
game_ratings = st.builds(
    p.GameRating,
    variant=variants,
    rating=ratings,
    provisional=st.booleans(),
    races=st.integers(0, 10**6),
    mu=st.floats(-100, 100),
    sigma=st.floats(0.001, 20),
)
account_infos = st.builds(
    p.AccountInfo,
    name=account_names,
    created_ms=times,
    ratings=st.lists(game_ratings, max_size=4).map(tuple),
)
history_entries = st.builds(
    p.HistoryEntry,
    at_ms=times,
    variant=variants,
    code=codes,
    race_no=st.integers(1, 1000),
    deal_number=st.none() | deal_numbers,
    rated=st.booleans(),
    practice=st.booleans(),
    place=st.integers(1, limits.MAX_PLAYERS),
    racers=st.integers(1, limits.MAX_PLAYERS),
    outcome=finish_outcomes,
    progress=progresses,
    elapsed_ms=times,
    moves=versions,
    rating_before=st.none() | ratings,
    rating_after=st.none() | ratings,
)
best_times = st.builds(
    p.BestTime, variant=variants, deal_number=deal_numbers, elapsed_ms=times, at_ms=times
)
profiles = st.builds(
    p.Profile,
    name=account_names,
    created_ms=times,
    ratings=st.lists(game_ratings, max_size=4).map(tuple),
    recent=st.lists(history_entries, max_size=3).map(tuple),
    best=st.lists(best_times, max_size=3).map(tuple),
)
leaderboard_rows = st.builds(
    p.LeaderboardRow,
    place=st.integers(1, 10**6),
    name=account_names,
    rating=st.none() | ratings,
    provisional=st.booleans(),
    races=st.integers(0, 10**6),
    elapsed_ms=st.none() | times,
    at_ms=st.none() | times,
)
rating_changes = st.builds(
    p.RatingChange,
    seat=seats,
    name=account_names,
    before=ratings,
    after=ratings,
    provisional=st.booleans(),
)
seat_ratings = st.builds(p.SeatRating, seat=seats, rating=ratings, provisional=st.booleans())
player_infos = st.builds(
    p.PlayerInfo,
    account=st.booleans(),
    bot=st.booleans(),
    rating=st.none() | ratings,
    provisional=st.booleans(),
    level=st.none() | bot_levels,
    house=st.booleans(),
    seat=seats,
    name=names,
    ready=st.booleans(),
    away=st.booleans(),
    outcome=player_outcomes,
    progress=progresses,
    moves=versions,
    finished_at_ms=st.none() | times,
    idle_timeout_at_ms=st.none() | times,
)
ghost_infos = st.builds(
    p.GhostInfo,
    ghost=st.integers(0, limits.MAX_GHOSTS - 1),
    name=names,
    guest=st.booleans(),
    progress=progresses,
    moves=versions,
    outcome=player_outcomes,
    at_ms=times,
)
host_ends = st.builds(p.HostEnd, seat=seats, elapsed_ms=times)
summary_lines = st.builds(
    p.SummaryLine,
    rank=st.integers(1, limits.MAX_PLAYERS),
    seat=seats,
    name=names,
    outcome=finish_outcomes,
    progress=progresses,
    elapsed_ms=times,
)
race_summaries = st.builds(
    p.RaceSummary,
    race_no=st.integers(1, 1000),
    variant=variants,
    ranking=st.lists(summary_lines, max_size=limits.MAX_PLAYERS).map(tuple),
    ended_by_host=st.none() | host_ends,
)
snapshots = st.builds(
    p.RoomSnapshot,
    code=codes,
    variant=variants,
    settings=settings,
    phase=st.sampled_from(["lobby", "countdown", "racing", "finished"]),
    race_no=st.integers(1, 1000),
    host=st.none() | seats,
    players=st.lists(player_infos, max_size=limits.MAX_PLAYERS).map(tuple),
    spectators=st.integers(0, limits.MAX_SPECTATORS),
    start_at_ms=st.none() | times,
    seed_commit=st.none() | digests,
    seed=st.none() | seeds,
    verdict=st.none() | deal_verdicts,
    last_race=st.none() | race_summaries,
    rating_changes=st.none() | st.lists(rating_changes, max_size=4).map(tuple),
    ghosts=st.lists(ghost_infos, max_size=limits.MAX_GHOSTS).map(tuple),
)
log_entries = st.builds(p.LogEntry, move=move_texts, at_ms=times, move_id=move_ids)
results = st.builds(
    p.PlayerResult,
    rank=st.integers(1, limits.MAX_PLAYERS),
    seat=seats,
    name=names,
    outcome=finish_outcomes,
    progress=progresses,
    progress_at_ms=times,
    moves=versions,
    finished_at_ms=times,
    elapsed_ms=times,
    log=st.lists(log_entries, max_size=5).map(tuple),
    decided_by=st.none() | st.sampled_from(get_args(RankReason)),
)

EVENTS: dict[type[BaseModel], st.SearchStrategy[Any]] = {
    p.PlayerJoined: st.builds(
        p.PlayerJoined,
        seat=seats,
        name=names,
        account=st.booleans(),
        bot=st.booleans(),
        rating=st.none() | ratings,
        provisional=st.booleans(),
    ),
    p.PlayerLeft: st.builds(p.PlayerLeft, seat=seats, away=st.booleans()),
    p.PlayerBack: st.builds(p.PlayerBack, seat=seats),
    p.HostChanged: st.builds(p.HostChanged, seat=st.none() | seats),
    p.SpectatorCount: st.builds(p.SpectatorCount, count=st.integers(0, limits.MAX_SPECTATORS)),
    p.SettingsChanged: st.builds(
        p.SettingsChanged,
        variant=variants,
        settings=settings,
        ratings=st.lists(seat_ratings, max_size=4).map(tuple),
    ),
    p.ReadyChanged: st.builds(p.ReadyChanged, seat=seats, ready=st.booleans()),
    p.Countdown: st.builds(
        p.Countdown,
        race_no=st.integers(1, 1000),
        starts_in_ms=times,
        start_at_ms=times,
        seed_commit=digests,
    ),
    p.RaceStarted: st.builds(
        p.RaceStarted,
        race_no=st.integers(1, 1000),
        start_at_ms=times,
        ends_at_ms=times,
        board=boards,
    ),
    p.GhostProgress: st.builds(
        p.GhostProgress,
        race_no=st.integers(1, 1000),
        ghost=st.integers(0, limits.MAX_GHOSTS - 1),
        name=names,
        guest=st.booleans(),
        progress=progresses,
        moves=versions,
        outcome=player_outcomes,
        at_ms=times,
    ),
    p.ProgressMade: st.builds(
        p.ProgressMade, seat=seats, progress=progresses, moves=versions, outcome=player_outcomes
    ),
    p.PlayerFinished: st.builds(
        p.PlayerFinished,
        seat=seats,
        outcome=finish_outcomes,
        at_ms=times,
        elapsed_ms=times,
        ended_by=st.none() | seats,
    ),
    p.BoardShown: st.builds(p.BoardShown, seat=seats, board=boards, version=versions, at_ms=times),
    p.RaceOver: st.builds(
        p.RaceOver,
        race_no=st.integers(1, 1000),
        start_at_ms=times,
        ended_at_ms=times,
        seed=seeds,
        seed_commit=digests,
        ranking=st.lists(results, max_size=3).map(tuple),
        ended_by_host=st.none() | host_ends,
    ),
    p.Rematch: st.builds(
        p.Rematch, race_no=st.integers(2, 1000), last_race=st.none() | race_summaries
    ),
    p.IdleWarning: st.builds(p.IdleWarning, seat=seats, timeout_at_ms=times),
    p.DealAnalysed: st.builds(p.DealAnalysed, verdict=deal_verdicts),
    p.RaceRated: st.builds(
        p.RaceRated,
        race_no=st.integers(1, 1000),
        changes=st.lists(rating_changes, max_size=limits.MAX_PLAYERS).map(tuple),
    ),
}
events = st.one_of(list(EVENTS.values()))

days = st.dates().map(lambda day: f"{day.year:04d}-{day.month:02d}-{day.day:02d}")
challenge_codes = codes | st.builds(lambda variant, day: f"daily:{variant}:{day}", variants, days)
challenge_runs = st.builds(
    p.ChallengeRun,
    place=st.integers(1, 10**6),
    name=names,
    guest=st.booleans(),
    original=st.booleans(),
    outcome=finish_outcomes,
    progress=progresses,
    progress_ms=times,
    moves=versions,
    elapsed_ms=times,
    behind_ms=st.none() | st.integers(-(2**40), 2**40),
    log=st.lists(log_entries, max_size=3).map(tuple),
)
challenge_infos = st.builds(
    p.ChallengeInfo,
    code=challenge_codes,
    variant=variants,
    deal_number=st.none() | deal_numbers,
    seed_commit=digests,
    created_ms=times,
    closes_at_ms=times,
    closed=st.booleans(),
    seed=st.none() | seeds,
    runs=st.lists(challenge_runs, max_size=3).map(tuple),
    total_runs=st.integers(0, 10**6),
    practice_runs=st.integers(0, 10**6),
)

CLIENT: dict[type[BaseModel], st.SearchStrategy[Any]] = {
    p.Hello: st.builds(p.Hello, id=ids, version=st.integers(0, 9), client=st.text(max_size=64)),
    p.CreateRoom: st.builds(
        p.CreateRoom,
        id=ids,
        variant=variants,
        name=names,
        settings=settings,
        bot=st.booleans(),
        level=st.none() | bot_levels,
    ),
    p.JoinRoom: st.builds(
        p.JoinRoom,
        id=ids,
        code=codes,
        name=names,
        role=st.sampled_from(["player", "spectator"]),
        bot=st.booleans(),
        level=st.none() | bot_levels,
    ),
    p.Resume: st.builds(p.Resume, id=ids, token=tokens, last_seq=st.integers(0, 2**53)),
    p.Leave: st.builds(p.Leave, id=ids),
    p.SetSettings: st.builds(p.SetSettings, id=ids, variant=variants, settings=settings),
    p.Ready: st.builds(p.Ready, id=ids, ready=st.booleans()),
    p.MakeMove: st.builds(
        p.MakeMove, id=ids, move=move_texts, move_id=move_ids, expected_version=versions
    ),
    p.Resign: st.builds(p.Resign, id=ids),
    p.EndRace: st.builds(p.EndRace, id=ids),
    p.RequestRematch: st.builds(p.RequestRematch, id=ids),
    p.Sync: st.builds(p.Sync, id=ids),
    p.AskHint: st.builds(p.AskHint, id=ids),
    p.CreateAccount: st.builds(p.CreateAccount, id=ids, name=account_names),
    p.SignIn: st.builds(p.SignIn, id=ids, key=account_keys),
    p.RenameAccount: st.builds(p.RenameAccount, id=ids, name=account_names),
    p.DeleteAccount: st.builds(p.DeleteAccount, id=ids, name=account_names),
    p.GetProfile: st.builds(p.GetProfile, id=ids, name=account_names),
    p.GetHistory: st.builds(
        p.GetHistory,
        id=ids,
        name=account_names,
        variant=st.none() | variants,
        before=st.none() | st.integers(0, 2**31),
        limit=st.integers(1, limits.MAX_PAGE),
    ),
    p.GetLeaderboard: st.builds(
        p.GetLeaderboard,
        id=ids,
        variant=variants,
        deal_number=st.none() | deal_numbers,
        offset=st.integers(0, 1_000_000),
        limit=st.integers(1, limits.MAX_PAGE),
    ),
    p.CreateChallenge: st.builds(
        p.CreateChallenge, id=ids, days=st.integers(1, limits.MAX_CHALLENGE_DAYS)
    ),
    p.GetChallenge: st.builds(p.GetChallenge, id=ids, code=codes),
    p.JoinChallenge: st.builds(p.JoinChallenge, id=ids, code=challenge_codes, name=names),
    p.RaceDaily: st.builds(p.RaceDaily, id=ids, variant=variants, name=names),
    p.GetDaily: st.builds(p.GetDaily, id=ids, variant=variants, day=st.none() | days),
    p.AddBot: st.builds(p.AddBot, id=ids, level=bot_levels, name=st.none() | names),
    p.RemoveBot: st.builds(p.RemoveBot, id=ids, seat=seats),
    p.CloseChallenge: st.builds(p.CloseChallenge, id=ids, code=codes, key=tokens),
    p.Ping: st.builds(p.Ping, id=ids),
}

SERVER: dict[type[BaseModel], st.SearchStrategy[Any]] = {
    p.Welcome: st.builds(
        p.Welcome,
        id=ids,
        version=st.integers(0, 9),
        server_ms=times,
        limits=st.builds(p.Limits, max_moves=versions),
    ),
    p.Error: st.builds(
        p.Error,
        id=st.none() | ids,
        code=st.sampled_from(p.ErrorCode),
        message=st.text(max_size=limits.MAX_MESSAGE_CHARS),
        version=st.none() | versions,
    ),
    p.Joined: st.builds(
        p.Joined,
        id=ids,
        code=codes,
        seat=st.none() | seats,
        token=tokens,
        room=snapshots,
        seq=st.integers(0, 2**53),
    ),
    p.Ok: st.builds(p.Ok, id=ids),
    p.MoveOk: st.builds(
        p.MoveOk,
        id=ids,
        move_id=move_ids,
        version=versions,
        board=boards,
        at_ms=times,
        progress=progresses,
        outcome=game_outcomes,
    ),
    p.Snapshot: st.builds(
        p.Snapshot,
        id=st.none() | ids,
        code=codes,
        seat=st.none() | seats,
        room=snapshots,
        board=st.none() | boards,
        version=st.none() | versions,
        seq=st.integers(0, 2**53),
    ),
    p.Resumed: st.builds(
        p.Resumed,
        id=ids,
        code=codes,
        seat=st.none() | seats,
        board=st.none() | boards,
        version=st.none() | versions,
        seq=st.integers(0, 2**53),
    ),
    p.EventFrame: st.builds(p.EventFrame, seq=seqs, event=events),
    p.Pong: st.builds(p.Pong, id=ids, server_ms=times),
    p.Hint: st.builds(
        p.Hint, id=ids, version=versions, verdict=verdicts, move=st.none() | move_texts
    ),
    p.DeadEnd: st.builds(p.DeadEnd, version=versions, at_ms=times),
    p.AccountCreated: st.builds(p.AccountCreated, id=ids, account=account_infos, key=account_keys),
    p.SignedIn: st.builds(p.SignedIn, id=ids, account=account_infos),
    p.ProfileReply: st.builds(p.ProfileReply, id=ids, profile=profiles),
    p.HistoryReply: st.builds(
        p.HistoryReply,
        id=ids,
        name=account_names,
        races=st.lists(history_entries, max_size=3).map(tuple),
        next_before=st.none() | st.integers(0, 2**31),
    ),
    p.LeaderboardReply: st.builds(
        p.LeaderboardReply,
        id=ids,
        variant=variants,
        deal_number=st.none() | deal_numbers,
        rows=st.lists(leaderboard_rows, max_size=3).map(tuple),
        total=st.integers(0, 10**6),
        min_races=st.integers(0, 100),
    ),
    p.ChallengeCreated: st.builds(
        p.ChallengeCreated, id=ids, challenge=challenge_infos, key=st.none() | tokens
    ),
    p.ChallengeReply: st.builds(p.ChallengeReply, id=ids, challenge=challenge_infos),
    p.DailyBoard: st.builds(
        p.DailyBoard,
        id=ids,
        day=days,
        challenge=challenge_infos,
        streak=st.none() | st.integers(0, 10**4),
    ),
    p.GoingAway: st.builds(
        p.GoingAway, reconnect_in_ms=times, message=st.text(max_size=limits.MAX_MESSAGE_CHARS)
    ),
}
