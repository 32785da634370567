;; Highlights for WGSL (tree-sitter-wgsl of coop-lsp).
;;
;; Names are matched with #any-of? (not regular expressions) so that the file
;; means the same in the tree-sitter CLI, Helix and Neovim. Where two patterns
;; could capture one node, their predicates exclude each other, so the result
;; does not depend on whether an editor prefers the first matching pattern
;; (tree-sitter CLI, Helix) or the last (Neovim).

; ----------------------------------------------------------------- comments
[(line_comment) (block_comment)] @comment

; ----------------------------------------------------------------- literals
(int_literal) @number
(float_literal) @number.float
(bool_literal) @boolean
(string_literal) @string  ; only debugPrintf's format (naga, enable wgpu_debug_printf)

; ----------------------------------------------------------------- keywords
["enable" "requires" "diagnostic"] @keyword.directive

["var" "let" "const" "override" "alias" "const_assert"] @keyword

"struct" @keyword.type

"fn" @keyword.function

"return" @keyword.return

["if" "else" "switch" "case" "default"] @keyword.conditional
(default_selector) @keyword.conditional

["loop" "for" "while" "continuing" "break"] @keyword.repeat
[(break_statement) (continue_statement)] @keyword.repeat

(discard_statement) @keyword

(phony) @variable.builtin

; ------------------------------------------------------------- directives
(enable_directive extension: (identifier) @module)
(requires_directive feature: (identifier) @module)
(diagnostic_control severity: (identifier) @constant.builtin)
(diagnostic_rule_name) @string.special

; ------------------------------------------------------------- attributes
; builtin values and interpolation parameters: `@builtin(position)`
(attribute_arguments
  (identifier) @variable.builtin
  (#any-of? @variable.builtin
    "vertex_index" "instance_index" "position" "front_facing" "frag_depth"
    "sample_index" "sample_mask" "local_invocation_id" "local_invocation_index"
    "global_invocation_id" "workgroup_id" "num_workgroups"
    "subgroup_invocation_id" "subgroup_size" "subgroup_id" "num_subgroups"
    "primitive_index" "clip_distances" "flat" "linear" "perspective" "center"
    "centroid" "sample" "first" "either"))

(attribute "@" @attribute name: (identifier) @attribute)

; ------------------------------------------------------------------ types
(struct_declaration name: (identifier) @type)
(type_alias_declaration name: (identifier) @type.definition)

((type_specifier name: (identifier) @type.builtin)
  (#any-of? @type.builtin
    "bool" "f16" "f32" "i32" "u32" "i8" "u8" "vec2" "vec2i" "vec2h" "vec2f"
    "vec2u" "vec3" "vec3i" "vec3h" "vec3f" "vec3u" "vec4" "vec4i" "vec4h"
    "vec4f" "vec4u" "mat2x2" "mat2x2f" "mat2x2h" "mat2x3" "mat2x3f" "mat2x3h"
    "mat2x4" "mat2x4f" "mat2x4h" "mat3x2" "mat3x2f" "mat3x2h" "mat3x3" "mat3x3f"
    "mat3x3h" "mat3x4" "mat3x4f" "mat3x4h" "mat4x2" "mat4x2f" "mat4x2h" "mat4x3"
    "mat4x3f" "mat4x3h" "mat4x4" "mat4x4f" "mat4x4h" "array" "atomic" "ptr"
    "sampler" "sampler_comparison" "binding_array" "texture_1d" "texture_2d"
    "texture_2d_array" "texture_3d" "texture_cube" "texture_cube_array"
    "texture_multisampled_2d" "texture_depth_multisampled_2d" "texture_external"
    "texture_storage_1d" "texture_storage_2d" "texture_storage_2d_array"
    "texture_storage_3d" "texture_depth_2d" "texture_depth_2d_array"
    "texture_depth_cube" "texture_depth_cube_array" "coop_mat8x8"
    "coop_mat16x16" "subgroup_matrix_left" "subgroup_matrix_right"
    "subgroup_matrix_result"))
((type_specifier name: (identifier) @type)
  (#not-any-of? @type
    "bool" "f16" "f32" "i32" "u32" "i8" "u8" "vec2" "vec2i" "vec2h" "vec2f"
    "vec2u" "vec3" "vec3i" "vec3h" "vec3f" "vec3u" "vec4" "vec4i" "vec4h"
    "vec4f" "vec4u" "mat2x2" "mat2x2f" "mat2x2h" "mat2x3" "mat2x3f" "mat2x3h"
    "mat2x4" "mat2x4f" "mat2x4h" "mat3x2" "mat3x2f" "mat3x2h" "mat3x3" "mat3x3f"
    "mat3x3h" "mat3x4" "mat3x4f" "mat3x4h" "mat4x2" "mat4x2f" "mat4x2h" "mat4x3"
    "mat4x3f" "mat4x3h" "mat4x4" "mat4x4f" "mat4x4h" "array" "atomic" "ptr"
    "sampler" "sampler_comparison" "binding_array" "texture_1d" "texture_2d"
    "texture_2d_array" "texture_3d" "texture_cube" "texture_cube_array"
    "texture_multisampled_2d" "texture_depth_multisampled_2d" "texture_external"
    "texture_storage_1d" "texture_storage_2d" "texture_storage_2d_array"
    "texture_storage_3d" "texture_depth_2d" "texture_depth_2d_array"
    "texture_depth_cube" "texture_depth_cube_array" "coop_mat8x8"
    "coop_mat16x16" "subgroup_matrix_left" "subgroup_matrix_right"
    "subgroup_matrix_result"))

; `vec3<f32>(...)`, `array<f32, 4>`, `coopLoad<...>(...)` inside expressions
((templated_identifier name: (identifier) @type.builtin)
  (#any-of? @type.builtin
    "bool" "f16" "f32" "i32" "u32" "i8" "u8" "vec2" "vec2i" "vec2h" "vec2f"
    "vec2u" "vec3" "vec3i" "vec3h" "vec3f" "vec3u" "vec4" "vec4i" "vec4h"
    "vec4f" "vec4u" "mat2x2" "mat2x2f" "mat2x2h" "mat2x3" "mat2x3f" "mat2x3h"
    "mat2x4" "mat2x4f" "mat2x4h" "mat3x2" "mat3x2f" "mat3x2h" "mat3x3" "mat3x3f"
    "mat3x3h" "mat3x4" "mat3x4f" "mat3x4h" "mat4x2" "mat4x2f" "mat4x2h" "mat4x3"
    "mat4x3f" "mat4x3h" "mat4x4" "mat4x4f" "mat4x4h" "array" "atomic" "ptr"
    "sampler" "sampler_comparison" "binding_array" "texture_1d" "texture_2d"
    "texture_2d_array" "texture_3d" "texture_cube" "texture_cube_array"
    "texture_multisampled_2d" "texture_depth_multisampled_2d" "texture_external"
    "texture_storage_1d" "texture_storage_2d" "texture_storage_2d_array"
    "texture_storage_3d" "texture_depth_2d" "texture_depth_2d_array"
    "texture_depth_cube" "texture_depth_cube_array" "coop_mat8x8"
    "coop_mat16x16" "subgroup_matrix_left" "subgroup_matrix_right"
    "subgroup_matrix_result"))
((templated_identifier name: (identifier) @function.builtin)
  (#any-of? @function.builtin
    "bitcast" "acos" "acosh" "asin" "asinh" "atan" "atanh" "ceil" "cos" "cosh"
    "degrees" "exp" "exp2" "floor" "fract" "inverseSqrt" "log" "log2" "radians"
    "round" "saturate" "sin" "sinh" "sqrt" "tan" "tanh" "trunc" "abs" "sign"
    "atan2" "pow" "step" "max" "min" "clamp" "fma" "smoothstep" "mix" "ldexp"
    "frexp" "modf" "quantizeToF16" "cross" "dot" "distance" "length" "normalize"
    "faceForward" "reflect" "refract" "determinant" "transpose"
    "countLeadingZeros" "countOneBits" "countTrailingZeros" "firstLeadingBit"
    "firstTrailingBit" "reverseBits" "extractBits" "insertBits" "all" "any"
    "select" "arrayLength" "pack4x8snorm" "pack4x8unorm" "pack2x16snorm"
    "pack2x16unorm" "pack2x16float" "unpack4x8snorm" "unpack4x8unorm"
    "unpack2x16snorm" "unpack2x16unorm" "unpack2x16float" "pack4xI8" "pack4xU8"
    "pack4xI8Clamp" "pack4xU8Clamp" "unpack4xI8" "unpack4xU8" "dot4I8Packed"
    "dot4U8Packed" "atomicLoad" "atomicStore" "atomicCompareExchangeWeak"
    "atomicAdd" "atomicSub" "atomicMax" "atomicMin" "atomicAnd" "atomicOr"
    "atomicXor" "atomicExchange" "workgroupBarrier" "storageBarrier"
    "textureBarrier" "workgroupUniformLoad" "subgroupAdd" "subgroupExclusiveAdd"
    "subgroupInclusiveAdd" "subgroupMul" "subgroupExclusiveMul"
    "subgroupInclusiveMul" "subgroupMax" "subgroupMin" "subgroupAnd"
    "subgroupOr" "subgroupXor" "subgroupAll" "subgroupAny" "subgroupBallot"
    "subgroupElect" "subgroupBroadcastFirst" "subgroupBroadcast"
    "subgroupShuffle" "subgroupShuffleXor" "subgroupShuffleUp"
    "subgroupShuffleDown" "quadBroadcast" "quadSwapX" "quadSwapY"
    "quadSwapDiagonal" "dpdx" "dpdxCoarse" "dpdxFine" "dpdy" "dpdyCoarse"
    "dpdyFine" "fwidth" "fwidthCoarse" "fwidthFine" "textureDimensions"
    "textureGather" "textureGatherCompare" "textureLoad" "textureNumLayers"
    "textureNumLevels" "textureNumSamples" "textureSample" "textureSampleBias"
    "textureSampleCompare" "textureSampleCompareLevel" "textureSampleGrad"
    "textureSampleLevel" "textureSampleBaseClampToEdge" "textureStore"
    "coopLoad" "coopLoadT" "coopStore" "coopStoreT" "coopMultiplyAdd"
    "subgroupMatrixLoad" "subgroupMatrixStore" "subgroupMatrixMultiply"
    "subgroupMatrixMultiplyAccumulate" "subgroupMatrixScalarAdd"
    "subgroupMatrixScalarSubtract" "subgroupMatrixScalarMultiply"))
((templated_identifier name: (identifier) @type)
  (#not-any-of? @type
    "bool" "f16" "f32" "i32" "u32" "i8" "u8" "vec2" "vec2i" "vec2h" "vec2f"
    "vec2u" "vec3" "vec3i" "vec3h" "vec3f" "vec3u" "vec4" "vec4i" "vec4h"
    "vec4f" "vec4u" "mat2x2" "mat2x2f" "mat2x2h" "mat2x3" "mat2x3f" "mat2x3h"
    "mat2x4" "mat2x4f" "mat2x4h" "mat3x2" "mat3x2f" "mat3x2h" "mat3x3" "mat3x3f"
    "mat3x3h" "mat3x4" "mat3x4f" "mat3x4h" "mat4x2" "mat4x2f" "mat4x2h" "mat4x3"
    "mat4x3f" "mat4x3h" "mat4x4" "mat4x4f" "mat4x4h" "array" "atomic" "ptr"
    "sampler" "sampler_comparison" "binding_array" "texture_1d" "texture_2d"
    "texture_2d_array" "texture_3d" "texture_cube" "texture_cube_array"
    "texture_multisampled_2d" "texture_depth_multisampled_2d" "texture_external"
    "texture_storage_1d" "texture_storage_2d" "texture_storage_2d_array"
    "texture_storage_3d" "texture_depth_2d" "texture_depth_2d_array"
    "texture_depth_cube" "texture_depth_cube_array" "coop_mat8x8"
    "coop_mat16x16" "subgroup_matrix_left" "subgroup_matrix_right"
    "subgroup_matrix_result")
  (#not-any-of? @type
    "bitcast" "acos" "acosh" "asin" "asinh" "atan" "atanh" "ceil" "cos" "cosh"
    "degrees" "exp" "exp2" "floor" "fract" "inverseSqrt" "log" "log2" "radians"
    "round" "saturate" "sin" "sinh" "sqrt" "tan" "tanh" "trunc" "abs" "sign"
    "atan2" "pow" "step" "max" "min" "clamp" "fma" "smoothstep" "mix" "ldexp"
    "frexp" "modf" "quantizeToF16" "cross" "dot" "distance" "length" "normalize"
    "faceForward" "reflect" "refract" "determinant" "transpose"
    "countLeadingZeros" "countOneBits" "countTrailingZeros" "firstLeadingBit"
    "firstTrailingBit" "reverseBits" "extractBits" "insertBits" "all" "any"
    "select" "arrayLength" "pack4x8snorm" "pack4x8unorm" "pack2x16snorm"
    "pack2x16unorm" "pack2x16float" "unpack4x8snorm" "unpack4x8unorm"
    "unpack2x16snorm" "unpack2x16unorm" "unpack2x16float" "pack4xI8" "pack4xU8"
    "pack4xI8Clamp" "pack4xU8Clamp" "unpack4xI8" "unpack4xU8" "dot4I8Packed"
    "dot4U8Packed" "atomicLoad" "atomicStore" "atomicCompareExchangeWeak"
    "atomicAdd" "atomicSub" "atomicMax" "atomicMin" "atomicAnd" "atomicOr"
    "atomicXor" "atomicExchange" "workgroupBarrier" "storageBarrier"
    "textureBarrier" "workgroupUniformLoad" "subgroupAdd" "subgroupExclusiveAdd"
    "subgroupInclusiveAdd" "subgroupMul" "subgroupExclusiveMul"
    "subgroupInclusiveMul" "subgroupMax" "subgroupMin" "subgroupAnd"
    "subgroupOr" "subgroupXor" "subgroupAll" "subgroupAny" "subgroupBallot"
    "subgroupElect" "subgroupBroadcastFirst" "subgroupBroadcast"
    "subgroupShuffle" "subgroupShuffleXor" "subgroupShuffleUp"
    "subgroupShuffleDown" "quadBroadcast" "quadSwapX" "quadSwapY"
    "quadSwapDiagonal" "dpdx" "dpdxCoarse" "dpdxFine" "dpdy" "dpdyCoarse"
    "dpdyFine" "fwidth" "fwidthCoarse" "fwidthFine" "textureDimensions"
    "textureGather" "textureGatherCompare" "textureLoad" "textureNumLayers"
    "textureNumLevels" "textureNumSamples" "textureSample" "textureSampleBias"
    "textureSampleCompare" "textureSampleCompareLevel" "textureSampleGrad"
    "textureSampleLevel" "textureSampleBaseClampToEdge" "textureStore"
    "coopLoad" "coopLoadT" "coopStore" "coopStoreT" "coopMultiplyAdd"
    "subgroupMatrixLoad" "subgroupMatrixStore" "subgroupMatrixMultiply"
    "subgroupMatrixMultiplyAccumulate" "subgroupMatrixScalarAdd"
    "subgroupMatrixScalarSubtract" "subgroupMatrixScalarMultiply"))

; a builtin type as a template argument: `array<f32>`
((template_list (identifier) @type.builtin)
  (#any-of? @type.builtin
    "bool" "f16" "f32" "i32" "u32" "i8" "u8" "vec2" "vec2i" "vec2h" "vec2f"
    "vec2u" "vec3" "vec3i" "vec3h" "vec3f" "vec3u" "vec4" "vec4i" "vec4h"
    "vec4f" "vec4u" "mat2x2" "mat2x2f" "mat2x2h" "mat2x3" "mat2x3f" "mat2x3h"
    "mat2x4" "mat2x4f" "mat2x4h" "mat3x2" "mat3x2f" "mat3x2h" "mat3x3" "mat3x3f"
    "mat3x3h" "mat3x4" "mat3x4f" "mat3x4h" "mat4x2" "mat4x2f" "mat4x2h" "mat4x3"
    "mat4x3f" "mat4x3h" "mat4x4" "mat4x4f" "mat4x4h" "array" "atomic" "ptr"
    "sampler" "sampler_comparison" "binding_array" "texture_1d" "texture_2d"
    "texture_2d_array" "texture_3d" "texture_cube" "texture_cube_array"
    "texture_multisampled_2d" "texture_depth_multisampled_2d" "texture_external"
    "texture_storage_1d" "texture_storage_2d" "texture_storage_2d_array"
    "texture_storage_3d" "texture_depth_2d" "texture_depth_2d_array"
    "texture_depth_cube" "texture_depth_cube_array" "coop_mat8x8"
    "coop_mat16x16" "subgroup_matrix_left" "subgroup_matrix_right"
    "subgroup_matrix_result"))

; address spaces and access modes: `var<storage, read_write>`, `ptr<function, f32>`
((template_list (identifier) @keyword.modifier)
  (#any-of? @keyword.modifier
    "function" "private" "workgroup" "uniform" "storage" "push_constant"
    "handle" "read" "write" "read_write"))

; matrix layouts (`row_major`, `col_major`) and texel formats
((template_list (identifier) @constant.builtin)
  (#any-of? @constant.builtin
    "row_major" "col_major" "rgba8unorm" "rgba8snorm" "rgba8uint" "rgba8sint"
    "rgba16uint" "rgba16sint" "rgba16float" "rgba16unorm" "rgba16snorm"
    "r8unorm" "r8snorm" "r8uint" "r8sint" "rg8unorm" "rg8snorm" "rg8uint"
    "rg8sint" "r16uint" "r16sint" "r16float" "r16unorm" "r16snorm" "rg16uint"
    "rg16sint" "rg16float" "rg16unorm" "rg16snorm" "r32uint" "r32sint"
    "r32float" "rg32uint" "rg32sint" "rg32float" "rgba32uint" "rgba32sint"
    "rgba32float" "bgra8unorm" "rgb10a2uint" "rgb10a2unorm" "rg11b10ufloat"))

; cooperative matrix roles: `coop_mat8x8<f32, A>`
((templated_identifier
   name: (identifier) @type.builtin
   template: (template_list (identifier) @constant.builtin))
  (#any-of? @type.builtin "coop_mat8x8" "coop_mat16x16")
  (#any-of? @constant.builtin "A" "B" "C"))
((type_specifier
   name: (identifier) @type.builtin
   template: (template_list (identifier) @constant.builtin))
  (#any-of? @type.builtin "coop_mat8x8" "coop_mat16x16")
  (#any-of? @constant.builtin "A" "B" "C"))

; -------------------------------------------------------------- functions
(function_declaration name: (identifier) @function)

; value constructors and conversions: `vec3(...)`, `f32(x)`
((call_expression function: (identifier) @type.builtin)
  (#any-of? @type.builtin
    "bool" "f16" "f32" "i32" "u32" "i8" "u8" "vec2" "vec2i" "vec2h" "vec2f"
    "vec2u" "vec3" "vec3i" "vec3h" "vec3f" "vec3u" "vec4" "vec4i" "vec4h"
    "vec4f" "vec4u" "mat2x2" "mat2x2f" "mat2x2h" "mat2x3" "mat2x3f" "mat2x3h"
    "mat2x4" "mat2x4f" "mat2x4h" "mat3x2" "mat3x2f" "mat3x2h" "mat3x3" "mat3x3f"
    "mat3x3h" "mat3x4" "mat3x4f" "mat3x4h" "mat4x2" "mat4x2f" "mat4x2h" "mat4x3"
    "mat4x3f" "mat4x3h" "mat4x4" "mat4x4f" "mat4x4h" "array" "atomic" "ptr"
    "sampler" "sampler_comparison" "binding_array" "texture_1d" "texture_2d"
    "texture_2d_array" "texture_3d" "texture_cube" "texture_cube_array"
    "texture_multisampled_2d" "texture_depth_multisampled_2d" "texture_external"
    "texture_storage_1d" "texture_storage_2d" "texture_storage_2d_array"
    "texture_storage_3d" "texture_depth_2d" "texture_depth_2d_array"
    "texture_depth_cube" "texture_depth_cube_array" "coop_mat8x8"
    "coop_mat16x16" "subgroup_matrix_left" "subgroup_matrix_right"
    "subgroup_matrix_result"))
((call_expression function: (identifier) @function.builtin)
  (#any-of? @function.builtin
    "bitcast" "acos" "acosh" "asin" "asinh" "atan" "atanh" "ceil" "cos" "cosh"
    "degrees" "exp" "exp2" "floor" "fract" "inverseSqrt" "log" "log2" "radians"
    "round" "saturate" "sin" "sinh" "sqrt" "tan" "tanh" "trunc" "abs" "sign"
    "atan2" "pow" "step" "max" "min" "clamp" "fma" "smoothstep" "mix" "ldexp"
    "frexp" "modf" "quantizeToF16" "cross" "dot" "distance" "length" "normalize"
    "faceForward" "reflect" "refract" "determinant" "transpose"
    "countLeadingZeros" "countOneBits" "countTrailingZeros" "firstLeadingBit"
    "firstTrailingBit" "reverseBits" "extractBits" "insertBits" "all" "any"
    "select" "arrayLength" "pack4x8snorm" "pack4x8unorm" "pack2x16snorm"
    "pack2x16unorm" "pack2x16float" "unpack4x8snorm" "unpack4x8unorm"
    "unpack2x16snorm" "unpack2x16unorm" "unpack2x16float" "pack4xI8" "pack4xU8"
    "pack4xI8Clamp" "pack4xU8Clamp" "unpack4xI8" "unpack4xU8" "dot4I8Packed"
    "dot4U8Packed" "atomicLoad" "atomicStore" "atomicCompareExchangeWeak"
    "atomicAdd" "atomicSub" "atomicMax" "atomicMin" "atomicAnd" "atomicOr"
    "atomicXor" "atomicExchange" "workgroupBarrier" "storageBarrier"
    "textureBarrier" "workgroupUniformLoad" "subgroupAdd" "subgroupExclusiveAdd"
    "subgroupInclusiveAdd" "subgroupMul" "subgroupExclusiveMul"
    "subgroupInclusiveMul" "subgroupMax" "subgroupMin" "subgroupAnd"
    "subgroupOr" "subgroupXor" "subgroupAll" "subgroupAny" "subgroupBallot"
    "subgroupElect" "subgroupBroadcastFirst" "subgroupBroadcast"
    "subgroupShuffle" "subgroupShuffleXor" "subgroupShuffleUp"
    "subgroupShuffleDown" "quadBroadcast" "quadSwapX" "quadSwapY"
    "quadSwapDiagonal" "dpdx" "dpdxCoarse" "dpdxFine" "dpdy" "dpdyCoarse"
    "dpdyFine" "fwidth" "fwidthCoarse" "fwidthFine" "textureDimensions"
    "textureGather" "textureGatherCompare" "textureLoad" "textureNumLayers"
    "textureNumLevels" "textureNumSamples" "textureSample" "textureSampleBias"
    "textureSampleCompare" "textureSampleCompareLevel" "textureSampleGrad"
    "textureSampleLevel" "textureSampleBaseClampToEdge" "textureStore"
    "coopLoad" "coopLoadT" "coopStore" "coopStoreT" "coopMultiplyAdd"
    "subgroupMatrixLoad" "subgroupMatrixStore" "subgroupMatrixMultiply"
    "subgroupMatrixMultiplyAccumulate" "subgroupMatrixScalarAdd"
    "subgroupMatrixScalarSubtract" "subgroupMatrixScalarMultiply"))
((call_expression function: (identifier) @function.call)
  (#not-any-of? @function.call
    "bool" "f16" "f32" "i32" "u32" "i8" "u8" "vec2" "vec2i" "vec2h" "vec2f"
    "vec2u" "vec3" "vec3i" "vec3h" "vec3f" "vec3u" "vec4" "vec4i" "vec4h"
    "vec4f" "vec4u" "mat2x2" "mat2x2f" "mat2x2h" "mat2x3" "mat2x3f" "mat2x3h"
    "mat2x4" "mat2x4f" "mat2x4h" "mat3x2" "mat3x2f" "mat3x2h" "mat3x3" "mat3x3f"
    "mat3x3h" "mat3x4" "mat3x4f" "mat3x4h" "mat4x2" "mat4x2f" "mat4x2h" "mat4x3"
    "mat4x3f" "mat4x3h" "mat4x4" "mat4x4f" "mat4x4h" "array" "atomic" "ptr"
    "sampler" "sampler_comparison" "binding_array" "texture_1d" "texture_2d"
    "texture_2d_array" "texture_3d" "texture_cube" "texture_cube_array"
    "texture_multisampled_2d" "texture_depth_multisampled_2d" "texture_external"
    "texture_storage_1d" "texture_storage_2d" "texture_storage_2d_array"
    "texture_storage_3d" "texture_depth_2d" "texture_depth_2d_array"
    "texture_depth_cube" "texture_depth_cube_array" "coop_mat8x8"
    "coop_mat16x16" "subgroup_matrix_left" "subgroup_matrix_right"
    "subgroup_matrix_result")
  (#not-any-of? @function.call
    "bitcast" "acos" "acosh" "asin" "asinh" "atan" "atanh" "ceil" "cos" "cosh"
    "degrees" "exp" "exp2" "floor" "fract" "inverseSqrt" "log" "log2" "radians"
    "round" "saturate" "sin" "sinh" "sqrt" "tan" "tanh" "trunc" "abs" "sign"
    "atan2" "pow" "step" "max" "min" "clamp" "fma" "smoothstep" "mix" "ldexp"
    "frexp" "modf" "quantizeToF16" "cross" "dot" "distance" "length" "normalize"
    "faceForward" "reflect" "refract" "determinant" "transpose"
    "countLeadingZeros" "countOneBits" "countTrailingZeros" "firstLeadingBit"
    "firstTrailingBit" "reverseBits" "extractBits" "insertBits" "all" "any"
    "select" "arrayLength" "pack4x8snorm" "pack4x8unorm" "pack2x16snorm"
    "pack2x16unorm" "pack2x16float" "unpack4x8snorm" "unpack4x8unorm"
    "unpack2x16snorm" "unpack2x16unorm" "unpack2x16float" "pack4xI8" "pack4xU8"
    "pack4xI8Clamp" "pack4xU8Clamp" "unpack4xI8" "unpack4xU8" "dot4I8Packed"
    "dot4U8Packed" "atomicLoad" "atomicStore" "atomicCompareExchangeWeak"
    "atomicAdd" "atomicSub" "atomicMax" "atomicMin" "atomicAnd" "atomicOr"
    "atomicXor" "atomicExchange" "workgroupBarrier" "storageBarrier"
    "textureBarrier" "workgroupUniformLoad" "subgroupAdd" "subgroupExclusiveAdd"
    "subgroupInclusiveAdd" "subgroupMul" "subgroupExclusiveMul"
    "subgroupInclusiveMul" "subgroupMax" "subgroupMin" "subgroupAnd"
    "subgroupOr" "subgroupXor" "subgroupAll" "subgroupAny" "subgroupBallot"
    "subgroupElect" "subgroupBroadcastFirst" "subgroupBroadcast"
    "subgroupShuffle" "subgroupShuffleXor" "subgroupShuffleUp"
    "subgroupShuffleDown" "quadBroadcast" "quadSwapX" "quadSwapY"
    "quadSwapDiagonal" "dpdx" "dpdxCoarse" "dpdxFine" "dpdy" "dpdyCoarse"
    "dpdyFine" "fwidth" "fwidthCoarse" "fwidthFine" "textureDimensions"
    "textureGather" "textureGatherCompare" "textureLoad" "textureNumLayers"
    "textureNumLevels" "textureNumSamples" "textureSample" "textureSampleBias"
    "textureSampleCompare" "textureSampleCompareLevel" "textureSampleGrad"
    "textureSampleLevel" "textureSampleBaseClampToEdge" "textureStore"
    "coopLoad" "coopLoadT" "coopStore" "coopStoreT" "coopMultiplyAdd"
    "subgroupMatrixLoad" "subgroupMatrixStore" "subgroupMatrixMultiply"
    "subgroupMatrixMultiplyAccumulate" "subgroupMatrixScalarAdd"
    "subgroupMatrixScalarSubtract" "subgroupMatrixScalarMultiply"))

; -------------------------------------------------------------- variables
(parameter name: (identifier) @variable.parameter)
(variable_declaration name: (identifier) @variable)
(let_declaration name: (identifier) @variable)
(const_declaration name: (identifier) @constant)
(override_declaration name: (identifier) @constant)
(struct_member name: (identifier) @property)
(member_expression member: (identifier) @property)

; -------------------------------------------------------------- operators
[
  "=" "+=" "-=" "*=" "/=" "%=" "&=" "|=" "^=" "<<=" ">>="
  "++" "--"
  "+" "-" "*" "/" "%"
  "<<" ">>" "<" ">" "<=" ">=" "==" "!="
  "&" "|" "^" "~" "!" "&&" "||"
  "->"
] @operator

; ------------------------------------------------------------ punctuation
["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," "." ":" ";"] @punctuation.delimiter
