"""The checks behind the performance rules; see rules.py for what each one means."""

from __future__ import annotations

from dataclasses import replace

import tree_sitter as ts

from ...core.diagnostic import Diagnostic, Edit, Fix, Related, Severity
from ...core.rules import Rule
from ...core.text import SourceText, Span
from ...devices.performance import RuleCost, fact, rule_cost
from ...devices.profiles import Profile
from ...semantic import types as t
from ...semantic.builtins.language import DIALECT, LOAD, STORE, parameter_index
from ...semantic.model import SemanticModel
from ...syntax import nodes as sn
from . import rules as r
from .facts import LOADS, MULTIPLIES, STORES, ModuleFacts, byte_size, collect, descendants, enclosing_loop

KIB = 1024.0


def performance_diagnostics(root: ts.Node, source: SourceText, model: SemanticModel,
                            targets: list[Profile], run: bool = False) -> list[Diagnostic]:
    """Every performance finding for every target whose profile has the facts the rule needs.

    `run` adds the findings that only make sense beside a run of the kernel (P007: bounds checks, whose fix
    lies outside the kernel and which nearly every matrix kernel has): `coop-lint run --explain` asks for
    them, plain linting does not."""
    measured = [target for target in targets if target.performance.get("rule_costs")]
    if not measured or not model.matrix_dialects:
        return []
    facts = collect(root, source, model)
    checks = [_one_tile_per_subgroup, _unstaged_loads, _runtime_indexed_matrices, _workgroup_memory,
              _bank_conflicts, _scalar_half_loads, _idle_matrix_units] + ([_bounds_checks] if run else [])
    out = []
    for target in measured:
        for check in checks:
            out.extend(check(facts, target))
    return out


def _finding(rule: Rule, cost: RuleCost, target: Profile, message: str, span: Span, related=(), fixes=()):
    severity = rule.severity
    if cost.slower < r.MEANINGFUL_SLOWDOWN and severity > Severity.INFO:
        severity = Severity.INFO
    return Diagnostic(rule.code, f"{message}; {cost.phrase(target.name)}", span, severity, tuple(related),
                      tuple(fixes))


# ---------------------------------------------------------------- P001
def _one_tile_per_subgroup(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.ONE_TILE_PER_SUBGROUP.code)
    if cost is None:
        return []
    out = []
    for call in facts.calls:
        if call.name not in MULTIPLIES or len(call.arguments) < 2:
            continue
        loop = enclosing_loop(call.node)
        if loop is None:
            continue
        multiplies = [n for n in descendants(loop) if n.type == "call_expression" and _is_multiply(facts, n)]
        if len(multiplies) != 1:
            continue
        loads = [_loaded_in(facts, argument, loop) for argument in call.arguments[:2]]
        if any(load is None for load in loads):
            continue
        out.append(_finding(
            r.ONE_TILE_PER_SUBGROUP, cost, target,
            f"each tile this loop loads serves one '{call.name}': one result tile per subgroup, two tile loads per "
            "multiply, so the matrix units wait on memory; give each subgroup a block of result tiles and reuse "
            "each loaded tile across it", call.name_span,
            [Related(facts.span(load), "loaded here for this multiply only") for load in loads]))
    return out


def _is_multiply(facts: ModuleFacts, node: ts.Node) -> bool:
    return any(call.node.id == node.id and call.name in MULTIPLIES for call in facts.calls)


def _loaded_in(facts: ModuleFacts, argument: ts.Node, loop: ts.Node) -> ts.Node | None:
    """The load call a `let` operand was initialised with, when both are inside `loop`."""
    if argument.type != "identifier":
        return None
    symbol = facts.model.symbol_at(argument.start_byte, argument.end_byte)
    declaration = getattr(symbol, "declaration", None)
    if symbol is None or symbol.kind != "let" or declaration is None:
        return None
    if not (loop.start_byte <= declaration.start_byte and declaration.end_byte <= loop.end_byte):
        return None
    value = sn.value(declaration)
    if value is None or value.type != "call_expression":
        return None
    load = next((c for c in facts.calls if c.node.id == value.id and c.name in LOADS), None)
    return load.node if load is not None else None


# ---------------------------------------------------------------- P002
def _unstaged_loads(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.STORAGE_LOADS_IN_LOOP.code)
    if cost is None or not any(c.name in MULTIPLIES for c in facts.calls):
        return []
    invocations = _largest_workgroup(facts)
    if invocations is None or invocations <= target.subgroup_max:
        return []
    subgroups = invocations // target.subgroup_max
    seen: dict[tuple[str, str], list] = {}
    for call in facts.calls:
        if call.name not in LOADS or not call.arguments or not facts.runs_in_loop(call):
            continue
        pointee = facts.pointee(call.arguments[0])
        variable = facts.root_variable(call.arguments[0])
        if pointee is None or pointee[0] != "storage" or variable is None:
            continue
        seen.setdefault((call.function, variable.name), []).append(call)
    out = []
    for (function, variable), calls in seen.items():
        first = calls[0]
        count = f"{len(calls)} loads" if len(calls) > 1 else "this load"
        out.append(_finding(
            r.STORAGE_LOADS_IN_LOOP, cost, target,
            f"'{first.name}' reads tiles of the storage buffer '{variable}' inside the K loop ({count} in "
            f"'{function}'): the {subgroups} subgroups of a {invocations}-invocation workgroup each fetch tiles "
            "they share; stage each slice once in workgroup memory and load the tiles from there",
            first.name_span, [Related(c.name_span, "also from storage") for c in calls[1:4]]))
    return out


def _largest_workgroup(facts: ModuleFacts) -> int | None:
    sizes = [invocations for _, invocations in _entry_workgroup_sizes(facts)]
    if any(size is None for size in sizes):
        return None  # an override or something we cannot evaluate: say nothing
    return max(sizes) if sizes else None


# ---------------------------------------------------------------- P003
def _runtime_indexed_matrices(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.RUNTIME_INDEXED_MATRICES.code)
    if cost is None:
        return []
    out, seen = [], set()
    multiply_ids = {c.node.id for c in facts.calls if c.name in MULTIPLIES}
    for node in descendants(facts.root):
        if node.type != "index_expression":
            continue
        value, index = sn.value(node), sn.index(node)
        if value is None or index is None or not _is_matrix_array(facts.type_of(value)):
            continue
        if facts.constant(index) is not None:
            continue
        loop = enclosing_loop(node)
        while loop is not None and not any(n.id in multiply_ids for n in descendants(loop)):
            loop = enclosing_loop(loop)
        if loop is None:
            continue
        variable = facts.root_variable(value)
        function = _function_of(node)
        key = (function.id if function is not None else 0, variable.name if variable is not None else facts.text(value))
        if key in seen:
            continue
        seen.add(key)
        out.append(_finding(
            r.RUNTIME_INDEXED_MATRICES, cost, target,
            f"the array of matrices '{facts.text(value)}' is indexed by '{facts.text(index)}', which is not a "
            "constant, in a loop that multiplies: the driver may keep the whole array in memory instead of "
            "registers; write the loop out so every index is a constant", facts.span(node)))
    return out


def _is_matrix_array(kind: t.Type | None) -> bool:
    if isinstance(kind, (t.Reference, t.Pointer)):
        kind = kind.store
    return isinstance(kind, t.Array) and isinstance(kind.element, t.CoopMatrix)


# ---------------------------------------------------------------- P004
def _workgroup_memory(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.WORKGROUP_MEMORY_OCCUPANCY.code)
    per_multiprocessor = fact(target.performance, "workgroup_memory_per_multiprocessor", "bytes")
    best = fact(target.performance, "workgroups_per_multiprocessor", "count")
    if cost is None or per_multiprocessor is None or best is None:
        return []
    variables = [s for s in facts.model.symbols if s.kind == "var" and s.space == "workgroup"]
    sizes = [(symbol, byte_size(t.store_type(symbol.type))) for symbol in variables]
    if not sizes or any(size is None for _, size in sizes):
        return []
    total = sum(size for _, size in sizes)
    allowed = per_multiprocessor // best
    if total <= allowed:
        return []
    largest, _ = max(sizes, key=lambda pair: pair[1])
    parts = ", ".join(f"'{symbol.name}' {size / KIB:.1f} KiB" for symbol, size in sizes)
    return [_finding(
        r.WORKGROUP_MEMORY_OCCUPANCY, cost, target,
        f"this module's workgroup memory is {total / KIB:.1f} KiB ({parts}); {target.name} runs {best} workgroups "
        f"per multiprocessor at once only with at most {allowed / KIB:.1f} KiB each "
        f"({per_multiprocessor / KIB:.0f} KiB per multiprocessor), so fewer workgroups share each multiprocessor",
        largest.span, [Related(symbol.span, f"'{symbol.name}': {size / KIB:.1f} KiB") for symbol, size in sizes
                       if symbol is not largest])]


# ---------------------------------------------------------------- P005
ROWS_AT_ONCE = 8  # rows of a tile a load reads in one pass (16 bytes each)
MEASURED_DEGREE = 4  # the fewest rows to a bank in P005's measured pair (A: 4, B: 8)
ROW_BYTES = 16
# Where the stride argument of Tint's current load and store forms sits (P005 reads only those forms).
_STRIDE_AT = {builtin.name: parameter_index(builtin, "stride") for builtin in DIALECT["chromium"].builtins
              if builtin.memory in (LOAD, STORE)}


def conflict_degree(stride_bytes: int, banks: int, width: int) -> int:
    """How many of the 8 rows a tile load reads at once land in the busiest bank."""
    hits: dict[int, int] = {}
    for row in range(ROWS_AT_ONCE):
        start = row * stride_bytes
        for word in range(start // width, (start + ROW_BYTES + width - 1) // width):
            hits[word % banks] = hits.get(word % banks, 0) + 1
    return max(hits.values()) if hits else 1


def _bank_conflicts(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.BANK_CONFLICTS.code)
    banks = fact(target.performance, "memory_banks", "count")
    width = fact(target.performance, "memory_banks", "width_bytes")
    if cost is None or not banks or not width or banks <= 0 or width <= 0:
        return []
    out, seen = [], set()
    for call in facts.calls:
        stride_at = _STRIDE_AT.get(call.name)
        if stride_at is None or len(call.arguments) <= stride_at:
            continue
        pointee = facts.pointee(call.arguments[0])
        if pointee is None or pointee[0] != "workgroup" or not isinstance(pointee[1], t.Array):
            continue
        element = byte_size(pointee[1].element)
        stride_node = call.arguments[stride_at]
        stride = facts.constant(stride_node)
        if element is None or stride is None or stride <= 0 or (stride * element) % width:
            continue
        degree = conflict_degree(stride * element, banks, width)
        variable = facts.root_variable(call.arguments[0])
        key = (variable.name if variable is not None else "", stride)
        if degree < 2 or key in seen:
            continue
        seen.add(key)
        pad = ROW_BYTES // element if element <= ROW_BYTES and ROW_BYTES % element == 0 else None
        fixes = _padding_fix(facts, stride_node, variable, pad) if pad else ()
        finding = _finding(
            r.BANK_CONFLICTS, cost, target,
            f"rows of '{key[0]}' are {stride * element} bytes apart ({stride} x {element}-byte elements): the "
            f"{ROWS_AT_ONCE} rows a tile load reads at once put up to {degree} in one bank of {target.name}'s "
            f"workgroup memory ({banks} banks of {width} bytes), so the load takes {degree} passes; pad each row by {ROW_BYTES} bytes"
            + (f" ({pad} element{'s' if pad > 1 else ''})" if pad else ""),
            facts.span(stride_node), (), fixes)
        if degree < MEASURED_DEGREE:
            # The pair measured 4 and 8 rows to a bank; two or three cost less, by an unmeasured amount.
            finding = replace(finding, severity=min(finding.severity, Severity.INFO),
                              message=finding.message + f"; the measured pair had {MEASURED_DEGREE} and 8 rows "
                                                        f"to a bank, this load {degree}, so expect less")
        out.append(finding)
    return out


def _padding_fix(facts: ModuleFacts, stride_node: ts.Node, variable, pad: int) -> tuple[Fix, ...]:
    """Adds the padding to the stride's module-scope const, when the array's size is computed from it."""
    if stride_node.type != "identifier" or variable is None or variable.declaration is None:
        return ()
    symbol = facts.model.symbol_at(stride_node.start_byte, stride_node.end_byte)
    declaration = getattr(symbol, "declaration", None)
    if symbol is None or symbol.kind != "const" or declaration is None or declaration.parent != facts.root:
        return ()
    value = sn.value(declaration)
    array_type = sn.declared_type(variable.declaration)
    if value is None or array_type is None or symbol.name not in _depends_on(facts, array_type):
        return ()
    suffix = {"u32": "u", "i32": "i"}.get(t.store_type(symbol.type).describe(), "")
    text = facts.text(value)
    if value.type == "binary_expression" and facts.text(sn.operator(value)) not in "+-*/%":
        text = f"({text})"
    return (Fix(f"pad each row of '{variable.name}' by {pad} element{'s' if pad > 1 else ''} ({ROW_BYTES} bytes)",
                (Edit(facts.span(value), f"{text} + {pad}{suffix}"),), safe=False),)


def _depends_on(facts: ModuleFacts, node: ts.Node) -> set[str]:
    """Every module-scope const a type or expression uses, directly or through other consts."""
    consts = {}
    for declaration in facts.root.named_children:
        name = sn.name(declaration)
        if declaration.type == "const_declaration" and name is not None:
            consts[facts.text(name)] = sn.value(declaration)
    found, pending = set(), [node]
    while pending:
        current = pending.pop()
        if current is None:
            continue
        for child in descendants(current):
            if child.type == "identifier":
                name = facts.text(child)
                if name in consts and name not in found:
                    found.add(name)
                    pending.append(consts[name])
    return found


# ---------------------------------------------------------------- P006
def _scalar_half_loads(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.SCALAR_HALF_LOADS.code)
    if cost is None:
        return []
    out, seen = [], set()
    for node in descendants(facts.root):
        if node.type != "index_expression" or _is_written(node):
            continue
        kind = facts.type_of(node)
        if not (isinstance(kind, t.Reference) and kind.space == "storage" and kind.store == t.F16):
            continue
        function = _function_of(node)
        name = facts.text(sn.name(function)) if function is not None else ""
        if enclosing_loop(node) is None and name not in facts.called_in_loops:
            continue
        variable = facts.root_variable(node)
        key = (name, variable.name if variable is not None else "")
        if key in seen:
            continue
        seen.add(key)
        out.append(_finding(
            r.SCALAR_HALF_LOADS, cost, target,
            f"each invocation reads one f16 (2 bytes) of the storage buffer '{key[1]}' at a time in a loop; bind it "
            "as array<vec4<u32>> and read 8 halves (16 bytes) per invocation", facts.span(node)))
    return out


def _is_written(node: ts.Node) -> bool:
    """An assignment's target, or the place `&x[i]` points at (naga's coopLoad takes such a pointer): not a
    read of one element."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "unary_expression":
        operator = sn.operator(parent)
        return operator is not None and operator.type == "&"
    return parent.type in ("assignment_statement", "compound_assignment_statement") \
        and sn.left(parent) == node


def _function_of(node: ts.Node) -> ts.Node | None:
    while node is not None and node.type != "function_declaration":
        node = node.parent
    return node


# ---------------------------------------------------------------- P007
def _bounds_checks(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.BOUNDS_CHECKED_MATRIX_ACCESS.code)
    if cost is None or fact(target.performance, "bounds_checks", "default_on") is not True:
        return []
    out, seen = [], set()
    for call in facts.calls:
        if call.name not in LOADS | STORES or not call.arguments:
            continue
        pointee = facts.pointee(call.arguments[0])
        variable = facts.root_variable(call.arguments[0])
        if pointee is None or pointee[0] != "storage" or variable is None or variable.name in seen:
            continue
        if not (isinstance(pointee[1], t.Array) and pointee[1].count is None):
            continue
        seen.add(variable.name)
        out.append(call)
    if not out:
        return []
    names = ", ".join(f"'{facts.root_variable(c.arguments[0]).name}'" for c in out)
    return [_finding(
        r.BOUNDS_CHECKED_MATRIX_ACCESS, cost, target,
        f"matrix loads and stores on the runtime-sized {names} are bounds-checked on {target.name} unless the "
        "application turns robustness off (Dawn toggle disable_robustness)", out[0].name_span,
        [Related(c.name_span, "also bounds-checked") for c in out[1:]])]


# ---------------------------------------------------------------- P008
def _idle_matrix_units(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.IDLE_MATRIX_UNITS.code)
    units = fact(target.performance, "matrix_units_per_multiprocessor", "count")
    per_multiprocessor = fact(target.performance, "workgroup_memory_per_multiprocessor", "bytes")
    if cost is None or units is None or per_multiprocessor is None or target.subgroup_min <= 0 \
            or not any(c.name in MULTIPLIES for c in facts.calls):
        return []
    variables = [s for s in facts.model.symbols if s.kind == "var" and s.space == "workgroup"]
    sizes = [byte_size(t.store_type(symbol.type)) for symbol in variables]
    if not sizes or any(size is None for size in sizes):
        return []  # without workgroup memory, other workgroups fill the multiprocessor; unknown sizes: say nothing
    total = sum(sizes)
    workgroups = per_multiprocessor // total if total else 0
    if workgroups == 0:
        return []  # does not fit at all: not this rule's business
    out = []
    for attribute, invocations in _workgroup_sizes(facts):
        subgroups = -(-invocations // target.subgroup_min)
        resident = subgroups * workgroups
        if resident >= units:
            continue
        largest = max(variables, key=lambda symbol: byte_size(t.store_type(symbol.type)) or 0)
        out.append(_finding(
            r.IDLE_MATRIX_UNITS, cost, target,
            f"a workgroup of {invocations} invocations is {subgroups} subgroup{'s' if subgroups > 1 else ''} of "
            f"{target.subgroup_min}, and its {total / KIB:.1f} KiB of workgroup memory leave room for "
            f"{workgroups} workgroup{'s' if workgroups > 1 else ''} per multiprocessor "
            f"({per_multiprocessor / KIB:.0f} KiB): {resident} subgroup{'s' if resident > 1 else ''} for the "
            f"{units} matrix units of a multiprocessor, {units - resident} idle; give the workgroup at least "
            f"{-(-units // workgroups)} subgroups or use less workgroup memory",
            facts.span(attribute), [Related(largest.span, f"'{largest.name}': part of the {total / KIB:.1f} KiB")]))
    return out


def _workgroup_sizes(facts: ModuleFacts) -> list[tuple[ts.Node, int]]:
    """(the @workgroup_size attribute, invocations) of every compute entry point whose size is a constant."""
    return [(attribute, invocations) for attribute, invocations in _entry_workgroup_sizes(facts)
            if invocations is not None]


def _entry_workgroup_sizes(facts: ModuleFacts) -> list[tuple[ts.Node, int | None]]:
    """(the @workgroup_size attribute, invocations) of every compute entry point; None where the size is an
    override or anything else that cannot be evaluated here."""
    out = []
    for function in facts.functions.values():
        attributes = {}
        for attribute in function.children:
            name = sn.name(attribute) if attribute.type == "attribute" else None
            if name is not None:
                attributes[facts.text(name)] = attribute
        if "compute" not in attributes or "workgroup_size" not in attributes:
            continue
        arguments = sn.arguments(attributes["workgroup_size"])
        values = [facts.constant(a) for a in (arguments.named_children if arguments is not None else [])]
        invocations = None
        if values and all(v is not None and v > 0 for v in values):
            invocations = 1
            for value in values:
                invocations *= value
        out.append((attributes["workgroup_size"], invocations))
    return out
