// GEMM, naive subgroup-matrix kernel (Chromium / Dawn dialect).
//
// Computes C = A * B with M = N = K = 1024:
//   binding 0  a: array<f16>, A is M x K, row-major (M*K elements)
//   binding 1  b: array<f16>, B is K x N, row-major (K*N elements)
//   binding 2  c: array<f32>, C is M x N, row-major (M*N elements), written
// Inputs are f16, products are accumulated in f32, on 16x16x16 tiles: the
// adapter must list the config componentType f16, resultComponentType f32,
// M = N = K = 16 (NVIDIA lists it; Apple's 8x8 configs do not match).
//
// Work split: a workgroup of 128 invocations owns a 32x32 block of C, that is
// 2 x 2 result tiles. Tile t of the block is computed by subgroup
// t mod num_subgroups, so with 32-wide subgroups (NVIDIA) every subgroup
// computes exactly one 16x16 tile, and with wider ones a subgroup takes
// several in turn. Each tile walks the whole K dimension and loads its
// operand tiles straight from storage: nothing is reused, so this kernel is
// bound by memory bandwidth (the slow baseline, about 20 TFLOP/s at 4096^3 on
// an H100 where cuBLAS reaches about 750).
//
// Dispatch: dispatchWorkgroups(N / 32, M / 32, 1) = (32, 32, 1).
// Device features: "subgroups", "chromium-experimental-subgroup-matrix",
// "shader-f16". The workgroup x size (128) must be a multiple of the
// adapter's maximum subgroup size.

enable f16;
enable chromium_experimental_subgroup_matrix;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;

// One hardware multiply: (TM x TK) * (TK x TN) -> TM x TN.
const TM: u32 = 16u;
const TN: u32 = 16u;
const TK: u32 = 16u;

// Result tiles per workgroup along N (x) and along M (y).
const BLOCK_TILES_X: u32 = 2u;
const BLOCK_TILES_Y: u32 = 2u;

// Template parameters are <element, columns, rows>.
alias TileA = subgroup_matrix_left<f16, TK, TM>;   // TM rows, TK columns
alias TileB = subgroup_matrix_right<f16, TN, TK>;  // TK rows, TN columns
alias TileC = subgroup_matrix_result<f32, TN, TM>; // TM rows, TN columns

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(128, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    // subgroup_id is the same for the whole subgroup, so this loop keeps every
    // subgroup in subgroup-uniform control flow.
    for (var t = sg; t < BLOCK_TILES_X * BLOCK_TILES_Y; t += subgroups) {
        let row0 = (wg.y * BLOCK_TILES_Y + t / BLOCK_TILES_X) * TM;
        let col0 = (wg.x * BLOCK_TILES_X + t % BLOCK_TILES_X) * TN;

        var acc = TileC(); // all zeros
        for (var k = 0u; k < K; k += TK) {
            // A tile at (row0, k): row-major, consecutive rows K elements apart.
            let ta = subgroupMatrixLoad<TileA, row_major>(&a, row0 * K + k, K);
            // B tile at (k, col0): row-major, consecutive rows N elements apart.
            let tb = subgroupMatrixLoad<TileB, row_major>(&b, k * N + col0, N);
            acc = subgroupMatrixMultiplyAccumulate(ta, tb, acc);
        }
        subgroupMatrixStore<row_major>(&c, row0 * N + col0, acc, N);
    }
}
