#!/usr/bin/env bash
# The VS Code client's tests: install the pinned packages from package-lock.json
# (only when node_modules is missing or the lockfile changed), bundle, then run
# every Node test (type check, grammar, LSP round trip, contributions, server discovery,
# .vsix). The bundled server (bundled/) is rebuilt only when coop-lsp's sources changed.
#
#   vscode-client/scripts/test.sh [node --test options...]
#
# COOP_LSP_SERVER="cmd args..." overrides the server the LSP test starts
# (default: the repository's .venv/bin/python -m coop_lsp.server.main; the test
# skips when that module is not importable).
set -euo pipefail

CLIENT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$CLIENT"

log() { printf '==> %s\n' "$*" >&2; }

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "the VS Code client's tests need Node.js 20+ and npm" >&2
  exit 2
fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "the VS Code client's tests need Node.js 20+ (found $(node --version))" >&2
  exit 2
fi

stamp="node_modules/.coop-lock-sha256"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "npm ci (from package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
fi

log "the bundled server (coop-lsp and its Python libraries, for $(uname -m))"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) scripts/ensure-bundle.sh linux-x64 ;;
  Linux-aarch64) scripts/ensure-bundle.sh linux-arm64 ;;
  *) log "no bundled server for this platform; the .vsix tests skip" ;;
esac

log "bundling the extension (esbuild)"
node scripts/bundle.mjs --minify

log "node tests"
exec node --test --test-reporter=spec "$@" test/*.test.mjs
