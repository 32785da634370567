// Extensions that need a device feature. With no target configured nothing
// is an error: a note names the known targets whose profiles lack the
// feature. (tests/test_device_features.py checks configured targets.) The
// Tint of the tests runs on a Null device created with these features, as a
// device without a configured target is assumed to be.

// === clip distances with their extension
enable clip_distances;
//     ^ D003 [info] 'clip-distances'
struct VertexOut {
  @builtin(position) position: vec4f,
  @builtin(clip_distances) clip: array<f32, 2>,
}
@vertex fn vs() -> VertexOut {
  return VertexOut(vec4f(0.0), array(1.0, -1.0));
}

// === framebuffer fetch
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 [info] 'framebuffer-fetch'
@fragment fn fs(@color(0) previous: vec4f) -> @location(0) vec4f {
  return previous * 0.5;
}

// === primitive index
enable primitive_index;
//     ^ D003 [info] 'primitive-index'
@fragment fn fs(@builtin(primitive_index) p: u32) -> @location(0) vec4f {
  return vec4f(f32(p));
}

// === f16, which every known target has
enable f16;
@compute @workgroup_size(1) fn main() {
  let half = 1.5h;
}

// === pixel_local memory without its extension
struct Attachments { a: u32 }
var<pixel_local> attachments: Attachments;
//  ^ T007 'chromium_experimental_pixel_local'
@fragment fn fs() { attachments.a = 1u; }

// === pixel_local memory holds a struct
enable chromium_experimental_pixel_local;
//     ^ D003 [info] pixel-local-storage
var<pixel_local> attachment: u32;
//                           ^ T003 'pixel_local'
@fragment fn fs() { attachment = 1u; }
// tint: differs -- the Tint of the tests has no pixel-local storage and stops at the enable

// === pixel_local struct members are 32-bit scalars
enable chromium_experimental_pixel_local;
//     ^ D003 [info] pixel-local-storage
struct Attachments { color: vec4f }
//                          ^ T003 'color'
var<pixel_local> attachments: Attachments;
@fragment fn fs() { attachments.color = vec4f(1); }
// tint: differs -- the Tint of the tests has no pixel-local storage and stops at the enable
