"""WGSL helpers that emulate the subgroup builtins (subgroupAdd, subgroupShuffle, ...) over an emulated
subgroup: a slice of `lanes` consecutive invocations of the workgroup.

The emulation cannot use the adapter's own subgroup operations when its subgroup is not the emulated one
(lavapipe's is 8 lanes; the targets' are 16, 32, 64), so lanes exchange values through workgroup memory:
each writes its value, a barrier, each reads what it needs, a barrier before the next exchange. That
makes every emulated call a workgroup barrier, so the call must sit in control flow that is uniform
across the workgroup (Tint and naga check it); subgroup operations under a branch on the lane are
reported by the compiler then.

Values of any type the builtins take (scalars and vectors of f32, f16, i32, u32, bool) travel as one
u32 word per component: the exchange buffer is `array<u32, subgroups * lanes * 4>`.
"""

from __future__ import annotations

from ..semantic import types as t

EXCHANGE = "coop_emu_xchg"
LANE = "coop_emu_lane"
SUBGROUP = "coop_emu_sg"
OPAQUE = "coop_emu_zero"  # see lowering.OPAQUE_ZERO

REDUCTIONS = {  # name -> (combine(a, b) as text, identity for each scalar)
    "Add": ("({a} + {b})", {"f32": "0.0f", "f16": "0.0h", "i32": "0i", "u32": "0u"}),
    "Mul": ("({a} * {b})", {"f32": "1.0f", "f16": "1.0h", "i32": "1i", "u32": "1u"}),
    "Max": ("max({a}, {b})", None),
    "Min": ("min({a}, {b})", None),
    "And": ("({a} & {b})", {"i32": "-1i", "u32": "0xffffffffu"}),
    "Or": ("({a} | {b})", {"i32": "0i", "u32": "0u"}),
    "Xor": ("({a} ^ {b})", {"i32": "0i", "u32": "0u"}),
}
# Builtins that read one other lane's value: the lane they read, as WGSL text over `arg`.
SOURCES = {
    "subgroupBroadcast": "u32(arg)",
    "subgroupShuffle": "u32(arg)",
    "subgroupBroadcastFirst": "0u",  # every lane is active: the emulation runs in uniform control flow
    "subgroupShuffleXor": f"({LANE} ^ u32(arg))",
    "subgroupShuffleUp": f"select({LANE}, {LANE} - u32(arg), u32(arg) <= {LANE})",
    "subgroupShuffleDown": f"select({LANE}, {LANE} + u32(arg), {LANE} + u32(arg) < LANES)",
    "quadBroadcast": f"(({LANE} & ~3u) | u32(arg))",
    "quadSwapX": f"({LANE} ^ 1u)",
    "quadSwapY": f"({LANE} ^ 2u)",
    "quadSwapDiagonal": f"({LANE} ^ 3u)",
}
TAKES_ARGUMENT = {"subgroupBroadcast", "subgroupShuffle", "subgroupShuffleXor", "subgroupShuffleUp",
                  "subgroupShuffleDown", "quadBroadcast"}


def emulated_names() -> set[str]:
    names = {"subgroupAll", "subgroupAny", "subgroupBallot", "subgroupElect"} | set(SOURCES)
    for op in REDUCTIONS:
        names |= {f"subgroup{op}"}
    names |= {"subgroupExclusiveAdd", "subgroupInclusiveAdd", "subgroupExclusiveMul", "subgroupInclusiveMul"}
    return names


def _scalar_and_width(value: t.Type) -> tuple[str, int]:
    if isinstance(value, t.Vector):
        return value.element.name, value.size
    return getattr(value, "name", "?"), 1


def _encode(scalar: str, text: str) -> str:
    if scalar == "f16":
        return f"pack2x16float(vec2<f32>(f32({text}), 0.0f))"
    if scalar == "bool":
        return f"select(0u, 1u, {text})"
    return f"bitcast<u32>({text})"


def _decode(scalar: str, word: str) -> str:
    if scalar == "f16":
        return f"f16(unpack2x16float({word}).x)"
    if scalar == "bool":
        return f"({word} != 0u)"
    return f"bitcast<{scalar}>({word})"


class SubgroupEmulation:
    """Generates one helper per (builtin, value type); `helper` is the lowering's memoizing helper()."""

    def __init__(self, helper, lanes: int, subgroup_size: int):
        self.helper = helper
        self.lanes = lanes  # invocations an emulated subgroup really has
        self.subgroup_size = subgroup_size
        self.used = False  # whether the exchange buffer is needed

    def _exchange(self, value: t.Type, param: str = "v") -> tuple[str, str]:
        """(code that writes `param` for this lane and waits, reader(lane_text) -> value text)."""
        scalar, width = _scalar_and_width(value)
        base = f"{SUBGROUP} * {self.subgroup_size * 4}u"
        writes = []
        for w in range(width):
            component = f"{param}[{w}]" if width > 1 else param
            writes.append(f"  {EXCHANGE}[{base} + {w * self.subgroup_size}u + {LANE}] = {_encode(scalar, component)};\n")
        code = "  workgroupBarrier();\n" + "".join(writes) + "  workgroupBarrier();\n"
        type_text = value.describe()

        def read(lane: str) -> str:
            parts = [_decode(scalar, f"{EXCHANGE}[{base} + {w * self.subgroup_size}u + ({lane})]") for w in range(width)]
            return f"{type_text}({', '.join(parts)})" if width > 1 else parts[0]
        self.used = True
        return code, read

    def call(self, name: str, value: t.Type | None, result: t.Type | None) -> str:
        """The helper's name for builtin `name` applied to a value of type `value`."""
        lanes = f"{self.lanes}u"
        if name == "subgroupElect":
            return self.helper(("elect",), lambda f: f"fn {f}() -> bool {{\n  return {LANE} == 0u;\n}}\n")
        assert value is not None
        type_text = value.describe()
        if name in SOURCES:
            source = SOURCES[name].replace("LANES", lanes)
            takes = name in TAKES_ARGUMENT

            def make(f: str) -> str:
                code, read = self._exchange(value)
                params = "v: " + type_text + (", arg: u32" if takes else "")
                return (f"fn {f}({params}) -> {type_text} {{\n{code}"
                        f"  return {read(source)};\n}}\n")
            return self.helper(("sg", name, type_text), make)
        if name in ("subgroupAll", "subgroupAny", "subgroupBallot"):
            def make_bool(f: str) -> str:
                code, read = self._exchange(t.Scalar("bool"))
                if name == "subgroupBallot":
                    return (f"fn {f}(v: bool) -> vec4<u32> {{\n{code}  var out = vec4<u32>();\n"
                            f"  for (var i = 0u; i < {lanes} + {OPAQUE}; i++) {{\n"
                            f"    if ({read('i')}) {{ out[i / 32u] = out[i / 32u] | (1u << (i % 32u)); }}\n"
                            f"  }}\n  return out;\n}}\n")
                init, op = ("true", "&&") if name == "subgroupAll" else ("false", "||")
                return (f"fn {f}(v: bool) -> bool {{\n{code}  var out = {init};\n"
                        f"  for (var i = 0u; i < {lanes} + {OPAQUE}; i++) {{ out = out {op} {read('i')}; }}\n"
                        f"  return out;\n}}\n")
            return self.helper(("sg", name), make_bool)
        for prefix, bound in (("subgroupExclusive", LANE), ("subgroupInclusive", f"{LANE} + 1u"), ("subgroup", lanes)):
            op = name[len(prefix):] if name.startswith(prefix) else ""
            if op in REDUCTIONS:
                break
        else:
            raise KeyError(name)
        combine, identities = REDUCTIONS[op]
        scalar, _ = _scalar_and_width(value)

        def make_fold(f: str) -> str:
            code, read = self._exchange(value)
            if identities is not None and scalar in identities:
                start, first = f"{type_text}({identities[scalar]})", "0u"
            else:  # min / max: start from lane 0's value
                start, first = read("0u"), "1u"
            step = combine.format(a="out", b=read("i"))
            return (f"fn {f}(v: {type_text}) -> {type_text} {{\n{code}  var out = {start};\n"
                    f"  for (var i = {first}; i < {bound} + {OPAQUE}; i++) {{ out = {step}; }}\n"
                    f"  return out;\n}}\n")
        return self.helper(("sg", name, type_text), make_fold)
