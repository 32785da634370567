"""Builds the WGSL grammar into a C extension at install time.

The parser sources are generated from tree-sitter-wgsl/grammar.js and
committed, so installing needs a C compiler but not the tree-sitter CLI.
"""

from setuptools import Extension, setup

GRAMMAR_SRC = "tree-sitter-wgsl/src"

setup(
    ext_modules=[
        Extension(
            "coop_lsp.syntax._wgsl",
            sources=[
                "coop_lsp/syntax/_wgsl_binding.c",
                f"{GRAMMAR_SRC}/parser.c",
                f"{GRAMMAR_SRC}/scanner.c",
            ],
            include_dirs=[GRAMMAR_SRC],
            extra_compile_args=["-std=c11", "-O2"],
            # The limited API keeps one wheel valid for every Python >= 3.11.
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
        )
    ],
)
