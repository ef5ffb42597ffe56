"""whistle_bot: play a whistle referee from Python.

The smallest bot::

    import random
    from whistle_bot import run

    run(lambda observation, legal: random.randrange(len(legal)))

``observation`` is the request's ``whistle.v1.Observation`` protobuf message
(docs/protocol.md explains every field), ``legal`` the list of legal actions
in canonical text (``"AS"``, ``"pass"``, ``"bid 7D"``, ...). Return an index
into ``legal`` or an action's text.

For hooks (match start, events, faults, match end), subclass :class:`Bot`.

``pb`` is the generated module of protocol messages (``pb.Observation``,
``pb.PHASE_PLAY``, ``pb.Fault.Kind.Name(k)``, ...) and ``pb_grpc`` its gRPC
stubs (``pb_grpc.RefereeStub``, ``pb_grpc.AdminStub``); both are generated
from ``proto/whistle/v1/whistle.proto`` on first import (see ``_stubs``).
"""

from ._stubs import StubError, load as _load

pb, pb_grpc = _load()

from .client import (  # noqa: E402
    PROTOCOL,
    Bot,
    FunctionBot,
    Launch,
    LaunchError,
    SeatOutcome,
    WhistleError,
    channel,
    play,
    resolve_launch,
    run,
    to_json,
)

__all__ = [
    "PROTOCOL",
    "Bot",
    "FunctionBot",
    "Launch",
    "LaunchError",
    "SeatOutcome",
    "StubError",
    "WhistleError",
    "channel",
    "pb",
    "pb_grpc",
    "play",
    "resolve_launch",
    "run",
    "to_json",
]

__version__ = "0.1.0"
