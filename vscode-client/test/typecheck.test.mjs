// (a) The extension compiles with the TypeScript compiler in strict mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { clientRoot } from "./helpers.mjs";

test("tsconfig is strict", () => {
  const config = JSON.parse(readFileSync(join(clientRoot, "tsconfig.json"), "utf8"));
  assert.equal(config.compilerOptions.strict, true);
});

test("tsc --noEmit passes", () => {
  const tsc = join(clientRoot, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", clientRoot, "--noEmit"], { encoding: "utf8" });
  assert.equal(result.status, 0, `tsc reported:\n${result.stdout}${result.stderr}`);
});
