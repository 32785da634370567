# Sourced on the device machine by run_a.sh and run_b.sh: the Vulkan loader, and a venv over the image's python3
# (its packages through a .pth, since that python3 is itself a venv) with our wheels; both trees' .venv point at it.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m venv --system-site-packages /tmp/venv >/dev/null
python3 -c "import site; print(chr(10).join(site.getsitepackages()))" \
  > "$(/tmp/venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/image.pth"
/tmp/venv/bin/python -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .gpu16/whl/*.whl || exit 3
for d in .gpu16/before .gpu16/src; do rm -rf "$d/.venv"; ln -s /tmp/venv "$d/.venv"; done
export PYTHONUNBUFFERED=1
# The tests that run kernels on the adapter (the image's pytest-timeout needs a newer pytest: -p no:timeout).
GPU_TESTS="$(cd .gpu16/src && grep -l '(adapter\|, adapter\|(lavapipe' tests/test_*.py | tr '\n' ' ')"
nproc; uptime
