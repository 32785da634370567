"""Memory layout of host-shareable types (WGSL spec, "Alignment and Size").

The runner fills uniform and storage structs field by field from these
offsets, so they must be exactly what the compiler lays out: vec3 aligns to
16 bytes but is 12 long, a struct aligns to its widest member and rounds its
size up to that, @align and @size override a member's own.

The only size and alignment code: the checks (@align, @size, the 4 GiB array
limit) ask size_and_align, the performance rules (P004's workgroup memory)
and the runner ask size_of and struct_fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import types as t


class LayoutError(ValueError):
    """The type has no fixed host layout (a runtime-sized array, a handle, an unresolved type)."""


def align_of(value: t.Type) -> int:
    if isinstance(value, t.Scalar):
        return value.byte_size
    if isinstance(value, t.Atomic):
        return 4
    if isinstance(value, t.Vector):
        element = value.element.byte_size
        return element * (4 if value.size == 3 else value.size)
    if isinstance(value, t.Matrix):
        return align_of(t.Vector(value.rows, value.element))
    if isinstance(value, t.Array):
        return align_of(value.element)
    if isinstance(value, t.Struct):
        return max((member.align or align_of(member.type) for member in value.members), default=1)
    raise LayoutError(f"'{value.describe()}' has no host-shareable layout")


def size_of(value: t.Type) -> int:
    if isinstance(value, (t.Scalar, t.Atomic)):
        return 4 if isinstance(value, t.Atomic) else value.byte_size
    if isinstance(value, t.Vector):
        return value.element.byte_size * value.size
    if isinstance(value, t.Matrix):
        column = t.Vector(value.rows, value.element)
        return value.columns * _round_up(size_of(column), align_of(column))
    if isinstance(value, t.Array):
        if not isinstance(value.count, int):
            raise LayoutError(f"'{value.describe()}' has no fixed size")
        return value.count * array_stride(value)
    if isinstance(value, t.Struct):
        fields = struct_fields(value)
        end = max((f.offset + f.size for f in fields), default=0)
        return _round_up(end, align_of(value))
    raise LayoutError(f"'{value.describe()}' has no host-shareable layout")


def array_stride(value: t.Array) -> int:
    return _round_up(size_of(value.element), align_of(value.element))


@dataclass(frozen=True)
class Field:
    name: str
    type: t.Type
    offset: int
    size: int  # the bytes the member occupies (its @size where given)


def struct_fields(value: t.Struct) -> list[Field]:
    """Each member with its byte offset. A runtime-sized last member gets size 0."""
    out, offset = [], 0
    for member in value.members:
        offset = _round_up(offset, member.align or align_of(member.type))
        runtime = isinstance(member.type, t.Array) and member.type.count is None
        size = member.size if member.size is not None else (0 if runtime else size_of(member.type))
        out.append(Field(member.name, member.type, offset, size))
        offset += size
    return out


def size_and_align(value: t.Type) -> tuple[int | None, int]:
    """(size, alignment) in bytes for the checks: size None where the type has no fixed size (a runtime-sized
    array, or a struct that ends in one), and (None, 1) where it has no layout at all (a handle, an error)."""
    try:
        align = align_of(value)
    except LayoutError:
        return None, 1
    if isinstance(value, t.Struct) and value.members and isinstance(value.members[-1].type, t.Array) \
            and not isinstance(value.members[-1].type.count, int):
        return None, align
    try:
        return size_of(value), align
    except LayoutError:
        return None, align


def byte_size(value: t.Type) -> int | None:
    """The bytes a value of this type takes, or None where that is not fixed."""
    return size_and_align(value)[0]


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple
