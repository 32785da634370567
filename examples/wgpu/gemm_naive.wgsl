// GEMM, naive cooperative-matrix kernel (wgpu / naga dialect).
//
// Computes C = A * B with M = N = K = 1024:
//   binding 0  a: array<f16>, A is M x K, row-major (M*K elements)
//   binding 1  b: array<f16>, B is K x N, row-major (K*N elements)
//   binding 2  c: array<f32>, C is M x N, row-major (M*N elements), written
// f16 inputs, f32 accumulator, 16x16 tiles with a 16-deep inner step: the
// adapter's cooperative_matrix_properties() must contain m_size = n_size =
// k_size = 16 with ab_type f16 and cr_type f32.
//
// naga spells each memory builtin twice: coopLoad/coopStore address memory
// column-major, coopLoadT/coopStoreT row-major (naga lowers the T forms to
// SPIR-V RowMajorKHR). All matrices here are row-major, so only the T forms
// appear; the stride is the number of elements between consecutive rows.
//
// Work split: one workgroup of 32 invocations, i.e. one subgroup on 32-wide
// hardware, computes one 16 x 16 tile of C. It walks K in steps of 16 and
// loads both operand tiles from storage each time: no reuse, so the kernel is
// bandwidth-bound (the slow baseline). All control flow depends only on
// workgroup_id and constants, which naga's uniformity analysis accepts.
// On hardware whose subgroups are wider than 32 this workgroup would be a
// partial subgroup, which cooperative matrices do not support: check the
// adapter's subgroup size before dispatching.
//
// Dispatch: dispatch_workgroups(N / 16, M / 16, 1) = (64, 64, 1).
// Device features: EXPERIMENTAL_COOPERATIVE_MATRIX, SHADER_F16.

enable f16;
enable wgpu_cooperative_matrix;

const M: u32 = 1024u;
const N: u32 = 1024u;
const K: u32 = 1024u;

const TILE: u32 = 16u;

alias TileA = coop_mat16x16<f16, A>;
alias TileB = coop_mat16x16<f16, B>;
alias TileC = coop_mat16x16<f32, C>;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(32, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
    let row0 = wg.y * TILE;
    let col0 = wg.x * TILE;

    var acc = TileC(); // zero
    for (var k = 0u; k < K; k += TILE) {
        let ta = coopLoadT<TileA>(&a[row0 * K + k], K);
        let tb = coopLoadT<TileB>(&b[k * N + col0], N);
        acc = coopMultiplyAdd(ta, tb, acc);
    }
    coopStoreT(acc, &c[row0 * N + col0], N);
}
