#!/usr/bin/env bash
# League benchmark: N remote `whistle bot` processes (default 64) connect by
# token to one `whistle league serve` for a few minutes. Every INTERVAL
# seconds it prints the matches recorded so far and the serving process's
# CPU time and resident memory (its bot processes are separate, so this is
# the referee, the scheduler and the store); at the end, matches per minute.
#
#   cargo build --release -p whistle-cli
#   scripts/league-bench.sh [BOTS] [SECONDS] [INTERVAL]
#
# HANDS (default 4) sets the hands of a match: a memory soak of 100,000
# matches runs `HANDS=1 scripts/league-bench.sh 32 1500 60` (the per-match
# costs show sooner with short matches).
#
# Needs Linux (/proc) and python3 (to read the standings' JSON).
set -euo pipefail
BOTS=${1:-64}
SECONDS_TOTAL=${2:-180}
INTERVAL=${3:-15}
HANDS=${HANDS:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${WHISTLE:-$ROOT/target/release/whistle}
DIR=$(mktemp -d /tmp/whistle-league-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$DIR"' EXIT

cat > "$DIR/bench.toml" <<TOML
name = "bench"
game = "israeli"
seed = 1
hands = $HANDS
format = "round-robin"
parallel = 16
[time]
per_action_ms = 5000
time_bank_ms = 30000
TOML
"$W" league init "$DIR/bench.toml" --dir "$DIR/lg" >/dev/null
for i in $(seq 1 "$BOTS"); do
  "$W" league add-bot "b$i" --dir "$DIR/lg" | sed -n 's/^token.*: //p' > "$DIR/b$i.token"
done
"$W" league serve --dir "$DIR/lg" --listen 127.0.0.1:0 --poll-ms 200 --progress quiet \
  --log warn > "$DIR/serve.out" 2> "$DIR/serve.err" &
SERVE=$!
for _ in $(seq 1 100); do grep -q listening "$DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
ADDR=$(awk '/listening/ {print $3; exit}' "$DIR/serve.out")
for i in $(seq 1 "$BOTS"); do
  kind=heuristic; [ $((i % 2)) -eq 0 ] && kind=first
  "$W" bot --bot "$kind" --address "$ADDR" --token "$(cat "$DIR/b$i.token")" \
    > /dev/null 2>> "$DIR/bots.err" &
done
TICK=$(getconf CLK_TCK)
matches() {
  "$W" league standings --json --dir "$DIR/lg" |
    python3 -c 'import json,sys; print(sum(r["matches"] for r in json.load(sys.stdin)) // 4)'
}
echo "bots $BOTS, $(nproc) cores; seconds matches cpu_s rss_kib"
START=$(date +%s)
while true; do
  sleep "$INTERVAL"
  NOW=$(( $(date +%s) - START ))
  read -r UT ST <<<"$(awk '{print $14, $15}' /proc/$SERVE/stat)"
  RSS=$(awk '/VmRSS/ {print $2}' /proc/$SERVE/status)
  echo "$NOW $(matches) $(( (UT + ST) / TICK )) $RSS"
  [ "$NOW" -ge "$SECONDS_TOTAL" ] && break
done
M=$(matches)
echo "matches per minute: $(python3 -c "print(round($M * 60 / $NOW, 1))")"
kill -TERM $SERVE; wait $SERVE || true
