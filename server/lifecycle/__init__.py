"""The pure race lifecycle: room, race, presence, ranking (no asyncio, redis, websockets)."""
