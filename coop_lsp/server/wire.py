"""publishDiagnostics as JSON, put together from each diagnostic's JSON kept from the publication before.

pygls serialises a notification by unstructuring it (cattrs visits every field of every diagnostic) and
encoding the whole. An edit publishes mostly the very lsprotocol objects of the version before
(convert.ConvertedDiagnostics keeps a finding's form while its lines, columns and words stay), so each
object's JSON is made once. The text is pygls's, character for character: the envelope is pygls's own
serialisation of the message without diagnostics, and an object's JSON inside a JSON document, as
json.dumps writes it with the same (default) options, is json.dumps of the object alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import attrs
from lsprotocol import types as lsp

# The list the envelope holds in place of the diagnostics. A JSON string holds no unescaped quote, so the
# uri (the one string before it) cannot contain this text: its first occurrence is the key's.
_EMPTY = '"diagnostics": []'


class DiagnosticsJson:
    """Per document, the JSON of the diagnostics it was last published with, by the objects' identity
    (each entry holds its object, so that an id is not reused while its entry lives)."""

    def __init__(self, unstructure: Callable[[object], object]) -> None:
        self._unstructure = unstructure
        self._last: dict[str, dict[int, tuple[lsp.Diagnostic, str]]] = {}

    def body(self, params: lsp.PublishDiagnosticsParams, envelope: Callable[[lsp.PublishDiagnosticsParams], str]) -> str:
        """The notification's JSON text; `envelope(params)` is the serialisation of a message whose
        diagnostics are an empty list."""
        last = self._last.get(params.uri, {})
        kept: dict[int, tuple[lsp.Diagnostic, str]] = {}
        parts = []
        for form in params.diagnostics:
            entry = last.get(id(form))
            if entry is None or entry[0] is not form:
                entry = (form, json.dumps(self._unstructure(form)))
            kept[id(form)] = entry
            parts.append(entry[1])
        # Only the last publication's: what is kept never outgrows the document's findings.
        if kept:
            self._last[params.uri] = kept
        else:
            self._last.pop(params.uri, None)  # cleared (closed, or no findings): nothing to keep
        text = envelope(attrs.evolve(params, diagnostics=[]))
        if not parts:
            return text
        at = text.index(_EMPTY) + len(_EMPTY) - 1
        return f"{text[:at]}{', '.join(parts)}{text[at:]}"


class ResultJson:
    """A request's result as JSON text, sent as it is (CoopProtocol._send_response); `slow()` is the same
    result as lsprotocol objects, for pygls to serialise where the text would not be its own."""

    __slots__ = ("text", "slow")

    def __init__(self, text: str, slow: Callable[[], object]) -> None:
        self.text, self.slow = text, slow


def response_text(msg_id, result: ResultJson) -> str:
    """What pygls writes for its answer to a client's request: a JsonRPCResponseMessage (the response type
    pygls picks for a request it did not send itself), whose fields unstructure in their order."""
    return f'{{"id": {json.dumps(msg_id)}, "jsonrpc": "2.0", "result": {result.text}}}'
