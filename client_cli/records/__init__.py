"""Commands about what outlives a room: the player's accounts (create, show, rename,
delete, move a key between machines), race history, profiles and leaderboards."""

from client_cli.records.commands import run_records
from client_cli.records.options import RecordOptions, add_account_choice, add_record_commands

__all__ = ["RecordOptions", "add_account_choice", "add_record_commands", "run_records"]
