;; Indentation for WGSL (Neovim nvim-treesitter capture names).

[
  (compound_statement)
  (struct_body)
  (switch_body)
  (parameter_list)
  (argument_list)
  (attribute_arguments)
] @indent.begin

["}" ")" "]"] @indent.end

["}" ")" "]"] @indent.branch

[(block_comment) (line_comment)] @indent.auto
