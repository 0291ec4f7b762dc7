"""Solver work off the event loop: the worker pool, the jobs it runs, hint lines."""
