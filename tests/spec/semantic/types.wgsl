// Types: scalars (f16 needs its enable), vectors, matrices, arrays, structs,
// pointers and references, atomics, conversions, abstract numbers,
// operators, swizzles and indexing.

// === let with an explicit type
fn f() {
  let a: u32 = 1u;
  let b: f32 = 2.0;
  let c: i32 = -3;
  let d: bool = a > 0u && b < 3.0;
  _ = c; _ = d;
}

// === initializer of the wrong type
fn f() {
  var x: u32 = 1.5;
//             ^ T003 'u32'
}
// tint: cannot initialize var of type 'u32' with value of type 'abstract-float'

// === concrete types never convert implicitly
fn f() {
  let a = 1i;
  let b: u32 = a;
//             ^ T003 'u32'
}

// === f32 does not convert to f16 implicitly
enable f16;
fn f() {
  let a = 1.0f;
  let b: f16 = a;
//             ^ T003 'f16'
}

// === f16 needs enable f16
fn f() {
  var h: f16 = 1.0;
//       ^ T007 'f16'
}
// tint: 'f16' type used without 'f16' extension enabled

// === f16 literal suffix needs enable f16
fn f() -> f32 {
  return f32(1.5h);
//           ^ T007 'f16'
}

// === vec4h alias needs enable f16
fn f() {
  var v: vec4h;
//       ^ T007 'f16'
}

// === f16 with its enable
enable f16;
fn f(x: f16) -> vec2<f16> {
  let h = 1.5h * x;
  return vec2<f16>(h, f16(2.0));
}

// === conversion builtins between scalar types
fn f(x: f32) -> u32 {
  let i = i32(x);
  let b = bool(i);
  return u32(i) + select(0u, 1u, b);
}

// === bitcast between 32-bit types
fn f(x: f32) -> u32 { return bitcast<u32>(x); }

// === abstract int infers i32
fn f() -> i32 {
  let x = 5;
  return x;
}

// === abstract float infers f32
fn f() -> u32 {
  let x = 5.0;
  return x;
//       ^ T003 'u32'
}
// tint: return statement type must match its function return type, returned 'f32', expected 'u32'

// === mixing u32 and i32 in an operator
fn f(a: u32, b: i32) -> u32 {
  return a + b;
//       ^ T004 '+'
}
// tint: no matching overload for 'operator + (u32, i32)'

// === abstract int adapts to the other operand
fn f(a: u32) -> u32 { return a + 1; }

// === vector times scalar
fn f(v: vec3<f32>) -> vec3<f32> { return v * 2.0 + vec3(1.0); }

// === vector size mismatch in an operator
fn f(a: vec3<f32>, b: vec4<f32>) -> vec3<f32> {
  return a + b;
//       ^ T004 '+'
}

// === matrix times vector
fn f(m: mat4x4<f32>, v: vec4<f32>) -> vec4<f32> { return m * v; }

// === matrix times vector of the wrong size
fn f(m: mat4x3<f32>, v: vec3<f32>) -> vec3<f32> {
  return m * v;
//       ^ T004 '*'
}

// === integer matrices do not exist
fn f() {
  var m: mat2x2<i32>;
//       ^ T003 'i32'
}
// tint: matrix element type must be 'f32' or 'f16'

// === logical operators need bool
fn f(a: u32) -> bool {
  return a && true;
//       ^ T004 '&&'
}

// === if condition must be bool
fn f(a: u32) {
  if a { }
//   ^ T003 'bool'
}
// tint: if statement condition must be bool, got u32

// === while condition must be bool
fn f() {
  var i = 0;
  while i { i++; }
//      ^ T003 'bool'
}

// === swizzles
fn f(v: vec4<f32>) -> vec3<f32> {
  let a = v.xyz;
  let b = v.rgb;
  let c = v.w;
  return a + b * c;
}

// === swizzle out of range for vec2
fn f(v: vec2<f32>) -> f32 {
  return v.z;
//         ^ T003 'z'
}
// tint: invalid vector swizzle member

// === swizzle mixing xyzw and rgba
fn f(v: vec4<f32>) -> vec2<f32> {
  return v.xg;
//         ^ T003 'xg'
}

// === swizzle assignment is accepted by this Tint
fn f() {
  var v = vec4<f32>();
  v.xy = vec2<f32>(1.0, 2.0);
}
// tint: accepts it (the WGSL swizzle-assignment feature); naga 29 does not

// === swizzle assignment of the wrong size
fn f() {
  var v = vec4<f32>();
  v.xy = vec3<f32>(1.0, 2.0, 3.0);
//       ^ T003 'vec2<f32>'
}

// === member assignment on a vector component
fn f() {
  var v = vec4<f32>();
  v.x = 1.0;
  v[2] = 3.0;
}

// === dynamic indexing of an array
fn f(i: u32) -> f32 {
  var a = array<f32, 4>(1.0, 2.0, 3.0, 4.0);
  return a[i];
}

// === index must be an integer
fn f() -> f32 {
  var a: array<f32, 4>;
  return a[1.0];
//         ^ T003 index
}
// tint: index must be of type 'i32' or 'u32', found: 'abstract-float'

// === indexing a scalar
fn f(x: f32) -> f32 {
  return x[0];
//       ^ T003 index
}

// === runtime-sized array in storage with arrayLength
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
fn f() -> u32 { return arrayLength(&buf); }

// === runtime-sized array as a function variable
fn f() {
  var a: array<u32>;
//       ^ T003 runtime-sized
}

// === array constructor with the wrong element type
fn f() {
  let a = array<u32, 2>(1u, 2.5);
//                          ^ T003 'u32'
}

// === array constructor with the wrong count
fn f() {
  let a = array<u32, 3>(1u, 2u);
//        ^ T004 array
}
// tint: array constructor has too few elements: expected 3, found 2

// === struct constructor
struct P { x: f32, y: f32 }
fn f() -> P { return P(1.0, 2.0); }

// === struct constructor with a wrong member type
struct P { x: f32, n: u32 }
fn f() -> P {
  return P(1.0, 2.0);
//              ^ T003 'u32'
}

// === struct constructor with too few arguments
struct P { x: f32, y: f32 }
fn f() -> P {
  return P(1.0);
//       ^ T004 'P'
}

// === pointer parameters and dereference
fn bump(p: ptr<function, i32>) { *p = *p + 1; }
fn f() -> i32 {
  var x = 1;
  bump(&x);
  return x;
}

// === pointer to a private variable
var<private> counter: u32;
fn bump(p: ptr<private, u32>) { *p += 1u; }
fn f() { bump(&counter); }

// === pointer address space mismatch
var<private> counter: u32;
fn bump(p: ptr<function, u32>) { *p += 1u; }
fn f() {
  bump(&counter);
//     ^ T003 'ptr<function, u32, read_write>'
}

// === assigning to a let
fn f() {
  let x = 1;
  x = 2;
//^ T003 let
}
// tint: cannot assign to 'let x'

// === assigning to a const
const C = 1;
fn f() {
  C = 2;
//^ T003 const
}

// === writing through a read-only storage buffer
@group(0) @binding(0) var<storage, read> buf: array<u32>;
fn f() {
  buf[0] = 1u;
//^ T003 read
}
// tint: cannot store into a read-only type

// === taking the address of a value
fn f() {
  let x = 1;
  let p = &x;
//         ^ T003 address
}
// tint: cannot take the address of 'let x'

// === dereferencing a non-pointer
fn f() -> i32 {
  let x = 1;
  return *x;
//        ^ T003 pointer
}

// === atomics in storage and workgroup memory
@group(0) @binding(0) var<storage, read_write> hits: atomic<u32>;
var<workgroup> local_hits: atomic<i32>;
@compute @workgroup_size(64) fn main() {
  atomicAdd(&hits, 1u);
  let old = atomicExchange(&local_hits, 5);
  _ = old;
}

// === atomics need u32 or i32
var<workgroup> a: atomic<f32>;
//                       ^ T003 atomic
// tint: atomic only supports i32 or u32 types

// === atomics are not allowed in private memory
var<private> a: atomic<u32>;
//              ^ T003 atomic
// tint: atomic variables must have <storage> or <workgroup> address space

// === reading an atomic directly
var<workgroup> a: atomic<u32>;
fn f() -> u32 {
  return a;
//       ^ T003 'u32'
}

// === return type mismatch
fn f() -> vec2<f32> {
  return vec3<f32>();
//       ^ T003 'vec2<f32>'
}

// === missing return value
fn f() -> f32 {
  return;
//^ T003 'f32'
}

// === returning a value from a void function
fn f() {
  return 1;
//       ^ T003 return
}

// === calling a function with the wrong argument type
fn g(x: u32) {}
fn f() {
  g(1.5);
//  ^ T003 'u32'
}
// tint: type mismatch for argument 1 in call to 'g', expected 'u32', got 'abstract-float'

// === calling a function with too many arguments
fn g(x: u32) {}
fn f() {
  g(1u, 2u);
//^ T004 'g'
}

// === compound assignment types
fn f() {
  var a = 1u;
  a += 2u;
  a <<= 1u;
  var v = vec2<f32>();
  v *= 2.0;
}

// === compound assignment with the wrong type
fn f() {
  var a = 1u;
  a += 2i;
//^ T004 '+'
}

// === increment of a float
fn f() {
  var x = 1.0;
  x++;
//^ T003 increment
}

// === bool vector comparisons
fn f(a: vec3<f32>, b: vec3<f32>) -> bool { return any(a < b) && all(a != b); }

// === comparing structs is not allowed
struct S { a: u32 }
fn f(x: S, y: S) -> bool {
  return x == y;
//       ^ T004 '=='
}

// === texture-free compute kernel with vector math
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x;
  if i >= arrayLength(&src) { return; }
  let v = src[i];
  dst[i] = vec4(v.xyz * v.w, dot(v.xyz, v.xyz));
}

// === nested structs and arrays of structs
struct Inner { v: vec2<f32>, w: f32 }
struct Outer { items: array<Inner, 4>, n: u32 }
fn f(o: Outer) -> f32 { return o.items[o.n % 4u].v.y + o.items[0].w; }

// === pointer to a struct member
struct S { a: array<u32, 4>, b: u32 }
fn put(p: ptr<function, array<u32, 4>>, i: u32) { (*p)[i] = i; }
fn f() -> u32 {
  var s: S;
  put(&s.a, 2u);
  let q = &s.b;
  *q = 3u;
  return s.a[2] + s.b;
}

// === mixed abstract and concrete vector constructors
fn f(x: f32) -> vec4<f32> { return vec4(vec2(x, 1), 2, 3.0).wzyx; }

// === matrix construction and column access
fn f() -> vec3<f32> {
  let m = mat3x3<f32>(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
  return m[1] + transpose(m)[2];
}
