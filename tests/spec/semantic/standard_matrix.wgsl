// The gpuweb proposal's spelling (enable subgroup_matrix;, seed 003, updated to
// the draft of proposals/subgroup-matrix.md at gpuweb da251f9): Tint's type
// names; since #6275 the majorness is a template enumerant (`row_major`,
// `col_major`) and the bool argument is gone; stride counts array elements;
// stores and loads in storage or workgroup memory.
// Tint does not accept `enable subgroup_matrix;` yet ("expected extension"),
// so no case here has a compiler's verdict: each rule cites the draft's
// section, and the same rule's Tint-dialect case in chromium_matrix.wgsl is
// checked against the pinned Tint.

// === naive kernel in the proposal's spelling
enable f16;
enable subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
  var acc = subgroup_matrix_result<f32, 16, 16>();
  for (var k = 0u; k < 1024u; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, wg.y * 16384u + k, 1024u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&b, k * 1024u + wg.x * 16u, 1024u);
    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
  }
  subgroupMatrixStore<row_major>(&c, wg.y * 16384u + wg.x * 16u, acc, 1024u);
}
// tint: skip -- standard dialect; Tint rejects 'enable subgroup_matrix;'

// === majorness as a template enumerant (#6275)
enable subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, col_major>(&tile, 0u, 8u);
  subgroupMatrixStore<col_major>(&tile, 0u, m, 8u);
}
// tint: skip -- standard dialect

// === the bool majorness argument is gone (#6275)
enable subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>>(&tile, 0u, true, 8u);
//                                                                         ^ T004 takes the majorness as a template argument, not a bool (gpuweb #6275)
  subgroupMatrixStore(&tile, 0u, subgroup_matrix_result<f32, 8, 8>(), false, 8u);
//                                                                    ^ T004 write 'subgroupMatrixStore<row_major>(p, offset, value, stride)'
}
// tint: skip -- standard dialect; the draft's only overload is subgroupMatrixLoad<T, Majorness>(p, offset, stride)

// === types need the enable
fn f() {
  var m: subgroup_matrix_result<f32, 8, 8>;
//       ^ T007 'subgroup_matrix'
}
// tint: skip -- standard dialect (Tint would ask for its own extension name)

// === element types
enable f16;
enable subgroup_matrix;
fn f() {
  let a = subgroup_matrix_left<u8, 32, 16>(255u);
  let b = subgroup_matrix_left<i8, 32, 16>(-1);
  let c = subgroup_matrix_result<f16, 16, 16>(0.5h);
  let d = subgroup_matrix_result<i32, 16, 16>();
}
// tint: skip -- standard dialect

// === bool elements are invalid
enable subgroup_matrix;
fn f() {
  var m: subgroup_matrix_left<bool, 8, 8>;
//       ^ T005 'bool'
}
// tint: skip -- standard dialect

// === dimensions must be positive constants
enable subgroup_matrix;
fn f() {
  var m: subgroup_matrix_right<f32, 8, 0>;
//       ^ T005 row
}
// tint: skip -- standard dialect

// === variables only in function memory
enable subgroup_matrix;
var<private> m: subgroup_matrix_result<f32, 8, 8>;
//              ^ T010 'private'
// tint: skip -- standard dialect

// === load from private memory
enable subgroup_matrix;
var<private> scratch: array<f32, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&scratch, 0u, 8u);
//                                                                       ^ T008 'private'
}
// tint: skip -- standard dialect

// === store needs write access
enable subgroup_matrix;
@group(0) @binding(0) var<storage, read> out: array<f32>;
fn f() {
  subgroupMatrixStore<row_major>(&out, 0u, subgroup_matrix_result<f32, 8, 8>(), 8u);
//                               ^ T008 read
}
// tint: skip -- standard dialect

// === accumulate with mismatched inner dimension
enable subgroup_matrix;
fn f() {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  acc = subgroupMatrixMultiplyAccumulate(subgroup_matrix_left<f32, 16, 8>(), subgroup_matrix_right<f32, 8, 8>(), acc);
//      ^ T006 shape
}
// tint: skip -- standard dialect

// === scalar operations
enable subgroup_matrix;
fn f() {
  var acc = subgroup_matrix_result<i32, 8, 8>();
  acc = subgroupMatrixScalarAdd(acc, 1i);
  acc = subgroupMatrixScalarMultiply(acc, 2);
}
// tint: skip -- standard dialect

// === Tint's extension name in the standard spelling module is a second dialect
enable subgroup_matrix;
enable chromium_experimental_subgroup_matrix;
//     ^ T011 'chromium_experimental_subgroup_matrix'
// tint: skip -- standard dialect

// === column-major load from a storage array
enable subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, col_major>(&a, 0u, 8u);
}
// tint: skip -- standard dialect

// --- The draft's rules (gpuweb proposals/subgroup-matrix.md at da251f9). Tint
// implements the same rules for its own dialect; the matching cases in
// chromium_matrix.wgsl carry Tint's verdicts.

// === enable subgroup_matrix brings the subgroup builtins (#6366)
enable subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32) {
  let top = subgroupMax(lane);
  let all = subgroupAll(top < size);
}
// tint: skip -- standard dialect; the draft, "Enable Extension": "Automatically enables `subgroups` extension."

// === arrays of vectors hold matrix elements (#6345)
enable f16;
enable subgroup_matrix;
var<workgroup> tile: array<vec4<u32>, 32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 0u, 2u);
  subgroupMatrixStore<col_major>(&tile, 0u, m, 2u);
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": SA is a scalar or vector numeric type

// === array elements narrower than the matrix element (#6365)
enable f16;
enable subgroup_matrix;
var<workgroup> tile: array<f16, 128>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&tile, 0u, 16u);
//                                                                         ^ T008 the stride of the array (2 bytes) must be greater than or equal to the matrix element size (4 bytes)
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": "StrideOf(A) must be greater than or equal to SizeOf(C)"

// === a constant stride shorter than a row is a shader-creation error (#6275)
enable subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&tile, 0u, 4u);
//                                                                                    ^ T009 stride 4 (16 bytes) is less than one matrix row
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": stride * StrideOf(A) < MinorSize(T, Majorness) * SizeOf(C) with a const-expression stride

// === column major: the stride covers a column (#6275)
enable subgroup_matrix;
var<workgroup> tile: array<f32, 128>;
fn f() {
  subgroupMatrixStore<col_major>(&tile, 0u, subgroup_matrix_left<f32, 8, 16>(), 8u);
//                                                                              ^ T009 column
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": MinorSize is the row count for col_major

// === a run-time stride is a dynamic error, not a compile-time one (#6275)
enable subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f(stride: u32) -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, 0u, stride);
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": "It is a dynamic error otherwise"

// === a fixed-size array smaller than the matrix (MinStorageSize, #6310 / #6334)
enable subgroup_matrix;
var<workgroup> tile: array<f32, 32>;
fn f() {
  subgroupMatrixStore<row_major>(&tile, 0u, subgroup_matrix_result<f32, 8, 8>(), 8u);
//                               ^ T016 needs 256 bytes
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": MinStorageSize(T) = M * N * SizeOf(C) bytes, "for workgroup variables it is the size of the variable"

// === a constant offset past the end of a fixed-size array (#6275)
enable subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  subgroupMatrixStore<col_major>(&tile, 60u, subgroup_matrix_result<f32, 8, 8>(), 8u);
//                               ^ T016 needs 496 bytes
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": offset + stride * (MajorSize - 1) ... > N * StrideOf(A) with const N and offset

// === the majorness template argument is row_major or col_major (#6275)
enable subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  subgroupMatrixStore<read>(&tile, 0u, subgroup_matrix_result<f32, 8, 8>(), 8u);
//                    ^ T003 'row_major' or 'col_major'
}
// tint: skip -- standard dialect; the draft, "Predeclared Enumerants": Majorness is col_major or row_major (Tint, in its own dialect: "Unexpected template kind" at the same place)

// === an override stride whose default is shorter than a row (#6275)
enable subgroup_matrix;
override S: u32 = 4u;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(32) fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&tile, 0u, S);
//                                                                                    ^ T009 [warning] pipeline creation fails unless it sets S to at least 8
}
// tint: skip -- standard dialect; the draft, "Load/Store functions": a pipeline-creation error if stride is an override-expression (a warning here: the pipeline may set S); Dawn does the same in its dialect (chromium_matrix.wgsl)

// === an override stride with a long enough default, or none (#6275)
enable subgroup_matrix;
override S: u32 = 8u;
override T: u32;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(32) fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&tile, 0u, S);
  subgroupMatrixStore<col_major>(&tile, 0u, m, T);
}
// tint: skip -- standard dialect
