;; Text objects for WGSL (nvim-treesitter-textobjects / Helix capture names).

(function_declaration) @function.outer
(function_declaration body: (compound_statement) @function.inner)

(struct_declaration) @class.outer
(struct_declaration body: (struct_body) @class.inner)

(parameter) @parameter.outer
(parameter name: (identifier) @parameter.inner)
(argument_list (_) @parameter.inner)

[(line_comment) (block_comment)] @comment.outer

[(loop_statement) (for_statement) (while_statement)] @loop.outer
(loop_statement body: (compound_statement) @loop.inner)
(for_statement body: (compound_statement) @loop.inner)
(while_statement body: (compound_statement) @loop.inner)

[(if_statement) (switch_statement)] @conditional.outer
(if_statement consequence: (compound_statement) @conditional.inner)

(call_expression) @call.outer
(call_expression arguments: (argument_list) @call.inner)

(return_statement) @statement.outer
