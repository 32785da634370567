// Regressions found by the differential campaign (benchmarks/differential.py):
// one-edit mutants of real shaders where coop-lint and Tint disagreed, cut
// down to the edit. Each case is compiled by Tint too.

// === deprecated load with a bool majorness: Tint checks no extent
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 32, 8>>(&tile, 0u, true, 8u);
//        ^ T012 deprecated
}

// === deprecated store with a bool majorness: Tint checks no stride
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroup_matrix_result<f32, 32, 8>();
  subgroupMatrixStore(&tile, 0u, m, false, 8u);
//^ T012 deprecated
}

// === the template form of the same store is checked
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroup_matrix_result<f32, 32, 8>();
  subgroupMatrixStore<row_major>(&tile, 0u, m, 8u);
//                                             ^ T009 stride 8 (32 bytes) is less than one matrix row
}

// === subgroup builtins come with the matrix extension
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  buf[li] = subgroupMax(buf[li]) + subgroupBroadcastFirst(buf[0]);
}

// === subgroup builtins without any extension
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  buf[li] = subgroupMax(buf[li]);
//          ^ T007 requires the extension 'subgroups'
}

// === a matrix type that is wrong is reported once, not again at the call
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> words: array<u32>;
fn f() {
  let m = coopLoad<coop_mat8x8<i32, A>>(&words[0], 8u);
//                 ^ T005 cooperative matrix element type must be f32 or f16, not 'i32'
}
// tint: skip -- wgpu dialect
// naga: differs -- naga 29 validates element types that no GPU offers for cooperative matrices

// === a float dimension counts as its integer part, as Tint reads it
enable chromium_experimental_subgroup_matrix;
fn f() {
  let a = subgroup_matrix_result<f32, 8, 8f>(1);
  let b = subgroup_matrix_left<f32, 8.5, 8>(1);
}

// === a float dimension below one is no dimension
enable chromium_experimental_subgroup_matrix;
fn f() { let s = subgroup_matrix_result<f32, 8, 0.5>(1); }
//               ^ T005 row count must be a constant positive integer
