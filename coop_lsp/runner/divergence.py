"""Whether the lanes of a subgroup really diverge at a call, measured by running the kernel emulated.

U002 claims that at a given subgroup or matrix builtin call the lanes of one subgroup take different
paths. The emulation can check that claim: before the statement that holds each traced call it counts,
per subgroup of the dispatch and per lane, how many times the lane arrived there (an atomic add into a
buffer the run adds beside the kernel's own). Lanes of one subgroup with different counts took different
paths there: the call diverged. Equal counts everywhere mean no divergence was seen at that call, at
this size, with these inputs, at this subgroup size; a call no lane reached says nothing.

A U002 about an argument (`requires argument N to be uniform`: lanes reach the call together with
different values) is not what arrivals measure; such sites are reported with their kind.

Every subgroup and matrix builtin call is traced, not only those U002 names, so that a run also shows
calls that diverged where U002 said nothing (its misses). Arrival counts cannot see lanes that arrive
equally often in different iterations; the verdict is "diverged" only where counts differ.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from .description import RunDescription, RunDescriptionError, load_run_description, sidecar_path
from .kernel import KernelError, called_name, load_kernel
from .lowering import NAGA_BUILTINS, SUBGROUP_BUILTIN_CALLS, TINT_BUILTINS, emulate

TRACED_CALLS = TINT_BUILTINS | NAGA_BUILTINS | set(SUBGROUP_BUILTIN_CALLS)


@dataclass
class Site:
    """One traced call."""

    number: int
    name: str
    line: int  # 1-based
    column: int  # 1-based
    u002: str = ""  # the U002 message at this call, '' where U002 says nothing
    u001: bool = False  # Tint's uniformity error is reported at this call (U002 is then quiet)

    @property
    def u002_kind(self) -> str:
        """'control flow' (the lanes take different paths to the call: arrivals measure it), 'argument'
        (an argument differs between lanes: arrivals do not measure it), or '' without U002."""
        if not self.u002:
            return ""
        return "argument" if "requires argument" in self.u002 else "control flow"
    reached: int = 0  # subgroups in which some lane arrived
    diverged: int = 0  # subgroups whose lanes arrived a different number of times

    @property
    def verdict(self) -> str:
        if not self.reached:
            return "not reached"
        return "diverged" if self.diverged else "uniform"


@dataclass
class DivergenceReport:
    kernel: str
    subgroup_size: int = 32
    sites: list[Site] = field(default_factory=list)
    status: str = ""  # the run's status (correct, incorrect, failed, ...)
    error: str = ""
    notes: list[str] = field(default_factory=list)

    def u002_sites(self) -> list[Site]:
        return [s for s in self.sites if s.u002]

    def as_dict(self) -> dict:
        return {"kernel": self.kernel, "subgroup_size": self.subgroup_size, "status": self.status,
                "error": self.error, "notes": self.notes,
                "sites": [{"line": s.line, "column": s.column, "call": s.name, "u002": bool(s.u002),
                           "u002_kind": s.u002_kind, "u001": s.u001,
                           "verdict": s.verdict, "subgroups_reached": s.reached, "subgroups_diverged": s.diverged}
                          for s in self.sites]}


def traced_calls(module) -> list:
    """The subgroup and matrix builtin call nodes of the kernel, in source order."""
    found, stack = [], [module.parsed.root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression" and (name := called_name(module, node)) in TRACED_CALLS:
            found.append((node, name))
        stack.extend(node.children)
    return sorted(found, key=lambda item: item[0].start_byte)


def _statement(node):
    """The statement of a function body that holds `node` (its arrivals are counted just before it)."""
    while node.parent is not None and node.parent.type != "compound_statement":
        node = node.parent
    return node if node.parent is not None else None


def uniformity_findings(text: str, size: int | None = None) -> list[tuple[str, int, str]]:
    """(code, byte offset, message) of each U001 and U002 finding; with `size`, U002 is judged at that
    subgroup size alone (the one the run uses), so that the run checks the verdict for what it runs."""
    from ..lint import lint_source

    result = lint_source(text)
    diagnostics = result.diagnostics
    if size is not None and result.model is not None and result.parsed is not None \
            and not result.parsed.root.has_error:
        from ..analysis.uniformity import uniformity_diagnostics
        from ..syntax.filters import DiagnosticFilters

        root, source = result.parsed.root, result.source
        diagnostics = uniformity_diagnostics(root, source, result.model, DiagnosticFilters.from_tree(root, source),
                                             sizes=(size,))
    out = []
    for d in diagnostics:
        if d.code in ("U001", "U002"):
            out.append((d.code, len(text[:d.span.start].encode()), d.message))
    return out


def _native_subgroup_size() -> int | None:
    """lavapipe's fixed subgroup size where lavapipe is the adapter (others report a range, not the size
    they pick), as the runner's emulation tells it."""
    from ..devices.profiles import shipped_profiles
    from .execute import wgpu_adapter

    if "llvmpipe" not in wgpu_adapter()[1]:
        return None
    lavapipe = shipped_profiles().get("lavapipe")
    return lavapipe.subgroup_min if lavapipe is not None and lavapipe.subgroup_min == lavapipe.subgroup_max else None


def _trace_binding(module) -> tuple[int, int]:
    used = [b.binding for b in module.bindings if b.group == 0]
    return 0, (max(used) + 1 if used else 0)


def measure(kernel: Path, description: RunDescription | Path | None = None, subgroup_size: int | None = None,
            workspace: Path | None = None, text: str | None = None,
            tolerate: frozenset[str] = frozenset({"U002"})) -> DivergenceReport:
    """Runs `kernel` emulated with every subgroup and matrix call traced; see the module's docstring.
    `tolerate`: the errors the kernel may have (U002, which this checks; U001 too for kernels that only
    Tint refuses)."""
    import numpy as np

    from .execute import RunReport, _execute, _inputs, _overrides, apply_constants, check_results
    from .subgroups import judged_size

    kernel = Path(kernel)
    report = DivergenceReport(kernel=kernel.name)
    try:
        text = kernel.read_text() if text is None else text
        if description is None or isinstance(description, Path):
            description = load_run_description(description or sidecar_path(kernel), workspace)
        desc = description
        module = load_kernel(text, tolerate=tolerate)
        if desc.constants:
            text = apply_constants(text, desc.constants, module)
            module = load_kernel(text, tolerate=tolerate)
        entry = module.entry_point(desc.entry_point)
        native = _native_subgroup_size()
        # Divergent subgroup operations cannot be emulated (the emulation's exchange needs workgroup
        # barriers); they run on the adapter's own subgroups, at the adapter's size.
        calls = traced_calls(module)
        subgroup_calls = any(name in SUBGROUP_BUILTIN_CALLS for _, name in calls)
        if subgroup_size is None and native is not None and subgroup_calls:
            subgroup_size = native
        size = subgroup_size or judged_size(desc, entry, module)
        report.subgroup_size = size
        findings = uniformity_findings(text, size)
        trace: dict[int, list[int]] = {}
        for number, (node, name) in enumerate(calls):
            statement = _statement(node)
            line, column = node.start_point[0] + 1, node.start_point[1] + 1
            at_call = [(code, m) for code, offset, m in findings if node.start_byte <= offset < node.end_byte]
            message = next((m for code, m in at_call if code == "U002"), "")
            report.sites.append(Site(number, name, line, column, message, u001=any(c == "U001" for c, _ in at_call)))
            if statement is not None:
                trace.setdefault(statement.start_byte, []).append(number)
        if not report.sites:
            report.status = "no calls"
            return report
        binding = _trace_binding(module)
        lowered = emulate(text, size, native_subgroup_size=native, module=module, trace=trace,
                          trace_binding=binding)
        report.notes = lowered.notes
        overrides = _overrides(module, desc.overrides)
        inputs, bindings = _inputs(desc, module)
        invocations = entry.invocations(desc.overrides) or size
        per_workgroup = max(1, -(-invocations // size))
        workgroups = int(np.prod(desc.dispatch))
        slots = workgroups * per_workgroup * size
        counts = np.zeros(len(report.sites) * slots, np.uint32)
        trace_slot = (SimpleNamespace(group=binding[0], binding=binding[1]),
                      SimpleNamespace(space="storage", access="read_write"), "__trace", counts)
        run = RunReport(kernel=kernel.name, backend="wgpu", emulated=True)
        run.pinned_subgroup_size = entry.subgroup_size
        run.workgroup_invocations = invocations
        features = ["shader-f16"] if "f16" in module.enables else []
        if native == size and subgroup_calls:
            features.append("subgroups")
        quick = dataclasses.replace(desc, warmup=0, repetitions=1)
        result, outputs = _execute(lowered.text, entry.name, overrides, quick, bindings + [trace_slot], "wgpu",
                                   features, True, desc.timeout_s, run, original_text=text)
        if result is None:
            report.status, report.error = run.status, run.error
            return report
        got = outputs.pop("__trace").reshape(len(report.sites), workgroups * per_workgroup, size)
        lanes = min(size, invocations)
        for site in report.sites:
            per_lane = got[site.number][:, :lanes]
            reached = per_lane.max(axis=1) > 0
            site.reached = int(reached.sum())
            site.diverged = int((per_lane.min(axis=1) != per_lane.max(axis=1)).sum())
        types = {name: b.type for b, _, name, _ in bindings}
        from .precision import accumulator_types

        checks = check_results(desc, inputs, outputs, types, accumulator_types(module.model), False)
        report.status = ("unchecked" if not checks else
                         "correct" if all(c.verdict == "correct" for c in checks) else "incorrect")
    except (RunDescriptionError, KernelError, OSError) as error:
        report.status, report.error = "error", str(error)
    return report
