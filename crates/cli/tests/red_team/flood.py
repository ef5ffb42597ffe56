#!/usr/bin/env python3
"""A flooding gRPC bot (crates/cli/tests/red_team.rs): PROCS processes each
open EACH connections to the referee's socket and send nothing on them for
HOLD seconds (past the referee's handshake timeout), then it plays.

    flood.py WHISTLE PROCS EACH HOLD
"""
import os, socket, sys, time

whistle, procs, each, hold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
address = os.environ["WHISTLE_ADDRESS"][len("unix:"):]
children = []
for _ in range(procs):
    pid = os.fork()
    if pid == 0:
        held = []
        try:
            for _ in range(each):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(address)
                held.append(s)
        except OSError as e:
            print(f"stopped: {e}", file=sys.stderr, flush=True)
        print(f"held {len(held)}", file=sys.stderr, flush=True)
        time.sleep(hold)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
os.execv(whistle, [whistle, "bot", "--bot", "random"])
