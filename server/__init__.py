"""The race server: an asyncio websockets shell around the engine and the Redis store."""

__all__: list[str] = []
