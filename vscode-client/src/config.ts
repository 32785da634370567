// Everything the extension decides without VS Code, other than how the server
// starts (launch.ts): what settings it is sent, how command results are shown. Kept free of the
// `vscode` module so that the Node tests can load it directly.
/** The section the server reads (`workspace/configuration`, `initializationOptions`). */
export const SERVER_SECTION = "coop-lsp";

/** Names the server may register its commands under; the first one it announces wins. */
export const RUN_KERNEL_COMMANDS = ["coop.runKernel", "coop-lsp.runKernel"];
export const DEVICES_COMMANDS = ["coop.devices", "coop-lsp.devices"];
export const TUNE_KERNEL_COMMANDS = ["coop-lsp.tuneKernel"];
/** Commands that execute the workspace's kernels (and its run files): refused in Restricted Mode. */
export const KERNEL_COMMANDS = [...RUN_KERNEL_COMMANDS, ...TUNE_KERNEL_COMMANDS];

export type Dialect = "auto" | "wgpu" | "chromium" | "standard";
export type RuleLevel = "off" | "error" | "warning" | "information" | "info" | "hint";

export interface ClientSettings {
  serverCommand: string[];
  pythonPath: string;
  workers: number | null;
  cacheDirectory: string;
  dialect: Dialect;
  targets: string[];
  activeTarget: string;
  rules: Record<string, string>;
}

const LEVELS: Record<string, string> = {
  error: "error", warning: "warning", warn: "warning", information: "information", info: "information", hint: "hint",
};

/**
 * The `coop-lsp` section the server understands, from the extension's settings:
 * `dialect` (null for auto), `targets` (the active one first), and the rules
 * map split into `rules` (code -> false for "off") and `severities`.
 */
export function serverSettings(settings: Pick<ClientSettings, "dialect" | "targets" | "activeTarget" | "rules">):
    { dialect: string | null; targets: string[]; rules: Record<string, boolean>; severities: Record<string, string> } {
  const targets = settings.activeTarget !== ""
    ? [settings.activeTarget, ...settings.targets.filter((t) => t !== settings.activeTarget)]
    : [...settings.targets];
  const rules: Record<string, boolean> = {};
  const severities: Record<string, string> = {};
  for (const [code, value] of Object.entries(settings.rules ?? {})) {
    const level = String(value).toLowerCase();
    if (level === "off" || level === "none" || level === "false") {
      rules[code] = false;
    } else if (LEVELS[level] !== undefined) {
      rules[code] = true;
      severities[code] = LEVELS[level];
    }
  }
  return { dialect: settings.dialect === "auto" ? null : settings.dialect, targets, rules, severities };
}

/** The first candidate the server announced in `executeCommandProvider.commands`. */
export function pickServerCommand(announced: readonly string[] | undefined, candidates: readonly string[]):
    string | undefined {
  return candidates.find((c) => announced?.includes(c));
}

/** Names of `@compute` entry points in a WGSL module, in order. */
export function computeEntryPoints(text: string): string[] {
  const withoutComments = stripComments(text);
  const names: string[] = [];
  const pattern = /@\s*compute\b[^{;]*?\bfn\s+([A-Za-z_][A-Za-z0-9_]*)/g;
  for (const match of withoutComments.matchAll(pattern)) {
    names.push(match[1] as string);
  }
  return names;
}

/** WGSL text with line and (nested) block comments blanked out, offsets kept. */
export function stripComments(text: string): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const two = text.slice(i, i + 2);
    if (depth === 0 && two === "//") {
      while (i < text.length && text[i] !== "\n") {
        out += " ";
        i++;
      }
      if (i < text.length) {
        out += "\n";
      }
    } else if (two === "/*") {
      depth++;
      out += "  ";
      i++;
    } else if (depth > 0 && two === "*/") {
      depth--;
      out += "  ";
      i++;
    } else {
      const ch = text[i] as string;
      out += depth > 0 && ch !== "\n" ? " " : ch;
    }
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A Markdown report of whatever `coop.runKernel` returned. */
export function renderRunReport(result: unknown, uri: string, entryPoint: string | undefined, target: string): string {
  const lines = [`# Run: ${entryPoint ?? "kernel"}`, "", `- module: \`${uri}\``];
  if (target !== "") {
    lines.push(`- target: \`${target}\``);
  }
  lines.push("");
  if (result === null || result === undefined) {
    lines.push("The server returned no result (see the coop-lsp output channel for messages).");
  } else if (typeof result === "string") {
    lines.push(result);
  } else if (isRecord(result) && typeof result.markdown === "string") {
    lines.push(result.markdown);
  } else {
    if (isRecord(result)) {
      for (const [key, value] of Object.entries(result)) {
        if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
          lines.push(`- ${key}: ${String(value)}`);
        }
      }
      lines.push("");
    }
    lines.push("```json", JSON.stringify(result, null, 2), "```");
  }
  return lines.join("\n") + "\n";
}

export interface DeviceItem {
  label: string;
  description?: string;
  detail?: string;
}

/** Quick-pick items for whatever `coop.devices` returned (a list of devices or names). */
export function deviceItems(result: unknown): DeviceItem[] {
  const list = Array.isArray(result)
    ? result
    : isRecord(result) && Array.isArray(result.devices) ? result.devices : [];
  return list.map((device: unknown): DeviceItem => {
    if (!isRecord(device)) {
      return { label: String(device) };
    }
    const label = String(device.name ?? device.id ?? device.profile ?? "device");
    const description = [device.backend, device.vendor, device.kind, device.source]
      .filter((x) => typeof x === "string" && x !== "").join(" · ");
    const rest = Object.entries(device)
      .filter(([k]) => !["name", "id", "profile", "backend", "vendor", "kind", "source"].includes(k))
      .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join("; ");
    const item: DeviceItem = { label };
    if (description !== "") item.description = description;
    if (rest !== "") item.detail = rest;
    return item;
  });
}

/**
 * Whether a document the server asks to show (`window/showDocument`) is a tune's HTML report, which the
 * extension shows as a page beside the kernel rather than as HTML source or in a browser outside the editor.
 */
export function isTuneReport(uri: string): boolean {
  return /^file:\/\/.*\/\.coop-lint\/tune\/[^/]+\.tune\.html$/.test(uri);
}

/** A Markdown report of whatever `coop-lsp.tuneKernel` returned: its summary and the files it wrote. */
export function renderTuneResult(result: unknown, uri: string): string {
  const lines = [`# Tune: \`${uri}\``, ""];
  if (!isRecord(result)) {
    lines.push("The server returned no result (see the coop-lsp output channel for messages).");
    return lines.join("\n") + "\n";
  }
  lines.push(`- status: ${String(result.status ?? "unknown")}`);
  for (const key of ["report", "tuned", "results"]) {
    if (typeof result[key] === "string") {
      lines.push(`- ${key}: \`${String(result[key])}\``);
    }
  }
  lines.push("");
  if (typeof result.markdown === "string") {
    lines.push(result.markdown);
  }
  return lines.join("\n") + "\n";
}
