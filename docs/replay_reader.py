#!/usr/bin/env python3
"""Read a whistle replay log with nothing but the Python standard library.

Checks the format and the SHA-256 hash chain, then prints each hand's deal,
actions and result, and the match result. Usage:

    python3 docs/replay_reader.py replays/samples/israeli/matches/m00000.jsonl

Exit code 1 if the chain is broken. See docs/replay-format.md.
"""
import hashlib
import json
import sys


def read(path):
    with open(path, "rb") as f:
        raw = f.read().split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()  # the file ends with a newline
    records, problems = [], []
    for n, line in enumerate(raw, start=1):
        rec = json.loads(line)
        if n == 1:
            if rec.get("type") != "header" or rec.get("format") != "whistle-replay":
                problems.append(f"line 1: not a whistle-replay header")
            elif rec.get("version") != 1:
                problems.append(f"line 1: version {rec.get('version')} (this reader knows 1)")
        elif "prev" in rec:
            expected = hashlib.sha256(raw[n - 2]).hexdigest()
            if rec["prev"] != expected:
                problems.append(f"line {n}: prev is {rec['prev']}, expected {expected}")
        records.append(rec)
    return records, problems


def main(path):
    records, problems = read(path)
    header = records[0]
    print(f"{header['game']} {header.get('options', {})} seats {header.get('seats')}")
    for rec in records[1:]:
        if rec["type"] == "hand":
            r = rec["result"]
            print(f"deal {rec['deal']} dealer {rec['dealer']}: {len(rec['actions'])} actions")
            print("  deck: " + " ".join(rec["deck"]))
            print("  actions: " + " ".join(f"{a['seat']}:{a['action']}" for a in rec["actions"]))
            for fault in rec.get("faults", []):
                print(f"  fault: seat {fault['seat']} {fault['kind']}: {fault['detail']}")
            print(f"  {r['summary']}; points {r['points']}; totals {r['totals']}")
        elif rec["type"] == "end":
            print(f"end: totals {rec['result']['totals']} places {rec['result']['ranks']}"
                  f" forfeited {rec['forfeited']} match seed {rec['match_seed']}")
    for p in problems:
        print("problem: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
