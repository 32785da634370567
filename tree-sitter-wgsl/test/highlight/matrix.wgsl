enable chromium_experimental_subgroup_matrix;
// <- keyword.directive
//     ^ module
diagnostic(off, chromium.subgroup_matrix_uniformity);
//         ^ constant.builtin
//              ^ string.special

@group(0) @binding(0) var<storage, read_write> A: array<f16>;
// <- attribute
//                    ^ keyword
//                         ^ keyword.modifier
//                                                ^ type.builtin
//                                                      ^ type.builtin

alias Acc = coop_mat16x16<f32, C>;
//          ^ type.builtin
//                             ^ constant.builtin

@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) sg: u32) {
// <- keyword.function
// ^ function
//       ^ attribute
//               ^ variable.builtin
//                            ^ variable.parameter
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, 0u, 16u);
  // <- keyword
  //      ^ function.builtin
  //                         ^ type.builtin
  //                                                            ^ constant.builtin
  //                                                                                ^ number
  let c = coopLoad<coop_mat8x8<f32, A>>(&buf[0], 8u);
  //      ^ function.builtin
  //               ^ type.builtin
  //                                ^ constant.builtin
  let v = vec3<f32>(1.0);
  //      ^ type.builtin
  //                ^ number.float
  let r = myHelper(sg) + max(1, 2);
  //      ^ function.call
  //                     ^ function.builtin
  for (var i = 0u; i < 4u; i++) { continue; }
  // <- keyword.repeat
  //                              ^ keyword.repeat
  if true { return; }
  // <- keyword.conditional
  //  ^ boolean
  //        ^ keyword.return
  /* block /* nested */ comment */
  // <- comment
}
