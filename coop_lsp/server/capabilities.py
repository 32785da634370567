"""What `initialize` answers, as plain data, so that the answer needs no import of pygls or lsprotocol
(about half a second on a busy machine).

It must equal what pygls computes from the registered features:
tests/test_server_fast_start.py compares the two for several clients and
prints the new table when a feature changes.
"""

from __future__ import annotations

import copy

from .. import __version__ as VERSION

# pygls's answer for a client that says nothing about itself, less the two entries that depend on the client.
CAPABILITIES = {'codeActionProvider': {'codeActionKinds': ['quickfix', 'refactor.rewrite', 'source']},
 'codeLensProvider': {'resolveProvider': False},
 'completionProvider': {'triggerCharacters': ['.', '@', '<', '(', ',', ' ']},
 'definitionProvider': True,
 'diagnosticProvider': {'identifier': 'coop-lsp',
                        'interFileDependencies': False,
                        'workspaceDiagnostics': True},
 'documentFormattingProvider': True,
 'documentHighlightProvider': True,
 'documentOnTypeFormattingProvider': {'firstTriggerCharacter': '}', 'moreTriggerCharacter': [';']},
 'documentRangeFormattingProvider': True,
 'documentSymbolProvider': True,
 'executeCommandProvider': {'commands': ['coop-lsp.runKernel', 'coop-lsp.cancelRun', 'coop-lsp.tuneKernel',
                                        'coop-lsp.variants', 'coop-lsp.selectVariant']},
 'foldingRangeProvider': True,
 'hoverProvider': True,
 'inlayHintProvider': {'resolveProvider': False},
 'referencesProvider': True,
 'selectionRangeProvider': True,
 'semanticTokensProvider': {'documentSelector': None,
                            'full': {'delta': True},
                            'legend': {'tokenModifiers': ['declaration', 'readonly', 'defaultLibrary'],
                                       'tokenTypes': ['namespace',
                                                      'type',
                                                      'struct',
                                                      'parameter',
                                                      'variable',
                                                      'property',
                                                      'enumMember',
                                                      'function',
                                                      'decorator']},
                            'range': True},
 'signatureHelpProvider': {'retriggerCharacters': [','], 'triggerCharacters': ['(', ',']},
 'textDocumentSync': {'change': 2, 'openClose': True, 'save': True},
 'workspace': {'fileOperations': {}, 'workspaceFolders': {'changeNotifications': True, 'supported': True}},
 'workspaceSymbolProvider': {'resolveProvider': False}}

_ENCODINGS = ("utf-8", "utf-16", "utf-32")


def initialize_result(params: dict) -> dict:
    """The InitializeResult (as JSON) for a client's InitializeParams (as JSON), as pygls would build it."""
    client = params.get("capabilities") if isinstance(params, dict) else None
    client = client if isinstance(client, dict) else {}
    capabilities = copy.deepcopy(CAPABILITIES)
    capabilities["positionEncoding"] = _position_encoding(client)
    rename = _get(client, "textDocument", "rename", "prepareSupport")
    # LSP: RenameOptions only for clients that announce prepareSupport.
    capabilities["renameProvider"] = {"prepareProvider": True} if rename else True
    for name in ("willSave", "willSaveWaitUntil"):
        # pygls: the client's flag "and" whether the server has the feature (it does not): absent stays absent.
        flag = _get(client, "textDocument", "synchronization", name)
        if flag is not None:
            capabilities["textDocumentSync"][name] = flag and False
    return {"capabilities": capabilities, "serverInfo": {"name": "coop-lsp", "version": VERSION}}


def _position_encoding(client: dict) -> str:
    offered = _get(client, "general", "positionEncodings")
    if isinstance(offered, list):
        for encoding in offered:
            if encoding in _ENCODINGS:
                return encoding
    return "utf-16"


def _get(value, *keys):
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value
