"""The module's declarations made into symbols together, by C's loops: every version makes them anew.

Checker._declare_module takes one declaration at a time, a few dozen operations of Python each. Where
nothing is unusual (an ASCII text, every declaration named, each name once and none declared before),
what it does for each is the same, and this does it for all with map and zip, in the same order: the
same symbols (their state as model.SYMBOL_DEFAULTS makes it), the same scope and model tables.
"""

from __future__ import annotations

import operator
from collections import deque
from itertools import repeat

from ..core.text import Span, SET_SPAN_END, SET_SPAN_START
from ..syntax.nodes import FIELD_NAME, KIND_NAMES
from .model import SYMBOL_DEFAULTS, Symbol

_NAME = operator.methodcaller("child_by_field_id", FIELD_NAME)
_KIND_ID, _START, _END = operator.attrgetter("kind_id"), operator.attrgetter("start_byte"), operator.attrgetter("end_byte")
_MISSING = operator.attrgetter("is_missing")
_FIRST_FIELDS = ("name", "kind", "span", "declaration")  # Symbol's own first four, in __init__'s order


def declared_together(checker, declarations: list, declaration_kinds: dict) -> list | None:
    """Checker._declare_module's [(node, symbol)] for `declarations`, or None where one of them is unusual
    (the one-by-one way then takes them all); `declaration_kinds`: node kind -> symbol kind."""
    ctx = checker.ctx
    text = ctx.ascii_text
    if text is None or not declarations:
        return None
    names_nodes = list(map(_NAME, declarations))
    if None in names_nodes or any(map(_MISSING, names_nodes)):
        return None
    starts, ends = list(map(_START, names_nodes)), list(map(_END, names_nodes))
    names = list(map(text.__getitem__, map(slice, starts, ends)))
    symbols = checker.module_scope.symbols
    if len(set(names)) != len(names) or not symbols.keys().isdisjoint(names):
        return None  # (a redeclaration: reported one by one)
    exhaust = deque(maxlen=0).extend
    spans = list(map(object.__new__, repeat(Span, len(names))))
    exhaust(map(SET_SPAN_START, spans, starts))
    exhaust(map(SET_SPAN_END, spans, ends))
    kinds = map(declaration_kinds.get, map(KIND_NAMES.__getitem__, map(_KIND_ID, declarations)), repeat("parameter"))
    states = list(map(dict, map(zip, repeat(_FIRST_FIELDS), zip(names, kinds, spans, declarations))))
    exhaust(map(dict.update, states, repeat(SYMBOL_DEFAULTS)))
    made = list(map(object.__new__, repeat(Symbol, len(names))))
    exhaust(map(setattr, made, repeat("__dict__"), states))
    symbols.update(zip(names, made))
    model = ctx.model
    model.written_symbols.extend(made)
    model.written_references.update(zip(zip(starts, ends), made))
    return list(zip(declarations, made))
