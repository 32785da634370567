"""Rules of the lint layer itself."""

from ..core.diagnostic import Severity
from ..core.rules import Rule, register

INTERNAL_ERROR = register(Rule(
    code="X001", name="internal_error", severity=Severity.ERROR, layer="lint",
    summary="coop-lint failed while checking this file; please report it.",
    explanation="A check raised an unexpected exception. The other checks still ran, so the rest of "
                "the diagnostics are valid; this one says that some may be missing.",
    suppressible=False,
))
