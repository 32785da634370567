"""The module's declarations and, while a version is carried, the unchanged declarations' steps are taken in
one frame each (semantic/checker.py: AT_ONCE; _declare_module, carried.carried_declarations, carried_checks)
rather than one call per declaration and step. Both ways do the same: the cases below check every version of
many typed and moved edits both ways (each with its own reuse) and compare the findings, the model, and what
each keeps for the next version (the carry's entries, its counts, the records used). The work case counts the
calls per unchanged function of a typed character, which the step-by-step way makes about 13 of.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from benchmarks.common import matrix_heavy_kernel, matrix_library_kernel
from coop_lsp.core.text import Position, Span
from coop_lsp.semantic import checker as checker_module
from coop_lsp.semantic.checker import check
from coop_lsp.semantic.model import Replayed, SemanticModel
from coop_lsp.semantic.reuse import BodyReuse
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.support.trees import public_kernel_sample
from tests.support.typing_workload import statements_typed, typed_versions
from tests.test_carry import MODULE
from tests.test_lint_reuse import lookups_agree, model_facts

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["chromium/gemm_tiled.wgsl", "chromium/gemm_pipelined.wgsl", "chromium/gemm_int8.wgsl",
            "standard/gemm_blocked.wgsl", "plain/gemm_tiled_f32.wgsl"]
PIECES = ["let y = max(1.0, 2.0); ", "acc = acc + 1.0; ", "let q = 1.0h; ", "if (x > 1u) { return; } ",
          "var t: u32 = LATER; ", "x = @@ 2; ", "let w = workgroupUniformLoad(&tile); "]


def _key(key) -> object:
    """A record's key without the numbers a reuse gives the module's text and a function's own signature (each
    way's reuse numbers them from one count): a header step's key is (step, header text, module text's number,
    said once, own signature's number or None, an ERROR node after it); a body's is its text."""
    if isinstance(key, tuple):
        return key[:2] + (key[3], key[4] is None, key[5])
    return key


def _entries(reuse: BodyReuse) -> list:
    """The carry's entries for the next version, records by whether there is one (each way has its own)."""
    steps = reuse.carry.last
    if steps is None:
        return []
    return [None if e is None else (e[0], e[1], e[2], _key(e[3]), e[4] is None, e[5]) for e in steps.entries]


def _kept(reuse: BodyReuse) -> tuple:
    carry, headers = reuse.carry, reuse.headers
    for record in headers._records.current.values():
        assert record.adds == bool(record.diagnostics or record.types or record.references
                                   or record.said is not None or record.dialects)
    return (carry.carried, carry.active, carry.index, headers.replayed, headers.checked, reuse.replayed,
            reuse.checked, sorted(reuse.used), sorted(map(repr, map(_key, headers._records.current))),
            sorted(reuse._records.current), _entries(reuse))


def _checked_both_ways(versions, monkeypatch) -> int:
    """Checks each version at once and step by step, each way with its own reuse, and compares them; the
    number of versions carried."""
    at_once, by_step = BodyReuse(), BodyReuse()
    carried = 0
    for parsed in versions:
        monkeypatch.setattr(checker_module, "AT_ONCE", True)
        diagnostics, model = check(parsed, at_once)
        monkeypatch.setattr(checker_module, "AT_ONCE", False)
        expected, expected_model = check(parsed, by_step)
        assert diagnostics == expected, parsed.source.text
        assert model_facts(model) == model_facts(expected_model)
        assert [(s.name, s.kind, s.span) for s in model.symbols] \
            == [(s.name, s.kind, s.span) for s in expected_model.symbols]
        lookups_agree(model)
        assert _kept(at_once) == _kept(by_step)
        carried += at_once.carry.carried > 0
    return carried


def _moves_and_typing(text: str, rng: random.Random, versions: int):
    """Versions of `text` as an editor has them: characters typed into bodies, lines inserted and removed above
    functions (every later step moves), a struct's member changed, errors typed and taken back."""
    document = Document(text)
    yield Parsed(document.parsed.source, document.tree.copy())
    for _ in range(versions):
        current = document.text
        choice = rng.random()
        functions = [m.start() for m in re.finditer(r"^(@|fn )", current, re.M)]
        if choice < 0.25 and functions:
            at = rng.choice(functions)
            document.replace(Span(at, at), rng.choice(["\n", "// moved\n", "\n\n"]))
        elif choice < 0.35:
            blank = current.find("\n\n")
            if blank >= 0:
                document.replace(Span(blank, blank + 1), "")
        elif choice < 0.45 and "struct " in current:
            at = current.index("{", current.index("struct ")) + 1
            document.replace(Span(at, at), rng.choice([" z: f32,", "\n", " "]))
        else:
            lines = [i for i, line in enumerate(current.split("\n")) if line.startswith("  ") and line.endswith(";")]
            if not lines:
                continue
            line = rng.choice(lines)
            for index, char in enumerate(rng.choice(PIECES)):
                document.replace_range(Position(line, index), Position(line, index), char)
                yield Parsed(document.parsed.source, document.tree.copy())
            continue
        yield Parsed(document.parsed.source, document.tree.copy())


def test_the_typing_benchmarks_versions_are_the_same_at_once(monkeypatch) -> None:
    assert _checked_both_ways(typed_versions(), monkeypatch) >= 40


@pytest.mark.parametrize("name", EXAMPLES)
def test_statements_typed_into_the_examples_are_the_same_at_once(name: str, monkeypatch) -> None:
    text = (ROOT / "examples" / name).read_text()
    versions = statements_typed(text, random.Random(name), PIECES, 4, 0.5)
    assert _checked_both_ways(versions, monkeypatch) > 0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_moves_and_typing_in_generated_matrix_kernels_are_the_same_at_once(seed: int, monkeypatch) -> None:
    rng = random.Random(seed)
    text = (matrix_library_kernel if seed % 2 else matrix_heavy_kernel)(random.Random(seed), functions=6)
    text += "\nconst LATER: u32 = 4u;\nstruct Moved { a: f32, b: vec4<f32> }\n"
    assert _checked_both_ways(_moves_and_typing(text, rng, 25), monkeypatch) > 0


def test_moves_and_typing_in_a_module_with_findings_in_its_headers_are_the_same_at_once(monkeypatch) -> None:
    # (`last` resolves LATE first and reads 'enable f16' missing; LATE's initializer is an error; structs)
    text = MODULE + "\n@compute @workgroup_size(8, 8)\nfn other(@builtin(local_invocation_id) l: vec3<u32>) {\n" \
        "  let k = first(l.x);\n}\n"
    carried = 0
    for seed in range(4):
        carried += _checked_both_ways(_moves_and_typing(text, random.Random(seed), 20), monkeypatch)
    assert carried > 0


def test_public_kernels_typed_into_are_the_same_at_once(monkeypatch) -> None:
    files = public_kernel_sample(23, count=12)
    if not files:
        pytest.skip("the public corpora are not here")
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if len(text) > 40_000:
            continue
        _checked_both_ways(statements_typed(text, random.Random(str(path)), PIECES, 2, 0.5), monkeypatch)


def test_a_segment_added_out_of_source_order_goes_where_bisect_puts_it() -> None:
    model = SemanticModel()
    for start in (10, 30, 20, 30, 5, 40):
        model.add_replayed(Replayed(start, start + 3, 0, {}, {}, {}, (None, [], None), {}, 0))
    assert model._starts == [5, 10, 20, 30, 30, 40]
    assert [s.start for s in model.replayed] == model._starts


def _calls_per_version(functions: int, counted: set | None = None) -> dict:
    """Python calls into coop_lsp/semantic/ (by function name) while a typed character's version is checked,
    the one before it having the same syntax error in the same body (as the typing benchmark types)."""
    import coop_lsp.semantic
    from tests.test_edit_cost import Editor
    folder = str(Path(coop_lsp.semantic.__file__).parent)
    text = matrix_library_kernel(random.Random(5), functions=functions)
    loop = text.index("for (", text.index("fn gemm_1("))
    text = f"{text[:loop]}// {text[loop:]}"
    line = text.index("\n", loop) + 1
    editor = Editor(text)
    editor.change(f"{text[:line]}let y = 1\n{text[line:]}")
    calls: dict = {}

    def count(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(folder):
            calls[frame.f_code.co_name] = calls.get(frame.f_code.co_name, 0) + 1

    editor.document.replace(Span(line + len("let y = 1"), line + len("let y = 1")), ".")
    assert editor.document.tree.root_node.has_error
    sys.setprofile(count)
    try:
        editor.analyse()
    finally:
        sys.setprofile(None)
    assert editor.reuse.bodies.carry.carried >= 2 * functions
    return calls


def test_an_unchanged_function_costs_a_typed_character_a_few_calls_and_no_declare_or_step_calls() -> None:
    small, large = _calls_per_version(6), _calls_per_version(24)
    per_function = {name: (large.get(name, 0) - small.get(name, 0)) / 18 for name in large.keys() | small.keys()}
    # Step by step (before): _declare, carried_declaration, two _header_step and BodyReuse.apply per function,
    # about 13 calls in all. At once: the symbol, its header records' fields, the body's replay and the checks.
    for name in ("_declare", "carried_declaration", "_header_step", "apply", "carried_checks_by_step"):
        assert per_function.get(name, 0) == 0, (name, per_function)
    assert sum(per_function.values()) <= 8, per_function


def test_the_nodes_an_error_node_follows_are_the_ones_a_walk_over_siblings_finds() -> None:
    # HeaderReuse._module picks them in C (itertools.compress); a walk over each child and the next found them.
    from coop_lsp.semantic.header_reuse import HeaderReuse
    from coop_lsp.syntax import parse
    rng = random.Random(23)
    base = matrix_heavy_kernel(random.Random(2), functions=4) + MODULE
    broken = 0
    for _ in range(200):
        text = base
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(["}", "{", "// ", "fn (", "@@", ";;", "let", "struct"]) + text[at:]
        parsed = parse(text)
        children = parsed.root.children
        walked = frozenset(node.start_byte for node, after in zip(children, children[1:]) if after.is_error)

        class Checker:  # (what _module reads)
            ctx = type("Ctx", (), {"source": parsed.source, "root": parsed.root,
                                   "model": type("Model", (), {"enables": set()})(), "configured_dialect": None})()
            module_text_nodes: list = []

        headers = HeaderReuse()
        headers.begin()
        headers._module(Checker())
        assert headers._before_errors == walked
        broken += bool(walked)
    assert broken >= 30
