"""The analysis passes, in one list: the engine runs them in this order and the rule catalogue imports the
rules each one reports, so that a new pass is added in one place and cannot run without its rules being
listed (or be listed without running).

A pass runs on a module that parsed without errors and has a semantic model; it reads what `Context`
holds and returns its findings. One failing pass does not hide the others: the engine reports it as X001.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import tree_sitter as ts

from ..analysis.accumulation import accumulation_diagnostics
from ..analysis.configs import configuration_diagnostics
from ..analysis.function_findings import FunctionFindings
from ..analysis.debug_prints import debug_print_diagnostics
from ..analysis.lanes import allowed_subgroup_sizes, lane_diagnostics
from ..analysis.performance import performance_diagnostics
from ..analysis.uniformity import uniformity_diagnostics
from ..analysis.uniformity.reuse import SummaryReuse
from ..core.deep import call_with_deep_stack
from ..core.diagnostic import Diagnostic
from ..core.text import SourceText
from ..devices.profiles import Profile
from ..semantic.model import SemanticModel
from ..semantic.reuse import BodyReuse
from ..syntax.filters import DiagnosticFilters


@dataclass(frozen=True, slots=True)
class Context:
    """What a pass may read: the module, its model and filters, the targets' device profiles (and the
    problems naming them), and the document's reuse tables where the caller keeps them."""

    root: ts.Node
    source: SourceText
    model: SemanticModel
    filters: DiagnosticFilters
    profiles: list[Profile]
    problems: list[str]
    summaries: SummaryReuse | None = None
    bodies: BodyReuse | None = None
    accumulation: FunctionFindings | None = None  # the accumulation check's findings per function


@dataclass(frozen=True, slots=True)
class AnalysisPass:
    what: str  # how X001 names it: "internal error in <what>"
    run: Callable[[Context], list[Diagnostic]]
    # The modules whose import registers the rules this pass reports (core/rules.py's registry).
    rule_modules: tuple[str, ...]


def _uniformity(c: Context) -> list[Diagnostic]:
    # The analysis recurses along the call graph and nested statements: a deep module needs a deep stack.
    # Divergence that depends on the subgroup size is judged at the sizes the targets allow.
    sizes = allowed_subgroup_sizes(c.profiles)
    return call_with_deep_stack(lambda: uniformity_diagnostics(c.root, c.source, c.model, c.filters, c.summaries,
                                                               c.bodies, sizes))


def _configuration(c: Context) -> list[Diagnostic]:
    return (configuration_diagnostics(c.root, c.source, c.model, c.profiles, c.problems)
            + lane_diagnostics(c.root, c.source, c.model, c.profiles))


PASSES: tuple[AnalysisPass, ...] = (
    AnalysisPass("the uniformity analysis", _uniformity, ("coop_lsp.analysis.uniformity.rules",)),
    AnalysisPass("the accumulation check",
                 lambda c: accumulation_diagnostics(c.root, c.source, c.model, c.bodies, c.accumulation),
                 ("coop_lsp.analysis.accumulation",)),
    AnalysisPass("the configuration checks", _configuration, ("coop_lsp.analysis.configs", "coop_lsp.analysis.lanes")),
    AnalysisPass("the performance checks", lambda c: performance_diagnostics(c.root, c.source, c.model, c.profiles),
                 ("coop_lsp.analysis.performance.rules",)),
    AnalysisPass("the print checks", lambda c: debug_print_diagnostics(c.root, c.source, c.model),
                 ("coop_lsp.analysis.debug_prints",)),
)
