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
"""

from __future__ import annotations

import argparse
import hashlib
import json
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


def run(folder: Path, cache_path: Path | None) -> tuple[dict, list[dict], list[dict]]:
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
                details.append(entry)
    if cache_path:
        cache_path.write_text(json.dumps(cache))
    accepted = [d for d in details if not d["tint_failure"] and not d["tint_errors"]]
    rejected = [d for d in details if not d["tint_failure"] and d["tint_errors"]]
    figures = {
        "files": len(details),
        "tint_no_verdict": sum(1 for d in details if d["tint_failure"]),
        "tint_accepted": {
            "files": len(accepted),
            "parsed_without_syntax_error": sum(1 for d in accepted if not d["syntax_errors"]),
            "zero_errors": sum(1 for d in accepted if not d["ours"]),
        },
        "tint_rejected": {
            "files": len(rejected),
            "rejected_by_us": sum(1 for d in rejected if d["ours"]),
            "same_first_error_line": sum(1 for d in rejected if d.get("same_line")),
        },
    }
    return figures, details, source_list


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="folder of extracted real-world WGSL files")
    parser.add_argument("--details", type=Path, help="write the per-file verdicts here (JSON)")
    parser.add_argument("--tint-cache", type=Path, help="reuse Tint's verdicts from this JSON file")
    parser.add_argument("--no-write", action="store_true", help="do not write benchmarks/results/conformance.json")
    args = parser.parse_args(argv)
    figures, details, source_list = run(args.folder, args.tint_cache)
    accepted, rejected = figures["tint_accepted"], figures["tint_rejected"]
    print(f"{figures['files']} files from {len(source_list)} sources "
          f"({figures['tint_no_verdict']} without a Tint verdict)")
    print(f"Tint accepts {accepted['files']}: parsed without syntax error "
          f"{accepted['parsed_without_syntax_error']} ({_percent(accepted['parsed_without_syntax_error'], accepted['files'])}), "
          f"zero errors {accepted['zero_errors']} ({_percent(accepted['zero_errors'], accepted['files'])})")
    print(f"Tint rejects {rejected['files']}: rejected by us {rejected['rejected_by_us']} "
          f"({_percent(rejected['rejected_by_us'], rejected['files'])}), same first-error line "
          f"{rejected['same_first_error_line']} ({_percent(rejected['same_first_error_line'], rejected['files'])})")
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
