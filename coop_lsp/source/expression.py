"""Integer expressions of `#if` / `#elif` (C's, plus naga_oil's `NAME == value` comparisons).

`defined(NAME)` and `defined NAME` ask whether a macro exists; any other name is replaced by its value
(a name with no macro is 0, `true` is 1 and `false` 0, as in C and naga_oil). A value that is not a
number compares by its text, so `#if TYPE == f16` works as naga_oil users write it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlLiI]*|([A-Za-z_]\w*)|(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>!~&|^?:,]))")


class ExpressionError(ValueError):
    pass


def tokenize(text: str) -> list[tuple[str, object]]:
    tokens, pos, text = [], 0, text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise ExpressionError(f"unexpected '{text[pos:].strip()[:20]}'")
        number, name, op = match.groups()
        if number is not None:
            tokens.append(("num", int(number, 0)))
        elif name is not None:
            tokens.append(("name", name))
        elif op is not None:
            tokens.append(("op", op))
        pos = match.end()
    return tokens


_BINARY = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
           "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}


class _Parser:
    def __init__(self, tokens, is_defined: Callable[[str], bool], value_of: Callable[[str], object]) -> None:
        self.tokens, self.pos = tokens, 0
        self.is_defined, self.value_of = is_defined, value_of

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self):
        token = self.peek()
        self.pos += 1
        return token

    def expect(self, op: str) -> None:
        if self.take() != ("op", op):
            raise ExpressionError(f"expected '{op}'")

    def parse(self):
        if not self.tokens:
            raise ExpressionError("empty expression")
        value = self.conditional()
        if self.pos != len(self.tokens):
            raise ExpressionError(f"unexpected '{self.peek()[1]}'")
        return value

    def conditional(self):
        condition = self.binary(1)
        if self.peek() == ("op", "?"):
            self.take()
            yes = self.conditional()
            self.expect(":")
            no = self.conditional()
            return yes if _truth(condition) else no
        return condition

    def binary(self, level: int):
        left = self.unary()
        while True:
            kind, op = self.peek()
            precedence = _BINARY.get(op) if kind == "op" else None
            if precedence is None or precedence < level:
                return left
            self.take()
            right = self.binary(precedence + 1)
            left = _apply(op, left, right)

    def unary(self):
        kind, value = self.take()
        if kind == "op" and value in ("!", "-", "+", "~"):
            operand = self.unary()
            if value == "!":
                return int(not _truth(operand))
            number = _number(operand)
            return {"-": -number, "+": number, "~": ~number}[value]
        if kind == "op" and value == "(":
            inner = self.conditional()
            self.expect(")")
            return inner
        if kind == "num":
            return value
        if kind == "name":
            if value == "defined":
                parenthesized = self.peek() == ("op", "(")
                if parenthesized:
                    self.take()
                name_kind, name = self.take()
                if name_kind != "name":
                    raise ExpressionError("defined() needs a macro name")
                if parenthesized:
                    self.expect(")")
                return int(self.is_defined(name))
            if value == "true":
                return 1
            if value == "false":
                return 0
            return self.value_of(value)
        raise ExpressionError("expected a value" if kind is None else f"unexpected '{value}'")


def _truth(value) -> bool:
    return bool(value) if isinstance(value, int) else value not in ("", "0", "false")


def _number(value) -> int:
    if isinstance(value, int):
        return value
    raise ExpressionError(f"'{value}' is not an integer")


def _apply(op: str, left, right):
    if op == "&&":
        return int(_truth(left) and _truth(right))
    if op == "||":
        return int(_truth(left) or _truth(right))
    if op in ("==", "!="):
        same = left == right if type(left) is type(right) else str(left) == str(right)
        return int(same if op == "==" else not same)
    a, b = _number(left), _number(right)
    if op in ("/", "%") and b == 0:
        raise ExpressionError("division by zero")
    if op in ("<<", ">>") and not 0 <= b < 64:
        raise ExpressionError("shift count out of range")
    return {"|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b, "<": lambda: int(a < b),
            ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
            "<<": lambda: a << b, ">>": lambda: a >> b, "+": lambda: a + b, "-": lambda: a - b,
            "*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a - b * int(a / b)}[op]()


def evaluate(text: str, is_defined: Callable[[str], bool], value_of: Callable[[str], object]) -> bool:
    """The truth of an `#if` expression; ExpressionError when it cannot be read."""
    return _truth(_Parser(tokenize(text), is_defined, value_of).parse())


def value_of_text(text: str, is_defined, value_of):
    """A macro's value inside an expression: a number when it reads as one, else its text."""
    stripped = text.strip()
    if not stripped:
        return 0
    try:
        return _Parser(tokenize(stripped), is_defined, value_of).parse()
    except (ExpressionError, RecursionError):
        return stripped
