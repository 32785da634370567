"""Evidence for the performance rules: each rule's pair of kernels (slow and fixed), run, checked and timed.

    python -m benchmarks.perf_rules [--size 4096] [--only P001,P005]    # on the GPU machine
    python -m benchmarks.perf_rules --update-profile [RESULTS.json]     # here: copy the costs into the profile

For every P rule, PAIRS names a slow kernel and a fixed one that differ only
in what the rule names (benchmarks/perf_pairs/, or an example with other
[sizes]). Each is
  - linted against the target with the rule's check: the rule must fire on
    the slow kernel and stay quiet on the fixed one;
  - run with coop_lsp.runner on Dawn at SIZE^3, f16 in, f32 out, checked
    against NumPy and timed (GPU timestamps, median of the description's
    repetitions).
Writes $OUT/perf_rules.json (or benchmarks/results/perf_rules.json) with the
machine, both kernels' status, time and TFLOP/s, and the speed-up (slow time
/ fixed time). --update-profile writes every rule's measured pairs into
coop_lsp/devices/profiles/nvidia-h100.json (performance.rule_costs): this
file's, and those on real kernels in benchmarks/results/advisor_pairs.json,
each with its `where` (the rule's facts about the slow kernel, computed by
the rule's check), which is where the rules' messages read them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402

PAIRS_DIR = "benchmarks/perf_pairs"
EXAMPLES = "examples/chromium"
RUNS = "examples/runs"
PROFILE = ROOT / "coop_lsp" / "devices" / "profiles" / "nvidia-h100.json"
RESULTS = "benchmarks/results/perf_rules.json"
ADVISOR_RESULTS = "benchmarks/results/advisor_pairs.json"  # pairs on real kernels (benchmarks/advisor_pairs.py)


@dataclasses.dataclass(frozen=True)
class Kernel:
    kernel: str  # path from the repository root
    run: str  # its run description
    sizes: tuple = ()  # (name, value) pairs replacing [sizes] values
    robustness: bool = False

    def describe(self) -> str:
        extra = " ".join(f"{k}={v}" for k, v in self.sizes)
        return f"{self.kernel}{' ' + extra if extra else ''}{' (bounds checks on)' if self.robustness else ''}"


PIPELINED = Kernel(f"{EXAMPLES}/gemm_pipelined.wgsl", f"{RUNS}/gemm_pipelined.run.toml")
KNOBS = f"{PAIRS_DIR}/pipelined_knobs.wgsl", f"{PAIRS_DIR}/pipelined_knobs.run.toml"

# rule -> (slow, fixed, what differs)
PAIRS = {
    "P001": (Kernel(f"{EXAMPLES}/gemm_naive.wgsl", f"{RUNS}/gemm_naive.run.toml"),
             Kernel(f"{PAIRS_DIR}/naive_2x2.wgsl", f"{PAIRS_DIR}/naive_2x2.run.toml"),
             "one 16x16 result tile per subgroup vs 2 x 2 tiles, operands loaded from storage in both"),
    "P002": (Kernel(f"{PAIRS_DIR}/pipelined_unstaged.wgsl", f"{PAIRS_DIR}/pipelined_unstaged.run.toml"),
             PIPELINED,
             "the same 128 x 128 blocks and 4 x 4 register tiles, tiles loaded from storage vs staged in "
             "workgroup memory"),
    "P003": (Kernel(f"{EXAMPLES}/gemm_tiled.wgsl", f"{RUNS}/gemm_tiled.run.toml",
                    (("BM", 128), ("BN", 128), ("BK", 32), ("WM", 64), ("WN", 64))),
             Kernel(f"{EXAMPLES}/gemm_tiled_4x4.wgsl", f"{RUNS}/gemm_tiled_4x4.run.toml",
                    (("BM", 128), ("BN", 128), ("BK", 32), ("GROUP", 1))),
             "4 x 4 accumulators in an array indexed by loop variables vs the same tiles named by constants"),
    "P004": (Kernel(*KNOBS, (("EXTRA", 512),)), Kernel(*KNOBS, (("EXTRA", 1),)),
             "8 KiB more workgroup memory (26.5 KiB in all) vs 18.5 KiB"),
    "P005": (Kernel(*KNOBS, (("PAD", 0),)), Kernel(*KNOBS, (("PAD", 1),)),
             "staged rows 64 and 256 bytes apart vs padded by 16 bytes"),
    "P006": (Kernel(f"{EXAMPLES}/gemm_blocked.wgsl", f"{RUNS}/gemm_blocked.run.toml"),
             Kernel(f"{PAIRS_DIR}/blocked_vec.wgsl", f"{RUNS}/gemm_blocked.run.toml"),
             "staging copies of one f16 per invocation vs one vec4<u32> (8 halves)"),
    "P007": (dataclasses.replace(PIPELINED, robustness=True), PIPELINED,
             "the same kernel with Dawn's bounds checks (default) vs the device toggle disable_robustness"),
    "P008": (Kernel(*KNOBS, (("BM", 64), ("EXTRA", 768))), Kernel(*KNOBS, (("BM", 128), ("EXTRA", 768))),
             "64 invocations (2 subgroups, 64 x 128 blocks) vs 128 (4 subgroups, 128 x 128 blocks), both with "
             "12 KiB of unused workgroup memory, so one workgroup per multiprocessor (25.5 and 30.5 KiB in all)"),
}


def measuring_profile():
    """The H100 profile with every rule's cost present, so that each check runs whatever was measured."""
    from coop_lsp.analysis.performance.rules import PERFORMANCE_RULES
    from coop_lsp.devices.profiles import shipped_profiles

    profile = shipped_profiles()["nvidia-h100"]
    performance = dict(profile.performance)
    performance["rule_costs"] = {rule.code: {"slower": 1.0, "source": "placeholder"} for rule in PERFORMANCE_RULES}
    return dataclasses.replace(profile, performance=performance)


def materialised(kernel: Kernel, size: int):
    """The run description and the kernel text as it will run (the [constants] written into it)."""
    from coop_lsp.runner.description import parse_run_description
    from coop_lsp.runner.execute import apply_constants
    from coop_lsp.runner.kernel import load_kernel

    run = ROOT / kernel.run
    values = {"M": size, "N": size, "K": size, **dict(kernel.sizes)}
    description = parse_run_description(run.read_text(), run, size_values=values)
    text = (ROOT / kernel.kernel).read_text()
    if description.constants:
        text = apply_constants(text, description.constants, load_kernel(text))
    return description, text


def rule_fires(code: str, text: str, profile) -> list[str]:
    from coop_lsp.analysis.performance import performance_diagnostics
    from coop_lsp.lint.engine import lint_source

    result = lint_source(text)
    if result.model is None or result.parsed is None:
        return ["(did not parse)"]
    # run=True: P007 is reported only beside a run, which is what this is.
    found = performance_diagnostics(result.parsed.root, result.parsed.source, result.model, [profile], run=True)
    return [d.message for d in found if d.code == code]


def run_one(kernel: Kernel, size: int, timeout: float) -> dict:
    from coop_lsp.runner.execute import run_kernel

    description, _ = materialised(kernel, size)
    description.timeout_s = timeout
    report = run_kernel(ROOT / kernel.kernel, description, api="dawn", emulate_kernel=False,
                        robustness=kernel.robustness)
    print(report.render("text"), flush=True)
    out = {"kernel": kernel.describe(), "status": report.status, "adapter": report.adapter, "error": report.error}
    if report.checks:
        out["max_abs_error"] = max(c.max_abs_error for c in report.checks)
    if report.timing:
        out.update(median_ms=report.timing["median_ms"], min_ms=report.timing["min_ms"],
                   max_ms=report.timing["max_ms"], repetitions=report.timing["repetitions"],
                   timing_source=report.timing["source"])
        if "agreement" in report.timing:
            out["host_clock_agreement"] = report.timing["agreement"]
    if report.tflops is not None:
        out["tflops"] = report.tflops
    return out


def measure(args) -> int:
    from coop_lsp.analysis.performance.rules import MEANINGFUL_SLOWDOWN

    out_dir = Path(os.environ["OUT"]) if os.environ.get("OUT") else ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    profile = measuring_profile()
    codes = args.only.split(",") if args.only else list(PAIRS)
    cache: dict[Kernel, dict] = {}
    rules = {}
    for code in codes:
        slow, fixed, differs = PAIRS[code]
        entry = {"differs": differs, "size": f"{args.size}^3, f16 in, f32 out"}
        for role, kernel in (("slow", slow), ("fixed", fixed)):
            try:
                _, text = materialised(kernel, args.size)
                findings = rule_fires(code, text, profile)
                if kernel not in cache:
                    cache[kernel] = run_one(kernel, args.size, args.timeout)
                entry[role] = {**cache[kernel], "rule_fires": bool(findings),
                               "finding": findings[0] if findings else ""}
            except Exception as error:  # noqa: BLE001 - one broken pair must not lose the others
                entry[role] = {"kernel": kernel.describe(), "status": "script-error",
                               "error": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()[-1500:]}
        s, f = entry["slow"], entry["fixed"]
        if s.get("status") == "correct" and f.get("status") == "correct" and s.get("median_ms") and f.get("median_ms"):
            entry["speedup"] = s["median_ms"] / f["median_ms"]
            entry["holds"] = entry["speedup"] >= MEANINGFUL_SLOWDOWN
        # P007's fix is outside the kernel (a device toggle): the same text, so the rule fires on both.
        same_text = (slow.kernel, slow.sizes) == (fixed.kernel, fixed.sizes)
        entry["rule_fires_on_slow_only"] = bool(s.get("rule_fires")) and (same_text or not f.get("rule_fires"))
        if same_text:
            entry["same_kernel"] = "the fix is the device toggle disable_robustness, not a change to the kernel"
        rules[code] = entry
        print(code, json.dumps({k: v for k, v in entry.items() if k in ("speedup", "rule_fires_on_slow_only")}),
              flush=True)
    payload = {"benchmark": "perf_rules", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "machine": machine(), "target": "nvidia-h100", "threshold": MEANINGFUL_SLOWDOWN, "rules": rules,
               "notes": "Each pair: slow and fixed kernels that differ only in what the rule names, run through "
                        "coop_lsp.runner on Dawn (bounds checks off unless the kernel says on), checked against "
                        "NumPy, timed with GPU timestamps (median). speedup = slow median / fixed median."}
    (out_dir / "perf_rules.json").write_text(json.dumps(payload, indent=2) + "\n")
    ok = all(e.get("speedup") and e["rule_fires_on_slow_only"] for e in rules.values())
    return 0 if ok else 1


def pair_conditions(code: str, kernel: Kernel, size: int = 4096) -> dict:
    """The rule's facts about a pair's slow kernel, as its check computes them: the pair's `where`."""
    from coop_lsp.analysis.performance.checks import rule_conditions
    from coop_lsp.lint.engine import lint_source

    _, text = materialised(kernel, size)
    result = lint_source(text)
    where = rule_conditions(result.parsed.root, result.parsed.source, result.model, measuring_profile(), code)
    where["bounds_checks"] = kernel.robustness  # measured with Dawn's bounds checks off unless the kernel says on
    return where


def profile_pairs(data: dict, advisor: dict | None) -> dict:
    """rule code -> every measured pair the profile records for it: the project's (perf_rules.json) and
    those on real kernels (advisor_pairs.json), each with its conditions."""
    costs: dict = {}
    for code, entry in sorted(data["rules"].items()):
        if "speedup" not in entry:
            print(f"{code}: no measurement (slow {entry['slow'].get('status')}, fixed {entry['fixed'].get('status')})")
            continue
        slow, fixed, _ = PAIRS[code]
        costs.setdefault(code, {"pairs": []})["pairs"].append({
            "slower": round(entry["speedup"], 2), "slow": entry["slow"]["kernel"], "fixed": entry["fixed"]["kernel"],
            "kernel": f"the project's pair {Path(slow.kernel).name}" + (
                "".join(f" {k}={v}" for k, v in slow.sizes) if slow.sizes else ""),
            "source": RESULTS, "where": pair_conditions(code, slow)})
    for code, pairs in sorted((advisor or {}).get("rules", {}).items()):
        for pair in pairs:
            costs.setdefault(code, {"pairs": []})["pairs"].append({
                "slower": round(pair["speedup"], 2), "slow": pair["slow"], "fixed": pair["fixed"],
                "kernel": pair.get("kernel", advisor["kernel"]), "source": pair.get("source", ADVISOR_RESULTS),
                "where": pair["where"]})
    return costs


def update_profile(results: Path, advisor: Path | None = None) -> int:
    """Copies every measured pair into the H100 profile, where the rules' messages read them."""
    data = json.loads(results.read_text())
    advisor = advisor if advisor is not None else ROOT / ADVISOR_RESULTS
    profile = json.loads(PROFILE.read_text())
    costs = profile_pairs(data, json.loads(advisor.read_text()) if advisor.exists() else None)
    for code, cost in costs.items():
        print(code, ", ".join(f"{p['slower']:.2f}x {p['where']}" for p in cost["pairs"]))
    profile["performance"]["rule_costs"] = costs
    PROFILE.write_text(json.dumps(profile, indent=2) + "\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--only", help="comma-separated rule codes")
    parser.add_argument("--update-profile", nargs="?", const=str(ROOT / RESULTS), metavar="RESULTS.json")
    args = parser.parse_args()
    if args.update_profile:
        return update_profile(Path(args.update_profile))
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
