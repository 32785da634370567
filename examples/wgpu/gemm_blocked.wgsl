// GEMM, register-blocked cooperative-matrix kernel (wgpu / naga dialect).
//
// Computes C = A * B with M = N = K = 1024:
//   binding 0  a: array<f16>, A is M x K, row-major
//   binding 1  b: array<f16>, B is K x N, row-major
//   binding 2  c: array<f32>, C is M x N, row-major, written
// f16 inputs, f32 accumulator, 16 x 16 x 16 tiles (adapter property
// m_size = n_size = k_size = 16, ab_type f16, cr_type f32).
//
// Work split: one workgroup of 32 invocations (one subgroup on 32-wide
// hardware) computes a 32 x 32 block of C as 2 x 2 accumulator tiles kept in
// four variables. Per K step it loads two A tiles and two B tiles and does
// four multiply-adds, so every loaded tile is used twice: half the loads per
// multiply of gemm_naive.wgsl. (Going to 4 x 4 tiles halves them again, at the
// cost of 16 live accumulators.) coopLoadT / coopStoreT are naga's row-major
// forms.
//
// Dispatch: dispatch_workgroups(N / 32, M / 32, 1) = (32, 32, 1).
// Device features: EXPERIMENTAL_COOPERATIVE_MATRIX, SHADER_F16.

enable f16;
enable wgpu_cooperative_matrix;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;

const TILE: u32 = 16u;
const BLOCK: u32 = 2u * TILE; // 32 x 32 block of C per workgroup

alias TileA = coop_mat16x16<f16, A>;
alias TileB = coop_mat16x16<f16, B>;
alias TileC = coop_mat16x16<f32, C>;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(32, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
    let row0 = wg.y * BLOCK;
    let col0 = wg.x * BLOCK;

    // acc_ij: tile-row i, tile-column j of the block.
    var acc_00 = TileC();
    var acc_01 = TileC();
    var acc_10 = TileC();
    var acc_11 = TileC();

    for (var k = 0u; k < K; k += TILE) {
        let a_0 = coopLoadT<TileA>(&a[row0 * K + k], K);
        let a_1 = coopLoadT<TileA>(&a[(row0 + TILE) * K + k], K);
        let b_0 = coopLoadT<TileB>(&b[k * N + col0], N);
        let b_1 = coopLoadT<TileB>(&b[k * N + col0 + TILE], N);

        acc_00 = coopMultiplyAdd(a_0, b_0, acc_00);
        acc_01 = coopMultiplyAdd(a_0, b_1, acc_01);
        acc_10 = coopMultiplyAdd(a_1, b_0, acc_10);
        acc_11 = coopMultiplyAdd(a_1, b_1, acc_11);
    }

    coopStoreT(acc_00, &c[row0 * N + col0], N);
    coopStoreT(acc_01, &c[row0 * N + col0 + TILE], N);
    coopStoreT(acc_10, &c[(row0 + TILE) * N + col0], N);
    coopStoreT(acc_11, &c[(row0 + TILE) * N + col0 + TILE], N);
}
