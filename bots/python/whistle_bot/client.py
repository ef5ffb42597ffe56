"""The connection loop: plays a bot against a whistle referee over gRPC.

The launch contract (docs/protocol.md), the same for bots in every language:
the referee's address and the token come from ``--address`` / ``--token`` on
the command line, else from the environment variables ``WHISTLE_ADDRESS`` /
``WHISTLE_TOKEN``; the bot's name (for the referee's logs) from ``--name``,
else ``WHISTLE_BOT_NAME``. The kit calls ``Subscribe`` with the token and
plays every seat it is assigned, each on its own ``Play`` stream, until the
assignments end: a seat token yields exactly one seat, a bot token one seat
per table created for that bot. The streams are played with ``grpc.aio`` on
an event loop of the kit's own thread (see :func:`play` for where the bot's
hooks run).

On each stream the kit sends ``Hello``, answers every ``DecisionRequest`` with
what the bot chooses (an index into ``legal``, or an action's text), passes
events, faults and the match result to the bot's hooks, and stops after
``MatchEnd``. A stream cut by the network (UNAVAILABLE, UNKNOWN, INTERNAL,
CANCELLED, RESOURCE_EXHAUSTED) is reopened with the same seat token, which
resumes the seat if the referee's grace period has not run out; a refusal
(UNAUTHENTICATED, FAILED_PRECONDITION, ABORTED, ...) is final.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import copy
import logging
import operator
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Union

import grpc

from . import _stubs
from ._binary import textify_event, textify_request
from ._compact import DeltaError, Rebuilder

pb, pb_grpc = _stubs.load()

PROTOCOL = "whistle.v1"

log = logging.getLogger("whistle_bot")

#: What a bot returns for a decision: an index into ``legal``, or action text.
Choice = Union[int, str]

# Status codes after which a stream is reopened with the same seat token.
_RESUMABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.OUT_OF_RANGE,
}

#: The start of the UNAVAILABLE message that ends every stream when the
#: referee shuts down: a seat's stream is not reconnected (its table is
#: gone); a lasting bot subscribes again once the referee is back.
SHUTTING_DOWN = "the referee is shutting down"

#: The response header of a ``Subscribe`` whose bot outlives the referee's
#: process (a league's bot), with the value ``1``: when the referee goes away
#: (shuts down, or is killed) the kit subscribes again with the bot token
#: until it is back, and stops only when the assignments end (``OK``: the
#: event is over) or the token is refused (the bot is retired).
LASTING = "whistle-lasting"

#: How long a bot token the referee does not know (yet) is tried again: a
#: league admits a bot added while it serves at its next look.
UNKNOWN_TOKEN_RETRY_S = 15.0

#: A lasting bot whose referee is away subscribes again every second for
#: this long (a restart takes seconds; a resumed round waits only the grace
#: period for its bots), then backs off up to every ``AWAY_BACKOFF_MAX_S``.
AWAY_EAGER_S = 60.0
AWAY_BACKOFF_MAX_S = 30.0

# Status codes of a Subscribe after which a lasting bot waits for the
# referee to come back.
_AWAY = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.CANCELLED,
}


class WhistleError(Exception):
    """The referee could not be reached, or refused the token."""


class LaunchError(WhistleError):
    """The launch contract is incomplete: no address or no token."""


class Bot:
    """A bot with hooks. Subclass it and override ``choose``; the other hooks
    are optional.

    Each seat gets a bot of its own: passed the class, :func:`run` makes
    one instance per seat; passed an instance, it plays each seat with a
    copy of it (``copy.deepcopy``, or ``copy.copy`` where that fails), so
    what a seat's hooks store (``self.seat`` in ``new_match``) never mixes
    with another seat's; with a bot token these play at the same time, in
    several threads.
    """

    #: The name sent to the referee when the launch contract gives none.
    name: Optional[str] = None

    def choose(self, observation: Any, legal: List[str]) -> Choice:
        """Decides. ``observation`` is the request's ``whistle.v1.Observation``
        message, ``legal`` the legal actions in canonical text, in the game's
        fixed order. Return an index into ``legal`` or an action's text."""
        raise NotImplementedError("override Bot.choose")

    def on_request(self, request: Any) -> Choice:
        """Receives the whole ``DecisionRequest`` (``request_id``,
        ``observation``, ``legal``, ``deadline_ms``, ``time_bank_ms``).
        By default calls :meth:`choose`; override to see the clock."""
        return self.choose(request.observation, list(request.legal))

    def new_match(self, welcome: Any) -> None:
        """A match begins for this seat (``whistle.v1.Welcome``: table, seat,
        game, options, time control, fault policy, bot names). Not called
        again when a dropped stream is resumed."""

    def on_event(self, event: Any) -> None:
        """Something happened that this seat may see (``whistle.v1.Event``).
        Bots that do not override this hook ask for quiet mode: the referee
        then sends them no events (requests still carry the full history).
        With compact requests (the default) the events of a request reach
        this hook just before it, and those after the seat's last request
        before ``on_match_end``."""

    def on_fault(self, fault: Any) -> None:
        """The referee reports a rule violation of this seat
        (``whistle.v1.Fault``). By default logs it as a warning."""
        log.warning(
            "fault %s on request %d: %s; fallback played: %s; faults %d of %d%s",
            pb.Fault.Kind.Name(fault.kind),
            fault.request_id,
            fault.detail,
            fault.fallback or "none",
            fault.faults,
            fault.max_faults,
            "; FORFEITED" if fault.forfeited else "",
        )

    def on_match_end(self, result: Any) -> None:
        """The match is over (``whistle.v1.MatchResult``)."""


class FunctionBot(Bot):
    """A bot made of one function ``choose(observation, legal)``."""

    def __init__(self, choose: Callable[[Any, List[str]], Choice], name: Optional[str] = None):
        self._choose = choose
        self.name = name

    def choose(self, observation: Any, legal: List[str]) -> Choice:
        return self._choose(observation, legal)


@dataclass
class Launch:
    """Where to connect and as whom."""

    address: str
    token: str
    bot_name: str = "python"


@dataclass
class SeatOutcome:
    """How one seat ended."""

    table_id: str = ""
    seat: int = 0
    #: The ``whistle.v1.MatchResult`` if the match ended for this seat.
    result: Any = None
    #: The referee's fault count for this seat, as last reported.
    faults: int = 0
    forfeited: bool = False
    #: Requests answered, and how many of those by text.
    answers: int = 0
    text_answers: int = 0
    #: Requests on which the bot's own code raised (each a fault: the
    #: referee played its fallback).
    bot_errors: int = 0
    #: Why the seat stopped early, if it did.
    error: Optional[str] = None


def resolve_launch(
    argv: Optional[Sequence[str]] = None,
    *,
    address: Optional[str] = None,
    token: Optional[str] = None,
    bot_name: Optional[str] = None,
) -> Launch:
    """Reads the launch contract. Command-line arguments win over the
    environment, which wins over the keyword arguments given here (defaults
    written in a bot's code). Unknown command-line arguments are ignored, so a
    bot script may have its own."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--address")
    parser.add_argument("--token")
    parser.add_argument("--name")
    parser.add_argument("--log")
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))

    def env(key: str) -> Optional[str]:
        return os.environ.get(key) or None

    address = args.address or env("WHISTLE_ADDRESS") or address
    token = args.token or env("WHISTLE_TOKEN") or token
    bot_name = args.name or env("WHISTLE_BOT_NAME") or bot_name or "python"
    if not address:
        raise LaunchError("no referee address: set WHISTLE_ADDRESS or pass --address")
    if not token:
        raise LaunchError("no token: set WHISTLE_TOKEN or pass --token")
    return Launch(address=address, token=token, bot_name=bot_name)


def to_json(message: Any) -> str:
    """``message`` as JSON with every field, defaults included.

    Proto3 JSON leaves out fields at their default value, so seat 0, deal 0
    and trick 0 would vanish from a plain ``MessageToJson``. The binary
    form's id fields (``card_id``, ``legal_ids``, ...) are printed only when
    set, as the referee's own JSON does.
    """
    import json

    from google.protobuf import json_format

    try:
        d = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    except TypeError:  # protobuf < 5.26
        d = json_format.MessageToDict(message, including_default_value_fields=True)
    return json.dumps(_without_empty_ids(d), indent=2)


_ID_FIELDS = frozenset(("legalIds", "handIds", "knownIds", "cardIds", "bidId", "actionId", "cardId"))


def _without_empty_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _without_empty_ids(v)
            for k, v in value.items()
            if not (k in _ID_FIELDS and v in (0, []))
        }
    if isinstance(value, list):
        return [_without_empty_ids(v) for v in value]
    return value


def _channel_args(address: str) -> "tuple[str, list, Optional[Any]]":
    """(target, options, credentials or None) for ``address``: see
    :func:`channel`."""
    options: list = [("grpc.enable_retries", 0)]
    if address.startswith("unix:"):
        # gRPC would send the socket's path as the HTTP/2 authority, which
        # is not a valid one.
        options.append(("grpc.default_authority", "localhost"))
    if address.startswith("https://"):
        ca = os.environ.get("WHISTLE_CA")
        roots = None
        if ca:
            with open(ca, "rb") as f:
                roots = f.read()
        target = address[len("https://") :].rstrip("/")
        return target, options, grpc.ssl_channel_credentials(root_certificates=roots)
    if address.startswith("http://"):
        address = address[len("http://") :].rstrip("/")
    return address, options, None


def channel(address: str) -> grpc.Channel:
    """A channel to ``address``: ``host:port``, ``http://host:port``,
    ``unix:PATH`` (a sandboxed bot's referee, a Unix socket), or
    ``https://host:port`` (TLS: the server's certificate is checked against
    the CA certificate in the PEM file ``$WHISTLE_CA`` when set, a league's
    own CA, else against the system's root certificates)."""
    target, options, credentials = _channel_args(address)
    if credentials is not None:
        return grpc.secure_channel(target, credentials, options)
    return grpc.insecure_channel(target, options)


def _aio_channel(address: str) -> Any:
    """:func:`channel`'s ``grpc.aio`` twin, which the kit plays over."""
    target, options, credentials = _channel_args(address)
    if credentials is not None:
        return grpc.aio.secure_channel(target, credentials, options)
    return grpc.aio.insecure_channel(target, options)


def _copy_of(bot: Bot) -> Bot:
    """A seat's own copy of an instance the caller passed."""
    try:
        return copy.deepcopy(bot)
    except Exception:  # something in it cannot be copied deeply (a lock, a handle)
        return copy.copy(bot)


def _as_bot(bot: Any) -> Callable[[], Bot]:
    """A factory of per-seat bots for what the caller passed: a class is
    instantiated per seat, an instance copied per seat (see :class:`Bot`)."""
    if isinstance(bot, type) and issubclass(bot, Bot):
        return bot
    if isinstance(bot, Bot):
        return lambda: _copy_of(bot)
    if callable(bot):
        return lambda: FunctionBot(bot)
    raise TypeError(f"expected a function choose(observation, legal), a Bot subclass or a Bot; got {bot!r}")


# Bot errors already printed with their traceback: (type, file, line).
_errors_shown: set = set()
_errors_lock = threading.Lock()


def _report_bot_error(tag: str, during: str, e: BaseException, fault: bool = True) -> None:
    """Prints an exception raised by the bot's own code: its traceback the
    first time it is raised at that place, one line after that. On a
    request, the answer sent has no choice, which the referee counts as a
    MALFORMED fault and answers with its fallback at once (docs/protocol.md,
    "Faults"): sending nothing would leave the request to expire, a LATE
    fault that also empties the time bank."""
    tb = traceback.extract_tb(e.__traceback__)
    where = (type(e).__name__, tb[-1].filename, tb[-1].lineno) if tb else (type(e).__name__, "", 0)
    with _errors_lock:
        first = where not in _errors_shown
        _errors_shown.add(where)
    what = f"{type(e).__name__}: {e}"
    if first:
        text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
        sys.stderr.write(
            f"whistle_bot: {tag}: YOUR BOT RAISED an exception {during}"
            + (
                "; the kit answers without a choice, which the referee counts as a MALFORMED fault"
                " and answers with its fallback"
                if fault
                else "; the kit goes on"
            )
            + f":\n{text}"
            "whistle_bot: (the same error at the same place again is reported in one line)\n"
        )
        sys.stderr.flush()
    else:
        log.error("%s: your bot raised again %s: %s%s", tag, during, what, " (a MALFORMED fault)" if fault else "")


def _wants_events(bot: Bot) -> bool:
    return type(bot).on_event is not Bot.on_event


# The kit plays every stream of the process on one asyncio event loop of its
# own, in a daemon thread started on first use and kept for the process's
# life: grpc.aio binds its calls to the loop that made them, and streams of
# loops that come and go disturb one another. A seat's messages are
# handled, and its bot called, right in that loop while it is the only seat
# playing in the process (no thread hop on the way from a request to its
# answer); with more, each seat's bot is called in a thread of the seat's
# own, so that seats of several tables decide at the same time.
_loop: Optional[asyncio.AbstractEventLoop] = None
_loop_lock = threading.Lock()
_playing = 0  # seats playing in the process (touched in the loop only)


def _kit_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="whistle-kit", daemon=True).start()
            _loop = loop
        return _loop


class _Outbox(list):
    """What to send on a stream, in order (None: half-close it), filled by
    :meth:`_Seat._receive` and emptied by the stream's loop."""

    put = list.append


class _Seat:
    """Plays one seat to the end of its match, over one or more streams."""

    def __init__(
        self,
        stub: Any,
        assignment: Any,
        bot: Bot,
        launch: Launch,
        quiet: Optional[bool],
        compact: bool = True,
        binary: bool = True,
    ):
        self.stub = stub
        self.assignment = assignment
        self.bot = bot
        self.launch = launch
        self.events = _wants_events(bot)
        self.quiet = (not self.events) if quiet is None else quiet
        self.compact = compact
        self.binary = binary
        self.outcome = SeatOutcome(table_id=assignment.table_id, seat=assignment.seat)
        self.call: Any = None
        self.stopping = False
        self.grace_s = 10.0
        self.cut_at: Optional[float] = None  # when the current outage began
        self.welcomed = False
        self.tag = f"{assignment.table_id}/{assignment.seat}"
        self.thread: Optional[concurrent.futures.ThreadPoolExecutor] = None

    def stop(self) -> None:
        """Ends the seat's stream (in the kit's loop)."""
        self.stopping = True
        if self.call is not None:
            self.call.cancel()

    async def run_into(self, results: List[SeatOutcome]) -> None:
        global _playing
        _playing += 1
        try:
            await self.run()
        except Exception as e:  # a bug: report it as this seat's end
            log.exception("%s: the seat stopped", self.tag)
            self.outcome.error = f"{type(e).__name__}: {e}"
        finally:
            _playing -= 1
            if self.thread is not None:
                self.thread.shutdown(wait=False)
        results.append(self.outcome)

    async def run(self) -> SeatOutcome:
        delay = 0.1
        while True:
            try:
                if await self._stream():
                    return self.outcome
                # Ended without a MatchEnd: the table was aborted, or the
                # referee cut this stream off (a slow reader). Reconnecting
                # tells which: a table that is over refuses the seat.
                code, details = grpc.StatusCode.UNAVAILABLE, "the stream ended before the match did"
            except grpc.RpcError as e:
                code, details = e.code(), e.details()
            except asyncio.CancelledError:
                if not self.stopping:
                    raise
            if self.stopping:
                self.outcome.error = "stopped"
                return self.outcome
            now = time.monotonic()
            if self.cut_at is None:
                self.cut_at, delay = now, 0.1
            # Keep trying while the referee may still hold the seat.
            shutdown = code == grpc.StatusCode.UNAVAILABLE and (details or "").startswith(SHUTTING_DOWN)
            if code in _RESUMABLE and not shutdown and now - self.cut_at < max(self.grace_s, 10.0) + 5.0:
                # Once per cut, not per attempt.
                if delay == 0.1:
                    log.warning("%s: stream cut (%s: %s); reconnecting", self.tag, code.name, details)
                else:
                    log.debug("%s: stream cut (%s: %s); reconnecting", self.tag, code.name, details)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            self.outcome.error = f"{code.name}: {details}"
            log.error("%s: the referee ended the stream: %s", self.tag, self.outcome.error)
            return self.outcome

    def _handle(self, msg: Any, outbox: _Outbox, rebuilder: Rebuilder) -> bool:
        """:meth:`_receive` with the loop's own thread not marked as running
        a loop, so that the bot's code may run one of its own (``asyncio.run``)
        as it could in a thread of its own."""
        loop = asyncio.events._get_running_loop()
        asyncio.events._set_running_loop(None)
        try:
            return self._receive(msg, outbox, rebuilder)
        finally:
            asyncio.events._set_running_loop(loop)

    async def _stream(self) -> bool:
        """One Play stream. Returns True after MatchEnd, False if the stream
        ended without one; raises grpc.RpcError if it failed."""
        call = self.call = self.stub.Play()
        outbox = _Outbox()
        outbox.put(
            pb.BotMessage(
                hello=pb.Hello(
                    token=self.assignment.seat_token,
                    bot_name=self.launch.bot_name,
                    protocol=PROTOCOL,
                    quiet=self.quiet,
                    compact=self.compact,
                    binary=self.binary,
                )
            )
        )
        rebuilder = Rebuilder(pb.Observation)
        ended = False
        writing = True
        try:
            while True:
                # Half-closing the stream before MatchEnd is taken by the
                # referee as a disconnection: only after it (outbox's None).
                for m in outbox:
                    if not writing:
                        break
                    try:
                        if m is None:
                            writing = False
                            await call.done_writing()
                        else:
                            await call.write(m)
                    except asyncio.InvalidStateError:
                        # The call is over: reading tells how it ended.
                        writing = False
                outbox.clear()
                msg = await call.read()
                if msg is grpc.aio.EOF:
                    break
                if _playing > 1:
                    if self.thread is None:
                        self.thread = concurrent.futures.ThreadPoolExecutor(
                            1, thread_name_prefix=f"whistle-seat-{self.tag}"
                        )
                    done = await asyncio.get_running_loop().run_in_executor(
                        self.thread, self._receive, msg, outbox, rebuilder
                    )
                else:
                    done = self._handle(msg, outbox, rebuilder)
                ended |= done
        except grpc.RpcError:
            if not ended:
                raise
        finally:
            if not call.done():
                call.cancel()
        return ended

    def _receive(self, msg: Any, outbox: _Outbox, rebuilder: Rebuilder) -> bool:
        """Handles one message of the referee's, putting what to send into
        ``outbox``. Returns True for ``MatchEnd``."""
        kind = msg.WhichOneof("msg")
        if kind == "request":
            request = msg.request
            kinds = textify_request(request) if self.binary else None
            if request.HasField("delta"):
                if self.events:
                    for event in request.delta.events:
                        self._hook(self.bot.on_event, event)
                try:
                    request.observation.CopyFrom(rebuilder.update(request, kinds))
                except DeltaError as e:
                    log.warning("%s: %s; asking for the whole observation", self.tag, e)
                    outbox.put(pb.BotMessage(resync=pb.Resync()))
                    return False
            elif self.compact:
                rebuilder.update(request)
            answer = self._answer(request)
            if answer is not None:
                outbox.put(pb.BotMessage(answer=answer))
        elif kind == "event":
            if self.binary:
                textify_event(msg.event)
            self._hook(self.bot.on_event, msg.event)
        elif kind == "welcome":
            self._welcome(msg.welcome)
        elif kind == "fault":
            self.outcome.faults = msg.fault.faults
            self.outcome.forfeited |= msg.fault.forfeited
            self._hook(self.bot.on_fault, msg.fault)
        elif kind == "match_end":
            self._match_end(msg.match_end.result)
            outbox.put(None)
            return True
        # Unknown kinds (a newer referee) are ignored.
        return False

    def _welcome(self, w: Any) -> None:
        self.grace_s = w.time_control.reconnect_grace_ms / 1000.0
        self.cut_at = None
        first = not self.welcomed
        self.welcomed = True
        if w.resumed and not first:
            log.info("%s: resumed", self.tag)
            return
        log.info(
            "%s: %s, seat %d of %d; %d ms per action, %d ms bank, forfeit at %d faults",
            self.tag,
            w.game,
            w.seat,
            w.seats,
            w.time_control.per_action_ms,
            w.time_control.time_bank_ms,
            w.fault_policy.max_faults,
        )
        self._hook(self.bot.new_match, w)

    def _hook(self, hook: Callable[[Any], None], arg: Any) -> None:
        """Calls one of the bot's hooks; a bug in it is logged, not fatal."""
        try:
            hook(arg)
        except Exception as e:
            _report_bot_error(self.tag, f"in {getattr(hook, '__name__', 'a hook')}", e, fault=False)

    def _answer(self, request: Any) -> Any:
        """The Answer to send for ``request``, or None when it is certainly
        too late to send one."""
        received = time.monotonic()
        answer = pb.Answer(request_id=request.request_id)
        try:
            choice = self.bot.on_request(request)
        except Exception as e:
            self.outcome.bot_errors += 1
            _report_bot_error(self.tag, f"on request {request.request_id}", e)
            return answer
        spent_ms = (time.monotonic() - received) * 1000
        allowed_ms = request.deadline_ms + request.time_bank_ms
        if spent_ms > allowed_ms:
            # The referee's clock started before this request reached us, so
            # it has played (or is about to play) the fallback: a LATE fault.
            # The answer would be discarded; do not send it.
            log.warning(
                "%s: the bot took %.0f ms on request %d, more than the %d ms left; answer not sent (a LATE fault)",
                self.tag,
                spent_ms,
                request.request_id,
                allowed_ms,
            )
            return None
        self.outcome.answers += 1
        if isinstance(choice, str):
            answer.text = choice
            self.outcome.text_answers += 1
            return answer
        try:
            if isinstance(choice, bool):
                raise TypeError
            index = operator.index(choice)
        except TypeError:
            index = None
        if index is None or not 0 <= index < 2**32:
            log.error(
                "%s: the bot returned %r for request %d, not an index (0..%d) nor action text; sending no choice",
                self.tag,
                choice,
                request.request_id,
                len(request.legal) - 1,
            )
            return answer
        answer.index = index
        return answer

    def _match_end(self, result: Any) -> None:
        self.outcome.result = result
        log.info(
            "match-end table=%s seat=%d hands=%d totals=%s ranks=%s forfeited=%s faults=%d answers=%d text_answers=%d bot_errors=%d",
            self.outcome.table_id,
            self.outcome.seat,
            result.hands,
            ",".join(str(t) for t in result.totals),
            ",".join(str(r) for r in result.ranks),
            ",".join(str(s) for s in result.forfeited) or "-",
            self.outcome.faults,
            self.outcome.answers,
            self.outcome.text_answers,
            self.outcome.bot_errors,
        )
        self._hook(self.bot.on_match_end, result)


class _Session:
    """One :func:`play`: the subscription and its seats, in the kit's loop."""

    def __init__(self, make_bot: Callable[[], Bot], launch: Launch, quiet: Optional[bool], compact: bool,
                 binary: bool, connect_timeout: float):
        self.make_bot = make_bot
        self.launch = launch
        self.quiet = quiet
        self.compact = compact
        self.binary = binary
        self.connect_timeout = connect_timeout
        self.seats: List[_Seat] = []
        self.subscription: Any = None

    def stop(self) -> None:
        if self.subscription is not None:
            self.subscription.cancel()
        for s in self.seats:
            s.stop()

    async def play(self) -> List[SeatOutcome]:
        launch = self.launch
        ch = _aio_channel(launch.address)
        try:
            try:
                await asyncio.wait_for(ch.channel_ready(), self.connect_timeout)
            except asyncio.TimeoutError:
                raise WhistleError(f"cannot reach a referee at {launch.address}") from None
            stub = pb_grpc.RefereeStub(ch)
            results: List[SeatOutcome] = []
            tasks = []
            # The seat tokens being played: a newer Subscribe gives a lasting
            # bot its seats in play again, which this process is playing
            # already (a restarted referee's seats have new tokens, whatever
            # their table ids).
            playing: set = set()
            lasting = False
            away_since: Optional[float] = None
            pause = 1.0
            unknown_since: Optional[float] = None
            unknown_pause = 0.25

            async def run_seat(seat: _Seat, key: Any) -> None:
                try:
                    await seat.run_into(results)
                finally:
                    playing.discard(key)

            while True:
                self.subscription = stub.Subscribe(pb.SubscribeRequest(token=launch.token, bot_name=launch.bot_name))
                try:
                    metadata = await self.subscription.initial_metadata() or ()
                    if any(k == LASTING and v == "1" for k, v in metadata):
                        # Accepted (a refusal carries no such header).
                        lasting = True
                        unknown_since, unknown_pause = None, 0.25
                        if away_since is not None:
                            log.info(
                                "subscribed again: the referee is back after %d s",
                                time.monotonic() - away_since,
                            )
                            away_since = None
                    async for a in self.subscription:
                        unknown_since, unknown_pause = None, 0.25
                        key = a.seat_token
                        if key in playing:
                            continue  # already played here
                        playing.add(key)
                        log.info("assigned seat %d of table %s (%s)", a.seat, a.table_id, a.game)
                        seat = _Seat(stub, a, self.make_bot(), launch, self.quiet, self.compact, self.binary)
                        task = asyncio.ensure_future(run_seat(seat, key))
                        # A process that plays for weeks keeps only the live seats.
                        live = [(s, t) for s, t in zip(self.seats, tasks) if not t.done()]
                        self.seats = [s for s, _ in live] + [seat]
                        tasks = [t for _, t in live] + [task]
                    break  # OK: the bot's event is over
                except grpc.RpcError as e:
                    code, details = e.code(), e.details() or ""
                    now = time.monotonic()
                    if code == grpc.StatusCode.UNAUTHENTICATED and "unknown token" in details:
                        if unknown_since is None:
                            unknown_since = now
                            log.info(
                                "the referee does not know the token (yet); trying again for %d s",
                                UNKNOWN_TOKEN_RETRY_S,
                            )
                        if now - unknown_since < UNKNOWN_TOKEN_RETRY_S:
                            await asyncio.sleep(unknown_pause)
                            unknown_pause = min(unknown_pause * 2, 4.0)
                            continue
                        raise WhistleError(
                            f"the referee at {launch.address} refused the token: unknown token (tried for "
                            f"{UNKNOWN_TOKEN_RETRY_S:.0f} s): check the token "
                            "(the one `whistle league add-bot` printed, whole), that the address is this "
                            "league's, and that the bot is not retired"
                        ) from None
                    if code == grpc.StatusCode.UNAUTHENTICATED:
                        raise WhistleError(f"the referee refused the token: {details}") from None
                    if lasting and code in _AWAY:
                        if away_since is None:
                            away_since, pause = now, 1.0
                            log.warning(
                                "the referee is away (%s: %s); subscribing again with the bot token, "
                                "backing off up to every %d s",
                                code.name,
                                details,
                                AWAY_BACKOFF_MAX_S,
                            )
                        await asyncio.sleep(pause)
                        if now - away_since >= AWAY_EAGER_S:
                            pause = min(pause * 2, AWAY_BACKOFF_MAX_S)
                        continue
                    if not self.seats:
                        raise WhistleError(f"Subscribe failed: {code.name}: {details}") from None
                    log.error("the subscription ended: %s: %s", code.name, details)
                    break
            if tasks:
                await asyncio.wait(tasks)
            return results
        finally:
            self.stop()
            await ch.close()


def play(
    bot: Any,
    launch: Launch,
    *,
    quiet: Optional[bool] = None,
    compact: bool = True,
    binary: bool = True,
    connect_timeout: float = 10.0,
) -> List[SeatOutcome]:
    """Plays every seat the launch token is assigned and returns how each
    ended. ``bot`` is a function ``choose(observation, legal)``, a
    :class:`Bot` subclass (one instance per seat) or a :class:`Bot` instance.
    ``quiet``: ask the referee for no events (default: unless the bot
    overrides ``on_event``). ``compact``: ask for compact requests (the
    default); the kit rebuilds the whole observation from them, so the bot
    sees the same ``request.observation`` either way, and events reach
    ``on_event`` just before the request that carried them. ``binary``:
    ask for cards and actions as small integers (the default); the kit
    writes their texts back, so the bot reads the same messages either way
    (``request.legal_ids`` also holds the legal actions' ids).

    The streams are played on the kit's own thread (``grpc.aio``); the
    bot's hooks run there while it plays one seat, and in a thread of each
    seat's own while it plays several at once. The calling thread waits.

    Raises :class:`WhistleError` if the referee cannot be reached within
    ``connect_timeout`` seconds or refuses the token."""
    session = _Session(_as_bot(bot), launch, quiet, compact, binary, connect_timeout)
    loop = _kit_loop()
    future = asyncio.run_coroutine_threadsafe(session.play(), loop)
    try:
        while True:
            try:
                return future.result(timeout=0.25)
            except concurrent.futures.TimeoutError:
                continue
    except BaseException:
        if not future.done():
            loop.call_soon_threadsafe(session.stop)
        raise


def run(
    bot: Any,
    *,
    argv: Optional[Sequence[str]] = None,
    address: Optional[str] = None,
    token: Optional[str] = None,
    bot_name: Optional[str] = None,
    quiet: Optional[bool] = None,
    compact: bool = True,
    binary: bool = True,
) -> List[SeatOutcome]:
    """The entry point of a bot script: reads the launch contract (see
    :func:`resolve_launch`), plays, and returns the seats' outcomes.

    Logs to stderr (``--log debug|info|warning``, default info) unless logging
    is already configured. Exits the process with status 2 when the launch
    contract is incomplete, and 1 when the referee cannot be reached, refuses
    the token, or ends a seat before its match is over."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--log", default="info")
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))
    if not logging.getLogger().handlers:
        logging.basicConfig(
            stream=sys.stderr,
            level=getattr(logging, str(args.log).upper(), logging.INFO),
            format="whistle_bot %(levelname)s %(message)s",
        )
    if bot_name is None and isinstance(bot, (type, Bot)):
        bot_name = getattr(bot, "name", None)
    if bot_name is None and sys.argv and sys.argv[0] not in ("", "-c"):
        bot_name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    try:
        launch = resolve_launch(argv, address=address, token=token, bot_name=bot_name)
    except LaunchError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        outcomes = play(bot, launch, quiet=quiet, compact=compact, binary=binary)
    except WhistleError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    if any(o.error for o in outcomes):
        raise SystemExit(1)
    return outcomes
