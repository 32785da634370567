"""Template files read once and shared by every variant that includes them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_LINE = re.compile(rb"[^\n]*\n|[^\n]+")
_IMPORT_PATH = re.compile(rb"^[ \t]*#define_import_path[ \t]+\"?([\w:]+)", re.M)


@dataclass(slots=True)
class TemplateFile:
    path: Path | None
    data: bytes
    # (start, end without the line break, start of the next line) of each line; split once per file.
    lines: list[tuple[int, int, int]] = field(default_factory=list)
    _structure: "Structure | None" = None
    _line_names: dict[int, tuple[frozenset[str], bool, bool]] = field(default_factory=dict)

    def line_names(self, index: int, scan) -> tuple[frozenset[str], bool, bool]:
        """(names a code line uses, whether it holds a placeholder or path, whether it leaves a block comment
        open), worked out once per line for all variants; `scan(data, start, end)` does the work."""
        found = self._line_names.get(index)
        if found is None:
            start, end, _after = self.lines[index]
            found = self._line_names[index] = scan(self.data, start, end)
        return found

    @property
    def structure(self) -> "Structure":
        """Where each conditional branch ends, worked out once for all variants."""
        if self._structure is None:
            self._structure = Structure.of(self)
        return self._structure

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


_DIRECTIVE_NAME = re.compile(rb"[ \t]*#[ \t]*([A-Za-z_]\w*)")
_DECLARED = re.compile(rb"([ \t]*)(?:@\w+(?:\([^)]*\))?[ \t]*)*(?:fn|alias|struct|const|override|var(?:[ \t]*<[^>]*>)?|let)"
                       rb"[ \t]+([A-Za-z_]\w*)")
_WORD = re.compile(rb"[A-Za-z_]\w*")
_OPENERS = (b"if", b"ifdef", b"ifndef")
_BRANCHES = (b"elif", b"else")


@dataclass(slots=True)
class Structure:
    # line index of #if/#ifdef/#ifndef/#elif/#else -> line index of the next #elif/#else/#endif of its block
    next_branch: dict[int, int]
    declared: list[tuple[int, str]]  # (line index, name) of each line that declares something
    macro_names: set[str]  # every name a directive of the file defines or tests, active or not
    top_level: set[str]  # names declared at the start of a line: the module's declarations, roughly

    @classmethod
    def of(cls, template: "TemplateFile") -> "Structure":
        data = template.data
        next_branch: dict[int, int] = {}
        declared: list[tuple[int, str]] = []
        open_branches: list[int] = []  # the latest branch line of each open block
        macro_names: set[str] = set()
        top_level: set[str] = set()
        for index, (start, end, _after) in enumerate(template.lines):
            match = _DIRECTIVE_NAME.match(data, start, end)
            if match is None:
                found = _DECLARED.match(data, start, end)
                if found is not None:
                    name = found.group(2).decode("ascii")
                    declared.append((index, name))
                    if not found.group(1):
                        top_level.add(name)
                continue
            name = match.group(1)
            if name in _OPENERS or name in _BRANCHES or name in (b"define", b"undef"):
                words = _WORD.findall(data, match.end(), end)
                if name == b"define":
                    words = words[:1]
                macro_names.update(w.decode("ascii") for w in words)
            if name in _OPENERS:
                open_branches.append(index)
            elif name in _BRANCHES and open_branches:
                next_branch[open_branches[-1]] = index
                open_branches[-1] = index
            elif name == b"endif" and open_branches:
                next_branch[open_branches.pop()] = index
        macro_names -= {"defined", "ifdef", "ifndef", "if", "true", "false"}
        return cls(next_branch, declared, macro_names, top_level)


class FileCache:
    """Reads each file once; a missing file is remembered as missing. One cache serves all variants."""

    def __init__(self, overlays: dict[Path, bytes] | None = None, workspace: tuple[Path, ...] = ()) -> None:
        # The folders files may be read from besides the include folders (the editor's workspace folders);
        # empty: the current folder (see preprocess.workspace_roots).
        self.workspace = tuple(Path(p) for p in workspace)
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
            if not path.resolve().is_relative_to(folder):
                continue  # a symbolic link out of the folder searched: not read (SECURITY.md)
            found = self.get(path)
            if found is None:
                continue
            match = _IMPORT_PATH.search(found.data)
            if match is not None:
                known.setdefault(match.group(1).decode("ascii", "replace"), path.resolve())
        self._import_paths[folder] = known
        return known
