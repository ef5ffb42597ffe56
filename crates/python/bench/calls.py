"""The CPU cost of one call of each State method a playout loop makes,
through whistle_engine and through OpenSpiel, in the same run.

    pip install './crates/python[openspiel]'
    python crates/python/bench/calls.py [CALLS]

Each figure is CPU nanoseconds a call (`time.process_time_ns`, the best of
five runs of CALLS calls, less an empty loop's cost; each row's statement
is compiled into its loop by `timeit`, its names local to the loop, with
the garbage collector on), on a state 20
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

import gc
import os
import random
import sys
import time
import timeit
from types import SimpleNamespace

import whistle_engine as we

try:
    import pyspiel
except ImportError:  # the engine's rows need no OpenSpiel
    pyspiel = None

SEED = 11
STEPS = 20


def cpu_ns(stmt, n, **names):
    """The best of five runs of `stmt` n times, in CPU ns a run: `names`
    are the loop's locals, `steps` one more (0)."""
    setup = "gc.enable(); steps = 0; " + "; ".join(f"{k} = _names[{k!r}]" for k in names)
    timer = timeit.Timer(stmt, setup, timer=time.process_time_ns, globals={"_names": names, "gc": gc})
    return min(timer.repeat(5, n)) / n


def rows(n, probes, applies, **names):
    """The rows of one engine: each of `probes` (a row's name, its
    statement), `legal_actions()`, then each of `applies` (a row's name, a
    statement that lists a clone `c`'s legal actions and applies one;
    `None` for a row the engine has not) less a clone and its legal
    actions, then the clones of `dealt` and of `s`."""
    base = cpu_ns("c = s.clone(); c.legal_actions()", n, **names)
    out = [(name, cpu_ns(stmt, n, **names)) for name, stmt in probes]
    out.append(("legal_actions()", cpu_ns("s.legal_actions()", n, **names)))
    for name, stmt in applies:
        out.append((name, stmt and cpu_ns(stmt, n, **names) - base))
    out.append(("clone(), dealt state", cpu_ns("dealt.clone()", n, **names)))
    out.append(("clone(), mid-hand", cpu_ns("s.clone()", n, **names)))
    return out


def whistle_rows(n):
    dealt = we.new_game("israeli", SEED, {"hands": 1})
    s = dealt.clone()
    rng = random.Random(3)
    for _ in range(STEPS):
        legal = s.legal_actions()
        s.apply(rng.randrange(len(legal)))
    probes = [
        ("is_over()", "s.is_over()"),
        ("to_act()", "s.to_act()"),
    ]
    applies = [
        ("apply(index)", "c = s.clone(); c.legal_actions(); c.apply(0)"),
        ("apply(index, seat=seat)", "c = s.clone(); c.legal_actions(seat); c.apply(0, seat=seat)"),
        ("apply(text from legal_actions)", "c = s.clone(); c.apply(c.legal_actions()[0])"),
    ]
    return rows(n, probes, applies, s=s, dealt=dealt, seat=s.to_act()[0])


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
    probes = [
        ("is_terminal()", "s.is_terminal()"),
        ("current_player()", "s.current_player()"),
    ]
    applies = [
        ("apply_action(legal[0])", "c = s.clone(); c.apply_action(c.legal_actions()[0])"),
        (None, None),
        (None, None),
    ]
    return rows(n, probes, applies, s=s, dealt=dealt)


def interpreter_rows(n):
    """The interpreter's share of one decision of bench/playouts.py's loop:
    the loop with callees that cost next to nothing (a stand-in whose
    `is_over` is `bool`, `legal_actions` a 13-item list's `copy` and `apply`
    `abs`), with and without the `randrange`."""
    legal = list(range(13))
    s = SimpleNamespace(is_over=bool, legal_actions=legal.copy, apply=abs)
    # The loop's `if s.is_over(): break`, never taken (`timeit` compiles a
    # statement alone, where `break` is refused; the test costs the same).
    turn = "if s.is_over(): raise StopIteration\nlegal = s.legal_actions()\ns.apply({})\nsteps += 1"
    return [
        ("random.randrange(13)", cpu_ns("rng.randrange(13)", n, rng=random.Random(1))),
        (
            "a decision, free callees",
            cpu_ns(turn.format("rng.randrange(len(legal))"), n, s=s, rng=random.Random(1)),
        ),
        ("the same without randrange", cpu_ns(turn.format("len(legal)"), n, s=s)),
    ]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    base = cpu_ns("pass", n)
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
