//! Bots on stdin and stdout (docs/stdio.md), as real processes: the example
//! bots of bots/stdio pass `check-bot --stdio` and play the tournament of
//! tournaments/stdio.toml; stdio bots that print garbage, print nothing,
//! print a 10 MB line or close their stdout get the outcomes a gRPC bot
//! would.

mod common;

use std::{path::Path, process::Command, time::Duration};

use common::{
    Event, Scratch,
    builder_ext::{EventExt, SLOW_STARTER},
    whistle, whistle_ok,
};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Whether `program` runs here (`--version` succeeds).
fn present(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn fails(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("FAIL")).collect()
}

#[test]
fn every_example_bot_passes_check_bot_where_its_runtime_is_present() {
    let s = Scratch::new("stdio-examples");
    let dir = root().join("bots/stdio");
    let dir_s = dir.display().to_string();
    let c = "cc -O2 -o \"$TMPDIR/random_legal\" random_legal.c && exec \"$TMPDIR/random_legal\"";
    let examples: [(&str, Vec<&str>); 4] = [
        ("python3", vec!["python3", "first_legal.py"]),
        ("node", vec!["node", "highest_card.js"]),
        ("java", vec!["java", "PassFirst.java"]),
        ("cc", vec!["sh", "-c", c]),
    ];
    let mut ran = 0;
    for (runtime, command) in examples {
        if !present(runtime) {
            eprintln!("SKIPPED: {runtime} is not on this machine: its example bot is not checked");
            continue;
        }
        let mut args = vec![
            "check-bot",
            "--stdio",
            "--hands",
            "2",
            "--dir",
            &dir_s,
            "--",
        ];
        args.extend(&command);
        let r = whistle(&s, &args, Duration::from_secs(300));
        assert!(
            r.status.success() && fails(&r.stdout).is_empty(),
            "{runtime}:\n{}\n{}",
            r.stdout,
            r.stderr
        );
        assert!(r.stdout.contains("PASS exit:"), "{}", r.stdout);
        ran += 1;
    }
    assert!(ran >= 1, "python3 at least is always present");
}

#[test]
fn the_stdio_tournament_plays_every_example_against_the_bundled_bots() {
    if let Some(missing) = ["python3", "node", "java", "cc"]
        .into_iter()
        .find(|p| !present(p))
    {
        eprintln!("SKIPPED: {missing} is not on this machine: tournaments/stdio.toml needs it");
        return;
    }
    let s = Scratch::new("stdio-tournament");
    let file = root().join("tournaments/stdio.toml");
    let out = s.path("out");
    let r = whistle(
        &s,
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(600),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let standings = std::fs::read_to_string(out.join("standings.md")).unwrap();
    for bot in [
        "py-lowest",
        "js-highest",
        "java-pass",
        "c-random",
        "heuristic",
        "random",
    ] {
        assert!(standings.contains(bot), "{bot} missing:\n{standings}");
    }
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let text = results.to_string();
    assert!(!text.contains("out of the event"), "{text}");
    // Every stdio bot played without a fault.
    assert!(
        r.stdout
            .lines()
            .filter(|l| l.contains("-lowest")
                || l.contains("-highest")
                || l.contains("-pass")
                || l.contains("c-random"))
            .all(|l| !l.contains("forfeit")),
        "{}",
        r.stdout
    );
}

/// `check-bot --stdio` of one Israeli hand under a short clock, with the
/// script `body` (Python) as the bot.
fn hostile(s: &Scratch, name: &str, body: &str) -> common::Ran {
    let script = s.write(&format!("{name}.py"), body);
    whistle(
        s,
        &[
            "check-bot",
            "--stdio",
            "--games",
            "israeli",
            "--hands",
            "1",
            "--per-action-ms",
            "300",
            "--time-bank-ms",
            "0",
            "--",
            "python3",
            script.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    )
}

#[test]
fn garbage_is_malformed_silence_is_late_a_huge_line_is_never_echoed_and_closing_stdout_is_absence()
{
    let s = Scratch::new("stdio-hostile");
    let garbage = hostile(
        &s,
        "garbage",
        "import sys\nfor l in sys.stdin:\n    if l.startswith('{\"type\":\"request\"'):\n        print('garbage', flush=True)\n",
    );
    assert!(
        fails(&garbage.stdout)
            .iter()
            .any(|l| l.contains("malformed") && l.contains("cannot parse action `garbage`")),
        "{}",
        garbage.stdout
    );
    let silent = hostile(&s, "silent", "import sys\nfor l in sys.stdin:\n    pass\n");
    assert!(
        fails(&silent.stdout)
            .iter()
            .any(|l| l.contains("answers in time") && l.contains("late")),
        "{}",
        silent.stdout
    );
    let huge = hostile(
        &s,
        "huge",
        "import sys\nfor l in sys.stdin:\n    if l.startswith('{\"type\":\"request\"'):\n        sys.stdout.write('x' * 10_000_000 + '\\n'); sys.stdout.flush()\n",
    );
    assert!(
        fails(&huge.stdout)
            .iter()
            .any(|l| l.contains("malformed") && l.contains("[a line of 10000000 bytes]")),
        "{}",
        huge.stdout
    );
    assert!(
        huge.stdout.len() < 10_000,
        "the line was echoed: {} bytes",
        huge.stdout.len()
    );
    assert!(!huge.stdout.contains("xxxxxxxxxx"), "{}", huge.stdout);
    let closes = hostile(
        &s,
        "closes",
        "import os, sys\nos.close(1)\nfor l in sys.stdin:\n    pass\n",
    );
    // Its seats are disconnected (absent); a bot that then ends before it
    // answered anything fails check-bot's subscribe instead (no PASS after
    // the bot died).
    assert!(
        fails(&closes.stdout)
            .iter()
            .any(|l| (l.contains("absent") && l.contains("disconnected"))
                || l.contains("exited before it answered")),
        "{}",
        closes.stdout
    );
    // Each ended its seats with a verdict and exited when its stdin closed.
    for r in [&garbage, &silent, &huge, &closes] {
        assert!(r.stdout.contains("checks failed"), "{}", r.stdout);
    }
}

#[test]
fn a_stdio_bot_has_no_token_and_no_network() {
    let s = Scratch::new("stdio-contract");
    // Answers the first legal action only if it sees no token or address
    // and cannot reach a loopback port (refused would mean it reached the
    // host's loopback); else it answers `leak`, a malformed answer.
    let script = s.write(
        "spy.py",
        "import os, socket, sys\n\
         env = {k for k in os.environ if k.startswith('WHISTLE_')}\n\
         try:\n    socket.create_connection(('127.0.0.1', 9), timeout=1); net = 'open'\n\
         except ConnectionRefusedError:\n    net = 'reached'\n\
         except OSError:\n    net = 'none'\n\
         ok = env <= {'WHISTLE_STDIO', 'WHISTLE_BOT_NAME'} and os.environ.get('WHISTLE_STDIO') == '1' and net == 'none'\n\
         sys.stderr.write(f'env={sorted(env)} net={net}\\n')\n\
         for l in sys.stdin:\n    if l.startswith('{\"type\":\"request\"'):\n        print(0 if ok else 'leak', flush=True)\n",
    );
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--stdio",
            "--games",
            "honeymoon",
            "--hands",
            "1",
            "--",
            "python3",
            script.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert!(fails(&r.stdout).is_empty(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("PASS honeymoon: legal answers"),
        "{}",
        r.stdout
    );
}

/// The keys `schema` requires of the definition `def`.
fn required(schema: &serde_json::Value, def: &str) -> Vec<String> {
    schema["$defs"][def]["required"]
        .as_array()
        .unwrap_or_else(|| panic!("no required keys for {def}"))
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect()
}

/// Every line a stdio bot is sent, in every game, has the form
/// docs/stdio.schema.json gives it: `type` first, its required keys, and a
/// request's whole observation.
#[test]
fn every_line_has_the_form_the_schema_gives() {
    let s = Scratch::new("stdio-schema");
    let log = s.path("lines.txt");
    let script = s.write(
        "tee.py",
        &format!(
            "import sys\nout = open({:?}, 'a')\nfor l in sys.stdin:\n    out.write(l); out.flush()\n    if l.startswith('{{\"type\":\"request\"'):\n        print(0, flush=True)\n",
            log.display().to_string()
        ),
    );
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--stdio",
            "--no-sandbox",
            "--hands",
            "1",
            "--",
            "python3",
            script.to_str().unwrap(),
        ],
        Duration::from_secs(300),
    );
    assert!(fails(&r.stdout).is_empty(), "{}\n{}", r.stdout, r.stderr);
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/stdio.schema.json")).unwrap(),
    )
    .unwrap();
    let lines = std::fs::read_to_string(&log).unwrap();
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for line in lines.lines() {
        assert!(line.starts_with("{\"type\":\""), "{line}");
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = v["type"].as_str().unwrap().to_string();
        for key in required(&schema, &kind) {
            assert!(v.get(&key).is_some(), "{kind} without {key}: {line}");
        }
        if kind == "request" {
            for key in required(&schema, "observation") {
                assert!(
                    v["observation"].get(&key).is_some(),
                    "observation without {key}: {line}"
                );
            }
            let legal = v["legal"].as_array().unwrap();
            assert!(!legal.is_empty() && legal.iter().all(|a| a.is_string()));
        }
        if kind == "fault" {
            let kinds = schema["$defs"]["fault"]["properties"]["kind"]["enum"]
                .as_array()
                .unwrap();
            assert!(kinds.contains(&v["kind"]), "{line}");
        }
        *kinds.entry(kind).or_default() += 1;
    }
    for kind in ["welcome", "request", "event", "match_end"] {
        assert!(kinds.contains_key(kind), "no {kind} line in {kinds:?}");
    }
    // One `start` line, the first.
    assert_eq!(kinds.get("start"), Some(&1), "{kinds:?}");
    assert!(lines.starts_with("{\"type\":\"start\""), "{lines}");
}

/// A bot on `@grpc/grpc-js`, written from the .proto alone, connects with
/// `WHISTLE_ADDRESS` exactly as the launch contract gives it: `unix:PATH`
/// in a namespace sandbox, `host:port` without one (where node and npm are
/// present and npm can fetch the packages).
#[test]
fn a_grpc_js_bot_takes_the_launch_contracts_address_as_it_is() {
    if !present("node") || !present("npm") {
        eprintln!("SKIPPED: node or npm is not on this machine: the grpc-js bot is not checked");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grpc-js-bot");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["bot.js", "package.json"] {
        std::fs::copy(root().join("tests/grpc-js").join(file), dir.join(file)).unwrap();
    }
    std::fs::copy(
        root().join("proto/whistle/v1/whistle.proto"),
        dir.join("whistle.proto"),
    )
    .unwrap();
    if !dir.join("node_modules/@grpc/grpc-js").is_dir() {
        let npm = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent"])
            .current_dir(&dir)
            .output()
            .unwrap();
        if !npm.status.success() {
            eprintln!(
                "SKIPPED: npm could not install @grpc/grpc-js: {}",
                String::from_utf8_lossy(&npm.stderr)
            );
            return;
        }
    }
    let s = Scratch::new("grpc-js");
    let bot = dir.join("bot.js");
    for sandbox in [true, false] {
        let mut args = vec!["check-bot", "--games", "israeli,oneonta", "--hands", "1"];
        if !sandbox {
            args.push("--no-sandbox");
        }
        args.extend(["--", "node", bot.to_str().unwrap()]);
        let r = whistle(&s, &args, Duration::from_secs(300));
        assert!(
            r.status.success() && fails(&r.stdout).is_empty(),
            "sandbox {sandbox}:\n{}\n{}",
            r.stdout,
            r.stderr
        );
        assert!(r.stdout.contains("PASS israeli: reconnect"), "{}", r.stdout);
        if sandbox {
            assert!(
                r.stdout.contains("Unix socket") || r.stdout.contains("Landlock"),
                "{}",
                r.stdout
            );
        }
    }
}

/// A stdio bot's start-up is off the clock (docs/stdio.md): under 500 ms a
/// decision and no bank, a bot that takes 2 s to start gets no `late`
/// fault in a real tournament (whistle subscribes for it once it reads its
/// stdin); one slow on a later decision still does.
#[test]
fn a_slow_start_is_off_the_clock_a_slow_decision_is_not() {
    let s = Scratch::new("stdio-slow-start");
    std::fs::create_dir_all(s.path("starter")).unwrap();
    s.write("starter/starter.py", SLOW_STARTER);
    let late = |slow_at: &str| -> u64 {
        let out = s.path(&format!("out-{slow_at}"));
        Event::with(
            "name = \"slow-start\"\ngame = \"honeymoon\"\nseed = 3\nhands = 1\n\
             format = \"round-robin\"\nparallel = 1\n\n[time]\nper_action_ms = 500\n\
             time_bank_ms = 0\n",
        )
        .command_with(
            "starter",
            &["python3", "starter.py", slow_at],
            &format!("stdio = true\ndir = \"{}\"\n", s.path("starter").display()),
        )
        .bundled("h", "heuristic")
        .write(&s, "t.toml");
        whistle_ok(
            &s,
            &[
                "tournament",
                s.path("t.toml").to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--progress",
                "quiet",
            ],
        );
        let results: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap())
                .unwrap();
        let bot = results["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == "starter")
            .unwrap()
            .clone();
        assert!(bot["matches"].as_u64().unwrap() > 0, "{bot}");
        bot["faults"]["late"].as_u64().unwrap_or(0)
    };
    assert_eq!(late("0"), 0, "a slow start was late");
    assert!(late("4") > 0, "a slow fourth decision was not late");
}

/// A stdio bot that reads its stdin (answering each request with the first
/// legal action) only half a second after a match of the output folder
/// `argv[1]` is over.
const READS_WHEN_OVER: &str = r#"import glob, sys, time
def over():
    for p in glob.glob(sys.argv[1] + '/matches/*'):
        if '{"type":"end"' in open(p).read():
            return True
    return False
while not over():
    time.sleep(0.05)
time.sleep(0.5)
for line in sys.stdin:
    if line.startswith('{"type":"request"'):
        print(0, flush=True)
"#;

/// A stdio bot that begins reading its stdin only once its event's one
/// match is over: whistle's bridge then subscribes for it with a token the
/// finished event has let go. That is the ordinary end of a slow starter,
/// said at the info level, not an unknown token warned of (a token the
/// referee never knew still is: tests/e2e's service tests).
#[test]
fn a_stdio_bot_that_reads_once_its_event_is_over_is_not_warned_of() {
    let s = Scratch::new("stdio-read-after-end");
    std::fs::create_dir_all(s.path("late")).unwrap();
    s.write("late/bot.py", READS_WHEN_OVER);
    let out = s.path("out");
    let out_s = out.display().to_string();
    Event::new("late", "honeymoon")
        .keys(&[("seed", "3"), ("hands", "1")])
        .and("\n")
        .table(
            "time",
            &[
                ("per_action_ms", "500"),
                ("time_bank_ms", "0"),
                ("start_timeout_ms", "300"),
            ],
        )
        .command_with(
            "late",
            &["python3", "bot.py", &out_s],
            &format!(
                "stdio = true\nsandbox = false\ndir = \"{}\"\n",
                s.path("late").display()
            ),
        )
        .bundled("h", "first")
        .write(&s, "t.toml");
    let r = whistle(
        &s,
        &[
            "tournament",
            s.path("t.toml").to_str().unwrap(),
            "--out",
            &out_s,
            "--progress",
            "quiet",
            "--log",
            "warn,whistle::detail=off,whistle_referee=info,whistle_tournament::stdio=info",
        ],
        Duration::from_secs(120),
    );
    assert!(r.status.code().is_some(), "{}", r.stderr);
    // The path taken: the bridge subscribed after the event let the token go.
    assert!(
        r.stderr
            .contains("stdio bridge: the event ended before the bot began reading"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("subscribe refused: the bot's event is over"),
        "{}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("subscribe refused: unknown token"),
        "{}",
        r.stderr
    );
}
