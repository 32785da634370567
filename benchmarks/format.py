"""The formatter: speed on the 10 MB generated kernel, bad input, and the public corpus.

    .venv/bin/python -m benchmarks.format [CORPUS_DIR]

Writes benchmarks/results/format.json. Speed: `format_text` on the same
generated kernel as benchmarks/parse.py (its parse, layout and token check
included), median of three. Bad input: 10 MB of syntax errors, 10 MB of
random bytes, 10 MB of random printable ASCII; each must end in a message
(or no change) within a second per MB. With CORPUS_DIR (the public corpus of
benchmarks/conformance.py, never committed), every file is formatted and the
result checked as the tests check the spec cases: formatted again it does
not change, it parses without errors into the same tokens (parse trees
compared), and Tint's verdict and messages are the same before and after.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from coop_lsp.format import format_text, token_stream
from coop_lsp.syntax import parse

from .common import median_seconds, synthetic_kernel, write_result

LARGE_BYTES = 10_000_000


def speed() -> dict:
    data = synthetic_kernel(target_bytes=LARGE_BYTES).encode()
    result = format_text(data)
    assert result.text is not None, result.refused
    assert format_text(result.text).text == result.text, "the formatter must be idempotent"
    seconds = median_seconds(lambda: format_text(data), repeats=3)
    parse_seconds = median_seconds(lambda: parse(data), repeats=3)
    return {"large_file_bytes": len(data), "format_mb_per_s": round(len(data) / 1e6 / seconds, 2),
            "format_seconds": round(seconds, 2), "parse_alone_mb_per_s": round(len(data) / 1e6 / parse_seconds, 2),
            "formatted_bytes": len(result.text.encode())}


def bad_input() -> dict:
    rng = random.Random(21)
    unit = b"fn f() { let x = ; }\n"
    inputs = {
        "syntax_errors_10mb": unit * (LARGE_BYTES // len(unit)),
        "random_bytes_10mb": rng.randbytes(LARGE_BYTES),
        "random_ascii_10mb": bytes(rng.randrange(32, 127) for _ in range(LARGE_BYTES)),
    }
    out = {}
    for name, data in inputs.items():
        started = time.perf_counter()
        result = format_text(data)
        seconds = time.perf_counter() - started
        out[name] = {"seconds": round(seconds, 2), "seconds_per_mb": round(seconds / (len(data) / 1e6), 3),
                     "outcome": result.refused if result.text is None else "formatted",
                     "within_a_second_per_mb": seconds <= len(data) / 1e6}
    return out


def corpus(folder: Path) -> dict:
    from coop_lsp.devices.tint import TintOracle

    counts: Counter = Counter()
    problems: list[str] = []
    started = time.perf_counter()
    formatted_bytes = 0
    with TintOracle() as tint:
        for path in sorted(folder.rglob("*.wgsl")):
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            counts["files"] += 1
            result = format_text(text)
            if result.text is None:
                counts["refused_syntax_error" if "formatting needs a file that parses" in result.refused
                       else "refused_other"] += 1
                if "formatting needs a file that parses" not in result.refused:
                    problems.append(f"{path.relative_to(folder)}: {result.refused}")
                continue
            formatted_bytes += len(text.encode("utf-8", "surrogateescape"))
            counts["formatted"] += 1
            counts["changed" if result.text != text else "unchanged"] += 1
            if format_text(result.text).text == result.text:
                counts["idempotent"] += 1
            else:
                problems.append(f"{path.relative_to(folder)}: not idempotent")
            before, after = parse(text), parse(result.text)
            if not after.root.has_error and token_stream(before.root, before.source.data) == \
                    token_stream(after.root, after.source.data):
                counts["same_tokens"] += 1
            else:
                problems.append(f"{path.relative_to(folder)}: tokens changed")
            old, new = tint.compile(text), tint.compile(result.text)
            if old.failure or new.failure:
                counts["tint_no_verdict"] += 1
            elif old.accepted == new.accepted and sorted((m.severity, m.message) for m in old.messages) == \
                    sorted((m.severity, m.message) for m in new.messages):
                counts["same_tint_verdict"] += 1
                counts["tint_accepted" if old.accepted else "tint_rejected"] += 1
            else:
                problems.append(f"{path.relative_to(folder)}: Tint's verdict changed")
    figures = dict(counts)
    figures["problems"] = problems
    figures["seconds_formatting_and_checking"] = round(time.perf_counter() - started, 1)
    figures["formatted_source_bytes"] = formatted_bytes
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, help="the public corpus (benchmarks/conformance.py)")
    args = parser.parse_args()
    figures = {"speed": speed(), "bad_input": bad_input()}
    if args.corpus is not None:
        figures["corpus"] = corpus(args.corpus)
        figures["corpus_sources"] = sorted(p.parent.name for p in args.corpus.rglob("SOURCE.json"))
    path = write_result("format", figures,
                        notes="format_mb_per_s includes parsing, layout and the token check; "
                              "the corpus itself is not committed (benchmarks/conformance.py gathers it)")
    print(path.read_text())


if __name__ == "__main__":
    main()
