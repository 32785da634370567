"""The compiled WGSL grammar that coop-lsp's build bundles (coop_lsp.syntax._grammar), and the one-line
error for an install that cannot parse.

An install can be broken in ways a traceback explains badly: the extension was never compiled (a
copied source tree), was compiled for another Python, or py-tree-sitter is missing or of another
ABI. Both entry points ask `problem()` before they start, and say what is missing in one line.
Importing this module costs nothing: the language server asks before it answers `initialize`.
"""

from __future__ import annotations

import functools
import importlib.machinery
import platform
import sys
from pathlib import Path

MODULE = "coop_lsp.syntax._grammar"


class BrokenInstall(RuntimeError):
    """coop-lsp cannot parse WGSL with what is installed; the message is one line that names the piece."""


def problem() -> str | None:
    """Why the grammar cannot be loaded, as one line; None when it loads."""
    try:
        load()
    except BrokenInstall as error:
        return str(error)
    return None


@functools.cache
def load():
    """The grammar as a tree_sitter.Language, made once for the entry point's check and every parser;
    BrokenInstall when a piece is missing or unusable."""
    try:
        import tree_sitter
    except ImportError as error:
        raise BrokenInstall(
            f"broken install: py-tree-sitter (module 'tree_sitter', distribution tree-sitter) cannot be "
            f"imported: {_one_line(error)}; reinstall coop-lsp so that pip installs its dependencies") from error
    try:
        from . import _grammar
    except ImportError as error:
        raise BrokenInstall(_unloadable(error)) from error
    try:
        return tree_sitter.Language(_grammar.language())
    except Exception as error:  # py-tree-sitter raises ValueError for a grammar ABI it does not load
        raise BrokenInstall(
            f"broken install: the compiled WGSL grammar ({_grammar.__file__}) does not load into py-tree-sitter "
            f"{_version('tree-sitter')}: {_one_line(error)}; reinstall coop-lsp, which pins the tree-sitter "
            "it was built for") from error


def _unloadable(error: ImportError) -> str:
    here = Path(__file__).resolve().parent
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found = sorted(path.name for path in here.glob("_grammar.*") if path.suffix in (".so", ".pyd", ".dylib"))
    python = f"{platform.python_implementation()} {sys.version_info.major}.{sys.version_info.minor}"
    fix = "reinstall coop-lsp with this Python (building it from source needs a C compiler)"
    if not found:
        return (f"broken install: the compiled WGSL grammar ({MODULE}, a file _grammar{suffixes[0]} or "
                f"_grammar.abi3.so) is missing from {here}; {fix}")
    # The import system looks for exactly _grammar + suffix: a plain ".so" suffix does not make
    # _grammar.cpython-312-x86_64-linux-gnu.so loadable by 3.11.
    if not any(name in (f"_grammar{suffix}" for suffix in suffixes) for name in found):
        return (f"broken install: the compiled WGSL grammar in {here} ({', '.join(found)}) was built for another "
                f"Python; {python} loads only {', '.join(suffixes)}; {fix}")
    return f"broken install: the compiled WGSL grammar ({here / found[0]}) cannot be loaded: {_one_line(error)}; {fix}"


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "(version unknown)"
