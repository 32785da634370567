"""Why a kernel runs as fast as it does: `coop-lint run --explain` and the editor's run result.

Adds to a run's report: the kernel timed again with the other bounds-check
setting (Dawn only; the command line does it, the editor does not, to keep
its runs short), and the performance findings (P rules, P007 included) for
the target whose profile names the adapter, read from the kernel as it ran
(the run description's [constants] written in: the run's own lint of it, so
nothing here lints or loads the kernel again). The roofline line is in the
report itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field



@dataclass
class Explanation:
    target: str = ""
    bounds_checks: dict = field(default_factory=dict)
    findings: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    trials: list[dict] | None = None  # `--try`: runner/trial.py's Trial.to_json() of each, None without it

    def to_json(self) -> dict:
        out = {"target": self.target, "bounds_checks": self.bounds_checks, "findings": self.findings,
               "notes": self.notes}
        if self.trials is not None:
            out["trials"] = self.trials
        return out

    def render(self, markdown: bool = False) -> str:
        bullet = "- " if markdown else "  "
        lines = ["### Explanation" if markdown else "explain:"]
        checks = self.bounds_checks
        if checks.get("on_ms") and checks.get("off_ms"):
            lines.append(f"{bullet}bounds checks: {checks['on_ms']:.4f} ms with them (Dawn's default), "
                         f"{checks['off_ms']:.4f} ms without (disable_robustness): they cost "
                         f"{checks['on_ms'] / checks['off_ms']:.2f}x")
        for note in self.notes:
            lines.append(f"{bullet}{note}")
        if self.target:
            if self.findings:
                lines.append(f"{bullet}performance findings for {self.target}:")
                for f in self.findings:
                    lines.append(f"{bullet}  {f['line']}:{f['column']}: {f['code']} [{f['severity']}] {f['message']}")
            else:
                lines.append(f"{bullet}no performance findings for {self.target}")
        if self.trials is not None:
            lines += trial_lines(self.trials, bullet)
        return "\n".join(lines) + "\n"


def trial_lines(trials: list[dict], bullet: str) -> list[str]:
    """`--try`: each fix's measured speed-up on this kernel beside the range its finding quoted."""
    lines = [f"{bullet}fixes tried on this kernel (each alone, results checked):"]
    if not trials:
        lines.append(f"{bullet}  no finding has a fix to try")
    for trial in trials:
        head = f"{bullet}  {trial['code']}: {trial['fix']}" if trial["code"] else f"{bullet}  "
        if trial["status"] == "measured":
            quoted = trial["quoted"]
            said = ""
            if quoted:
                figure = f"{quoted[0]:.1f}x" if f"{quoted[0]:.1f}" == f"{quoted[1]:.1f}" else \
                    f"{quoted[0]:.1f}x-{quoted[1]:.1f}x"
                said = f"; the finding quoted {figure}: " + ("inside" if trial["within_quote"] else "OUTSIDE")
            lines.append(f"{head}: {trial['before_ms']:.4f} ms -> {trial['after_ms']:.4f} ms, "
                         f"{trial['speedup']:.2f}x{said}")
        elif trial["status"] == "not mechanical":
            lines.append(f"{head[:len(bullet) + 2 + len(trial['code'])]}: not mechanical ({trial['reason']})"
                         + (f"; example: {trial['example']}" if trial["example"] else ""))
        else:
            lines.append(f"{head}: {trial['status'].upper()}: {trial['reason']}")
    return lines


def explain(report, rerun, target: str | None = None) -> Explanation:
    """`rerun(robustness)` runs the same kernel again and returns its report (called at most once). The
    findings come from the run's own lint of the kernel as it ran (`report.lint`), for `target`'s profile
    (by default the one that names the adapter)."""
    out = Explanation()
    if report.backend == "dawn" and not report.emulated and report.ok and report.timing:
        other = rerun(not report.robustness)
        if other.ok and other.timing:
            ms = {report.robustness: report.timing["median_ms"], other.robustness: other.timing["median_ms"]}
            out.bounds_checks = {"on_ms": ms.get(True), "off_ms": ms.get(False)}
        else:
            out.notes.append(f"the run with bounds checks {'on' if not report.robustness else 'off'} did not "
                             f"complete: {other.status} {other.error}".strip())
    elif report.backend != "dawn" or report.emulated:
        out.notes.append("bounds checks are timed both ways on Dawn only (native runs)")
    out.target = target or report.peak_profile
    if target and target != report.peak_profile:
        out.notes.append(f"findings for {target}, but the kernel ran on '{report.adapter or '?'}': the quoted "
                         f"figures are {target}'s, the times are this adapter's")
    if not out.target:
        out.notes.append(f"no device profile names the adapter '{report.adapter or '?'}': no performance findings")
        return out
    out.findings = performance_findings(report.lint, out.target)
    note = grid_note(getattr(report, "dispatch", ()), out.target)
    for finding in out.findings:
        if note and finding["code"] != "P007":
            finding["message"] += f"; {note}"
    checks = out.bounds_checks
    if checks.get("on_ms") and checks.get("off_ms"):
        for finding in out.findings:
            if finding["code"] == "P007":  # the cost measured on this kernel, beside the pairs' figure
                finding["message"] += (f"; measured on this kernel: {checks['on_ms'] / checks['off_ms']:.2f}x "
                                       "slower with bounds checks")
    return out


def grid_note(dispatch, target: str) -> str:
    """What to say beside the quoted figures when the run dispatched fewer workgroups than the target has
    multiprocessors: the pairs were measured with all of them busy, and on Dawn's one-workgroup test kernel
    the fixes gave 0.6x-1.1x where they quoted 1.8x-5.7x (issue 32's walk). Bounds checks (P007) cost
    the same there (2.0x), so P007 keeps its figure."""
    from ..devices.performance import fact
    from ..devices.profiles import resolve_targets

    profiles, _ = resolve_targets((target,))
    count = fact(profiles[0].performance, "multiprocessors", "count") if profiles else None
    workgroups = 1
    for size in dispatch or ():
        workgroups *= int(size)
    if not dispatch or not count or workgroups >= count:
        return ""
    return (f"this run dispatched {workgroups} workgroup{'s' if workgroups != 1 else ''} for {target}'s {count} "
            "multiprocessors, and the figures were measured with every multiprocessor busy: they do not apply "
            "to this run (on a one-workgroup kernel the fixes measured 0.6x-1.1x)")


def performance_findings(lint, target: str) -> list[dict]:
    """The P findings for `target` in the kernel as it ran, P007 (bounds checks) included, suppressions
    applied. `lint`: the run's lint of that kernel (a lint.LintResult; None where the run stopped first)."""
    if lint is None:
        return []
    from ..lint.engine import findings_after_run

    out = []
    for d in findings_after_run(lint, target):
        where = lint.source.position(d.span.start)
        out.append({"code": d.code, "severity": d.severity.label, "line": where.line + 1,
                    "column": where.column + 1, "message": d.message})
    return out


def advice_markdown(report) -> str:
    """The performance findings of a finished run as a markdown section, for the editor ('' when none apply)."""
    if not report.ok or not report.peak_profile:
        return ""
    found = performance_findings(report.lint, report.peak_profile)
    lines = [f"**Performance advice** ({report.peak_profile}; `coop-lint run --explain` also times the bounds "
             "checks both ways):", ""]
    lines += [f"- line {f['line']}: {f['code']} [{f['severity']}] {f['message']}" for f in found] or \
             ["- no performance findings"]
    return "\n".join(lines) + "\n"
