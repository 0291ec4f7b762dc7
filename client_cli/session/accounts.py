"""The accounts this machine keeps: a key per account, by server, in the state folder.

An account key is the only proof of an account (the server keeps only its
hash, and there is no password to fall back on), so the file holding the keys
is readable by its owner alone and replaced atomically: written whole to a
temporary file in the same folder, then renamed over the old one, so a crash
leaves either the old file or the new one, never half of either.

One file holds every server's accounts, keyed by the server's address. For
each server one account is *in use*: the one last created, imported or picked
with ``solrace account use``; rooms on that server are entered as it unless
``--account NAME`` picks another or ``--guest`` none. A file that cannot be read
is never overwritten (it may hold the only copy of a key): `AccountFileError`
says where it is.
"""

from __future__ import annotations

import json
import os
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

FILE_NAME = "accounts.json"


class AccountFileError(Exception):
    """The accounts file exists but cannot be read or written; the message says why."""


class UnknownAccount(Exception):
    """``--account NAME`` names no account kept for the server; the message lists those kept."""


@dataclass(frozen=True, slots=True)
class KeptAccount:
    server: str
    name: str
    """The account's name when this machine last heard it from the server."""
    key: str


@dataclass(frozen=True, slots=True)
class Book:
    """Every kept account, in the order they were kept, and each server's one in use."""

    accounts: tuple[KeptAccount, ...] = ()
    in_use: Mapping[str, str] = field(default_factory=dict)
    """The key of the account in use, by server."""

    def on(self, server: str) -> list[KeptAccount]:
        """The accounts kept for ``server``."""
        server = server_key(server)
        return [account for account in self.accounts if account.server == server]

    def find(self, server: str, name: str) -> KeptAccount | None:
        """The account named ``name`` on ``server`` (case and width do not matter)."""
        wanted = name_key(name)
        return next((a for a in self.on(server) if name_key(a.name) == wanted), None)

    def current(self, server: str) -> KeptAccount | None:
        """The account in use on ``server``; ``None`` while none is kept there."""
        kept = self.on(server)
        key = self.in_use.get(server_key(server))
        return next((a for a in kept if a.key == key), kept[-1] if kept else None)

    def chosen(self, server: str, name: str | None) -> KeptAccount | None:
        """The account named ``name`` (`UnknownAccount` when none is kept), or with no
        name the one in use (``None`` when none is kept)."""
        if name is None:
            return self.current(server)
        found = self.find(server, name)
        if found is None:
            kept = ", ".join(account.name for account in self.on(server)) or "none"
            raise UnknownAccount(f"no account {name} is kept for {server} (kept: {kept})")
        return found

    def keep(self, account: KeptAccount) -> Book:
        """``account`` kept (replacing one with its key) and in use on its server."""
        account = replace(account, server=server_key(account.server))
        others = tuple(kept for kept in self.accounts if kept.key != account.key)
        return Book((*others, account), {**self.in_use, account.server: account.key})

    def use(self, account: KeptAccount) -> Book:
        return Book(self.accounts, {**self.in_use, account.server: account.key})

    def renamed(self, account: KeptAccount, name: str) -> Book:
        accounts = tuple(replace(a, name=name) if a == account else a for a in self.accounts)
        return Book(accounts, self.in_use)

    def without(self, account: KeptAccount) -> Book:
        """``account`` forgotten; if it was in use, none is marked (the last kept is used)."""
        accounts = tuple(kept for kept in self.accounts if kept.key != account.key)
        in_use = {server: key for server, key in self.in_use.items() if key != account.key}
        return Book(accounts, in_use)


def server_key(server: str) -> str:
    """A server's address as the file keys it: ``ws://h:1/`` and ``ws://h:1`` are one."""
    return server.strip().rstrip("/")


def name_key(name: str) -> str:
    """How this machine compares account names (the server also folds look-alikes)."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def accounts_path(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_STATE_HOME/solrace/accounts.json``, else under ``~/.local/state``."""
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "solrace" / FILE_NAME


def load(path: Path) -> Book:
    """The accounts kept in ``path``; an empty book when there is no such file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Book()
    except OSError as error:
        raise AccountFileError(f"cannot read {path}: {error.strerror}") from None
    try:
        data = json.loads(text)
        accounts = tuple(
            KeptAccount(str(kept["server"]), str(kept["name"]), str(kept["key"]))
            for kept in data["accounts"]
        )
        in_use = {str(server): str(key) for server, key in data.get("in_use", {}).items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise AccountFileError(
            f"{path} is not an accounts file this client can read; it was left as it is"
        ) from None
    return Book(accounts, in_use)


def save(path: Path, book: Book) -> None:
    """Replace ``path`` with ``book``, atomically, readable and writable by its owner alone."""
    data = {
        "accounts": [
            {"server": kept.server, "name": kept.name, "key": kept.key} for kept in book.accounts
        ],
        "in_use": dict(book.in_use),
    }
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".accounts-", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise AccountFileError(f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(data, file, indent=1)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise AccountFileError(f"cannot write {path}: {error.strerror}") from None
        raise
