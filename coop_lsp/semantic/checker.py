"""The semantic checker: declarations, scopes, statements; expressions and types come from mixins.

One pass over a parsed module. Module-scope declarations are collected first
(WGSL allows any order) and resolved lazily on first use; function bodies
are checked in order. A node whose type is already an error produces no
further diagnostics, and ERROR nodes from the parser are skipped, so a
syntax error in one function never hides the type errors of another.
"""

from __future__ import annotations

import bisect
import itertools
import operator

import tree_sitter as ts

from ..core.diagnostic import Diagnostic, Related
from ..core.text import Span, SET_SPAN_END as _set_span_end, SET_SPAN_START as _set_span_start
from ..syntax.parser import Parsed
from . import types as t
from .context import CORE_TABLE, DIALECT_ENABLES, ENABLE_DIALECTS, EXTENSIONS, Context
from . import constants as c
from .expressions import VOID, ExpressionChecker, Typed, binary_result_type
from .model import Scope, SemanticModel, Symbol
from .entry_points import EntryPointChecker, attributes
from .carry import EDITED
from .carried import (carried_checks, carried_checks_by_step, carried_checks_phase, carried_declaration,
                      carried_declarations)
from .header_reuse import _NOT_IN_MODULE_TEXT
from .reuse import BodyReuse, variables_in_first_use_order
from .typenames import TypeResolver, is_type_name
from .variables import BindingChecker, VariableChecker
from .behaviors import BehaviorChecker
from .blend_sources import BlendSourceChecker
from .stage_io import StageIOChecker
from .attributes import AttributeChecker
from .diagnostic_controls import check_diagnostic_controls
from .continues import ContinueChecker, LoopFrame
from .aliasing import AliasChecker
from ..syntax.nodes import (
    KIND_NAMES,
    FIELD_ALTERNATIVE,
    FIELD_ARGUMENTS,
    FIELD_BODY,
    FIELD_CONDITION,
    FIELD_CONSEQUENCE,
    FIELD_FUNCTION,
    FIELD_INITIALIZER,
    FIELD_LEFT,
    FIELD_MEMBER,
    FIELD_NAME,
    FIELD_OPERAND,
    FIELD_OPERATOR,
    FIELD_PARAMETERS,
    FIELD_RETURN_TYPE,
    FIELD_RIGHT,
    FIELD_SELECTORS,
    FIELD_TEMPLATE,
    FIELD_TYPE,
    FIELD_UPDATE,
    FIELD_VALUE,
)

# Extensions some compiler accepts (Tint's and naga's lists); others are errors everywhere.
# The table's extensions, plus those no check of ours treats specially.
KNOWN_EXTENSIONS = frozenset(e.enable for e in EXTENSIONS) | frozenset({
    "chromium_disable_uniformity_analysis", "chromium_internal_graphite", "chromium_internal_input_attachments",
    "chromium_experimental_immediate", "subgroup_size_control", "chromium_experimental_barycentric_coord",
    "wgpu_ray_query", "wgpu_mesh_shader", "wgpu_binding_array", "view_instancing",
})
_new_span = object.__new__
# Whether Checker.run declares the module's names (_declare_module) and, while carrying, takes the unchanged
# declarations' steps (carried.py: carried_declarations, carried_checks) each in one frame, rather than one call
# per declaration and step (_declare; carried_declaration, carried_checks_by_step): both do the same, which the
# tests compare (tests/test_carried_at_once.py).
AT_ONCE = True
_DECLARATION_KINDS = {
    "variable_declaration": "var", "const_declaration": "const", "override_declaration": "override",
    "type_alias_declaration": "alias", "struct_declaration": "struct", "function_declaration": "function",
    "let_declaration": "let",
}


def check(parsed: Parsed, reuse: BodyReuse | None = None,
          dialect: str = "auto") -> tuple[list[Diagnostic], SemanticModel]:
    """Checks a module; with `reuse`, the checks of bodies unchanged since its last use are replayed.
    `dialect` other than "auto" names the compiler that counts where the module's enables do not."""
    checker = Checker(parsed, reuse)
    checker.ctx.configured_dialect = dialect if dialect in DIALECT_ENABLES else None
    if reuse is not None:
        reuse.begin()
    checker.run()
    if reuse is not None:
        reuse.end()
    return checker.ctx.diagnostics, checker.ctx.model


class Checker(TypeResolver, ExpressionChecker, EntryPointChecker, VariableChecker,
              BehaviorChecker, BlendSourceChecker, StageIOChecker, BindingChecker,
              AttributeChecker, ContinueChecker, AliasChecker):
    def __init__(self, parsed: Parsed, reuse: BodyReuse | None = None) -> None:
        self.ctx = Context(parsed.source, parsed.root)
        self.reuse = reuse
        # For `reuse`: module-scope names looked up by the body being recorded (None: not recording),
        # and how many module declarations were resolved so far.
        self.module_lookups: dict[str, Symbol | None] | None = None
        self.resolutions = 0
        # While a body is recorded, its notes of the declarations it resolves first (first_uses.FirstUseNotes):
        # they are replayed with it, at the same place among its effects. None while no body is recorded.
        self.first_uses = None
        self.module_scope = Scope()
        self.scope = self.module_scope
        # The innermost parameter or local of each name in the scopes open now (module scope apart), so
        # that a lookup is one dict get however deep the loops; `_shadowed` holds what each declaration
        # there hid, (name, symbol or None), undone when its scope closes (_close_scope).
        self._visible: dict[str, Symbol] = {}
        self._shadowed: list[tuple[str, Symbol | None]] = []
        self.function: Symbol | None = None
        self.stage: str | None = None  # the shader stage of the entry point being checked
        self.stage_reported = False
        self._resolution: list[tuple[Symbol, ts.Node | None]] = []
        # Per function: the module-scope variables it names (with where), and the functions it calls.
        self.var_uses: dict[Symbol, list] = {}
        self.calls: dict[Symbol, list[Symbol]] = {}
        # Declarations other than functions whose type names a function (rare, and an error anyway).
        self.function_dependencies: dict[Symbol, list[tuple[int, Symbol]]] = {}  # (where it is named, function)
        self.override_ids: dict[int, ts.Node] = {}  # @id values seen, for uniqueness
        self.binding_points: dict[Symbol, tuple | None] = {}  # resource variable -> (group, binding), once read
        self.loops: list[LoopFrame] = []  # the loops around the statement being checked, innermost last
        # ContinueChecker's count, here as the instance's own: every name reads it, and a read that falls
        # through to the class is the interpreter's slow attribute path.
        self.continuing_blocks = 0
        # For the alias analysis: each function's accesses and calls; in the body being checked, the index
        # of each parameter and the root of each pointer 'let'.
        self.alias_facts: dict = {}
        self.alias_deltas: dict = {}  # function -> how far its replayed alias_facts moved since recorded
        # The module-scope children that are neither declarations, ERROR nodes nor lone ';'s, in order, once
        # `run` has found them (header_reuse.py keys its steps with their text).
        self.module_text_nodes: list[ts.Node] = []
        self.parameter_index: dict[Symbol, int] = {}
        self.pointer_roots: dict[Symbol, tuple | None] = {}
        # The body checked afresh whose leading statements may be replayed (leading.py); None: check them all.
        self.leading = None

    # ------------------------------------------------------------- module
    def run(self) -> None:
        root = self.ctx.root
        declarations = []
        children = _module_children(root)
        # Each child's kind, read once (by id: syntax/nodes.py says why): the loops below ask it of every
        # declaration of the module at every version.
        kinds = KIND_NAMES
        if self.reuse is not None:
            self.reuse.carry.begin(self.ctx.source.data, self.ctx.configured_dialect, children, root)
        # The children of each kind the steps below read, sorted in one pass (they are most of a version's
        # walks over the module's children: one per kind was a step of Python per declaration each).
        enable_directives, diagnostic_directives, asserts = [], [], []
        module_text = self.module_text_nodes = []
        for node in children:
            kind = kinds[node.kind_id]
            if kind in _DECLARATION_KINDS:
                declarations.append(node)
                continue
            if kind not in _NOT_IN_MODULE_TEXT:
                module_text.append(node)
            if kind == "enable_directive":
                enable_directives.append(node)
                for extension in node.children_by_field_name("extension"):
                    self.ctx.model.enables.add(self.ctx.text(extension))
            elif kind == "diagnostic_directive":
                diagnostic_directives.append(node)
            elif kind == "const_assert_statement":
                asserts.append(node)
        self._check_enables(enable_directives)
        check_diagnostic_controls(self.ctx, diagnostic_directives, "directive", allow_repeats=True)
        # (None for a declaration without a name, or of a name declared before: such a one is not checked)
        declared = self._declare_module(declarations) if AT_ONCE \
            else [(node, self._declare(node, self.module_scope)) for node in declarations]
        carrying = self.reuse is not None and self.reuse.carry.active
        at_once = AT_ONCE
        if carrying and at_once:
            carried_declarations(self, declared, kinds)  # (the loop below, in one frame: carried.py)
        else:
            for node, symbol in declared:
                if symbol is not None:
                    function = kinds[node.kind_id] == "function_declaration"
                    # (while carrying, an unchanged declaration's steps in one call: carried.py)
                    done = carried_declaration(self, node, symbol, function) if carrying else None
                    if done is None:
                        self.symbol_type(symbol)
                    if function and not done:
                        self._checked_body(symbol, node)
        for node in asserts:
            self._const_assert(node)
        self._call_cycles()
        carried_aliasing = self.reuse.carry.aliasing() if self.reuse is not None else None
        if carried_aliasing is not None:
            self.ctx.diagnostics.extend(carried_aliasing)
        else:
            before = len(self.ctx.diagnostics)
            self.check_aliasing()
            if self.reuse is not None:
                self.reuse.carry.note_aliasing(self.ctx.diagnostics[before:])
        # Each entry point's binding findings as the last carried-from version found them, where they are its.
        collisions = self.reuse.carry.collisions() if self.reuse is not None else None
        if carrying and at_once:
            carried_checks_phase(self, declared, kinds, collisions)  # (the loop below, in one frame: carried.py)
            return
        checks = carried_checks if at_once else carried_checks_by_step
        for node, symbol in declared:
            if symbol is None:
                continue
            function = kinds[node.kind_id] == "function_declaration"
            # (every declared function's signature was resolved above, which set its stage from the header:
            # read, not found again among the declaration's children)
            stage = symbol.stage if function else None
            if not (carrying and checks(self, node, symbol)):
                self._checks_after_bodies(node, symbol, function, stage)
            if stage is not None:
                self._entry_point_checks(node, symbol, stage, collisions)

    def _checks_after_bodies(self, node: ts.Node, symbol: Symbol, function: bool, stage: str | None) -> None:
        """The checks of a module-scope declaration after every body (its attributes; a function's shader IO),
        checked or replayed from `reuse` (not carried: carried.py)."""
        data = self.ctx.source.data
        if not function:
            if self.reuse is None:
                self._declaration_attributes(node, symbol)
            elif data.find(b"@", node.start_byte, node.end_byte) >= 0:
                # (Without an '@' in its text, nor in a struct's members, every list of attributes
                # _declaration_attributes checks is empty: there is nothing to replay.)
                self.reuse.headers.run(self, "checks", symbol, node,
                                       lambda: self._declaration_attributes(node, symbol), own=True)
            return
        if self.reuse is None:
            self._header_checks(node, symbol, stage)
        elif not _may_hold_attributes(node, data):
            pass  # (nothing to check: see _may_hold_attributes)
        else:
            self.reuse.headers.run(self, "checks", symbol, node, lambda: self._header_checks(node, symbol, stage),
                                   own=True)

    def _entry_point_checks(self, node: ts.Node, symbol: Symbol, stage: str, collisions) -> None:
        """An entry point's binding findings (`collisions`: those carried from the last version, where they
        are this one's; else found) and, for a vertex or fragment stage, its IO and resources."""
        if collisions is not None:
            self.ctx.diagnostics.extend(collisions(node.start_byte))
        else:
            before = len(self.ctx.diagnostics)
            self.binding_collisions(symbol, self.var_uses, self.calls)
            if self.reuse is not None:
                self.reuse.carry.note_collisions(node.start_byte, self.ctx.diagnostics[before:])
        if stage in ("vertex", "fragment"):
            self.entry_point_io(node, stage, symbol)
            self.stage_resources(symbol, stage, self.var_uses, self.calls)

    def _header_checks(self, node: ts.Node, symbol: Symbol, stage: str | None) -> None:
        """What is checked of a function's header once every body is: its attributes and its shader IO."""
        self._declaration_attributes(node, symbol)
        if stage is not None:
            self.check_stage_io(node, stage, symbol)

    def _declaration_attributes(self, node: ts.Node, symbol: Symbol) -> None:
        """Attributes of a module-scope declaration, and of its parameters, return value or members."""
        kind = _DECLARATION_KINDS.get(node.type)
        # The declaration's own attributes come before its name; a function's return attributes after.
        own = [c for c in node.children if c.type == "attribute" and c.start_byte < symbol.span.start]
        if kind == "function":
            entry = symbol.stage is not None
            self.function_returns = node.child_by_field_id(FIELD_RETURN_TYPE) is not None
            self.check_attributes(own, "function")
            params_node = node.child_by_field_id(FIELD_PARAMETERS)
            for parameter in params_node.named_children if params_node is not None else []:
                if parameter.type == "parameter":
                    self.check_attributes([c for c in parameter.children if c.type == "attribute"],
                                          "entry parameter" if entry else "parameter")
            self.check_attributes(node.children_by_field_name("return_attribute"),
                                  "entry return" if entry else "return")
            return
        if kind == "struct":
            self.check_attributes(own, "struct")
            body = node.child_by_field_id(FIELD_BODY)
            members = [m for m in (body.named_children if body is not None else []) if m.type == "struct_member"]
            types = {m.name: m.type for m in symbol.type.members} if isinstance(symbol.type, t.Struct) else {}
            natural_align = isinstance(symbol.type, t.Struct) and (t.is_host_shareable(symbol.type)
                                                                   or _constructible(symbol.type))
            for member in members:
                name = member.child_by_field_id(FIELD_NAME)
                self.check_attributes([c for c in member.children if c.type == "attribute"], "member",
                                      types.get(self.ctx.text(name)) if name is not None else None, natural_align)
            return
        if kind in ("var", "override", "const", "let", "alias"):
            self.check_attributes(own, kind)

    def _call_cycles(self) -> None:
        """WGSL has no recursion: reports the first call cycle found, at the declaration it comes back to."""
        if any(d.code == "T002" for d in self.ctx.diagnostics):
            # Tint looks for cycles once every name is declared once; a name that resolves to nothing is no
            # edge, and its error comes later (measured: the cycle is reported first).
            return
        calls = self.calls
        if self.function_dependencies:
            # Other declarations join the graph only where a type names a function (a mistake, but a cycle
            # when that function uses the declaration, or another that names it: `struct T { s: S }`):
            # then every declaration's references are edges, function -> declaration -> function, walked
            # in source order as Tint does, so that the cycle reported is the one Tint reports.
            named = self._declarations_naming()
            for declaration, functions in self.function_dependencies.items():
                named.setdefault(declaration, []).extend(functions)
            calls = {d: [target for _, target in sorted(edges, key=lambda edge: edge[0])] + calls.get(d, [])
                     for d, edges in named.items()} | {f: c for f, c in calls.items() if f not in named}
        state: dict[Symbol, int] = {}  # 1: on the current path, 2: done
        for root in sorted(calls, key=lambda f: f.span.start):
            if root in state:
                continue
            path, stack = [], [(root, iter(calls.get(root, ())))]
            state[root] = 1
            path.append(root)
            while stack:
                function, callees = stack[-1]
                callee = next(callees, None)
                if callee is None:
                    stack.pop()
                    path.pop()
                    state[function] = 2
                    continue
                if state.get(callee) == 1 and any(f.kind == "function" for f in path[path.index(callee):]):
                    # (a cycle of types and values alone was reported where its declarations resolved)
                    # Walked from the declarations in source order, as Tint walks them: it reports the cycle
                    # at the declaration the walk comes back to.
                    cycle = path[path.index(callee):]
                    first = cycle[0]
                    names = " -> ".join(f"'{f.name}'" for f in cycle + [first])
                    others = {f.kind for f in cycle} - {"function"}
                    why = ("WGSL functions cannot call or name themselves, directly or through others" if not others
                           else "a variable's type cannot name a function that uses the variable" if others == {"var"}
                           else "a declaration cannot name a function that uses it, directly or through others")
                    self.ctx.report("T001", f"cyclic dependency: {names}; {why}", first.span)
                    return
                if callee not in state:
                    state[callee] = 1
                    path.append(callee)
                    stack.append((callee, iter(calls.get(callee, ()))))

    def _declarations_naming(self) -> dict[Symbol, list[tuple[int, Symbol]]]:
        """Per module-scope declaration, the module-scope declarations its text names, with where (from the
        model's references, so bodies replayed from an earlier check count too)."""
        module = self.module_scope.symbols
        declarations = sorted(module.values(), key=lambda d: d.declaration.start_byte)
        starts = [d.declaration.start_byte for d in declarations]
        out: dict[Symbol, list[Symbol]] = {}
        for (start, end), target in self.ctx.model.references():
            if module.get(target.name) is not target or (start, end) == (target.span.start, target.span.end):
                continue
            index = bisect.bisect_right(starts, start) - 1
            if index >= 0 and end <= declarations[index].declaration.end_byte:
                out.setdefault(declarations[index], []).append((start, target))
        return out

    def note_declaration_use(self, symbol: Symbol, node: ts.Node) -> None:
        """A module-scope declaration named inside the type of the declaration being resolved."""
        if self.module_scope.symbols.get(symbol.name) is not symbol:
            return
        if symbol.kind != "function":
            self.symbol_type(symbol, via=node)  # reports a cycle back to a declaration being resolved
            return
        if self.function is not None:
            self.note_use(symbol, node)
        elif self._resolution and self._resolution[-1][0].kind == "var":
            # A variable whose type names a function that uses it is a cycle _call_cycles looks for.
            self.function_dependencies.setdefault(self._resolution[-1][0], []).append((node.start_byte, symbol))

    def note_use(self, symbol: Symbol, node: ts.Node) -> None:
        """A use of a module-scope variable, or a call of a function, from the function being checked."""
        if symbol.kind == "function" and self.function is None and self._resolution:
            # Named in the declaration being resolved: in a signature (`fn main() -> main`), a dependency of
            # that function; in a struct member's, an alias's or a variable's type, of that declaration.
            if self.module_scope.symbols.get(symbol.name) is symbol:
                dependent = self._resolution[-1][0]
                if dependent.kind == "function":
                    self.calls.setdefault(dependent, []).append(symbol)
                else:
                    self.function_dependencies.setdefault(dependent, []).append((node.start_byte, symbol))
            return
        if self.function is None or self.module_scope.symbols.get(symbol.name) is not symbol:
            return
        if symbol.kind == "function":
            self.calls.setdefault(self.function, []).append(symbol)
        elif symbol.kind == "var":
            self.var_uses.setdefault(self.function, []).append((symbol, self.ctx.span(node)))

    def _check_enables(self, directives: list[ts.Node]) -> None:
        """`directives`: the module's enable directives, in order."""
        seen_dialect = None
        for node in directives:
            for extension in node.children_by_field_name("extension"):
                name = self.ctx.text(extension)
                if name not in KNOWN_EXTENSIONS:
                    self.ctx.report("T001", f"unknown extension '{name}'", self.ctx.span(extension))
                dialect = ENABLE_DIALECTS.get(name)
                if dialect is None:
                    continue
                if seen_dialect is not None and seen_dialect[0] != dialect:
                    self.ctx.report("T011", f"'{name}' and '{seen_dialect[1]}' are two matrix dialects; no "
                                            "compiler accepts both in one module", self.ctx.span(extension))
                seen_dialect = seen_dialect or (dialect, name)
        enables = self.ctx.model.enables
        if DIALECT_ENABLES["wgpu"] in enables and "subgroups" in enables:
            for node in directives:
                for extension in node.children_by_field_name("extension"):
                    if self.ctx.text(extension) == "subgroups":
                        self.ctx.report("T013", "naga does not implement the extension 'subgroups' yet: wgpu "
                                                "rejects this module (Tint accepts it)", self.ctx.span(extension))

    def _declare(self, node: ts.Node, scope: Scope, symbol: Symbol | None = None) -> Symbol | None:
        """Declares `node`'s name in `scope`; `symbol`, where given, is the one made for it already (its
        name and span those of the name), as a local's is while its initializer is checked."""
        if symbol is None:
            name_node = node.child_by_field_id(FIELD_NAME)
            if name_node is None or name_node.is_missing:
                return None
            # The name and its span as Context.text and Context.span make them, without their frames: every
            # declaration of the module comes here at every version, and every local of the bodies checked.
            start, end = name_node.start_byte, name_node.end_byte
            text = self.ctx.ascii_text
            name = text[start:end] if text is not None else self.ctx.text(name_node)
            span = _new_span(Span)
            _set_span_start(span, start)
            _set_span_end(span, end)
            symbol = Symbol(name, _DECLARATION_KINDS.get(KIND_NAMES[node.kind_id], "parameter"), span, node)
        name = symbol.name
        previous = scope.symbols.get(name)
        if previous is not None:
            self.ctx.report("T002", f"redeclaration of '{name}'", symbol.span,
                            related=(Related(previous.span, f"'{name}' is first declared here"),))
            return None
        scope.symbols[name] = symbol
        if scope is not self.module_scope:
            visible = self._visible
            self._shadowed.append((name, visible.get(name)))
            visible[name] = symbol
        model, span = self.ctx.model, symbol.span
        model.written_symbols.append(symbol)
        model.written_references[(span.start, span.end)] = symbol
        return symbol

    def _declare_module(self, declarations: list) -> list:
        """[(node, self._declare(node, self.module_scope)) for node in declarations], in one frame, with what
        every declaration reads (the text, the module's scope, the model's tables) read once: every declaration
        of the module comes here at every version. A redeclaration goes through _declare, which reports it.

        While carrying, each declaration's name, its place and its kind are the last version's (moved where they
        lie after the edit: Carry.names_to_carry), not read from its node again; they are noted for the next
        version either way."""
        ctx = self.ctx
        text = ctx.ascii_text
        scope = self.module_scope
        symbols = scope.symbols
        model = ctx.model
        written_symbols, written_references = model.written_symbols, model.written_references
        kinds, kind_of = KIND_NAMES, _DECLARATION_KINDS.get
        declared = []
        carry = self.reuse.carry if self.reuse is not None else None
        names = []
        carried = carry.names_to_carry(len(declarations)) if carry is not None else None
        if carried is not None:
            was_names, unchanged_end, moved_from, delta = carried
        else:
            was_names, unchanged_end, moved_from, delta = None, -1, 0, 0
        for index, node in enumerate(declarations):
            was = was_names[index] if was_names is not None else None
            if was is not None:
                name, span, kind = was
                start, end = span.start, span.end
                if end <= unchanged_end:
                    pass  # (where it was: the same span, and the same note for the next version)
                elif start >= moved_from:
                    start += delta
                    end += delta
                    span = _new_span(Span)
                    _set_span_start(span, start)
                    _set_span_end(span, end)
                    was = (name, span, kind)
                else:
                    was = None
            if was is None:
                name_node = node.child_by_field_id(FIELD_NAME)
                if name_node is None or name_node.is_missing:
                    declared.append((node, None))
                    names.append(None)
                    continue
                start, end = name_node.start_byte, name_node.end_byte
                name = text[start:end] if text is not None else ctx.text(name_node)
                span = _new_span(Span)
                _set_span_start(span, start)
                _set_span_end(span, end)
                kind = kind_of(kinds[node.kind_id], "parameter")
                was = (name, span, kind)
            symbol = Symbol(name, kind, span, node)
            if name in symbols:
                declared.append((node, self._declare(node, scope, symbol)))
                names.append(None)
                continue
            symbols[name] = symbol
            written_symbols.append(symbol)
            written_references[(start, end)] = symbol
            declared.append((node, symbol))
            names.append(was)
        if carry is not None and carry.current is not None:
            carry.current.names = names
        return declared

    def lookup_symbol(self, name: str) -> Symbol | None:
        # Every identifier of every body comes here: the scopes' chain is walked by _visible's upkeep instead.
        symbol = self._visible.get(name)
        if symbol is None:
            symbol = self.module_scope.symbols.get(name)
            if self.module_lookups is not None:
                self.module_lookups.setdefault(name, symbol)
        return symbol

    def _open_scope(self) -> int:
        """Opens a scope inside a function; returns what _close_scope needs to close it."""
        self.scope = Scope(self.scope)
        return len(self._shadowed)

    def _close_scope(self, mark: int) -> None:
        """Closes the innermost scope: the names it declared show what they hid again."""
        shadowed, visible = self._shadowed, self._visible
        while len(shadowed) > mark:
            name, hidden = shadowed.pop()
            if hidden is None:
                del visible[name]
            else:
                visible[name] = hidden
        self.scope = self.scope.parent

    # ------------------------------------------------ lazy symbol types
    def symbol_type(self, symbol: Symbol, via: ts.Node | None = None) -> t.Type:
        """The type of a module-scope declaration, resolved on first use (`via` is that use)."""
        if symbol.resolved:
            return symbol.type
        if symbol.resolving:
            self._report_cycle(symbol, via)
            return t.ERROR
        # (only a resolution the body itself starts: one nested in another is part of that one's step)
        first_use = self.first_uses if not self._resolution else None
        if first_use is not None:
            first_use.resolution_begins(self)
        symbol.resolving = True
        self.resolutions += 1
        self._resolution.append((symbol, via))
        saved = (self.scope, self._visible, self.stage, self.function)
        self.scope, self._visible, self.stage, self.function = self.module_scope, {}, None, None
        try:
            symbol.type = self._resolve_module_symbol(symbol)
        finally:
            self.scope, self._visible, self.stage, self.function = saved
            self._resolution.pop()
            symbol.resolving = False
            symbol.resolved = True
        if first_use is not None:
            first_use.resolution_ends(self, symbol)
        return symbol.type

    def _report_cycle(self, symbol: Symbol, via: ts.Node | None) -> None:
        """Reports a cycle once."""
        chain = [entry[0] for entry in self._resolution]
        start = chain.index(symbol)
        if any(getattr(member, "cycle_reported", False) for member in chain[start:]):
            return
        for member in chain[start:]:
            member.cycle_reported = True
        first_reference = self._resolution[start + 1][1] if start + 1 < len(self._resolution) else via
        names = " -> ".join(f"'{m.name}'" for m in chain[start:] + [symbol])
        # At the declaration the cycle comes back to, as Tint reports it; the reference that starts it is a note.
        related = (Related(self.ctx.span(first_reference), f"'{symbol.name}' refers to "
                           f"'{chain[start + 1].name if start + 1 < len(chain) else symbol.name}' here"),) \
            if first_reference is not None else ()
        self.ctx.report("T001", f"cyclic dependency: {names}", symbol.span, related=related)

    def _resolve_module_symbol(self, symbol: Symbol) -> t.Type:
        if self.reuse is None:
            return self._resolved_module_symbol(symbol)
        if symbol.kind == "function":
            # A function's signature is a header step of its own (replayed when unchanged); its symbol has no type.
            node = symbol.declaration
            self.reuse.headers.run(self, "signature", symbol, node, lambda: self._function_signature(symbol, node))
            return t.ERROR
        # Replayed when unchanged (header_reuse.py), the type among the fields the resolution set.
        self.reuse.headers.run(self, "declaration", symbol, symbol.declaration,
                               lambda: setattr(symbol, "type", self._resolved_module_symbol(symbol)))
        return symbol.type

    def _resolved_module_symbol(self, symbol: Symbol) -> t.Type:
        node = symbol.declaration
        if symbol.kind == "struct":
            return self._struct(symbol, node)
        if symbol.kind == "alias":
            type_node = node.child_by_field_id(FIELD_TYPE)
            return self.resolve_type(type_node) if type_node is not None else t.ERROR
        if symbol.kind == "function":  # (with reuse, _resolve_module_symbol runs it as a header step)
            self._function_signature(symbol, node)
            return t.ERROR
        return self._value_declaration(symbol, node, module_scope=True)

    def _struct(self, symbol: Symbol, node: ts.Node) -> t.Type:
        body = node.child_by_field_id(FIELD_BODY)
        members = []
        member_attributes = []
        seen: dict[str, ts.Node] = {}
        for member in body.named_children if body is not None else []:
            if member.type != "struct_member":
                continue
            name_node, type_node = member.child_by_field_id(FIELD_NAME), member.child_by_field_id(FIELD_TYPE)
            if name_node is None or type_node is None:
                continue
            name = self.ctx.text(name_node)
            if name in seen:
                self.ctx.report("T002", f"redeclaration of member '{name}'", self.ctx.span(name_node),
                                related=(Related(self.ctx.span(seen[name]), f"'{name}' is first declared here"),))
                continue
            seen[name] = name_node
            member_type = self.resolve_type(type_node)
            if isinstance(member_type, t.Pointer):
                self.ctx.report("T003", f"'{member_type.describe()}' cannot be the type of a struct member: "
                                        "pointers are not storable", self.ctx.span(type_node))
            elif isinstance(member_type, t.Array) and isinstance(member_type.count, str):
                self.ctx.report("T003", f"'{member_type.describe()}' cannot be the type of a struct member: an "
                                        "array with an 'override' element count can only be the type of a "
                                        "'var<workgroup>'", self.ctx.span(type_node))
            member_attrs = attributes(member, self.ctx)
            builtin = member_attrs.get("builtin")
            if builtin is not None:
                self.check_builtin_value(builtin[0], builtin[1], member_type)
            if "color" in member_attrs:
                self.check_color_value(member_attrs["color"][0], member_type, name_node)
            layout = {key: self._layout_argument(key, member_attrs[key][1]) for key in ("align", "size")
                      if key in member_attrs}
            members.append(t.StructMember(name, member_type, layout.get("align"), layout.get("size"),
                                          _builtin_value_name(builtin, self.ctx)))
            member_attributes.append((member, member_attrs, member_type))
        self.check_blend_sources(member_attributes)
        if not member_attributes and body is not None and not body.has_error:
            self.ctx.report("T003", f"struct '{symbol.name}' has no members; a struct needs at least one",
                            symbol.span)
        for member_node, _, member_type in member_attributes:
            if isinstance(member_type, t.Struct) and _runtime_sized(member_type):
                where = member_node.child_by_field_id(FIELD_TYPE) or member_node
                self.ctx.report("T003", f"struct '{member_type.name}' ends in a runtime-sized array, so it cannot "
                                        "be a member of another struct; move the array into this struct",
                                self.ctx.span(where))
                break
        for member_node, _, member_type in member_attributes[:-1]:
            if _runtime_sized(member_type) and not isinstance(member_type, t.Struct):
                where = member_node.child_by_field_id(FIELD_NAME) or member_node
                self.ctx.report("T003", "a runtime-sized array can only be the last member of a struct",
                                self.ctx.span(where))
                break
        struct = t.Struct(symbol.name, tuple(members))
        # The previous version's equal struct, where there is one: replayed bodies then hold the same type.
        return self.reuse.stable_struct(struct) if self.reuse is not None else struct

    def _value_declaration(self, symbol: Symbol, node: ts.Node, module_scope: bool) -> t.Type:
        """var, let, const and override: the declared type, checked against the initializer."""
        ctx, kind = self.ctx, symbol.kind  # (its kind never changes here: read once)
        type_node, value_node = node.child_by_field_id(FIELD_TYPE), node.child_by_field_id(FIELD_VALUE)
        declared = None if type_node is None else self.resolve_type(type_node) if module_scope \
            else self.declared_type(type_node)
        initializer: Typed | None = self.value(value_node) if value_node is not None else None
        if kind == "var":
            self._address_space(symbol, node, module_scope)
            if module_scope:
                self._resource_attributes(symbol, node)
        if kind in ("var", "override") and type_node is None and value_node is None \
                and not _broken(node):
            where = node.child_by_field_id(FIELD_NAME) or node
            self.ctx.report("T003", f"'{symbol.kind} {symbol.name}' needs a type or an initializer",
                            self.ctx.span(where))
        if kind in ("let", "const") and initializer is None:
            return declared or t.ERROR
        if kind == "const" and initializer is not None and not initializer.const:
            ctx.report("T014", "'const' initializer requires a const-expression; this is a runtime value",
                       ctx.span(value_node))
        if kind == "override" and initializer is not None and not initializer.override:
            ctx.report("T014", "'override' initializer requires an override-expression", ctx.span(value_node))
        if kind == "var" and module_scope and initializer is not None and not initializer.override \
                and initializer.type is not t.ERROR:
            # Module-scope variables are initialized before any invocation runs: nothing runtime exists yet.
            ctx.report("T014", "a module-scope 'var' initializer requires a const- or override-expression; this is "
                               "a runtime value", ctx.span(value_node))
        if declared is not None and initializer is not None:
            if self.expect_convertible(value_node, initializer.type, declared, "initializer"):
                initializer = self._convert_constant(value_node, initializer, declared)
            else:
                # An i32 const holding 0.0 would break every later constant
                # evaluation that trusts the declared type.
                initializer = Typed(declared, None, initializer.symbol, initializer.const, initializer.override)
        result = declared if declared is not None else (initializer.type if initializer else t.ERROR)
        if kind != "const":
            result = t.concretize(result)
            if initializer is not None and initializer.const and value_node is not None \
                    and not isinstance(declared, t.Scalar):
                # (a run-time initializer is one check_materialized passes at once)
                self.check_materialized(value_node, initializer, result)  # a declared scalar: _convert_constant
        if kind == "const" and initializer is not None:
            symbol.value, symbol.components = initializer.value, initializer.components
        if kind == "override" and initializer is not None and initializer.const:
            symbol.default = initializer.value
        if kind == "var":
            if t.is_handle(result) and node.child_by_field_id(FIELD_TEMPLATE) is None:
                symbol.space, symbol.access = "handle", "read"
            self._check_var_type(symbol, node, result)
            self.check_variable(symbol, node, module_scope, result)
        if kind == "override" and result is not t.ERROR and not (
                isinstance(result, t.Scalar) and not result.is_abstract):
            where = node.child_by_field_id(FIELD_TYPE) or node.child_by_field_id(FIELD_NAME)
            self.ctx.report("T003", f"an override must have a scalar type, not '{result.describe()}'",
                            self.ctx.span(where))
        return result

    def _layout_argument(self, key: str, args: list[ts.Node]) -> int | None:
        """@align and @size fix the layout before any override is known: they take const-expressions only."""
        if not args:
            return None
        typed = self.value(args[0])
        if typed.type is not t.ERROR and not typed.const:
            self.ctx.report("T014", f"@{key} requires a const-expression; "
                                    f"{'an override' if typed.override else 'a runtime value'} is known too late "
                                    "for a struct's layout", self.ctx.span(args[0]))
        value = typed.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _resource_attributes(self, symbol: Symbol, node: ts.Node) -> None:
        """@group and @binding take const-expressions (`@binding(2 + 1)`); the runner reads their values here."""
        found = attributes(node, self.ctx)
        for key in ("group", "binding"):
            if key not in found or not found[key][1]:
                continue
            argument = found[key][1][0]
            typed = self.value(argument)
            if typed.type is t.ERROR:
                continue
            if not typed.const:
                self.ctx.report("T014", f"@{key} requires a const-expression", self.ctx.span(argument))
            elif not self.check_materialized(argument, typed, t.I32):
                continue
            elif isinstance(typed.value, int) and not isinstance(typed.value, bool) and typed.value >= 0:
                setattr(symbol, key, typed.value)  # a negative value is T023's (attributes.py)

    def _convert_constant(self, node: ts.Node, typed: Typed, target: t.Type) -> Typed:
        """An abstract constant converted to its declared type must fit it (T014)."""
        if isinstance(target, t.Scalar) and isinstance(typed.type, t.Scalar) and typed.value is not None:
            try:
                return Typed(target, c.convert(typed.value, typed.type, target), typed.symbol, typed.const,
                             typed.override)
            except c.ConstError as error:
                self.ctx.report("T014", str(error), self.ctx.span(node))
                return Typed(target, None, typed.symbol, typed.const, typed.override)
        return typed

    def _address_space(self, symbol: Symbol, node: ts.Node, module_scope: bool) -> None:
        template = node.child_by_field_id(FIELD_TEMPLATE)
        args = [self.ctx.text(a) for a in template.named_children] if template is not None else []
        space = args[0] if args else ("private" if module_scope else "function")
        if space == "push_constant" and not self.ctx.portability("naga", template.named_children[0],
                                                                 "the address space 'push_constant'"):
            space = "private"
        if space == "pixel_local" and not self.ctx.require_enable(
                "chromium_experimental_pixel_local", template.named_children[0], "the address space 'pixel_local'"):
            space = "private"
        if space not in t.ADDRESS_SPACES:
            self.ctx.report("T003", f"unknown address space '{space}'", self.ctx.span(template.named_children[0]))
            space = "private"
        elif space == "handle" and template is not None:
            # The address space of textures and samplers is implied; WGSL has no way to write it.
            self.ctx.report("T003", "unknown address space 'handle': textures and samplers are declared "
                                    "without one", self.ctx.span(template.named_children[0]))
            space = "private"
        access = args[1] if len(args) > 1 else t.default_access(space)
        if access not in t.ACCESS_MODES:
            self.ctx.report("T003", f"unknown access mode '{access}'", self.ctx.span(template.named_children[1]))
            access = t.default_access(space)
        symbol.space, symbol.access = space, access

    def _check_var_type(self, symbol: Symbol, node: ts.Node, var_type: t.Type) -> None:
        space = symbol.space
        if space == "function" and var_type.__class__ in _FLAT_TYPES:
            # Most of a body's variables: nothing below can apply to a flat type in function memory, and
            # each check walks the type.
            return
        where = self.ctx.span(node.child_by_field_id(FIELD_TYPE) or node.child_by_field_id(FIELD_NAME) or node)
        # Matrices live in registers: in Tint only function variables (and lets, parameters) may
        # hold them; naga also allows private ones.
        forbidden = ("storage", "uniform", "push_constant", "workgroup") if space != "private" \
            else (() if self._naga_matrices(var_type) else ("private",))
        if space in forbidden and t.contains(var_type, _holds_matrix):
            hint = ("load it from an array of scalars instead" if space in ("storage", "uniform")
                    else "declare it inside the function")
            member = self._matrix_member(var_type)
            self.ctx.report("T010", f"matrix types cannot be declared in the '{space}' address space; {hint}",
                            self.ctx.span(member) if member is not None else where,
                            related=((Related(where, f"'{symbol.name}' is declared in '{space}' memory here"),)
                                     if member is not None else ()))
            return
        if space == "pixel_local" and self._pixel_local_type_is_wrong(var_type, where):
            return
        if t.contains(var_type, lambda x: isinstance(x, t.Atomic)) and space not in ("storage", "workgroup"):
            self.ctx.report("T003", f"atomic types can only live in 'storage' or 'workgroup' memory, not "
                                    f"'{space}'", where)
        elif space == "storage" and symbol.access != "read_write" \
                and t.contains(var_type, lambda x: isinstance(x, t.Atomic)):
            self.ctx.report("T017", "atomics in a 'storage' buffer need 'read_write' access: declare it "
                                    "'var<storage, read_write>'", where)
        if t.contains(var_type, lambda x: isinstance(x, t.Array) and isinstance(x.count, str)) \
                and space != "workgroup":
            self.ctx.report("T003", "an array with an 'override' element count can only be the type of a "
                                    "'var<workgroup>'", self.ctx.span(node.child_by_field_id(FIELD_NAME) or node))
        if _runtime_sized(var_type) and space not in ("storage",):
            member = self._struct_member_types(var_type)[-1:] if isinstance(var_type, t.Struct) else []
            self.ctx.report("T003", f"a runtime-sized array can only live in a 'storage' buffer, not in "
                                    f"'{space}' memory", self.ctx.span(member[0]) if member else where,
                            related=(Related(where, f"'{symbol.name}' is declared in '{space}' memory here"),)
                            if member else ())

    def _pixel_local_type_is_wrong(self, var_type: t.Type, where) -> bool:
        """Pixel-local memory maps struct members onto 32-bit attachments: a struct of i32, u32 and f32."""
        if not isinstance(var_type, t.Struct):
            self.ctx.report("T003", f"a 'pixel_local' variable holds a struct of i32, u32 and f32 members, not "
                                    f"'{var_type.describe()}'", where)
            return True
        member_nodes = self._struct_member_types(var_type)
        for index, member in enumerate(var_type.members):
            if member.type not in (t.I32, t.U32, t.F32):
                at = self.ctx.span(member_nodes[index]) if index < len(member_nodes) else where
                self.ctx.report("T003", f"struct members in the 'pixel_local' address space can only be i32, u32 "
                                        f"or f32; '{member.name}' is '{member.type.describe()}'", at,
                                related=((Related(where, "used in 'pixel_local' memory here"),)
                                         if at != where else ()))
                return True
        return False

    @staticmethod
    def _naga_matrices(var_type: t.Type) -> bool:
        return t.contains(var_type, lambda x: isinstance(x, t.CoopMatrix) and x.kind.dialect == "wgpu")

    def _matrix_member(self, var_type: t.Type) -> ts.Node | None:
        """The type node of the struct member that holds a matrix, to report where the matrix is."""
        while isinstance(var_type, t.Array):
            var_type = var_type.element
        if not isinstance(var_type, t.Struct):
            return None
        symbol = self.module_scope.symbols.get(var_type.name)
        body = symbol.declaration.child_by_field_id(FIELD_BODY) if symbol is not None else None
        for member_node, member in zip([m for m in (body.named_children if body else [])
                                        if m.type == "struct_member"], var_type.members):
            if t.contains(member.type, _holds_matrix):
                return member_node.child_by_field_id(FIELD_TYPE)
        return None

    def _function_signature(self, symbol: Symbol, node: ts.Node) -> None:
        symbol.stage = _stage_of(node, self.ctx)
        self._entry_point_attributes(node, symbol)
        symbol.must_use = any(a.type == "attribute" and a.child_by_field_id(FIELD_NAME) is not None
                              and self.ctx.text(a.child_by_field_id(FIELD_NAME)) == "must_use"
                              and a.start_byte < symbol.span.start for a in node.children)
        parameters, inputs = [], []
        params_node = node.child_by_field_id(FIELD_PARAMETERS)
        for parameter in params_node.named_children if params_node is not None else []:
            if parameter.type != "parameter":
                continue
            type_node = parameter.child_by_field_id(FIELD_TYPE)
            parameters.append(self.resolve_type(type_node) if type_node is not None else t.ERROR)
            if parameters[-1] is not t.ERROR and not _phony_assignable(parameters[-1]):
                self.ctx.report("T003", f"a function parameter cannot have the type '{parameters[-1].describe()}': "
                                        "parameters take constructible values, pointers, textures and samplers",
                                self.ctx.span(type_node))
            parameter_attrs = attributes(parameter, self.ctx)
            builtin = parameter_attrs.get("builtin")
            inputs.append((_builtin_value_name(builtin, self.ctx), "location" in parameter_attrs))
            if builtin is not None:
                self.check_builtin_value(builtin[0], builtin[1], parameters[-1])
            if "color" in parameter_attrs:
                self.check_color_value(parameter_attrs["color"][0], parameters[-1],
                                       parameter.child_by_field_id(FIELD_NAME) or parameter)
            if "blend_src" in parameter_attrs:
                self.blend_source_outside_output(parameter_attrs["blend_src"][0], "a function parameter")
        symbol.parameters, symbol.inputs = tuple(parameters), tuple(inputs)
        return_node = node.child_by_field_id(FIELD_RETURN_TYPE)
        symbol.return_type = self.resolve_type(return_node) if return_node is not None else None
        if symbol.return_type is not None and symbol.return_type is not t.ERROR \
                and not _constructible(symbol.return_type):
            self.ctx.report("T003", f"a function cannot return '{symbol.return_type.describe()}': return types must "
                                    "be constructible (no atomics, runtime-sized arrays, pointers, textures or "
                                    "samplers); return the value inside, or pass a pointer in",
                            self.ctx.span(return_node))
            symbol.return_type = t.ERROR
        return_attrs = attributes(node, self.ctx, "return_attribute")
        if "blend_src" in return_attrs:
            self.blend_source_outside_output(return_attrs["blend_src"][0], "a function's return value")
        builtin = return_attrs.get("builtin")
        if builtin is not None and symbol.return_type is not None:
            self.check_builtin_value(builtin[0], builtin[1], symbol.return_type)
        if "color" in return_attrs and symbol.return_type is not None:
            self.check_color_value(return_attrs["color"][0], symbol.return_type, return_node)

    def _entry_point_attributes(self, node: ts.Node, symbol: Symbol) -> None:
        for attribute in node.children:
            if attribute.type != "attribute":
                continue
            name = attribute.child_by_field_id(FIELD_NAME)
            arguments = attribute.child_by_field_id(FIELD_ARGUMENTS)
            if name is not None and self.ctx.text(name) == "subgroup_size":
                self._subgroup_size(attribute, arguments, symbol)
                continue
            if name is None or self.ctx.text(name) != "workgroup_size" or arguments is None:
                continue
            kinds = set()
            sizes: list = []
            spans: list = []
            abstract: list = []  # arguments that take the type of the others (i32 when all are abstract)
            for argument in arguments.named_children:
                if argument.type in ("line_comment", "block_comment"):
                    continue
                typed = self.value(argument)
                if typed.type == t.ABSTRACT_INT:
                    abstract.append((argument, typed))
                sizes.append(typed.value if isinstance(typed.value, int) and not isinstance(typed.value, bool)
                             else self._override_name(argument))
                spans.append(self.ctx.span(argument))
                if typed.type is t.ERROR:
                    continue
                if not (isinstance(typed.type, t.Scalar) and typed.type in (t.I32, t.U32, t.ABSTRACT_INT)):
                    self.ctx.report("T003", "workgroup_size arguments must be i32 or u32 values, not "
                                            f"'{typed.type.describe()}'", self.ctx.span(argument))
                    continue
                if typed.type != t.ABSTRACT_INT:
                    kinds.add(typed.type)
                    if len(kinds) > 1:
                        self.ctx.report("T003", "workgroup_size arguments must be of the same type, either "
                                                "i32 or u32", self.ctx.span(argument))
                if not typed.override:
                    self.ctx.report("T014", "workgroup_size arguments must be const- or override-expressions",
                                    self.ctx.span(argument))
                elif isinstance(typed.value, int) and typed.value < 1:
                    self.ctx.report("T014", f"workgroup_size must be positive, not {typed.value}",
                                    self.ctx.span(argument))
            common = next(iter(kinds)) if len(kinds) == 1 else t.I32
            for argument, typed in abstract:
                if not self.check_materialized(argument, typed, common):
                    break
            symbol.workgroup_size = tuple(sizes[:3]) + (1,) * (3 - min(3, len(sizes)))
            symbol.workgroup_size_spans = tuple(spans[:3])

    def _override_name(self, node: ts.Node) -> str | None:
        """The override a workgroup size names directly (`@workgroup_size(WG)`); None for anything else."""
        if node.type != "identifier":
            return None
        symbol = self.lookup_symbol(self.ctx.text(node))
        return symbol.name if symbol is not None and symbol.kind == "override" else None

    def _subgroup_size(self, attribute: ts.Node, arguments: ts.Node | None, symbol: Symbol) -> None:
        """@subgroup_size(N) as the pinned Tint validates it: the extension, a compute stage, N a power of two."""
        ctx = self.ctx
        if not ctx.require_enable("subgroup_size_control", attribute, "'@subgroup_size'"):
            return
        if symbol.stage != "compute":
            ctx.report("T003", "'@subgroup_size' is only valid for compute stages", ctx.span(attribute))
            return
        args = [a for a in (arguments.named_children if arguments is not None else [])
                if a.type not in ("line_comment", "block_comment")]
        if not args:
            return
        typed = self.value(args[0])
        if typed.type is t.ERROR:
            return
        if not (isinstance(typed.type, t.Scalar) and typed.type in (t.I32, t.U32, t.ABSTRACT_INT)) \
                or not typed.override:
            ctx.report("T003", "'@subgroup_size' argument must be a constant or override-expression of type "
                               "abstract-integer, i32 or u32", ctx.span(args[0]))
            return
        value = typed.value
        if not isinstance(value, int) or isinstance(value, bool):
            return
        if value < 1:
            ctx.report("T014", "'@subgroup_size' argument must be at least 1", ctx.span(args[0]))
        elif value & (value - 1):
            below = 1 << (value.bit_length() - 1)
            ctx.report("T014", f"'@subgroup_size' argument must be a power of 2, not {value} ({below} or "
                               f"{below * 2} are)", ctx.span(args[0]))
        else:
            symbol.subgroup_size = value

    # ---------------------------------------------------------- functions
    def _checked_body(self, symbol: Symbol, node: ts.Node) -> None:
        """A module-scope function's body: replayed from `reuse` when unchanged, else checked (and recorded)."""
        reuse = self.reuse
        if reuse is None:
            self._function_body(symbol, node)
            return
        start, end = node.start_byte, node.end_byte
        carry = reuse.carry
        carried = carry.step("body", start, end)
        index = carry.index - 1
        broken = node.has_error  # (while carrying, only the edited body can be: Carry.begin)
        if carried is not None and carried is not EDITED:
            if not broken:
                # The record the last version replayed or made here (carry.py says why it is valid).
                reuse.apply(self, carried[4], symbol, node, carried[3])
                # (a state it recorded holds places, stale once the text moved: unknown then)
                after = carried[5] if carried[5] is True or not carry.moved() else False
                # (unmoved and keeping its state: the last version's entry itself, not a copy of it; noted
                # directly, as carry.note would: a carried step always has a current version)
                carry.current.entries[index] = carried if carried[1] == start and carried[2] == end \
                    and after is carried[5] else ("body", start, end, carried[3], carried[4], after)
                return
            carry.stop()
        # Whether the check leaves the state later steps read as it found it (see carry.py).
        model = self.ctx.model
        before = (self.resolutions, self.ctx.said_count(), len(model.matrix_dialects), len(self.module_scope.symbols))
        reuse.applied = None
        if broken:
            self._afresh(symbol, node)  # (a body with syntax errors is neither replayed nor recorded)
        elif not reuse.replay(self, symbol, node):
            recording = reuse.start(self, node)
            completed = False
            try:
                self._afresh(symbol, node)
                completed = True
            finally:
                reuse.finish(self, recording, symbol, completed)
        after = before == (self.resolutions, self.ctx.said_count(), len(model.matrix_dialects),
                           len(self.module_scope.symbols))
        if not after and carry.current is not None:
            # What later steps read that the body changed (it only grows during a check, and what the
            # steps nested in it set is compared by Carry.edited_done), and how many steps it holds.
            after = (self.ctx.said_once(), frozenset(model.matrix_dialects), len(self.module_scope.symbols),
                     self.resolutions, carry.index)
        if carried is EDITED:
            facts = self.alias_facts.get(symbol)
            delta = self.alias_deltas.get(symbol, 0)
            carry.note_edited_alias(facts.shifted(delta) if facts is not None and delta else facts)
            carry.edited_done(after, (tuple(f.name for f in self.calls.get(symbol, ())),
                                      variables_in_first_use_order(self.var_uses.get(symbol, ()))))
        carry.note(index, ("body", start, end) + (reuse.applied or (None, None)) + (after,))

    def _afresh(self, symbol: Symbol, node: ts.Node) -> None:
        """_function_body, with the statements before the edit replayed where the last version checked this
        body at the same place (leading.py)."""
        leading = self.reuse.leading
        self.leading = leading.open(self, symbol, node)
        try:
            self._function_body(symbol, node)
        finally:
            if self.leading is not None:
                leading.close(self, self.leading, node)
            self.leading = None

    def _function_body(self, symbol: Symbol, node: ts.Node) -> None:
        self.function = symbol
        self.stage = _stage_of(node, self.ctx)
        self.stage_reported = False
        self.scope = Scope(self.module_scope)
        self._visible, self._shadowed = {}, []
        params_node = node.child_by_field_id(FIELD_PARAMETERS)
        parameters = [p for p in (params_node.named_children if params_node is not None else [])
                      if p.type == "parameter"]
        self.parameter_index, self.pointer_roots = {}, {}
        for index, (parameter, parameter_type) in enumerate(zip(parameters, symbol.parameters)):
            declared = self._declare(parameter, self.scope)
            if declared is not None:
                declared.type, declared.resolved = parameter_type, True
                if index < len(symbol.inputs):
                    declared.io_builtin, declared.io_location = symbol.inputs[index]
                self.parameter_index[declared] = index
        body = node.child_by_field_id(FIELD_BODY)
        if body is not None:
            # Said only where naga may compile the module: a module whose enables tie it to Tint never
            # reaches naga, and Tint's authors put these filters on statements as a matter of course.
            if self.ctx.target_compiler() != "tint" \
                    and b"diagnostic" in self.ctx.source.data[body.start_byte:body.end_byte]:
                self._statement_diagnostic_attributes(body)
            self._block(body, new_scope=False)
            self.check_behaviors(symbol, node)
        self.scope = self.module_scope
        self._visible, self._shadowed = {}, []
        self.function = None
        self.stage = None

    def _statement_diagnostic_attributes(self, body: ts.Node) -> None:
        """naga 29 parses `@diagnostic` on functions only: on a statement or a body it stops with "not yet
        implemented" (or, after `loop`, `switch x` and `continuing`, expects a '{')."""
        stack = [body]
        while stack:
            node = stack.pop()
            if node.type == "attribute":
                name = node.child_by_field_id(FIELD_NAME)
                if name is not None and self.ctx.text(name) == "diagnostic":
                    self.ctx.portability("tint", node, "'@diagnostic' on a statement")
                continue
            stack.extend(reversed(node.named_children))

    def _block(self, node: ts.Node, new_scope: bool = True) -> None:
        leading = self.leading
        if not new_scope:
            if leading is not None:
                self.reuse.leading.statements(self, leading, node, node.named_children)
                return
            for child in node.named_children:
                self.statement(child)
            return
        mark = self._open_scope()
        if leading is not None:
            self.reuse.leading.statements(self, leading, node, node.named_children)
        else:
            for child in node.named_children:
                self.statement(child)
        self._close_scope(mark)

    def statement(self, node: ts.Node) -> None:
        kind = KIND_NAMES[node.kind_id]  # (node.type's string, made once: syntax/nodes.py says why)
        if kind in _NOT_STATEMENTS or node.is_missing:
            return
        # A statement's first child is an attribute exactly when its text starts with '@': one byte read
        # instead of a child node for every statement (and the children only for the rare attributed one).
        data, start = self.ctx.source.data, node.start_byte
        if start < len(data) and data[start] == 64 and node.child_count > 1 \
                and node.child(0).type == "attribute" and node.child(1).type == "attribute":
            check_diagnostic_controls(self.ctx, [c for c in node.children if c.type == "attribute"], "attribute",
                                      allow_repeats=False)
        handler = _STATEMENT_HANDLERS.get(kind, _UNKNOWN)
        if handler is _UNKNOWN:
            # Looked up on the class once per kind: an f-string and a bound method per statement showed.
            handler = _STATEMENT_HANDLERS[kind] = getattr(Checker, f"_stmt_{kind}", None)
        if handler is not None:
            handler(self, node)

    def _local(self, node: ts.Node) -> None:
        name_node = node.child_by_field_id(FIELD_NAME)
        named = name_node is not None and not name_node.is_missing
        # One symbol, made before the initializer is checked and declared after it (a local is not in scope
        # in its own initializer): nothing reads its span until then. Its name and span as Context.text and
        # Context.span make them, without their calls (as _declare does).
        if name_node is None:
            name = ""
        else:
            text = self.ctx.ascii_text
            name = text[name_node.start_byte:name_node.end_byte] if text is not None else self.ctx.text(name_node)
        where = name_node if named else node
        span = _new_span(Span)
        _set_span_start(span, where.start_byte)
        _set_span_end(span, where.end_byte)
        symbol = Symbol(name, _DECLARATION_KINDS[KIND_NAMES[node.kind_id]], span, node)
        symbol.type = self._value_declaration(symbol, node, module_scope=False)
        symbol.resolved = True
        family = symbol.type.__class__
        # t.contains written out for the flat types most locals have (only arrays and structs hold others).
        if family is t.CoopMatrix or (family is t.Array or family is t.Struct) and t.contains(symbol.type,
                                                                                             _holds_matrix):
            self.note_matrix_in_stage(node.child_by_field_id(FIELD_VALUE) or node)
        if symbol.kind == "var" and symbol.space not in ("function",):
            self.ctx.report("T003", f"a variable inside a function must be in the 'function' address space, "
                                    f"not '{symbol.space}'", self.ctx.span(node))
        elif symbol.kind == "let" and symbol.type is not t.ERROR and not _phony_assignable(symbol.type):
            where = node.child_by_field_id(FIELD_TYPE) or node.child_by_field_id(FIELD_VALUE) or node
            self.ctx.report("T003", f"'{symbol.type.describe()}' cannot be the type of a 'let': a 'let' holds "
                                    "constructible values, pointers, textures and samplers", self.ctx.span(where))
        root = self.alias_root(node.child_by_field_id(FIELD_VALUE)) \
            if symbol.kind == "let" and isinstance(symbol.type, t.Pointer) else None
        declared = self._declare(node, self.scope, symbol) if named else None
        if declared is not None:
            if root is not None:
                self.pointer_roots[declared] = root
            self.note_loop_declaration(declared)

    _stmt_variable_declaration = _local
    _stmt_let_declaration = _local
    _stmt_const_declaration = _local

    def _stmt_compound_statement(self, node: ts.Node) -> None:
        self._block(node)

    def _condition(self, node: ts.Node | None, what: str) -> None:
        if node is None:
            return
        typed = self.value(node)
        # (`is` first: most conditions are the one bool, and the generated == is a Python call)
        if typed.type is not t.ERROR and typed.type is not t.BOOL and typed.type != t.BOOL:
            self.ctx.report("T003", f"{what} condition must be 'bool', not '{typed.type.describe()}'",
                            self.ctx.span(node))

    def _stmt_if_statement(self, node: ts.Node) -> None:
        self._condition(node.child_by_field_id(FIELD_CONDITION), "'if'")
        consequence = node.child_by_field_id(FIELD_CONSEQUENCE)
        if consequence is not None:
            self._block(consequence)
        alternative = node.child_by_field_id(FIELD_ALTERNATIVE)
        if alternative is not None:
            for child in alternative.named_children:
                self.statement(child)

    def _stmt_while_statement(self, node: ts.Node) -> None:
        self._condition(node.child_by_field_id(FIELD_CONDITION), "'while'")
        body = node.child_by_field_id(FIELD_BODY)
        if body is not None:
            self.loops.append(LoopFrame())
            try:
                self._block(body)
            finally:
                self.loops.pop()

    def _stmt_break_if_statement(self, node: ts.Node) -> None:
        self._condition(node.child_by_field_id(FIELD_CONDITION), "'break if'")

    def _stmt_loop_statement(self, node: ts.Node) -> None:
        body = node.child_by_field_id(FIELD_BODY)
        if body is None:
            return
        mark = self._open_scope()
        self.loops.append(LoopFrame(body_scope=self.scope))
        try:
            for child in body.named_children:
                self.statement(child)
        finally:
            self.loops.pop()
            self._close_scope(mark)

    def _stmt_continuing_statement(self, node: ts.Node) -> None:
        body = node.child_by_field_id(FIELD_BODY)
        if body is None:
            return
        frame = self.loops[-1] if self.loops else None
        if frame is not None:
            frame.in_continuing = True
            self.continuing_blocks += 1
        try:
            self._block(body)
        finally:
            if frame is not None:
                frame.in_continuing = False
                self.continuing_blocks -= 1

    def _stmt_for_statement(self, node: ts.Node) -> None:
        mark = self._open_scope()
        # (around the edit of a body checked afresh, the header's check may be the last version's: leading.py)
        if self.leading is None or not self.reuse.leading.for_header(self, self.leading, node):
            self.for_header(node)
        body = node.child_by_field_id(FIELD_BODY)
        if body is not None:
            self.loops.append(LoopFrame())
            try:
                self._block(body)
            finally:
                self.loops.pop()
        self._close_scope(mark)

    def for_header(self, node: ts.Node) -> None:
        """A `for` statement's initializer, condition and update, in the scope it opened."""
        initializer = node.child_by_field_id(FIELD_INITIALIZER)
        if initializer is not None:
            self.statement(initializer)
        self._condition(node.child_by_field_id(FIELD_CONDITION), "'for'")
        update = node.child_by_field_id(FIELD_UPDATE)
        if update is not None:
            self.statement(update)

    def _stmt_switch_statement(self, node: ts.Node) -> None:
        selector_node = node.child_by_field_id(FIELD_VALUE)
        selector = self.value(selector_node) if selector_node is not None else None
        if selector is not None and selector.type is not t.ERROR and not (
                isinstance(selector.type, t.Scalar) and selector.type.is_integer):
            self.ctx.report("T003", f"switch selector must be an integer, not '{selector.type.describe()}'",
                            self.ctx.span(selector_node))
        body = node.child_by_field_id(FIELD_BODY)
        selector_type = selector.type if selector is not None else t.ERROR
        defaults, values = [], {}
        for clause in body.named_children if body is not None else []:
            if clause.type == "default_clause":
                defaults.append(clause.children[0] if clause.children else clause)
            if clause.type == "case_clause":
                selectors = clause.child_by_field_id(FIELD_SELECTORS)
                for selector_expression in selectors.named_children if selectors is not None else []:
                    if selector_expression.type == "default_selector":
                        defaults.append(selector_expression)
                    elif not selector_expression.is_extra:
                        selector_type = self._case_value(selector_expression, selector_type, values)
            clause_body = clause.child_by_field_id(FIELD_BODY)
            if clause_body is not None:
                self._block(clause_body)
        if body is not None and not body.has_error and len(defaults) != 1:
            keyword = node.children[0] if node.children else node
            self.ctx.report("T022", "a switch statement must have exactly one default clause" +
                            ("" if defaults else "; add 'default: {}'"),
                            self.ctx.span(defaults[1] if defaults else keyword))

    def _case_value(self, node: ts.Node, common: t.Type, values: dict) -> t.Type:
        """A case selector: of the selector's type (abstract integers convert), each value once.
        Returns the common type so far."""
        typed = self.value(node)
        if typed.type is t.ERROR or common is t.ERROR:
            return common
        if not typed.const:
            self.ctx.report("T014", "a case selector must be a constant expression", self.ctx.span(node))
            return common
        if not (isinstance(typed.type, t.Scalar) and typed.type.is_integer):
            self.ctx.report("T003", f"a case selector must be an integer constant, not "
                                    f"'{typed.type.describe()}'", self.ctx.span(node))
            return common
        if typed.type != common and t.ABSTRACT_INT not in (typed.type, common):
            self.ctx.report("T003", f"the case selector values must have the same type as the selector "
                                    f"expression: '{typed.type.describe()}' here, '{common.describe()}' there",
                            self.ctx.span(node))
            return common
        concrete = isinstance(common, t.Scalar) and not common.is_abstract
        if concrete and not self.check_materialized(node, typed, common):
            return common
        if isinstance(typed.value, int) and not isinstance(typed.value, bool):
            value = typed.value & 0xFFFFFFFF if (common == t.U32 or typed.type == t.U32) else typed.value
            first = values.setdefault(value, node)
            if first is not node:
                self.ctx.report("T022", f"duplicate switch case '{typed.value}'", self.ctx.span(node),
                                related=(Related(self.ctx.span(first), "the same case is here"),))
        return common if typed.type == t.ABSTRACT_INT else typed.type

    def _stmt_return_statement(self, node: ts.Node) -> None:
        value_node = node.child_by_field_id(FIELD_VALUE)
        expected = self.function.return_type if self.function is not None else None
        if value_node is None:
            if expected is not None and expected is not t.ERROR:
                self.ctx.report("T003", f"missing return value of type '{expected.describe()}'", self.ctx.span(node))
            return
        value = self.value(value_node)
        if expected is None:
            if value.type is not t.ERROR:
                self.ctx.report("T003", "this function has no return type, so 'return' takes no value",
                                self.ctx.span(value_node))
            return
        self.expect_convertible(value_node, value.type, expected, "return value", value)

    def _stmt_assignment_statement(self, node: ts.Node) -> None:
        left_node, right_node = node.child_by_field_id(FIELD_LEFT), node.child_by_field_id(FIELD_RIGHT)
        right = self.value(right_node) if right_node is not None else None
        if left_node is not None and left_node.type == "phony" and right is not None \
                and right.type is not t.ERROR and not _phony_assignable(right.type):
            self.ctx.report("T003", f"cannot assign '{right.type.describe()}' to '_': '_' takes constructible "
                                    "values, pointers, textures and samplers", self.ctx.span(right_node))
            return
        if left_node is None or left_node.type == "phony" or right is None:
            return

        left = self.expression(left_node)
        if left.repeated_swizzle:
            member = left_node.child_by_field_id(FIELD_MEMBER) or left_node
            self.ctx.report("T003", f"cannot assign to the swizzle '{self.ctx.text(member)}': it names a component "
                                    "twice", self.ctx.span(member))
            return
        store = self._assignable(left_node, left)
        if store is not None:
            self.expect_convertible(right_node, right.type, store, "value", right)

    def _assignable(self, node: ts.Node, typed: Typed) -> t.Type | None:
        if typed.type is t.ERROR or isinstance(typed.type, t.Reference) and typed.type.store is t.ERROR:
            return None
        if not isinstance(typed.type, t.Reference):
            article = "an" if typed.symbol is not None and typed.symbol.kind[:1] in "aeiou" else "a"
            what = f"'{typed.symbol.name}' is {article} {typed.symbol.kind}" if typed.symbol else "this expression is a value"
            self.ctx.report("T003", f"cannot assign: {what}, not a variable", self.ctx.span(node))
            return None
        if typed.type.access == "read":
            self.ctx.report("T003", "cannot assign through a read-only reference "
                                    f"('{typed.type.space}' memory is read-only here)", self.ctx.span(node))
            return None
        if isinstance(typed.type.store, t.Atomic):
            self.ctx.report("T003", "atomics are written with atomicStore(), not '='", self.ctx.span(node))
            return None
        self.note_access(node, read=False, write=True)
        return typed.type.store

    def _stmt_compound_assignment_statement(self, node: ts.Node) -> None:
        left_node, right_node = node.child_by_field_id(FIELD_LEFT), node.child_by_field_id(FIELD_RIGHT)
        operator = self.ctx.text(node.child_by_field_id(FIELD_OPERATOR))[:-1]
        right = self.value(right_node)
        left = self.expression(left_node)
        if left.repeated_swizzle:
            member = left_node.child_by_field_id(FIELD_MEMBER) or left_node
            self.ctx.report("T003", f"cannot assign to the swizzle '{self.ctx.text(member)}': it names a component "
                                    "twice", self.ctx.span(member))
            return
        store = self._assignable(left_node, left)
        if store is None or right.type is t.ERROR:
            return
        if not self.check_materialized(right_node, right, t.U32 if operator in ("<<", ">>") else store):
            return  # an abstract operand takes the variable's type (a shift count is a u32)
        result = binary_result_type(operator, store, right.type)
        if result is None or t.conversion_rank(result, store) is None:
            self.ctx.report("T004", f"no matching overload for operator '{operator}' in '{operator}=' "
                                    f"({store.describe()}, {right.type.describe()})", self.ctx.span(node))

    def _stmt_increment_statement(self, node: ts.Node) -> None:
        operand_node = node.child_by_field_id(FIELD_OPERAND)
        store = self._assignable(operand_node, self.expression(operand_node))
        if store is not None and store not in (t.I32, t.U32):
            self.ctx.report("T003", f"increment and decrement ('++', '--') need an i32 or u32 variable, not "
                                    f"'{store.describe()}'",
                            self.ctx.span(operand_node))

    _stmt_decrement_statement = _stmt_increment_statement

    def _stmt_call_statement(self, node: ts.Node) -> None:
        call = node.named_children[0] if node.named_children else None
        if call is None:
            return
        typed = self.call(call)
        callee = call.child_by_field_id(FIELD_FUNCTION)
        name_node = callee.child_by_field_id(FIELD_NAME) if callee.type == "templated_identifier" else callee
        name = self.ctx.text(name_node)
        if typed.type is t.ERROR or typed.type is VOID:
            return
        symbol = self.lookup_symbol(name)
        if symbol is not None:
            if symbol.kind == "function" and symbol.must_use:
                self.ctx.report("T015", f"ignoring the result of '{name}', which is declared '@must_use'; assign "
                                        f"it, or write '_ = {name}(...)'", self.ctx.span(name_node))
            elif symbol.kind in ("struct", "alias"):
                self.ctx.report("T015", "value constructor evaluated but not used", self.ctx.span(call))
            return
        if isinstance(typed.type, t.Type) and (is_type_name(name) or callee.type == "templated_identifier") \
                and (CORE_TABLE.get(name) is None and self.ctx.matrix_builtin(name) is None):
            arguments = call.child_by_field_id(FIELD_ARGUMENTS)
            count = len([a for a in (arguments.named_children if arguments is not None else []) if not a.is_extra])
            what = "conversion" if count == 1 and name in t.CONCRETE_SCALARS else "constructor"
            self.ctx.report("T015", f"value {what} evaluated but not used", self.ctx.span(call))
            return
        builtin = CORE_TABLE.get(name) or (self.ctx.matrix_builtin(name) or (None,))[0]
        if builtin is not None and builtin.must_use:
            self.ctx.report("T015", f"the result of '{name}' is not used; assign it, or write '_ = {name}(...)'",
                            self.ctx.span(name_node))

    def _stmt_const_assert_statement(self, node: ts.Node) -> None:
        self._const_assert(node)

    def _const_assert(self, node: ts.Node) -> None:
        condition = node.child_by_field_id(FIELD_CONDITION)
        if condition is None:
            return
        if condition.type != "paren_expression" and self.ctx.target_compiler() != "tint" \
                and self.ctx.text(condition).startswith("("):
            # naga takes a '(' right after const_assert for optional brackets around the whole condition,
            # then wants ';' after the matching ')': `const_assert (a) && b;` does not parse there.
            self.ctx.portability("tint", condition, "a 'const_assert' condition that starts with '(' and goes on "
                                                    "after the matching ')'")
        typed = self.value(condition)
        if typed.type is t.ERROR:
            return
        if typed.type != t.BOOL:
            self.ctx.report("T003", f"const_assert needs a 'bool', not '{typed.type.describe()}'",
                            self.ctx.span(condition))
        elif not typed.const:
            self.ctx.report("T014", "const_assert requires a const-expression", self.ctx.span(condition))
        elif typed.value is False:
            self.ctx.report("T014", "const assertion failed", self.ctx.span(condition))

    def _stmt_function_declaration(self, node: ts.Node) -> None:
        # Only reached after a missing '}' (already reported); check it as if at module scope.
        symbol = self._declare(node, self.module_scope)
        if symbol is not None:
            saved = (self.scope, self._visible, self._shadowed, self.function, self.leading)
            self.leading = None  # (its blocks are none of the edited body's)
            self.symbol_type(symbol)
            self._function_body(symbol, node)
            self.scope, self._visible, self._shadowed, self.function, self.leading = saved


def _builtin_value_name(builtin: tuple | None, ctx: Context) -> str | None:
    """The value a `@builtin(...)` attribute names (as `attributes()` found it), or None."""
    if builtin is None or not builtin[1]:
        return None
    return ctx.text(builtin[1][0])


def _stage_of(node: ts.Node, ctx: Context) -> str | None:
    for attribute in node.children:
        if attribute.type == "attribute":
            name = attribute.child_by_field_id(FIELD_NAME)
            if name is not None and ctx.text(name) in ("compute", "vertex", "fragment"):
                return ctx.text(name)
    return None


def _may_hold_attributes(node: ts.Node, data: bytes) -> bool:
    """Whether a function's header has an '@' (else no attribute of it, its parameters or its return value,
    and no stage). With none, its checks after the bodies (_header_checks) find nothing: every list
    check_attributes gets is empty, so it reports nothing, and no stage means no shader IO to check; nor do
    they set anything on the symbol. An edit's versions skip the step then rather than replay a record of
    nothing (the fresh check still runs it, and the reuse tests compare the two)."""
    body = node.child_by_field_id(FIELD_BODY)
    return data.find(b"@", node.start_byte, body.start_byte if body is not None else node.end_byte) >= 0


def _module_children(root: ts.Node):
    # (the extras left out in C, not by a step of Python per child)
    return list(itertools.filterfalse(_IS_EXTRA, root.named_children))


_IS_EXTRA = operator.attrgetter("is_extra")


_ALWAYS_CONSTRUCTIBLE = (t.Scalar, t.Vector, t.Matrix)


def _constructible(value_type: t.Type) -> bool:
    """Values that can be built and copied: no atomics, runtime-sized arrays, handles or pointers inside."""
    if isinstance(value_type, (t.Scalar, t.Vector, t.Matrix, t.CoopMatrix)):
        return True
    if isinstance(value_type, t.Array):
        return isinstance(value_type.count, int) and _constructible(value_type.element)
    if isinstance(value_type, t.Struct):
        return all(_constructible(m.type) for m in value_type.members)
    return False


def _phony_assignable(value_type: t.Type) -> bool:
    """What '_ =', a 'let' and a parameter take: constructible values, pointers, textures and samplers."""
    if isinstance(value_type, _ALWAYS_CONSTRUCTIBLE) or value_type is t.ERROR:
        return True
    if isinstance(value_type, (t.Pointer, t.Opaque)) or t.is_handle(value_type):
        return True
    if isinstance(value_type, t.Array) and isinstance(value_type.count, str):
        return True  # override-sized: reported where it is declared
    return _constructible(value_type)


# Types that hold no other type: no atomic, array or struct inside them.
_FLAT_TYPES = frozenset({t.Scalar, t.Vector, t.Matrix, t.CoopMatrix})


def _runtime_sized(value_type: t.Type) -> bool:
    """A runtime-sized array, or a struct that ends in one."""
    if isinstance(value_type, t.Struct) and value_type.members:
        value_type = value_type.members[-1].type
    return isinstance(value_type, t.Array) and value_type.count is None


def _holds_matrix(value_type: t.Type) -> bool:
    return isinstance(value_type, t.CoopMatrix)




# Kinds statement() passes over: a block's children that are no statement.
_NOT_STATEMENTS = frozenset({"line_comment", "block_comment", "attribute", "ERROR"})
# Statement kind -> the Checker method that checks it (None: nothing to check), filled on first sight.
_STATEMENT_HANDLERS: dict = {}
_UNKNOWN = object()


def _broken(node: ts.Node) -> bool:
    """A declaration the parser gave up in or right after. Asked only when it matters: next_sibling walks
    the parent's children in tree-sitter, so asking it of every local made long bodies quadratic."""
    return node.has_error or (node.next_sibling is not None and node.next_sibling.type == "ERROR")
