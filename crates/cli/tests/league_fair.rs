//! Fair play in leagues, as real processes (docs/leagues.md): an owner sits
//! once a round (its hosted version, not also its token bot), the round
//! being played hides its stderr from its owner, a version replaced while
//! its round plays plays that round out rated (its opponents' ratings move
//! and the new version starts where the round left the old one), uploads
//! take turns by bot, one client cannot hold the site's connections, and
//! typed seeds are warned of.

mod common;

use std::{
    io::{Read, Write},
    net::TcpStream,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{
    Event, Scratch, SpawnKilled, WHISTLE, add_league_bots,
    builder_ext::{EventExt, league_head, submit},
    listening_address, serve_with_site, spawn_remote_bot, spawn_serve, stop_all, whistle_ok,
};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The league: duplicate, three hands a match, one table at a time,
/// reference bots filling the seats, a new version inheriting its bot's
/// rating; uploads bounded at `uploads_per_hour` and waiting at most
/// `queue_s` to be checked; dealt from `seed` if given.
fn league(uploads_per_hour: &str, queue_s: &str, seed: Option<&str>) -> Event {
    league_head("fair", seed, 3, "duplicate", 1, true)
        .table("time", &[("per_action_ms", "5000")])
        .table("rating", &[("new_version", "\"inherit\"")])
        .table(
            "submissions",
            &[
                ("uploads_per_hour", uploads_per_hour),
                ("check_hands", "1"),
                ("build_s", "20"),
                ("queue_s", queue_s),
            ],
        )
        .class_references()
}

/// The league of [`league`] with its usual bounds made in `s/lg`.
fn init_league(s: &Scratch) {
    league("20", "120", None).init_league(s, "league.toml", "lg");
}

/// A folder `name` in `s` holding the example Python stdio bot, which
/// writes a line to its stderr at every decision and, when `slow`, takes
/// `slow` seconds over each; `extra` goes into the manifest.
fn python_bot(s: &Scratch, name: &str, slow: f64, extra: &str) -> String {
    let dir = s.path(name);
    std::fs::create_dir_all(&dir).unwrap();
    let code = std::fs::read_to_string(root().join("bots/stdio/first_legal.py")).unwrap();
    let code = code.replace(
        "        print(choose(message[\"legal\"]), flush=True)",
        &format!(
            "        import time\n        time.sleep({slow})\n        print(\"DECIDING\", \
             message[\"legal\"], file=sys.stderr, flush=True)\n        \
             print(choose(message[\"legal\"]), flush=True)"
        ),
    );
    assert!(code.contains("DECIDING"), "the example bot changed");
    std::fs::write(dir.join("first_legal.py"), code).unwrap();
    std::fs::write(
        dir.join("whistle.toml"),
        format!(
            "command = [\"python3\", \"first_legal.py\"]\nprotocol = \"stdio\"\n\
             runtime = \"python3\"\n{extra}"
        ),
    )
    .unwrap();
    name.to_string()
}

/// The rating column of `bot`'s line in `league standings`.
/// A bot's rating (two decimals) in `league standings --json`: a version
/// that has not played yet is listed apart in the text, unranked, but keeps
/// its rating in the JSON.
fn rating(standings: &str, bot: &str) -> String {
    let rows: serde_json::Value = serde_json::from_str(standings).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == bot)
        .map(|r| format!("{:.2}", r["rating"].as_f64().unwrap()))
        .unwrap_or_else(|| panic!("no {bot} in\n{standings}"))
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn an_owner_sits_once_and_a_version_replaced_mid_round_plays_it_out_rated() {
    let s = Scratch::new("league-fair-once");
    init_league(&s);
    let token = add_league_bots(&s, "lg", &["alice"]).remove(0);
    // alice's hosted version 1 is slow (a long round); version 2 is not.
    let v1 = python_bot(&s, "v1", 0.15, "");
    let up = submit(&s, &token, &v1);
    assert!(up.stdout.contains("accepted: version 1"), "{}", up.stdout);
    let v2 = python_bot(&s, "v2", 0.0, "# version 2\n");

    let (mut serve, lines) = spawn_serve(&s, "lg", &[], &["listening on "]);
    let address = listening_address(&lines[0]);
    // alice's token bot connects by itself too: she must not hold two
    // seats of the same deals.
    let mut remote = spawn_remote_bot(&address, &token, "first");
    let round_file = s.path("lg/rounds/0001/round.toml");
    let serve_err = s.path("serve.stderr");
    let said = |what: &str| {
        std::fs::read_to_string(&serve_err)
            .unwrap_or_default()
            .contains(what)
    };
    wait_for("round 1 starts", Duration::from_secs(60), || {
        said("round 1: ")
    });
    let file = std::fs::read_to_string(&round_file).unwrap();
    assert!(file.contains("name = \"alice.v1\""), "{file}");
    assert!(!file.contains("name = \"alice\""), "{file}");

    // While the round plays, its stderr is hidden from its owner.
    let during = whistle_ok(&s, &["league", "stderr", "--token", &token, "--dir", "lg"]).stdout;
    assert!(
        during.contains("round 1 is being played: its stderr shows once the round is closed"),
        "{during}"
    );
    assert!(!during.contains("DECIDING"), "{during}");

    // Version 2 is accepted while round 1 plays: version 1 plays the round
    // out, rated.
    let up = submit(&s, &token, &v2);
    assert!(up.stdout.contains("accepted: version 2"), "{}", up.stdout);
    assert!(
        !said("round 1 done"),
        "the round ended before version 2 came"
    );
    wait_for("round 1 ends", Duration::from_secs(300), || {
        said("round 1 done")
    });
    stop_all(&mut serve, std::slice::from_mut(&mut remote));
    let log = std::fs::read_to_string(&serve_err).unwrap();
    assert!(!log.contains("alice.v1 retired"), "{log}");

    let standings = whistle_ok(&s, &["league", "standings", "--json", "--dir", "lg"]).stdout;
    let fresh = "25.00";
    for opponent in ["first", "random", "heuristic"] {
        assert_ne!(rating(&standings, opponent), fresh, "{standings}");
    }
    let old = rating(&standings, "alice.v1");
    assert_ne!(old, fresh, "{standings}");
    // The new version starts from the rating the round left the old one.
    assert_eq!(rating(&standings, "alice.v2"), old, "{standings}");

    // The round closed, its stderr shows.
    let after = whistle_ok(&s, &["league", "stderr", "--token", &token, "--dir", "lg"]).stdout;
    assert!(after.contains("== round 1, alice.v1"), "{after}");
    assert!(after.contains("DECIDING"), "{after}");
}

/// An upload whose build takes `secs` seconds.
fn slow_build(s: &Scratch, name: &str, secs: u32) -> String {
    python_bot(s, name, 0.0, &format!("build = \"sleep {secs}\"\n"))
}

#[test]
fn uploads_take_turns_by_bot() {
    let s = Scratch::new("league-fair-queue");
    init_league(&s);
    let tokens = add_league_bots(&s, "lg", &["hog", "victim"]);
    let (hog, victim) = (&tokens[0], &tokens[1]);
    let spawn = |token: &str, path: &str, out: &str| {
        Command::new(WHISTLE)
            .args(["league", "submit", path, "--token", token, "--dir", "lg"])
            .current_dir(&s.dir)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(s.path(out)).unwrap())
            .stderr(std::fs::File::create(s.path(&format!("{out}.err"))).unwrap())
            .spawn_killed()
    };
    for (i, secs) in [(1, 10), (2, 1), (3, 1)] {
        slow_build(&s, &format!("hog{i}"), secs);
    }
    python_bot(&s, "fair", 0.0, "");
    // The hog's first upload is being checked (its build runs) ...
    let mut first = spawn(hog, "hog1", "hog1.out");
    let staging = s.path("lg/submissions/.staging");
    wait_for(
        "the first upload is checked",
        Duration::from_secs(60),
        || std::fs::read_dir(&staging).is_ok_and(|mut d| d.next().is_some()),
    );
    // ... its second waits; a third is refused at once (one waits a bot).
    let mut second = spawn(hog, "hog2", "hog2.out");
    std::thread::sleep(Duration::from_millis(1500));
    let third = submit(&s, hog, "hog3");
    assert!(!third.status.success());
    assert!(
        third.stderr.contains("waiting to be checked already"),
        "{}{}",
        third.stdout,
        third.stderr
    );
    // The victim came last but goes before the hog's second upload.
    let mut fair = spawn(victim, "fair", "fair.out");
    let mut ended: Vec<&str> = Vec::new();
    let start = Instant::now();
    while ended.len() < 3 {
        assert!(start.elapsed() < Duration::from_secs(400), "uploads hang");
        for (name, child) in [
            ("hog1", &mut first),
            ("hog2", &mut second),
            ("victim", &mut fair),
        ] {
            if !ended.contains(&name) && child.try_wait().unwrap().is_some() {
                ended.push(name);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(ended, ["hog1", "victim", "hog2"]);
    for out in ["hog1.out", "fair.out", "hog2.out"] {
        let text = std::fs::read_to_string(s.path(out)).unwrap();
        assert!(text.contains("accepted: version"), "{out}: {text}");
    }
}

#[test]
fn a_queue_time_out_does_not_count_against_the_hour() {
    let s = Scratch::new("league-fair-timeout");
    league("1", "1", None).init_league(&s, "league.toml", "lg");
    let tokens = add_league_bots(&s, "lg", &["hog", "victim"]);
    slow_build(&s, "hog1", 6);
    python_bot(&s, "fair", 0.0, "");
    let first = Command::new(WHISTLE)
        .args([
            "league", "submit", "hog1", "--token", &tokens[0], "--dir", "lg",
        ])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_killed();
    let staging = s.path("lg/submissions/.staging");
    wait_for(
        "the first upload is checked",
        Duration::from_secs(60),
        || std::fs::read_dir(&staging).is_ok_and(|mut d| d.next().is_some()),
    );
    let late = submit(&s, &tokens[1], "fair");
    assert!(!late.status.success());
    assert!(
        late.stderr
            .contains("does not count against the hourly bound"),
        "{}",
        late.stderr
    );
    first.wait_with_output().unwrap();
    // The hour's one upload is still the victim's to make.
    let again = submit(&s, &tokens[1], "fair");
    assert!(
        again.stdout.contains("accepted: version 1"),
        "{}",
        again.stderr
    );
}

#[test]
fn one_client_cannot_hold_the_site() {
    let s = Scratch::new("league-fair-site");
    init_league(&s);
    let (mut serve, site) = serve_with_site(&s, "lg");
    let (host, port) = site.rsplit_once(':').unwrap();
    // One client (127.0.0.2) opens 300 connections and sends half a request
    // on each, reopening what the site closes.
    let script = r#"
import socket, sys, time
host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
socks = []
for _ in range(n):
    c = socket.socket(); c.settimeout(2)
    try:
        c.bind(("127.0.0.2", 0)); c.connect((host, port)); c.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        socks.append(c)
    except OSError:
        c.close()
print("open", len(socks), flush=True)
time.sleep(30)
"#;
    let mut attack = Command::new("python3")
        .args(["-c", script, host, port, "300"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn_killed();
    let mut said = [0u8; 64];
    let n = attack.stdout.as_mut().unwrap().read(&mut said).unwrap();
    assert!(
        String::from_utf8_lossy(&said[..n]).starts_with("open"),
        "the attack did not start"
    );
    // Every other client is served meanwhile.
    for _ in 0..6 {
        let mut c = TcpStream::connect(&site).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let _ = attack.kill();
    let _ = serve.kill();
    let _ = serve.wait();
    let log = std::fs::read_to_string(s.path("serve.stderr")).unwrap();
    assert!(
        log.contains("too many connections from one client"),
        "{log}"
    );
}

#[test]
fn typed_seeds_are_warned_of() {
    let s = Scratch::new("league-fair-seeds");
    for (i, seed) in [format!("{}1", "0".repeat(63)), "1".repeat(64)]
        .iter()
        .enumerate()
    {
        let file = common::israeli_tournament(
            &format!("name = \"t{i}\"\nhands = 1\nseed = \"{seed}\"\n"),
            &[
                ("a", "first"),
                ("b", "first"),
                ("c", "first"),
                ("d", "first"),
            ],
        );
        s.write(&format!("t{i}.toml"), &file);
        let ran = whistle_ok(
            &s,
            &["tournament", &format!("t{i}.toml"), "--progress", "quiet"],
        );
        assert!(
            ran.stderr.contains("look typed by a person"),
            "{}",
            ran.stderr
        );
        assert!(ran.stderr.contains("a hash of a word"), "{}", ran.stderr);
    }
    // A league file's too.
    let seed = format!("\"{}\"", "ab".repeat(32));
    let init = league("20", "120", Some(&seed)).init_league(&s, "league.toml", "lg");
    let said = format!("{}{}", init.stdout, init.stderr);
    assert!(said.contains("look typed by a person"), "{said}");
    // A drawn seed is not warned of.
    let file = common::israeli_tournament(
        "name = \"drawn\"\nhands = 1\n",
        &[
            ("a", "first"),
            ("b", "first"),
            ("c", "first"),
            ("d", "first"),
        ],
    );
    s.write("drawn.toml", &file);
    let ran = whistle_ok(&s, &["tournament", "drawn.toml", "--progress", "quiet"]);
    assert!(!ran.stderr.contains("typed by a person"), "{}", ran.stderr);
}
