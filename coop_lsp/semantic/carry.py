"""Carrying the replays of the last version over, step by step, without validating them again.

Every version, each unchanged declaration's steps (its resolution or signature, its body, its header
checks after the bodies) find their record by a key made of their text and state, and validate it:
the names it looked up still mean the same, what was said once before it is the same, and so on.
When a version differs from the last carried-from one only inside one function's body, that validation
gives the same answer it gave then, so the record that version applied at each step is applied again
at once. A carried-from version is one whose syntax errors, if any, lie inside one function's body or
in ERROR nodes at module scope (`placed` below); the others are checked the ordinary way and leave the
last carried-from version in place. Why that equals a fresh check:

- The steps are the checker's calls of `HeaderReuse.run` and `Checker._checked_body`, numbered in the
  order they happen. What a step reads is its node's text and the checker's state when it starts:
  the module's declarations (their names and what their steps set on their symbols), what was said
  once (portability notes, enables asked for, first dialect uses), the matrix dialects used, the
  enables and the configured dialect, and which declarations were resolved already.
- `begin` requires: both trees placed; the same configured dialect; the same module-scope children
  (ERROR nodes among them) in the same order at the same places (after the edit, moved by its delta)
  except one function, whose header is the same and whose body holds every changed byte. Both texts
  are then the same outside that body, so every other step's node has the same text (and, parsed
  without errors, the same subtree) at the mapped place.
- Placed, with errors: every error of the new version lies in the edited function's body or in a
  module-scope ERROR node outside the change (one of the children above, so the same text at the
  mapped place in both versions); every other declaration, and the edited function's header, has no
  error. The last version's errored function, if it had one, is the edited one (its unchanged text
  may be parsed otherwise now). No step reads a module-scope ERROR node but by its text (the header
  steps' key) or its kind (a `var` before one reports nothing missing): both the same. The edited
  function's header steps read the header's children only (attributes, parameters, return type; a
  type name's parent is a type_specifier, not the function, whose has_error differs): the same
  subtree, so the record applied then is applied again. The errored body itself is checked the
  ordinary way, not replayed and not recorded, like every errored body: what it reads inside itself
  (ERROR and MISSING nodes, its partial statements) is this version's own.
- By induction on the step number: if every step before step i did what the last carried-from version did
  at its step i, the state at step i is that version's, and a step with the same number, kind and
  text does the same. The record it applied then passed every check that `replay` makes; those
  checks read only that state and that text, so they pass again and find it. A step that was checked
  afresh there goes the ordinary way here, and does the same from the same state (a fresh check reads
  nothing else; the struct objects it makes are mapped to the earlier ones by `stable_struct`, and a
  carried record's structs are compared as objects still). A step whose counterpart is missing or has
  another number ends the carrying: it and every later step go the ordinary way, which is exact
  whatever came before.
- The edited body is the one step that reads other text, with or without errors. It leaves the state
  as it found it when its check resolves no declaration, says nothing once, uses no new dialect and
  declares nothing at module scope (`neutral`). When it is neutral in both versions the state after it
  is equal in both, and the induction goes on. Else the state after it is compared (`after`): what
  was said once, with the places of first dialect uses; the dialects used; the number of module-scope
  symbols and of resolutions; the number of steps so far. Steps nested in it (a declaration it
  resolves first) go the ordinary way, in the state its partial check made, and must have applied the
  very record the last version's nested step of the same number applied, to the same declaration:
  a record sets the same fields whatever validated it, so the symbols they resolved hold what they
  held then. With all that equal the state after the body is the last version's, and the induction
  goes on; else the carrying ends there. A body carried past keeps the state it recorded only while
  the text did not move (its places would be stale), else `after` becomes unknown (False), which
  ends the carrying the next time that body is the edited one.
- What the edited body changes outside the state above (its calls, variable uses, alias facts, local
  symbols) is read only after every step: the call cycles, aliasing, bindings and stage IO checks run
  as always, over every function.

The binding check of each entry point (`binding_collisions`) reads, besides the module's variables and
their attributes, which variables each function it reaches uses first and which functions each calls.
When every step was carried or did the same (the carrying still on after the bodies) and the edited
body calls the same functions and first uses the same variables in the same order as it did then,
each entry point's findings are that version's, moved (`collisions`); they name declarations only,
none inside the edited body.

The alias check (semantic/aliasing.py) reads every function's alias facts, their places moved to where
each function is now: when the carrying went on past the bodies and the edited body's facts are the ones
it had then, mapped, its findings are that version's, moved (`aliasing`), and no function is walked.

A carried step still adds its record's findings and model entries, moved by the edit's delta where
it lies after the edit, and keeps its record in the tables for the next version: the work per
unchanged function is what applying a record costs, without making a key or validating it. A carried
step that did not move, and whose `after` is the one it had, notes the last version's entry itself (a
tuple: the same values as a copy), and a carried header record that holds no struct compares none.
"""

from __future__ import annotations

import bisect
import itertools
import operator

from ..core.diagnostic import Diagnostic
from ..core.text import Span
from ..syntax.nodes import FIELD_BODY, KIND_NAMES

_KIND_ID, _START, _END = operator.attrgetter("kind_id"), operator.attrgetter("start_byte"), operator.attrgetter("end_byte")
_HAS_ERROR = operator.attrgetter("has_error")
_KIND_OF, _START_OF, _END_OF = operator.itemgetter(0), operator.itemgetter(1), operator.itemgetter(2)


class _Steps:
    """One carried-from version's steps, in the order they happened: per step, (kind, start, end, key,
    record, after), `end` being where the text the step reads ends (a function's header ends at its
    body); `after`: True for a neutral step, a body's state after it (Checker._checked_body), or False
    for unknown."""

    __slots__ = ("data", "dialect", "children", "entries", "collisions", "errored", "uses", "aliasing", "edited_alias",
                 "names")

    def __init__(self, data: bytes, dialect, children: list, errored: int) -> None:
        self.data, self.dialect, self.children = data, dialect, children
        self.errored = errored  # the start of the one function whose body holds the syntax errors, or -1
        self.entries: list[tuple] = []
        self.collisions: dict[int, list] = {}  # entry point's start -> its binding findings, where any
        self.uses: dict[int, tuple] = {}  # the edited body's step -> (its calls, its variables in order)
        self.aliasing: list | None = None  # the alias check's findings (Checker.check_aliasing), once found
        # The edited function's start and its alias facts as that check read them (None: it has none), where
        # its body was checked as the edited one.
        self.edited_alias: tuple | None = None
        # Per module-scope declaration, in order: (its name, the name's span, its symbol's kind), or None where it
        # declared nothing (Checker._declare_module, which reads the last version's while carrying).
        self.names: list = []


EDITED = object()  # what `step` answers for the edited body


class Carry:
    """The steps of one document's last carried-from version, and where this version stands against them."""

    def __init__(self) -> None:
        self.last: _Steps | None = None
        self.current: _Steps | None = None
        self.active = False
        self.index = 0
        self.carried = 0  # steps carried in the latest check
        self._prefix = self._suffix_start = self._delta = 0
        self._edited_start = -1
        self.errored_start = -1  # this version's function whose body holds every syntax error, or -1
        self._inside_edited = False
        self._same_outside = True  # whether the edited body calls and first uses what it did then
        self.index_of_edited = -1

    def begin(self, data: bytes, dialect, children: list, root) -> None:
        """`children`: the module's named children that are not extras (the checker's _module_children);
        `root`: the tree's root."""
        self.index = self.carried = 0
        self.active, self._inside_edited, self._edited_start = False, False, -1
        self.errored_start = -1
        self._same_outside = True
        errored = None
        if root.has_error:
            placed, errored = _where_errors_are(root)
            if not placed:
                self.current = None
                return
            if errored is not None:
                self.errored_start = errored.start_byte
        # (kinds by id: node.type would make a new string per child per version; syntax/nodes.py says more.
        # Each child's three made by C, not a step of Python per child: the same tuples.)
        shapes = list(zip(map(KIND_NAMES.__getitem__, map(_KIND_ID, children)), map(_START, children),
                          map(_END, children)))
        self.current = _Steps(data, dialect, shapes, self.errored_start)
        last = self.last
        if last is None or last.dialect != dialect or len(last.children) != len(shapes):
            return
        old = last.data
        prefix = _common_prefix(old, data)
        suffix = _common_suffix(old, data, min(len(old), len(data)) - prefix)
        delta = len(data) - len(old)
        suffix_start = len(data) - suffix  # where the unchanged end begins in this version
        # The children lie in order: those before the edit (ending in the common prefix), then at most one
        # holding it, then those after it (starting in the unchanged end), compared by slices in C rather than
        # a step of Python per child: before it, the same as then; after it, then's moved by `delta`.
        ends = list(map(_END_OF, shapes))
        before = bisect.bisect_right(ends, prefix)
        after = max(before, bisect.bisect_left(list(map(_START_OF, shapes)), suffix_start))
        was = last.children
        if shapes[:before] != was[:before]:
            return
        if delta:
            moved_after = list(zip(map(_KIND_OF, was[after:]), map(operator.add, map(_START_OF, was[after:]),
                                                                   itertools.repeat(delta)),
                                   map(operator.add, map(_END_OF, was[after:]), itertools.repeat(delta))))
            if shapes[after:] != moved_after:
                return
        elif shapes[after:] != was[after:]:
            return
        edited = None
        if after - before > 1:
            return
        if after - before == 1:
            (kind, start, end), then = shapes[before], was[before]
            if not (kind == "function_declaration" and then[0] == kind and then[1] == start and start < prefix
                    and end >= suffix_start and then[2] >= len(old) - suffix):
                return
            edited = children[before]
        if edited is None:
            if prefix != len(old) or delta:
                return
            if errored is not None:
                # The same text again, with errors: its errored body is taken as the edited one, checked.
                edited = errored
        if errored is not None and edited.start_byte != errored.start_byte:
            return  # (errors outside the edited body: another declaration's tree may have changed)
        if last.errored >= 0 and (edited is None or edited.start_byte != last.errored):
            return  # (that version's errored body, unchanged here, may parse otherwise now)
        if edited is not None:
            body = edited.child_by_field_id(FIELD_BODY)
            # Every changed byte inside the body, in both versions (the header's text is the same: the
            # step that reads it finds its counterpart ending at the same byte).
            if body is None or body.start_byte > prefix:
                return
            self._edited_start = edited.start_byte
        self._prefix, self._suffix_start, self._delta = prefix, suffix_start, delta
        self.active = True

    def step(self, kind: str, start: int, end: int):
        """Counts a step over this version's bytes [start, end) and answers the last carried-from version's
        entry to apply, EDITED for the edited body, or None (the ordinary way, and no carrying after)."""
        index = self.index
        self.index = index + 1
        if self.current is not None:
            self.current.entries.append(None)  # (filled by `note` once the step is done: steps nest)
        if not self.active:
            return None
        if self._inside_edited:
            return None  # (a declaration the edited body resolves first: the ordinary way; see edited_done)
        entries = self.last.entries
        entry = entries[index] if index < len(entries) else None
        if entry is None or entry[0] != kind:
            self.active = False
            return None
        if kind == "body" and start == self._edited_start:
            # (asked first: with the same text again the edited body lies in the common prefix too)
            if entry[1] != start or entry[5] is False:
                self.active = False
                return None
            self._inside_edited = True
            self.index_of_edited = index
            return EDITED
        if end <= self._prefix:
            if entry[1] != start or entry[2] != end:
                self.active = False
                return None
        elif start >= self._suffix_start:
            delta = self._delta
            if entry[1] != start - delta or entry[2] != end - delta:
                self.active = False
                return None
        else:
            self.active = False
            return None
        if entry[4] is None:
            # Checked afresh there (a body that resolves a declaration first, say): the ordinary way
            # here does the same from the same state, so the steps after it may still be carried.
            return None
        self.carried += 1
        return entry

    def edited_done(self, after, uses: tuple) -> None:
        """The edited body was checked; `after`: True where it left the state as it found it, else that
        state (see `state_after`); `uses`: the functions it calls (names, in order) and the variables it
        uses, each once in the order of their first use."""
        self._inside_edited = False
        index = self.index_of_edited
        was = self.last.entries[index][5]
        if after is True:
            same = was is True
        else:
            same = after is not False and after == was and self._same_nested(index + 1)
        if not same:
            self.active = False
        self.current.uses[index] = uses
        old = self.last.uses.get(index)
        if old is None:
            record = self.last.entries[index][4]
            old = (tuple(record.calls), record.var_order) if record is not None else None
        self._same_outside = old == uses

    def names_to_carry(self, count: int) -> tuple | None:
        """While carrying, the last carried-from version's declared names (_Steps.names), when it declared
        `count` (as this version: the same module-scope children) and where this version's names lie: those
        that end by `unchanged_end` are where they were, those from `moved_from` (that version's places) moved by
        `delta`; (names, unchanged_end, moved_from, delta). None where they must be read from the tree.

        Every byte before the edit is the same, and so is every byte after it, moved: a declaration other than
        the edited function has the same text, without errors, at its mapped place, and so the same name there.
        The edited function's name is left to the tree (its header is the same text, but it is the one node
        whose subtree holds the change)."""
        if not self.active:
            return None
        names = self.last.names
        if len(names) != count:
            return None
        edited = self._edited_start
        return names, edited if edited >= 0 else self._prefix, self._suffix_start - self._delta, self._delta

    def moved(self) -> bool:
        """Whether the text after the edit moved against the last version's."""
        return self._delta != 0

    def _same_nested(self, first: int) -> bool:
        """Whether the steps from `first` on (those nested in the edited body) applied the records the last
        version's did there, to the same declarations: then they set what they set then."""
        new, old = self.current.entries, self.last.entries
        prefix, suffix_start, delta = self._prefix, self._suffix_start, self._delta
        for index in range(first, self.index):
            step, was = new[index], old[index]
            if step is None or was is None or step[0] != was[0] or step[4] is None or step[4] is not was[4]:
                return False
            if step[2] <= prefix:
                if (step[1], step[2]) != (was[1], was[2]):
                    return False
            elif step[1] < suffix_start or (step[1] - delta, step[2] - delta) != (was[1], was[2]):
                return False
        return True

    def collisions(self):
        """A function of an entry point's start giving its binding findings from the last carried-from version,
        moved; None where they must be found again."""
        if not (self.active and self._same_outside):
            return None
        found, prefix, suffix_start, delta = self.last.collisions, self._prefix, self._suffix_start, self._delta
        current = self.current

        def carried(start: int) -> list:
            was = start if start < prefix else start - delta
            diagnostics = found.get(was)
            if not diagnostics:
                return []
            moved = [_moved(d, prefix, suffix_start - delta, delta) for d in diagnostics]
            current.collisions[start] = moved
            return moved
        return carried

    def note_edited_alias(self, facts) -> None:
        """The edited body's alias facts (aliasing.AliasFacts, moved to its place, or None), as checked."""
        if self.current is not None and self._edited_start >= 0:
            self.current.edited_alias = (self._edited_start, facts)

    def aliasing(self) -> list | None:
        """The alias check's findings of the last carried-from version, moved, where they are this version's;
        None where the check must run.

        The check reads each function's alias facts (names, places and local roots; Checker.check_aliasing)
        and the module's functions in the order of their places. Carrying on after the bodies, every other
        body did what it did then, at the mapped place, and the functions are the same in the same order;
        where the edited body's facts are that version's mapped (before the edit the same, after it moved by
        the delta), the facts read are that version's, mapped by one map that keeps equal places equal and
        distinct ones distinct (it maps [0, prefix) and the unchanged end apart, each onto itself moved): the
        check finds what it found then, mapped, and its findings' places are the facts'."""
        if not self.active or self.current is None:
            return None
        last = self.last
        if last.aliasing is None:
            return None
        if self._edited_start >= 0:
            was, now = last.edited_alias, self.current.edited_alias
            if was is None or now is None or was[0] != self._edited_start:
                return None
            facts = now[1]
            if (was[1] is None) != (facts is None):
                return None
            if facts is not None:
                prefix, old_suffix_start, delta = self._prefix, self._suffix_start - self._delta, self._delta

                def move(start: int, end: int):
                    if end <= prefix and start < prefix:
                        return start, end
                    if start >= old_suffix_start:
                        return start + delta, end + delta
                    return None

                if was[1].mapped(move) != facts:
                    return None
        prefix, suffix_start, delta = self._prefix, self._suffix_start, self._delta
        moved = [_moved(d, prefix, suffix_start - delta, delta) for d in last.aliasing]
        self.current.aliasing = moved
        return moved

    def note_aliasing(self, diagnostics: list) -> None:
        if self.current is not None:
            self.current.aliasing = diagnostics

    def note_collisions(self, start: int, diagnostics: list) -> None:
        if self.current is not None and diagnostics:
            self.current.collisions[start] = diagnostics

    def stop(self) -> None:
        """The step that was offered cannot be carried after all: the ordinary way from here on."""
        self.active = False
        self.carried -= 1

    def note(self, index: int, entry: tuple) -> None:
        """What this version's step number `index` applied, for the next version: (kind, start, end, key,
        record, neutral), the record None where it was checked and not recorded."""
        current = self.current
        if current is not None:
            current.entries[index] = entry

    def end(self) -> None:
        if self.current is not None:
            self.last = self.current
        self.current = None


def _where_errors_are(root) -> tuple:
    """(True, the function or None) where every syntax error of the tree lies in ERROR nodes at module
    scope or inside one function's body (that function's, if any), else (False, None)."""
    if root.type == "ERROR":
        return False, None  # (the whole text: nothing is placed)
    broken = None
    for child in filter(_HAS_ERROR, root.children):  # (those without errors passed over in C)
        if child.type == "ERROR":
            continue
        if broken is not None or child.type != "function_declaration":
            return False, None
        broken = child
    if broken is not None:
        body = broken.child_by_field_id(FIELD_BODY)
        if body is None or any(c.has_error and c != body for c in broken.children):
            return False, None
    return True, broken


def _moved(diagnostic: Diagnostic, prefix: int, suffix_start: int, delta: int) -> Diagnostic:
    """`diagnostic` of the last carried-from version in this one's places: its spans before the edit stay, those
    after it (from `suffix_start`, in that version) move by `delta`."""
    def move(span: Span) -> Span:
        return span if span.end <= prefix or not delta else Span(span.start + delta, span.end + delta)

    if not delta or all(s.end <= prefix for s in diagnostic.spans()):
        return diagnostic
    assert all(s.end <= prefix or s.start >= suffix_start for s in diagnostic.spans())
    return diagnostic.mapped(move)


def _common_prefix(a: bytes, b: bytes) -> int:
    """The length of the bytes `a` and `b` start with alike: compared in blocks, by C, not byte by byte. `b` is
    read through a view, and each part of `a` compared where it lies (bytes.startswith at an offset): a slice of
    bytes is a copy, and the search made several copies of the whole text at every version."""
    limit = min(len(a), len(b))
    view = memoryview(b)
    if a.startswith(view[:limit]):
        return limit
    low, block = 0, 65536
    while low + block <= limit and a.startswith(view[low:low + block], low):
        low += block
    high = min(limit, low + block)  # the first difference lies in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if a.startswith(view[low:middle], low):
            low = middle
        else:
            high = middle
    return low if a[low:low + 1] != b[low:low + 1] else high


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """The length of the bytes `a` and `b` end with alike, at most `limit`: the same search from the end."""
    if limit <= 0:
        return 0
    end_a, end_b = len(a), len(b)
    view = memoryview(b)
    if a.startswith(view[end_b - limit:], end_a - limit):
        return limit
    low, block = 0, 65536  # `low` bytes at the end are alike
    while low + block <= limit and a.startswith(view[end_b - low - block:end_b - low], end_a - low - block):
        low += block
    high = min(limit, low + block)  # the last difference lies within `high` bytes of the end
    while high - low > 1:
        middle = (low + high) // 2
        if a.startswith(view[end_b - middle:end_b - low], end_a - middle):
            low = middle
        else:
            high = middle
    return high if a.startswith(view[end_b - high:end_b - low], end_a - high) else low
