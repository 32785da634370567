"""Source layer: templates (C-like directives, naga_oil, WESL, placeholders) to WGSL with an origin map.

Below syntax: it knows text and files, nothing of WGSL's meaning. Plain WGSL passes through untouched.

The names below load on first use, so that `source.sniff` (the byte test every lint and every
keystroke makes) costs nothing for plain files; expanding a template imports the rest.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "FileCache": "files", "OriginMap": "origin", "Piece": "origin",
    "Expansion": "preprocess", "Problem": "preprocess", "expand": "preprocess", "is_template": "preprocess",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
