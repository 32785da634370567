"""Checks a spec case against our linter and against Tint."""

from __future__ import annotations

from coop_lsp.core.diagnostic import Severity
from coop_lsp.core.text import Position
from coop_lsp.devices.tint import TintOracle
from coop_lsp.lint import lint_source

from .spec import SpecCase


def check_expected(case: SpecCase) -> None:
    result = lint_source(case.source)
    actual = []
    for diagnostic in result.diagnostics:
        position = result.source.position(diagnostic.span.start)
        actual.append((diagnostic.code, position.line, position.column, diagnostic.message))
    expected_keys = sorted((e.code, e.line, e.column) for e in case.expected)
    actual_keys = sorted((code, line, column) for code, line, column, _ in actual)
    assert actual_keys == expected_keys, _explain(case, actual)
    severities = {(d.code, *_line_column(result, d)): d.severity.label for d in result.diagnostics}
    for expectation in case.expected:
        messages = [m for c, l, col, m in actual if (c, l, col) == (expectation.code, expectation.line, expectation.column)]
        assert any(expectation.message in m for m in messages), (
            f"{case.id}: expected a message containing {expectation.message!r}, got {messages}")
        if expectation.severity is not None:
            severity = severities[(expectation.code, expectation.line, expectation.column)]
            assert severity == expectation.severity, f"{case.id}: {expectation.code} is {severity}, not {expectation.severity}"


def _line_column(result, diagnostic) -> tuple[int, int]:
    position = result.source.position(diagnostic.span.start)
    return position.line, position.column


def check_against_tint(case: SpecCase, tint: TintOracle) -> tuple[bool, str]:
    """Same verdict as Tint, and our first error on Tint's first error line."""
    ours = lint_source(case.source)
    our_errors = sorted(
        (d for d in ours.diagnostics if d.severity is Severity.ERROR), key=lambda d: d.span.start)
    verdict = tint.compile(case.source)
    if verdict.failure:
        return False, f"Tint gave no verdict: {verdict.failure}"
    tint_errors = verdict.errors
    if bool(our_errors) != bool(tint_errors):
        tint_said = "; ".join(f"{m.line}:{m.column} {m.message}" for m in tint_errors) or "accepted"
        ours_said = "; ".join(d.message for d in our_errors) or "accepted"
        return False, f"verdicts differ: Tint {tint_said!r}, coop-lint {ours_said!r}"
    if our_errors:
        our_line = ours.source.position(our_errors[0].span.start).line + 1
        first = tint_errors[0]
        if our_line != first.line and not _same_gap(ours, our_errors[0].span.start, first):
            return False, (f"first error on line {our_line} here, on line {first.line} in Tint "
                           f"({first.message!r})")
    return True, ""


def _same_gap(ours, offset: int, tint_error) -> bool:
    """Whether only whitespace and comments separate our error from Tint's.

    A missing token is reported by Tint at the next token and by us right
    after the previous one (where the token belongs); both name one gap.
    """
    if ours.parsed is None:
        return False
    tint_offset = ours.source.offset(Position(tint_error.line - 1, tint_error.column - 1))
    if tint_offset < offset:
        return False
    return all(leaf.is_extra or leaf.is_missing for leaf in _leaves(ours.parsed.root, offset, tint_offset))


def _leaves(root, start: int, end: int):
    stack = [root]
    while stack:
        node = stack.pop()
        if node.end_byte <= start or node.start_byte >= end:
            continue
        if node.child_count == 0 or node.type in ("line_comment", "block_comment"):
            yield node
        else:
            stack.extend(node.children)


def _explain(case: SpecCase, actual: list[tuple[str, int, int, str]]) -> str:
    lines = [f"{case.id} (file line {case.first_line}): diagnostics differ", "expected:"]
    lines += [f"  {e.code} {e.line + 1}:{e.column + 1} {e.message}" for e in case.expected] or ["  (none)"]
    lines.append("actual:")
    lines += [f"  {c} {l + 1}:{col + 1} {m}" for c, l, col, m in actual] or ["  (none)"]
    return "\n".join(lines)
