"""Differential campaign: seeded mutants of real shaders, judged by Tint (or naga) and by coop-lint.

    nice .venv/bin/python -m benchmarks.differential --corpus /work/corpus/conformance \\
        --mutants 20000 --seed 1 --workers 2

Bases: the public WGSL under --corpus (never committed), the project's
examples/ and every case of tests/spec. Only bases the compiler accepts are
mutated, so each mutant is one small edit away from a valid program. Each
mutant gets one edit (benchmarks/mutations.py: matrix types, dimensions,
roles, majorness and strides; address spaces and access modes; enables;
statements deleted or duplicated; identifiers renamed; literal suffixes and
operators; calls wrapped in branches on uniform and non-uniform values).

The compiler is Tint (the pinned wgpudawn on Dawn's Null backend) for
everything but the wgpu dialect, which goes to naga-cli when it is installed
(.tools/bin/naga) and is left out otherwise. We compare the verdict (error or
not) and, when both reject, the line of the first error. Every worker
process has its own compiler child process; the whole campaign is
deterministic for a seed, whatever the number of workers.

Writes benchmarks/results/differential.json (with --write): the four-way
table overall and per mutation kind, the machine, and each class of
disagreement with a count and the smallest example found.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

from . import mutations

ROOT = Path(__file__).resolve().parent.parent
_CASE = re.compile(r"^// === .*$", re.MULTILINE)
_WGPU = re.compile(r"^\s*enable\b[^;]*\bwgpu_cooperative_matrix\b", re.MULTILINE)
LINT_TIMEOUT_S = 20
# Where coop-lint goes beyond a compiler on purpose, an error the compiler does not give is no false error.
# (oracle or "*", rule code) -> the reason, as the spec cases that show it say.
DELIBERATE = {
    ("*", "U002"): "real divergence inside a subgroup: reported even where Tint's rule is off or does not look",
    ("naga", "T009"): "naga does not check constant strides; rows or columns would overlap",
    ("naga", "T008"): "naga validates a matrix load from an array of another element type; SPIR-V does not",
    ("naga", "T006"): "naga validates coopMultiplyAdd with shapes that differ; SPIR-V does not",
    ("naga", "T010"): "naga validates a matrix in workgroup memory; SPIR-V allows only Function and Private",
    ("naga", "T005"): "naga validates element types no GPU offers for cooperative matrices (only f16/f32 run)",
    ("naga", "S002"): "naga accepts operator mixes the WGSL grammar forbids without parentheses (Tint rejects them)",
    ("naga", "U001"): "naga does not check that barriers and matrix operations run in uniform control flow; "
                      "the WGSL spec and Tint do, and a divergent barrier hangs the GPU",
}


# Where coop-lint stays quiet on purpose: the compiler's error is about its environment, not the language.
DELIBERATE_MISSES = [
    (re.compile(r"is not allowed in the current environment"),
     "environment: the extension needs a device feature the oracle's device lacks; coop-lint reports D003 for "
     "the configured targets that lack it, and only a note when no target is configured"),
    (re.compile(r"^expected extension(\n|$)"),
     "the proposed standard's 'enable subgroup_matrix', which coop-lint checks and no compiler knows yet"),
]


def deliberate_miss(record: dict) -> str | None:
    if record["category"] != "missed":
        return None
    message = (record.get("compiler_first") or [None, None, ""])[2]
    if message.startswith("expected extension") and "subgroup_matrix" not in (record.get("edit") or ""):
        return None  # only the standard's own enable is known here and not to Tint
    return next((why for pattern, why in DELIBERATE_MISSES if pattern.search(message)), None)


# Why each known class of non-deliberate disagreement remains (matched against the class name, first match).
VARIABLES = "order only: one declaration with two errors (its address space or access mode, and its @group/@binding " \
            "or runtime-sized type); Tint reports the address space's line, coop-lint the attributes' line above it"
KNOWN_GAPS: list[tuple[str, str]] = [
    (r"^(missed tint: |other_line: tint )(only variables in <storage>|access mode '…' is not valid|unresolved address space|"
     r"non-resource variables|resource variables require|module-scope '…' must not use|var of address space|"
     r"var with '…' address space|type '…' cannot be used in address space|runtime-sized arrays cannot|"
     r"atomic variables in|variables of type|only pointers in <storage>)", VARIABLES),
    (r"not allowed in the current environment", "extensions that need a device feature: rule D003 reports them for "
                                                "the configured targets that lack it"),
    (r"missing return at end of function|loop does not exit", "order only: a function with another error before its "
                                                              "end; the two report them in another order (open)"),
    (r"cyclic dependency found", "a cycle through a declaration with another error: Tint reports only the cycle, "
                                 "coop-lint also the earlier error (open)"),
    (r"must be an '…' or '…' value|value must be non-negative|type used without '…' extension enabled",
     "attribute arguments of another type or sign reported where another error comes first (open)"),
    (r"cannot be represented as", "constant evaluation: an abstract value out of range where it is materialized, "
                                  "in a form not yet followed (open)"),
    (r"missed tint: expected extension", "the proposed standard's 'enable subgroup_matrix', which coop-lint "
                                         "checks and no compiler knows yet"),
    (r"ours T007 the builtin value", "order only: Tint checks a function's body before its parameters' "
                                     "attributes, so its missing-enable error names the first call"),
    (r"naga unknown enable-extension", "order only: naga stops at the enable it does not know, coop-lint names "
                                       "the clash of two dialects"),
    (r"naga redefinition", "order only: naga points at the first declaration, coop-lint (as Tint) at the second"),
]


def known_gap(name: str) -> str | None:
    return next((reason for pattern, reason in KNOWN_GAPS if re.search(pattern, name)), None)


_NAGA_STRIDE = re.compile(r"no matching call to 'coop(Load|Store)T?' with arguments \((coop_mat\w+<[^>]*>, )?ptr<[^>]*>, "
                          r"(?!u32\b)")


# A stride literal that no u32 holds (-1), which naga passes on unchecked.
_NAGA_STRIDE_VALUE = re.compile(r"cannot be represented as 'u32' \(the 'stride' argument of 'coop(Load|Store)T?'\)$")


def deliberate(record: dict) -> str | None:
    first = record.get("ours_first") or [None, None, ""]
    if record["oracle"] == "naga" and (first[0] == "T004" and _NAGA_STRIDE.match(first[2])
                                       or first[0] == "T014" and _NAGA_STRIDE_VALUE.search(first[2])):
        return "naga accepts a coopLoad/coopStore stride of any scalar type and value (even 16.5 or -1); " \
               "the proposal's is a u32"
    return DELIBERATE.get((record["oracle"], first[0])) or DELIBERATE.get(("*", first[0]))


CATEGORIES = ("both_accept", "false_error", "missed", "both_reject")


# ------------------------------------------------------------------ bases
def load_bases(corpus: Path | None) -> list[tuple[str, str]]:
    """(name, text) of every base: corpus files, examples, spec cases."""
    bases: list[tuple[str, str]] = []
    if corpus is not None and corpus.is_dir():
        for path in sorted(corpus.rglob("*.wgsl")):
            try:
                bases.append((f"corpus:{path.relative_to(corpus)}", path.read_text(encoding="utf-8")))
            except (UnicodeDecodeError, OSError):
                continue
    for path in sorted((ROOT / "examples").rglob("*.wgsl")):
        bases.append((f"examples/{path.relative_to(ROOT / 'examples')}", path.read_text(encoding="utf-8")))
    for path in sorted((ROOT / "tests" / "spec").rglob("*.wgsl")):
        text = path.read_text(encoding="utf-8")
        headers = list(_CASE.finditer(text))
        for index, header in enumerate(headers):
            end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
            body = text[header.end() + 1 : end]
            name = header.group(0)[len("// === "):].strip()
            bases.append((f"spec:{path.relative_to(ROOT / 'tests' / 'spec')}::{name}", body))
    return bases


def oracle_name(text: str) -> str:
    return "naga" if _WGPU.search(text) else "tint"


# ------------------------------------------------------------------ workers
_STATE: dict = {}


def _init_worker(bases: list[tuple[str, str]], use_naga: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STATE.update(bases=bases, use_naga=use_naga, tint=None, naga=None, applicable={})


def _oracle(kind: str):
    if kind == "tint":
        if _STATE["tint"] is None:
            from coop_lsp.devices.tint import TintOracle

            _STATE["tint"] = TintOracle()
        return _STATE["tint"]
    if _STATE["naga"] is None:
        from coop_lsp.devices.naga import NagaOracle

        _STATE["naga"] = NagaOracle()
    return _STATE["naga"]


def compiler_verdict(text: str, which: str) -> dict:
    """Errors (line, message) from Tint or naga, or a failure when it gave no verdict."""
    if which == "tint":
        result = _oracle("tint").compile(text)
        return {"failure": result.failure,
                "errors": [(m.line, m.column, m.message) for m in result.errors]}
    result = _oracle("naga").validate(text)
    return {"failure": result.failure,
            "errors": [(m.focus[0], m.focus[1], m.message) for m in result.errors]}


class _Timeout(Exception):
    pass


def _alarm(*_):
    raise _Timeout()


def our_verdict(text: str) -> dict:
    from coop_lsp.core.diagnostic import Severity
    from coop_lsp.lint import lint_source

    from .conformance import _same_place

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(LINT_TIMEOUT_S)
    try:
        result = lint_source(text)
    except _Timeout:
        return {"crash": f"lint_source took more than {LINT_TIMEOUT_S} s"}
    except Exception:  # a crash is a finding, recorded with its traceback
        return {"crash": traceback.format_exc(limit=6)}
    finally:
        signal.alarm(0)
    errors = sorted((d for d in result.diagnostics if d.severity is Severity.ERROR), key=lambda d: d.span.start)
    return {
        "result": result,
        "same_place": _same_place,
        "errors": [(d.code, result.source.position(d.span.start).line + 1, d.message.splitlines()[0])
                   for d in errors],
        "first_offset": errors[0].span.start if errors else None,
        "x001": [d.message for d in result.diagnostics if d.code == "X001"],
    }


def _applicable(kind: str) -> list[int]:
    cache = _STATE["applicable"]
    if kind not in cache:
        probe = random.Random(0)
        cache[kind] = [i for i, (_, text) in enumerate(_STATE["bases"])
                       if mutations.KINDS[kind](text, probe) is not None]
    return cache[kind]


def mutant_text(accepted: list[tuple[str, str]], seed: int, index: int, kinds: list[str] | None = None) -> str:
    """The text of mutant `index` of a campaign over `accepted` bases, made again in this process."""
    _STATE.update(bases=accepted, applicable={})
    return make_mutant(seed, index, sorted(kinds or mutations.KINDS))[2]


def make_mutant(seed: int, index: int, kinds: list[str]) -> tuple[str, str, str, str] | None:
    """(kind, base name, mutated text, description) of mutant `index`; the same for a seed on any machine."""
    rng = random.Random(f"{seed}:{index}")
    for _ in range(8):
        kind = rng.choice(kinds)
        candidates = _applicable(kind)
        if not candidates:
            continue
        name, text = _STATE["bases"][rng.choice(candidates)]
        made = mutations.KINDS[kind](text, rng)
        if made is not None and made[0] != text:
            return kind, name, made[0], made[1]
    return None


def judge(index: int, seed: int, kinds: list[str]) -> dict | None:
    made = make_mutant(seed, index, kinds)
    if made is None:
        return None
    kind, base, text, description = made
    which = oracle_name(text)
    if which == "naga" and not _STATE["use_naga"]:
        return None
    record = {"index": index, "kind": kind, "base": base, "edit": description, "oracle": which,
              "size": len(text)}
    compiler = compiler_verdict(text, which)
    if compiler["failure"]:
        record["category"] = "no_verdict"
        record["why"] = compiler["failure"]
        return record
    ours = our_verdict(text)
    if "crash" in ours:
        record.update(category="crash", why=ours["crash"])
        return record
    if ours["x001"]:
        record.update(category="crash", why="X001 " + ours["x001"][0])
        return record
    their_errors, our_errors = compiler["errors"], ours["errors"]
    record["compiler_first"] = list(their_errors[0]) if their_errors else None
    record["ours_first"] = list(our_errors[0]) if our_errors else None
    if not their_errors and not our_errors:
        record["category"] = "both_accept"
    elif our_errors and not their_errors:
        record["category"] = "false_error"
    elif their_errors and not our_errors:
        record["category"] = "missed"
    else:
        record["category"] = "both_reject"
        line, column, _ = their_errors[0]
        record["same_line"] = line is None or ours["same_place"](ours["result"], ours["first_offset"], line,
                                                                  column or 1)
    return record


def _judge_batch(batch: tuple[list[int], int, list[str]]) -> list[dict]:
    indices, seed, kinds = batch
    out = []
    for index in indices:
        record = judge(index, seed, kinds)
        if record is not None:
            if record["category"] not in ("both_accept", "both_reject") or not record.get("same_line", True):
                record["text"] = make_mutant(seed, index, kinds)[2]  # kept for the examples of each class
            out.append(record)
    return out


# ------------------------------------------------------------------ selecting bases
def _check_base(item: tuple[int, str, bool]) -> tuple[int, bool]:
    index, text, use_naga = item
    which = oracle_name(text)
    if which == "naga" and not use_naga:
        return index, False
    verdict = compiler_verdict(text, which)
    return index, not verdict["failure"] and not verdict["errors"]


def accepted_bases(pool, bases, use_naga: bool) -> list[tuple[str, str]]:
    items = [(i, text, use_naga) for i, (_, text) in enumerate(bases)]
    keep = sorted(i for i, ok in pool.imap_unordered(_check_base, items, chunksize=16) if ok)
    return [bases[i] for i in keep]


# ------------------------------------------------------------------ summary
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
_NUMBERS = re.compile(r"\b\d+(\.\d+)?[a-z]*\b")


def normalise(message: str) -> str:
    message = _QUOTED.sub("'…'", message.splitlines()[0] if message else "")
    return _NUMBERS.sub("N", message)[:120]


def class_of(record: dict) -> str | None:
    category = record["category"]
    if category == "false_error":
        code, _, message = record["ours_first"]
        return f"false_error {record['oracle']} {code}: {normalise(message)}"
    if category == "missed":
        return f"missed {record['oracle']}: {normalise(record['compiler_first'][2])}"
    if category == "both_reject" and not record.get("same_line", True):
        return (f"other_line: {record['oracle']} {normalise(record['compiler_first'][2])} / ours "
                f"{record['ours_first'][0]} {normalise(record['ours_first'][2])}")
    if category in ("crash", "no_verdict"):
        return f"{category}: {normalise(record['why'].strip().splitlines()[-1])}"
    return None


def _table(records: list[dict]) -> dict:
    counts = Counter(r["category"] for r in records if r["category"] in CATEGORIES)
    total = sum(counts.values())
    table = {}
    for category in CATEGORIES:
        n = counts.get(category, 0)
        table[category] = f"{n} ({100.0 * n / total:.2f}%)" if total else "0"
    same_line = sum(1 for r in records if r["category"] == "both_reject" and r.get("same_line"))
    agree = counts.get("both_accept", 0) + counts.get("both_reject", 0)
    table["verdict_agreement"] = f"{agree}/{total} ({100.0 * agree / total:.2f}%)" if total else "n/a"
    table["both_reject_same_first_line"] = (f"{same_line}/{counts.get('both_reject', 0)}"
                                            f" ({100.0 * same_line / counts['both_reject']:.1f}%)"
                                            if counts.get("both_reject") else "n/a")
    planned = sum(1 for r in records if r["category"] == "false_error" and deliberate(r))
    quiet = sum(1 for r in records if deliberate_miss(r))
    table["false_error_deliberate"] = planned
    table["missed_deliberate"] = quiet
    planned += quiet
    table["verdict_agreement_deliberate_counted_as_agreeing"] = (
        f"{agree + planned}/{total} ({100.0 * (agree + planned) / total:.2f}%)" if total else "n/a")
    table["crashes"] = sum(1 for r in records if r["category"] == "crash")
    table["no_compiler_verdict"] = sum(1 for r in records if r["category"] == "no_verdict")
    return table


def summarise(records: list[dict]) -> dict:
    classes: dict[str, dict] = {}
    for record in records:
        name = class_of(record)
        if name is None:
            continue
        entry = classes.setdefault(name, {"count": 0, "example": None})
        entry["count"] += 1
        example = entry["example"]
        if example is None or record["size"] < example["size"]:
            entry["example"] = {key: record.get(key) for key in
                                ("base", "kind", "edit", "oracle", "compiler_first", "ours_first", "size", "why")}
            entry["example"]["index"] = record["index"]
        if record["category"] in ("false_error", "both_reject") and deliberate(record):
            entry["reason"] = "deliberate: " + deliberate(record)
        elif deliberate_miss(record):
            entry["reason"] = "deliberate: " + deliberate_miss(record)
    by_kind = defaultdict(list)
    for record in records:
        by_kind[record["kind"]].append(record)
    for name, entry in classes.items():
        if "reason" not in entry and known_gap(name):
            entry["reason"] = known_gap(name)
    ordered = dict(sorted(classes.items(), key=lambda item: -item[1]["count"]))
    explained = sum(entry["count"] for entry in classes.values() if "reason" in entry)
    return {
        "mutants_run": sum(1 for r in records if r["category"] in CATEGORIES),
        "overall": _table(records),
        "by_oracle": {o: _table([r for r in records if r["oracle"] == o]) for o in sorted({r["oracle"] for r in records})},
        "by_kind": {kind: _table(rs) for kind, rs in sorted(by_kind.items())},
        "disagreements_with_a_reason": f"{explained}/{sum(e['count'] for e in classes.values())} in "
                                       f"{sum(1 for e in classes.values() if 'reason' in e)} of {len(classes)} classes",
        "disagreement_classes": ordered,
    }


def verdict_agreement(records: list[dict]) -> float:
    judged = [r for r in records if r["category"] in CATEGORIES]
    agree = sum(1 for r in judged if r["category"] in ("both_accept", "both_reject"))
    return agree / len(judged) if judged else 0.0


# ------------------------------------------------------------------ driver
def run_campaign(bases: list[tuple[str, str]], mutants: int, seed: int, workers: int, use_naga: bool,
                 kinds: list[str] | None = None, progress: bool = False) -> tuple[list[dict], list]:
    """Judge `mutants` mutants; returns the records and the bases the compiler accepted (what was mutated)."""
    kinds = sorted(kinds or mutations.KINDS)
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_init_worker, initargs=(bases, use_naga)) as pool:
        accepted = accepted_bases(pool, bases, use_naga)
    batches = [(list(range(start, min(start + 25, mutants))), seed, kinds) for start in range(0, mutants, 25)]
    records: list[dict] = []
    started = time.monotonic()
    with context.Pool(workers, initializer=_init_worker, initargs=(accepted, use_naga)) as pool:
        for done, batch in enumerate(pool.imap_unordered(_judge_batch, batches), start=1):
            records.extend(batch)
            if progress and done % 40 == 0:
                rate = len(records) / (time.monotonic() - started)
                print(f"  {len(records)} mutants, {rate:.1f}/s, agreement {100 * verdict_agreement(records):.2f}%",
                      flush=True)
    records.sort(key=lambda r: r["index"])
    return records, accepted


def _naga_description() -> str:
    from coop_lsp.devices.naga import NagaOracle

    oracle = NagaOracle()
    try:
        return f"{oracle.binary} ({oracle.version()})"
    except Exception as error:  # noqa: BLE001 - the description is informative only
        return f"unknown: {error}"
    finally:
        oracle.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="folder of public WGSL (e.g. /work/corpus/conformance)")
    parser.add_argument("--mutants", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2)))
    parser.add_argument("--no-naga", action="store_true", help="leave the wgpu dialect out")
    parser.add_argument("--kinds", help="comma-separated mutation kinds (default: all)")
    parser.add_argument("--details", type=Path, help="write every disagreeing mutant (with its text) here")
    parser.add_argument("--write", action="store_true", help="write benchmarks/results/differential.json")
    args = parser.parse_args(argv)
    from coop_lsp.devices.naga import naga_available

    use_naga = not args.no_naga and naga_available()
    bases = load_bases(args.corpus)
    kinds = args.kinds.split(",") if args.kinds else None
    started = time.monotonic()
    records, accepted_list = run_campaign(bases, args.mutants, args.seed, args.workers, use_naga, kinds,
                                          progress=True)
    accepted = len(accepted_list)
    seconds = time.monotonic() - started
    summary = summarise(records)
    print(f"{len(bases)} bases, {accepted} accepted by their compiler; {summary['mutants_run']} mutants judged "
          f"in {seconds:.0f} s with {args.workers} workers")
    for key, value in summary["overall"].items():
        print(f"  {key}: {value}")
    for name, entry in list(summary["disagreement_classes"].items())[:40]:
        print(f"  {entry['count']:6}  {name}")
    if args.details:
        args.details.write_text(json.dumps([r for r in records if "text" in r], indent=1))
    if args.write:
        from .common import write_result

        corpus_hash = hashlib.sha256("".join(sorted(n for n, _ in bases)).encode()).hexdigest()[:16]
        path = write_result("differential", {
            "seed": args.seed, "workers": args.workers, "seconds": round(seconds, 1),
            "bases": len(bases), "bases_accepted": accepted, "base_names_sha256": corpus_hash,
            "naga": use_naga, "naga_binary": _naga_description() if use_naga else None, **summary,
        }, notes="Seeded one-edit mutants of public WGSL (/work/corpus/conformance), examples/ and tests/spec "
                 "cases, compiled by Tint (wgpudawn, Null backend; naga-cli for the wgpu dialect) and linted by "
                 "lint_source; see benchmarks/differential.py. Categories: both_accept, false_error (we error, "
                 "the compiler accepts), missed (the compiler errors, we do not), both_reject.")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
