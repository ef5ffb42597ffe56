"""A slightly smarter bot, written as a class with hooks.

In play it follows suit with its lowest card; when it cannot follow, it
throws its lowest card that is not a trump. It passes in auctions, gives away
its lowest cards, and bids the number of its aces and kings (the legal bid
closest to that). It reads cards and actions with the kit's helpers
(whistle_bot.cards, whistle_bot.view) and answers with the action's text
rather than an index.

    python bots/python/examples/lowest_card_bot.py --address localhost:50051 --token seat-...
"""

import os
import sys

# An installed whistle_bot comes first; from a checkout, the kit beside this file.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from whistle_bot import Bot, run  # noqa: E402
from whistle_bot.cards import KING, lowest  # noqa: E402
from whistle_bot.view import Legal, led_suit, my_hand, phase, trump_suit  # noqa: E402


class LowestCardBot(Bot):
    name = "lowest-card"

    def new_match(self, welcome):
        print(f"seat {welcome.seat} of {welcome.seats} in a game of {welcome.game}", file=sys.stderr)
        self.seat = welcome.seat
        self.tricks_won = 0

    def choose(self, observation, legal):
        # Answer with the action's text (an index works as well).
        return legal[self.pick(observation, Legal(legal))]

    def pick(self, observation, options):
        """The index of the chosen action."""
        if options.cards():
            return self.play(observation, options)
        if phase(observation) == "auction" and "pass" in options.kinds():
            return options.index("pass")
        gives = options.of_kind("give")  # e.g. Israeli frisch: "give 3C"
        if gives:
            return min(gives, key=lambda ia: ia[1].card)[0]
        bids = options.of_kind("bid")
        if bids:  # an exact number of tricks: as many as our aces and kings
            strong = sum(1 for c in my_hand(observation) if c.rank >= KING and not c.is_joker)
            return min(bids, key=lambda ia: abs(ia[1].number - strong))[0]
        return 0

    def play(self, observation, options):
        cards = options.cards()  # [(index, Card)]
        led = led_suit(observation)
        trump = trump_suit(observation)
        if led is not None and all(c.suit == led for _, c in cards):
            return min(cards, key=lambda ic: ic[1])[0]  # following suit: lowest card
        safe = [(i, c) for i, c in cards if c.suit != trump and not c.is_joker]
        low = lowest(c for _, c in (safe or cards))
        return options.index(low)

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
