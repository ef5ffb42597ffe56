"""A random bot: plays a uniformly random legal action at every decision.

Run it with the address of a referee and a seat token (see ../README.md):

    python bots/python/examples/random_bot.py --address localhost:50051 --token seat-...

or with WHISTLE_ADDRESS and WHISTLE_TOKEN in the environment (the launch
contract that tournaments use). Add --seed N to make its choices repeatable.
"""

import argparse
import os
import random
import sys

# An installed whistle_bot comes first; from a checkout, the kit beside this file.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from whistle_bot import run  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help="the referee (default: $WHISTLE_ADDRESS)")
    parser.add_argument("--token", help="a seat or bot token (default: $WHISTLE_TOKEN)")
    parser.add_argument("--seed", type=int, help="seed for repeatable choices")
    args, _ = parser.parse_known_args()  # run() reads --address and --token itself
    rng = random.Random(args.seed)

    def choose(observation, legal):
        # observation: the whistle.v1.Observation message (docs/protocol.md);
        # legal: the legal actions as text, e.g. ["pass", "bid 5C", ...].
        # Return an index into legal (or an action's text).
        return rng.randrange(len(legal))

    run(choose)


if __name__ == "__main__":
    main()
