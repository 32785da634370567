"""The smallest storage buffer a subgroup-matrix kernel may be run with.

The gpuweb subgroup-matrix draft (proposals/subgroup-matrix.md, "Load/Store
functions" and "Validation"; gpuweb #6310 and #6334) requires the array a
load or store points into to hold at least MinStorageSize(T) = M x N x
SizeOf(C) bytes, M x N the matrix's rows and columns and C its component
type; for a storage buffer this is a minimum binding size. Dawn enforces it
for its own dialect (wgpudawn 0.32: "Binding size (256) of [Buffer] is
smaller than the minimum binding size (512)" for a 16x16 f16 load), so the
runner refuses such a run description before anything runs, naming both
sizes, for Tint's and the proposal's kernels alike.

Only Tint's and the proposal's whole-array pointers (`&A`) are read here:
naga's loads take a pointer to one element (`&a[i]`), which the draft's rule
does not describe.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..semantic import types as t
from ..semantic.builtins.language import DIALECT, LOAD, STORE, matrix_builtin_names, parameter_index
from ..syntax import nodes as sn
from .kernel import KernelModule, called_name

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


def matrix_accesses(module: KernelModule) -> list[MatrixAccess]:
    """Each load or store of a subgroup matrix through `&binding`, in source order."""
    found, stack = [], [module.parsed.root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "call_expression":
            continue
        name = called_name(module, node)
        builtin = _CALLS.get(name)
        arguments = sn.arguments(node)
        if builtin is None or arguments is None:
            continue
        args = [a for a in arguments.named_children if not a.is_extra]
        matrix = _matrix_of(module, node, builtin, args)
        symbol = _bound_variable(module, args[0]) if args else None
        if matrix is None or symbol is None:
            continue
        found.append(MatrixAccess(symbol.group, symbol.binding, symbol.name, name, node.start_point[0] + 1, matrix))
    return sorted(found, key=lambda access: access.line)


def _matrix_of(module: KernelModule, call, builtin, args) -> t.CoopMatrix | None:
    if builtin.memory == LOAD:
        found = module.model.type_at(call.start_byte, call.end_byte, call.type)
    else:
        index = parameter_index(builtin, "value")
        if index is None or index >= len(args):
            return None
        value = args[index]
        found = module.model.type_at(value.start_byte, value.end_byte, value.type)
    found = t.store_type(found) if found is not None else None
    return found if isinstance(found, t.CoopMatrix) else None


def _bound_variable(module: KernelModule, pointer):
    """The binding `&name` points at, or None for any other pointer expression."""
    while pointer.type == "paren_expression" and pointer.named_child_count == 1:
        pointer = pointer.named_children[0]
    operator = sn.operator(pointer) if pointer.type == "unary_expression" else None
    if operator is None or module.node_text(operator) != "&":
        return None
    operand = sn.operand(pointer)
    if operand is None or operand.type != "identifier":
        return None
    symbol = module.model.symbol_at(operand.start_byte, operand.end_byte)
    if symbol is None or symbol.group is None or symbol.binding is None:
        return None
    return symbol


def too_small(module: KernelModule, sizes: dict[tuple[int, int], int]) -> list[tuple[MatrixAccess, int]]:
    """The accesses whose binding's buffer (`sizes`: bytes by (group, binding)) is below MinStorageSize,
    with that buffer's size; the largest need of each binding only."""
    worst: dict[tuple[int, int], MatrixAccess] = {}
    for access in matrix_accesses(module):
        slot = (access.group, access.binding)
        if slot in sizes and (slot not in worst or access.bytes > worst[slot].bytes):
            worst[slot] = access
    return [(access, sizes[slot]) for slot, access in worst.items() if sizes[slot] < access.bytes]
