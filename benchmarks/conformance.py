"""Conformance on real-world WGSL that nobody on the team wrote: do we agree with Tint?

    .venv/bin/python -m benchmarks.conformance /tmp/conformance [--details out.json] [--tint-cache c.json]

The folder holds one sub-folder per source, each with a SOURCE.json
(`{"repo": "owner/name", "commit": "..."}`) and the .wgsl files extracted
from that commit, at their paths in the repository. The files are never
committed; only the figures and the list of sources are
(benchmarks/results/conformance.json).

Every file is compiled by Tint (the pinned wgpudawn on Dawn's Null backend:
the device enables subgroups, chromium-experimental-subgroup-matrix,
shader-f16 and the shader features of coop_lsp/devices/tint_worker.py) and
linted by `lint_source`. For the files Tint accepts we count
how many we parse without a syntax error (no S code) and how many we lint
with zero errors; for the files Tint rejects, how many we reject too and how
many with our first error on Tint's first error line.

Tint's rejections come in two kinds, told apart by Tint's first message
(`rejection_kind`):

- environment-only: the WGSL is valid, but the device or the browser does not
  allow what it enables. Tint says so in one phrase for all of them, "... is
  not allowed in the current environment": an extension whose device feature
  the Null-backend device lacks (pixel-local storage, atomic_vec2u_min_max),
  or a language feature the environment has not shipped. The WGSL is not
  wrong, so the right answer is coop-lint's D003 against a configured target
  without the feature; these files are linted a second time with `--target`
  (default nvidia-h100) and counted apart.
- language errors: everything else. Some of them are features only naga
  accepts (push_constant, binding_array without a size, ray queries, f64,
  64-bit atomics, integral IO without @interpolate(flat)): with no dialect
  coop-lint accepts both compilers' WGSL and says so in a portability note,
  by design. They are linted a second time in Tint's dialect
  (`dialect="chromium"`, as `coop-lint --dialect chromium`), which is the
  figure for "every language-level Tint rejection caught".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

from coop_lsp.core.diagnostic import Severity
from coop_lsp.devices.tint import TintOracle
from coop_lsp.lint import lint_source

from .common import write_result


def _sources(folder: Path) -> list[tuple[dict, Path, list[Path]]]:
    found = []
    for source_file in sorted(folder.rglob("SOURCE.json")):
        root = source_file.parent
        files = sorted(p for p in root.rglob("*.wgsl") if p.is_file())
        found.append((json.loads(source_file.read_text()), root, files))
    if not found:  # a plain folder of .wgsl files
        found.append(({"repo": str(folder), "commit": ""}, folder, sorted(folder.rglob("*.wgsl"))))
    return found


def _tint_verdict(tint: TintOracle, text: str, cache: dict) -> dict:
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    if key not in cache:
        result = tint.compile(text)
        cache[key] = {
            "failure": result.failure,
            "errors": [{"line": m.line, "column": m.column, "message": m.message} for m in result.errors],
        }
    return cache[key]


# The one phrase Tint and Dawn use when the environment, not the WGSL, is at fault (resolver.cc and
# validator.cc: extensions and language features the device or the browser does not allow).
_ENVIRONMENT_ONLY = re.compile(r"not allowed in the current environment")


def rejection_kind(tint_first_message: str) -> str:
    """'environment' when Tint rejects for what the device or browser allows, else 'language'."""
    return "environment" if _ENVIRONMENT_ONLY.search(tint_first_message) else "language"


def _verdict_against_tint(result, tint_first: dict) -> dict:
    """Whether `result` has an error, and whether its first one is at Tint's first error."""
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if not errors:
        # With no dialect, what only naga accepts gets a portability note (T013) instead of an error.
        return {"rejected": False, "same_line": False, "first": None,
                "portability_note": any(d.code == "T013" for d in result.diagnostics)}
    first = min(errors, key=lambda d: d.span.start)
    return {"rejected": True,
            "same_line": _same_place(result, first.span.start, tint_first["line"], tint_first["column"]),
            "first": {"code": first.code, "line": result.source.position(first.span.start).line + 1,
                      "message": first.message.splitlines()[0]}}


def _first_error_line(result) -> tuple[int, int] | None:
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if not errors:
        return None
    first = min(errors, key=lambda d: d.span.start)
    position = result.source.position(first.span.start)
    return position.line + 1, first.span.start


def _same_place(result, our_offset: int, tint_line: int, tint_column: int) -> bool:
    """Our first error on Tint's line, or only whitespace and comments between the two positions."""
    from coop_lsp.core.text import Position

    if result.source.position(our_offset).line + 1 == tint_line:
        return True
    if result.parsed is None:
        return False
    tint_offset = result.source.offset(Position(tint_line - 1, tint_column - 1))
    if tint_offset < our_offset:
        return False
    stack = [result.parsed.root]
    while stack:
        node = stack.pop()
        if node.end_byte <= our_offset or node.start_byte >= tint_offset:
            continue
        if node.child_count == 0 or node.type in ("line_comment", "block_comment"):
            if not (node.is_extra or node.is_missing):
                return False
        else:
            stack.extend(node.children)
    return True


# Why coop-lint's verdict differs from Tint's on a file, where it does on purpose or for a known reason,
# matched on (Tint's first message, our first error code); the differences left are listed unexplained.
_DELIBERATE_ON_ACCEPTED = {
    "U002": "Tint accepts the file only because it turns Tint's rule off (diagnostic(off, "
            "chromium.subgroup_matrix_uniformity)); the call still runs where lanes of one subgroup really "
            "diverge (a branch on a per-invocation value), which leaves the matrix undefined. U002 goes "
            "beyond Tint on purpose and is not silenced by Tint's diagnostic name.",
}
_KNOWN_DIFFERENCES = [  # (Tint's first message, our first message, why)
    (r"^unresolved (type|value|function)", r"^unresolved",
     "Both reject an unresolved name; Tint resolves declarations in dependency order (callees and the types "
     "they use first), coop-lint reports in source order, so the first unresolved name differs."),
    (r"^expected", r"",
     "Tint reports only syntax errors when there is one; coop-lint recovers from this one (naga's 64-bit "
     "literal suffixes, a missing ';') and also reports a semantic error earlier in the file."),
    (r"", r"builtin value|@interpolate\(flat\)",
     "Tint checks an entry point's IO attributes last (after the module-scope declarations and the entry "
     "point's body), so a later error comes first there; coop-lint reports both, the IO attribute first "
     "by position."),
    (r"not allowed in the current environment", r"",
     "Environment-only: valid WGSL the Null-backend device does not allow; D003 names the targets without "
     "the feature (an error with a configured target, a note without one)."),
]


def _explain(entry: dict, key: str) -> str | None:
    ours = entry[key]["first"]
    for tint_pattern, our_pattern, reason in _KNOWN_DIFFERENCES:
        if re.search(tint_pattern, entry["tint_errors"][0]["message"]) and ours \
                and re.search(our_pattern, ours["message"]):
            return reason
    return None


def _differences(details: list[dict]) -> list[dict]:
    """Every file where coop-lint (in Tint's dialect, or with a target for environment-only files) does
    not agree with Tint's verdict and first-error line, with the reason where one is known."""
    found = []
    for entry in details:
        if entry["tint_failure"]:
            continue
        if not entry["tint_errors"]:
            if entry["ours"]:
                found.append({"path": entry["path"], "tint": "accepts", "ours": entry["ours"][0],
                              "reason": _DELIBERATE_ON_ACCEPTED.get(entry["ours"][0]["code"])})
            continue
        key = "with_target" if entry["kind"] == "environment" else "tint_dialect"
        if not entry[key]["same_line"]:
            tint_first = entry["tint_errors"][0]
            found.append({"path": entry["path"], "kind": entry["kind"],
                          "tint": {"line": tint_first["line"], "message": tint_first["message"].splitlines()[0]},
                          "ours": entry[key]["first"], "reason": _explain(entry, key)})
    return found


def _group(entries: list[dict], key: str) -> dict:
    return {"files": len(entries),
            "rejected_by_us": sum(1 for d in entries if d[key]["rejected"]),
            "same_first_error_line": sum(1 for d in entries if d[key]["same_line"]),
            "missed_with_portability_note": sum(1 for d in entries if d[key].get("portability_note"))}


def run(folder: Path, cache_path: Path | None, target: str = "nvidia-h100") -> tuple[dict, list[dict], list[dict]]:
    cache = json.loads(cache_path.read_text()) if cache_path and cache_path.exists() else {}
    details: list[dict] = []
    source_list: list[dict] = []
    with TintOracle() as tint:
        for meta, root, files in _sources(folder):
            source_list.append({"repo": meta.get("repo"), "commit": meta.get("commit"),
                                "paths": [str(p.relative_to(root)) for p in files]})
            for path in files:
                data = path.read_bytes()
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    text = data.decode("utf-8", errors="replace")
                verdict = _tint_verdict(tint, text, cache)
                result = lint_source(data)
                errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
                entry = {
                    "repo": meta.get("repo"), "path": str(path.relative_to(root)), "file": str(path),
                    "tint_failure": verdict["failure"],
                    "tint_errors": verdict["errors"][:3],
                    "ours": [{"code": d.code, "line": result.source.position(d.span.start).line + 1,
                              "message": d.message.splitlines()[0]} for d in errors][:5],
                    "syntax_errors": any(d.code.startswith("S") for d in errors),
                }
                if verdict["errors"] and errors:
                    first = min(errors, key=lambda d: d.span.start)
                    tint_first = verdict["errors"][0]
                    entry["same_line"] = _same_place(result, first.span.start, tint_first["line"],
                                                     tint_first["column"])
                if verdict["errors"] and not verdict["failure"]:
                    tint_first = verdict["errors"][0]
                    entry["kind"] = rejection_kind(tint_first["message"])
                    entry["default"] = _verdict_against_tint(result, tint_first)
                    if entry["kind"] == "environment":
                        entry["with_target"] = _verdict_against_tint(lint_source(data, targets=(target,)), tint_first)
                    else:
                        entry["tint_dialect"] = _verdict_against_tint(lint_source(data, dialect="chromium"),
                                                                      tint_first)
                elif not verdict["failure"]:
                    entry["tint_dialect_errors"] = sum(
                        1 for d in lint_source(data, dialect="chromium").diagnostics if d.severity is Severity.ERROR)
                details.append(entry)
    if cache_path:
        cache_path.write_text(json.dumps(cache))
    accepted = [d for d in details if not d["tint_failure"] and not d["tint_errors"]]
    rejected = [d for d in details if not d["tint_failure"] and d["tint_errors"]]
    language = [d for d in rejected if d["kind"] == "language"]
    environment = [d for d in rejected if d["kind"] == "environment"]
    figures = {
        "files": len(details),
        "tint_no_verdict": sum(1 for d in details if d["tint_failure"]),
        "tint_accepted": {
            "files": len(accepted),
            "parsed_without_syntax_error": sum(1 for d in accepted if not d["syntax_errors"]),
            "zero_errors": sum(1 for d in accepted if not d["ours"]),
            "zero_errors_in_tint_dialect": sum(1 for d in accepted if not d["tint_dialect_errors"]),
        },
        "tint_rejected": {
            "files": len(rejected),
            "rejected_by_us": sum(1 for d in rejected if d["ours"]),
            "same_first_error_line": sum(1 for d in rejected if d.get("same_line")),
            "language_errors": {**_group(language, "default"), "in_tint_dialect": _group(language, "tint_dialect")},
            "environment_only": {**_group(environment, "default"), "target": target,
                                 "with_target": _group(environment, "with_target"),
                                 # Without a target D003 is only a note, so these errors are coop-lint's
                                 # own: what it does not model of the unshipped extensions.
                                 "first_error_with_no_target": [{"path": d["path"], **d["default"]["first"]}
                                                                for d in environment if d["default"]["first"]]},
        },
        "differences": _differences(details),
    }
    return figures, details, source_list


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="folder of extracted real-world WGSL files")
    parser.add_argument("--details", type=Path, help="write the per-file verdicts here (JSON)")
    parser.add_argument("--tint-cache", type=Path, help="reuse Tint's verdicts from this JSON file")
    parser.add_argument("--target", default="nvidia-h100",
                        help="device profile to lint the environment-only rejections against (D003)")
    parser.add_argument("--no-write", action="store_true", help="do not write benchmarks/results/conformance.json")
    args = parser.parse_args(argv)
    figures, details, source_list = run(args.folder, args.tint_cache, args.target)
    accepted, rejected = figures["tint_accepted"], figures["tint_rejected"]
    print(f"{figures['files']} files from {len(source_list)} sources "
          f"({figures['tint_no_verdict']} without a Tint verdict)")
    print(f"Tint accepts {accepted['files']}: parsed without syntax error "
          f"{accepted['parsed_without_syntax_error']} ({_percent(accepted['parsed_without_syntax_error'], accepted['files'])}), "
          f"zero errors {accepted['zero_errors']} ({_percent(accepted['zero_errors'], accepted['files'])})")
    print(f"Tint rejects {rejected['files']}: rejected by us {rejected['rejected_by_us']} "
          f"({_percent(rejected['rejected_by_us'], rejected['files'])}), same first-error line "
          f"{rejected['same_first_error_line']} ({_percent(rejected['same_first_error_line'], rejected['files'])})")
    for name, group in (("language errors", rejected["language_errors"]),
                        ("environment-only", rejected["environment_only"])):
        again = group.get("in_tint_dialect") or group["with_target"]
        how = "in Tint's dialect" if "in_tint_dialect" in group else f"with target {group['target']}"
        print(f"  {name} {group['files']}: rejected by us {group['rejected_by_us']}, same line "
              f"{group['same_first_error_line']}, missed with a portability note {group['missed_with_portability_note']}; {how}: rejected {again['rejected_by_us']}, same line "
              f"{again['same_first_error_line']}")
    print(f"Tint-accepted files with zero errors in Tint's dialect: {accepted['zero_errors_in_tint_dialect']}")
    for difference in figures["differences"]:
        print(f"  differs: {difference['path']}: {difference['reason'] or 'UNEXPLAINED'}"[:160])
    false_errors = Counter(o["message"][:90] for d in details
                           if not d["tint_failure"] and not d["tint_errors"] for o in d["ours"][:1])
    for message, count in false_errors.most_common(25):
        print(f"  {count:4} {message}")
    if args.details:
        args.details.write_text(json.dumps(details, indent=1))
    if not args.no_write:
        path = write_result("conformance", {**figures, "sources": source_list},
                            notes="Real-world WGSL (wgpu/naga test inputs and examples, a deterministic sample of "
                                  "Dawn's test/tint, webgpu-samples) compiled by Tint (wgpudawn, Null backend) "
                                  "and linted by coop-lint; see benchmarks/conformance.py.")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
