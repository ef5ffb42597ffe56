#!/bin/sh
# A stalling stdio bot (crates/cli/tests/red_team.rs): it ignores SIGTERM,
# leaves a child that ignores it too (`sleep MARKER`), and never answers.
trap '' TERM HUP INT
sh -c "trap '' TERM HUP INT; exec sleep $1" &
while read -r line; do :; done
sleep 3600
