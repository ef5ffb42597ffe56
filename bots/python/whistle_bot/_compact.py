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

from typing import Any, Optional

# Field numbers of Observation that deltas never name in `changed`.
_TRICKS = 16
_HISTORY = 17


class DeltaError(ValueError):
    """A delta that cannot be applied: malformed, or with no whole
    observation before it (the kit then sends ``Resync``)."""


def _is_repeated(field: Any) -> bool:
    repeated = getattr(field, "is_repeated", None)
    if repeated is not None:
        return bool(repeated)
    return field.label == field.LABEL_REPEATED


def apply_delta(observation: Any, delta: Any) -> None:
    """Applies ``delta`` (a ``whistle.v1.ObservationDelta``) to
    ``observation`` (the ``whistle.v1.Observation`` it was made from), in
    place."""
    for event in delta.events:
        if event.WhichOneof("kind") == "hand_start":
            del observation.history[:]
        observation.history.add().CopyFrom(event)
    kept = delta.tricks_kept
    if kept > len(observation.tricks):
        raise DeltaError(f"tricks_kept {kept} but only {len(observation.tricks)} tricks")
    del observation.tricks[kept:]
    values = delta.values
    observation.tricks.extend(values.tricks)
    fields = observation.DESCRIPTOR.fields_by_number
    for number in delta.changed:
        field = fields.get(number)
        if field is None or number in (_TRICKS, _HISTORY):
            raise DeltaError(f"changed names field {number}")
        name = field.name
        observation.ClearField(name)
        if _is_repeated(field):
            getattr(observation, name).extend(getattr(values, name))
        elif field.message_type is not None:
            if values.HasField(name):
                getattr(observation, name).CopyFrom(getattr(values, name))
        else:
            setattr(observation, name, getattr(values, name))


class Rebuilder:
    """One stream's whole observation, kept from request to request."""

    def __init__(self, observation_type: Any):
        self._type = observation_type
        self.observation: Optional[Any] = None

    def update(self, request: Any) -> Any:
        """Takes in a ``DecisionRequest`` and returns the whole observation it
        stands for. Raises :class:`DeltaError` for a delta with nothing to
        apply it to, or a malformed one (then the next request must be
        whole)."""
        if request.HasField("observation"):
            obs = self._type()
            obs.CopyFrom(request.observation)
            self.observation = obs
            return obs
        obs, self.observation = self.observation, None
        if obs is None or not request.HasField("delta"):
            raise DeltaError("a delta without a whole observation before it")
        apply_delta(obs, request.delta)
        self.observation = obs
        return obs
