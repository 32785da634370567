"""Semantic layer: names, constants, types and the builtin tables of each dialect."""
