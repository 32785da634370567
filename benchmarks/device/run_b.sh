set -o pipefail
# On the device machine, from the repository root: SESSION=N bash benchmarks/device/run_b.sh (comment edits three times, cold per core pinned to one CPU, edit overhead twice; about 5 minutes)
source benchmarks/device/setup.sh
ROOT=$PWD; R=$PWD/.gpu16
cd $R/src
for s in "" b c; do .venv/bin/python -m benchmarks.comment_edits --against $R/before --repeats 3 --result comment_edits_device$SESSION$s > /dev/null; done
# One CPU for the whole comparison: unpinned, each process landed near one of two speeds ~40% apart (session 25).
$(command -v taskset > /dev/null && echo taskset -c 5) .venv/bin/python -m benchmarks.cold_per_core --checkout $R/before --checkout $R/src --rounds 6 --result cold_per_core_device$SESSION > /dev/null
for s in "" b; do .venv/bin/python -m benchmarks.edit_overhead --baseline $R/before --result edit_overhead_device$SESSION$s > /dev/null; done
cp benchmarks/results/*device$SESSION*.json $OUT/ ; uptime
