"""Building and evaluating the uniformity graph of every function.

The rules follow the WGSL spec's uniformity analysis: control flow (CF) and
values are nodes; a branch makes the CF inside it depend on its condition;
a local variable's value after a merge depends on every assignment that
reaches it; loops get placeholder nodes that close over the next iteration.
Functions are summarised (the spec's tags) and callers use the summaries, so
a barrier inside a helper is reported when the helper is called from
non-uniform control flow, with the call chain as notes, as Tint does.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import tree_sitter as ts

from ...core.text import Span
from ...semantic.model import SemanticModel, Symbol
from ...semantic import types as t
from ...semantic.context import Context
from .graph import MAY_BE_NON_UNIFORM, MAY_BE_NON_UNIFORM_IN_WORKGROUP, Graph, Label
from .quiet import is_matrix, quiet_functions
from .splits import ALL_SIZES, LaneMath, Split, branch_split, loop_split
from ...semantic.builtins.language import NON_UNIFORM, SUBGROUP_UNIFORM
from ...syntax import nodes as sn
# The statement and expression walk reads fields and kinds by id on nodes it knows exist: one accessor call less
# per read, in its innermost loop.
from ...syntax.nodes import (
    FIELD_ALTERNATIVE, FIELD_ARGUMENTS, FIELD_BODY, FIELD_CONDITION, FIELD_CONSEQUENCE, FIELD_FUNCTION, FIELD_INDEX,
    FIELD_INITIALIZER, FIELD_LEFT, FIELD_NAME, FIELD_OPERAND, FIELD_OPERATOR, FIELD_RIGHT, FIELD_UPDATE, FIELD_VALUE,
    KIND_NAMES,
)
from .levels import (NON_UNIFORM_BUILTIN_VALUES, SUBGROUP, WORKGROUP_NON_UNIFORM_BUILTIN_VALUES, Requirement,
                     matrix_constructor_requirement, requirement)

if TYPE_CHECKING:
    from .reuse import SummaryReuse


@dataclass
class Note:
    message: str
    span: Span


@dataclass
class Failure:
    """A builtin call whose requirement is not met, with the notes that explain why."""

    requirement: Requirement
    span: Span  # the builtin's name at the call
    message: str
    notes: list[Note]
    function: str
    builtin: str
    call: Span  # the called name, to group a call's requirements
    # Set where lanes diverge only at some subgroup sizes or under some mapping of invocations to
    # subgroups (the subgroup level): what it depends on, as the message says it.
    depends: str = ""


@dataclass
class _Pending:
    requirement: Requirement
    span: Span
    message: str
    target: int
    inner_notes: list[Note] = field(default_factory=list)  # notes from inside a callee
    builtin: str = ""
    call: Span | None = None
    inherited: bool = False  # comes from a callee's summary
    control_flow: bool = False  # a requirement on the control flow at the call, not on an argument


@dataclass
class Summary:
    """What callers need to know about a function (the spec's function tags)."""

    # Requirements that hold if the function is called from uniform control flow.
    call_site: list[_Pending] = field(default_factory=list)
    # Requirements on each parameter's value.
    parameters: dict[int, list[_Pending]] = field(default_factory=dict)
    return_non_uniform: bool = False
    return_source: Note | None = None
    return_parameters: set[int] = field(default_factory=set)
    # Requirements on what a pointer parameter points to.
    pointees: dict[int, list[_Pending]] = field(default_factory=dict)
    # Pointer parameters the function writes through: index -> (non-uniform value written?, parameters
    # the written value depends on).
    pointer_writes: dict[int, tuple[bool, set[int]]] = field(default_factory=dict)


class UncalledSummary(Summary):
    """The summary of a function that no function of its module named when it was made: its failures were
    found, but not what callers inherit (every field is empty). Nothing reads it in that module; a later
    version that replays it into a caller has the function analysed again (UniformityAnalysis.whole_summary)."""


class UniformityAnalysis:
    def __init__(self, root: ts.Node, data: bytes, model: SemanticModel, level: str, dialect: str | None,
                 reuse: "SummaryReuse | None" = None, sizes: tuple[int, ...] = ALL_SIZES) -> None:
        self.root, self.data, self.model = root, data, model
        self.level, self.dialect = level, dialect
        self.sizes = tuple(sizes) or ALL_SIZES  # the subgroup sizes the targets allow
        self.summaries: dict[int, Summary] = {}
        self.failures: list[Failure] = []
        self._in_progress: set[int] = set()
        # Reuse of the previous version's results (see reuse.py): the record each function's summary
        # came from or went to, and the functions each function being analysed calls.
        self.reuse = reuse
        self.records: dict[int, object] = {}
        self.recording = True
        # Each a dict used as an ordered set: an entry point may call thousands of functions, and a list's
        # membership test made its analysis quadratic.
        self._calls: list[dict[tuple[str, int], None]] = []

    def run(self) -> list[Failure]:
        # Without reuse (which records every function), the ones that can fail nothing wait for a caller.
        quiet = quiet_functions(self.root, self.data, self.model) if self.reuse is None else ()
        for node in self.root.named_children:
            if KIND_NAMES[node.kind_id] == "function_declaration" and node.start_byte not in quiet:
                self.summary(node)
        return self.failures

    # ------------------------------------------------------------------ functions
    def summary(self, function: ts.Node) -> Summary:
        key = function.start_byte
        if self._calls:
            name = sn.name(function)
            call = (self.text(name) if name is not None else "", key)
            self._calls[-1].setdefault(call)
        if key in self.summaries:
            return self.summaries[key]
        if key in self._in_progress:  # recursion is invalid WGSL; stay quiet
            self.recording = False  # what depends on this empty summary must not be reused
            return Summary()
        replayed = None
        if self.reuse is not None:
            self._calls.append({})  # the callees a replay checks are its own, not its caller's
            replayed = self.reuse.replay(self, function)
            self._calls.pop()
        if replayed is not None:
            summary, failures, self.records[key] = replayed
            self.failures.extend(failures)
        else:
            self._in_progress.add(key)
            self._calls.append({})
            analysis = _FunctionAnalysis(self, function)
            summary = analysis.run()
            calls = list(self._calls.pop())
            self._in_progress.discard(key)
            self.failures.extend(analysis.failures)
            if self.reuse is not None:
                self.records[key] = self.reuse.record(self, function, summary, analysis.failures, calls)
        self.summaries[key] = summary
        return summary

    def whole_summary(self, function: ts.Node) -> Summary:
        """The summary of a function replayed from an UncalledSummary, for a caller that reads it: the
        function analysed again. Its callees' summaries are this analysis's already (the replay asked for
        each), and its failures were replayed, so only the summary is new."""
        self._calls.append({})  # the callees are the function's, not the reading caller's
        try:
            return _FunctionAnalysis(self, function, whole=True).run()
        finally:
            self._calls.pop()

    # The source as a str when it is plain ASCII (most kernels): byte offsets are then character offsets,
    # and a name is a slice rather than a decoding. False until first asked.
    _ascii: str | None | bool = False

    def text(self, node: ts.Node) -> str:
        ascii_text = self._ascii
        if ascii_text is False:
            ascii_text = self._ascii = self.data.decode("ascii") if self.data.isascii() else None
        if ascii_text is not None:
            return ascii_text[node.start_byte : node.end_byte]
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


class _FunctionAnalysis:
    def __init__(self, owner: UniformityAnalysis, function: ts.Node, whole: bool = False) -> None:
        self.owner = owner
        self.function = function
        self.whole = whole  # a caller reads the summary: make every part of it
        self.graph = Graph()
        # What the expression walk reads at every name: bound once, not looked up through owner and model
        # each time; the checker's own table is read first, without the call of symbol_at (which reads it
        # first too, then the replayed bodies'). The graph's node list is never replaced, so a new node may
        # be appended to it directly.
        self._written_references = owner.model.written_references
        self._symbol_at = owner.model.symbol_at
        self._edges = self.graph.edges
        # The source is searched over this function's text only: a version analyses one function again,
        # and its document may be thousands of lines long.
        start, end, data = function.start_byte, function.end_byte, owner.data
        self.exits = _ExitIndex(data, start, end)  # how control leaves each statement
        # Whether `&&` or `||` is spelled in the function (comments too): where neither is, no binary
        # operation is a branch, and the walk need not make each operator's node to ask.
        self.logical = data.find(b"&&", start, end) >= 0 or data.find(b"||", start, end) >= 0
        name = sn.name(function)
        self.name = owner.text(name) if name is not None else ""
        # The function as the model knows it: its stage, its parameters' types and IO, its sizes.
        symbol = owner.model.symbol_at(name.start_byte, name.end_byte) if name is not None else None
        self.symbol = symbol if symbol is not None and symbol.kind == "function" else None
        self.stage = self.symbol.stage if self.symbol is not None else None
        self.cf_start = self.graph.node()
        self.parameters: dict[int, int] = {}  # declaration start byte -> parameter value node
        self.parameter_index: dict[int, int] = {}  # parameter value node -> index
        self.variables: dict[int, int] = {}  # declaration start byte -> current value node
        self.value_return = self.graph.node()
        self.pointees: dict[int, int] = {}  # pointer parameter index -> node of the value it points to
        self.pointer_writes: dict[int, int] = {}  # pointer parameter index -> node of the values written
        self.parameter_symbols: dict[int, int] = {}  # declaration start byte -> parameter index
        self.aliases: dict[int, int] = {}  # `let p = &v`: declaration of p -> declaration of v
        self.pending: list[_Pending] = []
        self.failures: list[Failure] = []  # this function's own, added to the owner's when it is done
        self.breaks: list[list[int]] = []
        self.continues: list[list[int]] = []
        # The subgroup level's second kind of non-uniformity: lanes that diverge only at some subgroup
        # sizes or under some mapping (splits.py). Requirements that reach only this node are warnings.
        self.split_goal = self.graph.node()
        self._math: LaneMath | None = None

    @property
    def math(self) -> LaneMath:
        if self._math is None:
            self._math = LaneMath(self.owner.model, self.owner.text, self._workgroup())
        return self._math

    def _workgroup(self) -> tuple[int, int, int] | None:
        """This entry point's workgroup size, where every dimension is a known constant."""
        name = sn.name(self.function)
        symbol = self.owner.model.symbol_at(name.start_byte, name.end_byte) if name is not None else None
        if symbol is None or symbol.kind != "function" or symbol.stage != "compute":
            return None
        dims = symbol.workgroup_size
        if dims and len(dims) == 3 and all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in dims):
            return (dims[0], dims[1], dims[2])
        return None

    def _sizes_and_invocations(self) -> tuple[tuple[int, ...], int | None]:
        """The subgroup sizes this function may run at (an entry point's @subgroup_size pins one) and its
        workgroup's invocation count where known."""
        symbol = self.symbol
        sizes, invocations = self.owner.sizes, None
        if symbol is not None and symbol.stage == "compute":
            if symbol.subgroup_size:
                sizes = (symbol.subgroup_size,)
            dims = symbol.workgroup_size
            if dims and all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
                invocations = dims[0] * dims[1] * dims[2] if len(dims) == 3 else None
        return sizes, invocations

    def _split_value(self, split: Split, value: int, span: Span) -> int:
        """The condition's value at the subgroup level, given how it splits a subgroup."""
        if not self.graph.reaches(value, MAY_BE_NON_UNIFORM):
            return value  # uniform whatever the pattern says
        if split.uniform:
            return self.graph.node()  # the same in every lane of a subgroup, at every allowed size
        if split.certain:
            return self.graph.node(value, label=Label("reason", split.reason, span))
        return self.graph.node(self.graph.node(self.split_goal, label=Label("split", split.depends_on(), span)),
                               label=Label("reason", split.reason, span))

    def run(self) -> Summary:
        self._parameters()
        body = sn.body(self.function)
        if body is not None:
            self.block(body, self.cf_start)
        return self._evaluate()

    def _parameters(self) -> None:
        params = sn.parameters(self.function)
        inputs = self.symbol.inputs if self.symbol is not None else ()
        types = self.symbol.parameters if self.symbol is not None else ()
        index = 0
        for parameter in params.named_children if params is not None else []:
            if KIND_NAMES[parameter.kind_id] != "parameter":
                continue
            node = self.graph.node()
            level = self.owner.level
            builtin, located = inputs[index] if index < len(inputs) else (None, False)
            builtins = [builtin] if builtin else \
                (_struct_builtins(types[index] if index < len(types) else None) if self.stage else [])
            if any(b in NON_UNIFORM_BUILTIN_VALUES[level] for b in builtins) or (self.stage and located):
                self.graph.add_edge(node, MAY_BE_NON_UNIFORM)
            elif level != SUBGROUP and any(b in WORKGROUP_NON_UNIFORM_BUILTIN_VALUES for b in builtins):
                self.graph.add_edge(node, MAY_BE_NON_UNIFORM_IN_WORKGROUP)
            self.parameters[parameter.start_byte] = node
            self.parameter_index[node] = index
            self.parameter_symbols[parameter.start_byte] = index
            index += 1

    def _evaluate(self) -> Summary:
        summary = Summary()
        graph = self.graph
        failed = set()
        failures = []
        # Which requirements can reach a goal at all, found once for all of them: only those need the
        # search for their path (the same path as before: the question is only skipped where it has none).
        # Each set is read only for the targets of one scope's requirements (non_uniform and split for the
        # subgroup scope's, in_workgroup for the workgroup's), so a goal none of them depends on needs no
        # backward search: an empty set answers alike. In a correct kernel that is every goal.
        asked = bool(self.pending)
        seen: set[int] = set()
        graph.spread([p.target for p in self.pending if p.requirement.scope != "subgroup uniform"], seen)
        workgroup_met = MAY_BE_NON_UNIFORM in seen or MAY_BE_NON_UNIFORM_IN_WORKGROUP in seen
        graph.spread([p.target for p in self.pending if p.requirement.scope == "subgroup uniform"], seen)
        non_uniform = graph.reaching((MAY_BE_NON_UNIFORM,)) if MAY_BE_NON_UNIFORM in seen else set()
        in_workgroup = graph.reaching((MAY_BE_NON_UNIFORM_IN_WORKGROUP,), known=non_uniform) \
            if workgroup_met else set()
        split = graph.reaching((self.split_goal,)) if self.split_goal in seen and self.owner.level == SUBGROUP \
            else set()
        # Where no goal can be reached, no requirement fails, and the order they are asked in is moot.
        for pending in _tint_order(self.pending) if non_uniform or in_workgroup or split else ():
            subgroup = pending.requirement.scope == "subgroup uniform"
            target = pending.target
            path = None
            if target in (non_uniform if subgroup else in_workgroup):
                goals = {MAY_BE_NON_UNIFORM} if subgroup else {MAY_BE_NON_UNIFORM, MAY_BE_NON_UNIFORM_IN_WORKGROUP}
                path = graph.path_to(target, goals)
            depends = ""
            if path is None and subgroup and target in split:
                path = graph.path_to(target, self.split_goal)
                if path is not None:
                    depends = next(graph.labels[n].message for n in path
                                   if n in graph.labels and graph.labels[n].kind == "split")
            if path is not None:
                failed.add(id(pending))
                failures.append((pending, Failure(pending.requirement, pending.span, pending.message,
                                                  pending.inner_notes + self._notes(path), self.name,
                                                  pending.builtin, pending.call or pending.span, depends)))
        if len(failures) > 1:  # which one Tint reports first (only then is the walk worth its time)
            reported = _tint_report(graph, self.pending)
            failures.sort(key=lambda item: item[0] is not reported)
        self.failures.extend(failure for _, failure in failures)
        if not self._may_be_called():
            # The rest is what callers inherit, and there are none. A summary that outlives this analysis
            # says so: a later version that calls the function has it analysed again (reuse.py).
            return summary if self.owner.reuse is None else UncalledSummary()
        self._inherited(summary, failed, asked)
        return summary

    def _inherited(self, summary: Summary, failed: set[int], asked: bool) -> None:
        """The summary's parts that callers read: the requirements on the control flow at a call, on the
        arguments and on what they point to; what the returned value and pointer writes depend on."""
        graph = self.graph
        parameter_nodes = set(self.parameter_index)
        # What callers inherit keeps source order: Tint explains a call by the callee's first requirement.
        pointee_nodes = {node: index for index, node in self.pointees.items()}
        to_control_flow = graph.reaching((self.cf_start,)) if asked else set()
        to_parameters = graph.reaching(parameter_nodes) if asked and parameter_nodes else set()
        to_pointees = graph.reaching(pointee_nodes) if asked and pointee_nodes else set()
        # The requirements of one call share its argument nodes, so their paths and notes are found once
        # per node (notes are never changed once made, so the requirements may share them).
        via_parameter: dict[int, tuple[int, list[Note]]] = {}
        via_pointee: dict[int, tuple[int, list[Note]]] = {}
        for pending in self.pending:
            if id(pending) in failed:
                continue
            target = pending.target
            if target in to_control_flow:
                summary.call_site.append(pending)
            if target in to_parameters:
                found = via_parameter.get(target)
                if found is None:
                    path = graph.path_to(target, parameter_nodes)
                    found = via_parameter[target] = (self.parameter_index[path[-1]], self._notes(path))
                index, notes = found
                summary.parameters.setdefault(index, []).append(
                    _Pending(pending.requirement, pending.span, pending.message, -1, pending.inner_notes + notes,
                             pending.builtin, pending.call))
            if target in to_pointees:
                found = via_pointee.get(target)
                if found is None:
                    path = graph.path_to(target, set(pointee_nodes))
                    found = via_pointee[target] = (pointee_nodes[path[-1]], self._notes(path))
                index, notes = found
                summary.pointees.setdefault(index, []).append(
                    _Pending(pending.requirement, pending.span, pending.message, -1, pending.inner_notes + notes,
                             pending.builtin, pending.call))
        path = graph.path_to(self.value_return, MAY_BE_NON_UNIFORM)
        if path is not None:
            summary.return_non_uniform = True
            notes = self._notes(path)
            summary.return_source = notes[-1] if notes else None
        for node, index in self.parameter_index.items():
            if graph.reaches(self.value_return, node):
                summary.return_parameters.add(index)
        for index, written in self.pointer_writes.items():
            depends = {i for n, i in self.parameter_index.items() if graph.reaches(written, n)}
            summary.pointer_writes[index] = (graph.reaches(written, MAY_BE_NON_UNIFORM), depends)

    def _may_be_called(self) -> bool:
        """Whether anything could read this function's summary: a call names the function, so a name
        spelled nowhere else in the module has no caller (entry points, most of all). Finding each
        requirement's path to a parameter, for callers that do not exist, was the largest part of
        evaluating a kernel.

        With reuse, summaries outlive this analysis: a later version may replay one into a caller written
        since, and then analyses the function again (UncalledSummary). Only entry points are asked then:
        calling one is invalid WGSL, while a helper without a caller is mostly one about to get one, and
        the search of the text for its name would be spent on it twice."""
        name = sn.name(self.function)
        if name is None or self.whole or (self.owner.reuse is not None and self.stage is None):
            return True
        return self.owner.data.count(self.owner.data[name.start_byte:name.end_byte]) > 1

    def _notes(self, path: list[int]) -> list[Note]:
        labels = [self.graph.labels[n] for n in path if n in self.graph.labels]
        branches = [label for label in labels if label.kind == "branch"]
        notes = []
        if branches:
            notes.append(Note(branches[-1].message, branches[-1].span))
        through_control_flow = bool(branches)
        for label in labels:
            if label.kind == "reason":
                notes.append(Note(label.message, label.span))
            if label.kind in {"source", "passed"}:
                span = label.control_span if through_control_flow and label.control_span else label.span
                notes.append(Note(label.message, span))
        return notes

    # ----------------------------------------------------------------- statements
    def block(self, node: ts.Node, cf: int) -> int:
        reachable = True
        for child in node.named_children:
            # As in Tint, statements after one that never falls through (a return, break or continue,
            # or an if whose branches all leave) are unreachable and are not analysed: a barrier there
            # never runs, so it cannot be called from non-uniform control flow. A loop's continuing
            # block is reached by 'continue', not by falling through, so it is analysed regardless.
            kind = KIND_NAMES[child.kind_id]  # (node.type's string, made once: syntax/nodes.py says why)
            if not reachable and kind != "continuing_statement":
                continue
            cf = self.statement(child, cf, kind)
            if reachable and kind in _MAY_STOP and not _falls_through(child, self.exits):
                reachable = False
        return cf

    def statement(self, node: ts.Node, cf: int, kind: str | None = None) -> int:
        if kind is None:
            kind = KIND_NAMES[node.kind_id]
        if kind == "compound_statement":
            return self.block(node, cf)
        if kind in {"let_declaration", "const_declaration", "variable_declaration"}:
            value_node = node.child_by_field_id(FIELD_VALUE)
            # (Only `&v` may be an alias: other values are not asked.)
            target = self._alias_target(value_node) if value_node is not None \
                and KIND_NAMES[value_node.kind_id] == "unary_expression" else None
            if kind == "let_declaration" and target is not None:
                self.aliases[node.start_byte] = target
                return cf
            if kind == "variable_declaration":
                self._matrix_variable(node, cf)
            value = self.expression(value_node, cf) if value_node is not None else cf
            self.variables[node.start_byte] = value
            return cf
        if kind == "assignment_statement" or kind == "compound_assignment_statement":
            right = node.child_by_field_id(FIELD_RIGHT)
            value = self.expression(right, cf) if right is not None else cf
            left = node.child_by_field_id(FIELD_LEFT)
            if left is not None and KIND_NAMES[left.kind_id] != "phony":
                cf = self.store(left, cf, value, compound=kind == "compound_assignment_statement")
            return cf
        if kind in {"increment_statement", "decrement_statement"}:
            operand = node.child_by_field_id(FIELD_OPERAND)
            return self.store(operand, cf, cf, compound=True) if operand is not None else cf
        if kind == "call_statement":
            call = node.named_children[0] if node.named_children else None
            if call is not None:
                self.expression(call, cf)
            return cf
        if kind == "if_statement":
            return self._if(node, cf)
        if kind == "switch_statement":
            return self._switch(node, cf)
        if kind in {"loop_statement", "for_statement", "while_statement"}:
            return self._loop(node, cf, kind)
        if kind == "return_statement":
            value = node.child_by_field_id(FIELD_VALUE)
            if value is not None:
                self.graph.add_edge(self.value_return, self.expression(value, cf))
            self.graph.add_edge(self.value_return, cf)
            return cf
        if kind == "break_statement":
            if self.breaks:
                self.breaks[-1].append(cf)
            return cf
        if kind == "continue_statement":
            if self.continues:
                self.continues[-1].append(cf)
            return cf
        if kind == "break_if_statement":
            condition = node.child_by_field_id(FIELD_CONDITION)
            value = self.expression(condition, cf) if condition is not None else cf
            if self.breaks:
                self.breaks[-1].append(self._branch(_keyword(node, "break"), cf, value))
            return cf
        if kind == "continuing_statement":
            body = node.child_by_field_id(FIELD_BODY)
            return self.block(body, cf) if body is not None else cf
        return cf

    def _alias_target(self, value: ts.Node | None) -> int | None:
        """`&v` of a function variable: the declaration a `let p = &v` points to."""
        if value is None or KIND_NAMES[value.kind_id] != "unary_expression":
            return None
        operator, operand = value.child_by_field_id(FIELD_OPERATOR), value.child_by_field_id(FIELD_OPERAND)
        if operator is None or self.owner.text(operator) != "&" or operand is None \
                or KIND_NAMES[operand.kind_id] != "identifier":
            return None
        symbol = self.owner.model.symbol_at(operand.start_byte, operand.end_byte)
        if symbol is None or symbol.declaration is None or symbol.declaration.start_byte not in self.variables:
            return None
        return symbol.declaration.start_byte

    def _matrix_variable(self, node: ts.Node, cf: int) -> None:
        name = node.child_by_field_id(FIELD_NAME)
        symbol = self.owner.model.symbol_at(name.start_byte, name.end_byte) if name is not None else None
        if symbol is None or not t.contains(symbol.type, is_matrix):
            return
        rule = matrix_constructor_requirement(self.owner.dialect or "chromium")
        keyword = _keyword(node, "var")
        span = _span(keyword)
        self.pending.append(_Pending(rule, span, "variables that contain subgroup matrix types cannot be declared "
                                                 "in non-uniform control flow", self.graph.node(cf), [], "var", span,
                                     False, True))

    def _branch(self, keyword: ts.Node, cf: int, value: int) -> int:
        return self.graph.node(cf, value, label=Label("branch", "control flow depends on possibly non-uniform "
                                                               "value", _span(keyword)))

    def _if(self, node: ts.Node, cf: int) -> int:
        condition = node.child_by_field_id(FIELD_CONDITION)
        value = self.expression(condition, cf) if condition is not None else cf
        if self.owner.level == SUBGROUP and condition is not None:
            sizes, invocations = self._sizes_and_invocations()
            split = branch_split(condition, self.math, sizes, invocations)
            if split is not None:
                value = self._split_value(split, value, _span(condition))
        branch = self._branch(_keyword(node, "if"), cf, value)
        before = dict(self.variables)
        ends, states = [], []
        consequence = node.child_by_field_id(FIELD_CONSEQUENCE)
        if consequence is not None:
            ends.append(self.block(consequence, branch))
            states.append(self.variables)
        alternative = node.child_by_field_id(FIELD_ALTERNATIVE)
        self.variables = dict(before)
        if alternative is not None:
            inner = alternative.named_children[0] if alternative.named_children else None
            if inner is not None:
                ends.append(self.statement(inner, branch) if KIND_NAMES[inner.kind_id] == "if_statement"
                            else self.block(inner, branch))
        states.append(self.variables)
        self._merge(before, states, branch)
        return self.graph.node(*ends) if _escapes(node, self.exits) else cf

    def _switch(self, node: ts.Node, cf: int) -> int:
        selector = node.child_by_field_id(FIELD_VALUE)
        value = self.expression(selector, cf) if selector is not None else cf
        branch = self._branch(_keyword(node, "switch"), cf, value)
        before = dict(self.variables)
        states, ends = [], []
        body = node.child_by_field_id(FIELD_BODY)
        self.breaks.append([])
        for clause in body.named_children if body is not None else []:
            clause_body = clause.child_by_field_id(FIELD_BODY)
            if clause_body is None:
                continue
            self.variables = dict(before)
            ends.append(self.block(clause_body, branch))
            states.append(self.variables)
        self.breaks.pop()
        self._merge(before, states or [before], branch)
        return self.graph.node(*ends) if _escapes(node, self.exits, allow_break=True) else cf

    def _merge(self, before: dict[int, int], states: list[dict[int, int]], branch: int) -> None:
        merged = {}
        for key in before:
            values = {state.get(key, before[key]) for state in states}
            merged[key] = values.pop() if len(values) == 1 else self.graph.node(*values)
        for state in states:
            for key, value in state.items():
                if key not in merged:
                    merged[key] = value
        self.variables = merged

    def _loop(self, node: ts.Node, cf: int, kind: str) -> int:
        graph = self.graph
        if kind == "for_statement":
            initializer = node.child_by_field_id(FIELD_INITIALIZER)
            if initializer is not None:
                cf = self.statement(initializer, cf)
        # Placeholders: the value of each variable at the top of an iteration depends on the
        # previous iteration too; the back edges are added when the body is known.
        # (Numbered in the order of the variables, so a variable's key and its placeholder pair by position.)
        keys = list(self.variables)
        placeholders = graph.copies(self.variables.values())
        self.variables = dict(zip(keys, placeholders))
        loop_cf = graph.node(cf)
        body_cf = loop_cf
        self.breaks.append([])
        self.continues.append([])
        keyword = _keyword(node, _LOOP_KEYWORDS[kind])
        condition = node.child_by_field_id(FIELD_CONDITION)
        if condition is not None:
            value = self.expression(condition, loop_cf)
            if self.owner.level == SUBGROUP:
                sizes = self._sizes_and_invocations()[0]
                split = loop_split(node, self.math, sizes, lambda body, name: _assigns(body, name, self.owner))
                header = Span(node.start_byte, (node.child_by_field_id(FIELD_BODY) or node).start_byte)
                if split is None:
                    # Say why the lanes may leave at different iterations: only counting loops are counted.
                    split = Split(sizes, sizes, "it is not a loop coop-lint can count (`for (var i = start; "
                                                "i < bound; i += step)` with a u32 counter the body leaves alone)")
                if split.uniform:
                    value = loop_cf  # every lane leaves the loop at the same iteration
                else:
                    split = Split(split.diverging, split.sizes, f"the trip count may differ between lanes: {split.reason}")
                    value = self._split_value(split, value, header)
            body_cf = self._branch(keyword, body_cf, value)
        body = node.child_by_field_id(FIELD_BODY)
        end = self.block(body, body_cf) if body is not None else body_cf
        continues = self.continues.pop()
        breaks = self.breaks.pop()
        if kind == "for_statement":
            update = node.child_by_field_id(FIELD_UPDATE)
            if update is not None:
                end = self.statement(update, graph.node(end, *continues))
        graph.add_edge(loop_cf, end)
        for continued in continues + breaks:
            graph.add_edge(loop_cf, continued)
        variables = self.variables
        # Each variable known at the top, with its value at the end; those declared inside end with the
        # loop. (Merges keep every key they are given, in order, so the keys known at the top come first.)
        ends = list(map(variables.get, keys, placeholders))
        graph.add_edges(zip(placeholders, ends))
        if len(variables) != len(keys):
            self.variables = dict(zip(keys, ends))
        return graph.node(end) if _escapes(node, self.exits, allow_break=True, allow_continue=True) else cf

    def store(self, target: ts.Node, cf: int, value: int, compound: bool) -> int:
        """An assignment: the variable's new value depends on the value and on the control flow."""
        root = target
        kind = KIND_NAMES[root.kind_id]
        while kind in {"index_expression", "member_expression", "paren_expression", "unary_expression"}:
            if kind == "index_expression":
                index = root.child_by_field_id(FIELD_INDEX)
                if index is not None:
                    value = self.graph.pair(value, self.expression(index, cf))
            inner = root.child_by_field_id(FIELD_VALUE) or root.child_by_field_id(FIELD_OPERAND)
            if inner is None and root.named_children:
                inner = root.named_children[0]
            if inner is None:
                return cf
            partial = kind in {"index_expression", "member_expression"}
            compound = compound or partial
            root = inner
            kind = KIND_NAMES[root.kind_id]
        if kind != "identifier":
            return cf
        symbol = self.owner.model.symbol_at(root.start_byte, root.end_byte)
        if symbol is None or symbol.declaration is None:
            return cf
        key = self.aliases.get(symbol.declaration.start_byte, symbol.declaration.start_byte)
        if key in self.parameter_symbols:  # writing through a pointer parameter
            index = self.parameter_symbols[key]
            written = self.graph.pair(value, cf)
            previous = self.pointer_writes.get(index)
            self.pointer_writes[index] = self.graph.pair(written, previous) if previous is not None else written
            return cf
        if key in self.variables:
            previous = self.variables[key]
            # As in Tint, the new value depends on the control flow only through the value assigned
            # (every value carries the control flow it was computed in), so a value made in non-uniform
            # control flow keeps pointing at the call that made it.
            self.variables[key] = self.graph.pair(value, previous) if compound else self.graph.node(value)
        return cf

    # ----------------------------------------------------------------- expressions
    def expression(self, node: ts.Node, cf: int) -> int:
        """The value of an expression evaluated in control flow `cf`.

        An expression never changes the control flow: a call's requirements are on the control flow it
        is made in, and what follows runs in that same control flow (a `&&`'s right operand aside, whose
        control flow stays inside it). So the walk hands back the value only. The kinds are tested most
        frequent first, and an operand that is a name or a literal is answered without a call of its own.
        """
        kind = KIND_NAMES[node.kind_id]
        # A member access or a parenthesised expression has its base's value: unwrapped here, not by a call
        # of the walk for each (`params.n`, `(a + b)`).
        while kind == "member_expression" or kind == "paren_expression":
            if kind == "member_expression":
                node = node.child_by_field_id(FIELD_VALUE)
                if node is None:
                    return cf
            else:
                children = node.named_children
                if not children:
                    return cf
                node = children[0]
            kind = KIND_NAMES[node.kind_id]
        if kind == "identifier":
            return self._identifier(node, cf)
        if kind == "binary_expression":
            left, right = node.child_by_field_id(FIELD_LEFT), node.child_by_field_id(FIELD_RIGHT)
            if left is None or right is None:
                return cf
            leaf = KIND_NAMES[left.kind_id]
            left_value = self._identifier(left, cf) if leaf == "identifier" else \
                cf if leaf in _CONSTANT_LEAVES else self.expression(left, cf)
            if self.logical and self._logical_operator(node):
                # The right operand runs only where the left allows: a branch.
                rhs_cf = self.graph.node(cf, left_value, label=Label(
                    "branch", "control flow depends on possibly non-uniform value",
                    _span(node)))
                # The result is the right operand's, computed where the left one allowed (Tint's path).
                return self.graph.node(self.expression(right, rhs_cf), rhs_cf)
            leaf = KIND_NAMES[right.kind_id]
            right_value = self._identifier(right, cf) if leaf == "identifier" else \
                cf if leaf in _CONSTANT_LEAVES else self.expression(right, cf)
            edges = self._edges  # (Graph.pair, without its call)
            edges.append([left_value, right_value])
            return len(edges) - 1
        if kind in _CONSTANT_LEAVES:
            return cf
        if kind == "call_expression":
            return self.call(node, cf)
        if kind == "index_expression":
            base, index = node.child_by_field_id(FIELD_VALUE), node.child_by_field_id(FIELD_INDEX)
            base_value = self.expression(base, cf) if base is not None else cf
            index_value = self.expression(index, cf) if index is not None else cf
            edges = self._edges  # (Graph.pair, without its call)
            edges.append([base_value, index_value])
            return len(edges) - 1
        if kind == "unary_expression":
            operand = node.child_by_field_id(FIELD_OPERAND)
            operator = node.child_by_field_id(FIELD_OPERATOR)
            if operator is not None and self.owner.text(operator) == "&":
                return self._address_of(operand, cf)
            if operator is not None and self.owner.text(operator) == "*" and operand is not None \
                    and KIND_NAMES[operand.kind_id] == "identifier":
                pointee = self._dereference(operand, cf)
                if pointee is not None:
                    return pointee
            return self.expression(operand, cf) if operand is not None else cf
        return cf

    def _logical_operator(self, node: ts.Node) -> bool:
        """Whether a binary operation is `&&` or `||`."""
        operator = node.child_by_field_id(FIELD_OPERATOR)
        # The type of an operator token is its text, except for one the parser made up (missing).
        return operator is not None and KIND_NAMES[operator.kind_id] in {"&&", "||"} \
            and self.owner.text(operator) in {"&&", "||"}

    def _address_of(self, operand: ts.Node | None, cf: int) -> int:
        """A pointer is as uniform as the indices that select its element; the memory is not read."""
        value = cf
        while operand is not None and KIND_NAMES[operand.kind_id] in (
                "index_expression", "member_expression", "paren_expression"):
            if KIND_NAMES[operand.kind_id] == "index_expression":
                index = operand.child_by_field_id(FIELD_INDEX)
                if index is not None:
                    value = self.graph.pair(value, self.expression(index, cf))
            operand = operand.child_by_field_id(FIELD_VALUE) or (
                operand.named_children[0] if operand.named_children else None)
        return value

    def _dereference(self, pointer: ts.Node, cf: int) -> int | None:
        symbol = self.owner.model.symbol_at(pointer.start_byte, pointer.end_byte)
        if symbol is None or symbol.declaration is None:
            return None
        key = symbol.declaration.start_byte
        if key in self.aliases:
            return self.graph.pair(cf, self.variables.get(self.aliases[key], cf))
        if key in self.parameter_symbols and isinstance(symbol.type, t.Pointer):
            index = self.parameter_symbols[key]
            if index not in self.pointees:
                self.pointees[index] = self.graph.node()
            return self.graph.node(cf, self.pointees[index], label=Label(
                "source", f"parameter '{symbol.name}' of '{self.name}' may point to a non-uniform value",
                symbol.span))
        return None

    def _identifier(self, node: ts.Node, cf: int) -> int:
        start, end = node.start_byte, node.end_byte
        symbol = self._written_references.get((start, end))
        if symbol is None:
            symbol = self._symbol_at(start, end)  # a replayed body's, or none
            if symbol is None:
                return cf
        declaration = symbol.declaration
        if declaration is None:
            return cf
        key = declaration.start_byte
        value = self.variables.get(key)  # (a node number, never None)
        if value is not None:
            edges = self._edges  # (Graph.pair, without its call)
            edges.append([cf, value])
            return len(edges) - 1
        if symbol.kind == "parameter":
            span = _span(node)
            parameter = self.parameters.get(key)
            if parameter is None:
                return cf
            builtin, located = symbol.io_builtin, symbol.io_location
            if builtin is not None:
                return self._labelled(cf, parameter, Label(
                    "source", f"builtin '{symbol.name}' of '{self.name}' may be non-uniform", span))
            if self.stage and located:
                return self._labelled(cf, parameter, Label(
                    "source", f"user-defined input '{symbol.name}' of '{self.name}' may be non-uniform", span))
            # Tint points at the use when the value flows into an argument, and at the declaration
            # when control flow depends on it.
            return self._labelled(cf, parameter, Label(
                "source", f"parameter '{symbol.name}' of '{self.name}' may be non-uniform", span,
                control_span=None if self.stage else symbol.span))
        if symbol.kind == "var":
            return self._module_variable(symbol, node, cf)
        return cf  # const, override, module-scope let-like values are uniform

    def _labelled(self, cf: int, source: int, label: Label) -> int:
        """A value that depends on the control flow and on a source of non-uniformity; the label names the
        source, so it goes on a node of its own: a path that reaches the control flow instead must not
        name it."""
        return self.graph.pair(cf, self.graph.node(source, label=label))

    def _module_variable(self, symbol: Symbol, node: ts.Node, cf: int) -> int:
        space, access = symbol.space, symbol.access
        if self.owner.level == SUBGROUP and (space == "workgroup" or (space == "storage" and access == "read_write")):
            # One load by a subgroup at one address gives every lane the same value: shared memory is
            # as uniform as the index it is read at (index_expression adds the index). Tint cannot
            # know that other invocations do not write in between; within a subgroup they cannot.
            return cf
        if space == "storage" and access == "read_write":
            message = f"reading from read_write storage buffer '{symbol.name}' may result in a non-uniform value"
        elif space == "workgroup":
            message = f"reading from workgroup storage variable '{symbol.name}' may result in a non-uniform value"
        elif space == "private":
            message = f"reading from module-scope private variable '{symbol.name}' may result in a non-uniform value"
        else:
            return cf
        # (The read's span only now: most module variables a kernel reads, uniforms and read-only buffers,
        # are uniform and name no source.)
        return self._labelled(cf, MAY_BE_NON_UNIFORM, Label("source", message, _span(node)))

    def call(self, node: ts.Node, cf: int) -> int:
        callee = node.child_by_field_id(FIELD_FUNCTION)
        arguments = node.child_by_field_id(FIELD_ARGUMENTS)
        arg_nodes = [a for a in (arguments.named_children if arguments is not None else [])
                     if KIND_NAMES[a.kind_id] not in {"line_comment", "block_comment"}]
        name_node = callee.child_by_field_id(FIELD_NAME) if callee is not None and \
            KIND_NAMES[callee.kind_id] == "templated_identifier" else callee
        name = self.owner.text(name_node) if name_node is not None else ""
        values = [self.expression(arg, cf) for arg in arg_nodes]
        span = _span(name_node) if name_node is not None else Span(0, 0)
        symbol = (self._written_references.get((span.start, span.end)) or self._symbol_at(span.start, span.end)) \
            if name_node else None
        if symbol is not None and symbol.kind == "function" and symbol.declaration is not None:
            return self._user_call(symbol, span, cf, values, arg_nodes)
        constructed = self.owner.model.type_at(node.start_byte, node.end_byte, "call_expression")
        # The checker recorded which builtin the name means (also one of another dialect, which it reports).
        target = self.owner.model.builtin_call(span.start, span.end) if name_node is not None else None
        builtin = target.builtin if target is not None else None
        dialect = target.dialect if target is not None else None
        if dialect is not None and dialect != "wgpu":
            # Tint's two spellings share the builtins; the rule name a filter switches off is the one of the
            # dialect the analysis runs for.
            dialect = self.owner.dialect if self.owner.dialect in {"chromium", "standard"} else "chromium"
        needed = requirement(builtin, dialect) if builtin is not None else None
        is_builtin = builtin is not None
        call_node = cf
        if needed is not None or isinstance(constructed, t.CoopMatrix):
            # Tint's call and argument nodes: the requirements on the control flow at the call and on each
            # argument point at them, and so does the result, so that a value computed in non-uniform
            # control flow is blamed on the call that computed it, as Tint blames it.
            call_node = self.graph.node(cf)
            values = list(self.graph.copies(values))
        if isinstance(constructed, t.CoopMatrix) and symbol is None and not is_builtin:
            rule = matrix_constructor_requirement(constructed.kind.dialect)
            self.pending.append(_Pending(rule, span, f"'{name}' must only be called from subgroup uniform "
                                                     "control flow", call_node, builtin=name, call=span,
                                         control_flow=True))
            for index, (value, arg) in enumerate(zip(values, arg_nodes)):
                self.pending.append(_Pending(rule, _span(arg),
                                             f"{constructed.describe()} constructor requires argument {index} "
                                             "to be uniform", value, builtin=constructed.describe(), call=span))
        if builtin is None:
            return self.graph.node(call_node, *values)
        if needed is not None:
            # (The fields by position: a keyword makes the call build a dict, and matrix builtins make one
            # requirement per argument.)
            self.pending.append(_Pending(needed, span, f"'{name}' must only be called from {needed.scope} "
                                                       "control flow", call_node, [], name, span, False, True))
            if needed.arguments:
                for index, (value, arg) in enumerate(zip(values, arg_nodes)):
                    self.pending.append(_Pending(needed, _span(arg),
                                                 f"'{name}' requires argument {index} to be uniform", value,
                                                 [], name, span))
        if name == "workgroupUniformLoad":
            if values:
                self.pending.append(_Pending(requirement(builtin, None), _span(arg_nodes[0]),
                                             f"'{name}' requires argument 0 to be uniform", values[0], builtin=name,
                                             call=span))
            return cf  # the loaded value is uniform by definition
        if builtin.result == NON_UNIFORM:
            return self.graph.node(MAY_BE_NON_UNIFORM, label=Label(
                "source", f"return value of '{name}' may be non-uniform", span))
        if builtin.result == SUBGROUP_UNIFORM:
            if self.owner.level == SUBGROUP:
                return self.graph.node(cf)  # the same value in every active invocation of the subgroup
            # Tint: uniform at subgroup scope only when the arguments are; never across the workgroup.
            workgroup = self.graph.node(MAY_BE_NON_UNIFORM_IN_WORKGROUP, label=Label(
                "source", f"return value of '{name}' may be non-uniform", span))
            return self.graph.node(workgroup, call_node, *values)
        return self.graph.node(call_node, *values)

    def _user_call(self, symbol: Symbol, span: Span, cf: int, values: list[int], arg_nodes) -> int:
        summary = self.owner.summary(symbol.declaration)
        call_node = self.graph.node(cf) if summary.call_site else cf  # Tint's call node, as in call()
        # A callee's requirements are inherited at every call: one note of each kind per call, shared by its
        # requirements (notes are never changed once made), rather than one per requirement.
        called_notes: dict[bool, Note] = {}
        for inner in summary.call_site:
            # Tint names only the outermost call of a chain.
            notes = inner.inner_notes
            direct = not any(n.message.startswith("called") for n in notes) if notes else True
            kept = [n for n in notes if not n.message.startswith("called")] if notes else []
            called = called_notes.get(direct)
            if called is None:
                called = called_notes[direct] = Note(
                    f"called {'by' if direct else 'indirectly by'} '{symbol.name}' from '{self.name}'", span)
            kept.append(called)
            self.pending.append(_Pending(inner.requirement, inner.span, inner.message, call_node, kept,
                                         inner.builtin, span, inherited=True, control_flow=True))
        for index, requirements in summary.pointees.items():
            if index >= len(values):
                continue
            arg = arg_nodes[index]
            pointee = self._pointee_value(arg, cf)
            passed = self.graph.node(pointee, label=Label(
                "passed", "possibly non-uniform value passed via pointer here", _span(arg)))
            for inner in requirements:
                self.pending.append(_Pending(inner.requirement, inner.span, inner.message, passed,
                                             list(inner.inner_notes), inner.builtin, span, inherited=True))
        for index, (non_uniform, depends) in summary.pointer_writes.items():
            if index < len(arg_nodes):
                self._write_through_argument(arg_nodes[index], cf, non_uniform,
                                             [values[i] for i in depends if i < len(values)], symbol, span)
        passed_values = dict(enumerate(values))
        for index, requirements in summary.parameters.items():
            if index >= len(values):
                continue
            arg = arg_nodes[index]
            passed = self.graph.node(values[index], label=Label(
                "passed", "possibly non-uniform value passed here", _span(arg)))
            passed_values[index] = passed  # Tint's argument node: the requirement and the result share it
            for inner in requirements:
                self.pending.append(_Pending(inner.requirement, inner.span, inner.message, passed,
                                             list(inner.inner_notes), inner.builtin, span, inherited=True))
        result_dependencies = [call_node] + [passed_values[i] for i in summary.return_parameters if i < len(values)]
        result = self.graph.node(*result_dependencies)
        if summary.return_non_uniform:
            self.graph.add_edge(result, self.graph.node(MAY_BE_NON_UNIFORM, label=Label(
                "source", f"return value of '{symbol.name}' may be non-uniform", span)))
        return result


    def _pointee_value(self, arg: ts.Node, cf: int) -> int:
        """The current value of the variable an argument `&v` (or an alias of it) points to."""
        key = self._pointer_argument_target(arg)
        return self.variables.get(key, cf) if key is not None else cf

    def _pointer_argument_target(self, arg: ts.Node) -> int | None:
        target = self._alias_target(arg)
        if target is not None:
            return target
        if KIND_NAMES[arg.kind_id] == "identifier":
            symbol = self.owner.model.symbol_at(arg.start_byte, arg.end_byte)
            if symbol is not None and symbol.declaration is not None:
                return self.aliases.get(symbol.declaration.start_byte)
        return None

    def _write_through_argument(self, arg: ts.Node, cf: int, non_uniform: bool, depends: list[int],
                                callee: Symbol, span: Span) -> None:
        key = self._pointer_argument_target(arg)
        if key is None or key not in self.variables:
            return
        sources = [cf, *depends]
        if non_uniform:
            sources.append(self.graph.node(MAY_BE_NON_UNIFORM, label=Label(
                "source", f"'{callee.name}' may write a non-uniform value through this pointer",
                _span(arg))))
        self.variables[key] = self.graph.node(*sources)


def _tint_report(graph: Graph, pending: list[_Pending]) -> _Pending | None:
    """The requirement Tint reports first in this function, found the way Tint finds it.

    Tint links every requirement to one root, in program order (for each call its arguments, then the
    call itself), walks the graph depth first from the root, last edge first, and marks each node with
    the node it was first reached from; the requirement it blames is the one at the start of the chain
    of marks that ends at the non-uniform source. A value computed in non-uniform control flow and used
    later is thus blamed on the call that computed it, not on its later use. Workgroup requirements are
    looked at before subgroup ones (Tint analyses the two scopes in that order).
    """
    ordered = _tint_edge_order(pending)
    for scope in ("uniform", "subgroup uniform"):
        candidates = [p for p in ordered if p.requirement.scope == scope]
        if not candidates:
            continue
        # In the workgroup pass, values uniform only within a subgroup are simply non-uniform.
        goals = (MAY_BE_NON_UNIFORM,) if scope == "subgroup uniform" else \
            (MAY_BE_NON_UNIFORM, MAY_BE_NON_UNIFORM_IN_WORKGROUP)
        root = -1
        reached_from: dict[int, int] = {}
        owner: dict[int, _Pending] = {}
        stack = []
        for item in candidates:
            if item.target not in reached_from:
                reached_from[item.target] = root
                owner[item.target] = item
                stack.append(item.target)
        while stack:
            node = stack.pop()
            if node in goals:
                continue
            for target in graph.edges[node]:
                if target not in reached_from:
                    reached_from[target] = node
                    stack.append(target)
        for goal in goals:
            if goal not in reached_from:
                continue
            node = goal
            while reached_from[node] != root:
                node = reached_from[node]
            return owner[node]
    return None


def _tint_edge_order(pending: list[_Pending]) -> list[_Pending]:
    """Requirements in the order Tint links them to its root: per call, arguments first, the call last."""
    groups: dict[tuple, list[_Pending]] = {}
    for item in pending:
        key = (item.call.start, item.call.end) if item.call is not None else (item.span.start, item.span.end)
        groups.setdefault(key, []).append(item)
    return [item for items in groups.values()
            for item in [p for p in items if not p.control_flow] + [p for p in items if p.control_flow]]


def _tint_order(pending: list[_Pending]) -> list[_Pending]:
    """Tint searches its requirements last first, one call at a time; within a call, control flow first."""
    groups: dict[tuple, list[_Pending]] = {}
    for item in pending:
        key = (item.call.start, item.call.end) if item.call is not None else (item.span.start, item.span.end)
        groups.setdefault(key, []).append(item)
    return [item for key in reversed(list(groups)) for item in groups[key]]


def _struct_builtins(parameter_type) -> list[str]:
    """The builtin values in the members of an entry point's struct parameter (Tint: one makes all
    non-uniform)."""
    if not isinstance(parameter_type, t.Struct):
        return []
    return [member.builtin for member in parameter_type.members if member.builtin]


def _keyword(node: ts.Node, word: str) -> ts.Node:
    first = node.child(0)
    if first is not None and KIND_NAMES[first.kind_id] == word:
        return first  # where the keyword almost always stands, found without making every child
    for child in node.children:
        if KIND_NAMES[child.kind_id] == word:
            return child
    return node


class _ExitIndex:
    """What _exits knows: the ways out of the statements it walked, and where 'return', 'break' and
    'continue' are spelled in the source (inside longer names and comments too: a place too many only
    costs a walk). A statement without an error whose text spells none of them has no way out, since
    each way out is a statement that begins with one of those words: most loops and branches of a kernel
    are answered so, without a walk of the statements inside."""

    def __init__(self, data: bytes, start: int, end: int) -> None:
        """The index of the words that begin in [start, end): one function's (its statements' words begin
        there)."""
        self.known: dict = {}
        words = []
        for word in (b"return", b"break", b"continue"):
            bound = end + len(word) - 1  # (a word found must begin before `end`)
            at = data.find(word, start, bound)
            while at >= 0:
                words.append(at)
                at = data.find(word, at + 1, bound)
        words.sort()
        self.words = words

    def none_within(self, node: ts.Node) -> bool:
        words = self.words
        at = bisect_left(words, node.start_byte)
        return (at == len(words) or words[at] >= node.end_byte) and not node.has_error


def _escapes(node: ts.Node, cache: _ExitIndex, allow_break: bool = False, allow_continue: bool = False) -> bool:
    """Whether control can leave `node` other than by falling through its end."""
    exits = _exits(node, cache)
    return "return" in exits or ("break" in exits and not allow_break) or ("continue" in exits and not allow_continue)


# A node's span, made without Span's bounds check (a node's offsets always meet it): the walk makes one
# for every call, argument requirement, branch and parameter read.
_span = Context.span
_NO_EXITS: frozenset[str] = frozenset()
# Expressions whose value is uniform wherever it is computed: it depends on the control flow only.
_CONSTANT_LEAVES = frozenset({"int_literal", "float_literal", "bool_literal", "templated_identifier"})
# Statements whose parts are expressions, types and names, never statements.
_NO_EXIT_STATEMENTS = frozenset({
    "let_declaration", "variable_declaration", "const_declaration", "assignment_statement",
    "compound_assignment_statement", "increment_statement", "decrement_statement", "call_statement",
    "const_assert_statement", "discard_statement", "empty_statement",
})
# The statements after which control may not go on (_falls_through answers yes for every other kind).
_MAY_STOP = frozenset({"return_statement", "break_statement", "continue_statement", "compound_statement",
                       "if_statement", "switch_statement", "loop_statement", "for_statement", "while_statement"})
_LOOP_KEYWORDS = {"loop_statement": "loop", "for_statement": "for", "while_statement": "while"}
_RETURN, _BREAK, _CONTINUE = frozenset({"return"}), frozenset({"break"}), frozenset({"continue"})


def _exits(node: ts.Node, cache: _ExitIndex) -> frozenset[str]:
    """The ways out of `node` ("return", "break", "continue"), computed once per node.

    Loops keep only returns (their breaks and continues stay inside); a
    switch keeps returns and continues.
    """
    kind = KIND_NAMES[node.kind_id]
    # 'discard' is not a way out: it demotes the invocation to a helper that keeps running.
    if kind == "return_statement":
        return _RETURN
    if kind in {"break_statement", "break_if_statement"}:
        return _BREAK
    if kind == "continue_statement":
        return _CONTINUE
    if kind in _NO_EXIT_STATEMENTS and not node.has_error:
        return _NO_EXITS  # holds expressions only: no statement, so no way out (unless the parser gave up in it)
    if node.named_child_count == 0 or kind.endswith("_expression") or kind == "function_declaration":
        return _NO_EXITS
    if cache.none_within(node):
        return _NO_EXITS
    # Only the nodes that need a walk are kept: the leaves above are answered faster than looked up.
    key = (node.start_byte, node.end_byte, kind)
    cached = cache.known.get(key)
    if cached is not None:
        return cached
    # Named children only: every way out is a named statement, and tokens are most of the children.
    found = _NO_EXITS
    for child in node.named_children:
        exits = _exits(child, cache)
        if exits:
            found = found | exits
    if kind in {"loop_statement", "for_statement", "while_statement"}:
        found = found & {"return"}
    elif kind == "switch_statement":
        found = found - {"break"}
    cache.known[key] = found
    return found


def _falls_through(node: ts.Node, cache: _ExitIndex) -> bool:
    """Whether control can reach the statement after `node` (the spec's behavior "next"), decided
    the way Tint decides it: without evaluating conditions, so `while true {}` falls through and
    `loop {}` without a break does not."""
    kind = KIND_NAMES[node.kind_id]
    if kind in {"return_statement", "break_statement", "continue_statement"}:
        return False
    if kind == "compound_statement":
        return all(_falls_through(child, cache) for child in node.named_children
                   if KIND_NAMES[child.kind_id] != "continuing_statement")
    if kind == "if_statement":
        consequence, alternative = sn.consequence(node), sn.alternative(node)
        if consequence is None or alternative is None or not alternative.named_children:
            return True
        return _falls_through(consequence, cache) or _falls_through(alternative.named_children[0], cache)
    if kind == "switch_statement":
        body = sn.body(node)
        clauses = [sn.body(c) for c in (body.named_children if body is not None else [])]
        return any(c is None or _falls_through(c, cache) or "break" in _exits(c, cache) for c in clauses)
    if kind in {"loop_statement", "for_statement", "while_statement"}:
        if kind != "loop_statement" and sn.condition(node) is not None:
            return True
        body = sn.body(node)
        return body is not None and any("break" in _exits(child, cache) for child in body.named_children)
    return True


def _assigns(node: ts.Node, name: str, owner: UniformityAnalysis) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        kind = KIND_NAMES[current.kind_id]
        if kind in {"assignment_statement", "compound_assignment_statement"}:
            left = sn.left(current)
            if left is not None and owner.text(left) == name:
                return True
        if kind in {"increment_statement", "decrement_statement"}:
            operand = sn.operand(current)
            if operand is not None and owner.text(operand) == name:
                return True
        if kind == "unary_expression" and owner.text(current).replace(" ", "") == f"&{name}":
            return True  # a pointer to it may write it
        stack.extend(current.named_children)
    return False
