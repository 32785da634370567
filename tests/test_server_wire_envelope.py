"""publishDiagnostics' envelope (everything but the diagnostics) serialised once per document and the version
written in (server/wire.py): byte for byte pygls's serialisation, over uris that hold what the cut looks
for and versions of every kind; and made once per document while typing, not once per publication."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types as lsp
from pygls.protocol import JsonRPCProtocol

from coop_lsp.server.server import create_server
from tests.test_server_wire import Written

PUBLISH = lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
URIS = ["file:///a.wgsl", "file:///version.wgsl", 'file:///"version": 0.wgsl', "file:///x/\"version\":%200",
        'untitled:"version": 0, "version": 0', "file:///é/🙂.wgsl", "file:///back\\slash\n\"", "", "0"]
VERSIONS = [None, 0, 1, 7, 10, 2**31 - 1, -1, -(2**31), 123456]


@pytest.fixture()
def protocol():
    ls = create_server()
    yield ls.protocol
    ls.analysis_executor.shutdown(wait=False)


def _written(protocol, notify, params) -> bytes:
    protocol.writer = Written()
    notify(PUBLISH, params)
    return b"".join(protocol.writer.chunks)


def _diagnostic(rng: random.Random) -> lsp.Diagnostic:
    at = lsp.Position(line=rng.randrange(100), character=rng.randrange(80))
    return lsp.Diagnostic(range=lsp.Range(start=at, end=at), message=rng.choice(['"version": 0', "x é", "m"]),
                          severity=lsp.DiagnosticSeverity.Warning, code="W001", source="coop-lsp")


def test_the_envelope_is_pygls_serialisation_byte_for_byte(protocol):
    rng = random.Random(22)
    compared = 0
    for _ in range(3):
        for uri in URIS:
            for version in VERSIONS + [rng.randrange(10**6) for _ in range(5)]:
                diagnostics = [_diagnostic(rng) for _ in range(rng.choice([0, 0, 1, 3]))]
                params = lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
                ours = _written(protocol, protocol.notify, params)
                theirs = _written(protocol, lambda method, p: JsonRPCProtocol.notify(protocol, method, p), params)
                assert ours == theirs
                compared += 1
    assert compared > 300


def test_uris_that_hold_the_versions_text_are_cut_once_too(protocol):
    """A JSON string escapes its quotes, so a uri never holds the text where version 0 is cut."""
    made = []
    publication = protocol.diagnostics_json._envelope
    protocol.diagnostics_json._envelope = lambda params: made.append(params) or publication(params)
    protocol.writer = Written()
    for version in (1, 2, 3):
        for uri in URIS:
            protocol.notify(PUBLISH, lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[]))
    assert sorted(p.uri for p in made) == sorted(URIS)
    assert all(p.version == 0 for p in made)


class _Counting:
    """pygls's converter, counting the publishDiagnostics notifications handed to `unstructure`."""

    def __init__(self, inner) -> None:
        self.inner, self.notifications = inner, 0

    def unstructure(self, obj, *args, **kwargs):
        if isinstance(getattr(obj, "params", None), lsp.PublishDiagnosticsParams):
            self.notifications += 1
        return self.inner.unstructure(obj, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_the_envelope_is_made_once_per_document(protocol):
    """pygls unstructures the whole notification for every publication, an edit's too."""
    counting = protocol._converter = _Counting(protocol._converter)
    protocol.writer = Written()
    for version in range(1, 30):
        for uri in ("file:///a.wgsl", "file:///b.wgsl"):
            protocol.notify(PUBLISH, lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[]))
    assert len(protocol.writer.chunks) == 58
    assert counting.notifications == 2
