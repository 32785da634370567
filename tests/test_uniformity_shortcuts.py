"""Shortcuts of the uniformity walk (issue 37) give what the walk gave without them.

Each shortcut is compared with its slow path on generated matrix kernels, the public kernels and those
kernels with junk inserted, at both levels; a second test counts the work it saves.
"""

import random

import pytest

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.analysis.uniformity import analyzer
from coop_lsp.analysis.uniformity.levels import SUBGROUP, TINT
from coop_lsp.semantic.checker import check
from coop_lsp.syntax import parse
from tests.support.trees import public_kernel_sample, with_junk

_JUNK = ["&&", "||", " a && b ", "(x || y)", "// && ||\n", "{", "}", ";", "for (;;) {", "loop {", "break;",
         "return;", "if x {", "let z = 1u;", "var<private> q: u32;", "workgroupBarrier();", "&", "|"]


def _inputs() -> list[str]:
    texts = [matrix_heavy_kernel(random.Random(seed), functions=3) for seed in range(4)]
    texts += [path.read_text(encoding="utf-8", errors="replace") for path in public_kernel_sample(18, count=30)]
    rng = random.Random(18)
    texts += [junked for text in texts[:12] for junked in with_junk(rng, text, 2, _JUNK)]
    return texts


def _analyse(text: str, level: str):
    parsed = parse(text)
    _, model = check(parsed, None, "auto")
    analysis = analyzer.UniformityAnalysis(parsed.root, parsed.source.data, model, level, "chromium")
    failures = analysis.run()
    return failures, analysis.summaries



def _assert_same_after_switching(texts: list[str], to_the_slow_path) -> None:
    """Each text analysed at both levels as it is, then again after `to_the_slow_path()`: the same failures."""
    fast = [(_analyse(text, TINT), _analyse(text, SUBGROUP)) for text in texts]
    to_the_slow_path()
    slow = [(_analyse(text, TINT), _analyse(text, SUBGROUP)) for text in texts]
    for text, one, other in zip(texts, fast, slow):
        assert one == other, text[:200]

@pytest.fixture
def every_operator_asked(monkeypatch):
    """The slow path: every binary operation asks whether its operator is `&&` or `||`."""
    initializer = analyzer._FunctionAnalysis.__init__

    def slow(self, *args, **kwargs):
        initializer(self, *args, **kwargs)
        self.logical = True

    def use():
        monkeypatch.setattr(analyzer._FunctionAnalysis, "__init__", slow)

    return use


def _functions_without_logical_operators(text: str) -> int:
    """How many functions spell no `&&` or `||` in a module that does: the shortcut per function."""
    data = text.encode()
    if b"&&" not in data and b"||" not in data:
        return 0
    parsed = parse(text)
    return sum(b"&&" not in data[n.start_byte:n.end_byte] and b"||" not in data[n.start_byte:n.end_byte]
               for n in parsed.root.named_children if n.type == "function_declaration")


def test_a_function_without_logical_operators_is_analysed_as_with_each_operator_asked(every_operator_asked):
    texts = _inputs()
    texts += [text.replace("if (subgroups != ", "if (true && subgroups != ", 1) for text in texts[:4]]
    assert sum(b"&&" not in t.encode() and b"||" not in t.encode() for t in texts) >= 10  # the shortcut is taken
    assert sum(_functions_without_logical_operators(t) for t in texts) >= 10  # where other functions spell one
    _assert_same_after_switching(texts, every_operator_asked)


def test_binary_operations_ask_for_their_operator_only_where_a_logical_operator_is_spelled(monkeypatch):
    asked = []
    original = analyzer._FunctionAnalysis._logical_operator

    def counted(self, node):
        asked.append(node)
        return original(self, node)

    monkeypatch.setattr(analyzer._FunctionAnalysis, "_logical_operator", counted)
    kernel = matrix_heavy_kernel(random.Random(7), functions=4)
    assert "&&" not in kernel and "||" not in kernel
    failures, _ = _analyse(kernel, TINT)
    assert failures == [] and asked == []  # hundreds of binary operations, none a branch
    branching = kernel.replace("if (subgroups != ", "if (true && subgroups != ", 1)
    failures, _ = _analyse(branching, TINT)
    assert asked  # spelled once: every operation asks again


class _WholeFileExitIndex(analyzer._ExitIndex):
    """The slow path: the words of the whole source indexed, for every function."""

    def __init__(self, data: bytes, start: int, end: int) -> None:
        super().__init__(data, 0, len(data))


def test_the_exit_index_of_a_function_answers_as_the_whole_sources(monkeypatch):
    texts = _inputs()
    # Ways out spelled in other functions, in comments and at a function's very end.
    texts += [text.replace("fn ", "// return break continue\nfn ", 2) for text in texts[:4]]
    texts.append("fn f() -> u32 { loop { if true { break; } } return 1u; }\n"
                 "@compute @workgroup_size(1) fn main() { for (var i = 0u; i < 2u; i++) { continue; } _ = f(); "
                 "workgroupBarrier(); }\nfn g() {}")
    _assert_same_after_switching(texts, lambda: monkeypatch.setattr(analyzer, "_ExitIndex", _WholeFileExitIndex))


def test_an_analysis_indexes_the_ways_out_of_its_own_function_only(monkeypatch):
    # A version analyses the edited function again; the index of where 'return', 'break' and 'continue'
    # are spelled covered the whole document (about a million instructions at 4,904 lines).
    from coop_lsp.lint import Reuse, lint_source

    indexed = []
    initializer = analyzer._ExitIndex.__init__

    def counted(self, data, *bounds):
        indexed.append(bounds[1] - bounds[0] if bounds else len(data))
        initializer(self, data, *bounds)

    text = matrix_heavy_kernel(random.Random(4), functions=6)
    reuse = Reuse()
    lint_source(text, reuse=reuse)
    monkeypatch.setattr(analyzer._ExitIndex, "__init__", counted)
    changed = text.replace("k0 += 16u", "k0 += 32u", 1)
    found = lint_source(changed, reuse=reuse).diagnostics
    assert reuse.summaries.analysed == 1
    assert indexed and sum(indexed) < len(changed) / 4, (indexed, len(changed))
    assert found == lint_source(changed).diagnostics


@pytest.fixture
def every_name_through_symbol_at(monkeypatch):
    """The slow path: every name's symbol found by SemanticModel.symbol_at (the checker's table, then the
    replayed bodies')."""
    initializer = analyzer._FunctionAnalysis.__init__

    def slow(self, *args, **kwargs):
        initializer(self, *args, **kwargs)
        self._written_references = {}

    def use():
        monkeypatch.setattr(analyzer._FunctionAnalysis, "__init__", slow)

    return use


def test_names_read_from_the_checkers_table_are_analysed_as_through_symbol_at(every_name_through_symbol_at):
    _assert_same_after_switching(_inputs(), every_name_through_symbol_at)


def test_names_the_checker_wrote_are_not_looked_up_through_symbol_at(monkeypatch):
    from coop_lsp.semantic.model import SemanticModel

    kernel = matrix_heavy_kernel(random.Random(9), functions=4)
    parsed = parse(kernel)
    _, model = check(parsed, None, "auto")
    asked = []
    original = SemanticModel.symbol_at

    def counted(self, start, end):
        asked.append((start, end))
        return original(self, start, end)

    monkeypatch.setattr(SemanticModel, "symbol_at", counted)
    analysis = analyzer.UniformityAnalysis(parsed.root, parsed.source.data, model, TINT, "chromium")
    assert analysis.run() == []
    names = kernel.count("let ") + kernel.count("var ") + kernel.count("fn ")
    # Left: the functions' names, the variables' declarations (is it a matrix?), the stores' targets; before,
    # every name read (over a thousand here) asked too.
    stores = kernel.count(" = ") + kernel.count("+=") + kernel.count("++")
    assert len(asked) <= names + stores, len(asked)


def _module_scope_matrix(parsed, model) -> bool:
    """quiet_functions's first question asked the slow way: each symbol's type, then where it stands."""
    from coop_lsp.semantic import types as t

    functions = [(n.start_byte, n.end_byte) for n in parsed.root.named_children if n.type == "function_declaration"]
    return any(symbol.kind in ("var", "const", "override", "let")
               and t.contains(symbol.type, lambda x: isinstance(x, t.CoopMatrix))
               and not any(start <= symbol.span.start < end for start, end in functions)
               for symbol in model.written_symbols)


def test_quiet_functions_ask_where_a_symbol_stands_before_its_type_and_answer_alike():
    from coop_lsp.analysis.uniformity.quiet import quiet_functions

    texts = _inputs() + ["enable chromium_experimental_subgroup_matrix;\nenable f16;\n"
                         "var<private> m: subgroup_matrix_left<f16, 8, 8>;\n"
                         "fn f() -> u32 { return 1u; }\n@compute @workgroup_size(1) fn main() { _ = f(); }\n"]
    found = 0
    for text in texts:
        parsed = parse(text)
        _, model = check(parsed, None, "auto")
        quiet = quiet_functions(parsed.root, parsed.source.data, model)
        if _module_scope_matrix(parsed, model):
            found += 1
            assert quiet == set()
        else:
            functions = [n for n in parsed.root.named_children if n.type == "function_declaration"]
            assert quiet <= {n.start_byte for n in functions}
    assert found >= 1
    # Without a module-scope matrix the same functions come out as with the slow question answered alike.
    text = texts[-1].replace("var<private> m: subgroup_matrix_left<f16, 8, 8>;\n", "")
    parsed = parse(text)
    _, model = check(parsed, None, "auto")
    assert len(quiet_functions(parsed.root, parsed.source.data, model)) == 1  # f


def test_quiet_functions_walk_no_local_types(monkeypatch):
    from coop_lsp.analysis.uniformity import quiet
    from coop_lsp.semantic import types as t

    parsed = parse(matrix_heavy_kernel(random.Random(12), functions=4))
    _, model = check(parsed, None, "auto")
    walked = []
    original = t.contains

    def counted(value_type, predicate):
        walked.append(value_type)
        return original(value_type, predicate)

    monkeypatch.setattr(t, "contains", counted)
    locals_ = sum(symbol.kind in ("var", "let", "const") for symbol in model.written_symbols)
    quiet.quiet_functions(parsed.root, parsed.source.data, model)
    assert locals_ > 50
    functions = [(n.start_byte, n.end_byte) for n in parsed.root.named_children if n.type == "function_declaration"]
    module_scope = [symbol for symbol in model.written_symbols if symbol.kind in ("var", "let", "const", "override")
                    and not any(start <= symbol.span.start < end for start, end in functions)]
    # Only the module's own declarations (the buffers, the staging arrays; each type's walk is a call per
    # level: array, element): a local cannot reach every function by its name, so its type is not the question.
    assert len(walked) <= 3 * len(module_scope) < locals_, (len(walked), len(module_scope))
