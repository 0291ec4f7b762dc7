"""The words shown to a player: boards, rooms, news of room events, refusals, solver news."""
