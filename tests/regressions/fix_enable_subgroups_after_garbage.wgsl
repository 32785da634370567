{(off, subgroup_uniformity);<<enable subgroups@compute
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id lane:){