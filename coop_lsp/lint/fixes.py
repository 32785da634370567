"""Applying safe fixes, round after round, until nothing more changes.

A round takes the safe fix of every finding whose edits touch nothing
another chosen fix touches, applies them together and lints again (a fix
can make room for another, or reveal one). A round that would leave more
syntax errors (S codes) than the text had before is undone and fixing stops
there: a fixed file must parse at least as well as the original.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..core.diagnostic import Diagnostic, Edit

MAX_ROUNDS = 10


@dataclass(slots=True)
class FixOutcome:
    data: bytes  # the fixed text (the original when nothing applied)
    diagnostics: list[Diagnostic]  # what remains in `data`
    applied: int  # how many fixes went in
    refused: str | None = None  # why fixing stopped early, if it did


def syntax_errors(diagnostics: list[Diagnostic]) -> int:
    return sum(1 for d in diagnostics if d.code.startswith("S"))


def choose_edits(diagnostics: list[Diagnostic]) -> tuple[list[Edit], int]:
    """Edits of the safe fixes that do not touch one another, and how many fixes they make."""
    taken: list[Edit] = []
    count = 0
    for diagnostic in diagnostics:
        fix = next((f for f in diagnostic.fixes if f.safe), None)
        if fix is None or not fix.edits:
            continue
        # Closed intervals: two insertions at one point, or an insertion at
        # the edge of a replacement, wait for the next round.
        if any(max(e.span.start, t.span.start) <= min(e.span.end, t.span.end) for e in fix.edits for t in taken):
            continue
        if any(max(a.span.start, b.span.start) <= min(a.span.end, b.span.end)
               for i, a in enumerate(fix.edits) for b in fix.edits[i + 1 :]):
            continue
        taken.extend(fix.edits)
        count += 1
    return taken, count


def apply_edits(data: bytes, edits: list[Edit]) -> bytes:
    pieces, last = [], 0
    for edit in sorted(edits, key=lambda e: e.span.start):
        pieces.append(data[last : edit.span.start])
        pieces.append(edit.new_text.encode("utf-8"))
        last = edit.span.end
    pieces.append(data[last:])
    return b"".join(pieces)


def fix_until_stable(data: bytes, lint: Callable[[bytes], list[Diagnostic]],
                     diagnostics: list[Diagnostic] | None = None) -> FixOutcome:
    """Applies safe fixes to `data`; `lint` returns the (filtered) findings of a text, spans in its bytes."""
    if diagnostics is None:
        diagnostics = lint(data)
    before = syntax_errors(diagnostics)
    applied = 0
    for _ in range(MAX_ROUNDS):
        edits, count = choose_edits(diagnostics)
        if not count:
            return FixOutcome(data, diagnostics, applied)
        candidate = apply_edits(data, edits)
        if candidate == data:
            return FixOutcome(data, diagnostics, applied)
        found = lint(candidate)
        if syntax_errors(found) > before:
            return FixOutcome(data, diagnostics, applied,
                              refused=f"{count} fix(es) not applied: the result would have more syntax errors")
        data, diagnostics, applied = candidate, found, applied + count
    return FixOutcome(data, diagnostics, applied)


def without_fixes_that_break_syntax(diagnostics: list[Diagnostic], data: bytes) -> list[Diagnostic]:
    """In a file that already has syntax errors, drops every fix whose result parses worse.

    A fix is written for the code its rule understood; in a broken file the
    parser's recovery can make the same edit land in a spot where it adds a
    syntax error ('enable subgroups;' after a stray declaration, parentheses
    across half a statement). Files without syntax errors skip the check: the
    fixes are written for well-formed code and each re-parse costs time.
    """
    from ..syntax.diagnostics import syntax_diagnostics
    from ..syntax.parser import parse

    before = syntax_errors(diagnostics)
    if before == 0:
        return diagnostics
    budget = [MAX_FIXES_REPARSED]

    def parses_no_worse(fix) -> bool:
        # Past the budget a fix is dropped unchecked: one keystroke in a badly
        # broken file must not cost a re-parse per finding, and the fixes come
        # back as the errors go.
        budget[0] -= 1
        if budget[0] < 0:
            return False
        fixed = parse(apply_edits(data, list(fix.edits)))
        return syntax_errors(syntax_diagnostics(fixed, explain=False)) <= before

    kept = []
    for diagnostic in diagnostics:
        if diagnostic.code in VERIFIED_BY_THE_SYNTAX_LAYER:
            kept.append(diagnostic)
            continue
        good = tuple(fix for fix in diagnostic.fixes if parses_no_worse(fix))
        kept.append(diagnostic if len(good) == len(diagnostic.fixes) else replace(diagnostic, fixes=good))
    return kept


MAX_FIXES_REPARSED = 16
# S001 offers an insertion only after re-parsing shows it removes a syntax error
# (syntax/diagnostics.py, _insertion_helps): checking it again would double the cost.
VERIFIED_BY_THE_SYNTAX_LAYER = frozenset({"S001"})
