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

// === resources with their bindings and plain variables without
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@group(0) @binding(2) var<uniform> scale: vec4<f32>;
var<private> seed: u32 = 7u;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  var acc = 0.0;
  tile[i] = input[i] * scale.x + f32(seed);
  workgroupBarrier();
  acc += tile[63u - i];
  output[i] = acc;
}

// === every path returns, and the loop leaves through break if
fn pick(a: u32) -> u32 {
  if a > 4u {
    return 1u;
  } else {
    return 2u;
  }
}
fn count(n: u32) -> u32 {
  var i = 0u;
  loop {
    i += 1u;
    continuing {
      break if i >= n;
    }
  }
  return i;
}

// === integral stage IO with flat interpolation
struct VertexOut {
  @builtin(position) position: vec4<f32>,
  @location(0) @interpolate(flat) id: u32,
}
@vertex
fn vs(@builtin(vertex_index) v: u32) -> VertexOut {
  return VertexOut(vec4<f32>(0.0, 0.0, 0.0, 1.0), v);
}
@fragment
fn fs(@location(0) @interpolate(flat) id: u32) -> @location(0) vec4<f32> {
  return vec4<f32>(f32(id), 0.0, 0.0, 1.0);
}

// === a switch with one default and distinct cases
fn classify(x: i32) -> i32 {
  switch x {
    case 0, 1: { return 10; }
    case 2: { return 20; }
    default: { return -1; }
  }
}

// === the most negative i32 through an abstract conversion
const smallest = i32(-2147483648);
fn f() -> i32 {
  return smallest;
}
