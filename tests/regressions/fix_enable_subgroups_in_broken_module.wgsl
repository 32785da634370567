enable :;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformitysubgroup_matrix_uniformity) 
@group(0) @binding(0) var<storage, read_write> bufsubgroups array<f32>;
compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id lane:){