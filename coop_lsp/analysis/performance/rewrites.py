"""Mechanical rewrites behind `coop-lint run --explain --try`: a finding's fix as edits to the kernel.

Each rewrite returns the edits, or the reason it does not apply to this kernel. The caller (runner/trial.py)
lints the result again and runs it only when it is still a valid kernel and the finding is gone: a rewrite
here never has to be right about everything, but it must refuse rather than guess, because the measured
speed-up is attributed to the finding.

  - unroll (P003): every for loop around an indexed matrix array whose trip count is a small constant
    becomes one block per trip with the loop variable as a function-scope const, so each index is a
    constant expression;
  - accumulate in f32 (T050): every spelling of an f16 result matrix type becomes f32 at once, since
    accumulators, their initial values and what reads them must agree.
Padding of staged rows (P005) is the finding's own quick fix; bounds checks (P007) are a device setting.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ...core.diagnostic import Edit
from ...core.text import SourceText, Span
from ...semantic import types as t
from ...semantic.model import SemanticModel
from ...syntax import nodes as sn
from .facts import LOOPS, ModuleFacts, collect, descendants, enclosing_loop

# More copies than this and the module grows past what a driver unrolls gladly; the finding's fix is then
# a change of structure, not a copy.
MAX_TRIPS = 16
_RESULT_TYPES = ("subgroup_matrix_result",)


@dataclass(frozen=True)
class Rewrite:
    edits: tuple[Edit, ...] = ()
    reason: str = ""  # why it does not apply; empty when `edits` is the rewrite

    @property
    def applies(self) -> bool:
        return bool(self.edits) and not self.reason


def unroll(root: ts.Node, source: SourceText, model: SemanticModel, spans: list[Span]) -> Rewrite:
    """Unrolls the constant-trip loops whose variables index the matrix arrays at `spans` (P003's
    findings: index expressions)."""
    facts = collect(root, source, model)
    loops: dict[int, ts.Node] = {}
    functions = {}
    for span in spans:
        node = root.descendant_for_byte_range(span.start, span.end)
        while node is not None and node.type != "function_declaration":
            node = node.parent
        if node is None:
            return Rewrite(reason=f"no function around byte {span.start}")
        functions[node.id] = node
    # Every matrix array indexed by a non-constant in those functions, not only the first one each
    # finding names: an array left indexed by a loop variable keeps the whole array in memory.
    sites = [n for function in functions.values() for n in descendants(function)
             if n.type == "index_expression" and _indexes_matrix_array(facts, n)]
    for node in sites:
        names = {facts.text(n) for n in descendants(sn.index(node)) if n.type == "identifier"}
        loop = enclosing_loop(node)
        while loop is not None:
            variable = _loop_variable(facts, loop)
            if variable in names:
                if facts.trip_count(loop) is None:
                    return Rewrite(reason=f"the loop over '{variable}' (line {_line(facts, loop)}) has no constant "
                                          "trip count")
                loops[loop.id] = loop
            loop = enclosing_loop(loop)
    if not loops:
        return Rewrite(reason="no loop variable in the indices: nothing to unroll")
    for loop in loops.values():
        reason = _refusal(facts, loop)
        if reason:
            return Rewrite(reason=reason)
    marked = {loop.id for loop in loops.values()}
    outermost = [loop for loop in loops.values() if not _inside_marked(loop, marked)]
    return Rewrite(tuple(Edit(facts.span(loop), _unrolled(facts, loop, marked)) for loop in outermost))


def _indexes_matrix_array(facts: ModuleFacts, node: ts.Node) -> bool:
    value, index = sn.value(node), sn.index(node)
    if value is None or index is None or facts.constant(index) is not None:
        return False
    kind = facts.type_of(value)
    if isinstance(kind, (t.Reference, t.Pointer)):
        kind = kind.store
    return isinstance(kind, t.Array) and isinstance(kind.element, t.CoopMatrix)


def _loop_variable(facts: ModuleFacts, loop: ts.Node) -> str | None:
    initializer = sn.initializer(loop) if loop.type == "for_statement" else None
    name = sn.name(initializer) if initializer is not None else None
    return facts.text(name) if name is not None else None


def _line(facts: ModuleFacts, node: ts.Node) -> int:
    return facts.source.position(node.start_byte).line + 1


def _refusal(facts: ModuleFacts, loop: ts.Node) -> str:
    trips = facts.trip_count(loop)
    if trips is None or trips > MAX_TRIPS:
        return f"the loop at line {_line(facts, loop)} runs {trips} times, more than {MAX_TRIPS} copies"
    if _value_type(facts, loop) is None:
        return f"the loop variable at line {_line(facts, loop)} is neither u32 nor i32"
    body = sn.body(loop)
    for node in descendants(body) if body is not None else ():
        # break and continue of this loop have no meaning once it is a row of blocks
        owner = _owning_loop(node) if node.type in ("break_statement", "continue_statement",
                                                    "break_if_statement") else None
        if owner is not None and owner.id == loop.id:
            return f"the loop at line {_line(facts, loop)} has a {node.type.split('_')[0]}: unrolling would change it"
    return ""


def _owning_loop(node: ts.Node) -> ts.Node | None:
    node = node.parent
    while node is not None and node.type not in LOOPS + ("switch_statement", "function_declaration"):
        node = node.parent
    return node


def _inside_marked(loop: ts.Node, marked: set[int]) -> bool:
    outer = enclosing_loop(loop)
    while outer is not None:
        if outer.id in marked:
            return True
        outer = enclosing_loop(outer)
    return False


def _value_type(facts: ModuleFacts, loop: ts.Node) -> str | None:
    initializer = sn.initializer(loop)
    declared = sn.declared_type(initializer)
    if declared is not None:
        kind = facts.text(declared).replace(" ", "")
        return kind if kind in ("u32", "i32") else None
    start = facts.text(sn.value(initializer))
    if start.endswith("u"):
        return "u32"
    return "i32"  # an abstract int initializer makes the var an i32


def _unrolled(facts: ModuleFacts, loop: ts.Node, marked: set[int]) -> str:
    """One block per trip, each binding the loop variable to its value as a const; marked loops inside the
    body are unrolled in each copy."""
    initializer, body = sn.initializer(loop), sn.body(loop)
    name = _loop_variable(facts, loop)
    kind = _value_type(facts, loop)
    start = facts.constant(sn.value(initializer))
    update = sn.update(loop)
    step = 1 if update.type == "increment_statement" else facts.constant(sn.right(update))
    inner = _rendered(facts, body, marked)[1:-1]  # without the body's braces
    suffix = "u" if kind == "u32" else "i"
    line_start = facts.source.data.rfind(b"\n", 0, loop.start_byte) + 1
    indent = facts.source.data[line_start:loop.start_byte].decode("utf-8")
    indent = indent[:len(indent) - len(indent.lstrip())] + "    "
    copies = [f"{{\n{indent}const {name}: {kind} = {start + trip * step}{suffix};{inner}}}"
              for trip in range(facts.trip_count(loop))]
    return " ".join(copies) if copies else "{}"


def _rendered(facts: ModuleFacts, node: ts.Node, marked: set[int]) -> str:
    """The text of `node` with the marked loops inside it unrolled."""
    pieces, at = [], node.start_byte
    for loop in _marked_children(node, marked):
        pieces.append(facts.source.data[at:loop.start_byte].decode("utf-8"))
        pieces.append(_unrolled(facts, loop, marked))
        at = loop.end_byte
    pieces.append(facts.source.data[at:node.end_byte].decode("utf-8"))
    return "".join(pieces)


def _marked_children(node: ts.Node, marked: set[int]) -> list[ts.Node]:
    """The outermost marked loops strictly inside `node`, in order."""
    out = []
    for child in node.named_children:
        if child.id in marked:
            out.append(child)
        else:
            out.extend(_marked_children(child, marked))
    return out


def accumulate_in_f32(root: ts.Node, source: SourceText) -> Rewrite:
    """Every `subgroup_matrix_result<f16, ...>` becomes `<f32, ...>`."""
    edits = []
    for node in descendants(root):
        if node.type != "identifier" or source.slice(Span(node.start_byte, node.end_byte)) not in _RESULT_TYPES:
            continue
        argument = _first_template_argument(node)
        if argument is not None and source.slice(Span(argument.start_byte, argument.end_byte)) == "f16":
            edits.append(Edit(Span(argument.start_byte, argument.end_byte), "f32"))
    if not edits:
        return Rewrite(reason="no f16 result matrix type is spelled out (an alias from elsewhere, or the wgpu "
                              "dialect's coop_mat types): change the accumulator's type by hand")
    return Rewrite(tuple(edits))


def _first_template_argument(name: ts.Node) -> ts.Node | None:
    """The first argument of `name<...>`: the template list follows the name as its sibling."""
    template = name.next_named_sibling
    if template is None or template.type != "template_list" or not template.named_children:
        return None
    return template.named_children[0]
