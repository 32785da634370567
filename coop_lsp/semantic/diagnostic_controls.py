"""Diagnostic filters that contradict or repeat each other.

Two filters for one rule at one place are ambiguous when their severities
differ; compilers reject that. Module directives may repeat a filter word for
word (it changes nothing), attributes of one declaration may not.
"""

from __future__ import annotations

import tree_sitter as ts

from ..core.diagnostic import Related
from .context import Context
from ..syntax.nodes import FIELD_RULE, FIELD_SEVERITY


def check_diagnostic_controls(ctx: Context, holders: list[ts.Node], use: str, allow_repeats: bool) -> None:
    """`holders`: directives or attributes, each with a diagnostic_control child; `use` names them."""
    seen: dict[str, tuple[str, ts.Node]] = {}
    for holder in holders:
        control = next((c for c in holder.children if c.type == "diagnostic_control"), None)
        if control is None:
            continue
        severity_node = control.child_by_field_id(FIELD_SEVERITY)
        rule_node = control.child_by_field_id(FIELD_RULE)
        if severity_node is None or rule_node is None:
            continue
        rule = "".join(ctx.text(c) for c in rule_node.children) or ctx.text(rule_node)
        severity = ctx.text(severity_node)
        first = seen.get(rule)
        if first is None:
            seen[rule] = (severity, rule_node)
            continue
        where = Related(ctx.span(first[1]), f"'{rule}' first set to '{first[0]}' here")
        if first[0] != severity:
            ctx.report("T023", f"conflicting diagnostic {use}: '{rule}' is set to both '{first[0]}' and "
                               f"'{severity}'; keep one", ctx.span(rule_node), related=(where,))
        elif not allow_repeats:
            ctx.report("T023", f"duplicate diagnostic {use} for '{rule}'; remove one", ctx.span(rule_node),
                       related=(where,))
