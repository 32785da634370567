"""State shared by the parts of the checker: the source, the model, diagnostics, the enabled dialect."""

from __future__ import annotations

import tree_sitter as ts

from ..core.diagnostic import Diagnostic, Fix, Related, Severity
from ..core.rules import rule
from ..core.text import SourceText, Span, SET_SPAN_END as _set_span_end, SET_SPAN_START as _set_span_start
from . import rules as _registered_rules  # noqa: F401 - the codes reported here
from .builtins.core import CORE_BUILTINS
# ENABLE_DIALECTS and EXTENSIONS are read through this module by the checker.
from .builtins.language import (DIALECT_ENABLES, DIALECTS, DIALECTS_BY_PRECEDENCE, ENABLE_DIALECTS,  # noqa: F401
                                EXTENSIONS, STANDARD_ENABLE, TINT_ENABLE)
from .builtins.table import Builtin, BuiltinTable
from .model import SemanticModel

CORE_TABLE = BuiltinTable("core", CORE_BUILTINS)
MATRIX_TABLES = {dialect.name: dialect.table for dialect in DIALECTS}

# The extensions that bring the subgroup builtins with them (language.py says which and why).
SUBGROUP_IMPLYING_ENABLES = frozenset(e.enable for e in EXTENSIONS if "subgroups" in e.implies)

_new_span = object.__new__


class Context:
    def __init__(self, source: SourceText, root: ts.Node) -> None:
        self.source = source
        # The text where it is plain ASCII (most kernels), else None: then byte offsets are character offsets,
        # and a node's text is a slice of it (read directly by the checker's commonest expressions).
        self.ascii_text = source.text if source.text.isascii() else None
        self.root = root
        self.model = SemanticModel()
        self.diagnostics: list[Diagnostic] = []
        # Depth of right operands that are never evaluated (`false && X`, `true || X`); see report_evaluation.
        self.unevaluated = 0
        self._first_dialect_use: dict[str, Span] = {}
        # The matrix dialect the configuration names ("wgpu", "chromium", "standard"), or None for auto.
        self.configured_dialect: str | None = None
        self._portability_reported: set[str] = set()
        self._enables_reported: set[str] = set()  # extensions whose missing `enable` was reported
        # entry_points.attributes() by (node id, field): a function's parameters are read by several checks.
        self.attribute_memo: dict[tuple[int, str | None], dict] = {}
        # Answers that are the same at every use within a module (a Typed is never changed once made): a
        # variable's reference and its load, and any other value declaration's Typed, by its symbol (kept
        # while the symbol's fields they were made of stay). (An int literal's, the same in every module,
        # is kept by expressions.py across modules.)
        self.variable_uses: dict[object, tuple] = {}
        self.value_uses: dict[object, object] = {}
        # Template arguments: an enumerant's Typed by its text; a templated type's, with what resolving it
        # read and wrote, by its text (ExpressionChecker._templated_type says when it is kept), a local's
        # templated declared type by its kind and text (ExpressionChecker.declared_type).
        self.enumerants: dict[str, object] = {}
        # Index and member accesses into a reference, and its address: their Typed by the reference's
        # identity and the member's name (None for an index, "&" for the address), with the reference that
        # keeps the identity its own; the reference through a pointer, by the pointer's identity and "*"; and
        # the load of each access, by the identity of its Typed (ExpressionChecker._shared_access).
        self.accesses: dict[tuple, tuple] = {}
        self.access_loads: dict[int, tuple] = {}
        self.templated_types: dict[object, tuple] = {}

    # ----------------------------------------------------------- reporting
    def report(self, code: str, message: str, span: Span, related: tuple[Related, ...] = (),
               fixes: tuple[Fix, ...] = (), severity: Severity | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, severity or rule(code).severity, related, fixes))

    def report_evaluation(self, message: str, span: Span) -> None:
        """T014 for a value that evaluating an expression would produce (out of range, division by zero,
        an index out of bounds). Tint evaluates nothing in the right operand of `false && X` or `true || X`
        (WGSL short-circuits there), so such errors inside X are not errors; type errors still are."""
        if not self.unevaluated:
            self.report("T014", message, span)

    def text(self, node: ts.Node) -> str:
        if self.ascii_text is not None:  # byte offsets are character offsets: slice, no decoding
            return self.ascii_text[node.start_byte : node.end_byte]
        return self.source.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    @staticmethod
    def span(node: ts.Node) -> Span:
        # Span's own constructor checks its bounds, which a node's offsets always meet; made without it,
        # as many spans are made here as there are declarations and variable uses.
        span = _new_span(Span)
        _set_span_start(span, node.start_byte)
        _set_span_end(span, node.end_byte)
        return span

    # ------------------------------------------------------- said once per module
    def said_once(self) -> tuple[frozenset, frozenset, dict[str, Span]]:
        """What is reported once per module and has been so far (portability notes, missing enables),
        and the first use of each matrix dialect family: a function's check depends on it."""
        return frozenset(self._portability_reported), frozenset(self._enables_reported), dict(self._first_dialect_use)

    def said_count(self) -> int:
        """How much said_once() holds: it only grows during a check, so an equal count is an equal state."""
        return len(self._portability_reported) + len(self._enables_reported) + len(self._first_dialect_use)

    def said_covers(self, said: tuple[frozenset, frozenset, frozenset]) -> bool:
        """Whether this module has said all of `said` (said_once()'s portability notes and missing enables,
        and its dialect families' names) already, and uses those families and no others, at most one."""
        portability, enables, families = said
        return len(families) <= 1 and families == self._first_dialect_use.keys() \
            and portability <= self._portability_reported and enables <= self._enables_reported

    def add_said_once(self, portability: frozenset, enables: frozenset, dialect_uses: dict[str, Span]) -> None:
        self._portability_reported |= portability
        self._enables_reported |= enables
        for family, span in dialect_uses.items():
            self._first_dialect_use.setdefault(family, span)

    # -------------------------------------------------------------- dialects
    def enabled_dialect(self) -> str | None:
        """The matrix dialect the module's enables select; with none, the one its names imply."""
        for dialect in DIALECTS_BY_PRECEDENCE:
            if dialect.enable in self.model.enables:
                return dialect.name
        return None

    def subgroup_dialect(self) -> str:
        """Which of the two dialects spelled `subgroup_matrix_*` a module means."""
        if STANDARD_ENABLE in self.model.enables and TINT_ENABLE not in self.model.enables:
            return "standard"
        return "chromium"

    def matrix_builtin(self, name: str) -> tuple[Builtin, str] | None:
        """The matrix builtin of that name, from the dialect the module uses."""
        if name.startswith("coop"):
            builtin = MATRIX_TABLES["wgpu"].get(name)
            return (builtin, "wgpu") if builtin else None
        dialect = self.subgroup_dialect()
        builtin = MATRIX_TABLES[dialect].get(name)
        return (builtin, dialect) if builtin else None

    def use_dialect(self, dialect: str, node: ts.Node, what: str) -> bool:
        """A use of a matrix type or builtin: it must belong to the dialect the module enables."""
        enabled = self.enabled_dialect()
        family = "wgpu" if dialect == "wgpu" else "subgroup"
        if enabled is not None and ("wgpu" if enabled == "wgpu" else "subgroup") != family:
            names = {"wgpu": "naga's cooperative matrices (wgpu)", "subgroup": "Tint's subgroup matrices (Dawn)"}
            other = "subgroup" if family == "wgpu" else "wgpu"
            self.report("T011", f"{what} belongs to {names[family]}, but this module enables {names[other]} "
                                f"('enable {DIALECT_ENABLES[enabled]};'); no compiler accepts both", self.span(node))
            return False
        self.note_dialect_use(dialect, node)
        self.require_enable(DIALECT_ENABLES[dialect], node, what)
        return True

    def note_dialect_use(self, dialect: str, node: ts.Node) -> None:
        """Records a use of a matrix dialect; a second family in one module is an error (T011)."""
        family = "wgpu" if dialect == "wgpu" else "subgroup"
        self.model.matrix_dialects.add(dialect)
        first = self._first_dialect_use.setdefault(family, self.span(node))
        other = "subgroup" if family == "wgpu" else "wgpu"
        if other in self._first_dialect_use and first == self.span(node):
            previous = self._first_dialect_use[other]
            names = {"wgpu": "naga's cooperative matrices (wgpu)", "subgroup": "Tint's subgroup matrices (Dawn)"}
            self.report("T011", f"this module mixes {names[other]} with {names[family]}; no compiler "
                                "accepts both", self.span(node),
                        related=(Related(previous, f"{names[other]} are used here"),))

    def target_compiler(self) -> str | None:
        """The compiler the module is written for: naga for the wgpu dialect, Tint for the others."""
        dialect = self.configured_dialect or self.enabled_dialect()
        if dialect is None:
            return None
        return "naga" if dialect == "wgpu" else "tint"

    def portability(self, compiler: str, node: ts.Node, what: str) -> bool:
        """A feature only `compiler` ("naga" or "tint") accepts.

        With the other compiler as the target this is an error (False is
        returned); otherwise a portability note (T013), once per feature.
        """
        names = {"naga": "naga (wgpu)", "tint": "Tint (Dawn, Chrome)"}
        other = "tint" if compiler == "naga" else "naga"
        if self.target_compiler() == other:
            self.report("T001", f"{what} is not supported by {names[other]}, the compiler this module targets; "
                                f"only {names[compiler]} accepts it", self.span(node))
            return False
        if what not in self._portability_reported:
            self._portability_reported.add(what)
            self.report("T013", f"{what} is only accepted by {names[compiler]}; {names[other]} rejects it",
                        self.span(node))
        return True

    def require_enable(self, extension: str, node: ts.Node, what: str) -> bool:
        """Reports a missing `enable` (once per extension) with a fix that adds it."""
        if extension in self.model.enables:
            return True
        if extension == "subgroups" and self.model.enables & SUBGROUP_IMPLYING_ENABLES:
            return True  # Tint and naga both accept subgroup builtins under the matrix extensions
        if extension in self._enables_reported:
            return False
        self._enables_reported.add(extension)
        at = self._enable_insertion_point()
        alternative = ""
        if extension == DIALECT_ENABLES["chromium"] and not self.model.enables & set(DIALECT_ENABLES.values()):
            alternative = f" (or '{DIALECT_ENABLES['standard']}', the proposed standard's spelling)"
        self.report("T007", f"{what} requires the extension '{extension}'{alternative}: add "
                            f"'enable {extension};'", self.span(node),
                    fixes=(Fix(f"Add 'enable {extension};'", ((_edit(at, f"enable {extension};\n")),)),))
        return False

    def _enable_insertion_point(self) -> int:
        last = None
        for child in self.root.children:
            if child.type in ("enable_directive", "requires_directive", "diagnostic_directive"):
                last = child
        if last is None:
            return 0
        end = last.end_byte
        data = self.source.data
        return end + 1 if data[end : end + 1] == b"\n" else end


def _edit(offset: int, text: str):
    from ..core.diagnostic import Edit

    return Edit(Span(offset, offset), text)
