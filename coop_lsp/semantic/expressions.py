"""Typing expressions, with constant values where WGSL evaluates them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import tree_sitter as ts

from ..core.diagnostic import Edit, Fix, Related, Severity
from ..core.memo import memoized
from ..core.text import Span
from . import constants as c
from . import layout
from . import types as t
from .builtins.matrix import array_element_bytes
from .matrix_calls import explain_matrix_call
from .builtins.signature import match_call, parameter_types
from .builtins.core import DEBUG_PRINTF, DEBUG_PRINTF_ENABLE, DIALECT_ONLY_FUNCTIONS
from .builtins.language import LOAD, STORE, matrix_builtin_names
from .context import CORE_TABLE, MATRIX_TABLES
from .model import CallTarget, Symbol
from .typenames import TEMPLATE_ENUMERANTS, is_type_name
from ..syntax.nodes import (
    KIND_NAMES,
    FIELD_ARGUMENTS,
    FIELD_FUNCTION,
    FIELD_INDEX,
    FIELD_LEFT,
    FIELD_MEMBER,
    FIELD_NAME,
    FIELD_OPERAND,
    FIELD_OPERATOR,
    FIELD_RIGHT,
    FIELD_TEMPLATE,
    FIELD_VALUE,
)

_SWIZZLE_SETS = ("xyzw", "rgba")
_COMMENT_KINDS = frozenset({"line_comment", "block_comment"})
# The matrix loads and stores whose strides and extents are checked beyond their overloads, by compiler.
_NAGA_MEMORY_CALLS = matrix_builtin_names(LOAD, STORE, compiler="naga")
_TINT_MEMORY_CALLS = matrix_builtin_names(LOAD, STORE, compiler="tint")
_INFERABLE = re.compile(r"^(vec[234]|mat[234]x[234]|array)$")
_ARITHMETIC = {"+", "-", "*", "/", "%"}
_COMPARISON = {"<", ">", "<=", ">=", "==", "!="}
_CHECKED_RIGHT_OPERATORS = {"/", "%", "<<", ">>"}  # the ones _check_constant_right_operand has a rule for


# Slots: a Typed is made for every expression, and without them each one is two objects (itself and its
# __dict__) for the allocator and the cyclic collector.
@dataclass(slots=True)
class Typed:
    type: t.Type
    value: object = None  # the constant's value when it is known
    symbol: Symbol | None = None
    # A const-expression (its value may still be unknown to us) or an override-expression.
    const: bool = False
    override: bool = False
    # A constant vector built right here from known scalars: its component values. For an array of
    # abstract numbers built right here, its elements' values, flattened: a materialized type must hold them.
    components: tuple | None = None

    # Not compared or shown: set on the few references they describe.
    # A reference to part of a vector (`v.x`, `v.xy`, `v[i]`): it has no address of its own.
    vector_part: bool = field(default=False, compare=False, repr=False)
    repeated_swizzle: bool = field(default=False, compare=False, repr=False)  # `v.xx` cannot be assigned

    # Written out rather than generated: one call less for every expression.
    def __init__(self, type: t.Type, value: object = None, symbol: Symbol | None = None, const: bool = False,
                 override: bool = False, components: tuple | None = None) -> None:
        # (one assignment each: four at once would build and unpack a tuple for every expression)
        self.type = type
        self.value = value
        self.symbol = symbol
        self.const = const
        self.override = override or const  # every const-expression is also an override-expression
        self.components = components
        self.vector_part = self.repeated_swizzle = False


def _vector_part(typed: Typed, repeated: bool = False) -> Typed:
    typed.vector_part = True
    typed.repeated_swizzle = repeated
    return typed


ERROR = Typed(t.ERROR, const=True, override=True)  # an error is never reported twice
_SCALAR, _REFERENCE, _TYPE_OF = t.Scalar, t.Reference, t.TypeOf  # compared by class: no type subclasses them
# _binary's results by operator and the identities of the operands' types: (left, right, result, the Typed
# of a run-time value of the result's type, whether left and right are concrete scalars).
_RESULTS: dict[tuple[str, int, int], tuple] = {}
# An int literal's Typed by its text, for every module this process checks: it is a function of the text
# alone (parse_int_literal and check_range read nothing else, and a Typed is never changed once made), so
# the next version of a document, or the next file, need not parse the same literal again. One that is out
# of range is reported at each use and never kept. Bounded as _RESULTS is.
_INT_LITERALS: dict[str, Typed] = {}

# _expression's methods by node kind (identifiers are taken first), and those methods once looked up.
_EXPRESSION_METHODS = {
    "binary_expression": "_binary", "int_literal": "_int_literal", "float_literal": "_float_literal",
    "bool_literal": "_bool_literal", "paren_expression": "_paren", "templated_identifier": "_templated_identifier",
    "call_expression": "call", "index_expression": "_index", "member_expression": "_member",
    "unary_expression": "_unary",
}
_EXPRESSION_HANDLERS: dict = {}
# Templated types kept for every module the process checks, by text, the configured dialect and the module's
# enables (what resolving one reads besides its names): those whose resolution, besides what a module-kept one
# needs, changed nothing of what the module says once, with that state as it was (what was said, the
# dialect families used, the matrix dialects). Used where the module has said all that already, uses the
# same one dialect family, and has noted those dialects: there the resolution would say and note nothing
# either (a second family could make the first use a T011, so one family only). Bounded: a process lints
# many files.
_SHARED_TEMPLATED_TYPES: dict[tuple, tuple] = {}
_SHARE_TEMPLATED_TYPES = True
# Whether a local's templated declared type is kept as a template argument is (see declared_type).
_KEEP_DECLARED_TYPES = True
_UNKNOWN_KIND = object()
# Whether the Typed of an index or member access into a reference (and its load), of an address, and the
# reference through a pointer are made once per module and shared (see _shared_access).
_SHARE_ACCESSES = True

# Whether a builtin call's run-time result, or its void one, is a Typed shared by every such call (a void
# one by all; a run-time one by its result type's identity, in _CALL_RESULTS: bounded, a process lints many
# files).
_SHARE_RESULTS = True
_CALL_RESULTS: dict[int, tuple] = {}

# Builtins that are not const-evaluable: they read memory, synchronize or talk across invocations.
_RUNTIME_ONLY_CATEGORIES = {"texture", "atomic", "synchronization", "subgroup", "derivative", "array", "subgroup matrix",
                            "cooperative matrix"}


class ExpressionChecker:
    """Mixin of the checker: needs `ctx`, `lookup_symbol` (and the `_visible` locals it reads first),
    `symbol_type`, `resolve_type`."""

    def expression(self, node: ts.Node) -> Typed:
        kind = KIND_NAMES[node.kind_id]  # (node.type's string, made once: syntax/nodes.py says why)
        start, end = node.start_byte, node.end_byte
        if kind == "identifier" and start != end:
            # (the commonest here, an assignment's target: _expression's test and call for it written out; an
            # empty identifier is a MISSING one, which _expression tells, as value() says)
            typed = self._identifier(node, start, end)
        else:
            # A kind whose method _expression has looked up already goes to it without that call (a MISSING
            # node, and the kinds without a method, ERROR among them, still go through it).
            handler = _EXPRESSION_HANDLERS.get(kind)
            typed = handler(self, node) if handler is not None and not node.is_missing \
                else self._expression(node, kind)
        self.ctx.model.written_types[(start, end, kind)] = typed.type
        return typed

    def value(self, node: ts.Node) -> Typed:
        """An expression used as a value: references are loaded."""
        # `expression` written out: this runs for most nodes of a body, and one call less shows. So are
        # _expression's three commonest kinds. A MISSING node, an error whatever its kind, is the only kind
        # of empty node these can be: an empty one goes to _expression, which tells.
        kind = KIND_NAMES[node.kind_id]
        start, end = node.start_byte, node.end_byte
        ctx = self.ctx
        if start == end:
            typed = self._expression(node, kind)
        elif kind == "identifier":
            typed = self._identifier(node, start, end)
        elif kind == "binary_expression":
            typed = self._binary(node)
        elif kind == "int_literal":
            # A literal seen before in this module: its Typed is kept by text (see _expression).
            text = ctx.ascii_text
            typed = _INT_LITERALS.get(text[start:end] if text is not None else ctx.text(node)) \
                or self._expression(node, kind)
        else:
            # (as in expression(): a node that is not empty is not MISSING)
            handler = _EXPRESSION_HANDLERS.get(kind)
            typed = handler(self, node) if handler is not None else self._expression(node, kind)
        value_type = typed.type
        ctx.model.written_types[(start, end, kind)] = value_type
        family = value_type.__class__
        if family not in _NOT_VALUE_CLASSES:
            return typed  # most expressions: already a value, and Typed is never changed once made
        if family is _REFERENCE:  # (the commonest of the three: every read of a variable, a loop's counter too)
            symbol = typed.symbol
            if kind == "identifier" and symbol is not None and symbol.kind == "var":
                # A plain read of a function's own variable never aliases: only the rest goes to the alias
                # analysis.
                if self.function is not None and self.module_scope.symbols.get(symbol.name) is symbol:
                    # (the root alias_root would find again from the name: this very variable)
                    self.note_module_read(node, symbol.name)
                uses = ctx.variable_uses.get(symbol)
                if uses is not None and uses[0] is typed:
                    return uses[1]  # the load _identifier made with this reference
            else:
                if self.function is not None:
                    self.note_access(node, read=True, write=False)
                shared = ctx.access_loads.get(id(typed))
                if shared is not None and shared[0] is typed:
                    return shared[1]  # the load made with this shared access (_shared_access)
            return Typed(value_type.store, typed.value, symbol, typed.const, typed.override, typed.components)
        if family is _TYPE_OF:
            if value_type.type is t.ERROR:
                return ERROR
            ctx.report("T003", f"type '{value_type.type.describe()}' cannot be used as a value", ctx.span(node))
            return ERROR
        if value_type is _VOID:
            callee = node.child_by_field_id(FIELD_FUNCTION) if node.type == "call_expression" else None
            name = ctx.text(callee.child_by_field_id(FIELD_NAME) or callee) if callee is not None else "this"
            ctx.report("T003", f"function '{name}' does not return a value, so its call cannot be used as one",
                       ctx.span(node))
            return ERROR
        return typed  # (a void type that is not _VOID: already a value, as any other)

    def template_value(self, node: ts.Node) -> Typed:
        """A template argument: a type, an enumerant (`storage`, `row_major`, `A`) or a constant."""
        text = self.ctx.text(node)
        if node.type == "identifier" and self.lookup_symbol(text) is None:
            if text in TEMPLATE_ENUMERANTS:
                enumerants = self.ctx.enumerants
                typed = enumerants.get(text)
                if typed is None:
                    typed = enumerants[text] = Typed(t.Enumerant(text), const=True)
                return typed
            if is_type_name(text):
                return Typed(t.TypeOf(self.resolve_type(node)), const=True)
        if node.type == "templated_identifier":
            return self._templated_type(node, text)
        typed = self.expression(node)
        if isinstance(typed.type, t.TypeOf):
            return typed
        return Typed(t.store_type(typed.type), typed.value, typed.symbol, typed.const, typed.override,
                     typed.components)

    def declared_type(self, node: ts.Node) -> t.Type:
        """A local's declared type (`var acc: array<subgroup_matrix_result<f32, 16, 16>, 8>`): one with a
        template is kept as a template argument is (_templated_type), by its kind and text."""
        if _KEEP_DECLARED_TYPES and KIND_NAMES[node.kind_id] == "type_specifier" and not node.has_error:
            text = self.ctx.text(node)
            if "<" in text:
                return self._templated_type(node, text, ("type_specifier", text)).type.type
        return self.resolve_type(node)

    def _templated_type(self, node: ts.Node, text: str, key: object = None) -> Typed:
        """A type with a template as a template argument: the matrix of every `subgroupMatrixLoad<...>`.

        Resolved once per text in a module and kept, where resolving it found no declaration, said
        nothing, evaluated nothing it could report and resolved no call. Its result then depends only on
        its text and on the names it looked up staying undeclared; what else it did, once said, is not
        done again by the same text (a dialect's first use, a missing enable); and a use of the kept one
        adds what a fresh one would: its names' lookups and its expressions' types where it stands.

        One that also changed nothing of what a module says once (_SHARED_TEMPLATED_TYPES says when) is
        kept for the next modules too: the next version of an edited body resolves it no more."""
        ctx = self.ctx
        visible, module = self._visible, self.module_scope.symbols
        key = text if key is None else key
        kept = ctx.templated_types.get(key)
        if kept is not None and self._kept_templated_type(node, kept):
            return kept[0]
        shared_key = None
        if kept is None and _SHARE_TEMPLATED_TYPES and not ctx.unevaluated:
            shared_key = (key, ctx.configured_dialect, frozenset(ctx.model.enables))
            shared = _SHARED_TEMPLATED_TYPES.get(shared_key)
            if shared is not None and ctx.said_covers(shared[1]) and ctx.model.matrix_dialects >= shared[2] \
                    and self._kept_templated_type(node, shared[0]):
                ctx.templated_types[key] = shared[0]
                return shared[0][0]
        names = _identifier_texts(node, ctx)
        if ctx.unevaluated or any(visible.get(name) is not None or module.get(name) is not None for name in names):
            return Typed(t.TypeOf(self.resolve_type(node)), const=True)
        # Resolved with what it writes caught, then merged into the tables it would have gone to.
        model, reported = ctx.model, len(ctx.diagnostics)
        said, dialects = (ctx.said_once(), frozenset(model.matrix_dialects)) if shared_key is not None else (None, None)
        outer = (self.module_lookups, model.written_types, model.written_references, model.written_calls)
        self.module_lookups, model.written_types, model.written_references, model.written_calls = {}, {}, {}, {}
        try:
            typed = Typed(t.TypeOf(self.resolve_type(node)), const=True)
        finally:
            caught = (self.module_lookups, model.written_types, model.written_references, model.written_calls)
            self.module_lookups, model.written_types, model.written_references, model.written_calls = outer
            if outer[0] is not None:
                for name, symbol in caught[0].items():
                    outer[0].setdefault(name, symbol)
            for table, entries in zip(outer[1:], caught[1:]):
                table.update(entries)
        looked_up, types, references, calls = caught
        if len(ctx.diagnostics) == reported and not references and not calls \
                and all(symbol is None for symbol in looked_up.values()):
            start = node.start_byte
            entry = ctx.templated_types[key] = (
                typed, tuple(dict.fromkeys(names + tuple(looked_up))), tuple(looked_up),
                tuple((begin - start, end - start, kind, value_type) for (begin, end, kind), value_type in types.items()))
            if shared_key is not None and ctx.said_count() == sum(map(len, said)) \
                    and len(model.matrix_dialects) == len(dialects):
                if len(_SHARED_TEMPLATED_TYPES) >= 1024:
                    _SHARED_TEMPLATED_TYPES.clear()
                _SHARED_TEMPLATED_TYPES[shared_key] = (entry, (said[0], said[1], frozenset(said[2])), dialects)
        return typed

    def _kept_templated_type(self, node: ts.Node, kept: tuple) -> bool:
        """A kept templated type's use at `node`, where none of the names it watches is declared: adds what
        resolving it would have (its lookups, its expressions' types). False, doing nothing, otherwise."""
        _, watched, looked_up, types = kept
        visible, module = self._visible, self.module_scope.symbols
        for name in watched:
            if visible.get(name) is not None or module.get(name) is not None:
                return False
        lookups = self.module_lookups
        if lookups is not None:
            for name in looked_up:
                lookups.setdefault(name, None)
        written, start = self.ctx.model.written_types, node.start_byte
        for begin, end, kind, value_type in types:
            written[(begin + start, end + start, kind)] = value_type
        return True

    def const_int(self, node: ts.Node) -> int | None:
        typed = self.value(node)
        return typed.value if isinstance(typed.value, int) and not isinstance(typed.value, bool) else None

    # ---------------------------------------------------------------- kinds
    def _expression(self, node: ts.Node, kind: str) -> Typed:
        if kind == "ERROR" or node.is_missing:  # an ERROR node always has an error
            return ERROR
        if kind == "identifier":
            return self._identifier(node, node.start_byte, node.end_byte)
        # The other kinds by a dict of their methods' names (looked up on the class once per kind, as
        # statement() does): a chain of comparisons showed. A kind without one is not an expression.
        handler = _EXPRESSION_HANDLERS.get(kind, _UNKNOWN_KIND)
        if handler is _UNKNOWN_KIND:
            name = _EXPRESSION_METHODS.get(kind)
            handler = _EXPRESSION_HANDLERS[kind] = getattr(type(self), name) if name is not None else None
        return handler(self, node) if handler is not None else ERROR

    def _int_literal(self, node: ts.Node) -> Typed:
        ctx = self.ctx
        text = ctx.text(node)
        typed = _INT_LITERALS.get(text)
        if typed is None:
            value, scalar = c.parse_int_literal(text)
            typed = self._literal(node, value, scalar)
            if typed.value is not None:  # one out of range is reported at each use, so it is not kept
                if len(_INT_LITERALS) >= 4096:
                    _INT_LITERALS.clear()
                _INT_LITERALS[text] = typed
        return typed

    def _float_literal(self, node: ts.Node) -> Typed:
        ctx = self.ctx
        value, scalar = c.parse_float_literal(ctx.text(node))
        if scalar == t.F16:
            ctx.require_enable("f16", node, "an f16 literal")
        return self._literal(node, value, scalar)

    def _bool_literal(self, node: ts.Node) -> Typed:
        return Typed(t.BOOL, self.ctx.text(node) == "true", const=True)

    def _paren(self, node: ts.Node) -> Typed:
        inner = node.named_children
        return self.expression(inner[0]) if inner else ERROR

    def _templated_identifier(self, node: ts.Node) -> Typed:
        return Typed(t.TypeOf(self.resolve_type(node)), const=True)

    def _literal(self, node: ts.Node, value, scalar: t.Scalar) -> Typed:
        try:
            return Typed(scalar, c.check_range(value, scalar), const=True)
        except c.ConstError as error:
            self.ctx.report("T014", str(error), self.ctx.span(node))
            return Typed(scalar, const=True, override=True)

    def _identifier(self, node: ts.Node, start: int, end: int) -> Typed:
        """A name, at `start`..`end` (the node's bytes, which the caller has read already)."""
        ctx = self.ctx
        text = ctx.ascii_text
        name = text[start:end] if text is not None else ctx.text(node)
        # A parameter or local in scope, the commonest, is looked up without lookup_symbol's call (which would
        # find the same and record nothing); so is the rest, lookup_symbol's module half written out.
        symbol = self._visible.get(name)
        # (a name the function's scopes declare is never the module scope's: _declare puts it in one)
        in_module = symbol is None
        if in_module:
            symbol = self.module_scope.symbols.get(name)
            lookups = self.module_lookups
            if lookups is not None:
                lookups.setdefault(name, symbol)
        if symbol is None:
            if is_type_name(name):
                return Typed(t.TypeOf(self.resolve_type(node)))
            if CORE_TABLE.get(name) or ctx.matrix_builtin(name):
                ctx.report("T003", f"builtin function '{name}' cannot be used as a value; call it",
                           ctx.span(node))
                return ERROR
            if name.startswith(("RAY_FLAG_", "RAY_QUERY_INTERSECTION_")):
                ctx.portability("naga", node, "naga's ray query constants")
                return ERROR
            ctx.report("T001", f"unresolved identifier '{name}'", ctx.span(node))
            return ERROR
        ctx.model.written_references[(start, end)] = symbol
        if self.continuing_blocks:
            self.check_continuing_use(symbol, node)
        kind = symbol.kind
        if kind == "var":
            if self.function is None:
                ctx.report("T003", f"'var {name}' cannot be referenced at module scope: module-scope "
                                   "expressions are evaluated before any variable exists", ctx.span(node),
                           related=(Related(symbol.span, f"'{name}' is declared here"),))
                return ERROR
            if in_module:
                self.note_use(symbol, node)  # (a module-scope variable: note_use passes over a local one)
            # The Typed of a name is the same at every use (and a Typed is never changed once made): made on
            # its first use from the symbol's fields, and again only if one of them has changed since.
            value_type = symbol.type if symbol.resolved else self.symbol_type(symbol, via=node)
            uses = ctx.variable_uses.get(symbol)
            if uses is not None:
                reference = uses[0].type
                if reference.store is value_type and reference.space == symbol.space \
                        and reference.access == symbol.access:
                    return uses[0]
            typed = Typed(t.Reference(symbol.space, value_type, symbol.access), symbol=symbol)
            ctx.variable_uses[symbol] = (typed, Typed(value_type, symbol=symbol))  # with its load, for value()
            return typed
        # A name whose Typed is kept (below) is a let, const, override or parameter: the test at the end
        # made first, before the kinds the others are told apart by.
        typed = ctx.value_uses.get(symbol)
        if typed is not None and symbol.resolved and typed.type is symbol.type and (
                kind != "const" or typed.value is symbol.value and typed.components is symbol.components):
            return typed
        if kind in ("struct", "alias"):
            return Typed(t.TypeOf(self.symbol_type(symbol, via=node)), const=True)
        if kind == "function":
            # Naming a function is a dependency on it, as a call is: a function that names itself is cyclic.
            # Not where the parser gave up around the name (`1.f`): there the syntax error is the finding.
            if node.parent is None or not node.parent.has_error:
                self.note_use(symbol, node)
            ctx.report("T003", f"function '{name}' cannot be used as a value; call it", ctx.span(node))
            return ERROR
        value_type = symbol.type if symbol.resolved else self.symbol_type(symbol, via=node)
        # (as a variable's, above: kept by symbol)
        typed = ctx.value_uses.get(symbol)
        if typed is not None and typed.type is value_type and (
                kind != "const" or typed.value is symbol.value and typed.components is symbol.components):
            return typed
        if kind == "const":
            typed = Typed(value_type, symbol.value, symbol, const=True, override=True, components=symbol.components)
        else:
            typed = Typed(value_type, None, symbol, override=kind == "override")
        ctx.value_uses[symbol] = typed
        return typed

    # ------------------------------------------------------------ accessors
    def _index(self, node: ts.Node) -> Typed:
        base = self.expression(node.child_by_field_id(FIELD_VALUE))
        index_node = node.child_by_field_id(FIELD_INDEX)
        index = self.value(index_node) if index_node is not None else ERROR
        if index.type is not t.ERROR and not (isinstance(index.type, t.Scalar) and index.type.is_integer):
            self.ctx.report("T003", f"index must be an integer, not '{index.type.describe()}'",
                            self.ctx.span(index_node))
        target = base.type
        reference = None
        if isinstance(target, t.Pointer):
            reference, target = self._dereferenced(target), target.store
        elif isinstance(target, t.Reference):
            reference, target = target, target.store
        if target is t.ERROR:
            return ERROR
        if index_node is not None and (reference is not None or not base.const) \
                and not self.check_materialized(index_node, index, t.I32):
            return ERROR  # an abstract index into memory or a run-time value is an i32
        if reference is None and base.const and not index.const \
                and not self.check_materialized(node.child_by_field_id(FIELD_VALUE), base, t.concretize(target)):
            return ERROR  # a constant indexed at run time is materialized first: its values must fit
        if isinstance(target, t.Array):
            element, bound = target.element, target.count
        elif isinstance(target, t.Vector):
            element, bound = target.element, target.size
        elif isinstance(target, t.Matrix):
            element, bound = t.Vector(target.rows, target.element), target.columns
        elif isinstance(target, t.BindingArray):
            element, bound = target.element, target.count
        else:
            self.ctx.report("T003", f"cannot index a value of type '{target.describe()}'",
                            self.ctx.span(node.child_by_field_id(FIELD_VALUE)))
            return ERROR
        if isinstance(index.value, int) and not isinstance(index.value, bool):
            if index.value < 0 or isinstance(bound, int) and index.value >= bound:
                limit = f" [0..{bound - 1}]" if isinstance(bound, int) else ""
                self.ctx.report_evaluation(f"index {index.value} out of bounds{limit}", self.ctx.span(index_node))
        if reference is not None:
            if _SHARE_ACCESSES:
                return self._shared_access(reference, None, element, isinstance(target, t.Vector), False)
            typed = Typed(t.Reference(reference.space, element, reference.access))
            return _vector_part(typed) if isinstance(target, t.Vector) else typed
        constant = base.const and index.const
        return Typed(element, const=constant, override=base.override and index.override)

    def _member(self, node: ts.Node) -> Typed:
        ctx = self.ctx
        base = self.expression(node.child_by_field_id(FIELD_VALUE))
        member_node = node.child_by_field_id(FIELD_MEMBER)
        if member_node is None or base.type is t.ERROR:
            return ERROR
        name = ctx.text(member_node)
        target, reference = base.type, None
        if isinstance(target, t.Pointer):
            reference, target = self._dereferenced(target), target.store
        elif isinstance(target, t.Reference):
            reference, target = target, target.store
        if target is t.ERROR:
            return ERROR
        if isinstance(target, t.Struct):
            member = target.member(name)
            if member is None:
                ctx.report("T001", f"struct '{target.name}' has no member '{name}'", ctx.span(member_node))
                return ERROR
            result = member.type
        elif isinstance(target, t.Vector):
            if not any(all(ch in letters[: target.size] for ch in name) for letters in _SWIZZLE_SETS) \
                    or not 1 <= len(name) <= 4:
                ctx.report("T003", f"invalid swizzle '{name}' for '{target.describe()}'", ctx.span(member_node))
                return ERROR
            result = target.element if len(name) == 1 else t.Vector(len(name), target.element)
        else:
            ctx.report("T003", f"'{target.describe()}' has no members", ctx.span(member_node))
            return ERROR
        if reference is not None:
            vector = isinstance(target, t.Vector)
            if _SHARE_ACCESSES:
                return self._shared_access(reference, name, result, vector, vector and len(set(name)) < len(name))
            typed = Typed(t.Reference(reference.space, result, reference.access))
            return _vector_part(typed, len(set(name)) < len(name)) if vector else typed
        if isinstance(target, t.Vector) and base.components is not None:
            picked = tuple(base.components[_swizzle_index(ch)] for ch in name)
            if len(picked) == 1:
                return Typed(result, picked[0], const=base.const, override=base.override)
            return Typed(result, const=base.const, override=base.override, components=picked)
        return Typed(result, const=base.const, override=base.override)

    def _dereferenced(self, pointer: t.Pointer) -> t.Reference:
        """The reference an access through `pointer` (`p[i]`, `p.x`) starts from: one per pointer type in a
        module, so that the accesses through it share their Typed as a variable's do (_shared_access)."""
        if not _SHARE_ACCESSES:
            return t.Reference(pointer.space, pointer.store, pointer.access)
        accesses = self.ctx.accesses
        entry = accesses.get((id(pointer), "*"))
        if entry is None:  # (the entry holds `pointer` alive: an id in a key is never another object's)
            entry = accesses[(id(pointer), "*")] = (pointer, t.Reference(pointer.space, pointer.store, pointer.access))
        return entry[1]

    def _shared_access(self, reference: t.Reference, name: str | None, element: t.Type, vector_part: bool,
                       repeated: bool) -> Typed:
        """The Typed of `reference[i]` (`name` None) or `reference.name`: what it refers to, and its flags,
        follow from `reference` and `name` alone, so the module makes it once, with its load (value() reads
        that), and every later access into the same reference shares them (a Typed is never changed once
        made). Most references are shared already: a variable's by its uses, an access's by this, one through
        a pointer by _dereferenced."""
        ctx = self.ctx
        key = (id(reference), name)
        entry = ctx.accesses.get(key)
        if entry is not None:  # (the entry holds `reference` alive: an id in a key is never another object's)
            return entry[1]
        typed = Typed(t.Reference(reference.space, element, reference.access))
        if vector_part:
            _vector_part(typed, repeated)
        ctx.accesses[key] = (reference, typed)
        ctx.access_loads[id(typed)] = (typed, Typed(element))
        return typed

    # ------------------------------------------------------------ operators
    def _unary(self, node: ts.Node) -> Typed:
        ctx = self.ctx
        operator = ctx.text(node.child_by_field_id(FIELD_OPERATOR))
        operand_node = node.child_by_field_id(FIELD_OPERAND)
        if operator == "&":
            operand = self.expression(operand_node)
            if operand.vector_part:
                ctx.report("T003", "cannot take the address of a vector component; take the address of the "
                                   "whole vector, or copy the component into a variable", ctx.span(operand_node))
                return ERROR
            if isinstance(operand.type, t.Reference):
                ref = operand.type
                if ref.space == "handle":
                    what = f"'var {operand.symbol.name}'" if operand.symbol is not None else "a texture or sampler"
                    ctx.report("T003", f"cannot take the address of {what}: textures and samplers live in the "
                                       "'handle' address space, which has no pointers; pass the variable itself",
                               ctx.span(operand_node))
                    return ERROR
                if not _SHARE_ACCESSES:
                    return Typed(t.Pointer(ref.space, ref.store, ref.access))
                # (as an access into the reference, _shared_access: the pointer follows from the reference alone)
                entry = ctx.accesses.get((id(ref), "&"))
                if entry is None:
                    entry = ctx.accesses[(id(ref), "&")] = (ref, Typed(t.Pointer(ref.space, ref.store, ref.access)))
                return entry[1]
            if operand.type is not t.ERROR:
                ctx.report("T003", "cannot take the address of a value that is not in memory",
                           ctx.span(operand_node))
            return ERROR
        if operator == "*":
            operand = self.value(operand_node)
            if isinstance(operand.type, t.Pointer):
                p = operand.type
                return Typed(t.Reference(p.space, p.store, p.access))
            if operand.type is not t.ERROR:
                ctx.report("T003", f"cannot dereference '{operand.type.describe()}': not a pointer",
                           ctx.span(operand_node))
            return ERROR
        operand = self.value(operand_node)
        scalar = t.element_scalar(operand.type)
        if operand.type is t.ERROR or scalar is None:
            if operand.type is not t.ERROR:
                ctx.report("T004", f"no matching overload for operator '{operator}' ({operand.type.describe()})",
                           ctx.span(node))
            return ERROR
        valid = {"-": scalar.is_float or scalar.name in ("i32", "abstract-int"),
                 "!": scalar == t.BOOL, "~": scalar.is_integer}[operator]
        if valid and operator == "-" and isinstance(operand.type, t.Matrix) and not self._matrix_negation(node):
            return ERROR
        if not valid or isinstance(operand.type, t.CoopMatrix) or isinstance(operand.type, t.Matrix) \
                and operator != "-":
            ctx.report("T004", f"no matching overload for operator '{operator}' ({operand.type.describe()})",
                       ctx.span(node))
            return ERROR
        try:
            value = c.unary(operator, operand.value, scalar) if isinstance(operand.type, t.Scalar) else None
        except c.ConstError as error:
            ctx.report_evaluation(str(error), ctx.span(node))
            value = None
        return Typed(operand.type, value, const=operand.const, override=operand.override)

    def _texture_constants(self, name, match, args, arg_nodes) -> None:
        """A texel offset is a constant from -8 to 7 per component; a gather component a constant 0 to 3."""
        ctx = self.ctx
        for parameter, arg, arg_node in zip(match.overload.parameters, args, arg_nodes):
            if parameter.name not in ("offset", "component"):
                continue
            if not arg.const:
                ctx.report("T014", f"the '{parameter.name}' argument of '{name}' must be a const-expression",
                           ctx.span(arg_node))
                continue
            if parameter.name == "component":
                value = arg.value
                if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= 3:
                    ctx.report("T014", f"the component argument must be at least 0 and at most 3, not {value}",
                               ctx.span(arg_node))
                continue
            for index, component in enumerate(arg.components or ()):
                if isinstance(component, int) and not isinstance(component, bool) and not -8 <= component <= 7:
                    ctx.report("T014", f"each component of the offset argument must be at least -8 and at most "
                                       f"7; component {index} is {component}", ctx.span(arg_node))
                    break

    def _matrix_negation(self, node: ts.Node) -> bool:
        """`-m` on a matrix: WGSL and Tint have no such operator, naga does. False when it is an error."""
        ctx = self.ctx
        compiler = ctx.target_compiler()
        if compiler == "naga":
            return True
        message = ("no matching overload for unary operator '-' on a matrix: WGSL negates only scalars and "
                   "vectors; write 'm * -1.0' (or negate each column)")
        if compiler == "tint":
            ctx.report("T004", message, ctx.span(node))
            return False
        ctx.report("T013", message + "; only naga (wgpu) accepts it, Tint rejects it", ctx.span(node))
        return True

    def _binary(self, node: ts.Node) -> Typed:
        ctx = self.ctx
        children = node.children
        if len(children) == 3 and not node.has_error:
            # Without comments or errors the three children are the three fields, and the operator, an
            # anonymous token, is named by its text: one list instead of three field searches.
            left_node, operator_node, right_node = children
            operator = KIND_NAMES[operator_node.kind_id]
        else:
            operator = ctx.text(node.child_by_field_id(FIELD_OPERATOR))
            left_node, right_node = node.child_by_field_id(FIELD_LEFT), node.child_by_field_id(FIELD_RIGHT)
        left = self.value(left_node)
        # `false && X` and `true || X`: X is checked but never evaluated (Tint reports no value error in it).
        skipped = operator in ("&&", "||") and left.value is (operator == "||") and left.const
        if skipped:
            ctx.unevaluated += 1
            try:
                right = self.value(right_node)
            finally:
                ctx.unevaluated -= 1
        else:
            right = self.value(right_node)
        left_type, right_type = left.type, right.type
        if left_type is t.ERROR or right_type is t.ERROR:
            return ERROR
        # binary_result_type's memo hashes its key's types through their generated __hash__; most operands'
        # types are a few shared objects, so they are kept by identity first (the entry holds them alive,
        # so an id in a key is never another object's).
        key = (operator, id(left_type), id(right_type))
        known_result = _RESULTS.get(key)
        if known_result is not None:
            result = known_result[2]
        else:
            result = binary_result_type(operator, left_type, right_type)
            if len(_RESULTS) >= 4096:
                _RESULTS.clear()
            _RESULTS[key] = known_result = (left_type, right_type, result,
                                            Typed(result) if result is not None else None,
                                            _concrete_scalar(left_type), _concrete_scalar(right_type))
        if result is None:
            ctx.report("T004", f"no matching overload for operator '{operator}' ({left.type.describe()}, "
                               f"{right.type.describe()})", Span(node.start_byte, node.end_byte))
            return ERROR
        if operator in ("<<", ">>"):
            # A shift's count is a u32 (or a vector of them), whatever the shifted value is.
            if not self.check_materialized(right_node, right, t.U32):
                return ERROR
        else:
            # An abstract operand takes the other's concrete type (left first: the first misfit is reported).
            # A concrete scalar constant (`16u`, the commonest) is one check_materialized passes at once
            # (the memo's entry tells which operand's type is one).
            if left.const and not known_result[4] \
                    and not self.check_materialized(left_node, left, t.store_type(right_type)):
                return ERROR
            if right.const and not known_result[5] \
                    and not self.check_materialized(right_node, right, t.store_type(left_type)):
                return ERROR
        value = components = None
        if skipped and right.const:
            value = left.value  # what short-circuiting gives, whatever X would have been
        elif left_type.__class__ is _SCALAR and right_type.__class__ is _SCALAR:
            # A run-time operand folds to None: skip finding the operands' common type for nothing.
            if left.value is not None and right.value is not None:
                try:
                    value = c.binary(operator, left.value, right.value,
                                     _operand_scalar(operator, left.type, right.type))
                except c.ConstError as error:
                    ctx.report_evaluation(str(error), ctx.span(node))
        elif isinstance(result, t.Vector):
            components = self._fold_componentwise(node, operator, left, right, result.size)
        if operator in _CHECKED_RIGHT_OPERATORS and left.value is None and left.components is None and right.const:
            known = right.components if right.components is not None else (right.value,)
            # A divisor is wrong only when zero (or holding one): most constant divisors need no closer look.
            if (operator in ("<<", ">>") or 0 in known) and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in known):
                self._check_constant_right_operand(node, operator, left.type, known)
        if value is None and components is None and not (left.override and right.override):
            # A run-time value (so not const either: a const Typed is an override one too): the same Typed
            # as every other such result of these operand types, made once with the memo's entry.
            return known_result[3]
        return Typed(result, value, const=left.const and right.const,
                     override=left.override and right.override, components=components)

    def _fold_componentwise(self, node: ts.Node, operator: str, left: Typed, right: Typed, size: int) -> tuple | None:
        """The components of a vector operation whose operands' values are all known (a scalar operand
        applies to each component); None when any is unknown."""
        if not (left.const and right.const):
            return None  # compilers evaluate only const-expressions; a let's value is a run-time one
        sides = [_spread(operand, size) for operand in (left, right)]
        if sides[0] is None or sides[1] is None:
            return None
        left_element, right_element = t.element_scalar(left.type), t.element_scalar(right.type)
        if left_element is None or right_element is None:
            return None
        element = _operand_scalar(operator, left_element, right_element)
        try:
            return tuple(c.binary(operator, a, b, element) for a, b in zip(*sides))
        except c.ConstError as error:
            self.ctx.report_evaluation(str(error), self.ctx.span(node))
            return None

    def _check_constant_right_operand(self, node: ts.Node, operator: str, left: t.Type, right: tuple) -> None:
        """A constant divisor or shift amount (each component of one) is checked even when the other operand
        is only known at run time: compilers reject `i % 0u` and `i << 32u` when the shader is created, dead
        code included."""
        element = left.element if isinstance(left, t.Vector) else left
        if not isinstance(element, t.Scalar) or not element.is_integer:
            return
        if operator in ("/", "%") and 0 in right:
            what = "division" if operator == "/" else "remainder"
            divisor = "a constant zero" if len(right) == 1 else "a constant vector with a zero component"
            self.ctx.report_evaluation(f"integer {what} by {divisor} (even in code that never runs)",
                            self.ctx.span(node))
        elif operator in ("<<", ">>") and element.name in ("i32", "u32") and max(right) >= 32:
            self.ctx.report_evaluation(f"shift by {max(right)}: a shift of a 32-bit '{element.name}' must be less than 32",
                            self.ctx.span(node))

    # ---------------------------------------------------------------- calls
    def call(self, node: ts.Node) -> Typed:
        ctx = self.ctx
        callee = node.child_by_field_id(FIELD_FUNCTION)
        arguments = node.child_by_field_id(FIELD_ARGUMENTS)
        kinds = KIND_NAMES  # (node.type's strings, made once: syntax/nodes.py says why)
        arg_nodes = [a for a in (arguments.named_children if arguments is not None else [])
                     if kinds[a.kind_id] not in _COMMENT_KINDS]
        if callee is None:
            return ERROR
        templated = kinds[callee.kind_id] == "templated_identifier"
        name_node = callee.child_by_field_id(FIELD_NAME) if templated else callee
        template = callee.child_by_field_id(FIELD_TEMPLATE) if templated else None
        name = ctx.text(name_node)
        symbol = self.lookup_symbol(name)
        # The grammar lets a string literal open any call's arguments (naga's debugPrintf format);
        # WGSL itself has no strings, so it is an error everywhere else.
        fmt_node = arg_nodes[0] if arg_nodes and kinds[arg_nodes[0].kind_id] == "string_literal" else None
        if fmt_node is not None:
            arg_nodes = arg_nodes[1:]
        if symbol is None and name == DEBUG_PRINTF:
            return self._debug_printf(name_node, fmt_node, arg_nodes)
        if fmt_node is not None:
            ctx.report("T004", f"WGSL has no strings: only naga's '{DEBUG_PRINTF}' takes one (its format), not "
                               f"'{name}'", ctx.span(fmt_node))
            for arg in arg_nodes:
                self.expression(arg)
            return ERROR
        if symbol is not None and symbol.kind == "function":
            ctx.model.written_references[(name_node.start_byte, name_node.end_byte)] = symbol
            self.note_use(symbol, name_node)
            return self._user_call(node, name_node, symbol, arg_nodes)
        if symbol is None and name == "bitcast":
            return self._bitcast(name_node, template, arg_nodes)
        if symbol is None and template is None and _INFERABLE.match(name):
            return self.infer_construct(node, name_node, name, arg_nodes)
        if symbol is not None and symbol.kind in ("struct", "alias") or symbol is None and is_type_name(name):
            constructed = self.resolve_type(callee)
            overridden = isinstance(constructed, t.Array) and isinstance(constructed.count, str)
            if isinstance(constructed, t.Array) and constructed.count is None or overridden:
                ctx.report("T003", f"cannot construct '{constructed.describe()}': its element count is an "
                                   "'override', known only when the pipeline is created; write the elements of a "
                                   "'var<workgroup>' instead" if overridden else
                           "cannot construct a runtime-sized array; give it a size", ctx.span(callee))
                for arg in arg_nodes:
                    self.value(arg)
                return ERROR
            return self.construct(node, name_node, constructed, arg_nodes, inferred=template is None)
        if symbol is not None:
            ctx.model.written_references[(name_node.start_byte, name_node.end_byte)] = symbol
            ctx.report("T003", f"'{name}' is a {symbol.kind}, not a function", ctx.span(name_node))
            for arg in arg_nodes:
                self.value(arg)
            return ERROR
        return self.builtin_call(node, name_node, name, template, arg_nodes)

    def _user_call(self, node, name_node, symbol: Symbol, arg_nodes) -> Typed:
        ctx = self.ctx
        self.symbol_type(symbol)
        if self.function is None:
            ctx.report("T003", f"'{symbol.name}' cannot be called here: module-scope initializers, sizes and "
                               "attribute values are evaluated before any function runs; use a 'const' "
                               "expression, or compute the value inside a function",
                       ctx.span(node), related=(Related(symbol.span, f"'{symbol.name}' is declared here"),))
            return ERROR
        if symbol.stage is not None:
            ctx.report("T003", f"'{symbol.name}' is an entry point; entry points cannot be called (move its body "
                               "into a helper that both call)", ctx.span(name_node),
                       related=(Related(symbol.span, f"'{symbol.name}' is declared here"),))
        args = [self.value(a) for a in arg_nodes]
        self.note_user_call(symbol, arg_nodes, args)
        if len(args) != len(symbol.parameters):
            ctx.report("T004", f"'{symbol.name}' takes {len(symbol.parameters)} argument"
                               f"{'s' if len(symbol.parameters) != 1 else ''}, not {len(args)}",
                       ctx.span(name_node), related=(Related(symbol.span, f"'{symbol.name}' is declared here"),))
        else:
            for arg_node, arg, expected in zip(arg_nodes, args, symbol.parameters):
                self.expect_convertible(arg_node, arg.type, expected, "argument", arg)
        return Typed(symbol.return_type if symbol.return_type is not None else _VOID)

    def _debug_printf(self, name_node, fmt_node, arg_nodes) -> Typed:
        """naga's `debugPrintf("fmt", values...)`: each value typed here; the format against the values is
        R003's (coop_lsp/analysis/debug_prints.py), which reads the types back from the model."""
        ctx = self.ctx
        ctx.require_enable(DEBUG_PRINTF_ENABLE, name_node, f"'{DEBUG_PRINTF}'")
        if fmt_node is None:
            ctx.report("T004", f"'{DEBUG_PRINTF}' takes its format string first: {DEBUG_PRINTF}(\"x=%f\", x)",
                       ctx.span(name_node))
        for arg in arg_nodes:
            self.value(arg)
        return Typed(_VOID)

    def _bitcast(self, name_node, template, arg_nodes) -> Typed:
        ctx = self.ctx
        targets = [a for a in template.named_children] if template is not None else []
        args = [self.value(a) for a in arg_nodes]
        if len(targets) != 1 or len(args) != 1:
            ctx.report("T004", "bitcast takes one type template argument and one argument", ctx.span(name_node))
            return ERROR
        target = self.resolve_type(targets[0])
        source = t.concretize(args[0].type)
        if target is t.ERROR or source is t.ERROR:
            return ERROR
        if _bit_width(target) is None or _bit_width(target) != _bit_width(source):
            ctx.report("T004", f"'bitcast' cannot turn '{source.describe()}' into '{target.describe()}': the bit "
                               "widths differ or a type is not numeric", ctx.span(name_node))
            return ERROR
        return Typed(target)

    def builtin_call(self, node, name_node, name, template, arg_nodes) -> Typed:
        ctx = self.ctx
        self.note_builtin_access(name, arg_nodes)
        builtin, dialect = CORE_TABLE.get(name), None
        key = (name_node.start_byte, name_node.end_byte)
        if builtin is None:
            found = ctx.matrix_builtin(name)
            if found is None:
                elsewhere = _other_dialect_builtin(name)
                if elsewhere is not None:
                    ctx.model.written_calls[key] = CallTarget(*elsewhere, available=False)
                for arg in arg_nodes:
                    self.expression(arg)
                only = DIALECT_ONLY_FUNCTIONS.get(name)
                if only is not None:
                    compiler, result, _ = only
                    if ctx.portability(compiler, name_node, f"the builtin '{name}'"):
                        return Typed(_VOID) if result is None else (ERROR if result is t.ERROR else Typed(result))
                    return ERROR
                ctx.report("T001", f"unresolved function '{name}'", ctx.span(name_node))
                return ERROR
            builtin, dialect = found
            ctx.model.written_calls[key] = CallTarget(builtin, dialect)
            if dialect != "wgpu" and ctx.enabled_dialect() == "wgpu":
                ctx.model.written_calls[key] = CallTarget(builtin, dialect, available=False)
                for arg in arg_nodes:
                    self.value(arg)
                ctx.report("T001", f"unresolved function '{name}': it is a Tint builtin, and this module enables "
                                   "naga's 'wgpu_cooperative_matrix'", ctx.span(name_node))
                return ERROR
            if not ctx.use_dialect(dialect, name_node, f"'{name}'"):
                ctx.model.written_calls[key] = CallTarget(builtin, dialect, available=False)
                for arg in arg_nodes:
                    self.value(arg)
                return ERROR
        else:
            ctx.model.written_calls[key] = CallTarget(builtin)
            if builtin.enable:
                ctx.require_enable(builtin.enable, name_node, f"'{name}'")
        if builtin.stages and self.stage is not None and self.stage not in builtin.stages:
            ctx.report("T003", f"'{name}' can only be used in {' and '.join(builtin.stages)} shaders, not in a "
                               f"{self.stage} shader", ctx.span(name_node))
        template_nodes = list(template.named_children) if template else []
        if name == "subgroupMatrixMultiply" and dialect == "chromium":
            # Its template argument is the result's element type, and u8 and i8 are element types there.
            template_args = [Typed(t.TypeOf(self._matrix_element(a)), const=True) for a in template_nodes]
        else:
            template_args = [self.template_value(a) for a in template_nodes]
        args = [self.value(a) for a in arg_nodes]
        if any(a.type is t.ERROR or (isinstance(a.type, t.TypeOf) and a.type.type is t.ERROR)
               for a in template_args + args):
            return ERROR  # the error is reported where the type went wrong
        matches = match_call(builtin.overloads, [a.type for a in template_args], [a.type for a in args])
        if not matches and dialect is not None:
            template_nodes = list(template.named_children) if template else []
            explained = explain_matrix_call(name, template_args, template_nodes, args, arg_nodes, dialect)
            if explained is not None:
                code, message, where = explained
                # The draft's dialect has no bool form (gpuweb #6275): the same rewrite as Tint's deprecation fix.
                fixes = (self._majorness_fix(node, name, template, arg_nodes, args, len(args) - 2)
                         if code == "T004" and len(args) > 1 and where is arg_nodes[-2] else ())
                ctx.report(code, f"'{name}': {message}", ctx.span(where), fixes=fixes)
                return ERROR
        if not matches:
            given = ", ".join(a.type.describe() for a in args)
            templates = (f" and template arguments <{', '.join(_template_text(a.type) for a in template_args)}>"
                         if template_args else "")
            candidates = "\n".join("  " + s for s in builtin.signatures())
            ctx.report("T004", f"no matching call to '{name}' with arguments ({given}){templates}; the overloads "
                               f"are:\n{candidates}", ctx.span(name_node))
            return ERROR
        best = matches[0]
        ctx.model.written_calls[key] = CallTarget(builtin, dialect, best.overload)
        if best.problem is not None:
            code, message, parameter = best.problem
            where = name_node
            names = [p.name for p in best.overload.parameters]
            if parameter in names:
                where = arg_nodes[names.index(parameter)]
            ctx.report(code, f"'{name}': {message}", ctx.span(where))
            if code == "T004":
                return ERROR
        if best.overload.deprecated:
            self._deprecated(node, name_node, name, builtin, template, arg_nodes, args)
        if best.problem is None and any(a.const and t.element_scalar(a.type) is not None
                                        and t.element_scalar(a.type).is_abstract for a in args):
            # A call evaluated at run time takes concrete values: what stays abstract becomes i32 or f32.
            at_run_time = builtin.category in _RUNTIME_ONLY_CATEGORIES or not all(a.const for a in args)
            parameters = [p.name for p in best.overload.parameters]
            for index, (arg_node, arg, expected) in enumerate(zip(arg_nodes, args, parameter_types(best))):
                if expected is not None and at_run_time:
                    expected = t.concretize(expected)
                where = f"the '{parameters[index]}' argument of '{name}'" if index < len(parameters) else None
                if expected is not None and not self.check_materialized(arg_node, arg, expected, where):
                    return ERROR
        self.after_builtin_call(name, best, template_args, args, arg_nodes)
        if best.result is None:
            return _VOID_TYPED if _SHARE_RESULTS else Typed(_VOID)
        constant = builtin.category not in _RUNTIME_ONLY_CATEGORIES and all(a.const for a in args)
        value = None
        if constant and isinstance(best.result, t.Scalar):
            try:
                value = c.builtin(name, [a.value for a in args], best.result)
            except c.ConstError as error:
                self.ctx.report_evaluation(f"{name}: {error}", ctx.span(node))
        override = constant or all(a.override for a in args) and builtin.category not in _RUNTIME_ONLY_CATEGORIES
        if override or not _SHARE_RESULTS:
            return Typed(best.result, value, const=constant, override=override)
        # A run-time result (so no value: only constants are evaluated): the same Typed for every such call
        # whose result is this type object (most come from the kept matches of match_call).
        shared = _CALL_RESULTS.get(id(best.result))
        if shared is None:
            if len(_CALL_RESULTS) >= 4096:
                _CALL_RESULTS.clear()
            # (the entry holds the type alive: an id in a key is never another object's)
            shared = _CALL_RESULTS[id(best.result)] = (best.result, Typed(best.result))
        return shared[1]

    def _majorness_fix(self, node, name, template, arg_nodes, args, bool_index: int) -> tuple[Fix, ...]:
        """Rewrite a bool-majorness load/store to the template form, when the bool is constant."""
        ctx = self.ctx
        flag = args[bool_index].value if bool_index < len(args) else None
        if not isinstance(flag, bool):
            return ()
        majorness = "col_major" if flag else "row_major"
        arg_texts = [ctx.text(a) for a in arg_nodes]
        del arg_texts[bool_index]
        if name == "subgroupMatrixLoad" and template is not None and template.named_children:
            head = f"{name}<{ctx.text(template.named_children[0])}, {majorness}>"
        else:
            head = f"{name}<{majorness}>"
        replacement = f"{head}({', '.join(arg_texts)})"
        return (Fix(f"Rewrite as '{head}(...)'", (Edit(Span(node.start_byte, node.end_byte), replacement),)),)

    def _deprecated(self, node, name_node, name, builtin, template, arg_nodes, args) -> None:
        """The bool-majorness load/store: a warning, and a fix when the bool is constant."""
        ctx = self.ctx
        bool_index = _col_major_index(o for o in builtin.overloads if o.deprecated)
        fixes = self._majorness_fix(node, name, template, arg_nodes, args, bool_index)
        ctx.report("T012", f"use of deprecated builtin: pass the majorness as a template argument "
                           f"('{name}<..., row_major>' or 'col_major') instead of a bool", ctx.span(name_node),
                   fixes=fixes)

    def after_builtin_call(self, name, match, template_args, args, arg_nodes) -> None:
        """Checks of single builtins beyond their overloads: constant lanes, matrix strides."""
        if name in ("subgroupBroadcast", "quadBroadcast") and len(args) == 2:
            lane = match.overload.parameters[1].name
            if not args[1].const:
                self.ctx.report("T014", f"the '{lane}' argument of '{name}' must be a const-expression",
                                self.ctx.span(arg_nodes[1]))
            elif isinstance(args[1].value, int) and not isinstance(args[1].value, bool) and args[1].value < 0:
                self.ctx.report("T014", f"the '{lane}' argument of '{name}' must be greater than or equal to "
                                        f"zero, not {args[1].value}", self.ctx.span(arg_nodes[1]))
        if name.startswith("subgroupShuffle") and len(args) == 2 and args[1].const \
                and isinstance(args[1].value, int) and not isinstance(args[1].value, bool) and args[1].value < 0:
            # A constant lane, mask or delta is checked at compile time; at run time a negative one
            # would name no invocation.
            lane = match.overload.parameters[1].name if match.overload is not None else "lane"
            self.ctx.report("T014", f"the '{lane}' argument of '{name}' must be greater than or equal to "
                                    f"zero, not {args[1].value}", self.ctx.span(arg_nodes[1]))
        if name.startswith("texture") and match.problem is None:
            self._texture_constants(name, match, args, arg_nodes)
        if name in _NAGA_MEMORY_CALLS and match.problem is None:
            self._naga_stride(name, match, args, arg_nodes)
            return
        if name not in _TINT_MEMORY_CALLS or match.problem is not None:
            return
        matrix = match.bindings.get("M")
        if not isinstance(matrix, t.CoopMatrix):
            return
        deprecated = match.overload.deprecated or any(p.name == "col_major" for p in match.overload.parameters)
        if deprecated:
            flag_index = _col_major_index((match.overload,))
            flag = args[flag_index].value
            if not args[flag_index].const:
                self.ctx.report("T014", "the 'col_major' argument must be a const-expression",
                                self.ctx.span(arg_nodes[flag_index]))
            if not isinstance(flag, bool) or match.overload.deprecated:
                # Tint checks neither the stride nor the extent of its deprecated form (measured on
                # wgpudawn 0.32); it only warns that the form is deprecated (T012).
                return
            col_major = flag
        else:
            col_major = match.bindings.get("L") == "col_major"
        stride_node = arg_nodes[-1]
        stride = args[-1].value
        pointer = args[0].type
        if stride is None and match.bindings.get("L") is not None:
            self._overridden_stride(name, matrix, col_major, pointer, args[-1], stride_node)
        element_bytes = array_element_bytes(pointer.store.element) if isinstance(pointer, t.Pointer) and \
            isinstance(pointer.store, t.Array) else None
        if element_bytes is not None:
            self._matrix_extent(matrix, col_major, pointer.store, element_bytes, args, arg_nodes)
        if not isinstance(stride, int) or isinstance(stride, bool) or element_bytes is None:
            return
        if stride < 0:
            self.ctx.report("T009", f"the stride must be non-negative, not {stride}", self.ctx.span(stride_node))
            return
        # The stride counts array elements; each row (or column) needs its elements' bytes.
        count = matrix.rows if col_major else matrix.columns
        needed = count * matrix.element.byte_size
        if stride * element_bytes < needed:
            lines = "column" if col_major else "row"
            self.ctx.report("T009", f"stride {stride} ({stride * element_bytes} bytes) is less than one matrix "
                                    f"{lines} ({count} x {matrix.element.byte_size} = {needed} bytes); "
                                    f"{lines}s would overlap", self.ctx.span(stride_node))

    def _overridden_stride(self, name: str, matrix: t.CoopMatrix, col_major: bool, pointer, stride, node) -> bool:
        """A stride that is an override whose default is too short: Dawn refuses such a pipeline (measured on
        wgpudawn 0.32: 'subgroupMatrixLoad stride (16 bytes) must be greater or equal to 32 bytes'), and the
        subgroup_matrix draft makes it a pipeline-creation error (#6275). The pipeline may set the override,
        so it is a warning naming the least value that works."""
        symbol = stride.symbol
        if not stride.override or symbol is None or symbol.kind != "override" \
                or not isinstance(symbol.default, int) or isinstance(symbol.default, bool):
            return False
        if not isinstance(pointer, t.Pointer) or not isinstance(pointer.store, t.Array):
            return False
        element_bytes = array_element_bytes(pointer.store.element)
        count = matrix.rows if col_major else matrix.columns
        needed = count * matrix.element.byte_size
        if element_bytes is None or symbol.default * element_bytes >= needed:
            return False
        lines = "column" if col_major else "row"
        least = -(-needed // element_bytes)
        self.ctx.report("T009", f"with the default {symbol.name} = {symbol.default}, the {name} stride "
                                f"({symbol.default * element_bytes} bytes) must be greater or equal to {needed} bytes "
                                f"(one matrix {lines}): pipeline creation fails unless it sets {symbol.name} to at "
                                "least " f"{least} (Dawn; the subgroup_matrix draft, gpuweb #6275)",
                        self.ctx.span(node), severity=Severity.WARNING)
        return True

    def _matrix_extent(self, matrix: t.CoopMatrix, col_major: bool, array: t.Array, slot: int, args,
                       arg_nodes) -> None:
        """Tint's check that a fixed-size array holds the whole access: the rows (or columns) from the
        offset on, `stride` elements apart, the last one only as long as the matrix is wide. A run-time
        offset counts as 0 and a run-time stride as the shortest one, so what is left is the least any
        call could need; Tint checks this in dead code too. Offsets and strides count `slot` bytes an
        element (12 for a vec3<f32>, as Tint counts them), the array's size its padded elements."""
        if not isinstance(array.count, int):
            return
        lines, length = (matrix.columns, matrix.rows) if col_major else (matrix.rows, matrix.columns)
        line_bytes = length * matrix.element.byte_size
        offset, stride = args[1].value, args[-1].value
        offset = offset if isinstance(offset, int) and not isinstance(offset, bool) and args[1].const else 0
        stride_bytes = stride * slot if isinstance(stride, int) and not isinstance(stride, bool) and \
            args[-1].const else line_bytes
        if offset < 0 or stride_bytes < line_bytes:
            return  # T003 and T009 say what is wrong with those
        needed = offset * slot + (lines - 1) * stride_bytes + line_bytes
        have = array.count * layout.array_stride(array)  # its elements are scalars or vectors (the overload)
        if needed > have:
            self.ctx.report("T016", f"the matrix access needs {needed} bytes of the array but "
                                    f"'{array.describe()}' has {have}: {_extent_reason(offset, lines, stride_bytes, line_bytes, col_major)}",
                            self.ctx.span(arg_nodes[0]))

    def _naga_stride(self, name, match, args, arg_nodes) -> None:
        """naga strides count elements between columns (coopLoad) or rows (the T forms)."""
        parameters = [p.name for p in match.overload.parameters]
        if "stride" not in parameters:
            return
        index = parameters.index("stride")
        stride = args[index].value
        side = match.bindings.get("D")
        if isinstance(stride, int) and not isinstance(stride, bool) and isinstance(side, int) and stride < side:
            lines = "row" if name.endswith("T") else "column"
            self.ctx.report("T009", f"stride {stride} is shorter than one {lines} of the {side}x{side} matrix; "
                                    f"{lines}s would overlap", self.ctx.span(arg_nodes[index]))

    # ------------------------------------------------------- constructors
    def construct(self, node, name_node, constructed: t.Type, arg_nodes, inferred: bool) -> Typed:
        ctx = self.ctx
        args = [self.value(a) for a in arg_nodes]
        constant = all(a.const for a in args)
        if constructed is t.ERROR or any(a.type is t.ERROR for a in args):
            return Typed(constructed, const=constant)
        if isinstance(constructed, t.CoopMatrix):
            # u8/i8 matrices are filled from u32/i32 values; matrix constructors are never constant.
            element = {t.U8: t.U32, t.I8: t.I32}.get(constructed.element, constructed.element)
            self.note_matrix_in_stage(name_node)
            if constructed.kind.dialect == "wgpu" and args:
                ctx.report("T004", f"'{constructed.describe()}' is constructed without arguments (a zero matrix)",
                           ctx.span(name_node))
            elif len(args) > 1:
                ctx.report("T004", f"a '{constructed.describe()}' is constructed from zero or one "
                                   f"'{element.describe()}' value (none gives a zero matrix)", ctx.span(name_node))
            elif args:
                self.expect_convertible(arg_nodes[0], args[0].type, element, "value", args[0])
            return Typed(constructed)
        if isinstance(constructed, t.Scalar):
            if len(args) > 1 or args and not isinstance(args[0].type, t.Scalar):
                ctx.report("T004", f"cannot convert to '{constructed.describe()}' from these arguments",
                           ctx.span(name_node))
                return Typed(constructed)
            if args and not self.check_materialized(arg_nodes[0], args[0], constructed):
                return Typed(constructed, const=constant)
            value = _convert_value(args[0].value, constructed) if args else _zero(constructed)
            return Typed(constructed, value, const=constant, override=all(a.override for a in args))
        if isinstance(constructed, t.Vector):
            if len(args) == 1 and isinstance(args[0].type, t.Vector) and args[0].type.size == constructed.size:
                # A conversion: vec2<i32>(vec2<f32>(...)) converts each component.
                if args[0].type.element.is_abstract or args[0].type.element == constructed.element:
                    self.expect_convertible(arg_nodes[0], args[0].type.element, constructed.element, "component")
                return Typed(constructed, const=constant, override=all(a.override for a in args))
            total = sum(a.type.size if isinstance(a.type, t.Vector) else 1 for a in args)
            if args and total != constructed.size and not (len(args) == 1 and isinstance(args[0].type, t.Scalar)):
                ctx.report("T004", f"'{constructed.describe()}' needs {constructed.size} components, "
                                   f"got {total}", ctx.span(name_node))
            for arg_node, arg in zip(arg_nodes, args):
                component = arg.type.element if isinstance(arg.type, t.Vector) else arg.type
                self.expect_convertible(arg_node, component, constructed.element, "component", arg)
            return Typed(constructed, const=constant, components=_known_components(args, constructed.size))
        if isinstance(constructed, t.Struct):
            if args and len(args) != len(constructed.members):
                ctx.report("T004", f"struct '{constructed.name}' has {len(constructed.members)} members, "
                                   f"got {len(args)} values", ctx.span(name_node))
            for arg_node, arg, member in zip(arg_nodes, args, constructed.members):
                self.expect_convertible(arg_node, arg.type, member.type, f"member '{member.name}'", arg)
            return Typed(constructed, const=constant)
        if isinstance(constructed, t.Array):
            if constructed.count is None and not inferred:
                return Typed(t.Array(constructed.element, len(args)), const=constant)
            if isinstance(constructed.count, int) and args and len(args) != constructed.count:
                ctx.report("T004", f"array constructor for '{constructed.describe()}' needs {constructed.count} "
                                   f"values, got {len(args)}", ctx.span(name_node))
            for arg_node, arg in zip(arg_nodes, args):
                self.expect_convertible(arg_node, arg.type, constructed.element, "element", arg)
            return Typed(constructed, const=constant)
        return Typed(constructed, const=constant)

    def note_matrix_in_stage(self, node: ts.Node) -> None:
        """Matrix types exist only in compute shaders (Tint checks the stage of each use)."""
        if self.stage in ("vertex", "fragment") and not self.stage_reported:
            self.stage_reported = True
            self.ctx.report("T010", f"subgroup matrix types cannot be used in a {self.stage} shader",
                            self.ctx.span(node))

    def infer_construct(self, node, name_node, name: str, arg_nodes) -> Typed:
        """`vec3(...)`, `mat2x2(...)`, `array(...)`: the element type comes from the arguments."""
        args = [self.value(a) for a in arg_nodes]
        constant = all(a.const for a in args)
        if any(a.type is t.ERROR for a in args):
            return ERROR
        if not args and name != "array":
            # The zero value: vecN() is a vector of abstract ints, matCxR() of abstract floats.
            if name.startswith("vec"):
                return Typed(t.Vector(int(name[3]), t.ABSTRACT_INT), const=True, components=(0,) * int(name[3]))
            columns, rows = name[3:].split("x")
            return Typed(t.Matrix(int(columns), int(rows), t.ABSTRACT_FLOAT), const=True)
        if not args:
            self.ctx.report("T004", f"'{name}()' without a template argument needs arguments to infer its "
                                    "element type", self.ctx.span(name_node))
            return ERROR
        if name == "array":
            elements = [a.type for a in args]
        else:
            elements = [a.type.element if isinstance(a.type, (t.Vector, t.Matrix)) else a.type for a in args]
        common = elements[0]
        for element in elements[1:]:
            common = _common(common, element) if common is not None else None
        if name == "array":
            if common is None:
                self.ctx.report("T004", "array elements must have one common type", self.ctx.span(name_node))
                return ERROR
            if not all(self.check_materialized(n, a, common) for n, a in zip(arg_nodes, args)):
                return ERROR
            abstract = isinstance(_leaf_scalar(common), t.Scalar) and _leaf_scalar(common).is_abstract
            return Typed(t.Array(common, len(args)), const=constant,
                         components=_known_leaves(args) if abstract else None)
        if not isinstance(common, t.Scalar):
            self.ctx.report("T004", f"cannot infer the element type of '{name}' from these arguments",
                            self.ctx.span(name_node))
            return ERROR
        # Abstract arguments take the element type a concrete one gives (`vec2(2u, 4294967296)`).
        if not all(self.check_materialized(n, a, common) for n, a in zip(arg_nodes, args)):
            return ERROR
        if name.startswith("vec"):
            return Typed(t.Vector(int(name[3]), common), const=constant,
                         components=_known_components(args, int(name[3])))
        columns, rows = name[3:].split("x")
        return Typed(t.Matrix(int(columns), int(rows), common), const=constant)

    # ----------------------------------------------------------- helpers
    def expect_convertible(self, node: ts.Node, actual: t.Type, expected: t.Type, what: str,
                           typed: Typed | None = None) -> bool:
        """With `typed` (the value whose type is `actual`), a known abstract value must also fit."""
        if actual is t.ERROR or expected is t.ERROR:
            return True
        if t.conversion_rank(t.store_type(actual), expected) is None:
            self.ctx.report("T003", f"{what} of type '{t.store_type(actual).describe()}' where "
                                    f"'{expected.describe()}' is expected", self.ctx.span(node))
            return False
        return typed is None or self.check_materialized(node, typed, expected)

    def check_materialized(self, node: ts.Node, typed: Typed, target: t.Type, where: str | None = None) -> bool:
        """An abstract constant given a concrete type (by a declaration, an argument, an operand, an
        attribute) must fit that type; compilers report it where the conversion happens. False when
        it does not fit (and that is reported, naming `where` the value goes when given)."""
        if not typed.const:
            return True
        source = _leaf_scalar(typed.type)
        if source is None or not source.is_abstract:
            return True  # most constants are concrete already (`16u`): the target need not be looked at
        goal = _leaf_scalar(target)
        if goal is None or goal.is_abstract:
            return True
        known = (typed.value,) if isinstance(typed.type, t.Scalar) else (typed.components or ())
        for value in known:
            try:
                c.convert(value, source, goal)
            except c.ConstError as error:
                self.ctx.report("T014", f"{error} ({where})" if where else str(error), self.ctx.span(node))
                return False
        return True


@dataclass(frozen=True)
class _Void(t.Type):
    def describe(self) -> str:
        return "void"


_VOID = _Void()
_VOID_TYPED = Typed(_VOID)  # what a call of a builtin without a result gives (a Typed is never changed once made)
# The classes of the types value() looks at further (a reference is loaded, a type or a void call is an
# error): one set lookup for the rest. _Void's only instance is _VOID (value() tells another one apart);
# no type subclasses Reference or TypeOf.
_NOT_VALUE_CLASSES = frozenset({t.Reference, t.TypeOf, _Void})


def _concrete_scalar(value_type: t.Type) -> bool:
    return value_type.__class__ is _SCALAR and not value_type.name.startswith("abstract")


def _identifier_texts(node: ts.Node, ctx) -> tuple[str, ...]:
    """The names written in a subtree, each once."""
    names, stack = {}, [node]
    while stack:
        inner = stack.pop()
        if inner.type == "identifier":
            names[ctx.text(inner)] = None
        else:
            stack.extend(inner.children)
    return tuple(names)


def _other_dialect_builtin(name: str) -> tuple | None:
    """A matrix builtin of a dialect the module does not use: the first table, in the language table's
    order, that has the name (the checker reports the call; the analyses still know what it means)."""
    for dialect, table in MATRIX_TABLES.items():
        builtin = table.get(name)
        if builtin is not None:
            return builtin, dialect
    return None


def _col_major_index(overloads) -> int:
    """Where the bool majorness argument sits in the old load/store forms: found by its parameter name."""
    for overload in overloads:
        names = [p.name for p in overload.parameters]
        if "col_major" in names:
            return names.index("col_major")
    raise ValueError("no overload with a 'col_major' parameter")
VOID = _VOID


def _template_text(value: t.Type) -> str:
    return value.type.describe() if isinstance(value, t.TypeOf) else value.describe()


def _bit_width(value_type: t.Type) -> int | None:
    if isinstance(value_type, t.Scalar) and value_type.name in ("i32", "u32", "f32", "f16", "i64", "u64", "f64"):
        return value_type.byte_size * 8
    if isinstance(value_type, t.Vector):
        inner = _bit_width(value_type.element)
        return inner * value_type.size if inner else None
    return None


def _zero(scalar: t.Scalar):
    return False if scalar == t.BOOL else 0.0 if scalar.is_float else 0


def _convert_value(value, scalar: t.Scalar):
    if value is None:
        return None
    if scalar == t.BOOL:
        return bool(value)
    if scalar.is_float:
        return float(value)
    return int(value)


def _common(a: t.Type, b: t.Type) -> t.Type | None:
    """The type both operands convert to (abstract numbers take the other's type), or None."""
    if a == b:
        return a
    if t.conversion_rank(a, b) is not None:
        return b
    if t.conversion_rank(b, a) is not None:
        return a
    return None


def _operand_scalar(operator: str, left: t.Type, right: t.Type) -> t.Type:
    """The scalar type an operation is evaluated in: a shift keeps its left operand's, others convert
    both operands to their common type."""
    if operator in ("<<", ">>"):
        return left
    return _common(left, right) or left


def _spread(operand: Typed, size: int) -> tuple | None:
    """An operand's values as `size` components: a vector's own, or a scalar's repeated."""
    if operand.components is not None:
        return operand.components if len(operand.components) == size else None
    if isinstance(operand.type, t.Scalar) and operand.value is not None:
        return (operand.value,) * size
    return None


def _swizzle_index(letter: str) -> int:
    return next(letters.index(letter) for letters in _SWIZZLE_SETS if letter in letters)


def _leaf_scalar(value_type: t.Type) -> t.Scalar | None:
    """The scalar a value is made of, through arrays too (`array(vec2(1, 2))`: abstract-int)."""
    while isinstance(value_type, t.Array):
        value_type = value_type.element
    return t.element_scalar(value_type)


def _known_leaves(args: list[Typed]) -> tuple | None:
    """Every scalar value inside an array's elements, when all are known."""
    values: list = []
    for arg in args:
        if arg.components is not None:
            values.extend(arg.components)
        elif isinstance(arg.type, t.Scalar) and arg.value is not None:
            values.append(arg.value)
        else:
            return None
    return tuple(values)


def _known_components(args: list[Typed], size: int) -> tuple | None:
    """The component values of a vector constructed from known scalars (or one, splatted) and vectors
    whose components are known; None when any is unknown."""
    if not args:
        return (0,) * size
    known = _known_leaves(args)
    if known is None:
        return None
    values = list(known)
    if len(values) == 1:
        values *= size
    return tuple(values) if len(values) == size else None


@memoized()
def binary_result_type(operator: str, left: t.Type, right: t.Type) -> t.Type | None:
    """The result type of a binary operator, or None when WGSL has no such operator."""
    if operator in ("&&", "||"):
        return t.BOOL if left == t.BOOL and right == t.BOOL else None
    if operator in ("<<", ">>"):
        ls, rs = t.element_scalar(left), t.element_scalar(right)
        if ls is None or rs is None or not ls.is_integer or rs not in (t.U32, t.ABSTRACT_INT):
            return None
        if isinstance(left, t.Vector) != isinstance(right, t.Vector):
            return None
        return left
    if operator in ("+", "-") and isinstance(left, t.CoopMatrix) and left == right and left.kind.dialect == "wgpu":
        return left  # naga adds and subtracts cooperative matrices of one type
    if isinstance(left, (t.CoopMatrix, t.Struct, t.Array, t.Pointer, t.Atomic, t.Opaque)) or \
            isinstance(right, (t.CoopMatrix, t.Struct, t.Array, t.Pointer, t.Atomic, t.Opaque)):
        return None
    if operator in _COMPARISON:
        common = _common(left, right)
        if common is None:
            return None
        scalar = t.element_scalar(common)
        if scalar == t.BOOL and operator not in ("==", "!="):
            return None
        if isinstance(common, t.Matrix):
            return None
        return t.Vector(common.size, t.BOOL) if isinstance(common, t.Vector) else t.BOOL
    if operator in ("&", "|", "^"):
        common = _common(left, right)
        scalar = t.element_scalar(common) if common else None
        if scalar is None or isinstance(common, t.Matrix):
            return None
        if scalar == t.BOOL and operator != "^":
            return common
        return common if scalar.is_integer else None
    if operator in _ARITHMETIC:
        # Matrix products.
        if operator == "*" and isinstance(left, t.Matrix) and isinstance(right, t.Matrix):
            if left.columns == right.rows and _common(left.element, right.element):
                return t.Matrix(right.columns, left.rows, _common(left.element, right.element))
            return None
        if operator == "*" and isinstance(left, t.Matrix) and isinstance(right, t.Vector):
            return t.Vector(left.rows, left.element) if left.columns == right.size else None
        if operator == "*" and isinstance(left, t.Vector) and isinstance(right, t.Matrix):
            return t.Vector(right.columns, right.element) if left.size == right.rows else None
        if isinstance(left, t.Matrix) or isinstance(right, t.Matrix):
            if operator in ("+", "-"):
                return _common(left, right) if isinstance(left, t.Matrix) and isinstance(right, t.Matrix) else None
            if operator == "*":
                matrix, scalar = (left, right) if isinstance(left, t.Matrix) else (right, left)
                return matrix if isinstance(scalar, t.Scalar) and _common(scalar, matrix.element) else None
            return None
        ls, rs = t.element_scalar(left), t.element_scalar(right)
        if ls is None or rs is None or ls == t.BOOL or rs == t.BOOL:
            return None
        scalar = _common(ls, rs)
        if scalar is None:
            return None
        if isinstance(left, t.Vector) and isinstance(right, t.Vector):
            return t.Vector(left.size, scalar) if left.size == right.size else None
        if isinstance(left, t.Vector) or isinstance(right, t.Vector):
            size = left.size if isinstance(left, t.Vector) else right.size
            return t.Vector(size, scalar)
        return scalar
    return None


def _extent_reason(offset: int, lines: int, stride_bytes: int, line_bytes: int, col_major: bool) -> str:
    kind = "column" if col_major else "row"
    start = f"{offset} elements in, " if offset else ""
    return f"{start}{lines} {kind}s {stride_bytes} bytes apart, the last {line_bytes} bytes long"
