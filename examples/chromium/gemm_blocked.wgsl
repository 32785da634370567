// GEMM, register-blocked subgroup-matrix kernel staged through workgroup
// memory (Chromium / Dawn dialect).
//
// Computes C = A * B with M = N = K = 1024:
//   binding 0  a: array<f16>, A is M x K, row-major
//   binding 1  b: array<f16>, B is K x N, row-major
//   binding 2  c: array<f32>, C is M x N, row-major, written
// f16 inputs, f32 accumulation, 16x16x16 hardware tiles (adapter config
// f16 -> f32, M = N = K = 16).
//
// Work split: a workgroup of 128 invocations computes a 64 x 64 block of C.
// It walks K in steps of 32: all 128 invocations copy the 64 x 32 slice of A
// and the 32 x 64 slice of B into workgroup memory, then each of the four
// subgroups multiplies its own 32 x 32 quarter of the block as 2 x 2 result
// tiles kept in registers (acc[0..3]). Each A tile loaded is used twice and
// each B tile twice, and every element of A and B is read from storage once
// per workgroup instead of once per tile.
// Rows in workgroup memory are padded by 8 halves (16 bytes) so that the
// subgroup loads of consecutive rows do not hit the same banks (in this
// project's H100 measurements of a larger kernel of the same shape, unpadded
// rows cost about 1.8x).
//
// Requires 32-wide subgroups, i.e. exactly 4 subgroups per workgroup (the
// config's min and max subgroup size are both 32 on NVIDIA). On any other
// split the kernel returns without writing C, which a reference check
// catches; it never computes a wrong block silently.
//
// Dispatch: dispatchWorkgroups(N / 64, M / 64, 1) = (16, 16, 1).
// Device features: "subgroups", "chromium-experimental-subgroup-matrix",
// "shader-f16".

enable f16;
enable chromium_experimental_subgroup_matrix;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;

const TM: u32 = 16u;
const TN: u32 = 16u;
const TK: u32 = 16u;

// Workgroup block of C, and the K step staged per iteration.
const BM: u32 = 64u;
const BN: u32 = 64u;
const BK: u32 = 32u;

// Each subgroup owns a (2 * TM) x (2 * TN) quarter of the block.
const SUB_TILES: u32 = 2u;
const WG_SIZE: u32 = 128u;
const PAD: u32 = 8u;

// Leading dimensions (row strides, in f16 elements) of the staged slices.
const A_LD: u32 = BK + PAD; // 40
const B_LD: u32 = BN + PAD; // 72

alias TileA = subgroup_matrix_left<f16, TK, TM>;
alias TileB = subgroup_matrix_right<f16, TN, TK>;
alias TileC = subgroup_matrix_result<f32, TN, TM>;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

var<workgroup> a_slice: array<f16, BM * A_LD>; // BM rows of BK (+ PAD)
var<workgroup> b_slice: array<f16, BK * B_LD>; // BK rows of BN (+ PAD)

@compute @workgroup_size(WG_SIZE, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) subgroups: u32) {
    // Uniform across the workgroup, so the barriers below stay valid.
    if (subgroups != 4u) {
        return;
    }

    let block_row = wg.y * BM;
    let block_col = wg.x * BN;
    // Quarter of the block owned by this subgroup.
    let sub_row = (sg / 2u) * (SUB_TILES * TM);
    let sub_col = (sg % 2u) * (SUB_TILES * TN);

    // acc[i * SUB_TILES + j] is the tile at tile-row i, tile-column j.
    var acc = array<TileC, 4>(TileC(), TileC(), TileC(), TileC());

    for (var k0 = 0u; k0 < K; k0 += BK) {
        // Stage A[block_row .. +BM, k0 .. +BK]: 2048 halves, 16 per invocation;
        // neighbouring invocations read neighbouring addresses.
        for (var e = lid; e < BM * BK; e += WG_SIZE) {
            let r = e / BK;
            let col = e % BK;
            a_slice[r * A_LD + col] = a[(block_row + r) * K + k0 + col];
        }
        // Stage B[k0 .. +BK, block_col .. +BN].
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
        // The next iteration overwrites the slices.
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
