// (d) The .vsix is built with @vscode/vsce from the bundled extension and holds
// what VS Code needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, rmSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { clientRoot, zipEntries } from "./helpers.mjs";

const vsix = join(clientRoot, "coop-lsp-wgsl.vsix");

test("vsce packages the extension", { timeout: 120000 }, () => {
  assert.ok(existsSync(join(clientRoot, "dist", "extension.js")), "dist/extension.js is built (scripts/test.sh bundles it)");
  rmSync(vsix, { force: true });
  const vsce = join(clientRoot, "node_modules", "@vscode", "vsce", "vsce");
  const result = spawnSync(process.execPath, [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--out", vsix],
    { cwd: clientRoot, encoding: "utf8", input: "", timeout: 110000 });
  assert.equal(result.status, 0, `vsce package failed:\n${result.stdout}${result.stderr}`);
  assert.ok(existsSync(vsix) && statSync(vsix).size > 1000, `${vsix} was not written`);
  const entries = zipEntries(vsix);
  for (const file of ["extension/dist/extension.js", "extension/package.json", "extension/syntaxes/wgsl.tmLanguage.json",
    "extension/language-configuration.json", "extension/snippets/wgsl.code-snippets", "extension.vsixmanifest"]) {
    assert.ok(entries.includes(file), `${file} not in the .vsix (it holds ${entries.join(", ")})`);
  }
  assert.ok(!entries.some((e) => e.includes("node_modules") || e.startsWith("extension/src/") || e.startsWith("extension/test/")),
    `the .vsix holds sources or node_modules: ${entries.join(", ")}`);
});
