"""whistle_engine: the whistle referee's own rules engine, in Python.

The five games of whistle (Yogi's, Oneonta, Israeli, Honeymoon and
Illustrated Whist) exactly as the referee plays them: deals from a seed as
``whistle play --seed`` does, legal actions in the protocol's order, the
referee's reasons for refusing an action, observations with the protocol's
fields, replay logs ``whistle replay verify`` accepts, and the world sampler
of the engine's sampling bot, and playouts run many at a time in Rust with
the GIL released (``State.playouts``, ``State.action_values``,
``action_values``) for Monte-Carlo bots. ``whistle_engine.openspiel``
registers the games with OpenSpiel. Rules: docs/rules in the whistle repository.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from . import _engine
from ._engine import (
    IllegalActionError,
    State,
    action_values,
    canonical_action,
    decode_observation,
)

__all__ = [
    "IllegalActionError",
    "State",
    "action_values",
    "canonical_action",
    "decode_observation",
    "games",
    "new_game",
    "sample_worlds",
]


def _pairs(options: Optional[Mapping[str, Any]]) -> Optional[List[Tuple[str, str]]]:
    if options is None:
        return None
    out = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        out.append((str(key), str(value)))
    return out


def games() -> List[Dict[str, Any]]:
    """Every game: its name, title, seats by default and options (key,
    default, values, doc: the text ``whistle games`` prints)."""
    return [
        {
            "name": name,
            "title": title,
            "seats": seats,
            "options": [
                {"key": k, "default": d, "values": v, "doc": doc}
                for (k, d, v, doc) in options
            ],
        }
        for (name, title, seats, options) in _engine.games()
    ]


def new_game(name: str, seed: int, options: Optional[Mapping[str, Any]] = None) -> State:
    """A match of game ``name`` dealt from ``seed`` exactly as
    ``whistle play --seed SEED`` and the referee deal it. ``options`` maps
    option keys to values (``{"hands": 2}``); unknown ones raise ValueError."""
    return _engine.new_game(name, seed, _pairs(options))


def sample_worlds(
    game_name: str,
    observation: Union[str, bytes, Mapping[str, Any]],
    n: int,
    seed: int,
    options: Optional[Mapping[str, Any]] = None,
) -> List[Tuple[State, float]]:
    """Up to ``n`` states consistent with a seat's observation, each with its
    importance weight (equal where every consistent world is equally likely).

    ``observation`` is what ``State.observation(seat)`` returns, its JSON text
    (a stdio bot's ``observation``), or the protocol's ``Observation``
    message as bytes (``message.SerializeToString()`` of what a gRPC bot
    received). The options must be the match's (a Welcome's options)."""
    if isinstance(observation, Mapping):
        import json

        observation = json.dumps(observation)
    return _engine.sample_worlds(game_name, observation, n, seed, _pairs(options))
