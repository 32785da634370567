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
    """A request's result as JSON text, sent as it is (CoopProtocol._send_response), for a response of
    `response_type`: for any other (a client of another protocol version), `slow()` is the result as
    lsprotocol objects, serialised by pygls."""

    __slots__ = ("text", "response_type", "slow")

    def __init__(self, text: str, response_type: type, slow: Callable[[], object]) -> None:
        self.text, self.response_type, self.slow = text, response_type, slow


def response_text(msg_id, result: ResultJson) -> str:
    """What pygls writes for `response_type(id=msg_id, result=...)`: lsprotocol's response classes
    unstructure to their fields in order (id, result, jsonrpc), each with json.dumps's default options."""
    return f'{{"id": {json.dumps(msg_id)}, "result": {result.text}, "jsonrpc": "2.0"}}'
