"""Lint layer: runs every check on a document and returns its diagnostics.

Runs without a server or a command line; both front ends call `lint_source`.
The engine (and with it every checker) is imported when first used, so that
`coop-lint` answering from its cache, `--version` or `rules` never pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import LintResult, Reuse, lint_parsed, lint_source

__all__ = ["LintResult", "Reuse", "lint_parsed", "lint_source"]


def __getattr__(name: str):
    if name in __all__:
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
