"""f16 accumulators over K loops: results whose precision falls with K.

A `subgroup_matrix_result<f16>` (naga: `coop_mat<f16, C>`) that a loop
multiplies into rounds every partial sum to f16. ggml's WebGPU matmul does
this for speed; at K = 4096 it was off by 0.72 at values near 67 on an H100
(issue 24), and its own comment notes NaNs on some devices (f16 overflows
past 65504). Measured by the runner (tests/test_runner_precision.py): on
lavapipe, K = 256 with inputs in [0, 1] gave a largest error of 0.128 at
|C| near 72 (0.18%), past the f32 output's tolerance; f16 accumulation
simulated in NumPy at K = 4096 gives 9% relative error with inputs in
[0, 1] (small products are lost against a large running sum).

The fix has a price the finding states with it: an f32 tile holds twice the
registers of an f16 one. Issue 32 reported ggml's kernel, 8 result tiles per
subgroup and 8 subgroups a workgroup, 1.76x slower with f32 accumulators on
an H100 (register pressure), so the message counts the tiles the function
holds and names that figure once they are as many.
"""

from __future__ import annotations

import bisect

import tree_sitter as ts

from ..core.diagnostic import Diagnostic, Severity
from ..core.rules import Rule, register
from ..core.text import SourceText, Span
from ..semantic import types as t
from ..semantic.builtins.language import DIALECTS, MULTIPLY
from ..semantic.model import SemanticModel
from ..semantic.reuse import BodyReuse
from .function_findings import FunctionFindings

F16_ACCUMULATOR = register(Rule(
    code="T050", name="f16_accumulator", severity=Severity.INFO, layer="analysis",
    summary="A matrix multiply that accumulates in f16 inside a loop over K.",
    explanation="Each addition into an f16 result matrix rounds to f16 (11 bits), so the error grows with "
                "K and with the running sums' size: on lavapipe K = 256 with inputs in [0, 1] was off by "
                "0.18%, and f16 accumulation over K = 4096 by up to 9% (simulated). Values past 65504 "
                "overflow to infinity. The output buffer's type does not change this. `coop-lint run` judges "
                "such kernels against the error f16 accumulation gives (`--strict` against the output type). "
                "f32 tiles take twice the registers: with many result tiles per subgroup that can cost more "
                "than it gains (ggml's kernel, 8 tiles per subgroup, was reported 1.76x slower in f32 on an "
                "H100).",
    example="var acc: subgroup_matrix_result<f16, 16, 16>;\n"
            "for (var k = 0u; k < K; k += 16u) { acc = subgroupMatrixMultiplyAccumulate(l, r, acc); }",
    fix="Accumulate in f32 (subgroup_matrix_result<f32, ...>) where the adapter offers f16 x f16 -> f32.",
))

# The multiplies that take an accumulator: a third parameter besides the two operands.
_ACCUMULATES = {builtin.name for dialect in DIALECTS for builtin in dialect.builtins
                if builtin.memory == MULTIPLY and any(len(o.parameters) == 3 for o in builtin.overloads)}
_LOOPS = ("for_statement", "while_statement", "loop_statement")
# As many result tiles per subgroup as ggml's kernel held when f32 accumulators made it 1.76x slower.
MANY_TILES = 8


def accumulation_diagnostics(root: ts.Node, source: SourceText, model: SemanticModel,
                             bodies: BodyReuse | None = None, reuse: FunctionFindings | None = None
                             ) -> list[Diagnostic]:
    """With `bodies` and `reuse` (the document's), a function whose text and body check did not change
    since the last version gives its findings again without a look at its calls."""
    # Found from the builtin's name in the bytes, not by walking every node: this runs on every lint,
    # and a walk over a 10 MB module costs seconds.
    data = source.data
    sites = []
    for name in _ACCUMULATES:
        needle = name.encode()
        at = data.find(needle)
        while at >= 0:
            sites.append((at, name))
            at = data.find(needle, at + len(needle))
    if not sites:
        return []
    if bodies is None or reuse is None:
        return sorted(_findings(root, data, model, sites, _TilesPerFunction(model)), key=lambda d: d.span.start)
    tiles = _TilesPerFunction(model)
    reuse.begin()
    functions = [n for n in root.named_children if n.type == "function_declaration"]
    starts = [f.start_byte for f in functions]
    by_function: dict[int, list] = {}
    out, loose = [], []
    for site in sites:
        index = bisect.bisect_right(starts, site[0]) - 1
        if index >= 0 and site[0] < functions[index].end_byte:
            by_function.setdefault(index, []).append(site)
        else:
            loose.append(site)
    out.extend(_findings(root, data, model, loose, tiles))
    for index, found_here in by_function.items():
        function = functions[index]
        record = bodies.used.get(function.start_byte)
        found = reuse.replay(record, function.start_byte)
        if found is None:
            found = _findings(root, data, model, found_here, tiles)
            reuse.record(record, function.start_byte, found)
        out.extend(found)
    reuse.end()
    return sorted(out, key=lambda d: d.span.start)


def _findings(root: ts.Node, data: bytes, model: SemanticModel, sites: list[tuple[int, str]],
              tiles: "_TilesPerFunction") -> list[Diagnostic]:
    out = []
    for at, name in sites:
        end = at + len(name)
        node = root.descendant_for_byte_range(at, end)
        if node is None or node.type != "identifier" or (node.start_byte, node.end_byte) != (at, end):
            continue
        call = node.parent
        while call is not None and call.type != "call_expression":
            call = call.parent if call.type == "templated_identifier" else None
        if call is None or not _in_loop(call):
            continue
        result = model.type_at(call.start_byte, call.end_byte, "call_expression")
        if isinstance(result, t.CoopMatrix) and result.element == t.F16:
            out.append(Diagnostic(F16_ACCUMULATOR.code,
                                  f"'{name}' accumulates in f16 in a loop: every partial sum is rounded to 11 "
                                  "bits, so the error grows with K (measured: 0.18% at K = 256 on lavapipe, up "
                                  "to 9% at K = 4096 with inputs of one sign) and sums past 65504 overflow; "
                                  "accumulate in f32 where the adapter offers f16 x f16 -> f32 (coop-lint run "
                                  "judges results at f16 accumulation's own precision)"
                                  + _register_price(tiles.around(call)),
                                  Span(node.start_byte, node.end_byte), F16_ACCUMULATOR.severity))
    return out


class _TilesPerFunction:
    """How many f16 result tiles each function declares (arrays counted by their sizes): what each
    subgroup holds in registers while it accumulates. Counted for every function in one pass over the
    symbols, the first time a finding asks: counting per finding read every symbol again, quadratic on
    f16 kernels (of 4.7 s linting 800 such functions, 2.1 s went there)."""

    def __init__(self, model: SemanticModel) -> None:
        self._model = model
        self._counts: dict[int, int] | None = None

    def around(self, call: ts.Node) -> int:
        function = call
        while function is not None and function.type != "function_declaration":
            function = function.parent
        if function is None:
            return 0
        if self._counts is None:
            self._counts = self._count_module(function)
        if function.start_byte in self._counts:
            return self._counts[function.start_byte]
        # A function inside a syntax error is not a child of the module's root: count it alone.
        return sum(_f16_results(symbol.type) for symbol in self._locals()
                   if function.start_byte <= symbol.span.start < function.end_byte)

    def _locals(self):
        return (symbol for symbol in self._model.symbols if symbol.kind in ("var", "let"))

    def _count_module(self, function: ts.Node) -> dict[int, int]:
        root = function
        while root.parent is not None:
            root = root.parent
        functions = [node for node in root.children if node.type == "function_declaration"]
        starts = [node.start_byte for node in functions]
        counts = dict.fromkeys(starts, 0)
        for symbol in self._locals():
            at = bisect.bisect_right(starts, symbol.span.start) - 1
            if at >= 0 and symbol.span.start < functions[at].end_byte:
                counts[starts[at]] += _f16_results(symbol.type)
        return counts


def _f16_results(type_: t.Type) -> int:
    if isinstance(type_, t.CoopMatrix):
        return int(type_.element == t.F16 and type_.kind.role in ("result", "C"))
    if isinstance(type_, t.Array) and isinstance(type_.count, int):
        return type_.count * _f16_results(type_.element)
    return 0


def _register_price(tiles: int) -> str:
    if tiles < 2:
        return ""
    price = f"; in f32 each of this function's {tiles} result tiles takes twice the registers"
    if tiles >= MANY_TILES:
        price += (f", and {MANY_TILES} per subgroup made ggml's kernel 1.76x slower in f32 on an H100: "
                  "measure before and after (coop-lint run --try)")
    return price


def _in_loop(node: ts.Node) -> bool:
    while node is not None:
        if node.type in _LOOPS:
            return True
        if node.type == "function_declaration":
            return False
        node = node.parent
    return False
