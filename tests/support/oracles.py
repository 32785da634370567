"""Checks a spec case's written expectations (not our linter) against Tint and naga.

The expected verdict of a case is "error" when any annotation names a rule of
error severity (warnings, such as T012 deprecated_builtin, do not count); its
expected first error line is the earliest such annotation. These checks keep
the specification honest while the implementation is being written; the
checks of the implementation itself are in compare.py.
"""

from __future__ import annotations

from coop_lsp.core.diagnostic import Severity
from coop_lsp.core.rules import find
from coop_lsp.semantic import rules as _semantic_rules  # noqa: F401  (registers the T codes)
from coop_lsp.syntax import rules as _syntax_rules  # noqa: F401  (registers the S codes)
from coop_lsp.devices.naga import NagaOracle
from coop_lsp.devices.tint import TintOracle

from .spec import SpecCase


def is_error(code: str) -> bool:
    rule = find(code)
    if rule is None:
        raise ValueError(f"unknown rule code {code}")
    return rule.severity is Severity.ERROR


def expected_first_error_line(case: SpecCase) -> int | None:
    """1-based line of the first expected error, None when the case expects none."""
    first = _first_expected_error(case)
    return first.line + 1 if first else None


def _first_expected_error(case: SpecCase):
    errors = [e for e in case.expected if is_error(e.code) and e.severity in (None, "error")]
    return min(errors, key=lambda e: (e.line, e.column)) if errors else None


def _same_gap(case: SpecCase, line: int, column: int) -> bool:
    """A missing token: Tint names the next token, the spec the place right after the previous one."""
    first = _first_expected_error(case)
    if first is None or not first.code.startswith("S"):
        return False
    lines = case.source.splitlines()
    between = [lines[first.line][first.column:]] + lines[first.line + 1:line - 1] + [lines[line - 1][:column - 1]]
    if line - 1 == first.line:
        between = [lines[first.line][first.column:column - 1]]
    return all(not text.split("//")[0].strip() for text in between)


def expectations_against_tint(case: SpecCase, tint: TintOracle) -> tuple[bool, str]:
    verdict = tint.compile(case.source)
    if verdict.failure:
        return False, f"Tint gave no verdict: {verdict.failure}"
    errors = [(m.line, m.message) for m in verdict.errors]
    if errors and _same_gap(case, verdict.errors[0].line, verdict.errors[0].column):
        errors[0] = (expected_first_error_line(case), errors[0][1])
    return _compare(case, "Tint", errors)


def expectations_against_naga(case: SpecCase, naga: NagaOracle) -> tuple[bool, str]:
    verdict = naga.validate(case.source)
    if verdict.failure:
        return False, f"naga gave no verdict: {verdict.failure}"
    return _compare(case, "naga", [(m.focus[0], m.message) for m in verdict.errors])


def _compare(case: SpecCase, oracle: str, errors: list[tuple[int | None, str]]) -> tuple[bool, str]:
    expected = expected_first_error_line(case)
    said = "; ".join(f"{line}: {message.splitlines()[0]}" for line, message in errors) or "accepted"
    if (expected is None) != (not errors):
        return False, f"verdicts differ: {oracle} {said!r}, the spec expects " + (
            f"an error on line {expected}" if expected else "no error")
    if errors and errors[0][0] is not None and errors[0][0] != expected:
        return False, f"first error on line {expected} in the spec, on line {errors[0][0]} in {oracle} ({said!r})"
    return True, ""


def check_against_naga(case: SpecCase, naga: NagaOracle) -> tuple[bool, str]:
    """Our linter against naga: same verdict, and our first error on naga's first error line.

    naga reports validation errors at the enclosing function and a label at
    the expression; NagaMessage.focus is that label. Errors naga gives no
    position (an invalid type) match any line.
    """
    from coop_lsp.lint import lint_source

    ours = lint_source(case.source)
    our_errors = sorted((d for d in ours.diagnostics if d.severity is Severity.ERROR), key=lambda d: d.span.start)
    verdict = naga.validate(case.source)
    if verdict.failure:
        return False, f"naga gave no verdict: {verdict.failure}"
    if bool(our_errors) != bool(verdict.errors):
        naga_said = "; ".join(f"{m.focus[0]} {m.message}" for m in verdict.errors) or "accepted"
        ours_said = "; ".join(d.message for d in our_errors) or "accepted"
        return False, f"verdicts differ: naga {naga_said!r}, coop-lint {ours_said!r}"
    if our_errors:
        our_line = ours.source.position(our_errors[0].span.start).line + 1
        first = verdict.errors[0]
        if first.focus[0] is not None and our_line != first.focus[0]:
            return False, f"first error on line {our_line} here, on line {first.focus[0]} in naga ({first.message!r})"
    return True, ""
