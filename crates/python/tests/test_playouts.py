"""The batch calls (State.playouts, State.action_values, we.action_values):
whole playouts run in Rust with the GIL released, checked against the same
playouts driven from Python one call at a time."""

import random
import threading
import time

import pytest

import whistle_engine as we

GAMES = ["israeli", "honeymoon", "illustrated", "yogi", "oneonta"]


def hand_value(state, me, deal):
    """The hand of `deal`'s points for `me`'s side against the other sides'
    average, negated where lower totals are better (Yogi's fines)."""
    results = state.hand_results()
    if not results or results[-1]["deal"] != deal:
        return 0.0
    points = results[-1]["points"]
    teams = state.teams()
    others = [points[s] for s in range(len(points)) if teams[s] != teams[me]]
    value = points[me] - (sum(others) / len(others) if others else 0.0)
    return -value if state.lower_is_better() else value


def heuristic_from_python(state, me, deal):
    """The heuristic's playout of the hand of `deal`, one call a decision."""
    s = state.clone()
    while not s.is_over() and s.deals() == deal + 1:
        seat = s.to_act()[0]
        s.apply(s.heuristic_choice(seat), seat=seat)
    return hand_value(s, me, deal)


def midway(game, seed, steps):
    """A match of `game` some random steps into its first hand."""
    state = we.new_game(game, seed, {"hands": 2})
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.to_act()[0]
        state.apply(rng.randrange(len(state.legal_actions(seat))), seat=seat)
    return state


@pytest.mark.parametrize("game", GAMES)
def test_heuristic_playouts_are_the_python_loops(game):
    state = midway(game, 3, 6)
    before = state.log()
    for me in range(state.seats):
        expected = heuristic_from_python(state, me, state.deals() - 1)
        assert state.playouts(3, "heuristic", seat=me) == [expected] * 3
    # The state itself does not move.
    assert state.log() == before and len(state.hand_results()) == 0


@pytest.mark.parametrize("game", GAMES)
def test_action_values_play_each_legal_action_then_the_heuristic(game):
    state = midway(game, 5, 4)
    seat = state.to_act()[0]
    deal = state.deals() - 1
    expected = []
    for i in range(len(state.legal_actions(seat))):
        w = state.clone()
        w.apply(i, seat=seat)
        expected.append(heuristic_from_python(w, seat, deal))
    assert state.action_values(policy="heuristic", seat=seat) == expected


def test_random_playouts_follow_their_seed_and_every_seats_values_add_up():
    state = midway("israeli", 7, 0)
    a = state.playouts(50, "random", seed=1, seat=0)
    assert len(a) == 50 and len(set(a)) > 1
    assert a == state.playouts(50, "random", seed=1, seat=0)
    assert a != state.playouts(50, "random", seed=2, seat=0)
    # The same seed plays the same hands whichever seat is valued; with no
    # partners each seat's points against the others' average add up to 0.
    by_seat = [state.playouts(50, "random", seed=1, seat=s) for s in range(4)]
    assert by_seat[0] == a
    for values in zip(*by_seat):
        assert sum(values) == pytest.approx(0.0)


def test_random_playouts_land_near_the_python_loops_mean():
    """Random playouts in Rust and from Python are draws of one
    distribution: their means agree within a few standard errors."""
    state = midway("honeymoon", 9, 2)
    seat = state.to_act()[0]
    batch = state.playouts(4000, "random", seed=3, seat=seat)
    rng = random.Random(3)
    loop = []
    for _ in range(1500):
        s = state.clone()
        while not s.is_over() and len(s.hand_results()) == 0:
            who = s.to_act()[0]
            s.apply(rng.randrange(len(s.legal_actions(who))), seat=who)
        loop.append(hand_value(s, seat, 0))

    def mean_var(xs):
        m = sum(xs) / len(xs)
        return m, sum((x - m) ** 2 for x in xs) / (len(xs) - 1)

    (mb, vb), (ml, vl) = mean_var(batch), mean_var(loop)
    se = (vb / len(batch) + vl / len(loop)) ** 0.5
    assert abs(mb - ml) < 4 * se, (mb, ml, se)


def test_many_states_in_one_call_are_each_states_row():
    state = midway("israeli", 11, 9)
    seat = state.to_act()[0]
    worlds = [w for w, _ in we.sample_worlds("israeli", state.observation(seat), 6, seed=2,
                                             options={"hands": 2})]
    assert len(worlds) == 6
    rows = we.action_values(worlds, seat, policy="heuristic")
    assert rows == [w.action_values(policy="heuristic", seat=seat) for w in worlds]
    assert all(len(r) == len(state.legal_actions(seat)) for r in rows)
    # Random playouts: a row a state, each the mean of its playouts.
    rows = we.action_values(worlds, seat, playouts=8, policy="random", seed=4)
    assert rows == we.action_values(worlds, seat, playouts=8, policy="random", seed=4)
    assert len(rows) == 6 and all(len(r) == len(rows[0]) for r in rows)


def test_bad_requests_are_refused_with_the_reason():
    state = midway("israeli", 1, 0)
    with pytest.raises(ValueError, match="unknown playout policy `clever` .known: random, heuristic"):
        state.playouts(1, "clever")
    with pytest.raises(ValueError, match="at least 1"):
        state.action_values(playouts=0)
    not_to_act = next(s for s in range(4) if s not in state.to_act())
    with pytest.raises(we.IllegalActionError, match="nothing to decide"):
        state.action_values(seat=not_to_act)
    with pytest.raises(IndexError):
        state.playouts(1, seat=9)
    over = we.new_game("honeymoon", 2, {"hands": 1})
    while not over.is_over():
        over.apply(0, seat=over.to_act()[0])
    with pytest.raises(we.IllegalActionError, match="no hand is in play"):
        over.playouts(1, seat=0)
    with pytest.raises(TypeError):
        we.action_values(["not a state"], 0)


def test_a_batch_lets_other_python_threads_run():
    """The GIL is released during a batch: a Python thread keeps running
    while another thread's call works in Rust."""
    state = midway("israeli", 13, 0)
    n = 200
    while True:
        start = time.perf_counter()
        state.playouts(n, "heuristic", seat=0)
        took = time.perf_counter() - start
        if took > 0.4:
            break
        n *= 2
    done = threading.Event()

    def batch():
        state.playouts(n, "heuristic", seat=0)
        done.set()

    worker = threading.Thread(target=batch)
    last = time.perf_counter()
    longest = 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    worker.join()
    # Held through the call, the GIL would stop this loop for about `took`.
    assert longest < took / 2, (longest, took)
