// Source of syntaxes/wgsl.tmLanguage.json. The JSON is committed (VS Code reads
// it as is); `node scripts/grammar-src.mjs --check` fails when it is stale and
// `node scripts/grammar-src.mjs` rewrites it. Regular expressions are written
// here as JavaScript strings so that they are readable; they are Oniguruma
// syntax, not JavaScript.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "syntaxes", "wgsl.tmLanguage.json");

const words = (list) => `\\b(?:${list.join("|")})\\b`;

// The cooperative / subgroup matrix types of every dialect.
const MATRIX_TYPES = [
  "coop_mat8x8", "coop_mat16x16",                                    // wgpu / naga
  "subgroup_matrix_left", "subgroup_matrix_right", "subgroup_matrix_result", // Tint + proposal
];
// Their builtins.
const MATRIX_FUNCTIONS = [
  "coopLoad", "coopLoadT", "coopStore", "coopStoreT", "coopMultiplyAdd",
  "subgroupMatrixLoad", "subgroupMatrixStore", "subgroupMatrixMultiply",
  "subgroupMatrixMultiplyAccumulate", "subgroupMatrixScalarAdd",
  "subgroupMatrixScalarSubtract", "subgroupMatrixScalarMultiply",
];
// The WGSL builtin types (queries/highlights.scm, @type.builtin), minus the matrix ones.
const SCALAR_TYPES = ["bool", "f16", "f32", "i32", "u32", "i8", "u8"];
const VECTOR_MATRIX_TYPES = [
  "vec[234][ihfu]?", "mat[234]x[234][fh]?",
];
const OTHER_TYPES = [
  "array", "atomic", "ptr", "sampler", "sampler_comparison", "binding_array",
  "texture_1d", "texture_2d", "texture_2d_array", "texture_3d", "texture_cube",
  "texture_cube_array", "texture_multisampled_2d", "texture_depth_multisampled_2d",
  "texture_external", "texture_storage_1d", "texture_storage_2d",
  "texture_storage_2d_array", "texture_storage_3d", "texture_depth_2d",
  "texture_depth_2d_array", "texture_depth_cube", "texture_depth_cube_array",
];
// The WGSL builtin functions (queries/highlights.scm, @function.builtin), minus the matrix ones.
const FUNCTIONS = [
  "bitcast", "all", "any", "select", "arrayLength",
  "abs", "acosh?", "asinh?", "atan2", "atanh?", "ceil", "clamp", "cosh?",
  "countLeadingZeros", "countOneBits", "countTrailingZeros", "cross", "degrees",
  "determinant", "distance", "dot", "dot4U8Packed", "dot4I8Packed", "exp2?",
  "extractBits", "faceForward", "firstLeadingBit", "firstTrailingBit", "floor",
  "fma", "fract", "frexp", "insertBits", "inverseSqrt", "ldexp", "length", "log2?",
  "max", "min", "mix", "modf", "normalize", "pow", "quantizeToF16", "radians",
  "reflect", "refract", "reverseBits", "round", "saturate", "sign", "sinh?",
  "smoothstep", "sqrt", "step", "tanh?", "transpose", "trunc",
  "dpdx(?:Coarse|Fine)?", "dpdy(?:Coarse|Fine)?", "fwidth(?:Coarse|Fine)?",
  "textureDimensions", "textureGather", "textureGatherCompare", "textureLoad",
  "textureNumLayers", "textureNumLevels", "textureNumSamples", "textureSample",
  "textureSampleBias", "textureSampleCompare", "textureSampleCompareLevel",
  "textureSampleGrad", "textureSampleLevel", "textureSampleBaseClampToEdge", "textureStore",
  "atomicLoad", "atomicStore", "atomicAdd", "atomicSub", "atomicMax", "atomicMin",
  "atomicAnd", "atomicOr", "atomicXor", "atomicExchange", "atomicCompareExchangeWeak",
  "pack4x8snorm", "pack4x8unorm", "pack4xI8", "pack4xU8", "pack4xI8Clamp", "pack4xU8Clamp",
  "pack2x16snorm", "pack2x16unorm", "pack2x16float",
  "unpack4x8snorm", "unpack4x8unorm", "unpack4xI8", "unpack4xU8",
  "unpack2x16snorm", "unpack2x16unorm", "unpack2x16float",
  "storageBarrier", "textureBarrier", "workgroupBarrier", "workgroupUniformLoad",
  "subgroupAdd", "subgroupAll", "subgroupAnd", "subgroupAny", "subgroupBallot",
  "subgroupBroadcast", "subgroupBroadcastFirst", "subgroupElect",
  "subgroupExclusiveAdd", "subgroupExclusiveMul", "subgroupInclusiveAdd",
  "subgroupInclusiveMul", "subgroupMax", "subgroupMin", "subgroupMul", "subgroupOr",
  "subgroupShuffle", "subgroupShuffleDown", "subgroupShuffleUp", "subgroupShuffleXor",
  "subgroupXor", "quadBroadcast", "quadSwapDiagonal", "quadSwapX", "quadSwapY",
];
// Values of @builtin(...) and @interpolate(...).
const BUILTIN_VALUES = [
  "vertex_index", "instance_index", "position", "front_facing", "frag_depth",
  "sample_index", "sample_mask", "local_invocation_id", "local_invocation_index",
  "global_invocation_id", "workgroup_id", "num_workgroups", "subgroup_invocation_id",
  "subgroup_size", "subgroup_id", "num_subgroups", "primitive_index", "clip_distances",
  "flat", "linear", "perspective", "center", "centroid", "sample", "first", "either",
];
const ADDRESS_SPACES = ["function", "private", "workgroup", "uniform", "storage", "push_constant", "handle"];
const ACCESS_MODES = ["read_write", "read", "write"];
const TEXEL_FORMATS = [
  "rgba8(?:unorm|snorm|uint|sint)", "rgba16(?:uint|sint|float|unorm|snorm)",
  "r8(?:unorm|snorm|uint|sint)", "rg8(?:unorm|snorm|uint|sint)",
  "r16(?:uint|sint|float|unorm|snorm)", "rg16(?:uint|sint|float|unorm|snorm)",
  "r32(?:uint|sint|float)", "rg32(?:uint|sint|float)", "rgba32(?:uint|sint|float)",
  "bgra8unorm", "rgb10a2uint", "rgb10a2unorm", "rg11b10ufloat",
];
const IDENT = "[A-Za-z_][A-Za-z0-9_]*";

const grammar = {
  $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
  name: "WGSL",
  scopeName: "source.wgsl",
  fileTypes: ["wgsl"],
  patterns: [
    { include: "#comments" },
    { include: "#directives" },
    { include: "#attributes" },
    { include: "#declarations" },
    { include: "#keywords" },
    { include: "#literals" },
    { include: "#matrix" },
    { include: "#types" },
    { include: "#functions" },
    { include: "#template-arguments" },
    { include: "#operators" },
    { include: "#punctuation" },
  ],
  repository: {
    comments: {
      patterns: [
        {
          name: "comment.line.double-slash.wgsl",
          match: "(//).*$",
          captures: { 1: { name: "punctuation.definition.comment.wgsl" } },
        },
        { include: "#block-comment" },
      ],
    },
    // WGSL block comments nest: `/* a /* b */ still comment */`.
    "block-comment": {
      name: "comment.block.wgsl",
      begin: "/\\*",
      end: "\\*/",
      beginCaptures: { 0: { name: "punctuation.definition.comment.begin.wgsl" } },
      endCaptures: { 0: { name: "punctuation.definition.comment.end.wgsl" } },
      patterns: [{ include: "#block-comment" }],
    },
    directives: {
      patterns: [
        {
          name: "meta.directive.enable.wgsl",
          begin: "\\b(enable|requires)\\b",
          beginCaptures: { 1: { name: "keyword.other.directive.wgsl" } },
          end: ";",
          endCaptures: { 0: { name: "punctuation.terminator.statement.wgsl" } },
          patterns: [
            { include: "#comments" },
            { name: "entity.name.namespace.extension.wgsl", match: IDENT },
            { name: "punctuation.separator.comma.wgsl", match: "," },
          ],
        },
        {
          // `diagnostic(off, derivative_uniformity)` as a directive or an attribute
          match: `(@?)\\s*\\b(diagnostic)\\s*(\\()\\s*(error|warning|info|off)\\b`,
          captures: {
            1: { name: "punctuation.definition.attribute.wgsl" },
            2: { name: "keyword.other.directive.wgsl" },
            3: { name: "punctuation.brackets.round.wgsl" },
            4: { name: "constant.language.severity.wgsl" },
          },
        },
      ],
    },
    attributes: {
      patterns: [
        {
          // @builtin(global_invocation_id), @interpolate(flat, either)
          name: "meta.attribute.wgsl",
          begin: "(@)\\s*(builtin|interpolate)\\s*(\\()",
          beginCaptures: {
            1: { name: "punctuation.definition.attribute.wgsl" },
            2: { name: "entity.other.attribute-name.wgsl" },
            3: { name: "punctuation.brackets.round.wgsl" },
          },
          end: "\\)",
          endCaptures: { 0: { name: "punctuation.brackets.round.wgsl" } },
          patterns: [
            { include: "#comments" },
            { name: "variable.language.builtin-value.wgsl", match: words(BUILTIN_VALUES) },
            { name: "punctuation.separator.comma.wgsl", match: "," },
          ],
        },
        {
          name: "meta.attribute.wgsl",
          match: `(@)\\s*(${IDENT})`,
          captures: {
            1: { name: "punctuation.definition.attribute.wgsl" },
            2: { name: "entity.other.attribute-name.wgsl" },
          },
        },
      ],
    },
    declarations: {
      patterns: [
        {
          match: `\\b(fn)\\s+(${IDENT})`,
          captures: {
            1: { name: "keyword.declaration.function.wgsl" },
            2: { name: "entity.name.function.wgsl" },
          },
        },
        {
          match: `\\b(struct)\\s+(${IDENT})`,
          captures: {
            1: { name: "keyword.declaration.struct.wgsl" },
            2: { name: "entity.name.type.struct.wgsl" },
          },
        },
        {
          match: `\\b(alias)\\s+(${IDENT})`,
          captures: {
            1: { name: "keyword.declaration.type.wgsl" },
            2: { name: "entity.name.type.alias.wgsl" },
          },
        },
        {
          // `var<storage, read_write>`: address space and access mode
          begin: "\\b(var)\\s*(<)",
          beginCaptures: {
            1: { name: "keyword.declaration.variable.wgsl" },
            2: { name: "punctuation.definition.template.begin.wgsl" },
          },
          end: ">",
          endCaptures: { 0: { name: "punctuation.definition.template.end.wgsl" } },
          patterns: [
            { include: "#comments" },
            { include: "#template-arguments" },
            { name: "punctuation.separator.comma.wgsl", match: "," },
          ],
        },
      ],
    },
    keywords: {
      patterns: [
        { name: "keyword.control.conditional.wgsl", match: words(["if", "else", "switch", "case", "default"]) },
        { name: "keyword.control.loop.wgsl", match: words(["loop", "for", "while", "continuing", "break", "continue"]) },
        { name: "keyword.control.flow.wgsl", match: words(["return", "discard"]) },
        { name: "keyword.declaration.variable.wgsl", match: words(["var", "let", "const", "override"]) },
        { name: "keyword.declaration.function.wgsl", match: words(["fn"]) },
        { name: "keyword.declaration.struct.wgsl", match: words(["struct"]) },
        { name: "keyword.declaration.type.wgsl", match: words(["alias"]) },
        { name: "keyword.other.const-assert.wgsl", match: words(["const_assert"]) },
        { name: "keyword.other.directive.wgsl", match: words(["enable", "requires", "diagnostic"]) },
        { name: "variable.language.phony.wgsl", match: "\\b_\\b" },
      ],
    },
    literals: {
      patterns: [
        {
          // Only naga's debugPrintf("fmt", ...) takes one (enable wgpu_debug_printf); WGSL has no strings.
          name: "string.quoted.double.wgsl",
          begin: '"',
          end: '"|$',
          patterns: [
            { name: "constant.character.escape.wgsl", match: "\\\\." },
            { name: "constant.other.placeholder.wgsl", match: "%%|%[-+ #0]*[0-9]*(?:\\.[0-9]+)?[a-zA-Z]" },
          ],
        },
        { name: "constant.language.boolean.wgsl", match: words(["true", "false"]) },
        {
          // 0x1.8p3, 0x.8p-1f, 0x1p4h, 0xA.8
          name: "constant.numeric.float.hexadecimal.wgsl",
          match: "\\b0[xX](?:[0-9a-fA-F]*\\.[0-9a-fA-F]+|[0-9a-fA-F]+\\.)(?:[pP][+-]?[0-9]+([fh])?)?|\\b0[xX][0-9a-fA-F]+[pP][+-]?[0-9]+([fh])?",
          captures: {
            1: { name: "keyword.other.unit.suffix.wgsl" },
            2: { name: "keyword.other.unit.suffix.wgsl" },
          },
        },
        {
          name: "constant.numeric.integer.hexadecimal.wgsl",
          match: "\\b0[xX][0-9a-fA-F]+([iu])?\\b",
          captures: { 1: { name: "keyword.other.unit.suffix.wgsl" } },
        },
        {
          // 1.0, .5, 1., 1e-3, 2.5e+4f, 1h, 0f
          name: "constant.numeric.float.decimal.wgsl",
          match: "(?:\\b[0-9]+\\.[0-9]*|(?<![A-Za-z0-9_])\\.[0-9]+)(?:[eE][+-]?[0-9]+)?([fh])?(?![A-Za-z0-9_.])|\\b[0-9]+[eE][+-]?[0-9]+([fh])?\\b|\\b(?:0|[1-9][0-9]*)([fh])\\b",
          captures: {
            1: { name: "keyword.other.unit.suffix.wgsl" },
            2: { name: "keyword.other.unit.suffix.wgsl" },
            3: { name: "keyword.other.unit.suffix.wgsl" },
          },
        },
        {
          name: "constant.numeric.integer.decimal.wgsl",
          match: "\\b[0-9]+([iu])?\\b",
          captures: { 1: { name: "keyword.other.unit.suffix.wgsl" } },
        },
      ],
    },
    matrix: {
      patterns: [
        { name: "support.type.matrix.cooperative.wgsl", match: words(MATRIX_TYPES) },
        { name: "support.function.matrix.cooperative.wgsl", match: words(MATRIX_FUNCTIONS) },
      ],
    },
    types: {
      patterns: [
        { name: "support.type.builtin.scalar.wgsl", match: words(SCALAR_TYPES) },
        { name: "support.type.builtin.vector-matrix.wgsl", match: words(VECTOR_MATRIX_TYPES) },
        { name: "support.type.builtin.wgsl", match: words(OTHER_TYPES) },
      ],
    },
    functions: {
      patterns: [
        {
          match: `${words(FUNCTIONS)}(?=\\s*[(<])`,
          name: "support.function.builtin.wgsl",
        },
        {
          match: `\\b(${IDENT})\\s*(?=\\()`,
          captures: { 1: { name: "entity.name.function.call.wgsl" } },
        },
      ],
    },
    // Words that mean something only as template arguments: address spaces,
    // access modes, matrix roles and layouts, texel formats.
    "template-arguments": {
      patterns: [
        {
          match: `(?<=[<,])\\s*(${ADDRESS_SPACES.join("|")})\\b(?=\\s*[,>])`,
          captures: { 1: { name: "storage.modifier.address-space.wgsl" } },
        },
        {
          match: `(?<=[<,])\\s*(${ACCESS_MODES.join("|")})\\b(?=\\s*[,>])`,
          captures: { 1: { name: "storage.modifier.access.wgsl" } },
        },
        {
          // coop_mat16x16<f16, A>: the operand role
          match: "(?<=,)\\s*([ABC])\\b(?=\\s*>)",
          captures: { 1: { name: "constant.language.matrix-role.wgsl" } },
        },
        { name: "constant.language.matrix-layout.wgsl", match: words(["row_major", "col_major"]) },
        { name: "constant.language.texel-format.wgsl", match: words(TEXEL_FORMATS) },
      ],
    },
    operators: {
      patterns: [
        { name: "keyword.operator.arrow.wgsl", match: "->" },
        { name: "keyword.operator.assignment.compound.wgsl", match: "<<=|>>=|\\+=|-=|\\*=|/=|%=|&=|\\|=|\\^=" },
        { name: "keyword.operator.increment-decrement.wgsl", match: "\\+\\+|--" },
        { name: "keyword.operator.logical.wgsl", match: "&&|\\|\\||!(?!=)" },
        { name: "keyword.operator.bitwise.shift.wgsl", match: "<<|>>" },
        { name: "keyword.operator.comparison.wgsl", match: "==|!=|<=|>=" },
        { name: "keyword.operator.assignment.wgsl", match: "=" },
        { name: "keyword.operator.bitwise.wgsl", match: "[&|^~]" },
        { name: "keyword.operator.arithmetic.wgsl", match: "[-+*/%]" },
        { name: "keyword.operator.comparison-or-template.wgsl", match: "[<>]" },
      ],
    },
    punctuation: {
      patterns: [
        { name: "punctuation.brackets.curly.wgsl", match: "[{}]" },
        { name: "punctuation.brackets.round.wgsl", match: "[()]" },
        { name: "punctuation.brackets.square.wgsl", match: "[\\[\\]]" },
        { name: "punctuation.separator.comma.wgsl", match: "," },
        { name: "punctuation.separator.colon.wgsl", match: ":" },
        { name: "punctuation.terminator.statement.wgsl", match: ";" },
        { name: "punctuation.accessor.wgsl", match: "\\." },
      ],
    },
  },
};

const text = JSON.stringify(grammar, null, 2) + "\n";
if (process.argv.includes("--check")) {
  let current = "";
  try { current = readFileSync(out, "utf8"); } catch { /* missing counts as stale */ }
  if (current !== text) {
    console.error(`${out} is stale: run node scripts/grammar-src.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
