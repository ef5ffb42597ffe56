"""Compact requests: the whole observation rebuilt from the changes the
referee sends (``Hello.compact``; docs/protocol.md, "Compact requests").

The first request of a stream carries the whole ``Observation``; later ones
carry an ``ObservationDelta``. :class:`Rebuilder` keeps the observation and
applies each delta by the rule whistle.proto states: events append to the
history (a ``HandStart`` clears it first), the first ``tricks_kept``
completed tricks stay and ``values.tricks`` follow, and each field number in
``changed`` is replaced by its value in ``values``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

# Field numbers of Observation that deltas never name in `changed`.
_TRICKS = 16
_HISTORY = 17


class DeltaError(ValueError):
    """A delta that cannot be applied: malformed, or with no whole
    observation before it (the kit then sends ``Resync``)."""


# By message type: {field number: name} for every field `changed` may name;
# read from the descriptor once, not at every delta.
_NAMES: Dict[Any, Dict[int, str]] = {}


def _names(observation: Any) -> Dict[int, str]:
    names = _NAMES.get(type(observation))
    if names is None:
        names = {
            field.number: field.name
            for field in observation.DESCRIPTOR.fields
            if field.number not in (_TRICKS, _HISTORY)
        }
        _NAMES[type(observation)] = names
    return names


def apply_delta(observation: Any, delta: Any, kinds: Optional[List[str]] = None) -> None:
    """Applies ``delta`` (a ``whistle.v1.ObservationDelta``) to
    ``observation`` (the ``whistle.v1.Observation`` it was made from), in
    place. ``kinds``: its events' kinds (``Event.kind``), if already read."""
    events = delta.events
    if events:
        history = observation.history
        # A HandStart clears the history: only the events from the last
        # one on are kept, after what the history held if there is none.
        if kinds is None:
            kinds = [event.WhichOneof("kind") for event in events]
        if "hand_start" in kinds:
            start = len(kinds) - 1 - kinds[::-1].index("hand_start")
            del history[:]
            history.extend(events[start:])
        else:
            history.extend(events)
    kept = delta.tricks_kept
    tricks = observation.tricks
    if kept > len(tricks):
        raise DeltaError(f"tricks_kept {kept} but only {len(tricks)} tricks")
    names = _names(observation)
    changed = []
    for number in delta.changed:
        name = names.get(number)
        if name is None:
            raise DeltaError(f"changed names field {number}")
        changed.append(name)
    for name in changed:
        observation.ClearField(name)
    del tricks[kept:]
    # `values` holds the changed fields and the new tricks, every other
    # field unset (whistle.proto): merged into the observation with those
    # fields cleared, it replaces them and appends the tricks, in one call
    # instead of one a field.
    observation.MergeFrom(delta.values)


class Rebuilder:
    """One stream's whole observation, kept from request to request."""

    def __init__(self, observation_type: Any):
        self._type = observation_type
        self.observation: Optional[Any] = None

    def update(self, request: Any, kinds: Optional[List[str]] = None) -> Any:
        """Takes in a ``DecisionRequest`` and returns the whole observation it
        stands for (``kinds``: its delta's events' kinds, if already read).
        Raises :class:`DeltaError` for a delta with nothing to apply it to,
        or a malformed one (then the next request must be whole)."""
        if request.HasField("observation"):
            obs = self._type()
            obs.CopyFrom(request.observation)
            self.observation = obs
            return obs
        obs, self.observation = self.observation, None
        if obs is None or not request.HasField("delta"):
            raise DeltaError("a delta without a whole observation before it")
        apply_delta(obs, request.delta, kinds)
        self.observation = obs
        return obs
