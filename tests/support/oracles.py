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
from coop_lsp.devices.naga import NagaOracle
from coop_lsp.devices.tint import TintOracle
from coop_lsp.lint import lint_source

from .spec import SpecCase


def is_error(code: str) -> bool:
    rule = find(code)
    if rule is None:
        raise ValueError(f"unknown rule code {code}")
    return rule.severity is Severity.ERROR


def expected_first_error_line(case: SpecCase) -> int | None:
    """1-based line of the first expected error, None when the case expects none."""
    lines = [e.line + 1 for e in case.expected if is_error(e.code)]
    return min(lines) if lines else None


def expectations_against_tint(case: SpecCase, tint: TintOracle) -> tuple[bool, str]:
    verdict = tint.compile(case.source)
    if verdict.failure:
        return False, f"Tint gave no verdict: {verdict.failure}"
    return _compare(case, "Tint", [(m.line, m.message) for m in verdict.errors])


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
