"""whistle_engine against the engine's own behaviour and the CLI."""

import copy
import json
import random
import subprocess

import pytest

import whistle_engine as we

GAMES = ["israeli", "honeymoon", "illustrated", "yogi", "oneonta"]


def play_random(state, rng):
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(rng.randrange(len(legal)), seat=seat)
    return state


def test_games_lists_every_game_with_its_options():
    games = {g["name"]: g for g in we.games()}
    assert sorted(games) == sorted(GAMES)
    assert games["israeli"]["seats"] == 4
    keys = [o["key"] for o in games["israeli"]["options"]]
    assert "target" in keys and "auction-order" in keys
    assert all(o["doc"] for g in games.values() for o in g["options"])


@pytest.mark.parametrize("game", GAMES)
def test_random_matches_play_to_the_end(game):
    state = play_random(we.new_game(game, 11, {"hands": 2}), random.Random(5))
    result = state.result()
    assert state.is_over() and state.to_act() == [] and state.legal_actions() == []
    assert len(result["totals"]) == state.seats and len(result["ranks"]) == state.seats
    assert min(result["ranks"]) == 1


def test_the_same_seed_and_actions_give_the_same_match():
    a = play_random(we.new_game("illustrated", 3, {"hands": 2}), random.Random(9))
    b = play_random(we.new_game("illustrated", 3, {"hands": 2}), random.Random(9))
    assert a.log() == b.log()
    c = play_random(we.new_game("illustrated", 4, {"hands": 2}), random.Random(9))
    assert a.log() != c.log()


def test_an_illegal_action_raises_the_referees_reason():
    state = we.new_game("israeli", 1, {"hands": 1})
    with pytest.raises(we.IllegalActionError, match="not possible now"):
        state.apply("AS")
    with pytest.raises(we.IllegalActionError, match="cannot parse"):
        state.apply("bogus")
    with pytest.raises(we.IllegalActionError, match="out of range"):
        state.apply(999)
    # I4: the fourth contract bid may not make the total exactly 13.
    state = we.new_game("israeli", 1, {"hands": 1})
    seat = state.to_act()[0]
    state.apply("bid 5C", seat=seat)
    for _ in range(3):
        state.apply("pass")
    assert state.legal_actions()[0] == "bid 5"
    state.apply("bid 5")
    state.apply("bid 3")
    state.apply("bid 2")
    # The text the README quotes, word for word.
    with pytest.raises(we.IllegalActionError) as refused:
        state.apply("bid 3")
    assert str(refused.value) == (
        "`bid 3`: the fourth bid may not make the total exactly 13 (I4)"
    )
    state.apply("bid 4")


def test_actions_by_text_or_index_and_seats_acting_at_once():
    state = we.new_game("yogi", 2, {"hands": 1})
    seats = state.to_act()
    assert len(seats) == 5  # the bid cards are placed at once (Y4)
    with pytest.raises(ValueError, match="name the seat"):
        state.legal_actions()
    legal = state.legal_actions(seats[0])
    state.apply(legal[1], seat=seats[0])
    assert seats[0] not in state.to_act()
    state.apply(0, seat=seats[1])


def test_clone_and_copy_play_on_independently():
    state = we.new_game("honeymoon", 5, {"hands": 1})
    twin = state.clone()
    third = copy.deepcopy(state)
    state.apply(0)
    assert twin.legal_actions() != state.legal_actions() or twin.to_act() != state.to_act()
    assert twin.log() == third.log()


def test_an_observation_shows_a_seat_its_own_cards_only():
    state = we.new_game("israeli", 8, {"hands": 1})
    seen = [set(state.observation(s)["hand"]) for s in range(4)]
    assert all(len(h) == 13 for h in seen)
    assert len(set.union(*seen)) == 52
    obs = state.observation(0)
    for p in obs["players"]:
        if p["seat"] != 0:
            assert p["known"] == []
    assert obs["game"] == "israeli" and obs["seat"] == 0
    assert json.loads(state.observation_json(0)) == obs
    assert json.loads(we.decode_observation(state.observation_bytes(0))) == obs


def test_sampled_worlds_agree_with_everything_the_seat_saw():
    state = we.new_game("honeymoon", 4, {"hands": 1})
    rng = random.Random(2)
    for _ in range(11):
        state.apply(rng.randrange(len(state.legal_actions())))
    seat = state.to_act()[0]
    obs = state.observation(seat)
    for source in (obs, state.observation_json(seat), state.observation_bytes(seat)):
        worlds = we.sample_worlds("honeymoon", source, 8, seed=3, options={"hands": 1})
        assert len(worlds) == 8
        for world, weight in worlds:
            assert weight > 0
            assert world.to_act() == [seat]
            assert world.legal_actions() == state.legal_actions()
            mine = world.observation(seat)
            assert mine["hand"] == obs["hand"] and mine["trick"] == obs["trick"]
            play_random(world, rng)
    # Different worlds: the other seat's hand is not always the true one.
    others = {tuple(w.observation(1 - seat)["hand"]) for w, _ in
              we.sample_worlds("honeymoon", obs, 8, seed=4, options={"hands": 1})}
    assert len(others) > 1


def test_a_heuristic_playout_ends_the_hand():
    state = we.new_game("israeli", 2, {"hands": 2})
    state.play_hand_out()
    assert len(state.hand_results()) == 1 and not state.is_over()


def test_a_match_deals_as_whistle_play_does(whistle_bin):
    out = subprocess.run(
        [whistle_bin, "play", "--game", "honeymoon", "--seed", "7", "--hands", "1",
         "--bots", "first", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    played = json.loads(out)
    state = we.new_game("honeymoon", 7, {"hands": 1})
    while not state.is_over():
        state.apply(0, seat=state.to_act()[0])
    assert state.result()["totals"] == played["result"]["totals"]
    end = json.loads(state.log().splitlines()[-1])
    assert end["match_seed"] == played["match_seed"]


@pytest.mark.parametrize("game", GAMES)
def test_the_log_is_one_replay_verify_accepts(game, whistle_bin, tmp_path):
    state = play_random(we.new_game(game, 21, {"hands": 2}), random.Random(1))
    path = tmp_path / f"{game}.jsonl"
    path.write_text(state.log())
    verified = subprocess.run([whistle_bin, "replay", "verify", str(path)],
                              capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "ok" in verified.stdout


def test_an_index_always_means_the_list_of_that_seat_now():
    """apply(index) after legal_actions() of another seat, or of an earlier
    step, picks from the right list (the engine keeps the last one listed)."""
    by_index = we.new_game("yogi", 6, {"hands": 1})
    by_text = we.new_game("yogi", 6, {"hands": 1})
    rng = random.Random(8)
    while not by_index.is_over():
        seats = by_index.to_act()
        other = seats[-1]
        by_index.legal_actions(other)  # listed, then not used
        seat = seats[0]
        legal = by_text.legal_actions(seat)
        i = rng.randrange(len(legal))
        by_index.apply(i, seat=seat)
        by_text.apply(legal[i], seat=seat)
    assert by_index.log() == by_text.log()


def test_the_kept_listing_serves_indexes_texts_and_copies_alike():
    """apply() by index, by the very text legal_actions() gave, by an equal
    text made anew, and on a copy made after the listing, plays the same
    match; a seat must still be named where several act at once, listed
    or not."""
    state = we.new_game("yogi", 2, {"hands": 1})
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    with pytest.raises(ValueError, match="name the seat"):
        state.apply(0)
    with pytest.raises(ValueError, match="name the seat"):
        state.apply(legal[0])
    by_index = we.new_game("israeli", 3, {"hands": 1})
    by_listed_text = by_index.clone()
    by_new_text = by_index.clone()
    rng = random.Random(4)
    while not by_index.is_over():
        legal = by_listed_text.legal_actions()
        i = rng.randrange(len(legal))
        text = legal[i].encode().decode()
        assert text == legal[i] and text is not legal[i]
        listed = by_index.legal_actions()
        twin = by_index.clone()
        by_index.apply(i)
        twin.apply(i)
        assert twin.log() == by_index.log()
        by_listed_text.apply(legal[i])
        by_new_text.apply(text)
        assert listed == legal
    assert by_index.log() == by_listed_text.log() == by_new_text.log()
