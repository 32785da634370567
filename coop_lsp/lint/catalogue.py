"""Every rule coop-lint reports: the layers that report them, gathered in one place.

Rules live beside the code that reports them and register themselves in
core/rules.py when their module is imported. This module imports them all, so
that whatever lists rules (selectors in the configuration, `coop-lint rules`,
docs/rules.md, completion of rule names) sees every one. It sits in the lint
layer, above syntax, semantic, source and analysis, which never import it.
"""

from __future__ import annotations

from ..analysis import accumulation as _accumulation  # noqa: F401
from ..analysis import configs as _configuration  # noqa: F401
from ..analysis import lanes as _lanes  # noqa: F401
from ..analysis.performance import rules as _performance  # noqa: F401
from ..analysis.uniformity import rules as _uniformity  # noqa: F401
from ..core.rules import Rule, find, registered  # noqa: F401 - find: look-ups in the full catalogue
from ..semantic import rules as _semantic  # noqa: F401
from ..source import rules as _source  # noqa: F401
from ..syntax import rules as _syntax  # noqa: F401
from . import rules as _lint  # noqa: F401


def all_rules() -> list[Rule]:
    return registered()
