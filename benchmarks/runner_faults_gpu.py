"""Runner faults on a real GPU: every fault of tests/support/runner_faults.py through each backend.

    python -m benchmarks.runner_faults_gpu            # on the device machine, about 3 minutes
    python -m benchmarks.runner_faults_gpu --no-write

CI runs the same faults on lavapipe (tests/test_runner_faults.py). A real GPU
differs where it matters: no loop limit, real time-outs, and driver-level
bounds handling. Each fault runs through Dawn (bounds checks on, and off with
the disable_robustness toggle for the out-of-bounds kernel) and wgpu-native;
each must be reported with its reason and stage, leave no process behind, and
be followed by a run on the same backend that comes out right. Writes
benchmarks/results/runner_faults_gpu.json; exits 1 if any fault was mishandled
or no GPU adapter was found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.common import write_result  # noqa: E402
from coop_lsp.runner.execute import dawn_gpu_available, wgpu_adapter  # noqa: E402
from tests.support import runner_faults  # noqa: E402


def _cases():
    for fault in runner_faults.FAULTS:
        yield fault, None
        if fault.kernel == runner_faults.OUT_OF_BOUNDS:
            yield fault, False  # the same accesses with Dawn's bounds checks off


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    options = parser.parse_args()
    backends = {}
    if dawn_gpu_available():
        backends["dawn"] = ""
    found, adapter = wgpu_adapter()
    if found and "llvmpipe" not in adapter.lower():
        backends["wgpu"] = adapter
    if not backends:
        print("no GPU adapter: nothing to measure", file=sys.stderr)
        return 1
    rows, failures = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for backend in backends:
            for index, (fault, robustness) in enumerate(_cases()):
                if robustness is not None and backend != "dawn":
                    continue
                outcome = runner_faults.run_fault(fault, Path(scratch) / f"{backend}-{index}", backend, robustness)
                report = outcome.report
                row = {"backend": backend, "fault": fault.name,
                       "robustness": "off" if robustness is False else "default",
                       "status": report.status, "stage": report.stage, "adapter": report.adapter,
                       "error": report.error, "seconds": round(outcome.seconds, 2),
                       "injected": outcome.injected, "problems": outcome.problems}
                rows.append(row)
                failures += bool(outcome.problems)
                verdict = "ok" if not outcome.problems else "PROBLEM: " + "; ".join(outcome.problems)
                print(f"{backend:5} {fault.name} (robustness {row['robustness']}): {report.status}"
                      f"{' while ' + report.stage if report.stage else ''}, {outcome.seconds:.1f} s; {verdict}",
                      flush=True)
    # The probe only says a backend has a GPU; the runs say which one.
    adapters = {backend: sorted({row["adapter"] for row in rows if row["backend"] == backend and row["adapter"]})
                for backend in backends}
    figures = {"adapters": adapters, "faults": rows, "mishandled": failures}
    if not options.no_write:
        print(write_result("runner_faults_gpu", figures,
                           notes="Each fault followed by a good run on the same backend; "
                                 "problems lists what went wrong, empty when all was well."))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
