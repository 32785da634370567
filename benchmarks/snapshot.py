"""Every finding and every formatted text over folders of WGSL, to show that a refactoring changed nothing.

    .venv/bin/python -m benchmarks.snapshot OUT.json DIR [DIR...]
    .venv/bin/python -m benchmarks.snapshot --compare BEFORE.json AFTER.json

Each .wgsl/.wesl/.tmpl file under the folders is linted three ways (no target and the module's own
dialect; Tint's dialect; the nvidia-h100 target) and formatted. A finding is recorded with its code,
severity, range, message, related places and fix edits, so a moved range or a reworded note counts as
a change. Run it on two checkouts (each with its own .venv) over the same folders, then compare; the
comparison prints every file whose record differs and exits 1 if any does.

The folders are public code kept outside the repository (the conformance corpus, the template
projects); only the figures go into notes.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

_SUFFIXES = {".wgsl", ".wesl", ".tmpl"}
_WAYS = {"auto": {}, "chromium": {"dialect": "chromium"}, "nvidia-h100": {"targets": ("nvidia-h100",)}}


def _finding(diagnostic) -> list:
    return [
        diagnostic.code, diagnostic.severity.name, diagnostic.span.start, diagnostic.span.end, diagnostic.message,
        [[r.span.start, r.span.end, r.message] for r in diagnostic.related],
        [[f.title, f.safe, [[e.span.start, e.span.end, e.new_text] for e in f.edits]] for f in diagnostic.fixes],
    ]


def record(path: Path) -> dict:
    from coop_lsp.format import format_text
    from coop_lsp.lint import lint_source

    data = path.read_bytes()
    entry: dict = {}
    for way, options in _WAYS.items():
        try:
            result = lint_source(data, **options)
            entry[way] = [_finding(d) for d in sorted(result.diagnostics, key=lambda d: d.sort_key)]
        except Exception as error:  # noqa: BLE001 - a crash is a behaviour to compare too
            entry[way] = f"crash: {type(error).__name__}: {error}"
    formatted = format_text(data)
    entry["format"] = (hashlib.sha256(formatted.text.encode()).hexdigest() if formatted.text is not None
                       else f"refused: {formatted.refused}")
    return entry


def snapshot(out: Path, folders: list[Path]) -> None:
    files = {}
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.suffix in _SUFFIXES and p.is_file()):
            files[str(path)] = record(path)
    out.write_text(json.dumps(files, indent=0, sort_keys=True))
    findings = sum(len(e[w]) for e in files.values() for w in _WAYS if isinstance(e[w], list))
    print(f"{len(files)} files, {findings} findings -> {out}")


def compare(before: Path, after: Path) -> int:
    old, new = json.loads(before.read_text()), json.loads(after.read_text())
    changed = sorted(name for name in old.keys() | new.keys() if old.get(name) != new.get(name))
    for name in changed:
        a, b = old.get(name) or {}, new.get(name) or {}
        ways = [w for w in [*_WAYS, "format"] if a.get(w) != b.get(w)]
        print(f"{name}: differs in {', '.join(ways) or 'presence'}")
    print(f"{len(old)} files before, {len(new)} after, {len(changed)} differ")
    return 1 if changed else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"] and len(argv) == 3:
        return compare(Path(argv[1]), Path(argv[2]))
    if len(argv) < 2:
        print(__doc__)
        return 2
    snapshot(Path(argv[0]), [Path(a) for a in argv[1:]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
