// Shared by the Node tests: paths, and a reader for .vsix (zip) listings.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

export const clientRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = join(clientRoot, "..");

/** The command line that starts the real server, or why there is none. */
export function serverCommandLine(python = join(repoRoot, ".venv", "bin", "python")) {
  const override = process.env.COOP_LSP_SERVER;
  if (override !== undefined && override.trim() !== "") {
    const parts = override.trim().startsWith("[") ? JSON.parse(override) : override.trim().split(/\s+/);
    return { command: parts[0], args: parts.slice(1) };
  }
  if (!existsSync(python)) {
    return { skip: `no ${python}: run ./dev test (or set COOP_LSP_SERVER) to create it` };
  }
  const probe = spawnSync(python, ["-c", "import coop_lsp.server.main"], { encoding: "utf8", timeout: 60000 });
  if (probe.status !== 0) {
    const why = (probe.stderr || String(probe.error ?? "")).trim().split("\n").pop();
    return { skip: `coop_lsp.server.main is not importable from ${python} (${why})` };
  }
  return { command: python, args: ["-m", "coop_lsp.server.main"] };
}

/** Names of the files in a zip archive, from its central directory. */
export function zipEntries(path) {
  const data = readFileSync(path);
  // End of central directory record: signature 0x06054b50, at most 64 KiB of comment after it.
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    throw new Error(`${path} is not a zip archive`);
  }
  const count = data.readUInt16LE(eocd + 10);
  let offset = data.readUInt32LE(eocd + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    if (data.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`${path}: bad central directory entry ${n}`);
    }
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    names.push(data.subarray(offset + 46, offset + 46 + nameLength).toString("utf8"));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
