"""Dawn's tiled subgroup-matrix matmul test kernel (src/dawn/tests/end2end/SubgroupMatrixTests.cpp,
SubgroupMatrix_TiledMatrixMultiplyTest), instantiated the way its C++ does.

The test builds its WGSL with `shader << ...;` statements, some under `if (...)`, from raw strings and
values of the adapter's subgroup-matrix configuration and the test's parameters (TileDim, WorkgroupSize).
Rather than retyping that, this module reads the test's C++ from the Dawn mirror and evaluates those
statements for one configuration: what it returns is the text the C++ would hand to CreateShaderModule.
Only the constructs that block uses are understood (string literals, raw strings, the config's fields,
the test's local variables, ComponentTypeTo*Type, `std::string(cond ? "a" : "b")`, `if`); anything else
raises, so a change upstream fails loudly instead of producing a different kernel.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

TEST_PATH = "src/dawn/tests/end2end/SubgroupMatrixTests.cpp"

# SubgroupMatrixTests.cpp's ComponentTypeToWgslType / ComponentTypeToScalarShaderType / ComponentTypeToByteSize.
WGSL_TYPE = {"F32": "f32", "F16": "f16", "U32": "u32", "I32": "i32", "U8": "u8", "I8": "i8"}
SCALAR_TYPE = {"F32": "f32", "F16": "f16", "U32": "u32", "U8": "u32", "I32": "i32", "I8": "i32"}


class UnknownConstruct(ValueError):
    pass


def test_source(mirror: Path) -> tuple[str, str]:
    """(the test file's text, the mirror's commit)."""
    git = ["git", "-C", str(mirror)]
    text = subprocess.run(git + ["show", f"HEAD:{TEST_PATH}"], check=True, capture_output=True, text=True).stdout
    commit = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    return text, commit


def _shader_block(source: str) -> str:
    """The statements from `std::ostringstream shader;` to the error scope around pipeline creation in the
    tiled matmul test."""
    start = source.index("TEST_P(SubgroupMatrix_TiledMatrixMultiplyTest, MatrixMultiply)")
    begin = source.index("std::ostringstream shader;", start) + len("std::ostringstream shader;")
    end = source.index("device.PushErrorScope", begin)
    return source[begin:end]


_TOKEN = re.compile(r'''\s*(?:
    (?P<comment>//[^\n]*) |
    (?P<raw>R"\((?P<rawbody>.*?)\)") |
    (?P<string>"(?P<body>(?:[^"\\]|\\.)*)") |
    (?P<number>\d+u?) |
    (?P<name>[A-Za-z_][\w:.]*) |
    (?P<op><<|\|\||&&|==|!=|[(){};?:!+])
)''', re.VERBOSE | re.DOTALL)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, position = [], 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            if text[position:].strip() == "":
                break
            raise UnknownConstruct(f"cannot read the C++ at {text[position:position + 40]!r}")
        position = match.end()
        if match["comment"]:
            continue
        if match["raw"] is not None:
            out.append(("str", match["rawbody"]))
        elif match["string"] is not None:
            out.append(("str", bytes(match["body"], "utf-8").decode("unicode_escape")))
        elif match["number"]:
            out.append(("num", match["number"].rstrip("u")))
        elif match["name"]:
            out.append(("name", match["name"]))
        else:
            out.append(("op", match["op"]))
    return out


class _Evaluator:
    def __init__(self, tokens, values: dict):
        self.tokens, self.at, self.values, self.out = tokens, 0, values, []

    def peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self, expected: str | None = None):
        token = self.peek()
        if expected is not None and token[1] != expected:
            raise UnknownConstruct(f"expected {expected!r}, found {token[1]!r}")
        self.at += 1
        return token

    def block(self, emit: bool):
        while self.peek()[0] != "end" and self.peek()[1] != "}":
            self.statement(emit)

    def statement(self, emit: bool):
        kind, value = self.peek()
        if value == "if":
            self.take()
            self.take("(")
            condition = self.expression()
            self.take(")")
            self.take("{")
            self.block(emit and bool(condition))
            self.take("}")
            return
        if value == "shader":
            self.take()
            while self.peek()[1] == "<<":
                self.take()
                part = self.expression()
                if emit:
                    self.out.append(str(part))
            self.take(";")
            return
        raise UnknownConstruct(f"unexpected statement starting with {value!r}")

    # expression := or ['?' expression ':' expression]
    def expression(self):
        value = self.disjunction()
        if self.peek()[1] == "?":
            self.take()
            yes = self.expression()
            self.take(":")
            no = self.expression()
            return yes if value else no
        return value

    def disjunction(self):
        value = self.conjunction()
        while self.peek()[1] == "||":
            self.take()
            right = self.conjunction()
            value = bool(value) or bool(right)
        return value

    def conjunction(self):
        value = self.comparison()
        while self.peek()[1] == "&&":
            self.take()
            right = self.comparison()
            value = bool(value) and bool(right)
        return value

    def comparison(self):
        value = self.concatenation()
        if self.peek()[1] in ("==", "!="):
            op = self.take()[1]
            right = self.concatenation()
            return (value == right) if op == "==" else (value != right)
        return value

    def concatenation(self):
        value = self.primary()
        # `std::string(...) + R"(...)"`: the test joins strings with +
        while self.peek() == ("op", "+"):
            self.take()
            value = str(value) + str(self.primary())
        return value

    def primary(self):
        kind, value = self.take()
        if kind == "str":
            return value
        if kind == "num":
            return int(value)
        if kind == "op" and value == "(":
            inner = self.expression()
            self.take(")")
            return inner
        if kind == "op" and value == "!":
            return not self.primary()
        if kind == "name":
            if value.startswith("wgpu::SubgroupMatrixComponentType::"):
                return value.rsplit("::", 1)[1]
            if value in ("ComponentTypeToWgslType", "ComponentTypeToScalarShaderType", "std::string"):
                self.take("(")
                argument = self.expression()
                self.take(")")
                table = {"ComponentTypeToWgslType": WGSL_TYPE, "ComponentTypeToScalarShaderType": SCALAR_TYPE}
                return table[value][argument] if value in table else str(argument)
            if value in self.values:
                return self.values[value]
        raise UnknownConstruct(f"unknown value {value!r}")


def instantiate(source: str, component: str, result: str, m: int, n: int, k: int, tile_dim: int,
                workgroup_size: int) -> str:
    """The WGSL the tiled matmul test builds for config (component -> result, M x N x K), TileDim and
    WorkgroupSize."""
    comp_8bit = component in ("U8", "I8")
    res_8bit = result in ("U8", "I8")
    values = {"config.componentType": component, "config.resultComponentType": result, "config.M": m,
              "config.N": n, "config.K": k, "kTileDim": tile_dim, "kWorkgroupSize": workgroup_size,
              "matrix_cols": n * tile_dim, "matrix_rows": m * tile_dim, "matrix_k": k * tile_dim,
              "comp_8bit": comp_8bit, "res_8bit": res_8bit}
    evaluator = _Evaluator(_tokens(_shader_block(source)), values)
    evaluator.block(True)
    if evaluator.peek()[0] != "end":
        raise UnknownConstruct(f"stopped at {evaluator.peek()[1]!r}")
    return "".join(evaluator.out)
