"""Documentation for names the builtin tables describe: functions, matrix types, predeclared types."""

from __future__ import annotations

from ..semantic.builtins.core import DEBUG_PRINTF, DEBUG_PRINTF_ENABLE
from ..semantic.builtins.language import DIALECTS, DIALECTS_BY_PRECEDENCE, MATRIX_TYPES
from ..semantic.builtins.table import Builtin
from ..semantic.context import CORE_TABLE, MATRIX_TABLES

DIALECT_LABELS = {d.name: f"{d.label} (`enable {d.enable};`)" for d in DIALECTS}


def _dialects_of(type_name: str) -> tuple[str, ...]:
    return tuple(d.name for d in DIALECTS if type_name in d.type_names)


# The matrix types are type generators, not functions: their docs sit beside the dialects in language.py.
MATRIX_TYPE_DOCS = {m.name: (m.signature, m.doc, m.example, _dialects_of(m.name)) for m in MATRIX_TYPES}

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


DEBUG_PRINTF_DOC = (f"```wgsl\n{DEBUG_PRINTF}(\"format\", values...)\n```\n\n"
                   "Prints from the shader: naga's spelling (wgpu's trunk, Vulkan validation layers only). "
                   "`coop-lint run` and *Run kernel* record it on every backend, per workgroup, subgroup and lane "
                   "(docs/debugging.md). Conversions: `%d %i %u %x` integers, `%f %e %g` floats, `%v` a vector, "
                   "`%%` a percent sign; R003 checks them against the values.\n\n"
                   f"Requires `enable {DEBUG_PRINTF_ENABLE};`, which released naga (29.0.4, 30.0.1) refuses.")


def builtin_markdown(name: str, dialect: str | None) -> str | None:
    if name == DEBUG_PRINTF:
        return DEBUG_PRINTF_DOC
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
    for dialect in DIALECTS_BY_PRECEDENCE:
        if dialect.enable in enables:
            return dialect.name
    return None
