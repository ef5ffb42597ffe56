"""Binary requests: cards and actions as small integers (``Hello.binary``;
docs/protocol.md, "Binary requests").

On a binary stream the referee leaves the text fields of cards and actions
empty and sends their ids in the ``*_id``/``*_ids`` fields beside them. The
kit writes the texts back (:func:`textify_request`, :func:`textify_event`)
before a bot sees anything, so a bot reads the same messages either way.

A card's id is its index + 1: suit × 13 + rank + 1 (suits ``C D H S``, ranks
``2`` … ``A``), ``LJ`` 53, ``BJ`` 54. An action's id is
``1 + 4096 × kind + argument`` (:data:`ACTION_KINDS`); a card play's id is
its card's id. 0 means none.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .cards import RANKS, SUITS

#: Card texts by id (index 0: none).
CARD_TEXTS: List[str] = [""] + [r + s for s in SUITS for r in RANKS] + ["LJ", "BJ"]

#: Action kinds in id order (``whistle_rules::ActionKind::ALL``).
ACTION_KINDS = (
    "play", "pass", "contract", "bid", "null", "open-null", "double-bid", "double-null",
    "give", "place", "discard", "declare", "reveal", "no", "leader", "hand-size",
    "count", "vote", "exchange", "announce", "double", "redouble",
)
_KIND_SPAN = 4096
_STRAINS = ("C", "D", "H", "S", "NT")
_EXCHANGES = ("whole", "half", "without", "against")
_FEATS = ("four-kings", "four-aces", "dix-last", "all-three", "joker-catch", "slam")

_action_texts: Dict[int, str] = {i: t for i, t in enumerate(CARD_TEXTS) if i}


class BinaryError(ValueError):
    """An id that names no card or action."""


def card_text(card_id: int) -> str:
    """The text of a card id (``1`` → ``"2C"``)."""
    if 0 < card_id < len(CARD_TEXTS):
        return CARD_TEXTS[card_id]
    raise BinaryError(f"not a card id: {card_id}")


def _compute_action_text(action_id: int) -> str:
    kind_index, arg = divmod(action_id - 1, _KIND_SPAN)
    if action_id < 1 or kind_index >= len(ACTION_KINDS):
        raise BinaryError(f"not an action id: {action_id}")
    kind = ACTION_KINDS[kind_index]
    try:
        if kind in ("give", "place", "discard"):
            return f"{kind} {CARD_TEXTS[arg + 1]}"
        if kind in ("pass", "open-null", "declare", "reveal", "no") and arg == 0:
            return kind
        if kind == "contract":
            return f"bid {arg // 5}{_STRAINS[arg % 5]}"
        if kind == "bid":
            return f"bid {arg}"
        if kind == "null":
            return "null" if arg == 0 else f"null {arg}"
        if kind == "double-bid":
            return f"bid {arg} double"
        if kind == "double-null":
            return f"null {arg} double"
        if kind == "leader":
            return f"lead {arg}"
        if kind == "hand-size":
            return f"size {arg}"
        if kind == "count":
            return f"count {arg}"
        if kind == "vote" and arg < 2:
            return "vote yes" if arg else "vote no"
        if kind == "exchange":
            return _EXCHANGES[arg]
        if kind == "announce":
            return f"announce {_FEATS[arg]}"
        if kind in ("double", "redouble"):
            return f"{kind} {'game' if arg == 0 else _FEATS[arg - 1]}"
    except IndexError:
        pass
    raise BinaryError(f"not an action id: {action_id}")


def action_text(action_id: int) -> str:
    """The canonical text of an action id (``4097`` → ``"pass"``)."""
    text = _action_texts.get(action_id)
    if text is None:
        text = _action_texts[action_id] = _compute_action_text(action_id)
    return text


_CARDS_BY_ID = {i: t for i, t in enumerate(CARD_TEXTS) if i}
_card_by_id = _CARDS_BY_ID.__getitem__


def _cards(texts: Any, ids: Any) -> None:
    if ids:
        try:
            texts.extend(map(_card_by_id, ids))
        except KeyError:
            raise BinaryError(f"not a card id in {list(ids)}") from None
        del ids[:]


def _action_texts_of(ids: Any) -> List[str]:
    texts = list(map(_action_texts.get, ids))
    if None in texts:
        texts = [action_text(i) for i in ids]
    return texts


def _event_action(event: Any) -> None:
    a = event.action
    i = a.action_id
    if i:
        a.action = _action_texts.get(i) or action_text(i)
        a.action_id = 0


def _event_card(m: Any) -> None:
    i = m.card_id
    if i:
        m.card = card_text(i)
        m.card_id = 0


def _event_cards(m: Any) -> None:
    _cards(m.cards, m.card_ids)


# What each kind of event carries in binary form, and who writes its texts.
_EVENT_TEXTS = {
    "dummy_play": _event_card,
    "turn_up": _event_card,
    "take": _event_card,
    "dealt": _event_cards,
    "reveal": _event_cards,
}


def textify_event(event: Any) -> None:
    """Writes the texts of a binary ``Event``'s cards and actions, in place."""
    kind = event.WhichOneof("kind")
    if kind == "action":
        _event_action(event)
    else:
        f = _EVENT_TEXTS.get(kind)
        if f is not None:
            f(getattr(event, kind))


def _trick(trick: Any) -> None:
    texts = CARD_TEXTS
    for c in trick.cards:
        i = c.card_id
        if i:
            try:
                c.card = texts[i]
            except IndexError:
                raise BinaryError(f"not a card id: {i}") from None
            c.card_id = 0


def _card_texts(ids: Any) -> List[str]:
    try:
        return list(map(_card_by_id, ids))
    except KeyError:
        raise BinaryError(f"not a card id in {list(ids)}") from None


# Clearing a repeated field by its parent's ClearField costs less than
# `del ids[:]`; an int set to 0 less than ClearField.


def _hand(obs: Any) -> None:
    ids = obs.hand_ids
    if ids:
        obs.hand.extend(_card_texts(ids))
        obs.ClearField("hand_ids")


def _players(obs: Any) -> None:
    get = _action_texts.get
    for p in obs.players:
        ids = p.known_ids
        if ids:
            p.known.extend(_card_texts(ids))
            p.ClearField("known_ids")
        i = p.bid_id
        if i:
            p.bid = get(i) or action_text(i)
            p.bid_id = 0


def _contract(obs: Any) -> None:
    if obs.HasField("contract") and obs.contract.action_id:
        obs.contract.action = action_text(obs.contract.action_id)
        obs.contract.action_id = 0


def _table(obs: Any) -> None:
    for t in obs.table:
        i = t.card_id
        if i:
            t.card = card_text(i)
            t.card_id = 0


def _current_trick(obs: Any) -> None:
    if obs.HasField("trick"):
        _trick(obs.trick)


# The Observation fields that carry cards or actions, by field number.
_FIELDS = {9: _hand, 10: _players, 12: _contract, 13: _table, 15: _current_trick}


def textify_observation(obs: Any, fields: Any = None) -> None:
    """Writes the texts of a binary ``Observation`` in place; ``fields``:
    only those field numbers (a delta's ``changed``), and its ``tricks``."""
    get = _FIELDS.get
    for number in _FIELDS if fields is None else fields:
        f = get(number)
        if f is not None:
            f(obs)
    for t in obs.tricks:
        _trick(t)
    if fields is None:
        for e in obs.history:
            textify_event(e)


def textify_events(events: Any) -> List[str]:
    """Writes the texts of binary ``Event`` messages in place (a delta's:
    mostly actions, handled here without a call each); returns their kinds
    (``Event.kind``), which rebuilding the observation reads too."""
    get = _action_texts.get
    kinds = []
    for e in events:
        kind = e.WhichOneof("kind")
        kinds.append(kind)
        if kind == "action":
            a = e.action
            i = a.action_id
            if i:
                a.action = get(i) or action_text(i)
                a.action_id = 0
        else:
            f = _EVENT_TEXTS.get(kind)  # type: ignore[arg-type]
            if f is not None:
                f(getattr(e, kind))
    return kinds


def textify_request(request: Any) -> Optional[List[str]]:
    """Writes the texts of a binary ``DecisionRequest`` in place: its legal
    actions, and its observation or its delta (events and values). Returns
    the kinds of the delta's events (see :func:`textify_events`), None
    without a delta."""
    ids = request.legal_ids
    if ids:
        request.legal.extend(_action_texts_of(ids))
    kinds = None
    if request.HasField("delta"):
        delta = request.delta
        kinds = textify_events(delta.events)
        if delta.HasField("values"):
            textify_observation(delta.values, delta.changed)
    if request.HasField("observation"):
        textify_observation(request.observation)
    return kinds
