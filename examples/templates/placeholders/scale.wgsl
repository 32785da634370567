// A kernel with {{name}} placeholders, as gpu.cpp fills them in C++ strings
// (and ${name} as JavaScript template literals do). The program substitutes
// the values before it creates the shader module; coop-lint takes them from
// the variant sets in ../coop-lint.toml or from -D NAME=VALUE.

@group(0) @binding(0) var<storage, read_write> data: array<f32>;

@compute @workgroup_size({{WORKGROUP_SIZE}})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i < arrayLength(&data)) {
        data[i] = data[i] * ${SCALE};
    }
}
