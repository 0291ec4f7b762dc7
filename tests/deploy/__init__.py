"""Tests of deploy/: the topology run with real processes, faults done for real, the files checked."""
