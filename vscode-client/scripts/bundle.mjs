// Bundles the extension (with vscode-languageclient) into dist/extension.js,
// and src/config.ts and src/launch.ts alone into dist/test/ for the Node tests.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const common = { bundle: true, platform: "node", format: "cjs", target: "node18", logLevel: "warning" };

await build({
  ...common,
  entryPoints: [join(root, "src", "extension.ts")],
  outfile: join(root, "dist", "extension.js"),
  external: ["vscode"],
  sourcemap: true,
  minify: process.argv.includes("--minify"),
});
for (const name of ["config", "launch"]) {
  await build({
    ...common,
    entryPoints: [join(root, "src", `${name}.ts`)],
    outfile: join(root, "dist", "test", `${name}.js`),
  });
}
