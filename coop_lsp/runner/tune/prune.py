"""Linting every variant for every target before anything runs: what a target cannot run is pruned.

A variant is pruned for a target when its template does not expand, when the linter finds an error in
it, or when it uses a matrix configuration (D001) or a subgroup size (D010) the target's profile does not
offer. Those runs would fail at pipeline creation or compute nothing useful; the GPU time is saved and
the reason is listed. Performance findings (P rules) never prune: they are shown beside the timings.
An emulated target (lavapipe) runs any configuration, so only errors that are not about the hardware
prune there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .space import Candidate
from .targets import Target

HARDWARE_CODES = ("D001", "D010")


@dataclass
class Verdict:
    text: str | None  # the WGSL that runs; None when the template did not expand
    pruned: str | None = None  # why the target cannot run it
    findings: list[str] = field(default_factory=list)  # "P004 ..." lines


def expand_candidate(kernel: Path, data: bytes, candidate: Candidate) -> tuple[str | None, str | None]:
    """(WGSL, None) or (None, the first error of the expansion)."""
    from ...core.rules import rule
    from ...source import expand

    if not candidate.defines and not candidate.include:
        from ...source import is_template

        if not is_template(data):
            return data.decode("utf-8", "replace"), None
    expansion = expand(kernel, data, dict(candidate.defines), tuple(Path(d) for d in candidate.include),
                       candidate.override_file_defines)
    errors = [p for p in expansion.problems if rule(p.code).severity.name == "ERROR"]
    if errors:
        return None, f"template: {errors[0].code} {errors[0].message}"
    return expansion.data.decode("utf-8", "replace"), None


def judge(text: str, constants: dict, target: Target, lint_cache: dict) -> Verdict:
    """Lints `text` as it will run (the run description's constants written in) for `target`."""
    from ...lint.engine import lint_source
    from ..execute import apply_constants

    try:
        ready = apply_constants(text, constants) if constants else text
    except Exception as error:  # noqa: BLE001 - the run would fail the same way: pruned, with the reason
        return Verdict(text, f"constants: {error}")
    targets = () if target.emulated else (target.name,)
    key = (ready, targets)
    if key not in lint_cache:
        lint_cache[key] = lint_source(ready, targets=targets).diagnostics
    diagnostics = lint_cache[key]
    findings = [f"{d.code} {d.message.splitlines()[0]}" for d in diagnostics if d.code.startswith("P")]
    for d in diagnostics:
        if d.code in HARDWARE_CODES and not target.emulated:
            return Verdict(text, f"{d.code} {d.message.splitlines()[0]}", findings)
    for d in diagnostics:
        if d.severity.name == "ERROR" and d.code not in HARDWARE_CODES:
            return Verdict(text, f"{d.code} {d.message.splitlines()[0]}", findings)
    return Verdict(text, None, findings)
