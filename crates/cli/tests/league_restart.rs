//! A league's remote bots across restarts, with real processes: a kit bot
//! killed mid-match and started again within the grace keeps its seats; the
//! Rust kit (`whistle bot`) and the Python kit (`whistle_bot`) stay across a
//! restart of `league serve` (SIGTERM, and SIGKILL) and play the rounds of
//! the league started again, on the same address.

mod common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{Event, Killed, Scratch, SpawnKilled, WHISTLE};
use serde_json::Value;

use common::whistle_ok as ok;

/// A port free now, for a league started twice on the same address.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `league serve` on `port`, its output in `serve-N.stdout`/`.stderr`;
/// returns once it listens.
fn serve(s: &Scratch, port: u16, n: u32) -> Killed {
    let out = s.path(&format!("serve-{n}.stdout"));
    let child = Command::new(WHISTLE)
        .args([
            "league",
            "serve",
            "--dir",
            "lg",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--poll-ms",
            "200",
            "--progress",
            "quiet",
        ])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(s.path(&format!("serve-{n}.stderr"))).unwrap())
        .spawn_killed();
    until(Duration::from_secs(60), "the league listens", || {
        std::fs::read_to_string(&out).is_ok_and(|t| t.contains("listening on "))
    });
    child
}

/// A Rust kit bot (`whistle bot`) with `token`, its stderr in `FILE`.
fn rust_bot(s: &Scratch, port: u16, token: &str, file: &str) -> Killed {
    Command::new(WHISTLE)
        .args([
            "bot",
            "--bot",
            "sampler:20ms",
            "--address",
            &format!("http://127.0.0.1:{port}"),
            "--token",
            token,
        ])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(s.path(file)).unwrap())
        .spawn_killed()
}

fn until(limit: Duration, what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn standings(s: &Scratch) -> Vec<Value> {
    let r = ok(s, &["league", "standings", "--json", "--dir", "lg"]);
    serde_json::from_str::<Value>(&r.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// Matches `bot` has played, as the standings count them.
fn matches_of(s: &Scratch, bot: &str) -> u64 {
    standings(s)
        .iter()
        .find(|r| r["bot"] == bot)
        .and_then(|r| r["matches"].as_u64())
        .unwrap_or(0)
}

/// Whether some match log of round `round` has started its first deal.
fn round_playing(s: &Scratch, round: u32) -> bool {
    std::fs::read_dir(s.path(&format!("lg/rounds/{round:04}/matches")))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("\"deck\"")))
}

fn said(s: &Scratch, file: &str) -> String {
    std::fs::read_to_string(s.path(file)).unwrap_or_default()
}

fn alive(p: &mut Killed, s: &Scratch, file: &str) {
    assert!(
        p.try_wait().unwrap().is_none(),
        "the bot exited: {}",
        said(s, file)
    );
}

/// A kit bot whose process is killed (SIGKILL) in the middle of a match and
/// started again within the reconnection grace gets its seats back: the new
/// process's `Subscribe` is given the seats of the match in progress, each
/// resumes (`resumed=true`), and the match ends with no seat forfeited and
/// no `absent` fault (the bank pays for the gap).
#[test]
fn a_kit_bot_killed_mid_match_and_started_again_within_the_grace_keeps_its_seats() {
    let s = Scratch::new("league-seat-back");
    Event::new("back", "israeli")
        .and(
            "seed = 5\nhands = 4\nformat = \"round-robin\"\nparallel = 2\nfill = false\n\n\
             [time]\nper_action_ms = 20000\ntime_bank_ms = 60000\nreconnect_grace_ms = 8000\n\
             start_timeout_ms = 30000\n\n[faults]\nmax_faults = 10\n",
        )
        .write(&s, "l.toml");
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let tokens = common::add_league_bots(&s, "lg", &["b1", "b2", "b3", "b4"]);
    let port = free_port();
    let mut league = serve(&s, port, 1);
    let mut bots: Vec<Killed> = tokens
        .iter()
        .enumerate()
        .map(|(i, t)| rust_bot(&s, port, t, &format!("b{}.stderr", i + 1)))
        .collect();
    until(Duration::from_secs(90), "round 1 plays", || {
        round_playing(&s, 1)
    });
    // b1 dies mid-match; a new process with its token comes 1 s later.
    let _ = bots[0].kill();
    let _ = bots[0].wait();
    std::thread::sleep(Duration::from_secs(1));
    bots[0] = rust_bot(&s, port, &tokens[0], "b1-again.stderr");
    until(Duration::from_secs(180), "round 1 recorded", || {
        matches_of(&s, "b1") > 0
    });
    common::stop_all(&mut league, &mut bots);
    let log = said(&s, "serve-1.stderr");
    assert!(
        log.contains("seats of matches in progress given to the newer Subscribe bot=b1"),
        "{log}"
    );
    assert!(
        log.lines().any(|l| l.contains("seat connected")
            && l.contains("bot=b1 ")
            && l.contains("resumed=true")),
        "{log}"
    );
    // The league's name, and the Hello's only as what the bot says.
    assert!(
        log.lines()
            .any(|l| l.contains("seat connected") && l.contains("bot=b2 says=\"sampler:20ms\"")),
        "{log}"
    );
    let logs = s.path("lg/rounds/0001/matches");
    let mut ends = 0;
    for e in std::fs::read_dir(&logs).unwrap() {
        let text = common::read_log(&e.unwrap().path());
        assert!(!text.contains("\"absent\""), "{text}");
        if let Some(end) = text.lines().find(|l| l.contains("\"type\":\"end\"")) {
            let end: Value = serde_json::from_str(end).unwrap();
            assert_eq!(end["forfeited"].as_array().unwrap().len(), 0, "{end}");
            ends += 1;
        }
    }
    assert!(ends > 0, "no match ended");
    let again = said(&s, "b1-again.stderr");
    assert!(!again.contains("seat ended with an error"), "{again}");
}

/// The venv's python with the Python kit's dependencies, or `None` (said;
/// under CI a failure).
fn kit_python() -> Option<PathBuf> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("league-kit-venv");
    let skip = |why: String| {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{why}");
        }
        eprintln!("SKIPPED: {why}");
        None
    };
    if !venv.join("bin/python3").is_file() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .spawn()
            .map(Killed::new)
            .and_then(|mut c| c.wait());
        if !made.is_ok_and(|s| s.success()) {
            return skip("python3 -m venv".into());
        }
    }
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots/python");
    let pip = Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check"])
        .arg(kit)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map(Killed::new)
        .and_then(Killed::wait_with_output);
    if !pip.as_ref().is_ok_and(|o| o.status.success()) {
        return skip(format!("pip install ./bots/python: {pip:?}"));
    }
    Some(venv.join("bin/python3"))
}

/// Stops the league with `signal` and starts it again on the same address
/// 2 s later; the bots stay (each says once that the referee is away and
/// once that it is back) and play the next round.
fn restart_with(
    s: &Scratch,
    league: &mut Killed,
    port: u16,
    n: u32,
    signal: &str,
    bots: &mut [(Killed, String, &str)],
) -> Killed {
    let _ = Command::new("kill")
        .args([signal, &league.id().to_string()])
        .status();
    let _ = league.wait();
    // Counted once the league is down: a SIGTERM lets the hand in progress
    // (here a match's last) finish and be recorded.
    let before: Vec<u64> = bots
        .iter()
        .map(|(_, _, name)| matches_of(s, name))
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    for (p, file, _) in bots.iter_mut() {
        alive(p, s, file);
    }
    let again = serve(s, port, n);
    let outages = n as usize - 1;
    let backs = |file: &str| {
        said(s, file)
            .matches("subscribed again: the referee is back")
            .count()
    };
    for (_, file, name) in bots.iter() {
        until(
            Duration::from_secs(60),
            &format!("{name} back after the restart ({signal})"),
            || backs(file) >= outages,
        );
    }
    for (i, (_, _, name)) in bots.iter().enumerate() {
        until(
            Duration::from_secs(180),
            &format!("{name} plays a round after the restart ({signal})"),
            || matches_of(s, name) > before[i],
        );
    }
    for (p, file, _) in bots.iter_mut() {
        alive(p, s, file);
        let text = said(s, file);
        let away = text.matches("the referee is away").count();
        assert_eq!(away, outages, "one line per outage: {text}");
        assert_eq!(backs(file), outages, "one line per return: {text}");
    }
    again
}

/// Both kits stay across a restart of the league, by SIGTERM and then by
/// SIGKILL, and play on; retired, they exit.
#[test]
fn kit_bots_stay_across_a_league_restart_by_sigterm_and_by_sigkill() {
    let s = Scratch::new("league-kit-restart");
    Event::new("again", "israeli")
        .and(
            "seed = 9\nhands = 1\nformat = \"round-robin\"\nparallel = 2\nfill = false\n\n\
             [time]\nper_action_ms = 20000\ntime_bank_ms = 60000\nreconnect_grace_ms = 5000\n\
             start_timeout_ms = 30000\n",
        )
        .write(&s, "l.toml");
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let python = kit_python();
    let names = ["r1", "r2", "r3", "p1"];
    let tokens = common::add_league_bots(&s, "lg", &names);
    let port = free_port();
    let mut league = serve(&s, port, 1);
    let mut bots: Vec<(Killed, String, &str)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let file = format!("{name}.stderr");
        let p = match (&python, *name) {
            (Some(py), "p1") => Command::new(py)
                .arg(
                    Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("../../bots/python/examples/random_bot.py"),
                )
                .args([
                    "--address",
                    &format!("127.0.0.1:{port}"),
                    "--token",
                    &tokens[i],
                ])
                .current_dir(&s.dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(s.path(&file)).unwrap())
                .spawn_killed(),
            _ => rust_bot(&s, port, &tokens[i], &file),
        };
        bots.push((p, file, name));
    }
    for name in names {
        until(Duration::from_secs(120), "round 1 recorded", || {
            matches_of(&s, name) > 0
        });
    }
    league = restart_with(&s, &mut league, port, 2, "-TERM", &mut bots);
    league = restart_with(&s, &mut league, port, 3, "-KILL", &mut bots);
    // Retired: the bot is done, and exits.
    ok(&s, &["league", "retire-bot", "r1", "--dir", "lg"]);
    let start = Instant::now();
    let status = loop {
        if let Some(st) = bots[0].0.try_wait().unwrap() {
            break st;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the retired bot goes on: {}",
            said(&s, "r1.stderr")
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status.code(), Some(3), "{}", said(&s, "r1.stderr"));
    let mut rest: Vec<Killed> = bots.drain(1..).map(|(p, _, _)| p).collect();
    common::stop_all(&mut league, &mut rest);
}
