"""Which files a coop-lint invocation covers.

Folders are searched for .wgsl files (and, with --hosts, for Python,
JavaScript/TypeScript and Rust files that may embed WGSL). What git ignores
is skipped: inside a git work tree git itself is asked (`git ls-files
--cached --others --exclude-standard`, so tracked files always count);
elsewhere the .gitignore files of the folders walked are read by a small
matcher. The configuration's `exclude` patterns apply to folders walked, and
to files named on the command line only with --force-exclude.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from ..lint.config import ConfigFinder, glob_regex
from ..source.hosts import HOST_SUFFIXES

WGSL_SUFFIXES = frozenset({".wgsl", ".wesl"})
# Folders no one wants linted, git or not.
_SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", "target",
                           ".tox"})


class UsageError(Exception):
    """A mistake in how coop-lint was called; exit status 2."""


def collect(paths: list[str], finder: ConfigFinder | None = None, hosts: bool = False,
            force_exclude: bool = False, on_empty: Callable[[str, str], None] | None = None) -> Iterator[Path]:
    """The files named, and the files to lint below the folders named, in a stable order.

    A folder that yields nothing is reported to `on_empty` with the reason, so that a CI job
    whose path is mistyped or ignored does not pass while checking nothing.
    """
    finder = finder or ConfigFinder(isolated=True)
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = False
            for file in _walk(path, finder, hosts):
                found = True
                yield file
            if not found and on_empty is not None:
                on_empty(name, _why_empty(path, finder, hosts))
        elif path.exists() or path.is_symlink():
            if force_exclude and finder.for_path(path).excludes(path):
                if on_empty is not None:
                    on_empty(name, "excluded by the configuration's `exclude` (--force-exclude)")
                continue
            yield path
        else:
            raise UsageError(f"{name}: no such file or directory")


def _wanted(path: Path, finder: ConfigFinder, hosts: bool) -> bool:
    suffix = path.suffix.lower()
    if suffix in WGSL_SUFFIXES:
        return True
    return suffix in HOST_SUFFIXES and (hosts or finder.for_path(path).hosts)


def _walk(root: Path, finder: ConfigFinder, hosts: bool) -> Iterator[Path]:
    listed = _git_files(root)
    if listed is None:
        listed = _walk_with_gitignore(root, finder)
    found = []
    for path in listed:
        if any(part in _SKIPPED_DIRS for part in path.relative_to(root).parts[:-1]):
            continue
        if not _wanted(path, finder, hosts) or finder.for_path(path).excludes(path):
            continue
        found.append(path)
    yield from sorted(found, key=lambda p: p.parts)


def _why_empty(root: Path, finder: ConfigFinder, hosts: bool) -> str:
    kind = "WGSL (or host) files" if hosts else ".wgsl files"
    on_disk = [Path(d, f) for d, subdirs, files in os.walk(root) for f in files
               if not (set(Path(d).relative_to(root).parts) & _SKIPPED_DIRS)]
    wanted = [p for p in on_disk if _wanted(p, finder, hosts)]
    if not wanted:
        return f"no {kind} in it"
    if all(finder.for_path(p).excludes(p) for p in wanted):
        return f"its {kind} are excluded by the configuration's `exclude`"
    return f"its {kind} are ignored by git (.gitignore or .git/info/exclude)"


def _git_files(root: Path) -> list[Path] | None:
    """Files below `root` that git does not ignore; None when `root` is not in a git work tree."""
    try:
        # The repository's own .git/config may name a program as its file-system monitor, which
        # `git ls-files` would run: a zip or tarball of a repository brings its .git/config along.
        completed = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"],
            capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if completed.returncode != 0:
        return None
    paths = []
    for entry in completed.stdout.split(b"\0"):
        if not entry:
            continue
        path = root / os.fsdecode(entry)
        if path.is_file():  # deleted but still tracked files drop out here
            paths.append(path)
    return paths


def _walk_with_gitignore(root: Path, finder: ConfigFinder) -> list[Path]:
    rules_of: dict[str, list[tuple[str, object, bool, bool]]] = {}
    found = []
    for directory, subdirs, files in os.walk(root):
        rel_dir = Path(directory).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        parent = rules_of.get(rel_dir.rpartition("/")[0], []) if rel_dir else []
        rules = parent + _read_gitignore(Path(directory) / ".gitignore", rel_dir)
        rules_of[rel_dir] = rules
        kept = []
        for sub in sorted(subdirs):
            rel = f"{rel_dir}/{sub}" if rel_dir else sub
            if sub in _SKIPPED_DIRS or _ignored(rules, rel, True) or finder.for_path(Path(directory, sub)).excludes(
                    Path(directory, sub)):
                continue
            kept.append(sub)
        subdirs[:] = kept
        for file in sorted(files):
            rel = f"{rel_dir}/{file}" if rel_dir else file
            if not _ignored(rules, rel, False):
                found.append(Path(directory, file))
    return found


def _read_gitignore(path: Path, base: str) -> list[tuple[str, object, bool, bool]]:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    rules = []
    for line in lines:
        line = line.rstrip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        if line.startswith("\\"):
            line = line[1:]
        dir_only = line.endswith("/")
        rules.append((base, glob_regex(line), negated, dir_only))
    return rules


def _ignored(rules, relative: str, is_dir: bool) -> bool:
    ignored = False
    for base, regex, negated, dir_only in rules:
        if dir_only and not is_dir:
            continue
        if base:
            if not relative.startswith(base + "/"):
                continue
            sub = relative[len(base) + 1 :]
        else:
            sub = relative
        if regex.match(sub):
            ignored = not negated
    return ignored
