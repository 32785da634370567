"""Every rule coop-lint reports: the layers that report them, gathered in one place.

Rules live beside the code that reports them and register themselves in
core/rules.py when their module is imported. This module imports them all, so
that whatever lists rules (selectors in the configuration, `coop-lint rules`,
docs/rules.md, completion of rule names) sees every one: the rules of the
layers every lint runs (syntax, source, semantic, lint), and those of each
analysis pass, read from the one list the engine runs (lint/passes.py). It
sits in the lint layer, above syntax, semantic, source and analysis, which
never import it.
"""

from __future__ import annotations

import importlib

from ..core.rules import Rule, find, registered  # noqa: F401 - find: look-ups in the full catalogue
from ..semantic import rules as _semantic  # noqa: F401
from ..source import rules as _source  # noqa: F401
from ..syntax import rules as _syntax  # noqa: F401
from . import rules as _lint  # noqa: F401
from .passes import PASSES

for _pass in PASSES:
    for _module in _pass.rule_modules:
        importlib.import_module(_module)


def all_rules() -> list[Rule]:
    return registered()
