"""U002 checked by running: the emulation counts, per subgroup and lane, the arrivals at every subgroup
and matrix call, and says whether the lanes of a subgroup diverged there.

Kernels are tiny (one or two workgroups) so that each run compiles in seconds on lavapipe; runs skip,
with the reason, where wgpu-native has no adapter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.runner.description import load_run_description, parse_run_description
from coop_lsp.runner.divergence import measure
from coop_lsp.runner.execute import run_kernel
from coop_lsp.runner.lowering import emulate

FIXTURES = Path(__file__).parent / "fixtures" / "divergence"


@pytest.fixture
def lavapipe(adapter):
    """The adapter, where it is lavapipe: these runs emulate its 8-lane subgroups, which a GPU whose subgroups
    are wider refuses for kernels that diverge (the emulation's barriers need uniform control flow)."""
    if "llvmpipe" not in adapter:
        pytest.skip(f"these runs emulate lavapipe's 8-lane subgroups; {adapter} has wider ones")
    return adapter


def _sites(report):
    return {(s.name, s.line): s for s in report.sites}


def test_a_call_u002_names_is_measured_diverged_and_the_call_after_the_branch_uniform(lavapipe):
    report = measure(FIXTURES / "lane_parity.wgsl")
    assert report.error == ""
    sites = _sites(report)
    inside, after = sites[("subgroupAdd", 12)], sites[("subgroupMax", 14)]
    assert inside.u002_kind == "control flow" and inside.verdict == "diverged"
    # every subgroup of both workgroups diverged there
    assert inside.diverged == inside.reached == 2 * 64 // report.subgroup_size
    assert after.u002 == "" and after.verdict == "uniform"


def test_a_loop_from_lane_mod_4_by_4_to_32_never_diverges_and_u002_stays_quiet(adapter):
    report = measure(FIXTURES / "loop_lane_mod4.wgsl")
    assert report.error == ""
    assert [(s.name, s.u002_kind, s.verdict) for s in report.sites] == [
        ("subgroupMatrixScalarAdd", "", "uniform"), ("subgroupMatrixStore", "", "uniform")]


def test_the_same_loop_to_30_diverges_where_u002_says_so(adapter):
    path = FIXTURES / "loop_lane_mod4.wgsl"
    text = path.read_text().replace("const BOUND = 32u;", "const BOUND = 30u;")
    report = measure(path, load_run_description(FIXTURES / "loop_lane_mod4.run.toml"), text=text)
    add, store = report.sites
    assert add.u002_kind == "control flow" and add.verdict == "diverged"
    # The store is flagged for its argument (a matrix built by diverged lanes), which every lane
    # reaches together: arrivals do not measure that kind.
    assert store.u002_kind == "argument" and store.verdict == "uniform"


def test_the_trace_does_not_change_the_kernels_results(lavapipe):
    report = measure(FIXTURES / "lane_parity.wgsl", parse_run_description(LANE_PARITY_CHECKED))
    assert report.status == "correct"


# lane_parity at subgroup size 8 (lavapipe's): the even lanes of each 8 hold the sum of their own values
# (0 + 2 + 4 + 6 in the first 8), the odd lanes their own; the maximum over the 8 lanes is written.
LANE_PARITY_CHECKED = """dispatch = [2]
[[binding]]
binding = 0
type = "f32"
size = 64
[check]
kind = "expression"
output = "out"
expected = "np.repeat(np.maximum(np.arange(64).reshape(8, 8)[:, 0::2].sum(axis=1), np.arange(64).reshape(8, 8)[:, 7]), 8)"
"""


ALIASED_ELEMENT = """enable chromium_experimental_subgroup_matrix;
alias Element = f32;
alias Result = subgroup_matrix_result<Element, 8, 8>;
const TILES = 2u;
@group(0) @binding(0) var<storage, read_write> out: array<f32, 128>;
@compute @workgroup_size(32)
fn main() {
    var acc: array<Result, TILES>;
    for (var t = 0u; t < TILES; t++) {
        acc[t] = subgroupMatrixScalarAdd(acc[t], f32(t + 1u));
        subgroupMatrixStore<row_major>(&out, t * 64u, acc[t], 8u);
    }
}
"""
ALIASED_RUN = """dispatch = [1]
[[binding]]
binding = 0
type = "f32"
size = 128
[check]
kind = "expression"
output = "out"
expected = "np.repeat(np.array([1.0, 2.0]), 64)"
"""


def test_a_matrix_element_named_through_an_alias_is_emulated_by_its_type():
    # naga gives array<Element, n> a type of its own, which the helpers' array<f32, n> does not match.
    lowered = emulate(ALIASED_ELEMENT, 32)
    assert "alias Result = array<f32, " in lowered.text


def test_a_matrix_element_named_through_an_alias_runs(adapter):
    report = run_kernel("aliased.wgsl", parse_run_description(ALIASED_RUN), backend="emulate", text=ALIASED_ELEMENT)
    assert report.status == "correct", report.error


# Each class of splits.py, run on lavapipe (8 lanes, its only subgroup size: the emulation runs other
# sizes only where control flow is uniform across the workgroup, which these loops and branches are
# not). With the lavapipe target the one allowed size is 8, so the static verdict there must be the
# run's: a U002 error where the lanes diverged, none where they did not.
SPLIT_CLASSES = {
    # name: (the loop or branch around `total += subgroupAdd(buf[i]);`, diverges at 8 lanes)
    "ggml_flash_attn_vec_loop": ("let nl = 4u;\n    let tx = lane % nl;\n    for (var i = tx; i < 32u; i += nl) {", False),
    "lane_strided_by_subgroup_size": ("for (var i = lane; i < 64u; i += sg_size) {", False),
    "lane_strided_by_32": ("for (var i = lane; i < 256u; i += 32u) {", False),
    "lane_strided_past_a_multiple": ("for (var i = lane; i < 36u; i += sg_size) {", True),
    "branch_on_lane_below_16": ("let i = lane;\n    if lane < 16u {", False),
    "branch_on_lane_below_4": ("let i = lane;\n    if lane < 4u {", True),
    "branch_on_first_half_of_workgroup": ("let i = li;\n    if li < 32u {", False),
    "branch_on_first_30_invocations": ("let i = li;\n    if li < 30u {", True),
    "branch_on_local_x_below_32": ("let i = lid.x;\n    if lid.x < 32u {", False),
    "branch_on_local_x_above_29": ("let i = lid.x;\n    if lid.x > 29u {", True),
    "branch_on_global_x_at_least_40": ("let i = gid.x;\n    if gid.x >= 40u {", False),
    "branch_on_global_x_below_37": ("let i = gid.x;\n    if gid.x < 37u {", True),
    "loop_from_local_x_by_64_through_255": ("for (var i = lid.x; i <= 255u; i += 64u) {", False),
    "loop_from_local_x_by_64_through_256": ("for (var i = lid.x; i <= 256u; i += 64u) {", True),
    "loop_from_global_x_by_64": ("for (var i = gid.x; 256u > i; i += 64u) {", False),
}
SPLIT_KERNEL = """enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32, 512>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) sg_size: u32,
        @builtin(local_invocation_index) li: u32, @builtin(local_invocation_id) lid: vec3u,
        @builtin(global_invocation_id) gid: vec3u) {
    var total = 0.0;
    OPEN
        total += subgroupAdd(buf[i]);
    }
    buf[256u + li] = total;
}
"""
SPLIT_RUN = """dispatch = [1]
[[binding]]
binding = 0
type = "f32"
size = 512
fill = "random"
range = [-1, 1]
seed = 1
"""


@pytest.mark.parametrize("name", list(SPLIT_CLASSES))
def test_each_split_class_is_judged_at_lavapipes_size_as_the_run_finds(name, lavapipe, tmp_path):
    from coop_lsp.core.diagnostic import Severity
    from coop_lsp.lint import lint_source

    opening, diverges = SPLIT_CLASSES[name]
    text = SPLIT_KERNEL.replace("OPEN", opening)
    path = tmp_path / f"{name}.wgsl"
    path.write_text(text)
    report = measure(path, parse_run_description(SPLIT_RUN), subgroup_size=8)
    assert report.error == "" and report.subgroup_size == 8
    (site,) = report.sites
    assert site.verdict == ("diverged" if diverges else "uniform")
    errors = [d for d in lint_source(text, targets=("lavapipe",)).diagnostics
              if d.code == "U002" and d.severity is Severity.ERROR]
    assert bool(errors) == diverges, [d.message for d in errors]
    # The run's own U002 is judged at the size it ran (8): a claim only where the lanes diverged, or one
    # that says it depends on the mapping.
    assert bool(site.u002) == diverges or "if invocations are not numbered" in site.u002, site.u002
