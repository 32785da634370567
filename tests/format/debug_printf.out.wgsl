// naga's debugPrintf: the format string stays as written, the values are laid out as any call's.
enable wgpu_debug_printf;

@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    let v = f32(i) * 3.0;
    debugPrintf("i=%u  v=%f \"quoted\" 100%%", i, v);
    debugPrintf(
        "a long line of values: %f %f %f %f %f %f %u",
        v * 1.0,
        v * 2.0,
        v * 3.0,
        v * 4.0,
        v * 5.0,
        v * 6.0,
        i
    );
    out[i] = v;
}
