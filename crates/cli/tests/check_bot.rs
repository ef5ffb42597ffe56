//! `whistle check-bot`: real bot processes, good and bad, through every check.

mod common;

use std::time::Duration;

use common::{Scratch, WHISTLE, builder_ext::SLOW_STARTER, whistle};

fn lines(text: &str, verdict: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with(verdict))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_good_bot_passes_every_check_of_every_game() {
    let s = Scratch::new("check-bot-good");
    let r = whistle(
        &s,
        &["check-bot", "--", "whistle", "bot", "--bot", "heuristic"],
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(lines(&r.stdout, "FAIL").is_empty(), "{}", r.stdout);
    let pass = lines(&r.stdout, "PASS");
    for game in ["israeli", "honeymoon", "illustrated", "yogi", "oneonta"] {
        for check in ["hello", "answers in time", "legal answers"] {
            assert!(
                pass.iter()
                    .any(|l| l.starts_with(&format!("PASS {game}: {check}:"))),
                "{game} {check}:\n{}",
                r.stdout
            );
        }
    }
    for check in ["subscribe", "israeli: reconnect", "exit"] {
        assert!(
            pass.iter()
                .any(|l| l.starts_with(&format!("PASS {check}:"))),
            "{check}:\n{}",
            r.stdout
        );
    }
    assert!(
        r.stdout.contains("decisions by phase: auction"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.ends_with("checks passed\n"), "{}", r.stdout);
}

/// Under a clock shorter than a reconnection the decision seat 0 misses
/// while the checker has cut its stream is the checker's doing: no
/// "connection" FAIL for it (Yogi's: five seats, simultaneous bid cards).
#[test]
fn the_cut_stream_is_not_held_against_the_bot_under_a_short_clock() {
    let s = Scratch::new("check-bot-short-clock");
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--games",
            "yogi",
            "--per-action-ms",
            "60",
            "--time-bank-ms",
            "0",
            "--",
            "whistle",
            "bot",
            "--bot",
            "heuristic",
        ],
        Duration::from_secs(120),
    );
    let pass = lines(&r.stdout, "PASS");
    assert!(
        pass.iter().any(|l| l.starts_with("PASS yogi: reconnect:")),
        "{}",
        r.stdout
    );
    assert!(
        !r.stdout.contains("FAIL yogi: connection"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn a_bot_that_crashes_fails_with_the_reason_and_its_stderr() {
    let s = Scratch::new("check-bot-crash");
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--games",
            "israeli",
            "--",
            "whistle",
            "bot",
            "--bot",
            "heuristic",
            "--crash-after",
            "5",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    let fail = lines(&r.stdout, "FAIL");
    assert!(
        fail.iter()
            .any(|l| l.starts_with("FAIL israeli: connection:") && l.contains("absent")),
        "{}",
        r.stdout
    );
    assert!(
        fail.iter()
            .any(|l| l.starts_with("FAIL exit:") && l.contains("exited with status")),
        "{}",
        r.stdout
    );
    // The bot's last stderr lines are under every FAIL.
    assert!(
        r.stdout
            .contains("\n    | whistle bot: --crash-after 5: exiting abruptly as asked\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("checks failed"), "{}", r.stdout);
}

#[test]
fn a_bot_that_never_exits_or_never_starts_fails() {
    let s = Scratch::new("check-bot-stuck");
    // Plays its seats, then lingers after its Subscribe stream has ended.
    let script = format!("{WHISTLE} bot --bot first; sleep 30");
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--games",
            "honeymoon",
            "--",
            "sh",
            "-c",
            &script,
        ],
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(
        lines(&r.stdout, "FAIL")
            .iter()
            .any(|l| l.starts_with("FAIL exit:") && l.contains("still running")),
        "{}",
        r.stdout
    );
    assert!(
        lines(&r.stdout, "PASS")
            .iter()
            .any(|l| l.starts_with("PASS honeymoon: legal answers:")),
        "{}",
        r.stdout
    );

    let r = whistle(
        &s,
        &["check-bot", "--", "./no-such-bot"],
        Duration::from_secs(60),
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(
        r.stdout.starts_with("FAIL start: cannot start"),
        "{}",
        r.stdout
    );

    // Exits at once without ever subscribing.
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--",
            "sh",
            "-c",
            "echo no protocol here >&2; exit 3",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(
        // (After the line that says how the bot is sandboxed.)
        r.stdout
            .lines()
            .any(|l| l.starts_with("FAIL subscribe: the process exited"))
            && r.stdout.contains("no protocol here"),
        "{}",
        r.stdout
    );

    // Bad arguments are a usage error.
    let r = whistle(
        &s,
        &["check-bot", "--games", "bridge", "--", "whistle", "bot"],
        Duration::from_secs(60),
    );
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
}

/// A stdio bot that answers every request after `delay` seconds (the first
/// legal action), writing one line to stderr as it starts.
const SLOW_STDIO: &str = r#"import json, sys, time
delay = float(sys.argv[1])
print("slow bot starting", file=sys.stderr, flush=True)
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "request":
        time.sleep(delay)
        print(0, flush=True)
"#;

/// A healthy stdio bot that takes 0.3 s a decision under a 500 ms clock
/// and no bank passes: in Yogi's simultaneous bid cards its five seats'
/// requests wait in the bot one behind another, and that waiting is not
/// held against it (before, the fourth and fifth were `late`).
#[test]
fn a_slow_but_healthy_stdio_bot_passes_the_clock() {
    let s = Scratch::new("check-bot-slow-stdio");
    s.write("slow.py", SLOW_STDIO);
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--stdio",
            "--games",
            "yogi",
            "--hands",
            "1",
            "--per-action-ms",
            "500",
            "--time-bank-ms",
            "0",
            "--",
            "python3",
            "slow.py",
            "0.3",
        ],
        Duration::from_secs(300),
    );
    let pass = lines(&r.stdout, "PASS");
    assert!(
        pass.iter()
            .any(|l| l.starts_with("PASS yogi: answers in time:")),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    assert!(
        lines(&r.stdout, "FAIL").is_empty(),
        "{}\n{}",
        r.stdout,
        r.stderr
    );

    // The same bot at 0.7 s a decision is late, and the line says so.
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--stdio",
            "--games",
            "honeymoon",
            "--hands",
            "1",
            "--per-action-ms",
            "500",
            "--time-bank-ms",
            "0",
            "--",
            "python3",
            "slow.py",
            "0.7",
        ],
        Duration::from_secs(300),
    );
    assert!(
        lines(&r.stdout, "FAIL")
            .iter()
            .any(|l| l.starts_with("FAIL honeymoon: answers in time:")),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    // The bot's stderr shows under the FAIL.
    assert!(r.stdout.contains("    | slow bot starting"), "{}", r.stdout);
}

/// A stdio bot that crashes as it starts gets no PASS for the seats the
/// bridge opened for it: it fails at once, with its stderr shown.
#[test]
fn a_stdio_bot_that_crashes_at_start_gets_no_pass() {
    let s = Scratch::new("check-bot-stdio-crash");
    s.write(
        "crash.py",
        "import sys\nprint('Traceback: NameError: name foo is not defined', file=sys.stderr)\nsys.exit(1)\n",
    );
    let r = whistle(
        &s,
        &["check-bot", "--stdio", "--", "python3", "crash.py"],
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    let pass = lines(&r.stdout, "PASS");
    assert!(
        pass.iter().all(|l| l.starts_with("PASS sandbox:")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("FAIL subscribe: the process exited")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("| Traceback: NameError"), "{}", r.stdout);
}

/// A stdio bot that prints its debugging output on stdout (a student's
/// first mistake): each such line is read as an answer. The FAILs say so,
/// and where its output belongs, without echoing the line itself.
#[test]
fn a_stdio_bot_that_prints_debugging_on_stdout_is_told_to_use_stderr() {
    let s = Scratch::new("check-bot-stdout-debug");
    s.write(
        "chatty.py",
        "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    \
         if m['type'] == 'request':\n        print('my cards:', m['observation']['hand'])\n        \
         print(0, flush=True)\n",
    );
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--stdio",
            "--games",
            "israeli",
            "--",
            "python3",
            "chatty.py",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    let fails = lines(&r.stdout, "FAIL");
    for check in ["israeli: legal answers:", "israeli: protocol:"] {
        assert!(
            fails.iter().any(|l| l.contains(check)
                && l.contains("read as an answer")
                && l.contains("to stderr")),
            "{check}\n{}",
            r.stdout
        );
    }
    // The stray line is the bot's: never echoed.
    assert!(!r.stdout.contains("my cards"), "{}", r.stdout);
}

/// Under a FAIL are the stderr lines the bot wrote up to that check, not
/// those of the games checked after it: a bot that fails in Honeymoon and
/// then writes plenty in Israeli shows its Honeymoon lines there (where a
/// kit prints an exception's traceback, once, the first time).
#[test]
fn the_stderr_under_a_fail_is_the_bots_up_to_that_check() {
    let s = Scratch::new("check-bot-stderr-per-game");
    s.write(
        "moody.py",
        "import json, sys\n\
         game = None\n\
         for line in sys.stdin:\n    \
             m = json.loads(line)\n    \
             if m['type'] == 'welcome':\n        game = m.get('game')\n    \
             if m['type'] != 'request':\n        continue\n    \
             print(f'{game}: asked', file=sys.stderr, flush=True)\n    \
             print('nonsense' if game == 'honeymoon' else 0, flush=True)\n",
    );
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--stdio",
            "--games",
            "honeymoon,israeli",
            "--",
            "python3",
            "moody.py",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    // The israeli lines came last, and many: the tail at the end of the run
    // holds nothing else.
    let failed = r
        .stdout
        .split("FAIL honeymoon: legal answers:")
        .nth(1)
        .unwrap_or_else(|| panic!("honeymoon fails:\n{}", r.stdout));
    let tail: Vec<&str> = failed
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .collect();
    assert!(
        tail.iter().any(|l| l.contains("| honeymoon: asked")),
        "{tail:?}\n{}",
        r.stdout
    );
    assert!(
        !tail.iter().any(|l| l.contains("israeli")),
        "{tail:?}\n{}",
        r.stdout
    );
}

/// A stdio bot run without `--stdio`: it prints JSON lines (or exits as
/// its closed stdin ends) and never subscribes; the FAIL says to use
/// `--stdio`.
#[test]
fn a_stdio_bot_without_the_flag_is_told_to_use_it() {
    let s = Scratch::new("check-bot-no-flag");
    s.write(
        "chatty.py",
        "import json, sys, time\nprint(json.dumps({'hello': 'I speak JSON'}), flush=True)\ntime.sleep(30)\n",
    );
    let r = whistle(
        &s,
        &["check-bot", "--", "python3", "chatty.py"],
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.lines().any(|l| l.starts_with("FAIL subscribe:")
            && l.contains("printed JSON lines")
            && l.contains("--stdio")),
        "{}",
        r.stdout
    );
    // The example stdio bot exits as soon as its stdin (closed) ends.
    let example = format!(
        "{}/../../bots/stdio/first_legal.py",
        env!("CARGO_MANIFEST_DIR")
    );
    s.write("first_legal.py", &std::fs::read_to_string(example).unwrap());
    let r = whistle(
        &s,
        &["check-bot", "--", "python3", "first_legal.py"],
        Duration::from_secs(120),
    );
    assert!(
        r.stdout.lines().any(|l| l.starts_with("FAIL subscribe:")
            && l.contains("exited at once")
            && l.contains("--stdio")),
        "{}",
        r.stdout
    );
}

/// The check asks every kind of decision the options can open (Yogi's
/// size, count and vote under a second option set) and says which kinds
/// were asked.
#[test]
fn the_decision_kinds_asked_are_reported() {
    let s = Scratch::new("check-bot-kinds");
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--games",
            "yogi",
            "--hands",
            "1",
            "--",
            "whistle",
            "bot",
            "--bot",
            "random",
        ],
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let kinds = r
        .stdout
        .lines()
        .find(|l| l.starts_with("PASS yogi: decision kinds: asked:"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    for k in ["place", "size", "count", "vote", "play", "no"] {
        assert!(kinds.contains(k), "{k}: {kinds}");
    }
}

/// A stdio bot that always passes (the first legal action where a pass is
/// one), else plays its first legal card; `broken` makes its card play
/// answer a card it does not hold.
const PASSER: &str = r#"import json, sys
broken = len(sys.argv) > 1
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") != "request":
        continue
    legal = m["legal"]
    if "pass" in legal:
        print(legal.index("pass"), flush=True)
    elif broken and m["observation"]["phase"] == "PHASE_PLAY":
        held = set(m["observation"]["hand"])
        print([c for c in ("2C", "3C", "4C", "2D", "3D") if c not in held][0], flush=True)
    else:
        print(0, flush=True)
"#;

/// An Israeli bot that always passes never leaves the auction with itself
/// in every seat (frisch after frisch, then a misdeal): check-bot seats it
/// with opponents who open the auction, so its contract bid and its card
/// play are checked too. Its play broken, it fails.
#[test]
fn a_bot_that_always_passes_has_its_card_play_checked() {
    let s = Scratch::new("check-bot-passer");
    s.write("passer.py", PASSER);
    let args = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut a = vec![
            "check-bot",
            "--stdio",
            "--games",
            "israeli",
            "--",
            "python3",
            "passer.py",
        ];
        a.extend_from_slice(extra);
        a
    };
    let r = whistle(&s, &args(&[]), Duration::from_secs(300));
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let mixed = r
        .stdout
        .lines()
        .find(|l| {
            l.starts_with("PASS israeli against opponents who open the auction: legal answers:")
        })
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(mixed.contains("play 13"), "{mixed}");
    let kinds = r
        .stdout
        .lines()
        .find(|l| l.starts_with("PASS israeli: decision kinds:"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(kinds.contains("(every kind the game has)"), "{kinds}");

    // Its card play broken (a card it does not hold): the mixed table's
    // play fails, where the bot alone at the table never played a card.
    let r = whistle(&s, &args(&["broken"]), Duration::from_secs(300));
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.lines().any(|l| l
            .starts_with("FAIL israeli against opponents who open the auction: legal answers:")
            && l.contains("illegal")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("PASS israeli: legal answers:")),
        "{}",
        r.stdout
    );
}

/// Kinds only others' calls or the bot's own earlier choice lead to are
/// asked of the heuristic bot, which never doubles nor reveals: Illustrated's
/// redouble (opponents who double its declaring partner, L4) and Yogi's
/// leader (a hand begun with its seat revealed, Y6).
#[test]
fn the_heuristic_bot_is_asked_redouble_and_leader() {
    let s = Scratch::new("check-bot-every-kind");
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--games",
            "illustrated,yogi",
            "--hands",
            "1",
            "--",
            "whistle",
            "bot",
            "--bot",
            "heuristic",
        ],
        Duration::from_secs(300),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    for (game, kind) in [("illustrated", "redouble"), ("yogi", "leader")] {
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("PASS {game}: decision kinds: asked:")))
            .unwrap_or_else(|| panic!("{game}:\n{}", r.stdout));
        assert!(line.contains(kind), "{line}");
        assert!(line.contains("(every kind the game has)"), "{line}");
    }
    assert!(
        r.stdout
            .contains("PASS yogi from a hand where its seat 1 revealed: legal answers:")
            && r.stdout.contains("action kinds answered: leader"),
        "{}",
        r.stdout
    );
}

/// A stdio bot's start-up is off the clock: 2 s of it under a 500 ms clock
/// and no bank passes "answers in time" (whistle subscribes for it once it
/// reads its stdin); a slow later decision still fails it.
#[test]
fn a_slow_start_passes_the_clock_a_slow_decision_does_not() {
    let s = Scratch::new("check-bot-slow-start");
    s.write("starter.py", SLOW_STARTER);
    let run = |slow_at: &str| {
        whistle(
            &s,
            &[
                "check-bot",
                "--stdio",
                "--games",
                "honeymoon",
                "--hands",
                "1",
                "--per-action-ms",
                "500",
                "--time-bank-ms",
                "0",
                "--",
                "python3",
                "starter.py",
                slow_at,
            ],
            Duration::from_secs(300),
        )
    };
    let r = run("0");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        lines(&r.stdout, "PASS")
            .iter()
            .any(|l| l.starts_with("PASS honeymoon: answers in time:")),
        "{}",
        r.stdout
    );
    let r = run("6");
    assert!(
        lines(&r.stdout, "FAIL")
            .iter()
            .any(|l| l.starts_with("FAIL honeymoon: answers in time:")),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
}
