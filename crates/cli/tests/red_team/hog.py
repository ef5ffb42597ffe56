#!/usr/bin/env python3
"""A greedy stdio bot (crates/cli/tests/red_team.rs): eight processes that
spin for SECONDS, then it says on stderr what share of a processor they got
together (`SHARE x.xx`), and plays."""
import json, os, signal, sys, time

SECONDS = float(sys.argv[1])
tick = os.sysconf("SC_CLK_TCK")
children = []
for _ in range(8):
    pid = os.fork()
    if pid == 0:
        while True:
            pass
    children.append(pid)
start = time.time()
time.sleep(SECONDS)
used = 0
for pid in children:
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    used += int(f[11]) + int(f[12])
wall = time.time() - start
for pid in children:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
print(f"SHARE {used / tick / wall:.2f} over {wall:.1f} s", file=sys.stderr, flush=True)
for line in sys.stdin:
    if json.loads(line).get("type") == "request":
        print(0, flush=True)
