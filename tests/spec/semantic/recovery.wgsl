// Error recovery: a syntax error in one function must not hide the type
// errors of another. Tint stops at the first syntax error, so its first error
// is the syntax error; the spec expects both.

// === syntax error before a type error
fn broken() {
  let x = 1
//         ^ S001 ';'
}
fn typed() {
  var y: u32 = 1.5;
//             ^ T003 'u32'
}

// === type error before a syntax error
fn typed() {
  var y: u32 = 1.5;
//             ^ T003 'u32'
}
fn broken() {
  let x = 1 + 2
//             ^ S001 ';'
}
// tint: differs -- Tint stops at the first syntax error (line 6); our first error is the type error above it

// === unresolved name after a broken function
fn broken( {
//        ^ S001 ')'
}
fn f() -> u32 {
  return missing;
//       ^ T001 'missing'
}

// === matrix error after a broken statement
enable chromium_experimental_subgroup_matrix;
fn broken() {
  var x 3;
//      ^ S001 '3'
}
fn f() {
  var m: subgroup_matrix_left<f32, 0, 8>;
//       ^ T005 column
}

// === shape mismatch after a syntax error in the same function
enable chromium_experimental_subgroup_matrix;
fn f() {
  let broken = ;
//            ^ S001 expression
  let l = subgroup_matrix_left<f32, 8, 8>();
  let r = subgroup_matrix_right<f32, 8, 16>();
  let x = subgroupMatrixMultiply<f32>(l, r);
//        ^ T006 shape
}

// === deprecated builtin warning with a syntax error elsewhere
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&buf, 0u, false, 8u);
//        ^ T012 deprecated
}
fn g() { let y = 2 }
//                ^ S001 ';'

// === no cascade from an unresolved type
fn f() {
  var v: vec3<flaot>;
//            ^ T001 'flaot'
  let w = v * 2.0;
  let u: f32 = w.x;
}

// === no cascade from a bad call
fn f() -> f32 {
  let x = sqrt(1u);
//        ^ T004 'sqrt'
  return x + 1.0;
}

// === module-scope syntax error does not hide a function's type error
const N: u32 = ;
//            ^ S001 expression
fn f() -> u32 {
  return 1.5;
//       ^ T003 'u32'
}
