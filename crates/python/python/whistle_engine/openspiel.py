"""The five whistle games as OpenSpiel Python games (``python_whistle_<game>``).

``register()`` adds them to pyspiel; then ``pyspiel.load_game(
"python_whistle_israeli", {"hands": 1})`` plays Israeli Whist with the
referee's own engine, and OpenSpiel's algorithms and tools (random
rollouts, ``evaluate_bots``, its ISMCTS bot) run on it.

- Parameters: every option of the game, as a string ("" is the game's
  default), and ``seed`` (an integer).
- The deal is a chance event: the first node chooses one of ``DEALS`` deal
  numbers uniformly; deal number k plays the match dealt from seed
  ``seed * DEALS + k`` (as ``whistle play --seed`` deals it), every hand of it.
- Sequential: a simultaneous step is played one seat at a time, lowest seat
  first; the engine shows nobody anything until the step is complete.
- Actions: integers into the game's vocabulary under its options (every
  action text it can ever take, in the rules crate's fixed order:
  ``Game::vocabulary``); ``action_to_string`` gives the text.
- Returns: the match's final totals, negated where lower totals are better
  (Yogi's fines), given at the end (terminal rewards, general sum).
- Strings: the information state is the seat's observation as JSON (with the
  hand's history), the observation string the same without the history.
  ``resample_from_infostate`` draws a world with the engine's sampler.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

import pyspiel

import whistle_engine as _we
from whistle_engine import _engine

DEALS = 1024
_MAX_UTILITY = 100000.0
_MAX_LENGTH = 100000


def vocabulary(game: str, options: Optional[Dict[str, str]] = None) -> List[str]:
    """Every action text ``game`` can ever take under ``options``, in
    OpenSpiel's action order: the rules crate's vocabulary
    (``Game::vocabulary``), whose ids are fixed."""
    return _engine.vocabulary(game, sorted((options or {}).items()))


_VOCAB: Dict[Tuple[str, Tuple[Tuple[str, str], ...]], Tuple[List[str], Dict[str, int]]] = {}


def _vocab(game: str, options: Dict[str, str]) -> Tuple[List[str], Dict[str, int]]:
    key = (game, tuple(sorted(options.items())))
    if key not in _VOCAB:
        words = vocabulary(game, options)
        _VOCAB[key] = (words, {w: i for i, w in enumerate(words)})
    return _VOCAB[key]


def _options(game: str, params: Dict[str, Any]) -> Dict[str, str]:
    keys = {o["key"] for g in _we.games() if g["name"] == game for o in g["options"]}
    return {k: str(v) for k, v in params.items() if k in keys and str(v) != ""}


class WhistleGame(pyspiel.Game):
    """One whistle game with its options (a subclass per game names it)."""

    whistle_name = ""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        game = self.whistle_name
        params = dict(params or {})
        self.whistle_game = game
        self.whistle_seed = int(params.get("seed", 0))
        self.whistle_options = _options(game, params)
        probe = _we.new_game(game, 0, self.whistle_options)
        words, _ = _vocab(game, self.whistle_options)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(words),
            max_chance_outcomes=DEALS,
            num_players=probe.seats,
            min_utility=-_MAX_UTILITY,
            max_utility=_MAX_UTILITY,
            utility_sum=None,
            max_game_length=_MAX_LENGTH,
        )
        super().__init__(_TYPES[game], info, params)

    def new_initial_state(self) -> "WhistleState":
        return WhistleState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(iig_obs_type)


class WhistleState(pyspiel.State):
    """A match: a chance node (the deal), then the seats' decisions."""

    def __init__(self, game: WhistleGame):
        super().__init__(game)
        self._game_name = game.whistle_game
        self._seed = game.whistle_seed
        self._options = dict(game.whistle_options)
        self._s: Optional[_we.State] = None

    @property
    def engine(self) -> Optional[_we.State]:
        """The engine's state (None before the deal)."""
        return self._s

    def current_player(self) -> int:
        if self._s is None:
            return pyspiel.PlayerId.CHANCE
        seats = self._s.to_act()
        if not seats:
            return pyspiel.PlayerId.TERMINAL
        return seats[0]

    def _legal_actions(self, player: int) -> List[int]:
        _, index = _vocab(self._game_name, self._options)
        return sorted(index[a] for a in self._s.legal_actions(player))

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        p = 1.0 / DEALS
        return [(k, p) for k in range(DEALS)]

    def _apply_action(self, action: int) -> None:
        if self._s is None:
            self._s = _we.new_game(self._game_name, self._seed * DEALS + action, self._options)
            return
        words, _ = _vocab(self._game_name, self._options)
        self._s.apply(words[action], seat=self._s.to_act()[0])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return _vocab(self._game_name, self._options)[0][action]

    def is_terminal(self) -> bool:
        return self._s is not None and self._s.is_over()

    def returns(self) -> List[float]:
        n = self.get_game().num_players()
        if self._s is None or not self._s.is_over():
            return [0.0] * n
        totals = self._s.result()["totals"]
        sign = -1.0 if self._s.lower_is_better() else 1.0
        return [sign * float(t) for t in totals]

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "WhistleState":
        """A state consistent with what ``player_id`` has seen, drawn by the
        engine's world sampler (OpenSpiel's ISMCTS bot calls this)."""
        clone = self.clone()
        if self._s is None or self._s.is_over():
            return clone
        r = probability_sampler() if probability_sampler is not None else 0.5
        worlds = _we.sample_worlds(
            self._game_name,
            self._s.observation_json(player_id),
            1,
            int(r * 2**53),
            self._options,
        )
        if worlds:
            clone._s = worlds[0][0]
        return clone

    def __str__(self) -> str:
        if self._s is None:
            return f"{self._game_name}: before the deal"
        return repr(self._s)


class _Observer:
    """Strings only: the seat's observation as JSON (the information state
    with the hand's history, the observation without it)."""

    def __init__(self, iig_obs_type=None):
        perfect_recall = iig_obs_type is None or getattr(iig_obs_type, "perfect_recall", False)
        self._history = perfect_recall
        self.tensor = None
        self.dict: Dict[str, Any] = {}

    def set_from(self, state: WhistleState, player: int) -> None:
        pass

    def string_from(self, state: WhistleState, player: int) -> str:
        if state.engine is None:
            return "before the deal"
        obs = state.engine.observation(player)
        if not self._history:
            obs.pop("history", None)
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))


_TYPES: Dict[str, "pyspiel.GameType"] = {}


def register() -> List[str]:
    """Registers the five games with pyspiel (once); returns their names."""
    names = []
    for g in _we.games():
        game = g["name"]
        short = f"python_whistle_{game}"
        names.append(short)
        if game in _TYPES:
            continue
        spec: Dict[str, Any] = {"seed": 0}
        spec.update({o["key"]: "" for o in g["options"]})
        _TYPES[game] = pyspiel.GameType(
            short_name=short,
            long_name=f"Python whistle {g['title'].split(':')[0]}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=13,
            min_num_players=1,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=False,
            parameter_specification=spec,
        )
        # A class per game, as OpenSpiel's own Python games register theirs.
        cls = type(f"Whistle{game.capitalize()}Game", (WhistleGame,), {"whistle_name": game})
        _CLASSES[game] = cls
        pyspiel.register_game(_TYPES[game], cls)
    return names


_CLASSES: Dict[str, type] = {}
