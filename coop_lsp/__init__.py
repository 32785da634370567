"""coop-lsp: language server and CI linter for WGSL cooperative / subgroup matrix kernels."""

__version__ = "0.2.0"
