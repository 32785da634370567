"""A kernel built in a Python f-string: the program fills in the tile size and the
element type when it creates the shader. coop-lint lints it once the names have
values: `coop-lint --hosts -D TILE=16 -D ELEM=f32 kernel.py`, or the variant sets
in ../coop-lint.toml (`hosts = true` there makes the folder walk include it)."""

TILE = 16
ELEM = "f32"

# wgsl
SHADER = f"""
@group(0) @binding(0) var<storage, read> src: array<{ELEM}>;
@group(0) @binding(1) var<storage, read_write> dst: array<{ELEM}>;

var<workgroup> tile: array<{ELEM}, {TILE}>;

@compute @workgroup_size({TILE})
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wg: vec3<u32>) {{
    let g = wg.x * {TILE}u + i;
    tile[i] = src[g];
    workgroupBarrier();
    dst[g] = tile[{TILE}u - 1u - i];
}}
"""
