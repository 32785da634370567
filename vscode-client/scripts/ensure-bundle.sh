#!/usr/bin/env bash
# Makes bundled/ (the coop-lsp server and its Python libraries, for one vsce --target)
# with scripts/bundle_server.py, unless it is already there for the same target and the
# same sources. Used by build-vsix.sh and test.sh.
#
#   vscode-client/scripts/ensure-bundle.sh TARGET     (linux-x64, ...)
set -euo pipefail
CLIENT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$CLIENT/.." && pwd)"
TARGET="${1:?usage: ensure-bundle.sh TARGET}"

# Any Python >= 3.11 with pip builds it; the repository's .venv when there is one.
python=""
for candidate in "$ROOT/.venv/bin/python" python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null 2>&1 &&
    "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "ensure-bundle: building the bundled server needs Python 3.11+ with pip" >&2
  exit 2
fi

# What goes into the bundle: coop-lsp's sources and metadata, the grammar, the script itself.
inputs=$(cd "$ROOT" && {
  echo "$TARGET"
  find coop_lsp tree-sitter-wgsl/src tree-sitter-wgsl/bindings/python -type f \
    \( -name '*.py' -o -name '*.c' -o -name '*.h' -o -name '*.json' -o -name '*.scm' \) -not -path '*/__pycache__/*' |
    LC_ALL=C sort | xargs cat
  cat pyproject.toml vscode-client/scripts/bundle_server.py
  cat setup.py tree-sitter-wgsl/setup.py tree-sitter-wgsl/pyproject.toml 2>/dev/null || true
} | sha256sum | cut -d' ' -f1)
stamp="$CLIENT/bundled/.inputs-sha256"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$inputs" ] && [ -f "$CLIENT/bundled/manifest.json" ]; then
  exit 0
fi
rm -rf "$CLIENT/bundled"
"$python" "$CLIENT/scripts/bundle_server.py" "$TARGET"
echo "$inputs" >"$stamp"
