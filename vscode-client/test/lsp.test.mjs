// (c) The real coop-lsp over stdio, driven with vscode-languageserver-protocol
// (the library vscode-languageclient is built on), configured the way the
// extension configures it: initializationOptions and workspace/configuration
// answers both come from the extension's own serverSettings().
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { clientRoot, repoRoot, serverCommandLine } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const protocol = require("vscode-languageserver-protocol/node");
const config = require(join(clientRoot, "dist", "test", "config.js"));
const launch = require(join(clientRoot, "dist", "test", "launch.js"));

// Started as the extension starts it when coopLsp.server.workers and .cacheDirectory are set.
const cacheDir = mkdtempSync(join(tmpdir(), "coop-lsp-cache-"));
const plain = serverCommandLine();
const launchOptions = { workers: 1, cacheDirectory: cacheDir };
const server = plain.skip ? plain : launch.withServerOptions(
  { command: plain.command, args: plain.args, source: "workspace .venv", bundled: false, env: {}, detail: "" },
  launchOptions, homedir());
const skip = server.skip;
if (skip) {
  console.log(`# skipping the LSP round trip: ${skip}`);
}

const SETTINGS = { dialect: "auto", targets: [], activeTarget: "", rules: { deprecated_builtin: "error", U003: "off" } };
const TIMEOUT = 30000;

let child;
let connection;
let initializeResult;
const diagnostics = new Map(); // uri -> [{version?, diagnostics}]
const waiters = [];
const stderr = [];

function whenDiagnostics(uri, predicate = () => true) {
  const seen = diagnostics.get(uri);
  if (seen !== undefined && predicate(seen)) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within ${TIMEOUT} ms; stderr:\n${stderr.join("")}`)), TIMEOUT);
    waiters.push({ uri, predicate, resolve: (d) => { clearTimeout(timer); resolve(d); } });
  });
}

before(async () => {
  if (skip) return;
  child = spawn(server.command, server.args, { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.on("data", (chunk) => stderr.push(chunk.toString()));
  connection = protocol.createMessageConnection(
    new protocol.StreamMessageReader(child.stdout), new protocol.StreamMessageWriter(child.stdin));
  connection.onNotification(protocol.PublishDiagnosticsNotification.type, (params) => {
    diagnostics.set(params.uri, params.diagnostics);
    for (const w of [...waiters]) {
      if (w.uri === params.uri && w.predicate(params.diagnostics)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(params.diagnostics);
      }
    }
  });
  connection.onRequest(protocol.ConfigurationRequest.type, (params) =>
    params.items.map((item) => item.section === config.SERVER_SECTION ? config.serverSettings(SETTINGS) : null));
  connection.onRequest(protocol.RegistrationRequest.type, () => null);
  connection.onRequest(protocol.WorkDoneProgressCreateRequest.type, () => null);
  connection.onNotification(protocol.ShowMessageNotification.type, () => {});
  connection.onNotification(protocol.LogMessageNotification.type, () => {});
  connection.listen();
  initializeResult = await connection.sendRequest(protocol.InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(repoRoot).href,
    workspaceFolders: null,
    initializationOptions: { [config.SERVER_SECTION]: config.serverSettings(SETTINGS) },
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
      textDocument: {
        publishDiagnostics: { relatedInformation: true },
        hover: { contentFormat: ["markdown", "plaintext"] },
        synchronization: { didSave: true },
      },
      general: { positionEncodings: ["utf-16"] },
    },
  });
  await connection.sendNotification(protocol.InitializedNotification.type, {});
});

after(async () => {
  if (skip || connection === undefined) return;
  try {
    await Promise.race([connection.sendRequest(protocol.ShutdownRequest.type), new Promise((r) => setTimeout(r, 5000))]);
    await connection.sendNotification(protocol.ExitNotification.type);
  } catch { /* the process may be gone */ }
  await new Promise((resolve) => {
    const timer = setTimeout(() => { child.kill(); resolve(); }, 5000);
    child.once("exit", () => { clearTimeout(timer); resolve(); });
  });
  connection.dispose();
  rmSync(cacheDir, { recursive: true, force: true });
});

function open(name, text) {
  const uri = pathToFileURL(join(repoRoot, "examples", name)).href.replace(/\.wgsl$/, "") + "-test.wgsl";
  connection.sendNotification(protocol.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "wgsl", version: 1, text },
  });
  return uri;
}

const naive = skip ? "" : readFileSync(join(repoRoot, "examples", "wgpu", "gemm_naive.wgsl"), "utf8");

test("initialize announces what the extension uses", { skip }, () => {
  const caps = initializeResult.capabilities;
  assert.ok(caps.hoverProvider, "hover");
  assert.ok(caps.textDocumentSync !== undefined, "document sync");
  const announced = caps.executeCommandProvider?.commands ?? [];
  assert.ok(config.pickServerCommand(announced, config.RUN_KERNEL_COMMANDS) !== undefined,
    `the server offers none of ${config.RUN_KERNEL_COMMANDS} (it offers ${announced})`);
});

test("a kernel with an error gets a diagnostic on its line", { skip, timeout: TIMEOUT * 2 }, async () => {
  // drop the ';' after `let row0 = wg.y * TILE`
  const broken = naive.replace(/^(\s*let row0 = wg\.y \* TILE);$/m, "$1");
  assert.notEqual(broken, naive);
  const line = broken.split("\n").findIndex((l) => l.includes("let row0 = wg.y * TILE")); // 0-based
  const uri = open("wgpu/gemm_naive.wgsl", broken);
  const found = await whenDiagnostics(uri, (d) => d.length > 0);
  const error = found.find((d) => d.code === "S001");
  assert.ok(error, `no S001 in ${JSON.stringify(found)}`);
  assert.equal(error.severity, protocol.DiagnosticSeverity.Error);
  assert.match(error.message, /';'/);
  assert.equal(error.range.start.line, line, JSON.stringify(error));
});

test("the cache directory setting reaches the server: checked documents are kept there", { skip, timeout: TIMEOUT * 2 }, async () => {
  const uri = open("wgpu/gemm_naive.wgsl", `${naive}\n// kept in the cache\n`);
  await whenDiagnostics(uri);
  const files = () => readdirSync(cacheDir, { recursive: true })
    .filter((name) => statSync(join(cacheDir, String(name))).isFile());
  const deadline = Date.now() + TIMEOUT;
  while (files().length === 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(files().length > 0, `nothing was written under ${cacheDir} (server: ${server.args.join(" ")})`);
});

test("rule severities from the extension's settings reach the server", { skip, timeout: TIMEOUT * 2 }, async () => {
  // The older bool-majorness loads and stores under the Chromium enable are deprecated
  // (T012, a warning by default); coopLsp.rules made deprecated_builtin an error. The
  // standard example (template majorness) is written back into that older form.
  const standard = readFileSync(join(repoRoot, "examples", "standard", "gemm_naive.wgsl"), "utf8");
  const text = standard
    .replace(/^enable subgroup_matrix;$/m, "enable chromium_experimental_subgroup_matrix;\nenable subgroups;")
    .replace(/subgroupMatrixLoad<(\w+), row_major>\((.*), (\w+)\);/g, "subgroupMatrixLoad<$1>($2, false, $3);")
    .replace(/subgroupMatrixStore<row_major>\((.*), (\w+)\);/g, "subgroupMatrixStore($1, false, $2);");
  assert.match(text, /subgroupMatrixLoad<\w+>\(.*, false, \w+\);/);
  assert.match(text, /subgroupMatrixStore\(.*, false, \w+\);/);
  const uri = open("standard/deprecated.wgsl", text);
  const found = await whenDiagnostics(uri, (d) => d.some((x) => x.code === "T012"));
  const deprecated = found.filter((d) => d.code === "T012");
  assert.ok(deprecated.length > 0);
  for (const d of deprecated) {
    assert.equal(d.severity, protocol.DiagnosticSeverity.Error, JSON.stringify(d));
  }
});

test("hover on a matrix builtin shows its documentation", { skip, timeout: TIMEOUT * 2 }, async () => {
  const uri = open("wgpu/gemm_naive_clean.wgsl", naive);
  await whenDiagnostics(uri);
  const lines = naive.split("\n");
  for (const word of ["coopMultiplyAdd", "coop_mat16x16"]) {
    const line = lines.findIndex((l) => l.includes(word) && !l.trimStart().startsWith("//"));
    const character = lines[line].indexOf(word) + 2;
    const hover = await connection.sendRequest(protocol.HoverRequest.type, {
      textDocument: { uri }, position: { line, character },
    });
    assert.ok(hover, `no hover on ${word}`);
    const contents = typeof hover.contents === "string" ? hover.contents
      : Array.isArray(hover.contents) ? hover.contents.map((c) => typeof c === "string" ? c : c.value).join("\n")
      : hover.contents.value;
    assert.ok(contents.includes(word), `hover on ${word} says: ${contents}`);
  }
});

test("the run-kernel command is accepted", { skip, timeout: TIMEOUT * 2 }, async () => {
  const uri = open("wgpu/gemm_naive_run.wgsl", naive);
  const command = config.pickServerCommand(initializeResult.capabilities.executeCommandProvider?.commands,
    config.RUN_KERNEL_COMMANDS);
  const entry = config.computeEntryPoints(naive)[0];
  assert.equal(entry, "main");
  // same arguments as the extension sends; the result may be null while no runner exists
  const result = await connection.sendRequest(protocol.ExecuteCommandRequest.type,
    { command, arguments: [uri, entry, { target: null }] });
  assert.ok(result === null || typeof result === "object" || typeof result === "string");
  assert.ok(config.renderRunReport(result, uri, entry, "").startsWith("# Run: main"));
});

test("the tune-kernel lens sits beside run-kernel on a template with variant sets", { skip, timeout: TIMEOUT * 2 }, async () => {
  // examples/templates/cpp/gemm.wgsl has configured variant sets and a run description: a search space.
  const path = join(repoRoot, "examples", "templates", "cpp", "gemm.wgsl");
  const uri = pathToFileURL(path).href;
  connection.sendNotification(protocol.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "wgsl", version: 1, text: readFileSync(path, "utf8") },
  });
  await whenDiagnostics(uri);
  const lenses = await connection.sendRequest(protocol.CodeLensRequest.type, { textDocument: { uri } });
  const titles = lenses.map((l) => `${l.command.title}: ${l.command.command}`);
  const tune = config.pickServerCommand(initializeResult.capabilities.executeCommandProvider?.commands,
    config.TUNE_KERNEL_COMMANDS);
  assert.ok(tune !== undefined, "the server offers the tune command the client sends");
  assert.deepEqual(titles, ["Run kernel: coop-lsp.runKernel", `Tune kernel: ${tune}`]);
  assert.deepEqual(lenses[1].range, lenses[0].range);
  // An unsaved buffer cannot be tuned: the answer says so, and the client's summary shows it.
  const result = await connection.sendRequest(protocol.ExecuteCommandRequest.type,
    { command: tune, arguments: ["untitled:Untitled-1", "main"] });
  assert.equal(result.status, "error");
  assert.match(config.renderTuneResult(result, "untitled:Untitled-1"), /saved \.wgsl file/);
});
