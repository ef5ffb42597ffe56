"""How the kit hands a request to the bot and makes its answer (no referee
needed): the per-message path the connection loop runs."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

# An installed kit comes first; from a checkout, the kit beside this file.
sys.path.append(str(Path(__file__).resolve().parents[1]))

from whistle_bot import FunctionBot, pb  # noqa: E402
from whistle_bot._compact import Rebuilder  # noqa: E402
from whistle_bot.client import Launch, _Outbox, _Seat  # noqa: E402


class _Assignment:
    table_id, seat, seat_token = "t1", 0, "seat-token"


def _request(request_id: int = 7) -> "pb.RefereeMessage":
    return pb.RefereeMessage(
        request=pb.DecisionRequest(
            request_id=request_id,
            legal=["2C", "3C", "4C"],
            observation=pb.Observation(game="israeli", seat=0, hand=["2C", "3C", "4C"]),
            deadline_ms=1000,
            time_bank_ms=30000,
        )
    )


def _seat(choose) -> _Seat:
    return _Seat(None, _Assignment(), FunctionBot(choose), Launch("", ""), None, compact=False, binary=False)


def _answers(outbox: _Outbox) -> list:
    return [(m.answer.request_id, m.answer.WhichOneof("choice"), m.answer.index) for m in outbox]


def test_a_lone_seat_answers_from_the_kits_event_loop_and_the_bot_may_run_its_own() -> None:
    """With one seat the bot is called in the kit's loop; its code may still
    call asyncio.run, as it could in a thread of its own."""
    seen = []

    def choose(observation, legal):
        async def think() -> int:
            await asyncio.sleep(0)
            return len(legal) - 1

        seen.append(list(observation.hand))
        return asyncio.run(think())

    async def main() -> _Outbox:
        loop = asyncio.get_running_loop()
        outbox = _Outbox()
        assert _seat(choose)._handle(_request(), outbox, Rebuilder(pb.Observation)) is False
        # The kit's loop is the running one again afterwards.
        assert asyncio.get_running_loop() is loop
        return outbox

    outbox = asyncio.run(main())
    assert seen == [["2C", "3C", "4C"]]
    assert _answers(outbox) == [(7, "index", 2)]


def test_a_bot_that_raises_answers_without_a_choice(capsys) -> None:
    """The documented outcome of a bot that fails to decide: an answer with
    no choice (the referee's MALFORMED fault, its fallback played at once),
    never silence (a LATE fault once the clock runs out); counted in the
    seat's outcome, the traceback printed."""

    def choose(observation, legal):
        raise ValueError("no idea")

    seat = _seat(choose)
    outbox = _Outbox()
    for request_id in (7, 8):
        seat._receive(_request(request_id), outbox, Rebuilder(pb.Observation))
    assert _answers(outbox) == [(7, None, 0), (8, None, 0)]
    assert seat.outcome.bot_errors == 2 and seat.outcome.answers == 0
    err = capsys.readouterr().err
    assert "ValueError: no idea" in err and "MALFORMED" in err, err


def test_match_end_half_closes_the_stream() -> None:
    seat = _seat(lambda observation, legal: 0)
    outbox = _Outbox()
    end = pb.RefereeMessage(match_end=pb.MatchEnd(result=pb.MatchResult(hands=1, totals=[1], ranks=[1])))
    assert seat._receive(end, outbox, Rebuilder(pb.Observation)) is True
    assert list(outbox) == [None]
    assert seat.outcome.result.hands == 1
