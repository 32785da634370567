fn main({if
 m=subgroupMatrixLoad<subgroup_matrix_left<f32,li=={}