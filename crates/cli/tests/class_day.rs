//! What a class day showed: a league's standings list the bots that never
//! played apart, a round says who sits out, `serve --every` paces rounds,
//! check-bot's verdicts on a bot that answers nothing, and a stdio bot slower
//! to start than its tables is absent from them, never late.

mod common;

use std::time::{Duration, Instant};

use common::{
    Event, Scratch,
    builder_ext::{EventExt, league_head},
    whistle, whistle_ok as ok,
};
use serde_json::Value;

/// A league of five bots the league starts (tables of four, no reference
/// bots to fill a second table: one sits out each round) and one student's
/// token bot that never connects.
fn class_league(s: &Scratch) {
    league_head("class", Some("11"), 1, "round-robin", 2, false)
        .calm()
        .init_league(s, "class.toml", "lg");
    for b in ["b1", "b2", "b3", "b4", "b5"] {
        ok(
            s,
            &[
                "league", "add-bot", b, "--dir", "lg", "--", "whistle", "bot", "--bot", "first",
            ],
        );
    }
    common::add_league_bots(s, "lg", &["alice"]);
}

/// `whistle league serve --dir lg --listen 127.0.0.1:0 EXTRA...` in `s`,
/// given `limit`.
fn serve(s: &Scratch, extra: &[&str], limit: Duration) -> common::Ran {
    let mut args = vec!["league", "serve", "--dir", "lg", "--listen", "127.0.0.1:0"];
    args.extend(extra);
    whistle(s, &args, limit)
}

#[test]
fn a_served_league_paces_its_rounds_says_who_sits_out_and_ranks_only_bots_that_played() {
    let s = Scratch::new("class-league");
    class_league(&s);
    let r = serve(&s, &["--every", "5"], Duration::from_secs(60));
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("give a unit"), "{}", r.stderr);

    let begun = Instant::now();
    let r = serve(
        &s,
        &[
            "--poll-ms",
            "200",
            "--rounds",
            "2",
            "--every",
            "12s",
            "--progress",
            "quiet",
        ],
        Duration::from_secs(300),
    );
    let took = begun.elapsed();
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("2 round(s) played"), "{}", r.stdout);
    // The second round started no sooner than 12 s after the first.
    assert!(
        took >= Duration::from_secs(12),
        "two rounds in {took:?} with --every 12s"
    );
    // Five bots, tables of four, no fill: one sits out, and it is said.
    assert!(
        r.stderr.contains("round 1: ") && r.stderr.contains("sits out this round"),
        "{}",
        r.stderr
    );
    let notes = std::fs::read_to_string(s.path("lg/rounds/0001/notes.txt")).unwrap();
    assert!(
        notes.contains("sits out this round: 1 bot(s) left over for a table of 4 seats"),
        "{notes}"
    );
    assert!(notes.contains("`fill = true`"), "{notes}");

    // alice never connected: listed apart, unranked, after every bot that
    // played; the bots that played are numbered from 1.
    let text = ok(&s, &["league", "standings", "--dir", "lg"]).stdout;
    let idle = text
        .lines()
        .find(|l| l.starts_with("did not play"))
        .unwrap_or_else(|| panic!("no did-not-play line:\n{text}"));
    assert!(idle.ends_with(": alice"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.split_whitespace().nth(1) == Some("alice")),
        "alice ranked:\n{text}"
    );
    let rows: Value =
        serde_json::from_str(&ok(&s, &["league", "standings", "--json", "--dir", "lg"]).stdout)
            .unwrap();
    let rows = rows.as_array().unwrap();
    let played: Vec<bool> = rows.iter().map(|r| r["played"] == true).collect();
    assert_eq!(played.iter().filter(|p| !**p).count(), 1, "{rows:?}");
    assert!(
        played.windows(2).all(|w| w[0] || !w[1]),
        "a bot that did not play above one that did: {rows:?}"
    );
    let alice = rows.iter().find(|r| r["bot"] == "alice").unwrap();
    assert_eq!(alice["played"], false, "{alice}");
    assert_eq!(alice["matches"], 0, "{alice}");
}

/// `check-bot --stdio` of one Honeymoon hand under a short clock, with the
/// shell loop `body` reading each line as `$l` as the bot.
fn check_sh(s: &Scratch, body: &str) -> common::Ran {
    whistle(
        s,
        &[
            "check-bot",
            "--stdio",
            "--games",
            "honeymoon",
            "--hands",
            "1",
            "--per-action-ms",
            "200",
            "--time-bank-ms",
            "0",
            "--",
            "sh",
            "-c",
            &format!("while IFS= read -r l; do {body}; done"),
        ],
        Duration::from_secs(180),
    )
}

#[test]
fn check_bot_passes_no_bot_that_answered_nothing_and_says_the_clock_a_late_one_had() {
    let s = Scratch::new("class-check");
    // Garbage: every answer malformed, none late, none answered.
    let r = check_sh(
        &s,
        r#"case "$l" in *'"request"'*) echo "the answer is 42!";; esac"#,
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(
        !r.stdout.contains("PASS honeymoon: answers in time"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("FAIL honeymoon: answers in time: it answered no decision"),
        "{}",
        r.stdout
    );
    // Silence: late, under the clock it was held to; no empty list of
    // decisions by phase.
    let r = check_sh(&s, ":");
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    let late = r
        .stdout
        .lines()
        .find(|l| l.starts_with("FAIL honeymoon: answers in time:"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(late.contains("late (first: seat"), "{late}");
    assert!(
        late.contains("its clock: 200 ms a decision and a 0 ms bank a seat, times the 2 seats"),
        "{late}"
    );
    assert!(!r.stdout.contains("decisions by phase: ;"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("FAIL honeymoon: legal answers: it answered no decision"),
        "{}",
        r.stdout
    );
}

/// A stdio bot that begins reading only after 38 s, longer than the
/// bridge's 30 s start wait and than its tables' start timeout, in an event
/// that plays on past that: the seats of the tables that started without it
/// are absent; none is `late` (whistle never subscribed for it, so no
/// requests piled up for a bot that was not reading).
#[test]
fn a_stdio_bot_slower_to_start_than_its_tables_is_absent_from_them_not_late() {
    let s = Scratch::new("class-slow-start");
    std::fs::create_dir_all(s.path("sleeper")).unwrap();
    s.write(
        "sleeper/bot.py",
        "import sys, time\ntime.sleep(38)\nfor line in sys.stdin:\n    \
         if line.startswith('{\"type\":\"request\"'):\n        print(0, flush=True)\n",
    );
    Event::new("sleeper", "honeymoon")
        .keys(&[
            ("seed", "3"),
            ("hands", "1"),
            ("rounds", "10"),
            ("format", "\"round-robin\""),
            ("parallel", "1"),
        ])
        .and("\n")
        .table(
            "time",
            &[
                ("per_action_ms", "500"),
                ("time_bank_ms", "0"),
                ("start_timeout_ms", "1000"),
                ("reconnect_grace_ms", "500"),
            ],
        )
        .command_with(
            "sleeper",
            &["python3", "bot.py"],
            &format!("stdio = true\ndir = \"{}\"\n", s.path("sleeper").display()),
        )
        // An opponent that thinks 100 ms a decision: the matches one after the
        // other last past the sleeper's 38 s, so that tables start while it has
        // not read yet (before and after the 30 s start wait) and after it has.
        .bundled("h", "sampler:100ms")
        .write(&s, "t.toml");
    let out = s.path("out");
    let r = whistle(
        &s,
        &[
            "tournament",
            s.path("t.toml").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--progress",
            "quiet",
        ],
        Duration::from_secs(240),
    );
    assert!(r.status.code().is_some(), "{}", r.stderr);
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let bot = results["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "sleeper")
        .unwrap()
        .clone();
    assert_eq!(bot["faults"]["late"].as_u64().unwrap_or(0), 0, "{bot}");
    assert!(bot["faults"]["absent"].as_u64().unwrap_or(0) > 0, "{bot}");
    // It played the tables seated once it read: not every match forfeited.
    assert!(
        bot["forfeits"].as_u64().unwrap() < bot["matches"].as_u64().unwrap(),
        "{bot}"
    );
    // One warning that it had not read yet; no line of dropped requests.
    assert_eq!(
        r.stderr
            .matches("has not read its stdin after 30 s")
            .count(),
        1,
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("too slow to take"), "{}", r.stderr);
}
