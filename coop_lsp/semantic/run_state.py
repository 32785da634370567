"""What a run of statements added to a body check's per-function state, in a form that can be replayed.

A run of statements is recorded before the edit (leading.py) and after it (trailing.py). Both record the same
kinds of state: the references its names resolved to, the locals it declared into the block's scope, pointer
roots, module variable uses, calls and aliasing facts. Each is named by what will still be true next version
(a local's place among the run's own locals, a module name, a name visible from outside the run), so that the
replay can find the same symbols again; what cannot be so named makes the run unrecordable.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

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
