// P006's fixed kernel: ../../examples/chromium/gemm_blocked.wgsl with the
// staging copies reading 16 bytes (8 halves, one vec4<u32>) per invocation
// instead of one f16; the block, the subgroups' tiles, the padding and the
// multiplies are those of gemm_blocked.wgsl (read it first).
//
// A and B are bound as array<vec4<u32>> (the run description still says
// f16: the runner lets a kernel read f16 data as 32-bit words). Each word
// holds two halves, unpacked with unpack2x16float (exact: every f16 is an f32).
//
// Dispatch: dispatchWorkgroups(N / 64, M / 64, 1).

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

@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
const HALVES: u32 = 8u; // f16 values per vec4<u32>
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
        // Stage A[block_row .. +BM, k0 .. +BK]: 256 vec4<u32>, 2 per invocation;
        // neighbouring invocations read neighbouring addresses.
        for (var e = lid; e < BM * BK / HALVES; e += WG_SIZE) {
            let r = e / (BK / HALVES);
            let col = (e % (BK / HALVES)) * HALVES;
            put8_a(r * A_LD + col, a[((block_row + r) * K + k0 + col) / HALVES]);
        }
        // Stage B[k0 .. +BK, block_col .. +BN].
        for (var e = lid; e < BK * BN / HALVES; e += WG_SIZE) {
            let r = e / (BN / HALVES);
            let col = (e % (BN / HALVES)) * HALVES;
            put8_b(r * B_LD + col, b[((k0 + r) * N + block_col + col) / HALVES]);
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

// Eight halves packed in four words, written to consecutive elements of a slice.
fn put8_a(at: u32, v: vec4<u32>) {
    for (var w = 0u; w < 4u; w++) {
        let pair = unpack2x16float(v[w]);
        a_slice[at + 2u * w] = f16(pair.x);
        a_slice[at + 2u * w + 1u] = f16(pair.y);
    }
}

fn put8_b(at: u32, v: vec4<u32>) {
    for (var w = 0u; w < 4u; w++) {
        let pair = unpack2x16float(v[w]);
        b_slice[at + 2u * w] = f16(pair.x);
        b_slice[at + 2u * w + 1u] = f16(pair.y);
    }
}
