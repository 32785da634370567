enable f16;enable subgroup_matrix;
alias TileA = subgroup_matrix_left<f16,8,8>;
@group(0) @binding(0) var<storage,read> a: array<f16>;
@group(0) @binding(1) var<workgroup> staged: array<f16, 64>;
@compute @workgroup_size(32) fn main(){let m=subgroupMatrixLoad<TileA,row_major>(&a,0u,8u);_=m;}
