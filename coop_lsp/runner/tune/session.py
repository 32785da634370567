"""A tune from start to end: the space linted per target, the rest run by an executor, records kept.

    session = TuneSession(kernel, run_path, candidates, targets)
    missing = session.unreachable(executor.resources())     # targets no worker has: said at the start
    records = session.run(executor, results, progress)       # every (variant, target): run, pruned or not run

An executor (local.LocalExecutor, cluster.DaskExecutor) has `resources()` (what its workers offer) and
`run(payloads, on_record)`, which calls on_record for each finished run as it comes, in any order.
"""

from __future__ import annotations

import time
from pathlib import Path

from ..description import RunDescriptionError, load_run_description
from .prune import Verdict, expand_candidate, judge
from .space import Candidate
from .targets import Target


def summary(report: dict) -> dict:
    """The fields the tables read, from a RunReport's JSON."""
    timing = report.get("timing") or {}
    checks = report.get("checks") or []
    return {"status": report.get("status", "error"), "stage": report.get("stage", ""),
            "error": report.get("error", ""), "median_ms": timing.get("median_ms"),
            "tflops": report.get("tflops"), "peak_fraction": report.get("peak_fraction"),
            "max_abs_error": max((c["max_abs_error"] for c in checks), default=None),
            "adapter": report.get("adapter", "")}


class TuneSession:
    def __init__(self, kernel: Path, run_path: Path, candidates: list[Candidate], targets: list[Target],
                 timeout_s: float | None = None):
        self.kernel, self.run_path, self.candidates, self.targets = kernel, run_path, candidates, targets
        self.timeout_s = timeout_s
        self.verdicts: dict[tuple[str, str], Verdict] = {}
        self._lint()

    def _lint(self) -> None:
        data = self.kernel.read_bytes()
        cache: dict = {}
        for candidate in self.candidates:
            text, problem = expand_candidate(self.kernel, data, candidate)
            constants = {}
            if text is not None:
                try:
                    constants = load_run_description(self.run_path, size_values=dict(candidate.sizes)).constants
                except RunDescriptionError as error:
                    text, problem = None, str(error)
            for target in self.targets:
                self.verdicts[(candidate.key, target.name)] = (
                    Verdict(None, problem) if text is None else judge(text, constants, target, cache))

    def pruned(self) -> list[tuple[Candidate, Target, str]]:
        return [(c, t, v.pruned) for c in self.candidates for t in self.targets
                if (v := self.verdicts[(c.key, t.name)]).pruned]

    def unreachable(self, resources: set[str]) -> list[Target]:
        return [t for t in self.targets if t.resource not in resources]

    def record(self, candidate: Candidate, target: Target, **fields) -> dict:
        verdict = self.verdicts[(candidate.key, target.name)]
        return {"key": candidate.key, "target": target.name, "label": candidate.label,
                "candidate": candidate.to_json(), "findings": verdict.findings, "pruned": verdict.pruned,
                **fields}

    def run(self, executor, results=None, progress=None) -> list[dict]:
        """Every (variant, target)'s record; those `results` already has are taken from it, not run again."""
        from .task import make_payload

        done = results.done() if results is not None else {}
        by_key = {c.key: c for c in self.candidates}
        targets = {t.name: t for t in self.targets}
        missing = {t.name for t in self.unreachable(executor.resources())}
        records: list[dict] = []
        payloads = []

        def keep(record: dict) -> None:
            records.append(record)
            if results is not None:
                results.append(record)
            if progress is not None:
                progress(record, len(records), total)

        total = len(self.candidates) * len(self.targets)
        for candidate in self.candidates:
            for target in self.targets:
                old = done.get((candidate.key, target.name))
                verdict = self.verdicts[(candidate.key, target.name)]
                if old is not None and (old.get("status") != "pruned" or verdict.pruned):
                    records.append({**old, "resumed": True})
                elif verdict.pruned:
                    keep(self.record(candidate, target, status="pruned", stage="lint", error=verdict.pruned))
                elif target.name in missing:
                    keep(self.record(candidate, target, status="not run", stage="scheduling",
                                     error=f"no worker has {target.resource}"))
                else:
                    payloads.append(make_payload(self.kernel, candidate.key, candidate.label, target, verdict.text,
                                                 self.run_path, dict(candidate.sizes), self.timeout_s))

        def finished(raw: dict) -> None:
            candidate, target = by_key[raw["key"]], targets[raw["target"]]
            if "report" in raw:
                fields = {**summary(raw["report"]), "report": raw["report"], "worker": raw.get("worker", {})}
            else:  # the engine could not run it (a worker lost too often, the cluster gone)
                fields = {"status": "not run", "stage": "scheduling", "error": raw.get("error", "")}
            keep(self.record(candidate, target, finished=time.time(), **fields))

        if payloads:
            executor.run(payloads, finished)
        order = {(c.key, t.name): i for i, (c, t) in enumerate((c, t) for c in self.candidates for t in self.targets)}
        return sorted(records, key=lambda r: order.get((r["key"], r["target"]), len(order)))
