"""Template files read once and shared by every variant that includes them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_LINE = re.compile(rb"[^\n]*\n|[^\n]+")
_IMPORT_PATH = re.compile(rb"^[ \t]*#define_import_path[ \t]+([\w:]+)", re.M)


@dataclass(slots=True)
class TemplateFile:
    path: Path | None
    data: bytes
    # (start, end without the line break, start of the next line) of each line; split once per file.
    lines: list[tuple[int, int, int]] = field(default_factory=list)

    @classmethod
    def of(cls, path: Path | None, data: bytes) -> "TemplateFile":
        lines = []
        for match in _LINE.finditer(data):
            start, after = match.start(), match.end()
            end = after - 1 if data[after - 1 : after] == b"\n" else after
            if end > start and data[end - 1 : end] == b"\r":
                end -= 1
            lines.append((start, end, after))
        return cls(path, data, lines)


class FileCache:
    """Reads each file once; a missing file is remembered as missing. One cache serves all variants."""

    def __init__(self, overlays: dict[Path, bytes] | None = None) -> None:
        self._files: dict[Path, TemplateFile | None] = {}
        self._overlays = {p.resolve(): d for p, d in (overlays or {}).items()}
        self._import_paths: dict[Path, dict[str, Path]] = {}

    def overlay(self, path: Path, data: bytes) -> None:
        """An editor's unsaved text for `path`; forgets what was read from disk."""
        resolved = path.resolve()
        self._overlays[resolved] = data
        self._files.pop(resolved, None)
        self._import_paths.clear()

    def forget(self, path: Path) -> None:
        resolved = path.resolve()
        self._overlays.pop(resolved, None)
        self._files.pop(resolved, None)
        self._import_paths.clear()

    def get(self, path: Path) -> TemplateFile | None:
        resolved = path.resolve()
        if resolved in self._files:
            return self._files[resolved]
        data = self._overlays.get(resolved)
        if data is None:
            try:
                data = resolved.read_bytes() if resolved.is_file() else None
            except OSError:
                data = None
        found = TemplateFile.of(resolved, data) if data is not None else None
        self._files[resolved] = found
        return found

    def import_paths(self, folder: Path) -> dict[str, Path]:
        """naga_oil modules below `folder`: `#define_import_path` name -> file (searched once per folder)."""
        folder = folder.resolve()
        known = self._import_paths.get(folder)
        if known is not None:
            return known
        known = {}
        try:
            candidates = sorted(p for p in folder.rglob("*") if p.suffix in (".wgsl", ".wesl")
                                and len(p.relative_to(folder).parts) <= 6)
        except OSError:
            candidates = []
        for path in candidates[:2000]:
            found = self.get(path)
            if found is None:
                continue
            match = _IMPORT_PATH.search(found.data)
            if match is not None:
                known.setdefault(match.group(1).decode("ascii", "replace"), path.resolve())
        self._import_paths[folder] = known
        return known
