"""Instructions per unit of work under callgrind, for one or more checkouts: a figure that the machine's load
does not move.

    python -m benchmarks.instructions [--checkout PATH[=PYTHON]]... [--workload cold|typing|typing_large|...]...

On a shared machine the CPU time of the same code moves by 1.5x to 2x between runs, so a change worth 5% or
10% cannot be seen in timings; the number of instructions the interpreter executes can (valgrind's
callgrind counts them; hash randomisation is off so that dictionaries iterate alike). Each workload runs in
the checkout's own interpreter twice, doing its work once and not at all, and the figure is the difference
divided by the units of work: imports, set-up and the generator's text cost the same in both and cancel.
The workloads' definitions (generators, typed text, edits) are this harness's for every checkout; only
coop_lsp is the checkout's. A typing or counter run spends minutes on its set-up under callgrind.

- cold: lint 3 matrix-heavy files of 8 kernels (benchmarks/matrix_kernels.py, fixed seeds) with nothing
  kept: the unit is one file.
- typing: benchmarks/typing_cost.py's sequence (a statement typed one character at a time below a
  commented-out loop header in the 1,061-line matrix document, each version linted as the server does,
  provisional): the unit is one typed character.
- typing_large: the same edit at the same kind of lines in a 3,988-line document of 82 kernels
  (typing_cost._workload(LARGE_KERNELS)), so that one run shows the cost per typed character against the
  file's size.
- counter: benchmarks/replay_cost.py's counter edit on the 1,061-line document (a literal counts up, every
  other version has a syntax error): the unit is one version.
- clean, clean100: the counter's literal counted up without the syntax errors, so that every version is
  clean and new text (an edit inside one body, as semantic/carry.py carries), on the 1,062-line and the
  4,904-line documents; three such versions are part of the set-up: the unit is one of the ten after them.
- comment_header: the first keystrokes of benchmarks/comment_edits.py's comment over the middle loop header of
  the 1,061-line document, which change code: `/` at the header's start, then `//` (the rest of the function
  falls to module scope), then both taken out again, so that the versions alternate between the errored
  and the clean text. The repair cache is emptied before each round, as in a fresh server, which sees these
  bytes for the first time (a warm cache would hide the repair searches); one round is part of the set-up:
  the unit is one of the nine versions of the three rounds after it.
- moves: a blank line inserted at the top of the 1,062-line document of `clean`, then removed, and so on: every
  function moves and no text of one changes (Enter pressed above the kernels); four such versions are part
  of the set-up: the unit is one of the ten after them.
- declares: the same with a line `const moved_down = 1u;` inserted and removed after the document's enables (a
  new declaration that no function names): every function after it moves.
- later_helpers: examples/chromium/gemm_tiled_4x4.wgsl (200 lines), whose entry point comes first and calls helpers
  declared after it (so its body resolves their signatures, semantic/first_uses.py), edited inside its last
  function, `stage`: the literal of its first loop's start counted up as in `clean`, every version clean and new
  text; three such versions are part of the set-up: the unit is one of the ten after them.

Instruction counts are not time: a cache miss costs more than an add. They tell whether a change did less
work, and by how much; the timing benchmarks tell what a user gets.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import write_result

# Run in each checkout: does the workload's set-up, then its work `repeat` times (0 or 1).
_WORKLOAD = r"""
import sys
sys.setrecursionlimit(100000)
name, repeat, harness = sys.argv[1], int(sys.argv[2]), sys.argv[3]
import coop_lsp  # the checkout's (the working directory): its submodules follow its path from here on
sys.path.insert(0, harness)  # the workloads' definitions are this harness's, the same for every checkout
if name == "cold":
    import random
    from benchmarks.common import matrix_heavy_kernel
    from coop_lsp.lint.config import Settings
    from coop_lsp.lint.files import PLAIN, lint_file
    datas = [matrix_heavy_kernel(random.Random(100 + i), functions=8).encode() for i in range(3)]
    settings = Settings()
    lint_file(b"@compute @workgroup_size(1) fn main() {}\n", settings, None, kind=PLAIN)
    for _ in range(repeat):
        for data in datas:
            lint_file(data, settings, None, kind=PLAIN)
else:
    from coop_lsp.core.text import Position, Span
    from coop_lsp.ide import Analysis
    from coop_lsp.lint import Reuse
    from coop_lsp.server.idle_gc import defer_full_collections
    from coop_lsp.syntax import Document
    from coop_lsp.syntax.parser import Parsed
    defer_full_collections()  # as the server's process does
    if name.startswith("typing") or name == "comment_header":
        from benchmarks.typing_cost import COMMENT, LARGE_KERNELS, STATEMENT, _workload
        text, middle, code_line = _workload(LARGE_KERNELS) if name == "typing_large" else _workload()
    elif name == "later_helpers":
        from pathlib import Path
        text = (Path(harness) / "examples" / "chromium" / "gemm_tiled_4x4.wgsl").read_text()
    else:
        from benchmarks.replay_cost import _document, _edits
        text = _document(100 if name == "clean100" else 21)
    document, reuse = Document(text), Reuse()
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, fresh=True)
    if name.startswith("typing"):
        # As typing_cost: each version's incremental tree as it is (the server's provisional analysis).
        def version():
            Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, provisional=True)
        for index, char in enumerate(COMMENT):
            document.replace_range(Position(middle, index), Position(middle, index), char)
            version()
        for _ in range(repeat):
            for index, char in enumerate(STATEMENT):
                document.replace_range(Position(code_line, index), Position(code_line, index), char)
                version()
    elif name == "comment_header":
        from coop_lsp.syntax import diagnostics
        def version():  # as the server checks a version with errors: provisional
            Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, provisional=True)
        def round_():
            diagnostics._tried.clear()
            diagnostics._tried_bytes = 0
            for index in range(2):
                document.replace_range(Position(middle, index), Position(middle, index), "/")
                version()
            document.replace_range(Position(middle, 0), Position(middle, 2), "")
            version()
        round_()
        for _ in range(repeat):
            for _ in range(3):  # (three rounds of three versions: the unit count below)
                round_()
    elif name.startswith("clean") or name == "later_helpers":
        # A literal counted up inside one body: in the last function (later_helpers), or at the toggle site.
        if name == "later_helpers":
            literal = "0u"
            offset = len(text[:text.index(literal, text.rindex("\nfn "))].encode())
        else:
            from benchmarks.server_matrix import _toggle_site
            literal = "16u"
            line, column = _toggle_site(text)
            site_line = text.split("\n")[line]
            offset = len("".join(part + "\n" for part in text.split("\n")[:line]).encode()) \
                + len(site_line[:site_line.index(literal, column)].encode())
        current = [literal]
        def version(number):
            document.replace(Span(offset, offset + len(current[0])), f"{number}u")
            current[0] = f"{number}u"
            Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
        for number in range(17, 20):
            version(number)
        for _ in range(repeat):
            for number in range(20, 30):  # (ten: the unit count below)
                version(number)
    elif name in ("moves", "declares"):
        line = "\n" if name == "moves" else "const moved_down = 1u;\n"
        at = 0 if name == "moves" else text.index("struct Params")
        def version(number):
            document.replace(Span(at, at) if number % 2 == 0 else Span(at, at + len(line)),
                             line if number % 2 == 0 else "")
            Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
        for number in range(4):
            version(number)
        for _ in range(repeat):
            for number in range(10):  # (ten: the unit count below)
                version(number)
    else:
        # As replay_cost: an errored version is parsed afresh before its check.
        for _ in range(repeat):
            for begin, end, replacement in _edits(text, "counter", VERSIONS):
                document.replace(Span(begin, end), replacement)
                Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
"""

VERSIONS = 20
CLEAN_VERSIONS = 10  # the clean workloads' versions of work (written in _WORKLOAD's text)
HARNESS = Path(__file__).resolve().parent.parent
UNITS = {"cold": 3, "typing": None, "typing_large": None,  # typing: the statement's length, read below
         "counter": VERSIONS, "comment_header": 9,
         "clean": CLEAN_VERSIONS, "clean100": CLEAN_VERSIONS, "moves": CLEAN_VERSIONS,
         "declares": CLEAN_VERSIONS, "later_helpers": CLEAN_VERSIONS}
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _units(workload: str) -> int:
    if workload.startswith("typing"):
        from .typing_cost import STATEMENT
        return len(STATEMENT)
    return UNITS[workload]


def _checkout(text: str) -> tuple[Path, str]:
    path, _, python = text.partition("=")
    root = Path(path).resolve()
    return root, python or str(root / ".venv" / "bin" / "python")


def count(root: Path, python: str, workload: str, repeat: int) -> int:
    """Instructions callgrind collected over one run of the workload in `root`'s interpreter."""
    script = _WORKLOAD.replace("VERSIONS", str(VERSIONS))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        completed = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c", script, workload,
             str(repeat), str(HARNESS)],
            cwd=root, capture_output=True, text=True,
            env=dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1"))
    found = _COLLECTED.findall(completed.stderr)
    if completed.returncode != 0 or not found:
        tail = (completed.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{root} {workload}: {tail}")
    return int(found[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", default=[],
                        help="PATH[=PYTHON]: a checkout with its own .venv, or the Python to run it with "
                             "(default: this one)")
    parser.add_argument("--workload", action="append", choices=sorted(UNITS), default=[])
    parser.add_argument("--result", default="instructions")
    parser.add_argument("--notes", default="")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("benchmarks.instructions: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    checkouts = [_checkout(text) for text in args.checkout] or [_checkout(str(HARNESS))]
    workloads = args.workload or sorted(UNITS)
    figures: dict = {"unit": {"cold": "file", "typing": "typed character", "typing_large": "typed character",
                              "counter": "version", "comment_header": "version",
                              "clean": "version", "clean100": "version", "moves": "version",
                              "declares": "version", "later_helpers": "version"},
                     "workloads": workloads, "checkouts": {}}
    for root, python in checkouts:
        per = {}
        for workload in workloads:
            done, setup = count(root, python, workload, 1), count(root, python, workload, 0)
            per[workload] = {"instructions_per_unit_M": round((done - setup) / _units(workload) / 1e6, 2),
                             "with_work": done, "set_up_only": setup}
            print(f"{root} {workload}: {per[workload]['instructions_per_unit_M']} M per unit", flush=True)
        figures["checkouts"][str(root)] = per
    if len(checkouts) > 1:
        first = str(checkouts[0][0])
        figures["ratio_to_first"] = {
            str(root): {w: round(figures["checkouts"][str(root)][w]["instructions_per_unit_M"]
                                 / figures["checkouts"][first][w]["instructions_per_unit_M"], 3)
                        for w in workloads}
            for root, _ in checkouts[1:]}
    path = write_result(args.result, figures, args.notes)
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
