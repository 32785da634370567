"""Reusing the check of an unchanged function body from the previous version of a document.

An edit in an editor touches one function, yet checking every function body
is most of the work of a lint. So the checker records what checking a body
added (diagnostics, expression types, references, local symbols, the module
variables it used and the functions it called, what is said once per
module), and for the next version of the document replays that record,
shifted to where the function now starts, when everything the check read is
the same:

- the function's text, byte for byte, parsed without errors (the same text
  then gives the same subtree);
- the module's enables and configured dialect;
- what had been said once per module before it (a portability note, a
  missing `enable`, the first use of a matrix dialect are reported once);
- every module-scope name the body looked up: the same kind of declaration
  with the same type, value, address space and signature, or still none;
- the function's own parameter and return types (they may name structs and
  aliases declared elsewhere).

A check is recorded only if nothing it did reached outside the function: a
diagnostic, fix or model entry elsewhere, or a module-scope declaration. Such
bodies are checked afresh on every version. The result is the same as checking
every body, which tests/test_incremental.py checks over random edit sequences.

The one exception is a declaration the body resolves first: declarations are
resolved in module order, so an entry point that calls helpers declared after
it resolves their signatures in the middle of its body, at their first use
(first_uses.py says how such a body is recorded and replayed).
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field

import tree_sitter as ts

from ..core.diagnostic import Diagnostic
from ..core.text import Span
from . import first_uses, types as t
from .carry import Carry
from .kept import KeptRecords
from .model import Replayed, Symbol

_UNRESOLVED = object()  # the signature of a declaration not resolved yet: never equal to a recorded one
# What _signature reads of a symbol (with cycle_reported, which only some symbols have).
_SIGNATURE_FIELDS = operator.attrgetter("kind", "type", "value", "components", "space", "access", "parameters",
                                        "return_type", "stage", "must_use")


@dataclass(eq=False)
class BodyRecord:
    """What checking one function body added, with the spans of the version it was checked in."""

    start: int
    end: int
    environment: tuple  # enables and configured dialect
    said_before: tuple  # Context.said_once() at the start, dialect uses as a set of families
    lookups: dict[str, object]  # module-scope name -> signature of what it named (None: undeclared)
    signature: object  # of the function itself: its parameter and return types come from declarations elsewhere
    # The struct types, by name, that what it looked up leads to, as the objects its entries hold; replay maps
    # them to this version's where a struct was declared anew (structs are nominal objects).
    structs: dict
    diagnostics: list[Diagnostic] = field(default_factory=list)
    types: dict = field(default_factory=dict)
    # Where each name refers to: (True, index in `locals`) or (False, module-scope name).
    references: dict[tuple[int, int], tuple[bool, object]] = field(default_factory=dict)
    locals: list[tuple] = field(default_factory=list)  # _LocalRecord: symbols without their (old) nodes
    said: tuple = (frozenset(), frozenset(), {})
    matrix_dialects: frozenset = frozenset()
    var_uses: list[tuple[str, Span]] = field(default_factory=list)
    var_order: tuple = ()  # the variables it uses, each once, in the order of their first use in the text
    calls: list[str] = field(default_factory=list)
    alias: object = None  # aliasing.AliasFacts of the body, spans as recorded
    builtin_calls: dict = field(default_factory=dict)  # the body's model.builtin_calls, spans as recorded
    # `lookups` split for _valid: the names that named a declaration, with its signature, and the others
    # (most: builtins and predeclared types), which need only be still undeclared.
    declared: tuple = ()
    undeclared: tuple = ()
    # The declarations the body resolved first, in order (first_uses.FirstUse): not in `declared`, as they
    # are not resolved yet when the body starts.
    first_uses: tuple = ()


class _Recording:
    def __init__(self, checker, node: ts.Node) -> None:
        ctx = checker.ctx
        self.node = node
        self.said_before = ctx.said_once()
        self.diagnostics_before = len(ctx.diagnostics)
        self.symbols_before = len(ctx.model.written_symbols)
        self.dialects_before = set(ctx.model.matrix_dialects)
        self.resolutions_before = checker.resolutions
        self.module_size = len(checker.module_scope.symbols)
        # The body's model entries go to fresh tables, merged back afterwards: what it added is then
        # exactly what they hold (nothing in the checker reads these tables while checking).
        self.types, self.references = ctx.model.written_types, ctx.model.written_references
        self.builtin_calls = ctx.model.written_calls
        ctx.model.written_types, ctx.model.written_references, ctx.model.written_calls = {}, {}, {}
        checker.module_lookups = {}
        checker.first_uses = self.first_uses = first_uses.FirstUseNotes()


class BodyReuse:
    """The recorded body checks of one document's last version, by function text."""

    def __init__(self) -> None:
        self._records = KeptRecords()  # BodyRecord by function text
        self._environment: tuple | None = None  # _environment(ctx) of the check under way, once computed
        self._named: dict[str, object] = {}  # module-scope name -> named_signature, in the check under way
        # Function start -> the record replayed or made for it in the latest check; the uniformity
        # analysis reuses a function's results only where its semantic record was reused.
        self.used: dict[int, BodyRecord] = {}
        self.replayed = 0
        self.checked = 0
        self._signatures: dict[int, object] = {}  # id(symbol) -> signature, for this check's resolved symbols
        self._reached: dict[int, dict] = {}  # id(symbol) -> _structs_of([symbol]), for this check's resolved symbols
        # Module struct types by name, of the last version and of this one (see stable_struct).
        self._structs_previous: dict[str, t.Struct] = {}
        self._structs_current: dict[str, t.Struct] = {}
        self.remapped = 0  # records whose entries had to be mapped to new struct objects in the latest check
        # Signatures, one object per value across versions: a record's lookups then compare by identity.
        self._interned_previous: dict = {}
        self._interned: dict = {}
        # Signatures by the identities of the fields they were made of, of the last check and of this one.
        self._memo_previous: dict[tuple, tuple] = {}
        self._memo: dict[tuple, tuple] = {}
        # The functions' signatures, attributes and stage IO, replayed alike (header_reuse.py imports this
        # module's helpers, hence the late import).
        from .header_reuse import HeaderReuse
        self.headers = HeaderReuse()
        # The leading statements of the bodies checked afresh, replayed in the next version where unchanged.
        from .leading import LeadingStatements
        self.leading = LeadingStatements()
        # The last clean version's steps, carried over without validation where only one body changed.
        self.carry = Carry()
        # (key, record) of the latest body replayed by `replay` or recorded, which Checker._checked_body notes for
        # the carry (a carried body's is its entry's already)
        self.applied: tuple | None = None

    def begin(self) -> None:
        self._records.begin()
        self.used, self._signatures, self._reached = {}, {}, {}
        self._environment = None
        self._named = {}
        self._structs_current, self._interned, self._memo = {}, {}, {}
        self.replayed = self.checked = self.remapped = 0
        self.applied = None
        self.headers.begin()
        self.leading.begin()

    def end(self) -> None:
        # Only what the latest version used is kept: memory stays proportional to the document.
        self._records.end()
        self._structs_previous = self._structs_current
        self._interned_previous = self._interned
        self._memo_previous = self._memo
        self.headers.end()
        self.leading.end()
        self.carry.end()

    def stable_struct(self, struct: t.Struct) -> t.Struct:
        """The last version's struct of this name where it is the same type, else `struct`.

        Keeping the object lets the records replayed in this version keep the types they hold, instead of
        mapping every entry to a new object. A Struct holds only names, types and layout values (no spans,
        no nodes), so an old one carries nothing of its version but itself."""
        previous = self._structs_previous.get(struct.name)
        if previous is not None and _type_key(previous) == _type_key(struct):
            struct = previous
        self._structs_current[struct.name] = struct
        return struct

    # ------------------------------------------------------------ replay
    def replay(self, checker, symbol: Symbol, node: ts.Node) -> bool:
        """Adds the recorded check of this body if it is still valid; False when it must be checked."""
        text = checker.ctx.source.data[node.start_byte:node.end_byte]
        record = self._records.get(text)
        if record is None:
            return False
        if not self._valid(checker, record, symbol):
            record = self._records.other(text, record)
            if record is None or not self._valid(checker, record, symbol):
                return False
        self.apply(checker, record, symbol, node, text)
        # (a body with steps nested in it is never carried: first_uses.py says why)
        self.applied = (text, record) if not record.first_uses else None
        return True

    def apply(self, checker, record: BodyRecord, symbol: Symbol, node: ts.Node, text: bytes) -> None:
        """Adds a valid record's check of this body (`text`, its key), moved to where the body is now."""
        self.apply_at(checker, record, symbol, node.start_byte, node.end_byte, text)

    def apply_at(self, checker, record: BodyRecord, symbol: Symbol, start: int, end: int, text: bytes) -> None:
        """`apply` for a body at [start, end): the carried declarations (carried.py) know its place already,
        and each of a node's places is a call into tree-sitter."""
        ctx = checker.ctx
        delta = start - record.start
        if record.first_uses:
            first_uses.apply(self, checker, record.first_uses, record.diagnostics, delta)
        elif record.diagnostics:
            if delta:
                ctx.diagnostics.extend([d.shifted(delta) for d in record.diagnostics])
            else:
                ctx.diagnostics.extend(record.diagnostics)  # (shifted(0) is the diagnostic itself)
        module = checker.module_scope.symbols
        structs = self._structs_current
        if record.structs:
            # (Every struct the record holds is this version's object of its name: nothing to map, the
            # common case. Else the structs its lookups reach now decide. A loop, not all() of a generator:
            # a frame less for each replayed body of every version.)
            for name, old in record.structs.items():
                if structs.get(name) is not old:
                    self.restructure(record, symbol, module)
                    break
        # The record's tables themselves, never changed afterwards (_rebase makes new ones): the models of
        # this version and of later ones may share them.
        model = ctx.model
        model.add_replayed(Replayed(start, end, delta, record.types, record.references, record.builtin_calls,
                                    (_replayed_locals, record.locals, ctx.root), module, len(model.written_symbols)))
        portability, enables, uses = record.said
        if portability or enables or uses:
            ctx.add_said_once(portability, enables,
                              {family: Span(s.start + delta, s.end + delta) for family, s in uses.items()})
        if record.matrix_dialects:
            model.matrix_dialects |= record.matrix_dialects
        if record.var_uses:
            if symbol in checker.var_uses:
                checker.var_uses[symbol].extend(_ReplayedUses(record, delta, module))
            else:
                checker.var_uses[symbol] = _ReplayedUses(record, delta, module)
        if record.calls:
            checker.calls.setdefault(symbol, []).extend(map(module.__getitem__, record.calls))  # (no frame)
        if record.alias is not None:
            # Moved where the alias check reads it (most functions call none with pointers: never).
            checker.alias_facts[symbol] = record.alias
            checker.alias_deltas[symbol] = delta
        self._records.current[text] = record
        self.used[start] = record
        self.replayed += 1

    def restructure(self, record: BodyRecord, symbol: Symbol, module: dict) -> None:
        """Maps `record` to the structs its lookups reach in this version, where one of them is not the object
        it holds (apply_at, and carried.py's run of carried bodies, ask only then)."""
        current = self._reached_structs([module.get(name) for name in record.lookups] + [symbol])
        if any(current.get(name, old) is not old for name, old in record.structs.items()):
            _rebase(record, current)
            self.remapped += 1

    def _reached_structs(self, symbols) -> dict[str, t.Struct]:
        """_structs_of(symbols), from each resolved symbol's own part computed once per check."""
        found: dict[str, t.Struct] = {}
        for symbol in symbols:
            if symbol is None:
                continue
            part = self._reached.get(id(symbol))
            if part is None:
                part = _structs_of([symbol])
                if symbol.resolved and not symbol.resolving:
                    self._reached[id(symbol)] = part
            for name, struct in part.items():
                found.setdefault(name, struct)
        return found

    def _signature(self, symbol: Symbol | None) -> object:
        # A resolved declaration does not change for the rest of the check: compute its signature once.
        if symbol is None:
            return None
        found = self._signatures.get(id(symbol))
        if found is None:
            if not symbol.resolved or symbol.resolving:
                return _UNRESOLVED
            # A replayed header sets the very objects it recorded: the signature made of the same objects in
            # the last version is this one, without walking the types again. (The memo holds the objects,
            # so an id in its key cannot have been reused by another.)
            fields = _SIGNATURE_FIELDS(symbol) + (getattr(symbol, "cycle_reported", False),)
            key = tuple(map(id, fields))
            memo = self._memo_previous.get(key) or self._memo.get(key)
            if memo is not None:
                found = memo[1]
            else:
                found = _signature(symbol)
                try:
                    found = self._interned.setdefault(found, self._interned_previous.get(found, found))
                except TypeError:  # (a value that does not hash: compared by value only)
                    pass
            self._memo[key] = (fields, found)
            self._signatures[id(symbol)] = found
        return found

    def _valid(self, checker, record: BodyRecord, symbol: Symbol) -> bool:
        ctx = checker.ctx
        own = self._signature(symbol)
        if own is not record.signature and own != record.signature:
            return False
        environment = self._environment
        if environment is None:  # (the enables are read before any body: the same for the whole check)
            environment = self._environment = _environment(ctx)
        if record.environment != environment:
            return False
        if record.said_before != self.headers._said_once(ctx)[1]:
            return False
        module = checker.module_scope.symbols
        for name in record.undeclared:
            if name in module:
                return False
        if not self.same_signatures(module, record.declared):
            return False
        return not record.first_uses or first_uses.valid(self, checker, record.first_uses)

    def same_signatures(self, module: dict, recorded_signatures) -> bool:
        """Whether each (name, signature) recorded is what the name declares at module scope now."""
        named = self._named
        for name, recorded in recorded_signatures:
            current = named.get(name, _UNRESOLVED)
            if current is _UNRESOLVED:
                current = self.named_signature(module, name)
            if current is not recorded and current != recorded:  # (interned: mostly the same object)
                return False
        return True

    def named_signature(self, module: dict, name: str) -> object:
        """The signature of what `name` declares at module scope (None: nothing), once per name and check
        where resolved: the records of every function compare the names they looked up with it."""
        found = module.get(name)
        signature = self._signature(found) if found is not None else None
        if signature is not _UNRESOLVED:
            self._named[name] = signature
        return signature

    # ------------------------------------------------------------ record
    def start(self, checker, node: ts.Node) -> _Recording:
        self.checked += 1
        return _Recording(checker, node)

    def finish(self, checker, recording: _Recording, symbol: Symbol, completed: bool) -> None:
        """Merges the body's model entries back and, if the check stayed inside the function, records it."""
        ctx = checker.ctx
        types, references = ctx.model.written_types, ctx.model.written_references
        builtin_calls = ctx.model.written_calls
        ctx.model.written_types, ctx.model.written_references = recording.types, recording.references
        ctx.model.written_calls = recording.builtin_calls
        recording.types.update(types)
        recording.references.update(references)
        recording.builtin_calls.update(builtin_calls)
        lookups, checker.module_lookups = checker.module_lookups, None
        checker.first_uses = None
        if not completed:
            return
        record = self._record(checker, recording, symbol, types, references, lookups)
        start, end = recording.node.start_byte, recording.node.end_byte
        if record is not None and not all(start <= s and e <= end for s, e in builtin_calls):
            record = None  # a call checked elsewhere (a declaration resolved on the way): not replayable
        if record is not None:
            record.builtin_calls = builtin_calls
            text = ctx.source.data[recording.node.start_byte:recording.node.end_byte]
            self._records.current[text] = record
            self.used[recording.node.start_byte] = record
            self.applied = (text, record) if not record.first_uses else None

    def _record(self, checker, recording: _Recording, symbol: Symbol, types: dict, references: dict,
                lookups: dict) -> BodyRecord | None:
        ctx, node = checker.ctx, recording.node
        start, end = node.start_byte, node.end_byte

        def inside(s: int, e: int) -> bool:
            # An empty span at the function's edge (an insertion before or after it) is not part of it.
            return start <= s and e <= end if s < e else start < s < end

        notes = recording.first_uses
        if notes.refused or checker.resolutions != recording.resolutions_before + len(notes.steps) \
                or len(checker.module_scope.symbols) != recording.module_size:
            return None
        diagnostics = ctx.diagnostics[recording.diagnostics_before:]
        if notes.steps:
            # What the nested steps added is theirs, in their records: the body keeps its own.
            diagnostics = notes.own_diagnostics(diagnostics, recording.diagnostics_before)
            in_a_step = notes.in_a_step
            if not all(inside(s, e) or in_a_step(s, e) for s, e, _ in types) \
                    or not all(inside(s, e) or in_a_step(s, e) for s, e in references):
                return None
            types = {key: value for key, value in types.items() if inside(key[0], key[1])}
            references = {key: value for key, value in references.items() if inside(key[0], key[1])}
        if not all(inside(s.start, s.end) for d in diagnostics for s in d.spans()):
            return None
        if not all(inside(s, e) for s, e, _ in types) or not all(inside(s, e) for s, e in references):
            return None
        local_symbols = ctx.model.written_symbols[recording.symbols_before:]
        if not all(inside(s.span.start, s.span.end) and s.declaration is not None
                   and inside(s.declaration.start_byte, s.declaration.end_byte) for s in local_symbols):
            return None
        module = checker.module_scope.symbols
        index = {id(s): i for i, s in enumerate(local_symbols)}
        recorded_references = {}
        for key, target in references.items():
            if id(target) in index:
                recorded_references[key] = (True, index[id(target)])
            elif module.get(target.name) is target and target.name in lookups:
                recorded_references[key] = (False, target.name)
            else:
                return None
        portability, enables, uses = ctx.said_once()
        before_portability, before_enables, before_uses = recording.said_before
        if notes.steps:  # (what the steps said is theirs: their records say it)
            portability, enables = portability - notes.said[0], enables - notes.said[1]
            uses = {family: span for family, span in uses.items() if family not in notes.said[2]}
        new_uses = {family: span for family, span in uses.items() if family not in before_uses}
        if not all(inside(s.start, s.end) for s in new_uses.values()):
            return None
        var_uses = checker.var_uses.get(symbol, [])
        calls = checker.calls.get(symbol, [])
        if not all(module.get(v.name) is v and inside(s.start, s.end) for v, s in var_uses) \
                or not all(module.get(f.name) is f for f in calls):
            return None
        signatures = {}
        for name, found in lookups.items():
            signature = self._signature(found)
            if signature is _UNRESOLVED:
                return None
            signatures[name] = signature
        record = BodyRecord(
            start, end, _environment(ctx),
            (before_portability, before_enables, frozenset(before_uses)), signatures, self._signature(symbol),
            _structs_of(list(lookups.values()) + [symbol]),
            diagnostics, types, recorded_references, [_local_record(s) for s in local_symbols],
            (portability - before_portability, enables - before_enables, new_uses),
            frozenset(ctx.model.matrix_dialects - recording.dialects_before),
            [(v.name, s) for v, s in var_uses], variables_in_first_use_order(var_uses), [f.name for f in calls],
            checker.alias_facts.get(symbol))
        if notes.steps:
            for step in notes.steps:
                step.signature = signatures.get(step.name, _UNRESOLVED)
                if step.signature is _UNRESOLVED:
                    step.signature = self._signature(module[step.name])
                if step.signature is _UNRESOLVED:
                    return None
            record.first_uses = tuple(notes.steps)
            firsts = {step.name for step in notes.steps}
            signatures = {name: signature for name, signature in signatures.items() if name not in firsts}
        record.declared = tuple((name, signature) for name, signature in signatures.items() if signature is not None)
        record.undeclared = tuple(name for name, signature in signatures.items() if signature is None)
        return record


def variables_in_first_use_order(var_uses: list) -> tuple[str, ...]:
    """The names of the variables in `var_uses` ((variable, span) pairs), each once, in the order of their
    first use in the text: what a body's record keeps and the carry compares (Carry.edited_done)."""
    seen: dict[str, None] = {}
    for variable, _ in sorted(var_uses, key=lambda use: use[1].start):
        seen.setdefault(variable.name, None)
    return tuple(seen)


def _environment(ctx) -> tuple:
    return frozenset(ctx.model.enables), ctx.configured_dialect


def _signature(symbol: Symbol | None) -> object:
    """What a function body can learn of a module-scope declaration by naming it."""
    if symbol is None:
        return None
    if not symbol.resolved or symbol.resolving:
        return _UNRESOLVED
    return (symbol.kind, _type_key(symbol.type), repr(symbol.value), repr(symbol.components), symbol.space,
            symbol.access, tuple(_type_key(p) for p in symbol.parameters), _type_key(symbol.return_type),
            getattr(symbol, "cycle_reported", False), symbol.stage, symbol.must_use)


def _type_key(value: object) -> object:
    """A type as a comparable value: structs are nominal objects, so compare their name and members."""
    if value is None or type(value) in _PLAIN:
        return value
    if isinstance(value, t.Struct):
        # Layout and IO attributes too: a body's checks may read them, and stable_struct keeps equal ones only.
        return ("struct", value.name, tuple((m.name, _type_key(m.type), m.align, m.size, m.builtin)
                                            for m in value.members))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(_type_key(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, tuple):
        return tuple(_type_key(v) for v in value)
    return value


# Types that hold no struct: they compare by value as they are.
_PLAIN = frozenset({t.Scalar, t.Vector, t.Matrix, type(t.ERROR), str, int, float, bool})


def _structs_of(symbols) -> dict[str, t.Struct]:
    """The struct types of this version that the module declarations a body named lead to, by name."""
    found: dict[str, t.Struct] = {}

    def visit(value: object) -> None:
        if value is None or type(value) in _PLAIN:
            return
        if isinstance(value, t.Struct):
            found.setdefault(value.name, value)
            for member in value.members:
                visit(member.type)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                visit(getattr(value, f.name))
        elif isinstance(value, tuple):
            for item in value:
                visit(item)

    for symbol in symbols:
        if symbol is not None:
            visit(symbol.type)
            visit(symbol.parameters)
            visit(symbol.return_type)
    return found


def _rebase(record: BodyRecord, structs: dict[str, t.Struct]) -> None:
    """Maps the record's entries to this version's struct types, for this replay and the next ones.

    New tables, not the old ones changed: a model of an earlier version may still read those."""
    memo: dict[int, object] = {}
    record.types = {key: _remap(value, structs, memo) for key, value in record.types.items()}
    locals_ = []
    for fields, span, locator in record.locals:
        # (a symbol holds only the fields set on it: the others are Symbol's defaults, which hold no struct)
        fields = dict(fields)
        for name in ("type", "return_type"):
            if name in fields:
                fields[name] = _remap(fields[name], structs, memo)
        if "parameters" in fields:
            fields["parameters"] = tuple(_remap(p, structs, memo) for p in fields["parameters"])
        locals_.append((fields, span, locator))
    record.locals = locals_
    record.structs = {name: structs.get(name, old) for name, old in record.structs.items()}


def _remap(value: object, structs: dict[str, t.Struct], memo: dict[int, object]) -> object:
    """`value` with the struct types of the recorded version replaced by this version's equal ones."""
    if not structs or isinstance(value, (t.Scalar, str, int, float, type(None))):
        return value
    key = id(value)
    if key in memo:
        return memo[key]
    result = value
    if isinstance(value, t.Struct):
        result = structs.get(value.name, value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            new = _remap(item, structs, memo)
            if new is not item:
                changes[f.name] = new
        if changes:
            result = dataclasses.replace(value, **changes)
    elif isinstance(value, tuple):
        items = tuple(_remap(v, structs, memo) for v in value)
        if any(a is not b for a, b in zip(items, value)):
            result = items
    memo[key] = result
    return result


class _ReplayedUses:
    """A replayed body's uses of module variables, as checker.var_uses lists them, moved only when read:
    the binding check needs no places, only which variables come first (`in_order`)."""

    __slots__ = ("record", "delta", "module")

    def __init__(self, record: BodyRecord, delta: int, module: dict) -> None:
        self.record, self.delta, self.module = record, delta, module

    def __iter__(self):
        delta, module = self.delta, self.module
        for name, s in self.record.var_uses:
            yield module[name], Span(s.start + delta, s.end + delta)

    def in_order(self) -> list[Symbol]:
        return [self.module[name] for name in self.record.var_order]


class _ReplayedSymbol(Symbol):
    """A local symbol of a replayed body; its declaration node is looked up in this version's tree when
    someone asks (most never do), since the recorded one belongs to an old tree."""

    @property
    def declaration(self):
        found = self.__dict__.get("_declaration")
        if found is None and self.__dict__.get("_locator") is not None:
            root, start, end, kind = self.__dict__.pop("_locator")
            node = root.descendant_for_byte_range(start, end)
            while node is not None and not (node.type == kind and node.start_byte == start and node.end_byte == end):
                node = node.parent
            self.__dict__["_declaration"] = found = node
        return found

    @declaration.setter
    def declaration(self, node) -> None:
        self.__dict__["_declaration"] = node
        self.__dict__["_locator"] = None


def _local_record(symbol: Symbol) -> tuple:
    # No tree-sitter node: a node keeps its whole tree alive, and records outlive many versions.
    node = symbol.declaration
    fields = {k: v for k, v in vars(symbol).items() if k not in ("span", "declaration")}
    fields["_declaration"] = None  # a _ReplayedSymbol's own state, ready to copy
    return fields, symbol.span, (node.start_byte, node.end_byte, node.type)


def _replayed_locals(recorded: list, delta: int, root: ts.Node) -> list[Symbol]:
    """A replayed body's local symbols, made when its Replayed segment is first asked for them."""
    return [_replayed_symbol(s, delta, root) for s in recorded]


def _replayed_symbol(record: tuple, delta: int, root: ts.Node) -> Symbol:
    fields, span, (start, end, node_type) = record
    # Built without __init__: a replay makes thousands of these, and the fields are already checked.
    symbol = _ReplayedSymbol.__new__(_ReplayedSymbol)
    state = fields.copy()  # (a copy of a dict is cheaper than updating an empty one from it)
    state["span"] = Span(span.start + delta, span.end + delta) if delta else span  # (spans are immutable)
    state["_locator"] = (root, start + delta, end + delta, node_type)
    symbol.__dict__ = state
    return symbol
