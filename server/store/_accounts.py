"""The store's accounts: creating one, finding it by key or name, renaming, deleting.

Theory of operation. An account's own keys share the hash tag {a:ID}; the name
index (Pname:{N}, N the sha256 hex of the name key) and the key index (Pkey:{K},
K the sha256 hex of the account key) are keys of their own, so no write here can
be one script. Each step is one command, in an order that a crash at any point
leaves the store usable:

- Create: claim the name (SET NX), then the key index, then the account hash last.
  The hash is what makes the account exist. A claim whose holder has no hash, or
  a hash with another name key (a crash mid-create or mid-rename), is free: the
  next claimant takes it over with a compare-and-set on that one key (WATCH). A
  claimant checks after writing its hash that the claim is still its own; if it
  was taken over meanwhile it removes what it wrote and the name counts as taken.
- Rename: claim the new name, update the hash, check the claim, release the old
  claim (only while it still points to this account).
- Delete: mark the hash ``deleting``, take the account off every board it is on
  (the games of its ratings, the deals of its best times), unlink its history,
  best times, ratings and done markers, release the name claim and the key index,
  and delete the hash last; running it again finishes a delete that crashed.

A key index whose account hash is gone is dropped when someone signs in with it.
Every verb raises `StoreUnavailable` when Redis cannot serve it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis.exceptions import WatchError

from server.store._account_reads import StoreAccountReads
from server.store._edge import translated

CLAIM_TRIES = 4
"""Attempts at a name claim that others keep changing before it counts as taken."""
GLOB_SPECIAL = "*?[]\\"


@dataclass(frozen=True)
class AccountRecord:
    """An account's hash: its name, the digests of its name key and key, when it was made."""

    account_id: str
    name: str
    name_digest: str
    """The sha256 hex of the name's key (server.accounts.names.name_digest)."""
    key_digest: str
    created_ms: int
    deleting: bool = False
    """A delete has begun: the account is gone to everyone but the delete."""


class StoreAccounts(StoreAccountReads):
    """Account half of `server.store.Store`."""

    @translated
    async def create_account(
        self, account_id: str, name: str, name_digest: str, key_digest: str, created_ms: int
    ) -> bool:
        """Make the account; False (nothing kept) when another account holds the name."""
        claim = self._names.index.name(name_digest)
        if not await self._claim(claim, account_id, name_digest):
            return False
        keys = self._names.account(account_id)
        pipe = self._client.pipeline(transaction=False)
        pipe.set(self._names.index.key(key_digest), account_id)
        pipe.hset(
            keys.account,
            mapping={
                "name": name,
                "name_key": name_digest,
                "key": key_digest,
                "created_ms": created_ms,
            },
        )
        await pipe.execute()
        if await self._holder(claim) == account_id:
            return True
        await self._client.delete(keys.account, self._names.index.key(key_digest))
        return False

    @translated
    async def load_account(
        self, account_id: str, *, deleting: bool = False
    ) -> AccountRecord | None:
        """The account, or None when it does not exist; one whose delete is under way
        counts as gone unless `deleting` (the delete reads it to finish)."""
        found = await self._account(account_id)
        return None if found is None or (found.deleting and not deleting) else found

    @translated
    async def account_by_key(self, key_digest: str) -> AccountRecord | None:
        """The account the key whose sha256 hex is `key_digest` signs in, deleting or not;
        None when no account has it."""
        index = self._names.index.key(key_digest)
        account_id = await self._holder(index)
        if account_id is None:
            return None
        found = await self._account(account_id)
        if found is None or found.key_digest != key_digest:
            await self._swap(index, account_id, None)
            return None
        return found

    @translated
    async def account_by_name(self, name_digest: str) -> AccountRecord | None:
        """The account whose name key hashes to `name_digest`, if one holds it now."""
        account_id = await self._holder(self._names.index.name(name_digest))
        if account_id is None:
            return None
        found = await self._account(account_id)
        if found is None or found.deleting or found.name_digest != name_digest:
            return None
        return found

    @translated
    async def rename_account(self, account_id: str, name: str, name_digest: str) -> bool:
        """Give the account a new name; False when another account holds it.

        A new name with the same name key (another case) changes only the name.
        """
        old = await self._account(account_id)
        if old is None or old.deleting:
            return False
        hash_key = self._names.account(account_id).account
        if old.name_digest == name_digest:
            await self._client.hset(hash_key, "name", name)
            return True
        claim = self._names.index.name(name_digest)
        if not await self._claim(claim, account_id, name_digest):
            return False
        await self._client.hset(hash_key, mapping={"name": name, "name_key": name_digest})
        if await self._holder(claim) != account_id:
            await self._client.hset(
                hash_key, mapping={"name": old.name, "name_key": old.name_digest}
            )
            return False
        await self._swap(self._names.index.name(old.name_digest), account_id, None)
        return True

    @translated
    async def delete_account(self, account_id: str) -> None:
        """Remove the account and everything it has; see the module doc for the order."""
        found = await self._account(account_id)
        if found is None:
            return
        keys = self._names.account(account_id)
        await self._client.hset(keys.account, "deleting", "1")
        await self._leave_boards(account_id)
        done = [key async for key in self._client.scan_iter(match=_glob(keys.base) + "done:*")]
        await self._client.unlink(keys.history, keys.best, keys.ratings, keys.daily, *done)
        await self._swap(self._names.index.name(found.name_digest), account_id, None)
        await self._swap(self._names.index.key(found.key_digest), account_id, None)
        await self._client.delete(keys.account)

    async def _leave_boards(self, account_id: str) -> None:
        """Off the rating board of every game it has a rating in and every deal it won."""
        keys = self._names.account(account_id)
        pipe = self._client.pipeline(transaction=False)
        pipe.hkeys(keys.ratings)
        pipe.hkeys(keys.best)
        games, deals = await pipe.execute()
        for game in games:
            pipe.zrem(self._names.index.board(game.decode()), account_id)
        for deal in deals:
            game, number = deal.decode().rsplit(":", 1)
            pipe.zrem(self._names.index.deal(game, int(number)), account_id)
        await pipe.execute()

    async def _account(self, account_id: str) -> AccountRecord | None:
        stored: dict[Any, Any] = await self._client.hgetall(self._names.account(account_id).account)
        if not stored:
            return None
        return AccountRecord(
            account_id=account_id,
            name=stored[b"name"].decode(),
            name_digest=stored[b"name_key"].decode(),
            key_digest=stored[b"key"].decode(),
            created_ms=int(stored[b"created_ms"]),
            deleting=stored.get(b"deleting") == b"1",
        )

    async def _claim(self, claim: str, account_id: str, name_digest: str) -> bool:
        """Make the name claim `claim` point to `account_id`, unless an account holds it."""
        for _ in range(CLAIM_TRIES):
            if await self._client.set(claim, account_id, nx=True):
                return True
            holder = await self._holder(claim)
            if holder == account_id:
                return True
            if holder is None:
                continue
            found = await self._account(holder)
            if found is not None and found.name_digest == name_digest:
                return False
            if await self._swap(claim, holder, account_id):
                return True
        return False

    async def _holder(self, index: str) -> str | None:
        value: Any = await self._client.get(index)
        return None if value is None else str(value.decode())

    async def _swap(self, index: str, expected: str, new: str | None) -> bool:
        """Set `index` to `new` (None: delete it) if it still holds `expected`."""
        async with self._client.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(index)
                current: Any = await pipe.get(index)
                if current is None or current.decode() != expected:
                    return False
                pipe.multi()  # type: ignore[no-untyped-call]
                if new is None:
                    pipe.delete(index)
                else:
                    pipe.set(index, new)
                await pipe.execute()
            except WatchError:
                return False
        return True


def _glob(text: str) -> str:
    """`text` as a SCAN pattern that matches only itself."""
    return "".join(f"\\{char}" if char in GLOB_SPECIAL else char for char in text)
