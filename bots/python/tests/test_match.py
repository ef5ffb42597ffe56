"""The Python kit against a real referee: `whistle serve`, a table made with
`whistle table`, a Python example bot in seat 0 and `whistle-bot --bot random`
in seats 1-3, all as separate processes.

The binaries come from $WHISTLE_BIN_DIR (default: target/debug of the
repository; a relative path is taken from the repository root). Build them
first: `cargo build --workspace --bins`. Every process is killed at the end of
its test, and every wait has a time limit.

Run with pytest (`python -m pytest bots/python/tests`), or as a plain script.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PYTHON_KIT = REPO / "bots" / "python"
EXAMPLES = PYTHON_KIT / "examples"
ADMIN_TOKEN = "python-kit-test"
MATCH_TIMEOUT_S = 120.0

# A kit run from the checkout generates the protocol modules into a cache:
# a fresh one, so that the first run (generation included) is what is
# tested. An installed kit ships them and ignores it.
if not os.environ.get("WHISTLE_BOT_CACHE"):
    os.environ["WHISTLE_BOT_CACHE"] = tempfile.mkdtemp(prefix="whistle-bot-cache-")
    atexit.register(shutil.rmtree, os.environ["WHISTLE_BOT_CACHE"], True)
# An installed kit comes first; from a checkout, the kit beside this file.
sys.path.append(str(PYTHON_KIT))

import grpc  # noqa: E402

from whistle_bot import pb, pb_grpc  # noqa: E402


def bin_dir() -> Path:
    d = Path(os.environ.get("WHISTLE_BIN_DIR") or "target/debug")
    return d if d.is_absolute() else REPO / d


def binary(name: str) -> Path:
    path = bin_dir() / name
    if not path.is_file():
        raise AssertionError(f"{path} is missing: run `cargo build --workspace --bins` first (or set WHISTLE_BIN_DIR)")
    return path


class Processes:
    """Child processes with their output in files; all killed by close()."""

    def __init__(self, logs: Path):
        self.logs = logs
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, args: list, env: dict | None = None, stdout=None) -> subprocess.Popen:
        err = open(self.logs / f"{name}.err", "wb")
        out = stdout if stdout is not None else open(self.logs / f"{name}.out", "wb")
        p = subprocess.Popen(
            [str(a) for a in args],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env={**os.environ, **(env or {})},
            cwd=REPO,
        )
        self.procs[name] = p
        return p

    def stderr(self, name: str) -> str:
        text = (self.logs / f"{name}.err").read_text(errors="replace")
        return re.sub(r"\x1b\[[0-9;]*m", "", text)  # colours from tracing

    def wait_all(self, names: list, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        codes = {}
        for n in names:
            left = max(0.1, deadline - time.monotonic())
            try:
                codes[n] = self.procs[n].wait(timeout=left)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{n} did not finish within {timeout:.0f} s\n{self.dump()}") from None
        return codes

    def dump(self) -> str:
        parts = []
        for n in self.procs:
            parts.append(f"--- {n} stderr ---\n{self.stderr(n)[-3000:]}")
        return "\n".join(parts)

    def close(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.terminate()
        for p in self.procs.values():
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=5)


def start_referee(procs: Processes) -> str:
    """Starts `whistle serve` on a free port; returns its address."""
    serve = procs.start(
        "serve",
        [binary("whistle"), "serve", "--listen", "127.0.0.1:0", "--admin-token", ADMIN_TOKEN, "--log", "info"],
        stdout=subprocess.PIPE,
    )
    line: list = []
    reader = threading.Thread(target=lambda: line.append(serve.stdout.readline()), daemon=True)
    reader.start()
    reader.join(30)
    text = line[0].decode() if line else ""
    m = re.match(r"listening on (\S+) admin-token (\S+)", text)
    if not m:
        raise AssertionError(f"whistle serve printed {text!r}\n{procs.dump()}")
    assert m.group(2) == ADMIN_TOKEN
    return m.group(1)


def create_table(address: str, game: str, seed: int, hands: int, bots: str) -> tuple:
    """`whistle table`; returns (table id, [(token, bot seed)] by seat)."""
    out = subprocess.run(
        [
            str(binary("whistle")), "table", "--server", f"http://{address}", "--admin-token", ADMIN_TOKEN,
            "--game", game, "--seed", str(seed), "--hands", str(hands), "--bots", bots,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    lines = out.splitlines()
    table = re.fullmatch(r"table (\S+)", lines[0]).group(1)
    seats = []
    for i, line in enumerate(lines[1:]):
        m = re.fullmatch(r"seat (\d+) (\S+) bot-seed ([0-9a-f]{64})", line)
        assert m and int(m.group(1)) == i, out
        seats.append((m.group(2), m.group(3)))
    return table, seats


def table_status(address: str, table: str):
    with grpc.insecure_channel(address) as ch:
        admin = pb_grpc.AdminStub(ch)
        return admin.GetTable(
            pb.GetTableRequest(table_id=table),
            metadata=[("authorization", f"Bearer {ADMIN_TOKEN}")],
            timeout=10,
        )


def match_end_line(stderr: str) -> dict:
    """The kit's `match-end key=value ...` log line, as a dict."""
    lines = [line for line in stderr.splitlines() if " match-end " in f" {line} "]
    assert len(lines) == 1, f"expected one match-end line in:\n{stderr}"
    fields = lines[0].split("match-end ", 1)[1].split()
    return dict(f.split("=", 1) for f in fields)


class CuttableProxy:
    """A TCP proxy on loopback whose connections can be cut at will: a
    network failure between a bot and the referee."""

    def __init__(self, target: str):
        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.address = "127.0.0.1:%d" % self.server.getsockname()[1]
        self.sockets: list = []
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                continue
            upstream = socket.create_connection(self.target, timeout=5)
            upstream.settimeout(None)
            with self.lock:
                self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        with self.lock:
            for s in self.sockets:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            self.sockets.clear()

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.server.close()


# A bot that tells the test (by creating a file) when it is at its fifth
# decision, then waits a little, so that the test can cut its connection
# while a decision is pending.
SIGNALLING_BOT = """
import os, sys, time
sys.path.append(os.environ["KIT_DIR"])
from whistle_bot import run
n = 0
def choose(observation, legal):
    global n
    n += 1
    if n == 5:
        open(os.environ["SIGNAL_FILE"], "w").close()
        time.sleep(0.5)
    return 0
run(choose)
"""


def play_israeli(logs: Path, launch, seed: int, during=None) -> tuple:
    """A 2-hand Israeli match: a Python bot in seat 0, `whistle-bot --bot
    random` in seats 1-3. `launch(address, seat token)` gives the Python bot's
    arguments and environment. Returns (what the kit logged at the match end,
    the table's status, the processes' stderr)."""
    procs = Processes(logs)
    try:
        address = start_referee(procs)
        table, seats = create_table(address, "israeli", seed, 2, "python,random,random,random")
        args, env = launch(address, seats[0][0], procs)
        procs.start("python-bot", [sys.executable, *args], env=env)
        for s in (1, 2, 3):
            token, bot_seed = seats[s]
            procs.start(
                f"whistle-bot-{s}",
                [binary("whistle-bot"), "--bot", "random", "--seed", bot_seed, "--address", address,
                 "--token", token, "--log", "info"],
            )
        names = ["python-bot", "whistle-bot-1", "whistle-bot-2", "whistle-bot-3"]
        if during is not None:
            during()
        codes = procs.wait_all(names, MATCH_TIMEOUT_S)
        assert all(c == 0 for c in codes.values()), f"exit codes {codes}\n{procs.dump()}"
        status = table_status(address, table)
        errs = {n: procs.stderr(n) for n in names}
        return match_end_line(errs["python-bot"]), status, errs
    finally:
        procs.close()


def check_match(end: dict, status, errs: dict) -> None:
    # The match completed for every seat.
    assert status.state == pb.TableStatus.OVER, status
    assert status.result.hands == 2, status.result
    assert list(status.result.forfeited) == [], status.result
    for s in (1, 2, 3):
        assert "seat done" in errs[f"whistle-bot-{s}"] and "result=Some(" in errs[f"whistle-bot-{s}"], errs
    # The Python seat got a MatchEnd with four totals, the table's, and made no fault.
    totals = [int(t) for t in end["totals"].split(",")]
    assert len(totals) == 4, end
    assert totals == list(status.result.totals), (end, status.result)
    assert end["seat"] == "0" and end["hands"] == "2" and end["forfeited"] == "-", end
    assert end["faults"] == "0" and status.faults[0] == 0, (end, status)
    assert "WARNING fault" not in errs["python-bot"], errs["python-bot"]
    assert int(end["answers"]) > 0, end


def test_random_bot_plays_a_match(tmp_path):
    """examples/random_bot.py, launched with --address and --token,
    answering by index."""
    end, status, errs = play_israeli(
        tmp_path,
        lambda address, token, _: (
            [EXAMPLES / "random_bot.py", "--seed", "7", "--address", address, "--token", token],
            {},
        ),
        seed=1,
    )
    check_match(end, status, errs)
    assert end["text_answers"] == "0", end


def test_answers_by_text(tmp_path):
    """examples/lowest_card_bot.py, launched through the environment
    (WHISTLE_ADDRESS, WHISTLE_TOKEN, WHISTLE_BOT_NAME), answering by text."""
    end, status, errs = play_israeli(
        tmp_path,
        lambda address, token, _: (
            [EXAMPLES / "lowest_card_bot.py"],
            {"WHISTLE_ADDRESS": address, "WHISTLE_TOKEN": token, "WHISTLE_BOT_NAME": "lowest"},
        ),
        seed=2,
    )
    check_match(end, status, errs)
    assert end["text_answers"] == end["answers"], end



# A bot that writes every observation it is given (its deterministic
# encoding, hex) and its legal actions to OBS_FILE, and plays the last legal
# action; COMPACT and BINARY say whether it asks for compact and binary
# requests.
RECORDING_BOT = """
import os, sys
sys.path.append(os.environ["KIT_DIR"])
from whistle_bot import Bot, run
out = open(os.environ["OBS_FILE"], "w")
deltas = open(os.environ["OBS_FILE"] + ".deltas", "w")
class Recorder(Bot):
    def on_request(self, request):
        deltas.write("delta\\n" if request.HasField("delta") else "whole\\n")
        deltas.flush()
        return super().on_request(request)
    def choose(self, observation, legal):
        out.write(observation.SerializeToString(deterministic=True).hex() + " " + "|".join(legal) + "\\n")
        out.flush()
        return len(legal) - 1
run(Recorder, compact=os.environ["COMPACT"] == "1", binary=os.environ["BINARY"] == "1")
"""


def test_compact_requests_give_the_bot_the_whole_observation(tmp_path):
    """The same match in every request form, the Python seat with whole
    text requests, compact ones, and both with binary cards and actions
    (compact binary is the kit's default): the kit rebuilds exactly the
    observations and the legal texts the whole text requests carry, at
    every decision."""
    seen = {}
    for mode in ("00", "10", "11", "01"):
        compact, binary = mode
        obs_file = tmp_path / f"observations-{mode}.txt"
        logs = tmp_path / f"run-{mode}"
        logs.mkdir()
        env = {"OBS_FILE": str(obs_file), "KIT_DIR": str(PYTHON_KIT), "COMPACT": compact, "BINARY": binary}
        end, status, errs = play_israeli(
            logs,
            lambda address, token, _: (["-c", RECORDING_BOT, "--address", address, "--token", token], env),
            seed=5,
        )
        check_match(end, status, errs)
        seen[mode] = obs_file.read_text().splitlines()
        kinds = Path(f"{obs_file}.deltas").read_text().splitlines()
        assert len(kinds) == len(seen[mode])
        if compact == "1":
            assert kinds[0] == "whole" and set(kinds[1:]) == {"delta"}, kinds
        else:
            assert set(kinds) == {"whole"}, kinds
    assert len(seen["00"]) > 20, seen["00"]
    for mode in ("10", "11", "01"):
        assert seen[mode] == seen["00"], mode


def test_a_cut_stream_is_resumed(tmp_path):
    """The connection of the Python bot is cut while a decision is pending:
    the kit reconnects with the same seat token, the referee resumes the seat
    and sends the pending request again, and the match ends without a fault."""
    signal = tmp_path / "fifth-decision"
    proxies = []

    def launch(address, token, _):
        proxies.append(CuttableProxy(address))
        env = {"SIGNAL_FILE": str(signal), "KIT_DIR": str(PYTHON_KIT)}
        return ["-c", SIGNALLING_BOT, "--address", proxies[0].address, "--token", token], env

    def cut_at_the_signal():
        deadline = time.monotonic() + 60
        while not signal.exists():
            assert time.monotonic() < deadline, "the bot never reached its fifth decision"
            time.sleep(0.02)
        proxies[0].cut()

    try:
        end, status, errs = play_israeli(tmp_path, launch, seed=3, during=cut_at_the_signal)
    finally:
        for p in proxies:
            p.close()
    check_match(end, status, errs)
    log = errs["python-bot"]
    assert "stream cut" in log and "resumed" in log, log


if __name__ == "__main__":  # without pytest
    tests = [test_random_bot_plays_a_match, test_answers_by_text, test_a_cut_stream_is_resumed]
    failed = 0
    for t in tests:
        with tempfile.TemporaryDirectory() as d:
            try:
                t(Path(d))
                print(f"ok {t.__name__}")
            except Exception as e:  # noqa: BLE001
                failed += 1
                print(f"FAILED {t.__name__}: {e}")
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def test_the_python_tournament_file_runs(tmp_path):
    """tournaments/python.toml: the example bot in a duplicate tournament
    against the bundled bots, in one command; the runner starts it with
    `python3` from PATH (here the interpreter running this test)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = tmp_path / "out"
    run = subprocess.run(
        [str(binary("whistle")), "tournament", "tournaments/python.toml", "--out", str(out),
         "--progress", "quiet"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "lowest-card" in run.stdout, run.stdout
    import json

    results = json.loads((out / "results.json").read_text())
    bots = {b["name"]: b for b in results["bots"]}
    assert set(bots) == {"lowest-card", "random", "first", "heuristic"}
    assert sum(bots["lowest-card"]["faults"].values()) == 0, bots["lowest-card"]
    assert (out / "report.html").is_file()


# A bot passed to run() as an instance (the kit installed in the test's
# environment), which keeps its seat from
# new_match and refuses (raises) if a request of another seat reaches it.
INSTANCE_BOT = """
from whistle_bot import Bot, run
class Mine(Bot):
    def new_match(self, welcome):
        self.seat = welcome.seat
    def choose(self, observation, legal):
        if observation.seat != self.seat:
            raise RuntimeError(f"seat {observation.seat} asked the bot of seat {self.seat}")
        return 0
run(Mine())
"""


def test_an_instance_plays_each_seat_with_its_own_copy(tmp_path):
    """run(Mine()) with a bot token (check-bot: every seat in one process):
    each seat plays its own copy, so what new_match stores stays that
    seat's, and every check passes."""
    # The kit installed in this environment, as a student's bot uses it. Run
    # by root, the sandboxed bot is an unprivileged user: its folder must be
    # open to others (pytest makes its folders 0700).
    tmp_path.chmod(0o755)
    bot = tmp_path / "instance_bot.py"
    bot.write_text(INSTANCE_BOT)
    run = subprocess.run(
        [str(binary("whistle")), "check-bot", "--games", "israeli,yogi", "--hands", "1", "--", sys.executable,
         str(bot)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr}"
    assert "FAIL" not in run.stdout, run.stdout


# A bot whose code fails on every request.
FAILING_BOT = """
import os, sys
sys.path.append(os.environ["KIT_DIR"])
from whistle_bot import run
def choose(observation, legal):
    return legal[undefined_name]
run(choose)
"""


def test_a_bot_error_is_printed_once_with_its_traceback_and_is_a_fault(tmp_path):
    """The bot's own exception: its traceback printed once, clearly; later
    ones in one line each; every such answer a fault (the referee plays its
    fallback), counted in the seat's outcome."""
    procs = Processes(tmp_path)
    try:
        address = start_referee(procs)
        table, seats = create_table(address, "honeymoon", 3, 1, "python,random")
        procs.start("python-bot", [sys.executable, "-c", FAILING_BOT, "--address", address, "--token", seats[0][0]],
                    env={"KIT_DIR": str(PYTHON_KIT)})
        token, bot_seed = seats[1]
        procs.start("whistle-bot-1", [binary("whistle-bot"), "--bot", "random", "--seed", bot_seed,
                                      "--address", address, "--token", token])
        procs.wait_all(["python-bot", "whistle-bot-1"], MATCH_TIMEOUT_S)
        err = procs.stderr("python-bot")
        status = table_status(address, table)
    finally:
        procs.close()
    assert err.count("Traceback (most recent call last)") == 1, err
    assert "YOUR BOT RAISED an exception on request" in err, err
    # The outcome named as the referee reports it: MALFORMED, the fallback
    # played at once (not a request left to expire: LATE, the bank emptied).
    assert "the kit answers without a choice, which the referee counts as a MALFORMED fault" in err, err
    assert "(a MALFORMED fault)" in err, err
    assert "fault MALFORMED on request" in err, err
    assert "fault LATE" not in err, err
    assert "NameError: name 'undefined_name' is not defined" in err, err
    assert "line 6, in choose" in err, err
    assert "your bot raised again on request" in err, err
    # Every answer a fault, up to the forfeit (10 faults by default),
    # counted in the seat's outcome.
    assert status.faults[0] == 10, status
    assert match_end_line(err)["bot_errors"] == "10", err
    assert 0 in list(status.result.forfeited), status.result


def test_check_bot_passes_the_examples():
    """`whistle check-bot`, as the README tells students to run it, passes
    both examples in every game."""
    for example in ("random_bot.py", "lowest_card_bot.py"):
        run = subprocess.run(
            [str(binary("whistle")), "check-bot", "--", sys.executable, str(EXAMPLES / example)],
            cwd=REPO, capture_output=True, text=True, timeout=300,
        )
        assert run.returncode == 0, f"{example}:\n{run.stdout}\n{run.stderr}"
        assert "FAIL" not in run.stdout, run.stdout
        assert run.stdout.rstrip().endswith("checks passed"), run.stdout
        for game in ("israeli", "honeymoon", "illustrated", "yogi", "oneonta"):
            assert f"PASS {game}: legal answers:" in run.stdout, run.stdout


def test_a_kit_bot_in_a_virtual_environment_named_by_read_plays_sandboxed(tmp_path):
    """A league's reference bot that is a kit bot in a virtual environment,
    started through a shell script (so whistle cannot guess the environment
    from the program): with `read` naming the environment it plays a whole
    round sandboxed; without it, it cannot even import the kit. Its `dir`
    and `read` are the league file's, relative to that file's folder."""
    if sys.prefix == sys.base_prefix:
        import pytest

        pytest.skip("not run from a virtual environment")
    whistle = str(binary("whistle"))
    src = tmp_path / "src"
    (src / "kit").mkdir(parents=True)
    shutil.copy(EXAMPLES / "lowest_card_bot.py", src / "kit" / "bot.py")
    (src / "kit" / "run.sh").write_text(f'#!/bin/sh\nexec "{sys.executable}" bot.py\n')
    (src / "venv").symlink_to(sys.prefix)

    def league(name: str, read: str) -> Path:
        text = f'''name = "{name}"
game = "israeli"
seed = 5
hands = 1
format = "round-robin"
parallel = 1
fill = true

[time]
per_action_ms = 5000
time_bank_ms = 30000
start_timeout_ms = 20000

[faults]
max_faults = 1

[[reference]]
name = "kit"
command = ["sh", "run.sh"]
dir = "kit"
{read}

[[reference]]
name = "first"
command = ["whistle", "bot", "--bot", "first"]

[[reference]]
name = "random"
command = ["whistle", "bot", "--bot", "random"]

[[reference]]
name = "heuristic"
command = ["whistle", "bot", "--bot", "heuristic"]
'''
        path = src / f"{name}.toml"
        path.write_text(text)
        folder = tmp_path / name
        run = subprocess.run([whistle, "league", "init", str(path), "--dir", str(folder)],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        return folder

    def play(folder: Path) -> subprocess.CompletedProcess:
        return subprocess.run([whistle, "league", "round", "--dir", str(folder)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)

    granted = league("granted", 'read = ["venv"]')
    run = play(granted)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WITHOUT a sandbox" not in run.stderr
    results = next(granted.glob("**/results.json"))
    log = results.parent / "logs" / "kit.stderr.log"
    import json

    kit = {b["name"]: b for b in json.loads(results.read_text())["bots"]}["kit"]
    assert sum(kit["faults"].values()) == 0, (kit, log.read_text() if log.exists() else "")

    refused = league("refused", "")
    run = play(refused)
    logs = "".join(p.read_text() for p in refused.glob("**/logs/kit.stderr.log"))
    # Without `read` the environment is not in the sandbox's private root at
    # all (the shell finds no interpreter), or not readable.
    assert any(
        sign in logs for sign in ("ModuleNotFoundError", "Permission denied", "No such file", "not found")
    ), logs
