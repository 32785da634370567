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
_VERSION = '"version": '
_VERSION_0 = f"{_VERSION}0"
_MOST_ENVELOPES = 1024  # documents whose envelope is kept: a few strings each


class DiagnosticsJson:
    """Per document, the JSON of the diagnostics it was last published with, by the objects' identity
    (each entry holds its object, so that an id is not reused while its entry lives)."""

    def __init__(self, unstructure: Callable[[object], object],
                 envelope: Callable[[lsp.PublishDiagnosticsParams], str]) -> None:
        """`envelope(params)`: the serialisation of the notification of `params`, whose diagnostics are an
        empty list."""
        self._unstructure, self._envelope = unstructure, envelope
        self._last: dict[str, dict[int, tuple[lsp.Diagnostic, str]]] = {}
        # Per uri, the envelope of version 0 cut where its version is written (None: not cut, see below).
        self._envelopes: dict[str, tuple[str, str] | None] = {}

    def body(self, params: lsp.PublishDiagnosticsParams) -> str:
        """The notification's JSON text."""
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
        text = self._envelope_text(params)
        if not parts:
            return text
        at = text.index(_EMPTY) + len(_EMPTY) - 1
        return f"{text[:at]}{', '.join(parts)}{text[at:]}"

    def _envelope_text(self, params: lsp.PublishDiagnosticsParams) -> str:
        """`envelope` of the params without diagnostics. Their uri and version are all that is left, and an
        edit changes only the version: serialised once per document, with the version written in. An int
        is written as its repr whatever the text around it, and version 0's text is cut where it is written
        only where that is the one place that text occurs (the uri, a JSON string, holds no unescaped quote)."""
        version = params.version
        if type(version) is not int:
            return self._envelope(attrs.evolve(params, diagnostics=[]))
        halves = self._envelopes.get(params.uri, ())
        if halves == ():
            if len(self._envelopes) >= _MOST_ENVELOPES:
                self._envelopes.clear()
            template = self._envelope(attrs.evolve(params, version=0, diagnostics=[]))
            halves = tuple(template.split(_VERSION_0)) if template.count(_VERSION_0) == 1 else None
            self._envelopes[params.uri] = halves
        if halves is None:
            return self._envelope(attrs.evolve(params, diagnostics=[]))
        return f"{halves[0]}{_VERSION}{version!r}{halves[1]}"


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
