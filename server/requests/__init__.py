"""The request handlers: lobby requests, moves, deals, hints."""
