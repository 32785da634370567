"""The suppression audit: `diagnostic(...)` filters that control nothing.

A filter written to silence a finding outlives the finding: the code is fixed
or moved and the `diagnostic(off, ...)` stays, ready to hide the next real
problem. A filter is unused when it decided the severity of no finding in this
lint. Only rules whose checks ran on this file are audited: coop-lint's own
rules of the layers that always run (and the configuration rules when targets
were given), and the Tint uniformity rules coop-lint models. A filter for a
rule that only Tint checks is left alone, as is everything in a file whose
parse failed (the analyses that would use the filters did not run).
"""

from __future__ import annotations

from ..analysis.uniformity.report import MODELLED_TINT_RULES
from ..core.diagnostic import Diagnostic, Edit, Fix, Severity
from ..core.rules import RULE_NAMESPACE
from ..core.rules import find as find_rule
from ..core.text import SourceText, Span
from ..syntax.filters import DiagnosticFilters, Filter
from .rules import UNUSED_SUPPRESSION

# Prefixes of the coop rules whose checks run on every file that parses.
_ALWAYS_CHECKED = ("S", "T", "U", "X")
_CHECKED_WITH_TARGETS = ("D",)


def unused_suppressions(filters: DiagnosticFilters, source: SourceText, targets_given: bool) -> list[Diagnostic]:
    out = []
    for written in filters.filters:
        if id(written) in filters.used or not _audited(written.rule, targets_given):
            continue
        what = "this filter" if written.severity is not None else "this suppression"
        out.append(Diagnostic(
            UNUSED_SUPPRESSION.code,
            f"{what} of '{written.rule}' applies to no finding; remove it so that it cannot hide a future one",
            written.rule_span(source.data), Severity.WARNING,
            fixes=(Fix(f"Remove the unused filter of '{written.rule}'", (_removal(written, source),)),)))
    return out


def _audited(name: str, targets_given: bool) -> bool:
    if name in MODELLED_TINT_RULES:
        return True
    if not name.startswith(RULE_NAMESPACE + "."):
        return False
    rule = find_rule(name)
    if rule is None:
        return False  # U004 already says the name is unknown
    if rule.code == UNUSED_SUPPRESSION.code:
        return False  # switching the audit off is what makes it quiet
    return rule.code.startswith(_ALWAYS_CHECKED) or (targets_given and rule.code.startswith(_CHECKED_WITH_TARGETS))


def _removal(written: Filter, source: SourceText) -> Edit:
    """Deletes the directive or attribute, with the line it leaves empty, or the space after an attribute."""
    data = source.data
    start, end = written.written.start, written.written.end
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end < 0 else line_end
    if not data[line_start:start].strip() and not data[end:line_end].strip():
        return Edit(Span(line_start, min(line_end + 1, len(data))), "")
    while end < len(data) and data[end:end + 1] in (b" ", b"\t"):
        end += 1
    return Edit(Span(start, end), "")
