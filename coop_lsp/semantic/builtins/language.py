"""The language facts every layer reads: extensions, matrix dialects, and the classification words of builtins.

As Tint keeps every builtin and extension in its intrinsic definition file
(wgsl.def) and asks predicates of the resolved builtin, coop-lsp keeps them
here and in the builtin tables beside it (core.py, matrix.py, textures.py).
Nothing outside semantic/builtins spells an enable, a dialect list, a matrix
type name or a builtin partition (load, store, multiply, uniformity): it
derives them from these records. tests/test_language_facts.py guards that.
"""

from __future__ import annotations

from dataclasses import dataclass

from .matrix import (MEMORY_SPACES, NAGA_ENABLE, NAGA_MATRIX_BUILTINS, NAGA_MEMORY_SPACES, STANDARD_ENABLE,
                     STANDARD_MATRIX_BUILTINS, TINT_ENABLE, TINT_MATRIX_BUILTINS)
# The classification words live in table.py (beside the Builtin fields); readers take them from here.
from .table import (BARRIER, DERIVATIVE, FOLLOWS_ARGUMENTS, LOAD, MATRIX, MEMORY_ROLES,  # noqa: F401
                    MULTIPLY, NO_MEMORY, NO_REQUIREMENT, NON_UNIFORM, RESULT_UNIFORMITIES, STORE, SUBGROUP,
                    SUBGROUP_UNIFORM, UNIFORMITY_REQUIREMENTS, Builtin, BuiltinTable)

# ------------------------------------------------------------------- extensions
@dataclass(frozen=True)
class Extension:
    enable: str  # the name after `enable`
    # The WebGPU device features (Dawn's spelling) of which a device needs one for Tint to allow the
    # enable; empty where no device feature gates it (naga's extensions, or one checked another way).
    features: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()  # enables it brings with it
    label: str = ""


# Measured on wgpudawn 0.32: Tint accepts subgroupMax under chromium_experimental_subgroup_matrix alone; naga
# needs no enable for the subgroup builtins at all, so its matrix extension implies them too.
EXTENSIONS: tuple[Extension, ...] = (
    Extension("f16", ("shader-f16",), label="16-bit floats"),
    Extension("subgroups", ("subgroups",), label="subgroup builtins"),
    Extension("clip_distances", ("clip-distances",)),
    Extension("dual_source_blending", ("dual-source-blending",)),
    Extension("primitive_index", ("primitive-index",)),
    Extension("chromium_experimental_framebuffer_fetch", ("framebuffer-fetch",)),
    Extension("chromium_experimental_pixel_local",
              ("pixel-local-storage-coherent", "pixel-local-storage-non-coherent")),
    # The matrix extensions' device feature is checked with the adapter's matrix configurations
    # (analysis/configs.py), not as a plain enable -> feature pair: hence no `features` here.
    Extension(NAGA_ENABLE, implies=("subgroups",), label="naga's cooperative matrices"),
    Extension(TINT_ENABLE, implies=("subgroups",), label="Tint's subgroup matrices"),
    Extension(STANDARD_ENABLE, implies=("subgroups",), label="the proposed standard's subgroup matrices"),
)
EXTENSION = {extension.enable: extension for extension in EXTENSIONS}
# Enables that need a device feature Tint checks when it creates the module (D004).
ENABLE_FEATURES = {e.enable: e.features for e in EXTENSIONS if e.features}
# The device feature Dawn exposes subgroup matrices under, whatever the dialect's spelling: the runner
# requests it (with subgroups) for every kernel it hands to Dawn.
DAWN_MATRIX_FEATURE = "chromium-experimental-subgroup-matrix"


# ----------------------------------------------------------------- matrix types
@dataclass(frozen=True)
class MatrixType:
    """A matrix type generator's documentation (the types themselves are resolved in typenames.py)."""

    name: str
    signature: str
    doc: str
    example: str


MATRIX_TYPES: tuple[MatrixType, ...] = (
    MatrixType("subgroup_matrix_left", "subgroup_matrix_left<T, K, M>",
               "The left operand of a subgroup matrix multiply: M rows by K columns of T, held jointly by the "
               "invocations of a subgroup. T is f32, f16, u32, i32, u8 or i8; K and M are the shapes the adapter "
               "reports in its subgroup matrix configurations.",
               "let a = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&input, 0u, 16u);"),
    MatrixType("subgroup_matrix_right", "subgroup_matrix_right<T, N, K>",
               "The right operand of a subgroup matrix multiply: K rows by N columns of T.",
               "let b = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&input, 256u, 16u);"),
    MatrixType("subgroup_matrix_result", "subgroup_matrix_result<T, N, M>",
               "The accumulator and result of a subgroup matrix multiply: M rows by N columns of T. "
               "`subgroup_matrix_result<T, N, M>()` is the zero matrix.",
               "var acc = subgroup_matrix_result<f32, 16, 16>();"),
    *(MatrixType(f"coop_mat{size}x{size}", f"coop_mat{size}x{size}<T, R>",
                 f"naga's cooperative matrix: {size} x {size} elements of T (f32 or f16) in role R: A (left "
                 "operand), B (right operand) or C (accumulator).",
                 f"var c = coop_mat{size}x{size}<f32, C>();") for size in (8, 16)),
)


# --------------------------------------------------------------------- dialects
@dataclass(frozen=True)
class Dialect:
    name: str  # the configuration value (`dialect = "chromium"`, coopLsp.dialect)
    enable: str
    compiler: str  # "naga" or "tint": the compiler that accepts it
    family: str  # "wgpu" or "subgroup": dialects of one family share builtin and type names
    type_names: tuple[str, ...]
    label: str  # for hover and docs
    setting: str  # the editor setting's description of it (vscode-client/package.json)
    uniformity_rule: str  # the diagnostic rule name of its matrix uniformity requirement ("" for none)
    memory_spaces: tuple[str, ...]  # where its loads and stores may point
    builtins: tuple[Builtin, ...]

    @property
    def table(self) -> BuiltinTable:
        return _TABLES[self.name]

    @property
    def extension(self) -> Extension:
        return EXTENSION[self.enable]


_NAGA_TYPES = tuple(m.name for m in MATRIX_TYPES if m.name.startswith("coop_mat"))
_SUBGROUP_TYPES = tuple(m.name for m in MATRIX_TYPES if m.name.startswith("subgroup_matrix_"))
DIALECTS: tuple[Dialect, ...] = (
    Dialect("wgpu", NAGA_ENABLE, "naga", "wgpu", _NAGA_TYPES, "wgpu / naga",
            "wgpu / naga `wgpu_cooperative_matrix` (coop_mat8x8, coop_mat16x16, coopLoad, ...).",
            "", NAGA_MEMORY_SPACES, tuple(NAGA_MATRIX_BUILTINS)),
    Dialect("chromium", TINT_ENABLE, "tint", "subgroup", _SUBGROUP_TYPES, "Chrome / Dawn",
            "Dawn / Tint `chromium_experimental_subgroup_matrix` (subgroup_matrix_left/right/result, "
            "subgroupMatrixLoad, ...).",
            "chromium.subgroup_matrix_uniformity", MEMORY_SPACES, tuple(TINT_MATRIX_BUILTINS)),
    Dialect("standard", STANDARD_ENABLE, "tint", "subgroup", _SUBGROUP_TYPES, "proposed standard",
            "The proposed standard `subgroup_matrix`.",
            "subgroup_matrix_uniformity", MEMORY_SPACES, tuple(STANDARD_MATRIX_BUILTINS)),
)
DIALECT = {dialect.name: dialect for dialect in DIALECTS}
DIALECT_NAMES = tuple(dialect.name for dialect in DIALECTS)
# The order in which a module's enables or uses pick its dialect: Tint's spelling first, the proposal's
# next (both may be enabled while Tint's is the one that counts), naga's last.
DIALECTS_BY_PRECEDENCE: tuple[Dialect, ...] = (DIALECT["chromium"], DIALECT["standard"], DIALECT["wgpu"])
DIALECT_ENABLES = {dialect.name: dialect.enable for dialect in DIALECTS}
ENABLE_DIALECTS = {dialect.enable: dialect.name for dialect in DIALECTS}
MATRIX_ENABLES = tuple(dialect.enable for dialect in DIALECTS)
MATRIX_TYPE_NAMES = tuple(dict.fromkeys(name for dialect in DIALECTS for name in dialect.type_names))
_TABLES = {dialect.name: BuiltinTable(dialect.name, list(dialect.builtins)) for dialect in DIALECTS}


def matrix_builtin_names(*roles: str, compiler: str | None = None) -> frozenset[str]:
    """The names of the matrix builtins with one of these memory roles (all of them when none is given),
    of every dialect or of the dialects one compiler accepts."""
    return frozenset(builtin.name for dialect in DIALECTS if compiler in (None, dialect.compiler)
                     for builtin in dialect.builtins if not roles or builtin.memory in roles)


def parameter_index(builtin: Builtin, parameter: str, overload: int = 0) -> int | None:
    """Where the parameter of that name sits in one overload of the builtin: the table names parameters,
    so no reader needs to know a position by heart."""
    for index, found in enumerate(builtin.overloads[overload].parameters):
        if found.name == parameter:
            return index
    return None


def call_parameters(name: str, count: int) -> tuple[str, ...] | None:
    """The parameter names of the matrix builtin `name` called with `count` arguments, in order, or None.

    Every overload of a matrix builtin differs from the others of its name in its argument count (Tint's
    deprecated bool-majorness forms take one more than the template forms; naga's stride is optional),
    and the dialects that share a name share its parameter names, so the count alone picks the overload."""
    for dialect in DIALECTS:
        for builtin in dialect.builtins:
            if builtin.name != name:
                continue
            for overload in builtin.overloads:
                if len(overload.parameters) == count:
                    return tuple(parameter.name for parameter in overload.parameters)
    return None
