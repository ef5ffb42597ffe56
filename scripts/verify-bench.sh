#!/usr/bin/env bash
# `whistle replay verify` of 10,000 runner-written Israeli hands: hands a
# second on every core and on one (`taskset -c 0`), beside the SHA-256
# floor, with the machine's core count and CPU.
#
# Usage: scripts/verify-bench.sh [RUNS]   (RUNS timed runs of each, default 3)
#        OLD=path/to/whistle scripts/verify-bench.sh [RUNS]
#   With OLD, that binary (another commit's release build) is timed too, on
#   the same files, alternately with this one, so both see the same load.
#
# The logs (200 sealed logs of 50 hands, hash chain and end record as the
# runner writes them, tournament seed 2026) are written by the verify bench
# (crates/replay/benches/verify.rs), which first prints the SHA-256 floor and
# its own in-process rounds (one thread, every core); then the release
# `whistle` binary verifies the folder with the seed, so the commitment, every
# match seed, deal, action and result and the chain are checked.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
logs=200
hands=50
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

cargo build --release -q -p whistle-cli
whistle="$(pwd)/target/release/whistle"
BENCH_DIR="$dir" BENCH_LOGS=$logs BENCH_HANDS=$hands BENCH_ROUNDS=3 \
    cargo bench -q -p whistle-replay --bench verify

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
total=$((logs * hands))
echo
echo "whistle replay verify, $total hands in $logs logs; nproc $(nproc); $cpu"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# One timed run of `whistle replay verify` (with `$@` in front, e.g. taskset);
# prints hands a second.
run() {
    local start end
    start=$(date +%s.%N)
    "$@" "$whistle" replay verify --seed 2026 "$dir" >/dev/null
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" -v n="$total" 'BEGIN { printf "%.0f", n / (e - s) }'
}

every=()
one=()
old_every=()
old_one=()
for _ in $(seq "$runs"); do
    if [ -n "${OLD:-}" ]; then
        old_every+=("$(whistle="$OLD" run)")
    fi
    every+=("$(run)")
    if [ -n "${OLD:-}" ]; then
        old_one+=("$(whistle="$OLD" run taskset -c 0)")
    fi
    one+=("$(run taskset -c 0)")
done
printf '| binary | cores | hands/s, %s runs |\n|---|---|---|\n' "$runs"
if [ -n "${OLD:-}" ]; then
    printf '| old (%s) | %s (every core) | %s |\n' "$OLD" "$(nproc)" "${old_every[*]}"
fi
printf '| this tree | %s (every core) | %s |\n' "$(nproc)" "${every[*]}"
if [ -n "${OLD:-}" ]; then
    printf '| old | 1 (taskset -c 0) | %s |\n' "${old_one[*]}"
fi
printf '| this tree | 1 (taskset -c 0) | %s |\n' "${one[*]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
