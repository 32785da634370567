"""A function body that resolves module-scope declarations on first use, recorded and replayed with them.

Declarations are resolved in module order (Checker.run), each at its turn unless something uses it
first. An entry point that calls helpers declared after it (a common layout) resolves their signatures in
the middle of its body, at each first call: the resolution (a header step, header_reuse.py) runs there,
its findings land between the body's, what it says once (a portability note, an enable asked for, a
dialect's first use) is said at that moment, and the body reads the signature it set from then on.

Recorded, beside the body's record (reuse.py), per such resolution in order (`FirstUse`): the name, the
header record the step applied or made, how many of the body's own findings came before it, and the
declaration's signature once resolved. A step checked without a record (one that resolved another
declaration on the way, say) leaves the body unrecorded, as before. The body's own findings, model
entries and said-once additions leave out the steps' (those lie in the declarations' headers, and their
records hold them).

A record with such steps is valid where, besides what reuse.py validates for every body:

- each declaration is still declared under that name and not resolved when the body starts: a fresh
  check then resolves it at the same first use (the body up to there does what it did, reading what was
  validated, and nothing else resolves declarations meanwhile);
- its header has no syntax error, and the step's key is the one the step would make there: the header's
  text, the module text (header_reuse._module), whether an ERROR node follows it. What was said once
  before the step, also in the key, is what was said before the body (compared) and what the body and the
  steps before it said up to there: the recorded ones;
- the step's record is valid as header_reuse validates it (HeaderReuse.valid), a name resolved first by
  an earlier step of the same body compared with the signature that step gave it.

Every step is validated before anything is applied: a replay refused leaves no trace, and the fresh check
that follows resolves each declaration at its first use as always. The replay then adds the body's findings
up to each step, the step's record (applied as header_reuse applies one, the resolution counted and marked
as symbol_type does, the step counted and noted for the carry), then the rest.

The carry (carry.py) never takes such a body's record: its entry holds none, so the body goes through
`BodyReuse.replay` each version, which validates those few declarations, and its nested steps are noted
in their places as they are applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import types as t
from ..syntax.nodes import FIELD_BODY, KIND_NAMES


@dataclass(eq=False, slots=True)
class FirstUse:
    name: str
    record: object  # header_reuse.HeaderRecord of the step (its key's first item: "signature" or "declaration")
    cut: int  # how many of the body's own findings come before the step's
    signature: object = None  # the declaration's, once resolved (BodyReuse._signature)


class FirstUseNotes:
    """The resolutions a body being recorded starts, noted by Checker.symbol_type around each."""

    __slots__ = ("steps", "ranges", "found", "said", "refused", "_mark")

    def __init__(self) -> None:
        self.steps: list[FirstUse] = []
        self.ranges: list[tuple[int, int]] = []  # each step's declaration, where its entries lie
        self.found: list[tuple[int, int]] = []  # each step's findings: [from, to) in the checker's list
        self.said: tuple[set, set, set] = (set(), set(), set())  # what the steps said once (dialects by family)
        self.refused = False
        self._mark: tuple | None = None

    def resolution_begins(self, checker) -> None:
        ctx = checker.ctx
        checker.reuse.headers.last = None
        self._mark = (len(ctx.diagnostics), ctx.said_once())

    def resolution_ends(self, checker, symbol) -> None:
        ctx = checker.ctx
        start, said_before = self._mark
        record = checker.reuse.headers.last
        node = symbol.declaration
        if record is None or node is None or checker.module_scope.symbols.get(symbol.name) is not symbol:
            self.refused = True
            return
        end = len(ctx.diagnostics)
        own_before = start - sum(to - since for since, to in self.found)
        self.found.append((start, end))
        self.ranges.append((node.start_byte, node.end_byte))
        portability, enables, uses = ctx.said_once()
        self.said[0].update(portability - said_before[0])
        self.said[1].update(enables - said_before[1])
        self.said[2].update(uses.keys() - said_before[2].keys())
        self.steps.append(FirstUse(symbol.name, record, own_before))

    def own_diagnostics(self, diagnostics: list, first: int) -> list:
        """The body's own findings among `diagnostics` (the checker's from index `first` on)."""
        own, at = [], first
        for since, to in self.found:
            own.extend(diagnostics[at - first:since - first])
            at = to
        own.extend(diagnostics[at - first:])
        return own

    def in_a_step(self, start: int, end: int) -> bool:
        return any(low <= start and end <= high for low, high in self.ranges)


def header_end(node) -> int:
    """Where the text a declaration's resolution step reads ends (HeaderReuse.run): a function's at its body."""
    body = node.child_by_field_id(FIELD_BODY) if KIND_NAMES[node.kind_id] == "function_declaration" else None
    return body.start_byte if body is not None else node.end_byte


def valid(reuse, checker, steps: tuple) -> bool:
    """Whether each step would apply its record where the body resolves its declaration now (see above)."""
    module = checker.module_scope.symbols
    headers = reuse.headers
    data = checker.ctx.source.data
    module_text = headers._module(checker)
    resolved_before: dict = {}
    for step in steps:
        symbol = module.get(step.name)
        if symbol is None or symbol.resolved or symbol.resolving:
            return False
        node = symbol.declaration
        if node is None or node.has_error:
            return False
        start = node.start_byte
        key = step.record.key
        if key[2] != module_text or key[5] != (start in headers._before_errors) \
                or key[1] != data[start:header_end(node)]:
            return False
        if not headers.valid(checker, step.record, symbol, resolved_before):
            return False
        resolved_before[step.name] = step.signature
    return True


def apply(reuse, checker, steps: tuple, diagnostics: list, delta: int) -> None:
    """Adds the body's findings (`diagnostics`, moved by `delta`) with each step's record applied among them."""
    ctx = checker.ctx
    module = checker.module_scope.symbols
    headers, carry = reuse.headers, reuse.carry
    done = 0
    for step in steps:
        if step.cut > done:
            ctx.diagnostics.extend([d.shifted(delta) for d in diagnostics[done:step.cut]])
            done = step.cut
        symbol = module[step.name]
        node = symbol.declaration
        start, end = node.start_byte, header_end(node)
        record = step.record
        kind = record.key[0]
        offered = carry.step(kind, start, end)
        if offered is not None and offered[4] is not record:
            carry.carried -= 1  # (offered, but this body's record is the one applied: not a carried step)
        index = carry.index - 1
        checker.resolutions += 1  # as symbol_type around the step
        headers._apply(checker, record, symbol, start)
        if kind == "signature":
            symbol.type = t.ERROR  # (a function's symbol has no type: _resolve_module_symbol's answer)
        symbol.resolved = True
        headers._records.current[record.key] = record
        headers.replayed += 1
        carry.note(index, (kind, start, end, record.key, record, True))
    if done < len(diagnostics):
        ctx.diagnostics.extend([d.shifted(delta) for d in diagnostics[done:]])
