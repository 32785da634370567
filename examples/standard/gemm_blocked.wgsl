// GEMM, register-blocked subgroup-matrix kernel staged through workgroup
// memory (standard proposal dialect).
//
// The same computation as ../chromium/gemm_blocked.wgsl, in the spelling of
// the gpuweb `subgroup_matrix` proposal (majorness as a template enumerant
// since gpuweb #6275, `enable subgroup_matrix;`). Renaming the enable to
// chromium_experimental_subgroup_matrix makes Tint compile it unchanged.
//
// Computes C = A * B with M = N = K = 1024:
//   binding 0  a: array<f16>, A is M x K, row-major
//   binding 1  b: array<f16>, B is K x N, row-major
//   binding 2  c: array<f32>, C is M x N, row-major, written
// f16 inputs, f32 accumulation, 16x16x16 tiles (config f16 -> f32, 16/16/16).
//
// Work split: a workgroup of 128 invocations computes a 64 x 64 block of C,
// walking K in steps of 32. Per step all invocations copy a 64 x 32 slice of
// A and a 32 x 64 slice of B into workgroup memory (rows padded by 8 halves
// against bank conflicts), then each of the 4 subgroups multiplies its
// 32 x 32 quarter as 2 x 2 tiles accumulated in registers.
// Requires exactly 4 subgroups (32-wide subgroups); otherwise the kernel
// returns without writing C.
//
// Dispatch: dispatchWorkgroups(N / 64, M / 64, 1) = (16, 16, 1).
// Device features: "subgroup-matrix", "subgroups", "shader-f16".

enable f16;
enable subgroup_matrix;
requires subgroup_id;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;

const TM: u32 = 16u;
const TN: u32 = 16u;
const TK: u32 = 16u;

const BM: u32 = 64u;
const BN: u32 = 64u;
const BK: u32 = 32u;

const SUB_TILES: u32 = 2u;
const WG_SIZE: u32 = 128u;
const PAD: u32 = 8u;
const A_LD: u32 = BK + PAD;
const B_LD: u32 = BN + PAD;

alias TileA = subgroup_matrix_left<f16, TK, TM>;
alias TileB = subgroup_matrix_right<f16, TN, TK>;
alias TileC = subgroup_matrix_result<f32, TN, TM>;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

var<workgroup> a_slice: array<f16, BM * A_LD>;
var<workgroup> b_slice: array<f16, BK * B_LD>;

@compute @workgroup_size(WG_SIZE, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    if (subgroups != 4u) {
        return;
    }

    let block_row = wg.y * BM;
    let block_col = wg.x * BN;
    let sub_row = (sg / 2u) * (SUB_TILES * TM);
    let sub_col = (sg % 2u) * (SUB_TILES * TN);

    var acc = array<TileC, 4>(TileC(), TileC(), TileC(), TileC());

    for (var k0 = 0u; k0 < K; k0 += BK) {
        for (var e = lid; e < BM * BK; e += WG_SIZE) {
            let r = e / BK;
            let col = e % BK;
            a_slice[r * A_LD + col] = a[(block_row + r) * K + k0 + col];
        }
        for (var e = lid; e < BK * BN; e += WG_SIZE) {
            let r = e / BN;
            let col = e % BN;
            b_slice[r * B_LD + col] = b[(k0 + r) * N + block_col + col];
        }
        workgroupBarrier();

        for (var kk = 0u; kk < BK; kk += TK) {
            let a0 = subgroupMatrixLoad<TileA, row_major>(&a_slice, sub_row * A_LD + kk, A_LD);
            let a1 = subgroupMatrixLoad<TileA, row_major>(&a_slice, (sub_row + TM) * A_LD + kk, A_LD);
            let b0 = subgroupMatrixLoad<TileB, row_major>(&b_slice, kk * B_LD + sub_col, B_LD);
            let b1 = subgroupMatrixLoad<TileB, row_major>(&b_slice, kk * B_LD + sub_col + TN, B_LD);
            acc[0] = subgroupMatrixMultiplyAccumulate(a0, b0, acc[0]);
            acc[1] = subgroupMatrixMultiplyAccumulate(a0, b1, acc[1]);
            acc[2] = subgroupMatrixMultiplyAccumulate(a1, b0, acc[2]);
            acc[3] = subgroupMatrixMultiplyAccumulate(a1, b1, acc[3]);
        }
        workgroupBarrier();
    }

    for (var i = 0u; i < SUB_TILES; i++) {
        for (var j = 0u; j < SUB_TILES; j++) {
            let row = block_row + sub_row + i * TM;
            let col = block_col + sub_col + j * TN;
            subgroupMatrixStore<row_major>(&c, row * N + col, acc[i * SUB_TILES + j], N);
        }
    }
}
