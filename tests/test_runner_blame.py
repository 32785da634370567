"""Blame for wrong results, on lavapipe (wgpu-native): planted bugs, each traced to the invocation and the
line that stored the wrong elements, or to the elements nobody stored; a correct kernel under --blame
reports nothing wrong. Matrix kernels run emulated, plain WGSL natively. Skips without an adapter."""

from __future__ import annotations

import json
import re
from pathlib import Path

from coop_lsp.cli.main import main as cli_main
from coop_lsp.runner.blame import instrument
from coop_lsp.runner.execute import run_kernel
from coop_lsp.runner.kernel import load_kernel

ROOT = Path(__file__).resolve().parent.parent
NAIVE = (ROOT / "examples" / "chromium" / "gemm_naive.wgsl").read_text()

# 64 invocations per workgroup, one element each; invocation 5 reads its neighbour's input.
PLAIN = """\
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let i = wg.x * 64u + lid;
    var src = i;
    if (lid == 5u) {
        src += 1u;
    }
    c[i] = a[src] * 2.0;
}
"""
PLAIN_RUN = """\
dispatch = [4, 1, 1]
[sizes]
N = 256
[[binding]]
binding = 0
type = "f32"
size = "N"
fill = "random"
seed = 3
[[binding]]
binding = 1
type = "f32"
size = "N"
[check]
kind = "expression"
output = "c"
expected = "a * 2"
[timing]
warmup = 0
repetitions = 1
"""
NAIVE_RUN = """\
dispatch = [1, 1, 1]
[sizes]
M = 32
N = 32
K = 32
[constants]
M = "M"
N = "N"
K = "K"
[[binding]]
binding = 0
type = "f16"
size = "M * K"
fill = "random"
seed = 1
[[binding]]
binding = 1
type = "f16"
size = "K * N"
fill = "random"
seed = 2
[[binding]]
binding = 2
type = "f32"
size = "M * N"
[check]
kind = "gemm"
[timing]
warmup = 0
repetitions = 1
"""
STORE_LINE = next(i for i, line in enumerate(NAIVE.splitlines(), 1) if "subgroupMatrixStore" in line)


def write(tmp_path: Path, name: str, kernel: str, run: str) -> Path:
    path = tmp_path / f"{name}.wgsl"
    path.write_text(kernel)
    (tmp_path / f"{name}.run.toml").write_text(run)
    return path


def blame_of(path: Path, blame: str = "on") -> dict:
    report = run_kernel(path, backend="emulate" if "subgroup_matrix" in path.read_text() else "wgpu", blame=blame)
    assert report.status in ("correct", "incorrect"), report.error
    return report


def test_one_lane_storing_the_wrong_element_is_named_with_its_line(adapter, tmp_path):
    report = blame_of(write(tmp_path, "lane", PLAIN, PLAIN_RUN), blame="failed")
    assert report.status == "incorrect"
    (out,) = report.blame["outputs"]
    store_line = PLAIN.splitlines().index("    c[i] = a[src] * 2.0;") + 1
    # Each workgroup's element 5, written by its invocation 5 at the store.
    assert out["wrong"] == 4 and out["wrong_unwritten"] == 0 and "unwritten" not in out
    written = out["writers"]
    assert {tuple(w["workgroup"]) for w in written} == {(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)}
    assert {w["line"] for w in written} == {store_line}
    assert all(w.get("invocation") == 5 or w.get("lanes") == [5] for w in written)
    assert {w["first"]["index"] for w in written} == {5, 69, 133, 197}
    assert f"lane.wgsl:{store_line}:5: c[i] = a[src] * 2.0  <- workgroup (0, 0, 0), invocation 5" in report.render()


def test_an_edge_tile_never_stored_is_named_as_unwritten(adapter, tmp_path):
    planted = NAIVE.replace("t < BLOCK_TILES_X * BLOCK_TILES_Y;", "t < BLOCK_TILES_X * BLOCK_TILES_Y - 1u;")
    assert planted != NAIVE
    report = blame_of(write(tmp_path, "edge", planted, NAIVE_RUN), blame="failed")
    assert report.status == "incorrect"
    (out,) = report.blame["outputs"]
    assert out["wrong"] == out["wrong_unwritten"] == 256
    assert out["unwritten"]["low"] == [16, 16] and out["unwritten"]["high"] == [31, 31]
    assert "never written: 256 wrong element(s) in rows 16..31, columns 16..31" in report.render()


def test_swapped_matrix_roles_on_a_square_configuration_blame_every_tile_at_the_store(adapter, tmp_path):
    swapped = (NAIVE.replace("(&a, row0 * K + k, K)", "(&SWAP_B, k * N + col0, N)")
               .replace("(&b, k * N + col0, N)", "(&a, row0 * K + k, K)").replace("SWAP_B", "b"))
    assert swapped != NAIVE
    report = blame_of(write(tmp_path, "swapped", swapped, NAIVE_RUN), blame="failed")
    assert report.status == "incorrect"
    (out,) = report.blame["outputs"]
    assert out["wrong_unwritten"] == 0 and out["wrong"] > 900
    # Four tiles of 16 x 16, one per subgroup of 32 lanes, each blamed on the store line as a whole tile.
    tiles = {(w["first"]["row"] // 16, w["first"]["column"] // 16): w for w in out["writers"]}
    assert set(tiles) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert {w["line"] for w in tiles.values()} == {STORE_LINE}
    assert {w["subgroup"] for w in tiles.values()} == {0, 1, 2, 3}
    assert all(w["kind"] == "subgroupMatrixStore" and w["lanes"] == [] for w in tiles.values())


def test_a_correct_kernel_under_blame_reports_nothing_wrong(adapter, tmp_path, capsys):
    path = write(tmp_path, "naive", NAIVE, NAIVE_RUN)
    code = cli_main(["run", str(path), "--backend", "emulate", "--blame", "--format", "json",
                     "--report", str(tmp_path / "page.html")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "correct"
    (blamed,) = out["blame"]["outputs"]
    assert blamed["wrong"] == 0 and blamed["written"] == blamed["elements"] == 1024
    assert [(s["line"], s["kind"]) for s in out["blame"]["sites"]] == [(STORE_LINE, "subgroupMatrixStore")]
    assert "<svg" in (tmp_path / "page.html").read_text()


def test_the_plain_kernel_json_names_the_store_site_for_an_editor(adapter, tmp_path, capsys):
    path = write(tmp_path, "lane", PLAIN, PLAIN_RUN)
    assert cli_main(["run", str(path), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    (site,) = out["blame"]["sites"]
    assert (site["line"], site["column"]) == (11, 5)
    first = out["blame"]["outputs"][0]["first"][0]
    assert first["index"] == 5 and first["writer"]["line"] == 11 and first["writer"]["workgroup"] == [0, 0, 0]


def test_instrumenting_places_a_tile_from_offset_stride_and_majorness():
    module = load_kernel(NAIVE)
    plan = instrument(module, "main", {"c": 1024 * 1024}, (32, 32, 1))
    assert re.search(r"subgroupMatrixStore<row_major>\(&c, row0 \* N \+ col0, acc, N\); \{ coop_blame_tile\(0u, 0u, "
                     r"1048576u, u32\(row0 \* N \+ col0\) \* 1u, u32\(N\) \* 1u, 16u, 16u, false\); \}", plan.text)
    assert load_kernel(plan.text).dialect == "chromium"  # still a valid kernel of its dialect


MATRIX_EXAMPLES = sorted(p for d in ("chromium", "standard", "wgpu") for p in (ROOT / "examples" / d).glob("*.wgsl"))


def test_every_instrumented_matrix_example_compiles_with_tint_as_dawn_runs_it(tint):
    from coop_lsp.runner.lowering import to_tint

    for path in MATRIX_EXAMPLES:
        module = load_kernel(path.read_text())
        outputs = {b.name: 1 << 20 for b in module.bindings if b.access in ("read_write", "write")}
        plan = instrument(module, module.entry_points[0].name, outputs, (8, 8, 1))
        assert any(s.kind != "store" for s in plan.sites), path.name  # its matrix stores are recorded
        result = tint.compile(to_tint(plan.text, load_kernel(plan.text)).text)
        assert result.failure is None and not result.errors, (path.name, [str(e) for e in result.errors][:2])
