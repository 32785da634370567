// The coop-lsp extension: starts the language server for WGSL files and adds
// the Run Kernel, Tune Kernel, Select Target, Show Devices and Restart Server commands and
// a status bar item with the active target.
import { ChildProcess, spawn } from "node:child_process";
import { homedir } from "node:os";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  vsdiag,
} from "vscode-languageclient/node";

import {
  ClientSettings,
  DEVICES_COMMANDS,
  Dialect,
  KERNEL_COMMANDS,
  RUN_KERNEL_COMMANDS,
  TUNE_KERNEL_COMMANDS,
  SERVER_SECTION,
  computeEntryPoints,
  deviceItems,
  isTuneReport,
  pickServerCommand,
  renderRunReport,
  renderTuneResult,
  serverSettings,
} from "./config";
import {
  Bundle,
  ServerLaunch,
  discoverServer,
  ignoredSettingsMessage,
  probeServerVersion,
  pythonFromExtensionApi,
  readBundle,
  spawnFailureMessage,
  versionMismatchMessage,
  withServerOptions,
} from "./launch";
import { Variants } from "./variants";

const CLIENT_ID = "coopLsp"; // also the prefix of `coopLsp.trace.server`
const SECTION = "coopLsp";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let runOutput: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let serverProblem: string | undefined;
let variants: Variants;
let serverProcess: ChildProcess | undefined;
/** Whether the running server (or the failed start) depended on the Python extension's choice. */
let followsPythonExtension = false;
let watchingPythonExtension = false;
let extensionVersion = "";
let extensionContext: vscode.ExtensionContext | undefined;
let activatedAt = 0;
let bundle: Bundle | undefined;
/** Mismatch warnings already shown this session: each once, not at every restart. */
const warnedVersions = new Set<string>();

function readSettings(): ClientSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    serverCommand: config.get<string[]>("server.command", []),
    pythonPath: config.get<string>("server.pythonPath", ""),
    workers: config.get<number | null>("server.workers", null),
    cacheDirectory: config.get<string>("server.cacheDirectory", ""),
    dialect: config.get<Dialect>("dialect", "auto"),
    targets: config.get<string[]>("targets", []),
    activeTarget: config.get<string>("activeTarget", ""),
    rules: config.get<Record<string, string>>("rules", {}),
  };
}

function sectionForServer() {
  return serverSettings(readSettings());
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("coop-lsp");
  runOutput = vscode.window.createOutputChannel("coop-lsp: kernel runs");
  status = vscode.window.createStatusBarItem("coopLsp.target", vscode.StatusBarAlignment.Right, 100);
  status.name = "coop-lsp target";
  status.command = "coopLsp.selectTarget";
  variants = new Variants();
  context.subscriptions.push(output, runOutput, status, variants);
  activatedAt = Date.now();
  extensionContext = context;
  extensionVersion = String(context.extension.packageJSON.version ?? "");
  // One line in the log for the first diagnostics the server sends: the extension's share of the
  // first start (activation to a checked file), apart from how long the editor took to activate it.
  const firstDiagnostics = vscode.languages.onDidChangeDiagnostics((event) => {
    if (event.uris.some((uri) => vscode.languages.getDiagnostics(uri).some((d) => d.source === "coop-lsp"))) {
      output.appendLine(`first diagnostics ${Date.now() - activatedAt} ms after activation`);
      firstDiagnostics.dispose();
    }
  });
  context.subscriptions.push(firstDiagnostics);
  bundle = readBundle(context.extensionPath);

  context.subscriptions.push(
    vscode.commands.registerCommand("coopLsp.runKernel", runKernel),
    vscode.commands.registerCommand("coopLsp.tuneKernel", tuneKernel),
    vscode.commands.registerCommand("coopLsp.selectTarget", selectTarget),
    vscode.commands.registerCommand("coopLsp.showDevices", showDevices),
    vscode.commands.registerCommand("coopLsp.restartServer", restartServer),
    vscode.commands.registerCommand("coopLsp.selectVariant", () => variants.select(client?.isRunning() ? client : undefined)),
    vscode.window.onDidChangeActiveTextEditor(updateStatus),
    vscode.window.onDidChangeActiveTextEditor(() => variants.refresh()),
    vscode.window.onDidChangeVisibleTextEditors(() => variants.refresh()),
    vscode.workspace.onDidChangeConfiguration(onConfigurationChanged),
    // Trust brings back the Run kernel lenses and the workspace's own interpreter choices.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restartServer()),
  );
  updateStatus();
  await startServer();
}

export async function deactivate(): Promise<void> {
  await stopServer();
}

/** The Python extension's selected interpreter, when that extension is installed; never throws. */
async function pythonExtensionInterpreter(): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension("ms-python.python");
  if (extension === undefined) {
    return undefined;
  }
  try {
    // Activating it can take seconds on a large workspace; not longer than this, though.
    const api = extension.isActive ? extension.exports : await Promise.race([
      extension.activate(),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10000)),
    ]);
    watchPythonExtension(api);
    return await pythonFromExtensionApi(api, vscode.workspace.workspaceFolders?.[0]?.uri);
  } catch (error) {
    output.appendLine(`the Python extension did not say its interpreter: ${String(error)}`);
    return undefined;
  }
}

/**
 * Selecting another interpreter in the Python extension restarts a server that runs on its
 * interpreter, or that found no Python: the user's fix for "no Python 3.11" may be just that.
 */
function watchPythonExtension(api: unknown): void {
  const event = (api as { environments?: { onDidChangeActiveEnvironmentPath?: unknown } } | undefined)
    ?.environments?.onDidChangeActiveEnvironmentPath;
  if (watchingPythonExtension || typeof event !== "function") {
    return;
  }
  watchingPythonExtension = true;
  try {
    const subscription = (event as (listener: () => void) => vscode.Disposable)(() => {
      if (followsPythonExtension) {
        output.appendLine("the Python extension's interpreter changed: restarting the server");
        void restartServer();
      }
    });
    extensionContext?.subscriptions.push(subscription);
  } catch (error) {
    output.appendLine(`could not follow the Python extension's interpreter: ${String(error)}`);
  }
}

async function startServer(): Promise<void> {
  serverProblem = undefined;
  const started = Date.now();
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
  const resolved = await discoverServer({
    settings: readSettings(),
    workspaceFolders: folders,
    trusted: vscode.workspace.isTrusted,
    env: process.env,
    platform: process.platform,
    bundle,
    pythonExtension: pythonExtensionInterpreter,
  });
  followsPythonExtension = "error" in resolved
    ? resolved.error.includes("needed to run the bundled server")
    : resolved.detail.includes("the Python extension's selected interpreter");
  if ("error" in resolved) {
    return reportStartFailure(resolved.error);
  }
  const settings = readSettings();
  // coop-lsp on PATH says its version only when asked; asked only when a setting depends on it.
  if (resolved.source === "PATH" && resolved.serverVersion === undefined
      && (settings.workers !== null || settings.cacheDirectory.trim() !== "")) {
    const version = await probeServerVersion(resolved.command);
    if (version !== undefined) {
      resolved.serverVersion = version;
    }
  }
  const launch: ServerLaunch = withServerOptions(resolved, settings, homedir());
  const ignored = ignoredSettingsMessage(launch);
  if (ignored !== undefined) {
    output.appendLine(ignored);
    void vscode.window.showWarningMessage(ignored);
  }
  output.appendLine(`starting ${[launch.command, ...launch.args].join(" ")} (${launch.bundled
    ? `the bundled coop-lsp ${bundle?.version ?? "?"}` : `from ${launch.source}`}${launch.detail !== "" ? `; ${launch.detail}` : ""})`);

  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: "1" };
  for (const [key, value] of Object.entries(launch.env)) {
    if (value === undefined) delete env[key]; else env[key] = value;
  }
  // Spawned here rather than by the client, to keep the tail of what the server wrote: a server
  // that exits before it answers is explained by its last line, not by "connection disposed".
  let stderrTail = "";
  const serverOptions: ServerOptions = () => new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(launch.command, launch.args, { env, cwd: folders[0], stdio: ["pipe", "pipe", "pipe"] });
    child.once("error", reject);
    child.once("spawn", () => {
      serverProcess = child;
      resolve(child);
    });
    child.stderr.on("data", (chunk: Buffer) => { stderrTail = (stderrTail + chunk.toString()).slice(-4000); });
  });
  let crashes: number[] = [];
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "wgsl" },
      { scheme: "untitled", language: "wgsl" },
    ],
    outputChannel: output,
    // A server that dies before it ever answered (a broken interpreter or install) would die
    // again: one message, no restarts. One that ran and then crashed is restarted a few times.
    initializationFailedHandler: () => false,
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        const ran = created.initializeResult !== undefined;
        crashes = crashes.filter((t) => Date.now() - t < 180000);
        crashes.push(Date.now());
        if (ran && crashes.length <= 3) {
          return { action: CloseAction.Restart, handled: true };
        }
        if (!ran) {
          return { action: CloseAction.DoNotRestart, handled: true }; // start() fails: reported there, once
        }
        serverProblem = "the server stopped 4 times in 3 minutes";
        return {
          action: CloseAction.DoNotRestart,
          message: `coop-lsp: ${serverProblem}; see the coop-lsp output for why. "coop-lsp: Restart Server" tries again.`,
        };
      },
    },
    initializationOptions: { [SERVER_SECTION]: sectionForServer() },
    middleware: {
      workspace: {
        // The server asks for the `coop-lsp` section; ours is `coopLsp.*` with
        // a friendlier shape, translated here.
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) {
            return answers;
          }
          return params.items.map((item, i) => item.section === SERVER_SECTION ? sectionForServer() : answers[i]);
        },
      },
      // The server publishes diagnostics for every version it checks and also answers pulls;
      // VS Code keeps the two apart and listed every finding twice (seen in the real-editor
      // test, tests/test_vscode_e2e.py). Pushes also carry what arrives between edits (a
      // kernel run's compile errors), so they are the ones shown and pulls are answered empty.
      provideDiagnostics: () => ({ kind: "full", items: [] }) as vsdiag.FullDocumentDiagnosticReport,
      provideWorkspaceDiagnostics: () => ({ items: [] }),
      // Running a kernel executes the workspace's code and its run files on the GPU: not offered in
      // Restricted Mode (linting, hover and formatting only read the text, and stay).
      provideCodeLenses: async (document, token, next) => {
        const lenses = await next(document, token);
        if (vscode.workspace.isTrusted || !Array.isArray(lenses)) {
          return lenses;
        }
        return lenses.filter((lens) => !KERNEL_COMMANDS.includes(lens.command?.command ?? ""));
      },
      // Runs started from the server's code lens go through the command the
      // client registered for it; show their results too.
      executeCommand: async (command, args, next) => {
        if (KERNEL_COMMANDS.includes(command) && !vscode.workspace.isTrusted) {
          untrustedRunRefused();
          return undefined;
        }
        const result = await next(command, args);
        if (RUN_KERNEL_COMMANDS.includes(command)) {
          const [uri, entry] = args as [unknown, unknown];
          await showRunReport(result, String(uri ?? ""), typeof entry === "string" ? entry : undefined);
        } else if (TUNE_KERNEL_COMMANDS.includes(command)) {
          logTuneResult(result, String((args as unknown[])[0] ?? ""));
        }
        return result;
      },
      // A finished tune asks to show its HTML report: shown as a page beside the kernel.
      window: {
        showDocument: async (params, next) => {
          if (!isTuneReport(params.uri)) {
            return await next(params, new vscode.CancellationTokenSource().token) as { success: boolean };
          }
          return { success: await showTuneReport(params.uri) };
        },
      },
    },
  };
  const created = new LanguageClient(CLIENT_ID, "coop-lsp", serverOptions, clientOptions);
  created.onDidChangeState((event) => {
    if (event.newState === State.Stopped && client === created && serverProblem === undefined) {
      serverProblem = "the server stopped";
    }
    updateStatus();
  });
  client = created;
  try {
    await created.start();
    variants.listen(created);
    serverProblem = undefined;
  } catch (error) {
    client = undefined;
    try { await created.dispose(); } catch { /* it never ran */ }
    const lastLine = stderrTail.trim().split("\n").filter((line) => line.trim() !== "").pop();
    return reportStartFailure(lastLine !== undefined && !/ENOENT/.test(String(error))
      ? `the server (${launch.bundled ? "bundled" : `from ${launch.source}`}, \`${launch.command}\`) exited before it started: ${lastLine.trim()}`
      : spawnFailureMessage(launch, error));
  }
  const serverInfo = created.initializeResult?.serverInfo;
  output.appendLine(`${serverInfo?.name ?? "server"} ${serverInfo?.version ?? "(no version)"} answered initialize `
    + `${Date.now() - started} ms after the start began`);
  const mismatch = versionMismatchMessage(extensionVersion, launch, serverInfo);
  if (mismatch !== undefined) {
    output.appendLine(mismatch);
    const key = `${launch.command}:${serverInfo?.version ?? ""}`;
    if (!warnedVersions.has(key)) {
      warnedVersions.add(key);
      void vscode.window.showWarningMessage(`coop-lsp: ${mismatch}`, "Open Settings").then((choice) => {
        if (choice !== undefined) void vscode.commands.executeCommand("workbench.action.openSettings", "coopLsp.server");
      });
    }
  }
  updateStatus();
}

async function stopServer(): Promise<void> {
  const current = client;
  const process = serverProcess;
  client = undefined;
  serverProcess = undefined;
  if (current !== undefined) {
    try {
      await current.stop(5000);
    } catch (error) {
      output.appendLine(`stopping the server: ${String(error)}`);
    }
  }
  // The client only kills processes it spawned itself; this one is ours.
  if (process !== undefined && process.exitCode === null && process.signalCode === null) {
    process.kill();
  }
}

function reportStartFailure(message: string): void {
  serverProblem = message;
  output.appendLine(message);
  updateStatus();
  void vscode.window.showErrorMessage(`coop-lsp: ${message}`, "Open Settings", "Show Log").then((choice) => {
    if (choice === "Open Settings") {
      void vscode.commands.executeCommand("workbench.action.openSettings", "coopLsp.server");
    } else if (choice === "Show Log") {
      output.show();
    }
  });
}

async function restartServer(): Promise<void> {
  await stopServer();
  await startServer();
  if (client !== undefined) {
    void vscode.window.setStatusBarMessage("coop-lsp: server restarted", 3000);
  }
}

function updateStatus(): void {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== "wgsl") {
    status.hide();
    return;
  }
  const target = readSettings().activeTarget;
  if (serverProblem !== undefined) {
    status.text = `$(error) coop-lsp`;
    status.tooltip = `coop-lsp is not running: ${serverProblem}\nClick to choose a target; "coop-lsp: Restart Server" retries.`;
    status.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
  } else {
    status.text = `$(circuit-board) ${target !== "" ? target : "no target"}`;
    status.tooltip = "coop-lsp: the target kernels are checked and run against. Click to change it.";
    status.backgroundColor = undefined;
  }
  status.show();
}

function onConfigurationChanged(event: vscode.ConfigurationChangeEvent): void {
  if (!event.affectsConfiguration(SECTION)) {
    return;
  }
  updateStatus();
  if (event.affectsConfiguration(`${SECTION}.server`)) {
    void vscode.window.showInformationMessage("coop-lsp: the server settings changed.", "Restart Server")
      .then((choice) => { if (choice !== undefined) void restartServer(); });
    return;
  }
  if (client?.isRunning()) {
    void client.sendNotification("workspace/didChangeConfiguration", {
      settings: { [SERVER_SECTION]: sectionForServer() },
    });
  }
}

function runningClient(): LanguageClient | undefined {
  if (client?.isRunning()) {
    return client;
  }
  void vscode.window.showErrorMessage(
    `coop-lsp: the server is not running${serverProblem !== undefined ? ` (${serverProblem})` : ""}.`,
    "Restart Server", "Show Log",
  ).then((choice) => {
    if (choice === "Restart Server") void restartServer();
    else if (choice === "Show Log") output.show();
  });
  return undefined;
}

function serverCommand(running: LanguageClient, candidates: readonly string[], what: string): string | undefined {
  const announced = running.initializeResult?.capabilities.executeCommandProvider?.commands;
  const command = pickServerCommand(announced, candidates);
  if (command === undefined) {
    void vscode.window.showErrorMessage(
      `coop-lsp: this server cannot ${what} (it offers: ${announced?.join(", ") || "no commands"}).`);
  }
  return command;
}

function untrustedRunRefused(): void {
  void vscode.window.showWarningMessage(
    "coop-lsp: running kernels is off in Restricted Mode (it executes this workspace's code). Trust the workspace to run them.",
    "Manage Workspace Trust",
  ).then((choice) => { if (choice !== undefined) void vscode.commands.executeCommand("workbench.trust.manage"); });
}

async function runKernel(uri?: vscode.Uri): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    untrustedRunRefused();
    return;
  }
  const document = uri !== undefined
    ? await vscode.workspace.openTextDocument(uri)
    : vscode.window.activeTextEditor?.document;
  if (document === undefined || document.languageId !== "wgsl") {
    void vscode.window.showWarningMessage("coop-lsp: open a WGSL file to run one of its kernels.");
    return;
  }
  const running = runningClient();
  if (running === undefined) {
    return;
  }
  const command = serverCommand(running, RUN_KERNEL_COMMANDS, "run kernels");
  if (command === undefined) {
    return;
  }
  const entries = computeEntryPoints(document.getText());
  let entry: string | undefined = entries[0];
  if (entries.length > 1) {
    entry = await vscode.window.showQuickPick(entries, { placeHolder: "Which @compute entry point?" });
    if (entry === undefined) {
      return;
    }
  } else if (entries.length === 0) {
    void vscode.window.showWarningMessage("coop-lsp: this module has no @compute entry point.");
    return;
  }
  const target = readSettings().activeTarget;
  const args: unknown[] = [document.uri.toString(), entry, { target: target !== "" ? target : null }];
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `coop-lsp: running ${entry}`, cancellable: true },
    async (_progress, token) => {
      try {
        return await running.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }, token);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        runOutput.appendLine(`[${new Date().toISOString()}] ${entry}: failed: ${message}`);
        void vscode.window.showErrorMessage(`coop-lsp: running ${entry} failed: ${message}`);
        return undefined;
      }
    });
  await showRunReport(result, document.uri.toString(), entry);
}

async function tuneKernel(uri?: vscode.Uri): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    untrustedRunRefused();
    return;
  }
  const document = uri !== undefined
    ? await vscode.workspace.openTextDocument(uri)
    : vscode.window.activeTextEditor?.document;
  if (document === undefined || document.languageId !== "wgsl" || document.uri.scheme !== "file") {
    void vscode.window.showWarningMessage("coop-lsp: open a saved WGSL file to tune its kernel.");
    return;
  }
  const running = runningClient();
  const command = running !== undefined ? serverCommand(running, TUNE_KERNEL_COMMANDS, "tune kernels") : undefined;
  if (running === undefined || command === undefined) {
    return;
  }
  // The tune reads the saved file, as `coop-lint tune` would.
  if (document.isDirty) {
    await document.save();
  }
  const entry = computeEntryPoints(document.getText())[0];
  const args: unknown[] = [document.uri.toString(), entry];
  // The server's own progress (per variant, cancellable) shows in the notification; cancelling
  // this request stops the tune too.
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `coop-lsp: tuning ${entry ?? "kernel"}`, cancellable: true },
    async (_progress, token) => {
      try {
        return await running.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }, token);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        void vscode.window.showErrorMessage(`coop-lsp: tuning failed: ${message}`);
        return undefined;
      }
    });
  logTuneResult(result, document.uri.toString());
}

function logTuneResult(result: unknown, uri: string): void {
  runOutput.appendLine(`[${new Date().toISOString()}] tune of ${uri}`);
  runOutput.appendLine(renderTuneResult(result, uri));
  runOutput.show(true);
}

/** The tune's HTML report as a page beside the kernel (no scripts: the page is tables and SVG). */
async function showTuneReport(uri: string): Promise<boolean> {
  const file = vscode.Uri.parse(uri);
  let html: string;
  try {
    html = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch (error) {
    void vscode.window.showErrorMessage(`coop-lsp: cannot read the tune report ${file.fsPath}: ${String(error)}`);
    return false;
  }
  const name = file.path.split("/").pop() ?? "tune";
  const panel = vscode.window.createWebviewPanel("coopLsp.tuneReport", `Tune: ${name.replace(/\.tune\.html$/, "")}`,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, { enableScripts: false });
  const policy = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;
  // After the doctype, which must stay first for the page to render in standards mode.
  panel.webview.html = /^<!doctype html>/i.test(html) ? html.replace(/^<!doctype html>/i, (d) => d + policy) : policy + html;
  return true;
}

async function showRunReport(result: unknown, uri: string, entry: string | undefined): Promise<void> {
  const report = renderRunReport(result, uri, entry, readSettings().activeTarget);
  runOutput.appendLine(`[${new Date().toISOString()}] ${entry ?? "kernel"} in ${uri}`);
  runOutput.appendLine(report);
  runOutput.show(true);
  if (result === null || result === undefined) {
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ language: "markdown", content: report });
  try {
    await vscode.commands.executeCommand("markdown.showPreviewToSide", doc.uri);
  } catch {
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
}

async function selectTarget(): Promise<void> {
  const settings = readSettings();
  type Item = vscode.QuickPickItem & { target?: string; edit?: boolean };
  const items: Item[] = settings.targets.map((t): Item =>
    t === settings.activeTarget ? { label: t, target: t, description: "active" } : { label: t, target: t });
  items.push({ label: "$(circle-slash) No target", target: "" });
  items.push({ label: "$(gear) Edit targets in settings…", edit: true });
  const choice = await vscode.window.showQuickPick(items, {
    placeHolder: settings.targets.length > 0 ? "Target to check and run kernels against"
      : "No targets yet: add device profiles to coopLsp.targets",
  });
  if (choice === undefined) {
    return;
  }
  if (choice.edit === true) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "coopLsp.targets");
    return;
  }
  const scope = vscode.workspace.workspaceFolders !== undefined
    ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration(SECTION).update("activeTarget", choice.target ?? "", scope);
  updateStatus();
}

async function showDevices(): Promise<void> {
  const running = runningClient();
  if (running === undefined) {
    return;
  }
  const command = serverCommand(running, DEVICES_COMMANDS, "list devices");
  if (command === undefined) {
    return;
  }
  let result: unknown;
  try {
    result = await running.sendRequest(ExecuteCommandRequest.type, { command, arguments: [] });
  } catch (error) {
    void vscode.window.showErrorMessage(`coop-lsp: listing devices failed: ${String(error)}`);
    return;
  }
  runOutput.appendLine(`[${new Date().toISOString()}] devices:`);
  runOutput.appendLine(JSON.stringify(result, null, 2));
  const items = deviceItems(result);
  if (items.length === 0) {
    void vscode.window.showInformationMessage("coop-lsp: the server reports no devices.");
    return;
  }
  const choice = await vscode.window.showQuickPick(items, { placeHolder: "Devices the server sees (pick one to add it as a target)" });
  if (choice !== undefined) {
    const settings = readSettings();
    if (!settings.targets.includes(choice.label)) {
      const scope = vscode.workspace.workspaceFolders !== undefined
        ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
      await vscode.workspace.getConfiguration(SECTION).update("targets", [...settings.targets, choice.label], scope);
    }
  }
}
