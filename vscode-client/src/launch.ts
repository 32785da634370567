// Which server to start, and with which Python. Free of the `vscode` module so
// that the Node tests load it directly (dist/test/launch.js).
//
// Order: the coopLsp.server.command setting; the coopLsp.server.pythonPath
// setting; a trusted workspace's own .venv when the workspace is coop-lsp's
// repository; the server bundled in the .vsix, run by the Python extension's
// selected interpreter or a python3.x on PATH; coop-lsp on PATH.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, relative, isAbsolute } from "node:path";

export const SERVER_MODULE = "coop_lsp.server.main";
export const MIN_PYTHON: readonly [number, number] = [3, 11];
/** Interpreter names tried on PATH, newest first: a bare `python3` may be an old system one. */
export const PATH_PYTHONS = ["python3.13", "python3.12", "python3.11", "python3", "python"];

export type LaunchSource =
  | "setting coopLsp.server.command"
  | "setting coopLsp.server.pythonPath"
  | "workspace .venv"
  | "bundled"
  | "PATH";

export interface ServerLaunch {
  command: string;
  args: string[];
  source: LaunchSource;
  /** True when the server is the one inside the .vsix (its version is the extension's). */
  bundled: boolean;
  /** Variables to set (a value of undefined removes the variable). */
  env: Record<string, string | undefined>;
  /** For the log: which interpreter, and why it was chosen. */
  detail: string;
  /** The coop-lsp version this command runs, where it is known before starting it. */
  serverVersion?: string;
  /** Settings left out because that version does not accept them (see withServerOptions). */
  ignoredSettings?: string[];
}

/** The first coop-lsp whose server accepts `--workers` and `--cache-dir`. */
export const SERVER_OPTIONS_SINCE: readonly [number, number, number] = [0, 2, 0];

/** The server options the extension's settings ask for (coopLsp.server.workers, .cacheDirectory). */
export interface ServerOptionSettings {
  /** null: the server's default. */
  workers: number | null;
  /** "": the server's default. */
  cacheDirectory: string;
}

/**
 * `launch` with the command-line options the settings ask for. A command from
 * coopLsp.server.command is the user's own and is run as written: it may not
 * even be coop-lsp.
 */
export function withServerOptions(launch: ServerLaunch, settings: ServerOptionSettings, home: string): ServerLaunch {
  if (launch.source === "setting coopLsp.server.command") {
    return launch;
  }
  const args = [...launch.args];
  const wanted: [string, string[]][] = [];
  const workers = settings.workers;
  if (typeof workers === "number" && Number.isFinite(workers)) {
    wanted.push(["coopLsp.server.workers", ["--workers", String(Math.max(0, Math.trunc(workers)))]]);
  }
  const cache = settings.cacheDirectory.trim();
  if (cache !== "") {
    wanted.push(["coopLsp.server.cacheDirectory",
      ["--cache-dir", cache === "~" || cache.startsWith("~/") ? home + cache.slice(1) : cache]]);
  }
  // An older server stops at an option it does not know (argparse), so the whole server would
  // be lost for a tuning setting: it starts without them instead, and the user is told why.
  if (wanted.length > 0 && olderThan(launch.serverVersion, SERVER_OPTIONS_SINCE)) {
    return { ...launch, args, ignoredSettings: wanted.map(([setting]) => setting) };
  }
  for (const [, options] of wanted) {
    args.push(...options);
  }
  return { ...launch, args };
}

/** True only for a version known to be older: an unknown or unreadable one is given the benefit of the doubt. */
export function olderThan(version: string | undefined, since: readonly [number, number, number]): boolean {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version?.trim() ?? "");
  if (match === null) {
    return false;
  }
  const parts = [Number(match[1]), Number(match[2]), Number(match[3] ?? "0")];
  for (let i = 0; i < 3; i++) {
    if (parts[i] !== since[i]) {
      return parts[i]! < since[i]!;
    }
  }
  return false;
}

/** What to tell the user about settings withServerOptions left out, or undefined when none were. */
export function ignoredSettingsMessage(launch: ServerLaunch): string | undefined {
  const ignored = launch.ignoredSettings ?? [];
  if (ignored.length === 0) {
    return undefined;
  }
  const names = ignored.map((name) => `\`${name}\``).join(" and ");
  return `${names} ${ignored.length === 1 ? "needs" : "need"} coop-lsp ${SERVER_OPTIONS_SINCE.join(".")} or newer; `
    + `the server started (from ${launch.source}) is coop-lsp ${launch.serverVersion ?? "?"}, so it runs without `
    + `${ignored.length === 1 ? "it" : "them"}. Upgrade that coop-lsp to use ${ignored.length === 1 ? "it" : "them"}.`;
}

/** `coop-lsp --version` of an installed server, or undefined when it does not say; never throws. */
export function probeServerVersion(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, ["--version"], { cwd: tmpdir(), timeout: 15000, encoding: "utf8" }, (error, stdout) => {
      const match = error === null ? /coop-lsp\s+(\S+)/.exec(String(stdout)) : null;
      resolve(match === null ? undefined : match[1]);
    });
  });
}

export interface LaunchProblem {
  error: string;
}

/** What the .vsix carries: bundled/manifest.json, written by scripts/bundle_server.py. */
export interface Bundle {
  libs: string;
  version: string;
  /** "3.11", "3.12", ...: the CPython versions its compiled modules exist for. */
  pythonVersions: string[];
}

export interface PythonInfo {
  version: [number, number, number];
  implementation: string;
  /** coop_lsp's version when the interpreter has it installed itself. */
  coopLsp?: string;
}

export type Probe = (python: string) => Promise<PythonInfo | { error: string }>;

export interface Discovery {
  settings: { serverCommand: string[]; pythonPath: string };
  workspaceFolders: string[];
  trusted: boolean;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  bundle: Bundle | undefined;
  /** The Python extension's selected interpreter, if that extension is installed. */
  pythonExtension?: () => Promise<string | undefined>;
  probe?: Probe;
  exists?: (path: string) => boolean;
}

/** The bundle next to the extension, or undefined for a package built without one. */
export function readBundle(extensionRoot: string): Bundle | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(extensionRoot, "bundled", "manifest.json"), "utf8"));
    const libs = join(extensionRoot, "bundled", "libs");
    if (!existsSync(join(libs, "coop_lsp"))) {
      return undefined;
    }
    // Only the versions whose compiled parser is really there: a damaged install then says which
    // Python it cannot serve instead of failing inside the server.
    const present = bundledBindings(libs);
    const versions = (manifest.python_versions ?? []).map(String).filter((v: string) => present.includes(v));
    return { libs, version: String(manifest.coop_lsp), pythonVersions: versions };
  } catch {
    return undefined;
  }
}

/** The compiled-module suffixes present in the bundle's tree_sitter, as "3.12"-style versions. */
export function bundledBindings(libs: string): string[] {
  try {
    return readdirSync(join(libs, "tree_sitter"))
      .map((name) => /\.cpython-3(\d+)-/.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `3.${m[1]}`);
  } catch {
    return [];
  }
}

/** The program on PATH called `name`, like `which`. */
export function onPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform,
                       exists: (path: string) => boolean = existsSync): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? "").split(platform === "win32" ? ";" : delimiter).filter(Boolean);
  const suffixes = platform === "win32" ? [".exe", ".cmd", ".bat", ""] : [""];
  for (const dir of dirs) {
    for (const suffix of suffixes) {
      const candidate = join(dir, name + suffix);
      if (exists(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

// Prints the interpreter's version and, when it has coop-lsp installed itself, coop-lsp's
// version. find_spec first: importing coop_lsp.server would cost a second.
const PROBE_SCRIPT = [
  "import sys, json",
  "info = {'version': list(sys.version_info[:3]), 'implementation': sys.implementation.name}",
  "try:",
  "    import importlib.util",
  "    if importlib.util.find_spec('coop_lsp') is not None and importlib.util.find_spec('coop_lsp.server') is not None:",
  "        import coop_lsp",
  "        info['coop_lsp'] = str(getattr(coop_lsp, '__version__', 'unknown'))",
  "except Exception:",
  "    pass",
  "print(json.dumps(info))",
].join("\n");

/** Runs `python` once to learn its version; never throws. */
export const probePython: Probe = (python) => new Promise((resolve) => {
  // A neutral directory and no PYTHONPATH: what the interpreter itself has, not the workspace.
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONSAFEPATH: "1" };
  delete env.PYTHONPATH;
  execFile(python, ["-c", PROBE_SCRIPT], { cwd: tmpdir(), env, timeout: 15000, encoding: "utf8" },
    (error, stdout, stderr) => {
      if (error !== null) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") {
          resolve({ error: "not found" });
        } else if (error.killed) {
          resolve({ error: "did not answer within 15 s" });
        } else {
          const last = String(stderr ?? "").trim().split("\n").pop() ?? "";
          resolve({ error: last !== "" ? last : `exit status ${String(error.code)}` });
        }
        return;
      }
      try {
        const info = JSON.parse(String(stdout).trim().split("\n").pop() ?? "");
        resolve({ version: info.version, implementation: info.implementation, coopLsp: info.coop_lsp });
      } catch {
        resolve({ error: "printed no version (is it a Python interpreter?)" });
      }
    });
});

function versionText(info: PythonInfo): string {
  return info.version.join(".");
}

function oldEnough(info: PythonInfo): boolean {
  const [major, minor] = info.version;
  return major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]);
}

/** Why the bundled server cannot run on this interpreter, or undefined when it can. */
export function bundleRefuses(bundle: Bundle, info: PythonInfo): string | undefined {
  if (!oldEnough(info)) {
    return `Python ${versionText(info)} is older than ${MIN_PYTHON.join(".")}`;
  }
  if (info.implementation !== "cpython") {
    return `${info.implementation} ${versionText(info)} is not CPython, which the bundled parser is compiled for`;
  }
  const short = `${info.version[0]}.${info.version[1]}`;
  if (!bundle.pythonVersions.includes(short)) {
    return `the bundled parser is compiled for CPython ${bundle.pythonVersions.join(", ")}, not ${short}`;
  }
  return undefined;
}

/** The environment that runs the bundled server: its libraries first, nothing of the user's before them. */
export function bundledEnv(bundle: Bundle): Record<string, string | undefined> {
  return {
    // Ahead of site-packages: a different coop-lsp, pygls or tree-sitter installed in the chosen
    // interpreter cannot shadow the bundled ones; what only the interpreter has (wgpu and numpy,
    // for running kernels) is still found after them. Inherited by the kernel runner's worker.
    PYTHONPATH: bundle.libs,
    PYTHONNOUSERSITE: "1", // ~/.local packages stay out too
    PYTHONSAFEPATH: "1", // `-m` would otherwise put the workspace folder (maybe a coop-lsp checkout) first
  };
}

function inside(path: string, folders: string[]): boolean {
  return folders.some((folder) => {
    const rel = relative(folder, path);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  });
}

export function noPythonMessage(tried: string[]): string {
  const found = tried.length > 0 ? ` (tried ${tried.join("; ")})` : "";
  return `Python ${MIN_PYTHON.join(".")} or newer is needed to run the bundled server, and none was found${found}. `
    + `Install Python ${MIN_PYTHON.join(".")}+ (python.org, or your system's python3.11/python3.12 package), `
    + "or set `coopLsp.server.pythonPath` to one, then run \"coop-lsp: Restart Server\".";
}

/** Decides how to start the server (see the order at the top of this file). */
export async function discoverServer(d: Discovery): Promise<ServerLaunch | LaunchProblem> {
  const exists = d.exists ?? existsSync;
  const probe = d.probe ?? probePython;

  const command = d.settings.serverCommand.filter((part) => part.trim() !== "");
  if (command.length > 0) {
    const [program, ...args] = command as [string, ...string[]];
    return { command: program, args, source: "setting coopLsp.server.command", bundled: false, env: {}, detail: "" };
  }

  const pythonSetting = d.settings.pythonPath.trim();
  if (pythonSetting !== "") {
    const info = await probe(pythonSetting);
    if ("error" in info) {
      return { error: `The interpreter in \`coopLsp.server.pythonPath\` (\`${pythonSetting}\`) cannot be run: ${info.error}.` };
    }
    if (!oldEnough(info)) {
      return { error: `\`coopLsp.server.pythonPath\` is Python ${versionText(info)}; coop-lsp needs ${MIN_PYTHON.join(".")} or newer.` };
    }
    if (info.coopLsp !== undefined) {
      return { command: pythonSetting, args: ["-m", SERVER_MODULE], source: "setting coopLsp.server.pythonPath",
        bundled: false, env: {}, detail: `its own coop-lsp ${info.coopLsp}, Python ${versionText(info)}`,
        serverVersion: info.coopLsp };
    }
    if (d.bundle === undefined) {
      return { error: `\`${pythonSetting}\` has no coop-lsp. Install it there (\`${pythonSetting} -m pip install\` with the coop-lsp repository or its wheel; see its README's Install).` };
    }
    const refusal = bundleRefuses(d.bundle, info);
    if (refusal !== undefined) {
      return { error: `\`coopLsp.server.pythonPath\` (\`${pythonSetting}\`) cannot run the bundled server: ${refusal}.` };
    }
    return { command: pythonSetting, args: ["-m", SERVER_MODULE], source: "bundled", bundled: true,
      env: bundledEnv(d.bundle), detail: `Python ${versionText(info)} from coopLsp.server.pythonPath`,
      serverVersion: d.bundle.version };
  }

  // Working on coop-lsp itself: its checkout's .venv runs the code being edited.
  if (d.trusted) {
    for (const folder of d.workspaceFolders) {
      const venvPython = d.platform === "win32"
        ? join(folder, ".venv", "Scripts", "python.exe")
        : join(folder, ".venv", "bin", "python");
      if (exists(venvPython) && exists(join(folder, "coop_lsp", "server"))) {
        return { command: venvPython, args: ["-m", SERVER_MODULE], source: "workspace .venv", bundled: false, env: {},
          detail: "the workspace is a coop-lsp checkout" };
      }
    }
  }

  const tried: string[] = [];
  if (d.bundle !== undefined) {
    const candidates: { python: string; from: string }[] = [];
    if (d.pythonExtension !== undefined) {
      let selected: string | undefined;
      try {
        selected = await d.pythonExtension();
      } catch {
        selected = undefined;
      }
      // An untrusted folder may carry its own interpreter; it is not run on its word.
      if (selected !== undefined && selected !== "" && !(!d.trusted && inside(selected, d.workspaceFolders))) {
        candidates.push({ python: selected, from: "the Python extension's selected interpreter" });
      }
    }
    for (const name of PATH_PYTHONS) {
      const found = onPath(name, d.env, d.platform, exists);
      if (found !== undefined && !candidates.some((c) => c.python === found)) {
        candidates.push({ python: found, from: `${name} on PATH` });
      }
    }
    for (const candidate of candidates) {
      const info = await probe(candidate.python);
      if ("error" in info) {
        tried.push(`${candidate.python}: ${info.error}`);
        continue;
      }
      const refusal = bundleRefuses(d.bundle, info);
      if (refusal !== undefined) {
        tried.push(`${candidate.python}: ${refusal}`);
        continue;
      }
      return { command: candidate.python, args: ["-m", SERVER_MODULE], source: "bundled", bundled: true,
        env: bundledEnv(d.bundle), detail: `Python ${versionText(info)}, ${candidate.from}`,
        serverVersion: d.bundle.version };
    }
  }

  const installed = onPath("coop-lsp", d.env, d.platform, exists);
  if (installed !== undefined) {
    return { command: installed, args: [], source: "PATH", bundled: false, env: {}, detail: "" };
  }
  if (d.bundle !== undefined) {
    return { error: noPythonMessage(tried) };
  }
  return {
    error: "coop-lsp was not found, and this package of the extension has no bundled server. "
      + "Install coop-lsp (`pipx install` with the coop-lsp repository or its wheel puts `coop-lsp` on PATH), "
      + "or set `coopLsp.server.pythonPath` to a Python that has it, "
      + "or `coopLsp.server.command` to the full command line.",
  };
}

/** The explanation to show when the process could not be spawned at all. */
export function spawnFailureMessage(launch: Pick<ServerLaunch, "command" | "args" | "source">, error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/ENOENT/.test(text)) {
    return `Could not start the coop-lsp server: \`${launch.command}\` (from ${launch.source}) was not found. `
      + "Install coop-lsp or fix the setting.";
  }
  return `Could not start the coop-lsp server with \`${[launch.command, ...launch.args].join(" ")}\` `
    + `(from ${launch.source}): ${text.split("\n")[0]}`;
}

/**
 * What to tell the user when the server's version (initialize's serverInfo) is not the
 * extension's: undefined when they agree. A server the user chose is named with its source,
 * so that the fix (update it, or clear the setting to use the bundled one) is clear.
 */
export function versionMismatchMessage(extensionVersion: string, launch: Pick<ServerLaunch, "source" | "bundled">,
                                       serverInfo: { name?: string; version?: string } | undefined): string | undefined {
  const version = serverInfo?.version;
  if (version === extensionVersion) {
    return undefined;
  }
  const which = launch.bundled ? "the bundled coop-lsp server" : `the coop-lsp server from ${launch.source}`;
  if (version === undefined || version === "") {
    return `${which} did not say its version; this extension is ${extensionVersion}. `
      + "Features may not match: update the server, or clear coopLsp.server.* to use the bundled one.";
  }
  const fix = launch.bundled
    ? "This package is inconsistent: reinstall the extension."
    : "Features may not match: update that server to the same version, or clear coopLsp.server.* to use the bundled one.";
  return `${which} is version ${version}, this extension is ${extensionVersion}. ${fix}`;
}

/**
 * The interpreter path from the Python extension's exported API (`ms-python.python`),
 * read defensively: the API has changed shape across releases and may be absent.
 */
export async function pythonFromExtensionApi(api: unknown, resource: unknown): Promise<string | undefined> {
  const environments = (api as { environments?: Record<string, unknown> } | undefined)?.environments;
  if (environments !== undefined && typeof environments.getActiveEnvironmentPath === "function") {
    const active = environments.getActiveEnvironmentPath(resource) as { path?: unknown } | undefined;
    if (typeof environments.resolveEnvironment === "function" && active !== undefined) {
      try {
        const resolved = await (environments.resolveEnvironment as (e: unknown) => Promise<unknown>)(active) as
          { executable?: { uri?: { fsPath?: unknown } } } | undefined;
        const path = resolved?.executable?.uri?.fsPath;
        if (typeof path === "string" && path !== "") {
          return path;
        }
      } catch {
        // fall back to the path as given
      }
    }
    if (typeof active?.path === "string" && active.path !== "") {
      return active.path;
    }
  }
  // Older releases: settings.getExecutionDetails(resource).execCommand = [python, ...].
  const settings = (api as { settings?: Record<string, unknown> } | undefined)?.settings;
  if (settings !== undefined && typeof settings.getExecutionDetails === "function") {
    const details = settings.getExecutionDetails(resource) as { execCommand?: unknown } | undefined;
    const first = Array.isArray(details?.execCommand) ? details?.execCommand[0] : undefined;
    if (typeof first === "string" && first !== "") {
      return first;
    }
  }
  return undefined;
}
