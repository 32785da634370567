"""Code actions and code lenses, and the run-kernel commands they lead to."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide import actions
from ...ide.watch_action import watch_action
from .. import run_command, tune_command
from ..run_command import _path
from ..server import CANCEL_RUN_COMMAND, RUN_KERNEL_COMMAND, TUNE_KERNEL_COMMAND, CoopLanguageServer
from .kernels import _compute_entry_points, _entry_point_at


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix,
                                                          lsp.CodeActionKind.RefactorRewrite,
                                                          lsp.CodeActionKind.Source]))
    async def code_action(params: lsp.CodeActionParams):
        uri = params.text_document.uri
        found = await ls.features(uri)
        if found is None:
            return None
        analysis, convert = found
        out = []
        for action in actions.code_actions(analysis, convert.span(params.range),
                                           ls.settings.apply(analysis.diagnostics_with_fixes())):
            out.append(lsp.CodeAction(
                title=action.title, kind=lsp.CodeActionKind.QuickFix, is_preferred=action.preferred,
                diagnostics=[convert.diagnostic(uri, action.diagnostic)] if action.diagnostic else None,
                edit=lsp.WorkspaceEdit(changes={uri: [convert.text_edit(e) for e in action.edits]})))
        # On an expression: watch it in the next run (a `// coop: watch` comment on its line).
        watch = watch_action(analysis, convert.span(params.range))
        if watch is not None:
            out.append(lsp.CodeAction(title=watch.title, kind=watch.kind,
                                      edit=lsp.WorkspaceEdit(changes={uri: [convert.text_edit(e)
                                                                            for e in watch.edits]})))
        # Inside a compute entry point: run it (the same command as its code lens).
        entry = _entry_point_at(analysis, convert.span(params.range).start)
        if entry is not None:
            out.append(lsp.CodeAction(title=f"Run kernel '{entry.name}'", kind=lsp.CodeActionKind.Source,
                                      command=lsp.Command(title="Run kernel", command=RUN_KERNEL_COMMAND,
                                                          arguments=[uri, entry.name])))
        return out

    @ls.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
    async def code_lens(params: lsp.CodeLensParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        uri = params.text_document.uri
        lenses = []
        for symbol in _compute_entry_points(analysis):
            lenses.append(lsp.CodeLens(range=convert.range(symbol.span), command=lsp.Command(
                title="Run kernel", command=RUN_KERNEL_COMMAND, arguments=[uri, symbol.name])))
            # Beside it, where the run description (or the configuration's variant sets) gives a space.
            if tune_command.tunable(_path(uri), symbol.name):
                lenses.append(lsp.CodeLens(range=convert.range(symbol.span), command=lsp.Command(
                    title="Tune kernel", command=TUNE_KERNEL_COMMAND, arguments=[uri, symbol.name])))
        return lenses

    run_command.register(ls, RUN_KERNEL_COMMAND, CANCEL_RUN_COMMAND, ls.republish)
    tune_command.register(ls, TUNE_KERNEL_COMMAND)
