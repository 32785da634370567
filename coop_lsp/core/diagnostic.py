"""The diagnostic every layer produces and every front end renders."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from .text import Span

# Past this many findings of one code in one file, more of the same helps no one (lint/engine.py caps
# the list there; a check that can find thousands may stop building them sooner).
MAX_PER_CODE = 100


class Severity(enum.IntEnum):
    # Ordered so that max() gives the most serious.
    HINT = 1
    INFO = 2
    WARNING = 3
    ERROR = 4

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that explains a diagnostic: its cause or an earlier declaration."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Edit:
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A change that resolves the diagnostic; `safe` fixes may be applied without review."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool = True


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()

    @property
    def sort_key(self) -> tuple[int, int, str]:
        return (self.span.start, self.span.end, self.code)

    def spans(self):
        """Every range this diagnostic names: its own, its related places' and its fixes' edits."""
        yield self.span
        for related in self.related:
            yield related.span
        for fix in self.fixes:
            for edit in fix.edits:
                yield edit.span

    def shifted(self, delta: int) -> "Diagnostic":
        """The same diagnostic for text that moved by `delta` bytes (a reused check of unchanged code)."""
        if not delta:
            return self
        return self.mapped(lambda span: Span(span.start + delta, span.end + delta))

    def mapped(self, move: Callable[[Span], Span]) -> "Diagnostic":
        """The same diagnostic with every range it names (`spans`) replaced by `move(range)`."""
        return Diagnostic(self.code, self.message, move(self.span), self.severity,
                          tuple(Related(move(r.span), r.message) for r in self.related),
                          tuple(Fix(f.title, tuple(Edit(move(e.span), e.new_text) for e in f.edits), f.safe)
                                for f in self.fixes))
