"""Subgroup sizes against the targets (issue 24, item 7): D010 checks a pinned @subgroup_size against each
target's range; D011 flags lane arithmetic that assumes one size where a target may choose another."""

from __future__ import annotations

from coop_lsp.lint import lint_source

ASSUMES_32 = """enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) index: u32, @builtin(local_invocation_id) local: vec3<u32>) {
  let thread = index;
  let lane = thread % 32u;
  let subgroup = local.x / 32u;
  out[index] = subgroupAdd(f32(lane + subgroup));
}
"""


def codes(text, *targets):
    return [(d.code, d.message, text[d.span.start:d.span.end]) for d in lint_source(text, targets=targets).diagnostics
            if d.code.startswith("D")]


def test_lane_arithmetic_with_32_is_flagged_where_a_target_may_run_16_lanes():
    found = codes(ASSUMES_32, "intel-arc")
    assert [(code, where) for code, _, where in found] == [("D011", "thread % 32u"), ("D011", "local.x / 32u")]
    assert "assumes 32-lane subgroups" in found[0][1] and "8 to 32 lanes" in found[0][1]
    assert "@subgroup_size(32)" in found[0][1]


def test_a_target_with_one_size_that_matches_is_quiet():
    assert codes(ASSUMES_32, "nvidia-h100") == []


def test_without_subgroup_operations_the_arithmetic_is_tiling_not_lanes():
    plain = ASSUMES_32.replace("subgroupAdd(f32(lane + subgroup))", "f32(lane + subgroup)").replace(
        "enable subgroups;\n", "")
    assert codes(plain, "intel-arc") == []


def test_pinning_the_size_the_arithmetic_assumes_silences_it_and_is_checked_against_each_target():
    pinned = ASSUMES_32.replace("enable subgroups;", "enable subgroups;\nenable subgroup_size_control;").replace(
        "@workgroup_size(64)", "@workgroup_size(64) @subgroup_size(32)")
    assert codes(pinned, "intel-arc", "nvidia-h100") == []
    wide = pinned.replace("@subgroup_size(32)", "@subgroup_size(64)")
    found = codes(wide, "intel-arc", "nvidia-h100", "amd-rdna3")
    d010 = [(message, where) for code, message, where in found if code == "D010"]
    assert [where for _, where in d010] == ["@subgroup_size(64)"] * 2
    assert "is not a subgroup size intel-arc" in d010[0][0] and "(8 to 32 lanes)" in d010[0][0]
    assert "nvidia-h100" in d010[1][0] and "(32 lanes)" in d010[1][0]
