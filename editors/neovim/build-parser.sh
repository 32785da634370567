#!/usr/bin/env bash
# Builds coop-lsp's tree-sitter grammar as a Neovim parser, without nvim-treesitter.
#
#   editors/neovim/build-parser.sh [SITE_DIR]
#
# Writes SITE_DIR/parser/wgsl_coop.so. SITE_DIR defaults to
# ${XDG_DATA_HOME:-~/.local/share}/nvim/site, which is on Neovim's default
# 'runtimepath', so coop-lsp.lua finds the parser there with no further set-up.
#
# The language is called `wgsl_coop` so that it never clashes with
# nvim-treesitter's own `wgsl` parser. Neovim 0.7 and 0.8 look a parser up by
# the C symbol `tree_sitter_<language>`, so the library exports
# `tree_sitter_wgsl_coop` beside the grammar's own `tree_sitter_wgsl`.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SITE="${1:-${XDG_DATA_HOME:-$HOME/.local/share}/nvim/site}"
SRC="$REPO/tree-sitter-wgsl/src"
CC="${CC:-cc}"

if ! command -v "$CC" >/dev/null 2>&1; then
  echo "build-parser.sh needs a C compiler (set CC, or install gcc)" >&2
  exit 2
fi

mkdir -p "$SITE/parser"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat >"$work/alias.c" <<'EOF'
typedef struct TSLanguage TSLanguage;
const TSLanguage *tree_sitter_wgsl(void);
const TSLanguage *tree_sitter_wgsl_coop(void) { return tree_sitter_wgsl(); }
EOF

# Build beside the destination and rename, so that a running Neovim that has
# the old library loaded never sees a half-written file.
tmp="$SITE/parser/.wgsl_coop.so.$$"
trap 'rm -rf "$work" "$tmp"' EXIT
"$CC" -O2 -shared -fPIC -I "$SRC" -o "$tmp" \
  "$SRC/parser.c" "$SRC/scanner.c" "$work/alias.c"
mv -f "$tmp" "$SITE/parser/wgsl_coop.so"
echo "$SITE/parser/wgsl_coop.so"
