"""The server's LSP handlers, one module per feature.

Each module's `register(ls)` adds its handlers to the server; the handlers are thin: they convert the
request, ask `coop_lsp.ide` on the document's `Analysis`, and convert the answer (server.py keeps the
document state, scheduling and publishing they share).
"""

from __future__ import annotations

from . import (actions, completion, formatting, hover, lifecycle, navigation, presentation, pull_diagnostics,
               semantic_tokens, symbols, sync, variants)

# The order in which they were registered when they were one function; pygls does not depend on it.
FEATURES = (lifecycle, sync, pull_diagnostics, hover, navigation, symbols, completion, semantic_tokens,
            presentation, formatting, actions, variants)


def register_all(ls) -> None:
    for feature in FEATURES:
        feature.register(ls)
