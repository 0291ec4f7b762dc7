"""``solrace account ...``: make, show, rename and delete accounts, and move their keys.

The server shows a new account's key once, so it is kept before anything is
said; if the accounts file cannot take it, the key is printed instead, for
the player to keep by hand. A deletion asks first (``--yes`` for scripts)
and repeats the account's name to the server, as the protocol asks.
"""

from __future__ import annotations

from pydantic import ValidationError

from client_cli.link.asking import asking
from client_cli.records.desk import Desk
from client_cli.records.options import RecordOptions
from client_cli.session import accounts
from client_cli.session.accounts import KeptAccount, UnknownAccount
from client_cli.words.records import account_error, account_text
from protocol import (
    AccountCreated,
    CreateAccount,
    DeleteAccount,
    Error,
    ErrorCode,
    Ok,
    RenameAccount,
    SignedIn,
    SignIn,
)


async def run_account(desk: Desk, options: RecordOptions) -> int:
    """One ``account`` step; its exit status."""
    step = options.step
    if step == "create":
        return await create(desk, options.name)
    if step == "show":
        return await show(desk, as_json=options.json)
    if step == "rename":
        return await rename(desk, options.name)
    if step == "delete":
        return await delete(desk, asked=not options.yes)
    if step == "key":
        return show_key(desk)
    if step == "import":
        return await import_key(desk, options.key)
    return use(desk, options.name)


async def create(desk: Desk, name: str) -> int:
    book = accounts.load(desk.path)  # a file that cannot be read stops us before the server
    async with asking(desk.server) as asker:
        reply = await asker.ask(CreateAccount(id=asker.next_id(), name=name))
    if not isinstance(reply, AccountCreated):
        return desk.refused(reply)
    made = reply.account.name
    try:
        accounts.save(desk.path, book.keep(KeptAccount(desk.server, made, reply.key)))
    except accounts.AccountFileError as error:
        desk.warn(f"{error}. The server shows a key once: keep it by hand: {reply.key}")
        return 1
    desk.write(f"Account {made} made on {desk.server}.")
    desk.write(f"Its key is kept in {desk.path}, readable by you alone.")
    desk.write(f"Rooms on this server are entered as {made} from now on (--guest: as a guest).")
    desk.write("To use it on another machine too: solrace account key prints the key.")
    return 0


async def show(desk: Desk, as_json: bool) -> int:
    kept = desk.account()
    async with asking(desk.server, kept.key) as asker:
        connection = asker.connection
    if connection.refusal is not None:
        return _key_refused(desk, connection.refusal)
    info = connection.account
    assert info is not None  # signed in: no refusal
    if info.name != kept.name:  # renamed on another machine
        accounts.save(desk.path, accounts.load(desk.path).renamed(kept, info.name))
    if as_json:
        desk.write(info.model_dump_json())
        return 0
    desk.write(account_text(info, desk.server, desk.zone))
    others = [a.name for a in accounts.load(desk.path).on(desk.server) if a.key != kept.key]
    if others:
        desk.write(f"Also kept for this server: {', '.join(others)} (pick one with --account).")
    return 0


async def rename(desk: Desk, name: str) -> int:
    kept = desk.account()
    async with asking(desk.server, kept.key) as asker:
        if asker.connection.refusal is not None:
            return _key_refused(desk, asker.connection.refusal)
        reply = await asker.ask(RenameAccount(id=asker.next_id(), name=name))
    if not isinstance(reply, SignedIn):
        return desk.refused(reply)
    accounts.save(desk.path, accounts.load(desk.path).renamed(kept, reply.account.name))
    desk.write(f"{kept.name} is now {reply.account.name} on {desk.server}.")
    return 0


async def delete(desk: Desk, asked: bool) -> int:
    kept = desk.account()
    if asked and not _confirmed(desk, kept):
        return 1
    async with asking(desk.server, kept.key) as asker:
        refusal, info = asker.connection.refusal, asker.connection.account
        if refusal is not None and refusal.code == ErrorCode.ACCOUNT_BAD_KEY:
            accounts.save(desk.path, accounts.load(desk.path).without(kept))
            desk.warn(f"{account_error(refusal)} Deleted already? Its key is forgotten here.")
            return 1
        if refusal is not None:
            return desk.refused(refusal)
        assert info is not None  # signed in: no refusal
        reply = await asker.ask(DeleteAccount(id=asker.next_id(), name=info.name))
    if not isinstance(reply, Ok):
        return desk.refused(reply)
    accounts.save(desk.path, accounts.load(desk.path).without(kept))
    desk.write(
        f"Account {info.name} deleted on {desk.server}, with its ratings, race history and"
        " best times; its key is forgotten here."
    )
    return 0


def _key_refused(desk: Desk, refusal: Error) -> int:
    """The server refused a kept key: say so, and how to forget a key whose account is gone."""
    desk.refused(refusal)
    if refusal.code == ErrorCode.ACCOUNT_BAD_KEY:
        desk.warn("Deleted on another machine? solrace account delete forgets its key here.")
    return 1


def _confirmed(desk: Desk, kept: KeptAccount) -> bool:
    if desk.ask is None:
        desk.warn("Deleting an account asks first; nobody can answer here: add --yes.")
        return False
    desk.write(
        f"This deletes the account {kept.name} on {desk.server}: its ratings, its race"
        " history and its best times go with it, for good."
    )
    if desk.ask(f"Delete {kept.name}? Type yes to delete it: ").strip().lower() == "yes":
        return True
    desk.write("Nothing deleted.")
    return False


def show_key(desk: Desk) -> int:
    kept = desk.account()
    desk.write(kept.key)
    desk.warn(
        f"That is the key of {kept.name} on {kept.server}: whoever has it plays as"
        f" {kept.name}. On your other machine: solrace --server {kept.server} account import"
    )
    return 0


async def import_key(desk: Desk, key: str) -> int:
    if not key and desk.secret is not None:
        key = desk.secret("Account key (from solrace account key): ")
    key = key.strip()
    try:
        SignIn(id=0, key=key)
    except ValidationError:
        desk.warn("That is not an account key: solrace account key prints one.")
        return 1
    book = accounts.load(desk.path)
    async with asking(desk.server, key) as asker:
        refusal, info = asker.connection.refusal, asker.connection.account
    if refusal is not None:
        return desk.refused(refusal)
    assert info is not None  # signed in: no refusal
    accounts.save(desk.path, book.keep(KeptAccount(desk.server, info.name, key)))
    desk.write(f"Account {info.name} on {desk.server} is kept here; rooms are entered as it.")
    return 0


def use(desk: Desk, name: str) -> int:
    book = accounts.load(desk.path)
    found = book.chosen(desk.server, name)
    if found is None:
        raise UnknownAccount(f"no account {name} is kept for {desk.server}")
    accounts.save(desk.path, book.use(found))
    desk.write(f"Rooms on {desk.server} are entered as {found.name} from now on.")
    return 0
