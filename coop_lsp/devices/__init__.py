"""Devices: real compilers and adapters, always queried in child processes.

A broken driver or a compiler crash must never take the linter down, so
nothing here loads a GPU library into the calling process.
"""
