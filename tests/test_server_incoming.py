"""didChange messages built without cattrs (server/incoming.py): the same objects as pygls's structuring of
the same JSON, on real editing sessions and on messages bent out of the usual shape, or the same error;
and no cattrs call for a didChange of the usual shape."""

from __future__ import annotations

import copy
import json
import random

import pytest
from pygls.protocol import JsonRPCProtocol

from coop_lsp.server import incoming
from tests.support import did_change_messages as messages
from coop_lsp.server.server import create_server


@pytest.fixture(scope="module")
def protocol():
    ls = create_server()
    yield ls.protocol
    ls.analysis_executor.shutdown(wait=False)


def _decoded(text: str, structure):
    """What json.loads with `structure` as its object hook makes of `text` (as pygls's reading loop does),
    or the error it raises, by type and words."""
    try:
        return json.loads(text, object_hook=structure)
    except Exception as error:  # noqa: BLE001 - compared between the two ways
        return ("raised", type(error), str(error), type(error.__cause__))


def test_a_usual_did_change_is_built_as_cattrs_builds_it(protocol):
    rng = random.Random(37)
    built = 0
    for _ in range(1500):
        text = json.dumps(messages.message(rng))
        ours = _decoded(text, protocol.structure_message)
        theirs = _decoded(text, lambda data: JsonRPCProtocol.structure_message(protocol, data))
        assert ours == theirs and repr(ours) == repr(theirs)
        assert type(ours) is type(theirs)
        built += incoming.did_change(json.loads(text)) is not None
    assert built > 1450  # the fast way, not the fallback, was compared (some ranges are backwards: allowed)


def test_a_did_change_out_of_the_usual_shape_is_what_cattrs_makes_of_it(protocol):
    rng = random.Random(38)
    fast = slow = 0
    for _ in range(2500):
        bent = messages.bent(rng, messages.message(rng))
        text = json.dumps(bent)
        ours = _decoded(text, protocol.structure_message)
        theirs = _decoded(text, lambda data: JsonRPCProtocol.structure_message(protocol, data))
        if isinstance(ours, tuple):
            # An error: pygls's, or the server's InvalidParams answer for a malformed request (an id added).
            assert isinstance(theirs, tuple) and ours == theirs
            continue
        if type(ours).__name__ == "_Malformed":
            assert isinstance(theirs, tuple)
            continue
        assert ours == theirs and repr(ours) == repr(theirs) and type(ours) is type(theirs)
        if incoming.did_change(json.loads(text)) is None:
            slow += 1
        else:
            fast += 1
    assert fast > 50 and slow > 500  # both ways were compared


def test_types_that_cattrs_converts_are_left_to_it():
    message = {"jsonrpc": "2.0", "method": "textDocument/didChange",
               "params": {"textDocument": {"uri": "file:///a.wgsl", "version": 2},
                          "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                                        "end": {"line": 0, "character": 1}}, "text": "x"}]}}
    assert incoming.did_change(message) is not None
    for path, value in [(("params", "textDocument", "version"), "2"), (("params", "textDocument", "version"), True),
                        (("params", "textDocument", "uri"), 1), (("jsonrpc",), 2.0)]:
        bent = copy.deepcopy(message)
        target = bent
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        assert incoming.did_change(bent) is None
    with_length = copy.deepcopy(message)
    with_length["params"]["contentChanges"][0]["rangeLength"] = 1
    assert incoming.did_change(with_length) is None
    with_id = dict(message, id=1)
    assert incoming.did_change(with_id) is None


class _Counting:
    """pygls's converter, counting its `structure` calls."""

    def __init__(self, inner) -> None:
        self.inner, self.calls = inner, 0

    def structure(self, *args, **kwargs):
        self.calls += 1
        return self.inner.structure(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_did_change_is_not_structured_by_cattrs(protocol):
    """pygls hands each didChange to cattrs (one structure call for the message, the rest inside it)."""
    counting = protocol._converter = _Counting(protocol._converter)
    try:
        rng = random.Random(39)
        for _ in range(50):
            message = json.loads(json.dumps(messages.message(rng)), object_hook=protocol.structure_message)
            assert type(message).__name__ == "DidChangeTextDocumentNotification"
        assert counting.calls == 0
        json.loads(json.dumps(dict(messages.message(rng), id=1)), object_hook=protocol.structure_message)
        assert counting.calls == 1  # it counts: a request of the same method is cattrs's
    finally:
        protocol._converter = counting.inner
