"""Random playouts a second through whistle_engine's Python API and through
OpenSpiel's, in the same run, with the machine they ran on.

    pip install './crates/python[openspiel]'
    python crates/python/bench/playouts.py [SECONDS]

What a Monte-Carlo bot does: copy a dealt state and play the hand out.
Every row starts each playout from a copy of one dealt state (no chance
steps) and plays to the hand's end.

- Python loop rows pick uniformly among the legal actions from Python, one
  call at a time, in OpenSpiel's loop: `is_over`, `legal_actions`, a
  `random.randrange` and `apply` a decision for whistle_engine on Israeli
  Whist (hands=1: an auction, contract bids and 13 tricks; the action by
  its index), `is_terminal`, `legal_actions`, `randrange` and
  `apply_action` for OpenSpiel's C++ `oh_hell(players=4,num_tricks_fixed=12)`
  (bids and 12 tricks) and for the same Israeli game through OpenSpiel's
  API (python_whistle_israeli). The last loop row is whistle_engine's loop
  naming the seat as well (`to_act()[0]`, `apply(i, seat=seat)`: two
  calls' worth more of the interpreter a decision), as a simultaneous step
  (Yogi's) needs.
- Batch rows hand whole playouts to the engine: `State.playouts(n, policy)`
  plays n hands out in Rust with the GIL released and returns their values.
  Their decisions a hand are counted by a Python loop playing the same
  policy from the same state (300 hands for the random policy; the
  heuristic's one hand, which is always the same).

The rows run in turns, ten slices each, so that all of them see the same
load on a shared machine, and are timed in this process's CPU time
(`time.process_time`: every row runs on this one thread, the batch rows'
Rust included), which a busy machine disturbs far less than a wall clock;
on an idle one the two agree.

The last column compares decisions a second with OpenSpiel's Python loop
(targets, docs/benchmarks.md: the Python loop >= 1.5x, the batch >= 20x).
"""

import os
import platform
import random
import sys
import time

import whistle_engine as we

try:
    import pyspiel
    from whistle_engine import openspiel as wos
except ImportError:  # the comparison needs OpenSpiel; the engine's rows do not
    pyspiel = None

SEED = 11


def measure(rows, seconds, rounds=10):
    """Runs every row's `one()` (which plays some hands and returns (hands,
    decisions)) in turns, `rounds` slices of `seconds / rounds` of CPU time
    each, so that every row sees the same load; returns (hands a CPU
    second, decisions a hand) for each row, in order."""
    clock = time.process_time
    totals = [[0, 0, 0.0] for _ in rows]
    for _ in range(rounds):
        for (_, one), total in zip(rows, totals):
            start = clock()
            while clock() - start < seconds / rounds:
                h, s = one()
                total[0] += h
                total[1] += s
            total[2] += clock() - start
    return [(h / t, s / max(h, 1)) for h, s, t in totals]


def dealt_israeli():
    return we.new_game("israeli", SEED, {"hands": 1})


def whistle_loop(rng):
    """OpenSpiel's loop (spiel_loop) with whistle_engine's calls."""
    dealt = dealt_israeli()

    def one():
        s = dealt.clone()
        steps = 0
        while not s.is_over():
            try:
                legal = s.legal_actions()
            except ValueError:
                # Several seats act at once (Israeli's frisch): name one,
                # as a bot for that seat would.
                seat = s.to_act()[0]
                s.apply(rng.randrange(len(s.legal_actions(seat))), seat=seat)
                steps += 1
                continue
            s.apply(rng.randrange(len(legal)))
            steps += 1
        return 1, steps

    return one


def whistle_loop_seats(rng):
    """The loop naming the seat each decision is for."""
    dealt = dealt_israeli()

    def one():
        s = dealt.clone()
        steps = 0
        while not s.is_over():
            seat = s.to_act()[0]
            legal = s.legal_actions(seat)
            s.apply(rng.randrange(len(legal)), seat=seat)
            steps += 1
        return 1, steps

    return one


def heuristic_decisions():
    """Decisions in the heuristic's playout of the dealt state."""
    s = dealt_israeli()
    steps = 0
    while not s.is_over():
        seat = s.to_act()[0]
        s.apply(s.heuristic_choice(seat), seat=seat)
        steps += 1
    return steps


def whistle_batch(policy, batch, decisions):
    dealt = dealt_israeli()
    seat = dealt.to_act()[0]
    seed = [0]

    def one():
        seed[0] += 1
        values = dealt.playouts(batch, policy, seed=seed[0], seat=seat)
        return len(values), len(values) * decisions

    return one


def spiel_dealt(game):
    s = game.new_initial_state()
    rng = random.Random(SEED)
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return s


def spiel_loop(game, rng):
    dealt = spiel_dealt(game)

    def one():
        s = dealt.clone()
        steps = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return 1, steps

    return one


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{os.cpu_count()} cores, {cpu}, load average {load}"


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    rng = random.Random(1)
    print(machine())
    rows = [("whistle_engine israeli, Python loop", whistle_loop(rng))]
    if pyspiel is not None:
        wos.register()
        oh_hell = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=12)")
        ours = pyspiel.load_game("python_whistle_israeli", {"hands": "1"})
        rows.append(("OpenSpiel oh_hell(players=4,...=12), Python loop", spiel_loop(oh_hell, rng)))
        rows.append(("python_whistle_israeli through pyspiel, Python loop", spiel_loop(ours, rng)))
    rows.append(("whistle_engine israeli, Python loop naming seats", whistle_loop_seats(rng)))
    if hasattr(we.State, "playouts"):
        # The random policy's decisions a hand, counted by the Python loop
        # (the same policy from the same state) over a few hundred hands.
        count = whistle_loop(random.Random(2))
        random_decisions = sum(count()[1] for _ in range(300)) / 300
        rows.append(("whistle_engine israeli, playouts(1000, random)",
                     whistle_batch("random", 1000, random_decisions)))
        rows.append(("whistle_engine israeli, playouts(100, heuristic)",
                     whistle_batch("heuristic", 100, heuristic_decisions())))
    else:
        print("(this whistle_engine has no batch playouts)")
    rows = [(name, result) for (name, _), result in zip(rows, measure(rows, seconds))]
    base = rows[1][1][0] * rows[1][1][1] if pyspiel is not None else None
    print(f"{'':51} {'hands/CPU s':>11} {'decisions':>10} {'M dec/s':>8} {'vs oh_hell':>10}")
    for name, (rate, steps) in rows:
        per_decision = rate * steps
        versus = f"{per_decision / base:9.2f}x" if base else "       n/a"
        print(f"{name:52} {rate:10.0f} {steps:10.1f} {per_decision / 1e6:8.2f} {versus}")
    print(machine())


if __name__ == "__main__":
    main()
