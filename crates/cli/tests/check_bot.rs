//! `whistle check-bot`: real bot processes, good and bad, through every check.

mod common;

use std::time::Duration;

use common::{Scratch, WHISTLE, whistle};

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
            .any(|l| l.starts_with("FAIL exit:") && l.contains("exiting abruptly")),
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
