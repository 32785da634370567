"""WGSL diagnostic filtering: `diagnostic(severity, rule)` directives and `@diagnostic` attributes.

A directive applies to the whole module; an attribute on a function, a
compound statement, an `if`, `switch`, loop or loop body applies to that
construct; the innermost filter for a rule wins (WGSL spec, "Diagnostic
Filtering"). Tint honours its own rule names this way; coop-lint also reads
`coop.<rule>` names, which Tint accepts and ignores, so a kernel author can
silence our rules in the WGSL itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ..core.diagnostic import Severity
from ..core.text import SourceText, Span
from .nodes import FIELD_RULE, FIELD_SEVERITY

# Whether a text without the word "diagnostic" skips the search of each node's range (`from_tree`); off, each
# is searched, which this must always agree with (tests/test_filters_word_shortcut.py).
WORD_SHORTCUT = True

SEVERITIES = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "off": None}


@dataclass(frozen=True)
class Filter:
    rule: str  # as written: "derivative_uniformity", "chromium.subgroup_matrix_uniformity", "coop.stride"
    severity: Severity | None  # None: off
    span: Span  # what it applies to
    written: Span  # where the filter itself is written

    def rule_span(self, data: bytes) -> Span:
        """Where the rule's name is written in the filter (the whole filter when it cannot be found)."""
        index = data[self.written.start:self.written.end].find(self.rule.encode())
        if index < 0:
            return self.written
        start = self.written.start + index
        return Span(start, start + len(self.rule.encode()))


class DiagnosticFilters:
    def __init__(self, filters: list[Filter]) -> None:
        self.filters = filters
        # Filters that decided the severity of at least one finding: the suppression audit
        # reports the others as suppressing nothing.
        self.used: set[int] = set()

    @classmethod
    def from_tree(cls, root: ts.Node, source: SourceText) -> "DiagnosticFilters":
        found: list[Filter] = []
        data = source.data
        whole = Span(0, len(data))
        # Both a directive and a filter attribute spell the word; where the parse has errors, recovery could
        # make it up as a missing token, and the node around that token has an error. A text without the word
        # anywhere has it in no node's range: only the nodes with errors are entered, without a search each
        # (while an error stays in a document without filters, that was a search per module-scope part).
        spelled = not WORD_SHORTCUT or data.find(b"diagnostic") >= 0
        stack = [root]
        while stack:
            node = stack.pop()
            if not node.has_error and (not spelled or data.find(b"diagnostic", node.start_byte, node.end_byte) < 0):
                continue
            if node.type == "diagnostic_directive":
                found.extend(_filters_of(node, whole, source))
                continue
            if node.type == "attribute":
                control = next((c for c in node.children if c.type == "diagnostic_control"), None)
                target = node.parent
                if control is not None and target is not None:
                    found.extend(_filters_of(node, Span(target.start_byte, target.end_byte), source))
                continue
            if node.child_count:
                stack.extend(node.children)
        return cls(found)

    def severity(self, rule: str, offset: int, default: Severity | None) -> Severity | None:
        """The effective severity of `rule` at `offset`; None when it is switched off."""
        best = self.controlling(rule, offset)
        if best is None:
            return default
        self.used.add(id(best))
        return best.severity

    def controlling(self, rule: str, offset: int) -> Filter | None:
        """The innermost filter for `rule` whose construct contains `offset`."""
        best = None
        for candidate in self.filters:
            if candidate.rule == rule and _covers(candidate.span, offset):
                if best is None or candidate.span.end - candidate.span.start <= best.span.end - best.span.start:
                    best = candidate
        return best


def _covers(span: Span, offset: int) -> bool:
    # A module directive covers the whole text, end included (a diagnostic at end of file).
    return span.start <= offset < span.end or (span.start == 0 and offset == span.end)


def _filters_of(node: ts.Node, applies_to: Span, source: SourceText) -> list[Filter]:
    control = next((c for c in node.children if c.type == "diagnostic_control"), None)
    if control is None:
        return []
    severity_node = control.child_by_field_id(FIELD_SEVERITY)
    rule_node = control.child_by_field_id(FIELD_RULE)
    if severity_node is None or rule_node is None:
        return []
    severity_text = source.slice(Span(severity_node.start_byte, severity_node.end_byte))
    if severity_text not in SEVERITIES:
        return []
    rule = "".join(source.slice(Span(c.start_byte, c.end_byte)) for c in rule_node.children)
    return [Filter(rule, SEVERITIES[severity_text], applies_to, Span(node.start_byte, node.end_byte))]
