"""The terminal client: play and watch races from a terminal."""

__all__: list[str] = []
