// Directives come first; one blank line then separates them from the declarations.
enable   f16 ,chromium_experimental_subgroup_matrix;
requires readonly_and_readwrite_storage_textures;
diagnostic( off,derivative_uniformity );
@group( 0 )@binding(0)   var<storage,read> a : array< f16 >;
@group(0) @binding(1) var<storage , read_write> c: array<f32>;


const   TILE:u32=16u;
override   WG : u32 = 64u;
alias Tile=subgroup_matrix_left<f16,8,8>;
const_assert TILE%8u==0u;
struct   Pair{first:f32,@align(16) second:vec4<f32>};
fn helper(x:f32)->f32{return x*2.0;}
@compute@workgroup_size(WG,1,1) fn main(@builtin(local_invocation_index)li:u32){
_=a[li];
}
