// Valid code that Tint accepts and that once got a false error here, and the
// constant-evaluation edge cases around the most negative integers.

// === subgroupMatrixMultiply with an i8 or u8 result
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(64) fn main() {
  let l = subgroup_matrix_left<i8, 8, 8>();
  let r = subgroup_matrix_right<i8, 8, 8>();
  let wide = subgroupMatrixMultiply<i32>(l, r);
  let narrow = subgroupMatrixMultiply<i8>(l, r);
  let bytes = subgroupMatrixMultiply<u8>(subgroup_matrix_left<u8, 8, 8>(), subgroup_matrix_right<u8, 8, 8>());
}

// === subgroupMatrixMultiply with an unknown element type
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(64) fn main() {
  let l = subgroup_matrix_left<i8, 8, 8>();
  let c = subgroupMatrixMultiply<i4>(l, subgroup_matrix_right<i8, 8, 8>());
//                               ^ T001 'i4'
}

// === frexp and modf of abstract and concrete arguments give the same types
fn f() {
  var x = 1.5;
  var r = frexp(x);
  r = frexp(2.5);
  var m = modf(1.5f);
  m = modf(2.5);
  var v = modf(vec2f(1.5));
  v = modf(vec2(2.5));
  let a = frexp(1.5f);
  var b = frexp(2.0);
  b = a;
}

// === the results of frexp on f32 and on vec2f are different types
fn f() {
  var r = frexp(1.5f);
  r = frexp(vec2f(2.5));
//    ^ T003 '__frexp_result_vec2<f32>'
}

// === the most negative abstract integer
const smallest = -9223372036854775807 - 1;
const same = -smallest;
const magnitude = abs(smallest);
const as_float = f32(smallest);
const negated = -vec2(smallest);

// === the most negative abstract integer written as a literal
const smallest = -9223372036854775808;
//                ^ T014 cannot be represented as 'abstract-int'

// === the most negative i32 divided by minus one
const smallest = -2147483647i - 1i;
const quotient = smallest / -1i;
//               ^ T014 '-2147483648 / -1' cannot be represented as 'i32'

// === the most negative abstract integer modulo minus one
const r = (-9223372036854775807 - 1) % -1;
//        ^ T014 cannot be represented as 'abstract-int'

// === abs and negation of the most negative i32
const smallest = -2147483647i - 1i;
const a = abs(smallest);
const b = -smallest;
