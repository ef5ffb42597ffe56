"""Cards, suits, ranks and actions as values, instead of text.

The protocol writes cards and actions as text (docs/notation.md): ``"AS"``,
``"TD"``, ``"BJ"``; ``"pass"``, ``"bid 7D"``, ``"bid 5"``, ``"give 3C"``.
These helpers read that text into small immutable values and write it back,
so that a bot can say ``card.rank >= QUEEN`` instead of ``c[0] in "QKA"``::

    from whistle_bot.cards import Card, parse_action

    card = Card.parse("QH")
    card.suit == "H", card.rank == 12, str(card) == "QH"
    parse_action("bid 7D")  # Action(kind='contract', text='bid 7D', tricks=7, strain='D')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Optional

#: The suits, in the order the games sort them (clubs lowest).
SUITS = ("C", "D", "H", "S")
#: Suit names for people.
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: Rank characters, lowest first; a card's ``rank`` is 2 (``"2"``) to 14 (``"A"``).
RANKS = "23456789TJQKA"

TEN, JACK, QUEEN, KING, ACE = 10, 11, 12, 13, 14
#: The jokers' ranks: above every plain card (the games give their own order).
LITTLE_JOKER_RANK, BIG_JOKER_RANK = 15, 16


class CardError(ValueError):
    """Text that is not a card."""


@dataclass(frozen=True, order=True)
class Card:
    """A card: ``rank`` 2..14 (ace 14; jokers 15 and 16) and ``suit``
    (``"C"``, ``"D"``, ``"H"``, ``"S"``, or ``""`` for a joker). Cards order
    by rank, then suit; ``str(card)`` is its canonical text."""

    rank: int
    suit: str

    @staticmethod
    def parse(text: str) -> "Card":
        """``"AS"``, ``"td"``, ``"10S"``, ``"BJ"``, ``"LJ"`` (any case)."""
        t = text.strip().upper()
        if t == "BJ":
            return Card(BIG_JOKER_RANK, "")
        if t == "LJ":
            return Card(LITTLE_JOKER_RANK, "")
        if len(t) == 3 and t.startswith("10"):
            t = "T" + t[2]
        if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
            raise CardError(f"not a card: {text!r}")
        return Card(RANKS.index(t[0]) + 2, t[1])

    @property
    def is_joker(self) -> bool:
        return self.suit == ""

    @property
    def rank_char(self) -> str:
        """``"2"`` .. ``"A"``; ``"B"``/``"L"`` for the jokers."""
        if self.rank == BIG_JOKER_RANK:
            return "B"
        if self.rank == LITTLE_JOKER_RANK:
            return "L"
        return RANKS[self.rank - 2]

    def __str__(self) -> str:
        if self.is_joker:
            return self.rank_char + "J"
        return self.rank_char + self.suit


def parse_cards(texts: Iterable[str]) -> List[Card]:
    """Every card of a list of card texts (a hand, a trick, ``known``)."""
    return [Card.parse(t) for t in texts]


def by_suit(cards: Iterable[Card], suit: str) -> List[Card]:
    """The cards of ``suit``, lowest first."""
    return sorted(c for c in cards if c.suit == suit)


def lowest(cards: Iterable[Card]) -> Optional[Card]:
    """The lowest card by rank (then suit), or None."""
    return min(cards, default=None)


def highest(cards: Iterable[Card]) -> Optional[Card]:
    """The highest card by rank (then suit), or None."""
    return max(cards, default=None)


#: Action words whose argument is a card (``"give 3C"``).
_CARD_WORDS = {"give", "place", "discard", "play"}
#: Exchange choices (Illustrated Whist), each an action of kind ``exchange``.
_EXCHANGES = {"whole", "half", "without", "against"}
#: Keywords that are a whole action, named as their kind.
_KEYWORDS = {"pass", "open-null", "declare", "reveal", "no"}


@dataclass(frozen=True)
class Action:
    """One action, read from its text. ``kind`` is the action's kind as the
    engine and docs/notation.md name it, and the other fields hold its
    arguments:

    - ``play``, ``give``, ``place``, ``discard``: ``card``;
    - ``contract`` (``"bid 7D"``, ``"bid 6NT"``): ``tricks`` and ``strain``
      (``"C"``, ``"D"``, ``"H"``, ``"S"`` or ``"NT"``);
    - ``bid``, ``double-bid``, ``null``, ``double-null``, ``hand-size``,
      ``count``: ``number``;
    - ``leader`` (``"lead 2"``): ``seat``;
    - ``vote`` (``"vote yes"``), ``exchange`` (``"half"``), ``announce``,
      ``double``, ``redouble``: ``word`` (``"yes"``, ``"half"``, a feat or
      ``"game"``);
    - ``pass``, ``open-null``, ``declare``, ``reveal``, ``no``: nothing.

    ``text`` is the text to answer with (``str(action)`` too)."""

    kind: str
    text: str
    card: Optional[Card] = None
    number: Optional[int] = None
    tricks: Optional[int] = None
    strain: Optional[str] = None
    seat: Optional[int] = None
    word: Optional[str] = None

    def __str__(self) -> str:
        return self.text


class ActionError(ValueError):
    """Text that is not an action."""


def parse_action(text: str) -> Action:
    """Reads an action's canonical text (as ``legal`` gives it); raises
    :class:`ActionError` for text that is not an action."""
    words = text.strip().lower().split()
    n = len(words)

    def number(w: str) -> int:
        if not w.isdigit():
            raise ActionError(f"not an action: {text!r}")
        return int(w)

    if n == 1:
        (w,) = words
        if w in _KEYWORDS:
            return Action(w, text)
        if w == "null":
            return Action("null", text, number=0)
        if w in _EXCHANGES:
            return Action("exchange", text, word=w)
        try:
            return Action("play", text, card=Card.parse(w))
        except CardError:
            raise ActionError(f"not an action: {text!r}") from None
    if n == 2:
        w, arg = words
        if w in _CARD_WORDS:
            try:
                return Action(w, text, card=Card.parse(arg))
            except CardError:
                raise ActionError(f"not an action: {text!r}") from None
        if w == "bid":
            if arg.isdigit():
                return Action("bid", text, number=int(arg))
            digits = arg[: len(arg) - len(arg.lstrip("0123456789"))]
            strain = arg[len(digits):].upper()
            if digits and strain in ("C", "D", "H", "S", "NT"):
                return Action("contract", text, tricks=int(digits), strain=strain)
            raise ActionError(f"not an action: {text!r}")
        if w == "null":
            return Action("null", text, number=number(arg))
        if w == "lead":
            return Action("leader", text, seat=number(arg))
        if w == "size":
            return Action("hand-size", text, number=number(arg))
        if w == "count":
            return Action("count", text, number=number(arg))
        if w in ("vote", "announce", "double", "redouble"):
            return Action(w, text, word=arg)
    if n == 3 and words[2] == "double" and words[0] in ("bid", "null"):
        return Action("double-bid" if words[0] == "bid" else "double-null", text,
                      number=number(words[1]))
    raise ActionError(f"not an action: {text!r}")
