// naga's cooperative matrices (enable wgpu_cooperative_matrix): coop_mat8x8
// and coop_mat16x16 with a role A, B or C; coopLoad/coopStore (column-major),
// coopLoadT/coopStoreT (row-major), coopMultiplyAdd, the zero constructor.
// Tint does not know this dialect; every case is checked with the pinned naga
// (naga-cli 30.0.1, whose cooperative matrices are those of 29.0.4, the naga
// of wgpu-native 29 that the runner uses: both give every case here the same verdict).

// === naive f16 GEMM tile
enable f16;
enable wgpu_cooperative_matrix;
alias TileA = coop_mat16x16<f16, A>;
alias TileB = coop_mat16x16<f16, B>;
alias TileC = coop_mat16x16<f32, C>;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
  var acc = TileC();
  for (var k = 0u; k < 1024u; k += 16u) {
    let ta = coopLoadT<TileA>(&a[wg.y * 16384u + k], 1024u);
    let tb = coopLoadT<TileB>(&b[k * 1024u + wg.x * 16u], 1024u);
    acc = coopMultiplyAdd(ta, tb, acc);
  }
  coopStoreT(acc, &c[wg.y * 16384u + wg.x * 16u], 1024u);
}
// tint: skip -- wgpu dialect

// === 8x8 f32 tiles from workgroup memory, column major
enable wgpu_cooperative_matrix;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(8, 8)
fn main() {
  let a = coopLoad<coop_mat8x8<f32, A>>(&tile[0], 8u);
  let b = coopLoad<coop_mat8x8<f32, B>>(&tile[0], 8u);
  let c = coopMultiplyAdd(a, b, coop_mat8x8<f32, C>());
  coopStore(c, &tile[0], 8u);
}
// tint: skip -- wgpu dialect

// === matrices as function parameters and return values
enable wgpu_cooperative_matrix;
alias MatC = coop_mat8x8<f32, C>;
fn step(a: coop_mat8x8<f32, A>, b: coop_mat8x8<f32, B>, c: MatC) -> MatC {
  return coopMultiplyAdd(a, b, c);
}
fn f() -> MatC { return step(coop_mat8x8<f32, A>(), coop_mat8x8<f32, B>(), MatC()); }
// tint: skip -- wgpu dialect

// === a private matrix variable
enable wgpu_cooperative_matrix;
var<private> acc: coop_mat8x8<f32, C>;
fn f() { acc = coop_mat8x8<f32, C>(); }
// tint: skip -- wgpu dialect (SPIR-V allows cooperative matrices in Private)

// === a workgroup matrix variable
enable wgpu_cooperative_matrix;
var<workgroup> acc: coop_mat8x8<f32, C>;
//                  ^ T010 'workgroup'
// tint: skip -- wgpu dialect
// naga: differs -- naga 29 validates it, but SPIR-V only allows cooperative matrices in Function and Private storage

// === the enable is required
fn f() {
  var m = coop_mat8x8<f32, A>();
//        ^ T007 'wgpu_cooperative_matrix'
}
// tint: skip -- wgpu dialect
// naga: compare -- naga: the `wgpu_cooperative_matrix` enable extension is not enabled

// === coopLoad needs the enable
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() {
  _ = coopLoad<coop_mat8x8<f32, A>>(&a[0], 8u);
//    ^ T007 'wgpu_cooperative_matrix'
}
// tint: skip -- wgpu dialect
// naga: compare -- naga also requires the enable for the builtin

// === unknown role
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat8x8<f32, D>();
//        ^ T005 'D'
}
// tint: skip -- wgpu dialect
// naga: unknown access: `D` (at the role)

// === only 8x8 and 16x16 exist
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat4x4<f32, A>();
//        ^ T001 'coop_mat4x4'
}
// tint: skip -- wgpu dialect

// === integer elements are not supported
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat8x8<u32, C>();
//        ^ T005 'u32'
}
// tint: skip -- wgpu dialect
// naga: Type [0] '' is invalid: Matrix elements must always be floating-point types (no position)

// === i8 does not exist in naga 29 nor in naga 30.0.1
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat16x16<i8, A>();
//                      ^ T001 'i8'
}
// tint: skip -- wgpu dialect

// === f16 elements need enable f16
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat16x16<f16, A>();
//                      ^ T007 'f16'
}
// tint: skip -- wgpu dialect

// === the constructor takes no value
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat8x8<f32, C>(1.0);
//        ^ T004 'coop_mat8x8<f32, C>'
}
// tint: skip -- wgpu dialect
// naga: type `coop_mat8x8<f32, C>` is not constructible

// === coopMultiplyAdd with two A operands
enable wgpu_cooperative_matrix;
fn f() {
  let a = coop_mat8x8<f32, A>();
  var c = coop_mat8x8<f32, C>();
  c = coopMultiplyAdd(a, a, c);
//    ^ T004 'coopMultiplyAdd'
}
// tint: skip -- wgpu dialect
// naga: Invalid operand for cooperative op

// === coopMultiplyAdd with operands swapped
enable wgpu_cooperative_matrix;
fn f() {
  let a = coop_mat8x8<f32, A>();
  let b = coop_mat8x8<f32, B>();
  var c = coop_mat8x8<f32, C>();
  c = coopMultiplyAdd(b, a, c);
//    ^ T004 'coopMultiplyAdd'
}
// tint: skip -- wgpu dialect

// === coopMultiplyAdd with shapes that differ
enable wgpu_cooperative_matrix;
fn f() {
  let a = coop_mat16x16<f32, A>();
  let b = coop_mat8x8<f32, B>();
  var c = coop_mat16x16<f32, C>();
  c = coopMultiplyAdd(a, b, c);
//    ^ T006 shape
}
// tint: skip -- wgpu dialect
// naga: differs -- naga 29 validates it; SPIR-V requires consistent M, N, K (OpCooperativeMatrixMulAddKHR)

// === coopMultiplyAdd result assigned to an A matrix
enable wgpu_cooperative_matrix;
fn f() {
  let a = coop_mat8x8<f32, A>();
  let b = coop_mat8x8<f32, B>();
  let c: coop_mat8x8<f32, A> = coopMultiplyAdd(a, b, coop_mat8x8<f32, C>());
//                             ^ T003 'coop_mat8x8<f32, A>'
}
// tint: skip -- wgpu dialect

// === coopStore into a read-only buffer
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> out: array<f32>;
fn f() {
  let c = coop_mat8x8<f32, C>();
  coopStore(c, &out[0], 8u);
//             ^ T008 read
}
// tint: skip -- wgpu dialect
// naga: The pointer doesn't relate to a valid destination for a store

// === coopLoad from an array of another element type
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> words: array<u32>;
fn f() {
  let m = coopLoad<coop_mat8x8<f32, A>>(&words[0], 8u);
//                                      ^ T008 'u32'
}
// tint: skip -- wgpu dialect
// naga: differs -- naga 29 validates it; SPIR-V needs the pointer's component type to match

// === coopLoad with a constant stride shorter than a column
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() {
  let m = coopLoad<coop_mat8x8<f32, A>>(&a[0], 4u);
//                                             ^ T009 stride
}
// tint: skip -- wgpu dialect
// naga: differs -- naga does not check constant strides; columns would overlap

// === coopLoadT with a constant stride shorter than a row
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() {
  let m = coopLoadT<coop_mat16x16<f32, B>>(&a[0], 8u);
//                                                ^ T009 stride
}
// tint: skip -- wgpu dialect
// naga: differs -- naga does not check constant strides

// === coopLoad with a runtime stride
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f(stride: u32) -> coop_mat8x8<f32, A> { return coopLoad<coop_mat8x8<f32, A>>(&a[0], stride); }
// tint: skip -- wgpu dialect

// === coopLoad of a non-matrix type
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() {
  let m = coopLoad<f32>(&a[0], 8u);
//        ^ T004 'coopLoad'
}
// tint: skip -- wgpu dialect

// === coopLoad needs a pointer
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() {
  let m = coopLoad<coop_mat8x8<f32, A>>(a[0], 8u);
//        ^ T004 'coopLoad'
}
// tint: skip -- wgpu dialect

// === naga adds matrices of one type
enable wgpu_cooperative_matrix;
fn f() -> coop_mat8x8<f32, C> {
  let c = coop_mat8x8<f32, C>();
  return c + c;
}
// tint: skip -- wgpu dialect (Tint has no matrix operators at all)

// === adding matrices of different roles
enable wgpu_cooperative_matrix;
fn f() {
  let a = coop_mat8x8<f32, A>();
  let c = coop_mat8x8<f32, C>();
  let d = a + c;
//        ^ T004 '+'
}
// tint: skip -- wgpu dialect

// === matrices cannot be indexed in naga
enable wgpu_cooperative_matrix;
fn f() {
  let c = coop_mat8x8<f32, C>();
  let d = c[0];
//        ^ T003 index
}
// tint: skip -- wgpu dialect

// === Tint's builtins are unknown in the wgpu dialect
enable wgpu_cooperative_matrix;
fn f() {
  let c = subgroupMatrixMultiply<f32>(coop_mat8x8<f32, A>(), coop_mat8x8<f32, B>());
//        ^ T001 'subgroupMatrixMultiply'
}
// tint: skip -- wgpu dialect

// === 2x2 accumulators in separate variables
enable f16;
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
  var c00 = coop_mat16x16<f32, C>();
  var c01 = coop_mat16x16<f32, C>();
  let row = wg.y * 32u;
  let col = wg.x * 32u;
  for (var k = 0u; k < 1024u; k += 16u) {
    let a0 = coopLoadT<coop_mat16x16<f16, A>>(&a[row * 1024u + k], 1024u);
    let b0 = coopLoadT<coop_mat16x16<f16, B>>(&b[k * 1024u + col], 1024u);
    let b1 = coopLoadT<coop_mat16x16<f16, B>>(&b[k * 1024u + col + 16u], 1024u);
    c00 = coopMultiplyAdd(a0, b0, c00);
    c01 = coopMultiplyAdd(a0, b1, c01);
  }
  coopStoreT(c00, &c[row * 1024u + col], 1024u);
  coopStoreT(c01, &c[row * 1024u + col + 16u], 1024u);
}
// tint: skip -- wgpu dialect

// === loading the same tile in both majornesses
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() {
  let col = coopLoad<coop_mat8x8<f32, A>>(&a[0], 8u);
  let row = coopLoadT<coop_mat8x8<f32, A>>(&a[0], 8u);
  let c = coopMultiplyAdd(col, coopLoadT<coop_mat8x8<f32, B>>(&a[64], 8u), coop_mat8x8<f32, C>());
}
// tint: skip -- wgpu dialect

// === storing into workgroup memory then reading back
enable wgpu_cooperative_matrix;
var<workgroup> tile: array<f32, 256>;
@compute @workgroup_size(32)
fn main() {
  coopStoreT(coop_mat16x16<f32, C>(), &tile[0], 16u);
  workgroupBarrier();
  let c = coopLoadT<coop_mat16x16<f32, C>>(&tile[0], 16u);
  coopStore(c, &tile[0], 16u);
}
// tint: skip -- wgpu dialect

// --- wgpu 30. naga 30.0.1, the newest release on crates.io, has the same
// cooperative-matrix front end and validator as 29.0.4: only coop_mat8x8 and
// coop_mat16x16, f16 and f32 elements, and no wgpu_debug_printf extension.
// The 8x16 / 16x8 shapes, int8 matrices and `enable wgpu_debug_printf;` are on
// wgpu's trunk only; these cases pin the released verdicts and will flip when
// a release carries them.

// === 8x16 is not in a released naga
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat8x16<f32, A>();
//        ^ T001 8x16 and 16x8 are on wgpu's trunk
}
// tint: skip -- wgpu dialect
// naga: no definition in scope for identifier: `coop_mat8x16` (29.0.4 and 30.0.1)

// === 16x8 is not in a released naga
enable wgpu_cooperative_matrix;
fn f() {
  var m = coop_mat16x8<f32, C>();
//        ^ T001 'coop_mat16x8'
}
// tint: skip -- wgpu dialect
// naga: no definition in scope for identifier: `coop_mat16x8` (29.0.4 and 30.0.1)

// === enable wgpu_debug_printf is not in a released naga
enable wgpu_cooperative_matrix;
enable wgpu_debug_printf;
//     ^ T001 unknown extension 'wgpu_debug_printf'
// tint: skip -- wgpu dialect
// naga: unknown enable-extension `wgpu_debug_printf` (29.0.4 and 30.0.1)

// === f16 x f16 -> f32 accumulation
enable f16;
enable wgpu_cooperative_matrix;
var<workgroup> h: array<f16, 256>;
var<workgroup> acc: array<f32, 256>;
fn f() {
  let a = coopLoad<coop_mat16x16<f16, A>>(&h[0], 16u);
  let b = coopLoadT<coop_mat16x16<f16, B>>(&h[0], 16u);
  let c = coopMultiplyAdd(a, b, coopLoad<coop_mat16x16<f32, C>>(&acc[0], 16u));
  coopStoreT(c, &acc[0], 16u);
}
// tint: skip -- wgpu dialect; naga 29.0.4 and 30.0.1 validate mixed precision (it is Metal's backend that gained it in wgpu 30)
