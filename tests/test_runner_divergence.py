"""U002 checked by running: the emulation counts, per subgroup and lane, the arrivals at every subgroup
and matrix call, and says whether the lanes of a subgroup diverged there.

Kernels are tiny (one or two workgroups) so that each run compiles in seconds on lavapipe; runs skip,
with the reason, where wgpu-native has no adapter.
"""

from __future__ import annotations

from pathlib import Path

from coop_lsp.runner.description import load_run_description, parse_run_description
from coop_lsp.runner.divergence import measure
from coop_lsp.runner.execute import run_kernel
from coop_lsp.runner.lowering import emulate

FIXTURES = Path(__file__).parent / "fixtures" / "divergence"


def _sites(report):
    return {(s.name, s.line): s for s in report.sites}


def test_a_call_u002_names_is_measured_diverged_and_the_call_after_the_branch_uniform(adapter):
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


def test_the_trace_does_not_change_the_kernels_results(adapter):
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
