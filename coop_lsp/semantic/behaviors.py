"""Statement behaviors (WGSL spec, "Behavior Analysis"): how control can leave each statement.

A behavior set holds "next" (falls through), "return", "break" and
"continue". A function with a return type whose body can fall through is
missing a return; a loop whose body can neither break nor return never
exits. Tint applies these rules literally, without evaluating conditions:
`while true {}` exits (it has a condition) and `loop {}` does not, and so
do we. One bottom-up pass over each function body.
"""

from __future__ import annotations

import tree_sitter as ts

NEXT, RETURN, BREAK, CONTINUE = "next", "return", "break", "continue"
_ONLY_NEXT = frozenset({NEXT})


class BehaviorChecker:
    """Mixin of the checker: needs `ctx`."""

    def check_behaviors(self, symbol, node: ts.Node) -> None:
        body = node.child_by_field_name("body")
        if body is None or body.has_error:
            return  # broken code: the syntax error says what is wrong
        behaviors = self._block_behaviors(body.named_children)
        if symbol.return_type is not None and NEXT in behaviors:
            closing = body.children[-1] if body.children and body.children[-1].type == "}" else body
            name = self.ctx.text(node.child_by_field_name("name")) if node.child_by_field_name("name") else ""
            self.ctx.report("T018", f"missing return at end of function '{name}': control can reach the end "
                                    f"of a function that returns '{symbol.return_type.describe()}'",
                            self.ctx.span(closing))

    def _block_behaviors(self, statements) -> frozenset:
        behaviors, reachable = _ONLY_NEXT, True
        for statement in statements:
            if statement.is_extra or statement.type == "continuing_statement":
                continue
            # Unreachable statements add nothing, but their loops are still checked (as Tint does).
            own = self._behaviors(statement)
            if reachable:
                behaviors = (behaviors - _ONLY_NEXT) | own
                reachable = NEXT in own
        return behaviors

    def _behaviors(self, node: ts.Node) -> frozenset:
        kind = node.type
        if kind == "return_statement":
            return frozenset({RETURN})
        if kind == "break_statement":
            return frozenset({BREAK})
        if kind == "continue_statement":
            return frozenset({CONTINUE})
        if kind == "break_if_statement":
            return frozenset({NEXT, BREAK})
        if kind == "compound_statement":
            return self._block_behaviors(node.named_children)
        if kind == "if_statement":
            return self._if_behaviors(node)
        if kind == "switch_statement":
            return self._switch_behaviors(node)
        if kind in ("loop_statement", "for_statement", "while_statement"):
            return self._loop_behaviors(node)
        return _ONLY_NEXT

    def _if_behaviors(self, node: ts.Node) -> frozenset:
        behaviors = frozenset()
        consequence = node.child_by_field_name("consequence")
        if consequence is not None:
            behaviors |= self._behaviors(consequence)
        alternative = node.child_by_field_name("alternative")
        branch = next((c for c in alternative.named_children if not c.is_extra), None) if alternative else None
        return behaviors | (self._behaviors(branch) if branch is not None else _ONLY_NEXT)

    def _switch_behaviors(self, node: ts.Node) -> frozenset:
        behaviors = frozenset()
        body = node.child_by_field_name("body")
        for clause in body.named_children if body is not None else []:
            clause_body = clause.child_by_field_name("body")
            if clause_body is not None:
                behaviors |= self._behaviors(clause_body)
        if BREAK in behaviors:
            behaviors |= _ONLY_NEXT
        return behaviors - {BREAK}

    def _loop_behaviors(self, node: ts.Node) -> frozenset:
        kind = node.type
        body = node.child_by_field_name("body")
        statements = body.named_children if body is not None else []
        behaviors = self._block_behaviors(statements)
        if kind == "loop_statement":
            continuing = next((s for s in statements if s.type == "continuing_statement"), None)
            continuing_body = continuing.child_by_field_name("body") if continuing is not None else None
            if continuing_body is not None and behaviors != {RETURN}:
                behaviors |= self._behaviors(continuing_body)
        else:
            for field in ("initializer", "update"):
                part = node.child_by_field_name(field)
                if part is not None:
                    behaviors |= self._behaviors(part)
        exits = BREAK in behaviors or (kind != "loop_statement" and node.child_by_field_name("condition"))
        behaviors = (behaviors | _ONLY_NEXT) if exits else (behaviors - _ONLY_NEXT)
        behaviors -= {BREAK, CONTINUE}
        if not behaviors:
            what = {"loop_statement": "loop", "for_statement": "for-loop", "while_statement": "while-loop"}[kind]
            keyword = next((c for c in node.children if c.type in ("loop", "for", "while")), node)
            self.ctx.report("T019", f"{what} does not exit: nothing in it breaks out or returns",
                            self.ctx.span(keyword))
        return behaviors
