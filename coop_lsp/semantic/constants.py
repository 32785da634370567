"""Constant evaluation of the operators and builtins WGSL evaluates at shader-creation time.

Values are Python ints, floats and bools; the type says how they overflow.
Concrete i32/u32 arithmetic wraps as it does at run time; abstract and
floating-point results must fit their type. Errors raise ConstError, which
the checker reports as T014.
"""

from __future__ import annotations

import math

from . import types as t

_RANGES = {
    "i32": (-(2**31), 2**31 - 1),
    "u32": (0, 2**32 - 1),
    "abstract-int": (-(2**63), 2**63 - 1),
}
_FLOAT_MAX = {"f32": 3.4028234663852886e38, "f16": 65504.0, "abstract-float": 1.7976931348623157e308}


class ConstError(Exception):
    """A constant expression that the compiler rejects."""


def check_range(value, scalar: t.Scalar):
    if isinstance(value, bool) or value is None:
        return value
    if scalar.name in _RANGES:
        low, high = _RANGES[scalar.name]
        if not low <= value <= high:
            raise ConstError(f"value {value} cannot be represented as '{scalar.describe()}'")
        return int(value)
    if scalar.name in _FLOAT_MAX:
        if math.isinf(value) or math.isnan(value) or abs(value) > _FLOAT_MAX[scalar.name]:
            raise ConstError(f"value {value} cannot be represented as '{scalar.describe()}'")
        return float(value)
    return value


def convert(value, source: t.Scalar, target: t.Scalar):
    """An implicit conversion of a constant (abstract to concrete); out of range is an error."""
    if value is None or isinstance(value, bool):
        return value
    if target.is_float:
        return check_range(float(value), target)
    if target.is_integer and isinstance(value, float):
        return None
    return check_range(value, target)


def _wrap(value: int, scalar: t.Scalar) -> int:
    if scalar.name == "u32":
        return value & 0xFFFFFFFF
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def parse_int_literal(text: str) -> tuple[int, t.Scalar]:
    suffix = text[-1] if text[-1] in "iu" else ""
    digits = text[:-1] if suffix else text
    value = int(digits, 16) if digits[:2].lower() == "0x" else int(digits)
    scalar = {"i": t.I32, "u": t.U32}.get(suffix, t.ABSTRACT_INT)
    return value, scalar


def parse_float_literal(text: str) -> tuple[float, t.Scalar]:
    suffix = ""
    is_hex = text[:2].lower() == "0x"
    if text[-1] in "fh" and not (is_hex and "p" not in text.lower()):
        suffix, text = text[-1], text[:-1]
    if is_hex:
        body = text if "p" in text.lower() else text + "p0"
        value = float.fromhex(body)
    else:
        value = float(text)
    scalar = {"f": t.F32, "h": t.F16}.get(suffix, t.ABSTRACT_FLOAT)
    return value, scalar


def binary(operator: str, left, right, scalar: t.Scalar):
    """Evaluates `left operator right` for operands of `scalar` type; None when not constant."""
    if left is None or right is None:
        return None
    if operator in ("<", ">", "<=", ">=", "==", "!="):
        return {"<": left < right, ">": left > right, "<=": left <= right, ">=": left >= right,
                "==": left == right, "!=": left != right}[operator]
    if operator in ("&&", "||"):
        return (left and right) if operator == "&&" else (left or right)
    concrete_int = scalar.name in ("i32", "u32")
    if operator in ("/", "%") and right == 0:
        if scalar.is_integer:
            raise ConstError("integer division by zero" if operator == "/" else "integer remainder by zero")
        raise ConstError(f"'{left} {operator} {right}' cannot be represented as '{scalar.describe()}'")
    if operator in ("/", "%") and right == -1 and left == _SIGNED_MIN.get(scalar.name):
        # The one signed quotient that does not fit; Tint rejects the remainder too.
        raise ConstError(f"'{left} {operator} {right}' cannot be represented as '{scalar.describe()}'")
    if operator == "+":
        result = left + right
    elif operator == "-":
        result = left - right
    elif operator == "*":
        result = left * right
    elif operator == "/":
        result = int(left / right) if scalar.is_integer else left / right
    elif operator == "%":
        result = int(math.fmod(left, right)) if scalar.is_integer else math.fmod(left, right)
    elif operator in ("<<", ">>") and right < 0:
        raise ConstError(f"shift by a negative amount ({right})")
    elif operator in ("<<", ">>") and not concrete_int and right >= 64:
        # An abstract integer shifted past its 64 bits is an error only if bits are lost: 0 << 70 is 0,
        # and a right shift ends at 0 or -1.
        if operator == "<<" and left != 0:
            raise ConstError(f"'{left} << {right}' shifts every bit out of an abstract integer")
        result = 0 if operator == "<<" or left >= 0 else -1
    elif operator == "<<":
        if concrete_int and right >= 32:
            raise ConstError(f"shift left value must be less than the bit width of the left operand (32), "
                             f"not {right}")
        result = left << right
        if scalar.name == "i32" and not -(2**31) <= result < 2**31:
            raise ConstError("shift left operation results in sign change")
        if scalar.name == "u32" and result > 0xFFFFFFFF:
            raise ConstError("shift left operation drops bits of a 'u32'")
        return check_range(result, scalar) if not concrete_int else _wrap(result, scalar)
    elif operator == ">>":
        if concrete_int and right >= 32:
            raise ConstError(f"shift right value must be less than the bit width of the left operand (32), "
                             f"not {right}")
        result = left >> right
    elif operator in ("&", "|", "^"):
        if isinstance(left, bool):
            return {"&": left and right, "|": left or right, "^": left != right}[operator]
        result = {"&": left & right, "|": left | right, "^": left ^ right}[operator]
    else:
        return None
    if concrete_int:
        return _wrap(int(result), scalar)
    try:
        return check_range(result, scalar)
    except ConstError as error:
        raise ConstError(f"overflow: {error}") from None


_SIGNED_MIN = {"i32": -(2**31), "abstract-int": -(2**63)}


def unary(operator: str, operand, scalar: t.Scalar):
    if operand is None:
        return None
    if operator == "-":
        if scalar.name in ("i32", "u32"):
            return _wrap(-operand, scalar)
        if operand == _SIGNED_MIN["abstract-int"] and scalar == t.ABSTRACT_INT:
            return operand  # two's complement: the most negative value is its own negation (as in Tint)
        return check_range(-operand, scalar)
    if operator == "!":
        return not operand
    if operator == "~":
        if not isinstance(operand, int) or isinstance(operand, bool):
            return None  # '~' of a non-integer is a type error, reported elsewhere
        return ~operand & 0xFFFFFFFF if scalar.name == "u32" else ~operand
    return None


def _sqrt(x):
    if x < 0:
        raise ConstError("sqrt must be called with a value >= 0")
    return math.sqrt(x)


def _clamp(e, low, high):
    if low > high:
        raise ConstError("clamp called with 'low' greater than 'high'")
    return min(max(e, low), high)


def _log(x, base=None):
    if x <= 0:
        raise ConstError("log must be called with a value > 0")
    return math.log(x) if base is None else math.log(x, base)


# Builtins evaluated on scalar constants; others fold to "constant, value unknown".
SCALAR_BUILTINS = {
    "abs": abs, "min": min, "max": max, "clamp": _clamp, "sqrt": _sqrt,
    "floor": math.floor, "ceil": math.ceil, "trunc": math.trunc,
    "round": lambda x: float(round(x)), "sign": lambda x: (x > 0) - (x < 0),
    "select": lambda f, tv, cond: tv if cond else f, "pow": math.pow,
    "exp": math.exp, "exp2": lambda x: 2.0 ** x, "log": _log, "log2": lambda x: _log(x, 2),
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "fma": lambda a, b, c: a * b + c,
    "saturate": lambda x: min(max(x, 0.0), 1.0), "degrees": math.degrees, "radians": math.radians,
    "all": lambda x: bool(x), "any": lambda x: bool(x),
}


def builtin(name: str, args: list, scalar: t.Scalar | None):
    function = SCALAR_BUILTINS.get(name)
    if function is None or any(a is None for a in args) or scalar is None:
        return None
    if name == "abs" and args[0] == _SIGNED_MIN.get(scalar.name):
        return args[0]  # abs of the most negative integer wraps to itself, as in Tint
    try:
        result = function(*args)
    except (OverflowError, ValueError, TypeError):
        return None
    if isinstance(result, float) and scalar.is_integer:
        result = int(result)
    return check_range(result, scalar) if not isinstance(result, bool) else result
