// The extension's decisions that do not need VS Code: finding the server,
// translating settings, entry points, reports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { clientRoot, serverCommandLine } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const config = require(join(clientRoot, "dist", "test", "config.js"));

const base = { settings: { serverCommand: [], pythonPath: "" }, workspaceFolders: [], trusted: true,
  env: { PATH: "/usr/bin:/opt/bin" }, platform: "linux" };

test("server launch: command setting first", () => {
  const launch = config.resolveServerLaunch({ ...base, settings: { serverCommand: ["/x/coop-lsp", "--log-level", "DEBUG"], pythonPath: "/py" } });
  assert.deepEqual([launch.command, launch.args, launch.source], ["/x/coop-lsp", ["--log-level", "DEBUG"], "setting coopLsp.server.command"]);
});

test("server launch: python setting runs the module", () => {
  const launch = config.resolveServerLaunch({ ...base, settings: { serverCommand: [""], pythonPath: "/venv/bin/python" } });
  assert.deepEqual([launch.command, launch.args, launch.python], ["/venv/bin/python", ["-m", "coop_lsp.server.main"], "/venv/bin/python"]);
});

test("server launch: a trusted workspace's .venv, never an untrusted one", () => {
  const exists = (p) => ["/ws/.venv/bin/python", "/ws/coop_lsp/server"].includes(p);
  const trusted = config.resolveServerLaunch({ ...base, workspaceFolders: ["/ws"], exists });
  assert.equal(trusted.command, "/ws/.venv/bin/python");
  const untrusted = config.resolveServerLaunch({ ...base, workspaceFolders: ["/ws"], trusted: false, exists });
  assert.ok("error" in untrusted);
});

test("server launch: coop-lsp on PATH, else a clear error", () => {
  const found = config.resolveServerLaunch({ ...base, exists: (p) => p === "/opt/bin/coop-lsp" });
  assert.deepEqual([found.command, found.source], ["/opt/bin/coop-lsp", "PATH"]);
  const missing = config.resolveServerLaunch({ ...base, exists: () => false });
  assert.match(missing.error, /coop-lsp was not found/);
  assert.match(missing.error, /coopLsp\.server\.pythonPath/);
});

test("checkPython explains a missing interpreter and a missing module", () => {
  assert.match(config.checkPython("/nonexistent/python3"), /does not exist/);
  const python = ["python3", "python"].map((n) => config.onPath(n, process.env, process.platform)).find(Boolean);
  if (python !== undefined) {
    // a system Python without coop_lsp installed (or with it: then no message)
    const message = config.checkPython(python);
    assert.ok(message === undefined || /coop-lsp|coop_lsp/.test(message), message);
  }
});

test("spawn failures name the command and where it came from", () => {
  const message = config.spawnFailureMessage({ command: "/bad/coop-lsp", args: [], source: "PATH" },
    new Error("spawn /bad/coop-lsp ENOENT"));
  assert.match(message, /\/bad\/coop-lsp/);
  assert.match(message, /not found/);
});

test("settings for the server", () => {
  const out = config.serverSettings({
    dialect: "auto", targets: ["a", "b", "c"], activeTarget: "b",
    rules: { S002: "warning", T012: "off", mixed_dialects: "Error", bogus: "loud" },
  });
  assert.deepEqual(out, {
    dialect: null,
    targets: ["b", "a", "c"],
    rules: { S002: true, T012: false, mixed_dialects: true },
    severities: { S002: "warning", mixed_dialects: "error" },
  });
  assert.equal(config.serverSettings({ dialect: "wgpu", targets: [], activeTarget: "", rules: {} }).dialect, "wgpu");
});

test("server command names", () => {
  assert.equal(config.pickServerCommand(["x", "coop-lsp.runKernel"], config.RUN_KERNEL_COMMANDS), "coop-lsp.runKernel");
  assert.equal(config.pickServerCommand(["coop.runKernel", "coop-lsp.runKernel"], config.RUN_KERNEL_COMMANDS), "coop.runKernel");
  assert.equal(config.pickServerCommand(undefined, config.DEVICES_COMMANDS), undefined);
});

test("compute entry points, ignoring comments", () => {
  const text = [
    "// @compute fn commented() {}",
    "/* @compute /* nested */ fn alsoCommented() {} */",
    "@compute @workgroup_size(64)",
    "fn first(@builtin(global_invocation_id) id: vec3u) {}",
    "@fragment fn frag() -> @location(0) vec4f { return vec4f(); }",
    "@compute @workgroup_size(1) fn second() {}",
  ].join("\n");
  assert.deepEqual(config.computeEntryPoints(text), ["first", "second"]);
});

test("run reports and device lists", () => {
  assert.match(config.renderRunReport(null, "file:///k.wgsl", "main", ""), /no result/);
  assert.match(config.renderRunReport({ markdown: "**ok**" }, "file:///k.wgsl", "main", "h100"), /\*\*ok\*\*[\s\S]*$/);
  const report = config.renderRunReport({ ok: true, ms: 1.5, details: [1] }, "file:///k.wgsl", "main", "h100");
  assert.match(report, /- target: `h100`/);
  assert.match(report, /- ok: true/);
  assert.match(report, /```json/);
  assert.deepEqual(config.deviceItems(["a"]), [{ label: "a" }]);
  const [item] = config.deviceItems({ devices: [{ name: "H100", backend: "vulkan", subgroup: 32 }] });
  assert.deepEqual(item, { label: "H100", description: "vulkan", detail: "subgroup: 32" });
});

test("the LSP test skips, with a reason, when the server module is missing", () => {
  const saved = process.env.COOP_LSP_SERVER;
  delete process.env.COOP_LSP_SERVER;
  try {
    assert.match(serverCommandLine("/nonexistent/bin/python").skip, /no \/nonexistent\/bin\/python/);
    const python = config.onPath("python3", process.env, process.platform);
    if (python !== undefined && config.checkPython(python) !== undefined) {
      assert.match(serverCommandLine(python).skip, /coop_lsp\.server\.main is not importable/);
    }
  } finally {
    if (saved !== undefined) process.env.COOP_LSP_SERVER = saved;
  }
});
