"""Where the lanes of one subgroup really split, size by size: the subgroup level's loops and branches.

The subgroup level (levels.SUBGROUP) asks whether the lanes of one subgroup take the same path. Two
patterns need more than "depends on the lane id":

- Counting loops whose trip count is the same in every lane although the counter starts at a per-lane
  value: `for (var c = tx; c < 32u; c += nl)` with `tx = lane % nl` (ggml's flash-attention shaders), or
  `for (var i = lane; i < N; i += subgroup_size)`. Whatever the lane, c starts in [0, step) and the loop
  runs bound / step times when the bound is a multiple of the step.
- Branches that split a subgroup only at some subgroup sizes, or only under some mapping of invocations
  to subgroups: `if lane < 16u` splits 32-lane subgroups, not 16-lane ones; `if local_invocation_index <
  32u` in a 64-invocation workgroup splits no subgroup of 4 to 32 lanes when invocations are numbered
  into subgroups in order, but WGSL does not promise that order, and it splits 64-lane subgroups always.
  With the workgroup size known, `local_invocation_id.x` is read row by row of local_invocation_index
  (the condition changes at the threshold in every row and where each row starts), and
  `global_invocation_id.x` as the workgroup's offset plus local_invocation_id.x (a subgroup never spans
  two workgroups, so only the threshold modulo the width can split one).

Each is judged at every subgroup size the targets allow (WGSL allows powers of two from 4 to 128): the
same at every size, divergent at every size, or divergent at some sizes or mappings only (a warning that
names them). Values are evaluated per size: `subgroup_size` is the size, a `let` is its initializer.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import tree_sitter as ts

from ...semantic import types as t
from ...syntax import nodes as sn

# WGSL: a subgroup size is a power of two from 4 to 128.
ALL_SIZES = (4, 8, 16, 32, 64, 128)
_DEPTH = 24  # how far lets are followed: deep enough for real kernels, bounded for generated ones


@dataclass(frozen=True)
class Split:
    """How a loop's trip count or a branch splits a subgroup, over the allowed sizes."""

    diverging: tuple[int, ...]  # sizes at which lanes of one subgroup take different paths
    sizes: tuple[int, ...]  # the allowed sizes
    reason: str  # why they diverge (or may), for the note
    mapping: bool = False  # diverges at the other sizes too when invocations are not mapped in order

    @property
    def uniform(self) -> bool:
        return not self.diverging and not self.mapping

    @property
    def certain(self) -> bool:
        return self.diverging == self.sizes

    def depends_on(self) -> str:
        """What the divergence depends on, as a kernel author reads it."""
        if self.diverging:
            at = f"at subgroup size{'s' if len(self.diverging) > 1 else ''} {_listed(self.diverging)}"
            if self.mapping:
                return (f"{at}, and at {_listed([s for s in self.sizes if s not in self.diverging])} if "
                        "invocations are not numbered into subgroups in order of local_invocation_index "
                        "(WGSL does not promise an order)")
            return f"{at} (the targets allow {_listed(self.sizes)})"
        return ("only if invocations are not numbered into subgroups in order of local_invocation_index "
                "(WGSL does not promise an order)")


def _listed(sizes) -> str:
    sizes = list(sizes)
    return ", ".join(str(s) for s in sizes[:-1]) + (" and " if len(sizes) > 1 else "") + str(sizes[-1])


class LaneMath:
    """Values of expressions at one subgroup size: exact where uniform and known, else an exclusive upper
    bound for a non-negative per-lane value (the lane id is below the size)."""

    def __init__(self, model, text, workgroup: tuple[int, int, int] | None = None) -> None:
        self.model, self.text = model, text
        self.workgroup = workgroup  # the entry point's workgroup size, where known

    def source(self, node: ts.Node | None, depth: int = 0) -> str | None:
        """Which per-invocation index a value is: 'subgroup_invocation_id', 'local_invocation_index',
        'local_invocation_id.x' or 'global_invocation_id.x' (through lets), else None."""
        node = _bare(node)
        if node is None or depth > _DEPTH:
            return None
        if node.type == "member_expression":
            value, member = sn.value(node), sn.member(node)
            if member is None or self.text(member) != "x":
                return None
            base = self.source(value, depth + 1) if value is not None else None
            return f"{base}.x" if base in ("local_invocation_id", "global_invocation_id") else None
        if node.type != "identifier":
            return None
        builtin = self.builtin(node)
        if builtin is not None:
            return builtin
        symbol = self._symbol(node)
        value = self._let_value(symbol) if symbol is not None else None
        return self.source(value, depth + 1) if value is not None else None

    def _index_bound(self, source: str | None) -> int | None:
        """An exclusive upper bound of a per-invocation index within the workgroup (a subgroup lies within
        one workgroup), where the workgroup size is known."""
        if self.workgroup is None:
            return None
        if source == "local_invocation_index":
            return self.workgroup[0] * self.workgroup[1] * self.workgroup[2]
        if source == "local_invocation_id.x":
            return self.workgroup[0]
        return None

    def builtin(self, node: ts.Node) -> str | None:
        """The builtin value a parameter identifier (or a let bound to one) is."""
        symbol = self._symbol(node)
        if symbol is None:
            return None
        if symbol.kind == "parameter":
            return symbol.io_builtin
        value = self._let_value(symbol)
        return self.builtin(value) if value is not None and value.type == "identifier" else None

    def exact(self, node: ts.Node | None, size: int, depth: int = 0) -> int | None:
        node = _bare(node)
        if node is None or depth > _DEPTH:
            return None
        kind = node.type
        if kind == "int_literal":
            try:
                return int(self.text(node).rstrip("uUi"), 0)
            except ValueError:
                return None
        if kind == "identifier":
            symbol = self._symbol(node)
            if symbol is None:
                return None
            # An override's default is not its value: the pipeline may set another.
            if symbol.kind == "const" and isinstance(symbol.value, int) and not isinstance(symbol.value, bool):
                return symbol.value
            if symbol.kind == "parameter":
                return size if self.builtin(node) == "subgroup_size" else None
            value = self._let_value(symbol)
            return self.exact(value, size, depth + 1) if value is not None else None
        if kind == "binary_expression":
            operator = self.text(sn.operator(node))
            left = self.exact(sn.left(node), size, depth + 1)
            right = self.exact(sn.right(node), size, depth + 1)
            if left is None or right is None:
                return None
            return _apply(operator, left, right)
        if kind == "call_expression":
            callee = sn.callee(node)
            name = self.text(callee) if callee is not None else ""
            arguments = sn.arguments(node)
            values = [self.exact(a, size, depth + 1) for a in (arguments.named_children if arguments else [])]
            if not values or None in values:
                return None
            if name in ("max", "min") and len(values) == 2:
                return max(values) if name == "max" else min(values)
            if name in ("u32", "i32") and len(values) == 1:
                return values[0]
        return None

    def upper(self, node: ts.Node | None, size: int, depth: int = 0) -> int | None:
        """An exclusive upper bound of a non-negative value in any lane at this size, or None."""
        node = _bare(node)
        if node is None or depth > _DEPTH:
            return None
        exact = self.exact(node, size, depth)
        if exact is not None:
            return exact + 1 if exact >= 0 else None
        kind = node.type
        if kind == "identifier":
            symbol = self._symbol(node)
            if symbol is None:
                return None
            if symbol.kind == "parameter":
                builtin = self.builtin(node)
                return size if builtin == "subgroup_invocation_id" else self._index_bound(builtin)
            value = self._let_value(symbol)
            return self.upper(value, size, depth + 1) if value is not None else None
        if kind == "member_expression":
            return self._index_bound(self.source(node, depth))
        if kind == "binary_expression":
            operator = self.text(sn.operator(node))
            left_node, right_node = sn.left(node), sn.right(node)
            left = self.upper(left_node, size, depth + 1)
            right = self.exact(right_node, size, depth + 1)
            if operator == "%":
                if right is None or right <= 0:
                    return left  # `e % 0` is e in WGSL
                return min(right, left) if left is not None else right
            if operator == "&" and right is not None and right >= 0:
                return min(right + 1, left) if left is not None else right + 1
            if left is None or right is None or right < 0:
                return None
            if operator == "/":
                return left if right == 0 else (left - 1) // right + 1
            if operator == "+":
                return left + right
            if operator == "*":
                return (left - 1) * right + 1
            if operator == ">>":
                return ((left - 1) >> right) + 1 if right < 32 else None
        return None

    def _symbol(self, node: ts.Node):
        symbol = self.model.symbol_at(node.start_byte, node.end_byte)
        return symbol if symbol is not None and symbol.declaration is not None else None

    @staticmethod
    def _let_value(symbol) -> ts.Node | None:
        """A let's initializer (a `var` may change, so it is not followed)."""
        if symbol.kind == "let" and symbol.declaration.type == "let_declaration":
            return sn.value(symbol.declaration)
        return None


def _apply(operator: str, left: int, right: int) -> int | None:
    mask = 0xFFFFFFFF
    if operator == "+":
        return (left + right) & mask
    if operator == "-":
        return (left - right) & mask if left >= 0 and right >= 0 else left - right
    if operator == "*":
        return (left * right) & mask
    if operator == "/":
        return left if right == 0 else left // right  # WGSL: a division by zero gives the dividend
    if operator == "%":
        return 0 if right == 0 else left % right
    if operator == "&":
        return left & right
    if operator == "|":
        return left | right
    if operator == "<<":
        return (left << right) & mask if right < 32 else None
    if operator == ">>":
        return left >> right if right < 32 else None
    return None


def _bare(node: ts.Node | None) -> ts.Node | None:
    while node is not None and node.type == "paren_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def loop_split(loop: ts.Node, math: LaneMath, sizes: tuple[int, ...], assigns) -> Split | None:
    """How a counting loop `for (var i = start; i < bound; i += step)` splits a subgroup; None for a loop
    of another form (its condition is judged as any branch is). `assigns(body, name)`: whether the body
    changes the counter."""
    if loop.type != "for_statement":
        return None
    initializer = sn.initializer(loop)
    condition = _bare(sn.condition(loop))
    update = sn.update(loop)
    if initializer is None or condition is None or update is None or initializer.type != "variable_declaration":
        return None
    name_node, start = sn.name(initializer), sn.value(initializer)
    if name_node is None or start is None:
        return None
    name = math.text(name_node)
    if condition.type != "binary_expression":
        return None
    operator = math.text(sn.operator(condition))
    left, right = sn.left(condition), sn.right(condition)
    # `i <= B` runs as `i < B + 1`; `B > i` and `B >= i` are the same conditions written the other way.
    if operator in ("<", "<=") and math.text(left) == name:
        bound = right
    elif operator in (">", ">=") and math.text(right) == name:
        bound = left
    else:
        return None
    inclusive = operator in ("<=", ">=")
    step = _step(update, name, math)
    if step is None:
        return None
    body = sn.body(loop)
    header = f"'{math.text(start)}'"
    if body is not None and assigns(body, name):
        return Split(sizes, sizes, f"the body assigns the counter '{name}'")
    symbol = math.model.symbol_at(name_node.start_byte, name_node.end_byte)
    declared = t.store_type(symbol.type) if symbol is not None and symbol.type is not None else None
    if getattr(declared, "name", "") != "u32":
        return Split(sizes, sizes, f"the counter '{name}' is not a u32, so its start may be negative")
    diverging, reasons = [], []
    global_x = math.source(start) == "global_invocation_id.x"
    for size in sizes:
        step_value = math.exact(step, size) if not isinstance(step, int) else step
        bound_value = math.exact(bound, size)
        if bound_value is not None and inclusive:
            bound_value += 1
        start_below = math.upper(start, size)
        if step_value is None or step_value <= 0:
            why = f"the step '{math.text(step)}' is not a known constant" if not isinstance(step, int) else ""
        elif bound_value is None:
            why = f"the bound '{math.text(bound)}' is not a known constant"
        elif math.exact(start, size) is not None:
            continue  # start, bound and step are the same in every lane
        elif global_x and math.workgroup is not None:
            # global_invocation_id.x is workgroup_id.x * X plus a lane value below X, X the workgroup's
            # width: the same count in every lane when X divides both the step and the bound.
            width = math.workgroup[0]
            if step_value % width == 0 and bound_value % width == 0:
                continue
            why = (f"the start {header} is a workgroup offset plus a value below {width}, and {width} does not "
                   f"divide both the step {step_value} and the bound {bound_value}")
        elif start_below is None:
            why = f"the start {header} is not known to stay below the step"
        elif start_below <= gcd(step_value, bound_value):
            # Starts in [0, g) with g dividing both the step and the bound all run ceil(bound / step)
            # iterations: a lane starting later never reaches a further multiple of the step below the bound.
            continue
        elif start_below > step_value:
            why = f"the start {header} reaches {start_below - 1}, not below the step {step_value}"
        else:
            why = (f"the start {header} reaches {start_below - 1}, and the bound {bound_value} and the step "
                   f"{step_value} have no common divisor above it")
        diverging.append(size)
        reasons.append((size, why))
    if not diverging:
        return Split((), sizes, "")
    texts = list(dict.fromkeys(why for _, why in reasons))
    if len(texts) == 1:
        reason = texts[0]
    else:
        reason = "; ".join(f"at {size} lanes {why}" for size, why in reasons)
    return Split(tuple(diverging), sizes, reason)


def _step(update: ts.Node, name: str, math: LaneMath):
    """The step of `i += S`, `i = i + S` or `i++` (a node, or 1)."""
    if update.type == "increment_statement":
        operand = sn.operand(update)
        return 1 if operand is not None and math.text(operand) == name else None
    left, right = sn.left(update), sn.right(update)
    if left is None or right is None or math.text(left) != name:
        return None
    if update.type == "compound_assignment_statement" and math.text(update).replace(" ", "").startswith(f"{name}+="):
        return right
    right = _bare(right)
    if update.type == "assignment_statement" and right.type == "binary_expression" \
            and math.text(sn.operator(right)) == "+" \
            and math.text(sn.left(right)) == name:
        return sn.right(right)
    return None


def branch_split(condition: ts.Node | None, math: LaneMath, sizes: tuple[int, ...],
                 invocations: int | None) -> Split | None:
    """How a comparison (<, <=, >, >=, either side) of the lane id, local_invocation_index,
    local_invocation_id.x or global_invocation_id.x with a constant splits a subgroup; None for another
    condition. `invocations`: the workgroup's invocation count, where known."""
    condition = _bare(condition)
    if condition is None or condition.type != "binary_expression":
        return None
    operator = math.text(sn.operator(condition))
    left, right = _bare(sn.left(condition)), _bare(sn.right(condition))
    flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
    if operator not in flipped or left is None or right is None:
        return None
    variable, constant = left, right
    if math.source(left) is None:
        variable, constant, operator = right, left, flipped[operator]
    source = math.source(variable)
    if source is None:
        return None
    if operator in ("==", "!="):
        return None  # one lane apart from the rest: a split at every size (the plain analysis says so)
    values = {math.exact(constant, size) for size in sizes}
    if len(values) != 1 or None in values:
        return None
    value = values.pop()
    threshold = value + 1 if operator in ("<=", ">") else value  # the first index on the other side
    text = f"'{math.text(condition)}'"
    if source == "subgroup_invocation_id":
        diverging = tuple(s for s in sizes if 0 < threshold < s)
        return Split(diverging, sizes, f"{text} is true for some lanes and false for others of a subgroup "
                                       f"of more than {threshold} lanes")
    edges = _edges(source, threshold, math.workgroup, invocations)
    if edges is None:
        return None
    if not edges:
        return Split((), sizes, "")  # the same side for every invocation of a workgroup
    # Numbered into subgroups in order of local_invocation_index, a subgroup of S lanes holds both sides
    # exactly when an index where the condition changes is not a multiple of S (or S exceeds the
    # workgroup, which then fills one partial subgroup); any other mapping may split one at every size.
    diverging = tuple(s for s in sizes if any(e % s for e in edges) or (invocations is not None and s > invocations))
    mapping = len(diverging) < len(sizes)
    where = ("at invocation " + str(edges[0]) if len(edges) == 1
             else f"at local_invocation_index {_listed(edges[:4])}{' ...' if len(edges) > 4 else ''}")
    return Split(diverging, sizes, f"{text} splits the workgroup {where}", mapping)


def _edges(source: str, threshold: int, workgroup, invocations: int | None) -> list[int] | None:
    """The local_invocation_index values where `source < threshold` changes from one invocation to the
    next; None where the workgroup's size is needed and not known."""
    if source == "local_invocation_index":
        if threshold <= 0 or (invocations is not None and threshold >= invocations):
            return []
        return [threshold]
    if workgroup is None:
        return None
    width, rows = workgroup[0], workgroup[1] * workgroup[2]
    if source == "global_invocation_id.x":
        # Only the workgroup whose x range holds the threshold sees both sides, at threshold mod width;
        # a subgroup never spans two workgroups.
        threshold %= width
    if threshold <= 0 or threshold >= width:
        return []
    # Row r of the workgroup (fixed y and z) is indices r * width to (r + 1) * width - 1: the condition
    # changes at the threshold within each row and again where the next row starts.
    return sorted({r * width + threshold for r in range(rows)} | {r * width for r in range(1, rows)})
