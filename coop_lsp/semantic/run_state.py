"""What a run of statements added to a body check's per-function state: named for a replay, and replayed.

A run of statements is recorded before the edit (leading.py) and after it (trailing.py). Both record the same
kinds of state: the references its names resolved to, the locals it declared into the block's scope, pointer
roots, module variable uses, calls and aliasing facts. Each is named by what will still be true next version
(a local's place among the run's own locals, a module name, a name visible from outside the run), so that the
replay can find the same symbols again; what cannot be so named makes the run unrecordable.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..core.text import Span
from .aliasing import CallFacts, PointerArgument
from .reuse import _replayed_symbol

# What a recorded reference names: a local of the run, a module name, another name visible at the run's start.
OWN, MODULE, OUTER = 0, 1, 2


def added_state(checker, marks, references: dict, index: dict, visible: dict,
                inside: Callable[[int, int], bool]) -> tuple | None:
    """(references, declared, roots, var_uses, called, alias) added since `marks` (the recording's counts
    when the run began: scope, roots, var_uses, calls, alias), or None where one of them cannot be named for
    a replay. `index` maps the id of each local the run made to its place among them; `alias` is None where
    the function keeps no aliasing facts, else (module reads, module writes, parameter reads, parameter
    writes, calls) added by the run."""
    function = checker.function
    module = checker.module_scope.symbols
    recorded = {}
    for key, target in references.items():
        if not inside(*key):
            return None
        own = index.get(id(target))
        if own is not None:
            recorded[key] = (OWN, own)
        elif module.get(target.name) is target:
            recorded[key] = (MODULE, target.name)
        elif visible.get(target.name) is target:
            recorded[key] = (OUTER, target.name)
        else:
            return None
    declared = []
    for symbol in itertools.islice(checker.scope.symbols.values(), marks.scope, None):
        own = index.get(id(symbol))
        if own is None:
            return None
        declared.append(own)
    roots = []
    for symbol, root in itertools.islice(checker.pointer_roots.items(), marks.roots, None):
        own = index.get(id(symbol))
        if own is None:
            return None
        roots.append((own, root))
    var_uses = checker.var_uses.get(function, [])[marks.var_uses:]
    called = checker.calls.get(function, [])[marks.calls:]
    if not all(module.get(v.name) is v and inside(s.start, s.end) for v, s in var_uses) \
            or not all(module.get(f.name) is f for f in called):
        return None
    alias = None
    facts = checker.alias_facts.get(function)
    if facts is not None:
        reads, writes, parameter_reads, parameter_writes, call_count = marks.alias or (0, 0, frozenset(),
                                                                                      frozenset(), 0)
        alias = (dict(itertools.islice(facts.module_reads.items(), reads, None)),
                 dict(itertools.islice(facts.module_writes.items(), writes, None)),
                 frozenset(facts.param_reads) - parameter_reads, frozenset(facts.param_writes) - parameter_writes,
                 facts.calls[call_count:])
    return recorded, declared, roots, var_uses, called, alias


def replay_added(checker, run, alias: tuple | None, shift: int = 0, low: int = 0) -> None:
    """Adds to the body check the state `run` recorded (as `added_state` named it: locals, types, calls,
    references, declarations, pointer roots, variable uses, calls made, aliasing facts `alias`, module
    lookups), moved by `shift` bytes. A pointer root into a local at or after `low` (one of the run's own)
    moves with it; one into a local before the run stays. The run's findings are the caller's to add."""
    model = checker.ctx.model
    module = checker.module_scope.symbols
    function = checker.function
    symbols = [_replayed_symbol(record, shift, checker.ctx.root) for record in run.locals]
    model.written_symbols.extend(symbols)
    if shift:
        model.written_types.update({(s + shift, e + shift, k): v for (s, e, k), v in run.types.items()})
        if run.calls:
            model.written_calls.update({(s + shift, e + shift): v for (s, e), v in run.calls.items()})
    else:
        model.written_types.update(run.types)
        if run.calls:
            model.written_calls.update(run.calls)
    visible = checker._visible  # (as at the run's start: its own names are declared below)
    references = model.written_references
    for (s, e), (kind, which) in run.references.items():
        references[(s + shift, e + shift)] = symbols[which] if kind == OWN else module[which] \
            if kind == MODULE else visible[which]
    scope, shadowed = checker.scope.symbols, checker._shadowed
    for index in run.declared:
        symbol = symbols[index]
        name = symbol.name
        scope[name] = symbol
        shadowed.append((name, visible.get(name)))
        visible[name] = symbol

    def move(span: Span) -> Span:
        return Span(span.start + shift, span.end + shift) if shift else span

    def moved_root(root):
        if shift and root is not None and root[0] == "local" and root[1] >= low:
            return ("local", root[1] + shift)
        return root

    for index, root in run.pointer_roots:
        checker.pointer_roots[symbols[index]] = moved_root(root)
    if run.var_uses:
        checker.var_uses.setdefault(function, []).extend((module[name], move(span)) for name, span in run.var_uses)
    if run.called:
        checker.calls.setdefault(function, []).extend(module[name] for name in run.called)
    if alias is not None:
        reads, writes, parameter_reads, parameter_writes, calls = alias[:5]
        facts = checker._facts()
        if shift:
            facts.module_reads.update({name: move(span) for name, span in reads.items()})
            facts.module_writes.update({name: move(span) for name, span in writes.items()})
            calls = [CallFacts(call.callee, [PointerArgument(a.index, moved_root(a.root), move(a.span))
                                             for a in call.arguments]) for call in calls]
        else:
            facts.module_reads.update(reads)
            facts.module_writes.update(writes)
        facts.param_reads |= parameter_reads
        facts.param_writes |= parameter_writes
        facts.calls.extend(calls)
    lookups = checker.module_lookups
    if lookups is not None:
        for name in run.lookups:
            if name not in lookups:
                lookups[name] = module.get(name)
