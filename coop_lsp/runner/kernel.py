"""What the runner needs to know about a kernel module: dialect, entry points, bindings.

Reads the syntax tree and the semantic model; never executes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostic import Severity
from ..lint import lint_source
from ..semantic import types as t

MATRIX_ENABLES = {
    "chromium_experimental_subgroup_matrix": "chromium",
    "subgroup_matrix": "standard",
    "wgpu_cooperative_matrix": "wgpu",
}


class KernelError(ValueError):
    """The kernel cannot be run: it does not compile for us, or uses something the runner cannot handle."""


@dataclass(frozen=True)
class BindingDecl:
    group: int
    binding: int
    name: str
    space: str  # storage or uniform
    access: str  # read, read_write
    element: str | None  # scalar element name of array<E> / array<vecN<E>>; None for other types
    vector: int  # N for array<vecN<E>>, 1 otherwise
    line: int


@dataclass
class EntryPoint:
    name: str
    node: object
    workgroup_size: tuple[str, str, str]  # the attribute's argument texts ("1" where absent)


@dataclass
class KernelModule:
    text: str
    data: bytes
    parsed: object
    model: object
    dialect: str  # chromium, standard, wgpu, plain
    entry_points: list[EntryPoint]
    bindings: list[BindingDecl]
    enables: set[str]

    def node_text(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode()

    def entry_point(self, name: str | None) -> EntryPoint:
        if name is None:
            if len(self.entry_points) != 1:
                names = ", ".join(e.name for e in self.entry_points) or "none"
                raise KernelError(f"the kernel has {len(self.entry_points)} @compute entry points ({names}); "
                                  "name one with entry_point in the run description")
            return self.entry_points[0]
        for entry in self.entry_points:
            if entry.name == name:
                return entry
        names = ", ".join(e.name for e in self.entry_points) or "none"
        raise KernelError(f"no @compute entry point named '{name}' (the kernel has: {names})")


def attribute_name(data: bytes, node) -> str:
    name = node.child_by_field_name("name")
    return data[name.start_byte:name.end_byte].decode() if name is not None else ""


def attribute_args(node) -> list:
    arguments = node.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [c for c in arguments.named_children if c.type != "comment"]


def int_value(module_or_model, data: bytes, node) -> int | None:
    """The integer value of a literal or of a named const; None when it is anything else."""
    model = module_or_model
    if node.type == "int_literal":
        text = data[node.start_byte:node.end_byte].decode().rstrip("uUi")
        try:
            return int(text, 0)
        except ValueError:
            return None
    if node.type == "identifier" and model is not None:
        symbol = model.symbol_at(node.start_byte, node.end_byte)
        if symbol is not None and isinstance(symbol.value, int) and not isinstance(symbol.value, bool):
            return symbol.value
    if node.type == "paren_expression" and node.named_child_count == 1:
        return int_value(model, data, node.named_children[0])
    return None


def load_kernel(text: str) -> KernelModule:
    result = lint_source(text)
    errors = [d for d in result.diagnostics if d.severity == Severity.ERROR]
    if result.parsed is None or result.model is None:
        raise KernelError("the kernel could not be parsed")
    if errors:
        first = errors[0]
        line = result.source.line_of(first.span.start) + 1
        raise KernelError(f"the kernel has {len(errors)} error(s); first: line {line}: {first.code} {first.message}")
    data = result.source.data
    root = result.parsed.root
    model = result.model
    enables: set[str] = set()
    entry_points: list[EntryPoint] = []
    bindings: list[BindingDecl] = []
    for node in root.named_children:
        if node.type == "enable_directive":
            for ext in node.children_by_field_name("extension"):
                enables.add(data[ext.start_byte:ext.end_byte].decode())
        elif node.type == "function_declaration":
            attrs = [c for c in node.children if c.type == "attribute"]
            names = [attribute_name(data, a) for a in attrs]
            if "compute" in names:
                size = ["1", "1", "1"]
                for a in attrs:
                    if attribute_name(data, a) == "workgroup_size":
                        for i, arg in enumerate(attribute_args(a)[:3]):
                            size[i] = data[arg.start_byte:arg.end_byte].decode()
                name = node.child_by_field_name("name")
                entry_points.append(EntryPoint(data[name.start_byte:name.end_byte].decode(), node, tuple(size)))
        elif node.type == "variable_declaration":
            binding = _binding_of(data, model, node)
            if binding is not None:
                bindings.append(binding)
    dialects = {MATRIX_ENABLES[e] for e in enables if e in MATRIX_ENABLES}
    dialect = sorted(dialects)[0] if dialects else "plain"
    return KernelModule(text, data, result.parsed, model, dialect, entry_points, bindings, enables)


def _binding_of(data: bytes, model, node) -> BindingDecl | None:
    group = binding = None
    for a in (c for c in node.children if c.type == "attribute"):
        args = attribute_args(a)
        if attribute_name(data, a) == "group" and args:
            group = int_value(model, data, args[0])
        elif attribute_name(data, a) == "binding" and args:
            binding = int_value(model, data, args[0])
    if group is None or binding is None:
        return None
    name_node = node.child_by_field_name("name")
    name = data[name_node.start_byte:name_node.end_byte].decode()
    symbol = model.symbol_at(name_node.start_byte, name_node.end_byte)
    space = getattr(symbol, "space", "") or ""
    access = getattr(symbol, "access", "") or ""
    store = getattr(symbol, "type", None)
    if isinstance(store, t.Reference):
        space, access, store = store.space, store.access, store.store
    element, vector = None, 1
    if isinstance(store, t.Array):
        inner = store.element
        if isinstance(inner, t.Scalar):
            element = inner.name
        elif isinstance(inner, t.Vector):
            element, vector = inner.element.name, inner.size
    elif isinstance(store, t.Scalar):
        element = store.name
    if not space:
        template = node.child_by_field_name("template")
        words = data[template.start_byte + 1:template.end_byte - 1].decode().replace(" ", "").split(",") \
            if template is not None else []
        space = words[0] if words else ""
        access = words[1] if len(words) > 1 else "read"
    return BindingDecl(group, binding, name, space, access or "read", element, vector,
                       node.start_point[0] + 1)
