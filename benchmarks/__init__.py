"""Benchmarks: ``make bench`` runs every ``benchmarks/bench_*.py`` and prints its figures."""
