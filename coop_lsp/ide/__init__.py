"""Editor features as plain data: no LSP types, no server.

Every function here takes an `Analysis` (one version of one document, linted
once) and byte offsets, and returns dataclasses holding byte spans. The
server converts spans to the client's line/column encoding; the tests call
these functions directly.
"""

from .analysis import Analysis

__all__ = ["Analysis"]
