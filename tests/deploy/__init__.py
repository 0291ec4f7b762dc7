"""Tests of deploy/: the topology run with real processes, real faults, the files checked."""
