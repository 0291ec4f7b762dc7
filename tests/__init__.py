"""Tests, mirroring the packages."""
