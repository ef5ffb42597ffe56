"""`whistle_bot.to_json` prints every field, seat 0 included (proto3 JSON
leaves out default values otherwise: docs/protocol.md, "JSON")."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

if not os.environ.get("WHISTLE_BOT_CACHE"):
    os.environ["WHISTLE_BOT_CACHE"] = tempfile.mkdtemp(prefix="whistle-bot-cache-")
sys.path.append(str(Path(__file__).resolve().parents[1]))

from whistle_bot import pb, to_json  # noqa: E402


def test_seat_zero_and_index_zero_are_printed() -> None:
    event = pb.Event(trick_won=pb.TrickWon(index=0, seat=0))
    printed = json.loads(to_json(event))
    assert printed["trickWon"]["seat"] == 0
    assert printed["trickWon"]["index"] == 0
    action = json.loads(to_json(pb.Event(action=pb.ActionTaken(seat=0, action="pass"))))
    assert action["action"] == {"seat": 0, "action": "pass"}
    hand = json.loads(to_json(pb.Event(hand_start=pb.HandStart(deal=0, dealer=0))))
    assert hand["handStart"] == {"deal": 0, "dealer": 0}


if __name__ == "__main__":
    test_seat_zero_and_index_zero_are_printed()
    print("ok")
    shutil.rmtree(os.environ["WHISTLE_BOT_CACHE"], True)
