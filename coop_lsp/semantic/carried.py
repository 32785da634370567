"""The carried steps of a declaration outside the edited function, applied in one call per phase.

While a version is carried (carry.py), a declaration the edit did not touch has the text it had at
its mapped place, and every one of its steps (its resolution or signature, its body, its checks after
the bodies) finds the record the last carried-from version applied there. The ordinary way reaches
that record through symbol_type, _resolve_module_symbol, HeaderReuse.run and Carry.step for each step,
each frame asking again what the carrying settled for the whole version. Here the same entries are
taken and applied as those calls would, in one frame:

- the entry taken is the one Carry.step would answer: the next step's, of the same kind, at this
  declaration's mapped start (a step is known by its kind and start); the end it would compare is this
  declaration's own end or its body's start, the same text's at the mapped place (Carry.begin compared
  every module-scope child's place, and the same text without errors parses to the same subtree);
- no such declaration has a syntax error (Carry.begin: only the edited function can), and none of its
  steps is nested in another declaration's resolution (they are taken at module scope, by Checker.run);
- anything else (another entry, a record checked afresh there, a struct that is not the recorded one)
  takes nothing and leaves the step to the ordinary way, which then makes it as it always did.

What is applied is what the ordinary way applies: the header record (HeaderReuse._apply) with the
resolution symbol_type counts and marks, the body record (BodyReuse.apply), the same counts, kept
records and entries for the next version.
"""

from __future__ import annotations

from ..core.text import Span
from . import types as t
from .header_reuse import _shifted
from .model import Replayed
from .reuse import _replayed_locals, _ReplayedUses

_ERROR = t.ERROR


def carried_declaration(checker, node, symbol, function: bool):
    """Applies the carried resolution of `symbol` (a function's signature) and, for a function, its body;
    None where nothing was applied, False where only the resolution was (the body goes the ordinary way),
    True where every step of this phase was."""
    carry = checker.reuse.carry
    start = node.start_byte
    if not carry.active or start == carry._edited_start or symbol.resolved:
        return None
    delta = _header_step(checker, node, symbol, "signature" if function else "declaration", function)
    if delta is None:
        return None
    if not function:
        return True
    # The body, as Checker._checked_body applies a carried one.
    index = carry.index
    entries = carry.last.entries
    entry = entries[index] if index < len(entries) else None
    if entry is None or entry[0] != "body" or entry[1] != start - delta:
        return False
    record = entry[4]
    if record is None:
        return False
    key = entry[3]
    checker.reuse.apply(checker, record, symbol, node, key)
    end = node.end_byte
    was = entry[5]
    after = was if was is True or not carry._delta else False
    carry.current.entries.append(entry if not delta and entry[2] == end and after is was
                                 else ("body", start, end, key, record, after))
    carry.index = index + 1
    carry.carried += 1
    return True


def carried_declarations(checker, declared: list, kinds) -> None:
    """Checker.run's first phase while carrying, over `declared` ((node, symbol or None), in order): per
    declaration, what carried_declaration applies, or the ordinary way's steps where it applies nothing or
    only the resolution, in the same order as that loop takes them one by one.

    Besides the frames, what this saves is reading again per declaration what does not change during the
    phase: the last version's entries, this version's list of them and its kept records, the edit's places
    (set by Carry.begin), the model's and the checker's tables, and each node's places, each a call into
    tree-sitter. What changes (whether the carrying is on, a symbol resolved on the way by another's step)
    is read at each declaration, as there. The counts the steps keep (the step number, steps carried,
    resolutions, records replayed) are kept here and handed over before any ordinary step, which reads
    them, and at the end: an unchanged declaration's steps then cost no write to another object's count."""
    reuse = checker.reuse
    carry, headers = reuse.carry, reuse.headers
    run = _Run(checker, True)
    entries, count, noted = run.entries, run.count, run.noted
    kept_headers, kept_bodies, used = run.kept_headers, reuse._records.current, reuse.used
    prefix, suffix_start, moved, edited_start = carry._prefix, carry._suffix_start, carry._delta, carry._edited_start
    ctx = checker.ctx
    diagnostics, model, root = ctx.diagnostics, ctx.model, ctx.root
    starts, segments, written_symbols = model._starts, model.replayed, model.written_symbols
    written_types = model.written_types
    module = checker.module_scope.symbols
    structs_now = reuse._structs_current
    var_uses, calls, alias_facts, alias_deltas = checker.var_uses, checker.calls, checker.alias_facts, \
        checker.alias_deltas
    said_once = ctx.add_said_once
    index = carry.index
    for node, symbol in declared:
        if symbol is None:
            continue
        # (by the symbol's kind, which only a function_declaration's symbol has: the node's kind is a call into
        # tree-sitter, for every declaration at every version)
        function = symbol.kind == "function"
        done = None
        if carry.active and not symbol.resolved:
            start = node.start_byte
            entry = entries[index] if index < count and start != edited_start else None
            kind = "signature" if function else "declaration"
            if entry is not None and entry[0] == kind:
                # (the resolution: _header_step's, with `function` given)
                end = node.end_byte
                delta = 0 if end <= prefix else moved if start >= suffix_start else None
                record = entry[4]
                if delta is not None and record is not None and entry[1] == start - delta and (
                        not record.structs or headers._same_structs(checker, record, symbol)):
                    # (HeaderReuse._apply's, written out for a record that adds nothing or types alone)
                    if record.adds and not record.types_only or symbol.kind == "struct":
                        headers._apply(checker, record, symbol, start)
                    else:
                        fields = record.fields
                        symbol.__dict__.update(fields)
                        shift = start - record.start
                        if record.types_only:
                            if shift:
                                for (s, e, type_kind), value in record.types.items():
                                    written_types[(s + shift, e + shift, type_kind)] = value
                            else:
                                written_types.update(record.types)
                        if shift and record.spanned:
                            for name in record.spanned:
                                setattr(symbol, name, _shifted(fields[name], shift))
                    if function:
                        symbol.type = _ERROR
                    symbol.resolved = True
                    kept_headers[entry[3]] = record
                    noted.append(entry if not delta else (kind, start, entry[2] + delta, entry[3], record, True))
                    index += 1
                    done = True
                    if function:
                        # (the body: carried_declaration's)
                        body = entries[index] if index < count else None
                        if body is None or body[0] != "body" or body[1] != start - delta or body[4] is None:
                            done = False
                        else:
                            key, record, was = body[3], body[4], body[5]
                            # (BodyReuse.apply_at's, written out in the same order)
                            shift = start - record.start
                            if record.diagnostics:
                                diagnostics.extend([d.shifted(shift) for d in record.diagnostics] if shift
                                                   else record.diagnostics)
                            if record.structs:
                                for name, old in record.structs.items():
                                    if structs_now.get(name) is not old:
                                        reuse.restructure(record, symbol, module)
                                        break
                            segment = Replayed(start, end, shift, record.types, record.references,
                                               record.builtin_calls, (_replayed_locals, record.locals, root),
                                               module, len(written_symbols))
                            if not starts or starts[-1] <= start:
                                starts.append(start)
                                segments.append(segment)
                            else:
                                model.add_replayed(segment)
                            portability, enables, uses = record.said
                            if portability or enables or uses:
                                said_once(portability, enables,
                                          {family: Span(s.start + shift, s.end + shift) for family, s in uses.items()})
                            if record.matrix_dialects:
                                model.matrix_dialects |= record.matrix_dialects
                            if record.var_uses:
                                if symbol in var_uses:
                                    var_uses[symbol].extend(_ReplayedUses(record, shift, module))
                                else:
                                    var_uses[symbol] = _ReplayedUses(record, shift, module)
                            if record.calls:
                                calls.setdefault(symbol, []).extend(map(module.__getitem__, record.calls))
                            if record.alias is not None:
                                alias_facts[symbol] = record.alias
                                alias_deltas[symbol] = shift
                            kept_bodies[key] = record
                            used[start] = record
                            after = was if was is True or not moved else False
                            noted.append(body if not delta and body[2] == end and after is was
                                         else ("body", start, end, key, record, after))
                            index += 1
        if done is None:
            run.hand_over(index)
            checker.symbol_type(symbol)
            index = run.take_back()
        if function and not done:
            run.hand_over(index)
            checker._checked_body(symbol, node)
            index = run.take_back()
    run.hand_over(index)


def carried_checks_phase(checker, declared: list, kinds, collisions) -> None:
    """Checker.run's checks after the bodies while carrying, over `declared` as carried_declarations: per
    declaration, what carried_checks applies, else the ordinary way's (Checker._checks_after_bodies); then
    an entry point's findings (Checker._entry_point_checks), asked only where there may be some: with no
    binding finding in the last version, `collisions` answers nothing for every entry point."""
    reuse = checker.reuse
    carry, headers = reuse.carry, reuse.headers
    run = _Run(checker, False)
    entries, count, noted, kept_headers = run.entries, run.count, run.noted, run.kept_headers
    prefix, suffix_start, moved, edited_start = carry._prefix, carry._suffix_start, carry._delta, carry._edited_start
    written_types = checker.ctx.model.written_types
    quiet = collisions is not None and not carry.last.collisions
    index = carry.index
    for node, symbol in declared:
        if symbol is None:
            continue
        function = symbol.kind == "function"  # (as carried_declarations reads it)
        # (read before the step, as the ordinary way reads it)
        stage = symbol.stage if function else None
        done = False
        if carry.active and index < count:
            start = node.start_byte
            entry = entries[index]
            if start != edited_start and entry is not None and entry[0] == "checks":
                delta = 0 if node.end_byte <= prefix else moved if start >= suffix_start else None
                record = entry[4]
                if delta is not None and record is not None and entry[1] == start - delta and (
                        not record.structs or headers._same_structs(checker, record, symbol)):
                    if record.empty:
                        pass  # (most declarations' checks: nothing to apply but the record kept and noted)
                    elif record.adds and not record.types_only or symbol.kind == "struct":
                        headers._apply(checker, record, symbol, start)
                    else:
                        fields = record.fields
                        symbol.__dict__.update(fields)
                        shift = start - record.start
                        if record.types_only:
                            if shift:
                                for (s, e, type_kind), value in record.types.items():
                                    written_types[(s + shift, e + shift, type_kind)] = value
                            else:
                                written_types.update(record.types)
                        if shift and record.spanned:
                            for name in record.spanned:
                                setattr(symbol, name, _shifted(fields[name], shift))
                    kept_headers[entry[3]] = record
                    noted.append(entry if not delta else ("checks", start, entry[2] + delta, entry[3], record, True))
                    index += 1
                    done = True
        if not done:
            run.hand_over(index)
            checker._checks_after_bodies(node, symbol, function, stage)
            index = run.take_back()
        if stage is not None and not (quiet and stage not in _WITH_IO):
            run.hand_over(index)
            checker._entry_point_checks(node, symbol, stage, collisions)
            index = run.take_back()
    run.hand_over(index)


_WITH_IO = frozenset({"vertex", "fragment"})  # the stages whose entry points Checker._entry_point_checks checks further


class _Run:
    """What a loop over the carried declarations reads once, and the counts its carried steps make, found when
    handed over rather than kept step by step: every step the loop took itself since the last hand-over was
    carried (the ordinary way's steps move the step number on their own), and each carried body added one
    segment to the model."""

    __slots__ = ("checker", "carry", "entries", "count", "noted", "kept_headers", "segments", "bodies", "mark",
                 "segments_mark")

    def __init__(self, checker, bodies: bool) -> None:
        reuse = checker.reuse
        carry = reuse.carry
        self.checker, self.carry = checker, carry
        self.entries = carry.last.entries
        self.count = len(self.entries)
        self.noted = carry.current.entries
        self.kept_headers = reuse.headers._records.current
        self.segments = checker.ctx.model.replayed
        self.bodies = bodies  # whether the loop carries resolutions and bodies (else: checks after the bodies)
        self.take_back()

    def hand_over(self, index: int) -> None:
        """Hands the step number `index`, and the counts of the steps carried since the last hand-over, to
        the objects whose counts they are: an ordinary step reads and moves them."""
        carry = self.carry
        steps = index - self.mark
        if steps:
            carry.carried += steps
            reuse = self.checker.reuse
            if self.bodies:
                bodies = len(self.segments) - self.segments_mark
                self.checker.resolutions += steps - bodies  # (one per carried resolution, as symbol_type counts)
                reuse.replayed += bodies
                reuse.headers.replayed += steps - bodies
            else:
                reuse.headers.replayed += steps
        carry.index = index

    def take_back(self) -> int:
        """The step number after an ordinary step, from which the loop counts again."""
        self.mark = index = self.carry.index
        self.segments_mark = len(self.segments)
        return index


def _apply_header(checker, headers, record, symbol, start: int) -> None:
    """HeaderReuse._apply, its common case written out: a record that adds nothing but its fields, of
    a declaration other than a struct (whose type _apply keeps as the last version's object)."""
    if record.adds or symbol.kind == "struct":
        headers._apply(checker, record, symbol, start)
        return
    fields = record.fields
    symbol.__dict__.update(fields)
    if record.spanned:
        delta = start - record.start
        if delta:
            for name in record.spanned:
                setattr(symbol, name, _shifted(fields[name], delta))


def carried_checks_by_step(checker, node, symbol) -> bool:
    """carried_checks through _header_step, as it was before carried_checks took that step in its own frame
    (Checker.run takes this one where its AT_ONCE is off, which the tests compare)."""
    carry = checker.reuse.carry
    if not carry.active or node.start_byte == carry._edited_start:
        return False
    return _header_step(checker, node, symbol, "checks") is not None


def carried_checks(checker, node, symbol) -> bool:
    """Applies the carried checks after the bodies of `symbol`'s declaration (its attributes, an entry point's
    shader IO); False where nothing was applied. (_header_step's, without `function`, in one frame.)"""
    carry = checker.reuse.carry
    if not carry.active:
        return False
    start = node.start_byte
    if start == carry._edited_start:
        return False
    index = carry.index
    entries = carry.last.entries
    if index >= len(entries):
        return False
    entry = entries[index]
    if entry is None or entry[0] != "checks":
        return False
    if node.end_byte <= carry._prefix:
        delta = 0
    elif start >= carry._suffix_start:
        delta = carry._delta
    else:
        return False
    record = entry[4]
    if entry[1] != start - delta or record is None:
        return False
    reuse = checker.reuse
    headers = reuse.headers
    if record.structs and not headers._same_structs(checker, record, symbol):
        return False
    _apply_header(checker, headers, record, symbol, start)
    headers._records.current[entry[3]] = record
    headers.replayed += 1
    carry.current.entries.append(entry if not delta else ("checks", start, entry[2] + delta, entry[3], record, True))
    carry.index = index + 1
    carry.carried += 1
    return True


def _header_step(checker, node, symbol, kind: str, function: bool | None = None) -> int | None:
    """Applies the next carried entry where it is the `kind` step of this declaration (its mapped start) with a
    header record that still holds; the shift it was applied with, or None where nothing was. `function` is
    given for a resolution ("signature" or "declaration"), which counts and marks as symbol_type does."""
    reuse = checker.reuse
    carry = reuse.carry
    index = carry.index
    entries = carry.last.entries
    if index >= len(entries):
        return None
    entry = entries[index]
    if entry is None or entry[0] != kind:
        return None
    start = node.start_byte
    if node.end_byte <= carry._prefix:
        delta = 0
    elif start >= carry._suffix_start:
        delta = carry._delta
    else:
        return None
    record = entry[4]
    if entry[1] != start - delta or record is None:
        return None
    headers = reuse.headers
    if record.structs and not headers._same_structs(checker, record, symbol):
        return None  # (the ordinary way stops the carrying there)
    if function is not None:
        checker.resolutions += 1  # as symbol_type around the step: one resolution more, the symbol resolved
    headers._apply(checker, record, symbol, start)
    if function is not None:
        if function:
            symbol.type = _ERROR
        symbol.resolved = True
    headers._records.current[entry[3]] = record
    headers.replayed += 1
    carry.current.entries.append(entry if not delta else (kind, start, entry[2] + delta, entry[3], record, True))
    carry.index = index + 1
    carry.carried += 1
    return delta
