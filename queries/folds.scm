;; Foldable regions for WGSL.

[
  (compound_statement)
  (struct_body)
  (switch_body)
  (parameter_list)
  (argument_list)
  (block_comment)
] @fold
