"""The five games through OpenSpiel: loading, random games with the
engine's returns, OpenSpiel's own tools and its ISMCTS bot."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import whistle_engine as we  # noqa: E402
from whistle_engine import openspiel as wos  # noqa: E402

NAMES = wos.register()
SMALL = {"hands": "1"}


def test_register_names_every_game_once_and_again_is_harmless():
    assert NAMES == [f"python_whistle_{g['name']}" for g in we.games()]
    assert wos.register() == NAMES
    registered = pyspiel.registered_names()
    assert all(n in registered for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_random_games_end_with_the_engines_returns(name):
    game = pyspiel.load_game(name, SMALL)
    gtype = game.get_type()
    assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    rng = random.Random(hash(name) % 1000)
    for _ in range(3):
        state = game.new_initial_state()
        assert state.is_chance_node()
        deal = rng.choice([o for o, _ in state.chance_outcomes()])
        state.apply_action(deal)
        texts = []
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            action = rng.choice(legal)
            texts.append((player, state.action_to_string(player, action)))
            assert state.information_state_string(player)
            assert state.observation_string(player)
            state.apply_action(action)
        # The same match in the engine directly.
        engine = we.new_game(name.removeprefix("python_whistle_"), deal, {"hands": 1})
        for player, text in texts:
            engine.apply(text, seat=player)
        totals = engine.result()["totals"]
        sign = -1 if engine.lower_is_better() else 1
        assert state.returns() == [sign * t for t in totals]


def test_actions_are_the_rules_crates_vocabulary_under_the_options():
    game = pyspiel.load_game("python_whistle_israeli", SMALL)
    words = wos.vocabulary("israeli", SMALL)
    assert words == we._engine.vocabulary("israeli", [("hands", "1")])
    # I2-I4: pass, 45 trump bids, 52 gives, 14 contract bids, 52 plays.
    assert game.num_distinct_actions() == len(words) == 164
    assert (words[0], words[1], words[-1]) == ("pass", "bid 5C", "AS")
    state = game.new_initial_state().child(3)
    player = state.current_player()
    texts = [state.action_to_string(player, a) for a in state.legal_actions()]
    assert texts == state.engine.legal_actions(player)
    # Y6: the leaders a revealer may name are the seats there are.
    three = wos.vocabulary("yogi", {"players": "3"})
    assert "lead 2" in three and "lead 3" not in three
    yogi = pyspiel.load_game("python_whistle_yogi", {"players": "3", "hands": "1"})
    assert yogi.num_distinct_actions() == len(three) == 53 + 3 + 3 + 53
    # Y12, Y13: sizes, counts and votes only under their options.
    assert "size 2" not in three and "vote yes" not in three
    assert "size 17" in wos.vocabulary("yogi", {"players": "3", "dealer-chooses": "true"})
    with pytest.raises(ValueError):
        wos.vocabulary("yogi", {"players": "14"})


def test_options_are_game_parameters():
    game = pyspiel.load_game("python_whistle_yogi", {"players": "3", "hands": "1"})
    assert game.num_players() == 3
    game = pyspiel.load_game("python_whistle_oneonta", {"mode": "multi", "players": "5"})
    assert game.num_players() == 5
    state = game.new_initial_state().child(0)
    assert state.current_player() in range(5)


def test_information_states_hide_other_hands():
    game = pyspiel.load_game("python_whistle_israeli", SMALL)
    state = game.new_initial_state().child(17)
    hands = [set(eval_hand(state.information_state_string(p))) for p in range(4)]
    assert all(len(h) == 13 for h in hands) and len(set.union(*hands)) == 52


def eval_hand(text):
    import json

    return json.loads(text)["hand"]


def test_openspiels_random_rollouts_and_evaluate_bots_run():
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("python_whistle_honeymoon", SMALL)
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == 2


def test_openspiels_ismcts_bot_plays_a_whole_game():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_whistle_honeymoon", SMALL)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=8,
        max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        random_state=np.random.RandomState(2),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    rng = random.Random(4)
    state = game.new_initial_state()
    state.apply_action(5)
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            moves += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert moves >= 27
    assert len(state.returns()) == 2
