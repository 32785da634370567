"""WGSL's builtin functions that compute shaders use (WGSL spec, "Built-in Functions")."""

from __future__ import annotations

from dataclasses import replace

from .. import types as t
from .signature import ANY, overload
from .textures import texture_builtins
from .table import (BARRIER, BIT_INTEGERS, CONCRETE_INTEGERS, DERIVATIVE, FLOATS, FOLLOWS_ARGUMENTS, NO_MEMORY,
                    NO_REQUIREMENT, NON_UNIFORM, NUMERIC, SIGNED, SUBGROUP, SUBGROUP_UNIFORM, Builtin)

# Atomics and subgroup operations work on concrete types only.
ATOMIC_SCALARS = (t.I32, t.U32, t.Scalar("i64"), t.Scalar("u64"))  # 64-bit: naga only (the type is noted)
SUBGROUP_NUMERIC = (t.F32, t.F16, t.I32, t.U32)


def _componentwise(name: str, scalars, doc: str, category: str, example: str = "", arity: int = 1,
                   enable: str | None = None) -> Builtin:
    params = ", ".join(f"e{i + 1}: T" if arity > 1 else "e: T" for i in range(arity))
    vparams = ", ".join(f"e{i + 1}: vecN<T>" if arity > 1 else "e: vecN<T>" for i in range(arity))
    return Builtin(name, (
        overload(f"({params}) -> T", T=scalars),
        overload(f"({vparams}) -> vecN<T>", T=scalars),
    ), doc, example, category, enable)


def _math() -> list[Builtin]:
    unary_float = {
        "acos": "Arc cosine, in radians.", "acosh": "Inverse hyperbolic cosine.",
        "asin": "Arc sine, in radians.", "asinh": "Inverse hyperbolic sine.",
        "atan": "Arc tangent, in radians.", "atanh": "Inverse hyperbolic tangent.",
        "ceil": "Rounds up to the nearest integer value.", "cos": "Cosine of an angle in radians.",
        "cosh": "Hyperbolic cosine.", "degrees": "Converts radians to degrees.",
        "exp": "Natural exponential, e raised to the argument.", "exp2": "2 raised to the argument.",
        "floor": "Rounds down to the nearest integer value.", "fract": "The fractional part, e - floor(e).",
        "inverseSqrt": "1 / sqrt(e).", "log": "Natural logarithm.", "log2": "Base-2 logarithm.",
        "radians": "Converts degrees to radians.",
        "round": "Rounds to the nearest integer value; halfway cases to even.",
        "saturate": "Clamps to [0, 1].", "sin": "Sine of an angle in radians.", "sinh": "Hyperbolic sine.",
        "sqrt": "Square root.", "tan": "Tangent.", "tanh": "Hyperbolic tangent.",
        "trunc": "Rounds toward zero.",
    }
    out = [_componentwise(name, FLOATS, doc, "math") for name, doc in unary_float.items()]
    out += [
        _componentwise("abs", NUMERIC, "Absolute value.", "math", "let a = abs(x - y);"),
        _componentwise("sign", SIGNED, "-1, 0 or 1 by the sign of the argument.", "math"),
        _componentwise("atan2", FLOATS, "Arc tangent of y / x, using the signs to pick the quadrant.",
                       "math", arity=2),
        _componentwise("pow", FLOATS, "e1 raised to e2.", "math", arity=2),
        _componentwise("step", FLOATS, "1.0 where edge <= x, else 0.0.", "math", arity=2),
        _componentwise("max", NUMERIC, "The larger of two values, component-wise.", "math", arity=2),
        _componentwise("min", NUMERIC, "The smaller of two values, component-wise.", "math", arity=2),
        _componentwise("clamp", NUMERIC, "min(max(e, low), high).", "math", "let c = clamp(x, 0.0, 1.0);",
                       arity=3),
        _componentwise("fma", FLOATS, "e1 * e2 + e3, possibly fused.", "math", arity=3),
        _componentwise("smoothstep", FLOATS, "Smooth Hermite interpolation between two edges.", "math",
                       arity=3),
        Builtin("mix", (
            overload("(e1: T, e2: T, e3: T) -> T", T=FLOATS),
            overload("(e1: vecN<T>, e2: vecN<T>, e3: vecN<T>) -> vecN<T>", T=FLOATS),
            overload("(e1: vecN<T>, e2: vecN<T>, e3: T) -> vecN<T>", T=FLOATS),
        ), "Linear blend: e1 * (1 - e3) + e2 * e3.", category="math"),
        Builtin("ldexp", (
            overload("(e1: T, e2: I) -> T", T=FLOATS, I=(t.ABSTRACT_INT, t.I32)),
            overload("(e1: vecN<T>, e2: vecN<I>) -> vecN<T>", T=FLOATS, I=(t.ABSTRACT_INT, t.I32)),
        ), "e1 * 2^e2.", category="math"),
        Builtin("frexp", (
            overload("(e: T) -> __frexp_result<T>", T=FLOATS),
            overload("(e: vecN<T>) -> __frexp_result<vecN<T>>", T=FLOATS),
        ), "Splits e into a significand in [0.5, 1) and a power-of-two exponent: `fract` and `exp`.",
            category="math"),
        Builtin("modf", (
            overload("(e: T) -> __modf_result<T>", T=FLOATS),
            overload("(e: vecN<T>) -> __modf_result<vecN<T>>", T=FLOATS),
        ), "Splits e into its fractional and whole parts: `fract` and `whole`.", category="math"),
        Builtin("quantizeToF16", (
            overload("(e: f32) -> f32"), overload("(e: vecN<f32>) -> vecN<f32>"),
        ), "Rounds an f32 to the nearest f16 value, kept as f32.", category="math"),
        Builtin("cross", (overload("(a: vec3<T>, b: vec3<T>) -> vec3<T>", T=FLOATS),),
                "Cross product of two 3-vectors.", category="math"),
        Builtin("dot", (overload("(a: vecN<T>, b: vecN<T>) -> T", T=NUMERIC),),
                "Dot product.", "let d = dot(a.xyz, b.xyz);", "math"),
        Builtin("distance", (
            overload("(a: T, b: T) -> T", T=FLOATS), overload("(a: vecN<T>, b: vecN<T>) -> T", T=FLOATS),
        ), "Distance between two points.", category="math"),
        Builtin("length", (overload("(e: T) -> T", T=FLOATS), overload("(e: vecN<T>) -> T", T=FLOATS)),
                "Euclidean length.", category="math"),
        Builtin("normalize", (overload("(e: vecN<T>) -> vecN<T>", T=FLOATS),),
                "The unit vector in the direction of e.", category="math"),
        Builtin("faceForward", (overload("(e1: vecN<T>, e2: vecN<T>, e3: vecN<T>) -> vecN<T>", T=FLOATS),),
                "e1 if dot(e2, e3) < 0, else -e1.", category="math"),
        Builtin("reflect", (overload("(e1: vecN<T>, e2: vecN<T>) -> vecN<T>", T=FLOATS),),
                "Reflection of e1 about the normal e2.", category="math"),
        Builtin("refract", (overload("(e1: vecN<T>, e2: vecN<T>, e3: T) -> vecN<T>", T=FLOATS),),
                "Refraction of e1 through a surface with normal e2 and index ratio e3.", category="math"),
        Builtin("determinant", (overload("(m: matCxC<T>) -> T", T=FLOATS),),
                "Determinant of a square matrix.", category="math"),
        Builtin("transpose", (overload("(m: matCxR<T>) -> matRxC<T>", T=FLOATS),),
                "Transpose of a matrix.", category="math"),
    ]
    return out


def _bits() -> list[Builtin]:
    docs = {
        "countLeadingZeros": "Number of consecutive 0 bits from the most significant bit.",
        "countOneBits": "Number of 1 bits.",
        "countTrailingZeros": "Number of consecutive 0 bits from the least significant bit.",
        "firstLeadingBit": "Position of the most significant bit that differs from the sign bit (or is 1).",
        "firstTrailingBit": "Position of the least significant 1 bit.",
        "reverseBits": "Reverses the bit order.",
    }
    out = [_componentwise(name, BIT_INTEGERS, doc, "bit") for name, doc in docs.items()]
    out += [
        Builtin("extractBits", (
            overload("(e: T, offset: u32, count: u32) -> T", T=BIT_INTEGERS),
            overload("(e: vecN<T>, offset: u32, count: u32) -> vecN<T>", T=BIT_INTEGERS),
        ), "Reads `count` bits starting at `offset` (sign-extended for i32).", category="bit"),
        Builtin("insertBits", (
            overload("(e: T, newbits: T, offset: u32, count: u32) -> T", T=BIT_INTEGERS),
            overload("(e: vecN<T>, newbits: vecN<T>, offset: u32, count: u32) -> vecN<T>",
                     T=BIT_INTEGERS),
        ), "Replaces `count` bits of e starting at `offset` with the low bits of newbits.", category="bit"),
    ]
    return out


def _logic_and_arrays() -> list[Builtin]:
    from .table import SCALARS
    return [
        Builtin("all", (overload("(e: bool) -> bool"), overload("(e: vecN<bool>) -> bool")),
                "Whether every component is true.", category="logic"),
        Builtin("any", (overload("(e: bool) -> bool"), overload("(e: vecN<bool>) -> bool")),
                "Whether some component is true.", category="logic"),
        Builtin("select", (
            overload("(f: T, t: T, cond: bool) -> T", T=SCALARS),
            overload("(f: vecN<T>, t: vecN<T>, cond: bool) -> vecN<T>", T=SCALARS),
            overload("(f: vecN<T>, t: vecN<T>, cond: vecN<bool>) -> vecN<T>", T=SCALARS),
        ), "t where cond is true, else f (both are evaluated).", "let m = select(0.0, x, x > 0.0);", "logic"),
        Builtin("arrayLength", (
            overload("(p: ptr<storage, array<E>, AM>) -> u32", E=ANY, AM=("read", "read_write")),
        ), "Number of elements of a runtime-sized array in a storage buffer.",
            "let n = arrayLength(&data);", "array"),
    ]


def _packing() -> list[Builtin]:
    spec = [
        ("pack4x8snorm", "(e: vec4<f32>) -> u32", "Packs four normalized signed floats into 8-bit fields."),
        ("pack4x8unorm", "(e: vec4<f32>) -> u32", "Packs four normalized unsigned floats into 8-bit fields."),
        ("pack2x16snorm", "(e: vec2<f32>) -> u32", "Packs two normalized signed floats into 16-bit fields."),
        ("pack2x16unorm", "(e: vec2<f32>) -> u32", "Packs two normalized unsigned floats into 16-bit fields."),
        ("pack2x16float", "(e: vec2<f32>) -> u32", "Packs two floats as f16 into 16-bit fields."),
        ("unpack4x8snorm", "(e: u32) -> vec4<f32>", "Unpacks four 8-bit normalized signed values."),
        ("unpack4x8unorm", "(e: u32) -> vec4<f32>", "Unpacks four 8-bit normalized unsigned values."),
        ("unpack2x16snorm", "(e: u32) -> vec2<f32>", "Unpacks two 16-bit normalized signed values."),
        ("unpack2x16unorm", "(e: u32) -> vec2<f32>", "Unpacks two 16-bit normalized unsigned values."),
        ("unpack2x16float", "(e: u32) -> vec2<f32>", "Unpacks two f16 values."),
        ("pack4xI8", "(e: vec4<i32>) -> u32", "Packs the low 8 bits of four i32 values."),
        ("pack4xU8", "(e: vec4<u32>) -> u32", "Packs the low 8 bits of four u32 values."),
        ("pack4xI8Clamp", "(e: vec4<i32>) -> u32", "Clamps four i32 values to [-128, 127] and packs them."),
        ("pack4xU8Clamp", "(e: vec4<u32>) -> u32", "Clamps four u32 values to [0, 255] and packs them."),
        ("unpack4xI8", "(e: u32) -> vec4<i32>", "Unpacks four signed 8-bit values."),
        ("unpack4xU8", "(e: u32) -> vec4<u32>", "Unpacks four unsigned 8-bit values."),
        ("dot4I8Packed", "(e1: u32, e2: u32) -> i32", "Dot product of two packed vectors of four i8."),
        ("dot4U8Packed", "(e1: u32, e2: u32) -> u32", "Dot product of two packed vectors of four u8."),
    ]
    return [Builtin(name, (overload(signature),), doc, category="packing") for name, signature, doc in spec]


def _atomics() -> list[Builtin]:
    spaces = ("storage", "workgroup")
    read_modify_write = {
        "atomicAdd": "Adds v and returns the old value.", "atomicSub": "Subtracts v and returns the old value.",
        "atomicMax": "Stores the maximum and returns the old value.",
        "atomicMin": "Stores the minimum and returns the old value.",
        "atomicAnd": "Bitwise and; returns the old value.", "atomicOr": "Bitwise or; returns the old value.",
        "atomicXor": "Bitwise xor; returns the old value.",
        "atomicExchange": "Stores v and returns the old value.",
    }
    out = [
        Builtin("atomicLoad", (overload("(p: ptr<AS, atomic<T>, read_write>) -> T", AS=spaces, T=ATOMIC_SCALARS),),
                "Atomically reads the value.", category="atomic"),
        Builtin("atomicStore", (overload("(p: ptr<AS, atomic<T>, read_write>, v: T)", AS=spaces,
                                         T=ATOMIC_SCALARS),),
                "Atomically writes the value.", category="atomic", must_use=False),
        Builtin("atomicCompareExchangeWeak", (
            overload("(p: ptr<AS, atomic<T>, read_write>, cmp: T, v: T) -> __atomic_compare_exchange_result<T>",
                     AS=spaces, T=ATOMIC_SCALARS),
        ), "Stores v if the value equals cmp; returns the old value and whether it exchanged.",
            category="atomic", must_use=False),
    ]
    out += [Builtin(name, (overload("(p: ptr<AS, atomic<T>, read_write>, v: T) -> T", AS=spaces,
                                    T=ATOMIC_SCALARS),), doc, category="atomic", must_use=False)
            for name, doc in read_modify_write.items()]
    return out


def _synchronization() -> list[Builtin]:
    return [
        Builtin("workgroupBarrier", (overload("()"),),
                "Waits until every invocation of the workgroup reaches it; orders workgroup memory.",
                category="synchronization", must_use=False, stages=("compute",)),
        Builtin("storageBarrier", (overload("()"),), "Orders storage memory accesses within the workgroup.",
                category="synchronization", must_use=False, stages=("compute",)),
        Builtin("textureBarrier", (overload("()"),), "Orders storage texture accesses within the workgroup.",
                category="synchronization", must_use=False, stages=("compute",)),
        Builtin("workgroupUniformLoad", (
            overload("(p: ptr<workgroup, atomic<T>, read_write>) -> T", T=ATOMIC_SCALARS),
            overload("(p: ptr<workgroup, T, read_write>) -> T", T=ANY),
        ),
                "Loads a workgroup variable after a barrier; the result is uniform across the workgroup.",
                category="synchronization", stages=("compute",)),
    ]


def _subgroups() -> list[Builtin]:
    enable = "subgroups"
    numeric_reductions = {
        "subgroupAdd": "Sum over the active invocations of the subgroup.",
        "subgroupExclusiveAdd": "Prefix sum over lower-indexed active invocations, excluding this one.",
        "subgroupInclusiveAdd": "Prefix sum over lower-indexed active invocations, including this one.",
        "subgroupMul": "Product over the active invocations of the subgroup.",
        "subgroupExclusiveMul": "Prefix product, excluding this invocation.",
        "subgroupInclusiveMul": "Prefix product, including this invocation.",
        "subgroupMax": "Maximum over the active invocations.", "subgroupMin": "Minimum over the active invocations.",
    }
    out = [_componentwise(name, SUBGROUP_NUMERIC, doc, "subgroup", enable=enable)
           for name, doc in numeric_reductions.items()]
    out += [_componentwise(name, CONCRETE_INTEGERS, doc, "subgroup", enable=enable) for name, doc in {
        "subgroupAnd": "Bitwise and over the active invocations.",
        "subgroupOr": "Bitwise or over the active invocations.",
        "subgroupXor": "Bitwise xor over the active invocations.",
    }.items()]
    value = SUBGROUP_NUMERIC
    out += [
        Builtin("subgroupAll", (overload("(e: bool) -> bool"),), "Whether e is true in every active invocation.",
                category="subgroup", enable=enable),
        Builtin("subgroupAny", (overload("(e: bool) -> bool"),), "Whether e is true in some active invocation.",
                category="subgroup", enable=enable),
        Builtin("subgroupBallot", (overload("(pred: bool) -> vec4<u32>"),),
                "A bit mask of the active invocations whose pred is true.", category="subgroup", enable=enable),
        Builtin("subgroupElect", (overload("() -> bool"),), "True in exactly one active invocation.",
                category="subgroup", enable=enable),
        Builtin("subgroupBroadcastFirst", (
            overload("(e: T) -> T", T=value), overload("(e: vecN<T>) -> vecN<T>", T=value),
        ), "The value of e in the lowest-indexed active invocation.", category="subgroup", enable=enable),
    ]
    for name, doc, index in (
        ("subgroupBroadcast", "The value of e in invocation `id` (a constant).", "id: I"),
        ("subgroupShuffle", "The value of e in invocation `id`.", "id: I"),
        ("subgroupShuffleXor", "The value of e in invocation subgroup_invocation_id ^ mask.", "mask: u32"),
        ("subgroupShuffleUp", "The value of e in invocation subgroup_invocation_id - delta.", "delta: u32"),
        ("subgroupShuffleDown", "The value of e in invocation subgroup_invocation_id + delta.", "delta: u32"),
        ("quadBroadcast", "The value of e in quad invocation `id` (a constant).", "id: I"),
    ):
        integer = (t.ABSTRACT_INT, t.I32, t.U32)
        out.append(Builtin(name, (
            overload(f"(e: T, {index}) -> T", T=value, I=integer),
            overload(f"(e: vecN<T>, {index}) -> vecN<T>", T=value, I=integer),
        ), doc, category="subgroup", enable=enable))
    for name in ("quadSwapX", "quadSwapY", "quadSwapDiagonal"):
        out.append(Builtin(name, (
            overload("(e: T) -> T", T=value), overload("(e: vecN<T>) -> vecN<T>", T=value),
        ), "Swaps e between invocations of a quad.", category="subgroup", enable=enable))
    return out


def _derivatives() -> list[Builtin]:
    names = ("dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse", "dpdyFine", "fwidth", "fwidthCoarse",
             "fwidthFine")
    return [Builtin(name, (overload("(e: f32) -> f32"), overload("(e: vecN<f32>) -> vecN<f32>")),
                    "Screen-space derivative (fragment shaders only).", category="derivative", stages=("fragment",))
            for name in names]


# Uniformity (Tint's analysis, measured against wgpudawn 0.32 in tests/spec/uniformity). Barriers (and
# workgroupUniformLoad) need workgroup-uniform control flow, derivatives (implicit ones included) uniform
# control flow in fragment shaders, subgroup and quad builtins subgroup-uniform control flow.
_REQUIREMENT_BY_CATEGORY = {"synchronization": BARRIER, "derivative": DERIVATIVE, "subgroup": SUBGROUP}
_IMPLICIT_DERIVATIVES = frozenset({"textureSample", "textureSampleBias", "textureSampleCompare"})
# Reductions and broadcasts give every active invocation of the subgroup the same value.
_SUBGROUP_UNIFORM_RESULTS = frozenset({
    "subgroupBroadcastFirst", "subgroupBroadcast", "subgroupAdd", "subgroupMul", "subgroupMax", "subgroupMin",
    "subgroupAnd", "subgroupOr", "subgroupXor", "subgroupAll", "subgroupAny", "subgroupBallot",
})
# Results that never depend only on the arguments: each invocation sees its own.
_NON_UNIFORM_RESULTS = frozenset({
    "atomicLoad", "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor",
    "atomicExchange", "atomicCompareExchangeWeak", "subgroupElect", "subgroupExclusiveAdd",
    "subgroupInclusiveAdd", "subgroupExclusiveMul", "subgroupInclusiveMul", "subgroupShuffle",
    "subgroupShuffleXor", "subgroupShuffleUp", "subgroupShuffleDown", "quadBroadcast", "quadSwapX",
    "quadSwapY", "quadSwapDiagonal",
})


def _classified(builtins: list[Builtin]) -> list[Builtin]:
    """Each core builtin with its uniformity requirement, result uniformity and (no) matrix memory role."""
    out = []
    for builtin in builtins:
        requirement = _REQUIREMENT_BY_CATEGORY.get(builtin.category, NO_REQUIREMENT)
        if builtin.category == "subgroup" and not builtin.name.startswith(("subgroup", "quad")):
            requirement = NO_REQUIREMENT
        if builtin.name in _IMPLICIT_DERIVATIVES:
            requirement = DERIVATIVE
        result = SUBGROUP_UNIFORM if builtin.name in _SUBGROUP_UNIFORM_RESULTS else \
            NON_UNIFORM if builtin.name in _NON_UNIFORM_RESULTS else FOLLOWS_ARGUMENTS
        out.append(replace(builtin, uniformity=requirement, result=result, memory=NO_MEMORY))
    return out


CORE_BUILTINS: list[Builtin] = _classified(
    _math() + _bits() + _logic_and_arrays() + _packing() + _atomics() + _synchronization() + _subgroups()
    + _derivatives() + texture_builtins()
)


# naga's print (wgpu's trunk, Vulkan validation layers only); `coop-lint run` lowers it on every backend.
DEBUG_PRINTF = "debugPrintf"
DEBUG_PRINTF_ENABLE = "wgpu_debug_printf"

# Functions only one compiler has, checked loosely (a portability note, the arguments typed, no overloads):
# name -> (the compiler that has it, its result type (None: no value; ERROR: not modelled), doc).
DIALECT_ONLY_FUNCTIONS = {
    "print": ("tint", None, "Prints a value from the shader (Chromium's `chromium_print` language feature)."),
    "bufferView": ("tint", t.ERROR, "A typed view into an untyped `buffer<N>` (Tint's `buffer_view`)."),
    "bufferArrayView": ("tint", t.ERROR, "A runtime-sized array view into an untyped `buffer<N>` (Tint)."),
    "bufferLength": ("tint", t.U32, "The size in bytes of an untyped `buffer<N>` (Tint)."),
    "rayQueryInitialize": ("naga", None, "Starts a ray query (naga's `wgpu_ray_query`)."),
    "rayQueryProceed": ("naga", t.BOOL, "Advances a ray query (naga)."),
    "rayQueryTerminate": ("naga", None, "Ends a ray query (naga)."),
    "rayQueryGenerateIntersection": ("naga", None, "Commits a procedural hit (naga)."),
    "rayQueryConfirmIntersection": ("naga", None, "Commits a triangle hit (naga)."),
    "rayQueryGetCommittedIntersection": ("naga", t.ERROR, "The committed intersection of a ray query (naga)."),
    "rayQueryGetCandidateIntersection": ("naga", t.ERROR, "The candidate intersection of a ray query (naga)."),
    "getCommittedHitVertexPositions": ("naga", t.ERROR, "The vertices of the committed hit (naga)."),
    "getCandidateHitVertexPositions": ("naga", t.ERROR, "The vertices of the candidate hit (naga)."),
}
