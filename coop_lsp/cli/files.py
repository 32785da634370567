"""Which files a coop-lint invocation covers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

WGSL_SUFFIXES = frozenset({".wgsl"})
# Folders no one wants linted; .gitignore handling comes with the CLI's
# configuration support.
_SKIPPED_DIRS = frozenset({".git", ".venv", "venv", "node_modules", "__pycache__", "target", ".tox"})


class UsageError(Exception):
    """A mistake in how coop-lint was called; exit status 2."""


def collect(paths: list[str]) -> Iterator[Path]:
    """The files named, and every .wgsl file below the folders named, in a stable order."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from _walk(path)
        elif path.exists() or path.is_symlink():
            yield path
        else:
            raise UsageError(f"{name}: no such file or directory")


def _walk(root: Path) -> Iterator[Path]:
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in _SKIPPED_DIRS)
        for file in sorted(files):
            path = Path(directory, file)
            if path.suffix in WGSL_SUFFIXES:
                yield path
