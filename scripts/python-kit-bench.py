#!/usr/bin/env python3
"""How fast a Python bot plays with the kit, against raw grpcio ping-pong.

Two measurements on this machine, each a separate set of processes over
loopback:

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
   request to the match end (one seat acts at a time, so this is a chain
   like the ping-pong).

Usage (from the repository root, with the kit's dependencies installed and
`cargo build --release -p whistle-cli` done):

    python3 scripts/python-kit-bench.py [--hands 40] [--secs 5]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
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
    start = time.perf_counter()
    while time.perf_counter() - start < secs:
        out.put(ping); next(replies); n += 1
    print(n / (time.perf_counter() - start))
    out.put(None)
"""

BOT = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
from whistle_bot import run
def play():
    run(lambda observation, legal: len(legal) - 1, compact=sys.argv[2][0] == "1",
        binary=sys.argv[2][1] == "1", argv=sys.argv[3:])
if os.environ.get("KIT_BENCH_PROFILE"):
    import cProfile
    cProfile.run("play()", os.environ["KIT_BENCH_PROFILE"] + f".{os.getpid()}")
else:
    play()
"""


def raw_ping_pong(secs: float) -> float:
    kit = str(REPO / "bots" / "python")
    server = subprocess.Popen([sys.executable, "-c", SERVER, kit], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        out = subprocess.run(
            [sys.executable, "-c", CLIENT, kit, f"127.0.0.1:{port}", str(secs)],
            capture_output=True, text=True, check=True, timeout=secs + 60,
        )
        return float(out.stdout.strip())
    finally:
        server.kill()
        server.wait()


def kit_match(hands: int, compact: bool, binary: bool) -> tuple[float, int, float]:
    """(actions per second, actions, the bot processes' CPU µs an action) of
    one table of four Python bots. The CPU time is the steadier figure on a
    busy machine."""
    logs = Path(tempfile.mkdtemp(prefix="kit-bench-"))
    serve = subprocess.Popen(
        [WHISTLE, "serve", "--listen", "127.0.0.1:0", "--admin-token", ADMIN, "--log", "warn"],
        stdout=subprocess.PIPE, stderr=open(logs / "serve.err", "w"), text=True,
    )
    bots = []
    try:
        m = re.match(r"listening on (\S+)", serve.stdout.readline())
        address = m.group(1)
        table = subprocess.run(
            [WHISTLE, "table", "--server", f"http://{address}", "--admin-token", ADMIN, "--game",
             "israeli", "--seed", "1", "--hands", str(hands), "--bots", "py,py,py,py",
             "--per-action-ms", "10000", "--time-bank-ms", "600000"],
            capture_output=True, text=True, check=True, timeout=60,
        ).stdout.splitlines()
        tokens = [line.split()[2] for line in table[1:]]
        kit = str(REPO / "bots" / "python")
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        for i, token in enumerate(tokens):
            bots.append(subprocess.Popen(
                [sys.executable, "-c", BOT, kit, f"{int(compact)}{int(binary)}", "--address", address,
                 "--token", token, "--log", "info"],
                stderr=open(logs / f"bot{i}.err", "w"),
            ))
        start = time.perf_counter()
        for b in bots:
            b.wait(timeout=600)
        secs = time.perf_counter() - start
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        answers = 0
        for i in range(4):
            text = (logs / f"bot{i}.err").read_text()
            answers += int(re.search(r"answers=(\d+)", text).group(1))
        return answers / secs, answers, cpu * 1e6 / answers
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
        serve.kill()
        serve.wait()


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--secs", type=float, default=5.0)
    a = p.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    raw = raw_ping_pong(a.secs)
    print(f"raw grpcio ping-pong, 1 stream: {raw:.0f} round trips/s")
    for mode, compact, binary in (
        ("compact binary (the default)", True, True),
        ("compact text", True, False),
        ("whole text", False, False),
    ):
        rate, n, cpu_us = kit_match(a.hands, compact, binary)
        print(f"kit, 4 Python bots, one Israeli table, {mode} requests: {rate:.0f} actions/s "
              f"({n} actions; {rate / raw:.0%} of the ping-pong); the bots' CPU {cpu_us:.0f} µs an action")


if __name__ == "__main__":
    main()
