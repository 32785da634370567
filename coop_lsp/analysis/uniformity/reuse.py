"""Reusing a function's uniformity summary and failures from the previous version of a document.

A function's analysis reads its own subtree, the semantic model of its body,
the module-scope declarations it names, and the summaries of the functions
it calls. So its result is replayed, shifted to where the function now
starts, when:

- its text is the same and its body's semantic check was itself replayed
  from the record this result was computed with (coop_lsp.semantic.reuse:
  same text, same meaning of every module-scope name it uses);
- the module's other declarations (variables, constants, structs...) have
  the same text at the same places (their positions are keys and notes);
- the analysis level and matrix dialect are the same;
- every function it calls is declared at the same place and got its summary
  from the same record (so the callees' spans in its notes are right).

A recursive call (invalid WGSL, analysed as an empty summary) stops
recording for the rest of the analysis.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import tree_sitter as ts

from ...core.text import Span
from ...semantic.model import SemanticModel
from ...semantic.reuse import BodyReuse


@dataclass(eq=False)
class SummaryRecord:
    start: int
    end: int
    key: tuple  # level, dialect
    semantic: object  # the BodyRecord of the body's semantic check
    header: tuple
    calls: list[tuple[str, int, object]]  # callee name, its start, the record its summary came from
    summary: object
    failures: list


class SummaryReuse:
    """The uniformity results of one document's last version, by function text and level."""

    def __init__(self) -> None:
        self._previous: dict[tuple, SummaryRecord] = {}
        self._current: dict[tuple, SummaryRecord] = {}
        self.header: tuple = ()
        self.bodies: BodyReuse | None = None
        self.functions: dict[str, ts.Node] = {}
        self.replayed = 0
        self.analysed = 0

    def begin(self, root: ts.Node, data: bytes, model: SemanticModel, bodies: BodyReuse) -> None:
        self._current = {}
        self.bodies = bodies
        self.replayed = self.analysed = 0
        self.header = tuple((n.start_byte, n.type, data[n.start_byte:n.end_byte]) for n in root.named_children
                            if n.type != "function_declaration" and not n.is_extra)
        # A name's function is the first one declared with it, as the checker resolves it.
        self.functions = {}
        for symbol in model.symbols:
            if symbol.kind == "function" and symbol.declaration is not None:
                self.functions.setdefault(symbol.name, symbol.declaration)

    def end(self) -> None:
        self._previous = self._current

    def replay(self, analysis, function: ts.Node) -> tuple[object, list, SummaryRecord] | None:
        """The recorded summary and failures, moved to where `function` is now, if still valid."""
        text = analysis.data[function.start_byte:function.end_byte]
        key = (analysis.level, analysis.dialect, text)
        record = self._current.get(key) or self._previous.get(key)
        if record is None or self.bodies is None or self.bodies.used.get(function.start_byte) is not record.semantic \
                or record.header != self.header:
            return None
        for name, start, callee_record in record.calls:
            callee = self.functions.get(name)
            if callee is None or callee.start_byte != start:
                return None
        # The callees in the order the function first called them: an analysis computes them in that
        # order, so failures keep the order a fresh analysis gives them.
        for name, start, callee_record in record.calls:
            analysis.summary(self.functions[name])
            if analysis.records.get(start) is not callee_record:
                return None
        delta = function.start_byte - record.start
        self._current[key] = record
        self.replayed += 1
        return (_moved(record.summary, record.start, record.end, delta),
                [_moved(f, record.start, record.end, delta) for f in record.failures], record)

    def record(self, analysis, function: ts.Node, summary, failures: list, calls: list[tuple[str, int]]
               ) -> SummaryRecord | None:
        self.analysed += 1
        semantic = self.bodies.used.get(function.start_byte) if self.bodies is not None else None
        if semantic is None or not analysis.recording:
            return None
        dependencies = []
        for name, start in calls:
            callee_record = analysis.records.get(start)
            if callee_record is None or self.functions.get(name) is None \
                    or self.functions[name].start_byte != start:
                return None
            dependencies.append((name, start, callee_record))
        text = analysis.data[function.start_byte:function.end_byte]
        record = SummaryRecord(function.start_byte, function.end_byte, (analysis.level, analysis.dialect),
                               semantic, self.header, dependencies, summary, list(failures))
        self._current[(analysis.level, analysis.dialect, text)] = record
        return record


def _moved(value, start: int, end: int, delta: int):
    """`value` (a summary, failure, note or span) with the spans inside [start, end] moved by `delta`.

    Spans outside are the callees' (in notes of inherited requirements); the
    callee check above makes sure those are where they were.
    """
    if not delta:
        return value
    if isinstance(value, Span):
        if (start <= value.start and value.end <= end) if value.start < value.end else start < value.start < end:
            return Span(value.start + delta, value.end + delta)
        return value
    if isinstance(value, list):
        return [_moved(v, start, end, delta) for v in value]
    if isinstance(value, dict):
        return {k: _moved(v, start, end, delta) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_moved(v, start, end, delta) for v in value)
    if dataclasses.is_dataclass(value) and type(value).__name__ in _MOVABLE:
        return dataclasses.replace(value, **{f.name: _moved(getattr(value, f.name), start, end, delta)
                                             for f in dataclasses.fields(value) if f.init})
    return value


# The analyzer's classes that hold spans (a Requirement holds none).
_MOVABLE = frozenset({"Summary", "_Pending", "Note", "Failure"})
