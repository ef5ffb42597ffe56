"""The kit's sampling bot (bots/python/examples/sampling_bot.py), which
simulates with whistle_engine, beats the heuristic bot in the duplicate
tournament of tournaments/python-sampling.toml, played with `--seed 4242`
(deterministic: the same deals, bots and seeds give the same result every
run)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def test_the_sampling_bot_beats_the_heuristic_in_duplicate(whistle_bin, tmp_path):
    pytest.importorskip("whistle_bot", reason="the Python kit is not installed")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = tmp_path / "out"
    run = subprocess.run(
        [whistle_bin, "tournament", "tournaments/python-sampling.toml", "--out", str(out),
         "--progress", "quiet", "--seed", "4242"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads((out / "results.json").read_text())
    bots = {b["name"]: b for b in results["bots"]}
    assert sum(bots["sampling"]["faults"].values()) == 0, bots["sampling"]
    standings = (out / "standings.md").read_text()
    rows = [line for line in standings.splitlines() if line.startswith("| 1 |")]
    assert rows and "| sampling |" in rows[0], standings
    diff = [line for line in run.stdout.splitlines() if "sampling − heuristic" in line]
    assert diff, run.stdout
    low = float(diff[0].split("[")[1].split(",")[0])
    assert low > 0, diff[0]
