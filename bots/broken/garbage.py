#!/usr/bin/env python3
"""A broken stdio bot for a class's example event: it answers garbage.

Every request is answered with a line that is neither an index nor an
action: the referee records a `malformed` fault and plays the fallback;
at `max_faults` faults in a match the seat forfeits. See
tournaments/class.toml.
"""
import json
import sys


def main():
    for line in sys.stdin:
        if json.loads(line).get("type") == "request":
            print("the answer is 42!", flush=True)


if __name__ == "__main__":
    main()
