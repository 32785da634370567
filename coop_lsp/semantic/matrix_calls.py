"""Explaining why a matrix load or store matches no overload, at the argument at fault.

"No matching call" with eight candidate signatures (Tint's answer) leaves the
kernel author to find the one wrong argument. Here the usual mistakes are
named where they are: the pointer, the offset or stride, the majorness.
"""

from __future__ import annotations

import tree_sitter as ts

from . import types as t
from .builtins.language import DIALECTS, LOAD, STORE
from .builtins.matrix import INDEX_TYPES, MAJORNESS

_SPACES = {dialect.name: dialect.memory_spaces for dialect in DIALECTS}
# The dialects whose loads and stores still take the majorness as a bool (Tint's deprecated form); the
# gpuweb draft dropped it (#6275), so there a bool argument is a mistake worth naming.
_BOOL_FORMS = {dialect.name: any(p.name == "col_major" for b in dialect.builtins for o in b.overloads
                                 for p in o.parameters) for dialect in DIALECTS}


def explain_matrix_call(name: str, template_args, template_nodes: list[ts.Node], args, arg_nodes: list[ts.Node],
                        dialect: str) -> tuple[str, str, ts.Node] | None:
    """(code, message, node) for the first argument that cannot be right, or None to list the overloads."""
    layout = _LAYOUTS.get(name)
    if layout is None:
        return None
    pointer_index, integer_indices, storing = layout(len(args), dialect)
    if dialect != "wgpu" and not _BOOL_FORMS[dialect] and len(args) == (4 if storing else 3) + 1 \
            and args[-2].type == t.BOOL:
        form = (f"{name}<row_major>(p, offset, value, stride)" if storing
                else f"{name}<T, row_major>(p, offset, stride)")
        return ("T004", f"the subgroup_matrix draft takes the majorness as a template argument, not a bool "
                        f"(gpuweb #6275): write '{form}', or col_major", arg_nodes[-2])
    if name == "subgroupMatrixLoad" and dialect != "wgpu" and len(template_args) == 2:
        majorness = template_args[1].type
        if not isinstance(majorness, t.Enumerant) or majorness.value not in MAJORNESS:
            return ("T003", "the majorness template argument must be 'row_major' or 'col_major'", template_nodes[1])
    if name == "subgroupMatrixStore" and dialect != "wgpu" and len(template_args) == 1:
        majorness = template_args[0].type
        if not isinstance(majorness, t.Enumerant) or majorness.value not in MAJORNESS:
            return ("T003", "the majorness template argument must be 'row_major' or 'col_major'", template_nodes[0])
    if dialect == "wgpu":
        return _explain_naga(name, template_args, args, arg_nodes, pointer_index)
    if pointer_index is not None and pointer_index < len(args):
        problem = _pointer_problem(args[pointer_index].type, dialect, storing)
        if problem is not None:
            return ("T008", problem, arg_nodes[pointer_index])
    for index in integer_indices:
        if 0 <= index < len(args) and args[index].type not in INDEX_TYPES:
            what = "stride" if index == len(args) - 1 else "offset"
            return ("T003", f"the {what} must be an i32 or u32, not '{args[index].type.describe()}'",
                    arg_nodes[index])
    return None


def _explain_naga(name, template_args, args, arg_nodes, pointer_index):
    """naga points at the element type of the pointer; everything else is 'no matching call'."""
    if pointer_index >= len(args) or not isinstance(args[pointer_index].type, t.Pointer):
        return None
    pointer = args[pointer_index].type
    if name.startswith("coopLoad"):
        matrix = template_args[0].type.type if template_args and isinstance(template_args[0].type, t.TypeOf) else None
    else:
        matrix = args[0].type
    if isinstance(matrix, t.CoopMatrix) and pointer.store != matrix.element:
        return ("T008", f"the pointer is to '{pointer.store.describe()}' but the matrix holds "
                        f"'{matrix.element.describe()}'", arg_nodes[pointer_index])
    return None


def _pointer_problem(value: t.Type, dialect: str, storing: bool) -> str | None:
    if not isinstance(value, t.Pointer):
        return f"expects a pointer (write '&name'), not '{value.describe()}'"
    verb = "store a matrix to" if storing else "load a matrix from"
    if value.space not in _SPACES[dialect]:
        allowed = " or ".join(_SPACES[dialect])
        return f"cannot {verb} the '{value.space}' address space; use {allowed} memory"
    if dialect != "wgpu" and not isinstance(value.store, t.Array):
        return f"expects a pointer to an array, not to '{value.store.describe()}' (pass '&array', and the element " \
               "offset as 'offset')"
    if storing and value.access == "read":
        return "cannot store a matrix through a read-only pointer; declare the buffer 'var<storage, read_write>'"
    return None


def _load(count: int, dialect: str):
    # subgroupMatrixLoad(p, offset, [col_major,] stride); coopLoad(p, [stride])
    if dialect == "wgpu":
        return 0, range(1, count), False
    return 0, (1, count - 1), False


def _store(count: int, dialect: str):
    # subgroupMatrixStore(p, offset, value, [col_major,] stride); coopStore(m, p, [stride])
    if dialect == "wgpu":
        return 1, range(2, count), True
    return 0, (1, count - 1), True


_LAYOUTS = {builtin.name: {LOAD: _load, STORE: _store}[builtin.memory]
            for dialect in DIALECTS for builtin in dialect.builtins if builtin.memory in (LOAD, STORE)}
