"""Limits per client address: connections open, new connections, join attempts.

A client's address is the socket peer's, unless the peer is a trusted proxy
(`Config.trusted_proxies`): then it is the address that proxy puts in
``X-Forwarded-For``, read from the right, skipping further trusted proxies.
An IPv6 client counts by its /64 network (one host usually holds a whole
/64); an IPv4-mapped IPv6 address counts as the IPv4 address.

New connections are checked before the WebSocket upgrade, so refusing one
costs an HTTP 429 answer and nothing more. Every bucket reads the server's
clock (`Clock.monotonic`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network

from server.clock import Clock
from server.config import Config
from server.limits.ratelimit import KeyedBuckets

IPV6_PREFIX = 64
"""An IPv6 client counts by its network of this prefix length."""

Address = IPv4Address | IPv6Address


class AddressLimits:
    def __init__(self, config: Config, clock: Clock) -> None:
        self.config, self.clock = config, clock
        self.proxies = tuple(ip_network(net, strict=False) for net in config.trusted_proxies)
        self.open: dict[str, int] = {}
        """Connections open (admitted, not yet lost) by address."""
        self.held: dict[str, int] = {}
        """Connections over the limits waiting unanswered (`hold`), by address."""
        self.arrivals = KeyedBuckets(config.new_connections_per_s, config.new_connections_burst)
        self.joins = KeyedBuckets(config.joins_per_minute / 60, config.joins_burst)

    def client_address(self, peer: str, forwarded: Iterable[str]) -> str:
        """The address limits count for a connection from `peer` with these XFF headers."""
        nearest = _parse(peer)
        if nearest is None:
            return peer
        if self._trusted(nearest):
            hops = [hop.strip() for header in forwarded for hop in header.split(",")]
            for hop in reversed(hops):
                address = _parse(hop)
                if address is None:
                    break
                nearest = address
                if not self._trusted(address):
                    break
        return _key(nearest)

    def admit(self, address: str) -> str | None:
        """Count a new connection from `address`; None, or why it is refused."""
        cap = self.config.max_connections_per_address
        if self.open.get(address, 0) >= cap:
            return f"too many connections from your address (at most {cap} at once)"
        wait = self.arrivals.take(address, self.clock.monotonic())
        if wait is not None:
            return f"too many new connections from your address; retry in {_seconds(wait)} s"
        self.open[address] = self.open.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        """An admitted connection from `address` has closed."""
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)

    def hold(self, address: str) -> bool:
        """Count one more held connection of `address`; False when it holds its most."""
        held = self.held.get(address, 0)
        if held >= self.config.max_held_per_address:
            return False
        self.held[address] = held + 1
        return True

    def unhold(self, address: str) -> None:
        """A held connection of `address` has been admitted, refused or lost."""
        left = self.held.get(address, 0) - 1
        if left > 0:
            self.held[address] = left
        else:
            self.held.pop(address, None)

    def join_wait(self, address: str) -> int | None:
        """Spend one of `address`'s join attempts: None, or whole seconds to wait."""
        wait = self.joins.take(address, self.clock.monotonic())
        return None if wait is None else _seconds(wait)

    def _trusted(self, address: Address) -> bool:
        return any(address in network for network in self.proxies)


def _parse(text: str) -> Address | None:
    try:
        address = ip_address(text.strip("[]"))
    except ValueError:
        return None
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _key(address: Address) -> str:
    if isinstance(address, IPv6Address):
        return str(ip_network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


__all__ = ["AddressLimits"]
