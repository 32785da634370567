"""U002 at the subgroup sizes the targets allow: lane-strided loops and branches whose split depends on
the subgroup size or on how invocations are numbered into subgroups (analysis/uniformity/splits.py).

Without targets every size WGSL allows counts (4 to 128); with targets only theirs; a pinned
`@subgroup_size(N)` only N. Divergence at every allowed size is an error, at some sizes or under some
mapping a warning that says which.
"""

from __future__ import annotations

from coop_lsp.core.diagnostic import Severity
from coop_lsp.lint import lint_source

HEADER = """enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
"""

STRIDED_BY_32 = HEADER + """@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var total = 0.0;
  for (var i = lane; i < 256u; i += 32u) {
    total += subgroupAdd(buf[i]);
  }
  buf[lane] = total;
}
"""

LANE_BELOW_16 = HEADER + """@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if lane < 16u {
    buf[lane] = subgroupAdd(buf[lane]);
  }
}
"""

FIRST_HALF = HEADER + """@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 32u {
    buf[li] = subgroupAdd(buf[li]);
  }
}
"""


def u002(text: str, targets=()):
    return [d for d in lint_source(text, targets=targets).diagnostics if d.code == "U002"]


def test_a_loop_strided_by_32_is_converged_where_every_target_runs_32_lanes_or_fewer():
    assert u002(STRIDED_BY_32, ("nvidia-h100",)) == []
    assert u002(STRIDED_BY_32, ("intel-arc", "apple-m")) == []


def test_the_same_loop_warns_where_a_target_may_run_64_lanes():
    (finding,) = u002(STRIDED_BY_32, ("nvidia-h100", "amd-rdna3"))
    assert finding.severity is Severity.WARNING
    assert "diverge at subgroup size 64 (the targets allow 32 and 64)" in finding.message
    notes = [r.message for r in finding.related]
    assert any("the start 'lane' reaches 63, not below the step 32" in n for n in notes), notes


def test_without_targets_every_size_wgsl_allows_counts():
    (finding,) = u002(STRIDED_BY_32)
    assert finding.severity is Severity.WARNING and "at subgroup sizes 64 and 128" in finding.message


def test_a_branch_on_lane_below_16_is_certain_on_32_lane_targets_and_absent_on_8_lane_ones():
    (finding,) = u002(LANE_BELOW_16, ("nvidia-h100",))
    assert finding.severity is Severity.ERROR
    assert u002(LANE_BELOW_16, ("lavapipe",)) == []
    (mixed,) = u002(LANE_BELOW_16, ("intel-arc",))  # 8 to 32 lanes
    assert mixed.severity is Severity.WARNING and "at subgroup size 32 (the targets allow 8, 16 and 32)" in mixed.message


def test_a_branch_on_the_first_half_of_the_workgroup_depends_only_on_the_mapping_at_32_lanes():
    (finding,) = u002(FIRST_HALF, ("nvidia-h100",))
    assert finding.severity is Severity.WARNING
    assert finding.message.startswith("'subgroupAdd' is called where lanes of one subgroup diverge only if "
                                      "invocations are not numbered into subgroups in order of "
                                      "local_invocation_index (WGSL does not promise an order)")
    (wide,) = u002(FIRST_HALF, ("amd-rdna3",))
    assert "at subgroup size 64, and at 32 if invocations are not numbered" in wide.message


def test_a_pinned_subgroup_size_is_the_only_size_that_counts():
    pinned = STRIDED_BY_32.replace("enable subgroups;", "enable subgroups;\nenable subgroup_size_control;").replace(
        "@compute @workgroup_size(64)", "@compute @workgroup_size(64) @subgroup_size(32)")
    assert u002(pinned) == []
    assert u002(pinned.replace("@subgroup_size(32)", "@subgroup_size(64)"))[0].severity is Severity.ERROR


def test_tints_own_error_stays_when_its_check_is_on():
    text = LANE_BELOW_16.replace("diagnostic(off, subgroup_uniformity);\n", "")
    codes = [d.code for d in lint_source(text).diagnostics]
    assert codes == ["U001"]


def test_a_loop_that_cannot_be_counted_stays_an_error_and_says_why():
    text = HEADER + """@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var s = 0.0;
  var c = lane;
  while (c < 32u) {
    s += subgroupShuffleDown(buf[c], 1u);
    c += 4u;
  }
  buf[lane] = s;
}
"""
    (finding,) = u002(text)
    assert finding.severity is Severity.ERROR
    notes = [r.message for r in finding.related]
    assert "the trip count may differ between lanes: it is not a loop coop-lint can count" in " ".join(notes)
    # The same as a countable for loop: at 4 lanes every lane starts below the step 4 and runs 8 times;
    # from 8 lanes on, lanes 4 and up start past it.
    counted = text.replace("var c = lane;\n  while (c < 32u) {", "for (var c = lane; c < 32u; c += 4u) {").replace(
        "    c += 4u;\n", "")
    (finding,) = u002(counted)
    assert finding.severity is Severity.WARNING and "at subgroup sizes 8, 16, 32, 64 and 128" in finding.message
    assert any("at 8 lanes the start 'lane' reaches 7, not below the step 4" in r.message for r in finding.related)
    (finding,) = u002(counted, ("nvidia-h100",))
    assert finding.severity is Severity.ERROR
