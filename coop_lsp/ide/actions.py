"""Code actions: the fixes that diagnostics carry."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostic import Diagnostic, Edit
from ..core.text import Span
from .analysis import Analysis


@dataclass(frozen=True)
class CodeAction:
    title: str
    edits: tuple[Edit, ...]
    preferred: bool
    diagnostic: Diagnostic | None = None
    kind: str = "quickfix"


def _overlaps(a: Span, b: Span) -> bool:
    return a.start <= b.end and b.start <= a.end


def code_actions(analysis: Analysis, span: Span, diagnostics: list[Diagnostic] | None = None) -> list[CodeAction]:
    """Every fix of every diagnostic touching `span`; safe fixes are preferred."""
    out = []
    for diagnostic in diagnostics if diagnostics is not None else analysis.diagnostics_with_fixes():
        if not _overlaps(diagnostic.span, span):
            continue
        for fix in diagnostic.fixes:
            out.append(CodeAction(fix.title, fix.edits, fix.safe, diagnostic))
    return out
