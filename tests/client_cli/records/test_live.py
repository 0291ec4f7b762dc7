"""Record commands and signed-in rooms against a real race server: accounts made,
shown, renamed, moved between machines and deleted; seats under an account's name."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path

import pytest

from client_cli.__main__ import run
from client_cli.args import parse_args
from client_cli.bots.team import BotTeam
from client_cli.records import RecordOptions, run_records
from client_cli.records.desk import Desk
from client_cli.session import accounts
from protocol import CreateRoom, JoinRoom, Settings
from server.clock import ManualClock
from tests.client_cli._driver import Terminal, ready_and_go


@dataclass
class Machine:
    """One machine's accounts file and what its commands printed."""

    server: str
    path: Path
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)

    def desk(self, chosen: str | None = None) -> Desk:
        ask: Callable[[str], str] | None = self._answer if self.answers else None
        return Desk(self.server, self.path, chosen, self.out.append, self.err.append, ask, ask, UTC)

    def _answer(self, prompt: str) -> str:
        self.out.append(prompt)
        return self.answers.pop(0)

    async def run(self, command: str, *, chosen: str | None = None, **fields: object) -> int:
        self.out.clear()
        self.err.clear()
        options = RecordOptions(command, **fields)  # type: ignore[arg-type]
        return await run_records(self.desk(chosen), options)

    @property
    def said(self) -> str:
        return "\n".join(self.out)

    @property
    def warned(self) -> str:
        return "\n".join(self.err)


@pytest.fixture
def laptop(server_url: str, tmp_path: Path) -> Machine:
    return Machine(server_url, tmp_path / "laptop" / "accounts.json")


@pytest.fixture
async def terminals(server_url: str) -> AsyncIterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        await terminal.close()


async def test_an_account_is_made_shown_renamed_and_deleted(laptop: Machine) -> None:
    assert await laptop.run("account", step="create", name="Ada Lovelace") == 0
    assert f"Account Ada Lovelace made on {laptop.server}." in laptop.said
    [kept] = accounts.load(laptop.path).on(laptop.server)
    assert kept.name == "Ada Lovelace" and len(kept.key) >= 22

    assert await laptop.run("account", step="show") == 0
    assert laptop.said.startswith(f"Ada Lovelace on {laptop.server}, since ")
    assert "No rated race yet." in laptop.said
    assert await laptop.run("account", step="show", json=True) == 0
    assert json.loads(laptop.said)["name"] == "Ada Lovelace"

    assert await laptop.run("account", step="rename", name="Adele") == 0
    assert laptop.said == f"Ada Lovelace is now Adele on {laptop.server}."
    assert accounts.load(laptop.path).current(laptop.server).name == "Adele"  # type: ignore[union-attr]

    laptop.answers = ["no"]
    assert await laptop.run("account", step="delete") == 1
    assert "its ratings, its race history and its best times go with it" in laptop.said
    assert laptop.said.endswith("Nothing deleted.")
    laptop.answers = ["yes"]
    assert await laptop.run("account", step="delete") == 0
    assert f"Account Adele deleted on {laptop.server}" in laptop.said
    assert accounts.load(laptop.path).on(laptop.server) == []
    assert await laptop.run("profile", name="Adele") == 1
    assert "No account is named Adele" in laptop.warned and "account/not-found" in laptop.warned


async def test_refusals_are_said_with_their_code_and_exit_non_zero(laptop: Machine) -> None:
    assert await laptop.run("account", step="create", name="Bob") == 0
    other = Machine(laptop.server, laptop.path.parent / "other.json")
    assert await other.run("account", step="create", name="BOB") == 1
    assert "account/name-taken" in other.warned and other.out == []
    assert await other.run("account", step="create", name="Bo--b") == 1
    assert "account/bad-name" in other.warned
    assert await other.run("account", step="show") == 1
    assert "No account is kept here for" in other.warned
    assert await laptop.run("account", step="delete") == 1
    assert "add --yes" in laptop.warned
    assert await laptop.run("account", step="show", chosen="Cy") == 1
    assert "No account Cy is kept for" in laptop.warned and "(kept: Bob)" in laptop.warned


async def test_a_key_moves_an_account_to_another_machine(laptop: Machine) -> None:
    assert await laptop.run("account", step="create", name="Cyd") == 0
    assert await laptop.run("account", step="key") == 0
    [key] = laptop.out
    assert "whoever has it plays as Cyd" in laptop.warned
    desktop = Machine(laptop.server, laptop.path.parent.parent / "desktop" / "accounts.json")
    assert await desktop.run("account", step="import", key="not a key") == 1
    assert "That is not an account key" in desktop.warned
    assert await desktop.run("account", step="import", key="x" * 32) == 1
    assert "account/bad-key" in desktop.warned
    desktop.answers = [key]
    assert await desktop.run("account", step="import") == 0
    assert f"Account Cyd on {laptop.server} is kept here" in desktop.said
    assert await desktop.run("account", step="rename", name="Cydney") == 0
    assert await laptop.run("history") == 0  # read by the name the server knows now
    assert laptop.said.startswith("Cydney's races")
    assert await laptop.run("account", step="show") == 0  # the laptop hears of the rename
    assert laptop.said.startswith("Cydney on ")
    assert accounts.load(laptop.path).current(laptop.server).name == "Cydney"  # type: ignore[union-attr]
    assert await desktop.run("account", step="delete", yes=True) == 0
    assert await laptop.run("account", step="show") == 1
    assert "account/bad-key" in laptop.warned and "solrace account delete forgets" in laptop.warned
    assert await laptop.run("account", step="delete", yes=True) == 1
    assert "account/bad-key" in laptop.warned and "forgotten here" in laptop.warned
    assert accounts.load(laptop.path).on(laptop.server) == []


async def test_several_accounts_and_the_one_in_use(laptop: Machine) -> None:
    for name in ("Dee", "Eve"):
        assert await laptop.run("account", step="create", name=name) == 0
    assert await laptop.run("account", step="show") == 0
    assert laptop.said.startswith("Eve on ") and "Also kept for this server: Dee" in laptop.said
    assert await laptop.run("account", step="use", name="dee") == 0
    assert laptop.said == f"Rooms on {laptop.server} are entered as Dee from now on."
    assert await laptop.run("history") == 0
    assert laptop.said == "Dee's races, newest first:\n  No race yet."
    assert await laptop.run("history", chosen="Eve", json=True) == 0
    assert json.loads(laptop.said) == {
        "type": "history",
        "name": "Eve",
        "races": [],
        "next_before": None,
    }


async def test_profiles_and_empty_leaderboards(laptop: Machine) -> None:
    assert await laptop.run("account", step="create", name="Fay") == 0
    assert await laptop.run("profile", name="fay") == 0
    assert laptop.said.startswith("Fay, playing since ")
    assert "No public deal won yet." in laptop.said
    assert await laptop.run("profile", name="Fay", json=True) == 0
    assert json.loads(laptop.said)["ratings"] == []
    assert await laptop.run("leaderboard", game="little-forty") == 0
    assert "Little Forty: accounts by rating (" in laptop.said
    assert "Nobody is on this board yet" in laptop.said
    assert await laptop.run("leaderboard", game="little-forty", deal=7, json=True) == 0
    board = json.loads(laptop.said)
    assert (board["deal_number"], board["rows"], board["total"]) == (7, [], 0)


async def test_a_signed_in_player_sits_under_the_accounts_name(
    laptop: Machine, terminals: list[Terminal]
) -> None:
    assert await laptop.run("account", step="create", name="Gus") == 0
    [gus] = accounts.load(laptop.path).on(laptop.server)
    host = Terminal(laptop.server)
    host.session.account_key = gus.key
    terminals.append(host)
    settings = Settings(countdown_s=1, rated=True)
    host.start(
        lambda id_: CreateRoom(id=id_, variant="little-forty", name="Gus", settings=settings)
    )
    shown = await host.wait_for("Share the code")
    assert "Signed in as Gus." in shown and "| rated" in shown
    assert "#1 Gus  unrated  host  not ready  (you)" in shown
    code = host.session.tracker.code
    assert code is not None

    impostor = Terminal(laptop.server)
    terminals.append(impostor)
    impostor.start(lambda id_: JoinRoom(id=id_, code=code, name="GUS"))
    refused = await impostor.wait_for("refused")
    assert "account/name-taken" in refused
    guest = Terminal(laptop.server)
    terminals.append(guest)
    guest.start(lambda id_: JoinRoom(id=id_, code=code, name="Hal"))
    await guest.wait_for("#2 Hal  guest")
    await host.wait_for("Hal joined as #2 (guest).")


async def test_a_refused_key_ends_the_session_with_a_word_on_guests(server_url: str) -> None:
    stale = Terminal(server_url)
    stale.session.account_key = "z" * 32
    stale.start(lambda id_: CreateRoom(id=id_, variant="little-forty", name="Ivy"))
    assert stale.task is not None
    assert await stale.task == 1
    assert "Signing in failed" in stale.text and "account/bad-key" in stale.text
    assert "--guest" in stale.text


async def _signed_in(laptop: Machine, name: str, terminals: list[Terminal]) -> Terminal:
    """A terminal signed in as a new account ``name``, kept in its own file."""
    machine = Machine(laptop.server, laptop.path.parent / f"{name}.json")
    assert await machine.run("account", step="create", name=name) == 0
    [kept] = accounts.load(machine.path).on(laptop.server)
    terminal = Terminal(laptop.server)
    terminal.session.account_key = kept.key
    terminals.append(terminal)
    return terminal


async def test_a_rated_race_shows_each_change_and_lands_in_the_history(
    laptop: Machine, terminals: list[Terminal], clock: ManualClock
) -> None:
    ada = await _signed_in(laptop, "Ada", terminals)
    settings = Settings(countdown_s=1, rated=True)
    ada.start(lambda id_: CreateRoom(id=id_, variant="little-forty", name="x", settings=settings))
    await ada.wait_for("Share the code")
    code = ada.session.tracker.code
    assert code is not None
    bob = await _signed_in(laptop, "Bob", terminals)
    bob.start(lambda id_: JoinRoom(id=id_, code=code, name="x"))
    await ada.wait_for("Bob joined as #2 (unrated).")
    await ada.type("ready", expect="You are ready.")
    await ready_and_go(clock, bob, ada)
    await ada.type("resign", expect="You resigned after")
    clock.advance(1000)
    await bob.type("resign", expect="Race 1 results:")
    for terminal in (ada, bob):
        rated = await terminal.wait_for("Ratings after race 1: ")
        assert "Ada " in rated and "Bob " in rated and "provisional" in rated
    room = ada.session.tracker.room
    assert room is not None and room.rating_changes is not None
    changes = {change.name: change for change in room.rating_changes}
    bob_up, ada_up = (changes[n].after - changes[n].before for n in ("Bob", "Ada"))
    assert bob_up == ada_up > 0  # no card home for either: an exact tie, from equal priors

    late = Terminal(laptop.server)
    terminals.append(late)
    late.start(lambda id_: JoinRoom(id=id_, code=code, name="Eve", role="spectator"))
    caught_up = await late.wait_for("Ratings after race 1: ")
    assert f"moves  {bob_up:+d}" in caught_up

    assert await laptop.run("history", name="Bob") == 0
    [_, head, race] = laptop.out[0].splitlines()
    assert "Rating" in head and "Little Forty" in race and "/2" in race and code in race
    assert f"{changes['Bob'].after} +" in race
    assert await laptop.run("history", name="Bob", page=2) == 1
    assert laptop.warned == "Bob's history has no page 2: it ends at 1."
    assert await laptop.run("history", name="Bob", game="little-billie") == 0
    assert laptop.out[0].splitlines()[1:] == ["  No race yet."]
    assert await laptop.run("profile", name="Ada") == 0
    assert f"Little Forty    {changes['Ada'].after}      1  provisional" in laptop.said


async def test_a_signed_in_hosts_bots_sit_as_bots_never_as_the_account(
    laptop: Machine, terminals: list[Terminal]
) -> None:
    host = await _signed_in(laptop, "Ida", terminals)
    settings = Settings(countdown_s=1, rated=True, max_players=3)
    host.start(lambda id_: CreateRoom(id=id_, variant="little-forty", name="x", settings=settings))
    await host.wait_for("Share the code")
    said: list[str] = []
    async with BotTeam(host.session, 1, 1.0, said.append) as team:
        async with asyncio.timeout(10):
            await team.seated.wait()
        await host.wait_for("Bot 1 (casual) joined as #2 (bot).")
        room = host.session.tracker.room
        assert room is not None
        assert [(p.name, p.account, p.bot) for p in room.players] == [
            ("Ida", True, False),
            ("Bot 1 (casual)", False, True),
        ]


async def test_the_command_line_runs_record_commands_to_stdout_and_errors_to_stderr(
    server_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "state" / "accounts.json"
    create = parse_args(["--server", server_url, "account", "create", "Zoe"])
    assert await run(create, tmp_path / "rooms", kept) == 0
    assert f"Account Zoe made on {server_url}." in capsys.readouterr().out
    again = parse_args(["--server", server_url, "account", "create", "zoe"])
    assert await run(again, tmp_path / "rooms", kept) == 1
    out, err = capsys.readouterr()
    assert out == "" and "(account/name-taken)" in err
    assert await run(parse_args(["--server", server_url, "history"]), tmp_path, None) == 1
    assert "No accounts file" in capsys.readouterr().out
    reading = parse_args(["--server", server_url, "--account", "Zoe", "profile", "--json"])
    assert await run(reading, tmp_path / "rooms", kept) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "Zoe"
