"""Layout of naga's 64-bit scalars (SHADER_INT64 / SHADER_F64): 8 bytes long and 8-aligned, as naga lays them out."""

from __future__ import annotations

from coop_lsp.runner.kernel import load_kernel
from coop_lsp.semantic.layout import size_of, struct_fields

KERNEL = """
struct Params { count: u32, total: u64, scale: f64, pair: vec2<i64>, tail: u32 }
@group(0) @binding(0) var<storage, read_write> params: Params;
@compute @workgroup_size(1) fn main() { params.total = params.total + u64(params.count); }
"""


def test_64_bit_members_are_8_bytes_and_8_aligned():
    params = next(b for b in load_kernel(KERNEL).bindings if b.name == "params")
    offsets = {field.name: field.offset for field in struct_fields(params.struct)}
    # count at 0, total aligned up to 8, scale at 16, vec2<i64> aligns to 16 (32), tail after its 16 bytes;
    # the struct aligns to its widest member (16) and rounds 52 up to 64.
    assert offsets == {"count": 0, "total": 8, "scale": 16, "pair": 32, "tail": 48}
    assert size_of(params.struct) == 64
