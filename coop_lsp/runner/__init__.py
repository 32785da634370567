"""Runs kernels: run descriptions, the emulation lowering, backends in child processes, reports.

Depends on syntax, semantic and lint (to read kernels); nothing below it imports the runner.
"""
