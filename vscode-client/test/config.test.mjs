// The extension's decisions that do not need VS Code (finding the server: launch.test.mjs):
// translating settings, entry points, reports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { clientRoot, serverCommandLine } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const config = require(join(clientRoot, "dist", "test", "config.js"));
const launch = require(join(clientRoot, "dist", "test", "launch.js"));

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
    const python = launch.onPath("python3", process.env, process.platform);
    const probe = python && spawnSync(python, ["-c", "import coop_lsp.server.main"], { env: { ...process.env, PYTHONSAFEPATH: "1" }, cwd: "/" });
    if (probe && probe.status !== 0) {
      assert.match(serverCommandLine(python).skip, /coop_lsp\.server\.main is not importable/);
    }
  } finally {
    if (saved !== undefined) process.env.COOP_LSP_SERVER = saved;
  }
});

test("tune: the command's name, the reports the extension shows as a page, the summary", () => {
  assert.equal(config.pickServerCommand(["coop-lsp.runKernel", "coop-lsp.tuneKernel"], config.TUNE_KERNEL_COMMANDS),
    "coop-lsp.tuneKernel");
  // Restricted Mode hides and refuses both: each executes the workspace's kernels.
  for (const id of [...config.RUN_KERNEL_COMMANDS, ...config.TUNE_KERNEL_COMMANDS]) {
    assert.ok(config.KERNEL_COMMANDS.includes(id), id);
  }
  assert.ok(config.isTuneReport("file:///w/.coop-lint/tune/gemm.tune.html"));
  for (const other of ["file:///w/.coop-lint/tune/gemm.tuned.json", "file:///w/gemm.tune.html",
    "https://example.com/.coop-lint/tune/gemm.tune.html", "file:///w/.coop-lint/tune/sub/x.tune.html"]) {
    assert.ok(!config.isTuneReport(other), other);
  }
  const done = config.renderTuneResult({ status: "done", report: "/w/.coop-lint/tune/k.tune.html",
    tuned: "/w/.coop-lint/tune/k.tuned.json", markdown: "## Tune of k.wgsl" }, "file:///w/k.wgsl");
  assert.match(done, /^# Tune: `file:\/\/\/w\/k.wgsl`/);
  assert.ok(done.includes("- status: done") && done.includes("- report: `/w/.coop-lint/tune/k.tune.html`"));
  assert.ok(done.includes("## Tune of k.wgsl"));
  const cancelled = config.renderTuneResult({ status: "cancelled", markdown: "cancelled after 1/2" }, "file:///w/k.wgsl");
  assert.ok(cancelled.includes("- status: cancelled") && !cancelled.includes("- report:"));
  assert.match(config.renderTuneResult(null, "file:///w/k.wgsl"), /returned no result/);
});
