// GEMM with a 64 x 64 register block per subgroup, written out by hand
// (Chromium / Dawn dialect): gemm_tiled.wgsl with WM = WN = 64 and the
// multiply step unrolled.
//
// Computes C = A * B with M = N = K = 4096; bindings, staging, double
// buffering and dispatch as in gemm_tiled.wgsl (read that file first).
//
// Why a second kernel: in gemm_tiled.wgsl the (WM / 16) x (WN / 16) result
// tiles live in an array indexed inside loops. With 4 x 4 tiles per subgroup
// that array stopped fitting the driver's idea of registers on the H100 and
// the kernel ran about 6x slower than with 4 x 2 (see
// benchmarks/results/gemm_tiled_sweep.md). Here every tile index is a
// constant and B tiles are loaded one at a time, each used by four
// multiplies at once, so only 16 accumulators, 4 A tiles and one B tile are
// live. The knobs left for `coop-lint run --sweep` are BM, BN, BK and GROUP
// (../runs/gemm_tiled_4x4.run.toml); TILE must be a shape the adapter offers
// (16 on NVIDIA) except in the emulation, which CI runs with 8 x 8 tiles.
//
// Requires 32-wide subgroups (NVIDIA's only size); on any other split the
// kernel returns without writing C, which the reference check catches.
//
// Dispatch: dispatchWorkgroups(N / BN, M / BM, 1).
// Device features: "subgroups", "chromium-experimental-subgroup-matrix",
// "shader-f16".

enable f16;
enable chromium_experimental_subgroup_matrix;

const M: u32 = 4096u;
const N: u32 = 4096u;
const K: u32 = 4096u;

const BM: u32 = 128u;
const BN: u32 = 128u;
const BK: u32 = 16u;
const GROUP: u32 = 8u; // block-rows per band of the launch order
const TILE: u32 = 16u; // the adapter's f16 -> f32 config is 16 x 16 x 16; the emulation takes any
const WM: u32 = 4u * TILE; // fixed: the multiply step below is written for 4 x 4 tiles
const WN: u32 = 4u * TILE;

const SUBGROUP_SIZE: u32 = 32u;
const HALVES: u32 = 8u; // f16 values per vec4<u32>

const TILES_M: u32 = WM / TILE;
const TILES_N: u32 = WN / TILE;
const SUBGROUPS_N: u32 = BN / WN;
const SUBGROUPS: u32 = (BM / WM) * SUBGROUPS_N;
const WG_SIZE: u32 = SUBGROUPS * SUBGROUP_SIZE;

// Staged rows, in vec4<u32> elements, with one element of padding.
const A_LD: u32 = BK / HALVES + 1u;
const B_LD: u32 = BN / HALVES + 1u;
const A_STAGE: u32 = BM * A_LD;
const B_STAGE: u32 = BK * B_LD;
// vec4<u32> copies per invocation per step.
const A_COPIES: u32 = BM * BK / HALVES / WG_SIZE;
const B_COPIES: u32 = BK * BN / HALVES / WG_SIZE;

const_assert BM % WM == 0 && BN % WN == 0 && WM == 4u * TILE && WN == 4u * TILE;
const_assert GROUP > 0u && TILE % HALVES == 0 && BK % TILE == 0 && M % BM == 0 && N % BN == 0 && K % BK == 0;
const_assert BM * BK / HALVES % WG_SIZE == 0 && BK * BN / HALVES % WG_SIZE == 0;

alias TileA = subgroup_matrix_left<f16, TILE, TILE>;
alias TileB = subgroup_matrix_right<f16, TILE, TILE>;
alias TileC = subgroup_matrix_result<f32, TILE, TILE>;

@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

var<workgroup> a_stages: array<vec4<u32>, 2 * A_STAGE>;
var<workgroup> b_stages: array<vec4<u32>, 2 * B_STAGE>;

@compute @workgroup_size(WG_SIZE, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    // Uniform across the workgroup, so the barriers below stay valid.
    if (subgroups != SUBGROUPS) {
        return;
    }
    // Workgroups run roughly in the order of their linear id. Walking GROUP
    // block-rows down before moving right keeps the A rows and B columns that
    // neighbouring workgroups share in the L2 cache (GROUP = 1: row by row).
    let blocks_n = N / BN;
    let linear = wg.y * blocks_n + wg.x;
    let group_blocks = GROUP * blocks_n;
    let first_row = (linear / group_blocks) * GROUP;
    let rows_here = min(M / BM - first_row, GROUP);
    let block_row = (first_row + (linear % group_blocks) % rows_here) * BM;
    let block_col = ((linear % group_blocks) / rows_here) * BN;
    let sub_row = (sg / SUBGROUPS_N) * WM;
    let sub_col = (sg % SUBGROUPS_N) * WN;

    var acc: array<TileC, TILES_M * TILES_N>;
    var next_a: array<vec4<u32>, A_COPIES>;
    var next_b: array<vec4<u32>, B_COPIES>;

    // Slice 0 goes straight to buffer 0.
    fetch(&next_a, &next_b, block_row, block_col, 0u, lid);
    stage(&next_a, &next_b, 0u, lid);
    workgroupBarrier();

    let steps = K / BK;
    for (var step = 0u; step < steps; step++) {
        let current = step % 2u;
        let more = step + 1u < steps;
        if (more) {
            fetch(&next_a, &next_b, block_row, block_col, (step + 1u) * BK, lid);
        }
        let a_base = current * A_STAGE + sub_row * A_LD;
        let b_base = current * B_STAGE + sub_col / HALVES;
        for (var kk = 0u; kk < BK; kk += TILE) {
            let a_at = a_base + kk / HALVES;
            let l0 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_at, A_LD);
            let l1 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_at + TILE * A_LD, A_LD);
            let l2 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_at + 2u * TILE * A_LD, A_LD);
            let l3 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_at + 3u * TILE * A_LD, A_LD);
            let b_at = b_base + kk * B_LD;
            var r: TileB;
            r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_at, B_LD); // tile column 0
            acc[0] = subgroupMatrixMultiplyAccumulate(l0, r, acc[0]);
            acc[4] = subgroupMatrixMultiplyAccumulate(l1, r, acc[4]);
            acc[8] = subgroupMatrixMultiplyAccumulate(l2, r, acc[8]);
            acc[12] = subgroupMatrixMultiplyAccumulate(l3, r, acc[12]);
            r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_at + 1u * TILE / HALVES, B_LD); // tile column 1
            acc[1] = subgroupMatrixMultiplyAccumulate(l0, r, acc[1]);
            acc[5] = subgroupMatrixMultiplyAccumulate(l1, r, acc[5]);
            acc[9] = subgroupMatrixMultiplyAccumulate(l2, r, acc[9]);
            acc[13] = subgroupMatrixMultiplyAccumulate(l3, r, acc[13]);
            r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_at + 2u * TILE / HALVES, B_LD); // tile column 2
            acc[2] = subgroupMatrixMultiplyAccumulate(l0, r, acc[2]);
            acc[6] = subgroupMatrixMultiplyAccumulate(l1, r, acc[6]);
            acc[10] = subgroupMatrixMultiplyAccumulate(l2, r, acc[10]);
            acc[14] = subgroupMatrixMultiplyAccumulate(l3, r, acc[14]);
            r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_at + 3u * TILE / HALVES, B_LD); // tile column 3
            acc[3] = subgroupMatrixMultiplyAccumulate(l0, r, acc[3]);
            acc[7] = subgroupMatrixMultiplyAccumulate(l1, r, acc[7]);
            acc[11] = subgroupMatrixMultiplyAccumulate(l2, r, acc[11]);
            acc[15] = subgroupMatrixMultiplyAccumulate(l3, r, acc[15]);
        }
        // Everyone finished reading the other buffer one step ago (the
        // barrier below), so it can be overwritten now.
        if (more) {
            stage(&next_a, &next_b, 1u - current, lid);
        }
        workgroupBarrier();
    }

    // Constant indices here too: one dynamic index anywhere would put acc in memory.
    let at = (block_row + sub_row) * N + block_col + sub_col;
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

// Reads the A and B slices that start at column (row) k0 into registers;
// neighbouring invocations read neighbouring 16-byte elements.
fn fetch(next_a: ptr<function, array<vec4<u32>, A_COPIES>>, next_b: ptr<function, array<vec4<u32>, B_COPIES>>,
         block_row: u32, block_col: u32, k0: u32, lid: u32) {
    for (var i = 0u; i < A_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        let row = e / (BK / HALVES);
        let col = e % (BK / HALVES);
        (*next_a)[i] = a[((block_row + row) * K + k0) / HALVES + col];
    }
    for (var i = 0u; i < B_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        let row = e / (BN / HALVES);
        let col = e % (BN / HALVES);
        (*next_b)[i] = b[((k0 + row) * N + block_col) / HALVES + col];
    }
}

// Writes the fetched slices into workgroup buffer `buffer` (0 or 1).
fn stage(next_a: ptr<function, array<vec4<u32>, A_COPIES>>, next_b: ptr<function, array<vec4<u32>, B_COPIES>>,
         buffer: u32, lid: u32) {
    for (var i = 0u; i < A_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        a_stages[buffer * A_STAGE + (e / (BK / HALVES)) * A_LD + e % (BK / HALVES)] = (*next_a)[i];
    }
    for (var i = 0u; i < B_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        b_stages[buffer * B_STAGE + (e / (BN / HALVES)) * B_LD + e % (BN / HALVES)] = (*next_b)[i];
    }
}
