// Memory layout as the checks see it: one layout (semantic/layout.py) for @align, @size and the 4 GiB
// array limit, honouring the @align and @size of nested struct members (as Tint does) and the 8 bytes
// of naga's 64-bit scalars (as naga does). Before the layouts were merged the checks took neither into
// account, and accepted the first three cases and the one with a 4-byte i64.

// === @size below the size a nested member's @size gives its struct
struct Inner { @size(16) a: f32 }
struct Outer {
  @size(8) inner: Inner,
//      ^ T023 at least the size of 'Inner' (16 bytes)
}

// === @align below the alignment a nested member's @align gives its struct
struct Inner { @align(16) a: f32 }
struct Outer {
  @align(8) inner: Inner,
//       ^ T023 below the alignment of 'Inner' (16 bytes)
}

// === an array of padded structs past 4 GiB
struct Padded { @size(16) a: f32 }
@group(0) @binding(0) var<storage, read_write> big: array<Padded, 300000000>;
//                                                  ^ T014 must not exceed 4 GiB
@compute @workgroup_size(1) fn main() { big[0].a = 1.0; }

// === @size that covers a nested member's @size
struct Inner { @size(16) a: f32 }
struct Outer {
  @size(16) inner: Inner,
}
@group(0) @binding(0) var<storage, read_write> o: Outer;
@compute @workgroup_size(1) fn main() { o.inner.a = 1.0; }

// === @align that is a multiple of a nested member's @align
struct Inner { @align(16) a: f32 }
struct Outer {
  @align(32) inner: Inner,
}
@group(0) @binding(0) var<storage, read_write> o: Outer;
@compute @workgroup_size(1) fn main() { o.inner.a = 1.0; }

// === a uniform block whose nested @size fills the 16-byte stride of its array
struct Slot { @size(16) value: f32 }
struct Block { slots: array<Slot, 4> }
@group(0) @binding(0) var<uniform> block: Block;
@compute @workgroup_size(1) fn main() { _ = block.slots[1].value; }

// === the same array without the padding stays under 4 GiB
struct Plain { a: f32 }
@group(0) @binding(0) var<storage, read_write> big: array<Plain, 300000000>;
@compute @workgroup_size(1) fn main() { big[0].a = 1.0; }

// === @size below a 64-bit scalar's 8 bytes (naga's i64)
struct Wide {
  @size(4) x: i64,
//      ^ T023 at least the size of 'i64' (8 bytes)
//            ^ T013 'i64'
}
// tint: skip -- Tint has no 64-bit scalars
// naga: compare -- naga lays an i64 out in 8 bytes and rejects the smaller @size

// === @size that covers a 64-bit scalar
struct Wide {
  @size(8) x: i64,
//            ^ T013 'i64'
  y: f64,
//   ^ T013 'f64'
}
@group(0) @binding(0) var<storage, read_write> w: Wide;
@compute @workgroup_size(1) fn main() { w.x = 2; }
// tint: skip -- Tint has no 64-bit scalars
// naga: compare -- naga accepts it
