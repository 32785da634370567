"""What the checker learns about a module: symbols, their types, and where they are used.

The IDE layer reads this model for hover, go-to-definition and inlay hints;
it never re-derives types itself.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..core.text import Span
from . import types as t


@dataclass(eq=False, init=False)
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

    def __init__(self, name: str, kind: str, span: Span, declaration: object = None) -> None:
        # Only what each symbol has of its own (and `resolved`, read of every declaration before a step sets it):
        # every other field's default is the class's attribute (dataclass keeps it there), read from there until
        # a step sets the field. Every module-scope declaration makes a new symbol at every version, as does each
        # local of a checked body, and storing all twenty-four fields was most of what a declaration cost.
        self.name, self.kind, self.span, self.declaration, self.resolved = name, kind, span, declaration, False


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


_MAKING = threading.Lock()


class Replayed:
    """The model entries of one function body replayed from an earlier check: the record's tables as they
    were recorded, `delta` bytes from where they are now. Kept whole rather than copied entry by entry, so
    that replaying a body costs the same whatever its size."""

    __slots__ = ("start", "end", "delta", "types", "references", "calls", "module", "at", "_make_locals", "_locals")

    def __init__(self, start: int, end: int, delta: int, types: dict, references: dict, calls: dict,
                 make_locals: tuple, module: dict, at: int) -> None:
        self.start, self.end, self.delta = start, end, delta  # the function's bytes in this version
        self.types, self.calls = types, calls
        # (start, end) as recorded -> (True, index in `locals`) or (False, the name of a module declaration)
        self.references = references
        self.module = module
        self.at = at  # where its locals come in the model's symbols: after this many written ones
        # The body's local symbols are made on first need: most versions are linted without anyone asking.
        # (`make_locals`: (function, recorded locals, root), called with `delta` between; a tuple rather
        # than a closure, which cost every replayed body of every version a function object)
        self._make_locals, self._locals = make_locals, None

    @property
    def locals(self) -> list[Symbol]:
        if self._locals is None:
            # The server's threads may ask at once: the symbols are made once, so that everyone holds the same.
            with _MAKING:
                if self._locals is None:
                    make, recorded, root = self._make_locals
                    self._locals, self._make_locals = make(recorded, self.delta, root), None
        return self._locals

    def symbol(self, target: tuple) -> Symbol:
        local, which = target
        return self.locals[which] if local else self.module[which]


@dataclass
class SemanticModel:
    """Per-node facts, keyed by (start_byte, end_byte, node type) so they survive node object identity.

    The checker writes to the `written_*` tables; the bodies it replays add `Replayed` segments. Read
    both through the methods: a lookup never copies, and iteration yields an entry once (what the checker
    wrote over a replayed entry wins, as it came later)."""

    written_types: dict[tuple[int, int, str], t.Type] = field(default_factory=dict)
    written_references: dict[tuple[int, int], Symbol] = field(default_factory=dict)
    # Every module-scope declaration, and the parameters and locals of the bodies checked (not replayed).
    written_symbols: list[Symbol] = field(default_factory=list)
    enables: set[str] = field(default_factory=set)
    matrix_dialects: set[str] = field(default_factory=set)
    # Builtin calls: the (start, end) of the called name -> CallTarget. User-function calls are in the
    # references (the name's Symbol), type constructors in the expression types (the call's type).
    written_calls: dict[tuple[int, int], CallTarget] = field(default_factory=dict)
    replayed: list[Replayed] = field(default_factory=list)  # in source order
    _starts: list[int] = field(default_factory=list, repr=False)  # each segment's start, for bisect
    _symbols: tuple = field(default=(None, None), repr=False)  # (what it was made from, `symbols`)

    @property
    def symbols(self) -> list[Symbol]:
        """Every symbol, in the order the checker met them: replayed bodies' locals come where the body
        was replayed (and are made now, if no one asked for them before)."""
        made_from, found = self._symbols
        if made_from != (len(self.written_symbols), len(self.replayed)):
            if not self.replayed:
                found = self.written_symbols
            else:
                found, written, taken = [], self.written_symbols, 0
                for segment in sorted(self.replayed, key=lambda s: s.at):
                    found.extend(written[taken:segment.at])
                    found.extend(segment.locals)
                    taken = segment.at
                found.extend(written[taken:])
            self._symbols = ((len(self.written_symbols), len(self.replayed)), found)
        return found

    def add_replayed(self, segment: Replayed) -> None:
        starts, start = self._starts, segment.start
        if not starts or starts[-1] <= start:
            # (the checker replays bodies in source order: where bisect_right would put it)
            starts.append(start)
            self.replayed.append(segment)
            return
        index = bisect.bisect_right(starts, start)
        starts.insert(index, start)
        self.replayed.insert(index, segment)

    def _segment(self, start: int) -> Replayed | None:
        """The replayed body whose entries may include one starting at `start`."""
        index = bisect.bisect_right(self._starts, start) - 1
        if index < 0:
            return None
        segment = self.replayed[index]
        return segment if start <= segment.end else None

    # ------------------------------------------------------------ lookups
    def type_at(self, start: int, end: int, kind: str) -> t.Type | None:
        found = self.written_types.get((start, end, kind))
        if found is None and self.replayed:
            segment = self._segment(start)
            if segment is not None:
                delta = segment.delta
                found = segment.types.get((start - delta, end - delta, kind))
        return found

    def symbol_at(self, start: int, end: int) -> Symbol | None:
        found = self.written_references.get((start, end))
        if found is None and self.replayed:
            segment = self._segment(start)
            if segment is not None:
                target = segment.references.get((start - segment.delta, end - segment.delta))
                if target is not None:
                    found = segment.symbol(target)
        return found

    def builtin_call(self, start: int, end: int) -> CallTarget | None:
        """The builtin whose name spans (start, end) in a call."""
        found = self.written_calls.get((start, end))
        if found is None and self.replayed:
            segment = self._segment(start)
            if segment is not None:
                found = segment.calls.get((start - segment.delta, end - segment.delta))
        return found

    def call_target(self, start: int, end: int) -> "CallTarget | Symbol | None":
        """What the call whose name spans (start, end) calls: a CallTarget for a builtin, the function's
        Symbol for a user function, None for anything else (a type constructor: see `type_at`)."""
        found = self.builtin_call(start, end)
        if found is not None:
            return found
        symbol = self.symbol_at(start, end)
        return symbol if symbol is not None and symbol.kind == "function" else None

    # ------------------------------------------------------------ every entry (in no particular order)
    def expression_types(self) -> Iterator[tuple[tuple[int, int, str], t.Type]]:
        written = self.written_types
        yield from written.items()
        for segment in self.replayed:
            delta = segment.delta
            for (start, end, kind), value in segment.types.items():
                key = (start + delta, end + delta, kind)
                if key not in written:
                    yield key, value

    def references(self) -> Iterator[tuple[tuple[int, int], Symbol]]:
        written = self.written_references
        yield from written.items()
        for segment in self.replayed:
            delta = segment.delta
            for (start, end), target in segment.references.items():
                key = (start + delta, end + delta)
                if key not in written:
                    yield key, segment.symbol(target)

    def builtin_calls(self) -> Iterator[tuple[tuple[int, int], CallTarget]]:
        written = self.written_calls
        yield from written.items()
        for segment in self.replayed:
            delta = segment.delta
            for (start, end), target in segment.calls.items():
                key = (start + delta, end + delta)
                if key not in written:
                    yield key, target
