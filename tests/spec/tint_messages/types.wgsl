// Cases for Tint's messages about types and constructors, arrays and structs, swizzles and
// indexing, template arguments, enables, duplicate attributes and diagnostic filters, constant
// argument ranges and cyclic dependencies: on each, the pinned Tint reports that message first and
// coop-lint reports an error on the same line.

// === resolver:type-is-not-constructible
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@compute @workgroup_size(64)
fn main() {
  let start = atomic<u32>(0u);
//            ^ T003 'atomic<u32>' cannot be the type of a 'let': a 'let' holds constructib
}

// === resolver:expected-for
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var acc: vec4;
//         ^ T003 'vec4' needs 1 template argument
  out[gid.x] = acc.x;
}

// === resolver:invalid-vector-swizzle-size
@group(0) @binding(0) var<storage, read_write> out: array<vec4<f32>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = out[gid.x];
  out[gid.x] = v.xyzwx;
//               ^ T003 invalid swizzle 'xyzwx' for 'vec4<f32>'
}

// === resolver:cannot-index-into-expression-of-type
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let scale = out[0];
  out[gid.x] = scale.x;
//                   ^ T003 'f32' has no members
}

// === resolver:cannot-take-the-address-of-a-vector
fn bump(p: ptr<function, f32>) { *p = *p + 1.0; }
@compute @workgroup_size(64)
fn main() {
  var acc = vec4<f32>(0.0);
  bump(&acc.x);
//      ^ T003 cannot take the address of a vector component; take the address of the
}

// === resolver:cannot-be-used-as-the-type-of
struct Cursor { at: ptr<function, u32> }
//                  ^ T003 'ptr<function, u32, read_write>' cannot be the type of a struct member
@compute @workgroup_size(64)
fn main() {}

// === resolver:is-not-valid-for
fn load_lane(@location(0) lane: u32) -> u32 { return lane; }
//           ^ T023 '@location' is not valid for non-entry point function parameters
@compute @workgroup_size(64)
fn main() { _ = load_lane(1u); }

// === validator:use-of-subgroup_matrix_-requires-enabling-extension-chromium_experimental_subgroup_matrix
@compute @workgroup_size(64)
fn main() {
  var a: subgroup_matrix_left<f32, 8, 8>;
//       ^ T007 the subgroup matrix type 'subgroup_matrix_left' requires the extension
}

// === validator:f16-type-used-without-f16-extension-enabled
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var half_acc: f16;
//              ^ T007 the type 'f16' requires the extension 'f16': add 'enable f16;'
  out[gid.x] = f32(half_acc);
}

// === validator:i8-type-used-without-chromium_experimental_subgroup_matrix-extension-enabled
@compute @workgroup_size(64)
fn main() {
  var packed: array<i8, 4>;
//                  ^ T003 'i8' is only a subgroup matrix element type, not a type of values
}

// === validator:u8-type-used-without-chromium_experimental_subgroup_matrix-extension-enabled
@compute @workgroup_size(64)
fn main() {
  var packed: array<u8, 4>;
//                  ^ T003 'u8' is only a subgroup matrix element type, not a type of values
}

// === validator:structure-constructor-has-non-constructible-type
struct Counter { hits: atomic<u32> }
@compute @workgroup_size(64)
fn main() {
  let c = Counter();
//        ^ T003 'Counter' cannot be the type of a 'let': a 'let' holds constructible v
}

// === validator:cannot-construct-a-runtime-sized-array
@compute @workgroup_size(64)
fn main() {
  let weights = array<f32>();
//              ^ T003 cannot construct a runtime-sized array; give it a size
}

// === validator:array-constructor-has-non-constructible-element-type
@compute @workgroup_size(64)
fn main() {
  let counters = array<atomic<u32>, 2>();
//               ^ T003 'array<atomic<u32>, 2>' cannot be the type of a 'let': a 'let' holds c
}

// === validator:vector-element-type-must-be-bool-f32
@compute @workgroup_size(64)
fn main() {
  var pairs: vec4<vec2<f32>>;
//                ^ T003 'vec4' element type must be a scalar, not 'vec2<f32>'
}

// === validator:matrix-element-type-must-be-f32-or
@compute @workgroup_size(64)
fn main() {
  var tile: mat2x2<i32>;
//          ^ T003 matrix element type must be f32 or f16, not 'i32'
}

// === validator:cannot-be-used-as-an-element-type
@compute @workgroup_size(64)
fn main() {
  var cursors: array<ptr<function, f32>, 4>;
//                   ^ T003 an array element type cannot be or contain 'ptr<function, f32, read_wr
}

// === validator:an-array-element-type-cannot-contain-a
@group(0) @binding(0) var<storage, read_write> rows: array<array<f32>, 4>;
//                                                         ^ T003 an array element type cannot be or contain a runtime-sized array
@compute @workgroup_size(64)
fn main() {}

// === validator:structures-must-have-at-least-one-member
struct Params {}
//     ^ T003 struct 'Params' has no members; a struct needs at least one
@compute @workgroup_size(64)
fn main() {}

// === validator:runtime-arrays-may-only-appear-as-the
struct Buffer { data: array<f32>, count: u32 }
//              ^ T003 a runtime-sized array can only be the last member of a struct
@group(0) @binding(0) var<storage, read_write> buf: Buffer;
@compute @workgroup_size(64)
fn main() {}

// === validator:a-struct-that-contains-a-runtime-array
struct Rows { data: array<f32> }
struct Matrix { stride: u32, rows: Rows }
//                                 ^ T003 struct 'Rows' ends in a runtime-sized array, so it cannot be a member
@group(0) @binding(0) var<storage, read_write> m: Matrix;
@compute @workgroup_size(64)
fn main() {}

// === nested struct with a runtime array, as the last member too
struct Rows { data: array<f32> }
struct Matrix { rows: Rows }
//                    ^ T003 struct 'Rows' ends in a runtime-sized array, so it cannot be a member
@compute @workgroup_size(64)
fn main() {}

// === validator:duplicate-attribute
@compute @workgroup_size(64) @workgroup_size(32)
//                           ^ T023 duplicate '@workgroup_size' attribute
fn main() {}

// === validator:conflicting-diagnostic
diagnostic(off, derivative_uniformity);
//              ^ A001 this suppression of 'derivative_uniformity' applies to no finding; rem
diagnostic(warning, derivative_uniformity);
//                  ^ A001 this filter of 'derivative_uniformity' applies to no finding; remove i
//                  ^ T023 conflicting diagnostic directive: 'derivative_uniformity' is set to bo
@compute @workgroup_size(64)
fn main() {}

// === conflicting diagnostic attributes on a statement
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
  var c = vec4<f32>(0.0);
  @diagnostic(off, derivative_uniformity) @diagnostic(info, derivative_uniformity) {
//^ T013 '@diagnostic' on a statement
//                 ^ A001 this suppression of 'derivative_uniformity' applies to no finding; rem
//                                                          ^ A001 this filter of 'derivative_uniformity' applies to no finding; remove i
//                                                          ^ T023 conflicting diagnostic attribute: 'derivative_uniformity' is set to bo
    c = textureSample(t, s, uv);
  }
  return c;
}

// === a repeated diagnostic directive is allowed
diagnostic(off, derivative_uniformity);
//              ^ A001 this suppression of 'derivative_uniformity' applies to no finding; rem
diagnostic(off, derivative_uniformity);
//              ^ A001 this suppression of 'derivative_uniformity' applies to no finding; rem
@compute @workgroup_size(64)
fn main() {}

// === diagnostic attributes for different rules are allowed
@diagnostic(off, derivative_uniformity) @diagnostic(warning, chromium.subgroup_matrix_uniformity)
//               ^ A001 this suppression of 'derivative_uniformity' applies to no finding; rem
//                                                           ^ A001 this filter of 'chromium.subgroup_matrix_uniformity' applies to no fin
@fragment
fn main() -> @location(0) vec4<f32> { return vec4<f32>(0.0); }

// === validator:duplicate-diagnostic
@diagnostic(off, derivative_uniformity) @diagnostic(off, derivative_uniformity)
//               ^ A001 this suppression of 'derivative_uniformity' applies to no finding; rem
//                                                       ^ A001 this suppression of 'derivative_uniformity' applies to no finding; rem
//                                                       ^ T023 duplicate diagnostic attribute for 'derivative_uniformity'; remove one
@fragment
fn main() -> @location(0) vec4<f32> { return vec4<f32>(0.0); }

// === resolver:cannot-infer-common-array-element-type-from
@compute @workgroup_size(64)
fn main() {
  let sizes = array(16u, 8i);
//            ^ T004 array elements must have one common type
}

// === resolver:requires-at-most-template-arguments
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main() {
  let p: ptr<storage, array<f32>, read_write, read> = &buf;
//       ^ T003 'ptr' needs an address space, a store type and optionally an access mo
}

// === validator:the-argument-of-must-be-greater-than
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  out[li] = subgroupShuffle(out[li], -1);
//                                   ^ T014 the 'id' argument of 'subgroupShuffle' must be greater than or equal t
}

// === a constant lane index that is not negative is fine
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  out[li] = subgroupShuffle(out[li], 3);
}

// === validator:each-component-of-the-argument-must-be
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
  return textureSample(t, s, uv, vec2<i32>(9, 0));
//                               ^ T014 each component of the offset argument must be at least -8 and at most
}

// === validator:the-argument-must-be-at-least-and
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
  return textureGather(4, t, s, uv);
//                     ^ T014 the component argument must be at least 0 and at most 3, not 4
}

// === dependency_graph:cyclic-dependency-found
fn reduce_left(n: u32) -> u32 { return reduce_right(n / 2u); }
// ^ T001 cyclic dependency: 'reduce_left' -> 'reduce_right' -> 'reduce_left'; W
fn reduce_right(n: u32) -> u32 { return reduce_left(n / 2u); }
@compute @workgroup_size(64)
fn main() { _ = reduce_left(64u); }

// === a function that names itself is a cyclic dependency
fn scale() -> f32 {
// ^ T001 cyclic dependency: 'scale' -> 'scale'; WGSL functions cannot call or n
  let factor = 2.0;
  let again = scale;
//            ^ T003 function 'scale' cannot be used as a value; call it
  return factor;
}
@compute @workgroup_size(64)
fn main() { _ = scale(); }

// === a function named by the function it calls is a cyclic dependency
fn outer() -> i32 { return inner(); }
// ^ T001 cyclic dependency: 'outer' -> 'inner' -> 'outer'; WGSL functions canno
fn inner() -> i32 {
  let back = outer;
//           ^ T003 function 'outer' cannot be used as a value; call it
  return 1;
}
@compute @workgroup_size(64)
fn main() { _ = outer(); }

// === an entry point named as a type inside itself is a cyclic dependency
@fragment
fn main() -> @location(0) vec4f {
// ^ T001 cyclic dependency: 'main' -> 'main'; WGSL functions cannot call or nam
  var color: main;
//           ^ T003 'main' is a function, not a type
  return vec4f(0.0);
}

// === a function named as a value elsewhere is no cycle
fn one() -> i32 { return 1; }
@compute @workgroup_size(64)
fn main() { let f = one; }
//                  ^ T003 function 'one' cannot be used as a value; call it

// === an abstract workgroup size too large for i32
@compute @workgroup_size(4294967296)
//                       ^ T014 value 4294967296 cannot be represented as 'i32'
fn main() {}

// === an abstract workgroup size beside a u32 one becomes a u32
@compute @workgroup_size(64u, 4294967296)
//                            ^ T014 value 4294967296 cannot be represented as 'u32'
fn main() {}

// === an abstract binding too large for i32
@group(0) @binding(4294967296) var<storage, read_write> out: array<f32>;
//                 ^ T014 value 4294967296 cannot be represented as 'i32'
@compute @workgroup_size(64)
fn main() { out[0] = 1.0; }

// === an abstract location too large for i32
@fragment
fn main() -> @location(4294967296) vec4f { return vec4f(0.0); }
//                     ^ T014 value 4294967296 cannot be represented as 'i32'

// === an i32 location literal out of range
@fragment
fn main(@location(0x80000000i) uv: vec4f) -> @location(0) vec4f { return uv; }
//                ^ T014 value 2147483648 cannot be represented as 'i32'

// === an abstract value that a let makes an i32
@compute @workgroup_size(64)
fn main() { let count = 4294967296; }
//                      ^ T014 value 4294967296 cannot be represented as 'i32'

// === an abstract operand that the other operand makes an i32
@compute @workgroup_size(64)
fn main() { let v = vec2<i32>(1) + vec2(4294967296, 1); }
//                                 ^ T014 value 4294967296 cannot be represented as 'i32'

// === an abstract value compared with a u32
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 4294967296 { out[li] = 1u; }
//        ^ T014 value 4294967296 cannot be represented as 'u32'
}

// === a negative abstract value multiplied with a u32
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  out[li] = li * -1;
//               ^ T014 value -1 cannot be represented as 'u32'
}

// === an abstract argument of a user function
fn mad(a: i32, b: i32, c: i32) -> i32 { return a * b + c; }
@compute @workgroup_size(64)
fn main() { _ = mad(4294967296, 5, 6); }
//                  ^ T014 value 4294967296 cannot be represented as 'i32'

// === an abstract argument of a builtin bound to u32
fn pick(b: bool) -> u32 { return select(0u, 4294967296, b); }
//                                          ^ T014 value 4294967296 cannot be represented as 'u32'
@compute @workgroup_size(64)
fn main() { _ = pick(true); }

// === abstract arguments of a builtin that stays abstract
@compute @workgroup_size(64)
fn main() { const limit = max(1, 4294967296); }

// === an abstract component of an i32 vector
const offsets = vec4<i32>(1i, -2i, -4294967296, 3i);
//                                 ^ T014 value -4294967296 cannot be represented as 'i32'
@compute @workgroup_size(64)
fn main() {}

// === an abstract value returned as an i32
fn big() -> i32 { return 4294967296; }
//                       ^ T014 value 4294967296 cannot be represented as 'i32'
@compute @workgroup_size(64)
fn main() { _ = big(); }

// === an abstract value converted by i32()
@compute @workgroup_size(64)
fn main() { let x = i32(4294967296); }
//                      ^ T014 value 4294967296 cannot be represented as 'i32'

// === an abstract case selector of an i32 switch
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  switch (i32(li)) {
    case 4294967296: {}
//       ^ T014 value 4294967296 cannot be represented as 'i32'
    default: {}
  }
}

// === an abstract float added to an f32
@compute @workgroup_size(64)
fn main() {
  var x = 1.0f;
  x = x + 1e300;
//        ^ T014 value 1e+300 cannot be represented as 'f32'
}

// === a subgroup matrix size too large for i32
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(64)
fn main() {
  var acc = subgroup_matrix_result<f32, 8, 4294967296>();
//                                         ^ T014 value 4294967296 cannot be represented as 'i32'
}

// === an abstract value added to a u32 variable
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main() {
  var i = 0u;
  i += 4294967296;
//     ^ T014 value 4294967296 cannot be represented as 'u32'
  out[0] = i;
}

// === a struct that contains itself is reported at the struct
struct Node {
//     ^ T001 cyclic dependency: 'Node' -> 'Node'
  value: f32,
  next: Node,
}
@compute @workgroup_size(64)
fn main() {}

// === a const that refers to itself is reported at the const
const limit =
//    ^ T001 cyclic dependency: 'limit' -> 'limit'
    1 + limit;
@compute @workgroup_size(64)
fn main() {}

// === a function name where the parser gave up is a syntax error, not a cycle
fn fill() {
  let v = vec4<f32>(1.main);
//                    ^ S001 expected ','
}
@compute @workgroup_size(64)
fn main() { fill(); }

// === an abstract stride of a subgroup matrix store becomes an i32
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> out0: array<f32, 64>;
@compute @workgroup_size(64)
fn main() {
  let m = subgroup_matrix_result<f32, 8, 8>();
  subgroupMatrixStore<row_major>(&out0, 0u, m, 4294967296);
//                                             ^ T014 value 4294967296 cannot be represented as 'i32'
}

// === a shift count becomes a u32 even beside an abstract value
fn g() -> vec4<i32> { return vec4(-0) << vec4(4294967296); }
//                                       ^ T014 value 4294967296 cannot be represented as 'u32'
@compute @workgroup_size(1)
fn main() { _ = g(); }

// === an abstract component takes the type of a u32 beside it in vec2()
fn thirds(v: vec2<u32>) -> vec2<u32> { return v / (vec2(2u, 4294967296) - 1u).yx; }
//                                                          ^ T014 value 4294967296 cannot be represented as 'u32'
@compute @workgroup_size(1)
fn main() { _ = thirds(vec2(1u)); }

// === an abstract array count becomes an i32
fn a(a : array<f32, 4294967296>) -> f32 { return a[0]; }
//                  ^ T014 value 4294967296 cannot be represented as 'i32'
@compute @workgroup_size(1)
fn main() { }

// === abstract values that fit the types they are given
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let a: u32 = 4000000000;
  let b = select(0u, 4000000000, li > 3u);
  let c = li * 4000000000 + 0xFFFFFFFF;
  var d = vec2(1u, 4000000000);
  d += 4000000000;
  let e = li << 31;
  let f = 1u << 31u;
  let g = array(1u, 4000000000);
  const h = 9000000000 * 2;
  let k = u32(4000000000);
  let m = max(li, 4000000000);
  let n = vec4(-0) << vec4(31);
  let o = -2147483648;
  let p = f32(1e38) + 2e38;
  switch (li) { case 4000000000: {} default: {} }
  out[li] = a + b + c + d.x + e + f + g[0] + k + m + u32(n.x) + u32(o) + u32(p);
}

// === a function named as the type of its own return value
@fragment
fn main(
// ^ T001 cyclic dependency: 'main' -> 'main'; WGSL functions cannot call or nam
  @location(0) color: vec4f
) -> @location(0) main {
//                ^ T003 'main' is a function, not a type
  return color;
}

// === a function named as the type of its own parameter
@fragment
fn main(
// ^ T001 cyclic dependency: 'main' -> 'main'; WGSL functions cannot call or nam
  @location(0) uv: vec2f,
  @location(1) position: main
//                       ^ T003 'main' is a function, not a type
) -> @location(0) vec4f {
  return vec4f(uv, 0.0, 1.0);
}

// === a function named as a parameter type of another one
fn helper(x: main) -> f32 { return 1.0; }
//           ^ T003 'main' is a function, not a type
@compute @workgroup_size(1)
fn main() {}

// === a storage texture whose format names a function that uses the texture
@group(1) @binding(0) var dst: texture_storage_2d<rgba8unorm, write>;
//                        ^ T001 cyclic dependency: 'dst' -> 'rgba8unorm' -> 'store_one' -> 'dst'; a va
//                                                ^ T003 'rgba8unorm' here names the function declared with that name, which hi
fn store_one() {
  textureStore(dst, vec2<i32>(1i), vec4<f32>(1.0));
}
@compute @workgroup_size(1)
fn rgba8unorm() { store_one(); }

// === a storage texture whose format names the texture itself
@group(1) @binding(0) var rg32sint: texture_storage_2d<rg32sint, write>;
//                        ^ T001 cyclic dependency: 'rg32sint' -> 'rg32sint'
//                                                     ^ T003 'rg32sint' here names the var declared with that name, which hides the
@compute @workgroup_size(1)
fn main() {
  textureStore(rg32sint, vec2<i32>(1i), vec4<i32>(1i));
}

// === a storage texture whose format names a const
const rgba8unorm = 1;
@group(1) @binding(0) var dst: texture_storage_2d<rgba8unorm, write>;
//                                                ^ T003 'rgba8unorm' here names the const declared with that name, which hides
@compute @workgroup_size(1)
fn main() {
  textureStore(dst, vec2<i32>(1i), vec4<f32>(1.0));
}

// === a storage texture whose access mode names a function
@group(1) @binding(0) var dst: texture_storage_2d<rgba8unorm, write>;
//                        ^ T001 cyclic dependency: 'dst' -> 'write' -> 'dst'; a variable's type cannot
//                                                            ^ T003 'write' here names the function declared with that name, which hides t
@compute @workgroup_size(1)
fn write() {
  textureStore(dst, vec2<i32>(1i), vec4<f32>(1.0));
}

// === an abstract index into an array variable becomes an i32
@compute @workgroup_size(1)
fn main() {
  var arr: array<f32, 4>;
  arr[4294967296] = 1.0;
//    ^ T014 value 4294967296 cannot be represented as 'i32'
}

// === an abstract shift count in a compound assignment becomes a u32
@compute @workgroup_size(1)
fn main() {
  var total = 1u;
  total <<= 4294967296;
//          ^ T014 value 4294967296 cannot be represented as 'u32'
}

// === a redeclared function is reported before the cycle it makes
fn g() { g(); }
@compute @workgroup_size(1)
fn main() { g(); }
fn g() {}
// ^ T002 redeclaration of 'g'
