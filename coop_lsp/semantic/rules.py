"""Rules reported by the semantic layer: names, types, and the matrix extensions."""

from ..core.diagnostic import Severity
from ..core.rules import Rule, register

UNRESOLVED_NAME = register(Rule(
    code="T001", name="unresolved_name", severity=Severity.ERROR, layer="semantic",
    summary="A name that is not declared anywhere in scope.",
    explanation="Every identifier must name a declaration in scope, a builtin type or function of "
                "WGSL, or of an extension the module enables. Typos in builtin names (`subgroupMatrixload`) "
                "and types that no compiler has (`bf16`) are the usual causes.",
    example="let x: bf16 = 1.0;   // unresolved type 'bf16'",
    fix="Declare the name, fix its spelling, or enable the extension that provides it.",
    suppressible=False,
))

DUPLICATE_DECLARATION = register(Rule(
    code="T002", name="duplicate_declaration", severity=Severity.ERROR, layer="semantic",
    summary="Two declarations with the same name in one scope.",
    explanation="Module-scope names must be unique, and so must the names declared directly in one "
                "block or the parameters of one function. An inner block may shadow an outer name.",
    example="const N = 4;\nconst N = 8;   // redeclaration of 'N'",
    suppressible=False,
))

TYPE_MISMATCH = register(Rule(
    code="T003", name="type_mismatch", severity=Severity.ERROR, layer="semantic",
    summary="A value whose type does not fit where it is used.",
    explanation="Assignments, initializers, return values, conditions and operators each need "
                "operands of particular types; WGSL converts only abstract numbers implicitly.",
    example="var x: u32 = 1.5;   // cannot initialize 'u32' with 'abstract-float'",
    fix="For an integral vertex output or fragment input without '@interpolate(flat)', the fix adds it.",
    suppressible=False,
))

NO_MATCHING_OVERLOAD = register(Rule(
    code="T004", name="no_matching_overload", severity=Severity.ERROR, layer="semantic",
    summary="A call to a builtin function whose arguments match none of its overloads.",
    explanation="Builtin functions are overloaded on their argument types and template arguments. "
                "The message lists the overloads that exist, as Tint does.",
    example="subgroupMatrixMultiplyAccumulate(left, left, acc);   // right operand must be a right matrix",
    suppressible=False,
))

INVALID_MATRIX_TYPE = register(Rule(
    code="T005", name="invalid_matrix_type", severity=Severity.ERROR, layer="semantic",
    summary="A cooperative or subgroup matrix type with invalid template arguments.",
    explanation="Matrix dimensions must be constant positive integers, the element type must be one "
                "the dialect allows, and naga's role must be A, B or C.",
    example="var m: subgroup_matrix_left<f16, 0, 16>;   // column count must be positive",
    suppressible=False,
))

MATRIX_SHAPE_MISMATCH = register(Rule(
    code="T006", name="matrix_shape_mismatch", severity=Severity.ERROR, layer="semantic",
    summary="Matrix operands whose shapes cannot be multiplied or accumulated.",
    explanation="A left matrix of K columns and M rows times a right matrix of N columns and K rows "
                "gives a result of N columns and M rows (Tint); in naga, A (MxK) times B (KxN) "
                "plus C (MxN). Mismatched shapes are rejected by the compiler.",
    suppressible=False,
))

MISSING_ENABLE = register(Rule(
    code="T007", name="missing_enable", severity=Severity.ERROR, layer="semantic",
    summary="A type or builtin used without the `enable` directive its extension needs.",
    explanation="f16 needs `enable f16;`, naga's cooperative matrices `enable wgpu_cooperative_matrix;`, "
                "Tint's subgroup matrices `enable chromium_experimental_subgroup_matrix;`, subgroup "
                "builtins `enable subgroups;`.",
    fix="Insert the `enable` directive at the top of the module.",
    suppressible=False,
))

INVALID_MATRIX_MEMORY = register(Rule(
    code="T008", name="invalid_matrix_memory", severity=Severity.ERROR, layer="semantic",
    summary="A matrix load or store through memory it cannot use.",
    explanation="Loads and stores take a pointer to an array in the storage or workgroup address "
                "space; stores need write access. The array may hold any numeric scalar or vector at least "
                "as wide as the matrix element: Tint's rule, and the gpuweb draft's since #6345 (any scalar or "
                "vector element) and #6365 (StrideOf(A) >= SizeOf(C)); proposals/subgroup-matrix.md, "
                "Load/Store functions. Tint's deprecated bool form still needs exactly the matrix element "
                "type (u8/i8 matrices use u32/i32 arrays).",
    suppressible=False,
))

MATRIX_STRIDE = register(Rule(
    code="T009", name="matrix_stride", severity=Severity.ERROR, layer="semantic",
    summary="A constant stride smaller than the matrix needs.",
    explanation="The stride is the distance between rows (or columns) in array elements; a constant "
                "stride smaller than the matrix's row length makes rows overlap. Tint rejects the shader; "
                "the gpuweb draft (#6275, proposals/subgroup-matrix.md, Load/Store functions) makes it a "
                "shader-creation error for a const-expression stride, a pipeline-creation error for an "
                "override-expression and a dynamic error at run time; only the first is checked here.",
))

MATRIX_PLACEMENT = register(Rule(
    code="T010", name="matrix_placement", severity=Severity.ERROR, layer="semantic",
    summary="A matrix type where the compiler does not allow one.",
    explanation="Cooperative and subgroup matrices live in registers: they may be function "
                "variables, parameters and return values, but not buffer contents or (in Tint) "
                "workgroup variables.",
    suppressible=False,
))

MIXED_DIALECTS = register(Rule(
    code="T011", name="mixed_dialects", severity=Severity.ERROR, layer="semantic",
    summary="One module that uses the matrix extensions of two compilers.",
    explanation="naga's `coop_mat` types and Tint's `subgroup_matrix` types are not understood by the "
                "other compiler; a module that mixes them compiles nowhere.",
))

DEPRECATED_BUILTIN = register(Rule(
    code="T012", name="deprecated_builtin", severity=Severity.WARNING, layer="semantic",
    summary="The old form of subgroupMatrixLoad/Store with a bool majorness argument.",
    explanation="Tint now takes the majorness as a template argument "
                "(`subgroupMatrixLoad<T, row_major>(&a, offset, stride)`); the form with a "
                "`col_major: bool` argument still compiles but warns 'use of deprecated builtin'.",
    example="subgroupMatrixLoad<M>(&a, 0u, false, 16u)  ->  subgroupMatrixLoad<M, row_major>(&a, 0u, 16u)",
    fix="The fix rewrites the call to the current form when the bool is a constant.",
))

PORTABILITY = register(Rule(
    code="T013", name="portability", severity=Severity.WARNING, layer="semantic",
    summary="Code one of the WGSL compilers does not accept.",
    explanation="naga and Tint implement different parts of WGSL. For example naga rejects "
                "`enable subgroups;`. The dialect setting decides which compiler's view counts.",
))

CONST_EVALUATION = register(Rule(
    code="T014", name="const_evaluation", severity=Severity.ERROR, layer="semantic",
    summary="A constant expression that cannot be evaluated: overflow, division by zero, out of range.",
    explanation="Constant expressions are evaluated when the shader is created, and errors in them "
                "are shader-creation errors. A constant divisor that is zero (or has a zero component) "
                "and a constant shift of 32 or more are errors too when the other operand is only known "
                "at run time, even in code that never runs: `i % Z` with `const Z = 0u` fails to compile, "
                "and so does `v / (STEPS - 8u)` when a component of the constant vector `STEPS` is 8. "
                "An abstract number must fit the concrete type it is given where it is given one: "
                "`let n = 4294967296;` (an i32), `lane < 4294967296` with a u32 `lane`, "
                "`@binding(4294967296)`.",
    suppressible=False,
))

MATRIX_EXTENT = register(Rule(
    code="T016", name="matrix_access_past_array", severity=Severity.ERROR, layer="semantic",
    summary="A matrix load or store that needs more of a fixed-size array than it has.",
    explanation="A load or store touches every row (or column, for col_major) of the matrix from the "
                "offset on, `stride` elements apart. Where the array has a fixed size, Tint rejects the "
                "shader when that span cannot fit, counting a run-time offset as 0 and a run-time stride "
                "as one row, and even in code that never runs. The gpuweb draft has the same rule (#6275), "
                "and #6310/#6334 require at least MinStorageSize = M x N x SizeOf(C) bytes: the size of a "
                "workgroup variable, the minimum binding size of a storage buffer (proposals/subgroup-matrix.md, "
                "Load/Store functions). Make the array larger, or the tile, stride or offset smaller.",
    example="var<workgroup> w: array<f16, 63>;\n"
            "subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&w, 0u, 8u)  // needs 128 bytes",
    suppressible=False,
))

UNUSED_RESULT = register(Rule(
    code="T015", name="unused_result", severity=Severity.ERROR, layer="semantic",
    summary="The result of a builtin that must be used is thrown away.",
    explanation="Builtins without side effects are marked @must_use: calling one as a statement "
                "does nothing, which is almost always a mistake. Assign the result, or use `_ = f(...)`.",
    example="abs(x);   // error\nlet y = abs(x);",
    suppressible=False,
))

VARIABLE_DECLARATION = register(Rule(
    code="T017", name="variable_declaration", severity=Severity.ERROR, layer="semantic",
    summary="A `var` whose address space, access mode, initializer, binding or type does not go together.",
    explanation="Module-scope variables need an address space (textures and samplers excepted) and may not "
                "use 'function'; only 'storage' buffers have an access mode, and 'write' is not one of "
                "theirs; only 'private' and 'function' variables may have an initializer; resource "
                "variables (storage, uniform, textures, samplers) need both '@group' and '@binding', and "
                "other variables may have neither; what lives in 'storage' or 'uniform' memory must be "
                "host-shareable, so no 'bool' there. An entry point may use at most one 'immediate' "
                "variable.",
    example="var<private, read_write> x: i32;   // only storage buffers have an access mode\n"
            "var<workgroup> tile: array<f32, 64> = array<f32, 64>();   // workgroup memory has no initializer",
    suppressible=False,
))

MISSING_RETURN = register(Rule(
    code="T018", name="missing_return", severity=Severity.ERROR, layer="semantic",
    summary="A function with a return type whose end can be reached without a 'return'.",
    explanation="Every path through a function that returns a value must end in 'return' (or leave "
                "through a loop that never falls through). Compilers judge this from the statements "
                "alone, without evaluating conditions: after `if c { return 1; }` the end is reachable "
                "even when `c` is always true, and after `while true { return 1; }` too, because a "
                "'while' loop can exit through its condition. Add a 'return' at the end, or an 'else' "
                "branch that returns.",
    example="fn sign(x: i32) -> i32 {\n  if x < 0 { return -1; }\n}   // missing return",
    suppressible=False,
))

ENDLESS_LOOP = register(Rule(
    code="T019", name="loop_does_not_exit", severity=Severity.ERROR, layer="semantic",
    summary="A 'loop' or condition-less 'for' that contains no 'break', 'break if' or 'return' for itself.",
    explanation="A loop must have a way out: a 'break' or 'break if' that leaves it (a 'break' inside an "
                "inner loop or a 'switch' leaves only that), or a 'return'. Tint rejects a loop without "
                "one, even when the rest of the shader never runs it.",
    example="loop { i++; }   // loop does not exit\nloop { i++; continuing { break if i >= n; } }",
    suppressible=False,
))

ENTRY_POINT_IO = register(Rule(
    code="T020", name="entry_point_io", severity=Severity.ERROR, layer="semantic",
    summary="An entry point's inputs or outputs without the attributes they need, or with ones that clash.",
    explanation="Every parameter and return value of an entry point (or each member of a struct used "
                "there) is one '@builtin' value, valid in that stage and direction, or one '@location' of a "
                "numeric scalar or vector, and each location and builtin appears once per direction. With "
                "`enable chromium_experimental_framebuffer_fetch;` a fragment input may instead be a "
                "'@color(N)' of a numeric scalar or vector, each N once. '@interpolate' needs a '@location', "
                "'@invariant' the position. A vertex shader returns '@builtin(position)'; a compute shader "
                "has '@workgroup_size' and no '@location'. With `enable dual_source_blending;` a fragment "
                "shader may return a struct with two members at '@location(0)', '@blend_src(0)' and "
                "'@blend_src(1)', of the same type, and no other '@location' member; '@blend_src' belongs "
                "nowhere else.",
    example="struct Out {\n  @location(0) @blend_src(0) color: vec4f,\n  @location(0) @blend_src(1) blend: vec4f,\n}",
    suppressible=False,
))

MISPLACED_JUMP = register(Rule(
    code="T021", name="misplaced_jump", severity=Severity.ERROR, layer="semantic",
    summary="A 'break', 'continue', 'return' or 'discard' where it may not stand.",
    explanation="'break' leaves the innermost loop or switch and 'continue' goes to the next iteration of "
                "the innermost loop, so each needs one around it. A loop's continuing block may not be left "
                "by 'break' (its last statement may be 'break if'), 'continue' or 'return'. The continuing block "
                "runs after a 'continue', so a 'continue' may not skip a declaration that it uses. 'discard' "
                "exists only in fragment shaders.",
    example="loop {\n  continuing {\n    i++;\n    if i > n { break; }   // use 'break if i > n;'\n  }\n}",
    suppressible=False,
))

SWITCH_CASES = register(Rule(
    code="T022", name="switch_cases", severity=Severity.ERROR, layer="semantic",
    summary="A switch without exactly one default clause, or with one case value twice.",
    explanation="Every switch has one 'default' (as a clause, or as a selector in a case list), and each "
                "case value may appear once.",
    example="switch x {\n  case 1: { }\n  case 1: { }   // duplicate switch case '1'\n}   // and no default",
    suppressible=False,
))

ATTRIBUTE = register(Rule(
    code="T023", name="invalid_attribute", severity=Severity.ERROR, layer="semantic",
    summary="An attribute where it does not belong, given twice, or with a value out of range.",
    explanation="Each declaration takes its own attributes: shader stages, '@workgroup_size' (compute only) "
                "and '@must_use' (functions that return a value) on functions; '@builtin', '@location', "
                "'@interpolate', '@invariant' on entry-point parameters, return values and struct members, "
                "never on a helper's parameters; '@align' (a power of two) and '@size' (at least the "
                "member's size) on struct members; '@group' and '@binding' (non-negative) on variables; '@id' "
                "(0 to 65535, unique) on overrides. None may appear twice. Two diagnostic filters for one "
                "rule may not set different severities (module directives, or the '@diagnostic' attributes "
                "of one declaration or statement), and one declaration may not repeat the same filter.",
    example="fn helper(@location(0) x: f32) {}   // '@location' is not valid for non-entry point function "
            "parameters",
    suppressible=False,
))
