"""Reusing a function's uniformity summary and failures from the previous version of a document.

A function's analysis reads its own subtree, the semantic model of its body,
the module-scope declarations it names, and the summaries of the functions
it calls. So its result is replayed, shifted to where the function now
starts, when:

- its text is the same and its body's semantic check was itself replayed
  from the record this result was computed with (coop_lsp.semantic.reuse:
  same text, same meaning of every module-scope name it uses). A result is
  kept by that record (with the level and dialect) rather than by the text:
  BodyReuse finds a record by its function's text alone, so the same record
  means the same text, and no function's text is sliced and hashed here;
- the module's other declarations (variables, constants, structs...) have
  the same kinds and texts in the same order, wherever they now start: what
  the analysis reads of them is their meaning, never their place (a module
  variable's note is at its read, inside the function). Where they changed,
  the declarations of every name the body looked up at module scope (its
  semantic record's lookups) must have the same texts, those without a name
  (directives, assertions) too, and the function's own stage, workgroup and
  subgroup sizes, inputs and parameter types must be the same (read from
  its header, which may name constants and structs): a declaration the
  function names nowhere changes nothing it reads;
- the analysis level and matrix dialect are the same;
- every function it calls got its summary from the same record, wherever it
  now starts; or, where a callee's record is new (its text was edited, or a
  function it calls was), the callee's new summary says the same as the one
  the caller read in every part a caller's analysis reads (the requirements
  inherited at a call and on each argument and pointee, with their messages
  and notes, what the returned value depends on, the writes through
  pointers), its places aside. A caller's analysis only copies the places
  of its callee's summary into its own results, never compares or orders
  them, so its result is the recorded one with each such place replaced by
  the one the new summary has at the same part (callee_reading.py). Such a
  replay is recorded anew, against the callees' new records.

A result names places inside its function and inside the functions it calls,
directly or not (their requirements' spans and notes). Each of those moved
by its own amount since the result was made, so a record keeps where each
such function then was, by name (the callees are found by name, as the
checker resolves a call), and a replay moves every span by the amount its
own function moved. The callees' texts are those recorded: a callee's record
is the same object only where it was replayed itself, which needs the same
of its own callees.

A recursive call (invalid WGSL, analysed as an empty summary) stops
recording for the rest of the analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ...core.text import Span
from ...semantic.kept import KeptRecords
from ...semantic.model import SemanticModel
from ...semantic.reuse import BodyReuse
from ...syntax import nodes as sn
from .analyzer import Failure, Note, Summary, UncalledSummary, _Pending
from .callee_reading import read_alike


@dataclass(eq=False)
class SummaryRecord:
    start: int
    end: int
    key: tuple  # level, dialect
    semantic: object  # the BodyRecord of the body's semantic check
    header: tuple
    named: dict  # the header's declarations by name (None: those without one), as _declarations makes them
    own: tuple  # what the analysis reads of the function's own symbol, as _own makes it
    # Callee name, the record its summary came from, the summary as this result's analysis read it (where
    # the callees were when this result was made).
    calls: list[tuple[str, object, Summary]]
    # Every function called, directly or not, by name: (its start, its end) when this result was made.
    reached: dict[str, tuple[int, int]]
    summary: object
    failures: list


class SummaryReuse:
    """The uniformity results of one document's last version, by function text and level."""

    def __init__(self) -> None:
        self._records = KeptRecords()  # SummaryRecord by level, dialect and the body's semantic record
        self.header: tuple = ()
        self.named: dict = {}
        self.model: SemanticModel | None = None
        self.bodies: BodyReuse | None = None
        self.functions: dict[str, ts.Node] = {}
        self.replayed = 0
        self.analysed = 0
        self.moved = 0  # replayed summaries that a caller read, so that they had to be moved
        self.relinked = 0  # replayed summaries whose callees' records were new but read alike

    def begin(self, root: ts.Node, data: bytes, model: SemanticModel, bodies: BodyReuse) -> None:
        self._records.begin()
        self.bodies = bodies
        self.replayed = self.analysed = self.moved = self.relinked = 0
        header = tuple((n.type, data[n.start_byte:n.end_byte]) for n in root.named_children
                       if n.type != "function_declaration" and not n.is_extra)
        # The last version's object when equal: every record's comparison with it is then one of identity.
        if header != self.header:
            self.header = header
            self.named = _declarations(root, data)  # (made only where the declarations changed)
        self.model = model
        # A name's function is the first one declared with it, as the checker resolves it.
        self.functions = {}
        for symbol in model.written_symbols:  # (functions are module-scope declarations: all written)
            if symbol.kind == "function" and symbol.declaration is not None:
                self.functions.setdefault(symbol.name, symbol.declaration)

    def end(self) -> None:
        self._records.end()
        self.model = None  # (the version's model is freed with its analysis, not kept to the next one)

    def replay(self, analysis, function: ts.Node) -> tuple[object, list, SummaryRecord] | None:
        """The recorded summary and failures, moved to where `function` is now, if still valid."""
        if self.bodies is None:
            return None
        semantic = self.bodies.used.get(function.start_byte)
        if semantic is None:
            return None
        key = (analysis.level, analysis.dialect, semantic)
        record = self._records.get(key)
        if record is None:
            return None
        header = self.header
        if record.header is not header and record.header != header and not self._names_same(record, function):
            # (a spare record may hold the result computed with this version's declarations)
            record = self._records.other(key, record)
            if record is None or (record.header is not header and record.header != header
                                  and not self._names_same(record, function)):
                return None
        functions = self.functions
        moves = ()
        spans = None  # where a callee's record is new: each place it read of the callee, now
        if record.calls:  # (most functions call none)
            for name, _, _ in record.calls:
                if name not in functions:
                    return None
            # The callees in the order the function first called them: an analysis computes them in that
            # order, so failures keep the order a fresh analysis gives them.
            records, summaries = analysis.records, analysis.summaries
            for name, callee_record, read in record.calls:
                callee = functions[name]
                analysis.summary(callee)
                now = records.get(callee.start_byte)
                if now is not callee_record:
                    if now is None:
                        return None
                    if spans is None:
                        spans = {}
                    if not read_alike(read, summaries[callee.start_byte], spans):
                        return None
            if spans is not None:
                return self._relinked(analysis, function, key, record, spans)
            moves = [(start, end, functions[name].start_byte - start) for name, (start, end)
                     in record.reached.items() if functions[name].start_byte != start]
        delta = function.start_byte - record.start
        self._records.current[key] = record
        self.replayed += 1
        if isinstance(record.summary, UncalledSummary):
            # Made where nothing called the function: a caller that reads it now has it made whole.
            summary = _WholeSummary(analysis, function)
            if not delta and not moves:
                return summary, record.failures, record
            move = _Mover(record.start, record.end, delta, moves)
            return summary, [move.failure(f) for f in record.failures], record
        if not delta and not moves:  # nothing replayed is changed by its users, so it can be shared
            return record.summary, record.failures, record
        move = _Mover(record.start, record.end, delta, moves)
        return _MovedSummary(self, move, record.summary), [move.failure(f) for f in record.failures], record

    def _relinked(self, analysis, function: ts.Node, key: tuple, record: SummaryRecord, spans: dict
                  ) -> tuple[object, list, SummaryRecord] | None:
        """The replay of a result whose callees read alike though some have new records: each place the
        result holds from a callee's summary replaced by the new summary's (`spans`), its own places and
        those of the unchanged callees moved as usual. Recorded anew against the callees' new records, so
        that the next version finds the same records again."""
        if not analysis.recording:  # (as record(): a recursive call was met, and nothing more is recorded)
            return None
        functions, records, summaries = self.functions, analysis.records, analysis.summaries
        calls = [(name, functions[name].start_byte) for name, _, _ in record.calls]
        dependencies, reached = _dependencies(functions, records, summaries, calls)
        if dependencies is None:
            return None
        # Every other place moved by its function's delta; a function gone since has no delta, and each of
        # its places must then be one the new summaries gave (as must those of the changed callees).
        moves, unmoved = [], []
        changed = {name for (name, old, _), (_, now, _) in zip(record.calls, dependencies) if now is not old}
        for name, (start, end) in record.reached.items():
            callee = functions.get(name)
            if callee is None or name in changed:
                unmoved.append((start, end))
            elif callee.start_byte != start:
                moves.append((start, end, callee.start_byte - start))
        delta = function.start_byte - record.start
        move = _Mover(record.start, record.end, delta, moves, spans, unmoved)
        # What the unchanged callees' summaries said when read, moved as they moved. (This version's summaries
        # of theirs were not read: one may still hold the version's whole analysis, _WholeSummary.)
        unchanged = _Mover(record.start, record.end, delta, moves) if moves else None
        for at, ((name, old, read), (_, now, _)) in enumerate(zip(record.calls, dependencies)):
            if now is old:
                dependencies[at] = (name, now, _MovedSummary(self, unchanged, read) if unchanged else read)
        failures = [move.failure(f) for f in record.failures]
        summary = record.summary if isinstance(record.summary, UncalledSummary) else move.summary(record.summary)
        if move.lost:
            return None
        relinked = SummaryRecord(function.start_byte, function.end_byte, record.key, record.semantic, record.header,
                                 record.named, record.own, dependencies, reached, summary, failures)
        self._records.current[key] = relinked
        self.replayed += 1
        self.relinked += 1
        if isinstance(summary, UncalledSummary):
            return _WholeSummary(analysis, function), failures, relinked
        return summary, failures, relinked

    def record(self, analysis, function: ts.Node, summary, failures: list, calls: list[tuple[str, int]]
               ) -> SummaryRecord | None:
        self.analysed += 1
        semantic = self.bodies.used.get(function.start_byte) if self.bodies is not None else None
        if semantic is None or not analysis.recording:
            return None
        dependencies, reached = _dependencies(self.functions, analysis.records, analysis.summaries, calls)
        if dependencies is None:
            return None
        record = SummaryRecord(function.start_byte, function.end_byte, (analysis.level, analysis.dialect),
                               semantic, self.header, self.named, self._own(function), dependencies, reached,
                               summary, list(failures))
        self._records.current[(analysis.level, analysis.dialect, semantic)] = record
        return record

    def _names_same(self, record: SummaryRecord, function: ts.Node) -> bool:
        """Whether what the function reads of the module's declarations is as recorded, where they changed."""
        named, recorded = self.named, record.named
        if named.get(None) != recorded.get(None):
            return False
        for name in record.semantic.lookups:
            if named.get(name) != recorded.get(name):
                return False
        return self._own(function) == record.own

    def _own(self, function: ts.Node) -> tuple:
        name = sn.name(function)
        symbol = self.model.symbol_at(name.start_byte, name.end_byte) if name is not None else None
        if symbol is None or symbol.kind != "function":
            return (None,)
        return (symbol.stage, symbol.workgroup_size, symbol.subgroup_size, symbol.inputs, symbol.parameters)


# The module-scope declarations that declare a name (a function's body may look it up).
_NAMED_DECLARATIONS = frozenset({"const_declaration", "override_declaration", "variable_declaration",
                                 "struct_declaration", "type_alias_declaration"})


def _dependencies(functions: dict, records: dict, summaries: dict, calls: list[tuple[str, int]]
                  ) -> tuple[list | None, dict]:
    """What a result records of its callees (`calls`: name, start now): each one's record and summary as
    read, and where every function called, directly or not, now is; None where a callee has no record."""
    dependencies = []
    reached: dict[str, tuple[int, int]] = {}
    for name, start in calls:
        callee_record = records.get(start)
        callee = functions.get(name)
        if callee_record is None or callee is None or callee.start_byte != start:
            return None, reached
        dependencies.append((name, callee_record, summaries[start]))
        reached[name] = (start, start + callee_record.end - callee_record.start)
        # The callee's own callees, where they are now (its record's were found by name, as here).
        for inner, (inner_start, inner_end) in callee_record.reached.items():
            now = functions[inner].start_byte
            reached[inner] = (now, now + inner_end - inner_start)
    return dependencies, reached


def _declarations(root: ts.Node, data: bytes) -> dict:
    """The module's declarations but functions, as (kind, text) in order, by the name each declares; the
    others (directives, assertions) under None."""
    found: dict = {}
    for node in root.named_children:
        kind = node.type
        if kind == "function_declaration" or node.is_extra:
            continue
        name = sn.name(node) if kind in _NAMED_DECLARATIONS else None
        key = data[name.start_byte:name.end_byte].decode("utf-8", errors="replace") if name is not None else None
        found[key] = found.get(key, ()) + ((kind, data[node.start_byte:node.end_byte]),)
    return found


class _Mover:
    """Moves the spans inside [start, end] by `delta`, and those inside each other (start, end) of `moves`
    by its own delta: the spans of callees (in notes of inherited requirements) that moved otherwise.

    Where callees' records are new, `spans` gives the new place of each span read from their summaries,
    by its old offsets; a span inside one of `unmoved` (a changed or removed callee) that it does not
    give sets `lost`: the result cannot be replayed."""

    def __init__(self, start: int, end: int, delta: int, moves: list[tuple[int, int, int]] = (),
                 spans: dict | None = None, unmoved: list[tuple[int, int]] = ()) -> None:
        self.start, self.end, self.delta = start, end, delta
        self.moves = moves
        self.spans, self.unmoved = spans, unmoved
        self.lost = False
        # A summary names the same few places many times (a call's requirements share its span, inherited
        # ones their callee's notes); spans are immutable, so each is moved once. Keyed by identity (a
        # Span hashes in Python code): the record being moved keeps every key alive meanwhile.
        self._moved: dict[int, Span] = {}
        self._notes: dict[int, Note] = {}

    def span(self, span: Span | None) -> Span | None:
        if span is None:
            return None
        moved = self._moved.get(id(span))
        if moved is None:
            moved = self._moved[id(span)] = self._place(span)
        return moved

    def _place(self, span: Span) -> Span:
        # (Functions never overlap, so a span is inside one of them at most; an empty span strictly inside.)
        start, end = span.start, span.end
        if (self.start <= start and end <= self.end) if start < end else self.start < start < self.end:
            return Span(start + self.delta, end + self.delta) if self.delta else span
        if self.spans is not None:
            now = self.spans.get((start, end))
            if now is not None:
                return now
            for low, high in self.unmoved:
                if (low <= start and end <= high) if start < end else low < start < high:
                    self.lost = True
                    return span
        for low, high, delta in self.moves:
            if (low <= start and end <= high) if start < end else low < start < high:
                return Span(start + delta, end + delta)
        return span

    def note(self, note: Note) -> Note:
        # Notes are never changed once made either, and callers' requirements share them.
        moved = self._notes.get(id(note))
        if moved is None:
            span = self.span(note.span)
            moved = self._notes[id(note)] = note if span is note.span else Note(note.message, span)
        return moved

    def pending(self, p: _Pending) -> _Pending:
        return _Pending(p.requirement, self.span(p.span), p.message, p.target, [self.note(n) for n in p.inner_notes],
                        p.builtin, self.span(p.call), p.inherited)

    def summary(self, s: Summary) -> Summary:
        return Summary([self.pending(p) for p in s.call_site],
                       {i: [self.pending(p) for p in ps] for i, ps in s.parameters.items()},
                       s.return_non_uniform, self.note(s.return_source) if s.return_source is not None else None,
                       set(s.return_parameters), {i: [self.pending(p) for p in ps] for i, ps in s.pointees.items()},
                       dict(s.pointer_writes))

    def failure(self, f: Failure) -> Failure:
        return Failure(f.requirement, self.span(f.span), f.message, [self.note(n) for n in f.notes], f.function,
                       f.builtin, self.span(f.call), f.depends)


def _moved_field(name: str) -> property:
    return property(lambda self: getattr(self._moved(), name))


class _LazySummary(Summary):
    """A summary made when a caller first reads one of its fields."""

    _done: Summary | None = None

    def _moved(self) -> Summary:
        raise NotImplementedError

    call_site = _moved_field("call_site")
    parameters = _moved_field("parameters")
    return_non_uniform = _moved_field("return_non_uniform")
    return_source = _moved_field("return_source")
    return_parameters = _moved_field("return_parameters")
    pointees = _moved_field("pointees")
    pointer_writes = _moved_field("pointer_writes")


class _WholeSummary(_LazySummary):
    """A replayed UncalledSummary: its function analysed again in this version when a caller reads it
    (a call of an entry point, which WGSL forbids)."""

    def __init__(self, analysis, function: ts.Node) -> None:
        # (not Summary's __init__: its fields are read-only properties here)
        self._analysis, self._function = analysis, function

    def _moved(self) -> Summary:
        if self._done is None:
            self._done = self._analysis.whole_summary(self._function)
            self._analysis = self._function = None
        return self._done


class _MovedSummary(_LazySummary):
    """A replayed summary, moved to where its function now is when a caller first reads it.

    Most replayed summaries are never read in a version: their callers were replayed too, and a replay
    only checks that its callees' records are the same. Moving every requirement of every function
    after the edit cost as much as analysing the edited one."""

    def __init__(self, reuse: SummaryReuse, mover: _Mover, summary: Summary) -> None:
        # (not Summary's __init__: its fields are read-only properties here)
        self._reuse, self._mover, self._summary, self._done = reuse, mover, summary, None

    def _moved(self) -> Summary:
        if self._done is None:
            self._done = self._mover.summary(self._summary)
            self._reuse.moved += 1
            self._reuse = self._mover = self._summary = None
        return self._done
