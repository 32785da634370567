// (d) The .vsix is built with @vscode/vsce for one platform (--target) from the bundled
// extension and the bundled server (bundled/, made by scripts/ensure-bundle.sh, which
// scripts/test.sh runs first), holds what VS Code and the server need, and its server
// starts from the unpacked package with nothing but a python3 on PATH.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { clientRoot, repoRoot, zipEntries } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const launch = require(join(clientRoot, "dist", "test", "launch.js"));
const protocol = require("vscode-languageserver-protocol/node");

const pkg = JSON.parse(readFileSync(join(clientRoot, "package.json"), "utf8"));
const manifestPath = join(clientRoot, "bundled", "manifest.json");
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : undefined;
const noBundle = manifest === undefined ? "no bundled/manifest.json: run scripts/ensure-bundle.sh linux-x64 (test.sh does)" : false;
const vsix = join(clientRoot, `coop-lsp-wgsl-${manifest?.target ?? "none"}.vsix`);

test("vsce packages the extension for its platform, with the server and its libraries", { timeout: 180000, skip: noBundle }, () => {
  assert.ok(existsSync(join(clientRoot, "dist", "extension.js")), "dist/extension.js is built (scripts/test.sh bundles it)");
  rmSync(vsix, { force: true });
  const vsce = join(clientRoot, "node_modules", "@vscode", "vsce", "vsce");
  const result = spawnSync(process.execPath, [vsce, "package", "--no-dependencies", "--allow-missing-repository",
    "--target", manifest.target, "--out", vsix], { cwd: clientRoot, encoding: "utf8", input: "", timeout: 170000 });
  assert.equal(result.status, 0, `vsce package failed:\n${result.stdout}${result.stderr}`);
  assert.ok(existsSync(vsix) && statSync(vsix).size > 1000, `${vsix} was not written`);
  const entries = zipEntries(vsix);
  const has = (file) => entries.includes(file);
  for (const file of ["extension/dist/extension.js", "extension/package.json", "extension/syntaxes/wgsl.tmLanguage.json",
    "extension/language-configuration.json", "extension/snippets/wgsl.code-snippets", "extension.vsixmanifest",
    "extension/bundled/manifest.json", "extension/bundled/libs/coop_lsp/__init__.py",
    "extension/bundled/libs/coop_lsp/server/main.py", "extension/bundled/libs/typing_extensions.py",
    "extension/bundled/libs/coop_lsp/devices/profiles/nvidia-h100.json"]) {
    assert.ok(has(file), `${file} not in the .vsix`);
  }
  for (const library of ["pygls", "lsprotocol", "cattrs", "attrs", "tree_sitter"]) {
    assert.ok(has(`extension/bundled/libs/${library}/__init__.py`), `${library} is not bundled`);
  }
  // tree-sitter's compiled module, once per CPython version; the grammar, abi3 (in coop_lsp or its own package).
  for (const version of ["311", "312", "313"]) {
    assert.ok(entries.some((e) => e.startsWith(`extension/bundled/libs/tree_sitter/_binding.cpython-${version}-`)),
      `no tree_sitter binding for CPython ${version}`);
  }
  assert.ok(entries.some((e) => /^extension\/bundled\/libs\/(coop_lsp|tree_sitter_wgsl)\/.*\.abi3\.so$/.test(e)),
    "the compiled WGSL grammar is not bundled");
  assert.ok(!entries.some((e) => e.startsWith("extension/bundled/libs/bin/")), "console scripts of the build machine");
  assert.ok(!entries.some((e) => e.includes("node_modules") || e.startsWith("extension/src/") || e.startsWith("extension/test/")),
    "the .vsix holds sources or node_modules");
  const vsixManifest = spawnSync("python3", ["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('extension.vsixmanifest').decode())", vsix],
    { encoding: "utf8" }).stdout;
  assert.match(vsixManifest, new RegExp(`TargetPlatform="${manifest.target}"`), "a platform-specific package");
  assert.equal(manifest.coop_lsp, pkg.version, "the bundled coop-lsp is the extension's version");
  assert.ok(statSync(vsix).size < 40 * 1024 * 1024, `${statSync(vsix).size} bytes`);
});

/** A real Python >= 3.11 on this machine (resolved through shims), or undefined. */
function realPython() {
  for (const name of launch.PATH_PYTHONS) {
    const found = launch.onPath(name, process.env, process.platform);
    if (found === undefined) continue;
    const r = spawnSync(found, ["-c", "import sys; print(sys.executable if sys.version_info >= (3, 11) else '')"],
      { encoding: "utf8", cwd: "/" });
    if (r.status === 0 && r.stdout.trim() !== "") return r.stdout.trim();
  }
  return undefined;
}

test("the unpacked .vsix starts its own server with only a python3 on PATH, and says its version",
  { timeout: 120000, skip: noBundle }, async (t) => {
    if (!existsSync(vsix)) return t.skip("the packaging test did not produce the .vsix");
    const python = realPython();
    if (python === undefined) return t.skip("no Python >= 3.11 here");
    const root = mkdtempSync(join(tmpdir(), "coop-vsix-"));
    const unzip = spawnSync("python3", ["-m", "zipfile", "-e", vsix, root], { encoding: "utf8" });
    assert.equal(unzip.status, 0, unzip.stderr);
    const bin = join(root, "bin");
    spawnSync("mkdir", [bin]);
    symlinkSync(python, join(bin, "python3"));
    const bundle = launch.readBundle(join(root, "extension"));
    assert.ok(bundle !== undefined, "the unpacked package has its bundle");
    const found = await launch.discoverServer({ settings: { serverCommand: [], pythonPath: "" }, workspaceFolders: [],
      trusted: true, env: { PATH: bin }, platform: process.platform, bundle });
    assert.ok(!("error" in found), found.error);
    assert.equal(found.bundled, true);
    // The repository as the working directory: its own coop_lsp must not shadow the bundled one.
    const where = spawnSync(found.command, ["-c", "import coop_lsp; print(coop_lsp.__file__)"],
      { cwd: repoRoot, env: { PATH: bin, HOME: root, ...found.env }, encoding: "utf8" });
    assert.ok(where.stdout.startsWith(join(root, "extension", "bundled", "libs")), `coop_lsp from ${where.stdout}${where.stderr}`);
    const child = spawn(found.command, found.args, { cwd: repoRoot, env: { PATH: bin, HOME: root, ...found.env } });
    const stderr = [];
    child.stderr.on("data", (d) => stderr.push(d.toString()));
    const connection = protocol.createMessageConnection(
      new protocol.StreamMessageReader(child.stdout), new protocol.StreamMessageWriter(child.stdin));
    const published = new Promise((resolve) => connection.onNotification(protocol.PublishDiagnosticsNotification.type, resolve));
    connection.onRequest("workspace/configuration", (params) => params.items.map(() => null));
    connection.listen();
    try {
      const init = await connection.sendRequest(protocol.InitializeRequest.type,
        { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
      assert.equal(init.serverInfo?.version, pkg.version, `serverInfo ${JSON.stringify(init.serverInfo)}; stderr ${stderr.join("")}`);
      await connection.sendNotification(protocol.InitializedNotification.type, {});
      const uri = pathToFileURL(join(root, "bad.wgsl")).href;
      await connection.sendNotification(protocol.DidOpenTextDocumentNotification.type, { textDocument: {
        uri, languageId: "wgsl", version: 1, text: "@compute @workgroup_size(1) fn main() { let x: f32 = 1u; }\n" } });
      const diagnostics = await published;
      assert.equal(diagnostics.uri, uri);
      assert.ok(diagnostics.diagnostics.some((d) => /u32/.test(d.message)), JSON.stringify(diagnostics));
      await connection.sendRequest(protocol.ShutdownRequest.type);
      await connection.sendNotification(protocol.ExitNotification.type);
    } finally {
      connection.dispose();
      child.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });
