"""Syntax layer: parsing WGSL with our tree-sitter grammar, and syntax diagnostics.

Knows nothing of meaning: it never imports the semantic layer.

The names below load on first use, so that `coop_lsp.syntax.grammar` (which the entry points ask
whether the install can parse at all) imports neither py-tree-sitter nor the rest of the layer.
"""

from __future__ import annotations

import importlib

_EXPORTS = {"Document": "parser", "parse": "parser", "wgsl_language": "parser",
            "syntax_diagnostics": "diagnostics"}

__all__ = ["Document", "parse", "syntax_diagnostics", "wgsl_language"]


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
