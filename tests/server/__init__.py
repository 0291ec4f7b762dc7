"""Tests of the race server: store, embedded Valkey, rooms, sessions."""
