"""Statement behaviors (WGSL spec, "Behavior Analysis"): how control can leave each statement.

A behavior set holds "next" (falls through), "return", "break" and
"continue". A function with a return type whose body can fall through is
missing a return; a loop whose body can neither break nor return never
exits. Tint applies these rules literally, without evaluating conditions:
`while true {}` exits (it has a condition) and `loop {}` does not, and so
do we. The same pass checks where 'break', 'continue', 'return' and
'discard' may stand. One pass over each function body.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import tree_sitter as ts

from ..syntax.nodes import (FIELD_ALTERNATIVE, FIELD_BODY, FIELD_CONDITION, FIELD_CONSEQUENCE, FIELD_INITIALIZER,
                            FIELD_NAME, FIELD_UPDATE, KIND_NAMES)

NEXT, RETURN, BREAK, CONTINUE = "next", "return", "break", "continue"
_ONLY_NEXT = frozenset({NEXT})


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a statement stands: what a 'break' or 'continue' there would leave."""

    breakable: bool = False  # inside a loop or a switch
    continuable: bool = False  # inside a loop (switches in between are fine)
    continuing: bool = False  # inside a loop's continuing block, at any depth
    # Inside that continuing block: a loop or switch (that a 'break' leaves), a loop ('continue').
    break_target_in_continuing: bool = False
    loop_in_continuing: bool = False


_FUNCTION = _Place()
# Statements that always fall through and hold no other statement.
_PLAIN_STATEMENTS = frozenset({
    "variable_declaration", "let_declaration", "const_declaration", "assignment_statement",
    "compound_assignment_statement", "increment_statement", "decrement_statement", "call_statement",
    "const_assert_statement", "empty_statement", "line_comment", "block_comment",
})


class BehaviorChecker:
    """Mixin of the checker: needs `ctx` and `stage`."""

    def check_behaviors(self, symbol, node: ts.Node) -> None:
        body = node.child_by_field_id(FIELD_BODY)
        if body is None or body.has_error:
            return  # broken code: the syntax error says what is wrong
        behaviors = self._block_behaviors(body.named_children, _FUNCTION)
        if symbol.return_type is not None and NEXT in behaviors:
            closing = body.children[-1] if body.children and body.children[-1].type == "}" else body
            name = self.ctx.text(node.child_by_field_id(FIELD_NAME)) if node.child_by_field_id(FIELD_NAME) else ""
            self.ctx.report("T018", f"missing return at end of function '{name}': control can reach the end "
                                    f"of a function that returns '{symbol.return_type.describe()}'",
                            self.ctx.span(closing))

    def _block_behaviors(self, statements, place: _Place) -> frozenset:
        behaviors, reachable = _ONLY_NEXT, True
        for statement in statements:
            kind = KIND_NAMES[statement.kind_id]  # (node.type's string, made once: syntax/nodes.py says why)
            if kind in _PLAIN_STATEMENTS:
                continue  # falls through: changes nothing
            if kind == "continuing_statement" or statement.is_extra:
                continue
            # Unreachable statements add nothing, but their loops are still checked (as Tint does).
            own = self._behaviors(statement, place)
            if reachable:
                behaviors = (behaviors - _ONLY_NEXT) | own
                reachable = NEXT in own
        return behaviors

    def _behaviors(self, node: ts.Node, place: _Place) -> frozenset:
        kind = KIND_NAMES[node.kind_id]
        if kind == "return_statement":
            if place.continuing:
                self._misplaced(node, "continuing blocks must not contain a 'return'")
            return frozenset({RETURN})
        if kind == "break_statement":
            if not place.breakable:
                self._misplaced(node, "'break' must be in a loop or a switch case")
            elif place.continuing and not place.break_target_in_continuing:
                self._misplaced(node, "'break' must not be used to leave a continuing block; use 'break if' "
                                      "as its last statement instead")
            return frozenset({BREAK})
        if kind == "continue_statement":
            if not place.continuable:
                self._misplaced(node, "'continue' must be in a loop")
            elif place.continuing and not place.loop_in_continuing:
                self._misplaced(node, "continuing blocks must not contain a 'continue'")
            return frozenset({CONTINUE})
        if kind == "discard_statement" and self.stage == "compute":
            self._misplaced(node, "'discard' cannot be used in a compute shader")
        if kind == "break_if_statement":
            return frozenset({NEXT, BREAK})
        if kind == "compound_statement":
            return self._block_behaviors(node.named_children, place)
        if kind == "if_statement":
            return self._if_behaviors(node, place)
        if kind == "switch_statement":
            return self._switch_behaviors(node, _inner_place(place, "switch"))
        if kind in ("loop_statement", "for_statement", "while_statement"):
            return self._loop_behaviors(node, _inner_place(place, "loop"), kind)
        return _ONLY_NEXT

    def _misplaced(self, node: ts.Node, message: str) -> None:
        keyword = node.children[0] if node.children else node
        self.ctx.report("T021", message, self.ctx.span(keyword))

    def _if_behaviors(self, node: ts.Node, place: _Place) -> frozenset:
        behaviors = frozenset()
        consequence = node.child_by_field_id(FIELD_CONSEQUENCE)
        if consequence is not None:
            behaviors |= self._behaviors(consequence, place)
        alternative = node.child_by_field_id(FIELD_ALTERNATIVE)
        branch = next((c for c in alternative.named_children if not c.is_extra), None) if alternative else None
        return behaviors | (self._behaviors(branch, place) if branch is not None else _ONLY_NEXT)

    def _switch_behaviors(self, node: ts.Node, place: _Place) -> frozenset:
        behaviors = frozenset()
        body = node.child_by_field_id(FIELD_BODY)
        for clause in body.named_children if body is not None else []:
            clause_body = clause.child_by_field_id(FIELD_BODY)
            if clause_body is not None:
                behaviors |= self._behaviors(clause_body, place)
        if BREAK in behaviors:
            behaviors |= _ONLY_NEXT
        return behaviors - {BREAK}

    def _loop_behaviors(self, node: ts.Node, place: _Place, kind: str) -> frozenset:
        body = node.child_by_field_id(FIELD_BODY)
        statements = body.named_children if body is not None else []
        behaviors = self._block_behaviors(statements, place)
        if kind == "loop_statement":
            continuing = next((s for s in statements if KIND_NAMES[s.kind_id] == "continuing_statement"), None)
            continuing_body = continuing.child_by_field_id(FIELD_BODY) if continuing is not None else None
            if continuing_body is not None:
                inside = _inner_place(place, "continuing")
                own = self._behaviors(continuing_body, inside)
                if behaviors != {RETURN}:
                    behaviors |= own
        else:
            for field in (FIELD_INITIALIZER, FIELD_UPDATE):  # (by id: a read by name searches the grammar's names)
                part = node.child_by_field_id(field)
                if part is not None:
                    behaviors |= self._behaviors(part, place)
        exits = BREAK in behaviors or (kind != "loop_statement" and node.child_by_field_id(FIELD_CONDITION))
        behaviors = (behaviors | _ONLY_NEXT) if exits else (behaviors - _ONLY_NEXT)
        behaviors -= {BREAK, CONTINUE}
        if not behaviors and self.ctx.target_compiler() != "naga":  # naga accepts endless loops
            what = {"loop_statement": "loop", "for_statement": "for-loop", "while_statement": "while-loop"}[kind]
            keyword = next((c for c in node.children if c.type in ("loop", "for", "while")), node)
            self.ctx.report("T019", f"{what} does not exit: nothing in it breaks out or returns",
                            self.ctx.span(keyword))
        return behaviors


# (place, what encloses) -> the place inside: there are few places, and dataclasses.replace for every
# loop of every body showed in profiles. Keyed by the place's id, not by the place, whose hash is a call of
# the dataclass's __hash__ over its five fields: every place ever asked about is _FUNCTION or one of these
# values, kept alive here, so an id names one place for good.
_INNER_PLACES: dict[tuple[int, str], _Place] = {}


def _inner_place(place: _Place, enclosing: str) -> _Place:
    inner = _INNER_PLACES.get((id(place), enclosing))
    if inner is None:
        if enclosing == "switch":
            inner = replace(place, breakable=True, break_target_in_continuing=place.continuing)
        elif enclosing == "loop":
            inner = replace(place, breakable=True, continuable=True, break_target_in_continuing=place.continuing,
                            loop_in_continuing=place.continuing)
        else:
            inner = replace(place, continuing=True, break_target_in_continuing=False, loop_in_continuing=False)
        _INNER_PLACES[(id(place), enclosing)] = inner
    return inner
