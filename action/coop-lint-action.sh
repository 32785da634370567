#!/usr/bin/env bash
# The steps of the coop-lint GitHub Action (action.yml), kept here so that they can be run and
# tested outside GitHub (tests/test_github_action.py).
#
#   coop-lint-action.sh install   venv in $RUNNER_TEMP; coop-lsp from $GITHUB_ACTION_PATH, or from
#                                 $COOP_LINT_REPOSITORY at $COOP_LINT_VERSION; writes bin=... to $GITHUB_OUTPUT
#   coop-lint-action.sh lint      SARIF report to $COOP_LINT_SARIF, then the findings in $COOP_LINT_FORMAT;
#                                 writes sarif-file=... and findings=... to $GITHUB_OUTPUT
#
# Inputs arrive in environment variables, never spliced into the script text, so that a path or
# an option cannot become shell code.
set -euo pipefail

temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
venv="$temp/coop-lint-venv"

fail() {
  echo "::error title=coop-lint action::$*"
  exit 2
}

find_python() {
  local candidate
  for candidate in python3 python python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
  fail "coop-lint needs Python 3.11 or newer on PATH: add actions/setup-python (python-version: '3.12') before this action"
}

cmd_install() {
  local python source log
  python="$(find_python)"
  if [ -n "${COOP_LINT_VERSION:-}" ]; then
    # A bare VCS URL rather than "coop-lsp @ ...": older pips reject some PEP 508 URLs (file://).
    source="git+${COOP_LINT_REPOSITORY:?}@${COOP_LINT_VERSION}"
  else
    source="${GITHUB_ACTION_PATH:?the runner sets GITHUB_ACTION_PATH}"
  fi
  echo "::group::Install coop-lint from $source"
  log="$temp/coop-lint-install.log"
  "$python" -m venv "$venv" || fail "creating a virtual environment with $python failed (on Debian/Ubuntu it needs python3-venv)"
  if ! "$venv/bin/python" -m pip install --disable-pip-version-check "$source" >"$log" 2>&1; then
    cat "$log"
    echo "::endgroup::"
    fail "installing coop-lint from $source failed (log above): it needs network to PyPI for its dependencies and a C compiler for its grammar"
  fi
  "$venv/bin/coop-lint" --version
  echo "::endgroup::"
  echo "bin=$venv/bin" >>"${GITHUB_OUTPUT:?}"
}

cmd_lint() {
  local bin="${COOP_LINT_BIN:-}" coop_lint python sarif status target_list="${COOP_LINT_TARGETS:-}"
  coop_lint="${bin:+$bin/}coop-lint"
  python="${bin:+$bin/}python3"
  cd "${GITHUB_WORKSPACE:-.}"
  local -a paths common=(--cache-dir "$temp/coop-lint-cache") extra targets
  set -f  # the inputs are split at white space, not expanded as globs
  read -r -a paths <<<"${COOP_LINT_PATHS:-.}"
  read -r -a targets <<<"${target_list//,/ }"
  read -r -a extra <<<"${COOP_LINT_ARGS:-}"
  set +f
  [ ${#paths[@]} -gt 0 ] || paths=(.)
  for target in "${targets[@]}"; do common+=(--target "$target"); done
  common+=("${extra[@]}")
  sarif="${COOP_LINT_SARIF:-coop-lint.sarif}"

  "$coop_lint" "${common[@]}" --quiet --output-format sarif -o "$sarif" --exit-zero "${paths[@]}" ||
    fail "coop-lint could not lint ${paths[*]} (message above)"
  echo "sarif-file=$sarif" >>"${GITHUB_OUTPUT:?}"
  echo "findings=$("$python" -c 'import json, sys
print(sum(len(run.get("results", [])) for run in json.load(open(sys.argv[1]))["runs"]))' "$sarif")" >>"$GITHUB_OUTPUT"

  status=0
  "$coop_lint" "${common[@]}" --output-format "${COOP_LINT_FORMAT:-github}" "${paths[@]}" || status=$?
  if [ "$status" -eq 1 ] && [ "${COOP_LINT_FAIL:-true}" = false ]; then
    return 0
  fi
  return "$status"
}

case "${1:-}" in
  install) cmd_install ;;
  lint) cmd_lint ;;
  *) echo "usage: $0 install|lint" >&2; exit 2 ;;
esac
