"""Documentation for names the builtin tables describe: functions, matrix types, predeclared types."""

from __future__ import annotations

from ..semantic.builtins.table import Builtin
from ..semantic.context import CORE_TABLE, DIALECT_ENABLES, MATRIX_TABLES

DIALECT_LABELS = {
    "wgpu": "wgpu / naga (`enable wgpu_cooperative_matrix;`)",
    "chromium": "Chrome / Dawn (`enable chromium_experimental_subgroup_matrix;`)",
    "standard": "proposed standard (`enable subgroup_matrix;`)",
}

# The matrix types are type generators, not functions, so the builtin tables do not hold them.
MATRIX_TYPE_DOCS = {
    "subgroup_matrix_left": (
        "subgroup_matrix_left<T, K, M>",
        "The left operand of a subgroup matrix multiply: M rows by K columns of T, held jointly by the "
        "invocations of a subgroup. T is f32, f16, u32, i32, u8 or i8; K and M are the shapes the adapter "
        "reports in its subgroup matrix configurations.",
        "let a = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&input, 0u, 16u);",
        ("chromium", "standard")),
    "subgroup_matrix_right": (
        "subgroup_matrix_right<T, N, K>",
        "The right operand of a subgroup matrix multiply: K rows by N columns of T.",
        "let b = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&input, 256u, 16u);",
        ("chromium", "standard")),
    "subgroup_matrix_result": (
        "subgroup_matrix_result<T, N, M>",
        "The accumulator and result of a subgroup matrix multiply: M rows by N columns of T. "
        "`subgroup_matrix_result<T, N, M>()` is the zero matrix.",
        "var acc = subgroup_matrix_result<f32, 16, 16>();",
        ("chromium", "standard")),
}
for _size in (8, 16):
    MATRIX_TYPE_DOCS[f"coop_mat{_size}x{_size}"] = (
        f"coop_mat{_size}x{_size}<T, R>",
        f"naga's cooperative matrix: {_size} x {_size} elements of T (f32 or f16) in role R: A (left "
        "operand), B (right operand) or C (accumulator).",
        f"var c = coop_mat{_size}x{_size}<f32, C>();",
        ("wgpu",))

SCALAR_DOCS = {
    "bool": "Boolean: true or false.",
    "i32": "32-bit signed integer.",
    "u32": "32-bit unsigned integer.",
    "f32": "32-bit IEEE-754 float.",
    "f16": "16-bit IEEE-754 float; needs `enable f16;`.",
}


def builtin_entries(name: str) -> list[tuple[str, Builtin]]:
    """Every table that defines `name`, as (dialect or "core", builtin)."""
    out = []
    builtin = CORE_TABLE.get(name)
    if builtin is not None:
        out.append(("core", builtin))
    for dialect, table in MATRIX_TABLES.items():
        builtin = table.get(name)
        if builtin is not None:
            out.append((dialect, builtin))
    return out


def pick_builtin(name: str, dialect: str | None) -> tuple[str, Builtin, list[str]] | None:
    """The builtin a call in a module of `dialect` means, plus every dialect that offers the name."""
    entries = builtin_entries(name)
    if not entries:
        return None
    dialects = [d for d, _ in entries]
    for wanted in (dialect, "core"):
        for d, builtin in entries:
            if d == wanted:
                return d, builtin, dialects
    d, builtin = entries[0]
    return d, builtin, dialects


def builtin_markdown(name: str, dialect: str | None) -> str | None:
    picked = pick_builtin(name, dialect)
    if picked is None:
        return None
    chosen, builtin, dialects = picked
    signatures = [o.describe(builtin.name) + ("  // deprecated" if o.deprecated else "") for o in builtin.overloads]
    lines = ["```wgsl", *signatures, "```", "", builtin.doc]
    if builtin.enable:
        lines += ["", f"Requires `enable {builtin.enable};`."]
    matrix = [d for d in dialects if d != "core"]
    if matrix:
        lines += ["", "Dialects: " + ", ".join(DIALECT_LABELS[d] for d in matrix)]
    if builtin.example:
        lines += ["", "```wgsl", builtin.example, "```"]
    return "\n".join(lines)


def type_markdown(name: str) -> str | None:
    entry = MATRIX_TYPE_DOCS.get(name)
    if entry is not None:
        signature, doc, example, dialects = entry
        return "\n".join(["```wgsl", signature, "```", "", doc, "",
                          "Dialects: " + ", ".join(DIALECT_LABELS[d] for d in dialects),
                          "", "```wgsl", example, "```"])
    if name in SCALAR_DOCS:
        return f"```wgsl\n{name}\n```\n\n{SCALAR_DOCS[name]}"
    return None


def module_dialect(enables: set[str], override: str | None = None) -> str | None:
    if override in MATRIX_TABLES:
        return override
    for dialect in ("chromium", "standard", "wgpu"):
        if DIALECT_ENABLES[dialect] in enables:
            return dialect
    return None
