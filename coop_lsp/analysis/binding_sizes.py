"""The least bytes a storage binding must hold for the subgroup-matrix loads and stores through it.

The gpuweb subgroup-matrix draft (proposals/subgroup-matrix.md, "Load/Store functions" and
"Validation"; gpuweb #6310 and #6334) requires the array a load or store points into to hold at least
MinStorageSize(T) = M x N x SizeOf(C) bytes, M x N the matrix's rows and columns and C its component
type; for a storage buffer this is a minimum binding size, which Dawn checks when the bind group is
used. A fixed-size array that is too small is a shader-creation error (T016); a runtime-sized one can
only be checked against the buffer a run binds (runner/binding_sizes.py) or shown to the author (hover).

Only Tint's and the proposal's whole-array pointers (`&A`) are read here: naga's loads take a pointer
to one element (`&a[i]`), which the draft's rule does not describe.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ..semantic import types as t
from ..semantic.builtins.language import DIALECT, LOAD, STORE, matrix_builtin_names, parameter_index
from ..syntax import nodes as sn

# Tint and the proposal spell their loads and stores alike; the table says which calls they are.
_CALLS = {builtin.name: builtin for builtin in DIALECT["chromium"].builtins if builtin.memory in (LOAD, STORE)}
assert set(_CALLS) == set(matrix_builtin_names(LOAD, STORE, compiler="tint"))


@dataclass(frozen=True)
class MatrixAccess:
    group: int
    binding: int
    variable: str
    call: str
    line: int  # 1-based
    matrix: t.CoopMatrix

    @property
    def bytes(self) -> int:
        """MinStorageSize: rows x columns x the component's size."""
        return self.matrix.rows * self.matrix.columns * self.matrix.element.byte_size


def matrix_accesses(root: ts.Node, model, data: bytes) -> list[MatrixAccess]:
    """Each load or store of a subgroup matrix through `&binding`, in source order."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "call_expression":
            continue
        name = _called_name(node, data)
        builtin = _CALLS.get(name)
        arguments = sn.arguments(node)
        if builtin is None or arguments is None:
            continue
        args = [a for a in arguments.named_children if not a.is_extra]
        matrix = _matrix_of(model, node, builtin, args)
        symbol = _bound_variable(model, args[0], data) if args else None
        if matrix is None or symbol is None:
            continue
        found.append(MatrixAccess(symbol.group, symbol.binding, symbol.name, name, node.start_point[0] + 1, matrix))
    return sorted(found, key=lambda access: access.line)


def largest_per_binding(accesses: list[MatrixAccess]) -> dict[tuple[int, int], MatrixAccess]:
    """The access that sets each binding's minimum size (the first of the largest)."""
    worst: dict[tuple[int, int], MatrixAccess] = {}
    for access in accesses:
        slot = (access.group, access.binding)
        if slot not in worst or access.bytes > worst[slot].bytes:
            worst[slot] = access
    return worst


def _called_name(call: ts.Node, data: bytes) -> str | None:
    name = sn.called_name(call)
    return data[name.start_byte:name.end_byte].decode() if name is not None else None


def _matrix_of(model, call, builtin, args) -> t.CoopMatrix | None:
    if builtin.memory == LOAD:
        found = model.type_at(call.start_byte, call.end_byte, call.type)
    else:
        index = parameter_index(builtin, "value")
        if index is None or index >= len(args):
            return None
        value = args[index]
        found = model.type_at(value.start_byte, value.end_byte, value.type)
    found = t.store_type(found) if found is not None else None
    return found if isinstance(found, t.CoopMatrix) else None


def _bound_variable(model, pointer, data: bytes):
    """The binding `&name` points at, or None for any other pointer expression."""
    while pointer.type == "paren_expression" and pointer.named_child_count == 1:
        pointer = pointer.named_children[0]
    operator = sn.operator(pointer) if pointer.type == "unary_expression" else None
    if operator is None or data[operator.start_byte:operator.end_byte] != b"&":
        return None
    operand = sn.operand(pointer)
    if operand is None or operand.type != "identifier":
        return None
    symbol = model.symbol_at(operand.start_byte, operand.end_byte)
    if symbol is None or symbol.group is None or symbol.binding is None:
        return None
    return symbol
