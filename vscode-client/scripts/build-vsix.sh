#!/usr/bin/env bash
# Builds the extension package without running the Node tests:
#
#   vscode-client/scripts/build-vsix.sh OUT.vsix
#
# (npm ci from package-lock.json when node_modules is missing or stale, bundle, vsce package).
set -euo pipefail
CLIENT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(realpath -m "${1:?usage: build-vsix.sh OUT.vsix}")"
cd "$CLIENT"
stamp="node_modules/.coop-lock-sha256"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
fi
node scripts/bundle.mjs --minify >/dev/null
node node_modules/@vscode/vsce/vsce package --no-dependencies --allow-missing-repository --out "$OUT" >/dev/null
