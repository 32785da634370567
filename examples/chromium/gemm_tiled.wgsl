// GEMM tuned for large matrices: register-blocked subgroups, workgroup-tiled,
// double-buffered workgroup memory, 16-byte copies (Chromium / Dawn dialect).
//
// Computes C = A * B with M = N = K = 4096:
//   binding 0  a: A is M x K of f16, row-major, read as array<vec4<u32>>
//              (8 halves per element: the kernel copies 16 bytes at a time)
//   binding 1  b: B is K x N of f16, row-major, read the same way
//   binding 2  c: array<f32>, C is M x N, row-major, written
// f16 inputs, f32 accumulation, 16x16x16 hardware tiles (adapter config
// f16 -> f32, M = N = K = 16).
//
// Work split: a workgroup computes a BM x BN block of C with
// (BM / WM) x (BN / WN) subgroups of 32 invocations; each subgroup keeps its
// WM x WN part of the block as (WM / 16) x (WN / 16) result tiles in
// registers, so every A tile it loads serves WN / 16 multiplies and every B
// tile WM / 16. K is walked in steps of BK: the workgroup copies the BM x BK
// slice of A and the BK x BN slice of B into workgroup memory while the
// subgroups multiply the previous slices (two buffers, one barrier a step);
// the copy of the next slice is read into registers before the multiplies,
// so its memory latency hides behind them.
//
// Workgroup memory holds vec4<u32>, and subgroupMatrixLoad counts its offset
// and stride in those 16-byte elements (8 halves), not in halves. Each
// staged row has one element of padding, so that the eight 16-byte rows a
// tile load reads at once fall in different banks.
//
// BM, BN, BK, WM and WN are the knobs of `coop-lint run --sweep` (see
// ../runs/gemm_tiled.run.toml); the const_asserts reject shapes that do not
// fit together. With BM = BN = 128, WM = WN = 64: 4 subgroups, 37 KiB of
// workgroup memory (the runner asks the adapter for its own limit; WebGPU's
// default is 16 KiB).
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
const WM: u32 = 64u;
const WN: u32 = 64u;

const TILE: u32 = 16u;
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

const_assert BM % WM == 0 && BN % WN == 0 && WM % TILE == 0 && WN % TILE == 0;
const_assert BK % TILE == 0 && M % BM == 0 && N % BN == 0 && K % BK == 0;
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
    let block_row = wg.y * BM;
    let block_col = wg.x * BN;
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
            var left: array<TileA, TILES_M>;
            var right: array<TileB, TILES_N>;
            for (var i = 0u; i < TILES_M; i++) {
                left[i] = subgroupMatrixLoad<TileA, row_major>(&a_stages, a_base + i * TILE * A_LD + kk / HALVES,
                                                               A_LD);
            }
            for (var j = 0u; j < TILES_N; j++) {
                right[j] = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_base + kk * B_LD + j * TILE / HALVES,
                                                                B_LD);
            }
            for (var i = 0u; i < TILES_M; i++) {
                for (var j = 0u; j < TILES_N; j++) {
                    acc[i * TILES_N + j] = subgroupMatrixMultiplyAccumulate(left[i], right[j], acc[i * TILES_N + j]);
                }
            }
        }
        // Everyone finished reading the other buffer one step ago (the
        // barrier below), so it can be overwritten now.
        if (more) {
            stage(&next_a, &next_b, 1u - current, lid);
        }
        workgroupBarrier();
    }

    for (var i = 0u; i < TILES_M; i++) {
        for (var j = 0u; j < TILES_N; j++) {
            let row = block_row + sub_row + i * TILE;
            let col = block_col + sub_col + j * TILE;
            subgroupMatrixStore<row_major>(&c, row * N + col, acc[i * TILES_N + j], N);
        }
    }
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
