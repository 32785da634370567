#!/usr/bin/env bash
# Installs Coder's code-server (the 4.96 line, the last on Node 20) from npm into
# .e2e/code-server (git-ignored), for the real-editor test (tests/test_vscode_e2e.py).
#
#   vscode-client/scripts/install-code-server.sh
#
# code-server's own postinstall fetches one VS Code dependency (@vscode/proxy-agent)
# from a GitHub tarball and ripgrep from GitHub releases; only npm's registry is
# needed here: the same proxy-agent release comes from the registry, the native
# modules a headless server needs are built against the local Node headers, and
# search uses Debian's ripgrep when it is installed. Exit 0 when code-server runs.
set -euo pipefail

VERSION=4.96.4
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PREFIX="$ROOT/.e2e/code-server"
PACKAGE="$PREFIX/node_modules/code-server"
STAMP="$PREFIX/.installed-$VERSION"

log() { printf '==> %s\n' "$*" >&2; }

if [ -f "$STAMP" ] && [ -f "$PACKAGE/out/node/entry.js" ]; then
  exit 0
fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" != 20 ]; then
  echo "code-server $VERSION needs Node 20 (found $(node --version))" >&2
  exit 3
fi
log "installing code-server $VERSION from npm into $PREFIX (once; a few minutes)"
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
npm install --prefix "$PREFIX" --ignore-scripts --no-audit --no-fund --loglevel=error "code-server@$VERSION"
(cd "$PREFIX" && npm rebuild --loglevel=error argon2)  # code-server's own native module

cd "$PACKAGE/lib/vscode"
# The shrinkwrap pins @vscode/proxy-agent to a git commit; the registry's 0.27.0 is that release.
node -e '
const fs = require("fs");
const file = "npm-shrinkwrap.json";
const wrap = JSON.parse(fs.readFileSync(file, "utf8"));
const entry = wrap.packages["node_modules/@vscode/proxy-agent"];
entry.resolved = "https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-0.27.0.tgz";
entry.integrity = "sha512-ID1MOlynRkVN121n85Hs1enjW16B5Z1O6bMDkSPqvAMVD6eHUOqmgPZuEkBbRI43PfA6boUEY9Ndjp+0wPKtsg==";
delete entry.version; entry.version = "0.27.0";
fs.writeFileSync(file, JSON.stringify(wrap, null, 2));
'
npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
log "building the native modules code-server loads at start"
npm rebuild --loglevel=error @vscode/spdlog @parcel/watcher node-pty native-watchdog
ln -sfn node_modules node_modules.asar
if command -v rg >/dev/null 2>&1; then
  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
fi
(cd extensions && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
touch "$STAMP"
log "code-server $VERSION installed"
