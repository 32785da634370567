"""Runner faults on a real GPU: every fault of tests/support/runner_faults.py through each backend.

    python -m benchmarks.runner_faults_gpu            # on the device machine, about 3 minutes
    python -m benchmarks.runner_faults_gpu --no-write

CI runs the same faults on lavapipe (tests/test_runner_faults.py). A real GPU
differs where it matters: no loop limit, real time-outs, and driver-level
bounds handling. Each fault runs through Dawn (bounds checks on, and off with
the disable_robustness toggle for the out-of-bounds kernel) and wgpu-native;
each must be reported with its reason and stage, leave no process behind, and
be followed by a run on the same backend that comes out right. One more fault
needs a real driver: an emulation too large for it to compile (wgpu-native
loses its device over it); the report must explain it. Writes
benchmarks/results/runner_faults_gpu.json; exits 1 if any fault was mishandled
or no GPU adapter was found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import runner_gpu  # noqa: E402
from benchmarks.common import write_result  # noqa: E402
from coop_lsp.runner.execute import dawn_gpu_available, run_kernel, wgpu_adapter  # noqa: E402
from tests.support import runner_faults  # noqa: E402


def _cases():
    for fault in runner_faults.FAULTS:
        yield fault, None
        if fault.kernel == runner_faults.OUT_OF_BOUNDS:
            yield fault, False  # the same accesses with Dawn's bounds checks off


def _record(rows: list, backend: str, name: str, robustness: bool | None, outcome) -> bool:
    report = outcome.report
    row = {"backend": backend, "fault": name, "robustness": "off" if robustness is False else "default",
           "status": report.status, "stage": report.stage, "adapter": report.adapter, "error": report.error,
           "notes": report.notes, "seconds": round(outcome.seconds, 2), "injected": outcome.injected,
           "problems": outcome.problems}
    rows.append(row)
    verdict = "ok" if not outcome.problems else "PROBLEM: " + "; ".join(outcome.problems)
    print(f"{backend:5} {name} (robustness {row['robustness']}): {report.status}"
          f"{' while ' + report.stage if report.stage else ''}, {outcome.seconds:.1f} s; {verdict}", flush=True)
    return bool(outcome.problems)


def _refused_emulation(directory: Path, backend: str) -> runner_faults.Outcome:
    """A fault only a real driver produces: gemm_tiled.wgsl's emulation (4 x 4 tiles of 16 x 16, written
    out element by element) is more than NVIDIA's compiler takes; wgpu-native then loses its device."""
    directory.mkdir(parents=True, exist_ok=True)
    description = runner_gpu.description("gemm_tiled", 128, 1, 3, 120)
    started = time.perf_counter()
    with runner_faults.recording_workers() as processes:
        report = run_kernel(runner_gpu.EXAMPLES / "chromium" / "gemm_tiled.wgsl", description, api=backend,
                            emulate_kernel=True)
    outcome = runner_faults.Outcome(REFUSED, report, seconds=time.perf_counter() - started)
    if report.status == "correct":
        return outcome  # a driver that compiles it: nothing to explain
    if report.status != "failed" or report.stage != "creating the pipeline":
        outcome.problems.append(f"expected a failure while creating the pipeline: {report.render()}")
    if not any("KiB of private memory per invocation" in note for note in report.notes):
        outcome.problems.append(f"the report does not explain the emulation's size: {report.notes}")
    if "device is lost" in report.error and not any("device was lost" in note for note in report.notes):
        outcome.problems.append(f"the lost device is not named: {report.notes}")
    outcome.problems += runner_faults.leftovers(processes)
    outcome.problems += runner_faults.run_good(directory, backend)
    return outcome


REFUSED = "emulation the driver will not compile (gemm_tiled, 128^3)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    options = parser.parse_args()
    backends = ["dawn"] if dawn_gpu_available() else []
    found, adapter = wgpu_adapter()
    if found and "llvmpipe" not in adapter.lower():
        backends.append("wgpu")
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
                failures += _record(rows, backend, fault.name, robustness, outcome)
            outcome = _refused_emulation(Path(scratch) / f"{backend}-refused", backend)
            failures += _record(rows, backend, REFUSED, None, outcome)
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
