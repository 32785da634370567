"""Blame for wrong results: which invocation last stored each output element, and at which line.

The kernel is instrumented as WGSL text, before any lowering, so that every backend (the emulation,
wgpu-native, Dawn through the translation to Tint's dialect) runs the same record keeping: a hidden
storage buffer holds two words per element of each written binding, and next to every store into
such a binding the invocation writes (store site, its local invocation index) and its workgroup.
Plain stores mark the element their index names (every component of a stored vector); matrix stores
mark every element of the stored tile, placed from the call's offset, stride and majorness and the
matrix's shape, so the record names the subgroup that stored the tile. Reading the record against
the check's wrong elements is coop_lsp.runner.blame_report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from ..semantic import types as t
from ..semantic.builtins.language import DIALECT, STORE, call_parameters
from ..syntax import nodes as sn
from .kernel import KernelError, KernelModule, called_name

PREFIX = "coop_blame_"
BUFFER = PREFIX + "record"
BLAME_OUTPUT = "(blame record)"
WORDS = 2  # per element: (site + 1) | local index << 16, then the flat workgroup index
_MATRIX_STORES = {b.name for d in DIALECT.values() for b in d.builtins if b.memory == STORE}
# naga stores column-major, its T form row-major; Tint and the draft name the majorness themselves.
_NAGA_ROW_MAJOR = {"coopStoreT"}
_NAGA = {b.name for b in DIALECT["wgpu"].builtins}
_COMPONENTS = {c: i for i, c in enumerate("xyzw")} | {c: i for i, c in enumerate("rgba")}


@dataclass(frozen=True)
class StoreSite:
    id: int
    line: int  # 1-based, in the kernel as written
    column: int
    kind: str  # "store" (an assignment) or the matrix builtin's name
    binding: str
    text: str


@dataclass
class BlamePlan:
    text: str  # the instrumented kernel
    sites: list[StoreSite]
    bases: dict[str, int]  # binding name -> its first slot in the record
    counts: dict[str, int]  # binding name -> its elements (the kernel's scalars)
    dispatch: tuple
    slot: tuple = ()  # the hidden binding, as execute's binding tuples hold them
    notes: list[str] = field(default_factory=list)
    lanes: int | None = None  # the subgroup size, where the run knows it before running (the emulation)


def instrument(module: KernelModule, entry_name: str, outputs: dict, dispatch: tuple) -> BlamePlan:
    """`outputs`: binding name -> element count (in the kernel's scalars) of every binding the kernel writes."""
    import numpy as np

    data = module.data
    decls = {b.name: b for b in module.bindings if b.name in outputs}
    bases, total = {}, 0
    for name in decls:
        bases[name] = total
        total += outputs[name]
    if not decls or total == 0:
        raise KernelError("blame: the kernel writes no storage binding")
    if total * WORDS >= 2 ** 31:
        raise KernelError(f"blame: {total} output elements are too many to record")
    entry = next((e for e in module.entry_points if e.name == entry_name), None)
    if entry is None:
        raise KernelError(f"blame: no entry point '{entry_name}'")
    edits: list[tuple[int, str]] = []
    sites: list[StoreSite] = []
    notes: list[str] = []

    def text_of(node) -> str:
        return data[node.start_byte:node.end_byte].decode()

    def site(node, kind, binding) -> int:
        number = len(sites)
        if number >= 0xFFFF:
            raise KernelError("blame: more than 65534 store sites")
        sites.append(StoreSite(number, node.start_point[0] + 1, node.start_point[1] + 1, kind, binding,
                               " ".join(text_of(node).split())[:80]))
        return number

    def after(statement) -> int:
        following = statement.next_sibling
        if following is not None and following.type == ";":
            return following.end_byte
        return statement.end_byte

    def plain_store(statement, target):
        component = None
        if target is not None and target.type == "member_expression":
            letter = text_of(sn.member(target)) if sn.member(target) is not None else ""
            component = str(_COMPONENTS[letter]) if letter in _COMPONENTS else None
            target = sn.value(target) if component is not None else None
        elif target is not None and target.type == "index_expression" \
                and sn.value(target) is not None and sn.value(target).type == "index_expression":
            component = f"u32({text_of(sn.index(target))})"
            target = sn.value(target)
        if target is None or target.type != "index_expression":
            return
        base = sn.value(target)
        if base is None or base.type != "identifier" or text_of(base) not in decls:
            return
        name = text_of(base)
        decl = decls[name]
        if decl.element is None:
            notes.append(f"blame: stores into '{name}' ({decl.store}) are not recorded")
            return
        number = site(statement, "store", name)
        index = f"u32({text_of(sn.index(target))})"
        head = f"{PREFIX}mark({number}u, {bases[name]}u, {outputs[name]}u, "
        if decl.vector == 1:
            marks = f"{head}{index});"
        elif component is not None:
            marks = f"{head}{index} * {decl.vector}u + {component});"
        else:
            marks = "".join(f" {head}{index} * {decl.vector}u + {i}u);" for i in range(decl.vector))
        edits.append((after(statement), f" {{ {marks} }}"))

    def matrix_store(statement, call):
        name = called_name(module, call)
        if name not in _MATRIX_STORES:
            return
        args = sn.argument_nodes(call)
        params = call_parameters(name, len(args))
        if params is None:
            return
        at = dict(zip(params, args))
        pointer = at.get("p")
        inner = pointer
        while inner is not None and inner.type == "paren_expression" and inner.named_child_count == 1:
            inner = inner.named_children[0]
        operand = sn.operand(inner) if inner is not None and inner.type == "unary_expression" else None
        offset = at.get("offset")
        offset_text = f"u32({text_of(offset)})" if offset is not None else "0u"
        if operand is not None and operand.type == "index_expression" and name in _NAGA:
            offset_text = f"u32({text_of(sn.index(operand))})"
            operand = sn.value(operand)
        if operand is None or operand.type != "identifier" or text_of(operand) not in decls:
            return
        var = text_of(operand)
        value = at.get("value", at.get("m"))
        found = module.model.type_at(value.start_byte, value.end_byte, value.type) if value is not None else None
        found = t.store_type(found) if found is not None else None
        if isinstance(found, t.TypeOf):
            found = found.type
        if not isinstance(found, t.CoopMatrix):
            notes.append(f"blame: line {statement.start_point[0] + 1}: cannot tell the stored matrix's shape")
            return
        rows, cols = found.rows, found.columns
        if name in _NAGA:
            col_major = "false" if name in _NAGA_ROW_MAJOR else "true"
        elif "col_major" in at:
            col_major = f"bool({text_of(at['col_major'])})"
        else:
            function = sn.callee(call)
            template = sn.template(function) if function is not None and function.type == "templated_identifier" \
                else None
            col_major = "true" if template is not None and "col_major" in text_of(template) else "false"
        stride = at.get("stride")
        stride_text = f"u32({text_of(stride)})" if stride is not None else f"{rows}u"
        vector = decls[var].vector
        number = site(statement, name, var)
        # The offset and stride count the array's elements; a vector element holds `vector` scalars.
        edits.append((after(statement),
                      f" {{ {PREFIX}tile({number}u, {bases[var]}u, {outputs[var]}u, {offset_text} * {vector}u, "
                      f"{stride_text} * {vector}u, {rows}u, {cols}u, {col_major}); }}"))

    def walk(node):
        if node.type in ("assignment_statement", "compound_assignment_statement", "increment_statement",
                         "decrement_statement") and node.parent is not None \
                and node.parent.type == "compound_statement":
            # An increment's operand is the stored place, as an assignment's left side is.
            target = sn.left(node) if node.type.endswith("assignment_statement") else \
                (node.named_children[0] if node.named_children else None)
            plain_store(node, target)
        elif node.type == "call_statement" and node.parent is not None and node.parent.type == "compound_statement":
            call = node.named_children[0] if node.named_children else None
            if call is not None and call.type == "call_expression":
                matrix_store(node, call)
        for child in node.children:
            walk(child)

    walk(module.parsed.tree.root_node)
    if not sites:
        raise KernelError("blame: no store into an output binding was found")
    edits += _entry_edits(module, entry, dispatch, any(s.kind != "store" for s in sites))
    used = [b.binding for b in module.bindings if b.group == 0]
    binding = max(used) + 1 if used else 0
    header = (f"\n@group(0) @binding({binding}) var<storage, read_write> {BUFFER}: array<u32>;\n"
              f"var<private> {PREFIX}lid: u32;\nvar<private> {PREFIX}wg: u32;\n"
              f"var<private> {PREFIX}lane: u32;\nvar<private> {PREFIX}lanes: u32 = 1u;\n"
              f"fn {PREFIX}mark(site: u32, base: u32, count: u32, e: u32) {{\n"
              f"  if (e < count) {{\n"
              f"    {BUFFER}[{WORDS}u * (base + e)] = (site + 1u) | ({PREFIX}lid << 16u);\n"
              f"    {BUFFER}[{WORDS}u * (base + e) + 1u] = {PREFIX}wg;\n  }}\n}}\n"
              f"fn {PREFIX}tile(site: u32, base: u32, count: u32, offset: u32, stride: u32, rows: u32, cols: u32,"
              f" col_major: bool) {{\n"
              # The subgroup's lanes share the tile's elements: one mark per element, not one per lane.
              f"  for (var e = {PREFIX}lane; e < rows * cols; e += {PREFIX}lanes) {{\n"
              f"    let r = e / cols;\n    let c = e % cols;\n"
              f"    {PREFIX}mark(site, base, count, offset + select(r * stride + c, c * stride + r, col_major));\n"
              f"  }}\n}}\n")
    edits.append((_after_enables(module), header))
    text = data
    for at, insert in sorted(edits, key=lambda e: e[0], reverse=True):
        text = text[:at] + insert.encode() + text[at:]
    slot = (SimpleNamespace(group=0, binding=binding), SimpleNamespace(space="storage", access="read_write"),
            BLAME_OUTPUT, np.zeros(total * WORDS, np.uint32))
    return BlamePlan(text.decode(), sites, bases, dict(outputs), tuple(dispatch), slot, notes)


def _after_enables(module: KernelModule) -> int:
    """Where the module's directives end: declarations may not come before `enable`."""
    end = 0
    for child in module.parsed.tree.root_node.children:
        if child.type in ("enable_directive", "requires_directive", "diagnostic_directive"):
            end = child.end_byte
    return end


def _entry_edits(module: KernelModule, entry, dispatch, tiles: bool) -> list[tuple[int, str]]:
    """The entry point learns its local index and workgroup (and, where it stores matrix tiles, its lane and
    subgroup size): the kernel's own builtin parameters where it declares them, new ones otherwise."""
    data = module.data
    node = entry.node
    params = sn.parameters(node)
    names = {}
    for parameter in (params.named_children if params is not None else []):
        if parameter.type != "parameter":
            continue
        attributes = data[parameter.start_byte:parameter.end_byte].decode()
        for builtin in ("local_invocation_index", "workgroup_id", "subgroup_invocation_id", "subgroup_size"):
            if f"builtin({builtin})" in attributes.replace(" ", ""):
                names[builtin] = data[sn.name(parameter).start_byte:sn.name(parameter).end_byte].decode()
    added = ""
    if "local_invocation_index" not in names:
        names["local_invocation_index"] = PREFIX + "lid_in"
        added += f"@builtin(local_invocation_index) {PREFIX}lid_in: u32, "
    if "workgroup_id" not in names:
        names["workgroup_id"] = PREFIX + "wg_in"
        added += f"@builtin(workgroup_id) {PREFIX}wg_in: vec3<u32>, "
    lanes = ""
    if tiles:
        for builtin, own in (("subgroup_invocation_id", "lane_in"), ("subgroup_size", "lanes_in")):
            if builtin not in names:
                names[builtin] = PREFIX + own
                added += f"@builtin({builtin}) {PREFIX}{own}: u32, "
        lanes = f"{PREFIX}lane = {names['subgroup_invocation_id']}; {PREFIX}lanes = {names['subgroup_size']};\n"
    edits = []
    if added:
        opening = params.start_byte if params is not None else None
        if opening is None or data[opening:opening + 1] != b"(":
            raise KernelError(f"blame: cannot read the parameters of '{entry.name}'")
        edits.append((opening + 1, added))
    body = sn.body(node)
    if body is None:
        raise KernelError(f"blame: '{entry.name}' has no body")
    dx, dy = (list(dispatch) + [1, 1, 1])[:2]
    wg = names["workgroup_id"]
    edits.append((body.start_byte + 1,
                  # On lines of their own: a lowering may end its own prologue here with a line comment.
                  f"\n    {PREFIX}lid = {names['local_invocation_index']}; "
                  f"{PREFIX}wg = {wg}.x + {wg}.y * {dx}u + {wg}.z * {dx * dy}u;\n    {lanes}"))
    return edits
