#!/usr/bin/env bash
# Uploads at a deadline: STUDENTS bots (default 30) each upload the example
# Python stdio bot (bots/stdio/first_legal.py, a file of its own per student)
# at the same moment with `whistle league submit`. Uploads are checked one at
# a time (the league's upload lock); this prints when each answer came and
# the time until the last one.
#
#   cargo build --release -p whistle-cli
#   scripts/submit-bench.sh [STUDENTS]
#
# Needs Linux, python3 and a sandbox (docs/fair-play.md).
set -euo pipefail
STUDENTS=${1:-30}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${WHISTLE:-$ROOT/target/release/whistle}
DIR=$(mktemp -d /tmp/whistle-submit-bench.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

cat > "$DIR/class.toml" <<TOML
name = "class"
game = "israeli"
hands = 2
fill = true

[submissions]
queue_s = 3600

[[reference]]
name = "first"
command = ["whistle", "bot", "--bot", "first"]
TOML
"$W" league init "$DIR/class.toml" --dir "$DIR/lg" >/dev/null
for i in $(seq 1 "$STUDENTS"); do
  mkdir -p "$DIR/s$i"
  { cat "$ROOT/bots/stdio/first_legal.py"; echo "# student $i"; } > "$DIR/s$i/bot.py"
  printf 'command = ["python3", "bot.py"]\nprotocol = "stdio"\nruntime = "python3"\n' \
    > "$DIR/s$i/whistle.toml"
  "$W" league add-bot "s$i" --dir "$DIR/lg" | sed -n 's/^token (shown once; the league keeps only its hash): //p' \
    > "$DIR/s$i/token"
done
start=$(date +%s%N)
for i in $(seq 1 "$STUDENTS"); do
  (
    out=$("$W" league submit "$DIR/s$i" --token "$(cat "$DIR/s$i/token")" --dir "$DIR/lg" 2>&1 | head -1)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf '%6d ms  s%s: %s\n' "$ms" "$i" "$out"
  ) &
done
wait
ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf '%s uploads answered in %d ms\n' "$STUDENTS" "$ms"
