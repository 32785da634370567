"""The semantic model answers what the layers above ask: what each call calls, and each entry point's
stage and workgroup size (issue 36, item 3). The uniformity analysis and the runner read these instead
of looking names up or evaluating attributes again."""

from __future__ import annotations

import pytest

from coop_lsp.lint import lint_source
from coop_lsp.runner.kernel import KernelError
from coop_lsp.runner.lowering import emulate
from coop_lsp.semantic.model import CallTarget

KERNEL = """enable f16;
enable chromium_experimental_subgroup_matrix;
const TILE = 4;
@group(0) @binding(0) var<storage, read_write> a: array<f16>;
fn helper(x: u32) -> u32 { return x * 2u; }
@compute @workgroup_size(TILE * 8, 1 + 1) fn main(@builtin(local_invocation_index) lid: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&a, 0u, false, 8u);
  let n = max(lid, helper(lid));
  let v = vec2<u32>(n, 1u);
  workgroupBarrier();
}
"""


def _targets(text: str) -> dict[str, object]:
    model = lint_source(text).model
    data = text.encode()
    found = {}
    for (start, end) in [key for key, _ in model.builtin_calls()] + [key for key, _ in model.references()]:
        found[data[start:end].decode()] = model.call_target(start, end)
    return found


def test_a_call_records_what_it_resolved_to() -> None:
    targets = _targets(KERNEL)
    load, maximum, barrier = targets["subgroupMatrixLoad"], targets["max"], targets["workgroupBarrier"]
    assert isinstance(load, CallTarget) and load.dialect == "chromium" and load.available
    assert load.builtin.name == "subgroupMatrixLoad" and load.overload in load.builtin.overloads
    assert isinstance(maximum, CallTarget) and maximum.dialect is None and maximum.overload is not None
    assert isinstance(barrier, CallTarget) and barrier.builtin.uniformity == "barrier"
    assert targets["helper"].kind == "function"  # a user function: its Symbol
    assert targets["lid"] is None and targets["TILE"] is None  # names that are not called


def test_a_type_constructor_is_no_call_target() -> None:
    model = lint_source(KERNEL).model
    start = KERNEL.index("vec2<u32>(")
    assert model.call_target(start, start + len("vec2")) is None
    assert all(KERNEL.encode()[s:e] != b"vec2" for (s, e), _ in model.builtin_calls())


def test_a_builtin_of_another_dialect_is_recorded_unavailable() -> None:
    text = """enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@compute @workgroup_size(64) fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&a, 0u, false, 8u);
}
"""
    result = lint_source(text)
    assert any(d.code == "T001" for d in result.diagnostics)
    (target,) = [target for _, target in result.model.builtin_calls()]
    assert target.builtin.name == "subgroupMatrixLoad" and not target.available


def test_entry_point_facts() -> None:
    model = lint_source(KERNEL).model
    (main,) = [s for s in model.symbols if s.kind == "function" and s.stage is not None]
    assert main.stage == "compute"
    assert main.workgroup_size == (32, 2, 1)  # evaluated: TILE * 8 and 1 + 1
    assert [KERNEL[s.start:s.end] for s in main.workgroup_size_spans] == ["TILE * 8", "1 + 1"]


def test_the_emulation_takes_the_models_workgroup_size() -> None:
    # A const-expression size: the runner used to evaluate literals and named consts only, and refused this.
    text = """enable f16;
enable chromium_experimental_subgroup_matrix;
const WIDTH = 16;
@group(0) @binding(0) var<storage, read_write> a: array<f16>;
@compute @workgroup_size(WIDTH * 2) fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&a, 0u, false, 8u);
  subgroupMatrixStore(&a, 64u, m, false, 8u);
}
"""
    lowered = emulate(text, subgroup_size=32)
    assert "coop_emu" in lowered.text


def test_the_emulation_refuses_an_override_workgroup_size_by_its_text() -> None:
    text = """enable f16;
enable chromium_experimental_subgroup_matrix;
override WG: u32 = 32;
@group(0) @binding(0) var<storage, read_write> a: array<f16>;
@compute @workgroup_size(WG) fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&a, 0u, false, 8u);
  subgroupMatrixStore(&a, 64u, m, false, 8u);
}
"""
    with pytest.raises(KernelError, match="line 5: the emulation needs a constant workgroup size, not 'WG'"):
        emulate(text, subgroup_size=32)


def test_entry_point_io_is_in_the_model() -> None:
    text = """struct In { @builtin(workgroup_id) group: vec3<u32>, @location(0) colour: vec4<f32> }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_size) s: u32) {
  _ = lid;
}
@fragment fn shade(input: In, @location(1) @interpolate(flat) tag: u32) -> @location(0) vec4<f32> {
  return input.colour;
}
"""
    model = lint_source(text).model
    by_name = {s.name: s for s in model.symbols}
    assert by_name["main"].stage == "compute" and by_name["shade"].stage == "fragment"
    assert by_name["main"].inputs == (("local_invocation_index", False), ("subgroup_size", False))
    assert by_name["shade"].inputs == ((None, False), (None, True))
    assert by_name["lid"].io_builtin == "local_invocation_index" and not by_name["lid"].io_location
    assert by_name["tag"].io_builtin is None and by_name["tag"].io_location
    members = {m.name: m.builtin for m in by_name["In"].type.members}
    assert members == {"group": "workgroup_id", "colour": None}


def test_the_lowering_asks_the_model_which_builtin_a_call_is() -> None:
    # A user function may take a builtin's name (module scope shadows the predeclared one). Dispatching on
    # the name lowered its calls as the matrix builtin and failed; the model says it is the user's function.
    text = """enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> a: array<f16>;
fn subgroupMatrixScalarAdd(x: f16, y: f16) -> f16 { return x + y; }
@compute @workgroup_size(32) fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&a, 0u, false, 8u);
  subgroupMatrixStore(&a, 64u, m, false, 8u);
  a[0] = subgroupMatrixScalarAdd(a[1], 1.0h);
}
"""
    lowered = emulate(text).text
    assert "a[0] = subgroupMatrixScalarAdd(a[1], 1.0h);" in lowered
