// The gpuweb proposal's spelling (enable subgroup_matrix;, seed 003): Tint's
// type names, the bool majorness argument as the only load/store form (so no
// deprecation warning), stores and loads in storage or workgroup memory.
// Tint does not accept `enable subgroup_matrix;` yet ("expected extension").

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
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&a, wg.y * 16384u + k, false, 1024u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&b, k * 1024u + wg.x * 16u, false, 1024u);
    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
  }
  subgroupMatrixStore(&c, wg.y * 16384u + wg.x * 16u, acc, false, 1024u);
}
// tint: skip -- standard dialect; Tint rejects 'enable subgroup_matrix;'

// === the bool form is not deprecated here
enable subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>>(&tile, 0u, true, 8u);
  subgroupMatrixStore(&tile, 0u, m, true, 8u);
}
// tint: skip -- standard dialect

// === col_major must be a constant
enable subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f(col: bool) {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>>(&tile, 0u, col, 8u);
//                                                                         ^ T014 const-expression
}
// tint: skip -- standard dialect

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
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&scratch, 0u, false, 8u);
//                                                            ^ T008 'private'
}
// tint: skip -- standard dialect

// === store needs write access
enable subgroup_matrix;
@group(0) @binding(0) var<storage, read> out: array<f32>;
fn f() {
  subgroupMatrixStore(&out, 0u, subgroup_matrix_result<f32, 8, 8>(), false, 8u);
//                    ^ T008 read
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

// === column-major load with a constant
enable subgroup_matrix;
const COL_MAJOR = true;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&a, 0u, COL_MAJOR, 8u);
}
// tint: skip -- standard dialect
