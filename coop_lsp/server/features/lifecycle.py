"""Initialize, configuration changes and shutdown."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide.settings import Settings
from ..server import CONFIG_SECTION, CoopLanguageServer


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams):
        options = params.initialization_options
        if isinstance(options, dict):
            ls.settings = Settings.from_json(options.get(CONFIG_SECTION, options))

    @ls.feature(lsp.INITIALIZED)
    async def initialized(params: lsp.InitializedParams):
        await ls.load_configuration()
        ls.republish_all()

    @ls.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: lsp.DidChangeConfigurationParams):
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get(CONFIG_SECTION), dict):
            ls.settings = Settings.from_json(settings[CONFIG_SECTION])
        else:
            await ls.load_configuration()
        ls.republish_all()

    @ls.feature(lsp.SHUTDOWN)
    def shutdown(*args):
        ls.scheduler.stop()
        ls.analysis_executor.shutdown(wait=False, cancel_futures=True)
        ls.stop_workers()
        if ls.open_cache is not None:
            ls.open_cache.flush()  # the entries of the last checks, which were waiting for a quiet moment

    @ls.feature(lsp.EXIT)
    def on_exit(*args):
        ls.stop_workers()  # also after an exit that no shutdown preceded
