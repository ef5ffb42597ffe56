#!/usr/bin/env python3
"""A whistle stdio bot with nothing but the standard library.

whistle writes one JSON object per line on stdin; each line whose "type" is
"request" is answered with one line on stdout: here the index of the chosen
action in "legal". The rule: play the lowest card when a card is asked for,
else the first legal action (a pass, the smallest bid). Every other line
(welcome, event, fault, match_end) is ignored. See docs/stdio.md.
"""
import json
import sys

RANKS = "23456789TJQKA"


def card_rank(text):
    """The rank of a card's text (AS, TC, BJ), or None for other actions."""
    if text in ("BJ", "LJ"):
        return 20 if text == "BJ" else 19
    if len(text) == 2 and text[0] in RANKS and text[1] in "CDHS":
        return RANKS.index(text[0])
    return None


def choose(legal):
    cards = [(card_rank(a), i) for i, a in enumerate(legal) if card_rank(a) is not None]
    if cards:
        return min(cards)[1]
    return 0


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "request":
            continue
        print(choose(message["legal"]), flush=True)


if __name__ == "__main__":
    main()
