// Integer GEMM with 8-bit inputs (Chromium / Dawn dialect).
//
// Computes C = A * B with M = N = K = 1024, where A and B hold signed 8-bit
// values and C the exact 32-bit sums:
//   binding 0  a: array<i32>, A is M x K of i8, row-major, packed 4 per word
//              (element e is byte e % 4 of word e / 4, little-endian), so the
//              array has M * K / 4 words
//   binding 1  b: array<i32>, B is K x N of i8, row-major, packed the same way
//   binding 2  c: array<i32>, C is M x N of i32, row-major, written
// WGSL has no 8-bit type, so the i8 matrices are loaded from i32 arrays (u8
// from u32 arrays), and subgroupMatrixLoad counts offset and stride in the
// array's elements: 32-bit words of four matrix elements each, so every
// offset and stride below is the element count divided by 4 (Tint checks the
// stride in bytes: 'the stride argument (3, 12 bytes) ... must be greater than
// the minimum stride (32 bytes)' for a 32-wide i8 row).
// Tiles are 16 x 16 x 32 (M = 16, N = 16, K = 32): the adapter must list the
// config componentType i8, resultComponentType i32, M = 16, N = 16, K = 32
// (NVIDIA lists it, alongside 16 x 8 x 32).
//
// Work split: as in gemm_naive.wgsl, a workgroup of 128 invocations owns a
// 32 x 32 block of C (2 x 2 result tiles) and its subgroups share the tiles
// out; with 32-wide subgroups each computes one tile.
//
// Dispatch: dispatchWorkgroups(N / 32, M / 32, 1) = (32, 32, 1).
// Device features: "subgroups", "chromium-experimental-subgroup-matrix".
// |sum| <= K * 128 * 128 = 2^24, far inside i32, so no sum can overflow.

enable chromium_experimental_subgroup_matrix;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;

const TM: u32 = 16u;
const TN: u32 = 16u;
const TK: u32 = 32u;

const BLOCK_TILES_X: u32 = 2u;
const BLOCK_TILES_Y: u32 = 2u;

alias TileA = subgroup_matrix_left<i8, TK, TM>;    // 16 rows, 32 columns
alias TileB = subgroup_matrix_right<i8, TN, TK>;   // 32 rows, 16 columns
alias TileC = subgroup_matrix_result<i32, TN, TM>; // 16 rows, 16 columns

@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> c: array<i32>;

@compute @workgroup_size(128, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    for (var t = sg; t < BLOCK_TILES_X * BLOCK_TILES_Y; t += subgroups) {
        let row0 = (wg.y * BLOCK_TILES_Y + t / BLOCK_TILES_X) * TM;
        let col0 = (wg.x * BLOCK_TILES_X + t % BLOCK_TILES_X) * TN;

        var acc = TileC(0); // explicit zero fill; the value is an i32
        for (var k = 0u; k < K; k += TK) {
            let ta = subgroupMatrixLoad<TileA, row_major>(&a, (row0 * K + k) / 4u, K / 4u);
            let tb = subgroupMatrixLoad<TileB, row_major>(&b, (k * N + col0) / 4u, N / 4u);
            acc = subgroupMatrixMultiplyAccumulate(ta, tb, acc);
        }
        subgroupMatrixStore<row_major>(&c, row0 * N + col0, acc, N);
    }
}
