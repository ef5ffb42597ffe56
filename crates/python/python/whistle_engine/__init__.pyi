from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._engine import IllegalActionError as IllegalActionError
from ._engine import State as State
from ._engine import action_values as action_values
from ._engine import canonical_action as canonical_action
from ._engine import decode_observation as decode_observation

def games() -> List[Dict[str, Any]]: ...
def new_game(name: str, seed: int, options: Optional[Mapping[str, Any]] = None) -> State: ...
def sample_worlds(
    game_name: str,
    observation: Union[str, bytes, Mapping[str, Any]],
    n: int,
    seed: int,
    options: Optional[Mapping[str, Any]] = None,
) -> List[Tuple[State, float]]: ...
