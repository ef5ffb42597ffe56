#!/usr/bin/env bash
# One benchmark command: every row of the speed table (issue 34) side by
# side with its peer measured in the same run, as one Markdown table, with
# the machine's core count, CPU and load.
#
# Usage: scripts/bench.sh [--quick] [--only NAME,NAME...] [--keep DIR]
#
#   --quick   short windows and small runs, to try the command (minutes, not
#             tens of minutes); the figures are then rough.
#   --only    run only these rows (names below), e.g. --only demo,verify.
#   --keep    keep every bench's raw output in DIR (default: a temporary
#             folder, removed at the end).
#
# Rows (each calls an existing bench and parses its output):
#   referee     crates/referee/benches/throughput.rs (compact binary
#               requests, the kits' default, read as the Rust kit reads them;
#               the same decoded by prost; compact text requests; 1 and 64
#               tables: three rows) against raw tonic ping-pong (1 and 64
#               streams)
#   tournament  crates/tournament/benches/tournament.rs: 10,000 Israeli hands,
#               4 gRPC bot processes, the whole run; the peer is the bound the
#               raw 64-stream ping-pong rate of the referee row sets
#   verify      scripts/verify-bench.sh: `whistle replay verify` of 10,000
#               hands on every core, against SHA-256 of every line alone
#   engine      crates/rules/benches/playouts.rs: random Israeli hands on one
#               core against OpenSpiel's oh_hell (needs open_spiel importable
#               by $WHISTLE_OPENSPIEL_PYTHON, default $WHISTLE_PYTHON)
#   python      crates/python/bench/playouts.py: playouts from a Python loop,
#               whistle_engine against OpenSpiel, per decision (needs
#               whistle_engine and open_spiel importable by $WHISTLE_PYTHON)
#   batch       the same script's batch rows (many playouts in one call), if
#               it prints any, against OpenSpiel's Python loop
#   demo        `whistle tournament tournaments/demo.toml` (fresh sandboxed
#               instance per seat), wall time, against the same event with
#               `sandbox = false` on every bot, in the same run
#   kit         scripts/python-kit-bench.py: the Python kit with compact
#               requests against raw grpcio ping-pong (needs grpcio and
#               protobuf importable by $WHISTLE_KIT_PYTHON)
#
# A row whose bench is missing, fails or prints nothing this script can
# read says "n/a" and why; the others still run. To add a row: write a
# function `row_NAME` that runs its bench (output into "$raw/NAME.txt") and
# calls `put MEASURE WHISTLE PEER RATIO TARGET`, and add NAME to ROWS.
set -uo pipefail
cd "$(dirname "$0")/.."

ROWS=(referee tournament verify engine python batch demo kit)
quick=0
only=""
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --only) only="$2"; shift ;;
        --keep) keep="$2"; shift ;;
        -h|--help) sed -n '2,45p' "$0"; exit 0 ;;
        *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ -n "$keep" ]; then
    raw="$keep"
    mkdir -p "$raw"
else
    raw="$(mktemp -d)"
    trap 'rm -rf "$raw"' EXIT
fi
py="${WHISTLE_PYTHON:-python3}"
ospy="${WHISTLE_OPENSPIEL_PYTHON:-$py}"
kitpy="${WHISTLE_KIT_PYTHON:-$py}"
whistle="$(pwd)/target/release/whistle"
table="$raw/table.md"
: > "$table"

# One row of the table.
put() { printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" >> "$table"; }
# A row that could not be measured, and why.
na() { put "$1" "n/a" "n/a" "($2)" "$3"; }
# `a / b` with `digits` decimals, or n/a when either is missing.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.*f", d, a / b }'; }
# A number with thousands separators.
num() { awk -v x="$1" 'BEGIN { if (x == "") { print "n/a"; exit } s = sprintf("%.0f", x); n = ""; while (length(s) > 3) { n = "," substr(s, length(s) - 2) n; s = substr(s, 1, length(s) - 3) } print s n }'; }
wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
can_import() { "$1" -c "import $2" >/dev/null 2>&1; }

# --- the rows -------------------------------------------------------------

# The referee's throughput bench, one Markdown row by its case label:
# prints "rate cpu_us".
throughput_row() {
    awk -F'|' -v want="$1" '{ gsub(/^ +| +$/, "", $2) } $2 == want { gsub(/ /, "", $3); gsub(/ /, "", $6); print $3, $6 }' "$raw/referee.txt"
}

row_referee() {
    # Binary requests are the kits' default (compact and binary in Hello):
    # the row, with the bench's bots reading them as the Rust kit does (a
    # request's bytes straight into the kept observation); beside it the
    # same requests decoded by prost (any other client), and compact text
    # requests.
    local args=(--only 'raw ping-pong, 1 stream$|raw ping-pong, 64 streams$|compact$|binary$|read as the Rust kit$')
    [ $quick = 1 ] && args+=(--rounds 1 --secs 1 --warmup 0.3)
    cargo bench -q -p whistle-referee --bench throughput -- "${args[@]}" > "$raw/referee.txt" 2>&1
    local k1 k1cpu k64 k64cpu b1 b1cpu b64 b64cpu c1 c1cpu c64 c64cpu p1 p1cpu p64 p64cpu
    read -r k1 k1cpu <<< "$(throughput_row 'whistle, 1 table, binary, read as the Rust kit')"
    read -r k64 k64cpu <<< "$(throughput_row 'whistle, 64 tables, binary, read as the Rust kit')"
    read -r b1 b1cpu <<< "$(throughput_row 'whistle, 1 table, binary')"
    read -r b64 b64cpu <<< "$(throughput_row 'whistle, 64 tables, binary')"
    read -r c1 c1cpu <<< "$(throughput_row 'whistle, 1 table, compact')"
    read -r c64 c64cpu <<< "$(throughput_row 'whistle, 64 tables, compact')"
    read -r p1 p1cpu <<< "$(throughput_row 'raw ping-pong, 1 stream')"
    read -r p64 p64cpu <<< "$(throughput_row 'raw ping-pong, 64 streams')"
    if [ -z "${k1:-}" ] || [ -z "${p1:-}" ]; then
        na "referee, compact binary requests (the kits' default), 1 / 64 tables" "the throughput bench printed no table: $raw/referee.txt" ">= 80 % of raw at both"
        return
    fi
    echo "$p64" > "$raw/pingpong64"
    local peer
    peer="raw ping-pong $(num "$p1") / $(num "$p64") round trips/s; $p1cpu / $p64cpu µs"
    # "a / b" percentages of raw at 1 and 64 tables.
    of_raw() { awk -v a="$1" -v b="$p1" -v c="$2" -v d="$p64" 'BEGIN { if (a == "" || c == "") print "n/a"; else printf "%.0f %% / %.0f %%", 100*a/b, 100*c/d }'; }
    put "referee, compact binary requests (the kits' default), read as the Rust kit reads them, 1 table / 64 tables" \
        "$(num "$k1") / $(num "$k64") actions/s; $k1cpu / $k64cpu CPU µs an action" \
        "$peer" "$(of_raw "$k1" "$k64")" ">= 80 % of raw at both"
    put "referee, compact binary requests decoded by prost, 1 table / 64 tables" \
        "$(num "$b1") / $(num "$b64") actions/s; ${b1cpu:-n/a} / ${b64cpu:-n/a} CPU µs an action" \
        "the same" "$(of_raw "$b1" "$b64")" ""
    put "referee, compact text requests, 1 table / 64 tables" \
        "$(num "$c1") / $(num "$c64") actions/s; ${c1cpu:-n/a} / ${c64cpu:-n/a} CPU µs an action" \
        "the same" "$(of_raw "$c1" "$c64")" ""
}

row_tournament() {
    local hands=10000
    [ $quick = 1 ] && hands=1000
    BENCH_HANDS=$hands BENCH_PARALLEL=16 cargo bench -q -p whistle-tournament --bench tournament > "$raw/tournament.txt" 2>&1
    local line wall play
    line="$(grep -E "^\| $hands \| 16 \|" "$raw/tournament.txt" | head -1)"
    wall="$(echo "$line" | awk -F'|' '{ gsub(/ /, "", $5); print $5 }')"
    play="$(echo "$line" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')"
    if [ -z "$wall" ]; then
        na "$hands Israeli hands, 4 gRPC bot processes, whole run" "the tournament bench printed no row: $raw/tournament.txt" "<= 12 s (10,000 hands)"
        return
    fi
    # The floor: every action one round trip at the raw 64-stream rate
    # (an Israeli hand is about 64 actions).
    local bound="n/a"
    if [ -s "$raw/pingpong64" ]; then
        bound="$(awk -v h="$hands" -v r="$(cat "$raw/pingpong64")" 'BEGIN { printf "%.1f s", h * 64 / r }')"
    fi
    put "$hands Israeli hands, 4 gRPC Rust bot processes, whole run (report included), 16 tables" \
        "$wall s (play $play s)" \
        "raw 64-stream ping-pong bound: $bound" \
        "$(ratio "$wall" "${bound% s}" 2)x the bound" \
        "<= 12 s (10,000 hands)"
}

row_verify() {
    local runs=3
    [ $quick = 1 ] && runs=1
    scripts/verify-bench.sh "$runs" > "$raw/verify.txt" 2>&1
    local every floor
    every="$(grep -E '\(every core\)' "$raw/verify.txt" | awk -F'|' '{ print $(NF - 1) }' | tr ' ' '\n' | grep -E '^[0-9]+$' | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')"
    floor="$(grep -m1 'SHA-256 of every line alone' "$raw/verify.txt" | sed -E 's/.*, ([0-9]+) hands\/s at most.*/\1/')"
    if [ -z "$every" ]; then
        na "whistle replay verify, 10,000 hands" "scripts/verify-bench.sh printed no figure: $raw/verify.txt" ">= 150,000 hands/s on 2 cores"
        return
    fi
    put "\`whistle replay verify\` of 10,000 hands, every core (median of $runs)" \
        "$(num "$every") hands/s" \
        "SHA-256 alone $(num "$floor") hands/s on one core" \
        "$(ratio "$every" "$floor" 2)x" \
        ">= 150,000 hands/s on 2 cores"
}

row_engine() {
    if ! can_import "$ospy" open_spiel; then
        na "engine, random Israeli hands, one core" "open_spiel is not importable by $ospy: set WHISTLE_OPENSPIEL_PYTHON" ">= 10x"
        return
    fi
    # No criterion benchmark matches the filter: the allocation check, the
    # plain rates and the OpenSpiel comparison run, criterion's timings not.
    WHISTLE_OPENSPIEL_PYTHON="$ospy" cargo bench -q -p whistle-rules --bench playouts -- no-criterion-timings > "$raw/engine.txt" 2>&1
    local line ours theirs
    line="$(grep -m1 '^openspiel: israeli' "$raw/engine.txt")"
    ours="$(echo "$line" | sed -nE 's/^openspiel: israeli ([0-9]+) hands\/s.*/\1/p')"
    theirs="$(echo "$line" | sed -nE 's/.*evaluate_bots ([0-9]+) games\/s.*/\1/p')"
    if [ -z "$ours" ] || [ -z "$theirs" ]; then
        na "engine, random Israeli hands, one core" "the playouts bench printed no OpenSpiel line: $raw/engine.txt" ">= 10x"
        return
    fi
    put "engine, random hands, one core" \
        "Israeli $(num "$ours") hands/s" \
        "OpenSpiel oh_hell(players=4,num_tricks_fixed=12) $(num "$theirs") games/s" \
        "$(ratio "$ours" "$theirs" 1)x" \
        ">= 10x"
}

# The Python playouts script, run once for the python and batch rows.
python_playouts() {
    [ -s "$raw/python.txt" ] && return 0
    local secs=8
    [ $quick = 1 ] && secs=2
    "$py" crates/python/bench/playouts.py "$secs" > "$raw/python.txt" 2>&1
}

# A row of the Python playouts script whose name matches `$1`: prints
# "playouts/s decisions" (its first two numbers: hands a CPU second and
# decisions a hand; the columns after them are derived).
playouts_row() {
    grep -E "$1" "$raw/python.txt" | head -1 | awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) { v[++n] = $i } } n >= 2 { print v[1], v[2] }'
}

row_python() {
    if ! can_import "$py" whistle_engine || ! can_import "$py" pyspiel; then
        na "Python: playouts from a Python loop" "whistle_engine and open_spiel are not both importable by $py: set WHISTLE_PYTHON" ">= 1.5x OpenSpiel per decision"
        return
    fi
    python_playouts
    local ours theirs
    read -r orate osteps <<< "$(playouts_row '^whistle_engine')"
    read -r trate tsteps <<< "$(playouts_row '^OpenSpiel oh_hell')"
    if [ -z "${orate:-}" ] || [ -z "${trate:-}" ]; then
        na "Python: playouts from a Python loop" "playouts.py printed no rows to read: $raw/python.txt" ">= 1.5x OpenSpiel per decision"
        return
    fi
    ours="$(awk -v r="$orate" -v s="$osteps" 'BEGIN { print r * s }')"
    theirs="$(awk -v r="$trate" -v s="$tsteps" 'BEGIN { print r * s }')"
    put "Python: random playouts from a Python loop" \
        "whistle_engine $(num "$orate") hands/s ($osteps decisions: $(ratio "$ours" 1000000 2) M decisions/s)" \
        "OpenSpiel oh_hell $(num "$trate") ($tsteps decisions: $(ratio "$theirs" 1000000 2) M/s)" \
        "$(ratio "$ours" "$theirs" 2)x per decision" \
        ">= 1.5x OpenSpiel per decision"
}

row_batch() {
    if ! can_import "$py" whistle_engine || ! can_import "$py" pyspiel; then
        na "Python: many playouts in one call" "whistle_engine and open_spiel are not both importable by $py: set WHISTLE_PYTHON" ">= 20x"
        return
    fi
    python_playouts
    local rrate rsteps hrate hsteps trate tsteps
    read -r rrate rsteps <<< "$(playouts_row '^whistle_engine.*playouts\([0-9]+, random\)')"
    read -r hrate hsteps <<< "$(playouts_row '^whistle_engine.*playouts\([0-9]+, heuristic\)')"
    read -r trate tsteps <<< "$(playouts_row '^OpenSpiel oh_hell')"
    if [ -z "${rrate:-}" ] || [ -z "${hrate:-}" ] || [ -z "${trate:-}" ]; then
        na "Python: many playouts in one call (random, heuristic)" "playouts.py printed no batch rows to read: $raw/python.txt" ">= 20x"
        return
    fi
    local theirs
    theirs="$(awk -v r="$trate" -v s="$tsteps" 'BEGIN { print r * s }')"
    put "Python: many playouts in one call (random, heuristic)" \
        "$(num "$rrate") / $(num "$hrate") hands/s" \
        "OpenSpiel's Python loop $(num "$trate") hands/s" \
        "$(ratio "$(awk -v r="$rrate" -v s="$rsteps" 'BEGIN { print r * s }')" "$theirs" 1)x / $(ratio "$(awk -v r="$hrate" -v s="$hsteps" 'BEGIN { print r * s }')" "$theirs" 1)x per decision" \
        ">= 20x"
}

# Wall seconds of one `whistle tournament` of the file `$1`.
demo_once() {
    local out start end
    out="$(mktemp -d)"
    start=$(date +%s.%N)
    if ! "$whistle" tournament "$1" --out "$out/run" > "$out/log" 2>&1; then
        cp "$out/log" "$raw/demo-failed.txt"
        rm -rf "$out"
        return 1
    fi
    end=$(date +%s.%N)
    rm -rf "$out"
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}

row_demo() {
    local runs=3
    [ $quick = 1 ] && runs=1
    # The same event with every bot unsandboxed (still a fresh instance
    # per seat): what the sandbox costs.
    local plain="$raw/demo-unsandboxed.toml"
    sed 's/^command = \(.*\)$/command = \1\nsandbox = false/' tournaments/demo.toml > "$plain"
    local ours=() theirs=() a b
    for _ in $(seq "$runs"); do
        a="$(demo_once tournaments/demo.toml)" || a=""
        b="$(demo_once "$plain")" || b=""
        ours+=("${a:-failed}")
        theirs+=("${b:-failed}")
    done
    printf '%s\n' "${ours[@]}" "${theirs[@]}" > "$raw/demo.txt"
    local m="${ours[0]}"
    if [ "$m" = failed ]; then
        na "the demo, fresh sandboxed instance per seat" "the demo failed: $raw/demo-failed.txt" "<= 8 s"
        return
    fi
    med() { printf '%s\n' "$@" | grep -v failed | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
    local mo mt
    mo="$(med "${ours[@]}")"
    mt="$(med "${theirs[@]}")"
    put "the demo (\`tournaments/demo.toml\`, fresh sandboxed instance per seat), wall, median of $runs" \
        "$mo s (${ours[*]})" \
        "every bot \`sandbox = false\`: $mt s (${theirs[*]})" \
        "$(ratio "$mo" "$mt" 2)x" \
        "<= 8 s"
}

row_kit() {
    if ! can_import "$kitpy" grpc || ! can_import "$kitpy" google.protobuf; then
        na "Python kit bot, compact requests" "grpcio and protobuf are not importable by $kitpy: set WHISTLE_KIT_PYTHON" ">= 90 %"
        return
    fi
    local args=()
    [ $quick = 1 ] && args=(--hands 10 --secs 2)
    "$kitpy" scripts/python-kit-bench.py "${args[@]}" > "$raw/kit.txt" 2>&1
    local rawrate kit
    rawrate="$(sed -nE 's/^raw grpcio ping-pong, 1 stream: ([0-9]+) round trips\/s.*/\1/p' "$raw/kit.txt" | head -1)"
    kit="$(sed -nE 's/^kit, .*compact (binary [(]the default[)] )?requests: ([0-9]+) actions\/s.*/\2/p' "$raw/kit.txt" | head -1)"
    if [ -z "$rawrate" ] || [ -z "$kit" ]; then
        na "Python kit bot, compact requests" "python-kit-bench.py printed no figures: $raw/kit.txt" ">= 90 %"
        return
    fi
    put "Python kit bot, compact requests" \
        "$(num "$kit") actions/s" \
        "raw grpcio ping-pong $(num "$rawrate") round trips/s" \
        "$(awk -v a="$kit" -v b="$rawrate" 'BEGIN { printf "%.0f %%", 100 * a / b }')" \
        ">= 90 %"
}

# --- the run --------------------------------------------------------------

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "whistle benchmarks$([ $quick = 1 ] && echo ' (quick: rough figures)'), $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: nproc $(nproc), $cpu; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "raw outputs: $raw"
if ! cargo build --release -q -p whistle-cli; then
    echo "cannot build the release binary" >&2
    exit 1
fi
for r in "${ROWS[@]}"; do
    wanted "$r" || continue
    echo "running: $r ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))" >&2
    if declare -F "row_$r" > /dev/null; then
        "row_$r" || na "$r" "its bench failed: $raw/$r.txt" ""
    else
        na "$r" "no such row" ""
    fi
done
echo
echo "| measure | whistle | peer, same run | ratio | target |"
echo "|---|---|---|---|---|"
cat "$table"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
