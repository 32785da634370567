// package.json contributions, language configuration and snippets.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { clientRoot, repoRoot } from "./helpers.mjs";

const pkg = JSON.parse(readFileSync(join(clientRoot, "package.json"), "utf8"));
const json = (path) => JSON.parse(readFileSync(join(clientRoot, path), "utf8"));

test("dependencies are pinned exactly", () => {
  for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
    assert.match(version, /^\d+\.\d+\.\d+$/, `${name}@${version} is not an exact version`);
  }
  assert.ok(existsSync(join(clientRoot, "package-lock.json")), "package-lock.json is committed");
});

test("contributes the wgsl language, grammar, snippets, commands and settings", () => {
  const c = pkg.contributes;
  assert.deepEqual(c.languages[0].extensions, [".wgsl"]);
  assert.equal(c.grammars[0].scopeName, "source.wgsl");
  for (const file of [c.languages[0].configuration, c.grammars[0].path, c.snippets[0].path]) {
    assert.ok(existsSync(join(clientRoot, file)), file);
  }
  const commands = c.commands.map((x) => x.command);
  for (const id of ["coopLsp.runKernel", "coopLsp.tuneKernel", "coopLsp.selectTarget", "coopLsp.showDevices", "coopLsp.restartServer",
    "coopLsp.selectVariant"]) {
    assert.ok(commands.includes(id), id);
    assert.ok(readFileSync(join(clientRoot, "src", "extension.ts"), "utf8").includes(`"${id}"`), `${id} is registered`);
  }
  // Tuning runs the workspace's code, as running does: offered only in a trusted workspace.
  const palette = Object.fromEntries(c.menus.commandPalette.map((m) => [m.command, m.when]));
  assert.equal(palette["coopLsp.tuneKernel"], palette["coopLsp.runKernel"]);
  assert.match(palette["coopLsp.tuneKernel"], /isWorkspaceTrusted/);
  const p = c.configuration.properties;
  for (const key of ["coopLsp.server.command", "coopLsp.server.pythonPath", "coopLsp.server.workers",
    "coopLsp.server.cacheDirectory", "coopLsp.dialect", "coopLsp.targets",
    "coopLsp.rules", "coopLsp.trace.server"]) {
    assert.ok(p[key], key);
  }
  assert.deepEqual(p["coopLsp.dialect"].enum, ["auto", "wgpu", "chromium", "standard"]);
  assert.equal(p["coopLsp.targets"].type, "array");
  assert.equal(p["coopLsp.rules"].type, "object");
});

test("language configuration: comments, brackets, folding", () => {
  const lc = json("language-configuration.json");
  assert.equal(lc.comments.lineComment, "//");
  assert.deepEqual(lc.comments.blockComment, ["/*", "*/"]);
  // `<` is also less-than: it must not be a bracket or auto-close, only surround a selection
  const pairs = [...lc.brackets, ...lc.colorizedBracketPairs, ...lc.autoClosingPairs.map((p) => [p.open, p.close])];
  assert.ok(!pairs.some(([open]) => open === "<"));
  assert.ok(lc.surroundingPairs.some(([open, close]) => open === "<" && close === ">"));
  const start = new RegExp(lc.folding.markers.start);
  const end = new RegExp(lc.folding.markers.end);
  assert.ok(start.test("  // #region staging") && start.test("// region"));
  assert.ok(end.test("// #endregion") && !end.test("let x = 1; // endregion"));
  assert.ok(!start.test("// regional"));
});

test("the committed grammar is generated from scripts/grammar-src.mjs", () => {
  const result = spawnSync(process.execPath, [join(clientRoot, "scripts", "grammar-src.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
});

/** A snippet body with its placeholders replaced by their defaults. */
function expand(body) {
  let text = body.join("\n");
  for (let i = 0; i < 5 && /\$\{\d+:[^{}]*\}/.test(text); i++) {
    text = text.replace(/\$\{\d+:([^{}]*)\}/g, "$1");
  }
  return text.replace(/\$\d+/g, "");
}

const snippets = json("snippets/wgsl.code-snippets");
const lint = join(repoRoot, ".venv", "bin", "coop-lint");

test("there is a naive and a workgroup-staged GEMM snippet per dialect", () => {
  const prefixes = Object.values(snippets).flatMap((s) => [s.prefix].flat());
  for (const dialect of ["wgpu", "chromium", "standard"]) {
    for (const kind of ["naive", "staged"]) {
      assert.ok(prefixes.includes(`gemm-${dialect}-${kind}`), `gemm-${dialect}-${kind}`);
    }
  }
});

for (const [name, snippet] of Object.entries(snippets)) {
  test(`snippet '${name}' is clean WGSL for coop-lint`,
    { skip: existsSync(lint) ? false : `no ${lint} (run ./dev lint once)` }, () => {
      const text = expand(snippet.body);
      assert.ok(!text.includes("$"), text);
      const result = spawnSync(lint, ["--no-source", "--stdin-filename", "snippet.wgsl", "-"], { input: text, encoding: "utf8" });
      assert.equal(result.status, 0, `coop-lint on the expanded snippet:\n${result.stdout}${result.stderr}\n${text}`);
    });
}

test("template variants: the status bar item picks one, the server's inactive regions are dimmed", () => {
  const source = readFileSync(join(clientRoot, "src", "variants.ts"), "utf8");
  assert.ok(source.includes('"coop/inactiveRegions"'), "listens to coop/inactiveRegions");
  assert.ok(source.includes('"coop-lsp.selectVariant"'), "asks the server to switch variants");
  assert.ok(source.includes("createStatusBarItem"), "shows the variant in the status bar");
});

test("untrusted workspaces: limited support, no Run kernel, server settings from the user only", () => {
  const trust = pkg.capabilities?.untrustedWorkspaces;
  assert.equal(trust?.supported, "limited");
  // A cache folder named by the workspace could hold entries its author wrote (diagnostics hidden), and
  // its worker count is the machine's business: both come from user settings only, as the command does.
  assert.deepEqual([...trust.restrictedConfigurations].sort(), ["coopLsp.server.cacheDirectory", "coopLsp.server.command",
    "coopLsp.server.pythonPath", "coopLsp.server.workers"]);
  const menus = Object.values(pkg.contributes.menus).flat().filter((m) => m.command === "coopLsp.runKernel");
  assert.ok(menus.length > 0 && menus.every((m) => /\bisWorkspaceTrusted\b/.test(m.when)), JSON.stringify(menus));
  // The command itself and the server's Run kernel lenses check trust too (a lens or keybinding bypasses menus).
  const source = readFileSync(join(clientRoot, "src", "extension.ts"), "utf8");
  assert.match(source, /async function runKernel[\s\S]{0,200}!vscode\.workspace\.isTrusted/);
  assert.match(source, /provideCodeLenses[\s\S]{0,300}isTrusted/);
});
