"""The CPU cost of one call of each State method a playout loop makes,
through whistle_engine and through OpenSpiel, in the same run.

    pip install './crates/python[openspiel]'
    python crates/python/bench/calls.py [CALLS]

Each figure is CPU nanoseconds a call (`time.process_time_ns`, the best of
five runs of CALLS calls, less an empty loop's cost), on a state 20
decisions into a hand dealt as in bench/playouts.py: whistle_engine on
Israeli Whist (hands=1), OpenSpiel on `oh_hell(players=4,num_tricks_fixed=12)`.
`apply` cannot be called twice on one state, so it is measured as
clone + legal_actions + apply less clone + legal_actions. The last rows are
the interpreter's own share of a decision, which both loops pay: the
`random.randrange` that picks an action, and one decision of the loop
with callees that cost next to nothing (see `interpreter_rows`).

CPU time is the process's own, so the figures hold on a busy machine
better than a wall clock would; compare rows of one run.
"""

import os
import random
import sys
import time

import whistle_engine as we

try:
    import pyspiel
except ImportError:  # the engine's rows need no OpenSpiel
    pyspiel = None

SEED = 11
STEPS = 20


def cpu_ns(run, n):
    """The best of five runs of `run(n)`, in CPU ns a call."""
    best = None
    for _ in range(5):
        start = time.process_time_ns()
        run(n)
        per_call = (time.process_time_ns() - start) / n
        best = per_call if best is None else min(best, per_call)
    return best


def empty(n):
    for _ in range(n):
        pass


def whistle_rows(n):
    dealt = we.new_game("israeli", SEED, {"hands": 1})
    s = dealt.clone()
    rng = random.Random(3)
    for _ in range(STEPS):
        legal = s.legal_actions()
        s.apply(rng.randrange(len(legal)))
    seat = s.to_act()[0]

    def is_over(n, s=s):
        for _ in range(n):
            s.is_over()

    def to_act(n, s=s):
        for _ in range(n):
            s.to_act()

    def legal_actions(n, s=s):
        for _ in range(n):
            s.legal_actions()

    def clone_dealt(n, s=dealt):
        for _ in range(n):
            s.clone()

    def clone(n, s=s):
        for _ in range(n):
            s.clone()

    def clone_legal(n, s=s):
        for _ in range(n):
            c = s.clone()
            c.legal_actions()

    def clone_legal_apply(n, s=s):
        for _ in range(n):
            c = s.clone()
            c.legal_actions()
            c.apply(0)

    def clone_legal_apply_seat(n, s=s, seat=seat):
        for _ in range(n):
            c = s.clone()
            c.legal_actions(seat)
            c.apply(0, seat=seat)

    def clone_legal_apply_text(n, s=s):
        for _ in range(n):
            c = s.clone()
            c.apply(c.legal_actions()[0])

    base = cpu_ns(clone_legal, n)
    return [
        ("is_over()", cpu_ns(is_over, n)),
        ("to_act()", cpu_ns(to_act, n)),
        ("legal_actions()", cpu_ns(legal_actions, n)),
        ("apply(index)", cpu_ns(clone_legal_apply, n) - base),
        ("apply(index, seat=seat)", cpu_ns(clone_legal_apply_seat, n) - base),
        ("apply(text from legal_actions)", cpu_ns(clone_legal_apply_text, n) - base),
        ("clone(), dealt state", cpu_ns(clone_dealt, n)),
        ("clone(), mid-hand", cpu_ns(clone, n)),
    ]


def spiel_rows(n):
    game = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=12)")
    dealt = game.new_initial_state()
    rng = random.Random(SEED)
    while dealt.is_chance_node():
        outcomes = dealt.chance_outcomes()
        dealt.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    s = dealt.clone()
    rng = random.Random(3)
    for _ in range(STEPS):
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])

    def is_terminal(n, s=s):
        for _ in range(n):
            s.is_terminal()

    def current_player(n, s=s):
        for _ in range(n):
            s.current_player()

    def legal_actions(n, s=s):
        for _ in range(n):
            s.legal_actions()

    def clone_dealt(n, s=dealt):
        for _ in range(n):
            s.clone()

    def clone(n, s=s):
        for _ in range(n):
            s.clone()

    def clone_legal(n, s=s):
        for _ in range(n):
            c = s.clone()
            c.legal_actions()

    def clone_legal_apply(n, s=s):
        for _ in range(n):
            c = s.clone()
            c.apply_action(c.legal_actions()[0])

    base = cpu_ns(clone_legal, n)
    return [
        ("is_terminal()", cpu_ns(is_terminal, n)),
        ("current_player()", cpu_ns(current_player, n)),
        ("legal_actions()", cpu_ns(legal_actions, n)),
        ("apply_action(legal[0])", cpu_ns(clone_legal_apply, n) - base),
        (None, None),
        (None, None),
        ("clone(), dealt state", cpu_ns(clone_dealt, n)),
        ("clone(), mid-hand", cpu_ns(clone, n)),
    ]


def interpreter_rows(n):
    """The interpreter's share of one decision of bench/playouts.py's loop:
    the loop with callees that cost next to nothing (a stand-in whose
    `is_over` is `bool`, `legal_actions` a 13-item list's `copy` and `apply`
    `abs`), with and without the `randrange`."""
    from types import SimpleNamespace

    legal = list(range(13))
    stand_in = SimpleNamespace(is_over=bool, legal_actions=legal.copy, apply=abs)

    def randrange(n, rng=random.Random(1)):
        for _ in range(n):
            rng.randrange(13)

    def turn(n, s=stand_in, rng=random.Random(1)):
        steps = 0
        for _ in range(n):
            if s.is_over():
                break
            legal = s.legal_actions()
            s.apply(rng.randrange(len(legal)))
            steps += 1

    def turn_without_randrange(n, s=stand_in):
        steps = 0
        for _ in range(n):
            if s.is_over():
                break
            legal = s.legal_actions()
            s.apply(len(legal))
            steps += 1

    return [
        ("random.randrange(13)", cpu_ns(randrange, n)),
        ("a decision, free callees", cpu_ns(turn, n)),
        ("the same without randrange", cpu_ns(turn_without_randrange, n)),
    ]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    base = cpu_ns(empty, n)
    ours = [(name, ns - base) for name, ns in whistle_rows(n)]
    theirs = [(name, ns and ns - base) for name, ns in spiel_rows(n)] if pyspiel else [(None, None)] * len(ours)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; CPU ns a call, {n} calls, best of 5")
    print(f"{'whistle_engine (israeli)':34} {'ns':>6}   {'OpenSpiel (oh_hell)':26} {'ns':>6}")
    for (a, x), (b, y) in zip(ours, theirs):
        right = f"{b:26} {y:6.0f}" if b else ""
        print(f"{a:34} {x:6.0f}   {right}")
    for name, ns in interpreter_rows(n):
        print(f"{name:34} {ns - base:6.0f}   (both loops)")


if __name__ == "__main__":
    main()
