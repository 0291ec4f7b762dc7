"""A solver for positions with every card known (see `engine.solver.search`)."""

from engine.solver.search import Budget, Result, Verdict, solve

__all__ = ["Budget", "Result", "Verdict", "solve"]
