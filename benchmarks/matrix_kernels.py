"""Generated matrix-heavy WGSL: files of tiled GEMM kernels shaped like the ones people ship.

Each file is a small kernel library in the Chromium / Dawn dialect (the one ggml's WebGPU backend and
examples/chromium use): one uniform block of sizes, A and B in storage buffers, C written back, and two
workgroup arrays that the kernels stage their slices in. Every function is a `@compute` entry point that
multiplies subgroup matrices in a K loop, as examples/chromium/gemm_tiled.wgsl and ggml's
mul_mat_subgroup_matrix.wgsl do:

- block and subgroup coordinates from the workgroup and subgroup ids, and an early return (uniform) when
  the adapter split the workgroup into another number of subgroups;
- an accumulator array of result tiles, zeroed or loaded from C (the `C += A * B` form);
- an outer K loop to `params.k` that copies the A and B slices from storage into workgroup memory (one
  element per invocation per step, a strided loop over the local index), a barrier, an inner loop over
  the slice that loads left and right tiles from workgroup memory and accumulates every pair, and a
  second barrier before the next copy;
- an epilogue that optionally scales by `params.alpha` and stores each tile to C.

Drawn per kernel from the random source: the tile (8x8 or 16x16), the block and warp tiles, the K slice,
the padding of staged rows, the right operand's layout, and the epilogue, within WebGPU's default 16 KiB of
workgroup memory. Per file: the input element type (f16 mostly, f32 sometimes). A file of 32 kernels is
about 1,100 lines; no kernel draws a coop-lint finding by design, so the benchmarks time checking, not
reporting.

Why this shape: the first matrix-heavy generator packed a matrix builtin call into almost every line (three
per function, eleven lines each), the most expensive line the checker sees, and no loop over indices,
barrier or staging copy; real matrix kernels spend most of their lines on index arithmetic and copies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

WORKGROUP_BYTES = 16384  # WebGPU's default maxComputeWorkgroupStorageSize
SUBGROUP = 32


@dataclass(frozen=True)
class _Shape:
    tile: int
    block_m: int
    block_n: int
    warp_m: int
    warp_n: int
    slice_k: int
    pad: int

    @property
    def subgroups(self) -> int:
        return (self.block_m // self.warp_m) * (self.block_n // self.warp_n)

    def staged(self) -> tuple[int, int]:
        """Elements of the A slice and of the B slice in workgroup memory (rows padded)."""
        return self.block_m * (self.slice_k + self.pad), self.slice_k * (self.block_n + self.pad)


def _shape(rng: random.Random, element_bytes: int) -> _Shape:
    while True:
        tile = rng.choice((8, 16, 16))
        block_m, block_n = rng.choice((32, 64, 64, 128)), rng.choice((32, 64, 64, 128))
        warp_m = rng.choice([w for w in (tile, 2 * tile, 4 * tile) if w <= block_m])
        warp_n = rng.choice([w for w in (tile, 2 * tile, 4 * tile) if w <= block_n])
        shape = _Shape(tile, block_m, block_n, warp_m, warp_n, rng.choice((tile, 2 * tile)),
                       rng.choice((0, 0, 4, 8)))
        a, b = shape.staged()
        if (a + b) * element_bytes <= WORKGROUP_BYTES and shape.subgroups <= 8:
            return shape


def matrix_kernel_file(rng: random.Random, kernels: int = 32) -> str:
    element = "f32" if rng.random() < 0.25 else "f16"
    size = 4 if element == "f32" else 2
    shapes = [_shape(rng, size) for _ in range(kernels)]
    staged_a = max(s.staged()[0] for s in shapes)
    staged_b = max(s.staged()[1] for s in shapes)
    parts = [
        "enable f16;\n"
        "enable subgroups;\n"
        "enable chromium_experimental_subgroup_matrix;\n\n"
        "struct Params {\n  m: u32,\n  n: u32,\n  k: u32,\n  alpha: f32,\n}\n\n"
        f"@group(0) @binding(0) var<storage, read> a: array<{element}>;\n"
        f"@group(0) @binding(1) var<storage, read> b: array<{element}>;\n"
        "@group(0) @binding(2) var<storage, read_write> c: array<f32>;\n"
        "@group(0) @binding(3) var<uniform> params: Params;\n\n"
        f"var<workgroup> a_stage: array<{element}, {staged_a}>;\n"
        f"var<workgroup> b_stage: array<{element}, {staged_b}>;\n\n"]
    for index, shape in enumerate(shapes):
        parts.append(_kernel(rng, index, shape, element))
    return "".join(parts)


def _kernel(rng: random.Random, index: int, s: _Shape, element: str) -> str:
    tiles_m, tiles_n = s.warp_m // s.tile, s.warp_n // s.tile
    warps_n = s.block_n // s.warp_n
    a_ld, b_ld = s.slice_k + s.pad, s.block_n + s.pad
    left = f"subgroup_matrix_left<{element}, {s.tile}, {s.tile}>"
    right = f"subgroup_matrix_right<{element}, {s.tile}, {s.tile}>"
    result = f"subgroup_matrix_result<f32, {s.tile}, {s.tile}>"
    b_layout = rng.choice(("row_major", "row_major", "col_major"))
    b_offset = (f"kk * {b_ld}u + sub_col + j * {s.tile}u" if b_layout == "row_major"
                else f"(sub_col + j * {s.tile}u) * {b_ld}u + kk")
    accumulate_into_c = rng.random() < 0.3
    scale = rng.random() < 0.5
    lines = [
        f"// Kernel {index}: {s.block_m}x{s.block_n} block, {s.warp_m}x{s.warp_n} per subgroup, "
        f"{s.tile}x{s.tile} tiles, K in slices of {s.slice_k}.\n",
        f"@compute @workgroup_size({s.subgroups * SUBGROUP})\n",
        f"fn gemm_{index}(@builtin(workgroup_id) wg: vec3<u32>,\n"
        f"          @builtin(local_invocation_index) lid: u32,\n"
        f"          @builtin(subgroup_id) sg: u32,\n"
        f"          @builtin(num_subgroups) subgroups: u32) {{\n",
        f"  if (subgroups != {s.subgroups}u) {{\n    return;\n  }}\n",
        f"  let block_row = wg.y * {s.block_m}u;\n",
        f"  let block_col = wg.x * {s.block_n}u;\n",
        f"  let sub_row = (sg / {warps_n}u) * {s.warp_m}u;\n",
        f"  let sub_col = (sg % {warps_n}u) * {s.warp_n}u;\n",
        f"  var acc: array<{result}, {tiles_m * tiles_n}>;\n",
    ]
    if accumulate_into_c:
        lines.append(
            f"  for (var i = 0u; i < {tiles_m}u; i++) {{\n"
            f"    for (var j = 0u; j < {tiles_n}u; j++) {{\n"
            f"      let row = block_row + sub_row + i * {s.tile}u;\n"
            f"      let col = block_col + sub_col + j * {s.tile}u;\n"
            f"      acc[i * {tiles_n}u + j] = subgroupMatrixLoad<{result}, row_major>(&c, row * params.n + col, "
            f"params.n);\n"
            f"    }}\n"
            f"  }}\n")
    lines.append(
        f"  for (var k0 = 0u; k0 < params.k; k0 += {s.slice_k}u) {{\n"
        f"    for (var e = lid; e < {s.block_m * s.slice_k}u; e += {s.subgroups * SUBGROUP}u) {{\n"
        f"      let row = e / {s.slice_k}u;\n"
        f"      let col = e % {s.slice_k}u;\n"
        f"      a_stage[row * {a_ld}u + col] = a[(block_row + row) * params.k + k0 + col];\n"
        f"    }}\n"
        f"    for (var e = lid; e < {s.slice_k * s.block_n}u; e += {s.subgroups * SUBGROUP}u) {{\n"
        f"      let row = e / {s.block_n}u;\n"
        f"      let col = e % {s.block_n}u;\n")
    if b_layout == "row_major":
        lines.append(f"      b_stage[row * {b_ld}u + col] = b[(k0 + row) * params.n + block_col + col];\n")
    else:
        lines.append(f"      b_stage[col * {b_ld}u + row] = b[(k0 + row) * params.n + block_col + col];\n")
    lines.append(
        f"    }}\n"
        f"    workgroupBarrier();\n"
        f"    for (var kk = 0u; kk < {s.slice_k}u; kk += {s.tile}u) {{\n"
        f"      for (var i = 0u; i < {tiles_m}u; i++) {{\n"
        f"        let left = subgroupMatrixLoad<{left}, row_major>(&a_stage, (sub_row + i * {s.tile}u) * {a_ld}u + kk,"
        f" {a_ld}u);\n"
        f"        for (var j = 0u; j < {tiles_n}u; j++) {{\n"
        f"          let right = subgroupMatrixLoad<{right}, {b_layout}>(&b_stage, {b_offset}, {b_ld}u);\n"
        f"          acc[i * {tiles_n}u + j] = subgroupMatrixMultiplyAccumulate(left, right, acc[i * {tiles_n}u + j]);\n"
        f"        }}\n"
        f"      }}\n"
        f"    }}\n"
        f"    workgroupBarrier();\n"
        f"  }}\n")
    lines.append(
        f"  for (var i = 0u; i < {tiles_m}u; i++) {{\n"
        f"    for (var j = 0u; j < {tiles_n}u; j++) {{\n"
        f"      let row = block_row + sub_row + i * {s.tile}u;\n"
        f"      let col = block_col + sub_col + j * {s.tile}u;\n")
    if scale:
        lines.append(f"      let scaled = subgroupMatrixScalarMultiply(acc[i * {tiles_n}u + j], params.alpha);\n"
                     f"      subgroupMatrixStore<row_major>(&c, row * params.n + col, scaled, params.n);\n")
    else:
        lines.append(f"      subgroupMatrixStore<row_major>(&c, row * params.n + col, acc[i * {tiles_n}u + j], "
                     f"params.n);\n")
    lines.append("    }\n  }\n}\n\n")
    return "".join(lines)
