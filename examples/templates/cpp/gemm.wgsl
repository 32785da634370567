// A subgroup-matrix GEMM written as a C-preprocessor template, in the style
// of ggml's WebGPU shaders: the program picks the tile shape (TILE_8 or
// TILE_16) and the accumulator type (ACC_F16, or f32 by default) and passes
// them as defines; the file's #defines are defaults the program may override.
//
// Variants: examples/templates/coop-lint.toml. `coop-lint --target apple-m
// examples/templates/cpp` reports the 16x16 variants there, `--target
// nvidia-h100` the 8x8 ones.

enable f16;
enable chromium_experimental_subgroup_matrix;

#ifdef ACC_F16
#define ACC_TYPE f16
#else
#define ACC_TYPE f32
#endif

#if defined(TILE_8)
#define TILE 8u
#elif defined(TILE_16)
#define TILE 16u
#else
#error define TILE_8 or TILE_16
#endif

#include "gemm_common.tmpl"

alias TileA = subgroup_matrix_left<f16, TILE, TILE>;
alias TileB = subgroup_matrix_right<f16, TILE, TILE>;
alias TileC = subgroup_matrix_result<ACC_TYPE, TILE, TILE>;

// One subgroup computes one TILE x TILE tile of C. The f16 variants accumulate in f16 on
// purpose (they show the smallest configurations); coop-lint's note on that is switched off
// here, and the suppression audit sees that the f32 variants do not need it.
@diagnostic(off, coop.f16_accumulator)
@compute @workgroup_size(WORKGROUP_SIZE, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
    let row0 = wg.y * TILE;
    let col0 = wg.x * TILE;
    var acc = TileC();
    for (var k = 0u; k < K; k += TILE) {
        let ta = subgroupMatrixLoad<TileA, row_major>(&a, row0 * K + k, K);
        let tb = subgroupMatrixLoad<TileB, row_major>(&b, k * N + col0, N);
        acc = subgroupMatrixMultiplyAccumulate(ta, tb, acc);
    }
    subgroupMatrixStore<row_major>(&c, row0 * N + col0, acc, N);
}
