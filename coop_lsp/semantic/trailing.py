"""Reusing the check of an edited body's trailing statements, from the version before.

leading.py replays the statements before the edit; those after it are
unchanged text too, only moved by the edit's length, and while a person types
a statement the ones below it are mostly the matrix loads, multiplies and
stores that cost the most to check. So each block that holds the edit also
records what checking its last statements, from the first one wholly after the
edit to the block's end, added: a tail. The next version replays a block's
tail, moved to where it is now, instead of checking those statements.

A tail's check reads the state the statements before it leave, which the
edit may change; it is replayed only where what it read is the same:

- its statements' text (it lies in the text the two versions end with) and
  their kinds and places in the block, which they end, without syntax errors;
- every name it looked up among the function's locals and parameters: the
  same declaration (kind, place, type, value, pointer root, parameter index)
  or still none, so a name typed at the edit that it never reads changes
  nothing, while shadowing it or declaring a name it reads does;
- the names it declares directly in the block, declared before it or not;
- the module names it looked up (as for a body's record, reuse.py) and the
  struct types its names lead to;
- what had been said once and the dialects used, whether the matrix-in-stage
  error was given, and which module variables the alias facts held a first
  read and a first write of, where it starts; the loops around the block.

A tail is recorded only if its check stayed inside its statements: nothing
said once, and every diagnostic, fix and model entry within them, but for
the module declarations it resolved first. Those (a name the broken text
after a function declares at module scope, say) are resolution steps, noted
as first_uses.py notes a body's and validated alike before anything is
replayed; the tail is recorded only where none of its own findings came
before one, so that resolving them where the tail starts, as the replay does,
puts every finding where a fresh check puts it. Blocks inside a `loop` body
or a continuing block are left alone, as leading.py leaves them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import tree_sitter as ts

from ..syntax.nodes import FIELD_NAME, KIND_NAMES
from . import first_uses, run_state
from . import types as t
from .reuse import _UNRESOLVED, _local_record, _structs_of

_DECLARATIONS = frozenset({"variable_declaration", "let_declaration", "const_declaration"})
_OWN, _MODULE, _OUTER = run_state.OWN, run_state.MODULE, run_state.OUTER
# A symbol's fields that say where its node is, not what it is: the place is in its span.
_NOT_COMPARED = frozenset({"declaration", "_declaration", "_locator"})
_NOT_COMPARED_NOR_PLACE = _NOT_COMPARED | {"span"}


@dataclass(eq=False, slots=True)
class Tail:
    """What checking a block's last statements added, at the places of the version it was recorded in."""

    statements: tuple  # (kind id, start, end) of the block's last children it covers
    block_end: int
    loops: tuple  # the loops around the block: whether each is a 'loop' (its frames hold order)
    said: tuple
    stage_reported: bool
    alias_start: tuple | None  # (variables read first, variables written first) before it; None: no facts yet
    scope_names: tuple  # (name, declared in the block before it) of each declaration among its statements
    outer: tuple  # (name, _fingerprint or None) of each local or parameter name it looked up
    named: tuple  # (module name, signature) of the module names it looked up that named a declaration
    unnamed: tuple
    lookups: tuple  # every module name it looked up, for the body's own record
    steps: tuple  # first_uses.FirstUse of each module declaration it resolved first, in order
    structs: dict
    diagnostics: list
    types: dict
    references: dict  # (start, end) -> (_OWN, index in `locals`) | (_MODULE | _OUTER, name)
    calls: dict
    locals: list
    declared: tuple  # indices in `locals` of those left declared in the block
    pointer_roots: tuple  # (index in `locals`, root)
    var_uses: tuple  # (module variable's name, span)
    called: tuple
    alias: tuple | None  # (first reads, first writes, parameter reads, parameter writes, calls)
    stage_set: bool


class _Steps:
    """The resolutions a tail being recorded starts (Checker.symbol_type calls these around each), passed on
    to the notes of the body's own record where it is recorded too."""

    __slots__ = ("outer", "found", "refused", "_begin")

    def __init__(self, outer) -> None:
        self.outer = outer
        self.found: list[tuple] = []  # (symbol, header record, findings before it, after it, its declaration)
        self.refused = False
        self._begin = 0

    def resolution_begins(self, checker) -> None:
        if self.outer is not None:
            self.outer.resolution_begins(checker)
        else:
            checker.reuse.headers.last = None
        self._begin = len(checker.ctx.diagnostics)

    def resolution_ends(self, checker, symbol) -> None:
        record = checker.reuse.headers.last
        if self.outer is not None:
            self.outer.resolution_ends(checker, symbol)
        node = symbol.declaration
        if record is None or node is None or checker.module_scope.symbols.get(symbol.name) is not symbol:
            self.refused = True
            return
        self.found.append((symbol, record, self._begin, len(checker.ctx.diagnostics),
                           (node.start_byte, node.end_byte)))


class _Tracked(dict):
    """The checker's visible locals while a tail is recorded, noting every name asked of them."""

    __slots__ = ("asked",)

    def get(self, name, default=None):
        self.asked[name] = None
        return dict.get(self, name, default)

    def __getitem__(self, name):
        self.asked[name] = None
        return dict.__getitem__(self, name)

    def __contains__(self, name):
        self.asked[name] = None
        return dict.__contains__(self, name)


def _fingerprint(checker, symbol) -> tuple:
    """All a statement's check can learn of a local or parameter by naming it. Where it is declared only
    matters for a variable (a pointer into it is rooted there, aliasing.py); a finding that points at a
    declaration outside the tail keeps the tail from being recorded."""
    skipped = _NOT_COMPARED if symbol.kind == "var" else _NOT_COMPARED_NOR_PLACE
    # (a dict: a replayed symbol holds its fields in another order; types compare by value, their structs by
    # identity in valid)
    fields = {key: value for key, value in vars(symbol).items() if key not in skipped}
    return fields, checker.pointer_roots.get(symbol, _NO_ROOT), checker.parameter_index.get(symbol)


_FLAT = frozenset({t.Scalar, t.Vector, t.Matrix, type(t.ERROR)})


def _structs_of_locals(checker, symbols) -> dict:
    """_structs_of(symbols) for locals and parameters, by type object once per check (most are flat)."""
    cache = checker.__dict__.get("_tail_type_structs")
    if cache is None:
        cache = checker._tail_type_structs = {}
    found: dict = {}
    for symbol in symbols:
        kind = symbol.type
        if type(kind) in _FLAT:
            continue
        entry = cache.get(id(kind))
        if entry is None or entry[0] is not kind:
            entry = cache[id(kind)] = (kind, _structs_of([symbol]))
        for name, struct in entry[1].items():
            found.setdefault(name, struct)
    return found


_NO_ROOT = ("none",)  # (a pointer 'let' whose root is unknown has None)


def _loops(checker) -> tuple:
    return tuple(frame.body_scope is not None for frame in checker.loops)


def _said(checker) -> tuple:
    return checker.reuse.headers._said_once(checker.ctx)[1], frozenset(checker.ctx.model.matrix_dialects)


def _alias_start(checker) -> tuple | None:
    facts = checker.alias_facts.get(checker.function)
    return None if facts is None else (frozenset(facts.module_reads), frozenset(facts.module_writes))


def _declared_names(checker, children: list) -> tuple:
    names = []
    text = checker.ctx.source.data
    for child in children:
        if KIND_NAMES[child.kind_id] in _DECLARATIONS:
            name = child.child_by_field_id(FIELD_NAME)
            if name is not None and not name.is_missing:
                names.append(text[name.start_byte:name.end_byte].decode("utf-8", "replace"))
    return tuple(names)


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """The length of the longest common suffix of `a` and `b`, at most `limit` (halving the range)."""
    low, high = 0, min(limit, len(a), len(b))
    if high == 0 or a[len(a) - high:] == b[len(b) - high:]:
        return high
    while high - low > 1:  # the last `low` bytes agree, the last `high` do not
        middle = (low + high) // 2
        if a[len(a) - middle:] == b[len(b) - middle:]:
            low = middle
        else:
            high = middle
    return low


def tail_start(children: list, change_end: int, end: int) -> int:
    """The index of the first of a block's children before index `end` that start at or after `change_end`,
    without syntax errors up to there: a tail's statements. `end` where there are none."""
    index = end
    while index > 0:
        child = children[index - 1]
        if child.start_byte < change_end or child.has_error or child.is_missing \
                or KIND_NAMES[child.kind_id] == "ERROR":
            break
        index -= 1
    return index


def matches(tail: Tail, children: list, first: int, shift: int, block: ts.Node) -> bool:
    """Whether the block's children from index `first` on are the tail's statements moved by `shift`."""
    statements = tail.statements
    if first < 0 or first + len(statements) > len(children) or block.end_byte != tail.block_end + shift:
        return False
    for (kind, start, end), child in zip(statements, children[first:]):
        if child.kind_id != kind or child.start_byte != start + shift or child.end_byte != end + shift \
                or child.has_error:
            return False
    return True


def valid(checker, tail: Tail, children: list) -> bool:
    """Whether the state the tail's check read is the same now, where it starts."""
    if tail.stage_reported != checker.stage_reported or tail.loops != _loops(checker) \
            or tail.said != _said(checker) or tail.alias_start != _alias_start(checker):
        return False
    scope = checker.scope.symbols
    for name, present in tail.scope_names:
        if (name in scope) != present:
            return False
    visible = checker._visible
    outers = []
    for name, recorded in tail.outer:
        symbol = visible.get(name)
        if symbol is None:
            if recorded is not None:
                return False
            continue
        if recorded is None or _fingerprint(checker, symbol) != recorded:
            return False
        outers.append(symbol)
    module = checker.module_scope.symbols
    for name in tail.unnamed:
        if name in module:
            return False
    reuse = checker.reuse
    if not reuse.same_signatures(module, tail.named):
        return False
    if tail.steps and not first_uses.valid(reuse, checker, tail.steps):
        return False
    if tail.structs:
        current = reuse._reached_structs([module.get(name) for name in tail.lookups] + [checker.function])
        for name, struct in _structs_of_locals(checker, outers).items():
            current.setdefault(name, struct)
        if any(current.get(name, old) is not old for name, old in tail.structs.items()):
            return False
    return True


def replay(checker, tail: Tail, shift: int) -> None:
    """Adds what checking the tail added, moved by `shift` bytes."""
    module = checker.module_scope.symbols
    for step in tail.steps:
        # (before any of its findings, as recorded: where a fresh check's first use resolves it, findings apart)
        checker.symbol_type(module[step.name])
    if tail.diagnostics:
        checker.ctx.diagnostics.extend([d.shifted(shift) for d in tail.diagnostics])
    run_state.replay_added(checker, tail, tail.alias, shift, tail.statements[0][1])
    if tail.stage_set:
        checker.stage_reported = True


class Recording:
    """The state before a block's last statements are checked, to take what their check added."""

    def __init__(self, checker, children: list) -> None:
        ctx = checker.ctx
        model = ctx.model
        function = checker.function
        self.children = children
        self.diagnostics = len(ctx.diagnostics)
        self.symbols = len(model.written_symbols)
        self.scope = len(checker.scope.symbols)
        self.roots = len(checker.pointer_roots)
        self.var_uses = len(checker.var_uses.get(function, ()))
        self.calls = len(checker.calls.get(function, ()))
        facts = checker.alias_facts.get(function)
        self.alias = None if facts is None else (len(facts.module_reads), len(facts.module_writes),
                                                 frozenset(facts.param_reads), frozenset(facts.param_writes),
                                                 len(facts.calls))
        self.alias_start = _alias_start(checker)
        self.stage_reported = checker.stage_reported
        self.loops = _loops(checker)
        self.said = _said(checker)
        scope = checker.scope.symbols
        self.scope_names = tuple((name, name in scope) for name in _declared_names(checker, children))
        self.counts = (ctx.said_count(), len(model.matrix_dialects), checker.resolutions,
                       len(checker.module_scope.symbols))
        self.visible = dict(checker._visible)
        tracked = _Tracked(checker._visible)
        tracked.asked = {}
        self.tracked = tracked
        checker._visible = tracked
        self.outer_lookups = checker.module_lookups
        checker.module_lookups = {}
        self.steps = _Steps(checker.first_uses)
        checker.first_uses = self.steps
        self.tables = (model.written_types, model.written_references, model.written_calls)
        model.written_types, model.written_references, model.written_calls = {}, {}, {}

    def _restore(self, checker) -> tuple:
        model = checker.ctx.model
        caught = (model.written_types, model.written_references, model.written_calls)
        model.written_types, model.written_references, model.written_calls = self.tables
        for table, entries in zip(self.tables, caught):
            table.update(entries)
        checker._visible = dict(self.tracked)
        checker.first_uses = self.steps.outer
        looked_up = checker.module_lookups
        checker.module_lookups = self.outer_lookups
        if self.outer_lookups is not None:
            for name, symbol in looked_up.items():
                self.outer_lookups.setdefault(name, symbol)
        return caught + (looked_up,)

    def cancel(self, checker) -> None:
        self._restore(checker)

    def finish(self, checker, block: ts.Node) -> Tail | None:
        types, references, calls, lookups = self._restore(checker)
        ctx = checker.ctx
        model = ctx.model
        function = checker.function
        steps = self.steps
        said, dialects, resolutions, module_size = self.counts
        if steps.refused or (ctx.said_count(), len(model.matrix_dialects), checker.resolutions,
                             len(checker.module_scope.symbols)) != (said, dialects, resolutions + len(steps.found),
                                                                    module_size):
            return None
        statements = self.children
        low, high = statements[0].start_byte, statements[-1].end_byte

        def inside(s: int, e: int) -> bool:
            return low <= s and e <= high

        ranges = [found[4] for found in steps.found]

        def in_a_step(s: int, e: int) -> bool:
            return any(begin <= s and e <= end for begin, end in ranges)

        diagnostics = ctx.diagnostics[self.diagnostics:]
        if steps.found:
            # The tail's own findings, none of them before a step's.
            own, at = [], self.diagnostics
            for _, _, since, to, _ in steps.found:
                own.extend(ctx.diagnostics[at:since])
                at = to
            if own:
                return None
            own.extend(ctx.diagnostics[at:])
            diagnostics = own
            types = {key: value for key, value in types.items() if not in_a_step(key[0], key[1])}
            references = {key: value for key, value in references.items() if not in_a_step(*key)}
            calls = {key: value for key, value in calls.items() if not in_a_step(*key)}
        if not all(inside(s.start, s.end) for d in diagnostics for s in d.spans()):
            return None
        if not all(inside(s, e) for s, e, _ in types) or not all(inside(s, e) for s, e in calls):
            return None
        local_symbols = model.written_symbols[self.symbols:]
        if not all(s.declaration is not None and inside(s.declaration.start_byte, s.declaration.end_byte)
                   and inside(s.span.start, s.span.end) for s in local_symbols):
            return None
        index = {id(s): i for i, s in enumerate(local_symbols)}
        visible = self.visible
        added = run_state.added_state(checker, self, references, index, visible, inside)
        if added is None:
            return None
        recorded, declared, roots, var_uses, called, alias = added
        asked = dict(self.tracked.asked)
        for kind, name in recorded.values():
            if kind == _OUTER:
                asked[name] = None
        outer = []
        outer_symbols = []
        for name in asked:
            symbol = visible.get(name)
            if symbol is None:
                outer.append((name, None))
            else:
                outer.append((name, _fingerprint(checker, symbol)))
                outer_symbols.append(symbol)
        if alias is not None:
            if not all(inside(s.start, s.end) for s in itertools.chain(alias[0].values(), alias[1].values())):
                return None
            if not all(inside(a.span.start, a.span.end) for call in alias[4] for a in call.arguments):
                return None
        reuse = checker.reuse
        recorded_steps = []
        for symbol, record, _, _, _ in steps.found:
            signature = reuse._signature(symbol)
            if signature is _UNRESOLVED:
                return None
            recorded_steps.append(first_uses.FirstUse(symbol.name, record, 0, signature))
        firsts = {step.name for step in recorded_steps}
        named, unnamed = [], []
        for name, found in lookups.items():
            if name in firsts:
                continue
            signature = reuse._signature(found)
            if signature is _UNRESOLVED:
                return None
            if signature is None:
                unnamed.append(name)
            else:
                named.append((name, signature))
        structs = reuse._reached_structs(list(lookups.values()) + [function])
        for name, struct in _structs_of_locals(checker, outer_symbols).items():
            structs.setdefault(name, struct)
        return Tail(
            tuple((child.kind_id, child.start_byte, child.end_byte) for child in statements), block.end_byte,
            self.loops, self.said, self.stage_reported, self.alias_start, self.scope_names, tuple(outer),
            tuple(named), tuple(unnamed), tuple(lookups), tuple(recorded_steps), structs, diagnostics, types, recorded, calls,
            [_local_record(s) for s in local_symbols], tuple(declared), tuple(roots),
            tuple((v.name, s) for v, s in var_uses), tuple(f.name for f in called), alias,
            checker.stage_reported and not self.stage_reported)
