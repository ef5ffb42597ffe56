//! whistle's own bot under the sandbox's system-call filter
//! (crates/sandbox/src/filter.rs), as real processes: `check-bot` plays it
//! sandboxed (namespaces where this machine has them) and says in its first
//! line what the sandbox refuses; under Landlock alone (as on systems
//! without user namespaces) four sandboxed `whistle bot` processes play a
//! match against a real `whistle serve` over TCP.

mod common;

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{Scratch, SpawnKilled, WHISTLE, whistle};
use whistle_sandbox::{Limits, Mode, Spec};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn check_bot_says_what_the_sandbox_refuses_and_whistles_bot_passes_under_it() {
    let Ok((mode, _)) = whistle_sandbox::probe(Path::new(WHISTLE)) else {
        eprintln!("no sandbox here: check-bot refuses, tested in check_bot.rs");
        return;
    };
    let s = Scratch::new("filter-check-bot");
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--hands",
            "2",
            "--",
            "whistle",
            "bot",
            "--bot",
            "random",
        ],
        Duration::from_secs(180),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("FAIL"), "{}", r.stdout);
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(first.contains(mode.reaches_referee()), "{first}");
    assert!(first.contains(whistle_sandbox::REFUSED_CALLS), "{first}");
    // A stdio bot is told it reaches the referee through whistle only.
    let dir = root().join("bots/stdio").display().to_string();
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--stdio",
            "--hands",
            "2",
            "--dir",
            &dir,
            "--",
            "python3",
            "first_legal.py",
        ],
        Duration::from_secs(180),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(first.contains("it may open no socket at all"), "{first}");
    assert!(!first.contains("Unix socket"), "{first}");
}

#[test]
fn whistles_bot_plays_a_match_sandboxed_by_landlock_alone_over_tcp() {
    let Ok((_, support)) = whistle_sandbox::probe(Path::new(WHISTLE)) else {
        eprintln!("no sandbox here, nothing to test");
        return;
    };
    if support.landlock_abi < 6 {
        eprintln!(
            "Landlock ABI {} here: no Landlock-only sandbox",
            support.landlock_abi
        );
        return;
    }
    let s = Scratch::new("filter-landlock-match");
    let mut serve = Command::new(WHISTLE)
        .args(["serve", "--listen", "127.0.0.1:0", "--admin-token", "adm"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn_killed();
    let mut line = String::new();
    BufReader::new(serve.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = common::listening_address(line.trim());
    let port: u16 = address.rsplit(':').next().unwrap().parse().unwrap();
    let server = format!("http://{address}");
    let table = whistle(
        &s,
        &[
            "table",
            "--server",
            &server,
            "--admin-token",
            "adm",
            "--game",
            "israeli",
            "--seed",
            "5",
            "--hands",
            "2",
            "--bots",
            "a,b,c,d",
        ],
        Duration::from_secs(30),
    );
    assert!(table.status.success(), "{}", table.stderr);
    let tokens: Vec<String> = table
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("seat "))
        .map(|l| l.split(' ').nth(1).unwrap().to_string())
        .collect();
    assert_eq!(tokens.len(), 4, "{}", table.stdout);
    let folder = PathBuf::from(WHISTLE).parent().unwrap().to_path_buf();
    let mut scratches = Vec::new();
    let mut bots = Vec::new();
    for token in &tokens {
        let scratch = tempfile::tempdir().unwrap();
        let spec = Spec {
            mode: Mode::Landlock,
            program: PathBuf::from(WHISTLE),
            args: [
                "bot",
                "--bot",
                "random",
                "--address",
                &address,
                "--token",
                token,
            ]
            .map(String::from)
            .to_vec(),
            dir: folder.clone(),
            env: vec![
                ("HOME".into(), scratch.path().display().to_string()),
                ("PATH".into(), "/usr/bin:/bin".into()),
            ],
            read: Vec::new(),
            scratch: scratch.path().to_path_buf(),
            limits: Limits::default(),
            referee_port: Some(port),
            stdio: false,
        };
        bots.push(
            spec.command(Path::new(WHISTLE))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn_killed(),
        );
        scratches.push(scratch);
    }
    let start = Instant::now();
    let mut outcomes = Vec::new();
    for mut bot in bots {
        while bot.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = bot.kill();
        let out = bot.wait_with_output().unwrap();
        outcomes.push((out.status, String::from_utf8_lossy(&out.stderr).to_string()));
    }
    let _ = serve.kill();
    let _ = serve.wait();
    for (status, stderr) in &outcomes {
        assert!(status.success(), "{status:?}: {stderr}");
    }
}
