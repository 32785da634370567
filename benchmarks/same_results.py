"""Whether two checkouts give the same diagnostics, on the paths speed work changes: a check for the issue's rule
that speed work leaves every result as it was.

    python -m benchmarks.same_results --against PATH[=PYTHON] [--corpus DIR] [--mutants N] [--seed S]
        [--moves M] [--result NAME]

The cases are one-edit mutants of the differential campaign's bases (public WGSL under --corpus, examples/,
every tests/spec case) (benchmarks/mutations.py; every base, whether a compiler accepts it or not), and edits that
only move functions (lines added or removed above one, a statement added to the function before it: a quarter as
many by default, mostly above functions that call subgroup, matrix or barrier builtins), which make the edited and
typed paths carry and move the later functions' findings. Each checkout, in a process of its own interpreter with its own coop_lsp, reports for each case:

- fresh: lint_source on the mutant, fixes included (coop-lint's and a first open's path);
- edited: the base checked as the server checks a document it opens, then the edit that makes the mutant
  applied to the same document (an incremental re-parse), checked provisionally (the server's answer while
  the user types) and then finally, fixes tested (the answer once they stop);
- typed: where the edit inserts at most 24 characters, the same document typed one character at a time, each
  version checked provisionally, as a keystroke is.

- editor: the editor features of the edited path's two analyses (provisional and final) and of the last typed
  version: completion, signature help, hover, definition, references and highlights at the edit and at a dozen
  identifiers chosen by the case (their start, middle and end), code actions over the edit, and the whole
  document's semantic tokens, inlay hints, folding ranges and symbols. Each answer is compared by a digest of its
  whole repr; a feature a checkout does not have is left out of the comparison.

Within each checkout, the edited path's final check is also compared with the fresh lint of the same text
(`incremental here` / `incremental there`): that finds a fault of the incremental path that both checkouts
share. Every diagnostic is compared whole (code, message, range, severity, related places, fixes). The workloads
(cases and edits) are this harness's; only coop_lsp is each checkout's. Differences are listed with the case's
base, its edit and the first diagnostic that differs; any difference fails the run (exit status 1).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import differential, mutations
from .common import write_result

ROOT = Path(__file__).resolve().parent.parent
TYPED_LIMIT = 24

# Run in each checkout (its working directory): reads the cases as JSON lines, writes one line of results each.
_DRIVER = r"""
import json, sys, traceback
sys.setrecursionlimit(100000)
cases_path, out_path, typed_limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
import coop_lsp  # the checkout's (the working directory)
from coop_lsp.core.text import Span
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed

def shown(diagnostics):
    return [repr(d) for d in diagnostics]

def fresh(text):
    result = lint_source(text)
    with_fixes = getattr(result, "with_fixes", None)
    return shown(with_fixes() if with_fixes is not None else result.diagnostics)

import inspect
_ASKS = inspect.signature(Analysis.of_parsed).parameters  # (older checkouts take no `fresh`)

def analysed(document, reuse, **how):
    how = {name: value for name, value in how.items() if name in _ASKS}
    return Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, **how)

def diagnostics_of(analysis):
    # With every fix: a provisional analysis may publish a missing token's finding before testing its fix
    # (tested when a code action asks), where older checkouts tested it at once.
    with_fixes = getattr(analysis, "diagnostics_with_fixes", None)
    return shown(with_fixes() if callable(with_fixes) else analysis.diagnostics)

def check(document, reuse, **how):
    return diagnostics_of(analysed(document, reuse, **how))

import hashlib, importlib, random, re

def _feature(module, name):
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None

_AT_OFFSET = [(name, _feature(module, name)) for module, name in (
    ("coop_lsp.ide.completion", "completion"), ("coop_lsp.ide.completion", "signature_help"),
    ("coop_lsp.ide.hover", "hover"), ("coop_lsp.ide.navigation", "definition"),
    ("coop_lsp.ide.navigation", "references"), ("coop_lsp.ide.navigation", "highlights"))]
_WHOLE = [(name, _feature(module, name)) for module, name in (
    ("coop_lsp.ide.presentation", "semantic_tokens"), ("coop_lsp.ide.presentation", "inlay_hints"),
    ("coop_lsp.ide.presentation", "folding_ranges"), ("coop_lsp.ide.navigation", "document_symbols"))]
_ACTIONS = _feature("coop_lsp.ide.actions", "code_actions")

def _digest(ask):
    try:
        answer = repr(ask())
    except BaseException as error:  # a crash is an answer too
        answer = "crash: " + "".join(traceback.format_exception_only(type(error), error)).strip()
    return hashlib.sha1(answer.encode("utf-8", "surrogatepass")).hexdigest()[:20]

def offsets_for(data, start, end):
    # The edit's ends, and the start, middle and end of up to 12 identifiers the case picks.
    words = [m.span() for m in re.finditer(rb"[A-Za-z_][A-Za-z0-9_]*", data)]
    picked = random.Random(f"{start}:{end}:{len(data)}").sample(words, min(12, len(words)))
    found = {start, end}
    for a, b in picked:
        found.update((a, (a + b) // 2, b))
    return sorted(offset for offset in found if 0 <= offset <= len(data))

def editor(analysis, offsets, span):
    answers = {}
    for name, ask in _AT_OFFSET:
        if ask is not None:
            answers[name] = [_digest(lambda o=o: ask(analysis, o)) for o in offsets]
    for name, ask in _WHOLE:
        if ask is not None:
            answers[name] = _digest(lambda: ask(analysis))
    if _ACTIONS is not None:
        answers["code_actions"] = _digest(lambda: _ACTIONS(analysis, span))
    return answers

def edited(base, start, end, new):
    document, reuse = Document(base), Reuse()
    check(document, reuse, fresh=True)
    document.replace(Span(start, end), new)
    provisional = analysed(document, reuse, provisional=True)
    provisional_diagnostics = diagnostics_of(provisional)
    final = analysed(document, reuse)
    final_diagnostics = diagnostics_of(final)
    data = document.source.data
    span = Span(start, start + len(new.encode("utf-8", "surrogatepass")))
    offsets = offsets_for(data, span.start, span.end)
    answers = {"provisional": editor(provisional, offsets, span), "final": editor(final, offsets, span)}
    return (provisional_diagnostics, final_diagnostics), answers

def typed(base, start, end, new):
    document, reuse = Document(base), Reuse()
    check(document, reuse, fresh=True)
    versions = []
    analysis = None
    if end > start:
        document.replace(Span(start, end), "")
        analysis = analysed(document, reuse, provisional=True)
        versions.append(diagnostics_of(analysis))
    at = start
    for char in new:
        document.replace(Span(at, at), char)
        at += len(char.encode("utf-8"))
        analysis = analysed(document, reuse, provisional=True)
        versions.append(diagnostics_of(analysis))
    last = None
    if analysis is not None:
        span = Span(start, at)
        last = editor(analysis, offsets_for(document.source.data, start, at), span)
    return versions, last

with open(cases_path) as cases, open(out_path, "w") as out:
    for line in cases:
        case = json.loads(line)
        base, text = case["base"], case["text"]
        start, end, new = case["start"], case["end"], case["new"]
        result = {"editor": {}}
        for name, run in (("fresh", lambda: fresh(text)), ("edited", lambda: edited(base, start, end, new)),
                          ("typed", lambda: typed(base, start, end, new) if len(new) <= typed_limit else None)):
            try:
                found = run()
                if name != "fresh" and found is not None:
                    found, answers = found
                    if answers is not None:
                        for version, features in (answers.items() if name == "edited" else [("last typed", answers)]):
                            result["editor"][version] = features
                result[name] = found
            except BaseException as error:  # a crash is a result too: the same crash in both is the same
                result[name] = "crash: " + "".join(traceback.format_exception_only(type(error), error)).strip()
        out.write(json.dumps(result) + "\n")
"""


def _edit(base: str, text: str) -> tuple[int, int, str]:
    """The one replacement that turns `base` into `text`: its byte range in `base` and the new text."""
    old, new = base.encode("utf-8", errors="surrogatepass"), text.encode("utf-8", errors="surrogatepass")
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    while 0 < prefix < len(old) and (old[prefix] & 0xC0) == 0x80:  # (not inside a character)
        prefix -= 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    while suffix and (old[len(old) - suffix] & 0xC0) == 0x80:
        suffix -= 1
    return prefix, len(old) - suffix, new[prefix:len(new) - suffix].decode("utf-8", errors="surrogatepass")


def cases(corpus: Path | None, count: int, seed: int, moves: int | None = None) -> list[dict]:
    """`count` mutants of the bases (fewer where no mutation applies), then `moves` (a quarter of `count` unless
    given) edits that only move functions; the same for a seed on any machine."""
    bases = differential.load_bases(corpus)
    by_name = dict(bases)
    differential._STATE.update(bases=bases, applicable={})
    made = []
    kinds = sorted(mutations.KINDS)
    for index in range(count):
        mutant = differential.make_mutant(seed, index, kinds)
        if mutant is None:
            continue
        kind, name, text, description = mutant
        made.append(case(f"{name} [{kind}: {description}]", by_name[name], text))
    made += move_cases(bases, count // 4 if moves is None else moves, seed)
    return made


# Where a function's declaration starts: its attributes' first line, or its `fn` line.
_FUNCTION_START = re.compile(r"^(?:@[^\n;{]*\n)*fn\s", re.MULTILINE)
# Functions whose findings hang on where their lanes diverge, the ones a moved replay got wrong before.
_LANE_WORDS = re.compile(r"\bsubgroup\w*\s*\(|\bsubgroupMatrix\w*|\bcoop\w+\s*[(<]|Barrier\s*\(")
_INSERTED_LINES = ("\n", "// moved by an edit above\n", "\n\n", "const moved_down = 1u;\n")
_REMOVABLE_LINE = re.compile(r"^(?:[ \t]*|[ \t]*//[^\n]*)\n", re.MULTILINE)


def move_cases(bases: list[tuple[str, str]], count: int, seed: int) -> list[dict]:
    """Edits that change nothing but where later functions are: lines added or removed above a function, or
    a line added to the body of a function before it. Every finding of the later functions is then carried
    from the version before and moved, which one-edit semantic mutants rarely ask for; two bases in three
    are ones whose functions call subgroup, matrix or barrier builtins."""
    with_functions = [(name, text) for name, text in bases if _FUNCTION_START.search(text)]
    lane_bases = [(name, text) for name, text in with_functions if _LANE_WORDS.search(text)]
    made = []
    for index in range(count):
        rng = random.Random(f"{seed}:move:{index}")
        pool = lane_bases if lane_bases and rng.random() < 2 / 3 else with_functions
        if not pool:
            break
        for _ in range(8):
            name, text = rng.choice(pool)
            moved = _moved(text, rng)
            if moved is not None and moved[0] != text:
                made.append(case(f"{name} [moved: {moved[1]}]", text, moved[0]))
                break
    return made


def _function_end(text: str, start: int) -> int:
    end = text.find("\n}", start)
    return len(text) if end < 0 else end + 2


def _moved(text: str, rng: random.Random) -> tuple[str, str] | None:
    starts = [m.start() for m in _FUNCTION_START.finditer(text)]
    lane_starts = [s for s in starts if _LANE_WORDS.search(text, s, _function_end(text, s))]
    target = rng.choice(lane_starts or starts)
    how = rng.randrange(3)
    if how == 0:
        line = rng.choice(_INSERTED_LINES)
        return text[:target] + line + text[target:], f"{line!r} inserted before the function at {target}"
    if how == 1:
        body = text.rfind("{\n", 0, target)
        if body < 0:
            return None
        at = body + 2
        return text[:at] + "  let moved_by = 1u;\n" + text[at:], f"a statement added at {at}, above the function at {target}"
    removable = [m for m in _REMOVABLE_LINE.finditer(text, 0, target)]
    if not removable:
        return None
    line = rng.choice(removable)
    return text[:line.start()] + text[line.end():], f"the line at {line.start()} removed, above the function at {target}"


def _run(checkout: Path, python: str, cases_path: Path, out_path: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
    began = time.perf_counter()
    subprocess.run([python, "-c", _DRIVER, str(cases_path), str(out_path), str(TYPED_LIMIT)],
                   cwd=checkout, env=env, check=True)
    return time.perf_counter() - began


def results_of(made: list[dict], checkouts: dict[str, tuple[Path, str]]) -> tuple[dict, dict]:
    """Each checkout's results on the cases `made` (by the names given to the checkouts, each a folder and the
    interpreter to run it with), and the seconds each took."""
    outputs, seconds = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        cases_path = Path(folder) / "cases.jsonl"
        cases_path.write_text("".join(json.dumps(case) + "\n" for case in made))
        for name, (checkout, interpreter) in checkouts.items():
            out = Path(folder) / f"{name}.jsonl"
            seconds[name] = round(_run(checkout, interpreter, cases_path, out), 1)
            outputs[name] = [json.loads(line) for line in out.read_text().splitlines()]
    return outputs, seconds


def case(name: str, base: str, text: str) -> dict:
    start, end, new = _edit(base, text)
    return {"name": name, "base": base, "text": text, "start": start, "end": end, "new": new}


def _first_difference(ours, theirs) -> str:
    if isinstance(ours, str) or isinstance(theirs, str) or ours is None or theirs is None:
        return f"here: {str(ours)[:300]}; there: {str(theirs)[:300]}"
    if ours and isinstance(ours[0], list):  # typed: one list per version
        for number, (a, b) in enumerate(zip(ours, theirs)):
            if a != b:
                return f"version {number + 1}: " + _first_difference(a, b)
        return f"{len(ours)} versions here, {len(theirs)} there"
    for a, b in zip(ours, theirs):
        if a != b:
            return f"here {a}; there {b}"
    return f"{len(ours)} diagnostics here, {len(theirs)} there: " \
        f"{(ours[len(theirs):] or theirs[len(ours):])[0]}"


def compare(made: list[dict], here: list[dict], there: list[dict]) -> dict:
    differences = []
    compared = {"fresh": 0, "edited provisional": 0, "edited final": 0, "typed versions": 0, "editor answers": 0}
    for case, ours, theirs in zip(made, here, there):
        compared["fresh"] += 1
        if isinstance(ours.get("edited"), list):
            compared["edited provisional"] += 1
            compared["edited final"] += 1
        if isinstance(ours.get("typed"), list):
            compared["typed versions"] += len(ours["typed"])
        for path in ("fresh", "edited", "typed"):
            if ours.get(path) != theirs.get(path):
                differences.append({"case": case["name"], "path": path,
                                    "edit": [case["start"], case["end"], case["new"][:80]],
                                    "first": _first_difference(ours.get(path), theirs.get(path))})
        for side, result in (("here", ours), ("there", theirs)):
            # Within one checkout: the edited document's final check is what a fresh lint of its text gives.
            # This finds a fault both checkouts share, which comparing them cannot.
            final = result["edited"][1] if isinstance(result.get("edited"), list) else None
            if final is not None and isinstance(result.get("fresh"), list) and final != result["fresh"]:
                differences.append({"case": case["name"], "path": f"incremental {side}",
                                    "edit": [case["start"], case["end"], case["new"][:80]],
                                    "first": "fresh " + _first_difference(result["fresh"], final)})
        counted, different = _editor_differences(ours.get("editor") or {}, theirs.get("editor") or {})
        compared["editor answers"] += counted
        if different:
            differences.append({"case": case["name"], "path": "editor",
                                "edit": [case["start"], case["end"], case["new"][:80]], "first": different})
    return {"compared": compared, "differences": differences}


def _editor_differences(ours: dict, theirs: dict) -> tuple[int, str]:
    """How many editor answers both checkouts gave for a case, and every one that differs ('' if none): by
    version, feature and the case's offset number. A feature only one checkout has is not compared; a version
    only one of them analysed is a difference."""
    counted, different = 0, []
    for version in sorted(set(ours) | set(theirs)):
        if version not in ours or version not in theirs:
            different.append(f"{version}: answered only {'here' if version in ours else 'there'}")
            continue
        for feature in sorted(set(ours[version]) & set(theirs[version])):
            a, b = ours[version][feature], theirs[version][feature]
            if isinstance(a, list):
                counted += len(a)
                numbers = [str(i + 1) for i, (x, y) in enumerate(zip(a, b)) if x != y]
                if numbers or len(a) != len(b):
                    different.append(f"{version}: {feature} at offsets {','.join(numbers) or 'beyond the shorter'}")
            else:
                counted += 1
                if a != b:
                    different.append(f"{version}: {feature}")
    return counted, "; ".join(different)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, metavar="PATH[=PYTHON]",
                        help="the other checkout, and the interpreter to run it with (default: its .venv's)")
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus/conformance"),
                        help="public WGSL to take bases from (left out when absent)")
    parser.add_argument("--mutants", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=None,
                        help="edits that only move functions, after the mutants (default: a quarter of --mutants)")
    parser.add_argument("--result", default=None, help="write benchmarks/results/NAME.json")
    args = parser.parse_args(argv)
    path, _, python = args.against.partition("=")
    other = Path(path).resolve()
    other_python = python or str(other / ".venv" / "bin" / "python")
    made = cases(args.corpus if args.corpus.is_dir() else None, args.mutants, args.seed, args.moves)
    outputs, seconds = results_of(made, {"here": (ROOT, sys.executable), "there": (other, other_python)})
    found = compare(made, outputs["here"], outputs["there"])
    crashes = sum(isinstance(value, str) and value.startswith("crash")
                  for result in outputs["here"] for value in result.values())
    figures = {"checkouts": {"here": str(ROOT), "there": str(other)}, "cases": len(made),
               "mutants": args.mutants, "moves": sum("[moved: " in c["name"] for c in made), "seed": args.seed, "corpus": str(args.corpus),
               **found["compared"], "crashes here": crashes, "differences": len(found["differences"]),
               "seconds": seconds, "first differences": found["differences"][:50]}
    print(json.dumps({k: v for k, v in figures.items() if k != "first differences"}, indent=1))
    for difference in found["differences"][:20]:
        print(f"DIFFERENT {difference['path']}: {difference['case']}\n  {difference['first'][:600]}")
    if args.result:
        write_result(args.result, figures, notes="Diagnostics of two checkouts compared whole on the same cases "
                     "(benchmarks/same_results.py): fresh lint, an edit checked provisionally and finally, "
                     "and short edits typed one character at a time.")
    return 1 if found["differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
