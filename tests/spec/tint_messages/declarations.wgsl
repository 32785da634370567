// Tint's errors about declarations: variables and their address spaces and access modes, the values of
// @id/@binding/@group/@align/@size/@workgroup_size, atomics, host-shareable types and uniform-buffer
// layout, pointer types and textures. One case per message id (the id in tests/spec/TINT_COVERAGE.json):
// Tint reports that message first, and coop-lint agrees with it on the verdict and the line.

// === resolver:override-declaration-requires-a-type-or-initializer
override block_size;
//       ^ T003 'override block_size' needs a type or an initializer
@compute @workgroup_size(64)
fn main() {}

// === resolver:var-declaration-requires-a-type-or-initializer
var<private> seed;
//           ^ T003 'var seed' needs a type or an initializer
@compute @workgroup_size(64)
fn main() {}

// === resolver:id-must-be-an-i32-or-u32
@id(1.5) override block_size: u32 = 64u;
//  ^ T023 '@id' must be an 'i32' or 'u32' value, not the float '1.5'
@compute @workgroup_size(64)
fn main() {}

// === resolver:id-value-must-be-non-negative
@id(-1) override block_size: u32 = 64u;
//  ^ T023 '@id' value must be between 0 and 65535, not -1
@compute @workgroup_size(64)
fn main() {}

// === resolver:id-value-must-be-between-0-and
@id(70000) override block_size: u32 = 64u;
//  ^ T023 '@id' value must be between 0 and 65535, not 70000
@compute @workgroup_size(64)
fn main() {}

// === resolver:cannot-take-the-address-of-in-handle
@group(0) @binding(0) var src_tex: texture_2d<f32>;
@compute @workgroup_size(8, 8)
fn main() {
  let p = &src_tex;
//         ^ T003 cannot take the address of 'var src_tex': textures and sampl
}

// === resolver:binding-must-be-an-i32-or-u32
@group(0) @binding(1.0) var<storage, read_write> data: array<f32>;
//                 ^ T023 '@binding' must be an 'i32' or 'u32' value, not the float '1
@compute @workgroup_size(64)
fn main() { data[0] = 1.0; }

// === resolver:binding-value-must-be-non-negative
@group(0) @binding(-1) var<storage, read_write> data: array<f32>;
//                 ^ T023 '@binding' value must be non-negative, not -1
@compute @workgroup_size(64)
fn main() { data[0] = 1.0; }

// === resolver:group-must-be-an-i32-or-u32
@group(0.0) @binding(1) var<storage, read_write> data: array<f32>;
//     ^ T023 '@group' must be an 'i32' or 'u32' value, not the float '0.0
@compute @workgroup_size(64)
fn main() { data[0] = 1.0; }

// === resolver:group-value-must-be-non-negative
@group(-2) @binding(1) var<storage, read_write> data: array<f32>;
//     ^ T023 '@group' value must be non-negative, not -2
@compute @workgroup_size(64)
fn main() { data[0] = 1.0; }

// === resolver:align-value-must-be-an-i32-or
struct Params {
  @align(4.0) scale: f32,
//       ^ T023 '@align' must be an 'i32' or 'u32' value, not the float '4.0
}
@group(0) @binding(0) var<uniform> params: Params;
@compute @workgroup_size(64)
fn main() { _ = params.scale; }

// === resolver:align-value-must-be-a-positive-power
struct Params {
  @align(12) scale: f32,
//       ^ T023 '@align' value must be a positive power of two, not 12
}
@compute @workgroup_size(64)
fn main() {}

// === resolver:size-value-must-be-an-i32-or
struct Params {
  @size(8.0) scale: f32,
//      ^ T023 '@size' must be an 'i32' or 'u32' value, not the float '8.0'
}
@compute @workgroup_size(64)
fn main() {}

// === resolver:size-value-must-be-a-positive-integer
struct Params {
  @size(0) scale: f32,
//      ^ T023 '@size' must be at least the size of 'f32' (4 bytes), not 0
}
@compute @workgroup_size(64)
fn main() {}

// === resolver:size-must-be-at-least-as-big
struct Params {
  @size(8) dir: vec3<f32>,
//      ^ T023 '@size' must be at least the size of 'vec3<f32>' (12 bytes),
}
@compute @workgroup_size(64)
fn main() {}

// === validator:variables-in-address-space-must-have-a
var<workgroup> tile: array<f32>;
//                   ^ T003 a runtime-sized array can only live in a 'storage' buffer, n
@compute @workgroup_size(64)
fn main() {}

// === validator:atomic-variables-must-have-storage-or-workgroup
var<private> counter: atomic<u32>;
//                    ^ T003 atomic types can only live in 'storage' or 'workgroup' memor
@compute @workgroup_size(64)
fn main() {}

// === resolver:type-cannot-be-used-in-address-space
@group(0) @binding(0) var<storage, read_write> flags: array<bool>;
//                                                    ^ T017 type 'bool' cannot be used in the 'storage' address space: i
@compute @workgroup_size(64)
fn main() {}

// === validator:atomic-only-supports-i32-u32-or-vec2u
var<workgroup> total: atomic<f32>;
//                           ^ T003 atomic element type must be i32 or u32, not 'f32'
@compute @workgroup_size(64)
fn main() {}

// === validator:pointer-can-not-be-formed-to-handle
fn read(t: ptr<function, texture_2d<f32>>) {}
//                       ^ T003 a pointer cannot be formed to the handle type 'texture_2d<f3
@compute @workgroup_size(64)
fn main() {}

// === validator:only-pointers-in-storage-address-space-may
fn bump(p: ptr<function, i32, read_write>) {}
//                            ^ T017 only pointers in the 'storage' address space may have an acc
@compute @workgroup_size(64)
fn main() {}

// === validator:texture_multisampled_2d-type-type-must-be-f32-i32
@group(0) @binding(0) var ms: texture_multisampled_2d<vec4<f32>>;
//                                                    ^ T003 'texture_multisampled_2d' element type must be a scalar, not
@compute @workgroup_size(8, 8)
fn main() {}

// === validator:module-scope-var-declarations-that-are-not
var state: u32;
//  ^ T017 a module-scope 'var' needs an address space (for example 'va
@compute @workgroup_size(64)
fn main() {}

// === validator:resource-variables-require-group-and-binding-attributes
@group(0) var<storage, read_write> data: array<f32>;
//                                 ^ T017 resource variables require '@group' and '@binding' attribute
@compute @workgroup_size(64)
fn main() { data[0] = 1.0; }

// === validator:non-resource-variables-must-not-have-group
@group(0) @binding(0) var<private> data: array<f32, 4>;
// <- T017 non-resource variables must not have '@group' or '@binding'
@compute @workgroup_size(64)
fn main() { data[0] = 1.0; }

// === validator:variables-of-type-must-not-specify-an
@group(0) @binding(0) var<private> samp: sampler;
//                        ^ T017 a variable of type 'sampler' must not name an address space
@compute @workgroup_size(64)
fn main() {}

// === validator:id-values-must-be-unique
@id(1) override width: u32 = 64u;
@id(1) override height: u32 = 64u;
// <- T023 '@id' values must be unique; 1 is used twice
@compute @workgroup_size(64)
fn main() {}

// === validator:cannot-be-used-as-the-type-of-3
override dims: vec2<u32>;
//             ^ T003 an override must have a scalar type, not 'vec2<u32>'
@compute @workgroup_size(64)
fn main() {}

// === validator:access-mode-write-is-not-valid-for
@group(0) @binding(0) var<storage, write> data: array<f32>;
//                                 ^ T017 access mode 'write' is not valid for the 'storage' address s
@compute @workgroup_size(64)
fn main() {}

// === validator:atomic-variables-in-storage-address-space-must
@group(0) @binding(0) var<storage, read> counter: atomic<u32>;
//                                                ^ T017 atomics in a 'storage' buffer need 'read_write' access: decl
@compute @workgroup_size(64)
fn main() {}

// === resolver:must-evaluate-to-a-constant-integer-expression
@compute @workgroup_size(64)
fn main() {
  let n = 4u;
  var tmp: array<f32, n>;
//                    ^ T003 array size must be a constant or override expression
}

// === resolver:runtime-sized-arrays-must-be-used-with
fn f(a: array<f32>) {}
//      ^ T003 a function parameter cannot have the type 'array<f32>': para
@compute @workgroup_size(64)
fn main() {}

// === validator:cannot-be-used-as-the-type-of-2
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@compute @workgroup_size(64)
fn main() {
  let a = counter;
//        ^ T003 'atomic<u32>' cannot be the type of a 'let': a 'let' holds c
}

// === validator:size-can-only-be-applied-to-members
struct Rows {
  count: u32,
  @size(64) data: array<f32>,
//^ T023 '@size' needs a member whose size is known when the pipeline
}
@group(0) @binding(0) var<storage, read_write> rows: Rows;
@compute @workgroup_size(64)
fn main() {}

// === validator:array-with-an-override-element-count-can
override n: u32 = 16u;
var<workgroup> tile: array<array<f32, n>, 4>;
//                         ^ T003 'array<f32, n>' cannot be the element type of an array: an a
@compute @workgroup_size(64)
fn main() {}

// === validator:alignment-must-be-a-multiple-of-bytes-2
struct Params {
  @align(2) scale: f32,
//       ^ T023 '@align(2)' is below the alignment of 'f32' (4 bytes); use a
}
@compute @workgroup_size(64)
fn main() {}

// === validator:cannot-construct-an-array-that-has-an
override n: u32 = 16u;
var<workgroup> tile: array<f32, n>;
@compute @workgroup_size(64)
fn main() {
  tile = array<f32, n>();
//       ^ T003 cannot construct 'array<f32, n>': its element count is an 'o
}

// === validator:the-type-atomic-vec2u-cannot-be-used
@group(0) @binding(0) var<storage, read_write> counter: atomic<vec2u>;
//                                                             ^ T003 'atomic<vec2<u32>>' needs the extension 'atomic_vec2u_min_ma
@compute @workgroup_size(64)
fn main() {}

// === validator:cannot-be-used-as-the-store-type
@compute @workgroup_size(64)
fn main() {
  var p: ptr<function, ptr<function, i32>>;
//                     ^ T003 a pointer cannot point to another pointer ('ptr<function, i3
}

// === validator:array-with-an-override-element-count-can (struct member)
override n: u32 = 16u;
struct Tile {
  values: array<f32, n>,
//        ^ T003 'array<f32, n>' cannot be the type of a struct member: an ar
}
@compute @workgroup_size(64)
fn main() {}

// === validator:cannot-be-used-as-the-store-type (parameter)
fn read(p: ptr<function, ptr<function, i32>>) -> i32 {
//                       ^ T003 a pointer cannot point to another pointer ('ptr<function, i3
  return 0;
}
@compute @workgroup_size(64)
fn main() {}

// === validator:requires-but-expression-is (module-scope var)
var<private> slope: f32 = dpdx(1.0);
//                        ^ T014 a module-scope 'var' initializer requires a const- or overri
@compute @workgroup_size(64)
fn main() {}

// === validator:alignment-must-be-a-multiple-of-bytes-2 (wider member)
struct Particle {
  @align(8) position: vec4<f32>,
//       ^ T023 '@align(8)' is below the alignment of 'vec4<f32>' (16 bytes)
}
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@compute @workgroup_size(64)
fn main() {}

// === accepted: declarations at the edge of these rules
override tile_width: u32 = 16u;
override gain: f32 = 2.0;
struct Particle {
  @align(16) position: vec3<f32>,
  @size(16) velocity: vec3<f32>,
  @align(32) mass: f32,
}
struct Rows {
  count: u32,
  data: array<f32>,
}
var<private> scale: f32 = gain * 0.5;
var<private> origin = vec2<f32>(1.0, 2.0);
var<workgroup> tile: array<f32, tile_width>;
var<workgroup> lanes: array<atomic<u32>, 4>;
@group(0) @binding(0) var<storage, read_write> rows: Rows;
@group(0) @binding(1) var<storage, read_write> particles: array<Particle>;
fn bump(p: ptr<workgroup, atomic<u32>>) { atomicAdd(p, 1u); }
fn first(p: ptr<storage, Rows, read_write>) -> f32 { return (*p).data[0]; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let zeros = array<f32, 4>();
  tile[li % tile_width] = rows.data[li] * scale + zeros[0] + origin.x;
  bump(&lanes[li % 4u]);
  particles[li].mass = first(&rows);
}

// === accepted: @align below the natural alignment in a struct that is neither host-shareable nor constructible
// Tint checks a member's @align against its type only in structs it can lay out on their own.
struct Slot {
  ready: bool,
  @align(2) hits: atomic<u32>,
}
var<workgroup> slot: Slot;
@compute @workgroup_size(64)
fn main() {
  atomicAdd(&slot.hits, 1u);
}

// === validator:atomic-variables-must-have-storage-or-workgroup (pointer type)
struct Counters {
  total: u32,
  hits: array<atomic<u32>, 4>,
}
fn count(c: ptr<function, Counters>) -> u32 {
//                        ^ T003 a pointer into 'function' memory cannot point to atomics: at
  return (*c).total;
}
@compute @workgroup_size(64)
fn main() {}

// === validator:atomic-variables-in-storage-address-space-must (pointer type)
fn peek(counter: ptr<storage, atomic<u32>, read>) -> u32 {
//                            ^ T017 atomics in a 'storage' buffer need 'read_write' access: writ
  return 0u;
}
@compute @workgroup_size(64)
fn main() {}

// === resolver:runtime-sized-arrays-cannot-be-used-in (pointer to a struct)
struct Rows {
  count: u32,
  data: array<f32>,
//      ^ T003 a pointer into 'private' memory cannot point to a runtime-si
}
fn first(rows: ptr<private, Rows>) -> f32 {
  return 0.0;
}
@compute @workgroup_size(64)
fn main() {}

// === accepted: pointers to atomics and runtime-sized arrays where they may live
struct Rows {
  count: u32,
  data: array<f32>,
}
@group(0) @binding(0) var<storage, read_write> rows: Rows;
@group(0) @binding(1) var<storage, read_write> hits: array<atomic<u32>>;
var<workgroup> local_hits: array<atomic<u32>, 64>;
fn total(r: ptr<storage, Rows, read_write>) -> f32 { return (*r).data[0]; }
fn bump(c: ptr<storage, atomic<u32>, read_write>) { atomicAdd(c, 1u); }
fn bump_local(c: ptr<workgroup, atomic<u32>>) { atomicAdd(c, 1u); }
fn length_of(values: ptr<storage, array<f32>, read_write>) -> u32 { return arrayLength(values); }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  bump(&hits[li]);
  bump_local(&local_hits[li]);
  rows.data[li] = total(&rows) + f32(length_of(&rows.data));
}

// === accepted: texture_multisampled_2d_array
@group(0) @binding(0) var frames: texture_multisampled_2d_array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4<f32>>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let size = textureDimensions(frames);
  if any(gid.xy >= size) { return; }
  var sum = vec4<f32>();
  for (var layer = 0u; layer < textureNumLayers(frames); layer++) {
    for (var s = 0u; s < textureNumSamples(frames); s++) {
      sum += textureLoad(frames, gid.xy, layer, s);
    }
  }
  out[gid.y * size.x + gid.x] = sum;
}

// === texture_multisampled_2d_array without an array index
@group(0) @binding(0) var frames: texture_multisampled_2d_array<f32>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let texel = textureLoad(frames, gid.xy, 0);
//            ^ T004 no matching call to 'textureLoad' with arguments (texture_mu
}

// === validator:requires-but-expression-is (@align of an override)
override lane_bytes = 16;
struct Params {
  @align(lane_bytes) scale: f32,
//       ^ T014 @align requires a const-expression; an override is known too
}
@compute @workgroup_size(64)
fn main() {}

// === validator:requires-but-expression-is (@size of an override)
override lane_bytes: u32 = 16u;
struct Params {
  @size(lane_bytes * 2u) scale: f32,
//      ^ T014 @size requires a const-expression; an override is known too
}
@compute @workgroup_size(64)
fn main() {}

// === accepted: @align and @size of const-expressions
const lane_bytes = 16u;
struct Params {
  @align(lane_bytes) scale: f32,
  @size(lane_bytes * 2u) bias: f32,
}
@group(0) @binding(0) var<uniform> params: Params;
@compute @workgroup_size(64)
fn main() { _ = params.scale + params.bias; }
