"""The compute entry points of a document: where the Run kernel lens and action go, and the last run's
hover and inlay hint (several features ask, so they share this)."""

from __future__ import annotations

from ...ide.analysis import Analysis


def _compute_entry_points(analysis: Analysis) -> list:
    out = []
    model = getattr(analysis, "model", None)
    for symbol in (model.symbols if model is not None else ()):
        declaration = symbol.declaration
        if symbol.kind != "function" or declaration is None:
            continue
        if any(c.type == "attribute" and analysis.data[c.start_byte:c.end_byte].lstrip(b"@ ").startswith(b"compute")
               for c in declaration.children):
            out.append(symbol)
    return out


def _entry_point_at(analysis: Analysis, offset: int):
    """The compute entry point whose declaration contains `offset`, if any."""
    for symbol in _compute_entry_points(analysis):
        if symbol.declaration.start_byte <= offset <= symbol.declaration.end_byte:
            return symbol
    return None
