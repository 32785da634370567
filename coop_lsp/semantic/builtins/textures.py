"""WGSL's texture builtins (WGSL spec, "Texture Built-in Functions"), every overload.

The overloads are generated from small tables of texture shapes, so that each
line below reads as one row of the specification: which textures a builtin
takes, what coordinates, and what it returns. Variables: `ST` is a sampled
type (f32, i32, u32), `I` the integer type of coordinates, `A` of an array
index, `L` of a mip level, `S` of a sample index, `F` a texel format and
`AM` an access mode.
"""

from __future__ import annotations

from .. import types as t
from .signature import overload
from .table import Builtin

SAMPLED_TYPES = (t.F32, t.I32, t.U32)
INDEX = (t.ABSTRACT_INT, t.I32, t.U32)
READABLE = ("read", "read_write")
WRITABLE = ("write", "read_write")
FRAGMENT = ("fragment",)

# Integer variables every texture overload may use.
_INTS = dict(I=INDEX, A=INDEX, L=INDEX, S=INDEX)

# name -> the coordinates of the texels it holds (for loads), of the sampling (floats), and its size.
_COORDS = {"1d": ("I", "f32", "u32"), "2d": ("vec2<I>", "vec2<f32>", "vec2<u32>"),
           "2d_array": ("vec2<I>", "vec2<f32>", "vec2<u32>"), "3d": ("vec3<I>", "vec3<f32>", "vec3<u32>"),
           "cube": ("vec3<I>", "vec3<f32>", "vec2<u32>"), "cube_array": ("vec3<I>", "vec3<f32>", "vec2<u32>"),
           "multisampled_2d": ("vec2<I>", "vec2<f32>", "vec2<u32>"),
           "multisampled_2d_array": ("vec2<I>", "vec2<f32>", "vec2<u32>")}
_OFFSETS = {"2d": "vec2<i32>", "2d_array": "vec2<i32>", "3d": "vec3<i32>"}


def _o(text: str, **variables):
    return overload(text, **{**_INTS, **variables})


def _array(dim: str) -> str:
    return ", array_index: A" if dim.endswith("_array") else ""


def _with_offset(dim: str, head: str, tail: str, result: str, **variables) -> list:
    """One overload, and a second with a constant texel offset where the shape allows one."""
    out = [_o(f"({head}{tail}) -> {result}", **variables)]
    if dim in _OFFSETS:
        out.append(_o(f"({head}{tail}, offset: {_OFFSETS[dim]}) -> {result}", **variables))
    return out


def _dimensions() -> tuple:
    out = []
    for dim in ("1d", "2d", "2d_array", "3d", "cube", "cube_array"):
        size = _COORDS[dim][2]
        out += [_o(f"(t: texture_{dim}<ST>) -> {size}", ST=SAMPLED_TYPES),
                _o(f"(t: texture_{dim}<ST>, level: L) -> {size}", ST=SAMPLED_TYPES)]
    out.append(_o("(t: texture_multisampled_2d<ST>) -> vec2<u32>", ST=SAMPLED_TYPES))
    out.append(_o("(t: texture_multisampled_2d_array<ST>) -> vec2<u32>", ST=SAMPLED_TYPES))
    for dim in ("2d", "2d_array", "cube", "cube_array"):
        out += [_o(f"(t: texture_depth_{dim}) -> vec2<u32>"), _o(f"(t: texture_depth_{dim}, level: L) -> vec2<u32>")]
    out.append(_o("(t: texture_depth_multisampled_2d) -> vec2<u32>"))
    for dim in ("1d", "2d", "2d_array", "3d"):
        out.append(_o(f"(t: texture_storage_{dim}<F, AM>) -> {_COORDS[dim][2]}", F=t.TEXEL_FORMATS,
                      AM=t.ACCESS_MODES))
    out.append(_o("(t: texel_buffer<F, AM>) -> u32", F=t.TEXEL_FORMATS, AM=t.ACCESS_MODES))
    out.append(_o("(t: texture_external) -> vec2<u32>"))
    return tuple(out)


def _gather() -> tuple:
    out = []
    for dim in ("2d", "2d_array", "cube", "cube_array"):
        coords = _COORDS[dim][1]
        out += _with_offset(dim, f"component: K, t: texture_{dim}<ST>, s: sampler, coords: {coords}", _array(dim),
                            "vec4<ST>", K=INDEX, ST=SAMPLED_TYPES)
        out += _with_offset(dim, f"t: texture_depth_{dim}, s: sampler, coords: {coords}", _array(dim), "vec4<f32>")
    return tuple(out)


def _gather_compare() -> tuple:
    out = []
    for dim in ("2d", "2d_array", "cube", "cube_array"):
        out += _with_offset(dim, f"t: texture_depth_{dim}, s: sampler_comparison, coords: {_COORDS[dim][1]}",
                            f"{_array(dim)}, depth_ref: f32", "vec4<f32>")
    return tuple(out)


def _load() -> tuple:
    out = []
    for dim in ("1d", "2d", "2d_array", "3d"):
        out.append(_o(f"(t: texture_{dim}<ST>, coords: {_COORDS[dim][0]}{_array(dim)}, level: L) -> vec4<ST>",
                      ST=SAMPLED_TYPES))
    out.append(_o("(t: texture_multisampled_2d<ST>, coords: vec2<I>, sample_index: S) -> vec4<ST>",
                  ST=SAMPLED_TYPES))
    out.append(_o("(t: texture_multisampled_2d_array<ST>, coords: vec2<I>, array_index: A, sample_index: S) "
                  "-> vec4<ST>", ST=SAMPLED_TYPES))
    out.append(_o("(t: texture_depth_2d, coords: vec2<I>, level: L) -> f32"))
    out.append(_o("(t: texture_depth_2d_array, coords: vec2<I>, array_index: A, level: L) -> f32"))
    out.append(_o("(t: texture_depth_multisampled_2d, coords: vec2<I>, sample_index: S) -> f32"))
    out.append(_o("(t: texture_external, coords: vec2<I>) -> vec4<f32>"))
    for formats, channel in ((t.F32_TEXEL_FORMATS, "f32"), (t.I32_TEXEL_FORMATS, "i32"),
                             (t.U32_TEXEL_FORMATS, "u32")):
        for dim in ("1d", "2d", "2d_array", "3d"):
            out.append(_o(f"(t: texture_storage_{dim}<F, AM>, coords: {_COORDS[dim][0]}{_array(dim)}) "
                          f"-> vec4<{channel}>", F=formats, AM=READABLE))
        out.append(_o(f"(t: texel_buffer<F, AM>, coords: I) -> vec4<{channel}>", F=formats, AM=READABLE))
    return tuple(out)


def _store() -> tuple:
    out = []
    for formats, channel in ((t.F32_TEXEL_FORMATS, "f32"), (t.I32_TEXEL_FORMATS, "i32"),
                             (t.U32_TEXEL_FORMATS, "u32")):
        for dim in ("1d", "2d", "2d_array", "3d"):
            out.append(_o(f"(t: texture_storage_{dim}<F, AM>, coords: {_COORDS[dim][0]}{_array(dim)}, "
                          f"value: vec4<{channel}>)", F=formats, AM=WRITABLE))
        out.append(_o(f"(t: texel_buffer<F, read_write>, coords: I, value: vec4<{channel}>)", F=formats))
    return tuple(out)


def _counts() -> dict:
    layers = tuple(_o(f"(t: {name}) -> u32", ST=SAMPLED_TYPES) for name in (
        "texture_2d_array<ST>", "texture_cube_array<ST>", "texture_multisampled_2d_array<ST>", "texture_depth_2d_array",
        "texture_depth_cube_array"))
    layers += (_o("(t: texture_storage_2d_array<F, AM>) -> u32", F=t.TEXEL_FORMATS, AM=t.ACCESS_MODES),)
    levels = tuple(_o(f"(t: texture_{dim}<ST>) -> u32", ST=SAMPLED_TYPES)
                   for dim in ("1d", "2d", "2d_array", "3d", "cube", "cube_array"))
    levels += tuple(_o(f"(t: texture_depth_{dim}) -> u32") for dim in ("2d", "2d_array", "cube", "cube_array"))
    samples = (_o("(t: texture_multisampled_2d<ST>) -> u32", ST=SAMPLED_TYPES),
               _o("(t: texture_multisampled_2d_array<ST>) -> u32", ST=SAMPLED_TYPES),
               _o("(t: texture_depth_multisampled_2d) -> u32"))
    return {"layers": layers, "levels": levels, "samples": samples}


def _sample(extra: str = "", depth: bool = True, one_d: bool = True, dims=("2d", "2d_array", "3d", "cube",
                                                                          "cube_array")) -> tuple:
    """textureSample and its variants: `extra` are the parameters after the coordinates."""
    out = []
    if one_d:
        out.append(_o(f"(t: texture_1d<f32>, s: sampler, coords: f32{extra}) -> vec4<f32>"))
    for dim in dims:
        coords = _COORDS[dim][1]
        grad_extra = extra.replace("G", coords)
        out += _with_offset(dim, f"t: texture_{dim}<f32>, s: sampler, coords: {coords}",
                            f"{_array(dim)}{grad_extra}", "vec4<f32>")
        if depth and dim != "3d":
            out += _with_offset(dim, f"t: texture_depth_{dim}, s: sampler, coords: {coords}",
                                f"{_array(dim)}{extra.replace('level: f32', 'level: L')}", "f32")
    return tuple(out)


def _compare(extra: str = "") -> tuple:
    out = []
    for dim in ("2d", "2d_array", "cube", "cube_array"):
        out += _with_offset(dim, f"t: texture_depth_{dim}, s: sampler_comparison, coords: {_COORDS[dim][1]}",
                            f"{_array(dim)}, depth_ref: f32{extra}", "f32")
    return tuple(out)


def texture_builtins() -> list[Builtin]:
    counts = _counts()
    c = "texture"
    return [
        Builtin("textureDimensions", _dimensions(),
                "The size of a texture (of mip level `level` where given), in texels.",
                "let size = textureDimensions(t);", c),
        Builtin("textureGather", _gather(),
                "The `component` channel of the four texels a bilinear sample would use, as a vec4.",
                "let reds = textureGather(0, t, s, uv);", c),
        Builtin("textureGatherCompare", _gather_compare(),
                "Depth comparisons of the four texels a bilinear sample would use.", category=c),
        Builtin("textureLoad", _load(),
                "Reads one texel, without a sampler or filtering.", "let texel = textureLoad(t, vec2i(x, y), 0);", c),
        Builtin("textureNumLayers", counts["layers"], "The number of layers of an arrayed texture.", category=c),
        Builtin("textureNumLevels", counts["levels"], "The number of mip levels of a texture.", category=c),
        Builtin("textureNumSamples", counts["samples"], "The number of samples per texel of a multisampled texture.",
                category=c),
        Builtin("textureSample", _sample(),
                "Samples a texture with implicit derivatives (fragment shaders only).",
                "let color = textureSample(t, s, uv);", c, stages=FRAGMENT),
        Builtin("textureSampleBias", _sample(", bias: f32", depth=False, one_d=False),
                "Samples with a bias added to the mip level (fragment shaders only).", category=c, stages=FRAGMENT),
        Builtin("textureSampleCompare", _compare(),
                "Samples a depth texture and compares it with `depth_ref` (fragment shaders only).", category=c,
                stages=FRAGMENT),
        Builtin("textureSampleCompareLevel", _compare(),
                "Samples mip level 0 of a depth texture and compares it with `depth_ref`.", category=c),
        Builtin("textureSampleGrad", _sample(", ddx: G, ddy: G", depth=False, one_d=False),
                "Samples with explicit derivatives.", category=c),
        Builtin("textureSampleLevel", _sample(", level: f32"),
                "Samples an explicit mip level (any stage).", "let color = textureSampleLevel(t, s, uv, 0.0);", c),
        Builtin("textureSampleBaseClampToEdge", (
            _o("(t: texture_2d<f32>, s: sampler, coords: vec2<f32>) -> vec4<f32>"),
            _o("(t: texture_external, s: sampler, coords: vec2<f32>) -> vec4<f32>"),
        ), "Samples mip level 0 with coordinates clamped half a texel from the edge (video frames).", category=c),
        Builtin("textureStore", _store(), "Writes one texel of a storage texture.",
                "textureStore(out_tex, vec2i(x, y), color);", c, must_use=False),
    ]
