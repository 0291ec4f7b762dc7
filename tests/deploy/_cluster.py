"""A real Redis Cluster on loopback: 3 masters and 3 replicas, each a ``redis-server``.

Each node gets a client port and a cluster-bus port of its own (``cluster-port``,
Redis >= 7), both picked free; ``redis-cli --cluster create`` joins them and gives
each master a third of the slots and one replica. Nodes are started through
`Processes`, so the test's teardown stops every one of them by pid.
"""

from __future__ import annotations

import contextlib
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError

from tests.deploy._processes import Processes, Running, free_ports, require, wait_until

NODES = 6
NODE_TIMEOUT_MS = 2_000
"""How long a master may be unreachable before its replica takes over."""
FAILOVER_TRIES = 3


@dataclass
class LoopbackCluster:
    group: Processes
    directory: Path
    ports: list[int] = field(default_factory=list)
    bus_ports: dict[int, int] = field(default_factory=dict)
    running: dict[int, Running] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The cluster as ``--redis`` takes it: any one node, the client finds the rest."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def start(self) -> None:
        server, cli = require("redis-server"), require("redis-cli")
        ports = free_ports(2 * NODES)
        self.ports = ports[:NODES]
        self.bus_ports = dict(zip(self.ports, ports[NODES:], strict=True))
        for port in self.ports:
            self._start_node(server, port)
        nodes = [f"127.0.0.1:{port}" for port in self.ports]
        subprocess.run(
            [cli, "--cluster", "create", *nodes, "--cluster-replicas", "1", "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        wait_until(self.ready, "every node to see the whole cluster up")
        wait_until(self._replicas_in_sync, "every replica to finish its first sync")

    def _start_node(self, server: str, port: int) -> None:
        bus = self.bus_ports[port]
        directory = self.directory / str(port)
        directory.mkdir(parents=True, exist_ok=True)
        command = [
            server, "--bind", "127.0.0.1", "--port", str(port), "--cluster-port", str(bus),
            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--dir", str(directory),
            "--appendonly", "yes", "--appendfsync", "always", "--save", "",
            "--repl-diskless-sync-delay", "0", "--daemonize", "no",
        ]  # fmt: skip
        running = self.group.start(f"redis-{port}", command)
        self.running[port] = running
        self.group.check_running(running, lambda: self._pong(port), f"redis-server on {port}")

    def ready(self) -> bool:
        """Whether every live node says the cluster is ok and knows every node."""
        live = [port for port in self.ports if self.running[port].popen.poll() is None]
        return all(self._info(port).get("cluster_state") == "ok" for port in live) and all(
            len(self.roles(port)) == NODES for port in live
        )

    def roles(self, port: int) -> dict[int, str]:
        """Each node's role as node `port` sees it: port -> "master", "slave" or "fail"
        (agreed to have failed)."""
        lines = self._call(port, "CLUSTER", "NODES")
        roles: dict[int, str] = {}
        for line in lines.splitlines() if isinstance(lines, str) else ():
            parts = line.split()
            address, flags = parts[1], parts[2].split(",")
            node_port = int(address.split("@")[0].rsplit(":", 1)[1])
            roles[node_port] = (
                "fail" if "fail" in flags else "master" if "master" in flags else "slave"
            )
        return roles

    def replica_of(self, master: int) -> int:
        """The port of the replica of master `master`."""
        for port in self.ports:
            if port != master and self._info_replication(port).get("master_port") == str(master):
                return port
        raise AssertionError(f"master {master} has no replica")

    def _replicas_in_sync(self) -> bool:
        replicas = [
            self._info_replication(port)
            for port, role in self.roles(self.ports[0]).items()
            if role == "slave"
        ]
        return len(replicas) == NODES // 2 and all(
            replica.get("master_link_status") == "up" for replica in replicas
        )

    def failover(self, replica: int) -> None:
        """Promote `replica` with CLUSTER FAILOVER (its master agrees, nothing is lost);
        returns once every node sees it as a master. A manual failover that its
        master does not take up in time is given up by the replica: asked again."""
        wait_until(
            lambda: self._info_replication(replica).get("master_link_status") == "up",
            f"replica {replica} to be in sync",
        )
        for _ in range(FAILOVER_TRIES):
            self._call(replica, "CLUSTER", "FAILOVER")
            with contextlib.suppress(AssertionError):
                wait_until(lambda: self._promoted(replica), f"{replica} promoted", 10)
                return
        raise AssertionError(f"node {replica} was not promoted in {FAILOVER_TRIES} tries")

    def _promoted(self, replica: int) -> bool:
        return all(self.roles(port).get(replica) == "master" for port in self.ports) and (
            self.ready()
        )

    def _pong(self, port: int) -> bool:
        return self._call(port, "PING") is True

    def _info(self, port: int) -> dict[str, str]:
        text = self._call(port, "CLUSTER", "INFO")
        return _fields(text) if isinstance(text, str) else {}

    def _info_replication(self, port: int) -> dict[str, str]:
        text = self._call(port, "INFO", "replication")
        if isinstance(text, dict):
            return {key: str(value) for key, value in text.items()}
        return {}

    def _call(self, port: int, *command: str) -> object:
        """A command to one node, None if it does not answer."""
        with contextlib.suppress(RedisError, OSError):
            client = Redis(port=port, decode_responses=True, socket_timeout=2)
            try:
                return client.execute_command(*command)  # type: ignore[no-untyped-call]
            finally:
                client.close()
        return None


def _fields(text: str) -> dict[str, str]:
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {key: value.strip() for key, value in pairs}
