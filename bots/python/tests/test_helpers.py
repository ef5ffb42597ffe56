"""The card, action and observation helpers (no referee needed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# An installed kit comes first; from a checkout, the kit beside this file.
sys.path.append(str(Path(__file__).resolve().parents[1]))

from whistle_bot import pb  # noqa: E402
from whistle_bot._stubs import shipped  # noqa: E402
from whistle_bot.cards import (  # noqa: E402
    ACE,
    QUEEN,
    TEN,
    ActionError,
    Card,
    CardError,
    by_suit,
    highest,
    lowest,
    parse_action,
    parse_cards,
)
from whistle_bot.view import (  # noqa: E402
    Legal,
    is_to_act,
    known_cards,
    led_suit,
    leader,
    my_hand,
    phase,
    trick_so_far,
    trump,
    trump_suit,
)


def test_cards_read_and_write_their_text() -> None:
    assert Card.parse("QH") == Card(QUEEN, "H")
    assert Card.parse("ts") == Card.parse("10S") == Card(TEN, "S")
    assert str(Card.parse("as")) == "AS" and Card.parse("AS").rank == ACE
    assert Card.parse("BJ").is_joker and str(Card.parse("bj")) == "BJ"
    assert str(Card.parse("LJ")) == "LJ" and Card.parse("LJ") < Card.parse("BJ")
    for rank in "23456789TJQKA":
        for suit in "CDHS":
            assert str(Card.parse(rank + suit)) == rank + suit
    for bad in ["", "1S", "AX", "ZZ", "100S", "A"]:
        with pytest.raises(CardError):
            Card.parse(bad)
    hand = parse_cards(["KD", "2C", "AD", "9S"])
    assert [str(c) for c in by_suit(hand, "D")] == ["KD", "AD"]
    assert str(lowest(hand)) == "2C" and str(highest(hand)) == "AD"
    assert lowest([]) is None


@pytest.mark.parametrize(
    "text, kind, fields",
    [
        ("AS", "play", {"card": Card(ACE, "S")}),
        ("pass", "pass", {}),
        ("bid 7D", "contract", {"tricks": 7, "strain": "D"}),
        ("bid 10NT", "contract", {"tricks": 10, "strain": "NT"}),
        ("bid 5", "bid", {"number": 5}),
        ("bid 3 double", "double-bid", {"number": 3}),
        ("null", "null", {"number": 0}),
        ("null 2", "null", {"number": 2}),
        ("null 2 double", "double-null", {"number": 2}),
        ("open-null", "open-null", {}),
        ("give 3C", "give", {"card": Card(3, "C")}),
        ("place TH", "place", {"card": Card(TEN, "H")}),
        ("discard BJ", "discard", {"card": Card.parse("BJ")}),
        ("declare", "declare", {}),
        ("reveal", "reveal", {}),
        ("no", "no", {}),
        ("lead 2", "leader", {"seat": 2}),
        ("size 7", "hand-size", {"number": 7}),
        ("count 3", "count", {"number": 3}),
        ("vote yes", "vote", {"word": "yes"}),
        ("half", "exchange", {"word": "half"}),
        ("announce slam", "announce", {"word": "slam"}),
        ("double game", "double", {"word": "game"}),
        ("redouble game", "redouble", {"word": "game"}),
    ],
)
def test_every_action_kind_reads(text: str, kind: str, fields: dict) -> None:
    a = parse_action(text)
    assert a.kind == kind and str(a) == text
    for k, v in fields.items():
        assert getattr(a, k) == v, (text, k)


def test_garbage_is_not_an_action() -> None:
    for bad in ["", "bid", "bid 7X", "give", "give XX", "lead x", "fly me", "bid 5 6 7"]:
        with pytest.raises(ActionError):
            parse_action(bad)


def observation() -> "pb.Observation":
    o = pb.Observation(
        game="israeli", seat=2, seats=4, phase=pb.PHASE_PLAY, to_act=[2],
        hand=["KD", "2C", "AD", "9S"],
        trump=pb.Trump(kind=pb.Trump.SUIT, suit="H"),
        trick=pb.Trick(cards=[pb.TrickCard(seat=0, card="5D"), pb.TrickCard(seat=1, card="QD")]),
    )
    for s in range(4):
        o.players.add(seat=s, held=4, tricks=s, known=o.hand if s == 2 else [])
    return o


def test_observation_helpers() -> None:
    o = observation()
    assert phase(o) == "play" and is_to_act(o) and not is_to_act(o, 1)
    assert [str(c) for c in my_hand(o)] == ["2C", "9S", "KD", "AD"]
    assert [str(c) for c in known_cards(o, 2)] == ["KD", "2C", "AD", "9S"]
    assert known_cards(o, 0) == []
    assert trick_so_far(o) == [(0, Card.parse("5D")), (1, Card.parse("QD"))]
    assert led_suit(o) == "D" and leader(o) == 0
    assert trump(o) == "suit" and trump_suit(o) == "H"
    del o.trick.cards[:]
    assert led_suit(o) is None and leader(o) == 2  # an empty trick: the seat to act leads
    o.trump.kind = pb.Trump.NO_TRUMP
    assert trump(o) == "no-trump" and trump_suit(o) is None
    o.phase = pb.PHASE_AUCTION
    assert phase(o) == "auction" and leader(o) is None


def test_legal_actions_by_kind_and_index() -> None:
    legal = Legal(["pass", "bid 5C", "bid 5D", "bid 6C"])
    assert legal.kinds() == ["pass", "contract"]
    assert [i for i, _ in legal.of_kind("contract")] == [1, 2, 3]
    assert legal.index("BID 5D") == 2 and legal.index(parse_action("pass")) == 0
    with pytest.raises(ValueError):
        legal.index("bid 7NT")
    plays = Legal(["2C", "TC", "AC"])
    assert [(i, str(c)) for i, c in plays.cards()] == [(0, "2C"), (1, "TC"), (2, "AC")]
    assert plays.index(Card.parse("AC")) == 2
    assert set(Legal(["pass", "AS"]).by_kind()) == {"pass", "play"}


def test_an_installed_kit_ships_its_protocol_modules() -> None:
    """No grpcio-tools at run time: the modules come with the package."""
    import whistle_bot

    if not shipped():
        pytest.skip("the kit runs from a checkout, not installed")
    generated = Path(whistle_bot.__file__).parent / "_generated"
    assert Path(pb.__file__).parent == generated
    assert (generated / "whistle_pb2.pyi").is_file()
    assert (Path(whistle_bot.__file__).parent / "py.typed").is_file()


def test_binary_ids_read_as_their_texts() -> None:
    """Card and action ids (docs/protocol.md, "Binary requests") as the
    kit writes them back; the Rust side's tests pin the same numbers."""
    from whistle_bot._binary import BinaryError, action_text, card_text

    assert [card_text(i) for i in (1, 13, 14, 52, 53, 54)] == ["2C", "AC", "2D", "AS", "LJ", "BJ"]
    span = 4096
    cases = {
        52: "AS",
        1 + span: "pass",
        1 + 2 * span + 7 * 5 + 1: "bid 7D",
        1 + 2 * span + 13 * 5 + 4: "bid 13NT",
        1 + 3 * span + 5: "bid 5",
        1 + 4 * span: "null",
        1 + 4 * span + 3: "null 3",
        1 + 5 * span: "open-null",
        1 + 6 * span + 9: "bid 9 double",
        1 + 7 * span + 9: "null 9 double",
        1 + 8 * span + 1: "give 3C",
        1 + 9 * span + 51: "place AS",
        1 + 10 * span: "discard 2C",
        1 + 11 * span: "declare",
        1 + 12 * span: "reveal",
        1 + 13 * span: "no",
        1 + 14 * span + 2: "lead 2",
        1 + 15 * span + 4: "size 4",
        1 + 16 * span + 2: "count 2",
        1 + 17 * span + 1: "vote yes",
        1 + 17 * span: "vote no",
        1 + 18 * span + 3: "against",
        1 + 19 * span + 5: "announce slam",
        1 + 20 * span: "double game",
        1 + 21 * span + 1: "redouble four-kings",
    }
    for i, text in cases.items():
        assert action_text(i) == text, i
        assert parse_action(text).text == text
    for bad in (0, 55, 2 + span, 1 + 22 * span, 1 + 17 * span + 2):
        with pytest.raises(BinaryError):
            action_text(bad)
    with pytest.raises(BinaryError):
        card_text(55)
