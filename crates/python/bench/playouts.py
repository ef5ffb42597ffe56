"""Random playouts a second through whistle_engine's Python API and through
OpenSpiel's, both driven from a Python loop in the same run.

    pip install './crates/python[openspiel]'
    python crates/python/bench/playouts.py [SECONDS]

whistle_engine: Israeli Whist, one hand (an auction, contract bids and 13
tricks) per playout, and the same game through OpenSpiel
(python_whistle_israeli). OpenSpiel: oh_hell(players=4,num_tricks_fixed=12)
(a deal, bids and 12 tricks). A playout starts from a new game (a new deal)
and picks uniformly among the legal actions until the end.
"""

import random
import sys
import time

import pyspiel

import whistle_engine as we
from whistle_engine import openspiel as wos


def run_for(seconds, one):
    n, start = 0, time.perf_counter()
    steps = 0
    while time.perf_counter() - start < seconds:
        steps += one(n)
        n += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, steps / n


def whistle_playout(rng):
    def one(n):
        s = we.new_game("israeli", n, {"hands": 1})
        steps = 0
        while not s.is_over():
            seat = s.to_act()[0]
            legal = s.legal_actions(seat)
            s.apply(rng.randrange(len(legal)), seat=seat)
            steps += 1
        return steps

    return one


def spiel_playout(game, rng):
    def one(n):
        s = game.new_initial_state()
        steps = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return one


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    wos.register()
    rng = random.Random(1)
    oh_hell = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=12)")
    ours_spiel = pyspiel.load_game("python_whistle_israeli", {"hands": "1"})
    rows = [
        ("whistle_engine israeli (hands=1)", run_for(seconds, whistle_playout(rng))),
        ("OpenSpiel oh_hell(players=4,num_tricks_fixed=12)", run_for(seconds, spiel_playout(oh_hell, rng))),
        ("python_whistle_israeli through pyspiel", run_for(seconds, spiel_playout(ours_spiel, rng))),
    ]
    base = rows[1][1][0]
    print(f"{'':52} {'playouts/s':>11} {'decisions':>10} {'vs oh_hell':>10}")
    for name, (rate, steps) in rows:
        print(f"{name:52} {rate:11.1f} {steps:10.1f} {rate / base:9.2f}x")


if __name__ == "__main__":
    main()
