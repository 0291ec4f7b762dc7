"""Benchmarks: `python -m bench` runs them all and prints their figures.

Every module named ``<name>_bench.py`` here is a benchmark that runs on its
own as ``python -m bench.<name>_bench``; the other modules are its helpers.
"""
