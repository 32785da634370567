"""WGSL modules generated from the grammar: directives, declarations, functions, statements, expressions.

The generator draws every decision from a `Chooser`, so one generator serves
three drivers: Hypothesis (strategies.wgsl_modules(), shrinks to small modules),
a seeded `random.Random` (the campaigns in benchmarks/) and atheris's
FuzzedDataProvider (coverage-guided, structure-aware). The output is mostly
valid WGSL of every dialect (plain, naga's coop_mat, Tint's
chromium_experimental_subgroup_matrix, the proposal's subgroup_matrix),
with deliberate slips (a missing token, mixed operators, a wrong type, a
stray keyword) at a low rate so that the error paths see plausible text.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


class Chooser:
    """Every decision the generator makes; subclasses draw from Hypothesis, random or atheris."""

    def integer(self, low: int, high: int) -> int:
        raise NotImplementedError

    def choice(self, items: Sequence):
        return items[self.integer(0, len(items) - 1)]

    def chance(self, percent: int) -> bool:
        # Shrinks (towards 0) to "no": optional parts disappear first.
        return self.integer(0, 99) >= 100 - percent


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class ProviderChooser(Chooser):
    """atheris.FuzzedDataProvider (or anything with ConsumeIntInRange); zeros once the data runs out."""

    def __init__(self, provider) -> None:
        self.provider = provider

    def integer(self, low: int, high: int) -> int:
        return self.provider.ConsumeIntInRange(low, high)


DIALECTS = ("plain", "wgpu", "chromium", "standard")
ENABLES = {"wgpu": "wgpu_cooperative_matrix", "chromium": "chromium_experimental_subgroup_matrix",
           "standard": "subgroup_matrix"}
SCALARS = ("f32", "f16", "i32", "u32", "bool")
MATRIX_ELEMENTS = ("f16", "f32", "i32", "u32", "i8", "u8")
SIZES = ("8", "16", "32", "4", "0", "7")
UNARY = ("-", "!", "~", "*", "&")
BINARY = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "&&", "||", "==", "!=", "<", "<=", ">", ">=")
COMPOUND = ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=")
PLAIN_CALLS = ("sin", "cos", "abs", "min", "max", "clamp", "dot", "select", "sqrt", "fma", "arrayLength",
               "all", "any", "countOneBits", "pack2x16float", "subgroupBroadcast", "subgroupAdd",
               "subgroupBallot", "subgroupElect", "workgroupUniformLoad", "textureLoad", "atomicAdd",
               "atomicLoad", "f32", "u32", "i32", "vec2", "vec3", "vec4", "bitcast<u32>", "vec4<f32>",
               "array<f32, 4>", "mat2x2<f32>")
BARRIERS = ("workgroupBarrier", "storageBarrier", "textureBarrier", "subgroupBarrier")
BUILTIN_VALUES = ("global_invocation_id", "local_invocation_id", "local_invocation_index", "workgroup_id",
                  "num_workgroups", "subgroup_invocation_id", "subgroup_size", "position", "bogus")
ATTRIBUTE_ONLY = ("must_use", "compute", "const", "invariant")
WORDS = ("x", "y", "acc", "tile", "a", "b", "c", "buf", "i", "k", "row", "col", "m", "n", "Tile", "S",
         "main", "f", "g", "helper", "_x", "__x", "loop", "let", "fn", "ptr", "coop_mat16x16", "enable",
         "subgroup_matrix_left", "vec3", "array", "é", "_")
KEYWORD_JUNK = ("fn", "let", "var", "const", "struct", "loop", "continuing", "break if", "return", "{", "}",
                "(", ")", "<", ">", ";", ",", ":", "@", "->", "=", ".", "[", "]", "/*", "*/", "//", "enable",
                "&&", "||", "=>", "'", "\"", "\\", "\t", "\u00e9", "\U0001f642", "\u200b", "\x00")


class WgslGenerator:
    """One module per call to `module()`; `budget` bounds its size (every node spends from it)."""

    def __init__(self, chooser: Chooser, budget: int = 400, slips: int = 3) -> None:
        self.c = chooser
        self.budget = budget
        self.slips = slips  # percent of places that get a deliberate mistake
        self.dialect = "plain"
        self.globals: list[str] = []
        self.locals: list[str] = []
        self.types: list[str] = []
        self.functions: list[str] = []

    # ------------------------------------------------------------ helpers
    def spend(self, amount: int = 1) -> bool:
        self.budget -= amount
        return self.budget > 0

    def slip(self) -> bool:
        return self.c.chance(self.slips)

    def name(self) -> str:
        pool = self.locals + self.globals
        if pool and self.c.chance(75):
            return self.c.choice(pool)
        return self.fresh()

    def fresh(self) -> str:
        base = self.c.choice(WORDS) if self.slip() else self.c.choice(("v", "t", "acc", "tile", "row", "idx", "s"))
        return f"{base}{self.c.integer(0, 20)}" if base[-1].isalpha() and base not in ("_",) else base

    def sep(self) -> str:
        if self.c.chance(4):
            return self.c.choice(("/* c */", "/* /* nested */ */", "// line\n", "\n\n", "\t", "\r\n"))
        return ""

    # ------------------------------------------------------------ types
    def matrix_type(self) -> str:
        dialect = self.dialect if self.dialect != "plain" or not self.c.chance(30) else self.c.choice(DIALECTS[1:])
        if dialect == "wgpu":
            size = self.c.choice(("8x8", "16x16", "8x8", "4x4"))
            role = self.c.choice(("A", "B", "C", "D"))
            return f"coop_mat{size}<{self.c.choice(MATRIX_ELEMENTS)}, {role}>"
        kind = self.c.choice(("left", "right", "result"))
        rows, cols = self.c.choice(SIZES), self.c.choice(SIZES)
        return f"subgroup_matrix_{kind}<{self.c.choice(MATRIX_ELEMENTS)}, {rows}, {cols}>"

    def type_(self, depth: int = 0) -> str:
        if not self.spend() or depth > 3:
            return self.c.choice(SCALARS)
        pick = self.c.integer(0, 11)
        if pick <= 3:
            return self.c.choice(SCALARS)
        if pick == 4:
            return f"vec{self.c.choice('234')}<{self.c.choice(SCALARS)}>"
        if pick == 5:
            return self.c.choice(("vec3u", "vec4f", "vec2i", "vec3h", "mat4x4f", "mat2x3<f32>"))
        if pick == 6:
            count = "" if self.c.chance(30) else f", {self.c.choice(('4', '64', '16u', 'N', '0', '-1'))}"
            return f"array<{self.type_(depth + 1)}{count}>"
        if pick == 7:
            return f"atomic<{self.c.choice(('u32', 'i32', 'f32'))}>"
        if pick == 8 and self.types:
            return self.c.choice(self.types)
        if pick == 9:
            space = self.c.choice(("function", "private", "workgroup", "storage", "uniform"))
            access = self.c.choice(("", ", read", ", read_write", ", write"))
            return f"ptr<{space}, {self.type_(depth + 1)}{access}>"
        return self.matrix_type()

    # ------------------------------------------------------------ expressions
    def literal(self) -> str:
        return self.c.choice(("0", "1", "1u", "-1i", "0x1F", "0xffffffffu", "2147483648", "1.0", "0.5f", "1e3",
                              "1.5h", "0x1p4f", ".5", "1.", "true", "false", "4294967296u", "1e99f", "0u",
                              "16u", "0.0"))

    def matrix_call(self) -> str:
        args = lambda n: ", ".join(self.expression(2) for _ in range(n))  # noqa: E731
        dialect = self.dialect if self.dialect != "plain" else self.c.choice(DIALECTS[1:])
        if dialect == "wgpu":
            pick = self.c.integer(0, 4)
            if pick == 0:
                return f"{self.c.choice(('coopLoad', 'coopLoadT'))}<{self.matrix_type()}>(&{self.name()}[{self.expression(2)}], {self.expression(2)})"
            if pick == 1:
                return f"{self.c.choice(('coopStore', 'coopStoreT'))}({self.name()}, &{self.name()}[{self.expression(2)}], {self.expression(2)})"
            if pick == 2:
                return f"coopMultiplyAdd({args(3)})"
            return f"{self.matrix_type()}({args(self.c.integer(0, 1))})"
        pick = self.c.integer(0, 6)
        major = self.c.choice(("", ", row_major", ", col_major", ", bogus"))
        if pick == 0:
            return f"subgroupMatrixLoad<{self.matrix_type()}{major}>(&{self.name()}, {args(self.c.integer(1, 3))})"
        if pick == 1:
            template = f"<{self.c.choice(('row_major', 'col_major'))}>" if self.c.chance(50) else ""
            return f"subgroupMatrixStore{template}(&{self.name()}, {args(self.c.integer(2, 4))})"
        if pick == 2:
            return f"subgroupMatrixMultiply<{self.c.choice(MATRIX_ELEMENTS)}>({args(2)})"
        if pick == 3:
            return f"subgroupMatrixMultiplyAccumulate({args(3)})"
        if pick == 4:
            op = self.c.choice(("Add", "Subtract", "Multiply"))
            return f"subgroupMatrixScalar{op}({args(2)})"
        return f"{self.matrix_type()}({args(self.c.integer(0, 1))})"

    def expression(self, depth: int = 0) -> str:
        if not self.spend() or depth > 5:
            return self.c.choice((self.literal(), self.name()))
        pick = self.c.integer(0, 13)
        if pick <= 2:
            return self.literal()
        if pick <= 4:
            return self.name()
        if pick == 5:
            return f"{self.c.choice(UNARY)}{self.expression(depth + 1)}"
        if pick <= 7:
            left, right = self.expression(depth + 1), self.expression(depth + 1)
            op = self.c.choice(BINARY)
            if self.c.chance(70):
                return f"({left} {op} {right})"
            return f"{left} {op} {right}"
        if pick == 8:
            callee = self.c.choice(PLAIN_CALLS + tuple(self.functions))
            count = self.c.integer(0, 3)
            return f"{callee}({', '.join(self.expression(depth + 1) for _ in range(count))})"
        if pick == 9:
            return self.matrix_call()
        if pick == 10:
            return f"{self.name()}.{self.c.choice(('x', 'xyz', 'rgba', 'first', 'len', 'zz', 'w'))}"
        if pick == 11:
            return f"{self.name()}[{self.expression(depth + 1)}]"
        if pick == 12:
            return f"{self.type_()}({self.expression(depth + 1)})"
        return f"({self.expression(depth + 1)})"

    # ------------------------------------------------------------ statements
    def block(self, depth: int, allow_continuing: bool = False) -> str:
        count = self.c.integer(0, 4)
        saved = list(self.locals)
        body = [self.statement(depth + 1) for _ in range(count) if self.spend()]
        if allow_continuing and self.c.chance(40):
            tail = f"break if {self.expression(2)};" if self.c.chance(50) else ""
            body.append(f"continuing {{ {self.statement(depth + 1)} {tail} }}")
        self.locals = saved
        indent = "  " * (depth + 1)
        inner = "".join(f"{indent}{s}{self.sep()}\n" for s in body)
        return "{\n" + inner + "  " * depth + "}"

    def statement(self, depth: int = 1) -> str:
        if self.slip():
            return self.c.choice(KEYWORD_JUNK) + " " + self.expression(3)
        if not self.spend() or depth > 4:
            return f"{self.name()} = {self.expression(3)};"
        pick = self.c.integer(0, 18)
        end = "" if self.slip() else ";"
        if pick <= 2:
            keyword = self.c.choice(("let", "var", "const", "var<function>"))
            name = self.fresh()
            typed = f": {self.type_()}" if self.c.chance(30) else ""
            value = f" = {self.expression()}" if not keyword.startswith("var") or self.c.chance(70) else ""
            self.locals.append(name)
            return f"{keyword} {name}{typed}{value}{end}"
        if pick <= 4:
            return f"{self.name()}{self.c.choice(('', '[0]', '.x'))} {self.c.choice(COMPOUND)} {self.expression()}{end}"
        if pick == 5:
            return f"{self.name()}{self.c.choice(('++', '--'))}{end}"
        if pick == 6:
            text = f"if {self.expression(1)} {self.block(depth)}"
            while self.c.chance(30) and self.spend():
                text += f" else if {self.expression(1)} {self.block(depth)}"
            if self.c.chance(40):
                text += f" else {self.block(depth)}"
            return text
        if pick == 7:
            cases = []
            for _ in range(self.c.integer(0, 3)):
                cases.append(f"case {self.literal()}, {self.literal()}: {self.block(depth + 1)}")
            if self.c.chance(80):
                cases.append(f"default {self.block(depth + 1)}")
            return f"switch {self.expression(2)} {{ {' '.join(cases)} }}"
        if pick == 8:
            return f"loop {self.block(depth, allow_continuing=True)}"
        if pick == 9:
            init = self.c.choice(("var i = 0u", "", f"let j = {self.expression(3)}"))
            update = self.c.choice(("i++", "i += 1u", "", "i = i + 1u"))
            return f"for ({init}; {self.expression(2)}; {update}) {self.block(depth)}"
        if pick == 10:
            return f"while {self.expression(2)} {self.block(depth)}"
        if pick == 11:
            return self.c.choice(("return", f"return {self.expression(2)}", "break", "continue", "discard")) + end
        if pick == 12:
            return f"{self.c.choice(BARRIERS)}(){end}"
        if pick == 13:
            return f"_ = {self.expression()}{end}"
        if pick == 14:
            return f"const_assert {self.expression(2)}{end}"
        if pick == 15:
            return self.block(depth)
        if pick == 16:
            return f"{self.matrix_call()}{end}"
        if pick == 17:
            return f"{self.c.choice(('@diagnostic(off, derivative_uniformity)', '@diagnostic(off, coop.deprecated_builtin)'))} {self.block(depth)}"
        return f"{self.c.choice(self.functions or ['f'])}({self.expression(2)}){end}"

    # ------------------------------------------------------------ declarations
    def attributes(self, kind: str) -> str:
        out = []
        if kind == "entry":
            out.append(self.c.choice(("@compute", "@vertex", "@fragment", "@compute")))
            sizes = ", ".join(self.c.choice(("1", "32", "64u", "128", "WG", "0", "1024")) for _ in range(self.c.integer(1, 3)))
            out.append(f"@workgroup_size({sizes})")
        elif kind == "binding":
            out.append(f"@group({self.c.integer(0, 3)}) @binding({self.c.integer(0, 5)})")
        elif kind == "param":
            pick = self.c.integer(0, 2)
            if pick == 0:
                out.append(f"@builtin({self.c.choice(BUILTIN_VALUES)})")
            elif pick == 1:
                out.append(f"@location({self.c.integer(0, 3)})")
        if self.c.chance(5):
            out.append(f"@{self.c.choice(ATTRIBUTE_ONLY)}")
        if self.c.chance(5):
            out.append("@diagnostic(warning, subgroup_uniformity)")
        return " ".join(out)

    def directive(self) -> str:
        pick = self.c.integer(0, 5)
        if pick == 0:
            return "enable f16;"
        if pick == 1:
            return f"enable {self.c.choice(('subgroups', 'f16, subgroups', 'clip_distances', 'bogus_ext'))};"
        if pick == 2:
            return f"requires {self.c.choice(('readonly_and_readwrite_storage_textures', 'packed_4x8_integer_dot_product', 'bogus'))};"
        if pick == 3:
            return f"diagnostic({self.c.choice(('off', 'warning', 'error', 'info'))}, {self.c.choice(('derivative_uniformity', 'subgroup_uniformity', 'coop.deprecated_builtin', 'unknown.rule'))});"
        return f"enable {ENABLES[self.c.choice(DIALECTS[1:])]};"

    def global_declaration(self) -> str:
        pick = self.c.integer(0, 9)
        name = self.fresh()
        if pick <= 1:
            self.globals.append(name)
            keyword = self.c.choice(("const", "override"))
            typed = f": {self.type_()}" if self.c.chance(40) else ""
            return f"{keyword} {name}{typed} = {self.expression(2)};"
        if pick <= 3:
            self.globals.append(name)
            space = self.c.choice(("<storage, read>", "<storage, read_write>", "<workgroup>", "<private>",
                                   "<uniform>", "", "<storage>"))
            attrs = self.attributes("binding") if "storage" in space or "uniform" in space else ""
            return f"{attrs} var{space} {name}: {self.type_()};".lstrip()
        if pick == 4:
            self.types.append(name)
            return f"alias {name} = {self.type_()};"
        if pick == 5:
            self.types.append(name)
            members = ", ".join(f"{self.c.choice(('first', 'second', 'len', 'data'))}{i}: {self.type_()}"
                                for i in range(self.c.integer(1, 4)))
            return f"struct {name} {{ {members} }}"
        if pick == 6:
            return f"const_assert {self.expression(2)};"
        return self.function()

    def function(self, entry: bool | None = None) -> str:
        name = self.fresh()
        entry = self.c.chance(40) if entry is None else entry
        params = []
        self.locals = []
        for _ in range(self.c.integer(0, 3)):
            param = self.fresh()
            self.locals.append(param)
            params.append(f"{self.attributes('param') if entry else ''} {param}: {self.type_()}".strip())
        result = "" if entry or self.c.chance(50) else f" -> {self.type_()}"
        attrs = self.attributes("entry") if entry else ("@must_use " if self.c.chance(5) else "")
        body = self.block(0)
        self.locals = []
        self.functions.append(name)
        return f"{attrs}\nfn {name}({', '.join(params)}){result} {body}".lstrip()

    def module(self) -> str:
        self.dialect = self.c.choice(DIALECTS)
        parts = []
        if self.dialect in ("wgpu", "chromium") or self.c.chance(30):
            parts.append("enable f16;")
        if self.dialect != "plain":
            parts.append(f"enable {ENABLES[self.dialect]};")
        for _ in range(self.c.integer(0, 2)):
            parts.append(self.directive())
        for _ in range(self.c.integer(0, 6)):
            if not self.spend(5):
                break
            parts.append(self.global_declaration())
        if self.c.chance(85):
            parts.append(self.function(entry=True))
        return "\n".join(parts) + ("\n" if self.c.chance(90) else "")


def random_module(rng: random.Random, budget: int = 400, slips: int = 3) -> str:
    return WgslGenerator(RandomChooser(rng), budget=budget, slips=slips).module()
