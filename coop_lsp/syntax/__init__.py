"""Syntax layer: parsing WGSL with our tree-sitter grammar, and syntax diagnostics.

Knows nothing of meaning: it never imports the semantic layer.
"""

from .parser import Document, parse, wgsl_language
from .diagnostics import syntax_diagnostics

__all__ = ["Document", "parse", "syntax_diagnostics", "wgsl_language"]
