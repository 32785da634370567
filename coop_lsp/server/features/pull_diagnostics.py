"""Pull diagnostics: one document's, and the workspace's."""

from __future__ import annotations

import os
from pathlib import Path

from lsprotocol import types as lsp

from ..server import MAX_WORKSPACE_FILES, CoopLanguageServer


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC,
                lsp.DiagnosticOptions(identifier="coop-lsp", inter_file_dependencies=False,
                                      workspace_diagnostics=True))
    async def document_diagnostic(params: lsp.DocumentDiagnosticParams):
        state = ls.state(params.text_document.uri)
        if state is None:
            return lsp.RelatedFullDocumentDiagnosticReport(items=[])
        await ls.settle_in_worker(state)
        kept = state.resting_diagnostics
        if state.resting and kept is not None and kept[0] == state.version:
            result_id = f"rest-{state.version}"
            if params.previous_result_id == result_id:
                return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
            return lsp.RelatedFullDocumentDiagnosticReport(items=kept[1], result_id=result_id)
        analysis = await ls.analysis(state)
        result_id = f"{id(analysis)}-{analysis.version}"
        if params.previous_result_id == result_id:
            return lsp.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return lsp.RelatedFullDocumentDiagnosticReport(
            items=ls.lsp_diagnostics(state.uri, analysis), result_id=result_id)

    @ls.feature(lsp.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(params: lsp.WorkspaceDiagnosticParams):
        files = []
        for folder in ls.workspace_folder_paths():
            for root, dirs, names in os.walk(folder):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "target")]
                files += [Path(root) / n for n in names if n.endswith(".wgsl")]
                if len(files) >= MAX_WORKSPACE_FILES:
                    break
        files = files[:MAX_WORKSPACE_FILES]
        token = params.work_done_token
        if token is not None:
            ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(
                title="coop-lsp: checking the workspace", percentage=0, cancellable=False))
        items = []
        try:
            for index, path in enumerate(files):
                uri = path.as_uri()
                state = ls.documents.get(uri) or ls.state(uri)
                if state is None:
                    continue
                analysis = await ls.analysis(state)
                items.append(lsp.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, version=state.version if state.opened else None,
                    items=ls.lsp_diagnostics(uri, analysis)))
                if token is not None and index % 10 == 0:
                    ls.work_done_progress.report(token, lsp.WorkDoneProgressReport(
                        message=path.name, percentage=int(100 * index / max(len(files), 1))))
        finally:
            if token is not None:
                ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=f"{len(files)} files"))
            ls.rest_the_others()
        return lsp.WorkspaceDiagnosticReport(items=items)

