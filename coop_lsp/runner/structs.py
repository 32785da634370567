"""Uniform and storage structs filled field by field from the run description.

    [[binding]]
    binding = 3
    fields = { m = "M", n = "N", k = "K", stride_01 = "K" }

Offsets come from coop_lsp.semantic.layout (WGSL's alignment and size
rules); fields not named are zero. Every mistake names the field's key.
"""

from __future__ import annotations

import difflib

from ..semantic import layout
from ..semantic import types as t
from .description import RunDescriptionError

_RANGES = {"u32": (0, 2**32 - 1), "i32": (-2**31, 2**31 - 1)}
_FORMATS = {"u32": "<u4", "i32": "<i4", "f32": "<f4", "f16": "<f2"}


def struct_bytes(struct: t.Struct, fields: dict, key: str, var_name: str, runtime_elements: int = 0) -> bytes:
    """The bytes of `struct` with `fields` (name -> number, list, or nested table) written in."""
    import numpy as np

    try:
        fixed = layout.struct_fields(struct)
        size = layout.size_of(struct) if not _runtime_tail(struct) else None
    except layout.LayoutError as error:
        raise RunDescriptionError(f"{key}: the struct '{struct.name}' of '{var_name}' cannot be filled: {error}") \
            from None
    if size is None:  # a runtime-sized last member: the buffer holds `runtime_elements` of it
        tail = fixed[-1]
        stride = layout.array_stride(tail.type)
        size = tail.offset + stride * max(runtime_elements, 1)
        size = -(-size // layout.align_of(struct)) * layout.align_of(struct)
    buffer = np.zeros(size, np.uint8)
    _fill(buffer, 0, struct, fields, key, np)
    return buffer.tobytes()


def _runtime_tail(struct: t.Struct) -> bool:
    last = struct.members[-1].type if struct.members else None
    return isinstance(last, t.Array) and last.count is None


def _fill(buffer, base: int, struct: t.Struct, fields: dict, key: str, np) -> None:
    by_name = {f.name: f for f in layout.struct_fields(struct)}
    for name, value in fields.items():
        field = by_name.get(name)
        if field is None:
            close = difflib.get_close_matches(name, list(by_name), n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise RunDescriptionError(f"{key}.{name}: the struct '{struct.name}' has no field '{name}' ({hint}"
                                      f"fields: {', '.join(by_name)})")
        _write(buffer, base + field.offset, field.type, value, f"{key}.{name}", np)


def _write(buffer, offset: int, value_type: t.Type, value, key: str, np) -> None:
    if isinstance(value_type, t.Atomic):
        value_type = value_type.element
    if isinstance(value_type, t.Struct):
        if not isinstance(value, dict):
            raise RunDescriptionError(f"{key}: a struct '{value_type.name}'; give its fields as a table, "
                                      "e.g. { x = 1 }")
        _fill(buffer, offset, value_type, value, key, np)
        return
    if isinstance(value_type, (t.Vector, t.Array, t.Matrix)):
        if isinstance(value_type, t.Vector):
            parts = [(value_type.element, i * value_type.element.byte_size) for i in range(value_type.size)]
        elif isinstance(value_type, t.Matrix):
            column = t.Vector(value_type.rows, value_type.element)
            stride = -(-layout.size_of(column) // layout.align_of(column)) * layout.align_of(column)
            parts = [(value_type.element, c * stride + r * value_type.element.byte_size)
                     for c in range(value_type.columns) for r in range(value_type.rows)]
        else:
            if not isinstance(value_type.count, int):
                raise RunDescriptionError(f"{key}: a runtime-sized array cannot be given in fields")
            stride = layout.array_stride(value_type)
            parts = [(value_type.element, i * stride) for i in range(value_type.count)]
        if not isinstance(value, list):
            raise RunDescriptionError(f"{key}: a '{value_type.describe()}'; give a list of up to {len(parts)} values")
        if len(value) > len(parts):
            raise RunDescriptionError(f"{key}: {len(value)} values for a '{value_type.describe()}', which holds "
                                      f"{len(parts)}")
        for i, ((element, at), item) in enumerate(zip(parts, value)):
            _write(buffer, offset + at, element, item, f"{key}[{i}]", np)
        return
    if not isinstance(value_type, t.Scalar) or value_type.name not in _FORMATS and value_type.name != "bool":
        raise RunDescriptionError(f"{key}: a '{value_type.describe()}' cannot be given in a run description")
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, (int, float)):
        raise RunDescriptionError(f"{key}: expected a number for a '{value_type.describe()}', got "
                                  f"{type(value).__name__}")
    name = "u32" if value_type.name == "bool" else value_type.name
    if name in _RANGES:
        if isinstance(value, float) and not value.is_integer():
            raise RunDescriptionError(f"{key}: {value} is not an integer, and the field is {name}")
        low, high = _RANGES[name]
        if not low <= value <= high:
            raise RunDescriptionError(f"{key}: {int(value)} does not fit the field's type {name} "
                                      f"({low} to {high})")
        value = int(value)
    elif name == "f16" and abs(value) > 65504:
        raise RunDescriptionError(f"{key}: {value} does not fit f16 (largest 65504)")
    data = np.array([value], dtype=_FORMATS[name]).view(np.uint8)
    buffer[offset:offset + data.size] = data
