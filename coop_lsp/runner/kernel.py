"""What the runner needs to know about a kernel module: dialect, entry points, bindings.

Reads the syntax tree and the semantic model; never executes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostic import Severity
from ..lint import lint_source
from ..semantic import types as t
from ..semantic.builtins.language import ENABLE_DIALECTS
from ..syntax import nodes as sn

MATRIX_ENABLES = ENABLE_DIALECTS  # enable -> dialect


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
    store: t.Type = t.ERROR  # the variable's store type, e.g. a struct filled field by field

    @property
    def struct(self) -> t.Struct | None:
        return self.store if isinstance(self.store, t.Struct) else None


@dataclass
class EntryPoint:
    name: str
    node: object
    # @workgroup_size as the semantic model evaluated it: an int, the name of the override it is, or None.
    workgroup_size: tuple = (1, 1, 1)
    subgroup_size: int | None = None  # @subgroup_size(N) where the kernel pins it
    workgroup_size_spans: tuple = ()  # where each written @workgroup_size argument is, for messages

    def invocations(self, overrides: dict | None = None) -> int | None:
        """Invocations per workgroup, with the run's override values; None where unknown."""
        total = 1
        for value in self.workgroup_size:
            if isinstance(value, str):
                value = (overrides or {}).get(value)
            if not isinstance(value, (int, float)):
                return None
            total *= int(value)
        return total


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
    # The lint of `text` that this module was read from: a run hands it on (RunReport.lint), so that
    # whatever reads the kernel after the run (the performance advice) never lints it again.
    result: object = None

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
    name = sn.name(node)
    return data[name.start_byte:name.end_byte].decode() if name is not None else ""


def called_name(module: "KernelModule", call) -> str | None:
    """The name a call expression calls (`f(...)`, `f<T>(...)`), or None."""
    function = sn.callee(call)
    if function is None:
        return None
    name = sn.name(function) if function.type == "templated_identifier" else function
    return module.node_text(name) if name is not None else None


def attribute_args(node) -> list:
    arguments = sn.arguments(node)
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


def load_kernel(text: str, tolerate: frozenset[str] = frozenset()) -> KernelModule:
    """The kernel as the linter sees it: every value (bindings, workgroup and subgroup sizes) comes from the
    semantic model, so any module coop-lint accepts can be described and run. `tolerate`: codes of errors
    that do not stop loading (the divergence measurement runs kernels U002 rejects, to check U002)."""
    result = lint_source(text)
    errors = [d for d in result.diagnostics if d.severity == Severity.ERROR and d.code not in tolerate]
    if result.parsed is None or result.model is None:
        raise KernelError("the kernel could not be parsed")
    if errors:
        first = errors[0]
        line = result.source.line_of(first.span.start) + 1
        raise KernelError(f"the kernel has {len(errors)} error(s); first: line {line}: {first.code} {first.message}")
    model = result.model
    entry_points: list[EntryPoint] = []
    bindings: list[BindingDecl] = []
    for symbol in model.symbols:
        node = symbol.declaration
        if symbol.kind == "function" and symbol.stage == "compute":
            entry_points.append(EntryPoint(symbol.name, node, symbol.workgroup_size or (1, 1, 1),
                                           symbol.subgroup_size, symbol.workgroup_size_spans))
        elif symbol.kind == "var" and symbol.group is not None and symbol.binding is not None:
            bindings.append(_binding_of(symbol))
    enables = set(model.enables)
    dialects = {MATRIX_ENABLES[e] for e in enables if e in MATRIX_ENABLES}
    dialect = sorted(dialects)[0] if dialects else "plain"
    order = lambda item: item.node.start_byte  # noqa: E731 - declaration order, as the module reads
    entry_points.sort(key=order)
    return KernelModule(text, result.source.data, result.parsed, model, dialect, entry_points, bindings, enables,
                        result)


def _binding_of(symbol) -> BindingDecl:
    store = symbol.type.store if isinstance(symbol.type, t.Reference) else symbol.type
    element, vector = None, 1
    if isinstance(store, t.Array):
        inner = store.element
        if isinstance(inner, t.Scalar):
            element = inner.name
        elif isinstance(inner, t.Vector):
            element, vector = inner.element.name, inner.size
    elif isinstance(store, t.Scalar):
        element = store.name
    return BindingDecl(symbol.group, symbol.binding, symbol.name, symbol.space, symbol.access or "read", element,
                       vector, symbol.declaration.start_point[0] + 1, store)
