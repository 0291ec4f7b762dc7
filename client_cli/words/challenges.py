"""A challenge just made, in words: its code, how others race it, its key."""

from __future__ import annotations

from datetime import UTC, datetime

from client_cli.link.watch_link import challenge_link
from protocol import ChallengeCreated


def challenge_made_text(reply: ChallengeCreated, server: str) -> str:
    """What ``challenge`` (typed after a race) says: the code to share, until when it is
    open, the link that races it in a browser on `server`, and the key that closes it
    early (shown once, when this client made it)."""
    info = reply.challenge
    closes = datetime.fromtimestamp(info.closes_at_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")
    lines = [
        f"Challenge {info.code}: others race this deal against your runs with"
        f" solrace challenge {info.code}, until {closes} UTC.",
        f"Or in a browser: {challenge_link(server, info.code)}",
    ]
    if reply.key is None:
        lines.append("Another racer made this race's challenge first; it is the same one.")
    else:
        lines.append(f"Its key closes it early (kept nowhere else, shown once): {reply.key}")
    return "\n".join(lines)
