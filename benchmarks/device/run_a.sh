set -o pipefail
# On the device machine, from the repository root: SESSION=N bash benchmarks/device/run_a.sh (GPU tests of both trees, server latency, typing cost at two sizes; about 5.5 minutes)
source benchmarks/device/setup.sh
ROOT=$PWD; R=$PWD/.gpu16
for t in before src; do (cd $R/$t && PYTHONPATH=$ROOT/benchmarks/device timeout 200 .venv/bin/python -m pytest -q -p no:cacheprovider -p no:timeout -p adapter_only -n 8 -rfs $GPU_TESTS > $OUT/gpu_tests_$t.txt 2>&1; tail -3 $OUT/gpu_tests_$t.txt); done
cd $R/src
.venv/bin/python -m benchmarks.server_latency --matrix-heavy --against $R/before --rounds 8 --result server_latency_alternating_device$SESSION 2>&1 | tail -3
.venv/bin/python -m benchmarks.typing_cost --baseline $R/before --rounds 12 --json $OUT/typing_cost_device$SESSION.json > /dev/null
.venv/bin/python -m benchmarks.typing_cost --baseline $R/before --rounds 4 --kernels 82 --json $OUT/typing_cost_large_device$SESSION.json > /dev/null
cp benchmarks/results/server_latency_alternating_device$SESSION.json $OUT/ ; uptime
