"""Measured pairs on real kernels, beside the project's own (benchmarks/perf_rules.py): the evidence a
performance finding quotes when the kernel in front of it is like one of them.

    python -m benchmarks.advisor_pairs [--corpus /work/corpus/templates]

Writes benchmarks/results/advisor_pairs.json. The figures are those issue 32 reports for ggml's published
WebGPU kernel (mul_mat_subgroup_matrix, instantiated as benchmarks/real_kernels.py does) on an H100
through Dawn at 4096^3, following coop-lint's findings one at a time: they were measured by the issue's
author, not re-measured here, and the file says so (P009's fix was also measured here on the published
kernel: benchmarks/advisor_ggml.py; those pairs name benchmarks/results/advisor_ggml.json as their source).
What this script adds is each pair's `where`: the
rule's own facts about the slow kernel, computed by the rule's check on the instantiated kernel (the
corpus must be present), so that a finding can tell whether the kernel it lints is like this one.
`python -m benchmarks.perf_rules --update-profile` copies these pairs into the H100 profile with the
project's own.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "benchmarks" / "results" / "advisor_pairs.json"
# P009's fix measured here on the published kernel (benchmarks/advisor_ggml.py, on the H100 machine).
MEASURED = ROOT / "benchmarks" / "results" / "advisor_ggml.json"
# Trials of `coop-lint run --explain --try` on the H100 (benchmarks/advisor_try.py).
TRIED = ROOT / "benchmarks" / "results" / "advisor_try.json"
# Issue 32's walks on the H100, one finding at a time (benchmarks/advisor_walk.py).
WALKED = ROOT / "benchmarks" / "results" / "advisor_walk.json"
SOURCE = "issue 32, measured by the issue's author on an H100 through Dawn"
KERNEL = "ggml's mul_mat_subgroup_matrix"

# Issue 32's measurements, as the issue states them (TFLOP/s at 4096^3, or the ratio where only that is
# given). Each step applies one finding to the kernel the previous steps left.
THROUGHPUT = {"published, bounds checks off": 53.6, "published, bounds checks on": 20.6,
              "every finding applied, bounds checks off": 132.0, "every finding applied, bounds checks on": 54.5,
              "and the next slice read into registers, bounds checks off": 194.0,
              "and the next slice read into registers, bounds checks on": 125.0}
STEPS = {
    "P003": [{"slow": "loops indexing src0_sg_mats and acc_sg_mat (4 and 2 trips)",
              "fixed": "the same loops written out with constant indices", "speedup": 1.00,
              "measured": {"bounds_checks": False}}],
    "P004": [{"slow": "32 KiB of workgroup memory (the result staged in one pass)",
              "fixed": "the result staged in two passes of 16 KiB", "speedup": 2.0,
              "measured": {"bounds_checks": False}}],
    "P005": [{"slow": "staged rows 32 halves (64 bytes) apart", "fixed": "rows padded by 8 halves",
              "speedup": 1.24, "measured": {"bounds_checks": False}}],
    "P009": [{"slow": "every other finding applied", "fixed": "the next slice read into registers before the "
              "multiplies (one buffer, two barriers a step)",
              "throughput": ["every finding applied, bounds checks off",
                             "and the next slice read into registers, bounds checks off"],
              "measured": {"bounds_checks": False, "bank_conflicts": False}},
             {"slow": "every other finding applied", "fixed": "the next slice read into registers before the "
              "multiplies (one buffer, two barriers a step)",
              "throughput": ["every finding applied, bounds checks on",
                             "and the next slice read into registers, bounds checks on"],
              "measured": {"bounds_checks": True, "bank_conflicts": False}}],
}


def kernel_facts(text: str) -> dict:
    """code -> the rule's facts about the published kernel (empty where the rule does not fire)."""
    from benchmarks.perf_rules import measuring_profile
    from coop_lsp.analysis.performance.checks import rule_conditions
    from coop_lsp.analysis.performance import performance_diagnostics
    from coop_lsp.lint import lint_source

    profile = measuring_profile()
    result = lint_source(text)
    fired = {d.code for d in performance_diagnostics(result.parsed.root, result.source, result.model, [profile])}
    return {code: {"fires": code in fired,
                   "facts": rule_conditions(result.parsed.root, result.source, result.model, profile, code)}
            for code in STEPS}


def remeasured(data: dict, facts: dict) -> list[dict]:
    """P009's pairs from benchmarks/advisor_ggml.py's run: the published kernel against it with the next slice
    read into registers, both checked and timed on the same machine, bounds checks off and on."""
    out = []
    for setting, speedup in sorted(data.get("speedup", {}).items()):
        on = setting.endswith(" on")
        slow = data["runs"][f"published, {setting}"]
        fixed = data["runs"][f"prefetched, {setting}"]
        out.append({"slow": "the published kernel", "fixed": "the next slice read into registers before the "
                    "multiplies (benchmarks/advisor_ggml.py prefetched())", "speedup": round(speedup, 4),
                    "tflops": {"slow": round(slow["tflops"], 1), "fixed": round(fixed["tflops"], 1)},
                    "rule_fires_on_published_kernel": facts["fires"] and data["p009_fires"]["published"]
                    and not data["p009_fires"]["prefetched"],
                    "kernel": f"{KERNEL} as published", "source": "benchmarks/results/advisor_ggml.json",
                    "measured_on": f"{slow['adapter']} through Dawn, {data['date']}",
                    "where": {**facts["facts"], "bounds_checks": on}})
    return out


def _facts_now(text: str, code: str) -> dict:
    from benchmarks.perf_rules import measuring_profile
    from coop_lsp.analysis.performance.checks import rule_conditions
    from coop_lsp.lint import lint_source

    result = lint_source(text)
    return rule_conditions(result.parsed.root, result.source, result.model, measuring_profile(), code)


def tried(data: dict, published: str = "") -> dict[str, list[dict]]:
    """Pairs from `--try` on the H100: every mechanical fix measured on a kernel with Dawn's bounds checks on
    (the default every earlier pair left out), and P007's own (bounds checks on against off). The trials
    without bounds checks reproduced the earlier pairs within 1% (advisor_try.json) and add nothing new."""
    out: dict[str, list[dict]] = {}
    for case in data["cases"]:
        if case.get("bounds_checks") != "on":
            continue
        # Facts a rule learned to record after the trial ran are computed now from the same kernel, where
        # it is ggml's (given) or a file of the repository run as written (no --set).
        path = ROOT / case["kernel"]
        text = published if case["kernel"].startswith("ggml") else path.read_text() if path.is_file() else ""
        for trial in case.get("trials") or []:
            if trial["status"] != "measured" or not trial["code"].startswith("P"):
                continue
            if text:
                trial = dict(trial, conditions={**_facts_now(text, trial["code"]), **trial["conditions"]})
            out.setdefault(trial["code"], []).append({
                "slow": f"{case['kernel']} as written, bounds checks on", "fixed": trial["fix"],
                "speedup": round(trial["speedup"], 4), "rule_fires_on_published_kernel": True,
                "kernel": case["kernel"], "source": "benchmarks/results/advisor_try.json",
                "measured_on": f"{case['adapter']} through Dawn, {data['date']}", "where": trial["conditions"]})
    return out


def walked(data: dict, corpus: Path) -> dict[str, list[dict]]:
    """Pairs from issue 32's walks (advisor_walk.json): each step's kernel against the one before it, both
    settings, with the rule's facts computed now on the step's slow kernel (rebuilt from the published text
    by advisor_walk.py), so that conditions added to a rule later reach these pairs too. P007's step is the
    last kernel with bounds checks on against off."""
    from benchmarks.advisor_walk import step_texts
    from benchmarks.perf_rules import measuring_profile
    from coop_lsp.analysis.performance.checks import rule_conditions
    from coop_lsp.lint import lint_source

    texts = step_texts(corpus.parent)
    profile = measuring_profile()
    out: dict[str, list[dict]] = {}
    for w in data["walks"]:
        if w.get("validation"):
            continue  # a test of the conditions on an order nobody measured: kept apart from the evidence
        if "one workgroup" in w.get("size", ""):
            # One workgroup on a 132-multiprocessor GPU is unlike every kernel the quotes serve (they were
            # measured at 4096^3, the whole GPU busy); `run --explain` says so beside such a run instead.
            continue
        name = {"ggml": KERNEL, "dawn": "Dawn's tiled subgroup-matrix test kernel"}.get(w["kernel"], w["kernel"])
        for step in w["steps"][1:]:
            code, speedups = step["finding"], step.get("speedup") or {}
            index = step["step"] - 1 if code != "P007" else len(texts[w["kernel"]]) - 1
            slow = lint_source(texts[w["kernel"]][index])
            facts = rule_conditions(slow.parsed.root, slow.source, slow.model, profile, code)
            for setting, speedup in speedups.items():
                on = setting != "off"
                out.setdefault(code, []).append({
                    "slow": f"step {index} of the walk" + (", bounds checks on" if code == "P007" else ""),
                    "fixed": step["fix"], "speedup": round(speedup, 4), "rule_fires_on_published_kernel": True,
                    "kernel": f"{name}, issue 32's walk step {step['step']}",
                    "source": "benchmarks/results/advisor_walk.json",
                    "measured_on": f"NVIDIA H100 80GB HBM3 ({data.get('driver', '')}) through Dawn, {data['date']}",
                    "where": {**facts, "bounds_checks": on}})
    return out


def build(corpus: Path) -> dict:
    from benchmarks.real_kernels import instantiate_ggml

    with tempfile.TemporaryDirectory() as folder:
        meta = instantiate_ggml(corpus, Path(folder))
        text = (Path(folder) / "kernel.wgsl").read_text()
    facts = kernel_facts(text)
    rules = {}
    for code, steps in STEPS.items():
        rules[code] = []
        for step in steps:
            speedup = step.get("speedup")
            if "throughput" in step:
                slow, fixed = (THROUGHPUT[name] for name in step["throughput"])
                speedup = fixed / slow
            rules[code].append({"slow": step["slow"], "fixed": step["fixed"], "speedup": round(speedup, 4),
                                **({"tflops": {"slow": slow, "fixed": fixed}} if "throughput" in step else {}),
                                "rule_fires_on_published_kernel": facts[code]["fires"],
                                "kernel": f"{KERNEL} after issue 32's earlier steps" if code == "P009" else KERNEL,
                                "where": {**facts[code]["facts"], **step["measured"]}})
    if MEASURED.exists():
        rules["P009"].extend(remeasured(json.loads(MEASURED.read_text()), facts["P009"]))
    if TRIED.exists():
        for code, pairs in tried(json.loads(TRIED.read_text()), text).items():
            rules.setdefault(code, []).extend(pairs)
    if WALKED.exists():
        for code, pairs in walked(json.loads(WALKED.read_text()), corpus).items():
            rules.setdefault(code, []).extend(pairs)
    return {"benchmark": "advisor_pairs", "source": SOURCE, "kernel": KERNEL, "target": "nvidia-h100",
            "machine": {"gpu": "NVIDIA H100 80GB HBM3", "api": "Dawn", "measured_by": "the author of issue 32",
                        "re_measured_here": False},
            "instantiation": meta, "size": "4096^3, src0 f16 x src1 f32, 16x16x16 f16 -> f16 configuration",
            "throughput_tflops": THROUGHPUT, "rules": rules,
            "notes": "speedup = slow time / fixed time, as issue 32 reports it (from TFLOP/s where it gives them). "
                     "`where` holds each rule's facts about the published kernel as the rule's check computes "
                     "them (benchmarks/advisor_pairs.py), plus the bounds-check setting of the measurement; the "
                     "P004 and P005 steps ran on the kernel earlier steps had changed, whose facts for those "
                     "rules are the published kernel's."}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus/templates"))
    args = parser.parse_args()
    payload = build(args.corpus)
    RESULTS.write_text(json.dumps(payload, indent=2) + "\n")
    for code, pairs in payload["rules"].items():
        print(code, [(p["speedup"], p["where"], p["rule_fires_on_published_kernel"]) for p in pairs])
    return 0


if __name__ == "__main__":
    sys.exit(main())
