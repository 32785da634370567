// P001's fixed kernel: ../../examples/chromium/gemm_naive.wgsl with 2 x 2
// result tiles per subgroup instead of one, everything else as there.
//
// Computes C = A * B (M x K times K x N, f16 in, f32 out, row-major), with
// the operand tiles still read straight from storage. A workgroup of 128
// invocations (4 subgroups of 32) owns a 64 x 64 block of C; subgroup s owns
// the 32 x 32 quarter (s / 2, s % 2) as four accumulators. Each A tile it
// loads serves two multiplies and each B tile two, so a step reads half as
// many tiles per multiply as the one-tile kernel.
//
// Dispatch: dispatchWorkgroups(N / 64, M / 64, 1). Needs 32-wide subgroups;
// on any other split it returns without writing C (the check catches it).

enable f16;
enable chromium_experimental_subgroup_matrix;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;
const TILE: u32 = 16u;

alias TileA = subgroup_matrix_left<f16, TILE, TILE>;
alias TileB = subgroup_matrix_right<f16, TILE, TILE>;
alias TileC = subgroup_matrix_result<f32, TILE, TILE>;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(128, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    if (subgroups != 4u) {
        return;
    }
    let row0 = wg.y * 64u + (sg / 2u) * 2u * TILE;
    let col0 = wg.x * 64u + (sg % 2u) * 2u * TILE;

    var acc00 = TileC();
    var acc01 = TileC();
    var acc10 = TileC();
    var acc11 = TileC();
    for (var k = 0u; k < K; k += TILE) {
        let a0 = subgroupMatrixLoad<TileA, row_major>(&a, row0 * K + k, K);
        let a1 = subgroupMatrixLoad<TileA, row_major>(&a, (row0 + TILE) * K + k, K);
        let b0 = subgroupMatrixLoad<TileB, row_major>(&b, k * N + col0, N);
        let b1 = subgroupMatrixLoad<TileB, row_major>(&b, k * N + col0 + TILE, N);
        acc00 = subgroupMatrixMultiplyAccumulate(a0, b0, acc00);
        acc01 = subgroupMatrixMultiplyAccumulate(a0, b1, acc01);
        acc10 = subgroupMatrixMultiplyAccumulate(a1, b0, acc10);
        acc11 = subgroupMatrixMultiplyAccumulate(a1, b1, acc11);
    }
    subgroupMatrixStore<row_major>(&c, row0 * N + col0, acc00, N);
    subgroupMatrixStore<row_major>(&c, row0 * N + col0 + TILE, acc01, N);
    subgroupMatrixStore<row_major>(&c, (row0 + TILE) * N + col0, acc10, N);
    subgroupMatrixStore<row_major>(&c, (row0 + TILE) * N + col0 + TILE, acc11, N);
}
