// Tint's subgroup matrices (enable chromium_experimental_subgroup_matrix):
// types, constructors, loads and stores in the current form (majorness as a
// template argument) and the deprecated bool form, multiply, accumulate,
// scalar operations, element types and where matrices may live.
// Tint: left<T, K, M> has K columns and M rows, right<T, N, K> N columns and
// K rows, result<T, N, M> N columns and M rows.

// === f16 GEMM inner loop
enable f16;
enable chromium_experimental_subgroup_matrix;
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

// === every element type
enable f16;
enable chromium_experimental_subgroup_matrix;
fn f() {
  let a = subgroup_matrix_left<f32, 8, 8>();
  let b = subgroup_matrix_left<f16, 8, 8>();
  let c = subgroup_matrix_right<u32, 8, 8>();
  let d = subgroup_matrix_right<i32, 8, 8>();
  let e = subgroup_matrix_result<u8, 8, 8>();
  let g = subgroup_matrix_result<i8, 8, 8>();
}

// === aliases of matrix types
enable chromium_experimental_subgroup_matrix;
const TK = 16u;
alias TileA = subgroup_matrix_left<f32, TK, 8>;
alias TileB = subgroup_matrix_right<f32, 8, TK>;
alias TileC = subgroup_matrix_result<f32, 8, 8>;
fn f() -> TileC { return subgroupMatrixMultiply<f32>(TileA(), TileB()); }

// === matrix types need the enable
fn f() {
  var m: subgroup_matrix_left<f32, 8, 8>;
//       ^ T007 'chromium_experimental_subgroup_matrix'
}
// tint: use of 'subgroup_matrix_*' requires enabling extension 'chromium_experimental_subgroup_matrix'

// === matrix builtins need the enable
@group(0) @binding(0) var<storage, read_write> b: array<f32>;
fn f() {
  subgroupMatrixStore<row_major>(&b, 0u, subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&b, 0u, 8u), 8u);
//^ T007 'chromium_experimental_subgroup_matrix'
}

// === f16 matrix needs enable f16
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_left<f16, 8, 8>;
//                            ^ T007 'f16'
}
// tint: 'f16' type used without 'f16' extension enabled

// === bf16 is not an element type
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_left<bf16, 16, 16>;
//                            ^ T001 'bf16'
}
// tint: unresolved type 'bf16'

// === bool is not an element type
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_left<bool, 8, 8>;
//       ^ T005 'bool'
}
// tint: subgroup_matrix element type must be f32, f16, i32, u32, i8 or u8

// === a vector is not an element type
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_result<vec4<f32>, 8, 8>;
//       ^ T005 'vec4<f32>'
}

// === column count must be positive
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_left<f16, 0, 16>;
//       ^ T005 column
}
// tint: subgroup matrix column count must be a constant positive integer (at the 0)

// === row count must be positive
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_right<f32, 8, -8>;
//       ^ T005 row
}

// === dimensions must be constants, not overrides
enable chromium_experimental_subgroup_matrix;
override K = 8u;
fn f() {
  var m: subgroup_matrix_left<f32, K, 8>;
//       ^ T005 column
}
// tint: subgroup matrix column count must be a constant positive integer

// === dimensions from const expressions
enable chromium_experimental_subgroup_matrix;
const BASE = 4;
fn f() { var m: subgroup_matrix_left<f32, BASE * 2, BASE + 4>; _ = m; }

// === a matrix type needs three template arguments
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_left<f32, 8>;
//       ^ T005 template
}
// tint: 'subgroup_matrix_left' requires 3 template arguments

// === any shape compiles, even 16x12 that no adapter has
// The type is valid WGSL; shapes are checked against adapters' configs at
// pipeline creation, and by the device-profile analysis, not here.
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m: subgroup_matrix_result<f32, 16, 12>;
}

// === zero-value constructor, splat constructor
enable chromium_experimental_subgroup_matrix;
fn f() {
  let z = subgroup_matrix_result<f32, 8, 8>();
  let s = subgroup_matrix_result<f32, 8, 8>(1.5);
  let i = subgroup_matrix_result<i32, 8, 8>(-3);
  let u = subgroup_matrix_left<u8, 8, 8>(7u);
}

// === splat of abstract int into an f32 matrix
enable chromium_experimental_subgroup_matrix;
fn f() { let s = subgroup_matrix_result<f32, 8, 8>(1); }

// === splat of an i32 into an f32 matrix
enable chromium_experimental_subgroup_matrix;
fn f() {
  let s = subgroup_matrix_result<f32, 8, 8>(3i);
//                                          ^ T003 'i32'
}
// tint: 'i32' cannot be used to construct a subgroup matrix of 'f32'

// === u8 matrices are built from u32 values
enable chromium_experimental_subgroup_matrix;
fn f() {
  let s = subgroup_matrix_left<u8, 8, 8>(3i);
//                                       ^ T003 'i32'
}
// tint: 'i32' cannot be used to construct a subgroup matrix of 'u8'

// === constructor with two values
enable chromium_experimental_subgroup_matrix;
fn f() {
  let s = subgroup_matrix_left<f32, 8, 8>(1.0, 2.0);
//        ^ T004 zero or one
}
// tint: subgroup_matrix constructor can only have zero or one elements

// === a matrix constructor is not a const expression
enable chromium_experimental_subgroup_matrix;
const Z = subgroup_matrix_left<f32, 8, 8>();
//        ^ T014 const-expression
// tint: const initializer requires a const-expression, but expression is a runtime-expression

// === u8 is only a matrix element type
enable chromium_experimental_subgroup_matrix;
fn f() {
  var x: u8;
//       ^ T003 'u8'
}
// tint: u8 cannot be used as the type of a var

// === load and store in the current form
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, col_major>(&buf, 0u, 8u);
  subgroupMatrixStore<row_major>(&buf, 64i, m, 8i);
}

// === load from workgroup memory
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 256>;
fn f() -> subgroup_matrix_left<f32, 16, 16> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 16, 16>, row_major>(&tile, 0u, 16u);
}

// === load from an array of vectors
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<vec4<f32>, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_right<f32, 8, 8>, row_major>(&tile, 0u, 8u);
  subgroupMatrixStore<row_major>(&tile, 0u, m, 8u);
}

// === u8 and i8 matrices from u32 and i32 arrays
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> bytes: array<u32>;
@group(0) @binding(1) var<storage, read> sbytes: array<i32>;
fn f() {
  let l = subgroupMatrixLoad<subgroup_matrix_left<u8, 32, 16>, row_major>(&bytes, 0u, 32u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<i8, 16, 32>, row_major>(&sbytes, 0u, 16u);
}

// === current form accepts an array of a different 32-bit type
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> words: array<f32>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<u32, 8, 8>, row_major>(&words, 0u, 8u); }
// tint: accepted; the array element only has to be at least as wide as the matrix element

// === array element narrower than the matrix element
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> halves: array<f16>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&halves, 0u, 8u);
//                                                                       ^ T008 element size
}
// tint: the stride of the array (2 bytes) must be greater than or equal to the matrix element size (4 bytes) (at the function name)

// === load from private memory
enable chromium_experimental_subgroup_matrix;
var<private> scratch: array<f32, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&scratch, 0u, 8u);
//                                                                       ^ T008 'private'
}
// tint: no matching call to 'subgroupMatrixLoad<...>(ptr<private, array<f32, 64>, read_write>, u32, u32)'

// === load from a function variable
enable chromium_experimental_subgroup_matrix;
fn f() {
  var scratch: array<f32, 64>;
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&scratch, 0u, 8u);
//                                                                       ^ T008 'function'
}

// === load through a pointer to an element, not the array
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf[0], 0u, 8u);
//                                                                       ^ T008 array
}
// tint: no matching call ... (ptr<storage, f32, read_write>, u32, u32)

// === store into a read-only buffer
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> buf: array<f32>;
fn f() {
  let m = subgroup_matrix_result<f32, 8, 8>();
  subgroupMatrixStore<row_major>(&buf, 0u, m, 8u);
//                               ^ T008 read
}
// tint: no matching call to 'subgroupMatrixStore<row_major>(ptr<storage, array<f32>, read>, ...)'

// === load with a float stride
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8.0);
//                                                                                 ^ T003 stride
}
// tint: no matching call (stride S is i32 or u32), at the function name on the same line

// === load without the majorness template argument
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&buf, 0u, 8u);
//        ^ T004 'subgroupMatrixLoad'
}
// tint: no matching call to 'subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(ptr<storage, array<f32>, read_write>, u32, u32)'

// === majorness must be row_major or col_major
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, true>(&buf, 0u, 8u);
//                                                            ^ T003 majorness
}
// tint: Unexpected template kind (at 'true'), then no matching call

// === load of a non-matrix type
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<f32, row_major>(&buf, 0u, 8u);
//        ^ T004 'subgroupMatrixLoad'
}

// === stride shorter than a row, row major
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 4u);
//                                                                                 ^ T009 stride
}
// tint: the stride argument (4, 16 bytes) of subgroupMatrixLoad must be greater than the minimum stride (32 bytes)

// === stride shorter than a column, column major
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 16>, col_major>(&buf, 0u, 8u);
//                                                                                  ^ T009 stride
}
// tint: left<f32, 8, 16> has 16 rows: column major needs a stride of at least 16 (64 bytes)

// === stride equal to the column count, row major, for a wide matrix
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 16>, row_major>(&buf, 0u, 8u); }

// === store with a short stride
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroup_matrix_result<f32, 16, 8>();
  subgroupMatrixStore<row_major>(&buf, 0u, m, 8u);
//                                            ^ T009 stride
}

// === negative stride
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, -8);
//                                                                                 ^ T009 non-negative
}
// tint: the stride argument of subgroupMatrixLoad must be non-negative

// === runtime stride is not checked
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f(stride: u32) { let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, stride); }

// === deprecated load with a bool majorness
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&buf, 0u, false, 8u);
//        ^ T012 deprecated
}
// tint: warning: use of deprecated builtin

// === deprecated store with a bool majorness
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  let m = subgroup_matrix_result<f32, 8, 8>();
  subgroupMatrixStore(&tile, 0u, m, true, 8u);
//^ T012 deprecated
}

// === deprecated form needs a constant bool
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f(col_major: bool) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&buf, 0u, col_major, 8u);
//        ^ T012 deprecated
//                                                                      ^ T014 const-expression
}
// tint: warning use of deprecated builtin, and error: the 'col_major' argument of 'subgroupMatrixLoad' must be a const-expression

// === deprecated form requires the exact element type
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> words: array<f32>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<u32, 8, 8>>(&words, 0u, false, 8u);
//        ^ T004 'subgroupMatrixLoad'
}
// tint: no matching call; the bool form takes ptr<AS, array<E>> with E the matrix element type

// === multiply with the result element as a template argument
enable chromium_experimental_subgroup_matrix;
fn f() -> subgroup_matrix_result<f32, 8, 16> {
  let l = subgroup_matrix_left<f32, 4, 16>();
  let r = subgroup_matrix_right<f32, 8, 4>();
  return subgroupMatrixMultiply<f32>(l, r);
}

// === f16 operands may give an f16 or f32 result
enable f16;
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f16, 16, 16>();
  let r = subgroup_matrix_right<f16, 16, 16>();
  let h = subgroupMatrixMultiply<f16>(l, r);
  let s = subgroupMatrixMultiply<f32>(l, r);
}

// === integer operands
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<i8, 32, 16>();
  let r = subgroup_matrix_right<i8, 16, 32>();
  let x = subgroupMatrixMultiply<i32>(l, r);
  let y = subgroupMatrixMultiply<u32>(subgroup_matrix_left<u32, 8, 8>(), subgroup_matrix_right<u32, 8, 8>());
}

// === multiply without a result type
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 8, 8>();
  let r = subgroup_matrix_right<f32, 8, 8>();
  let x = subgroupMatrixMultiply(l, r);
//        ^ T004 'subgroupMatrixMultiply'
}

// === f32 operands cannot give an f16 result
enable f16;
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 8, 8>();
  let r = subgroup_matrix_right<f32, 8, 8>();
  let x = subgroupMatrixMultiply<f16>(l, r);
//        ^ T004 'subgroupMatrixMultiply'
}
// tint: candidates: f32 x f32 -> f32; f16 x f16 -> f32|f16; i8/u8 -> i32|u32|i8|u8; i32/u32 -> i32|u32

// === operands of different element types
enable f16;
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f16, 8, 8>();
  let r = subgroup_matrix_right<f32, 8, 8>();
  let x = subgroupMatrixMultiply<f32>(l, r);
//        ^ T004 'subgroupMatrixMultiply'
}

// === u8 times i8
enable chromium_experimental_subgroup_matrix;
fn f() {
  let x = subgroupMatrixMultiply<i32>(subgroup_matrix_left<u8, 8, 8>(), subgroup_matrix_right<i8, 8, 8>());
//        ^ T004 'subgroupMatrixMultiply'
}

// === left times left
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 8, 8>();
  let x = subgroupMatrixMultiply<f32>(l, l);
//        ^ T004 'subgroupMatrixMultiply'
}
// tint: no matching call: the second operand must be subgroup_matrix<right, T, C, K>

// === inner dimensions differ
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 8, 8>();
  let r = subgroup_matrix_right<f32, 8, 16>();
  let x = subgroupMatrixMultiply<f32>(l, r);
//        ^ T006 shape
}
// tint: no matching call to 'subgroupMatrixMultiply<f32>(subgroup_matrix_left<f32, 8, 8>, subgroup_matrix_right<f32, 8, 16>)'

// === multiply result assigned to the wrong shape
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 16, 8>();
  let r = subgroup_matrix_right<f32, 8, 16>();
  let x: subgroup_matrix_result<f32, 8, 16> = subgroupMatrixMultiply<f32>(l, r);
//                                            ^ T003 'subgroup_matrix_result<f32, 8, 8>'
}
// tint: cannot initialize 'let' of type 'subgroup_matrix_result<f32, 8, 16>' with value of type 'subgroup_matrix_result<f32, 8, 8>'

// === accumulate
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 16, 8>();
  let r = subgroup_matrix_right<f32, 8, 16>();
  var acc = subgroup_matrix_result<f32, 8, 8>();
  acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
}

// === accumulate takes no template argument
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 8, 8>();
  let r = subgroup_matrix_right<f32, 8, 8>();
  var acc = subgroup_matrix_result<f32, 8, 8>();
  acc = subgroupMatrixMultiplyAccumulate<f32>(l, r, acc);
//      ^ T004 'subgroupMatrixMultiplyAccumulate'
}

// === accumulator of the wrong shape
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 16, 8>();
  let r = subgroup_matrix_right<f32, 8, 16>();
  var acc = subgroup_matrix_result<f32, 8, 16>();
  acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
//      ^ T006 shape
}

// === accumulator is a left matrix
enable chromium_experimental_subgroup_matrix;
fn f() {
  let l = subgroup_matrix_left<f32, 8, 8>();
  let r = subgroup_matrix_right<f32, 8, 8>();
  let x = subgroupMatrixMultiplyAccumulate(l, r, l);
//        ^ T004 'subgroupMatrixMultiplyAccumulate'
}

// === f16 accumulate into f16
enable f16;
enable chromium_experimental_subgroup_matrix;
fn f() {
  var acc = subgroup_matrix_result<f16, 16, 16>();
  acc = subgroupMatrixMultiplyAccumulate(subgroup_matrix_left<f16, 16, 16>(), subgroup_matrix_right<f16, 16, 16>(), acc);
}

// === scalar add, subtract, multiply
enable chromium_experimental_subgroup_matrix;
fn f() {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  acc = subgroupMatrixScalarAdd(acc, 1.0);
  acc = subgroupMatrixScalarSubtract(acc, 0.5);
  acc = subgroupMatrixScalarMultiply(acc, 2.0);
  let l = subgroupMatrixScalarMultiply(subgroup_matrix_left<f32, 8, 8>(), 3.0);
}

// === scalar operations on u8 matrices take u32
enable chromium_experimental_subgroup_matrix;
fn f() {
  let m = subgroup_matrix_left<u8, 8, 8>();
  let a = subgroupMatrixScalarAdd(m, 3u);
  let b = subgroupMatrixScalarMultiply(m, 3);
}

// === scalar operation on an i8 matrix with a u32
enable chromium_experimental_subgroup_matrix;
fn f() {
  let m = subgroup_matrix_left<i8, 8, 8>();
  let a = subgroupMatrixScalarSubtract(m, 3u);
//        ^ T004 'subgroupMatrixScalarSubtract'
}
// tint: candidates: (subgroup_matrix<K, T, C, R>, T) for f32/i32/u32/f16; (i8 matrix, i32); (u8 matrix, u32)

// === scalar of the wrong type
enable chromium_experimental_subgroup_matrix;
fn f() {
  let m = subgroup_matrix_result<f32, 8, 8>();
  let a = subgroupMatrixScalarAdd(m, true);
//        ^ T004 'subgroupMatrixScalarAdd'
}

// === matrices have no arithmetic operators
enable chromium_experimental_subgroup_matrix;
fn f() {
  let m = subgroup_matrix_result<f32, 8, 8>();
  let x = m + m;
//        ^ T004 '+'
}
// tint: no matching overload for 'operator + (subgroup_matrix_result<f32, 8, 8>, subgroup_matrix_result<f32, 8, 8>)'

// === matrices cannot be indexed
enable chromium_experimental_subgroup_matrix;
fn f() {
  let m = subgroup_matrix_result<f32, 8, 8>();
  let x = m[0];
//        ^ T003 index
}
// tint: cannot index type 'subgroup_matrix_result<f32, 8, 8>'

// === left and right are different types
enable chromium_experimental_subgroup_matrix;
fn f() {
  let m: subgroup_matrix_left<f32, 8, 8> = subgroup_matrix_right<f32, 8, 8>();
//                                         ^ T003 'subgroup_matrix_left<f32, 8, 8>'
}

// === matrices in function parameters, returns, pointers and arrays
enable chromium_experimental_subgroup_matrix;
alias Acc = subgroup_matrix_result<f32, 8, 8>;
fn scale(p: ptr<function, Acc>, s: f32) { *p = subgroupMatrixScalarMultiply(*p, s); }
fn pick(tiles: array<Acc, 4>, i: u32) -> Acc { return tiles[i]; }
fn f() {
  var tiles: array<Acc, 4>;
  tiles[1] = Acc(2.0);
  scale(&tiles[1], 0.5);
  let t = pick(tiles, 1u);
}

// === a struct may hold matrices in function memory
enable chromium_experimental_subgroup_matrix;
struct Tiles { a: subgroup_matrix_result<f32, 8, 8>, b: subgroup_matrix_result<f32, 8, 8> }
fn f() {
  var t: Tiles;
  t.a = subgroupMatrixScalarAdd(t.b, 1.0);
}

// === no matrix variables in private memory
enable chromium_experimental_subgroup_matrix;
var<private> acc: subgroup_matrix_result<f32, 8, 8>;
//                ^ T010 'private'
// tint: subgroup matrix types cannot be declared in the 'private' address space

// === no matrix variables in workgroup memory
enable chromium_experimental_subgroup_matrix;
var<workgroup> acc: array<subgroup_matrix_result<f32, 8, 8>, 4>;
//                  ^ T010 'workgroup'

// === no matrices in storage buffers
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> tiles: array<subgroup_matrix_left<f32, 8, 8>>;
//                                                    ^ T010 'storage'

// === a struct with a matrix member in private memory
enable chromium_experimental_subgroup_matrix;
struct Holder { m: subgroup_matrix_left<f32, 8, 8> }
//                 ^ T010 'private'
var<private> holder: Holder;
// tint: error at the member (2:15), with notes 'while analyzing structure member Holder.m' and 'while instantiating var holder'

// === matrices only in compute shaders
enable chromium_experimental_subgroup_matrix;
@vertex fn vs() -> @builtin(position) vec4f {
  let m = subgroup_matrix_left<f32, 8, 8>();
//        ^ T010 vertex
  return vec4f();
}
// tint: subgroup matrix type cannot be used in vertex pipeline stage

// === matrices cannot be compared
enable chromium_experimental_subgroup_matrix;
fn f() -> bool {
  let m = subgroup_matrix_left<f32, 8, 8>();
  return m == m;
//       ^ T004 '=='
}

// === misspelled matrix builtin
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn f() {
  let m = subgroupMatrixload<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//        ^ T001 'subgroupMatrixload'
}

// === blocked kernel with an array of accumulators
enable f16;
enable chromium_experimental_subgroup_matrix;
const BK = 32u;
const PAD = 8u;
var<workgroup> a_tile: array<f16, 64u * (BK + PAD)>;
var<workgroup> b_tile: array<f16, BK * (64u + PAD)>;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(128)
fn main(@builtin(subgroup_id) sg: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  var acc: array<subgroup_matrix_result<f32, 16, 16>, 2>;
  for (var k = 0u; k < BK; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a_tile, sg * 16u * (BK + PAD) + k, BK + PAD);
    for (var j = 0u; j < 2u; j++) {
      let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&b_tile, k * (64u + PAD) + j * 16u, 64u + PAD);
      acc[j] = subgroupMatrixMultiplyAccumulate(l, r, acc[j]);
    }
  }
  for (var j = 0u; j < 2u; j++) {
    subgroupMatrixStore<row_major>(&c, (wg.y * 64u + sg * 16u) * 1024u + wg.x * 32u + j * 16u, acc[j], 1024u);
  }
}

// === bias and ReLU-like scaling on an accumulator
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
  var acc = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&out, wg.x * 64u, 8u);
  acc = subgroupMatrixScalarMultiply(subgroupMatrixScalarAdd(acc, 0.25), 0.5);
  subgroupMatrixStore<row_major>(&out, wg.x * 64u, acc, 8u);
}

// === store with column-major majorness and a padded stride
enable chromium_experimental_subgroup_matrix;
var<workgroup> staging: array<f32, 16 * 20>;
fn f(acc: subgroup_matrix_result<f32, 16, 16>) {
  subgroupMatrixStore<col_major>(&staging, 0u, acc, 20u);
}

// === i32 offsets and strides
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> src: array<i32>;
fn f(row: i32) -> subgroup_matrix_result<i32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_result<i32, 8, 8>, row_major>(&src, row * 64, 8);
}

// === matrices passed through a helper that accumulates
enable f16;
enable chromium_experimental_subgroup_matrix;
alias L = subgroup_matrix_left<f16, 16, 16>;
alias R = subgroup_matrix_right<f16, 16, 16>;
alias Acc = subgroup_matrix_result<f16, 16, 16>;
fn mma(l: L, r: R, acc: Acc) -> Acc { return subgroupMatrixMultiplyAccumulate(l, r, acc); }
fn f() -> Acc { return mma(L(1.0), R(2.0), Acc()); }

// === loads with dimensions from named constants
enable chromium_experimental_subgroup_matrix;
const TM = 8u;
const TN = 8u;
const TK = 8u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() -> subgroup_matrix_left<f32, TK, TM> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, TK, TM>, row_major>(&a, 0u, TK);
}

// === u8 matrix loaded from an array of vec4<u32>
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> packed: array<vec4<u32>>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<u8, 32, 16>, row_major>(&packed, 0u, 32u); }

// === f16 matrix from an f32 array is wide enough
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> words: array<f32>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&words, 0u, 16u); }
// tint: accepted: a 4-byte array element is at least the 2-byte matrix element

// === subgroup builtins alongside matrices
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let m = subgroupMatrixScalarAdd(subgroup_matrix_result<f32, 8, 8>(), 1.0);
  subgroupMatrixStore<row_major>(&out, wg.x * 64u, m, 8u);
  out[wg.x * 64u + lane] += subgroupAdd(1.0);
}

// === fixed-size array one element short of the tile
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 63>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 0u, 8u);
//                                                                       ^ T016 needs 128 bytes
}

// === fixed-size array exactly the tile
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 64>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 0u, 8u); }

// === the last row needs only the tile's width, not a whole stride
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 71>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 0u, 9u); }

// === a constant offset counts
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 64>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 1u, 8u);
//                                                                       ^ T016 1 elements in
}

// === a run-time offset counts as zero
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 64>;
fn f(at: u32) { let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, at, 8u); }

// === a run-time stride counts as one row
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 32>;
fn f(at: u32, stride: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, at, stride);
//                                                                       ^ T016 has 64
}

// === packed halves: the stride counts vec4<u32> elements
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<vec4<u32>, 7>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 0u, 1u);
//                                                                       ^ T016 has 112
}

// === packed halves, padded rows: the last row is 16 bytes, not a whole stride
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<vec4<u32>, 15>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 0u, 2u); }

// === column major walks the columns
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 120>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 8>, col_major>(&tile, 0u, 16u);
//                                                                        ^ T016 16 columns
}

// === store into a storage array that is too small
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> out: array<f32, 63>;
fn f() {
  subgroupMatrixStore<row_major>(&out, 0u, subgroup_matrix_result<f32, 8, 8>(), 8u);
//                               ^ T016 needs 256 bytes
}

// === a fixed-size array inside a struct
enable chromium_experimental_subgroup_matrix;
struct Block { data: array<f32, 32> }
@group(0) @binding(0) var<storage, read_write> blk: Block;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&blk.data, 0u, 8u);
//                                                                       ^ T016 has 128
}

// === checked in code that never runs
enable f16;
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f16, 64>;
fn f() {
  if (false) {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&tile, 0u, 9u);
//                                                                         ^ T016 needs 142 bytes
  }
}

// === a runtime-sized array is not checked
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
fn f() { subgroupMatrixStore<row_major>(&out, 4096u, subgroup_matrix_result<f32, 8, 8>(), 8u); }

// === vec3 elements: strides count 12 bytes, the array its padded 16-byte elements
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<vec3<f32>, 18>;
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&tile, 0u, 3u); }

// === vec3 elements, one too few
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<vec3<f32>, 17>;
fn f() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&tile, 0u, 3u);
//                                                                       ^ T016 needs 284 bytes
}

// === the matrix enable brings the subgroup builtins
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32) {
  let top = subgroupMax(lane);
  let all = subgroupAll(top < size);
}

// === a constant offset past the end of a fixed-size array
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 64>;
fn f() {
  subgroupMatrixStore<col_major>(&tile, 60u, subgroup_matrix_result<f32, 8, 8>(), 8u);
//                               ^ T016 needs 496 bytes
}
// tint: the pointer operand of subgroupMatrixStore is too small (256 bytes) for the matrix access (496 bytes)

// === an override stride whose default is shorter than a row
enable chromium_experimental_subgroup_matrix;
override S: u32 = 4u;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(128) fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&tile, 0u, S);
//                                                                                    ^ T009 [warning] the subgroupMatrixLoad stride (16 bytes) must be greater or equal to 32 bytes
}
// tint: accepts the module; Dawn's pipeline creation (wgpudawn 0.32, Null backend) fails with the default: "subgroupMatrixLoad stride (16 bytes) must be greater or equal to 32 bytes", and succeeds with S = 8
