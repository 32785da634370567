;; Scopes, definitions and references for WGSL.

[
  (source_file)
  (function_declaration)
  (compound_statement)
  (for_statement)
] @local.scope

(function_declaration name: (identifier) @local.definition.function)
(parameter name: (identifier) @local.definition.parameter)
(variable_declaration name: (identifier) @local.definition.var)
(let_declaration name: (identifier) @local.definition.var)
(const_declaration name: (identifier) @local.definition.constant)
(override_declaration name: (identifier) @local.definition.constant)
(struct_declaration name: (identifier) @local.definition.type)
(type_alias_declaration name: (identifier) @local.definition.type)

(identifier) @local.reference
