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
