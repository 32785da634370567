"""Coverage-guided fuzzing of the linter with atheris (libFuzzer for Python), by hand.

    .venv/bin/pip install atheris            # 3.0.0 installs from PyPI on Linux x86-64, Python 3.11
    .venv/bin/python -m benchmarks.fuzz_atheris -runs=200000 -timeout=10 -max_len=8192
    .venv/bin/python -m benchmarks.fuzz_atheris -max_total_time=1800 -jobs=8 -workers=8

Every argument is libFuzzer's (-timeout is the per-input limit: an input
that runs longer is reported as a hang, with its file). The corpus starts
from every seed of tests/fuzz/mutate.py (examples, spec cases, fixtures,
regressions), written to $TMPDIR/coop-lsp-fuzz-corpus/ unless a corpus
directory is given. The first byte of an input picks its use:
  even   the rest of the bytes is the source, linted as bytes (invalid UTF-8 too);
  odd    the rest drives tests/fuzz/grammar.py's generator (structure-aware).
A problem from tests/fuzz/invariants.check_lint that is not a known bug
(tests/fuzz/known.py) raises, and libFuzzer saves the input as crash-*.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

try:
    import atheris
except ImportError:  # pragma: no cover - optional tool
    sys.exit("atheris is not installed: .venv/bin/pip install atheris (Linux x86-64 or arm64 wheels)")

with atheris.instrument_imports(include=["coop_lsp"]):
    from tests.fuzz.grammar import ProviderChooser, WgslGenerator
    from tests.fuzz.invariants import check_lint
    from tests.fuzz.known import unknown_problems
    from tests.fuzz.mutate import seeds


class InvariantBroken(Exception):
    pass


def one_input(data: bytes) -> None:
    if not data:
        return
    if data[0] % 2 == 0:
        text: str | bytes = data[1:]
        try:
            text = data[1:].decode("utf-8")
        except UnicodeDecodeError:
            pass
    else:
        provider = atheris.FuzzedDataProvider(data[1:])
        text = WgslGenerator(ProviderChooser(provider), budget=300, slips=provider.ConsumeIntInRange(0, 30)).module()
    problems = unknown_problems(check_lint(text))
    if problems:
        raise InvariantBroken("\n".join(problems)[:4000])


def main() -> None:
    argv = list(sys.argv)
    if not any(not a.startswith("-") for a in argv[1:]):
        corpus = Path(tempfile.gettempdir()) / "coop-lsp-fuzz-corpus"
        corpus.mkdir(parents=True, exist_ok=True)
        for index, seed in enumerate(seeds()):
            path = corpus / f"seed_{index:04d}"
            if not path.exists():
                path.write_bytes(b"\x00" + seed.text.encode("utf-8"))
        argv.append(str(corpus))
    atheris.Setup(argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
