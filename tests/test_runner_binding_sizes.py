"""The subgroup-matrix minimum binding size (gpuweb #6310/#6334): a run whose buffer is too small is refused."""

from __future__ import annotations

import pytest

from coop_lsp.runner.binding_sizes import matrix_accesses
from coop_lsp.runner.description import RunDescriptionError, parse_run_description
from coop_lsp.runner.execute import _inputs
from coop_lsp.runner.kernel import load_kernel

KERNEL = """
enable f16;
enable {enable};
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main() {{
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 8>, row_major>(&a, 0u, 16u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, 0u, 16u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroup_matrix_result<f32, 16, 8>(), 16u);
}}
"""

DESCRIPTION = """
dispatch = [1]
[[binding]]
binding = 0
type = "f16"
size = {a}
fill = "random"
[[binding]]
binding = 1
type = "f32"
size = {c}
"""


def test_each_load_and_store_names_its_binding_and_matrix():
    module = load_kernel(KERNEL.format(enable="chromium_experimental_subgroup_matrix"))
    assert [(x.binding, x.call, x.bytes) for x in matrix_accesses(module)] == [
        (0, "subgroupMatrixLoad", 16 * 8 * 2), (0, "subgroupMatrixLoad", 16 * 16 * 2),
        (1, "subgroupMatrixStore", 16 * 8 * 4)]


@pytest.mark.parametrize("enable", ["chromium_experimental_subgroup_matrix", "subgroup_matrix"])
def test_a_buffer_below_the_minimum_binding_size_is_refused_with_both_sizes(enable):
    module = load_kernel(KERNEL.format(enable=enable))
    # a: the largest tile read from it is 16 x 16 f16 = 512 bytes; 255 halves are 510 bytes.
    with pytest.raises(RunDescriptionError) as info:
        _inputs(parse_run_description(DESCRIPTION.format(a=255, c=128)), module)
    message = str(info.value)
    # Dawn: "Binding size (256) of [Buffer (unlabeled)] is smaller than the minimum binding size (512)".
    assert message.startswith("binding[0].size: the binding size of 'a' (510 bytes: 255 x f16) is smaller than "
                              "the minimum binding size (512)")
    assert "16x16 f16 matrix, 16 x 16 x 2 bytes" in message and "#6310" in message


def test_a_buffer_of_exactly_the_minimum_size_runs():
    module = load_kernel(KERNEL.format(enable="chromium_experimental_subgroup_matrix"))
    arrays, _ = _inputs(parse_run_description(DESCRIPTION.format(a=256, c=128)), module)
    assert arrays["a"].size == 256 and arrays["c"].size == 128


def test_the_result_buffer_is_checked_too():
    module = load_kernel(KERNEL.format(enable="chromium_experimental_subgroup_matrix"))
    with pytest.raises(RunDescriptionError, match=r"binding\[1\]\.size: the binding size of 'c' \(508 bytes.*minimum binding size \(512\)"):
        _inputs(parse_run_description(DESCRIPTION.format(a=256, c=127)), module)
