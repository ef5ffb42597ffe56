"""A bot that simulates with the referee's own rules (whistle_engine).

At each decision it draws worlds consistent with everything its seat has
seen (the engine's world sampler), plays every legal action out to the end
of the hand in each world (the engine's heuristic bot playing every seat),
and keeps the heuristic's own choice unless another action scores better on
the same worlds by more than one standard error of the difference (which
keeps it from chasing an action that was only lucky). The value of a
playout is the hand's points for its side against the other sides' average.

The playouts of a decision run in one call, `whistle_engine.action_values`:
in Rust, with the GIL released, not one Python call a card.

Needs the kit and the engine in the same environment:

    pip install ./bots/python ./crates/python
    python bots/python/examples/sampling_bot.py --address localhost:50051 --token seat-...

WORLDS (default 12) worlds a decision: $WHISTLE_SAMPLING_WORLDS.
"""

import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import whistle_engine as we  # noqa: E402
from whistle_bot import Bot, run  # noqa: E402

WORLDS = int(os.environ.get("WHISTLE_SAMPLING_WORLDS", "12"))


class SamplingBot(Bot):
    name = "sampling"

    def new_match(self, welcome):
        self.game = welcome.game
        self.options = {o.key: o.value for o in welcome.options}
        self.seat = welcome.seat
        self.decisions = 0

    def choose(self, observation, legal):
        if len(legal) == 1:
            return 0
        self.decisions += 1
        seed = (observation.deal << 20) + self.decisions * 16 + self.seat
        worlds = we.sample_worlds(
            self.game, observation.SerializeToString(), WORLDS, seed, self.options
        )
        if not worlds:
            return 0
        default = worlds[0][0].heuristic_choice(self.seat)
        # One row a world: each legal action's value there, played out by
        # the heuristic in every seat.
        rows = we.action_values([w for w, _ in worlds], self.seat, policy="heuristic")
        return best(rows, [weight for _, weight in worlds], default)


def best(rows, weights, default):
    """The action with the best weighted mean advantage over `default`, if
    that advantage is more than one standard error; else `default`."""
    total = sum(weights)
    n = len(rows)
    choice, margin = default, 0.0
    for a in range(len(rows[0])):
        if a == default:
            continue
        diffs = [row[a] - row[default] for row in rows]
        mean = sum(w * d for w, d in zip(weights, diffs)) / total
        var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs)) / total
        score = mean - (var / n) ** 0.5
        if score > margin:
            choice, margin = a, score
    return choice


if __name__ == "__main__":
    run(SamplingBot())
