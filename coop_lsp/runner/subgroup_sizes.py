"""Emulated runs of one kernel at every subgroup size its targets allow, compared.

A kernel that derives lane or subgroup indices from a fixed 32 is right on NVIDIA and wrong where the
driver picks 16 (Intel) or 64 (AMD). The emulation can run any power-of-two size the workgroup divides
into, whatever the adapter's own subgroups are (lowering.py), so CI on lavapipe runs the kernel at each
size a target allows and says which sizes give wrong results and what in the kernel looks like why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from .kernel import KernelError, KernelModule, load_kernel


class SubgroupSizeError(KernelError):
    """A subgroup size the emulation cannot run; the message names it."""


def sizes_allowed(profiles) -> list[int]:
    """Every power of two between each target's smallest and largest subgroup size."""
    sizes = set()
    for profile in profiles:
        size = 1
        while size <= profile.subgroup_max:
            if size >= profile.subgroup_min:
                sizes.add(size)
            size *= 2
    return sorted(sizes)


def sizes_for_targets(names: list[str], project: Path | None = None) -> list[int]:
    from ..devices.profiles import resolve_targets

    profiles, problems = resolve_targets(names, project)
    if problems:
        raise SubgroupSizeError(problems[0])
    return sizes_allowed(profiles)


def pinned_subgroup_size(module: KernelModule, entry: str | None = None) -> int | None:
    """N of `@subgroup_size(N)` on the entry point (subgroup_size_control): such a kernel runs at N only."""
    return next((point.subgroup_size for point in module.entry_points
                 if entry in (None, point.name) and point.subgroup_size is not None), None)


@dataclass
class SizeComparison:
    kernel: str
    sizes: list[int]
    reports: dict = field(default_factory=dict)  # size -> RunReport
    notes: list[str] = field(default_factory=list)
    suspects: list[str] = field(default_factory=list)  # "line N: text" of lane arithmetic with a fixed size

    @property
    def failing(self) -> list[int]:
        return [s for s, r in self.reports.items() if not r.ok]

    @property
    def status(self) -> str:
        if any(r.status == "error" for r in self.reports.values()):
            return "error"
        return "incorrect" if self.failing else "correct"

    @property
    def ok(self) -> bool:
        return self.status == "correct"

    def explanation(self) -> str:
        passing = [s for s in self.sizes if s not in self.failing]
        if not self.failing:
            return f"results correct at every subgroup size ({', '.join(map(str, self.sizes))} lanes)"
        parts = []
        for size in self.failing:
            report = self.reports[size]
            if report.status == "incorrect" and report.checks:
                worst = max(report.checks, key=lambda c: c.max_abs_error)
                parts.append(f"{size} lanes: INCORRECT (max abs error {worst.max_abs_error:.3g} in '{worst.name}')")
            else:
                parts.append(f"{size} lanes: {report.status.upper()} ({report.error or report.stage})")
        text = "; ".join(parts)
        if passing:
            text += (f"; correct at {', '.join(map(str, passing))} lanes: the results depend on the subgroup size, "
                     f"so the kernel assumes {'a size' if len(passing) > 1 else f'{passing[0]} lanes'} that a "
                     "target does not guarantee (pin it with `enable subgroup_size_control;` and "
                     "@subgroup_size(N), or derive lane and subgroup numbers from the subgroup_size and "
                     "subgroup_invocation_id builtins)")
            if self.suspects:
                text += "; lane arithmetic with a fixed size: " + "; ".join(self.suspects[:3])
        return text

    def render(self, fmt: str = "text") -> str:
        if fmt == "json":
            import json
            return json.dumps({"kernel": self.kernel, "status": self.status, "sizes": self.sizes,
                               "explanation": self.explanation(), "notes": self.notes,
                               "runs": {str(s): r.to_json() for s, r in self.reports.items()}}, indent=2)
        bullet = "- " if fmt == "markdown" else "  "
        lines = [f"{self.kernel}: {self.status.upper()} across subgroup sizes {', '.join(map(str, self.sizes))}"]
        lines += [f"{bullet}{note}" for note in self.notes]
        lines.append(f"{bullet}{self.explanation()}")
        for size, report in self.reports.items():
            lines.append(f"{bullet}{size} lanes: " + report.render("text").splitlines()[0])
            if report.debug:  # prints and watches, per size: where the sizes part ways
                from .debug_print import render_lines

                lines += render_lines(report.debug, bullet + "  ")
        return "\n".join(lines) + "\n"


def _suspects(text: str, sizes: list[int]) -> list[str]:
    """Lines that divide or take the remainder by a literal or a const equal to a size that passed:
    the usual way a kernel bakes its lane count in (`lid / 32u`, `lid % SUBGROUP_SIZE`)."""
    names = [m.group(1) for m in re.finditer(r"\bconst\s+(\w+)\s*(?::\s*\w+\s*)?=\s*(\d+)u?\s*;", text)
             if int(m.group(2)) in sizes]
    operand = "|".join([rf"{s}u?\b" for s in sizes] + [rf"{re.escape(n)}\b" for n in names])
    pattern = re.compile(rf"[/%]\s*(?:{operand})")
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("//")[0]
        if pattern.search(code) and not code.lstrip().startswith("const"):
            found.append(f"line {number}: `{code.strip()}`")
    return found


def run_at_subgroup_sizes(kernel: Path, description, sizes: list[int], **options) -> SizeComparison:
    """Emulates `kernel` once per size and compares; sizes the emulation cannot run are refused before
    anything runs (SubgroupSizeError)."""
    from .execute import apply_constants, run_kernel
    from .lowering import LoweringError, emulate

    text = Path(kernel).read_text()
    comparison = SizeComparison(Path(kernel).name, list(sizes))
    module = load_kernel(text)
    pinned = pinned_subgroup_size(module, description.entry_point)
    if pinned is not None:
        comparison.sizes = [pinned]
        comparison.notes.append(f"the kernel pins its subgroup size with @subgroup_size({pinned}): judged at "
                                f"{pinned} lanes only")
    if not comparison.sizes:
        raise SubgroupSizeError("no subgroup sizes to run")
    lowered_text = apply_constants(text, description.constants, module) if description.constants else text
    for size in comparison.sizes:
        try:
            emulate(lowered_text, size)
        except LoweringError as error:
            message = str(error)
            if f"subgroup size {size}" not in message:
                message = f"subgroup size {size} cannot be emulated: {message}"
            raise SubgroupSizeError(message) from None
    for size in comparison.sizes:
        comparison.reports[size] = run_kernel(kernel, replace(description, subgroup_size=size),
                                              backend="emulate", **options)
    if comparison.failing:
        comparison.suspects = _suspects(text, [s for s in comparison.sizes if s not in comparison.failing])
    return comparison
