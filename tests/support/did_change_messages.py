"""didChange messages as editors send them, and bent out of that shape (tests/test_server_incoming.py,
tests/test_server_message_loop.py)."""

from __future__ import annotations

import copy
import random


def changes(rng: random.Random) -> list:
    out = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        if rng.random() < 0.15:
            out.append({"text": rng.choice(["", "fn main() {}\n", "é🙂\n", "\ud800"])})
            continue
        start = {"line": rng.randrange(2000), "character": rng.randrange(200)}
        end = {"line": start["line"] + rng.choice([0, 0, 1]), "character": rng.randrange(200)}
        out.append({"range": {"start": start, "end": end}, "text": rng.choice(["", "x", "\n", "// é\n", "\"\\", "🙂"])})
    return out


def message(rng: random.Random) -> dict:
    return {"jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": rng.choice(["file:///a.wgsl", "file:///b%20c/é.wgsl", "untitled:1"]),
                                        "version": rng.randrange(1, 10**6)},
                       "contentChanges": changes(rng)}}


_ODD_VALUES = [None, True, False, "3", 3.0, 3.5, -1, 2**31, 2**40, [], {}, [1], "", {"line": 1}]


def bent(rng: random.Random, message: dict) -> dict:
    """`message` with one thing out of the usual shape: a value replaced, a key added or removed."""
    bent = copy.deepcopy(message)
    objects = []

    def walk(value):
        if isinstance(value, dict):
            objects.append(value)
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            objects.append(value)
            for inner in value:
                walk(inner)
    walk(bent)
    target = rng.choice(objects)
    if isinstance(target, list):
        if target and rng.random() < 0.5:
            target[rng.randrange(len(target))] = rng.choice(_ODD_VALUES)
        else:
            target.append(rng.choice(_ODD_VALUES))
        return bent
    action = rng.choice(["replace", "replace", "add", "remove"])
    if action == "add" or not target:
        target[rng.choice(["rangeLength", "extra", "id", "version", "uri", "range"])] = rng.choice(_ODD_VALUES + [0, 4])
    elif action == "remove":
        del target[rng.choice(sorted(target))]
    else:
        target[rng.choice(sorted(target))] = rng.choice(_ODD_VALUES)
    return bent
