"""Kernels run as their authors wrote them (issue 24): bindings numbered by const-expressions, parameter
structs filled by field name, sizes pinned with @subgroup_size. Runs on wgpu-native (lavapipe in CI);
the description mistakes need no adapter and run nothing."""

from __future__ import annotations

import struct as packing

import numpy as np
import pytest

from coop_lsp.cli.main import main as cli_main
from coop_lsp.runner.description import RunDescriptionError, parse_run_description
from coop_lsp.runner.execute import run_kernel
from coop_lsp.runner.kernel import load_kernel
from coop_lsp.runner.structs import struct_bytes

# A ggml-style kernel: its parameters in a uniform struct, its bindings numbered from a const.
PARAMS_KERNEL = """
struct Inner { scale: f32, shift: vec3<u32> }
struct Params {
    m: u32,
    n: u32,
    inner: Inner,
    offsets: array<vec4<u32>, 2>,
    bias: f32,
}
const FIRST = 1u;
@group(0) @binding(FIRST - 1) var<storage, read> src: array<f32>;
@group(0) @binding(FIRST + 1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2 + 1) var<uniform> params: Params;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= params.m * params.n) { return; }
    dst[i] = src[i] * params.inner.scale + f32(params.inner.shift.z + params.offsets[1].w) + params.bias;
}
"""

PARAMS_RUN = """
dispatch = ["cdiv(M * N, 8)"]
[sizes]
M = 5
N = 7
[[binding]]
binding = 0
type = "f32"
size = "M * N"
fill = "random"
[[binding]]
binding = 2
type = "f32"
size = "M * N"
[[binding]]
binding = 3
fields = { m = "M", n = "N", inner = { scale = 2.0, shift = [0, 0, 3] }, offsets = [[0, 0, 0, 0], [0, 0, 0, 40]] }
[check]
kind = "expression"
output = "dst"
expected = "src * 2 + 43"
"""


def test_struct_layout_follows_wgsl_alignment():
    module = load_kernel(PARAMS_KERNEL)
    params = next(b for b in module.bindings if b.name == "params")
    data = struct_bytes(params.struct, {"m": 5, "n": 7, "inner": {"scale": 2.0, "shift": [0, 0, 3]},
                                        "offsets": [[0, 0, 0, 0], [0, 0, 0, 40]], "bias": 0.5}, "fields", "params")
    # m at 0, n at 4; Inner aligns to 16 (vec3<u32>): scale at 16, shift at 32; Inner is 32 long (ends at 48);
    # offsets at 48 (16 per vec4), bias at 80; the struct rounds up to 96.
    assert len(data) == 96
    assert packing.unpack_from("<II", data, 0) == (5, 7)
    assert packing.unpack_from("<f", data, 16) == (2.0,)
    assert packing.unpack_from("<III", data, 32) == (0, 0, 3)
    assert packing.unpack_from("<I", data, 48 + 16 + 12) == (40,)
    assert packing.unpack_from("<f", data, 80) == (0.5,)


def test_bindings_numbered_by_const_expressions_come_from_the_semantic_model():
    module = load_kernel(PARAMS_KERNEL)
    assert {(b.name, b.binding) for b in module.bindings} == {("src", 0), ("dst", 2), ("params", 3)}


def test_struct_fields_are_filled_by_name_and_the_kernel_reads_them(adapter, tmp_path):
    kernel = tmp_path / "params.wgsl"
    kernel.write_text(PARAMS_KERNEL)
    report = run_kernel(kernel, parse_run_description(PARAMS_RUN, tmp_path / "params.run.toml"))
    assert report.status == "correct", report.render()


OFFSETS = 'offsets = [[0, 0, 0, 0], [0, 0, 0, 40]]'


@pytest.mark.parametrize("old, new, message", [
    (OFFSETS, 'strides = 4, ' + OFFSETS,
     "binding[2].fields.strides: the struct 'Params' has no field 'strides' (fields: m, n, inner, offsets, bias)"),
    (OFFSETS, 'offset = [[0, 0, 0, 0], [0, 0, 0, 40]]', "(did you mean 'offsets'?"),
    (OFFSETS, 'offsets = [[0, 0, 0, 0], [0, 0, 0, -1]]',
     "binding[2].fields.offsets[1][3]: -1 does not fit the field's type u32"),
    (OFFSETS, 'offsets = [[0, 0, 0, 0], [0, 0, 0, 4294967296]]',
     "binding[2].fields.offsets[1][3]: 4294967296 does not fit"),
    ('inner = { scale = 2.0, shift = [0, 0, 3] }', 'inner = 3', "binding[2].fields.inner: a struct 'Inner'"),
    ('inner = { scale = 2.0, shift = [0, 0, 3] }', 'inner = { scale = 2.0, shift = [0, 0, 3], z = 1 }',
     "binding[2].fields.inner.z: the struct 'Inner' has no field 'z'"),
])
def test_field_mistakes_name_the_field_and_run_nothing(tmp_path, old, new, message):
    text = PARAMS_RUN.replace(old, new)
    kernel = tmp_path / "params.wgsl"
    kernel.write_text(PARAMS_KERNEL)
    report = run_kernel(kernel, parse_run_description(text, tmp_path / "params.run.toml"))
    assert report.status == "error" and message in report.error, report.error
    assert report.timing == {} and report.adapter == ""  # nothing ran


def test_fields_on_a_binding_that_is_not_a_struct_is_exit_2(tmp_path, capsys):
    kernel = tmp_path / "params.wgsl"
    kernel.write_text(PARAMS_KERNEL)
    (tmp_path / "params.run.toml").write_text(PARAMS_RUN.replace('binding = 2\ntype = "f32"\nsize = "M * N"',
                                                                 'binding = 2\nfields = { m = 1 }'))
    assert cli_main(["run", str(kernel)]) == 2
    out = capsys.readouterr().out
    assert "binding[1].fields: 'dst' (line 12) is a 'array<f32>', not a struct" in out


def test_fields_exclude_type_and_size():
    with pytest.raises(RunDescriptionError, match=r"binding\[0\].size: not used with fields"):
        parse_run_description('dispatch = [1]\n[[binding]]\nbinding = 0\nsize = 4\nfields = { m = 1 }\n')


def test_a_size_that_overflows_is_refused_naming_the_key():
    with pytest.raises(RunDescriptionError, match=r"binding\[0\].size: 4,294,967,296 elements overflows"):
        parse_run_description('dispatch = [1]\n[sizes]\nM = 65536\n[[binding]]\nbinding = 0\ntype = "f32"\n'
                              'size = "M * M"\n')


FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures" / "runner"


def test_a_kernel_pinned_with_subgroup_size_control_runs_at_its_size(adapter):
    report = run_kernel(FIXTURES / "pinned32.wgsl", FIXTURES / "acc16.run.toml", backend="emulate")
    assert report.status == "correct", report.render()
    assert "'main' pins @subgroup_size(32): judged at 32 lanes only" in report.notes
    assert any("subgroup size 32" in note for note in report.notes)


def test_a_pinned_kernel_is_not_emulated_at_another_size(tmp_path, capsys):
    run = tmp_path / "pinned.run.toml"
    run.write_text((FIXTURES / "acc16.run.toml").read_text() + "[emulation]\nsubgroup_size = 16\n")
    assert cli_main(["run", str(FIXTURES / "pinned32.wgsl"), "--run", str(run), "--backend", "emulate"]) == 2
    assert "emulation.subgroup_size: 16, but 'main' (line 14) pins @subgroup_size(32)" in capsys.readouterr().out


def test_a_subgroup_size_that_cannot_be_emulated_names_the_key():
    with pytest.raises(RunDescriptionError, match=r"emulation.subgroup_size: 24 lanes cannot be emulated"):
        parse_run_description("dispatch = [1]\n[emulation]\nsubgroup_size = 24\n")
