"""What a bot usually wants from an observation, as plain values.

``observation`` is the request's ``whistle.v1.Observation`` (docs/protocol.md
lists every field); these helpers read the common parts::

    from whistle_bot.view import Legal, led_suit, my_hand, trump_suit

    def choose(observation, legal):
        plays = Legal(legal).cards()          # [(index, Card), ...]
        if plays:
            suit = led_suit(observation)
            ...
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _stubs
from .cards import Action, Card, parse_action, parse_cards

pb, _ = _stubs.load()

#: A player of a trick card: a seat number, or None for the dummy.
Player = Optional[int]


def phase(observation: Any) -> str:
    """``"auction"``, ``"bid"``, ``"pass"``, ``"declare"``, ``"choose"``,
    ``"exchange"``, ``"play"``, ``"deal"`` or ``"over"``."""
    return pb.Phase.Name(observation.phase).removeprefix("PHASE_").lower()


def my_seat(observation: Any) -> int:
    """The viewer's seat."""
    return observation.seat


def my_hand(observation: Any) -> List[Card]:
    """The viewer's cards, lowest first."""
    return sorted(parse_cards(observation.hand))


def known_cards(observation: Any, seat: int) -> List[Card]:
    """The cards of ``seat``'s hand the viewer can see (all of its own)."""
    return parse_cards(observation.players[seat].known)


def trick_so_far(observation: Any) -> List[Tuple[Player, Card]]:
    """The cards of the trick being played, in order, with who played them."""
    return [
        (None if c.dummy else c.seat, Card.parse(c.card)) for c in observation.trick.cards
    ]


def led_suit(observation: Any) -> Optional[str]:
    """The suit of the card that led the current trick (None when the trick
    is empty or was led by a joker)."""
    cards = trick_so_far(observation)
    if not cards or cards[0][1].is_joker:
        return None
    return cards[0][1].suit


def leader(observation: Any) -> Player:
    """Who leads the current trick: whoever played its first card, or, with
    the trick still empty during play, the seat to act. None otherwise (and
    for the dummy)."""
    cards = observation.trick.cards
    if cards:
        return None if cards[0].dummy else cards[0].seat
    if phase(observation) == "play" and len(observation.to_act) == 1:
        return observation.to_act[0]
    return None


def trump(observation: Any) -> str:
    """The trump as a word: ``"undecided"``, ``"suit"`` (see
    :func:`trump_suit`), ``"no-trump"``, ``"nines"`` or ``"jokers"``."""
    name = pb.Trump.Kind.Name(observation.trump.kind).lower().replace("_", "-")
    return "undecided" if name == "kind-unspecified" else name


def trump_suit(observation: Any) -> Optional[str]:
    """The trump suit (``"C"``, ``"D"``, ``"H"``, ``"S"``), or None."""
    return observation.trump.suit if trump(observation) == "suit" else None


def tricks_won(observation: Any) -> Dict[int, int]:
    """Tricks won this hand, by seat."""
    return {p.seat: p.tricks for p in observation.players}


def is_to_act(observation: Any, seat: Optional[int] = None) -> bool:
    """Whether ``seat`` (the viewer by default) is among the seats to act."""
    return (observation.seat if seat is None else seat) in observation.to_act


class Legal:
    """A request's legal actions, parsed; indices are those of ``legal``,
    which is what a bot answers with."""

    def __init__(self, legal: Sequence[str]):
        self.texts = list(legal)
        self.actions: List[Action] = [parse_action(t) for t in self.texts]

    def __len__(self) -> int:
        return len(self.actions)

    def kinds(self) -> List[str]:
        """The kinds present, in the order they first appear."""
        return list(dict.fromkeys(a.kind for a in self.actions))

    def of_kind(self, kind: str) -> List[Tuple[int, Action]]:
        """``(index, action)`` for every legal action of ``kind``."""
        return [(i, a) for i, a in enumerate(self.actions) if a.kind == kind]

    def by_kind(self) -> Dict[str, List[Tuple[int, Action]]]:
        """Every legal action grouped by kind."""
        out: Dict[str, List[Tuple[int, Action]]] = {}
        for i, a in enumerate(self.actions):
            out.setdefault(a.kind, []).append((i, a))
        return out

    def cards(self) -> List[Tuple[int, Card]]:
        """``(index, card)`` for every legal card play."""
        return [(i, a.card) for i, a in self.of_kind("play") if a.card is not None]

    def index(self, action: Union[str, Action, Card]) -> int:
        """The index to answer with for an action, its text or a card to
        play; ValueError if it is not legal."""
        if isinstance(action, Card):
            for i, c in self.cards():
                if c == action:
                    return i
            raise ValueError(f"playing {action} is not legal")
        text = action.text if isinstance(action, Action) else action
        want = parse_action(text)
        for i, a in enumerate(self.actions):
            if (a.kind, a.card, a.number, a.tricks, a.strain, a.seat, a.word) == (
                want.kind, want.card, want.number, want.tricks, want.strain, want.seat, want.word,
            ):
                return i
        raise ValueError(f"{text!r} is not legal")
