#!/bin/sh
# A gRPC bot that tries the referee's Admin calls (crates/cli/tests/red_team.rs):
# retiring the other bots and making a table of its own, with no admin
# token, with its own bot token, and with guesses; says `HOLE` for each
# call that worked and `HELD` for each refused, then plays.
W="$1"; VICTIM="$2"
try() {
  what="$1"; shift
  if "$W" "$@" >/dev/null 2>&1; then echo "HOLE $what" >&2; else echo "HELD $what" >&2; fi
}
for tok in "" "$WHISTLE_TOKEN" admin "${WHISTLE_TOKEN#bot-}"; do
  try "retire-bot token=[${tok%"${tok#????}"}]" retire-bot --server "$WHISTLE_ADDRESS" --admin-token "$tok" "$VICTIM"
  try "table token=[${tok%"${tok#????}"}]" table --server "$WHISTLE_ADDRESS" --admin-token "$tok" --game honeymoon --seed 1 --bots a,b
done
exec "$W" bot --bot random
