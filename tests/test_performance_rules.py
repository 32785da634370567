"""The performance advisor: P rules fire on their patterns and stay quiet otherwise, quote the target's
measured cost, and degrade to silence when a profile lacks what they need; the run explains itself
(roofline, bounds checks both ways, findings); the evidence file backs every rule."""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coop_lsp.analysis.performance import performance_diagnostics
from coop_lsp.analysis.performance.checks import conflict_degree
from coop_lsp.analysis.performance.rules import MEANINGFUL_SLOWDOWN, PERFORMANCE_RULES
from coop_lsp.ide.explain import explain
from coop_lsp.core.diagnostic import Severity
from coop_lsp.lint.catalogue import all_rules
from coop_lsp.devices.profiles import ProfileError, parse_profile, shipped_profiles
from coop_lsp.lint import lint_source
from coop_lsp.lint.fixes import apply_edits
from coop_lsp.runner.execute import RunReport
from coop_lsp.runner.roofline import describe, roofline_of, roofline_svg
from coop_lsp.runner.sweep import SweepResult, sweep_page

from .support.compare import check_against_tint
from .support.spec import load_cases

ROOT = Path(__file__).resolve().parent.parent
SPEC = Path(__file__).parent / "spec" / "performance"
CASES = load_cases(SPEC)
H100 = shipped_profiles()["nvidia-h100"]
NAIVE = (ROOT / "examples" / "chromium" / "gemm_naive.wgsl").read_text()


def findings(text: str, profile=H100, run: bool = False):
    result = lint_source(text)
    return performance_diagnostics(result.parsed.root, result.source, result.model, [profile], run=run)


# ---------------------------------------------------------------- the specification
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case):
    result = lint_source(case.source, targets=("nvidia-h100",))
    actual = []
    for d in result.diagnostics:
        where = result.source.position(d.span.start)
        actual.append((d.code, where.line, where.column, d.message))
    assert sorted(a[:3] for a in actual) == sorted((e.code, e.line, e.column) for e in case.expected), actual
    for expected in case.expected:
        messages = [a[3] for a in actual if a[:3] == (expected.code, expected.line, expected.column)]
        assert any(expected.message in m for m in messages), messages
        assert any(" on nvidia-h100" in m and "benchmarks/results/" in m for m in messages), messages


@pytest.mark.tint
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_case_is_a_module_tint_compiles(case, tint):
    agrees, why = check_against_tint(case, tint)
    assert agrees, why


def test_the_spec_has_a_firing_and_a_quiet_case_for_every_lint_rule():
    names = " ".join(c.name for c in CASES)
    for rule in PERFORMANCE_RULES:
        if rule.code == "P007":  # reported beside a run only; see the explain tests
            continue
        assert f"{rule.code}:" in names and f"{rule.code} quiet" in names, rule.code


# ---------------------------------------------------------------- the registry and the evidence
def test_at_least_five_p_rules_are_registered_and_documented():
    rules = [r for r in all_rules() if r.code.startswith("P")]
    assert len(rules) >= 5
    docs = (ROOT / "docs" / "rules.md").read_text()
    for rule in rules:
        assert rule.explanation and rule.example and rule.fix, rule.code
        assert f"coop.{rule.name}" in docs and rule.fix.split(";")[0][:40] in docs, rule.code


def test_every_rule_has_a_measured_pair_and_the_profile_quotes_it():
    """Every figure a finding quotes is a recorded pair: the project's (perf_rules.json) or one on a real
    kernel (advisor_pairs.json), copied by `benchmarks.perf_rules --update-profile` with its conditions."""
    from benchmarks.perf_rules import PAIRS, pair_conditions

    evidence = json.loads((ROOT / "benchmarks" / "results" / "perf_rules.json").read_text())
    advisor = json.loads((ROOT / "benchmarks" / "results" / "advisor_pairs.json").read_text())
    measured = json.loads((ROOT / "benchmarks" / "results" / "advisor_ggml.json").read_text())
    tried = json.loads((ROOT / "benchmarks" / "results" / "advisor_try.json").read_text())
    walked = json.loads((ROOT / "benchmarks" / "results" / "advisor_walk.json").read_text())
    assert "H100" in json.dumps(evidence["machine"]) or evidence["target"] == "nvidia-h100"
    assert advisor["source"] == "issue 32, measured by the issue's author on an H100 through Dawn"
    costs = H100.performance["rule_costs"]
    for rule in PERFORMANCE_RULES:
        pairs = costs[rule.code]["pairs"]
        assert pairs, rule.code
        for pair in pairs:
            if pair["source"] == "benchmarks/results/perf_rules.json":
                entry = evidence["rules"][rule.code]
                assert entry["slow"]["status"] == "correct" and entry["fixed"]["status"] == "correct", rule.code
                assert entry["rule_fires_on_slow_only"], rule.code
                assert entry["speedup"] == pytest.approx(entry["slow"]["median_ms"] / entry["fixed"]["median_ms"])
                assert pair["slower"] == pytest.approx(entry["speedup"], abs=0.01)
                # The conditions are the rule's own facts about the slow kernel, recomputed here.
                assert pair["where"] == pair_conditions(rule.code, PAIRS[rule.code][0]), rule.code
            else:
                recorded = [p for p in advisor["rules"][rule.code] if p["where"] == pair["where"]
                            and p.get("kernel", advisor["kernel"]) == pair["kernel"]
                            and p.get("source", "benchmarks/results/advisor_pairs.json") == pair["source"]]
                assert len(recorded) == 1 and pair["slower"] == pytest.approx(recorded[0]["speedup"], abs=0.01)
                assert recorded[0]["rule_fires_on_published_kernel"], rule.code
                if pair["source"] == "benchmarks/results/advisor_ggml.json":
                    # Measured here: the speed-up is the ratio of the two checked runs' medians.
                    setting = "on" if pair["where"]["bounds_checks"] else "off"
                    runs = measured["runs"]
                    slow, fixed = runs[f"published, bounds checks {setting}"], runs[f"prefetched, bounds checks {setting}"]
                    assert slow["status"] == fixed["status"] == "correct"
                    assert pair["slower"] == pytest.approx(slow["median_ms"] / fixed["median_ms"], abs=0.01)
                elif pair["source"] == "benchmarks/results/advisor_try.json":
                    # `coop-lint run --try` on the H100: the trial's variant was correct and its speed-up is
                    # the ratio of the original's and the variant's medians.
                    [case] = [c for c in tried["cases"] if c["kernel"] == pair["kernel"] and c["bounds_checks"] == "on"]
                    [trial] = [t for t in case["trials"] if t["code"] == rule.code]
                    assert trial["status"] == "measured" and trial["variant"]["status"] == "correct"
                    assert pair["slower"] == pytest.approx(trial["before_ms"] / trial["after_ms"], abs=0.01)
                    # Facts the rule learned to record later are recomputed; the recorded ones stand.
                    assert {k: pair["where"].get(k) for k in trial["conditions"]} == trial["conditions"], rule.code
                elif pair["source"] == "benchmarks/results/advisor_walk.json":
                    # Issue 32's walk: both kernels of the step checked correct, the speed-up their ratio.
                    [walk] = [w for w in walked["walks"] if not w.get("validation") and pair["kernel"].startswith(
                        {"ggml": "ggml's", "dawn": "Dawn's"}[w["kernel"]])]
                    [step] = [s for s in walk["steps"] if pair["kernel"].endswith(f"step {s['step']}")]
                    assert step["finding"] == rule.code
                    if rule.code == "P007":
                        runs = [step["runs"]["on"], step["runs"]["off"]]
                    else:
                        setting = "on" if pair["where"]["bounds_checks"] else "off"
                        runs = [walk["steps"][step["step"] - 1]["runs"][setting], step["runs"][setting]]
                    assert all(run["status"] == "correct" for run in runs)
                    assert pair["slower"] == pytest.approx(runs[0]["median_ms"] / runs[1]["median_ms"], abs=0.01)
                else:
                    assert pair["source"] == "benchmarks/results/advisor_pairs.json", rule.code
        # A rule none of whose pairs held up would have to be information, not a warning.
        assert max(p["slower"] for p in pairs) >= MEANINGFUL_SLOWDOWN or rule.severity <= Severity.INFO, rule.code


def test_the_fastest_example_gets_nothing_above_information_and_the_naive_ones_get_findings():
    fastest = (ROOT / "examples" / "chromium" / "gemm_pipelined.wgsl").read_text()
    assert all(d.severity <= Severity.INFO for d in findings(fastest, run=True))
    assert {d.code for d in findings(NAIVE)} == {"P001", "P002"}
    blocked = (ROOT / "examples" / "chromium" / "gemm_blocked.wgsl").read_text()
    assert {d.code for d in findings(blocked)} == {"P006", "P009"}


# ---------------------------------------------------------------- profiles
def without(entry: str, rule_code: str | None = None):
    performance = json.loads(json.dumps(H100.performance))
    performance.pop(entry, None)
    if rule_code:
        performance["rule_costs"].pop(rule_code)
    return dataclasses.replace(H100, performance=performance)


def test_a_profile_without_a_rules_facts_gives_no_finding_from_that_rule_and_no_crash():
    assert {d.code for d in findings(NAIVE, without("rule_costs"))} == set()
    assert {d.code for d in findings(NAIVE, without("nothing", "P001"))} == {"P002"}
    tiled = (ROOT / "examples" / "chromium" / "gemm_tiled.wgsl").read_text()
    assert "P004" in {d.code for d in findings(tiled)}
    assert "P004" not in {d.code for d in findings(tiled, without("workgroups_per_multiprocessor"))}
    assert findings(NAIVE, dataclasses.replace(H100, performance={})) == []
    for name, profile in shipped_profiles().items():
        assert isinstance(findings(NAIVE, profile), list), name


def test_idle_matrix_units_needs_the_units_and_the_memory_of_a_multiprocessor():
    idle = next(c.source for c in CASES if c.name.startswith("P008:"))
    assert {d.code for d in findings(idle)} == {"P008"}
    assert findings(idle, without("matrix_units_per_multiprocessor")) == []
    assert findings(idle, without("workgroup_memory_per_multiprocessor")) == []
    # Workgroup memory a multiprocessor cannot hold even once is not a question of idle units.
    huge = idle.replace("array<vec4<u32>, 1024>", "array<vec4<u32>, 4096>")
    assert "P008" not in {d.code for d in findings(huge)}


def test_a_broken_performance_section_names_the_key():
    data = H100.to_json()
    data["performance"]["memory_banks"] = {"count": 0, "width_bytes": 4, "source": "x"}
    with pytest.raises(ProfileError, match=r"performance\.memory_banks\.count"):
        parse_profile(data, "p.json")
    data = H100.to_json()
    data["performance"]["rule_costs"]["P001"]["pairs"][0].pop("source")
    with pytest.raises(ProfileError, match=r"rule_costs\.P001\.pairs\[0\]\.source"):
        parse_profile(data, "p.json")


def test_a_cost_under_the_threshold_makes_the_finding_information():
    performance = json.loads(json.dumps(H100.performance))
    performance["rule_costs"]["P001"]["pairs"][0]["slower"] = 1.05
    found = {d.code: d for d in findings(NAIVE, dataclasses.replace(H100, performance=performance))}
    assert found["P001"].severity == Severity.INFO and "no effect expected on nvidia-h100: measured 1.1x" \
        in found["P001"].message
    assert found["P002"].severity == Severity.WARNING


# ---------------------------------------------------------------- P005 and its fix
def test_bank_conflict_degree_follows_the_row_stride():
    assert conflict_degree(128, 32, 4) == 8  # f16 rows of 64: every row in the same banks
    assert conflict_degree(64, 32, 4) == 4
    assert conflict_degree(80, 32, 4) == 1  # the padded vec4<u32> rows of gemm_pipelined
    assert conflict_degree(144, 32, 4) == 1  # f16 rows of 64 + 8


def test_the_padding_fix_pads_the_stride_constant_and_silences_the_rule():
    text = next(c for c in CASES if c.name.startswith("P005:")).source
    [finding] = [d for d in findings(text) if d.code == "P005"]
    [fix] = finding.fixes
    fixed = apply_edits(text.encode(), list(fix.edits)).decode()
    assert "const LD: u32 = 64u + 8u;" in fixed
    assert [d.code for d in lint_source(fixed, targets=("nvidia-h100",)).diagnostics] == []


def test_no_padding_fix_when_the_array_size_does_not_follow_the_stride():
    text = next(c for c in CASES if c.name.startswith("P005:")).source.replace("array<f16, 16 * LD>",
                                                                              "array<f16, 1024>")
    [finding] = [d for d in findings(text) if d.code == "P005"]
    assert finding.fixes == ()


# ---------------------------------------------------------------- the run explains itself
def test_the_roofline_places_a_compute_bound_gemm_and_says_how_far_below_the_roof_it_is():
    roof = roofline_of(tflops=276.0, gbps=269.5, peak_fraction=276.0 / 989.4, memory_fraction=269.5 / 3350.0,
                       profile="nvidia-h100")
    assert roof["bound"] == "compute" and roof["ridge"] == pytest.approx(295.3, abs=0.1)
    assert roof["intensity"] == pytest.approx(1024, rel=0.01)
    assert roof["fraction_of_attainable"] == pytest.approx(276.0 / 989.4)
    assert "compute-bound" in describe(roof) and "27.9%" in describe(roof)
    memory = roofline_of(tflops=1.0, gbps=3000.0, peak_fraction=1 / 989.4, memory_fraction=3000 / 3350.0)
    # 1 TFLOP/s over 3000 GB/s is 1/3 FLOP/byte: the slope allows 3350 GB/s x 1/3 = 1.117 TFLOP/s.
    assert memory["bound"] == "memory" and memory["attainable_tflops"] == pytest.approx(3.35 / 3, rel=0.01)


def test_a_run_without_flops_or_bytes_says_what_the_roofline_is_missing():
    roof = roofline_of(tflops=None, gbps=None, peak_fraction=None, memory_fraction=None)
    text = describe(roof)
    assert "flops" in text and "bytes" in text and "run description" in text
    assert "bound" not in roof
    no_peaks = describe(roofline_of(tflops=1.0, gbps=2.0, peak_fraction=None, memory_fraction=None))
    assert "no device profile with peak figures" in no_peaks


def report(label_tflops: float, status: str = "correct") -> RunReport:
    r = RunReport(kernel="k.wgsl", status=status, tflops=label_tflops, gbps=label_tflops * 0.9766,
                  peak_fraction=label_tflops / 989.4, memory_fraction=label_tflops * 0.9766 / 3350.0,
                  peak_profile="nvidia-h100", adapter="NVIDIA H100 80GB HBM3",
                  timing={"median_ms": 1.0, "min_ms": 1.0, "max_ms": 1.0, "repetitions": 1, "warmup": 0,
                          "source": "GPU timestamps"})
    r.roofline = roofline_of(r.tflops, r.gbps, r.peak_fraction, r.memory_fraction, r.peak_profile)
    return r


def test_the_html_report_draws_every_variant_of_a_sweep_on_the_roofline():
    results = [SweepResult({"PAD": pad, "EXTRA": extra}, report(tflops))
               for (pad, extra), tflops in {(0, 1): 118.5, (0, 512): 117.5, (1, 1): 272.7, (1, 512): 177.4}.items()]
    page = sweep_page(results, "html", title="knobs")
    start = page.index('<svg xmlns="http://www.w3.org/2000/svg" class="roofline"')
    svg = ET.fromstring(page[start:page.index("</svg>", start) + len("</svg>")])
    ns = "{http://www.w3.org/2000/svg}"
    points = svg.findall(f"{ns}circle")
    assert sorted(p.get("data-label") for p in points) == sorted(r.label for r in results)
    assert float(svg.get("data-ridge")) == pytest.approx(295.3, abs=0.1)
    # Higher throughput is drawn higher up: y grows downwards in SVG.
    by_tflops = sorted(points, key=lambda p: float(p.get("data-tflops")))
    assert [float(p.get("cy")) for p in by_tflops] == sorted((float(p.get("cy")) for p in points), reverse=True)
    roof = svg.find(f"{ns}polyline")
    assert roof.get("class") == "roof" and len(roof.get("points").split()) == 3


def test_a_roofline_svg_is_well_formed_even_for_a_single_point():
    svg = ET.fromstring(roofline_svg([("only", 1024.0, 276.0, True)], 989.4, 3350.0))
    assert len(svg.findall("{http://www.w3.org/2000/svg}circle")) == 1


def test_explain_times_the_other_bounds_check_setting_and_lists_the_findings():
    first = report(272.0)
    first.backend, first.robustness = "dawn", False
    asked = []

    def rerun(robustness):
        asked.append(robustness)
        other = report(146.0)
        other.backend, other.robustness = "dawn", robustness
        other.timing = dict(other.timing, median_ms=1.86)
        return other

    first.lint = lint_source(NAIVE)  # the run's own lint of the kernel as it ran
    explanation = explain(first, rerun)
    assert asked == [True]
    assert explanation.bounds_checks == {"on_ms": 1.86, "off_ms": 1.0}
    text = explanation.render()
    assert "they cost 1.86x" in text
    assert {f["code"] for f in explanation.findings} == {"P001", "P002", "P007"}
    assert "P007 [info]" in text


def test_explain_without_a_profile_for_the_adapter_says_so():
    r = report(1.0)
    r.peak_profile, r.adapter, r.backend, r.emulated = "", "llvmpipe", "wgpu", True
    r.lint = lint_source(NAIVE)
    explanation = explain(r, lambda robustness: pytest.fail("no rerun on an emulation"))
    text = explanation.render()
    assert "no device profile names the adapter 'llvmpipe'" in text and explanation.findings == []


def test_the_editor_run_result_carries_the_same_findings():
    from coop_lsp.ide.explain import advice_markdown

    ran = report(28.7)
    ran.lint = lint_source(NAIVE)
    advice = advice_markdown(ran)
    assert advice.startswith("**Performance advice** (nvidia-h100")
    assert "P001 [warning]" in advice and "P007 [info]" in advice and "measured 1.9x slower" in advice
    failed = report(28.7, status="failed")
    failed.lint = ran.lint
    assert advice_markdown(failed) == ""


def test_a_real_run_without_flops_or_bytes_still_runs_and_the_roofline_says_what_is_missing(adapter, tmp_path):
    from coop_lsp.runner.description import parse_run_description
    from coop_lsp.runner.execute import run_kernel

    kernel = tmp_path / "k.wgsl"
    kernel.write_text("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
                      "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
                      "    c[i] = f32(i);\n}\n")
    description = parse_run_description(
        'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n'
        '[check]\nkind = "expression"\noutput = "c"\nexpected = "np.arange(4.0)"\n[timing]\nrepetitions = 2\n')
    report = run_kernel(kernel, description)
    assert report.status == "correct", report.render()
    text = report.render()
    assert "roofline: cannot place the run: flops: add flops" in text and "bytes: add bytes" in text
    assert report.to_json()["roofline"]["missing"]


def test_a_milder_bank_conflict_than_the_measured_one_is_information():
    text = next(c for c in CASES if c.name.startswith("P005:")).source.replace("const LD: u32 = 64u;",
                                                                              "const LD: u32 = 16u;")
    [finding] = [d for d in findings(text) if d.code == "P005"]
    assert finding.severity == Severity.INFO
    assert "up to 2 in one bank" in finding.message and "so expect less" in finding.message
    assert "the fewest rows to a bank a pair measured was 4" in finding.message


def test_explain_puts_the_measured_bounds_check_cost_on_p007():
    first = report(272.0)
    first.backend, first.robustness = "dawn", True

    def rerun(robustness):
        other = report(700.0)
        other.backend, other.robustness = "dawn", robustness
        other.timing = dict(other.timing, median_ms=0.38)
        return other

    first.lint = lint_source(NAIVE)
    [p007] = [f for f in explain(first, rerun).findings if f["code"] == "P007"]
    # The pairs' range, then what this kernel's own two runs measured.
    assert "measured on this kernel: 2.63x slower with bounds checks" in p007["message"]


WORKGROUP_STAGED = """\
enable f16;
enable chromium_experimental_subgroup_matrix;
const K: u32 = 256u;
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>, 4096>;
@group(0) @binding(1) var<storage, read_write> c: array<f32, 4096>;
var<workgroup> stage: array<f16, 1024>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_id) sg: u32) {
    var acc: subgroup_matrix_result<f32, 16, 16>;
    for (var k = 0u; k < K; k += 32u) {
        let v = a[lid + k];
        stage[lid * 4u] = v.x;
        workgroupBarrier();
        let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&stage, sg * 512u, 32u);
        let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage, 16u, 32u);
        acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
        workgroupBarrier();
    }
    subgroupMatrixStore<row_major>(&c, 0u, acc, 16u);
}
"""


def p007(text: str) -> list:
    from coop_lsp.lint.engine import findings_after_run

    return [d for d in findings_after_run(lint_source(text), "nvidia-h100") if d.code == "P007"]


def test_p007_sees_workgroup_memory_and_plain_indexing():
    # Fixed-size arrays everywhere (no runtime-sized storage): the rule used to say nothing. Dawn still
    # checks the matrix load at a computed offset and every index computed in the loop.
    [finding] = p007(WORKGROUP_STAGED)
    assert "matrix loads and stores on 'stage'" in finding.message
    assert "indexing of 'a', 'stage' in loops" in finding.message
    assert "bounds-checked on nvidia-h100" in finding.message


def test_p007_leaves_constant_offsets_and_indices_alone():
    text = WORKGROUP_STAGED.replace("let v = a[lid + k];", "let v = a[3u];") \
        .replace("stage[lid * 4u] = v.x;", "stage[5u] = v.x;").replace("(&stage, sg * 512u, 32u)", "(&stage, 0u, 32u)")
    assert p007(text) == []


def test_every_finding_on_the_fastest_example_quotes_a_range_that_holds_its_own_pair():
    # Issue 32: no finding on the project's fastest example that its own pairs do not support. Beside a run
    # gemm_pipelined gets P007 alone; its own pair (bounds checks on against off, 1.87x) lies in the quote.
    fastest = (ROOT / "examples" / "chromium" / "gemm_pipelined.wgsl").read_text()
    assert findings(fastest) == []
    found = findings(fastest, run=True)
    assert [d.code for d in found] == ["P007"]
    costs = shipped_profiles()["nvidia-h100"].performance["rule_costs"]
    for d in found:
        own = [p["slower"] for p in costs[d.code]["pairs"] if "gemm_pipelined" in (p.get("kernel") or p["slow"])]
        assert own, d.code
        low, high = (float(x) for x in re.search(r"measured ([\d.]+)x-([\d.]+)x", d.message).groups())
        assert all(low <= round(x, 1) <= high for x in own), (d.code, own, d.message)
