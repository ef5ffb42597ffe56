"""A slightly smarter bot, written as a class with hooks.

In play it follows suit with its lowest card; when it cannot follow, it
throws its lowest card that is not a trump. It passes in auctions, gives away
its lowest cards, and bids the number of its aces and kings (the legal bid
closest to that). It answers with the action's text rather than an index.

    python bots/python/examples/lowest_card_bot.py --address localhost:50051 --token seat-...
"""

import os
import sys

# An installed whistle_bot comes first; from a checkout, the kit beside this file.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from whistle_bot import Bot, pb, run  # noqa: E402

RANKS = "23456789TJQKA"


def rank(card):
    """Higher is stronger: 2 → 0 ... A → 12, little joker 13, big joker 14."""
    return {"LJ": 13, "BJ": 14}.get(card, RANKS.index(card[0]) if card[0] in RANKS else 0)


def suit(card):
    return card[1] if card not in ("LJ", "BJ") else "J"


class LowestCardBot(Bot):
    name = "lowest-card"

    def new_match(self, welcome):
        print(f"seat {welcome.seat} of {welcome.seats} in a game of {welcome.game}", file=sys.stderr)
        self.seat = welcome.seat
        self.tricks_won = 0

    def choose(self, observation, legal):
        if observation.phase == pb.PHASE_PLAY:
            return self.play(observation, legal)
        if observation.phase == pb.PHASE_AUCTION and "pass" in legal:
            return "pass"
        if observation.phase == pb.PHASE_PASS:  # e.g. Israeli frisch: "give 3C"
            return min(legal, key=lambda a: rank(a.split()[-1]))
        bids = [a for a in legal if a.startswith("bid ") and a[4:].isdigit()]
        if bids:  # an exact number of tricks: as many as our aces and kings
            strong = sum(1 for c in observation.hand if c[0] in "AK")
            return min(bids, key=lambda a: abs(int(a[4:]) - strong))
        return legal[0]

    def play(self, observation, legal):
        trick = observation.trick.cards
        trump = observation.trump.suit if observation.trump.kind == pb.Trump.SUIT else None
        if trick and all(suit(c) == suit(trick[0].card) for c in legal):
            return min(legal, key=rank)  # following suit: lowest card
        safe = [c for c in legal if suit(c) != trump and suit(c) != "J"]
        return min(safe or legal, key=rank)

    def on_event(self, event):
        # Events arrive as they happen (this hook makes the kit ask for them).
        if event.WhichOneof("kind") == "trick_won" and not event.trick_won.dummy:
            if event.trick_won.seat == self.seat:
                self.tricks_won += 1

    def on_match_end(self, result):
        me = self.seat
        print(f"match over: total {result.totals[me]}, rank {result.ranks[me]} of "
              f"{len(result.ranks)}, {self.tricks_won} tricks won", file=sys.stderr)


if __name__ == "__main__":
    run(LowestCardBot)
