"""Uniformity analysis: Tint's workgroup-level verdicts, and a subgroup-level analysis of our own."""

from . import rules as _rules  # noqa: F401 - registers the U codes
from .report import uniformity_diagnostics

__all__ = ["uniformity_diagnostics"]
