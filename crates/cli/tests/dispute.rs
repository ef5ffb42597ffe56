//! A student settles a dispute alone (item: "the dispute"): a stdio bot
//! that sends a card that does not follow suit plays a real tournament;
//! `replay show --hand --step --seat --stdio` prints byte for byte the
//! `request` line the bot read, the card it sent, the referee's refusal
//! with its reason and the fallback played, and the viewer's link; and
//! `replay rerun` plays the disputed hand again with the student's own
//! stdio bot.

mod common;

use std::time::Duration;

use common::{Event, Scratch, whistle, whistle_ok};

/// A stdio bot that records every line it reads (in `seen.jsonl`, in its
/// folder: it runs unsandboxed in this test) and, in the play, sends a
/// card of its hand that may not be played when it has one (a refusal:
/// must follow suit), else the first legal action.
const STUBBORN: &str = r#"import json, sys
seen = open("seen.jsonl", "a")
for line in sys.stdin:
    seen.write(line)
    seen.flush()
    m = json.loads(line)
    if m.get("type") != "request":
        continue
    obs = m["observation"]
    wrong = [c for c in obs.get("hand", []) if c not in m["legal"]]
    if obs.get("phase") == "PHASE_PLAY" and wrong:
        print(wrong[0], flush=True)
    else:
        print(0, flush=True)
"#;

fn tournament(s: &Scratch) -> std::path::PathBuf {
    s.write("stubborn.py", STUBBORN);
    Event::with(
        r#"name = "dispute"
game = "israeli"
seed = 11
hands = 1
format = "round-robin"
parallel = 1

[time]
per_action_ms = 20000

[faults]
max_faults = 100
"#,
    )
    .command_with(
        "stubborn",
        &["python3", "stubborn.py"],
        &format!(
            "stdio = true\nsandbox = false\ndir = \"{}\"\n",
            s.dir.display()
        ),
    )
    .bundled("h1", "heuristic")
    .bundled("h2", "heuristic")
    .bundled("h3", "heuristic")
    .write(s, "t.toml")
}

/// Plays the tournament file `t` into `out/` and returns the first match's
/// log.
fn play(s: &Scratch, t: &std::path::Path) -> std::path::PathBuf {
    let out = s.path("out");
    whistle_ok(
        s,
        &[
            "tournament",
            t.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--progress",
            "quiet",
        ],
    );
    out.join("matches/m00000.jsonl")
}

#[test]
fn show_prints_what_the_seat_was_sent_what_it_sent_and_the_verdict() {
    let s = Scratch::new("dispute-show");
    let log_path = play(&s, &tournament(&s));
    // The first refused answer of the stubborn seat in the first match.
    let log = std::fs::read_to_string(&log_path).unwrap();
    let header: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let seat = header["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n == "stubborn")
        .unwrap();
    let (deal, fault) = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "hand")
        .find_map(|h| {
            h["faults"].as_array().and_then(|fs| {
                fs.iter()
                    .find(|f| f["seat"] == seat && f["kind"] == "illegal")
                    .map(|f| (h["deal"].as_u64().unwrap(), f.clone()))
            })
        })
        .expect("the stubborn bot was refused at least once");
    let step = fault["at"].as_u64().unwrap().to_string();
    let sent_card = fault["answer"]["text"].as_str().unwrap().to_string();
    let r = whistle_ok(
        &s,
        &[
            "replay",
            "show",
            log_path.to_str().unwrap(),
            "--hand",
            &deal.to_string(),
            "--step",
            &step,
            "--seat",
            &seat.to_string(),
            "--stdio",
        ],
    );
    // The request line, exactly as the bot read it.
    let shown = r
        .stdout
        .lines()
        .find(|l| l.starts_with("{\"type\":\"request\""))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    let seen = std::fs::read_to_string(s.path("seen.jsonl")).unwrap();
    assert!(
        seen.lines().any(|l| l == shown),
        "the line shown is not one the bot read:\n{shown}\n--- the bot read ---\n{}",
        seen.lines()
            .filter(|l| l.contains("\"request\""))
            .take(3)
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The answer and the verdict with its reason, and the fallback.
    assert!(
        r.stdout.contains(&format!(
            "sent `{sent_card}`: refused (illegal): `{sent_card}`: must follow suit"
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("the referee played its fallback `"),
        "{}",
        r.stdout
    );
    // With the rule's id and its page.
    assert!(
        r.stdout.contains(", rule I5 (docs/rules/israeli.md#i5)"),
        "{}",
        r.stdout
    );
    // The viewer's link to the same step.
    assert!(
        r.stdout.contains(&format!(
            "viewer/m00000.html#hand={deal}&step={step}&seat={seat}"
        )),
        "{}",
        r.stdout
    );

    // Without --stdio, the same request in the gRPC JSON form.
    let r = whistle_ok(
        &s,
        &[
            "replay",
            "show",
            log_path.to_str().unwrap(),
            "--hand",
            &deal.to_string(),
            "--step",
            &step,
            "--seat",
            &seat.to_string(),
            "--json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let line: serde_json::Value = serde_json::from_str(shown).unwrap();
    assert_eq!(
        doc["sent"]["observation"], line["observation"],
        "{}",
        r.stdout
    );
    // (proto3's JSON mapping writes a 64-bit number as a string.)
    assert_eq!(
        doc["sent"]["request_id"].as_str().unwrap(),
        line["request_id"].to_string()
    );
    assert_eq!(doc["protocol"], "grpc");
}

#[test]
fn rerun_plays_the_disputed_hand_with_a_stdio_bot() {
    let s = Scratch::new("dispute-rerun");
    let log_path = play(&s, &tournament(&s));
    let log = std::fs::read_to_string(&log_path).unwrap();
    let header: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    // The student's bot in its own seat, the heuristic in the others.
    let bots: Vec<&str> = header["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| if n == "stubborn" { "cmd" } else { "heuristic" })
        .collect();
    let _ = std::fs::remove_file(s.path("seen.jsonl"));
    let r = whistle(
        &s,
        &[
            "replay",
            "rerun",
            log_path.to_str().unwrap(),
            "--hand",
            "0",
            "--bots",
            &bots.join(","),
            "--stdio",
            "--no-sandbox",
            "--",
            "python3",
            "stubborn.py",
        ],
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    // The student's bot played: it read requests again, and its refusals
    // are shown.
    let seen = std::fs::read_to_string(s.path("seen.jsonl")).unwrap_or_default();
    assert!(
        seen.contains("\"type\":\"request\""),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    assert!(
        r.stdout.contains("fault in the rerun: seat") && r.stdout.contains("illegal"),
        "{}",
        r.stdout
    );

    // Sandboxed (the default), the same bot plays too; it cannot write its
    // record in its folder there, which it reports on stderr, shown.
    let r = whistle(
        &s,
        &[
            "replay",
            "rerun",
            log_path.to_str().unwrap(),
            "--hand",
            "0",
            "--bots",
            &bots.join(","),
            "--stdio",
            "--",
            "python3",
            "stubborn.py",
        ],
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("the cmd bot's stderr ends:"),
        "{}",
        r.stdout
    );
}

/// `replay rerun` with a gRPC bot command, sandboxed as in a tournament:
/// the heuristic bot's process, in every seat, makes every decision of a
/// hand the heuristic played again.
#[test]
fn rerun_plays_a_hand_with_a_grpc_bot_command_sandboxed() {
    let s = Scratch::new("dispute-rerun-grpc");
    let t = ["h0", "h1", "h2", "h3"].iter().fold(
        Event::new("again", "israeli")
            .and("seed = 11\nhands = 2\nformat = \"round-robin\"\nparallel = 1\n"),
        |e, name| e.bundled(name, "heuristic"),
    );
    let log_path = play(&s, &t.write(&s, "t.toml"));
    let r = whistle(
        &s,
        &[
            "replay",
            "rerun",
            log_path.to_str().unwrap(),
            "--hand",
            "1",
            "--bots",
            "cmd",
            "--",
            "whistle",
            "bot",
            "--bot",
            "heuristic",
        ],
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("every decision of the log was made again"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    // A command given with no seat to play it is a usage error.
    let r = whistle(
        &s,
        &[
            "replay",
            "rerun",
            log_path.to_str().unwrap(),
            "--hand",
            "1",
            "--",
            "whistle",
            "bot",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(r.status.code(), Some(2), "{}\n{}", r.stdout, r.stderr);
}
