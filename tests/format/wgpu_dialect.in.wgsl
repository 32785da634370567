enable f16;
enable wgpu_cooperative_matrix;
alias TileA=coop_mat16x16<f16,A>;
alias TileC=coop_mat16x16<f32,C>;
@group(0)@binding(0) var<storage,read> a:array<f16>;
@group(0)@binding(1) var<storage,read_write> c:array<f32>;
@compute @workgroup_size(32) fn main(){
  let x=coopLoad<TileA>(&a[0],16u);
  var acc=coopLoad<TileC>(&c[0],16u);
  acc=coopMultiplyAdd(x,x,acc);
  coopStore(acc,&c[0],16u);
}
