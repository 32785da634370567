"""K loops whose staging waits for memory while the matrix units idle (P009).

One iteration of such a loop, with the functions it calls read in place:

    copy a slice from storage into workgroup memory   (the read has to arrive before the write)
    workgroupBarrier()
    load tiles of that slice, multiply
    workgroupBarrier()

Nothing is in flight while the subgroups multiply: every slice's global reads start after the previous
slice's multiplies and finish before the next ones. The two pipelined forms both move the write into
workgroup memory after the multiplies: a register prefetch (read the next slice into registers before
the multiplies, write it after them, one buffer and two barriers a step: examples/chromium/
gemm_pipelined.wgsl) or a second buffer (write the other buffer while this one is multiplied from). A
write before the multiplies with no barrier in between is a second buffer too (the multiplies cannot be
reading what is being written). So the pattern is: some write of a staged variable comes before the
iteration's first multiply with a barrier in between, after a storage read, and no staged variable is
written after the last multiply.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ...semantic import types as t
from ...syntax import nodes as sn
from .facts import LOADS, MULTIPLIES, ModuleFacts, callee_name, descendants

BARRIER = "workgroupBarrier"
# How deep the walk follows calls into user functions (ggml stages through two levels).
CALL_DEPTH = 4


@dataclass(frozen=True)
class Event:
    kind: str  # "read" (storage), "write" (workgroup), "barrier", "load" (matrix, from workgroup), "multiply"
    node: ts.Node
    variable: str = ""  # the workgroup variable written or loaded from


@dataclass(frozen=True)
class Unpipelined:
    loop: ts.Node
    write: Event  # the last staging write before the multiplies
    barrier: Event  # the barrier between it and the multiplies
    staged: tuple[str, ...]  # workgroup variables the multiplies load from


def events(facts: ModuleFacts, node: ts.Node, depth: int = 0) -> list[Event]:
    """What one pass over `node` does, in execution order, with user functions' bodies read in place."""
    out: list[Event] = []
    if node.type in ("assignment_statement", "compound_assignment_statement"):
        left, right = sn.left(node), sn.right(node)
        if right is not None:
            out.extend(events(facts, right, depth))
        if left is not None:
            for child in left.named_children:
                out.extend(events(facts, child, depth))  # the index of `x[i] = ...` is read
            variable = facts.root_variable(left)
            if variable is not None and getattr(variable, "space", "") == "workgroup":
                out.append(Event("write", node, variable.name))
        return out
    if node.type == "call_expression":
        arguments = sn.arguments(node)
        if arguments is not None:
            out.extend(events(facts, arguments, depth))
        called = callee_name(node, facts.source)
        name = called[0] if called is not None else ""
        if name == BARRIER:
            out.append(Event("barrier", node))
        elif name in MULTIPLIES:
            out.append(Event("multiply", node))
        elif name in LOADS:
            call = next((c for c in facts.calls if c.node.id == node.id), None)
            memory = facts.matrix_memory(call) if call is not None else None
            if memory is not None and memory[0] == "workgroup":
                out.append(Event("load", node, memory[2].name))
        elif name in facts.functions and depth < CALL_DEPTH:
            body = sn.body(facts.functions[name])
            if body is not None:
                out.extend(events(facts, body, depth + 1))
        return out
    if node.type == "index_expression" and _reads_storage(facts, node):
        out.append(Event("read", node))
    for child in node.named_children:
        out.extend(events(facts, child, depth))
    return out


def _reads_storage(facts: ModuleFacts, node: ts.Node) -> bool:
    kind = facts.type_of(node)
    parent = node.parent
    if parent is not None and parent.type == "index_expression" and sn.value(parent) == node:
        return False  # `a[i][j]`: counted once, at the outer access
    return isinstance(kind, t.Reference) and kind.space == "storage"


def unpipelined_loops(facts: ModuleFacts) -> list[Unpipelined]:
    out = []
    loop_types = ("for_statement", "while_statement", "loop_statement")
    for function in facts.functions.values():
        for loop in (n for n in descendants(function) if n.type in loop_types):
            body = sn.body(loop) or loop
            found = _unpipelined(events(facts, body))
            if found is not None:
                write, barrier, staged = found
                out.append(Unpipelined(loop, write, barrier, staged))
    return out


def pipelined_staged(facts: ModuleFacts) -> set[str]:
    """Workgroup variables that a loop multiplies from and writes again after its last multiply: the next
    slice staged while this one is used (a register prefetch or a second buffer)."""
    out: set[str] = set()
    loop_types = ("for_statement", "while_statement", "loop_statement")
    for function in facts.functions.values():
        for loop in (n for n in descendants(function) if n.type in loop_types):
            sequence = events(facts, sn.body(loop) or loop)
            multiplies = [i for i, e in enumerate(sequence) if e.kind == "multiply"]
            if not multiplies:
                continue
            staged = {e.variable for e in sequence if e.kind == "load"}
            out |= {e.variable for e in sequence[multiplies[-1] + 1:] if e.kind == "write" and e.variable in staged}
    return out


def _unpipelined(sequence: list[Event]):
    multiplies = [i for i, e in enumerate(sequence) if e.kind == "multiply"]
    staged = tuple(dict.fromkeys(e.variable for e in sequence if e.kind == "load"))
    if not multiplies or not staged:
        return None
    first, last = multiplies[0], multiplies[-1]
    writes_before = [i for i, e in enumerate(sequence[:first]) if e.kind == "write" and e.variable in staged]
    if not writes_before:
        return None
    if any(e.kind == "write" and e.variable in staged for e in sequence[last + 1:]):
        return None  # the next slice is written after the multiplies: a register prefetch or a second buffer
    write = writes_before[-1]
    barriers = [i for i in range(write + 1, first) if sequence[i].kind == "barrier"]
    if not barriers:
        return None  # written while the multiplies run: they read another buffer
    if not any(e.kind == "read" for e in sequence[:write]):
        return None  # nothing read from storage before it: not a copy of a slice
    return sequence[write], sequence[barriers[0]], staged

