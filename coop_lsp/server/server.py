"""coop-lsp's language server: document state, scheduling, and LSP <-> ide conversion only. The LSP
handlers live in features/, one module per feature.

Every feature is computed by `coop_lsp.ide` on an `Analysis` of one document
version. Analyses run on one worker thread so that the event loop keeps
reading messages (edits, cancellations) while a large file is checked;
when diagnostics are checked and published is `scheduling`'s business.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import inspect
import json
import logging
import os
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.io_ import StdoutWriter
from pygls.exceptions import (JsonRpcContentModified, JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams,
                              JsonRpcParseError)
from pygls.feature_manager import is_thread_function
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCProtocol, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from ..core.diagnostic import Diagnostic
from ..core.text import SourceText, Span
from ..format import Options as FormatOptions
from ..ide import navigation
from ..ide.analysis import Analysis
from ..ide.settings import Settings
from ..lint import Reuse
from ..lint.config import ConfigError, ConfigFinder
from ..lint.files import host_macro_names, may_need_templates
from ..lint.rules import INTERNAL_ERROR
from ..syntax import Document
from ..syntax.parser import Parsed
from . import background
from .capabilities import VERSION
from .check_pool import CheckPool, WorkerDied, WorkerError
from . import comment_edits, completion_json, incoming
from .comment_edits import CommentEdit, Shown
from .idle_gc import IdleCollector
from .open_cache import Entry, OpenCache
from .scheduling import DiagnosticsScheduler
from .stdio import MessageReader, serve
from .trace import mark
from .convert import ConvertedDiagnostics, Converter, unit_of
from .wire import DiagnosticsJson, ResultJson, response_text
from .work_queue import BACKGROUND, FOREGROUND, PriorityWorker, on_loop

log = logging.getLogger(__name__)
_pygls_log = logging.getLogger("pygls.protocol.json_rpc")  # where pygls logs what it sends

CONFIG_SECTION = "coop-lsp"
DEBOUNCE_SECONDS = 0.0  # no fixed wait: see scheduling.py
RUN_KERNEL_COMMAND = "coop-lsp.runKernel"
SELECT_VARIANT_COMMAND = "coop-lsp.selectVariant"
VARIANTS_COMMAND = "coop-lsp.variants"
INACTIVE_REGIONS = "coop/inactiveRegions"
CANCEL_RUN_COMMAND = "coop-lsp.cancelRun"
TUNE_KERNEL_COMMAND = "coop-lsp.tuneKernel"
MAX_WORKSPACE_FILES = 2000
# Documents that keep their trees and per-function caches; the others rest (see CoopLanguageServer.rest).
WARM_DOCUMENTS = 3
# A worker's check of a document this long, made stale by an edit or a close, is stopped by killing the
# worker (checking it takes longer than starting a fresh worker); a shorter one is left to finish.
ABANDON_CHARS = 256 * 1024
# A version with syntax errors is published from its incremental tree at once; once the document has been
# quiet this long, a fresh parse confirms that tree (or its check replaces the published one).
CONFIRM_AFTER_SECONDS = 0.05
# The check of a version published at once by an edit inside a comment (comment_edits.py) only confirms
# it: it waits until the document has been quiet this long, so that it does not slow the next keystroke.
COMMENT_CHECK_AFTER_SECONDS = 0.05
# A check of an edit runs on the event loop's own thread (work_queue.submit_on_loop) when the document's
# last check took less time than this and its analysis is at hand to reuse: the hand-off to the
# analysis thread and back cost about as much as a short check (on the H200, 0.5 ms of a 2.8 ms check).
# A message that arrives meanwhile waits for the check's end: a request about the document waits for its
# analysis anyway, and an edit makes the result stale wherever it runs.
LOOP_CHECK_SECONDS = 0.015


def format_options(uri: str) -> FormatOptions:
    """`[tool.coop-lint.format]` of the file's nearest configuration, as `coop-lint format` reads it."""
    path = _path_of(uri)
    if path is None:
        return FormatOptions()
    try:
        config = ConfigFinder().for_path(path)
    except ConfigError as error:
        log.warning("formatting with the default options: %s", error)
        return FormatOptions()
    return FormatOptions(config.indent_width, config.line_width)


_FORMAT_METHODS = frozenset((lsp.TEXT_DOCUMENT_FORMATTING, lsp.TEXT_DOCUMENT_RANGE_FORMATTING,
                             lsp.TEXT_DOCUMENT_ON_TYPE_FORMATTING))


_DOCUMENT_NOTIFICATIONS = frozenset((lsp.DidOpenTextDocumentNotification, lsp.DidChangeTextDocumentNotification,
                                     lsp.DidCloseTextDocumentNotification))


class _Malformed:
    """A request whose params do not fit its method: answered with InvalidParams instead of silence."""

    def __init__(self, msg_id, method: str, error: Exception) -> None:
        self.id, self.method, self.error = msg_id, method, error


class CoopProtocol(LanguageServerProtocol):
    """pygls's protocol, minus its own copy of every document (the server keeps `syntax.Document`s),
    and answering every malformed request with an error response, as JSON-RPC requires."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Request ids the command line answered before pygls was imported (fast_start.py): pygls handles
        # them as usual, but its response is not sent a second time.
        self.answered_early: set = set()
        self.diagnostics_json = DiagnosticsJson(lambda form: self._converter.unstructure(form), self._publication)
        self._plain_handlers: dict = {}  # handler -> whether pygls calls it as it is (no coroutine or thread)

    def notify(self, method: str, params=None):
        if method != lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS or type(params) is not lsp.PublishDiagnosticsParams \
                or self.writer is None:
            return super().notify(method, params)
        _pygls_log.debug("Sending notification: '%s' %s", method, params)
        # Every edit publishes: its text is put together from the diagnostics' JSON of the version before.
        self._send_text(lambda: self.diagnostics_json.body(params))

    def _publication(self, params: lsp.PublishDiagnosticsParams) -> str:
        """pygls's serialisation of the publishDiagnostics notification of `params` (as `notify` makes it)."""
        notification = self.get_message_type(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS) or JsonRPCNotification
        return json.dumps(notification(method=lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params=params,
                                       jsonrpc=JsonRPCProtocol.VERSION), default=self._serialize_message)

    def _send_text(self, body) -> None:
        """pygls's `_send_data` for a message serialised by `body()`: the same headers, the same errors."""
        try:
            text = body()
            _pygls_log.info("Sending data: %s", text)
            if self._include_headers:
                text = (f"Content-Length: {len(text)}\r\n"
                        f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n{text}")
            written = self.writer.write(text.encode(self.CHARSET))
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            _pygls_log.exception("Error sending data. BrokenPipeError", exc_info=True)
            raise
        except Exception as error:  # noqa: BLE001 - as pygls: reported, and the server goes on
            _pygls_log.exception("Error sending data", exc_info=True)
            self._server._report_server_error(error, JsonRpcInternalError)

    def _send_response(self, msg_id, result=None, error=None):
        if msg_id in self.answered_early:
            self.answered_early.discard(msg_id)
            if error is not None:
                log.warning("initialize was answered early, but pygls refused its params: %s", error)
            return
        if type(result) is ResultJson and error is None:
            if msg_id not in self._result_types:  # pygls answers with a JsonRPCResponseMessage
                self._send_text(lambda: response_text(msg_id, result))
                return
            result = result.slow()
        super()._send_response(msg_id, result, error)

    def structure_message(self, data):
        if "jsonrpc" not in data:
            return data  # pygls's answer for the message's inner objects, without two more calls for each
        # Every keystroke's message: built without cattrs where it is of the usual shape (incoming.py).
        if (change := incoming.did_change(data)) is not None:
            return change
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if isinstance(data, dict) and "id" in data and "method" in data:
                return _Malformed(data["id"], str(data["method"]), error)
            raise

    def handle_message(self, message):
        mark("handle")
        if isinstance(message, _Malformed):
            cause = message.error.__cause__ or message.error
            error = JsonRpcInvalidParams(f"invalid params for {message.method}: {cause}")
            self._send_response(message.id, None, error.to_response_error())
            return
        if getattr(message, "method", None) in _FORMAT_METHODS and getattr(message, "params", None) is not None:
            # Which version a format request was made for is known only here: by the time its handler
            # runs, a later edit may have been applied (LSP's format requests carry no version).
            state = self._server.documents.get(message.params.text_document.uri)
            if state is not None:
                self._server.format_arrivals[id(message.params)] = state.document.parsed
        handler = self._document_handler(message)
        if handler is not None:
            # What pygls's dispatch comes to for these (below: each only hands the params on), without its
            # protocol checks, futures, ids and generator: a tenth of a millisecond of every keystroke.
            contextvars.copy_context().run(self._notified, handler, message.params)
            return
        super().handle_message(message)

    def _document_handler(self, message):
        """The feature's handler of a didOpen, didChange or didClose that pygls would run as it is."""
        if type(message) not in _DOCUMENT_NOTIFICATIONS or message.jsonrpc != JsonRPCProtocol.VERSION \
                or self._shutdown:
            return None
        handler = self.fm.features.get(message.method)
        if handler is None:
            return None
        plain = self._plain_handlers.get(handler)
        if plain is None:
            plain = self._plain_handlers[handler] = not (asyncio.iscoroutinefunction(handler) or is_thread_function(
                handler) or inspect.isgeneratorfunction(handler))
        return handler if plain else None

    def _notified(self, handler, params) -> None:
        try:
            handler(params)
        except Exception as error:  # noqa: BLE001 - reported as pygls reports a notification's failure
            failed: concurrent.futures.Future = concurrent.futures.Future()
            failed.set_exception(error)
            self._check_handler_result(failed)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


@dataclass(eq=False)
class DocumentState:
    uri: str
    parsed_document: Document | None
    opened: bool = True
    analysis: Analysis | None = None
    analysis_key: object = None  # the Parsed object the analysis was computed from
    inflight: asyncio.Future | None = None
    inflight_key: object = None
    inflight_work: object = None  # the analysis thread's future behind `inflight`, and its priority
    inflight_priority: int = FOREGROUND
    pool_job: concurrent.futures.Future | None = None  # its check in a worker process, while one runs
    pool_wait: asyncio.Future | None = None  # the scheduler's wait for `pool_job`
    # Opened and not yet edited or asked about: its check waits for those of documents being worked on.
    background: bool = False
    opened_version: int | None = None  # a check of this version is kept in the result cache
    mtime: float | None = None  # for documents read from disk because the client never opened them
    published: list = field(default_factory=list)
    confirming: asyncio.Task | None = None  # the fresh parse behind a provisional analysis (see _confirm)
    converted: ConvertedDiagnostics = field(default_factory=ConvertedDiagnostics)
    shown: Shown | None = None  # what the client was last sent, for an edit inside a comment to move
    tokens: tuple[str, list[int]] | None = None  # the semantic tokens last sent, and their result id
    had_template: bool = False  # inactive regions were sent for it: a plain version must clear them
    # The Parsed whose bytes are known to hold no template mark (source.sniff), kept up from edit to edit
    # by looking at the edited bytes alone (sync.py): the check then skips scanning the whole text.
    unmarked: object = None
    # How long the document's last check took (on whichever thread, see LOOP_CHECK_SECONDS); until
    # one has been timed, and after a rest, a check goes to the analysis thread (it reuses nothing).
    check_seconds: float = float("inf")
    # What this document's last analysis leaves for the next (used on the analysis thread only).
    reuse: Reuse = field(default_factory=Reuse)
    # A document no one is editing keeps its text, and what the client may ask of it without an edit:
    # its diagnostics and symbols (see `CoopLanguageServer.rest`).
    resting_text: tuple[str, int] | None = None
    resting_diagnostics: tuple[int, list] | None = None  # (version, LSP diagnostics)
    resting_symbols: list | None = None  # navigation.WorkspaceSymbol, every module-scope one

    @property
    def document(self) -> Document:
        """The document, parsed again if it was resting."""
        if self.parsed_document is None:
            text, version = self.resting_text
            self.parsed_document, self.resting_text = Document(text, version), None
        return self.parsed_document

    @property
    def resting(self) -> bool:
        return self.parsed_document is None

    @property
    def version(self) -> int:
        return self.resting_text[1] if self.parsed_document is None else self.parsed_document.version


@dataclass(eq=False, slots=True)
class _Checked:
    key: object  # the Parsed object the analysis was computed from
    version: int | None
    analysis: Analysis


@dataclass(eq=False, slots=True)
class _Moved:
    """An edit inside a comment: the diagnostics of the version before, moved (comment_edits.py)."""
    key: object  # the Parsed of the edited version
    version: int | None
    shown: Shown


@dataclass(eq=False, slots=True)
class _CheckedAtRest:
    """A worker's check of a resting document: what the document keeps, and no analysis."""
    key: tuple  # the resting_text it was computed from
    version: int | None
    entry: Entry


class CoopLanguageServer(LanguageServer):
    def __init__(self, debounce: float = DEBOUNCE_SECONDS, cache_root: Path | None = None,
                 workers: int = 0) -> None:
        super().__init__("coop-lsp", VERSION, protocol_cls=CoopProtocol)
        self.documents: dict[str, DocumentState] = {}
        self.disk_documents: dict[str, DocumentState] = {}
        self.settings = Settings()
        self.analysis_executor = PriorityWorker()
        # Documents only opened are checked in this many worker processes (check_pool.py); 0: on the
        # analysis thread, like every other check.
        self.check_workers = max(0, workers)
        self._pool: CheckPool | None = None
        # Unchanged files open with the diagnostics of their last check (open_cache.py).
        self.open_cache = OpenCache(cache_root) if cache_root is not None else None
        self._event_loop: asyncio.AbstractEventLoop | None = None  # where the analysis thread hands entries
        self.idle_gc = IdleCollector()
        self.format_arrivals: dict[int, object] = {}  # id(params) -> the Parsed current when it arrived
        self.scheduler = DiagnosticsScheduler(self._current, self._check, self._send_diagnostics, debounce)
        self.warm: list[str] = []  # the documents being worked on, most recent last (see `rest`)
        # Templates: the open documents' text for #include and import (FileCache overlays), the variant
        # tables of coop-lint's configuration, and the variant the user chose per document.
        self._template_files = None
        self.config_finder = ConfigFinder()
        self.active_variants: dict[str, str] = {}
        # Edits inside comments published without waiting for a check, and checks that then disagreed
        # with what was published (never, by comment_edits.py's argument: tests watch the count).
        self.comment_shortcuts = 0
        self.comment_shortcut_misses = 0
        # Versions the shortcut published in a file with errors whose fresh parse then gave other findings.
        self.comment_shortcut_fresh_misses = 0

    def start_io(self, stdin=None, stdout=None) -> None:
        """pygls's stdio loop (stdio.serve), reading through stdio.MessageReader (stdin watched by the event
        loop where it is a pipe or a socket, else read by a thread)."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(serve(MessageReader(stdin or sys.stdin.buffer), self.protocol, self._stop_event, log,
                              self.report_server_error))
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def report_server_error(self, error: Exception, source) -> None:
        if isinstance(error, json.JSONDecodeError) or isinstance(error.__cause__, json.JSONDecodeError):
            # Not JSON at all: the id is unknown, so JSON-RPC answers with a null id.
            response = JsonRpcParseError(f"parse error: {error}").to_response_error()
            self.protocol._send_data({"jsonrpc": "2.0", "id": None,
                                      "error": {"code": response.code, "message": response.message}})
            return
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)

    # --------------------------------------------------------- documents
    @property
    def unit(self) -> str:
        try:
            return unit_of(self.workspace.position_encoding)
        except RuntimeError:
            return "utf16"

    def state(self, uri: str) -> DocumentState | None:
        """An open document, or one read from disk for a client that asks about a file it never opened."""
        state = self.documents.get(uri)
        if state is not None:
            return state
        path = _path_of(uri)
        if path is None:
            return None
        try:
            mtime = path.stat().st_mtime
            cached = self.disk_documents.get(uri)
            if cached is not None and cached.mtime == mtime:
                return cached
            text = path.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            return None
        state = DocumentState(uri, Document(text, 0), opened=False, mtime=mtime)
        if len(self.disk_documents) > 64:
            self.disk_documents.clear()
        self.disk_documents[uri] = state
        return state

    async def analysis(self, state: DocumentState) -> Analysis:
        """The analysis of the document's current version, computed once, on the analysis thread."""
        key = state.document.parsed
        if state.analysis is not None and state.analysis_key is key:
            return state.analysis
        priority = BACKGROUND if state.background else FOREGROUND
        if state.inflight is not None and state.inflight_key is key and priority < state.inflight_priority:
            self.analysis_executor.promote(state.inflight_work, priority)
            state.inflight_priority = priority
        if state.inflight is None or state.inflight_key is not key:
            if state.inflight is not None:
                # A version that is no longer the newest: dropped if it has not started (one that has
                # finishes on the thread, and what it leaves in `reuse` speeds up this one).
                state.inflight.cancel()
            loop = asyncio.get_running_loop()
            # The Document edits its tree in place on the next change: the analysis thread gets a copy.
            snapshot = Parsed(key.source, key.tree.copy())
            keep = self.open_cache is not None and state.opened and state.document.version == state.opened_version
            self._event_loop = loop
            check = (snapshot, state.document.version, self.settings.targets, state.reuse,
                     self.settings.dialect or "auto", state.uri, keep, state.document.incremental,
                     state.unmarked is key)
            if priority == FOREGROUND and state.analysis is not None and state.check_seconds < LOOP_CHECK_SECONDS:
                state.inflight_work = self.analysis_executor.submit_on_loop(loop, self._analyse, *check)
            else:
                state.inflight_work = self.analysis_executor.submit_at(priority, self._analyse, *check)
            state.inflight = on_loop(state.inflight_work, loop)
            state.inflight_key, state.inflight_priority = key, priority
        future = state.inflight
        try:
            analysis = await asyncio.shield(future)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if future.cancelled() and task is not None and not task.cancelling():
                return await self.analysis(state)  # it went stale before it ran: the newest version's
            raise
        if state.inflight is future:
            state.inflight = state.inflight_key = state.inflight_work = None
            self.idle_gc.analysed()
        if state.analysis_key is not key:
            # Freeing the version before's analysis takes as long as the rest of the way back to the client:
            # it is freed once this version's diagnostics are written (nothing reads it again: a stale
            # analysis is never served, see above).
            asyncio.get_running_loop().call_soon(_release, state.analysis)
            state.analysis, state.analysis_key = analysis, key
        return analysis

    def drop_stale_check(self, state: DocumentState) -> None:
        """After an edit: a check of an older version still waiting in the queue is dropped, so that the
        scheduler's check of the newest version (which waits for it) is not held behind the whole queue."""
        work = state.inflight_work
        if state.inflight is not None and state.inflight_key is not state.document.parsed and work is not None \
                and not work.running():
            state.inflight.cancel()

    # --------------------------------------------------------- memory
    def touch(self, uri: str) -> None:
        """`uri` is being worked on (edited, or asked about): it keeps everything its next edit replays."""
        state = self.documents.get(uri)
        if state is not None:
            state.background = False
            if state.pool_wait is not None:
                # Checked on the analysis thread from now on (with the model its next edit reuses): no
                # one waits for a worker's check any more, and one that has not started is dropped.
                state.pool_wait.cancel()
        if self.warm and self.warm[-1] == uri:
            return
        if uri in self.warm:
            self.warm.remove(uri)
        self.warm.append(uri)
        del self.warm[:-WARM_DOCUMENTS]
        self.rest_the_others()

    def rest_the_others(self) -> None:
        for uri, state in self.documents.items():
            if uri not in self.warm and not state.resting:
                self.rest(state)

    def rest(self, state: DocumentState) -> bool:
        """Keeps only the text, diagnostics and symbols of a document no one is working on: its tree,
        analysis and per-function caches (most of a document's memory) go, and come back on the next edit
        or request (a full check, as on opening it). Not while it is being checked."""
        if state.inflight is not None or self.scheduler.busy(state.uri) or state.confirming is not None:
            return False
        document = state.parsed_document
        if state.analysis is not None and state.analysis_key is document.parsed:
            if state.resting_diagnostics is None or state.resting_diagnostics[0] != document.version:
                state.resting_diagnostics = (document.version, self.lsp_diagnostics(state.uri, state.analysis))
            state.resting_symbols = navigation.workspace_symbols(state.analysis, "")
        else:
            state.resting_diagnostics = state.resting_symbols = None
        state.resting_text = (document.text, document.version)
        state.parsed_document = None
        state.analysis = state.analysis_key = None
        state.tokens = None
        state.reuse = Reuse()
        state.shown = state.unmarked = None  # both hold a Parsed: its tree would outlive the rest
        state.converted = ConvertedDiagnostics()  # its findings as keys: more than a resting document keeps
        state.check_seconds = float("inf")  # its next check reuses nothing
        return True

    def workspace_folder_paths(self) -> list[str]:
        """The client's workspace folders (or its root) that are folders on this machine."""
        try:
            workspace = self.workspace
        except RuntimeError:
            return []
        folders = [f.uri for f in workspace.folders.values()] if workspace.folders else []
        if not folders and workspace.root_uri:
            folders = [workspace.root_uri]
        paths = []
        for uri in folders:
            parsed = urlparse(uri)
            if parsed.scheme == "file" and os.path.isdir(unquote(parsed.path)):
                paths.append(unquote(parsed.path))
        return paths

    @property
    def template_files(self):
        if self._template_files is None:
            # Made on the first template; it starts with the open documents' unsaved text.
            from ..source import FileCache
            overlays = {}
            for state in self.documents.values():
                path = _uri_path(state.uri)
                if path is not None:
                    # A resting document's text, without parsing it again.
                    text = state.resting_text[0] if state.resting else state.document.text
                    overlays[path] = text.encode("utf-8", errors="surrogatepass")
            # Includes and imports are read only inside the workspace folders (SECURITY.md).
            self._template_files = FileCache(overlays, tuple(Path(p) for p in self.workspace_folder_paths()))
        return self._template_files

    def _variant_tables(self, uri: str) -> tuple:
        path = _path_of(uri)
        try:
            return self.config_finder.for_path(path).settings_for(path).variants if path is not None else ()
        except (ConfigError, OSError):
            return ()

    def _analyse(self, parsed: Parsed, version, targets, reuse, dialect: str, uri: str,
                 keep: bool = False, incremental: bool | None = None, unmarked: bool = False) -> Analysis:
        """On the analysis thread: the document's analysis, and for a template its active variant's; with
        `keep`, a plain document's findings and symbols go to the result cache. `incremental`: whether the
        tree was re-parsed after an edit (with errors, checked as it is: see `_confirm`) or parsed from the
        whole text (its errors are a fresh parse's); None: not known, a tree with errors is parsed again.
        `unmarked`: the text is known to hold no template mark (DocumentState.unmarked). How long it took is
        kept as the document's `check_seconds`: wall time (the processor time of a thread is a system call
        that took 2-16 ms on the shared 2-core machine; wall time only overstates a check, sending more of
        them to the thread)."""
        started = time.perf_counter()
        try:
            return self._analysis_of(parsed, version, targets, reuse, dialect, uri, keep, incremental, unmarked)
        finally:
            state = self.documents.get(uri)
            if state is not None:
                state.check_seconds = time.perf_counter() - started

    def _analysis_of(self, parsed: Parsed, version, targets, reuse, dialect: str, uri: str, keep: bool,
                     incremental: bool | None, unmarked: bool) -> Analysis:
        mark("analyse")
        analysis = Analysis.of_parsed(parsed, version, targets, reuse, dialect, provisional=bool(incremental),
                                      fresh=incremental is False)
        mark("analysed")
        completion_json.warm_soon(self._in_background, analysis.model.enables, self.settings.dialect)
        data = parsed.source.data
        tables = self._variant_tables(uri)
        macros: frozenset[str] = frozenset()
        if not tables and unmarked or not may_need_templates(data, None, bool(tables)):
            # Plain WGSL (lint.files makes these choices for coop-lint too), unless its unresolved names
            # are its host's macros.
            macros = frozenset(host_macro_names(data, analysis.diagnostics))
            if not macros:
                if keep and self.open_cache is not None and not analysis.provisional:
                    self._keep(data, dialect, targets, analysis)
                return analysis
        from ..ide.templates import template_view
        path = _path_of(uri)  # a template's only (a stat of the file between the check and its publication)
        try:
            analysis.template = template_view(path, data, tables, self.active_variants.get(uri),
                                              self.template_files, targets, dialect, host_names=macros)
        except Exception:  # noqa: BLE001 - the plain analysis still serves the document
            log.exception("expanding the template %s failed", uri)
        return analysis

    def _in_background(self, call, *args) -> None:
        """Queues work for the analysis thread behind every check (work_queue.BACKGROUND); none once the
        server is shutting down."""
        try:
            self.analysis_executor.submit_at(BACKGROUND, call, *args)
        except RuntimeError:  # the queue was shut down meanwhile
            log.debug("not queued after shutdown: %s", call)

    def _keep(self, data: bytes, dialect: str, targets, analysis: Analysis) -> None:
        """On the analysis thread: hands the entry of a checked plain document to the event loop's cache."""
        key = self.open_cache.key(data, dialect, targets)
        if key is not None:
            entry = Entry(list(analysis.diagnostics), navigation.workspace_symbols(analysis, ""))
            self._event_loop.call_soon_threadsafe(self.open_cache.put, key, entry)

    def open_from_cache(self, uri: str, text: str, version: int) -> DocumentState | None:
        """A document whose bytes were checked before: resting at once, with that check's diagnostics and
        symbols published; None when the cache has no entry for it (or may not serve it)."""
        if self.open_cache is None:
            return None
        data = text.encode("utf-8", errors="surrogatepass")
        if may_need_templates(data, None, bool(self._variant_tables(uri))):
            return None
        key = self.open_cache.key(data, self.settings.dialect or "auto", self.settings.targets)
        entry = self.open_cache.get(key) if key is not None else None
        if entry is None or host_macro_names(data, entry.diagnostics):
            return None
        state = DocumentState(uri, None, background=True, opened_version=version, resting_text=(text, version),
                              resting_symbols=entry.symbols)
        self.documents[uri] = state
        diagnostics = self.lsp_findings(uri, SourceText(text), version, entry.diagnostics)
        state.resting_diagnostics = (version, diagnostics)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, version=version,
                                                                            diagnostics=diagnostics))
        self.scheduler.published(uri, version)
        return state

    # --------------------------------------------------------- checks in worker processes
    def for_workers(self, uri: str, text: str) -> bool:
        """Whether a worker may check this document: plain WGSL (templates read other files and their
        variant, in this process) checked against stored profiles (the live adapter is this process's)."""
        if self.check_workers == 0 or "connected" in self.settings.targets:
            return False
        data = text.encode("utf-8", errors="surrogatepass")
        return not may_need_templates(data, None, bool(self._variant_tables(uri)))

    def open_in_background(self, uri: str, text: str, version: int) -> DocumentState | None:
        """A document only opened, that a worker checks: resting from the start (no tree, no model in
        this process until someone works on it); None when it is to be checked here."""
        if not self.for_workers(uri, text):
            return None
        state = DocumentState(uri, None, background=True, opened_version=version, resting_text=(text, version))
        self.documents[uri] = state
        self.schedule_diagnostics(state, delay=0)
        return state

    @property
    def pool(self) -> CheckPool:
        if self._pool is None:
            self._pool = CheckPool(background.check, self.check_workers)
        return self._pool

    def stop_workers(self) -> None:
        if self._pool is not None:
            self._pool.stop()

    async def _check_in_worker(self, state: DocumentState) -> "_CheckedAtRest | None":
        """A worker's check of a resting document only opened; None when it is to be checked here after
        all (someone started working on it, it is a host's template, or the worker's check raised)."""
        key = state.resting_text
        text, version = key
        if not self.for_workers(state.uri, text):
            return None
        dialect, targets = self.settings.dialect or "auto", self.settings.targets
        future = self.pool.submit(background.Job(text, dialect, targets))
        waiting = asyncio.wrap_future(future)  # cancelling it drops the job if it has not started
        state.pool_job, state.pool_wait = future, waiting
        try:
            entry = await waiting
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if len(text) >= ABANDON_CHARS:
                self.pool.abandon(future)  # its answer is of no use now: the worker is free sooner
            if waiting.cancelled() and task is not None and not task.cancelling():
                return None  # someone is working on the document: checked here, at once
            raise
        except WorkerError as error:
            log.warning("a worker's check of %s failed; checking it here: %s", state.uri, str(error).strip())
            return None
        except WorkerDied as error:
            # Not checked here: what killed two workers would kill the server. Working on it checks it here.
            found = Diagnostic(INTERNAL_ERROR.code, f"internal error: {error}; its findings are unknown until "
                                                    "it is edited or asked about", Span(0, 0))
            return _CheckedAtRest(key, version, Entry([found], []))
        finally:
            if state.pool_job is future:
                state.pool_job = state.pool_wait = None
        if entry is None:
            return None  # a host's template
        if self.open_cache is not None and version == state.opened_version:
            cache_key = self.open_cache.key(text.encode("utf-8", errors="surrogatepass"), dialect, targets)
            if cache_key is not None:
                self.open_cache.put(cache_key, entry)
        return _CheckedAtRest(key, version, entry)

    async def settle_in_worker(self, state: DocumentState) -> None:
        """A request about a resting document that a worker is checking waits for that check (its findings
        and symbols are then kept) rather than build the document's model here as well."""
        if state.resting and state.background and self.check_workers and self.scheduler.busy(state.uri):
            await self.scheduler.settle(state.uri)

    async def features(self, uri: str) -> tuple[Analysis, Converter] | None:
        state = self.state(uri)
        if state is None:
            return None
        if state.opened:
            self.touch(uri)
        analysis = await self.analysis(state)
        return analysis, Converter(analysis.source, self.unit)

    # --------------------------------------------------------- formatting
    async def format(self, params, compute, quiet: bool = False) -> list[lsp.TextEdit] | None:
        """Edits from `compute(data, converter, options)` for the document's current version.

        Formatting runs on the analysis thread. If the document changed after the request was made,
        or changes while it runs, the edits would land on text they were not made for, so the request
        is refused (ContentModified) and the editor asks again."""
        uri = params.text_document.uri
        arrived = self.format_arrivals.pop(id(params), None)
        state = self.state(uri)
        if state is None:
            return None
        if state.opened:
            # Asked about: it is being worked on, and is not put to rest (its tree dropped, parsed again on
            # the next use) while it is formatted, which would read as a change and refuse the request.
            self.touch(uri)
        parsed = state.document.parsed
        if arrived is not None and arrived is not parsed:
            raise JsonRpcContentModified("the document changed after formatting was asked for; format it again")
        convert = Converter(parsed.source, self.unit)
        options = format_options(uri)
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self.analysis_executor, compute, parsed.source.data, convert, options)
        if state.document.parsed is not parsed or self.documents.get(uri, state) is not state:
            raise JsonRpcContentModified("the document changed while it was being formatted; format it again")
        if result.refused and not quiet:
            self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning,
                                                           message=f"coop-lsp: {result.refused}"))
        return [convert.text_edit(edit) for edit in result.edits]

    # --------------------------------------------------------- diagnostics
    def schedule_diagnostics(self, state: DocumentState, delay: float | None = None) -> None:
        if delay is None and self.settings.diagnostics_delay_ms is not None:
            delay = self.settings.diagnostics_delay_ms / 1000
        self.scheduler.changed(state.uri, delay)

    def _current(self, uri: str):
        state = self.documents.get(uri)
        if state is None:
            return None
        if state.resting:
            # Its text's identity, without parsing it: an edit or a request parses it (a new identity).
            return state.resting_text, state.version
        return state.document.parsed, state.document.version

    async def _check(self, uri: str) -> "_Checked | _CheckedAtRest":
        state = self.documents[uri]
        if state.resting and state.background and self.check_workers:
            checked = await self._check_in_worker(state)
            if checked is not None:
                return checked
        key = state.document.parsed
        analysis = await self.analysis(state)
        mark("resumed")
        return _Checked(key, analysis.version, analysis)

    def _send_diagnostics(self, uri: str, checked: "_Checked | _CheckedAtRest | _Moved") -> None:
        if isinstance(checked, _CheckedAtRest):
            self._send_rested(uri, checked)
            return
        if isinstance(checked, _Moved):
            self._send_moved(uri, checked)
            return
        found, diagnostics = self._findings_and_forms(uri, checked.analysis)
        mark("converted")
        state = self.documents.get(uri)
        shown = state.shown if state is not None else None
        if shown is not None and shown.moved and shown.key is checked.key and shown.version == checked.version \
                and shown.forms == diagnostics:
            mark("confirmed")  # the client has these very diagnostics for this version already
        else:
            if shown is not None and shown.moved and shown.key is checked.key:
                self.comment_shortcut_misses += 1
                log.error("an edit inside a comment of %s was published with diagnostics that its check does "
                          "not give; the check's are published now", uri)
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, version=checked.version, diagnostics=diagnostics))
            mark("written")
        if state is not None:
            analysis = checked.analysis
            own = analysis.result.parsed is not None and _same_root(analysis.result.parsed.tree, checked.key.tree)
            state.shown = Shown(checked.key, checked.version, tuple(found), diagnostics, self.settings,
                                plain=analysis.template is None and not host_macro_names(b"", analysis.diagnostics),
                                own_tree=own, shortcut=shown is not None and shown.moved
                                and shown.key is checked.key and shown.forms == diagnostics)
            self._send_inactive_regions(state, checked.analysis)
            state.resting_diagnostics = (checked.version, diagnostics)
            if checked.analysis.provisional:
                self._confirm_later(state, checked)
            if uri not in self.warm:
                # Once the scheduler's check of it has ended.
                asyncio.get_running_loop().call_soon(self._rest_if_cold, uri)

    def comment_edit(self, state: DocumentState, start: int, end: int, text: str) -> CommentEdit | None:
        """Before an edit is applied: whether it stays inside a comment and its version may be published
        at once, as the version before's diagnostics moved (comment_edits.py)."""
        if state.resting or state.had_template or self.scheduler.delay > 0 \
                or self.settings.diagnostics_delay_ms is not None:
            return None  # a delay asked for: diagnostics wait for it, moved ones too
        runs = getattr(self, "kernel_runs", None)
        if runs is not None and runs.last.get(state.uri):
            return None
        parsed = state.document.parsed
        return comment_edits.plan(state.shown, parsed, start, end, text, self.settings, state.unmarked is parsed)

    def publish_moved(self, state: DocumentState, edit: CommentEdit) -> bool:
        """After the edit `comment_edit` accepted: its version's diagnostics, published now; False when
        they were not (its check publishes them)."""
        parsed = state.document.parsed
        before = state.shown
        if edit.errored:
            # The previous version's tree was edited in place by the Document: compared as it moved it.
            if not comment_edits.same_after_edit(before.key.tree, parsed.tree):
                return False
        elif parsed.root.has_error:
            return False  # cannot happen by comment_edits.py's argument
        shown = Shown(parsed, state.document.version, edit.findings, before.forms, before.settings, plain=True,
                      moved=True, shortcut=True)
        if not self.scheduler.offer(state.uri, _Moved(parsed, shown.version, shown)):
            return False
        self.comment_shortcuts += 1
        return True

    def _send_moved(self, uri: str, moved: "_Moved") -> None:
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, version=moved.version, diagnostics=moved.shown.forms))
        mark("moved")
        state = self.documents.get(uri)
        if state is not None:
            state.shown = moved.shown
            state.resting_diagnostics = (moved.version, moved.shown.forms)

    def _stop_confirming(self, state: DocumentState) -> None:
        """The document is checked again (new settings, an included file changed): a confirmation made for
        the old check must not publish over the new one."""
        if state.confirming is not None:
            state.confirming.cancel()
            state.confirming = None

    def _confirm_later(self, state: DocumentState, checked: "_Checked") -> None:
        if state.confirming is not None:
            state.confirming.cancel()
        state.confirming = asyncio.get_running_loop().create_task(self._confirm(state, checked))

    async def _confirm(self, state: DocumentState, checked: "_Checked") -> None:
        """A provisional analysis (of an incremental tree with errors) was published: once the document is
        quiet, a fresh parse on the analysis thread either gives the same tree, or the fresh check replaces
        the analysis and is published if its diagnostics differ. A newer version makes it moot."""
        key = checked.key

        def current() -> bool:  # read on the analysis thread too: plain attribute reads
            return self.documents.get(state.uri) is state and state.parsed_document is not None \
                and state.parsed_document.parsed is key

        try:
            await asyncio.sleep(CONFIRM_AFTER_SECONDS)
            if not current():
                return
            work = self.analysis_executor.submit(
                self._confirmed, checked.analysis, current, self.settings.targets, state.reuse,
                self.settings.dialect or "auto", state.uri)
            fresh = await asyncio.wrap_future(work)
            if fresh is None or not current():
                return
            state.analysis, state.analysis_key = fresh, key
            diagnostics = self.lsp_diagnostics(state.uri, fresh)
            if state.resting_diagnostics is None or state.resting_diagnostics[1] != diagnostics:
                shown = state.shown
                if shown is not None and shown.key is key and shown.shortcut:
                    self.comment_shortcut_fresh_misses += 1
                self.publish(state, fresh)
        except asyncio.CancelledError:
            pass
        finally:
            if state.confirming is asyncio.current_task():
                state.confirming = None

    def _confirmed(self, analysis: Analysis, current, targets, reuse, dialect: str, uri: str) -> Analysis | None:
        """On the analysis thread: None when the provisional analysis holds (or its version is stale), else
        the version's check of the fresh parse that disagreed (checked as the fresh tree it is: one parse)."""
        if not current():
            return None
        agrees, fresh = analysis.against_fresh_parse(lambda: not current())
        if agrees is not False:
            return None  # it holds, or a newer version came and the scheduler checks that one next
        if fresh is None:
            parsed = analysis.result.parsed
            return self._analyse(Parsed(parsed.source, parsed.tree), analysis.version, targets, reuse, dialect,
                                 uri)
        return self._analyse(fresh, analysis.version, targets, reuse, dialect, uri, False, False)

    def _send_rested(self, uri: str, checked: "_CheckedAtRest") -> None:
        text, version = checked.key
        diagnostics = self.lsp_findings(uri, SourceText(text), version, checked.entry.diagnostics)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, version=version,
                                                                            diagnostics=diagnostics))
        state = self.documents.get(uri)
        if state is not None and state.resting_text is checked.key:
            state.resting_diagnostics = (version, diagnostics)
            state.resting_symbols = checked.entry.symbols

    def _send_inactive_regions(self, state: DocumentState, analysis: Analysis) -> None:
        template = analysis.template
        if template is not None or state.had_template:
            # The lines the active variant leaves out, for the client to dim (an empty list clears them).
            convert = Converter(analysis.source, self.unit)
            regions = [convert.range(span) for span in template.inactive()] if template is not None else []
            self.protocol.notify(INACTIVE_REGIONS, {
                "uri": state.uri, "version": analysis.version, "variant": template.active if template else None,
                "variants": list(template.variants) if template else [],
                "regions": [{"start": {"line": r.start.line, "character": r.start.character},
                             "end": {"line": r.end.line, "character": r.end.character}} for r in regions]})
            state.had_template = template is not None

    def _rest_if_cold(self, uri: str) -> None:
        state = self.documents.get(uri)
        if state is not None and uri not in self.warm and not state.resting:
            self.rest(state)

    def lsp_diagnostics(self, uri: str, analysis: Analysis) -> list[lsp.Diagnostic]:
        return self._findings_and_forms(uri, analysis)[1]

    def _findings_and_forms(self, uri: str, analysis: Analysis) -> tuple[list, list[lsp.Diagnostic]]:
        """`lsp_diagnostics`, with the findings they are the LSP forms of."""
        template = analysis.template
        return self.lsp_findings(uri, analysis.source, analysis.version,
                                 template.diagnostics if template is not None else analysis.diagnostics, analysis,
                                 with_findings=True)

    def lsp_findings(self, uri: str, source: SourceText, version, findings, analysis: Analysis | None = None,
                     with_findings: bool = False):
        """What the client is sent: the findings its settings keep, and a kernel run's (blame needs the
        analysis: a document opened from the cache has none until it is checked); `with_findings`: as
        (findings, LSP forms)."""
        convert = Converter(source, self.unit)
        found = self.settings.apply(findings)
        runs = getattr(self, "kernel_runs", None)
        if runs is not None:
            found = found + runs.compile_diagnostics(uri, version, source)
            if analysis is not None:
                found = found + runs.blame_diagnostics(uri, version, analysis)
        state = self.documents.get(uri)
        if state is None:
            forms = [convert.diagnostic(uri, d) for d in found]
        else:
            forms = state.converted.convert(convert, uri, found)
        return (found, forms) if with_findings else forms

    def republish(self, uri: str) -> None:
        """Publishes the document's diagnostics again, e.g. with the errors of a kernel run added. A document
        without an analysis of its text (resting: opened from the cache or checked by a worker) is being
        worked on now: it is checked here, and that check's publication carries the run's findings."""
        state = self.documents.get(uri)
        if state is None:
            return
        if not state.resting and state.analysis is not None and state.analysis_key is state.document.parsed:
            self.publish(state, state.analysis)
            return
        self.touch(uri)
        self.schedule_diagnostics(state, delay=0)

    def publish(self, state: DocumentState, analysis: Analysis) -> None:
        """Publishes if `analysis` is of the document's newest version (never one older than the client has)."""
        self.scheduler.offer(state.uri, _Checked(state.analysis_key, analysis.version, analysis))

    def recheck_includers(self, uri: str) -> None:
        """An edit to a file that open templates include or import re-checks those templates."""
        if self._template_files is None:
            return  # no template has been analysed yet: none includes anything
        path = _uri_path(uri)
        if path is None:
            return
        resolved = path.resolve()
        for other in self.documents.values():
            template = other.analysis.template if other.analysis is not None else None
            if other.uri != uri and template is not None and resolved in template.included():
                other.analysis = other.analysis_key = None
                other.inflight = other.inflight_key = None
                other.shown = None
                self._stop_confirming(other)
                self.schedule_diagnostics(other)

    def republish_all(self) -> None:
        """Re-checks every open document, e.g. after the targets changed."""
        for state in self.documents.values():
            state.analysis = state.analysis_key = None
            state.inflight = state.inflight_key = None
            state.shown = None
            self._stop_confirming(state)
            if state.resting:
                # A new identity for the same text: a worker's check made with the old settings is stale.
                text, version = state.resting_text
                state.resting_text = (text, version)
            self.schedule_diagnostics(state, delay=0)

    # --------------------------------------------------------- configuration
    async def load_configuration(self) -> None:
        capabilities = self.client_capabilities
        workspace = capabilities.workspace if capabilities is not None else None
        if workspace is None or not workspace.configuration:
            return
        try:
            result = await asyncio.wait_for(self.workspace_configuration_async(lsp.ConfigurationParams(
                items=[lsp.ConfigurationItem(section=CONFIG_SECTION)])), timeout=5)
        except Exception:  # noqa: BLE001 - a client that cannot answer keeps the defaults
            log.warning("workspace/configuration failed; keeping the current settings")
            return
        if result:
            self.settings = Settings.from_json(result[0])


def _release(_) -> None:
    """A callback that lets go of its argument when the event loop has run it."""


def _same_root(a, b) -> bool:
    """Whether two trees share their root (a tree and its copy, until one is edited). A node's id is the
    address of its slot in its parent's list of children; both trees alive, the same address for a first
    child means one root list, owned by one root."""
    x, y = a.root_node, b.root_node
    return x.child_count > 0 and y.child_count > 0 and x.child(0).id == y.child(0).id


def _uri_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


def _path_of(uri: str) -> Path | None:
    """The file a file: URI names, where it exists."""
    path = _uri_path(uri)
    return path if path is not None and path.is_file() else None


server = None  # the instance `create_server` builds, for tools that want it


def create_server(debounce: float = DEBOUNCE_SECONDS, cache_root: Path | None = None,
                  workers: int = 0) -> CoopLanguageServer:
    """`workers`: processes for the checks of documents only opened (0: all checks on the analysis
    thread; the command line's default is check_pool.default_workers())."""
    ls = CoopLanguageServer(debounce, cache_root, workers)
    _register(ls)
    return ls


def _register(ls: CoopLanguageServer) -> None:
    # Imported here: each feature module imports this one for CoopLanguageServer and its constants.
    from .features import register_all

    register_all(ls)


def new_token() -> str:
    return str(uuid.uuid4())
