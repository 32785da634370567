// Tiled f32 GEMM in plain WGSL: no extensions, the baseline the matrix
// kernels are compared against and the kind of kernel every WebGPU device
// (including CPU adapters in CI) can run.
//
// Computes C = A * B:
//   binding 0  a: array<f32>, A is M x K, row-major
//   binding 1  b: array<f32>, B is K x N, row-major
//   binding 2  c: array<f32>, C is M x N, row-major, written
// M, N and K are pipeline-overridable constants, 1024 each by default, and
// need not be multiples of the tile size: out-of-range elements are read as 0
// and not written.
//
// Work split: a 16 x 16 workgroup computes a 64 x 64 block of C; each
// invocation computes a 4 x 4 patch of it in registers. K is walked in steps
// of 16: the workgroup copies a 64 x 16 slice of A and a 16 x 64 slice of B
// into workgroup memory (4 elements of each per invocation), synchronises,
// and accumulates from there. The barriers sit in control flow that depends
// only on overrides and constants, so the kernel is workgroup-uniform.
//
// Dispatch: dispatchWorkgroups(ceil(N / 64), ceil(M / 64), 1) = (16, 16, 1)
// for the defaults.

override M: u32 = 1024u;
override N: u32 = 1024u;
override K: u32 = 1024u;

const WG: u32 = 16u;         // workgroup is WG x WG invocations
const PER_THREAD: u32 = 4u;  // each invocation computes PER_THREAD^2 outputs
const BLOCK: u32 = WG * PER_THREAD; // 64
const BK: u32 = 16u;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

var<workgroup> a_slice: array<array<f32, BK>, BLOCK>;    // [row][k]
var<workgroup> b_slice: array<array<f32, BLOCK>, BK>;    // [k][col]

fn load_a(row: u32, col: u32) -> f32 {
    if (row < M && col < K) {
        return a[row * K + col];
    }
    return 0.0;
}

fn load_b(row: u32, col: u32) -> f32 {
    if (row < K && col < N) {
        return b[row * N + col];
    }
    return 0.0;
}

@compute @workgroup_size(WG, WG, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let block_row = wg.y * BLOCK;
    let block_col = wg.x * BLOCK;
    let flat = lid.y * WG + lid.x; // 0 .. 255

    var acc: array<array<f32, PER_THREAD>, PER_THREAD>;

    for (var k0 = 0u; k0 < K; k0 += BK) {
        // 64 x 16 = 1024 elements of A and 1024 of B, 4 each per invocation.
        for (var i = 0u; i < PER_THREAD; i++) {
            let e = i * WG * WG + flat;
            let ar = e / BK;
            let ak = e % BK;
            a_slice[ar][ak] = load_a(block_row + ar, k0 + ak);
            let bk = e / BLOCK;
            let bc = e % BLOCK;
            b_slice[bk][bc] = load_b(k0 + bk, block_col + bc);
        }
        workgroupBarrier();

        for (var kk = 0u; kk < BK; kk++) {
            var a_col: array<f32, PER_THREAD>;
            var b_row: array<f32, PER_THREAD>;
            for (var i = 0u; i < PER_THREAD; i++) {
                a_col[i] = a_slice[lid.y * PER_THREAD + i][kk];
                b_row[i] = b_slice[kk][lid.x * PER_THREAD + i];
            }
            for (var i = 0u; i < PER_THREAD; i++) {
                for (var j = 0u; j < PER_THREAD; j++) {
                    acc[i][j] = fma(a_col[i], b_row[j], acc[i][j]);
                }
            }
        }
        workgroupBarrier();
    }

    for (var i = 0u; i < PER_THREAD; i++) {
        for (var j = 0u; j < PER_THREAD; j++) {
            let row = block_row + lid.y * PER_THREAD + i;
            let col = block_col + lid.x * PER_THREAD + j;
            if (row < M && col < N) {
                c[row * N + col] = acc[i][j];
            }
        }
    }
}
