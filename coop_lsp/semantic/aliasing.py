"""Aliased pointer arguments (WGSL spec, "Alias Analysis").

A function may not be handed two pointers to the same memory, or a pointer
to a module-scope variable that it also uses directly, when one of those
accesses writes. Tint decides this from each function's accesses: which
pointer parameters it reads and writes through, and which module-scope
variables it reads and writes, directly or in the functions it calls.

While the checker walks a body it notes those accesses and, for each call of
a user function, the variable each pointer argument points into (its root).
These facts hold names and spans only, so a reused body check replays them.
After every body is checked, `check_aliasing` visits the functions callees
first, adds each callee's accesses to its callers (as Tint does) and reports
a call whose pointer arguments alias.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from ..core.diagnostic import Related
from ..core.text import Span
from . import types as t
from .builtins.language import LOAD, STORE, matrix_builtin_names
from ..syntax.nodes import FIELD_OPERAND, FIELD_OPERATOR, FIELD_VALUE, KIND_NAMES

# Builtins that read or write through their first (pointer) argument. Of the matrix builtins, Tint's
# loads and stores: naga checks no aliasing (and its stores take the pointer second).
_READS_FIRST = frozenset({"atomicLoad", "workgroupUniformLoad"}) | matrix_builtin_names(LOAD, compiler="tint")
_WRITES_FIRST = frozenset({"atomicStore"}) | matrix_builtin_names(STORE, compiler="tint")
_READ_WRITES_FIRST = frozenset({
    "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor",
    "atomicExchange", "atomicCompareExchangeWeak", "atomicStoreMax", "atomicStoreMin",
})

# A root: ("global", name), ("param", index) or ("local", start of the declaring name).


@dataclass(slots=True)
class PointerArgument:
    index: int
    root: tuple
    span: Span


@dataclass(slots=True)
class CallFacts:
    callee: str
    arguments: list[PointerArgument]


@dataclass(slots=True)
class AliasFacts:
    """One function body's own accesses and calls (before what its callees add)."""

    module_reads: dict[str, Span] = field(default_factory=dict)  # the first read of each variable
    module_writes: dict[str, Span] = field(default_factory=dict)
    param_reads: set[int] = field(default_factory=set)
    param_writes: set[int] = field(default_factory=set)
    calls: list[CallFacts] = field(default_factory=list)

    def shifted(self, delta: int) -> AliasFacts:
        def move(span: Span) -> Span:
            return Span(span.start + delta, span.end + delta)

        def moved_root(root: tuple) -> tuple:
            return ("local", root[1] + delta) if root[0] == "local" else root

        return AliasFacts(
            {name: move(s) for name, s in self.module_reads.items()},
            {name: move(s) for name, s in self.module_writes.items()},
            set(self.param_reads), set(self.param_writes),
            [CallFacts(c.callee, [PointerArgument(a.index, moved_root(a.root), move(a.span)) for a in c.arguments])
             for c in self.calls])

    def mapped(self, move) -> AliasFacts | None:
        """These facts with each place moved by `move` (a start and end to the new ones, or None where the
        place has none); None where one has none."""
        def span(old: Span) -> Span | None:
            moved = move(old.start, old.end)
            return None if moved is None else Span(*moved)

        reads = {name: span(s) for name, s in self.module_reads.items()}
        writes = {name: span(s) for name, s in self.module_writes.items()}
        calls = []
        for call in self.calls:
            arguments = []
            for a in call.arguments:
                root = a.root
                if root[0] == "local":
                    moved = move(root[1], root[1])
                    root = None if moved is None else ("local", moved[0])
                arguments.append(PointerArgument(a.index, root, span(a.span)))
                if root is None or arguments[-1].span is None:
                    return None
            calls.append(CallFacts(call.callee, arguments))
        if None in reads.values() or None in writes.values():
            return None
        return AliasFacts(reads, writes, set(self.param_reads), set(self.param_writes), calls)


@dataclass(slots=True)
class _Accesses:
    """A function's accesses including those of its callees: what its callers check against."""

    module_reads: dict[str, Span]
    module_writes: dict[str, Span]
    param_reads: set[int]
    param_writes: set[int]


class AliasChecker:
    """Mixin of the checker: needs `ctx`, `function`, `scope`, `module_scope`, `lookup_symbol`,
    `alias_facts` (function symbol -> AliasFacts), `parameter_index` and `pointer_roots`."""

    def _facts(self) -> AliasFacts | None:
        if self.function is None:
            return None
        facts = self.alias_facts.get(self.function)
        if facts is None:
            facts = self.alias_facts[self.function] = AliasFacts()
        return facts

    def alias_root(self, node: ts.Node | None) -> tuple | None:
        """The variable or parameter that a pointer or reference expression points into."""
        while node is not None:
            kind = KIND_NAMES[node.kind_id]  # (node.type's string, made once: syntax/nodes.py says why)
            if kind == "paren_expression":
                node = node.named_children[0] if node.named_children else None
            elif kind in ("index_expression", "member_expression"):
                node = node.child_by_field_id(FIELD_VALUE)
            elif kind == "unary_expression" and self.ctx.text(node.child_by_field_id(FIELD_OPERATOR)) in ("*", "&"):
                node = node.child_by_field_id(FIELD_OPERAND)
            elif kind == "identifier":
                text = self.ctx.ascii_text  # (Context.text's slice, without its call)
                symbol = self.lookup_symbol(text[node.start_byte:node.end_byte] if text is not None
                                            else self.ctx.text(node))
                if symbol is None:
                    return None
                if symbol.kind == "var":
                    if self.module_scope.symbols.get(symbol.name) is symbol:
                        return ("global", symbol.name)
                    return ("local", symbol.span.start)
                if symbol.kind == "parameter":
                    index = self.parameter_index.get(symbol)
                    return None if index is None else ("param", index)
                if symbol.kind == "let":
                    return self.pointer_roots.get(symbol)
                return None
            else:
                return None
        return None

    def note_access(self, node: ts.Node, read: bool, write: bool) -> None:
        facts = self._facts()
        if facts is None:
            return
        root = self.alias_root(node)
        if root is None or root[0] == "local":
            return
        if root[0] == "global":
            # Only the first access of each variable is kept: its span is made only for that one.
            name = root[1]
            if read and name not in facts.module_reads:
                facts.module_reads[name] = self.ctx.span(node)
            if write and name not in facts.module_writes:
                facts.module_writes[name] = self.ctx.span(node)
        else:
            if read:
                facts.param_reads.add(root[1])
            if write:
                facts.param_writes.add(root[1])

    def note_module_read(self, node: ts.Node, name: str) -> None:
        """note_access of a read of the module-scope variable `name`, named by `node` itself: its root known
        without alias_root's walk and lookup."""
        facts = self._facts()
        if facts is not None and name not in facts.module_reads:
            facts.module_reads[name] = self.ctx.span(node)

    def note_builtin_access(self, name: str, arg_nodes: list) -> None:
        if not arg_nodes or self.function is None:
            return
        if name in _READS_FIRST:
            self.note_access(arg_nodes[0], True, False)
        elif name in _WRITES_FIRST:
            self.note_access(arg_nodes[0], False, True)
        elif name in _READ_WRITES_FIRST:
            self.note_access(arg_nodes[0], True, True)

    def note_user_call(self, callee, arg_nodes: list, args: list) -> None:
        facts = self._facts()
        if facts is None:
            return
        pointers = []
        for index, (node, typed) in enumerate(zip(arg_nodes, args)):
            if isinstance(typed.type, t.Pointer):
                root = self.alias_root(node)
                if root is not None:
                    pointers.append(PointerArgument(index, root, self.ctx.span(node)))
        facts.calls.append(CallFacts(callee.name, pointers))

    def check_aliasing(self) -> None:
        """After all bodies: each function's calls against its callees' accesses, callees first."""
        module = self.module_scope.symbols
        deltas = self.alias_deltas
        by_name = {symbol.name: (facts, deltas.get(symbol, 0)) for symbol, facts in self.alias_facts.items()
                   if module.get(symbol.name) is symbol}
        walk = _AccessWalk(self, by_name)
        # Only calls are checked: a function that makes none is visited when a caller needs its accesses.
        for name in sorted((n for n, (facts, _) in by_name.items() if facts.calls), key=lambda n: module[n].span.start):
            walk.accesses(name)

    def _check_call(self, caller: str, call: CallFacts, callee: _Accesses, own: _Accesses) -> None:
        reads: dict[tuple, PointerArgument] = {}
        writes: dict[tuple, PointerArgument] = {}
        for argument in call.arguments:
            root = argument.root
            global_name = root[1] if root[0] == "global" else None
            if argument.index in callee.param_writes:
                # A write through this argument clashes with any other access to its memory.
                other = writes.get(root) or reads.get(root)
                if other is not None:
                    return self._alias_error(argument, other.span, "another pointer argument")
                used = callee.module_writes.get(global_name) or callee.module_reads.get(global_name)
                if used is not None:
                    return self._alias_error(argument, used, f"'{global_name}', which the function uses directly")
                writes.setdefault(root, argument)
                if global_name is not None:
                    own.module_writes.setdefault(global_name, argument.span)
                elif root[0] == "param":
                    own.param_writes.add(root[1])
            elif argument.index in callee.param_reads:
                # A read clashes only with a write.
                other = writes.get(root)
                if other is not None:
                    return self._alias_error(argument, other.span, "another pointer argument")
                if global_name in callee.module_writes:
                    return self._alias_error(argument, callee.module_writes[global_name],
                                             f"'{global_name}', which the function writes directly")
                reads.setdefault(root, argument)
                if global_name is not None:
                    own.module_reads.setdefault(global_name, argument.span)
                elif root[0] == "param":
                    own.param_reads.add(root[1])
        for name, span in callee.module_reads.items():
            own.module_reads.setdefault(name, span)
        for name, span in callee.module_writes.items():
            own.module_writes.setdefault(name, span)

    def _alias_error(self, argument: PointerArgument, other: Span, what: str) -> None:
        self.ctx.report("T003", f"this pointer argument aliases {what}, and one of the two accesses writes: a "
                                "function must not reach the same memory through two names; pass one pointer, or "
                                "copy the value into a local variable first",
                        argument.span, related=(Related(other, "the other access to the same memory"),))


class _AccessWalk:
    """What each function accesses, its callees' included, found callees first.

    A method rather than a recursive closure: a closure that calls itself is a reference cycle, and this one
    would hold the checker and with it the whole semantic model, so that only the cyclic garbage collector
    could free a lint's model (coop-lint paid for that collection on every file)."""

    def __init__(self, checker, by_name: dict) -> None:
        self.checker, self.by_name = checker, by_name
        self.done: dict[str, _Accesses] = {}
        self.visiting: set[str] = set()

    def accesses(self, name: str) -> _Accesses | None:
        if name in self.done:
            return self.done[name]
        facts, delta = self.by_name.get(name, (None, 0))
        if facts is None or name in self.visiting:  # no body, or a call cycle (reported elsewhere)
            return None
        if delta:
            facts = facts.shifted(delta)
        self.visiting.add(name)
        own = _Accesses(dict(facts.module_reads), dict(facts.module_writes),
                        set(facts.param_reads), set(facts.param_writes))
        for call in facts.calls:
            callee = self.accesses(call.callee)
            if callee is not None:
                self.checker._check_call(name, call, callee, own)
        self.visiting.discard(name)
        self.done[name] = own
        return own
