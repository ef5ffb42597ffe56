#!/usr/bin/env python3
"""A broken stdio bot for a class's example event: it answers too late.

Each answer (the first legal action) comes after the seconds given as its
argument (default 1), longer than the event's clock per decision: once its time bank is
spent, every answer is `late` (the fallback is played instead) and the
late line then answers a settled request (`stale`). See
tournaments/class.toml.
"""
import json
import sys
import time

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


def main():
    for line in sys.stdin:
        if json.loads(line).get("type") == "request":
            time.sleep(DELAY)
            print(0, flush=True)


if __name__ == "__main__":
    main()
