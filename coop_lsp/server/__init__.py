"""The language server: a thin pygls adapter over `coop_lsp.ide`."""
