"""Turning uniformity failures into diagnostics: Tint's verdicts, and where the subgroup analysis differs."""

from __future__ import annotations

import tree_sitter as ts

from ...core.diagnostic import Diagnostic, Edit, Fix, Related, Severity
from ...core.rules import find as find_rule
from ...core.text import SourceText, Span
from ...syntax.filters import DiagnosticFilters
from ...semantic.builtins.language import DIALECTS_BY_PRECEDENCE
from ...semantic.model import SemanticModel
from . import rules
from ...semantic.reuse import BodyReuse
from .analyzer import Failure, UniformityAnalysis
from .reuse import SummaryReuse
from .levels import SUBGROUP, TINT
from .splits import ALL_SIZES

# The Tint rules this analysis decides like Tint, so a filter of them that controls nothing is known
# to be unused (lint/suppressions.py).
MODELLED_TINT_RULES = {"derivative_uniformity", "subgroup_uniformity", "chromium.subgroup_matrix_uniformity"}
KNOWN_TINT_RULES = MODELLED_TINT_RULES | {"chromium.unreachable_code"}
# Names seen in design documents and proposals, and what Tint calls them.
RENAMES = {
    "chromium_experimental.subgroup_matrix_uniformity": "chromium.subgroup_matrix_uniformity",
    "subgroup_matrix_uniformity": "chromium.subgroup_matrix_uniformity",
}


def uniformity_diagnostics(root: ts.Node, source: SourceText, model: SemanticModel,
                           filters: DiagnosticFilters, reuse: SummaryReuse | None = None,
                           bodies: BodyReuse | None = None, sizes: tuple[int, ...] = ()) -> list[Diagnostic]:
    """Tint's verdicts and ours; with `reuse` (and the `bodies` of the semantic check that made `model`),
    the results of functions unchanged since the last use are replayed. `sizes`: the subgroup sizes the
    targets allow (all of WGSL's, 4 to 128, when empty): the subgroup level judges divergence at those."""
    dialect = _dialect(model)
    if reuse is not None and bodies is not None:
        reuse.begin(root, source.data, model, bodies)
    else:
        reuse = None
    tint = UniformityAnalysis(root, source.data, model, TINT, dialect, reuse).run()
    # The subgroup level only ever has fewer non-uniform sources than Tint's, so where Tint finds
    # no subgroup-scope failure there is nothing for it to say: skip the second pass.
    if any(f.requirement.scope == "subgroup uniform" for f in tint):
        # Summaries depend on the sizes there: replayed only when every size is allowed, as they were made.
        subgroup = UniformityAnalysis(root, source.data, model, SUBGROUP, dialect,
                                      reuse if not sizes else None, sizes or ALL_SIZES).run()
    else:
        subgroup = []
    if reuse is not None:
        reuse.end()
    out: list[Diagnostic] = []
    tint_calls = {(f.span.start, f.message) for f in tint}
    reported_functions: set[str] = set()
    for failure in tint:
        severity = _severity(failure, filters)
        if severity is None:
            continue
        if failure.function in reported_functions:
            continue  # Tint stops at the first uniformity error of a function
        reported_functions.add(failure.function)
        out.append(Diagnostic(rules.UNIFORMITY.code, failure.message, failure.span, severity,
                              tuple(Related(n.span, n.message) for n in failure.notes)))
        if not any((f.span.start, f.message) == (failure.span.start, failure.message) for f in subgroup) \
                and failure.requirement.scope == "subgroup uniform":
            out.append(Diagnostic(rules.TINT_TOO_STRICT.code,
                                  f"'{failure.builtin}' is reached by whole subgroups here: every lane of a "
                                  "subgroup sees the same values, so this is correct on the GPU; Tint's workgroup "
                                  "check is stricter than needed", failure.span, severity=Severity.WARNING,
                                  fixes=_suppression_fix(root, source, failure)))
    divergent_calls = set()
    hidden: dict[int, tuple] = {}
    for failure in subgroup:
        if failure.requirement.scope != "subgroup uniform" or failure.call.start in divergent_calls:
            continue
        key = (failure.span.start, failure.message)
        tint_reported = key in tint_calls and _severity(failure, filters) is not None
        if tint_reported:
            continue
        divergent_calls.add(failure.call.start)
        related = tuple(Related(n.span, n.message) for n in failure.notes)
        if failure.depends:
            # Divergence that depends on the subgroup size or the mapping: a warning saying on what.
            called = "must only be called from subgroup uniform control flow"
            message = (failure.message.replace(called, f"is called where lanes of one subgroup diverge {failure.depends}")
                       if called in failure.message else
                       f"{failure.message}, and lanes of one subgroup may hold different values: they do "
                       f"{failure.depends}")
            out.append(Diagnostic(rules.SUBGROUP_DIVERGENCE.code, message + "; the result is then undefined",
                                  failure.span, Severity.WARNING, related=related))
            continue
        out.append(Diagnostic(rules.SUBGROUP_DIVERGENCE.code,
                              f"{failure.message.replace('must only be called from subgroup uniform control flow', 'is called where lanes of one subgroup diverge')}; "
                              "the result is undefined even with Tint's check switched off", failure.span,
                              related=related))
        rule = failure.requirement.rule
        written = filters.controlling(rule, failure.span.start) if rule else None
        if written is not None and written.severity is None:
            hidden.setdefault(id(written), (written, []))[1].append(failure)
    out.extend(_hiding_suppression(written, failures, source) for written, failures in hidden.values())
    out.extend(_unknown_rules(filters, source))
    return out


def _hiding_suppression(written, failures: list[Failure], source: SourceText) -> Diagnostic:
    """A002: the filter that switches Tint's check off over calls whose lanes really diverge."""
    first = failures[0]
    line = source.position(first.span.start).line + 1
    more = f" (and {len(failures) - 1} more call{'s' if len(failures) > 2 else ''})" if len(failures) > 1 else ""
    return Diagnostic(
        rules.SUPPRESSION_HIDES_DIVERGENCE.code,
        f"'diagnostic(off, {written.rule})' hides real divergence: '{first.builtin}' on line {line}{more} is called "
        "where lanes of one subgroup take different paths, so its result is undefined on the GPU",
        written.rule_span(source.data), Severity.WARNING,
        related=tuple(Related(f.span, f"'{f.builtin}' is called here with diverged lanes") for f in failures))


def _dialect(model: SemanticModel) -> str | None:
    for dialect in DIALECTS_BY_PRECEDENCE:
        if dialect.name in model.matrix_dialects:
            return dialect.name
    return None


def _severity(failure: Failure, filters: DiagnosticFilters) -> Severity | None:
    rule = failure.requirement.rule
    if not rule:
        return Severity.ERROR
    return filters.severity(rule, failure.span.start, Severity.ERROR)


def _suppression_fix(root: ts.Node, source: SourceText, failure: Failure) -> tuple[Fix, ...]:
    rule = failure.requirement.rule
    if not rule:
        return ()
    node = root.descendant_for_byte_range(failure.span.start, failure.span.end)
    while node is not None and node.type not in ("if_statement", "for_statement", "while_statement",
                                                  "loop_statement", "switch_statement", "function_declaration"):
        node = node.parent
    if node is None:
        return ()
    at = node.start_byte
    line_start = source.line_start(source.line_of(at))
    indent = source.data[line_start:at].decode("utf-8", errors="replace")
    text = f"@diagnostic(off, {rule})\n{indent}" if indent.strip() == "" else f"@diagnostic(off, {rule}) "
    where = "function" if node.type == "function_declaration" else "statement"
    return (Fix(f"Switch off '{rule}' for this {where}", (Edit(Span(at, at), text),), safe=False),)


def _unknown_rules(filters: DiagnosticFilters, source: SourceText) -> list[Diagnostic]:
    out = []
    for written in filters.filters:
        name = written.rule
        namespace = name.split(".", 1)[0] if "." in name else ""
        if name in KNOWN_TINT_RULES:
            continue
        if namespace == "coop":
            if find_rule(name) is None:
                out.append(Diagnostic(rules.UNKNOWN_DIAGNOSTIC_RULE.code,
                                      f"'{name}' is not a coop-lint rule (see 'coop-lint rules')",
                                      written.rule_span(source.data), Severity.WARNING))
            continue
        replacement = RENAMES.get(name)
        what = ("Tint ignores rule names in unknown namespaces, so this filter has no effect: the check stays on"
                if namespace and namespace != "chromium" else "no compiler recognizes this rule name")
        message = f"'{name}': {what}"
        fixes: tuple[Fix, ...] = ()
        if replacement:
            message += f"; Tint's name is '{replacement}'"
            span = written.rule_span(source.data)
            fixes = (Fix(f"Use '{replacement}'", (Edit(span, replacement),)),)
        out.append(Diagnostic(rules.UNKNOWN_DIAGNOSTIC_RULE.code, message, written.rule_span(source.data),
                              Severity.WARNING, fixes=fixes))
    return out
