"""What the checker learns about a module: symbols, their types, and where they are used.

The IDE layer reads this model for hover, go-to-definition and inlay hints;
it never re-derives types itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.text import Span
from . import types as t


@dataclass(eq=False)
class Symbol:
    name: str
    kind: str  # var, let, const, override, parameter, function, struct, alias
    span: Span  # of the declaring identifier
    declaration: object = None  # the tree-sitter node of the whole declaration
    type: t.Type = t.ERROR
    value: object = None  # the constant value of a const (int, float, bool or None)
    components: tuple | None = None  # a const vector's component values, when known
    # An override's default (its constant initializer's value), which a pipeline uses unless it sets one.
    default: object = None
    space: str = ""  # address space of a var
    access: str = ""  # access mode of a var
    # Functions: parameter types and return type, filled in when the signature is resolved.
    parameters: tuple[t.Type, ...] = ()
    return_type: t.Type | None = None
    stage: str | None = None  # an entry point's shader stage
    must_use: bool = False  # a function declared '@must_use'
    resolved: bool = False
    resolving: bool = False
    # Resource variables: the values of @group and @binding (const-expressions, evaluated).
    group: int | None = None
    binding: int | None = None
    # Entry points (their stage is above): @workgroup_size's three values (an int, the name of the override
    # it depends on, or None where unknown; absent arguments are 1); @subgroup_size's value where pinned.
    workgroup_size: tuple = ()
    # Where each @workgroup_size argument is written (for messages about a value the model could not fix).
    workgroup_size_spans: tuple[Span, ...] = ()
    subgroup_size: int | None = None
    # Shader IO. Functions: per parameter, its @builtin value (None without one) and whether it has a
    # @location. Parameters (the local symbols): the same two facts of their own.
    inputs: tuple[tuple[str | None, bool], ...] = ()
    io_builtin: str | None = None
    io_location: bool = False


@dataclass(frozen=True)
class CallTarget:
    """What a builtin call's name resolved to: its table record, the dialect whose table holds it (None for
    core builtins), and the overload that matched (None when no overload matched or the check stopped
    before matching). `available` is False for a builtin of another dialect than the module's, which the
    checker reports; the analyses still see which builtin the name means."""

    builtin: object  # builtins.table.Builtin
    dialect: str | None = None
    overload: object = None  # builtins.signature.Overload
    available: bool = True


@dataclass
class Scope:
    parent: "Scope | None" = None
    symbols: dict[str, Symbol] = field(default_factory=dict)

    def lookup(self, name: str) -> Symbol | None:
        scope: Scope | None = self
        while scope is not None:
            symbol = scope.symbols.get(name)
            if symbol is not None:
                return symbol
            scope = scope.parent
        return None


@dataclass
class SemanticModel:
    """Per-node facts, keyed by (start_byte, end_byte, node type) so they survive node object identity."""

    expression_types: dict[tuple[int, int, str], t.Type] = field(default_factory=dict)
    references: dict[tuple[int, int], Symbol] = field(default_factory=dict)
    symbols: list[Symbol] = field(default_factory=list)
    enables: set[str] = field(default_factory=set)
    matrix_dialects: set[str] = field(default_factory=set)
    # Builtin calls: the (start, end) of the called name -> CallTarget. User-function calls are in
    # `references` (the name's Symbol), type constructors in `expression_types` (the call's type).
    builtin_calls: dict[tuple[int, int], CallTarget] = field(default_factory=dict)

    def type_at(self, start: int, end: int, kind: str) -> t.Type | None:
        return self.expression_types.get((start, end, kind))

    def symbol_at(self, start: int, end: int) -> Symbol | None:
        return self.references.get((start, end))

    def call_target(self, start: int, end: int) -> "CallTarget | Symbol | None":
        """What the call whose name spans (start, end) calls: a CallTarget for a builtin, the function's
        Symbol for a user function, None for anything else (a type constructor: see `type_at`)."""
        found = self.builtin_calls.get((start, end))
        if found is not None:
            return found
        symbol = self.references.get((start, end))
        return symbol if symbol is not None and symbol.kind == "function" else None
