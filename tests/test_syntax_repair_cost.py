"""Explaining a syntax error costs a bounded number of re-parses, whatever the file's size."""

from __future__ import annotations

from benchmarks.common import synthetic_kernel
from coop_lsp.syntax import diagnostics as syntax, parse


def _typing_an_unclosed_call(lines: int) -> str:
    text = synthetic_kernel(lines=lines).split("\n")
    at = next(i for i in range(len(text) // 2, len(text)) if text[i].startswith("  var acc"))
    text.insert(at + 1, "  let y = fma(acc, 2.0")
    return "\n".join(text)


def test_no_whole_file_repairs_when_the_parser_could_use_nothing(monkeypatch):
    parsed = parse(_typing_an_unclosed_call(1000))
    assert parsed.root.is_error  # tree-sitter gave up on this one: the whole tree is one ERROR
    parses = []
    original = syntax._parser

    class Counting:
        def parse(self, data, *args):
            parses.append(len(data))
            return original().parse(data, *args)

    monkeypatch.setattr(syntax, "_parser", Counting)
    found = syntax.syntax_diagnostics(parsed)
    assert found and not parses  # before: 21 re-parses of the whole 34 KB file, 250 ms per keystroke
