"""coop-lsp's build: pure Python, plus the WGSL grammar compiled into coop_lsp.syntax._grammar.

Everything else about the distribution is in pyproject.toml. The grammar is compiled here, from
tree-sitter-wgsl/src (the one copy of the parser sources, which the sdist carries too), so that
`pip install` of a checkout, a git URL or the sdist needs a C compiler and nothing that a package
index would have to resolve: PyPI's `tree-sitter-wgsl` is somebody else's, empty, package.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

GRAMMAR_SOURCES = "tree-sitter-wgsl/src"
SOURCES = ["coop_lsp/syntax/_grammar.c", f"{GRAMMAR_SOURCES}/parser.c", f"{GRAMMAR_SOURCES}/scanner.c"]

# A free-threaded CPython has no stable ABI; everywhere else one abi3 wheel built for 3.11 serves
# every later CPython.
LIMITED_API = not sysconfig.get_config_var("Py_GIL_DISABLED")


def _needs() -> str:
    return ("a C compiler (gcc or clang, or the one named by $CC) and the Python development headers "
            f"(Python.h, from {sysconfig.get_paths()['include']}; on Debian/Ubuntu: apt install gcc python3-dev)")


class BuildGrammar(build_ext):
    """Compiles the grammar; a failure names this step and what it needs instead of only gcc's last words."""

    def build_extension(self, ext: Extension) -> None:
        root = Path(__file__).resolve().parent
        missing = [source for source in ext.sources if not (root / source).is_file()]
        if missing:
            raise CompileError(
                f"coop-lsp: building the WGSL grammar needs {', '.join(missing)}, which this source tree lacks; "
                "build from a full checkout of the repository or from the release sdist")
        if self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = ["/std:c11", "/utf-8"]
        else:
            # Hidden symbols: the same parser may be loaded twice in one process (the tree-sitter-wgsl
            # grammar package beside coop-lsp), and the two must not bind to each other's functions.
            ext.extra_compile_args = ["-std=c11", "-fvisibility=hidden"]
        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, ExecError, LinkError, PlatformError) as error:
            raise CompileError(
                f"coop-lsp: compiling the WGSL grammar ({', '.join(ext.sources)}) into {ext.name} failed: "
                f"{error}. This step needs {_needs()}.") from error


setup(
    ext_modules=[
        Extension(
            "coop_lsp.syntax._grammar",
            sources=SOURCES,
            include_dirs=[GRAMMAR_SOURCES],
            define_macros=[("TREE_SITTER_HIDE_SYMBOLS", None)]
            + ([("Py_LIMITED_API", "0x030B0000")] if LIMITED_API else []),
            py_limited_api=LIMITED_API,
        )
    ],
    cmdclass={"build_ext": BuildGrammar},
    options={"bdist_wheel": {"py_limited_api": "cp311"}} if LIMITED_API else {},
)
