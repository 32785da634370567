"""One entry point that runs the checks of every layer over a source."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostic import Diagnostic
from ..core.text import SourceText, Span
from ..syntax import parse, syntax_diagnostics
from ..syntax.parser import ParseAbandoned, Parsed
from ..syntax.rules import SYNTAX_ERROR


@dataclass(slots=True)
class LintResult:
    source: SourceText
    diagnostics: list[Diagnostic]
    parsed: Parsed | None


def lint_source(text: str | bytes) -> LintResult:
    try:
        parsed = parse(text)
    except ParseAbandoned as error:
        source = SourceText.from_bytes(text) if isinstance(text, bytes) else SourceText(text)
        return LintResult(source, [Diagnostic(SYNTAX_ERROR.code, str(error), Span(0, 0))], None)
    return LintResult(parsed.source, syntax_diagnostics(parsed), parsed)
