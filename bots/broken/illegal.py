#!/usr/bin/env python3
"""A broken stdio bot for a class's example event: it plays illegal cards.

Asked for a card, it answers with a card that is not among the legal
ones (the first of the deck that is not); asked anything else, with the
first legal action. The referee records an `illegal` fault for each
illegal card and plays the fallback. See tournaments/class.toml.
"""
import json
import sys

DECK = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def is_card(text):
    return text in DECK or text in ("BJ", "LJ")


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "request":
            continue
        legal = message["legal"]
        if any(is_card(a) for a in legal):
            wrong = next((c for c in DECK if c not in legal), "AS")
            print(wrong, flush=True)
        else:
            print(0, flush=True)


if __name__ == "__main__":
    main()
