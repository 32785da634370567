// Variable declarations: address spaces at module and function scope, access
// modes, initializers, @group/@binding, host-shareable types, array limits,
// and the memory a vertex or fragment shader may use.

// === every address space where it belongs
struct Params { n: u32, scale: f32 }
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@group(0) @binding(1) var<uniform> params: Params;
@group(0) @binding(2) var tex: texture_2d<f32>;
@group(0) @binding(3) var samp: sampler;
var<private> seed: u32 = 7u;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var local: f32 = 1.0;
  tile[i] = data[i] * params.scale + local + f32(seed);
  workgroupBarrier();
  data[i] = tile[63u - i] + textureSampleLevel(tex, samp, vec2f(0.0), 0.0).x;
}

// === an access mode on a private variable
var<private, read_write> counter: i32;
//           ^ T017 only variables in the 'storage' address space may have an access mode

// === an access mode on a workgroup variable
var<workgroup, read> shared_sum: u32;
//             ^ T017 access mode

// === an access mode on a uniform buffer
@group(0) @binding(0) var<uniform, read_write> u: vec4f;
//                                 ^ T017 access mode

// === an access mode on a function variable
fn f() {
  var<function, read_write> x: i32;
//              ^ T017 access mode
}

// === a write-only storage buffer
@group(0) @binding(0) var<storage, write> out: array<u32>;
//                                 ^ T017 'write' is not valid for the 'storage' address space

// === a module-scope variable in the function address space
var<function> x: i32;
//  ^ T017 cannot be in the 'function' address space

// === a module-scope variable without an address space
var total: u32;
//  ^ T017 needs an address space

// === a workgroup variable with an initializer
var<workgroup> partial: array<f32, 4> = array<f32, 4>();
//                                      ^ T017 a 'workgroup' variable cannot have an initializer

// === a storage buffer with an initializer
@group(0) @binding(0) var<storage> data: u32 = 1u;
//                                             ^ T017 cannot have an initializer

// === a uniform buffer with an initializer
@group(0) @binding(0) var<uniform> params: vec4f = vec4f(1.0);
//                                                 ^ T017 cannot have an initializer

// === a private variable with an initializer
var<private> seed: u32 = 1u;
var<private> table = array(1, 2, 3);

// === a storage buffer without @group and @binding
var<storage, read_write> data: array<f32>;
//                       ^ T017 has no @group and @binding

// === a storage buffer without @group
@binding(0) var<storage> data: array<f32>;
//                       ^ T017 has no @group

// === a texture without @binding
@group(0) var tex: texture_2d<f32>;
//            ^ T017 has no @binding

// === a sampler without @group and @binding
var samp: sampler;
//  ^ T017 require '@group' and '@binding'

// === a private variable with @group and @binding
@group(0) @binding(0) var<private> x: i32;
// <- T017 non-resource variables must not have '@group' or '@binding'

// === a workgroup variable with @binding
@binding(1) var<workgroup> x: i32;
// <- T017 'x' is in 'workgroup' memory

// === a texture that names an address space
@group(0) @binding(0) var<private> tex: texture_2d<f32>;
//                        ^ T017 must not name an address space

// === a texture in a uniform buffer
@group(0) @binding(0) var<uniform> tex: texture_2d<f32>;
//                                      ^ T017 not host-shareable

// === bool in a storage buffer
@group(0) @binding(0) var<storage, read_write> flag: bool;
//                                                   ^ T017 type 'bool' cannot be used in the 'storage' address space

// === a vector of bool in a uniform buffer
@group(0) @binding(0) var<uniform> mask: vec2<bool>;
//                                       ^ T017 'vec2<bool>'

// === a struct member of type bool in a storage buffer
struct Item {
  value: u32,
  valid: bool,
//       ^ T017 'bool'
}
@group(0) @binding(0) var<storage> items: array<Item>;

// === bool in a private or workgroup variable
var<private> done: bool;
var<workgroup> flags: array<bool, 64>;
struct Item { value: u32, valid: bool }
var<private> item: Item;

// === an array of 65536 elements in private memory
var<private> big: array<f32, 65536>;
//                ^ T014 array count (65536) must be less than 65536

// === an array of 65535 elements in private memory
var<private> big: array<f32, 65535>;

// === a large array in a function variable
fn f() {
  var big: array<u32, 70000>;
//         ^ T014 must be less than 65536
}

// === a storage array of more than 4 GiB
@group(0) @binding(0) var<storage> huge: array<vec4f, 300000000>;
//                                       ^ T014 must not exceed 4 GiB

// === a storage array just under 4 GiB
@group(0) @binding(0) var<storage> huge: array<vec4f, 268435455>;

// === a workgroup variable used by a fragment shader
var<workgroup> w: u32;
@fragment fn fs() -> @location(0) vec4f {
  return vec4f(f32(w));
//                 ^ T003 workgroup memory exists only in compute shaders
}

// === a workgroup variable used by a vertex shader through a helper
var<workgroup> w: u32;
fn helper() -> u32 {
  return w;
//       ^ T003 not in a vertex shader
}
@vertex fn vs() -> @builtin(position) vec4f {
  return vec4f(f32(helper()));
}

// === a read-only storage buffer in a vertex shader
@group(0) @binding(0) var<storage, read> positions: array<vec4f>;
@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {
  return positions[v];
}

// === a storage buffer with a struct of vectors, matrices and atomics
struct Particles {
  count: atomic<u32>,
  transform: mat4x4f,
  positions: array<vec4f>,
}
@group(0) @binding(0) var<storage, read_write> particles: Particles;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let n = atomicAdd(&particles.count, 1u);
  particles.positions[id.x] = particles.transform * vec4f(f32(n));
}

// === a uniform buffer read by a vertex and a fragment shader
struct Camera { view: mat4x4f, tint: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@vertex fn vs(@location(0) p: vec4f) -> @builtin(position) vec4f {
  return camera.view * p;
}
@fragment fn fs() -> @location(0) vec4f {
  return camera.tint;
}

// === a workgroup tile shared by a compute shader and its helper
var<workgroup> tile: array<array<f32, 16>, 16>;
fn load(x: u32, y: u32) -> f32 {
  return tile[y][x];
}
@compute @workgroup_size(16, 16) fn main(@builtin(local_invocation_id) l: vec3u) {
  tile[l.y][l.x] = f32(l.x);
  workgroupBarrier();
  _ = load(l.y, l.x);
}

// === an access mode on a function pointer
fn f(p: ptr<function, i32, read_write>) {
//                         ^ T017 only pointers in the 'storage' address space may have an access mode
}

// === a write-only storage pointer
fn f(p: ptr<storage, array<u32>, write>) {
//                               ^ T017 'write' is not valid for the 'storage' address space
}

// === a storage pointer to bool
fn f(p: ptr<storage, bool>) {
//                   ^ T017 type 'bool' cannot be used in the 'storage' address space
}

// === pointers in every address space a function may take
var<private> counter: u32;
var<workgroup> shared_total: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
fn bump(p: ptr<private, u32>, q: ptr<storage, array<u32>, read_write>, w: ptr<workgroup, atomic<u32>>) {
  *p += 1u;
  (*q)[0] = *p;
  atomicAdd(w, 1u);
}
@compute @workgroup_size(1) fn main() {
  var local = 0u;
  let r: ptr<function, u32> = &local;
  *r = 2u;
  bump(&counter, &data, &shared_total);
}

// === a pointer as the type of a var
fn f() {
  var x: i32;
  var p: ptr<function, i32> = &x;
//       ^ T017 cannot be the type of a 'var'
}

// === a struct with a runtime-sized array before its last member
struct Buffer {
  values: array<u32>,
//^ T003 can only be the last member of a struct
  count: u32,
}

// === a struct without members
struct Empty {}
//     ^ T003 has no members

// === a struct ending in a runtime-sized array in private memory
struct Buffer {
  count: u32,
  values: array<u32>,
//        ^ T003 not in 'private' memory
}
var<private> b: Buffer;

// === a struct ending in a runtime-sized array in a storage buffer
struct Buffer {
  count: u32,
  values: array<u32>,
}
@group(0) @binding(0) var<storage, read_write> b: Buffer;
@compute @workgroup_size(1) fn main() {
  b.values[b.count] = arrayLength(&b.values);
}

// === two resources of one entry point share a binding
@group(0) @binding(0) var<storage, read> input: array<f32>;
//                                       ^ T017 share '@group(0) @binding(0)'
@group(0) @binding(0) var<storage, read_write> output: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  output[id.x] = input[id.x];
}

// === a shared binding reached through a helper
const GROUP = 1;
@group(GROUP) @binding(2) var tex: texture_2d<f32>;
@group(1) @binding(2) var<uniform> scale: f32;
//                                 ^ T017 entry point 'fs' uses both 'tex' and 'scale'
fn scaled(x: f32) -> f32 { return x * scale; }
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  return textureLoad(tex, vec2i(p.xy), 0) * scaled(1.0);
}

// === one binding used by two entry points, once each
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(0) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(1) fn first() { _ = a[0]; }
@compute @workgroup_size(1) fn second() { b[0] = 1u; }

// === atomics in a read-only storage buffer
@group(0) @binding(0) var<storage, read> counter: atomic<u32>;
//                                                ^ T017 need 'read_write' access

// === a pointer as a struct member
struct Link {
  next: ptr<function, i32>,
//      ^ T003 cannot be the type of a struct member
}

// === the handle address space cannot be written
var<handle> counter: u32;
//  ^ T003 unknown address space 'handle'
