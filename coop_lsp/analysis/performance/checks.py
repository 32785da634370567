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
from ...semantic.model import SemanticModel
from ...syntax import nodes as sn
from . import rules as r
from .facts import (LEFT, LOADS, MULTIPLIES, OFFSET, RIGHT, STORES, STRIDE, ModuleFacts, byte_size, collect,
                    descendants, enclosing_loop)
from .quote import like_this, quote
from .staging import pipelined_staged, unpipelined_loops

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
    checks = _CHECKS + ([_bounds_checks] if run else [])
    out = []
    for target in measured:
        for check in checks:
            out.extend(check(facts, target))
    return out


def rule_conditions(root: ts.Node, source: SourceText, model: SemanticModel, target: Profile, code: str) -> dict:
    """The facts rule `code` records about a kernel (the `where` of a measured pair whose slow kernel this
    is): over all its findings, the largest of each number; other facts where every finding agrees."""
    if not model.matrix_dialects:
        return {}
    facts = collect(root, source, model)
    for check in _CHECKS + [_bounds_checks]:
        check(facts, target)
    found = [where for rule, where in facts.conditions if rule == code]
    out = {}
    for key in dict.fromkeys(k for where in found for k in where):
        values = [where[key] for where in found if where.get(key) is not None]
        if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            out[key] = max(values)
        elif values and all(v == values[0] for v in values):
            out[key] = values[0]
    return out


def _finding(facts: ModuleFacts, rule: Rule, cost: RuleCost, target: Profile, message: str, span: Span,
             related=(), fixes=(), where: dict | None = None):
    """A finding that quotes the measured pairs like this kernel (quote.py): `where` holds the rule's facts
    about the kernel, in the words its pairs record."""
    where = where or {}
    numeric, describe = _CONDITIONS.get(rule.code, (None, lambda conditions: ""))
    quoted, _ = like_this(cost, where, numeric)
    if len({pair.conditions.get("bounds_checks") for pair in quoted}) > 1:
        describe = _with_bounds_checks(describe)
    said = quote(cost, target.name, where, numeric, describe)
    facts.conditions.append((rule.code, where))
    severity = rule.severity
    if said.slower < r.MEANINGFUL_SLOWDOWN and severity > Severity.INFO:
        severity = Severity.INFO
    return Diagnostic(rule.code, f"{message}; {said.text}", span, severity, tuple(related), tuple(fixes))


def _with_bounds_checks(describe):
    """A pair's description that also says its bounds-check setting, where the pairs differ in it: the same
    fix measured on one kernel both ways can differ by 1.3x (issue 32: --try on the H100)."""
    def described(conditions: dict) -> str:
        text = describe(conditions)
        if "bounds_checks" not in conditions or "bounds checks" in text:
            return text
        setting = "with bounds checks" if conditions["bounds_checks"] else "without bounds checks"
        return f"{text}, {setting}" if text else setting
    return described


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _matrix_bytes(where: dict) -> str:
    if "matrix_bytes" not in where:
        return ""
    trips = where.get("constant_trips")
    loops = "" if trips is None else " of constant trip count" if trips else " whose trip count is not a constant"
    return f"{where['matrix_bytes']} bytes of matrices a lane indexed in loops{loops}"


# rule code -> (the numeric fact whose nearest pairs bracket the kernel's, how a pair's facts read)
_CONDITIONS = {
    r.RUNTIME_INDEXED_MATRICES.code: ("matrix_bytes", _matrix_bytes),
    r.WORKGROUP_MEMORY_OCCUPANCY.code: ("workgroups_fit", lambda w: "" if "workgroups_fit" not in w else
                                        f"room for {_plural(w['workgroups_fit'], 'workgroup')} per multiprocessor"),
    r.UNPIPELINED_STAGING.code: (None, lambda w: ", ".join(part for part in (
        "" if w.get("bank_conflicts") is None else
        "staged rows with bank conflicts" if w["bank_conflicts"] else "staged rows free of bank conflicts",
        "" if w.get("bounds_checks") is None else
        "with bounds checks" if w["bounds_checks"] else "without bounds checks") if part)),
    r.BANK_CONFLICTS.code: ("rows_per_bank", lambda w: ", ".join(part for part in (
        f"{w['rows_per_bank']} rows of a tile load to a bank" if "rows_per_bank" in w else "",
        "" if w.get("staging_pipelined") is None else
        "staging pipelined" if w["staging_pipelined"] else "staging not pipelined") if part)),
}


# ---------------------------------------------------------------- P001
def _one_tile_per_subgroup(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.ONE_TILE_PER_SUBGROUP.code)
    if cost is None:
        return []
    out = []
    for call in facts.calls:
        operands = [call.argument(LEFT), call.argument(RIGHT)]
        if call.name not in MULTIPLIES or None in operands:
            continue
        loop = enclosing_loop(call.node)
        if loop is None:
            continue
        multiplies = [n for n in descendants(loop) if n.type == "call_expression" and _is_multiply(facts, n)]
        if len(multiplies) != 1:
            continue
        loads = [_loaded_in(facts, argument, loop) for argument in operands]
        if any(load is None for load in loads):
            continue
        out.append(_finding(
            facts, r.ONE_TILE_PER_SUBGROUP, cost, target,
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
        if call.name not in LOADS or not facts.runs_in_loop(call):
            continue
        memory = facts.matrix_memory(call)
        if memory is None or memory[0] != "storage":
            continue
        seen.setdefault((call.function, memory[2].name), []).append(call)
    out = []
    for (function, variable), calls in seen.items():
        first = calls[0]
        count = f"{len(calls)} loads" if len(calls) > 1 else "this load"
        out.append(_finding(
            facts, r.STORAGE_LOADS_IN_LOOP, cost, target,
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
    multiply_ids = {c.node.id for c in facts.calls if c.name in MULTIPLIES}
    found: dict[tuple, tuple[ts.Node, ts.Node, ts.Node, object]] = {}  # (function, variable) -> first index
    unrollable: dict[int, bool] = {}  # function -> every such index is resolved by unrolling constant loops
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
        function_id = function.id if function is not None else 0
        unrollable[function_id] = unrollable.get(function_id, True) and _unrolls_to_constants(facts, node, index)
        key = (function_id, variable.name if variable is not None else facts.text(value))
        found.setdefault(key, (node, value, index, variable))
    out = []
    for (function_id, _), (node, value, index, _) in found.items():
        # The matrices indexed this way in one function are live together: their bytes a lane decide
        # whether the driver can keep them in registers once it has unrolled the loops.
        footprint = sum(_matrix_bytes_per_lane(variable, target) or 0
                        for (f, _), (_, _, _, variable) in found.items() if f == function_id)
        out.append(_finding(
            facts, r.RUNTIME_INDEXED_MATRICES, cost, target,
            f"the array of matrices '{facts.text(value)}' is indexed by '{facts.text(index)}', which is not a "
            "constant, in a loop that multiplies: the driver may keep the whole array in memory instead of "
            "registers; write the loop out so every index is a constant", facts.span(node),
            where={"matrix_bytes": footprint or None, "constant_trips": unrollable[function_id]}))
    return out


def _unrolls_to_constants(facts: ModuleFacts, node: ts.Node, index: ts.Node) -> bool:
    """Whether every name in the index is a constant or the variable of an enclosing loop with a constant
    trip count: unrolling those loops makes the index a constant."""
    counted = {}
    loop = enclosing_loop(node)
    while loop is not None:
        initializer = sn.initializer(loop) if loop.type == "for_statement" else None
        name = sn.name(initializer) if initializer is not None else None
        if name is not None:
            counted.setdefault(facts.text(name), facts.trip_count(loop) is not None)
        loop = enclosing_loop(loop)
    for name in (n for n in descendants(index) if n.type == "identifier"):
        if facts.constant(name) is None and not counted.get(facts.text(name), False):
            return False
    return True


def _matrix_bytes_per_lane(variable, target: Profile) -> int | None:
    """Bytes of one lane's share of every matrix in an array variable (arrays of arrays included)."""
    if variable is None or target.subgroup_min <= 0:
        return None
    kind, count = t.store_type(variable.type), 1
    while isinstance(kind, t.Array):
        if not isinstance(kind.count, int):
            return None
        count, kind = count * kind.count, kind.element
    element = byte_size(kind.element) if isinstance(kind, t.CoopMatrix) else None
    if element is None:
        return None
    return count * kind.columns * kind.rows * element // target.subgroup_min


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
        facts, r.WORKGROUP_MEMORY_OCCUPANCY, cost, target,
        f"this module's workgroup memory is {total / KIB:.1f} KiB ({parts}); {target.name} runs {best} workgroups "
        f"per multiprocessor at once only with at most {allowed / KIB:.1f} KiB each "
        f"({per_multiprocessor / KIB:.0f} KiB per multiprocessor), so fewer workgroups share each multiprocessor",
        largest.span, [Related(symbol.span, f"'{symbol.name}': {size / KIB:.1f} KiB") for symbol, size in sizes
                       if symbol is not largest], where={"workgroups_fit": per_multiprocessor // total})]


# ---------------------------------------------------------------- P005
ROWS_AT_ONCE = 8  # rows of a tile a load reads in one pass (16 bytes each)
ROW_BYTES = 16


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
    # The two causes share the time a slice takes: with the staging pipelined, the tile loads are what is
    # left to wait for, and padding gained 1.6x on ggml's kernel against 1.2x before (issue 32's walks).
    unpipelined = {name for found in unpipelined_loops(facts) for name in found.staged}
    pipelined = pipelined_staged(facts)
    out, seen = [], set()
    for call, variable, stride, element, degree in _conflicted_loads(facts, banks, width):
        stride_node = call.argument(STRIDE)
        key = (variable.name, stride)
        if degree < 2 or key in seen:
            continue
        seen.add(key)
        pad = ROW_BYTES // element if element <= ROW_BYTES and ROW_BYTES % element == 0 else None
        fixes = _padding_fix(facts, stride_node, variable, pad) if pad else ()
        finding = _finding(
            facts, r.BANK_CONFLICTS, cost, target,
            f"rows of '{key[0]}' are {stride * element} bytes apart ({stride} x {element}-byte elements): the "
            f"{ROWS_AT_ONCE} rows a tile load reads at once put up to {degree} in one bank of {target.name}'s "
            f"workgroup memory ({banks} banks of {width} bytes), so the load takes {degree} passes; pad each row by {ROW_BYTES} bytes"
            + (f" ({pad} element{'s' if pad > 1 else ''})" if pad else ""),
            facts.span(stride_node), (), fixes,
            where={"rows_per_bank": degree, "staging_pipelined": False if variable.name in unpipelined else
                   True if variable.name in pipelined else None})
        measured = [p.conditions["rows_per_bank"] for p in cost.pairs
                    if isinstance(p.conditions.get("rows_per_bank"), int)]
        if measured and degree < min(measured):
            # Fewer rows to a bank than any measured pair: they cost less, by an amount nobody measured.
            finding = replace(finding, severity=min(finding.severity, Severity.INFO),
                              message=finding.message + f"; the fewest rows to a bank a pair measured was "
                                                        f"{min(measured)}, this load has {degree}, so expect less")
        out.append(finding)
    return out


def _conflicted_loads(facts: ModuleFacts, banks: int, width: int) -> list:
    """(call, variable, stride, element bytes, rows to a bank) for each matrix load or store of workgroup
    memory at a constant stride whose byte stride is a whole number of banks."""
    out = []
    for call in facts.calls:
        if call.name not in LOADS | STORES:
            continue
        memory = facts.matrix_memory(call)
        stride_node = call.argument(STRIDE)
        if memory is None or memory[0] != "workgroup" or stride_node is None:
            continue
        _, array, variable = memory
        element = byte_size(array.element)
        stride = facts.constant(stride_node)
        if element is None or stride is None or stride <= 0 or (stride * element) % width:
            continue
        out.append((call, variable, stride, element, conflict_degree(stride * element, banks, width)))
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
            facts, r.SCALAR_HALF_LOADS, cost, target,
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
    """Every access Dawn's robustness checks in the kernel's hot code: matrix loads and stores on a
    runtime-sized storage array or at an offset that is not a constant, and in loops (or functions called
    in loops) plain indexing of an array by a value that is not a constant, whatever its address space.
    ggml's kernel multiplies from workgroup memory and copies with plain indexing: the matrix loads on
    storage that the rule first looked for are not where its 2.6x went."""
    cost = rule_cost(target.performance, r.BOUNDS_CHECKED_MATRIX_ACCESS.code)
    if cost is None or fact(target.performance, "bounds_checks", "default_on") is not True:
        return []
    matrix: dict[str, tuple[ts.Node, Span]] = {}  # variable -> first checked matrix access
    for call in facts.calls:
        memory = facts.matrix_memory(call) if call.name in LOADS | STORES else None
        if memory is None or memory[2].name in matrix:
            continue
        offset = call.argument(OFFSET)
        runtime_sized = memory[1].count is None
        if runtime_sized or (offset is not None and facts.constant(offset) is None):
            matrix[memory[2].name] = (call.node, call.name_span)
    plain: dict[str, tuple[ts.Node, Span]] = {}
    for node in descendants(facts.root):
        if node.type != "index_expression" or not _hot(facts, node):
            continue
        index = sn.index(node)
        if index is None or facts.constant(index) is not None or _holds_matrices(facts.type_of(sn.value(node))):
            continue  # arrays of matrices are P003's
        variable = facts.root_variable(node)
        kind = t.store_type(variable.type) if variable is not None and variable.kind == "var" else None
        if kind is None or not isinstance(kind, (t.Array, t.Struct)) or variable.name in plain:
            continue
        plain[variable.name] = (node, facts.span(node))
    if not matrix and not plain:
        return []
    parts = []
    if matrix:
        parts.append(f"matrix loads and stores on {_names(matrix)}")
    if plain:
        parts.append(f"indexing of {_names(plain)} in loops")
    first = min(list(matrix.values()) + list(plain.values()), key=lambda pair: pair[1].start)
    related = [Related(span, "also bounds-checked") for node, span in list(matrix.values()) + list(plain.values())
               if span != first[1]]
    return [_finding(
        facts, r.BOUNDS_CHECKED_MATRIX_ACCESS, cost, target,
        f"{' and '.join(parts)} are bounds-checked on {target.name} unless the application turns robustness "
        "off (Dawn toggle disable_robustness)", first[1], related[:8])]


def _holds_matrices(kind: t.Type | None) -> bool:
    if isinstance(kind, (t.Reference, t.Pointer)):
        kind = kind.store
    while isinstance(kind, t.Array):
        kind = kind.element
    return isinstance(kind, t.CoopMatrix)


def _names(found: dict) -> str:
    names = [f"'{name}'" for name in found]
    return ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")


def _hot(facts: ModuleFacts, node: ts.Node) -> bool:
    if enclosing_loop(node) is not None:
        return True
    function = _function_of(node)
    return function is not None and facts.text(sn.name(function)) in facts.called_in_loops


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
            facts, r.IDLE_MATRIX_UNITS, cost, target,
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


# ---------------------------------------------------------------- P009
def _unpipelined_staging(facts: ModuleFacts, target: Profile) -> list[Diagnostic]:
    cost = rule_cost(target.performance, r.UNPIPELINED_STAGING.code)
    if cost is None:
        return []
    banks = fact(target.performance, "memory_banks", "count")
    width = fact(target.performance, "memory_banks", "width_bytes")
    conflicted = ({variable.name for call, variable, _, _, degree in _conflicted_loads(facts, banks, width)
                   if degree >= 2 and call.name in LOADS} if banks and width and banks > 0 and width > 0 else None)
    out = []
    for found in unpipelined_loops(facts):
        keyword = found.loop.children[0] if found.loop.children else found.loop
        staged = ", ".join(f"'{name}'" for name in found.staged)
        out.append(_finding(
            facts, r.UNPIPELINED_STAGING, cost, target,
            f"this loop copies each slice from storage into {staged}, waits at a barrier, then multiplies: no "
            "read is in flight while the matrix units work; read the next slice into registers before the "
            "multiplies and write it to workgroup memory after them", facts.span(keyword),
            [Related(facts.span(found.write.node), "written here, before the multiplies"),
             Related(facts.span(found.barrier.node), "every subgroup waits here for the copy")],
            # Prefetching gains less while the tile loads from the staged rows conflict in banks: 1.1x on
            # ggml's kernel with them, 1.5x once padded (issue 32's walks).
            where={"bounds_checks": None,
                   "bank_conflicts": None if conflicted is None else bool(conflicted & set(found.staged))}))
    return out


# Every check plain linting runs; P007 (_bounds_checks) runs only beside a run.
_CHECKS = [_one_tile_per_subgroup, _unstaged_loads, _runtime_indexed_matrices, _workgroup_memory, _bank_conflicts,
           _scalar_half_loads, _idle_matrix_units, _unpipelined_staging]


def quoted_range(root: ts.Node, source: SourceText, model: SemanticModel, target: Profile,
                 code: str) -> tuple[float, float] | None:
    """The range of speed-ups rule `code`'s finding quotes for this kernel on `target` (the pairs like it,
    quote.py), or None where the target measured no pair for the rule. `--try` holds a measurement
    against it."""
    cost = rule_cost(target.performance, code)
    if cost is None:
        return None
    numeric = _CONDITIONS.get(code, (None, None))[0]
    pairs, _ = like_this(cost, rule_conditions(root, source, model, target, code), numeric)
    return min(p.slower for p in pairs), max(p.slower for p in pairs)
