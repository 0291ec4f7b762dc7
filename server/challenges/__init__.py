"""Challenges, pure: a finished race's runs as records, their standings and what is shown."""
