"""Errors the engine raises. Game over is data (`Outcome`), never an exception."""


class EngineError(Exception):
    """Base class of every error the engine raises."""


class InvalidMove(EngineError):
    """The move text or shape is malformed, or names a pile the variant lacks."""


class IllegalMove(EngineError):
    """The move is well formed but not legal in this position; `str()` says why."""


class NoEffect(IllegalMove):
    """The move is legal by the rules but changes nothing (a whole pile onto an
    empty pile); `str()` says what to send instead. Raised by `engine.play` only."""


class UnknownVariant(EngineError):
    """No variant has this key."""
