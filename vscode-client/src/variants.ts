// Templates: the server keeps an active variant per file and reports the
// lines that variant leaves out (`coop/inactiveRegions`). This module dims
// those lines and shows the variant in a status bar item; clicking it picks
// another variant (the server command `coop-lsp.selectVariant`).
import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient } from "vscode-languageclient/node";

export const INACTIVE_REGIONS = "coop/inactiveRegions";
export const SELECT_VARIANT_COMMAND = "coop-lsp.selectVariant";

interface WirePosition { line: number; character: number }
interface InactiveRegions {
  uri: string;
  variant: string | null;
  variants: string[];
  regions: { start: WirePosition; end: WirePosition }[];
}

export class Variants implements vscode.Disposable {
  private readonly dimmed = vscode.window.createTextEditorDecorationType({ opacity: "0.45", isWholeLine: true });
  private readonly status = vscode.window.createStatusBarItem("coopLsp.variant", vscode.StatusBarAlignment.Right, 99);
  private readonly byUri = new Map<string, InactiveRegions>();

  constructor() {
    this.status.name = "coop-lsp variant";
    this.status.command = "coopLsp.selectVariant";
  }

  listen(client: LanguageClient): vscode.Disposable {
    return client.onNotification(INACTIVE_REGIONS, (params: InactiveRegions) => {
      this.byUri.set(params.uri, params);
      this.refresh();
    });
  }

  refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const found = this.byUri.get(editor.document.uri.toString());
      const ranges = (found?.regions ?? []).map((r) =>
        new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character));
      editor.setDecorations(this.dimmed, ranges);
    }
    const active = vscode.window.activeTextEditor;
    const found = active !== undefined ? this.byUri.get(active.document.uri.toString()) : undefined;
    if (found === undefined || found.variants.length === 0) {
      this.status.hide();
      return;
    }
    this.status.text = `$(versions) ${found.variant ?? "default"}`;
    this.status.tooltip = `coop-lsp: the template variant shown (${found.variants.length} configured). Click to change it.`;
    this.status.show();
  }

  async select(client: LanguageClient | undefined): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (client === undefined || editor === undefined) {
      return;
    }
    const uri = editor.document.uri.toString();
    const found = this.byUri.get(uri);
    if (found === undefined || found.variants.length === 0) {
      void vscode.window.showInformationMessage(
        "coop-lsp: this file has no variant sets ([[tool.coop-lint.variants]], see docs/templates.md).");
      return;
    }
    const items = found.variants.map((name): vscode.QuickPickItem =>
      name === found.variant ? { label: name, description: "active" } : { label: name });
    const choice = await vscode.window.showQuickPick(items, { placeHolder: "Template variant to check and show" });
    if (choice === undefined) {
      return;
    }
    try {
      await client.sendRequest(ExecuteCommandRequest.type, { command: SELECT_VARIANT_COMMAND, arguments: [uri, choice.label] });
    } catch (error) {
      void vscode.window.showErrorMessage(`coop-lsp: choosing the variant failed: ${String(error)}`);
    }
  }

  dispose(): void {
    this.dimmed.dispose();
    this.status.dispose();
  }
}
