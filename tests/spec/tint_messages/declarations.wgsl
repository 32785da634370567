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
