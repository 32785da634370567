"""`coop-lint run --show-lowered`: the WGSL that would run, with the kernel's prints and watches (and
`--watch EXPR@LINE`) instrumented as a run instruments them (coop_lsp/runner/debug_print.py), so that what
the backend compiles can be read, line for line, before anything runs."""

from __future__ import annotations

from .debug_print import emulated_shares, instrument_module, sites_of
from .kernel import load_kernel
from .lowering import emulate, to_tint

EMULATED_LANES = 32  # emulate()'s own default: the subgroup size a --show-lowered without a run shows


def lowered_text(text: str, backend: str | None, debug: dict | None = None,
                 entry_point: str | None = None) -> str:
    """The kernel as `backend` ("dawn": translated for Tint; otherwise emulated) would compile it."""
    sites, text = sites_of(text, debug)
    instrumented = None
    if sites:
        module = load_kernel(text)
        entry = module.entry_point(entry_point)
        emulated = backend != "dawn"
        instrumented, text, module = instrument_module(text, module, sites, entry.name, emulated, EMULATED_LANES,
                                                       debug)
    if backend == "dawn":
        return to_tint(text).text
    code = emulate(text, EMULATED_LANES).text
    return emulated_shares(code, instrumented) if instrumented is not None else code
