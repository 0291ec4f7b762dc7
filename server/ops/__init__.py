"""Operator commands and processes: embedded Valkey, worker processes, solve, fill-pool."""
