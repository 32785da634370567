"""One entry point that runs the checks of every layer over a source."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from ..analysis.function_findings import FunctionFindings
from ..analysis.performance import performance_diagnostics
from ..analysis.uniformity.reuse import SummaryReuse
from ..devices.profiles import resolve_targets
from ..core.deep import call_with_deep_stack
from ..core.diagnostic import MAX_PER_CODE, Diagnostic
from ..core.text import SourceText, Span
from ..semantic.checker import check
from ..semantic.model import SemanticModel
from ..semantic.reuse import BodyReuse
from ..syntax import parse, syntax_diagnostics
from ..syntax.diagnostics import DeferredFix, fix_of
from ..syntax.nodes import KIND_NAMES
from ..syntax.parser import ParseAbandoned, Parsed
from ..syntax.reuse import DeclarationReuse
from ..syntax.rules import SYNTAX_ERROR
from ..core.rules import find as find_rule
from ..syntax.filters import DiagnosticFilters
from .fixes import without_fixes_that_break_syntax
from .passes import PASSES, Context
from .rules import INTERNAL_ERROR
from .suppressions import unused_suppressions


@dataclass(slots=True)
class LintResult:
    source: SourceText
    diagnostics: list[Diagnostic]
    parsed: Parsed | None
    model: SemanticModel | None = None
    # Missing tokens' findings whose fixes were not tested (lint_parsed's `defer_fixes`); `with_fixes` adds them.
    deferred_fixes: tuple[DeferredFix, ...] = ()

    def with_fixes(self) -> list[Diagnostic]:
        """The diagnostics as a lint that tests every fix at once gives them."""
        if not self.deferred_fixes or self.parsed is None:
            return self.diagnostics
        pending = {(d.diagnostic.message, d.diagnostic.span): d for d in self.deferred_fixes}
        out = []
        for diagnostic in self.diagnostics:
            deferred = pending.get((diagnostic.message, diagnostic.span)) \
                if diagnostic.code == SYNTAX_ERROR.code and not diagnostic.fixes else None
            fixes = fix_of(self.parsed, deferred) if deferred is not None else ()
            out.append(replace(diagnostic, fixes=fixes) if fixes else diagnostic)
        return out


def lint_source(text: str | bytes, targets: tuple[str, ...] | list[str] = (),
                project: Path | None = None, reuse: Reuse | None = None, dialect: str = "auto") -> LintResult:
    """Every check over one source; `targets` are device profile names to check the kernel against, and
    `dialect` (auto, wgpu, chromium, standard) says whose compiler counts when the module's `enable`
    directives do not.

    `reuse` (one per document, see Reuse) replays the checks of declarations unchanged since its
    last use; the result is the same."""
    try:
        parsed = parse(text)
    except ParseAbandoned as error:
        source = SourceText.from_bytes(text) if isinstance(text, bytes) else SourceText(text)
        return LintResult(source, [Diagnostic(SYNTAX_ERROR.code, str(error), Span(0, 0))], None)
    return lint_parsed(parsed, targets, project, reuse, dialect)


@dataclass(eq=False)
class Reuse:
    """What one document's lints keep for the next: the syntax findings of declarations, the semantic
    checks of function bodies, their uniformity results and accumulation findings. Not thread-safe: one lint at a time per
    document."""

    declarations: DeclarationReuse = field(default_factory=DeclarationReuse)
    bodies: BodyReuse = field(default_factory=BodyReuse)
    summaries: SummaryReuse = field(default_factory=SummaryReuse)
    accumulation: FunctionFindings = field(default_factory=FunctionFindings)

    def clear(self) -> None:
        self.declarations, self.bodies, self.summaries = DeclarationReuse(), BodyReuse(), SummaryReuse()
        self.accumulation = FunctionFindings()


def lint_parsed(parsed: Parsed, targets: tuple[str, ...] | list[str] = (), project: Path | None = None,
                reuse: Reuse | None = None, dialect: str = "auto", defer_fixes: bool = False) -> LintResult:
    """Lints an already parsed source (a tree that no one edits while this runs).

    `defer_fixes`: a missing token's finding comes without the test of its fix, which `LintResult.with_fixes`
    makes when asked (an editor asks for fixes far less often than it publishes findings)."""
    if reuse is None:
        return _lint(parsed, targets, project, None, dialect, defer_fixes)
    try:
        result = _lint(parsed, targets, project, reuse, dialect, defer_fixes)
    except Exception:  # noqa: BLE001 - see below
        result = None
    if result is None or any(d.code == INTERNAL_ERROR.code for d in result.diagnostics):
        # Something failed, perhaps in replaying: the result must still be a fresh lint's, and what
        # was kept for the next version may be half made. Forget it and lint without it.
        reuse.clear()
        return _lint(parsed, targets, project, None, dialect, defer_fixes)
    return result


def _lint(parsed: Parsed, targets, project: Path | None, reuse: Reuse | None, dialect: str,
          defer_fixes: bool = False) -> LintResult:
    if reuse is not None:
        reuse.declarations.begin()
    deferred: list[DeferredFix] | None = [] if defer_fixes else None
    diagnostics = syntax_diagnostics(parsed, reuse=reuse.declarations if reuse is not None else None,
                                     deferred=deferred)
    if reuse is not None:
        reuse.declarations.end()
    model = None
    bodies = reuse.bodies if reuse is not None else None
    try:
        semantic, model = call_with_deep_stack(lambda: check(parsed, bodies, dialect))
        diagnostics.extend(_outside_broken_statements(parsed, diagnostics, semantic))
    except Exception as error:  # noqa: BLE001 - one failing check must not hide the others
        diagnostics.append(Diagnostic(
            INTERNAL_ERROR.code, f"internal error in the semantic checks: {type(error).__name__}: {error}",
            Span(0, 0)))
    filters = DiagnosticFilters.from_tree(parsed.root, parsed.source)
    if model is not None and not parsed.root.has_error:
        root, source = parsed.root, parsed.source
        profiles, problems = resolve_targets(tuple(targets), project) if targets else ([], [])
        context = Context(root, source, model, filters, profiles, problems,
                          reuse.summaries if reuse is not None else None, bodies,
                          reuse.accumulation if reuse is not None else None)
        for analysis in PASSES:
            _guarded(diagnostics, analysis.what, lambda: analysis.run(context))
        # Applying the filters records which of them decide a finding; the rest are the unused ones.
        diagnostics = apply_filters(diagnostics, filters)
        diagnostics.extend(apply_filters(unused_suppressions(filters, source, targets_given=bool(targets)), filters))
    else:
        diagnostics = apply_filters(diagnostics, filters)
    diagnostics.sort(key=lambda d: d.sort_key)
    diagnostics = without_fixes_that_break_syntax(capped(diagnostics), parsed.source.data)
    return LintResult(parsed.source, diagnostics, parsed, model, tuple(deferred or ()))


def findings_after_run(result: LintResult, target: str) -> list[Diagnostic]:
    """The performance findings (P007, bounds checks, included) for the device profile `target`, of a
    kernel that ran there, read from the run's own lint of it.

    Which profile applies is known only once a run has found its adapter, so this pass runs after the
    lint, on its tree and model, rather than as a second lint. Filters applied, in source order; [] where
    the lint has no model or the text does not parse."""
    profiles, _ = resolve_targets((target,))
    if result.model is None or result.parsed is None or result.parsed.root.has_error or not profiles:
        return []
    root, source = result.parsed.root, result.source
    found = performance_diagnostics(root, source, result.model, profiles, run=True)
    return sorted(apply_filters(found, DiagnosticFilters.from_tree(root, source)), key=lambda d: d.sort_key)


def _guarded(diagnostics: list[Diagnostic], what: str, check) -> None:
    """Adds `check()`'s findings; one failing analysis must not hide the others (X001 says it failed)."""
    try:
        diagnostics.extend(check())
    except Exception as error:  # noqa: BLE001
        diagnostics.append(Diagnostic(
            INTERNAL_ERROR.code, f"internal error in {what}: {type(error).__name__}: {error}", Span(0, 0)))


def apply_filters(diagnostics: list[Diagnostic], filters: DiagnosticFilters) -> list[Diagnostic]:
    """`diagnostic(off, coop.<rule>)` and its kin change the severity of our suppressible rules."""
    kept = []
    for diagnostic in diagnostics:
        rule = find_rule(diagnostic.code)
        if rule is None or not rule.suppressible:
            kept.append(diagnostic)
            continue
        severity = filters.severity(rule.qualified_name, diagnostic.span.start, diagnostic.severity)
        if severity is None:
            continue
        kept.append(diagnostic if severity == diagnostic.severity else replace(diagnostic, severity=severity))
    return kept


def _outside_broken_statements(parsed: Parsed, syntax: list[Diagnostic],
                               semantic: list[Diagnostic]) -> list[Diagnostic]:
    """Semantic findings, less those inside a statement that already has a syntax error.

    A statement the parser could not read is typed from a guess; what the
    checker says about it is noise next to the syntax error. Only the syntax
    errors that will be shown (the first MAX_PER_CODE of each code) mark
    statements: each costs a walk as deep as the tree, and a file with
    thousands of them nests deeply enough to make that quadratic.
    """
    broken = [_enclosing_statement(parsed, d.span) for d in capped(syntax)]
    broken = [span for span in broken if span is not None]
    if not broken:
        return semantic
    return [d for d in semantic if not any(s.start <= d.span.start < s.end for s in broken)]


# The kinds that mark a statement as broken, by id: node.type would make a new string at each step down.
_STATEMENT_KINDS = frozenset(
    kind_id for kind_id, kind in KIND_NAMES.items()
    if kind.endswith(("_statement", "_declaration"))
    and kind not in ("compound_statement", "function_declaration", "struct_declaration"))


def _enclosing_statement(parsed: Parsed, span: Span) -> Span | None:
    # A zero-width span (a missing token) belongs to what precedes it.
    start = span.start - 1 if span.start == span.end and span.start > 0 else span.start
    target = parsed.root.descendant_for_byte_range(start, max(start, span.end))
    # Walked down from the root: Node.parent searches from the root on every call, so walking up
    # costs the square of the depth.
    innermost = None
    node = parsed.root
    while target is not None and node is not None and node != target:
        node = node.child_with_descendant(target)
        if node is None:
            break
        if node.kind_id in _STATEMENT_KINDS:
            innermost = node
    return Span(innermost.start_byte, innermost.end_byte) if innermost is not None else None



def capped(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    counts: dict[str, int] = {}
    kept = []
    for diagnostic in diagnostics:
        seen = counts.get(diagnostic.code, 0)
        counts[diagnostic.code] = seen + 1
        if seen < MAX_PER_CODE:
            kept.append(diagnostic)
        elif seen == MAX_PER_CODE:
            kept.append(Diagnostic(
                diagnostic.code, f"too many errors of this kind; only the first {MAX_PER_CODE} are shown",
                diagnostic.span, diagnostic.severity))
    return kept
