"""The diagnostic every layer produces and every front end renders."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .text import Span


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
