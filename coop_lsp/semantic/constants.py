"""Constant evaluation of the operators WGSL evaluates at shader-creation time.

Values are Python ints, floats and bools; the type says how they overflow.
An error is returned as a message for the caller to report (T014).
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
    """Evaluates `left operator right` for scalars of `scalar` type; None when not constant."""
    if left is None or right is None:
        return None
    integer = scalar.is_integer
    try:
        if operator == "+":
            result = left + right
        elif operator == "-":
            result = left - right
        elif operator == "*":
            result = left * right
        elif operator == "/":
            if right == 0:
                raise ConstError("division by zero in a constant expression")
            result = int(left / right) if integer else left / right
        elif operator == "%":
            if right == 0:
                raise ConstError("remainder by zero in a constant expression")
            result = int(math.fmod(left, right)) if integer else math.fmod(left, right)
        elif operator == "<<":
            if right >= 32 and scalar.name in ("i32", "u32"):
                raise ConstError(f"shift by {right} is not less than the bit width 32")
            result = left << right
        elif operator == ">>":
            result = left >> right
        elif operator in ("&", "&&"):
            result = (left and right) if isinstance(left, bool) else left & right
        elif operator in ("|", "||"):
            result = (left or right) if isinstance(left, bool) else left | right
        elif operator == "^":
            result = left ^ right
        elif operator in ("<", ">", "<=", ">=", "==", "!="):
            return {"<": left < right, ">": left > right, "<=": left <= right, ">=": left >= right,
                    "==": left == right, "!=": left != right}[operator]
        else:
            return None
    except (OverflowError, ValueError, TypeError):
        return None
    if operator == "<<" and scalar.name in ("i32", "u32"):
        # A shift that drops bits is an error; a shift into the sign bit wraps for i32.
        bits = 32
        mask = (1 << bits) - 1
        if scalar.name == "u32" and result > mask:
            raise ConstError("shift overflows 'u32'")
        if scalar.name == "i32":
            result &= mask
            return result - (1 << bits) if result >= 1 << (bits - 1) else result
        return result
    return check_range(result, scalar)


def unary(operator: str, operand, scalar: t.Scalar):
    if operand is None:
        return None
    if operator == "-":
        return check_range(-operand, scalar)
    if operator == "!":
        return not operand
    if operator == "~":
        if scalar.name == "u32":
            return ~operand & 0xFFFFFFFF
        return ~operand
    return None
