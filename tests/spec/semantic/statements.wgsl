// Statements and values: results that must be used, what '_', a 'let' and a
// parameter may hold, swizzles that can be assigned, pointers and arrays of
// what, and module-scope expressions that name variables.

// === a constructor as a statement
fn f() {
  vec2f(1.0, 2.0);
//^ T015 value constructor evaluated but not used
}

// === a conversion as a statement
fn f(x: i32) {
  f32(x);
//^ T015 value conversion evaluated but not used
}

// === a must_use function's result dropped
@must_use fn area(w: f32, h: f32) -> f32 { return w * h; }
fn f() {
  area(1.0, 2.0);
//^ T015 ignoring the result of 'area'
}

// === results used or dropped on purpose
@must_use fn area(w: f32, h: f32) -> f32 { return w * h; }
fn log_area(w: f32) -> f32 { return w; }
fn f() {
  _ = area(1.0, 2.0);
  _ = vec2f(1.0, 2.0);
  log_area(3.0);
}

// === the value of a function without a result
fn reset() { }
fn f() {
  let x = reset();
//        ^ T003 function 'reset' does not return a value
}

// === a swizzle that names a component twice, assigned
fn f() {
  var v = vec4f();
  v.xx = vec2f(1.0);
//  ^ T003 cannot assign to the swizzle 'xx'
}

// === a compound assignment to a swizzle that names a component twice
fn f() {
  var v = vec4f();
  v.yy += vec2f(1.0);
//  ^ T003 cannot assign to the swizzle 'yy'
}

// === swizzles assigned one component at a time
fn f() {
  var v = vec4f();
  v.x = 1.0;
  v.y = v.x;
  let w = v.xxyy;
}

// === a case selector that is not constant
fn f(x: i32, y: i32) {
  switch x {
    case y: { }
//       ^ T014 a case selector must be a constant expression
    default: { }
  }
}

// === a pointer to a texture
fn f(p: ptr<private, texture_2d<f32>>) { }
//                   ^ T003 a pointer cannot be formed to the handle type 'texture_2d<f32>'

// === the address of a texture
@group(0) @binding(0) var t: texture_2d<f32>;
fn f() {
  let p = &t;
//         ^ T003 cannot take the address of 'var t'
}

// === a texture passed and held as it is
@group(0) @binding(0) var t: texture_2d<f32>;
fn size_of(tex: texture_2d<f32>) -> vec2u { return textureDimensions(tex); }
@compute @workgroup_size(1) fn main() {
  let same = t;
  _ = size_of(same);
  _ = t;
}

// === an array of textures
var<private> textures: array<texture_2d<f32>, 2>;
//                           ^ T003 cannot be the element type of an array

// === an array of runtime-sized arrays
@group(0) @binding(0) var<storage> rows: array<array<u32>>;
//                                             ^ T003 an array element type cannot be or contain a runtime-sized array

// === an atomic parameter
fn f(counter: atomic<u32>) { }
//            ^ T003 a function parameter cannot have the type 'atomic<u32>'

// === an atomic in a let
var<workgroup> counter: atomic<u32>;
fn f() {
  let snapshot = counter;
//               ^ T003 cannot be the type of a 'let'
}

// === an atomic assigned to _
var<workgroup> counter: atomic<u32>;
fn f() {
  _ = counter;
//    ^ T003 cannot assign 'atomic<u32>' to '_'
}

// === a module-scope var initialized from another var
var<private> a: i32 = 1;
var<private> b: i32 = a;
//                    ^ T003 'var a' cannot be referenced at module scope

// === a module-scope var initialized from a const
const A = 3;
var<private> b: i32 = A * 2;

// === pointers to every kind of memory a helper can take
struct Particle { p: vec3f, v: vec3f }
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
fn step(q: ptr<storage, Particle, read_write>, dt: f32) {
  (*q).p += (*q).v * dt;
}
fn clamp_speed(v: ptr<function, vec3f>) {
  *v = clamp(*v, vec3f(-1.0), vec3f(1.0));
}
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  var v = particles[id.x].v;
  clamp_speed(&v);
  particles[id.x].v = v;
  step(&particles[id.x], 0.016);
}

// === arrays of structs, vectors and fixed arrays
struct Cell { weight: f32, index: u32 }
var<private> grid: array<array<Cell, 4>, 4>;
var<private> corners: array<vec2f, 4> = array(vec2f(0.0), vec2f(1.0, 0.0), vec2f(0.0, 1.0), vec2f(1.0));
fn f() -> f32 { return grid[1][2].weight + corners[3].x; }

// === a switch whose cases are named constants
const SMALL = 1u;
const LARGE = 2u;
fn size(kind: u32) -> f32 {
  switch kind {
    case SMALL: { return 0.5; }
    case LARGE, 3u: { return 2.0; }
    default: { return 1.0; }
  }
}

// === a texel offset out of range
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn fs(@location(0) uv: vec2f) -> @location(0) vec4f {
  return textureSample(t, s, uv, vec2i(8, 0));
//                               ^ T014 each component of the offset argument must be at least -8 and at most 7
}

// === a texel offset that is not constant
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn fs(@location(0) uv: vec2f, @location(1) @interpolate(flat) o: vec2i) -> @location(0) vec4f {
  return textureSample(t, s, uv, o);
//                               ^ T014 the 'offset' argument of 'textureSample' must be a const-expression
}

// === a gather component past 3
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
fn f() -> vec4f {
  return textureGather(4, t, s, vec2f(0.5));
//                     ^ T014 at least 0 and at most 3
}

// === texel offsets and gather components in range
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
const SHIFT = vec2i(-8, 7);
@fragment fn fs(@location(0) uv: vec2f) -> @location(0) vec4f {
  return textureSample(t, s, uv, SHIFT) + textureGather(3, t, s, uv, vec2i(1, -1));
}

// === a negative broadcast lane
enable subgroups;
fn f(x: f32) -> f32 {
  return subgroupBroadcast(x, -1);
//                            ^ T014 must be greater than or equal to zero
}

// === a runtime-sized array constructed
fn f() {
  let a = array<u32>();
//        ^ T003 cannot construct a runtime-sized array
}

// === a var without a type or an initializer
fn f() {
  var x;
//    ^ T003 'var x' needs a type or an initializer
}

// === an override without a type or an initializer
override scale;
//       ^ T003 'override scale' needs a type or an initializer

// === declarations with a type, an initializer or both
override scale: f32 = 1.0;
override bias = 0.5;
var<private> seed: u32;
fn f() -> f32 {
  var a: f32;
  var b = 2.0;
  var c: f32 = b * scale + bias;
  a = c;
  return a + f32(seed);
}

// === a broadcast from a constant lane
enable subgroups;
@compute @workgroup_size(32) fn main(@builtin(subgroup_invocation_id) lane: u32) {
  let first = subgroupBroadcast(f32(lane), 0u);
  let last = subgroupBroadcastFirst(f32(lane));
  _ = first + last;
}

// === sized arrays constructed with and without their element type
fn f() -> u32 {
  let a = array<u32, 3>(1u, 2u, 3u);
  let b = array(4u, 5u, 6u);
  return a[0] + b[2];
}
