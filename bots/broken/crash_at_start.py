#!/usr/bin/env python3
"""A broken stdio bot for a class's example event: it ends at once.

whistle restarts it three times, then puts it out of the event: its
matches are played out by fallbacks, and the standings list it apart
("out: ...") rather than rank it. See tournaments/class.toml.
"""
import sys

sys.exit("crash_at_start: failing on purpose before reading anything")
