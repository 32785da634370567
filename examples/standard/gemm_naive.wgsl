// GEMM, naive subgroup-matrix kernel (standard proposal dialect).
//
// The same computation as ../chromium/gemm_naive.wgsl, written against the
// gpuweb `subgroup_matrix` proposal: `enable subgroup_matrix;`, the
// un-prefixed builtins, and the draft's load/store signatures, where the
// majorness is a template enumerant (`row_major`, gpuweb #6275). No shipping
// compiler accepts `enable subgroup_matrix;` yet; renaming the enable to
// chromium_experimental_subgroup_matrix makes Tint compile it unchanged.
//
// Computes C = A * B with M = N = K = 1024:
//   binding 0  a: array<f16>, A is M x K, row-major
//   binding 1  b: array<f16>, B is K x N, row-major
//   binding 2  c: array<f32>, C is M x N, row-major, written
// f16 inputs, f32 accumulation on 16x16x16 tiles: the device must list the
// GPUSubgroupMatrixConfig componentType "f16", resultComponentType "f32",
// M = N = K = 16.
//
// Work split: a workgroup of 128 invocations owns a 32 x 32 block of C
// (2 x 2 result tiles); tile t is computed by subgroup t mod num_subgroups,
// so each 32-wide subgroup computes one tile, loading operands from storage.
// subgroup_id and num_subgroups come from the `subgroup_id` language feature,
// which the proposal depends on.
//
// Dispatch: dispatchWorkgroups(N / 32, M / 32, 1) = (32, 32, 1).
// Device features: "subgroup-matrix" (which requires "subgroups"),
// "shader-f16". The workgroup x size (128) must be a multiple of the
// device's maximum subgroup size.

enable f16;
enable subgroup_matrix;
requires subgroup_id;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;

const TM: u32 = 16u;
const TN: u32 = 16u;
const TK: u32 = 16u;

const BLOCK_TILES_X: u32 = 2u;
const BLOCK_TILES_Y: u32 = 2u;

alias TileA = subgroup_matrix_left<f16, TK, TM>;
alias TileB = subgroup_matrix_right<f16, TN, TK>;
alias TileC = subgroup_matrix_result<f32, TN, TM>;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(128, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    for (var t = sg; t < BLOCK_TILES_X * BLOCK_TILES_Y; t += subgroups) {
        let row0 = (wg.y * BLOCK_TILES_Y + t / BLOCK_TILES_X) * TM;
        let col0 = (wg.x * BLOCK_TILES_X + t % BLOCK_TILES_X) * TN;

        var acc = TileC();
        for (var k = 0u; k < K; k += TK) {
            let ta = subgroupMatrixLoad<TileA, row_major>(&a, row0 * K + k, K);
            let tb = subgroupMatrixLoad<TileB, row_major>(&b, k * N + col0, N);
            acc = subgroupMatrixMultiplyAccumulate(ta, tb, acc);
        }
        subgroupMatrixStore<row_major>(&c, row0 * N + col0, acc, N);
    }
}
