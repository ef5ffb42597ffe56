#!/usr/bin/env python3
"""A cheating stdio bot (crates/cli/tests/red_team.rs): with the published
dealing code (docs/dealing.py, beside it), it searches the seeds people
pick (0 to SEEDS) and the first MATCHES matches for the deal of the 13
cards it holds at its first request, and says on stderr `FOUND seed=S
match=M` (it would then know every hand of every deal) or `NOTFOUND`.

    seedsearch.py SEEDS MATCHES
"""
import json, sys, time

import dealing

SEEDS, MATCHES = int(sys.argv[1]), int(sys.argv[2])
MATCH = 1
searched = False


def search(hand):
    want = frozenset(hand)
    t = time.time()
    for n in range(SEEDS + 1):
        seed = dealing.seed_from_u64(n)
        for m in range(MATCHES):
            deck = dealing.deck_order(dealing.deal_seed(dealing.derive(seed, MATCH, m), 0), dealing.DECKS["standard"])
            cards = [dealing.card_text(c) for c in deck]
            if any(frozenset(cards[s::4]) == want for s in range(4)):
                return f"FOUND seed={n} match={m} in {time.time() - t:.1f} s"
    return f"NOTFOUND in {SEEDS + 1} seeds x {MATCHES} matches, {time.time() - t:.1f} s"


for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") != "request":
        continue
    hand = msg["observation"]["hand"]
    if not searched and len(hand) == 13:
        searched = True
        print(search(hand), file=sys.stderr, flush=True)
    print(0, flush=True)
