"""WGSL types, including the matrix types of the three dialects.

Types are immutable values compared by structure. `ERROR` is the type of
anything that already has a diagnostic: every check accepts it silently, so
one mistake produces one message instead of a cascade.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class Type:
    """Base of all types; `describe()` is how messages spell the type (as WGSL does)."""

    def describe(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class ErrorType(Type):
    def describe(self) -> str:
        return "<error>"


ERROR = ErrorType()


@dataclass(frozen=True)
class Scalar(Type):
    name: str  # bool, i32, u32, f32, f16, abstract-int, abstract-float; u8/i8 only as matrix elements

    def describe(self) -> str:
        return self.name

    @property
    def is_abstract(self) -> bool:
        return self.name.startswith("abstract")

    @property
    def is_float(self) -> bool:
        return self.name in ("f32", "f16", "abstract-float")

    @property
    def is_integer(self) -> bool:
        return self.name in ("i32", "u32", "abstract-int", "u8", "i8")

    @property
    def byte_size(self) -> int:
        return {"f16": 2, "u8": 1, "i8": 1}.get(self.name, 4)


BOOL = Scalar("bool")
I32 = Scalar("i32")
U32 = Scalar("u32")
F32 = Scalar("f32")
F16 = Scalar("f16")
U8 = Scalar("u8")
I8 = Scalar("i8")
ABSTRACT_INT = Scalar("abstract-int")
ABSTRACT_FLOAT = Scalar("abstract-float")
CONCRETE_SCALARS = {s.name: s for s in (BOOL, I32, U32, F32, F16)}


@dataclass(frozen=True)
class Vector(Type):
    size: int
    element: Scalar

    def describe(self) -> str:
        return f"vec{self.size}<{self.element.describe()}>"


@dataclass(frozen=True)
class Matrix(Type):
    columns: int
    rows: int
    element: Scalar

    def describe(self) -> str:
        return f"mat{self.columns}x{self.rows}<{self.element.describe()}>"


@dataclass(frozen=True)
class Array(Type):
    element: Type
    # An int for a fixed size, None when runtime-sized, or the name of the
    # override expression for override-sized workgroup arrays.
    count: int | str | None

    def describe(self) -> str:
        if self.count is None:
            return f"array<{self.element.describe()}>"
        return f"array<{self.element.describe()}, {self.count}>"


@dataclass(frozen=True)
class StructMember:
    name: str
    type: Type


@dataclass(frozen=True, eq=False)
class Struct(Type):
    """Structs are nominal: two declarations with equal members are different types."""

    name: str
    members: tuple[StructMember, ...] = field(default=())

    def describe(self) -> str:
        return self.name

    def member(self, name: str) -> StructMember | None:
        for member in self.members:
            if member.name == name:
                return member
        return None


@dataclass(frozen=True)
class Atomic(Type):
    element: Scalar

    def describe(self) -> str:
        return f"atomic<{self.element.describe()}>"


ADDRESS_SPACES = ("function", "private", "workgroup", "uniform", "storage", "handle", "push_constant",
                  "immediate")
ACCESS_MODES = ("read", "write", "read_write")


def default_access(space: str) -> str:
    return "read_write" if space in ("function", "private", "workgroup") else "read"


@dataclass(frozen=True)
class Pointer(Type):
    space: str
    store: Type
    access: str

    def describe(self) -> str:
        return f"ptr<{self.space}, {self.store.describe()}, {self.access}>"


@dataclass(frozen=True)
class Reference(Type):
    """The type of a memory view: what a variable name or `*p` denotes before the load rule."""

    space: str
    store: Type
    access: str

    def describe(self) -> str:
        return f"ref<{self.space}, {self.store.describe()}, {self.access}>"


@dataclass(frozen=True)
class Opaque(Type):
    """Types the kernel can hold but not build: samplers, textures, ray queries, ..."""

    name: str

    def describe(self) -> str:
        return self.name


@dataclass(frozen=True)
class MatrixKind:
    """The role of a cooperative / subgroup matrix in a multiply."""

    dialect: str  # "wgpu", "chromium", "standard"
    role: str  # "left", "right", "result" (Tint and the proposal); "A", "B", "C" (naga)


@dataclass(frozen=True)
class CoopMatrix(Type):
    """A cooperative (naga) or subgroup (Tint, proposal) matrix.

    `columns` and `rows` follow each dialect's own template order: Tint's
    `subgroup_matrix_left<T, K, M>` has K columns and M rows; naga's
    `coop_mat8x8<T, R>` is square.
    """

    kind: MatrixKind
    element: Scalar
    columns: int
    rows: int

    def describe(self) -> str:
        if self.kind.dialect == "wgpu":
            return f"coop_mat{self.columns}x{self.rows}<{self.element.describe()}, {self.kind.role}>"
        return f"subgroup_matrix_{self.kind.role}<{self.element.describe()}, {self.columns}, {self.rows}>"


@dataclass(frozen=True)
class TypeOf(Type):
    """What a type expression denotes, so that `vec4<f32>` in `vec4<f32>(1.0)` can be typed."""

    type: Type

    def describe(self) -> str:
        return f"type {self.type.describe()}"


@dataclass(frozen=True)
class Enumerant(Type):
    """A context-dependent name used as a template argument: `storage`, `read_write`, `row_major`, `A`."""

    value: str

    def describe(self) -> str:
        return self.value


def store_type(value_type: Type) -> Type:
    """The load rule: a reference used as a value yields its store type."""
    return value_type.store if isinstance(value_type, Reference) else value_type


def element_scalar(value_type: Type) -> Scalar | None:
    if isinstance(value_type, Scalar):
        return value_type
    if isinstance(value_type, (Vector, Matrix, CoopMatrix, Atomic)):
        return value_type.element
    return None


def concretize(value_type: Type) -> Type:
    """Abstract numbers become i32 / f32 when nothing else decides (WGSL's default conversion)."""
    if value_type == ABSTRACT_INT:
        return I32
    if value_type == ABSTRACT_FLOAT:
        return F32
    if isinstance(value_type, Vector):
        return Vector(value_type.size, concretize(value_type.element))
    if isinstance(value_type, Matrix):
        return Matrix(value_type.columns, value_type.rows, concretize(value_type.element))
    if isinstance(value_type, Array):
        return Array(concretize(value_type.element), value_type.count)
    return value_type


def is_host_shareable(value_type: Type) -> bool:
    if isinstance(value_type, Scalar):
        return value_type.name in ("i32", "u32", "f32", "f16")
    if isinstance(value_type, (Vector, Matrix)):
        return is_host_shareable(value_type.element)
    if isinstance(value_type, Atomic):
        return True
    if isinstance(value_type, Array):
        return is_host_shareable(value_type.element)
    if isinstance(value_type, Struct):
        return all(is_host_shareable(m.type) for m in value_type.members)
    return False


def contains(value_type: Type, predicate) -> bool:
    if predicate(value_type):
        return True
    if isinstance(value_type, Array):
        return contains(value_type.element, predicate)
    if isinstance(value_type, Struct):
        return any(contains(m.type, predicate) for m in value_type.members)
    return False


def conversion_rank(source: Type, target: Type) -> int | None:
    """WGSL's automatic conversion rank (spec, "Conversion Rank"); None when impossible."""
    if source == target:
        return 0
    if isinstance(source, Scalar) and isinstance(target, Scalar):
        if source == ABSTRACT_FLOAT:
            return {"f32": 1, "f16": 2}.get(target.name)
        if source == ABSTRACT_INT:
            return {"i32": 3, "u32": 4, "abstract-float": 5, "f32": 6, "f16": 7}.get(target.name)
        return None
    if isinstance(source, Vector) and isinstance(target, Vector) and source.size == target.size:
        return conversion_rank(source.element, target.element)
    if isinstance(source, Matrix) and isinstance(target, Matrix) and (
            source.columns, source.rows) == (target.columns, target.rows):
        return conversion_rank(source.element, target.element)
    if isinstance(source, Array) and isinstance(target, Array) and source.count == target.count:
        return conversion_rank(source.element, target.element)
    return None
