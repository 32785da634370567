"""Parse throughput on a large generated kernel, and incremental re-parse latency.

    .venv/bin/python -m benchmarks.parse

Writes benchmarks/results/parse.json.
"""

from __future__ import annotations

import random
import statistics
import time

from coop_lsp.core.text import Span
from coop_lsp.lint import lint_source
from coop_lsp.syntax import Document, parse, syntax_diagnostics
from coop_lsp.syntax.parser import wgsl_language

import tree_sitter as ts

from .common import median_seconds, synthetic_kernel, write_result

LARGE_BYTES = 10_000_000
EDIT_FILE_LINES = 5_000
EDITS = 200


def main() -> None:
    large = synthetic_kernel(target_bytes=LARGE_BYTES)
    data = large.encode()
    megabytes = len(data) / 1e6
    assert not parse(data).root.has_error, "the generated kernel must be valid"

    parser = ts.Parser(wgsl_language())
    raw_parse = median_seconds(lambda: parser.parse(data), repeats=5)
    full_syntax = median_seconds(lambda: syntax_diagnostics(parse(data)), repeats=3)
    full_lint = median_seconds(lambda: lint_source(data), repeats=1)

    medium = synthetic_kernel(lines=EDIT_FILE_LINES)
    document = Document(medium)
    rng = random.Random(5)
    edit_times = []
    digits = [i for i, byte in enumerate(document.source.data) if chr(byte).isdigit()]
    for _ in range(EDITS):
        offset = rng.choice(digits)
        start = time.perf_counter()
        document.replace(Span(offset, offset + 1), str(rng.randrange(1, 10)))
        edit_times.append(time.perf_counter() - start)

    figures = {
        "large_file_bytes": len(data),
        "large_file_lines": large.count("\n"),
        "parse_mb_per_s": round(megabytes / raw_parse, 2),
        "parse_plus_syntax_diagnostics_mb_per_s": round(megabytes / full_syntax, 2),
        "full_lint_mb_per_s": round(megabytes / full_lint, 2),
        "edit_file_lines": medium.count("\n"),
        "one_char_edit_document_update_ms_median": round(statistics.median(edit_times) * 1e3, 3),
        "one_char_edit_document_update_ms_p95": round(sorted(edit_times)[int(0.95 * EDITS)] * 1e3, 3),
    }
    path = write_result(
        "parse", figures,
        notes="parse = tree-sitter through py-tree-sitter 0.26.1; document update = "
              "text splice + line index + incremental re-parse (coop_lsp.syntax.Document.replace).",
    )
    for key, value in figures.items():
        print(f"{key:48} {value}")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
