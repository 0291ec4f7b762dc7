"""Tests of bots/: levels, strategies and the strong search, played through the engine."""
