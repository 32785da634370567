// P002's slow kernel: the block and register tiles of
// ../../examples/chromium/gemm_pipelined.wgsl (128 x 128 blocks, 8 subgroups
// of 4 x 4 result tiles, the same launch order), but every A and B tile is
// loaded with subgroupMatrixLoad straight from the storage buffers inside the
// K loop instead of from a slice the workgroup staged in workgroup memory.
// The two subgroups that share a block-row each read the same A tiles, and
// the four that share a block-column the same B tiles: staging reads each
// element from storage once per workgroup (the fixed kernel of the pair is
// gemm_pipelined.wgsl itself).
//
// Run description: pipelined_unstaged.run.toml (4096^3, f16 in, f32 out).
// Dispatch: dispatchWorkgroups(N / BN, M / BM, 1). Needs 32-wide subgroups.

enable f16;
enable chromium_experimental_subgroup_matrix;

const M: u32 = 4096u;
const N: u32 = 4096u;
const K: u32 = 4096u;

const BM: u32 = 128u;
const BN: u32 = 128u;
const BK: u32 = 32u;
const TILE: u32 = 16u; // the adapter's f16 -> f32 config; the emulation takes 8
const GROUP: u32 = 8u;
const WM: u32 = 4u * TILE;
const WN: u32 = 4u * TILE;
const HALVES: u32 = 8u; // f16 values per vec4<u32>
const SUBGROUPS_N: u32 = BN / WN;
const SUBGROUPS: u32 = (BM / WM) * SUBGROUPS_N;
const WG_SIZE: u32 = SUBGROUPS * 32u;
// Row strides of A and B in vec4<u32> elements.
const A_LD: u32 = K / HALVES;
const B_LD: u32 = N / HALVES;

const_assert M % BM == 0 && N % BN == 0 && K % BK == 0 && BK % TILE == 0 && BM % WM == 0 && BN % WN == 0;

alias TileA = subgroup_matrix_left<f16, TILE, TILE>;
alias TileB = subgroup_matrix_right<f16, TILE, TILE>;
alias TileC = subgroup_matrix_result<f32, TILE, TILE>;
alias Accumulators = array<TileC, 16>;

@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(WG_SIZE, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    if (subgroups != SUBGROUPS) {
        return;
    }
    let blocks_n = N / BN;
    let linear = wg.y * blocks_n + wg.x;
    let band = linear / (GROUP * blocks_n);
    let rows_here = min(M / BM - band * GROUP, GROUP);
    let in_band = linear % (GROUP * blocks_n);
    let block = vec2<u32>((band * GROUP + in_band % rows_here) * BM, (in_band / rows_here) * BN);
    let row = block.x + (sg / SUBGROUPS_N) * WM;
    let col = block.y + (sg % SUBGROUPS_N) * WN;

    var acc: Accumulators;
    for (var k0 = 0u; k0 < K; k0 += BK) {
        multiply(&acc, (row * K + k0) / HALVES, (k0 * N + col) / HALVES);
    }
    let at = row * N + col;
    subgroupMatrixStore<row_major>(&c, at, acc[0], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE, acc[1], N);
    subgroupMatrixStore<row_major>(&c, at + 2u * TILE, acc[2], N);
    subgroupMatrixStore<row_major>(&c, at + 3u * TILE, acc[3], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N, acc[4], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N + 1u * TILE, acc[5], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N + 2u * TILE, acc[6], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N + 3u * TILE, acc[7], N);
    subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N, acc[8], N);
    subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N + 1u * TILE, acc[9], N);
    subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N + 2u * TILE, acc[10], N);
    subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N + 3u * TILE, acc[11], N);
    subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N, acc[12], N);
    subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N + 1u * TILE, acc[13], N);
    subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N + 2u * TILE, acc[14], N);
    subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N + 3u * TILE, acc[15], N);
}

// One BK slice of multiplies, the tiles read from storage; every tile index
// is a constant, as in gemm_pipelined.wgsl.
fn multiply(acc: ptr<function, Accumulators>, a_at: u32, b_at: u32) {
    for (var kk = 0u; kk < BK; kk += TILE) {
        let a_k = a_at + kk / HALVES;
        let l0 = subgroupMatrixLoad<TileA, row_major>(&a, a_k, A_LD);
        let l1 = subgroupMatrixLoad<TileA, row_major>(&a, a_k + TILE * A_LD, A_LD);
        let l2 = subgroupMatrixLoad<TileA, row_major>(&a, a_k + 2u * TILE * A_LD, A_LD);
        let l3 = subgroupMatrixLoad<TileA, row_major>(&a, a_k + 3u * TILE * A_LD, A_LD);
        let b_k = b_at + kk * B_LD;
        var r = subgroupMatrixLoad<TileB, row_major>(&b, b_k, B_LD);
        (*acc)[0] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[0]);
        (*acc)[4] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[4]);
        (*acc)[8] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[8]);
        (*acc)[12] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[12]);
        r = subgroupMatrixLoad<TileB, row_major>(&b, b_k + TILE / HALVES, B_LD);
        (*acc)[1] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[1]);
        (*acc)[5] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[5]);
        (*acc)[9] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[9]);
        (*acc)[13] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[13]);
        r = subgroupMatrixLoad<TileB, row_major>(&b, b_k + 2u * TILE / HALVES, B_LD);
        (*acc)[2] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[2]);
        (*acc)[6] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[6]);
        (*acc)[10] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[10]);
        (*acc)[14] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[14]);
        r = subgroupMatrixLoad<TileB, row_major>(&b, b_k + 3u * TILE / HALVES, B_LD);
        (*acc)[3] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[3]);
        (*acc)[7] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[7]);
        (*acc)[11] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[11]);
        (*acc)[15] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[15]);
    }
}
