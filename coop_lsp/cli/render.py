"""Text output: `path:line:col: code message`, then the source line with a caret."""

from __future__ import annotations

from typing import TextIO

from ..core.diagnostic import Diagnostic
from ..lint import LintResult


def render_text(out: TextIO, path: str, result: LintResult, show_source: bool = True) -> None:
    for diagnostic in result.diagnostics:
        out.write(_headline(path, result, diagnostic) + "\n")
        if show_source:
            out.write(_frame(result, diagnostic))


def _headline(path: str, result: LintResult, diagnostic: Diagnostic) -> str:
    start = result.source.position(diagnostic.span.start)
    return (f"{path}:{start.line + 1}:{start.column + 1}: {diagnostic.code} "
            f"[{diagnostic.severity.label}] {diagnostic.message}")


def _frame(result: LintResult, diagnostic: Diagnostic) -> str:
    source = result.source
    start = source.position(diagnostic.span.start)
    end = source.position(diagnostic.span.end)
    line = source.line_text(start.line).replace("\t", " ")
    width = (end.column if end.line == start.line else len(line)) - start.column
    gutter = f"{start.line + 1} | "
    caret = " " * (len(gutter) + start.column) + "^" * max(width, 1)
    lines = [gutter + line, caret]
    for related in diagnostic.related:
        where = source.position(related.span.start)
        lines.append(f"{' ' * (len(gutter) - 2)}= note: {related.message} (line {where.line + 1}, "
                     f"column {where.column + 1})")
    return "\n".join(lines) + "\n"
