"""`coop-lint run --set/--sweep/--report`, the report page, timing agreement and peaks from profiles.

The sweep's end-to-end test runs the plain tiled kernel natively on wgpu-native
(lavapipe in CI) and skips without an adapter; everything else needs no GPU.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coop_lsp.cli.main import main as cli_main
from coop_lsp.devices.profiles import ProfileError, parse_profile, shipped_profiles
from coop_lsp.runner import execute
from coop_lsp.runner.description import RunDescriptionError, load_run_description
from coop_lsp.runner.execute import RunReport
from coop_lsp.runner.sweep import (SweepError, SweepResult, fastest, parse_assignment, sweep_axes, sweep_page,
                                   sweep_table, throughput_chart)

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "examples" / "runs"


def report(status: str, ms: float | None, tflops: float | None = None) -> RunReport:
    r = RunReport(kernel="k.wgsl", status=status, backend="dawn", adapter="NVIDIA H100 80GB HBM3")
    if ms is not None:
        r.timing = {"median_ms": ms, "min_ms": ms, "max_ms": ms, "repetitions": 1, "warmup": 0, "source": "GPU"}
    r.tflops = tflops
    return r


# ------------------------------------------------------------------ arguments
def test_sweep_is_the_product_of_its_axes_last_fastest():
    assert sweep_axes(["BM=64,128", "BK=16,32"]) == [
        {"BM": 64, "BK": 16}, {"BM": 64, "BK": 32}, {"BM": 128, "BK": 16}, {"BM": 128, "BK": 32}]
    assert sweep_axes([]) == [{}]


@pytest.mark.parametrize("argument, message", [
    ("BM", "expected NAME=V1,V2,..."),
    ("BM=", "the values must be integers"),
    ("BM=64,x", "the values must be integers"),
    ("1x=4", "expected NAME=V1,V2,..."),
])
def test_malformed_sweep_arguments_say_what_is_wrong(argument, message):
    with pytest.raises(SweepError, match=message):
        sweep_axes([argument])


def test_an_axis_swept_twice_is_refused():
    with pytest.raises(SweepError, match="BM is swept twice"):
        sweep_axes(["BM=64", "BM=128"])


def test_set_takes_exactly_one_value():
    assert parse_assignment("M=0x100", many=False) == ("M", [256])
    with pytest.raises(SweepError, match="expected one value"):
        parse_assignment("M=1,2", many=False)


# ------------------------------------------------------------------ sizes
def test_set_sizes_flow_into_constants_dispatch_and_bindings():
    d = load_run_description(RUNS / "gemm_tiled_4x4.run.toml", size_values={"M": 256, "BN": 128})
    assert d.constants["M"] == 256 and d.constants["BN"] == 128
    assert d.dispatch == (4096 // 128, 256 // 128, 1)
    assert d.bindings[0].size == 256 * 4096
    assert d.flops == 2.0 * 256 * 4096 * 4096


def test_setting_an_unknown_size_names_the_known_ones():
    with pytest.raises(RunDescriptionError, match=r"sizes\.Q: not a size of this description \(sizes: M, N, K"):
        load_run_description(RUNS / "gemm_tiled_4x4.run.toml", size_values={"Q": 1})


def test_device_toggles_must_be_names():
    text = (RUNS / "gemm_naive.run.toml").read_text() + '\n[device]\ntoggles = ["disable workgroup init"]\n'
    path = RUNS / "gemm_naive.run.toml"
    from coop_lsp.runner.description import parse_run_description
    with pytest.raises(RunDescriptionError, match="device.toggles: expected a list of Dawn device toggle names"):
        parse_run_description(text, path)


# ------------------------------------------------------------------ table and page
def test_table_marks_the_fastest_correct_variant_not_the_fastest_wrong_one():
    results = [SweepResult({"BM": 64}, report("correct", 2.0, 50.0)),
               SweepResult({"BM": 128}, report("incorrect", 0.5, 200.0)),
               SweepResult({"BM": 256}, report("correct", 1.0, 100.0))]
    assert fastest(results) is results[2]
    lines = sweep_table(results).splitlines()
    assert lines[3].startswith("BM=256") and lines[3].endswith("fastest")
    assert not lines[2].endswith("fastest")


def test_chart_is_svg_with_a_bar_per_variant_and_reference_lines():
    results = [SweepResult({"BN": 64}, report("correct", 2.0, 50.0)),
               SweepResult({"BN": 128}, report("failed", None))]
    svg = ET.fromstring(throughput_chart(results, {"cuBLAS": 700.0}, peak=989.4))
    ns = "{http://www.w3.org/2000/svg}"
    assert len(svg.findall(f"{ns}rect")) == 2
    texts = [t.text for t in svg.iter(f"{ns}text")]
    assert "cuBLAS 700" in texts and "device peak 989" in texts and "failed" in texts


def test_html_page_escapes_what_it_shows():
    r = report("failed", None)
    r.error = "<script>alert(1)</script>"
    page = sweep_page([SweepResult({"BM": 64}, r)], "html", title="t<1>")
    assert "<script>" not in page and "&lt;script&gt;" in page and "<title>t&lt;1&gt;</title>" in page


# ------------------------------------------------------------------ timing and peaks
def _desc():
    return load_run_description(RUNS / "gemm_tiled_4x4.run.toml")


def test_timestamps_are_checked_against_the_host_clock():
    r = report("correct", None)
    execute._timing(r, {"gpu_ms": [1.00, 1.02, 0.98], "independent": {"dispatches": 50, "wall_ms": 52.0}},
                    _desc(), [])
    assert r.timing["source"] == "GPU timestamps" and r.timing["median_ms"] == 1.0
    assert r.timing["independent_ms"] == pytest.approx(1.04)
    assert r.timing["agreement"] == pytest.approx(0.04 / 1.04)
    assert "agrees with the timestamps (3.8% apart)" in r.render()
    r2 = report("correct", None)
    execute._timing(r2, {"gpu_ms": [1.0], "independent": {"dispatches": 10, "wall_ms": 12.0}}, _desc(), [])
    assert "DISAGREES with the timestamps (16.7% apart)" in r2.render()


def test_without_timestamps_the_host_clock_batch_is_the_timing():
    r = report("correct", None)
    execute._timing(r, {"gpu_ms": [], "independent": {"dispatches": 20, "wall_ms": 30.0}}, _desc(), [])
    assert r.timing["median_ms"] == 1.5 and "wall clock over 20 back-to-back dispatches" in r.timing["source"]
    assert "independent_ms" not in r.timing


def test_throughput_is_given_as_a_fraction_of_the_profiles_peak():
    d = _desc()
    bindings = [(b, None, name, None) for b, name in zip(d.bindings, ("a", "b", "c"))]
    r = report("correct", None)
    execute._timing(r, {"gpu_ms": [1.0]}, d, bindings)
    h100 = shipped_profiles()["nvidia-h100"]
    assert r.peak_profile == "nvidia-h100"
    assert r.peak_fraction == pytest.approx(r.tflops / h100.peak_tflops["f16"])
    assert "of the matrix peak" in r.render() and "(peaks from the nvidia-h100 profile" in r.render()
    unknown = report("correct", None)
    unknown.adapter = "Some Other GPU"
    execute._timing(unknown, {"gpu_ms": [1.0]}, d, bindings)
    assert unknown.peak_fraction is None and "of the matrix peak" not in unknown.render()


def test_profile_peaks_are_validated():
    base = json.loads((ROOT / "coop_lsp/devices/profiles/nvidia-h100.json").read_text())
    base["peak"] = {"tflops": {"f17": 1.0}}
    with pytest.raises(ProfileError, match="peak.tflops: expected positive numbers keyed by element type"):
        parse_profile(base, "x.json")
    base["peak"] = {"tflops": {"f16": 1.0}, "memory_gbps": -1}
    with pytest.raises(ProfileError, match="peak.memory_gbps: expected a positive number"):
        parse_profile(base, "x.json")


# ------------------------------------------------------------------ end to end
def test_cli_sweep_runs_each_variant_and_writes_the_report(adapter, tmp_path, capsys):
    page = tmp_path / "sweep.html"
    code = cli_main(["run", str(ROOT / "examples/plain/gemm_tiled_f32.wgsl"), "--run",
                     str(RUNS / "gemm_tiled_f32.run.toml"), "--set", "K=16", "--sweep", "M=16,40",
                     "--report", str(page)])
    captured = capsys.readouterr()
    assert code == 0, captured
    rows = captured.out.splitlines()
    assert rows[0].split()[:2] == ["variant", "status"]
    assert [r.split()[0] for r in rows[1:3]] == ["M=16", "M=40"] and all(" correct " in r for r in rows[1:3])
    assert sum(r.endswith("fastest") for r in rows) == 1
    assert "[2/2] M=40" in captured.err
    html = page.read_text()
    assert html.startswith("<!doctype html>") and "<svg" in html and "Fastest correct variant" in html
