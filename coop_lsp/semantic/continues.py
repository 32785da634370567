"""A 'continue' that skips a declaration its loop's continuing block uses.

The continuing block runs after a 'continue', so every name it uses must
already be declared at that point. A declaration at the top of a loop body
that comes after the body's first 'continue' would be undeclared there.
Tracked during the checker's own walk: loop frames record the body's
declarations in order and the first 'continue'; names used inside a
continuing block are looked up in those frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from ..core.diagnostic import Related


@dataclass(eq=False, slots=True)
class LoopFrame:
    body_scope: object = None  # the scope of a 'loop' body; None for 'for' and 'while' (no continuing block)
    declarations: dict = field(default_factory=dict)  # symbol -> order in the body
    first_continue: ts.Node | None = None
    declared_before_continue: int = 0
    in_continuing: bool = False
    reported: bool = False


class ContinueChecker:
    """Mixin of the checker: needs `ctx`, `scope` and `loops` (a list of LoopFrame)."""

    # How many loops' continuing blocks enclose the statement being checked: only a name used inside one
    # can be a use check_continuing_use reports, and most names are used elsewhere.
    continuing_blocks = 0

    def note_loop_declaration(self, symbol) -> None:
        if self.loops:
            frame = self.loops[-1]
            if frame.body_scope is self.scope and not frame.in_continuing:
                frame.declarations[symbol] = len(frame.declarations)

    def _stmt_continue_statement(self, node: ts.Node) -> None:
        if self.loops:
            frame = self.loops[-1]
            if frame.body_scope is not None and frame.first_continue is None and not frame.in_continuing:
                frame.first_continue = node
                frame.declared_before_continue = len(frame.declarations)

    def check_continuing_use(self, symbol, node: ts.Node) -> None:
        """`symbol` is named at `node`: inside a continuing block, it must be declared before any 'continue'."""
        for frame in reversed(self.loops):
            if not frame.in_continuing or frame.first_continue is None or frame.reported:
                continue
            order = frame.declarations.get(symbol)
            if order is None or order < frame.declared_before_continue:
                continue
            frame.reported = True
            name = symbol.name
            self.ctx.report(
                "T021", f"this 'continue' skips the declaration of '{name}', which the continuing block uses; "
                        f"declare '{name}' before the first 'continue' of the loop",
                self.ctx.span(frame.first_continue),
                related=(Related(symbol.span, f"'{name}' is declared here, after the 'continue'"),
                         Related(self.ctx.span(node), "the continuing block uses it here")))
