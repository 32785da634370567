"""Reusing the check of an edited body's leading statements, from the version before.

While a person types inside a function, its body changes at every version and
is checked again (reuse.py replays unchanged bodies only), though most of its
statements come before the edit, unchanged text checked in unchanged state.
So where a body is checked afresh and was checked at the same place in the
last version, the checker records, for each block that holds the edit (the
body itself and the blocks nested around the edit), what checking the
block's leading statements before the edit added: a segment. The next version
replays a block's segment instead of checking those statements, and checks
the block from the first statement after them on.

A segment is replayed only where what its check read is the same:

- the function starts at the same byte and its text is the same up to the
  segment's end (its statements, the header and the enclosing statements'
  heads, which are checked afresh and set the state the segment starts in);
- the function's signature, the module's enables and configured dialect, and
  what had been said once per module and the matrix dialects used, at the
  body's start and where the segment starts;
- every module-scope name looked up in the body up to the segment's end, and
  the struct types those lead to (as for a body's record, reuse.py);
- the block's leading children, by kind and place, without syntax errors.

A segment is recorded only if its check stayed inside: nothing said once,
no module declaration resolved on first use, no diagnostic, fix or model entry
outside the function's unchanged text, and every name it refers to is its
own local, a module declaration, or a name visible where it starts. Its
effects are those a fresh check adds at that point: diagnostics, expression
types, references, builtin calls, local symbols (made anew, their nodes found
in the new tree), the names its statements leave declared in the block,
pointer roots, uses of module variables, calls, aliasing facts, and whether
the matrix-in-stage error was given. Blocks inside a `loop` body or a
continuing block are left alone (their loop frames hold nodes and order).

The header of a `for` statement whose body holds the edit (its initializer,
condition and update, before the edit) is a segment of its own, keyed by the
statement's start, replayed and recorded alike.

The statements after the edit, to each block's end, are replayed alike where
what their check read is unchanged (trailing.py says what that is).
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ..syntax.nodes import (FIELD_BODY, FIELD_CONDITION, FIELD_INITIALIZER, FIELD_TYPE, FIELD_UPDATE, FIELD_VALUE,
                            KIND_NAMES)
from . import run_state, trailing
from .reuse import _UNRESOLVED, _environment, _local_record

# Declarations whose check reads the node after them (checker._broken): a segment stops before one.
_DECLARATIONS = frozenset({"variable_declaration", "let_declaration", "const_declaration"})
_OWN, _MODULE, _OUTER = run_state.OWN, run_state.MODULE, run_state.OUTER


@dataclass(eq=False, slots=True)
class Segment:
    """What checking a block's leading statements added, places as in the function it was recorded in."""

    statements: tuple  # (kind id, start, end) of the block's leading children it covers
    end: int
    # What was said once and the matrix dialects used where it starts: a whole-body walk before the statements
    # says a portability note about text after the edit too.
    said: tuple
    diagnostics: list
    types: dict
    references: dict  # (start, end) -> (_OWN, index in `locals`) or (_MODULE | _OUTER, name)
    calls: dict  # the model's builtin calls
    locals: list  # reuse._local_record of each local symbol it declared, in order
    declared: tuple  # indices in `locals` of those left declared in the block's scope, in order
    pointer_roots: tuple  # (index in `locals`, root)
    var_uses: tuple  # (module variable's name, span)
    called: tuple  # names of the module functions called
    alias: tuple | None  # (new module reads, new module writes, parameter reads, parameter writes, calls, made)
    stage_reported: bool
    lookups: tuple  # the module-scope names looked up in the body so far
    needed: tuple  # (module names, names visible at its start) that its replay takes symbols of
    named: tuple  # (name, signature) of those that named a declaration
    unnamed: tuple  # those that named none
    structs: dict


@dataclass(eq=False, slots=True)
class _Memo:
    text: bytes  # the function's text in the version its segments hold for
    base: tuple  # (signature, environment, what was said once at the body's start)
    segments: dict  # block start (a `for` header's: ("for", statement start)) -> Segment
    # block start -> (trailing.Tail, how far its places moved from where it was recorded to this version's)
    tails: dict


class _Body:
    """The body being checked: where its edit is, the last version's segments that may be replayed, and the
    segments recorded for the next version."""

    __slots__ = ("point", "change_end", "previous", "previous_point", "previous_tail", "previous_shift", "memo",
                 "own_lookups", "replayed")

    def __init__(self, point: int, change_end: int, previous: _Memo | None, previous_point: int,
                 previous_tail: int, previous_shift: int, memo: _Memo) -> None:
        self.point = point  # the first byte that differs from the last version's text here
        self.change_end = change_end  # where the text this version shares with the end of the last one starts
        self.previous, self.previous_point = previous, previous_point
        # Where the text the previous memo's version ends with, as this one does, starts (its places), and how
        # far that text moved.
        self.previous_tail, self.previous_shift = previous_tail, previous_shift
        self.memo = memo
        self.own_lookups = False
        self.replayed = 0  # statements replayed (for tests: the work the check did not do)


class LeadingStatements:
    """The segments of the bodies checked afresh in the last version, by function start."""

    def __init__(self) -> None:
        self._memos: dict[int, _Memo] = {}
        self._next: dict[int, _Memo] = {}
        # Each function's text where it was last checked afresh, by start: where the next edit there is.
        self._texts: dict[int, bytes] = {}
        self.replayed = 0  # statements replayed in the latest check

    def begin(self) -> None:
        self._next = {}
        self.replayed = 0

    def end(self) -> None:
        self._memos = self._next
        if len(self._texts) > 4096:  # (starts of functions long gone: a bound, not a cache policy)
            self._texts = {}

    # ------------------------------------------------------------ a body
    def open(self, checker, symbol, node: ts.Node) -> _Body | None:
        """Starts the fresh check of `symbol`'s body: None where the last version has nothing to go by."""
        ctx, reuse = checker.ctx, checker.reuse
        start = node.start_byte
        text = ctx.source.data[start:node.end_byte]
        before = self._texts.get(start)
        self._texts[start] = text
        if before is None:
            return None
        signature = reuse._signature(symbol)
        if signature is _UNRESOLVED:
            return None
        base = (signature, _environment(ctx), reuse.headers._said_once(ctx)[1])
        prefix = _common_prefix(before, text)
        suffix = trailing._common_suffix(before, text, min(len(before), len(text)) - prefix)
        previous, previous_point = self._memos.get(start), start
        previous_tail = previous_shift = 0
        if previous is not None:
            if _same_base(previous.base, base):
                if previous.text is before:
                    previous_prefix, previous_suffix = prefix, suffix
                else:
                    previous_prefix = _common_prefix(previous.text, text)
                    previous_suffix = trailing._common_suffix(previous.text, text,
                                                              min(len(previous.text), len(text)) - previous_prefix)
                previous_point = start + previous_prefix
                previous_tail = start + len(previous.text) - previous_suffix
                previous_shift = len(text) - len(previous.text)
            else:
                previous = None
        body = _Body(start + prefix, start + len(text) - suffix, previous, previous_point, previous_tail,
                     previous_shift, _Memo(text, base, {}, {}))
        if checker.module_lookups is None:  # (not recorded as a whole: its segments need the names all the same)
            checker.module_lookups, body.own_lookups = {}, True
        return body

    def close(self, checker, body: _Body, node: ts.Node) -> None:
        if body.own_lookups:
            checker.module_lookups = None
        if body.memo.segments or body.memo.tails:
            self._next[node.start_byte] = body.memo
        self.replayed += body.replayed

    # ------------------------------------------------------------ a `for` header
    def for_header(self, checker, body: _Body, node: ts.Node) -> bool:
        """Checks the header of a `for` statement around the edit (checker.for_header), or replays the last
        version's check of it; False, doing nothing, where it is not around the edit."""
        loops = checker.loops
        if checker.continuing_blocks or (loops and loops[-1].body_scope is not None):
            return False
        point = body.point
        parts = _for_header_parts(node, point)
        if parts is None:
            return False
        key = ("for", node.start_byte)
        previous = body.previous
        if previous is not None:
            segment = previous.segments.get(key)
            if segment is not None and segment.end <= body.previous_point and _matches(segment.statements, parts) \
                    and len(segment.statements) == len(parts) and segment.said == _said(checker) \
                    and _valid(checker, segment):
                _replay(checker, segment)
                body.replayed += len(parts)
                body.memo.segments[key] = segment
                return True
        recording = _Recording(checker)
        try:
            checker.for_header(node)
        except BaseException:
            recording.cancel(checker)
            raise
        segment = recording.finish(checker, parts, point)
        if segment is not None:
            body.memo.segments[key] = segment
        return True

    # ------------------------------------------------------------ a block
    def statements(self, checker, body: _Body, block: ts.Node, children: list) -> None:
        """Checks a block's statements, the leading ones replayed where the last version recorded them."""
        statement = checker.statement
        loops = checker.loops
        if checker.continuing_blocks or (loops and loops[-1].body_scope is not None) or not children:
            for child in children:
                statement(child)
            return
        start, point = block.start_byte, body.point
        first = 0
        on_path = start < point <= block.end_byte
        recording = _Recording(checker) if on_path and _leading_count(children, point) else None
        previous = body.previous
        kept = None
        if previous is not None:
            segment = previous.segments.get(start)
            if segment is not None and segment.end <= body.previous_point \
                    and _matches(segment.statements, children) and segment.said == _said(checker) \
                    and _valid(checker, segment):
                _replay(checker, segment)
                first = len(segment.statements)
                body.replayed += first
                kept = segment
        if kept is not None:
            body.memo.segments[start] = kept  # (its statements are this version's: valid for the next one too)
        if recording is not None:
            count = _leading_count(children, point)
            if count <= first:
                recording.cancel(checker)
            else:
                try:
                    for child in children[first:count]:
                        statement(child)
                except BaseException:
                    recording.cancel(checker)  # (the model's own tables back in place)
                    raise
                first = count
                segment = recording.finish(checker, children[:count], point)
                if segment is not None:
                    body.memo.segments[start] = segment
        _last_statements(checker, body, block, children, first, on_path)


def _for_header_parts(node: ts.Node, point: int) -> list | None:
    """The initializer, condition and update of a `for` statement whose body holds the edit, where each ends
    before it, without syntax errors (and the initializer is no declaration whose check reads what follows it);
    None otherwise."""
    loop_body = node.child_by_field_id(FIELD_BODY)
    if loop_body is None or not loop_body.start_byte < point <= loop_body.end_byte:
        return None
    initializer = node.child_by_field_id(FIELD_INITIALIZER)
    parts = [part for part in (initializer, node.child_by_field_id(FIELD_CONDITION),
                               node.child_by_field_id(FIELD_UPDATE)) if part is not None]
    if not parts or any(part.has_error or part.end_byte > point for part in parts):
        return None
    if initializer is not None and KIND_NAMES[initializer.kind_id] in _DECLARATIONS \
            and initializer.child_by_field_id(FIELD_TYPE) is None and initializer.child_by_field_id(FIELD_VALUE) is None:
        return None
    return parts


def _last_statements(checker, body: _Body, block: ts.Node, children: list, first: int, on_path: bool) -> None:
    """Checks a block's children from `first` on, the runs of them that the last version recorded after its edit
    replayed where still valid (trailing.py), and records for the next version the runs checked here that lie
    after this version's edit, where the block holds it: each run a tail, the block's tails in order."""
    statement = checker.statement
    start = block.start_byte
    previous = body.previous
    recorded = previous.tails.get(start) if previous is not None else None
    usable = []  # (tail, shift, index of its first statement) of the last version's tails that may be replayed
    if recorded:
        indices = {child.start_byte: index for index, child in enumerate(children)}
        for tail, offset in recorded:
            shift = offset + body.previous_shift
            at = indices.get(tail.statements[0][1] + shift, -1)
            if at >= first and (not usable or at >= usable[-1][2] + len(usable[-1][0].statements)) \
                    and tail.statements[0][1] + offset >= body.previous_tail \
                    and trailing.matches(tail, children, at, shift, block):
                usable.append((tail, shift, at))
    tails = []
    # Those before the first tail that may be replayed (all, without one): after the edit, a new tail.
    end = usable[0][2] if usable else len(children)
    at = trailing.tail_start(children, body.change_end, end) if on_path else end
    at = max(at, first)
    for child in children[first:at]:
        statement(child)
    if at < end:
        tail = _recorded(checker, block, children[at:end])
        if tail is not None:
            tails.append((tail, 0))
    done = end
    for tail, shift, at in usable:
        for child in children[done:at]:
            statement(child)
        done = at + len(tail.statements)
        if trailing.valid(checker, tail, children):
            trailing.replay(checker, tail, shift)
            tails.append((tail, shift))
            body.replayed += len(tail.statements)
            continue
        if not on_path:  # (only a block around the edit records)
            for child in children[at:done]:
                statement(child)
            continue
        tail = _recorded(checker, block, children[at:done])
        if tail is not None:
            tails.append((tail, 0))
    for child in children[done:]:
        statement(child)
    if tails:
        body.memo.tails[start] = tails


def _recorded(checker, block: ts.Node, statements: list):
    """Checks `statements`, the block's children up to its end or a tail, and records their check as a tail."""
    recording = trailing.Recording(checker, statements)
    try:
        for child in statements:
            checker.statement(child)
    except BaseException:
        recording.cancel(checker)
        raise
    return recording.finish(checker, block)


def _leading_count(children: list, point: int) -> int:
    """How many of a block's first children end before the edit, without syntax errors: the statements a
    segment may cover (stopping before a declaration without type and initializer, whose check reads what
    follows it)."""
    count = 0
    for child in children:
        if child.end_byte > point or child.has_error:
            break
        if KIND_NAMES[child.kind_id] in _DECLARATIONS and child.child_by_field_id(FIELD_TYPE) is None \
                and child.child_by_field_id(FIELD_VALUE) is None:
            break
        count += 1
    return count


def _matches(statements: tuple, children: list) -> bool:
    if len(statements) > len(children):
        return False
    for (kind, start, end), child in zip(statements, children):
        if child.kind_id != kind or child.start_byte != start or child.end_byte != end or child.has_error:
            return False
    return True


def _same_base(a: tuple, b: tuple) -> bool:
    return (a[0] is b[0] or a[0] == b[0]) and a[1] == b[1] and a[2] == b[2]


def _common_prefix(a: bytes, b: bytes) -> int:
    """The length of the longest common prefix of `a` and `b` (slices compared in C, halving the range)."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while high - low > 1:  # a[:low] == b[:low], a[:high] != b[:high]
        middle = (low + high) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle
    return low


def _said(checker) -> tuple:
    return checker.reuse.headers._said_once(checker.ctx)[1], frozenset(checker.ctx.model.matrix_dialects)


def _valid(checker, segment: Segment) -> bool:
    """Whether the module names the segment's check looked up still mean what they meant."""
    reuse = checker.reuse
    module = checker.module_scope.symbols
    module_names, outer_names = segment.needed
    visible = checker._visible
    if not all(name in module for name in module_names) or not all(name in visible for name in outer_names):
        return False
    for name in segment.unnamed:
        if name in module:
            return False
    if not reuse.same_signatures(module, segment.named):
        return False
    if segment.structs:
        current = reuse._reached_structs([module.get(name) for name in segment.lookups] + [checker.function])
        if any(current.get(name, old) is not old for name, old in segment.structs.items()):
            return False
    return True


def _replay(checker, segment: Segment) -> None:
    if segment.diagnostics:
        checker.ctx.diagnostics.extend(segment.diagnostics)
    run_state.replay_added(checker, segment, segment.alias)
    if segment.stage_reported:
        checker.stage_reported = True


class _Recording:
    """The state before a block's leading statements are checked, to take what their check added."""

    def __init__(self, checker) -> None:
        ctx = checker.ctx
        model = ctx.model
        function = checker.function
        self.diagnostics = len(ctx.diagnostics)
        self.symbols = len(model.written_symbols)
        self.scope = len(checker.scope.symbols)
        self.visible = dict(checker._visible)
        self.roots = len(checker.pointer_roots)
        self.var_uses = len(checker.var_uses.get(function, ()))
        self.calls = len(checker.calls.get(function, ()))
        facts = checker.alias_facts.get(function)
        self.alias = None if facts is None else (len(facts.module_reads), len(facts.module_writes),
                                                 frozenset(facts.param_reads), frozenset(facts.param_writes),
                                                 len(facts.calls))
        self.stage_reported = checker.stage_reported
        self.said = _said(checker)
        self.counts = (ctx.said_count(), len(model.matrix_dialects), checker.resolutions,
                       len(checker.module_scope.symbols))
        # The model's tables, the statements' entries caught in fresh ones (nothing reads them meanwhile).
        self.tables = (model.written_types, model.written_references, model.written_calls)
        model.written_types, model.written_references, model.written_calls = {}, {}, {}

    def _merge(self, checker) -> tuple:
        model = checker.ctx.model
        caught = (model.written_types, model.written_references, model.written_calls)
        model.written_types, model.written_references, model.written_calls = self.tables
        for table, entries in zip(self.tables, caught):
            table.update(entries)
        return caught

    def cancel(self, checker) -> None:
        self._merge(checker)

    def finish(self, checker, statements: list, point: int) -> Segment | None:
        types, references, calls = self._merge(checker)
        ctx = checker.ctx
        model = ctx.model
        function = checker.function
        if (ctx.said_count(), len(model.matrix_dialects), checker.resolutions,
                len(checker.module_scope.symbols)) != self.counts:
            return None
        low, high = statements[0].start_byte, statements[-1].end_byte
        start = function.declaration.start_byte if function is not None and function.declaration is not None else low

        def inside(s: int, e: int) -> bool:
            return low <= s and e <= high

        diagnostics = ctx.diagnostics[self.diagnostics:]
        if not all(start <= s.start and s.end <= point for d in diagnostics for s in d.spans()):
            return None
        if not all(inside(s, e) for s, e, _ in types) or not all(inside(s, e) for s, e in calls):
            return None
        local_symbols = model.written_symbols[self.symbols:]
        if not all(s.declaration is not None and inside(s.declaration.start_byte, s.declaration.end_byte)
                   for s in local_symbols):
            return None
        index = {id(s): i for i, s in enumerate(local_symbols)}
        added = run_state.added_state(checker, self, references, index, self.visible, inside)
        if added is None:
            return None
        recorded, declared, roots, var_uses, called, alias = added
        if alias is not None:
            alias += (self.alias is None,)  # whether the function had no aliasing facts before the run: it made them
        lookups = checker.module_lookups or {}
        reuse = checker.reuse
        named, unnamed = [], []
        for name, found in lookups.items():
            signature = reuse._signature(found)
            if signature is _UNRESOLVED:
                return None
            if signature is None:
                unnamed.append(name)
            else:
                named.append((name, signature))
        structs = reuse._reached_structs(list(lookups.values()) + [function])
        needed = (tuple({name for kind, name in recorded.values() if kind == _MODULE}
                        | {v.name for v, _ in var_uses} | {f.name for f in called}),
                  tuple({name for kind, name in recorded.values() if kind == _OUTER}))
        return Segment(
            tuple((child.kind_id, child.start_byte, child.end_byte) for child in statements), high, self.said,
            diagnostics, types, recorded, calls, [_local_record(s) for s in local_symbols], tuple(declared),
            tuple(roots), tuple((v.name, s) for v, s in var_uses), tuple(f.name for f in called), alias,
            checker.stage_reported and not self.stage_reported, tuple(lookups), needed, tuple(named), tuple(unnamed),
            structs)
