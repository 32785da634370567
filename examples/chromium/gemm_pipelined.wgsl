// GEMM with a pipelined K loop (Chromium / Dawn dialect): the fastest
// kernel of the project on the H100, gemm_tiled_4x4.wgsl rebuilt around a
// loop whose every buffer and register set is named by a constant.
//
// Computes C = A * B with M = N = K = 4096; bindings, staging and dispatch
// as in gemm_tiled.wgsl (read that file first), the 4 x TILES_N register
// tile per subgroup as in gemm_tiled_4x4.wgsl.
//
// What changed, measured on the H100 through Dawn without bounds checks
// (benchmarks/results/gemm_tiled_sweep.md has the sweep):
//   - The step loop is written out four steps at a time, so the workgroup
//     buffer each step reads, the buffer it fills and the register set it
//     copies from are constants, and no branch guards the copies: reads past
//     the last slice repeat it and land in a buffer nobody reads again.
//     Same block shape as gemm_tiled_4x4.wgsl: about 190 -> 245 TFLOP/s.
//   - DEPTH: the global reads of slice s + DEPTH start at step s and wait in
//     register set (s + DEPTH) % 4 until the end of step s + DEPTH - 1, so
//     they have DEPTH steps of multiplies to arrive. With two buffers and
//     BK = 16, DEPTH = 2 gave about 4% more than 1; 3 and 4 cost registers.
//   - Workgroup memory decides how many workgroups share a multiprocessor:
//     in a one-off diagnostic run (2026-11-23, not kept in benchmarks/),
//     giving the two-buffer BK = 16 kernel (21 KiB) an unused 4 KiB array
//     took it from 255 to 165 TFLOP/s, as if NVIDIA's driver gave each
//     multiprocessor about 48 KiB, room for two such workgroups but not for
//     two of 25 KiB. That is why BK = 32 with two buffers (38 KiB) was
//     slower. BUFFERS = 1 halves the memory for a second barrier per step:
//     BK = 32 in 19 KiB, two workgroups per multiprocessor, 272-276.
// What limits it now (one-off diagnostic variants, same day): skipping the
// global reads made it about 1.7x faster, skipping the multiplies 1.5x, so
// moving A and B from L2 into workgroup memory (2 GiB for 128 x 128 blocks)
// and the barriers cost more than the tensor cores; larger blocks move less
// but need more registers and memory than two workgroups per multiprocessor
// leave.
// Tried and slower (one-off variants of this kernel, 2026-11-23, TFLOP/s):
// subgroupMatrixLoad of the A tiles straight from the storage buffer, no
// staging of A (168); the same for B (153) or both (111); two subgroups
// that only copy while four only multiply (at most 170, likely spilling);
// staging the next slice before the multiplies, two buffers (at most 242);
// loading all of a slice's tiles before the first barrier so that the
// multiplies overlap the staging (232 at BK = 32: too many registers).
// Larger blocks in one workgroup (2026-11-24, 39 variants, all correct:
// benchmarks/results/gemm_structure_sweep.json): 256 x 128 or 128 x 256
// with 8 subgroups of 4 x 4 tiles, one buffer, BK = 32 reach 249-256 (DEPTH
// 0 or 1; 2 and 3 cost registers: 234), with two buffers and BK = 16 227-230;
// 16 subgroups of 4 x 2 tiles 196-248, 257-267 at 128 x 256, BK = 32; BK =
// 16 with one buffer 235-246 here. TILES_N = 2 here (8 subgroups, the same
// block, staging and barriers, 1.5x the tile loads per multiply) runs 1.43x
// slower (191 vs 274): the tile loads from workgroup memory weigh as much.
// Such a block moves a quarter less from L2 per multiply, but only one such
// workgroup fits a multiprocessor (registers: 128 accumulator values per
// invocation), so nothing multiplies while its subgroups wait at a barrier;
// two 128 x 128 workgroups hide each other's barriers. At 0.506 ms this
// kernel moves 2.1 GB from L2 to the multiprocessors, about 4.2 TB/s, near
// what the H100's L2 is reported to deliver: the likely limit, and what
// cuBLAS avoids with 128 x 256 blocks, asynchronous copies (TMA) shared by
// clusters of multiprocessors and deep pipelines in up to 227 KiB per
// multiprocessor, none of which WGSL reaches (48 KiB here, see above).
// Why 45% of cuBLAS is out of reach for this structure (round 4 of the
// sweep, 2026-11-24, benchmarks/gemm_variants.py derives the kernels):
// with every barrier removed (wrong results) it runs 319, 44% of cuBLAS;
// 4 KiB of spare workgroup memory costs nothing (270), 8 KiB drops it to
// 178, so the two workgroups share about 48 KiB. One workgroup over 128 x
// 256 would run 387 without barriers but 255 with them, and the rings of
// two or three BK = 16 buffers that fit (one barrier a step) ran 217-242.
// Loading tiles column-major costs the same as row-major (272); staging B
// transposed costs 1.5x (182).
//
// Knobs for `coop-lint run --sweep` (../runs/gemm_pipelined.run.toml): BM,
// BN, BK, DEPTH, BUFFERS, GROUP (block-rows per band of the launch order, as
// in gemm_tiled_4x4.wgsl), TILES_N (2 or 4 result tiles across per subgroup:
// 4 gives the most reuse, 2 half the registers) and TILE, which must be a
// shape the adapter offers (16 on NVIDIA) except in the emulation, which CI
// runs with 8 x 8 tiles.
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
const BK: u32 = 32u;
const TILE: u32 = 16u;
const TILES_M: u32 = 4u; // fixed: multiply() is written for 4 result tiles down
const TILES_N: u32 = 4u; // 2 or 4
const DEPTH: u32 = 1u; // slices read ahead of the one being multiplied, 0 to 4
const GROUP: u32 = 8u; // block-rows per band of the launch order (as in gemm_tiled_4x4.wgsl)
const BUFFERS: u32 = 1u; // workgroup buffers: 2, or 1 (half the memory, two barriers a step)
const WM: u32 = TILES_M * TILE;
const WN: u32 = TILES_N * TILE;

const SUBGROUP_SIZE: u32 = 32u;
const HALVES: u32 = 8u; // f16 values per vec4<u32>

const SUBGROUPS_N: u32 = BN / WN;
const SUBGROUPS: u32 = (BM / WM) * SUBGROUPS_N;
const WG_SIZE: u32 = SUBGROUPS * SUBGROUP_SIZE;
const STEPS: u32 = K / BK;

// Staged rows, in vec4<u32> elements, with one element of padding.
const A_LD: u32 = BK / HALVES + 1u;
const B_LD: u32 = BN / HALVES + 1u;
const A_STAGE: u32 = BM * A_LD;
const B_STAGE: u32 = BK * B_LD;
// vec4<u32> elements of a slice, and copies per invocation (the last round
// may leave some invocations idle).
const A_SLICE: u32 = BM * BK / HALVES;
const B_SLICE: u32 = BK * BN / HALVES;
const A_COPIES: u32 = (A_SLICE + WG_SIZE - 1u) / WG_SIZE;
const B_COPIES: u32 = (B_SLICE + WG_SIZE - 1u) / WG_SIZE;
// Register sets for slices in flight: slice j lives in set j % SETS.
const SETS: u32 = 4u;

const_assert TILES_N == 2u || TILES_N == 4u;
const_assert GROUP > 0u;
const_assert DEPTH <= SETS && (BUFFERS == 1u || BUFFERS == 2u);
const_assert BM % WM == 0 && BN % WN == 0 && TILE % HALVES == 0 && BK % TILE == 0;
const_assert M % BM == 0 && N % BN == 0 && K % BK == 0 && STEPS % SETS == 0;

alias TileA = subgroup_matrix_left<f16, TILE, TILE>;
alias TileB = subgroup_matrix_right<f16, TILE, TILE>;
alias TileC = subgroup_matrix_result<f32, TILE, TILE>;
// Tile (i, j) of the subgroup's result is element 4 i + j whatever TILES_N is;
// with TILES_N = 2 the unused half is never touched and costs no registers.
alias Accumulators = array<TileC, 16>;

struct Copies {
    a: array<vec4<u32>, A_COPIES>,
    b: array<vec4<u32>, B_COPIES>,
}
alias InFlight = array<Copies, SETS>;

@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

var<workgroup> a_stages: array<vec4<u32>, BUFFERS * A_STAGE>;
var<workgroup> b_stages: array<vec4<u32>, BUFFERS * B_STAGE>;

@compute @workgroup_size(WG_SIZE, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    // Uniform across the workgroup, so the barriers below stay valid.
    if (subgroups != SUBGROUPS) {
        return;
    }
    // Walking GROUP block-rows down before moving right keeps the A rows and
    // B columns that neighbouring workgroups share in the L2 cache.
    let blocks_n = N / BN;
    let linear = wg.y * blocks_n + wg.x;
    let band = linear / (GROUP * blocks_n);
    let rows_here = min(M / BM - band * GROUP, GROUP);
    let in_band = linear % (GROUP * blocks_n);
    let block = vec2<u32>((band * GROUP + in_band % rows_here) * BM, (in_band / rows_here) * BN);
    let sub_row = (sg / SUBGROUPS_N) * WM;
    let sub_col = (sg % SUBGROUPS_N) * WN;
    // Where this subgroup's tiles start in buffer 0.
    let tiles = vec2<u32>(sub_row * A_LD, sub_col / HALVES);

    var acc: Accumulators;
    var copies: InFlight;
    // Slice j into set j; a loop here would index the sets by a variable.
    fetch(&copies, 0u, block, 0u, lid);
    if (DEPTH > 1u) { fetch(&copies, 1u, block, 1u, lid); }
    if (DEPTH > 2u) { fetch(&copies, 2u, block, 2u, lid); }
    if (DEPTH > 3u) { fetch(&copies, 3u, block, 3u, lid); }
    stage(&copies, 0u, 0u, lid);
    workgroupBarrier();

    // The loop is written out SETS steps at a time so that every set index is
    // a constant (see step()).
    for (var s = 0u; s < STEPS; s += SETS) {
        step(&acc, &copies, s, 0u, block, tiles, lid);
        step(&acc, &copies, s, 1u, block, tiles, lid);
        step(&acc, &copies, s, 2u, block, tiles, lid);
        step(&acc, &copies, s, 3u, block, tiles, lid);
    }

    store(&acc, (block.x + sub_row) * N + block.y + sub_col);
}

// Constant tile indices here too: one dynamic index anywhere would put the
// accumulators in memory.
fn store(acc: ptr<function, Accumulators>, at: u32) {
    subgroupMatrixStore<row_major>(&c, at, (*acc)[0], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE, (*acc)[1], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N, (*acc)[4], N);
    subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N + 1u * TILE, (*acc)[5], N);
    subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N, (*acc)[8], N);
    subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N + 1u * TILE, (*acc)[9], N);
    subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N, (*acc)[12], N);
    subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N + 1u * TILE, (*acc)[13], N);
    if (TILES_N == 4u) {
        subgroupMatrixStore<row_major>(&c, at + 2u * TILE, (*acc)[2], N);
        subgroupMatrixStore<row_major>(&c, at + 3u * TILE, (*acc)[3], N);
        subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N + 2u * TILE, (*acc)[6], N);
        subgroupMatrixStore<row_major>(&c, at + 1u * TILE * N + 3u * TILE, (*acc)[7], N);
        subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N + 2u * TILE, (*acc)[10], N);
        subgroupMatrixStore<row_major>(&c, at + 2u * TILE * N + 3u * TILE, (*acc)[11], N);
        subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N + 2u * TILE, (*acc)[14], N);
        subgroupMatrixStore<row_major>(&c, at + 3u * TILE * N + 3u * TILE, (*acc)[15], N);
    }
}

// One slice of multiplies. Every tile index is a constant, so the
// accumulators stay in registers; B tiles are loaded one at a time and
// each serves four multiplies.
fn multiply(acc: ptr<function, Accumulators>, a_at: u32, b_at: u32) {
    for (var kk = 0u; kk < BK; kk += TILE) {
        let a_k = a_at + kk / HALVES;
        let l0 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_k, A_LD);
        let l1 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_k + TILE * A_LD, A_LD);
        let l2 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_k + 2u * TILE * A_LD, A_LD);
        let l3 = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_k + 3u * TILE * A_LD, A_LD);
        let b_k = b_at + kk * B_LD;
        var r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_k, B_LD);
        (*acc)[0] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[0]);
        (*acc)[4] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[4]);
        (*acc)[8] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[8]);
        (*acc)[12] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[12]);
        r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_k + TILE / HALVES, B_LD);
        (*acc)[1] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[1]);
        (*acc)[5] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[5]);
        (*acc)[9] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[9]);
        (*acc)[13] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[13]);
        if (TILES_N == 4u) {
            r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_k + 2u * TILE / HALVES, B_LD);
            (*acc)[2] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[2]);
            (*acc)[6] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[6]);
            (*acc)[10] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[10]);
            (*acc)[14] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[14]);
            r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_k + 3u * TILE / HALVES, B_LD);
            (*acc)[3] = subgroupMatrixMultiplyAccumulate(l0, r, (*acc)[3]);
            (*acc)[7] = subgroupMatrixMultiplyAccumulate(l1, r, (*acc)[7]);
            (*acc)[11] = subgroupMatrixMultiplyAccumulate(l2, r, (*acc)[11]);
            (*acc)[15] = subgroupMatrixMultiplyAccumulate(l3, r, (*acc)[15]);
        }
    }
}

// Step s + p of the K loop, p a constant at every call. On entry slice
// s + p is in workgroup buffer p % BUFFERS, visible to everyone, and slices
// s + p + 1 to s + p + DEPTH - 1 are in flight in their register sets.
// The set of slice s + p + DEPTH last held slice s + p + DEPTH - SETS, which
// went to workgroup memory at least one step ago, so it is free.
fn step(acc: ptr<function, Accumulators>, copies: ptr<function, InFlight>, s: u32, p: u32,
        block: vec2<u32>, tiles: vec2<u32>, lid: u32) {
    // Past the last slice the reads repeat it and the copies land in a
    // buffer nobody reads again, which is cheaper than a branch.
    if (DEPTH > 0u) {
        fetch(copies, (p + DEPTH) % SETS, block, s + p + DEPTH, lid);
    }
    let buffer = p % BUFFERS;
    multiply(acc, buffer * A_STAGE + tiles.x, buffer * B_STAGE + tiles.y);
    if (DEPTH == 0u) {
        // No reads in flight during the multiplies: fewer registers.
        fetch(copies, (p + 1u) % SETS, block, s + p + 1u, lid);
    }
    if (BUFFERS == 1u) {
        // One buffer: everyone must have finished reading it.
        workgroupBarrier();
    }
    // With two buffers everyone finished reading the other one before the
    // last barrier.
    stage(copies, (p + 1u) % SETS, (p + 1u) % BUFFERS, lid);
    workgroupBarrier();
}

// Reads slice `slice` of A (BM x BK) and B (BK x BN) into register set
// `slot`, the last slice again when `slice` is past it; neighbouring
// invocations read neighbouring 16-byte elements. block: the first row of
// A and column of B.
fn fetch(copies: ptr<function, InFlight>, slot: u32, block: vec2<u32>, slice: u32, lid: u32) {
    let k0 = min(slice, STEPS - 1u) * BK;
    for (var i = 0u; i < A_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        if (e < A_SLICE) {
            (*copies)[slot].a[i] = a[((block.x + e / (BK / HALVES)) * K + k0) / HALVES + e % (BK / HALVES)];
        }
    }
    for (var i = 0u; i < B_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        if (e < B_SLICE) {
            (*copies)[slot].b[i] = b[((k0 + e / (BN / HALVES)) * N + block.y) / HALVES + e % (BN / HALVES)];
        }
    }
}

// Writes register set `slot` into workgroup buffer `buffer` (0 or 1).
fn stage(copies: ptr<function, InFlight>, slot: u32, buffer: u32, lid: u32) {
    for (var i = 0u; i < A_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        if (e < A_SLICE) {
            a_stages[buffer * A_STAGE + (e / (BK / HALVES)) * A_LD + e % (BK / HALVES)] = (*copies)[slot].a[i];
        }
    }
    for (var i = 0u; i < B_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        if (e < B_SLICE) {
            b_stages[buffer * B_STAGE + (e / (BN / HALVES)) * B_LD + e % (BN / HALVES)] = (*copies)[slot].b[i];
        }
    }
}
