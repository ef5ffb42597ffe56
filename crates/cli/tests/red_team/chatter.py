#!/usr/bin/env python3
"""A chattering stdio bot (crates/cli/tests/red_team.rs): each instance
writes 5 MiB to stderr (the organiser's disk), then plays."""
import json, sys

sys.stderr.write(("y" * 1023 + "\n") * 5 * 1024)
sys.stderr.flush()
for line in sys.stdin:
    if json.loads(line).get("type") == "request":
        print(0, flush=True)
