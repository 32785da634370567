#!/usr/bin/env bash
# Here, before the device runs: fills .gpu16/ (git-excluded) with what the H200 machine lacks and the two trees to
# compare, and .gl/ with the Vulkan loader. Usage, from the repository root:
#   bash benchmarks/device/prepare.sh START_REV [MERGED_REV]      (MERGED_REV defaults to HEAD)
# Then, with the device tool: run `bash benchmarks/device/run_a.sh` and `bash benchmarks/device/run_b.sh`, carrying
# [".gpu16", ".gl"]; afterwards replace the checkout paths in the results with the revisions' names.
set -euo pipefail
start=$1; merged=${2:-HEAD}
grep -qx '/.gpu16/' .git/info/exclude 2>/dev/null || printf '/.gl/\n/.gpu16/\n' >> .git/info/exclude
mkdir -p .gl /tmp/amd64/partial .gpu16/whl
apt="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64"
[ -n "$(ls .gl/*.deb 2>/dev/null)" ] || { apt-get $apt update >/dev/null; (cd .gl && apt-get $apt download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2); }
# The machine's python3 is 3.12 in a venv with PyTorch, pytest and numpy; these are what it lacks (pinned as ours).
platforms="--platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform any"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp $platforms -d .gpu16/whl \
  tree-sitter==0.26.1 pygls==2.1.1 lsprotocol==2025.0.0 cattrs==26.2.1 attrs==26.1.0 wgpu==0.32.0 wgpudawn==0.32.0.4 \
  cffi==2.1.1 pycparser==3.12 rendercanvas==2.7.2 pytest-lsp==1.0.1 pytest-asyncio==1.0.0 pytest==8.3.4
for name in before:$start src:$merged; do
  folder=.gpu16/${name%%:*}; rm -rf "$folder"; mkdir -p "$folder"
  git archive "${name#*:}" | tar -x -C "$folder"
  cp coop_lsp/syntax/_grammar.abi3.so "$folder/coop_lsp/syntax/"
done
du -sh .gpu16 .gl
