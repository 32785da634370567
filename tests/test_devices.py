"""Device profiles and the configuration checks against them; no GPU needed."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from coop_lsp.core.diagnostic import Severity
from coop_lsp.devices.live import run_query
from coop_lsp.devices.profiles import ProfileError, load_profile, parse_profile, resolve_targets, shipped_profiles
from coop_lsp.lint import lint_source

ROOT = Path(__file__).resolve().parent.parent

KERNEL = textwrap.dedent("""\
    enable chromium_experimental_subgroup_matrix;
    enable f16;
    @group(0) @binding(0) var<storage, read> A: array<f16>;
    @group(0) @binding(1) var<storage, read> B: array<f16>;
    @group(0) @binding(2) var<storage, read_write> C: array<f32>;
    @compute @workgroup_size({x})
    fn main() {{
      let a = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, 0u, 16u);
      let b = subgroupMatrixLoad<subgroup_matrix_right<f16, {n}, 16>, row_major>(&B, 0u, {n}u);
      var c = subgroup_matrix_result<f32, {n}, 16>();
      c = subgroupMatrixMultiplyAccumulate(a, b, c);
      subgroupMatrixStore<row_major>(&C, 0u, c, {n}u);
    }}
    """)


def codes(text: str, *targets: str) -> list[tuple[str, str]]:
    result = lint_source(text, targets=targets)
    return [(d.code, d.message) for d in result.diagnostics]


def test_every_shipped_profile_says_where_it_comes_from():
    profiles = shipped_profiles()
    assert {"nvidia-h100", "nvidia-ampere", "nvidia-ada", "amd-rdna3", "intel-arc", "apple-m", "lavapipe"} <= set(profiles)
    for profile in profiles.values():
        assert profile.sources, profile.name
        if profile.origin == "captured":
            assert profile.captured.get("date") and profile.captured.get("driver"), profile.name


def test_the_h100_profile_is_what_dawn_reported_on_the_h100():
    live = json.loads((ROOT / "benchmarks" / "results" / "live_query_nvidia-h100.json").read_text())
    profile = shipped_profiles()["nvidia-h100"]
    assert profile.origin == "captured"
    assert sorted((c.component, c.result, c.m, c.n, c.k) for c in profile.configs) == \
        sorted(tuple(c) for c in live["comparison"]["dawn"])
    # Vulkan's list has one more (bf16), which WGSL cannot express; nothing else differs.
    vulkan = live["comparison"]["NVIDIA H100 80GB HBM3"]
    assert vulkan["in_dawn_not_vulkan"] == []
    assert vulkan["in_vulkan_not_dawn"] == [["bf16", "f32", 16, 16, 16]]


def test_a_kernel_that_passes_on_one_target_and_fails_on_another():
    text = KERNEL.format(x=32, n=16)
    assert codes(text, "nvidia-h100") == []
    failures = codes(text, "apple-m")
    assert [code for code, _ in failures] == ["D001"]
    assert "f16 x f16 -> f32 at M=16, N=16, K=16 is not offered by apple-m" in failures[0][1]
    assert "nearest: f16 -> f32 at M=8, N=8, K=8" in failures[0][1]


def test_a_shape_no_target_has_names_the_one_change_that_fits():
    text = KERNEL.format(x=32, n=12)
    (code, message), = codes(text, "nvidia-h100")
    assert code == "D001"
    assert "changing N from 12 to 16 would fit" in message or "changing N from 12 to 8 would fit" in message


def test_every_target_at_once():
    text = KERNEL.format(x=32, n=16)
    failing = {message.split(" is not offered by ")[1].split(" ")[0]
               for code, message in codes(text, "nvidia-h100", "amd-rdna3", "intel-arc", "apple-m") if code == "D001"}
    assert failing == {"intel-arc", "apple-m"}


def test_partial_subgroups_and_missing_features():
    # Dawn's pipeline creation (wgpudawn 0.32, Null backend, maxSubgroupSize 128): "The x-dimension of
    # workgroup_size (32) must be a multiple of the device maxSubgroupSize (128) when the shader uses a
    # subgroup matrix".
    found = codes(KERNEL.format(x=48, n=16), "nvidia-h100")
    assert [code for code, _ in found] == ["D002"]
    assert "the x-dimension of workgroup_size (48) must be a multiple of the device maxSubgroupSize (32" in found[0][1]
    lavapipe = [code for code, _ in codes(KERNEL.format(x=32, n=16), "lavapipe")]
    assert lavapipe == ["D003"]


def test_an_unknown_target_is_reported_and_the_other_checks_still_run():
    text = KERNEL.format(x=32, n=16).replace("enable f16;\n", "")
    found = [code for code, _ in codes(text, "no-such-gpu", "apple-m")]
    assert "D005" in found and "T007" in found and "D001" in found


def test_a_corrupt_or_foreign_profile_gives_a_message_naming_the_file(tmp_path):
    folder = tmp_path / ".coop-lint" / "devices"
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text("{ not json")
    (folder / "foreign.json").write_text(json.dumps({"format": "something-else"}))
    profiles, problems = resolve_targets(("nvidia-h100",), tmp_path)
    assert [p.name for p in profiles] == ["nvidia-h100"]
    assert any("broken.json" in p and "not valid JSON" in p for p in problems)
    assert any("foreign.json" in p and "format" in p for p in problems)
    with pytest.raises(ProfileError, match="matrix_configs\\[0\\].m"):
        parse_profile({**shipped_profiles()["nvidia-h100"].to_json(),
                       "matrix_configs": [{"component": "f16", "result": "f32", "m": 0, "n": 8, "k": 8}]}, "x.json")


def test_a_saved_project_profile_is_a_target(tmp_path):
    folder = tmp_path / ".coop-lint" / "devices"
    folder.mkdir(parents=True)
    mine = {**shipped_profiles()["apple-m"].to_json(), "name": "my-gpu", "matrix_configs": [
        {"component": "f16", "result": "f32", "m": 16, "n": 16, "k": 16}]}
    (folder / "my-gpu.json").write_text(json.dumps(mine))
    assert load_profile(folder / "my-gpu.json").name == "my-gpu"
    result = lint_source(KERNEL.format(x=32, n=16), targets=("my-gpu",), project=tmp_path)
    assert result.diagnostics == []


def test_a_hanging_driver_query_is_stopped():
    result = run_query("tests.support.slow_query", timeout_s=1)
    assert result.data is None and "did not finish within 1 s" in result.problem


def test_a_crashing_driver_query_is_reported():
    result = run_query("tests.support.crashing_query", timeout_s=20)
    assert result.data is None and "failed" in result.problem


def test_the_cli_lists_profiles_and_checks_targets(tmp_path, capsys):
    from coop_lsp.cli.main import main

    assert main(["devices", "--no-query"]) == 0
    listing = capsys.readouterr().out
    assert "nvidia-h100    captured" in listing and "apple-m        documented" in listing
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(KERNEL.format(x=32, n=16))
    assert main(["--no-source", "-q", "--target", "nvidia-h100", str(kernel)]) == 0
    assert main(["--no-source", "-q", "--target", "apple-m", str(kernel)]) == 1
    assert "D001" in capsys.readouterr().out


def test_a_partial_subgroup_is_an_error_in_the_subgroup_matrix_dialects():
    # The gpuweb draft (proposals/subgroup-matrix.md, "Attributes"): workgroup_size.x must be a multiple of
    # the adapter's subgroupMaxSize in a shader that uses subgroup matrices, or pipeline creation fails.
    text = KERNEL.format(x=48, n=16).replace("chromium_experimental_subgroup_matrix", "subgroup_matrix")
    result = lint_source(text, targets=("nvidia-h100",))
    partial = [d for d in result.diagnostics if d.code == "D002"]
    assert len(partial) == 1 and partial[0].severity == Severity.ERROR
    assert "workgroup_size (48) must be a multiple of the device maxSubgroupSize (32" in partial[0].message
    assert "subgroup_matrix draft" in partial[0].message
    assert [d.code for d in lint_source(KERNEL.format(x=64, n=16).replace(
        "chromium_experimental_subgroup_matrix", "subgroup_matrix"), targets=("nvidia-h100",)).diagnostics
        if d.code == "D002"] == []
