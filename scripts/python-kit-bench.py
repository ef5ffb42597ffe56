#!/usr/bin/env python3
"""How fast a Python bot plays with the kit, against raw grpcio ping-pong.

Three measurements on this machine, the first two each a separate set of
processes over loopback:

1. raw ping-pong: a grpcio server process whose `whistle.v1.Referee/Play`
   answers every BotMessage with a small DecisionRequest (about 100 bytes),
   and a grpcio client process that sends, waits for the reply and sends
   again, over one stream: round trips per second, the floor a Python bot's
   transport sets.
2. the kit: `whistle serve`, one Israeli table, four Python bot processes
   (whistle_bot.run with a function that returns the last legal index,
   i.e. the kit's whole path: decoding, rebuilding the observation, the bot
   call, the answer), with compact binary requests (the kit's default),
   compact text ones and whole text ones: actions per second from the first
   request any bot receives to the last bot's match end, as the bots
   themselves clock it (one seat acts at a time, so this is a chain like
   the ping-pong; the bots' start, imports and connection are not in it).
3. the kit's own path: the messages each seat of such a table receives,
   recorded, then handed to the kit's per-message code (`_Seat._receive`:
   decoding, texts written back, the observation rebuilt, the bot called,
   the answer made) in this process with no gRPC: CPU µs a request, the
   part of a Python bot's cost that is the kit's and not grpcio's.

Two more lines put the first one in context, for judging the comparison
rather than for the target: the same ping-pong with a ``grpc.aio`` client
(one thread, no hop per message: what the kit plays over), and four raw
grpcio bots (the ping-pong's client code: a queue-fed request iterator,
answering the last legal index with no observation rebuilt) at the same
kind of table as the kit's, which differs from the ping-pong only in its
peer (the Rust referee, not a Python echo server), its messages and its
four bot processes taking turns on the machine.

Each line also gives the CPU time a round trip or an action costs the
Python processes, counted by each process itself over the same span (its
threads included): the figure a busy machine disturbs least.

Usage (from the repository root, with the kit's dependencies installed and
`cargo build --release -p whistle-cli` done):

    python3 scripts/python-kit-bench.py [--hands 200] [--secs 5]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bots" / "python"))
WHISTLE = REPO / "target" / "release" / "whistle"
ADMIN = "kit-bench"

SERVER = r"""
import sys
from concurrent import futures
sys.path.insert(0, sys.argv[1])
import grpc
from whistle_bot import pb, pb_grpc

REPLY = pb.RefereeMessage(request=pb.DecisionRequest(
    request_id=1, legal=["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"],
    deadline_ms=1000, time_bank_ms=30000))

class Echo(pb_grpc.RefereeServicer):
    def Play(self, request_iterator, context):
        for _ in request_iterator:
            yield REPLY

server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
pb_grpc.add_RefereeServicer_to_server(Echo(), server)
port = server.add_insecure_port("127.0.0.1:0")
server.start()
print(port, flush=True)
server.wait_for_termination()
"""

CLIENT = r"""
import queue, sys, time
sys.path.insert(0, sys.argv[1])
import grpc
from whistle_bot import pb, pb_grpc
secs = float(sys.argv[3])
with grpc.insecure_channel(sys.argv[2]) as ch:
    stub = pb_grpc.RefereeStub(ch)
    out = queue.Queue()
    def gen():
        while True:
            m = out.get()
            if m is None:
                return
            yield m
    ping = pb.BotMessage(answer=pb.Answer(request_id=1, index=0))
    replies = stub.Play(gen())
    n = 0
    for _ in range(200):
        out.put(ping); next(replies)
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < secs:
        out.put(ping); next(replies); n += 1
    print(n / (time.perf_counter() - start), (time.process_time() - cpu) / n)
    out.put(None)
"""

AIO_CLIENT = r"""
import asyncio, sys, time
sys.path.insert(0, sys.argv[1])
import grpc
from whistle_bot import pb, pb_grpc
secs = float(sys.argv[3])
async def main():
    async with grpc.aio.insecure_channel(sys.argv[2]) as ch:
        call = pb_grpc.RefereeStub(ch).Play()
        ping = pb.BotMessage(answer=pb.Answer(request_id=1, index=0))
        for _ in range(200):
            await call.write(ping); await call.read()
        n = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < secs:
            await call.write(ping); await call.read(); n += 1
        print(n / (time.perf_counter() - start), (time.process_time() - cpu) / n)
        await call.done_writing()
asyncio.run(main())
"""

# A raw grpcio bot at a real table: the ping-pong client's code, answering
# the last legal index, clocked as the kit's bots are.
RAW_BOT = r"""
import queue, sys, time
sys.path.insert(0, sys.argv[1])
import grpc
from whistle_bot import pb, pb_grpc
compact, binary = sys.argv[2][0] == "1", sys.argv[2][1] == "1"
address, token = sys.argv[4], sys.argv[6]
first, n = None, 0
with grpc.insecure_channel(address) as ch:
    stub = pb_grpc.RefereeStub(ch)
    a = next(iter(stub.Subscribe(pb.SubscribeRequest(token=token, bot_name="raw"))))
    out = queue.Queue()
    out.put(pb.BotMessage(hello=pb.Hello(token=a.seat_token, bot_name="raw", protocol="whistle.v1", quiet=True,
                                         compact=compact, binary=binary)))
    def gen():
        while (m := out.get()) is not None:
            yield m
    for msg in stub.Play(gen()):
        kind = msg.WhichOneof("msg")
        if kind == "request":
            if first is None:
                first = (time.monotonic(), time.process_time())
            r = msg.request
            out.put(pb.BotMessage(answer=pb.Answer(request_id=r.request_id, index=(len(r.legal_ids) or len(r.legal)) - 1)))
            n += 1
        elif kind == "match_end":
            out.put(None)
            break
end = (time.monotonic(), time.process_time())
print(f"answers={n}", file=sys.stderr)
print(f"kit-bench first={first[0]:.6f} end={end[0]:.6f} cpu={end[1] - first[1]:.6f}", file=sys.stderr, flush=True)
"""

BOT = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
from whistle_bot import run
first = []
def choose(observation, legal):
    if not first:
        first.append((time.monotonic(), time.process_time()))
    return len(legal) - 1
def play():
    run(choose, compact=sys.argv[2][0] == "1", binary=sys.argv[2][1] == "1", argv=sys.argv[3:])
    end = (time.monotonic(), time.process_time())
    start = first[0] if first else end
    # The span this bot played, on the clock every process shares, and
    # its CPU time over it.
    print(f"kit-bench first={start[0]:.6f} end={end[0]:.6f} cpu={end[1] - start[1]:.6f}",
          file=sys.stderr, flush=True)
if os.environ.get("KIT_BENCH_PROFILE"):
    # The kit plays in its own thread (its event loop): profile that one.
    import cProfile, threading
    from whistle_bot import client
    profile, loop, stopped = cProfile.Profile(), client._kit_loop(), threading.Event()
    loop.call_soon_threadsafe(profile.enable)
    play()
    loop.call_soon_threadsafe(lambda: (profile.disable(), stopped.set()))
    stopped.wait()
    profile.dump_stats(os.environ["KIT_BENCH_PROFILE"] + f".{os.getpid()}")
else:
    play()
"""


def raw_ping_pong(secs: float, client: str = CLIENT) -> tuple[float, float]:
    """(round trips per second, the client process's CPU µs a round trip)."""
    kit = str(REPO / "bots" / "python")
    server = subprocess.Popen([sys.executable, "-c", SERVER, kit], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        out = subprocess.run(
            [sys.executable, "-c", client, kit, f"127.0.0.1:{port}", str(secs)],
            capture_output=True, text=True, check=True, timeout=secs + 60,
        )
        rate, cpu = out.stdout.split()
        return float(rate), float(cpu) * 1e6
    finally:
        server.kill()
        server.wait()


def start_table(hands: int, logs: Path) -> tuple[subprocess.Popen, str, list[str]]:
    """`whistle serve` with one Israeli table of four bot seats: (the
    server, its address, the seats' tokens)."""
    serve = subprocess.Popen(
        [WHISTLE, "serve", "--listen", "127.0.0.1:0", "--admin-token", ADMIN, "--log", "warn"],
        stdout=subprocess.PIPE, stderr=open(logs / "serve.err", "w"), text=True,
    )
    try:
        m = re.match(r"listening on (\S+)", serve.stdout.readline())
        address = m.group(1)
        table = subprocess.run(
            [WHISTLE, "table", "--server", f"http://{address}", "--admin-token", ADMIN, "--game",
             "israeli", "--seed", "1", "--hands", str(hands), "--bots", "py,py,py,py",
             "--per-action-ms", "10000", "--time-bank-ms", "600000"],
            capture_output=True, text=True, check=True, timeout=60,
        ).stdout.splitlines()
    except BaseException:
        serve.kill()
        serve.wait()
        raise
    return serve, address, [line.split()[2] for line in table[1:]]


def record_streams(hands: int, compact: bool, binary: bool) -> list[list[bytes]]:
    """What each seat of one table receives, message by message (encoded),
    played by plain grpcio clients that answer the last legal index."""
    import queue

    sys.path.insert(0, str(REPO / "bots" / "python"))
    import grpc
    from whistle_bot import pb, pb_grpc

    logs = Path(tempfile.mkdtemp(prefix="kit-bench-"))
    serve, address, tokens = start_table(hands, logs)
    streams: list[list[bytes]] = [[] for _ in tokens]

    def seat(token: str, got: list[bytes]) -> None:
        with grpc.insecure_channel(address) as ch:
            stub = pb_grpc.RefereeStub(ch)
            a = next(iter(stub.Subscribe(pb.SubscribeRequest(token=token, bot_name="recorder"))))
            out: queue.Queue = queue.Queue()
            out.put(pb.BotMessage(hello=pb.Hello(token=a.seat_token, bot_name="recorder", protocol="whistle.v1",
                                                 quiet=True, compact=compact, binary=binary)))

            def outgoing():
                while (m := out.get()) is not None:
                    yield m

            for msg in stub.Play(outgoing()):
                got.append(msg.SerializeToString())
                kind = msg.WhichOneof("msg")
                if kind == "request":
                    n = len(msg.request.legal_ids) or len(msg.request.legal)
                    out.put(pb.BotMessage(answer=pb.Answer(request_id=msg.request.request_id, index=n - 1)))
                elif kind == "match_end":
                    out.put(None)
                    break

    try:
        threads = [threading.Thread(target=seat, args=(t, got)) for t, got in zip(tokens, streams)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=600)
    finally:
        serve.kill()
        serve.wait()
    return streams


def kit_path(streams: list[list[bytes]], compact: bool, binary: bool) -> tuple[float, int]:
    """(CPU µs a request, requests): the kit's own work on each message a
    seat receives (decoding, the texts written back, the observation
    rebuilt, the bot called, the answer made) with no gRPC, over recorded
    streams, in this process; the best of five passes."""
    import logging

    from whistle_bot import pb
    from whistle_bot._compact import Rebuilder
    from whistle_bot.client import FunctionBot, Launch, _Outbox, _Seat

    logging.getLogger("whistle_bot").setLevel(logging.WARNING)

    class Assignment:
        table_id, seat, seat_token = "bench", 0, ""

    requests = sum(1 for msgs in streams for b in msgs if pb.RefereeMessage.FromString(b).HasField("request"))
    best = None
    for _ in range(5):
        start = time.process_time()
        for msgs in streams:
            seat = _Seat(None, Assignment(), FunctionBot(lambda observation, legal: len(legal) - 1),
                         Launch("", ""), None, compact, binary)
            outbox = _Outbox()
            rebuilder = Rebuilder(pb.Observation)
            for b in msgs:
                seat._receive(pb.RefereeMessage.FromString(b), outbox, rebuilder)
                outbox.clear()
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return best * 1e6 / requests, requests


def kit_match(hands: int, compact: bool, binary: bool, bot: str = BOT) -> tuple[float, int, float]:
    """(actions per second, actions, the bot processes' CPU µs an action) of
    one table of four Python bots, from the first request a bot receives to
    the last bot's match end (as the bots clock it). The CPU time is the
    steadier figure on a busy machine."""
    logs = Path(tempfile.mkdtemp(prefix="kit-bench-"))
    serve, address, tokens = start_table(hands, logs)
    bots = []
    try:
        kit = str(REPO / "bots" / "python")
        for i, token in enumerate(tokens):
            bots.append(subprocess.Popen(
                [sys.executable, "-c", bot, kit, f"{int(compact)}{int(binary)}", "--address", address,
                 "--token", token, "--log", "info"],
                stderr=open(logs / f"bot{i}.err", "w"),
            ))
        for b in bots:
            b.wait(timeout=600)
        answers, firsts, ends, cpu = 0, [], [], 0.0
        for i in range(4):
            text = (logs / f"bot{i}.err").read_text()
            answers += int(re.search(r"answers=(\d+)", text).group(1))
            m = re.search(r"kit-bench first=(\S+) end=(\S+) cpu=(\S+)", text)
            firsts.append(float(m.group(1)))
            ends.append(float(m.group(2)))
            cpu += float(m.group(3))
        return answers / (max(ends) - min(firsts)), answers, cpu * 1e6 / answers
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
        serve.kill()
        serve.wait()


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--secs", type=float, default=5.0)
    a = p.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average {load()}")
    raw, raw_cpu = raw_ping_pong(a.secs)
    print(f"raw grpcio ping-pong, 1 stream: {raw:.0f} round trips/s; the client's CPU {raw_cpu:.0f} µs a round trip")
    forms = (
        ("compact binary (the default)", True, True),
        ("compact text", True, False),
        ("whole text", False, False),
    )
    for mode, compact, binary in forms:
        rate, n, cpu_us = kit_match(a.hands, compact, binary)
        print(f"kit, 4 Python bots, one Israeli table, {mode} requests: {rate:.0f} actions/s "
              f"({n} actions; {rate / raw:.0%} of the ping-pong); the bots' CPU {cpu_us:.0f} µs an action")
    aio, aio_cpu = raw_ping_pong(a.secs, AIO_CLIENT)
    print(f"for context: raw grpc.aio ping-pong, 1 stream: {aio:.0f} round trips/s; the client's CPU {aio_cpu:.0f} µs a round trip")
    rate, n, cpu_us = kit_match(a.hands, True, True, RAW_BOT)
    print(f"for context: raw grpcio, 4 Python bots (the ping-pong's client code), one Israeli table, compact binary "
          f"requests: {rate:.0f} actions/s ({n} actions; {rate / raw:.0%} of the ping-pong); the bots' CPU {cpu_us:.0f} µs an action")
    for mode, compact, binary in forms:
        cpu_us, n = kit_path(record_streams(a.hands, compact, binary), compact, binary)
        print(f"the kit's own path, {mode} requests, no gRPC: {cpu_us:.1f} CPU µs a request ({n} requests)")
    print(f"load average {load()}")


if __name__ == "__main__":
    main()
