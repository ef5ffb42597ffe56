"""The connection loop: plays a bot against a whistle referee over gRPC.

The launch contract (docs/protocol.md), the same for bots in every language:
the referee's address and the token come from ``--address`` / ``--token`` on
the command line, else from the environment variables ``WHISTLE_ADDRESS`` /
``WHISTLE_TOKEN``; the bot's name (for the referee's logs) from ``--name``,
else ``WHISTLE_BOT_NAME``. The kit calls ``Subscribe`` with the token and
plays every seat it is assigned, each on its own ``Play`` stream in its own
thread, until the assignments end: a seat token yields exactly one seat, a bot
token one seat per table created for that bot.

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
import copy
import logging
import operator
import os
import queue
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Iterator, List, Optional, Sequence, Union

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


def channel(address: str) -> grpc.Channel:
    """A channel to ``address``: ``host:port``, ``http://host:port``,
    ``unix:PATH`` (a sandboxed bot's referee, a Unix socket), or
    ``https://host:port`` (TLS: the server's certificate is checked against
    the CA certificate in the PEM file ``$WHISTLE_CA`` when set, a league's
    own CA, else against the system's root certificates)."""
    options = [("grpc.enable_retries", 0)]
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
        return grpc.secure_channel(
            address[len("https://") :].rstrip("/"),
            grpc.ssl_channel_credentials(root_certificates=roots),
            options,
        )
    if address.startswith("http://"):
        address = address[len("http://") :].rstrip("/")
    return grpc.insecure_channel(address, options)


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
    first time it is raised at that place, one line after that. The
    answer sent is empty, which the referee counts as a fault (MALFORMED)
    and answers with its fallback."""
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
            + ("; this answer counts as a fault and the referee plays its fallback" if fault else "; the kit goes on")
            + f":\n{text}"
            "whistle_bot: (the same error at the same place again is reported in one line)\n"
        )
        sys.stderr.flush()
    else:
        log.error("%s: your bot raised again %s: %s%s", tag, during, what, " (a fault)" if fault else "")


def _wants_events(bot: Bot) -> bool:
    return type(bot).on_event is not Bot.on_event


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

    def stop(self) -> None:
        self.stopping = True
        if self.call is not None:
            self.call.cancel()

    def run_into(self, results: List[SeatOutcome]) -> None:
        try:
            self.run()
        except Exception as e:  # a bug: report it as this seat's end
            log.exception("%s: the seat stopped", self.tag)
            self.outcome.error = f"{type(e).__name__}: {e}"
        results.append(self.outcome)

    def run(self) -> SeatOutcome:
        delay = 0.1
        while True:
            try:
                if self._stream():
                    return self.outcome
                # Ended without a MatchEnd: the table was aborted, or the
                # referee cut this stream off (a slow reader). Reconnecting
                # tells which: a table that is over refuses the seat.
                code, details = grpc.StatusCode.UNAVAILABLE, "the stream ended before the match did"
            except grpc.RpcError as e:
                code, details = e.code(), e.details()
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
                time.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            self.outcome.error = f"{code.name}: {details}"
            log.error("%s: the referee ended the stream: %s", self.tag, self.outcome.error)
            return self.outcome

    def _stream(self) -> bool:
        """One Play stream. Returns True after MatchEnd, False if the stream
        ended without one; raises grpc.RpcError if it failed."""
        outbox: "queue.Queue[Any]" = queue.Queue()
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

        def outgoing() -> Iterator[Any]:
            # Returning from here half-closes the stream, which the referee
            # takes as a disconnection: only stop when told to.
            while True:
                m = outbox.get()
                if m is None:
                    return
                yield m

        self.call = self.stub.Play(outgoing())
        ended = False
        try:
            for msg in self.call:
                if self._receive(msg, outbox, rebuilder):
                    ended = True
        except grpc.RpcError:
            if not ended:
                raise
        finally:
            outbox.put(None)
        return ended

    def _receive(self, msg: Any, outbox: "queue.Queue[Any]", rebuilder: Rebuilder) -> bool:
        """Handles one message of the referee's, putting what to send into
        ``outbox``. Returns True for ``MatchEnd``."""
        kind = msg.WhichOneof("msg")
        if kind == "request":
            request = msg.request
            if self.binary:
                textify_request(request)
            if request.HasField("delta"):
                if self.events:
                    for event in request.delta.events:
                        self._hook(self.bot.on_event, event)
                try:
                    request.observation.CopyFrom(rebuilder.update(request))
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

    Raises :class:`WhistleError` if the referee cannot be reached within
    ``connect_timeout`` seconds or refuses the token."""
    make_bot = _as_bot(bot)
    ch = channel(launch.address)
    try:
        grpc.channel_ready_future(ch).result(timeout=connect_timeout)
    except grpc.FutureTimeoutError:
        ch.close()
        raise WhistleError(f"cannot reach a referee at {launch.address}") from None
    stub = pb_grpc.RefereeStub(ch)
    seats: List[_Seat] = []
    threads: List[threading.Thread] = []
    results: List[SeatOutcome] = []
    # The seat tokens being played: a newer Subscribe gives a lasting bot
    # its seats in play again, which this process is playing already (a
    # restarted referee's seats have new tokens, whatever their table ids).
    playing: set = set()
    lock = threading.Lock()

    def seat_thread(seat: _Seat, key: Any) -> None:
        try:
            seat.run_into(results)
        finally:
            with lock:
                playing.discard(key)

    subscription = None
    lasting = False
    away_since: Optional[float] = None
    pause = 1.0
    unknown_since: Optional[float] = None
    unknown_pause = 0.25
    try:
        while True:
            subscription = stub.Subscribe(pb.SubscribeRequest(token=launch.token, bot_name=launch.bot_name))
            try:
                metadata = subscription.initial_metadata() or ()
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
                for a in subscription:
                    unknown_since, unknown_pause = None, 0.25
                    key = a.seat_token
                    with lock:
                        if key in playing:
                            continue  # already played here
                        playing.add(key)
                    log.info("assigned seat %d of table %s (%s)", a.seat, a.table_id, a.game)
                    seat = _Seat(stub, a, make_bot(), launch, quiet, compact, binary)
                    t = threading.Thread(
                        target=seat_thread,
                        args=(seat, key),
                        name=f"whistle-seat-{a.table_id}-{a.seat}",
                        daemon=True,
                    )
                    # A process that plays for weeks keeps only the live seats.
                    live = [(s, th) for s, th in zip(seats, threads) if th.is_alive()]
                    seats = [s for s, _ in live] + [seat]
                    threads = [th for _, th in live] + [t]
                    t.start()
                break  # OK: the bot's event is over
            except grpc.RpcError as e:
                code, details = e.code(), e.details() or ""
                now = time.monotonic()
                if code == grpc.StatusCode.UNAUTHENTICATED and "unknown token" in details:
                    if unknown_since is None:
                        unknown_since = now
                        log.info("the referee does not know the token (yet); trying again for %d s", UNKNOWN_TOKEN_RETRY_S)
                    if now - unknown_since < UNKNOWN_TOKEN_RETRY_S:
                        time.sleep(unknown_pause)
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
                    time.sleep(pause)
                    if now - away_since >= AWAY_EAGER_S:
                        pause = min(pause * 2, AWAY_BACKOFF_MAX_S)
                    continue
                if not seats:
                    raise WhistleError(f"Subscribe failed: {code.name}: {details}") from None
                log.error("the subscription ended: %s: %s", code.name, details)
                break
        for t in threads:
            while t.is_alive():
                t.join(0.25)
    except BaseException:
        if subscription is not None:
            subscription.cancel()
        for s in seats:
            s.stop()
        raise
    finally:
        ch.close()
    return results


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
