"""A run of carried declarations applied together, by C's loops rather than one step of Python per step.

carried.py takes the unchanged declarations' steps one by one: per declaration a few dozen operations of
Python to find and check its entries and as many to apply its records. Most versions of an edit carry every
declaration but the edited one, their records adding nothing but fields, model tables and the next
version's entries; then what every step does is the same for all, and it is done here for a whole run of
them with map, zip and the tables' own update and extend, whose loops run in C.

A run starts at a declaration and ends before the first that is not like the others, which carried.py
then takes the ordinary way (one by one): a declaration without a symbol, a struct (its resolution makes
the struct object the later bodies' records are compared with), the edited function, one whose symbol
another's step resolved already, one on the other side of the edit (a run moves by one shift), one whose
steps are not the next entries at its mapped start, with records, or whose records are not quiet (they
would add findings, say something once, use a dialect, hold or meet structs: the order of those matters).

Why the result is carried.py's: for each declaration of the run, carried.py checks the same entry fields
(kind, mapped start, a record) and applies the same records the same way, and the run's records are
quiet. Their effects go to the declaration's own symbol, the model's types and segments, the checker's
tables of uses, calls and alias facts, the kept records and the next version's entries: each table is
written in the same order as one by one (each pass goes over the run in order), and no step of the run
reads what another writes (a header record reads nothing; a body record reads the structs of the version,
which only a struct's resolution changes, and the module's symbols, which none of them declares). The
counts follow from the step number and the model's segments (carried._Run).
"""

from __future__ import annotations

import bisect
import operator
from collections import deque
from itertools import accumulate, chain, compress, islice, repeat

from ..core.text import SET_SPAN_END, SET_SPAN_START, Span
from . import types as t
from .header_reuse import _shifted
from .model import Replayed
from .reuse import _replayed_locals, _ReplayedUses
from ..syntax.nodes import FIELD_BODY, KIND_NAMES

_FUNCTION = "function_declaration"
_KIND_ID, _START, _END = operator.attrgetter("kind_id"), operator.attrgetter("start_byte"), operator.attrgetter("end_byte")
_NODE, _SYMBOL = operator.itemgetter(0), operator.itemgetter(1)
_STEP_KIND, _STEP_START, _STEP_END, _STEP_KEY, _STEP_RECORD, _STEP_AFTER = map(operator.itemgetter, range(6))
_RESOLVED, _QUIET, _FIELDS = operator.attrgetter("resolved"), operator.attrgetter("quiet"), operator.attrgetter("fields")
_STATE, _RECORD_START, _TYPES = operator.attrgetter("__dict__"), operator.attrgetter("start"), operator.attrgetter("types")
_SPANNED, _STRUCTS, _LOCALS = operator.attrgetter("spanned"), operator.attrgetter("structs"), operator.attrgetter("locals")
_REFERENCES, _BUILTIN_CALLS = operator.attrgetter("references"), operator.attrgetter("builtin_calls")
_VAR_USES, _CALLS, _ALIAS = operator.attrgetter("var_uses"), operator.attrgetter("calls"), operator.attrgetter("alias")
_SPAN_START, _SPAN_END = operator.attrgetter("start"), operator.attrgetter("end")
_FIRST, _SECOND, _THIRD = operator.itemgetter(0), operator.itemgetter(1), operator.itemgetter(2)
_STAGE = operator.attrgetter("stage")
_BODY = operator.methodcaller("child_by_field_id", FIELD_BODY)
_WITH_IO = frozenset({"vertex", "fragment"})  # the stages whose entry points have their IO checked too
_CHECKED_STEPS = {_FUNCTION: ("signature", "body")}  # the first phase's steps of each kind of declaration
_STEP_COUNTS = {_FUNCTION: 2}


class Declarations:
    """The first phase's declarations as carried_run reads them: their nodes' places and kinds, each asked
    of tree-sitter once for all of them, and where the edit splits them."""

    __slots__ = ("nodes", "symbols", "kinds", "starts", "ends", "before", "after", "edited", "_header_ends")

    def __init__(self, declared: list, carry) -> None:
        self.nodes = nodes = list(map(_NODE, declared))
        self.symbols = list(map(_SYMBOL, declared))
        self.kinds = list(map(KIND_NAMES.__getitem__, map(_KIND_ID, nodes)))
        self.starts, self.ends = list(map(_START, nodes)), list(map(_END, nodes))
        # (in order, one after another: those ending before the edit, then at most one holding it, then those
        # starting in the unchanged end)
        self.before = bisect.bisect_right(self.ends, carry._prefix)
        self.after = max(self.before, bisect.bisect_left(self.starts, carry._suffix_start))
        self.edited = bisect.bisect_left(self.starts, carry._edited_start) if carry._edited_start >= 0 else -1
        self._header_ends: list | None = None

    def header_ends(self) -> list:
        """Where the text the checks after the bodies look for an '@' in ends: a function's body, another
        declaration's end (as Checker._checks_after_bodies and _may_hold_attributes look)."""
        if self._header_ends is None:
            ends = list(self.ends)
            functions = list(compress(range(len(ends)), map(operator.eq, self.kinds, repeat(_FUNCTION))))
            bodies = list(map(_BODY, map(self.nodes.__getitem__, functions)))
            if None in bodies:  # (a function without a body: its header ends where it does)
                functions = list(compress(functions, map(operator.is_not, bodies, repeat(None))))
                bodies = list(compress(bodies, map(operator.is_not, bodies, repeat(None))))
            deque(map(ends.__setitem__, functions, map(_START, bodies)), maxlen=0)
            self._header_ends = ends
        return self._header_ends


def carried_run(checker, view: Declarations, position: int, index: int, window: int) -> tuple[int, int]:
    """Applies the carried steps of the declarations from `position` on (entries from the step `index` on),
    as many as form a run (see the module docstring) and at most `window`: (the position after them, the step
    after theirs); (position, index) where none do."""
    reuse = checker.reuse
    carry = reuse.carry
    moved = carry._delta
    symbols, kinds, starts = view.symbols, view.kinds, view.starts
    if position < view.before:
        limit, delta = view.before, 0
    elif position >= view.after:
        limit, delta = len(symbols), moved
    else:
        return position, index
    if position <= view.edited < limit:
        limit = view.edited
    limit = min(limit, position + window)
    if None in symbols[position:limit]:
        limit = symbols.index(None, position, limit)
    if "struct_declaration" in kinds[position:limit]:
        limit = kinds.index("struct_declaration", position, limit)
    resolved = list(map(_RESOLVED, symbols[position:limit]))
    if True in resolved:
        limit = position + resolved.index(True)
    if limit <= position:
        return position, index
    run_kinds = kinds[position:limit]
    counts = list(map(_STEP_COUNTS.get, run_kinds, repeat(1)))
    ends_of_steps = list(accumulate(counts))
    entries = carry.last.entries[index:index + ends_of_steps[-1]]
    if None in entries:
        entries = entries[:entries.index(None)]
    expected_kinds = list(chain.from_iterable(map(_CHECKED_STEPS.get, run_kinds, repeat(("declaration",)))))
    expected_starts = list(chain.from_iterable(map(repeat, starts[position:limit], counts)))
    records = list(map(_STEP_RECORD, entries))
    if None in records:
        del entries[records.index(None):]
        del records[len(entries):]
    good = list(map(operator.and_, map(operator.eq, map(_STEP_KIND, entries), expected_kinds),
                    map(operator.eq, map(operator.add, map(_STEP_START, entries), repeat(delta)), expected_starts)))
    if False in good:
        del entries[good.index(False):]
        del records[len(entries):]
    # (records by kind and place checked above: a header's and a body's both say whether they are quiet)
    good = list(map(operator.and_, map(_QUIET, records), map(operator.is_, map(_STEP_AFTER, entries), repeat(True))))
    steps = good.index(False) if False in good else len(good)
    is_body = list(map(operator.eq, expected_kinds[:steps], repeat("body")))
    body_steps = list(compress(range(steps), is_body))
    structs = list(map(_STRUCTS, map(records.__getitem__, body_steps)))
    if structs:
        # (each struct a body's record holds must be this version's of its name, as BodyReuse.apply_at finds)
        current = reuse._structs_current
        owners = chain.from_iterable(map(repeat, range(len(structs)), map(len, structs)))
        olds = list(chain.from_iterable(map(dict.values, structs)))
        news = map(current.get, chain.from_iterable(map(dict.keys, structs)))
        stale = list(compress(owners, map(operator.is_not, news, olds)))
        if stale:
            steps = body_steps[stale[0]]
    taken = bisect.bisect_right(ends_of_steps, steps)  # the declarations whose every step is good
    if not taken:
        return position, index
    steps = ends_of_steps[taken - 1]
    end = position + taken
    del entries[steps:]
    del records[steps:]
    is_body = is_body[:steps]
    is_header = list(map(operator.not_, is_body))
    run_symbols = symbols[position:end]
    function_mask = list(map(operator.eq, run_kinds[:taken], repeat(_FUNCTION)))
    functions = list(compress(run_symbols, function_mask))
    var_uses = checker.var_uses
    if any(map(var_uses.__contains__, functions)):
        return position, index  # (never while carrying: only the body being checked notes uses)
    headers, bodies = list(compress(records, is_header)), list(compress(records, is_body))
    header_entries, body_entries = list(compress(entries, is_header)), list(compress(entries, is_body))
    function_starts = list(compress(starts[position:end], function_mask))
    function_ends = list(compress(view.ends[position:end], function_mask))
    new_ends = list(map(operator.add, map(_STEP_END, entries), repeat(delta)))
    if list(compress(new_ends, is_body)) != function_ends:
        return position, index  # (a body's text not where the carry mapped it: the ordinary way decides)
    _apply_headers(checker, run_symbols, headers, header_entries, starts[position:end])
    exhaust = deque(maxlen=0).extend
    exhaust(map(setattr, functions, repeat("type"), repeat(t.ERROR)))
    exhaust(map(setattr, run_symbols, repeat("resolved"), repeat(True)))
    _apply_bodies(checker, functions, bodies, body_entries, function_starts, function_ends)
    noted = carry.current.entries
    if not delta and new_ends == list(map(_STEP_END, entries)):
        noted.extend(entries)  # (unmoved: the last version's entries themselves, as carried.py notes them)
    else:
        noted.extend(zip(map(_STEP_KIND, entries), expected_starts[:steps], new_ends, map(_STEP_KEY, entries),
                         records, repeat(True)))
    return end, index + steps


def carried_checks_run(checker, view: Declarations, position: int, index: int, window: int,
                       quiet: bool) -> tuple[int, int]:
    """carried_run for the checks after the bodies (carried.carried_checks_phase): the declarations from
    `position` on whose checks are the next entries, at their mapped starts, with quiet records, or have no
    attribute to check (no '@' where Checker._checks_after_bodies looks for one: no step, nothing done); and
    whose entry point, if they are one, has nothing more to check (`quiet`: no binding finding to carry, and
    not a vertex or fragment stage; else none)."""
    carry = checker.reuse.carry
    symbols, kinds, starts = view.symbols, view.kinds, view.starts
    if position < view.before:
        limit, delta = view.before, 0
    elif position >= view.after:
        limit, delta = len(symbols), carry._delta
    else:
        return position, index
    if position <= view.edited < limit:
        limit = view.edited
    limit = min(limit, position + window)
    if None in symbols[position:limit]:
        limit = symbols.index(None, position, limit)
    if "struct_declaration" in kinds[position:limit]:
        limit = kinds.index("struct_declaration", position, limit)
    # (an entry point's stage as the phase reads it, before the step: anything else than none, or than a
    # compute one with nothing to carry, has more to check)
    stages = list(map(_STAGE, symbols[position:limit]))
    functions = list(map(operator.eq, kinds[position:limit], repeat(_FUNCTION)))
    checked = list(map(operator.and_, functions, map(operator.is_not, stages, repeat(None)))) if not quiet else \
        list(map(operator.and_, functions, map(_WITH_IO.__contains__, stages)))
    if True in checked:
        limit = position + checked.index(True)
    if limit <= position:
        return position, index
    entries = carry.last.entries[index:index + limit - position]
    if None in entries:
        entries = entries[:entries.index(None)]
    kinds_good = list(map(operator.eq, map(_STEP_KIND, entries), repeat("checks")))
    if False in kinds_good:
        del entries[kinds_good.index(False):]
    records = list(map(_STEP_RECORD, entries))
    if None in records:
        del entries[records.index(None):]
        del records[len(entries):]
    quiet_records = list(map(_QUIET, records))
    if False in quiet_records:
        del entries[quiet_records.index(False):]
        del records[len(entries):]
    where = dict(zip(starts[position:limit], range(limit - position)))
    places = list(map(where.get, map(operator.add, map(_STEP_START, entries), repeat(delta))))
    if None in places:
        del places[places.index(None):]
    # (in order, as the entries are: each a later declaration than the one before)
    if not all(map(operator.lt, places, places[1:])):
        return position, index
    # A declaration no entry is for is taken where the ordinary way does nothing for it: no '@' where
    # Checker._checks_after_bodies looks for one.
    matched = list(repeat(False, limit - position))
    deque(map(matched.__setitem__, places, repeat(True)), maxlen=0)
    data = checker.ctx.source.data
    attributed = map(operator.le, repeat(0), map(data.find, repeat(b"@"), starts[position:limit],
                                                 view.header_ends()[position:limit]))
    good = list(map(operator.or_, matched, map(operator.not_, attributed)))
    length = good.index(False) if False in good else len(good)
    if not length:
        return position, index
    taken = bisect.bisect_left(places, length)
    del entries[taken:], records[taken:], places[taken:]
    run_starts = list(map(starts.__getitem__, map(operator.add, places, repeat(position))))
    run_symbols = list(map(symbols.__getitem__, map(operator.add, places, repeat(position))))
    _apply_headers(checker, run_symbols, records, entries, run_starts)
    noted = carry.current.entries
    if not delta:
        noted.extend(entries)
    else:
        noted.extend(zip(repeat("checks"), run_starts, map(operator.add, map(_STEP_END, entries), repeat(delta)),
                         map(_STEP_KEY, entries), records, repeat(True)))
    return position + length, index + taken


def _apply_headers(checker, symbols: list, records: list, entries: list, starts: list) -> None:
    """Header records (quiet: fields and model types), as carried.py applies each."""
    exhaust = deque(maxlen=0).extend
    exhaust(map(dict.update, map(_STATE, symbols), map(_FIELDS, records)))
    shifts = list(map(operator.sub, starts, map(_RECORD_START, records)))
    if any(shifts):
        moving = list(map(operator.and_, map(bool, map(_SPANNED, records)), map(bool, shifts)))
        if any(moving):
            _spanned_moved(list(compress(symbols, moving)), list(compress(records, moving)),
                           list(compress(shifts, moving)))
    types = list(map(_TYPES, records))
    if any(types):
        written = checker.ctx.model.written_types
        items = list(chain.from_iterable(map(dict.items, types)))
        keys = list(map(_FIRST, items))
        moved = list(chain.from_iterable(map(repeat, shifts, map(len, types))))
        written.update(zip(zip(map(operator.add, map(_FIRST, keys), moved), map(operator.add, map(_SECOND, keys), moved),
                               map(_THIRD, keys)), map(_SECOND, items)))
    checker.reuse.headers._records.current.update(zip(map(_STEP_KEY, entries), records))


def _spanned_moved(symbols: list, records: list, shifts: list) -> None:
    """Sets each record's fields that hold spans, moved by its shift, on its symbol (as _shifted moves them):
    by C's loops where they are tuples of spans (an entry point's @workgroup_size places), else one by one."""
    names = list(chain.from_iterable(map(_SPANNED, records)))
    counts = list(map(len, map(_SPANNED, records)))
    owners = list(chain.from_iterable(map(repeat, symbols, counts)))
    values = list(map(dict.__getitem__, chain.from_iterable(map(repeat, map(_FIELDS, records), counts)), names))
    moves = list(chain.from_iterable(map(repeat, shifts, counts)))
    moved = _tuples_of_spans_moved(values, moves)
    if moved is None:
        moved = list(map(_shifted, values, moves))
    deque(map(setattr, owners, names, moved), maxlen=0)


def _tuples_of_spans_moved(values: list, moves: list) -> list | None:
    """Each of `values` (tuples of spans) with its spans moved by its move, as new tuples of new spans; None
    where one is another kind of value."""
    if set(map(type, values)) != {tuple}:
        return None
    lengths = list(map(len, values))
    items = list(chain.from_iterable(values))
    if set(map(type, items)) - {Span}:
        return None
    steps = list(chain.from_iterable(map(repeat, moves, lengths)))
    spans = list(map(object.__new__, repeat(Span, len(items))))
    exhaust = deque(maxlen=0).extend
    exhaust(map(SET_SPAN_START, spans, map(operator.add, map(_SPAN_START, items), steps)))
    exhaust(map(SET_SPAN_END, spans, map(operator.add, map(_SPAN_END, items), steps)))
    made = iter(spans)
    # (an empty tuple stays as it is, as _shifted leaves it: the empty tuple is one object)
    return list(map(tuple, map(islice, repeat(made), lengths)))


def _apply_bodies(checker, symbols: list, records: list, entries: list, starts: list, ends: list) -> None:
    """The bodies' records (quiet, their structs this version's), as BodyReuse.apply_at applies each."""
    if not records:
        return
    reuse, ctx = checker.reuse, checker.ctx
    model = ctx.model
    module = checker.module_scope.symbols
    shifts = list(map(operator.sub, starts, map(_RECORD_START, records)))
    # (Replayed(...) for each, its slots set by C: what its __init__ sets, without a frame per body)
    count = len(records)
    segments = list(map(object.__new__, repeat(Replayed, count)))
    exhaust = deque(maxlen=0).extend
    for name, values in (("start", starts), ("end", ends), ("delta", shifts), ("types", map(_TYPES, records)),
                         ("calls", map(_BUILTIN_CALLS, records)), ("references", map(_REFERENCES, records)),
                         ("module", repeat(module, count)), ("at", repeat(len(model.written_symbols), count)),
                         ("_make_locals", zip(repeat(_replayed_locals), map(_LOCALS, records), repeat(ctx.root))),
                         ("_locals", repeat(None, count))):
        exhaust(map(setattr, segments, repeat(name), values))
    if not model._starts or model._starts[-1] <= starts[0]:
        model._starts.extend(starts)
        model.replayed.extend(segments)
    else:
        deque(map(model.add_replayed, segments), maxlen=0)
    using = list(map(bool, map(_VAR_USES, records)))
    uses = list(map(object.__new__, repeat(_ReplayedUses, using.count(True))))
    for name, values in (("record", compress(records, using)), ("delta", compress(shifts, using)),
                         ("module", repeat(module))):
        exhaust(map(setattr, uses, repeat(name), values))
    checker.var_uses.update(zip(compress(symbols, using), uses))
    calls = checker.calls
    for symbol, record in compress(zip(symbols, records), map(bool, map(_CALLS, records))):
        calls.setdefault(symbol, []).extend(map(module.__getitem__, record.calls))
    aliased = list(map(operator.is_not, map(_ALIAS, records), repeat(None)))
    if any(aliased):
        checker.alias_facts.update(zip(compress(symbols, aliased), map(_ALIAS, compress(records, aliased))))
        checker.alias_deltas.update(zip(compress(symbols, aliased), compress(shifts, aliased)))
    reuse._records.current.update(zip(map(_STEP_KEY, entries), records))
    reuse.used.update(zip(starts, records))
