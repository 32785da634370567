// Constant evaluation: abstract numbers, overflow, division by zero, array
// sizes, workgroup sizes from constants and overrides.

// === abstract int folds into u32
const A = 1 << 10;
const B: u32 = A + 24;
const_assert B == 1048u;

// === abstract float to f32
const PI = 3.14159265358979;
const HALF: f32 = PI / 2.0;

// === abstract int converts to f32 in an initializer
const X: f32 = 3;

// === i32 overflow in addition
const x: i32 = 2147483647 + 1;
//             ^ T014 cannot be represented as 'i32'
// tint: value 2147483648 cannot be represented as 'i32'

// === concrete u32 multiplication wraps
const x = 65536u * 65536u;
const_assert x == 0u;
// tint: concrete integer arithmetic wraps, only abstract results are range-checked

// === concrete u32 subtraction wraps
const x = 0u - 1u;
const_assert x == 4294967295u;

// === abstract int overflow
const x = 9223372036854775807 + 1;
//        ^ T014 overflow

// === abstract int result too large for u32
const big = 4294967296;
const x: u32 = big;
//             ^ T014 'u32'
// tint: value 4294967296 cannot be represented as 'u32'

// === an abstract array materialized as array<i32, 3> must hold its elements
var<private> x = array(1, 2, 4294967296);
//               ^ T014 value 4294967296 cannot be represented as 'i32'
// tint: reported at the array, where its elements become i32

// === an abstract array given a declared element type
fn f() {
  var x: array<i32, 3> = array(1, 2, 4294967296);
//                       ^ T014 value 4294967296 cannot be represented as 'i32'
  let y = array(1.0, 2.5, 1e40);
//        ^ T014 cannot be represented as 'f32'
  _ = x;
  _ = y;
}

// === the elements of nested abstract arrays and vectors
fn f() {
  let x = array(array(1, 2), array(3, 4294967296));
//        ^ T014 value 4294967296 cannot be represented as 'i32'
  _ = x;
}

// === a constant abstract array indexed at run time is materialized first
const table = array(1, 4294967296);
fn f(i: i32) -> i32 {
  return table[i];
//       ^ T014 value 4294967296 cannot be represented as 'i32'
}

// === abstract arrays that stay abstract: discarded, or indexed by a constant
const big = array(1, 4294967296);
fn f(i: i32) -> i32 {
  _ = array(1, 2, 4294967296);
  return big[0] + array(array(1, 2), array(3, 4294967296))[0][i];
}

// === abstract arrays whose values fit the materialized element type
fn f(i: i32) -> f32 {
  let a = array(-2147483648, 2147483647, 0x7fffffff);
  let b = array(vec2(1.5, 3.4028234e38), vec2(-3.4028234e38, 0.0));
  return f32(a[i]) + b[i].y;
}

// === an abstract array passed to a parameter takes the parameter's element type
fn g(a: array<u32, 2>) -> u32 { return a[1]; }
fn f() -> u32 { return g(array(1, 4294967295)); }

// === an array with a concrete element takes its type from it
fn f(i: i32) -> u32 {
  let a = array(1u, 4294967295, 0);
  return a[i] + array(4294967295, 2u)[i];
}

// === negative abstract int to u32
const x: u32 = -1;
//             ^ T014 'u32'

// === integer literal out of range for i32
const x = 3000000000i;
//        ^ T014 'i32'

// === integer division by zero
const x = 7 / 0;
//        ^ T014 zero
// tint: integer division by zero is invalid

// === integer remainder by zero
const x = 7u % 0u;
//        ^ T014 zero

// === division by zero through a named constant
const D = 0;
fn f() -> i32 {
  return 10 / D;
//       ^ T014 zero
}

// === a run-time value divided by a constant zero
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) i: u32) {
  _ = i / 0u;
//    ^ T014 zero
}

// === a run-time remainder by a constant zero in code that never runs
const PAIRS = 0u;
fn pick(i: u32) -> u32 {
  if (PAIRS == 0u) { return i; }
  return i % PAIRS;
//       ^ T014 zero
}

// === a run-time vector divided by a constant scalar zero
fn halve(v: vec2<i32>) -> vec2<i32> {
  return v / (1 - 1);
//       ^ T014 zero
}

// === a run-time vector divided by a constant vector with a zero component
fn split(v: vec2<u32>) -> vec2<u32> {
  return v % vec2(4u, 0u);
//       ^ T014 zero component
}

// === a run-time vector divided by the zero vector
fn zero(v: vec3<i32>) -> vec3<i32> {
  return v / vec3<i32>();
//       ^ T014 zero component
}

// === a run-time vector shifted by a constant vector with a component of 32 or more
fn widen(v: vec2<u32>) -> vec2<u32> {
  return v << vec2(1u, 40u);
//       ^ T014 less than 32
}

// === a run-time vector divided by a named constant vector with a zero component
const STEPS = vec2(8u, 0u);
fn per_step(v: vec2<u32>) -> vec2<u32> {
  return v / STEPS;
//       ^ T014 zero component
}

// === a run-time vector divided by a constant vector difference that is zero
fn none(v: vec2<u32>) -> vec2<u32> {
  return v / (vec2(1u) - vec2(1u));
//       ^ T014 zero component
}

// === a run-time vector divided by a swizzle of a constant vector with a zero component
fn swapped(v: vec2<u32>) -> vec2<u32> {
  return v % vec2(4u, 0u).yx;
//       ^ T014 zero component
}

// === a run-time vector shifted by a constant vector product of 32 or more
fn scaled(v: vec2<u32>) -> vec2<u32> {
  return v << (vec2(1u, 2u) * 20u);
//       ^ T014 less than 32
}

// === a run-time value divided by one zero component of a constant vector
fn picked(i: u32) -> u32 {
  return i / vec2(3u, 0u).y;
//       ^ T014 constant zero
}

// === a run-time vector divided by a constant vector arithmetic without zeros is fine
fn thirds(v: vec2<u32>) -> vec2<u32> { return v / (vec2(2u, 4u) - 1u).yx; }

// === a let's value is a run-time one: no constant folding through it
fn doubled(v: vec2<u32>) -> vec2<u32> {
  let big = 4000000000u;
  let z = 0u;
  return vec2(big) * 2u + v / vec2(z);
}

// === a const vector division by zero
const ratio = vec2(1u) / vec2(0u, 1u);
//            ^ T014 division by zero

// === const vector arithmetic and swizzles fold into const_assert
const steps = (vec2(4u, 8u) - 2u).yx;
const_assert steps.x == 6u && steps.y == 2u;

// === a run-time vector divided by a constant vector without zeros is fine
fn quarter(v: vec2<u32>) -> vec2<u32> { return v / vec2(4u); }

// === a run-time value divided by a non-zero constant is fine
fn third(i: u32) -> u32 { return i / 3u; }

// === a run-time float divided by a constant zero is not an error
fn inf(x: f32) -> f32 { return x / 0.0; }

// === a run-time value shifted by a constant 32
fn shift(i: u32) -> u32 {
  return i << 32u;
//       ^ T014 less than 32
}

// === float division by zero is not a constant error for abstract floats
const x = 1.0 / 0.0;
//        ^ T014 'abstract-float'
// tint: '1.0 / 0.0' cannot be represented as 'abstract-float'

// === f32 overflow
const x: f32 = 3.0e38 * 10.0;
//             ^ T014 'f32'

// === const_assert that holds
const N = 16u;
const_assert N % 4u == 0u;

// === const_assert that fails
const N = 15u;
const_assert N % 4u == 0u;
//           ^ T014 const assertion failed

// === const_assert in a function
fn f() {
  const K = 3;
  const_assert K > 4;
//             ^ T014 const assertion failed
}

// === const_assert needs a bool
const_assert 1;
//           ^ T003 'bool'

// === shift too large
const x = 1u << 32u;
//        ^ T014 shift
// tint: shift left value must be less than the bit width of the lhs, which is 32

// === shift into the sign bit of an i32
const x: i32 = 1i << 31u;
//             ^ T014 sign
// tint: shift left operation results in sign change

// === shift just below the sign bit
const x: i32 = 1i << 30u;

// === array size from a const
const N = 8u;
var<private> a: array<f32, N * 2u>;
fn f() -> f32 { return a[15]; }

// === array size must be positive
var<private> a: array<f32, 0>;
//                         ^ T014 positive
// tint: array count (0) must be greater than 0

// === negative array size
const N = -4;
var<private> a: array<f32, N>;
//                         ^ T014 positive

// === array size must be an integer
var<private> a: array<f32, 4.0>;
//                         ^ T003 integer
// tint: array count must evaluate to a constant integer expression or override variable

// === array size from an override in workgroup memory
override TILE: u32 = 16u;
var<workgroup> tile: array<f32, TILE * TILE>;
@compute @workgroup_size(16) fn main() { tile[0] = 1.0; }

// === override-sized array outside workgroup memory
override N: u32 = 4u;
var<private> a: array<f32, N>;
//           ^ T003 override
// tint: array with an 'override' element count can only be used as the store type of a 'var<workgroup>'

// === constant index out of bounds of a fixed array
fn f() -> f32 {
  var a: array<f32, 4>;
  return a[4];
//         ^ T014 out of bounds
}
// tint: index 4 out of bounds [0..3]

// === negative constant index
fn f() -> f32 {
  var v = vec3<f32>();
  return v[-1];
//         ^ T014 out of bounds
}

// === constant vector index out of bounds
fn f() -> f32 {
  let v = vec2<f32>(1.0, 2.0);
  return v[2];
//         ^ T014 out of bounds
}

// === workgroup size from constants
const WG_X = 64u;
const WG_Y = 2u;
@compute @workgroup_size(WG_X, WG_Y, 1) fn main() {}

// === workgroup size from an override
override BLOCK: u32 = 128u;
@compute @workgroup_size(BLOCK) fn main() {}

// === workgroup size must be positive
@compute @workgroup_size(0) fn main() {}
//                       ^ T014 positive
// tint: workgroup_size argument must be at least 1

// === workgroup size from a negative const
const W = -8;
@compute @workgroup_size(W) fn main() {}
//                       ^ T014 positive

// === workgroup size arguments must share a type
@compute @workgroup_size(8u, 8i) fn main() {}
//                           ^ T003 workgroup_size
// tint: workgroup_size arguments must be of the same type, either i32 or u32

// === workgroup size must be an integer
@compute @workgroup_size(8.0) fn main() {}
//                       ^ T003 workgroup_size

// === workgroup size from a let is not constant
fn f() {}
const N = 4u;
@compute @workgroup_size(N, N) fn main() { let n = N; _ = n; }

// === const from a let is not a constant expression
fn f() {
  let n = 4;
  const m = n * 2;
//          ^ T014 const-expression
}
// tint: const initializer requires a const-expression, but expression is a runtime-expression

// === const from an override is not a constant expression
override O = 4;
const C = O * 2;
//        ^ T014 const-expression

// === override with a constant initializer
override scale: f32 = 2.0 * 0.5;
override count: u32;
@compute @workgroup_size(1) fn main() { _ = scale * f32(count); }

// === override of a struct type is not allowed
struct S { a: u32 }
override o: S;
//          ^ T003 scalar
// tint: override type must be a scalar (or the type is not valid here)

// === builtin const evaluation
const a = max(3, 7) + min(2u, 9u);
const b = clamp(12, 0, 10);
const c = abs(-5) + select(1, 2, true);
const_assert b == 10;
const_assert c == 7;

// === builtin const evaluation error: sqrt of a negative
const x = sqrt(-1.0);
//        ^ T014 sqrt
// tint: sqrt must be called with a value >= 0

// === clamp with low above high is a const error
const x = clamp(5, 10, 0);
//        ^ T014 clamp
// tint: clamp called with 'low' (10) greater than 'high' (0)

// === vector constants and swizzles fold
const v = vec4(1, 2, 3, 4);
const s = v.wzyx;
const_assert s.x == 4;

// === const_assert on a vector comparison needs all
const v = vec2(1, 2);
const_assert all(v < vec2(3, 3));

// === wrong type for a typed const
const x: u32 = 1.5;
//             ^ T003 'u32'
// tint: cannot initialize const of type 'u32' with value of type 'abstract-float'

// === i32 min value is representable
const lowest: i32 = -2147483648;
const_assert lowest < 0;

// === abs of i32 min overflows in the i32 type only at runtime
fn f(x: i32) -> i32 { return abs(x); }

// === an abstract zero shifted past 64 bits is still zero
const none = 0 << 2147483649;
const_assert none == 0;

// === an abstract vector of zeros shifted past 64 bits (Dawn's test/tint/bug/chromium/1372963.wgsl)
fn g() -> vec4<i32> { return vec4(-0) << vec4(2147483649); }

// === an abstract right shift past 64 bits ends at 0 or -1
const down = -8 >> 70;
const_assert down == -1 && (8 >> 70) == 0;

// === an abstract one shifted past 64 bits loses its bit
const lost = 1 << 70;
//           ^ T014 shifts every bit out

// === short-circuit: false && X does not evaluate X
// Tint (wgpudawn 0.32) accepts these: the right operand of `false && X` is checked for types but never
// evaluated, so an index out of bounds, a division by zero, a shift of 32 or more or a builtin's domain
// error inside it is no error.
const a = array(1, 2, 3);
const c0 = false && (a[5] == 1);
const c2 = false && (1 / 0 == 1);
const c3 = false && ((1u << 40u) == 0u);
const c4 = false && (sqrt(-1.0) == 1.0);

// === short-circuit: true || X does not evaluate X
const a = array(1, 2, 3);
const c1 = true || (a[7] == 1);
const c2 = true || (1 / 0 == 1);

// === short-circuit: an unevaluated operand still gives the constant its value
const a = array(1, 2, 3);
const c = false && (true && a[9] == 1);
const_assert !c;

// === short-circuit: false && X in a function does not evaluate X
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
  let d0 = false && (li / 0u == 1u);
  let d1 = false && ((li << 40u) == 0u);
  let v = vec3(1, 2, 3);
  let d2 = false && (v[4] == 1);
  _ = d0; _ = d1; _ = d2;
}

// === short-circuit: true && X evaluates X
const a = array(1, 2, 3);
const c = true && (a[5] == 1);
//                   ^ T014 index 5 out of bounds [0..2]

// === short-circuit: false || X evaluates X
const a = array(1, 2, 3);
const_assert false || (a[3] == 1) || true;
//                       ^ T014 index 3 out of bounds [0..2]

// === short-circuit: a run-time left operand evaluates X
const a = array(1, 2, 3);
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
  let c = (li == 0u) && (a[5] == 1);
//                         ^ T014 index 5 out of bounds [0..2]
  _ = c;
}

// === short-circuit: type errors in X are still errors
const c = false && (array<i32, -1>()[0] == 1);
//                             ^ T014 array count (-1) must be positive
