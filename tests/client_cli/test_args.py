"""The command line: actions, settings within the protocol's limits, clear errors."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from client_cli.__main__ import entry_request, run
from client_cli.args import DEFAULT_SERVER, build_parser, parse_args
from client_cli.records import RecordOptions
from client_cli.session import accounts
from client_cli.session.accounts import Book, KeptAccount
from client_cli.session.saved_seats import SavedSeat
from client_cli.session.session import Session
from protocol import CreateRoom, JoinRoom, Resume, Settings


def test_create_with_every_setting() -> None:
    options = parse_args(
        shlex.split(
            "--server ws://race.example:9000 create little-billie --name Ada --deal 42"
            " --players 2 --time-limit 300 --spectator-delay 30 --countdown 5 --idle-limit 45"
        )
    )
    assert (options.action, options.server, options.variant, options.name) == (
        "create",
        "ws://race.example:9000",
        "little-billie",
        "Ada",
    )
    assert options.settings == Settings(
        max_players=2,
        time_limit_s=300,
        spectator_delay_s=30,
        countdown_s=5,
        deal_number=42,
        idle_limit_s=45,
    )


def test_create_defaults_to_a_secret_deal_and_the_protocol_defaults() -> None:
    options = parse_args(["create", "little-forty", "--name", "Ada"])
    assert options.server is None and options.settings == Settings()


def test_join_watch_and_resume() -> None:
    join = parse_args(["join", "k7pq2m", "--name", " Bob "])
    assert (join.action, join.code, join.name) == ("join", "K7PQ2M", "Bob")
    watch = parse_args(["watch", "K7PQ2M"])
    assert (watch.action, watch.code, watch.name) == ("watch", "K7PQ2M", "spectator")
    assert parse_args(["--server", "ws://h:1", "resume"]).server == "ws://h:1"


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        ("create klondike --name Ada", "invalid choice: 'klondike'"),
        ("create little-forty --name Ada --rated --deal 3", "leave --deal out"),
        ("practice little-forty --rated", "unrecognized arguments: --rated"),
        ("join K7PQ2M --account Ada --guest", "not allowed with argument --account"),
        ("account create Al", "an account name is 3 to 20 printable characters"),
        ("account", "the following arguments are required: STEP"),
        ("account rename", "the following arguments are required: NEW"),
        ("account show --guest", "unrecognized arguments: --guest"),
        ("leaderboard klondike", "invalid choice: 'klondike'"),
        ("leaderboard little-forty --deal 0", "must be from 1 to"),
        ("history --page 51", "must be from 1 to 50, not 51"),
        ("create little-forty --name Ada --players 9", "must be from 1 to 8, not 9"),
        ("create little-forty --name Ada --time-limit 59", "must be from 60 to 3600"),
        ("create little-forty --name Ada --deal x", "not a whole number: 'x'"),
        ("join ABC10O --name Bob", "a room code is 6 letters and digits"),
        ("join K7PQ2M --name " + "n" * 25, "a name is 1 to 24 printable characters"),
        ("", "the following arguments are required: ACTION"),
        ("bot", "give a room CODE to join, or --create GAME, not both"),
        ("bot K7PQ2M --create little-forty", "give a room CODE to join, or --create GAME"),
        ("bot K7PQ2M --speed 0", "must be above 0 and at most 10"),
        ("bot K7PQ2M --strategy smart", "invalid choice: 'smart'"),
        ("create little-forty --name Ada --bots 2 --players 2", "leaves no seat for you"),
        ("practice little-forty --bots 8", "must be from 0 to 7, not 8"),
    ],
)
def test_bad_arguments_exit_with_a_usage_message(
    argv: str, complaint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse_args(shlex.split(argv))
    assert stopped.value.code == 2
    assert complaint in capsys.readouterr().err


def test_bots_practice_and_resume_by_room() -> None:
    practice = parse_args(["practice", "little-billie"])
    assert (practice.action, practice.name, practice.variant) == (
        "practice",
        "You",
        "little-billie",
    )
    assert (practice.bots, practice.settings.max_players, practice.settings.deal_number) == (
        2,
        3,
        None,
    )
    hosted = parse_args(["create", "little-forty", "--name", "Ada", "--bots", "3"])
    assert (hosted.bots, hosted.settings.max_players, hosted.bot_speed) == (3, 4, 1.0)
    assert parse_args(["create", "little-forty", "--name", "Ada"]).settings.max_players == 4
    joining = parse_args(
        ["bot", "k7pq2m", "--name", "Robo", "--strategy", "random", "--speed", "4"]
    )
    assert (joining.code, joining.variant, joining.strategy, joining.bot_speed) == (
        "K7PQ2M",
        "",
        "random",
        4.0,
    )
    creating = parse_args(["bot", "--create", "little-forty", "--players", "3"])
    assert (creating.variant, creating.settings.max_players) == ("little-forty", 3)
    assert creating.name.startswith("Bot ")
    assert isinstance(entry_request(creating)(1), CreateRoom)
    assert parse_args(["resume", "k7pq2m"]).code == "K7PQ2M"


def test_help_names_every_action_and_the_default_server() -> None:
    text = build_parser().format_help()
    for word in ("create", "join", "watch", "resume", DEFAULT_SERVER, "solrace join ABC234"):
        assert word in text


def test_each_action_enters_the_room_its_way() -> None:
    create = entry_request(parse_args(["create", "little-forty", "--name", "Ada"]))(1)
    assert isinstance(create, CreateRoom) and (create.id, create.name) == (1, "Ada")
    watch = entry_request(parse_args(["watch", "K7PQ2M"]))(2)
    assert watch == JoinRoom(id=2, code="K7PQ2M", name="spectator", role="spectator")
    saved = SavedSeat("ws://h:1", "K7PQ2M", "t" * 24, 1, last_seq=17)
    resume = Session("ws://h:1", print).resume_from(saved)(3)
    assert resume == Resume(id=3, token="t" * 24, last_seq=17)


async def test_resume_without_a_saved_room_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await run(parse_args(["resume"]), tmp_path) == 1
    assert "No saved seat to resume" in capsys.readouterr().out
    assert await run(parse_args(["resume", "abc234"]), tmp_path) == 1
    assert "No saved seat for room ABC234" in capsys.readouterr().out


@pytest.mark.parametrize(
    "line",
    [
        "create little-forty --name Ada",
        "join ABC234 --name Bob",
        "watch ABC234",
        "resume",
        "practice little-billie",
    ],
)
def test_full_screen_by_default_plain_and_ascii_on_request(line: str) -> None:
    default = parse_args(shlex.split(line))
    assert (default.plain, default.ascii) == (False, False)
    chosen = parse_args([*shlex.split(line), "--plain", "--ascii"])
    assert (chosen.plain, chosen.ascii) == (True, True)


def test_winnable_only_rooms_are_asked_for_and_exclude_a_public_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert parse_args(["create", "little-forty", "--name", "Ada", "--winnable-only"]).settings == (
        Settings(winnable_only=True)
    )
    assert parse_args(["practice", "little-milligan", "--winnable-only"]).settings.winnable_only
    assert not parse_args(["practice", "little-milligan"]).settings.winnable_only
    with pytest.raises(SystemExit):
        parse_args(["create", "little-forty", "--name", "Ada", "--winnable-only", "--deal", "3"])
    assert "leave --deal out" in capsys.readouterr().err


def test_practice_opens_a_practice_room_and_create_a_ranked_one() -> None:
    assert parse_args(["practice", "little-milligan"]).settings.practice is True
    assert parse_args(["create", "little-milligan", "--name", "Ada"]).settings.practice is False
    assert parse_args(["bot", "--create", "little-forty", "--strategy", "expert"]).strategy == (
        "expert"
    )


def test_rated_rooms_are_asked_for_on_create() -> None:
    assert parse_args(["create", "little-forty", "--rated"]).settings == Settings(rated=True)
    assert parse_args(["create", "little-forty", "--rated", "--winnable-only"]).settings == (
        Settings(rated=True, winnable_only=True)
    )


def test_the_account_is_chosen_before_or_after_the_command() -> None:
    before = parse_args(["--account", "Ada", "join", "K7PQ2M"])
    after = parse_args(["join", "K7PQ2M", "--account", "Ada"])
    assert before.account == after.account == "Ada" and before.name == ""
    assert parse_args(["create", "little-forty", "--guest", "--name", "Al"]).guest
    plain = parse_args(["watch", "K7PQ2M"])
    assert (plain.account, plain.guest, plain.records) == (None, False, None)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("account create ' Ada L '", RecordOptions("account", "create", name="Ada L")),
        ("account show --json", RecordOptions("account", "show", json=True)),
        ("account rename Adele", RecordOptions("account", "rename", name="Adele")),
        ("account delete --yes", RecordOptions("account", "delete", yes=True)),
        ("account key", RecordOptions("account", "key")),
        ("account import " + "k" * 32, RecordOptions("account", "import", key="k" * 32)),
        ("account import", RecordOptions("account", "import")),
        ("account use Bob", RecordOptions("account", "use", name="Bob")),
        ("history", RecordOptions("history")),
        (
            "history Bob --game little-billie --page 3 --json",
            RecordOptions("history", name="Bob", game="little-billie", page=3, json=True),
        ),
        ("profile Bob", RecordOptions("profile", name="Bob")),
        (
            "leaderboard little-forty --deal 7 --page 2",
            RecordOptions("leaderboard", game="little-forty", deal=7, page=2),
        ),
    ],
)
def test_record_commands(line: str, expected: RecordOptions) -> None:
    assert parse_args(shlex.split(line)).records == expected


def test_account_steps_take_an_account_to_act_on() -> None:
    options = parse_args(["--server", "ws://h:1", "account", "delete", "--account", "Bob"])
    assert (options.server, options.account) == ("ws://h:1", "Bob")
    assert parse_args(["--account", "Bob", "history"]).account == "Bob"


def test_help_says_how_keys_move_between_machines(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(build_parser().format_help().split())
    assert "solrace account create Ada" in text and "solrace leaderboard little-forty" in text
    with pytest.raises(SystemExit):
        parse_args(["account", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "readable by you alone" in said and "solrace account import" in said


async def test_a_guest_needs_a_name_and_an_account_gives_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "accounts.json"
    assert await run(parse_args(["create", "little-forty"]), tmp_path, kept) == 2
    assert "Give your name with --name NAME" in capsys.readouterr().out
    accounts.save(kept, Book().keep(KeptAccount("ws://elsewhere:1", "Ada", "a" * 32)))
    assert await run(parse_args(["join", "K7PQ2M"]), tmp_path, kept) == 2
    options = parse_args(["--server", "ws://elsewhere:1", "join", "K7PQ2M", "--account", "Bob"])
    assert await run(options, tmp_path, kept) == 1
    assert "No account Bob is kept for ws://elsewhere:1 (kept: Ada)." in capsys.readouterr().out


def test_a_bot_says_it_is_one() -> None:
    for line, bot in (("bot K7PQ2M", True), ("bot --create little-forty", True)):
        entered = entry_request(parse_args(shlex.split(line)))(1)
        assert isinstance(entered, CreateRoom | JoinRoom) and entered.bot is bot
    joined = entry_request(parse_args(["join", "K7PQ2M", "--name", "Bob"]))(1)
    assert isinstance(joined, JoinRoom) and not joined.bot
