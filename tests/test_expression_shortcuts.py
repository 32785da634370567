"""The checker's shortcuts on expressions against the slow paths they stand for.

- A run-time binary result's Typed is shared by every such result of the same operand types (made with
  the operator's memo entry) where each used to be made afresh.
- A name whose Typed is kept is answered before its kind is told apart.
- Node kinds are read by id (syntax/nodes.py's KIND_NAMES) where `Node.type` made a string per read.
- An int literal's Typed is kept by its text for every module the process checks, not per module.
- A read of a module-scope variable by its name notes its alias root without alias_root's walk.

Each is compared on real, generated and mutilated sources with the slow path: every finding (code,
message, range, related places, fixes) and every type and reference in the model must be the same.
"""

from __future__ import annotations

import random
from pathlib import Path

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.lint import lint_source
from coop_lsp.semantic import aliasing, expressions
from coop_lsp.semantic.checker import Checker
from coop_lsp.syntax.nodes import KIND_NAMES
from coop_lsp.syntax.parser import parse
from tests.support.trees import counted_instances, every_node, public_kernels_with_junk

ROOT = Path(__file__).resolve().parent.parent


def _texts() -> list[str]:
    files = sorted((ROOT / "examples").rglob("*.wgsl")) + sorted((ROOT / "tests" / "spec").rglob("*.wgsl"))
    sources = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    rng = random.Random(17)
    kernels = [matrix_heavy_kernel(random.Random(100 + seed), functions=3) for seed in range(4)]
    mutilated = []
    for _ in range(60):
        text = rng.choice(sources + kernels)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(["", "(", ";", "let x =", "1 +", " * 2u", " && false", "[0]"]) \
                + text[at + rng.randint(0, 8):]
        mutilated.append(text)
    return sources + kernels + mutilated


def _outcome(text: str):
    result = lint_source(text)
    findings = [(d.code, d.severity.name, d.span.start, d.span.end, d.message,
                 [(r.span.start, r.span.end, r.message) for r in d.related],
                 [(f.title, [(e.span.start, e.span.end, e.new_text) for e in f.edits]) for f in d.fixes])
                for d in sorted(result.diagnostics, key=lambda d: d.sort_key)]
    model = result.model
    types = sorted((key, repr(value)) for key, value in model.expression_types()) if model is not None else None
    references = sorted((key, symbol.name, symbol.kind, symbol.span.start) for key, symbol in model.references()) \
        if model is not None else None
    return findings, types, references


def _fresh(typed: expressions.Typed) -> expressions.Typed:
    copy = expressions.Typed(typed.type, typed.value, typed.symbol, typed.const, typed.override, typed.components)
    copy.vector_part, copy.repeated_swizzle = typed.vector_part, typed.repeated_swizzle
    return copy


def test_shared_and_kept_typed_values_check_as_fresh_ones(monkeypatch):
    texts = _texts()
    fast = [_outcome(text) for text in texts]
    binary, identifier = expressions.ExpressionChecker._binary, expressions.ExpressionChecker._identifier

    def fresh_binary(self, node):
        typed = binary(self, node)
        return typed if typed is expressions.ERROR else _fresh(typed)

    def uncached_identifier(self, node, start, end):
        # Nothing kept: every use makes its Typed (and a variable its load) from the symbol again.
        self.ctx.value_uses.clear()
        self.ctx.variable_uses.clear()
        return identifier(self, node, start, end)

    monkeypatch.setattr(expressions.ExpressionChecker, "_binary", fresh_binary)
    monkeypatch.setattr(expressions.ExpressionChecker, "_identifier", uncached_identifier)
    monkeypatch.setattr(expressions, "_EXPRESSION_HANDLERS", {})  # (the methods _expression looked up)
    slow = [_outcome(text) for text in texts]
    assert len(texts) > 100
    for text, one, other in zip(texts, fast, slow):
        assert one == other, text[:200]


class _Forgetful(dict):
    """A table that keeps nothing: every int literal is parsed and made again."""

    def __setitem__(self, key, value) -> None:
        pass


def _alias_facts(text: str):
    """What the alias analysis was told of each function's accesses and calls, as plain values."""
    checker = Checker(parse(text))
    checker.run()
    return sorted((function.name, sorted((n, s.start, s.end) for n, s in facts.module_reads.items()),
                   sorted((n, s.start, s.end) for n, s in facts.module_writes.items()),
                   sorted(facts.param_reads), sorted(facts.param_writes),
                   [(call.callee, [(a.index, a.root, a.span.start, a.span.end) for a in call.arguments])
                    for call in facts.calls])
                  for function, facts in checker.alias_facts.items())


def test_literals_kept_across_modules_and_module_reads_check_as_the_slow_paths(monkeypatch):
    texts = _texts() + [text for _, text in public_kernels_with_junk(19, 19, ["1", "0x7fu", "(2 + g)", ";", "{"],
                                                                     per_file=1)]
    # (each text checked after all the others: the literals kept come from every module before it)
    fast = [(_outcome(text), _alias_facts(text)) for text in texts + texts][len(texts):]

    def module_read_by_alias_root(self, node, name):
        self.note_access(node, read=True, write=False)

    monkeypatch.setattr(expressions, "_INT_LITERALS", _Forgetful())
    monkeypatch.setattr(aliasing.AliasChecker, "note_module_read", module_read_by_alias_root)
    slow = [(_outcome(text), _alias_facts(text)) for text in texts]
    assert sum(1 for _, facts in fast if any(reads for _, reads, *_ in facts)) > 20
    for text, one, other in zip(texts, fast, slow):
        assert one == other, text[:200]


def test_an_int_literal_is_parsed_once_per_process_not_once_per_module(monkeypatch):
    """Work count: the next version of a module (or another module) with the same literals parses none."""
    text = matrix_heavy_kernel(random.Random(5), functions=2)
    lint_source(text)
    parsed = []
    parse_int = expressions.c.parse_int_literal
    monkeypatch.setattr(expressions.c, "parse_int_literal", lambda literal: parsed.append(literal) or parse_int(literal))
    lint_source(text.replace("fn ", "fn  "))
    assert parsed == []
    lint_source(text + "\nconst new_literal = 123456789;\n")
    assert parsed == ["123456789"]


def test_a_module_variable_read_by_name_needs_no_alias_root_walk(monkeypatch):
    """Work count: n reads of a module-scope variable by its name ask alias_root nothing (it walked and
    looked each name up again); an index into it still asks, once per access."""
    walked = []
    alias_root = aliasing.AliasChecker.alias_root
    monkeypatch.setattr(aliasing.AliasChecker, "alias_root",
                        lambda self, node: walked.append(node.type) or alias_root(self, node))

    def walks_for(lines: int) -> int:
        body = "".join(f"  let x{i} = g + 1u;\n" for i in range(lines))
        walked.clear()
        result = lint_source(f"var<private> g: u32;\nfn f() {{\n{body}}}\n")
        assert [d.code for d in result.diagnostics if d.severity.name == "ERROR"] == []
        return len(walked)

    assert walks_for(40) == walks_for(10) == 0


def test_run_time_binary_results_share_one_typed_per_operand_types(monkeypatch):
    """Work count: n run-time `a * b + c` lines make a few Typed for their binary results, not 2n."""
    made = counted_instances(monkeypatch, expressions.Typed)

    def made_for(lines: int) -> int:
        body = "".join(f"  let x{i} = a * b + c;\n" for i in range(lines))
        made.clear()
        result = lint_source(f"fn f(a: u32, b: u32, c: u32) {{\n{body}}}\n")
        assert [d.code for d in result.diagnostics if d.severity.name == "ERROR"] == []
        return len(made)

    assert made_for(40) - made_for(10) == 0
    # A constant result keeps its value: each is its own.
    folded = lint_source("const k = 2u * 3u + 1u;\nconst_assert k == 7u;\n")
    assert [d.code for d in folded.diagnostics if d.severity.name == "ERROR"] == []




def test_kind_names_are_node_types_on_real_and_broken_sources():
    seen_error = seen_missing = 0
    for text in _texts():
        for node in every_node(parse(text).root):
            assert KIND_NAMES[node.kind_id] == node.type
            seen_error += node.type == "ERROR"
            seen_missing += node.is_missing
    assert seen_error and seen_missing


def test_expression_kinds_in_the_model_are_the_interned_names():
    """Work count: the checker reads each expression's kind by id, so the model's keys hold the one string
    per kind (reading `Node.type` made a new string per node, and its hash again in every table)."""
    interned = {name: name for name in KIND_NAMES.values()}
    text = matrix_heavy_kernel(random.Random(3), functions=2)
    kinds = [key[2] for key, _ in lint_source(text).model.expression_types()]
    assert len(kinds) > 200
    assert all(kind is interned[kind] for kind in kinds)


# Accesses into variables, written to reach every branch of the shared accesses: indices into arrays,
# vectors and matrices, struct members, swizzles (one that repeats a component, one taken the address of),
# nested accesses, accesses through pointers, assignments to them, and broken ones.
_ACCESSES = """
struct S { f: vec4<f32>, a: array<u32, 4>, m: mat2x2<f32> }
var<private> g: S;
var<workgroup> w: array<array<f32, 8>, 8>;
@group(0) @binding(0) var<storage, read> ro: array<u32>;
fn take(p: ptr<function, vec4<f32>>) -> f32 { return (*p).x + p.y + (*p)[2]; }
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var a: array<u32, 4>;
  var v = vec4<f32>(1.0, 2.0, 3.0, 4.0);
  var s: S;
  var m: mat3x3<f32>;
  let x = a[1] + a[i] + a[1] + s.a[2] + s.a[i] + g.a[0] + ro[i];
  let y = v.x + v.xy.y + v.zzz.x + s.f.w + g.f.x + m[1].y + m[1][2] + s.m[0].x + w[i][i];
  v.x = 2.0;
  v.xx = vec2<f32>(1.0, 1.0);
  s.f.yx = vec2<f32>(0.0, 1.0);
  a[2] = a[1];
  a[5] = 1u;
  let p = &v.x;
  let q = &a[1];
  let r = take(&v);
  s.nothing = 1;
  v.q = 1.0;
  ro[0] = 1u;
  m[1].z += 1.0;
  w[i][0] = w[0][i];
  let z = (a)[1] + (v).x + (*(&v)).x + (*(&a))[1];
}
"""


def test_shared_accesses_and_call_results_check_as_fresh_ones(monkeypatch):
    texts = _texts() + [_ACCESSES] + [text for _, text in public_kernels_with_junk(23, 23, ["[0]", ".x", "&", ";"],
                                                                                per_file=1)]
    # (each text checked after all the others: the call results kept come from every module before it)
    fast = [_outcome(text) for text in texts + texts][len(texts):]
    monkeypatch.setattr(expressions, "_SHARE_ACCESSES", False)
    monkeypatch.setattr(expressions, "_SHARE_RESULTS", False)
    slow = [_outcome(text) for text in texts]
    assert len(texts) > 100 and any(codes for codes, _, _ in fast)
    for text, one, other in zip(texts, fast, slow):
        assert one == other, text[:200]


def test_accesses_into_a_variable_and_call_results_share_their_typed_values(monkeypatch):
    """Work count: n lines reading `a[1]`, `v.x` and `s.f.y` of a function's variables, through a pointer
    too, and calling builtins make no reference types and no Typed more than a few lines do (each access
    made its reference's Typed, and its load, afresh, and each call its result's)."""
    made = counted_instances(monkeypatch, expressions.Typed)
    references = counted_instances(monkeypatch, expressions.t.Reference)

    def made_for(lines: int) -> tuple[int, int]:
        body = "".join(f"  let x{i} = a[1] + min(a[2], p[3]);\n  let y{i} = v.x + s.f.y;\n  workgroupBarrier();\n"
                       for i in range(lines))
        made.clear()
        references.clear()
        result = lint_source("struct S { f: vec4<f32> }\n"
                             "fn f(p: ptr<function, array<u32, 4>>) {\n  var a: array<u32, 4>;\n  var v: vec4<f32>;\n"
                             f"  var s: S;\n{body}}}\n")
        assert [d.code for d in result.diagnostics if d.severity.name == "ERROR"] == []
        return len(made), len(references)

    made_for(1)  # (the int literals' Typed, kept for the process, made first)
    assert made_for(40) == made_for(10)


def test_identifiers_and_locals_are_checked_without_the_general_calls(monkeypatch):
    """Work count: an assignment's target named by an identifier goes to _identifier without _expression's
    call, and a local's name and span are read without Context.text's and Context.span's calls."""
    from coop_lsp.semantic import context
    calls = []
    general = expressions.ExpressionChecker._expression
    monkeypatch.setattr(expressions.ExpressionChecker, "_expression",
                        lambda self, node, kind: calls.append(kind) or general(self, node, kind))
    text, span = context.Context.text, context.Context.span
    monkeypatch.setattr(context.Context, "text", lambda self, node: calls.append("text") or text(self, node))
    monkeypatch.setattr(context.Context, "span", staticmethod(lambda node: calls.append("span") or span(node)))

    def calls_for(lines: int) -> int:
        body = "".join(f"  let x{i} = a;\n  a = x{i};\n" for i in range(lines))
        calls.clear()
        checker = Checker(parse(f"fn f() {{\n  var a = 1u;\n{body}}}\n"))
        checker.run()
        assert checker.ctx.diagnostics == []
        return len(calls)

    calls_for(1)  # (the literal's Typed, kept for the process, made first)
    assert calls_for(40) == calls_for(10)
