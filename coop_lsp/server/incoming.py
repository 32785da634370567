"""didChange notifications made into lsprotocol objects without cattrs.

Every keystroke is a didChange, and cattrs's structuring of it (the message, its params, the identifier, each
change, range and position, with a union to tell partial changes from whole ones) was most of what reading
it cost. A didChange of the usual shape is built here with the same constructors (so the same validators)
and the very values: only ints that are ints and strs that are strs, the keys of each object exactly those
expected. Anything else (a key more or less, a number given as a string, a bool, a field its validator
refuses) goes to cattrs as before: None says so.
"""

from __future__ import annotations

import json

from lsprotocol import types as lsp

_METHOD = lsp.TEXT_DOCUMENT_DID_CHANGE
_MESSAGE_KEYS = frozenset(("jsonrpc", "method", "params"))
_PARAMS_KEYS = frozenset(("textDocument", "contentChanges"))
_IDENTIFIER_KEYS = frozenset(("uri", "version"))
_PARTIAL_KEYS = frozenset(("range", "text"))
_RANGE_KEYS = frozenset(("start", "end"))
_POSITION_KEYS = frozenset(("line", "character"))


def did_change(data: dict) -> lsp.DidChangeTextDocumentNotification | None:
    """The notification cattrs would make of `data`, or None where this does not vouch for being the same."""
    if data.get("method") != _METHOD or data.keys() != _MESSAGE_KEYS or type(data["jsonrpc"]) is not str:
        return None
    params = data["params"]
    if type(params) is not dict or params.keys() != _PARAMS_KEYS:
        return None
    identifier, changes = params["textDocument"], params["contentChanges"]
    if type(identifier) is not dict or identifier.keys() != _IDENTIFIER_KEYS or type(changes) is not list:
        return None
    uri, version = identifier["uri"], identifier["version"]
    if type(uri) is not str or type(version) is not int:
        return None
    made = []
    try:
        for change in changes:
            if type(change) is not dict or type(change.get("text")) is not str:
                return None
            if len(change) == 1:
                made.append(lsp.TextDocumentContentChangeWholeDocument(text=change["text"]))
                continue
            if change.keys() != _PARTIAL_KEYS:
                return None
            where = change["range"]
            if type(where) is not dict or where.keys() != _RANGE_KEYS:
                return None
            made.append(lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=_position(where["start"]), end=_position(where["end"])), text=change["text"]))
        return lsp.DidChangeTextDocumentNotification(
            params=lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
                content_changes=tuple(made)),
            method=data["method"], jsonrpc=data["jsonrpc"])
    except (_NotPlain, ValueError, TypeError):
        return None  # cattrs makes of it what it did before, its errors included


class _NotPlain(Exception):
    pass


def _position(data) -> lsp.Position:
    if type(data) is not dict or data.keys() != _POSITION_KEYS:
        raise _NotPlain
    line, character = data["line"], data["character"]
    if type(line) is not int or type(character) is not int:
        raise _NotPlain
    return lsp.Position(line=line, character=character)


_DID_CHANGE = b'"' + _METHOD.encode() + b'"'


class Decoder:
    """What pygls's message loop makes of a body: json.loads(body, object_hook=structure), but with one
    decoder for every message (json.loads builds one per call when given a hook), and a didChange of the
    usual shape decoded without the hook. The hook (CoopProtocol.structure_message) hands back every
    object without a "jsonrpc" key as it is, and `did_change` accepts only objects whose keys it names,
    "jsonrpc" only at the top: where it accepts the plain decoding, the hook would have left every inner
    object as it is, and made of the top one what `did_change` makes. Anything else, undecodable text
    included, is decoded with the hook, as before."""

    def __init__(self, structure) -> None:
        self._hooked = json.JSONDecoder(object_hook=structure)
        self._plain = json.JSONDecoder()

    def message(self, body: bytes):
        text = body.decode(json.detect_encoding(body), "surrogatepass")  # as json.loads decodes bytes
        if body.find(_DID_CHANGE) >= 0:  # (not `in`, which raises and drops a TypeError first for bytes)
            try:
                data = self._plain.decode(text)
            except Exception:  # noqa: BLE001 - decoded again below, where pygls's errors come from
                data = None
            if type(data) is dict and (change := did_change(data)) is not None:
                return change
        return self._hooked.decode(text)
