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

Each is judged at every subgroup size the targets allow (WGSL allows powers of two from 4 to 128): the
same at every size, divergent at every size, or divergent at some sizes or mappings only (a warning that
names them). Values are evaluated per size: `subgroup_size` is the size, a `let` is its initializer.
"""

from __future__ import annotations

from dataclasses import dataclass

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

    def __init__(self, model, text) -> None:
        self.model, self.text = model, text

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
                return size if self.builtin(node) == "subgroup_invocation_id" else None
            value = self._let_value(symbol)
            return self.upper(value, size, depth + 1) if value is not None else None
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
    if operator == "<" and math.text(left) == name:
        bound = right
    elif operator == ">" and math.text(right) == name:
        bound = left
    else:
        return None
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
    for size in sizes:
        step_value = math.exact(step, size) if not isinstance(step, int) else step
        bound_value = math.exact(bound, size)
        start_below = math.upper(start, size)
        if step_value is None or step_value <= 0:
            why = f"the step '{math.text(step)}' is not a known constant" if not isinstance(step, int) else ""
        elif bound_value is None:
            why = f"the bound '{math.text(bound)}' is not a known constant"
        elif math.exact(start, size) is not None:
            continue  # start, bound and step are the same in every lane
        elif start_below is None:
            why = f"the start {header} is not known to stay below the step"
        elif start_below > step_value:
            why = f"the start {header} reaches {start_below - 1}, not below the step {step_value}"
        elif bound_value % step_value:
            why = f"the bound {bound_value} is not a multiple of the step {step_value}"
        else:
            continue  # every lane runs bound / step iterations
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
    """How `lane < C` or `local_invocation_index < C` (any comparison, either side) splits a subgroup;
    None for another condition. `invocations`: the workgroup's invocation count, where known."""
    condition = _bare(condition)
    if condition is None or condition.type != "binary_expression":
        return None
    operator = math.text(sn.operator(condition))
    left, right = _bare(sn.left(condition)), _bare(sn.right(condition))
    flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
    if operator not in flipped or left is None or right is None:
        return None
    variable, constant = left, right
    if left.type != "identifier" or math.builtin(left) is None:
        variable, constant, operator = right, left, flipped[operator]
    if variable.type != "identifier":
        return None
    builtin = math.builtin(variable)
    if builtin not in ("subgroup_invocation_id", "local_invocation_index"):
        return None
    if operator in ("==", "!="):
        return None  # one lane apart from the rest: a split at every size (the plain analysis says so)
    values = {math.exact(constant, size) for size in sizes}
    if len(values) != 1 or None in values:
        return None
    value = values.pop()
    threshold = value + 1 if operator in ("<=", ">") else value  # the first index on the other side
    text = f"'{math.text(condition)}'"
    if builtin == "subgroup_invocation_id":
        diverging = tuple(s for s in sizes if 0 < threshold < s)
        return Split(diverging, sizes, f"{text} is true for some lanes and false for others of a subgroup "
                                       f"of more than {threshold} lanes")
    if threshold <= 0 or (invocations is not None and threshold >= invocations):
        return Split((), sizes, "")  # the same side for every invocation of the workgroup
    # A subgroup of S lanes is split whatever the mapping when `threshold` is not a multiple of S (the
    # first `threshold` invocations cannot fill whole subgroups); when it is, only a mapping other than
    # in order of local_invocation_index splits one.
    diverging = tuple(s for s in sizes if threshold % s or (invocations is not None and s > invocations))
    mapping = len(diverging) < len(sizes)
    return Split(diverging, sizes, f"{text} splits the workgroup at invocation {threshold}", mapping)
