// How the extension finds its server and a Python to run it (src/launch.ts), the messages
// it shows when it cannot, and the version check after initialize. Interpreters are faked
// with a probe table, except in the last tests, which run the real ones on this machine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { clientRoot } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const launch = require(join(clientRoot, "dist", "test", "launch.js"));

const BUNDLE = { libs: "/ext/bundled/libs", version: "0.2.0", pythonVersions: ["3.11", "3.12", "3.13", "3.14"] };
const py = (version, extra = {}) => ({ version, implementation: "cpython", ...extra });

/** A discovery whose PATH holds `onPath` (name -> probe answer) in /bin, and whose probe reads `answers`. */
function discovery({ onPath = {}, answers = {}, pythonExtension, settings = {}, trusted = true, folders = [], noBundle = false }) {
  const probed = [];
  const files = new Set(Object.keys(onPath).map((name) => `/bin/${name}`));
  const table = { ...Object.fromEntries(Object.entries(onPath).map(([name, answer]) => [`/bin/${name}`, answer])), ...answers };
  return {
    probed,
    inputs: {
      settings: { serverCommand: [], pythonPath: "", ...settings },
      workspaceFolders: folders, trusted, env: { PATH: "/bin" }, platform: "linux", bundle: noBundle ? undefined : BUNDLE,
      pythonExtension,
      exists: (p) => files.has(p),
      probe: async (python) => {
        probed.push(python);
        return table[python] ?? { error: "not found" };
      },
    },
  };
}

test("the command setting wins, and nothing is probed", async () => {
  const d = discovery({ onPath: { python3: py([3, 12, 1]) }, settings: { serverCommand: ["/x/coop-lsp", "--log-level", "DEBUG"], pythonPath: "/py" } });
  const found = await launch.discoverServer(d.inputs);
  assert.deepEqual([found.command, found.args, found.source, found.bundled], ["/x/coop-lsp", ["--log-level", "DEBUG"], "setting coopLsp.server.command", false]);
  assert.deepEqual(d.probed, []);
});

test("the pythonPath setting: its own coop-lsp if it has one, else the bundled server with it", async () => {
  const own = await launch.discoverServer(discovery({ settings: { pythonPath: "/venv/bin/python" },
    answers: { "/venv/bin/python": py([3, 11, 4], { coopLsp: "0.1.0" }) } }).inputs);
  assert.deepEqual([own.command, own.args, own.source, own.bundled], ["/venv/bin/python", ["-m", "coop_lsp.server.main"], "setting coopLsp.server.pythonPath", false]);
  const bare = await launch.discoverServer(discovery({ settings: { pythonPath: "/usr/bin/python3.12" },
    answers: { "/usr/bin/python3.12": py([3, 12, 0]) } }).inputs);
  assert.deepEqual([bare.command, bare.bundled, bare.env.PYTHONPATH], ["/usr/bin/python3.12", true, "/ext/bundled/libs"]);
  const old = await launch.discoverServer(discovery({ settings: { pythonPath: "/usr/bin/python3.9" },
    answers: { "/usr/bin/python3.9": py([3, 9, 2]) } }).inputs);
  assert.match(old.error, /Python 3\.9\.2; coop-lsp needs 3\.11/);
  const missing = await launch.discoverServer(discovery({ settings: { pythonPath: "/nope/python" } }).inputs);
  assert.match(missing.error, /`\/nope\/python`\) cannot be run: not found/);
});

test("the Python extension's interpreter comes before PATH", async () => {
  const d = discovery({ onPath: { python3: py([3, 13, 0]) }, answers: { "/envs/a/bin/python": py([3, 12, 3]) },
    pythonExtension: async () => "/envs/a/bin/python" });
  const found = await launch.discoverServer(d.inputs);
  assert.equal(found.command, "/envs/a/bin/python");
  assert.match(found.detail, /Python 3\.12\.3, the Python extension's selected interpreter/);
  assert.deepEqual(d.probed, ["/envs/a/bin/python"]);
});

test("a Python extension that throws, or an old interpreter there, falls through to PATH", async () => {
  const throwing = await launch.discoverServer(discovery({ onPath: { python3: py([3, 11, 9]) },
    pythonExtension: async () => { throw new Error("boom"); } }).inputs);
  assert.equal(throwing.command, "/bin/python3");
  const old = await launch.discoverServer(discovery({ onPath: { python3: py([3, 11, 9]) },
    answers: { "/envs/old/bin/python": py([3, 8, 10]) }, pythonExtension: async () => "/envs/old/bin/python" }).inputs);
  assert.equal(old.command, "/bin/python3");
});

test("in an untrusted workspace an interpreter inside it is not run", async () => {
  const d = discovery({ trusted: false, folders: ["/ws"], onPath: { python3: py([3, 12, 0]) },
    answers: { "/ws/.venv/bin/python": py([3, 12, 0]) }, pythonExtension: async () => "/ws/.venv/bin/python" });
  const found = await launch.discoverServer(d.inputs);
  assert.equal(found.command, "/bin/python3");
  assert.ok(!d.probed.includes("/ws/.venv/bin/python"));
});

test("PATH: newest python3.x first; shims that fail and old or unsupported versions are skipped", async () => {
  const d = discovery({ onPath: {
    "python3.13": { error: "pyenv: python3.13: command not found" },
    "python3.12": py([3, 12, 1]),
    python3: py([3, 9, 2]),
  } });
  const found = await launch.discoverServer(d.inputs);
  assert.equal(found.command, "/bin/python3.12");
  assert.deepEqual(d.probed, ["/bin/python3.13", "/bin/python3.12"]);
  const future = await launch.discoverServer(discovery({ onPath: { python3: py([3, 15, 0]) } }).inputs);
  assert.match(future.error, /compiled for CPython 3\.11, 3\.12, 3\.13, 3\.14, not 3\.15/);
  const pypy = await launch.discoverServer(discovery({ onPath: { python3: py([3, 11, 0], { implementation: "pypy" }) } }).inputs);
  assert.match(pypy.error, /not CPython/);
});

test("the bundled server runs isolated: its libraries first, no user site, no workspace folder on sys.path", async () => {
  const found = await launch.discoverServer(discovery({ onPath: { python3: py([3, 11, 2], { coopLsp: "0.0.1" }) } }).inputs);
  assert.equal(found.bundled, true);
  assert.deepEqual(found.args, ["-m", "coop_lsp.server.main"]);
  assert.deepEqual(found.env, { PYTHONPATH: "/ext/bundled/libs", PYTHONNOUSERSITE: "1", PYTHONSAFEPATH: "1" });
});

test("no usable Python: one message that names what to install and which setting to set", async () => {
  const d = discovery({ onPath: { python3: py([3, 9, 2]), python: { error: "not found" } } });
  const found = await launch.discoverServer(d.inputs);
  assert.match(found.error, /Python 3\.11 or newer is needed/);
  assert.match(found.error, /Install Python 3\.11\+/);
  assert.match(found.error, /coopLsp\.server\.pythonPath/);
  assert.match(found.error, /\/bin\/python3: Python 3\.9\.2 is older than 3\.11/);
  assert.ok(!found.error.includes("\n") && !/\bat .*:\d+:\d+/.test(found.error), "one line, no stack trace");
  const none = await launch.discoverServer(discovery({}).inputs);
  assert.match(none.error, /none was found\. Install/);
});

test("coop-lsp on PATH is the last resort, and the only way without a bundle", async () => {
  const withTool = discovery({ onPath: { "coop-lsp": { error: "not a python" } } });
  const found = await launch.discoverServer(withTool.inputs);
  assert.deepEqual([found.command, found.source, found.bundled], ["/bin/coop-lsp", "PATH", false]);
  const noBundle = await launch.discoverServer(discovery({ noBundle: true, onPath: { python3: py([3, 12, 0]) } }).inputs);
  assert.match(noBundle.error, /has no bundled server/);
});

test("a trusted coop-lsp checkout runs its own .venv", async () => {
  const d = discovery({ folders: ["/ws"] });
  d.inputs.exists = (p) => ["/ws/.venv/bin/python", "/ws/coop_lsp/server"].includes(p);
  assert.equal((await launch.discoverServer(d.inputs)).source, "workspace .venv");
  const untrusted = discovery({ folders: ["/ws"], trusted: false });
  untrusted.inputs.exists = d.inputs.exists;
  assert.ok("error" in await launch.discoverServer(untrusted.inputs));
});

test("versions that differ are shown, never silent", () => {
  const user = { source: "PATH", bundled: false };
  assert.equal(launch.versionMismatchMessage("0.2.0", user, { name: "coop-lsp", version: "0.2.0" }), undefined);
  assert.match(launch.versionMismatchMessage("0.2.0", user, { name: "coop-lsp", version: "0.1.0" }),
    /server from PATH is version 0\.1\.0, this extension is 0\.2\.0/);
  assert.match(launch.versionMismatchMessage("0.1.0", { source: "setting coopLsp.server.command", bundled: false },
    { version: "0.3.0" }), /from setting coopLsp\.server\.command is version 0\.3\.0/);
  assert.match(launch.versionMismatchMessage("0.2.0", user, undefined), /did not say its version/);
  assert.match(launch.versionMismatchMessage("0.2.0", { source: "bundled", bundled: true }, { version: "0.1.0" }),
    /reinstall the extension/);
});

test("the Python extension's API is read defensively", async () => {
  const fsPath = "/envs/x/bin/python";
  const modern = { environments: { getActiveEnvironmentPath: () => ({ id: "x", path: "/envs/x" }),
    resolveEnvironment: async () => ({ executable: { uri: { fsPath } } }) } };
  assert.equal(await launch.pythonFromExtensionApi(modern, undefined), fsPath);
  const unresolved = { environments: { getActiveEnvironmentPath: () => ({ path: "/usr/bin/python3" }),
    resolveEnvironment: async () => { throw new Error("no"); } } };
  assert.equal(await launch.pythonFromExtensionApi(unresolved, undefined), "/usr/bin/python3");
  const old = { settings: { getExecutionDetails: () => ({ execCommand: ["/old/python"] }) } };
  assert.equal(await launch.pythonFromExtensionApi(old, undefined), "/old/python");
  for (const api of [undefined, null, 42, {}, { environments: {} }, { settings: { getExecutionDetails: () => ({}) } }]) {
    assert.equal(await launch.pythonFromExtensionApi(api, undefined), undefined);
  }
});

test("the probe runs a real interpreter, and explains one that is missing or not Python", async () => {
  assert.deepEqual(await launch.probePython("/nonexistent/python3"), { error: "not found" });
  const dir = mkdtempSync(join(tmpdir(), "coop-probe-"));
  const fake = join(dir, "python3");
  writeFileSync(fake, "#!/bin/sh\necho 'pyenv: python3: command not found' >&2\nexit 127\n");
  chmodSync(fake, 0o755);
  assert.deepEqual(await launch.probePython(fake), { error: "pyenv: python3: command not found" });
  const real = launch.onPath("python3", process.env, process.platform);
  if (real !== undefined) {
    const info = await launch.probePython(real);
    if (!("error" in info)) {
      assert.equal(info.version[0], 3);
      assert.equal(typeof info.implementation, "string");
    }
  }
});

test("bundledBindings lists the CPython versions of the compiled modules", () => {
  const libs = mkdtempSync(join(tmpdir(), "coop-libs-"));
  mkdirSync(join(libs, "tree_sitter"));
  for (const name of ["__init__.py", "_binding.cpython-311-x86_64-linux-gnu.so", "_binding.cpython-313-x86_64-linux-gnu.so"]) {
    writeFileSync(join(libs, "tree_sitter", name), "");
  }
  assert.deepEqual(launch.bundledBindings(libs).sort(), ["3.11", "3.13"]);
  assert.equal(launch.readBundle(libs), undefined, "no manifest, no bundle");
});

test("the workers and cache settings become server options, except on the user's own command line", () => {
  const bundled = { command: "/usr/bin/python3.12", args: ["-m", launch.SERVER_MODULE], source: "bundled", bundled: true, env: {}, detail: "" };
  const none = launch.withServerOptions(bundled, { workers: null, cacheDirectory: "" }, "/home/u");
  assert.deepEqual(none.args, ["-m", launch.SERVER_MODULE]);
  const both = launch.withServerOptions(bundled, { workers: 2, cacheDirectory: " ~/caches/coop " }, "/home/u");
  assert.deepEqual(both.args, ["-m", launch.SERVER_MODULE, "--workers", "2", "--cache-dir", "/home/u/caches/coop"]);
  assert.deepEqual(bundled.args, ["-m", launch.SERVER_MODULE], "the launch it was given is left as it was");
  // 0 is a real choice (everything in the server's process), not "unset"; a fractional or negative
  // number typed into settings.json still gives the server something it accepts.
  assert.deepEqual(launch.withServerOptions(bundled, { workers: 0, cacheDirectory: "" }, "/h").args.slice(2), ["--workers", "0"]);
  assert.deepEqual(launch.withServerOptions(bundled, { workers: -3.5, cacheDirectory: "" }, "/h").args.slice(2), ["--workers", "0"]);
  assert.deepEqual(launch.withServerOptions(bundled, { workers: 2.7, cacheDirectory: "/c" }, "/h").args.slice(2),
    ["--workers", "2", "--cache-dir", "/c"]);
  const own = { command: "/opt/bin/my-wrapper", args: ["--foo"], source: "setting coopLsp.server.command", bundled: false, env: {}, detail: "" };
  assert.deepEqual(launch.withServerOptions(own, { workers: 2, cacheDirectory: "/c" }, "/h").args, ["--foo"]);
});

test("a server known to be older than the options starts without them, and says which settings it ignored", async () => {
  const settings = { workers: 2, cacheDirectory: "~/c" };
  const own = await launch.discoverServer(discovery({ settings: { pythonPath: "/venv/bin/python" },
    answers: { "/venv/bin/python": py([3, 11, 4], { coopLsp: "0.1.0" }) } }).inputs);
  assert.equal(own.serverVersion, "0.1.0", "the interpreter's own coop-lsp says its version");
  const started = launch.withServerOptions(own, settings, "/home/u");
  assert.deepEqual(started.args, ["-m", launch.SERVER_MODULE], "argparse in 0.1.0 would stop at --workers");
  assert.deepEqual(started.ignoredSettings, ["coopLsp.server.workers", "coopLsp.server.cacheDirectory"]);
  const message = launch.ignoredSettingsMessage(started);
  assert.match(message, /`coopLsp\.server\.workers` and `coopLsp\.server\.cacheDirectory` need coop-lsp 0\.2\.0 or newer/);
  assert.match(message, /coop-lsp 0\.1\.0/);

  const bundled = await launch.discoverServer(discovery({ onPath: { python3: py([3, 12, 1]) } }).inputs);
  assert.equal(bundled.serverVersion, BUNDLE.version);
  const withBoth = launch.withServerOptions(bundled, settings, "/home/u");
  assert.deepEqual(withBoth.args.slice(2), ["--workers", "2", "--cache-dir", "/home/u/c"]);
  assert.equal(launch.ignoredSettingsMessage(withBoth), undefined);
  // Nothing asked for, nothing to say, whatever the version.
  assert.equal(launch.ignoredSettingsMessage(launch.withServerOptions(own, { workers: null, cacheDirectory: "" }, "/h")),
    undefined);
});

test("versions are compared by number, and an unknown version is not held against the server", () => {
  const since = launch.SERVER_OPTIONS_SINCE;
  assert.deepEqual([...since], [0, 2, 0]);
  assert.equal(launch.olderThan("0.1.9", since), true);
  assert.equal(launch.olderThan("0.1", since), true);
  assert.equal(launch.olderThan("0.2.0", since), false);
  assert.equal(launch.olderThan("0.10.0", since), false, "not a string comparison");
  assert.equal(launch.olderThan("1.0.0rc1", since), false);
  assert.equal(launch.olderThan("unknown", since), false);
  assert.equal(launch.olderThan(undefined, since), false);
});

test("probeServerVersion reads `coop-lsp --version` and never throws", async () => {
  const dir = mkdtempSync(join(tmpdir(), "coop-version-"));
  const old = join(dir, "coop-lsp");
  writeFileSync(old, "#!/bin/sh\n[ \"$1\" = --version ] && echo 'coop-lsp 0.1.0' && exit 0\nexit 2\n");
  chmodSync(old, 0o755);
  assert.equal(await launch.probeServerVersion(old), "0.1.0");
  const silent = join(dir, "silent");
  writeFileSync(silent, "#!/bin/sh\nexit 3\n");
  chmodSync(silent, 0o755);
  assert.equal(await launch.probeServerVersion(silent), undefined);
  assert.equal(await launch.probeServerVersion(join(dir, "absent")), undefined);
});
