"""What the performance rules read from a module: matrix calls, loops, constants and workgroup memory."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from ...core.text import SourceText, Span
from ...semantic import types as t
from ...semantic.builtins.language import LOAD, MULTIPLY, STORE, call_parameters, matrix_builtin_names
from ...semantic.layout import byte_size  # noqa: F401 - the checks' workgroup-memory figures (one layout)
from ...semantic.model import SemanticModel
from ...syntax import nodes as sn

LOADS = set(matrix_builtin_names(LOAD))
STORES = set(matrix_builtin_names(STORE))
MULTIPLIES = set(matrix_builtin_names(MULTIPLY))
LOOPS = ("for_statement", "while_statement", "loop_statement")
# Parameter names, as the builtin table spells them, of what the rules read from a matrix call. The rules
# find arguments by name, so Tint's deprecated bool-majorness forms, its template forms, the draft's and
# naga's all give the same findings; naga names a multiply's operands a, b and c.
POINTER = ("p",)
STRIDE = ("stride",)
OFFSET = ("offset",)
LEFT = ("left", "a")
RIGHT = ("right", "b")
_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "/": lambda a, b: a // b if b else None, "%": lambda a, b: a % b if b else None,
               "<<": lambda a, b: a << b if 0 <= b < 64 else None, ">>": lambda a, b: a >> b if 0 <= b < 64 else None}


@dataclass
class MatrixCall:
    node: ts.Node  # the call_expression
    name: str
    name_span: Span
    arguments: list[ts.Node]
    function: str  # the enclosing function's name
    in_loop: bool  # lexically inside a loop of its function

    def argument(self, names: tuple[str, ...]) -> ts.Node | None:
        """The argument passed for the first of these parameter names the resolved overload has."""
        parameters = call_parameters(self.name, len(self.arguments)) or ()
        for name in names:
            if name in parameters:
                return self.arguments[parameters.index(name)]
        return None


@dataclass
class ModuleFacts:
    root: ts.Node
    source: SourceText
    model: SemanticModel
    functions: dict[str, ts.Node] = field(default_factory=dict)
    # Functions that run inside a loop of some caller (transitively).
    called_in_loops: set[str] = field(default_factory=set)
    calls: list[MatrixCall] = field(default_factory=list)
    # (rule code, the rule's facts about the kernel) of every finding made from these facts, in order: the
    # conditions a measured pair records (benchmarks/perf_rules.py --update-profile reads them).
    conditions: list[tuple[str, dict]] = field(default_factory=list)

    def text(self, node: ts.Node) -> str:
        return self.source.slice(Span(node.start_byte, node.end_byte))

    def span(self, node: ts.Node) -> Span:
        return Span(node.start_byte, node.end_byte)

    def runs_in_loop(self, call: MatrixCall) -> bool:
        return call.in_loop or call.function in self.called_in_loops

    def type_of(self, node: ts.Node) -> t.Type | None:
        return self.model.type_at(node.start_byte, node.end_byte, node.type)

    def constant(self, node: ts.Node | None) -> int | None:
        """The integer value of a constant expression built from literals, consts and arithmetic, else None."""
        if node is None:
            return None
        if node.type == "int_literal":
            digits = self.text(node).rstrip("iu")
            try:
                return int(digits, 16) if digits.lower().startswith("0x") else int(digits)
            except ValueError:
                return None
        if node.type == "identifier":
            symbol = self.model.symbol_at(node.start_byte, node.end_byte)
            if symbol is not None and symbol.kind == "const" and isinstance(symbol.value, int) \
                    and not isinstance(symbol.value, bool):
                return symbol.value
            return None
        if node.type == "paren_expression" and node.named_child_count == 1:
            return self.constant(node.named_children[0])
        if node.type == "binary_expression":
            operator = sn.operator(node)
            left = self.constant(sn.left(node))
            right = self.constant(sn.right(node))
            apply = _ARITHMETIC.get(self.text(operator)) if operator is not None else None
            if apply is None or left is None or right is None:
                return None
            return apply(left, right)
        return None

    def trip_count(self, loop: ts.Node) -> int | None:
        """How many times `for (var i = A; i < B; i += C)` runs when A, B and C are constants and the body
        never assigns i (`i++`, `<`, `<=`, `!=` and `+=` forms), else None: a driver can unroll such a loop
        and so name every element an index in it reaches."""
        if loop.type != "for_statement":
            return None
        init, condition, update = sn.initializer(loop), sn.condition(loop), sn.update(loop)
        if init is None or condition is None or update is None or init.type != "variable_declaration" \
                or condition.type != "binary_expression":
            return None
        name = sn.name(init)
        start = self.constant(sn.value(init))
        if name is None or start is None:
            return None
        variable = self.text(name)
        left, right = sn.left(condition), sn.right(condition)
        operator = sn.operator(condition)
        end = self.constant(right)
        if left is None or self.text(left) != variable or end is None or operator is None:
            return None
        if update.type == "increment_statement" and self.text(sn.operand(update)) == variable:
            step = 1
        elif update.type == "compound_assignment_statement" and self.text(sn.left(update)) \
                == variable and self.text(sn.operator(update)) == "+=":
            step = self.constant(sn.right(update))
        else:
            return None
        if not step or step <= 0:
            return None
        body = sn.body(loop)
        for node in descendants(body) if body is not None else ():
            target = sn.left(node) if node.type in (
                "assignment_statement", "compound_assignment_statement") else \
                sn.operand(node) if node.type in ("increment_statement",
                                                                     "decrement_statement") else None
            if target is not None and self.text(target) == variable:
                return None
        last = {"<": end, "<=": end + 1, "!=": end}.get(self.text(operator))
        return max(0, -(-(last - start) // step)) if last is not None else None

    def pointee(self, argument: ts.Node) -> tuple[str, t.Type] | None:
        """(address space, store type) of a pointer argument such as `&a` or `p`."""
        kind = self.type_of(argument)
        if isinstance(kind, t.Pointer):
            return kind.space, kind.store
        return None

    def matrix_memory(self, call: MatrixCall) -> tuple[str, t.Type, object] | None:
        """(address space, the array's type, its variable) of the memory a matrix load or store names, for
        Tint's `&arr` and naga's `&arr[i]` alike (naga points at an element: the array is the variable's)."""
        pointer = call.argument(POINTER)
        pointee = self.pointee(pointer) if pointer is not None else None
        variable = self.root_variable(pointer) if pointer is not None else None
        if pointee is None or variable is None:
            return None
        space, store = pointee
        if not isinstance(store, t.Array):
            store = t.store_type(variable.type)
            while isinstance(store, t.Array) and isinstance(store.element, t.Array):
                store = store.element
        return (space, store, variable) if isinstance(store, t.Array) else None

    def root_variable(self, node: ts.Node):
        """The symbol a `&x`, `x[i]`, `(*p)[i]` or `x.m` expression starts from."""
        while node is not None:
            if node.type == "identifier":
                return self.model.symbol_at(node.start_byte, node.end_byte)
            if node.type in ("unary_expression",):
                node = sn.operand(node)
            elif node.type in ("index_expression", "member_expression"):
                node = sn.value(node)
            elif node.type == "paren_expression" and node.named_child_count == 1:
                node = node.named_children[0]
            else:
                return None
        return None


def callee_name(call: ts.Node, source: SourceText) -> tuple[str, Span] | None:
    callee = sn.callee(call)
    if callee is None:
        return None
    name = sn.name(callee) if callee.type == "templated_identifier" else callee
    if name is None or name.type != "identifier":
        return None
    span = Span(name.start_byte, name.end_byte)
    return source.slice(span), span


def arguments_of(call: ts.Node) -> list[ts.Node]:
    arguments = sn.arguments(call)
    return [a for a in (arguments.named_children if arguments is not None else []) if not a.is_extra]


def enclosing_loop(node: ts.Node) -> ts.Node | None:
    """The innermost loop around `node` inside its function."""
    node = node.parent
    while node is not None and node.type != "function_declaration":
        if node.type in LOOPS:
            return node
        node = node.parent
    return None


def descendants(node: ts.Node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def collect(root: ts.Node, source: SourceText, model: SemanticModel) -> ModuleFacts:
    facts = ModuleFacts(root, source, model)
    loop_calls: dict[str, set[str]] = {}  # function -> user functions it calls inside its loops
    all_calls: dict[str, set[str]] = {}  # function -> user functions it calls anywhere
    for function in root.named_children:
        if function.type != "function_declaration":
            continue
        name_node = sn.name(function)
        if name_node is not None:
            facts.functions[facts.text(name_node)] = function
    for name, function in facts.functions.items():
        loop_calls[name], all_calls[name] = set(), set()
        for node in descendants(function):
            if node.type != "call_expression":
                continue
            called = callee_name(node, source)
            if called is None:
                continue
            callee, span = called
            in_loop = enclosing_loop(node) is not None
            if callee in facts.functions:
                all_calls[name].add(callee)
                if in_loop:
                    loop_calls[name].add(callee)
            elif callee in LOADS | STORES | MULTIPLIES:
                facts.calls.append(MatrixCall(node, callee, span, arguments_of(node), name, in_loop))
    # A function called in a loop runs in a loop, and so does everything it calls.
    pending = [callee for callees in loop_calls.values() for callee in callees]
    while pending:
        callee = pending.pop()
        if callee in facts.called_in_loops:
            continue
        facts.called_in_loops.add(callee)
        pending.extend(all_calls.get(callee, ()))
    return facts


def multiply_configurations(root: ts.Node, source: SourceText, model: SemanticModel) -> list[tuple[str, str]]:
    """(component type, result type) of every matrix multiply in the module, one entry per call site.

    The matrix units' peak depends on the configuration a kernel multiplies with, not on the types of the
    buffers it reads: ggml reads f32 and converts it to f16 before its f16 multiplies."""
    facts = collect(root, source, model)
    out = []
    for call in facts.calls:
        left = call.argument(LEFT)
        if call.name not in MULTIPLIES or left is None:
            continue
        operand, result = t.store_type(facts.type_of(left)), t.store_type(facts.type_of(call.node))
        if isinstance(operand, t.CoopMatrix) and isinstance(result, t.CoopMatrix):
            out.append((operand.element.describe(), result.element.describe()))
    return out
