"""Reusing the checks of an unchanged function header from the previous version of a document.

Besides its body (reuse.py), each function costs every version the resolution of
its signature (parameter and return types, stage, @workgroup_size...), the check
of its attributes and, for an entry point, of its shader IO. An edit inside one
body changes none of that for the other functions, so these steps are recorded
and replayed like bodies, shifted to where the function now starts, when what
they read is the same:

- the function's header (its text up to the body), parsed without errors;
- the module's directives and whatever else at module scope is neither a
  declaration, an ERROR node nor a lone ';' (a const_assert), as text: the
  enables and diagnostic filters;
- whether the declaration is followed at once by a module-scope ERROR node
  (a `var` without a type or initializer reports nothing missing there). No
  step reads such a node otherwise: not its text (a recorded step's findings,
  fixes, spans and fields all lie inside its header), not its place. So an
  edit that breaks a function's braces, and leaves the rest of its body at
  module scope as ERROR nodes and lone ';'s, keeps every other header's
  record;
- the module's enables, configured dialect and what was said once per module
  before the step;
- the signatures of the module-scope names the step looked up (a function's
  return type, say, which lives in another header), and of every other name
  its text holds (an attribute's argument is read by name, not through a
  lookup), or that they are still not declared;
- the text of each struct its results or the symbol's own types hold (the
  stage check walks their members' IO attributes without naming them);
- for the checks after the bodies, the function's own resolved signature.

A step is recorded only if everything it did stayed inside the header: its
diagnostics, its model entries and the symbol fields it set; no declaration
resolved on the way, no call edge, no said-once state it changed outside.
The result equals a fresh check, which tests/test_incremental.py compares
over random edit sequences.
"""

from __future__ import annotations

import itertools
import operator
import re
from dataclasses import dataclass

import tree_sitter as ts

from ..core.text import Span, SET_SPAN_END as _set_span_end, SET_SPAN_START as _set_span_start
from . import types as t
from .kept import KeptRecords
from .reuse import _UNRESOLVED, _environment, _structs_of
from ..syntax.nodes import FIELD_BODY, KIND_NAMES

_NOT_SET = object()
# What declares a module-scope name (checker._DECLARATION_KINDS): read through lookups and signatures.
_DECLARATIONS = frozenset({"variable_declaration", "const_declaration", "override_declaration",
                           "type_alias_declaration", "struct_declaration", "function_declaration", "let_declaration"})
# Module-scope nodes left out of the module text (see _module): declarations are read by name, an ERROR
# node by where it stands, and a lone ';' by nothing.
_NOT_IN_MODULE_TEXT = _DECLARATIONS | {"ERROR", "empty_declaration"}
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_MODULE_NUMBERS = itertools.count()
_IS_ERROR = operator.attrgetter("is_error")
_START = operator.attrgetter("start_byte")


@dataclass(eq=False, slots=True)
class HeaderRecord:
    start: int
    key: tuple  # step, header text, number of the directives and environment, said before, own signature,
    # and whether an ERROR node follows the declaration
    lookups: dict  # module-scope name -> its signature when recorded (None: not declared)
    absent: frozenset  # the other names of its text that named no module-scope declaration
    struct_texts: dict  # struct name -> its declaration's text, for the structs in `structs`
    fields: dict  # symbol attribute -> value set by the step (spans as recorded)
    spanned: tuple  # the fields whose values hold spans, moved on replay (the others are set as they are)
    structs: dict  # struct name -> the struct object the recorded values hold
    diagnostics: list
    types: dict
    references: dict  # span -> module-scope name
    said: tuple | None  # what the step said once (portability notes, enables, dialect uses); None: nothing
    dialects: frozenset
    # Whether applying it adds anything besides its fields (findings, model entries, said once, dialects):
    # most records add nothing, and a carried step then only sets the fields (carried.py).
    adds: bool = True
    # Whether what it adds besides its fields is model types alone (a signature's type names): carried.py
    # applies those in its own loop, and leaves the rest to _apply.
    types_only: bool = False
    # Whether applying it sets nothing and adds nothing, to a declaration other than a struct (whose type _apply
    # keeps as the last version's object): most checks after the bodies, which carried.py then only keeps.
    empty: bool = False


class HeaderReuse:
    """The recorded header steps of one document's last version, by step, header text and key."""

    def __init__(self) -> None:
        # HeaderRecord by key. A header's record holds no more than its fields and findings (a few KiB), and
        # an edit to a declaration that every header reads leaves all of them spare at once.
        self._records = KeptRecords(limit=64)
        self.module_text: int | None = None  # the number of this check's module text (see _module)
        # The starts of the module-scope nodes whose next sibling is an ERROR node, for this check (see _module).
        self._before_errors: frozenset[int] = frozenset()
        self._module_numbers: dict[tuple, int] = {}
        # The function's own signature in a key, as a number too (see _own): signature -> number, and by the
        # signature object's id the object (kept alive, so that its id is not another's) and its number.
        self._own_numbers: dict[object, int] = {}
        self._own_ids: dict[int, tuple[object, int]] = {}
        self.replayed = 0
        self.checked = 0
        # The record the latest step applied or made (None: checked and not recorded), which a body that
        # resolved the step's declaration first keeps with its own (first_uses.py: FirstUse).
        self.last: HeaderRecord | None = None

    def begin(self) -> None:
        self._records.begin()
        self.module_text = None
        self._said_count, self._said = -1, None
        self.replayed = self.checked = 0

    def end(self) -> None:
        self._records.end()

    def _module(self, checker) -> int:
        """The text of the module's directives and of what else is neither a declaration, an ERROR node nor a
        lone ';', its enables and dialect: the same for every step of a check (the enables are read before any
        declaration). Also notes which module-scope nodes an ERROR node follows (see the module docstring), which
        a key reads after this call."""
        if self.module_text is None:
            ctx = checker.ctx
            data = ctx.source.data
            kinds = KIND_NAMES  # (node.type's strings, made once: syntax/nodes.py says why)
            # (the named children that are not extras and not of those kinds, in order: Checker.run found them)
            text = (tuple((kinds[n.kind_id], data[n.start_byte:n.end_byte]) for n in checker.module_text_nodes),
                    _environment(ctx))
            # As next_sibling sees them: every child, extras (comments) and anonymous ones too. (Asked of each
            # in C first: most modules have no ERROR node at module scope, even while one body is broken.)
            children = ctx.root.children
            # (Each child whose next one is an ERROR node, picked in C: while a loop header is commented out
            # the module has such a node at every version, and a step of Python per child was one per function.)
            self._before_errors = frozenset(map(_START, itertools.compress(children, map(_IS_ERROR, children[1:])))) \
                if any(map(_IS_ERROR, children)) else frozenset()
            # Each step's key holds a number for this text rather than the text: a key is hashed at every
            # lookup, and a tuple does not keep its hash. Equal texts get the same number in every version.
            number = self._module_numbers.get(text)
            if number is None:
                number = self._module_numbers[text] = next(_MODULE_NUMBERS)
            if len(self._module_numbers) > 64:  # (older texts: their records are gone from the spare list too)
                del self._module_numbers[next(iter(self._module_numbers))]
            self.module_text = number
        return self.module_text

    def _own(self, own: object) -> object:
        """A number for the signature `own`, equal for equal signatures. The signature holds types nested in
        tuples and dataclasses, whose hash is computed anew at each of the key's lookups (up to three per
        step, each function's every version); the number's hash is its value. The same signature object
        comes back for an unchanged function (reuse.py interns them), so it is found by id at once."""
        if own is None:
            return None
        entry = self._own_ids.get(id(own))
        if entry is not None and entry[0] is own:
            return entry[1]
        if len(self._own_ids) >= 4096:
            # Numbers are never given twice, so a signature numbered again only misses its old records.
            self._own_numbers.clear()
            self._own_ids.clear()
        number = self._own_numbers.get(own)
        if number is None:
            number = self._own_numbers[own] = next(_MODULE_NUMBERS)
        self._own_ids[id(own)] = (own, number)
        return number

    def _said_once(self, ctx) -> tuple:
        """ctx.said_once(), and the same as a key (the first use of each dialect family compared by family,
        as a body's record does), made again only when it changed."""
        count = ctx.said_count()
        if count != self._said_count:
            said = ctx.said_once()
            self._said_count, self._said = count, (said, (said[0], said[1], frozenset(said[2])))
        return self._said

    def run(self, checker, step: str, symbol, node: ts.Node, check, own: bool = False) -> None:
        """Runs `check()` for the header of `node`, or replays its record; `own`: whether the step reads
        the function's own resolved signature (not the signature step, which sets it)."""
        # (the kind by id: node.type would make a new string at each of the ~56 steps of every version)
        body = node.child_by_field_id(FIELD_BODY) if KIND_NAMES[node.kind_id] == "function_declaration" else None
        start = node.start_byte
        end = body.start_byte if body is not None else node.end_byte
        carry = checker.reuse.carry
        carried = carry.step(step, start, end)
        index = carry.index - 1
        # A header whose function's body holds the version's syntax errors (carry.py: Carry.begin) is the
        # header it was, parsed alike: the record the last version applied to it is carried all the same.
        if carried is not None:
            if node.has_error and start != carry.errored_start or len(checker._resolution) > 1:
                carry.stop()
            else:
                # The record the last carried-from version applied at this step (carry.py says why it is
                # valid); struct objects are compared still, as they are not text.
                record = carried[4]
                if not record.structs or self._same_structs(checker, record, symbol):
                    self._apply(checker, record, symbol, start)
                    self._records.current[carried[3]] = record
                    self.replayed += 1
                    self.last = record
                    # (a header step's entry is always neutral: where the step did not move it is the same entry)
                    if carried[1] != start:  # (the end moved with it: the header's text is the same)
                        carried = (step, start, end, carried[3], record, True)
                    carry.current.entries[index] = carried  # (carry.note: a carried step has a current)
                    return
                carry.stop()
        if node.has_error or len(checker._resolution) > 1:
            # (resolved on the way from another declaration: a cycle through it would reach outside)
            self.checked += 1
            self.last = None
            check()
            self.last = None
            carry.note(index, (step, start, end, None, None, True))
            return
        ctx = checker.ctx
        said, said_key = self._said_once(ctx)
        key = (step, ctx.source.data[start:end], self._module(checker), said_key,
               self._own(checker.reuse._signature(symbol)) if own else None, start in self._before_errors)
        record = self._records.get(key)
        if record is not None and (self._replay(checker, record, symbol, start) or (
                (record := self._records.other(key, record)) is not None
                and self._replay(checker, record, symbol, start))):
            self._records.current[key] = record
            self.replayed += 1
            self.last = record
            carry.note(index, (step, start, end, key, record, True))
            return
        self.checked += 1
        self.last = record = self._record(checker, key, symbol, start, end, check, said)
        carry.note(index, (step, start, end, key, record, True))

    # ------------------------------------------------------------ replay
    def _replay(self, checker, record: HeaderRecord, symbol, start: int) -> bool:
        if not self.valid(checker, record, symbol):
            return False
        self._apply(checker, record, symbol, start)
        return True

    def valid(self, checker, record: HeaderRecord, symbol, resolved_before: dict | None = None) -> bool:
        """Whether what the step read is as recorded (its key apart, which the caller compares).
        `resolved_before`: the signatures of declarations not resolved yet that will be by the time the step
        runs (those a replayed body resolves first, before this one), by name."""
        module = checker.module_scope.symbols
        reuse = checker.reuse
        named = reuse._named
        for name, recorded in record.lookups.items():
            current = named.get(name, _UNRESOLVED)
            if current is _UNRESOLVED:
                current = resolved_before[name] if resolved_before and name in resolved_before \
                    else reuse.named_signature(module, name)
            if current is not recorded and current != recorded:  # (interned: mostly the same object)
                return False
        for name in record.absent:  # (a loop: dict_keys.isdisjoint walks the larger of the two)
            if name in module:
                return False
        if record.struct_texts:
            data = checker.ctx.source.data
            for name, text in record.struct_texts.items():
                declared = module.get(name)
                node = declared.declaration if declared is not None else None
                if node is None or data[node.start_byte:node.end_byte] != text:
                    return False
        if record.references and not all(name in module for name in record.references.values()):
            return False  # (a reference's target is named through a lookup, but a bypass must not break replay)
        return self._same_structs(checker, record, symbol)

    @staticmethod
    def _same_structs(checker, record: HeaderRecord, symbol) -> bool:
        """Structs are nominal objects: the recorded values must hold this version's (equal text gives an
        equal struct, which BodyReuse.stable_struct keeps as the same object; a record older than that
        chain does not)."""
        if not record.structs:
            return True
        module = checker.module_scope.symbols
        own = symbol.name if symbol.kind == "struct" else None  # (being resolved: its type is the record's)
        for name, struct in record.structs.items():
            declared = module.get(name)
            if name != own and (declared is None or not declared.resolved or declared.type is not struct):
                return False
        return True

    def _apply(self, checker, record: HeaderRecord, symbol, start: int) -> None:
        """Sets what the step set and adds what it added, moved to `start`."""
        delta = start - record.start
        ctx = checker.ctx
        fields = record.fields
        symbol.__dict__.update(fields)
        if delta:
            for name in record.spanned:
                setattr(symbol, name, _shifted(fields[name], delta))
        if symbol.kind == "struct" and isinstance(symbol.type, t.Struct):
            # As a fresh resolution does, so that the next version keeps this struct object too.
            symbol.type = checker.reuse.stable_struct(symbol.type)
        if record.diagnostics:
            if delta:
                ctx.diagnostics.extend([d.shifted(delta) for d in record.diagnostics])
            else:
                ctx.diagnostics.extend(record.diagnostics)
        model = ctx.model
        if record.types:
            if not delta:
                model.written_types.update(record.types)
            else:
                written = model.written_types
                for (s, e, kind), value in record.types.items():
                    written[(s + delta, e + delta, kind)] = value
        if record.references:
            module = checker.module_scope.symbols
            written = model.written_references
            for (s, e), name in record.references.items():
                written[(s + delta, e + delta)] = module[name]
        if record.said is not None:
            portability, enables, uses = record.said
            ctx.add_said_once(portability, enables,
                              {family: Span(s.start + delta, s.end + delta) for family, s in uses.items()})
        if record.dialects:
            model.matrix_dialects |= record.dialects

    # ------------------------------------------------------------ record
    def _record(self, checker, key: tuple, symbol, start: int, end: int, check,
                said_before: tuple) -> HeaderRecord | None:
        ctx = checker.ctx
        model = ctx.model
        before = dict(vars(symbol))
        diagnostics_before = len(ctx.diagnostics)
        dialects_before = set(model.matrix_dialects)
        outside = (checker.resolutions, len(checker.module_scope.symbols), _edges(checker),
                   len(model.written_symbols))
        types, references, calls = model.written_types, model.written_references, model.written_calls
        model.written_types, model.written_references, model.written_calls = {}, {}, {}
        lookups_outside, checker.module_lookups = checker.module_lookups, {}
        completed = False
        try:
            check()
            completed = True
        finally:
            new_types, new_references, new_calls = model.written_types, model.written_references, model.written_calls
            model.written_types, model.written_references, model.written_calls = types, references, calls
            types.update(new_types)
            references.update(new_references)
            calls.update(new_calls)
            lookups, checker.module_lookups = checker.module_lookups, lookups_outside
            if lookups_outside is not None:
                for name, found in lookups.items():
                    lookups_outside.setdefault(name, found)
        if not completed or new_calls:
            return
        # The signature step runs inside symbol_type, which counted this resolution before it began.
        if (checker.resolutions, len(checker.module_scope.symbols), _edges(checker),
                len(model.written_symbols)) != outside:
            return

        def inside(s: int, e: int) -> bool:
            return start <= s and e <= end if s < e else start < s < end

        diagnostics = ctx.diagnostics[diagnostics_before:]
        if not all(inside(s.start, s.end) for d in diagnostics for s in d.spans()):
            return
        if not all(inside(s, e) for s, e, _ in new_types):
            return
        module = checker.module_scope.symbols
        recorded_references = {}
        for (s, e), target in new_references.items():
            if not inside(s, e) or module.get(target.name) is not target:
                return
            recorded_references[(s, e)] = target.name
        signatures = {}
        for name, found in lookups.items():
            signature = checker.reuse._signature(found)
            if signature is _UNRESOLVED:
                return
            signatures[name] = signature
        absent = set()
        for word in set(_NAME.findall(key[1])):
            name = word.decode()
            if name in signatures or name == symbol.name:
                continue
            found = module.get(name)
            if found is None:
                absent.add(name)
                continue
            signature = checker.reuse._signature(found)
            if signature is _UNRESOLVED:
                return
            signatures[name] = signature
        fields = {}
        for name, value in vars(symbol).items():
            if before.get(name, _NOT_SET) is not value:
                if not _spans_inside(value, inside):
                    return
                fields[name] = value
        portability, enables, uses = ctx.said_once()
        before_portability, before_enables, before_uses = said_before
        new_uses = {family: span for family, span in uses.items() if family not in before_uses}
        if not all(inside(s.start, s.end) for s in new_uses.values()):
            return
        holder = _Holder(tuple(fields.values()), tuple(new_types.values()))
        structs = _structs_of([holder])
        struct_texts = {}
        # Also those of the symbol's own types: the stage check walks the members of its parameters' and
        # return type's structs, whose IO attributes no type holds.
        for name in structs.keys() | _structs_of([symbol]).keys():
            declared = module.get(name)
            node = declared.declaration if declared is not None else None
            if node is None:
                return
            struct_texts[name] = ctx.source.data[node.start_byte:node.end_byte]
        said = (portability - before_portability, enables - before_enables, new_uses)
        record = self._records.current[key] = HeaderRecord(
            start, key, signatures, frozenset(absent), struct_texts, fields,
            tuple(n for n, v in fields.items() if _has_span(v)), structs,
            diagnostics, dict(new_types), recorded_references,
            said if any(said) else None, frozenset(model.matrix_dialects - dialects_before))
        others = bool(record.diagnostics or record.references or record.said is not None or record.dialects)
        record.adds = others or bool(record.types)
        record.types_only = not others and bool(record.types)
        record.empty = not record.adds and not fields and symbol.kind != "struct"
        return record


class _Holder:
    """Values to search for struct types, shaped as _structs_of reads a symbol."""

    __slots__ = ("type", "parameters", "return_type")

    def __init__(self, fields: tuple, types: tuple) -> None:
        self.type, self.parameters, self.return_type = fields, types, None


def _edges(checker) -> tuple:
    """What a step could add to the checker's module-wide tables (call edges, @id values, bindings)."""
    return (sum(len(c) for c in checker.calls.values()), len(checker.calls), len(checker.function_dependencies),
            len(checker.override_ids), len(checker.binding_points), len(checker.var_uses))


def _spans_inside(value: object, inside) -> bool:
    if isinstance(value, Span):
        return inside(value.start, value.end)
    if isinstance(value, (tuple, list)):
        return all(_spans_inside(v, inside) for v in value)
    return True


def _has_span(value: object) -> bool:
    if isinstance(value, Span):
        return True
    return isinstance(value, (tuple, list)) and any(_has_span(v) for v in value)


_new_span = object.__new__


def _shifted(value: object, delta: int) -> object:
    """`value` with each span in it moved by `delta`. Every replayed entry point's @workgroup_size places go
    through here each version, so without generators, and each span made as Context.span makes one: a
    recorded span moved to where its header is now is within the text, as Span's own check would find."""
    if not delta:
        return value
    if isinstance(value, Span):
        span = _new_span(Span)
        _set_span_start(span, value.start + delta)
        _set_span_end(span, value.end + delta)
        return span
    if isinstance(value, tuple):
        for item in value:
            if isinstance(item, (Span, tuple)):
                break
        else:
            return value
        moved = []
        for item in value:
            if isinstance(item, Span):
                span = _new_span(Span)
                _set_span_start(span, item.start + delta)
                _set_span_end(span, item.end + delta)
                moved.append(span)
            else:
                moved.append(_shifted(item, delta) if isinstance(item, tuple) else item)
        return tuple(moved)
    return value

