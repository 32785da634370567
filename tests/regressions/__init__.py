"""Reproducers of bugs found by fuzzing (see test_regressions.py)."""
