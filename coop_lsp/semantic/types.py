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
        return self.name in ("f32", "f16", "abstract-float", "f64")

    @property
    def is_integer(self) -> bool:
        return self.name in ("i32", "u32", "abstract-int", "u8", "i8", "i64", "u64")

    @property
    def byte_size(self) -> int:
        return {"f16": 2, "u8": 1, "i8": 1, "i64": 8, "u64": 8, "f64": 8}.get(self.name, 4)


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
    # The values of @align(N) and @size(N) where the member has them.
    align: int | None = None
    size: int | None = None
    builtin: str | None = None  # its @builtin value, where it is an entry point's IO


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
                  "immediate", "pixel_local")
ACCESS_MODES = ("read", "write", "read_write")


def default_access(space: str) -> str:
    return "read_write" if space in ("function", "private", "workgroup", "pixel_local") else "read"


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


# Texel formats of storage textures, by the scalar type their texels read as (WGSL "Texel Formats",
# plus the formats of Tint's texture_formats_tier1 and naga's extra formats).
F32_TEXEL_FORMATS = ("rgba8unorm", "rgba8snorm", "bgra8unorm", "rgba16float", "r32float", "rg32float",
                     "rgba32float", "r8unorm", "r8snorm", "rg8unorm", "rg8snorm", "r16float", "rg16float",
                     "rgb10a2unorm", "rg11b10ufloat", "r16unorm", "r16snorm", "rg16unorm", "rg16snorm",
                     "rgba16unorm", "rgba16snorm")
I32_TEXEL_FORMATS = ("rgba8sint", "rgba16sint", "r32sint", "rg32sint", "rgba32sint", "r8sint", "rg8sint",
                     "r16sint", "rg16sint")
U32_TEXEL_FORMATS = ("rgba8uint", "rgba16uint", "r32uint", "rg32uint", "rgba32uint", "r8uint", "rg8uint",
                     "r16uint", "rg16uint", "rgb10a2uint")
TEXEL_FORMATS = F32_TEXEL_FORMATS + I32_TEXEL_FORMATS + U32_TEXEL_FORMATS

# Every texture type by name: its kind and its dimensionality.
SAMPLED_TEXTURES = ("texture_1d", "texture_2d", "texture_2d_array", "texture_3d", "texture_cube",
                    "texture_cube_array", "texture_multisampled_2d", "texture_multisampled_2d_array")
DEPTH_TEXTURES = ("texture_depth_2d", "texture_depth_2d_array", "texture_depth_cube", "texture_depth_cube_array",
                  "texture_depth_multisampled_2d")
STORAGE_TEXTURES = ("texture_storage_1d", "texture_storage_2d", "texture_storage_2d_array", "texture_storage_3d")
TEXTURE_NAMES = SAMPLED_TEXTURES + DEPTH_TEXTURES + STORAGE_TEXTURES + ("texture_external", "texel_buffer")


@dataclass(frozen=True)
class Texture(Type):
    """A texture: sampled (`texture_2d<f32>`), depth, multisampled, storage
    (`texture_storage_2d<rgba8unorm, write>`), external, or Tint's texel buffer."""

    name: str
    sampled: Scalar | None = None  # the sampled type of sampled and multisampled textures
    format: str | None = None  # the texel format of storage textures
    access: str | None = None  # the access mode of storage textures

    def describe(self) -> str:
        if self.sampled is not None:
            return f"{self.name}<{self.sampled.describe()}>"
        if self.format is not None:
            return f"{self.name}<{self.format}, {self.access}>"
        return self.name

    @property
    def kind(self) -> str:
        if self.name in STORAGE_TEXTURES or self.name == "texel_buffer":
            return "storage"
        if self.name == "texture_external":
            return "external"
        if self.name.startswith("texture_depth"):
            return "depth"
        return "sampled"


@dataclass(frozen=True)
class Sampler(Type):
    comparison: bool = False

    def describe(self) -> str:
        return "sampler_comparison" if self.comparison else "sampler"


@dataclass(frozen=True)
class BindingArray(Type):
    """An array of resources (`binding_array<texture_2d<f32>, 4>`); naga's and Tint's."""

    element: Type
    count: int | None

    def describe(self) -> str:
        if self.count is None:
            return f"binding_array<{self.element.describe()}>"
        return f"binding_array<{self.element.describe()}, {self.count}>"


def is_handle(value_type: Type) -> bool:
    """Textures, samplers and arrays of them live in the 'handle' address space."""
    return isinstance(value_type, (Texture, Sampler, BindingArray)) or (
        isinstance(value_type, Opaque) and value_type.name.split("<")[0] in (
            "acceleration_structure", "texel_buffer", "input_attachment"))


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
    kind = value_type.__class__
    if kind is not Scalar and kind is not Vector and kind is not Matrix and kind is not Array:
        # Every declaration comes here: a struct, a cooperative matrix or a reference is itself, known
        # without four comparisons (each a generated __eq__ call).
        return value_type
    if kind is Scalar:
        # (compared by name: a Scalar equals another exactly when their names do, without the generated
        # __eq__'s call; most declarations are of a concrete scalar)
        name = value_type.name
        return I32 if name == "abstract-int" else F32 if name == "abstract-float" else value_type
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
        # naga's 64-bit scalars come last: they exist only there, and naga converts abstract values to them.
        if source == ABSTRACT_FLOAT:
            return {"f32": 1, "f16": 2, "f64": 3}.get(target.name)
        if source == ABSTRACT_INT:
            return {"i32": 3, "u32": 4, "abstract-float": 5, "f32": 6, "f16": 7, "i64": 8, "u64": 9,
                    "f64": 10}.get(target.name)
        return None
    if isinstance(source, Vector) and isinstance(target, Vector) and source.size == target.size:
        return conversion_rank(source.element, target.element)
    if isinstance(source, Matrix) and isinstance(target, Matrix) and (
            source.columns, source.rows) == (target.columns, target.rows):
        return conversion_rank(source.element, target.element)
    if isinstance(source, Array) and isinstance(target, Array) and source.count == target.count:
        return conversion_rank(source.element, target.element)
    return None
