"""Lint layer: runs every check on a document and returns its diagnostics.

Runs without a server or a command line; both front ends call `lint_source`.
"""

from .engine import LintResult, Reuse, lint_parsed, lint_source

__all__ = ["LintResult", "Reuse", "lint_parsed", "lint_source"]
