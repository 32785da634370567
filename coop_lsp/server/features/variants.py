"""The template commands: the variant sets of a document, and the one the editor shows."""

from __future__ import annotations

from ..server import SELECT_VARIANT_COMMAND, VARIANTS_COMMAND, CoopLanguageServer


def register(ls: CoopLanguageServer) -> None:
    @ls.command(VARIANTS_COMMAND)
    async def variants_command(*args):
        """[uri] -> {variants, active}: the variant sets of a template and the one the editor shows."""
        params = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        if not params or not isinstance(params[0], str):
            return {"variants": [], "active": None}
        found = await ls.features(params[0])
        template = found[0].template if found is not None else None
        if template is None:
            return {"variants": [], "active": None}
        return {"variants": list(template.variants), "active": template.active}

    @ls.command(SELECT_VARIANT_COMMAND)
    async def select_variant_command(*args):
        """[uri, name]: the variant whose findings, left-out lines, hover and navigation the editor shows."""
        params = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        if len(params) < 2 or not isinstance(params[0], str) or not isinstance(params[1], str):
            return "coop-lsp.selectVariant expects [uri, variant name]"
        uri, name = params[0], params[1]
        ls.active_variants[uri] = name
        state = ls.documents.get(uri)
        if state is not None:
            state.analysis = state.analysis_key = None
            state.inflight = state.inflight_key = None
            ls.schedule_diagnostics(state, delay=0)
            found = await ls.features(uri)
            template = found[0].template if found is not None else None
            if template is not None and template.active != name:
                ls.active_variants.pop(uri, None)
                return f"no variant named '{name}' (known: {', '.join(template.variants) or 'none'})"
        return name
