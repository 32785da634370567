#!/usr/bin/env bash
# Builds the self-contained extension package for one platform, without running the Node tests:
#
#   vscode-client/scripts/build-vsix.sh [--target linux-x64] OUT.vsix
#
# npm ci from package-lock.json when node_modules is missing or stale; the bundled server
# (scripts/ensure-bundle.sh: coop-lsp and its Python libraries in bundled/, rebuilt only when
# its sources changed); esbuild; `vsce package --target`. The target defaults to this machine's.
set -euo pipefail
CLIENT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) target=linux-x64 ;;
  Linux-aarch64) target=linux-arm64 ;;
  Darwin-arm64) target=darwin-arm64 ;;
  Darwin-x86_64) target=darwin-x64 ;;
  *) target="" ;;
esac
if [ "${1:-}" = "--target" ]; then
  target="${2:?--target needs a name}"
  shift 2
fi
[ -n "$target" ] || { echo "build-vsix: no --target given and this machine's is unknown" >&2; exit 2; }
OUT="$(realpath -m "${1:?usage: build-vsix.sh [--target TARGET] OUT.vsix}")"
cd "$CLIENT"
stamp="node_modules/.coop-lock-sha256"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
fi
scripts/ensure-bundle.sh "$target"
node scripts/bundle.mjs --minify >/dev/null
node node_modules/@vscode/vsce/vsce package --no-dependencies --allow-missing-repository --target "$target" \
  --out "$OUT" >/dev/null
