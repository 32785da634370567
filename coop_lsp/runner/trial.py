"""`coop-lint run --explain --try`: each finding's fix applied to the user's kernel, run, checked and timed.

A trial is one rule's fix on the kernel as it ran (the run description's [constants] written in), tried
alone on the original so that its speed-up belongs to that finding. Before anything runs, the rewritten
text is linted again: overlapping edits, a new error, or the finding still present refuse the trial with the
reason, so a kernel is never run half-rewritten. The variant then runs like the original (same description,
backend, bounds-check setting and reference check). Only a variant whose results are correct counts as a
speed-up; a wrong or failed one is reported as such.

Which fixes are mechanical (docs/try.md):
  P007  bounds checks off: the same kernel on a Dawn device without robustness;
  P005  padding of staged rows: the finding's own quick fix;
  P003  unrolling of constant-trip loops (analysis/performance/rewrites.py);
  T050  f32 accumulators (rewrites.py).
The rest change the kernel's structure; they are listed as not mechanical, with the example of the change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..core.diagnostic import Diagnostic, Edit, Severity
from ..core.rules import rule

MECHANICAL = ("P007", "P005", "P003", "T050")
# A measurement within this factor of the quoted range's ends counts as inside it: repeated runs of one
# kernel on the H100 vary by about 2% (rules.py), and the quoted figures are rounded to 0.1.
TOLERANCE = 1.05
_EXAMPLE = re.compile(r"(?:examples|benchmarks)/[\w/]+\.(?:wgsl|py)")


@dataclass
class Trial:
    code: str
    fix: str  # what the variant changes
    status: str  # measured, wrong, failed, skipped, not mechanical
    reason: str = ""  # why it was skipped or failed, or what was wrong
    findings: int = 0  # how many of the kernel's findings of this rule the variant addresses
    before_ms: float | None = None
    after_ms: float | None = None
    speedup: float | None = None  # before / after; only for a variant whose results are correct
    quoted: tuple[float, float] | None = None  # the range the finding quoted (slower / fixed)
    within: bool | None = None  # the speed-up fell inside the quoted range
    example: str = ""  # for fixes that are not mechanical: a kernel that shows the change
    conditions: dict = field(default_factory=dict)  # the rule's facts about this kernel, as a pair records them
    variant: object = field(default=None, repr=False)  # the variant's RunReport (not serialized)

    def to_json(self) -> dict:
        out = {"code": self.code, "fix": self.fix, "status": self.status, "reason": self.reason,
               "findings": self.findings, "before_ms": self.before_ms, "after_ms": self.after_ms,
               "speedup": self.speedup, "quoted": list(self.quoted) if self.quoted else None,
               "within_quote": self.within, "example": self.example, "conditions": self.conditions}
        if self.variant is not None:
            out["variant"] = {"status": self.variant.status, "error": self.variant.error[:400],
                              "checks": [{"name": c.name, "verdict": c.verdict, "max_abs_error": c.max_abs_error}
                                         for c in self.variant.checks]}
        return out


def run_trials(report, target: str, rerun: Callable[..., object],
               extra: list[tuple[str, str, tuple[Edit, ...]]] = ()) -> list[Trial]:
    """One trial per rule with findings on `target` in the kernel as it ran (`report.lint`).

    `rerun(text=None, robustness=None)` runs the kernel again as the original ran, with another text or
    bounds-check setting, and returns its report. `extra`: (code, fix, edits) trials beyond the
    advisor's, tried the same way (the test of a deliberately wrong variant uses it)."""
    from ..lint.engine import findings_after_run

    lint = report.lint
    if lint is None or lint.parsed is None or not report.ok or not report.timing:
        return [Trial("", "", "skipped", reason=f"the original run did not complete with correct results "
                                                f"({report.status}): nothing to compare a variant with")]
    found = findings_after_run(lint, target) + [d for d in lint.diagnostics if d.code == "T050"]
    by_code: dict[str, list[Diagnostic]] = {}
    for diagnostic in found:
        by_code.setdefault(diagnostic.code, []).append(diagnostic)
    before = report.timing["median_ms"]
    trials = []
    for code, diagnostics in by_code.items():
        if code not in MECHANICAL:
            text = rule(code).fix
            examples = _EXAMPLE.findall(text)
            trials.append(Trial(code, text, "not mechanical", findings=len(diagnostics),
                                reason="the fix changes the kernel's structure",
                                example=examples[0] if examples else ""))
            continue
        trial = _trial(code, diagnostics, report, target, rerun)
        _timed(trial, before, report, target)
        trials.append(trial)
    for code, fix, edits in extra:
        trial = _edited(code, fix, edits, 0, report, target, rerun, expect_gone=False)
        _timed(trial, before, report, target)
        trials.append(trial)
    return trials


def _trial(code: str, diagnostics: list[Diagnostic], report, target: str, rerun) -> Trial:
    lint = report.lint
    count = len(diagnostics)
    if code == "P007":
        fix = "bounds checks off (Dawn toggle disable_robustness)"
        if report.backend != "dawn" or report.emulated:
            return Trial(code, fix, "skipped", reason="bounds checks can be turned off on Dawn only (native runs)",
                         findings=count)
        if not report.robustness:
            return Trial(code, fix, "skipped", reason="the kernel already ran without bounds checks",
                         findings=count)
        variant = rerun(robustness=False)
        return _judged(Trial(code, fix, "", findings=count, variant=variant))
    if code == "P005":
        fixes = [d.fixes[0] for d in diagnostics if d.fixes]
        if not fixes:
            return Trial(code, "pad each staged row by 16 bytes", "skipped", findings=count,
                         reason="the row stride is not a module-scope const that the staged array's size is "
                                "computed from (a literal or a local value): pad by hand, in the stride and the size")
        edits = tuple(e for f in fixes for e in f.edits)
        return _edited(code, "; ".join(dict.fromkeys(f.title for f in fixes)), edits, len(fixes), report, target,
                       rerun)
    from ..analysis.performance.rewrites import accumulate_in_f32, unroll

    if code == "P003":
        rewrite = unroll(lint.parsed.root, lint.source, lint.model, [d.span for d in diagnostics])
        fix = "unroll the constant-trip loops that index matrix arrays (each index a constant)"
    else:
        rewrite = accumulate_in_f32(lint.parsed.root, lint.source)
        fix = "accumulate in f32 (every f16 result matrix type becomes f32)"
    if not rewrite.applies:
        return Trial(code, fix, "skipped", reason=rewrite.reason, findings=count)
    return _edited(code, fix, rewrite.edits, count, report, target, rerun)


def _edited(code: str, fix: str, edits: tuple[Edit, ...], count: int, report, target: str, rerun,
            expect_gone: bool = True) -> Trial:
    """The variant with `edits`, refused before it runs when it is not a clean rewrite."""
    from ..lint import lint_source
    from ..lint.fixes import apply_edits

    trial = Trial(code, fix, "", findings=count)
    # Two findings on one stride const carry the same padding edit: it applies once.
    unique = {(e.span.start, e.span.end, e.new_text): e for e in edits}
    ordered = sorted(unique.values(), key=lambda e: (e.span.start, e.span.end))
    if any(a.span.end > b.span.start for a, b in zip(ordered, ordered[1:])):
        return _skipped(trial, "its edits overlap")
    data = report.lint.source.data
    text = apply_edits(data, ordered).decode("utf-8")
    relinted = lint_source(text)  # as the run lints a kernel: the target's findings are added below
    old_errors = {(d.code, d.message) for d in report.lint.diagnostics if d.severity == Severity.ERROR}
    new_errors = [d for d in relinted.diagnostics
                  if d.severity == Severity.ERROR and (d.code, d.message) not in old_errors]
    if new_errors:
        first = new_errors[0]
        line = relinted.source.line_of(first.span.start) + 1
        return _skipped(trial, f"the rewritten kernel does not compile: line {line}: {first.code} {first.message}")
    if expect_gone:
        from ..lint.engine import findings_after_run

        left = [d for d in findings_after_run(relinted, target) + relinted.diagnostics if d.code == code]
        if len(left) > max(0, _count(report, target, code) - count):
            return _skipped(trial, f"the rewritten kernel still has the {code} finding: the fix did not remove it")
    trial.variant = rerun(text=text)
    return _judged(trial)


def _count(report, target: str, code: str) -> int:
    from ..lint.engine import findings_after_run

    lint = report.lint
    return sum(1 for d in findings_after_run(lint, target) + list(lint.diagnostics) if d.code == code)


def _skipped(trial: Trial, reason: str) -> Trial:
    trial.status, trial.reason = "skipped", reason
    return trial


def _judged(trial: Trial) -> Trial:
    variant = trial.variant
    if variant.status == "incorrect":
        wrong = [c for c in variant.checks if c.verdict != "correct"]
        trial.status = "wrong"
        trial.reason = "the variant's results are wrong" + (
            f" ('{wrong[0].name}': max error {wrong[0].max_abs_error:.3g})" if wrong else "")
    elif not variant.ok or not variant.timing:
        trial.status = "failed"
        trial.reason = f"the variant did not run: {variant.status} {variant.error}".strip()[:400]
    else:
        trial.status = "measured"
    return trial


def _timed(trial: Trial, before: float, report, target: str) -> None:
    trial.before_ms = before
    if trial.variant is not None and trial.variant.timing:
        trial.after_ms = trial.variant.timing["median_ms"]
    if trial.status == "measured" and trial.after_ms:
        trial.speedup = before / trial.after_ms
    trial.quoted, trial.conditions = _quoted(report, target, trial.code)
    if trial.speedup is not None and trial.quoted is not None:
        low, high = trial.quoted
        trial.within = low / TOLERANCE <= trial.speedup <= high * TOLERANCE


def _quoted(report, target: str, code: str) -> tuple[tuple[float, float] | None, dict]:
    """The range the finding quoted, and the rule's facts about the kernel (with the run's bounds-check
    setting): what a pair measured on this kernel would record."""
    from ..analysis.performance.checks import quoted_range, rule_conditions
    from ..devices.profiles import resolve_targets

    profiles, _ = resolve_targets((target,))
    lint = report.lint
    if not code.startswith("P") or not profiles or lint is None or lint.parsed is None:
        return None, {}
    root, source, model = lint.parsed.root, lint.source, lint.model
    conditions = {**rule_conditions(root, source, model, profiles[0], code), "bounds_checks": report.robustness}
    return quoted_range(root, source, model, profiles[0], code), conditions
