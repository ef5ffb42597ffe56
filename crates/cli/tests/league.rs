//! End-to-end tests of `whistle league`: the real binary, real bot
//! processes started by the tournament runner, a real SQLite store in a
//! scratch league folder, and SIGKILL at random points of a round.

mod common;

use std::{
    process::{Command, Stdio},
    time::Duration,
};

use common::{Event, Killed, Scratch, SpawnKilled, WHISTLE, builder_ext, whistle};
use serde_json::Value;

use common::whistle_ok as ok;

/// Runs `whistle ARGS`, expecting a usage error (exit 2) whose message holds
/// `says`.
fn refused(s: &Scratch, args: &[&str], says: &str) {
    let r = whistle(s, args, Duration::from_secs(60));
    assert_eq!(
        r.status.code(),
        Some(2),
        "`whistle {}`: {}",
        args.join(" "),
        r.stderr
    );
    assert!(
        r.stderr.contains(says),
        "`whistle {}`: {}",
        args.join(" "),
        r.stderr
    );
}

/// The head of a league file: `name`, Israeli Whist, `seed` (none: the
/// league draws its own), `hands` hands a match, tables of `format`, two
/// at once, reference bots filling every seat or not (`fill`); its clocks
/// and bots follow.
fn league_head(name: &str, seed: Option<u64>, hands: u32, format: &str, fill: bool) -> Event {
    let seed = seed.map(|n| n.to_string());
    builder_ext::league_head(name, seed.as_deref(), hands, format, 2, fill)
}

/// A league file: Israeli Whist, seed 11, `hands` hands a match, duplicate
/// tables, generous clocks (nothing may fault for being slow), and
/// reference bots `(name, bot args)`.
fn league_file(name: &str, hands: u32, fill: bool, bots: &[(&str, &[&str])]) -> String {
    bots.iter()
        .fold(
            league_head(name, Some(11), hands, "duplicate", fill).calm(),
            |e, (bot, args)| e.reference_bot(bot, args),
        )
        .text()
        .to_string()
}

/// A league file of remote bots only, one match a table.
fn round_robin_league(name: &str, hands: u32) -> String {
    league_head(name, Some(11), hands, "round-robin", false)
        .calm()
        .text()
        .to_string()
}

/// A league file of four bundled reference bots that fill every seat,
/// dealt from `seed` (none: the league draws its own).
fn four_reference_bots(name: &str, seed: Option<u64>, hands: u32) -> String {
    league_head(name, seed, hands, "duplicate", true)
        .calm()
        .reference_bot("r1", &["--bot", "first"])
        .reference_bot("r2", &["--bot", "heuristic"])
        .reference_bot("r3", &["--bot", "random"])
        .reference_bot("r4", &["--bot", "first"])
        .text()
        .to_string()
}

fn standings(s: &Scratch, dir: &str) -> Vec<Value> {
    let r = ok(s, &["league", "standings", "--json", "--dir", dir]);
    serde_json::from_str::<Value>(&r.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn row<'a>(rows: &'a [Value], bot: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["bot"] == bot)
        .unwrap_or_else(|| panic!("no {bot} in {rows:?}"))
}

#[test]
fn a_league_adds_bots_plays_rounds_keeps_ratings_and_imports_once() {
    let s = Scratch::new("league-life");
    let file = league_file(
        "life",
        2,
        true,
        &[
            ("first", &["--bot", "first"]),
            ("heuristic", &["--bot", "heuristic"]),
            ("random", &["--bot", "random", "--seed", "3"]),
            ("heuristic-2", &["--bot", "heuristic"]),
        ],
    );
    s.write("life.toml", &file);
    let init = ok(&s, &["league", "init", "life.toml", "--dir", "lg"]);
    assert!(
        init.stdout.contains("4 reference bot(s)"),
        "{}",
        init.stdout
    );
    refused(
        &s,
        &["league", "init", "life.toml", "--dir", "lg"],
        "already holds a league",
    );
    refused(
        &s,
        &["league", "standings", "--dir", "nowhere"],
        "holds no league",
    );

    // A bot's token is printed once; neither the store nor its journal
    // holds it.
    let added = ok(
        &s,
        &[
            "league", "add-bot", "student", "--dir", "lg", "--", "whistle", "bot", "--bot", "first",
        ],
    );
    let token = added
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("token (shown once; the league keeps only its hash): "))
        .expect("the token line")
        .to_string();
    refused(
        &s,
        &["league", "add-bot", "student", "--dir", "lg"],
        "already in the league",
    );
    refused(
        &s,
        &["league", "add-bot", "bad/name", "--dir", "lg"],
        "bot name",
    );

    let round = ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    assert!(
        round
            .stdout
            .starts_with("round 1: 8 match(es) at 2 table(s)"),
        "{}",
        round.stdout
    );
    for f in ["league.db", "league.db-wal"] {
        let bytes = std::fs::read(s.path("lg").join(f)).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(&token), "{f} holds the token");
    }
    let after1 = standings(&s, "lg");
    assert_eq!(after1.len(), 5);
    for r in &after1 {
        for key in [
            "bot",
            "rating",
            "uncertainty",
            "matches",
            "interval",
            "faults",
        ] {
            assert!(r.get(key).is_some(), "no {key} in {r}");
        }
        assert!(
            r["matches"].as_u64().unwrap() >= 4,
            "every bot played a table: {r}"
        );
        assert!(
            r["uncertainty"].as_f64().unwrap() < 8.33,
            "played, so less uncertain: {r}"
        );
    }
    // Sorted by rating.
    let ratings: Vec<f64> = after1
        .iter()
        .map(|r| r["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");

    // History: the start, then one update per match played.
    let h = ok(
        &s,
        &["league", "history", "student", "--json", "--dir", "lg"],
    );
    let h: Vec<Value> = serde_json::from_str(&h.stdout).unwrap();
    let played = row(&after1, "student")["matches"].as_u64().unwrap();
    assert_eq!(h.len() as u64, 1 + played);
    assert!(h[0]["match"].is_null());
    assert!(h[1]["match"].as_str().unwrap().starts_with("life-r0001#"));
    assert_eq!(
        h.last().unwrap()["rating"],
        row(&after1, "student")["rating"],
        "the rating is the last of the history"
    );
    refused(
        &s,
        &["league", "history", "nobody", "--dir", "lg"],
        "no bot named",
    );

    // A retired bot keeps its record and sits out later rounds.
    ok(&s, &["league", "retire-bot", "student", "--dir", "lg"]);
    ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    let after2 = standings(&s, "lg");
    assert_eq!(
        row(&after2, "student")["matches"],
        row(&after1, "student")["matches"]
    );
    assert_eq!(row(&after2, "student")["retired"], true);
    assert!(row(&after2, "first")["matches"].as_u64() > row(&after1, "first")["matches"].as_u64());

    // A new version inherits the old one's rating (the file's default).
    let v2 = ok(
        &s,
        &[
            "league",
            "add-bot",
            "student-2",
            "--replaces",
            "student",
            "--dir",
            "lg",
            "--",
            "whistle",
            "bot",
            "--bot",
            "first",
        ],
    );
    let old = row(&after2, "student")["rating"].as_f64().unwrap();
    assert!(
        v2.stdout.contains(&format!("rating {old:.2}")),
        "{} vs {old}",
        v2.stdout
    );
    // History says which version replaced which.
    let h = ok(&s, &["league", "history", "student", "--dir", "lg"]);
    assert!(h.stdout.contains("(replaced by student-2)"), "{}", h.stdout);
    let h = ok(&s, &["league", "history", "student-2", "--dir", "lg"]);
    assert!(
        h.stdout.contains("(a new version of student)"),
        "{}",
        h.stdout
    );
    // A version has one successor; a reference bot is the file's.
    refused(
        &s,
        &[
            "league",
            "add-bot",
            "student-3",
            "--replaces",
            "student",
            "--dir",
            "lg",
        ],
        "replaced by `student-2` already",
    );
    refused(
        &s,
        &[
            "league",
            "add-bot",
            "first-2",
            "--replaces",
            "first",
            "--dir",
            "lg",
        ],
        "is a reference bot",
    );

    // A finished tournament imports exactly once.
    let t = common::israeli_tournament(
        "name = \"cup\"\nseed = 5\nhands = 2\n",
        &[
            ("first", "first"),
            ("heuristic", "heuristic"),
            ("guest", "first"),
            ("guest-2", "heuristic"),
        ],
    );
    s.write("cup.toml", &t);
    ok(
        &s,
        &[
            "tournament",
            "cup.toml",
            "--out",
            "cup",
            "--progress",
            "quiet",
        ],
    );
    let first = ok(&s, &["league", "import", "cup", "--dir", "lg"]);
    assert!(
        first.stdout.starts_with("4 match(es) recorded, 0 already"),
        "{}",
        first.stdout
    );
    let imported = standings(&s, "lg");
    let again = ok(&s, &["league", "import", "cup", "--dir", "lg"]);
    assert!(
        again.stdout.starts_with("0 match(es) recorded, 4 already"),
        "{}",
        again.stdout
    );
    assert_eq!(
        standings(&s, "lg"),
        imported,
        "a second import changes nothing"
    );
    assert_eq!(row(&imported, "guest")["matches"], 4);
    refused(
        &s,
        &["league", "import", "nowhere", "--dir", "lg"],
        "nowhere",
    );
}

/// A league of deterministic bots (`first` and `heuristic` choose the same
/// way whenever asked), so a round played with interruptions must end
/// exactly as one played straight through.
fn steady_league(s: &Scratch, dir: &str) {
    let file = league_file(
        "steady",
        3,
        false,
        &[
            ("first-a", &["--bot", "first"]),
            ("first-b", &["--bot", "first"]),
            ("first-c", &["--bot", "first"]),
            ("heuristic-a", &["--bot", "heuristic"]),
            ("heuristic-b", &["--bot", "heuristic"]),
            ("heuristic-c", &["--bot", "heuristic"]),
            ("heuristic-d", &["--bot", "heuristic"]),
            ("first-d", &["--bot", "first"]),
        ],
    );
    s.write("steady.toml", &file);
    ok(s, &["league", "init", "steady.toml", "--dir", dir]);
}

/// What must not depend on interruptions.
fn settled(rows: &[Value]) -> Vec<Value> {
    rows.iter()
        .map(|r| {
            serde_json::json!({
                "bot": r["bot"], "rating": r["rating"], "uncertainty": r["uncertainty"],
                "matches": r["matches"], "hands": r["hands"],
                "points_per_hand": r["points_per_hand"], "faults": r["faults"],
            })
        })
        .collect()
}

#[test]
fn sigkill_at_random_points_loses_nothing_and_counts_nothing_twice() {
    let s = Scratch::new("league-kill");
    steady_league(&s, "calm");
    steady_league(&s, "killed");
    for _ in 0..2 {
        ok(
            &s,
            &["league", "round", "--dir", "calm", "--progress", "quiet"],
        );
    }
    let expected = settled(&standings(&s, "calm"));

    // Kill each round several times at pseudo-random moments (a fixed
    // sequence, so a failure repeats), then let it finish. Whether a round
    // is closed is read from the store: a kill may land after the round
    // closed and before the process exited, and another `league round`
    // would then start the next round.
    let finished = || {
        let store = whistle_league::store::Store::open(&s.path("killed/league.db")).unwrap();
        let (open, started) = store.rounds().unwrap();
        started - u64::from(open.is_some())
    };
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut kills = 0;
    for round in 1..=2 {
        let mut closed = false;
        for _ in 0..4 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let wait = Duration::from_millis(40 + x % 900);
            let mut child = Command::new(WHISTLE)
                .args(["league", "round", "--dir", "killed", "--progress", "quiet"])
                .current_dir(&s.dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn_killed();
            std::thread::sleep(wait);
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap(); // SIGKILL
                kills += 1;
                let _ = child.wait();
            } else {
                child.wait().unwrap();
            }
            if finished() >= round {
                // It finished the round before the kill came.
                closed = true;
                break;
            }
        }
        // Play on until the round is closed.
        for _ in 0..5 {
            if closed || finished() >= round {
                closed = true;
                break;
            }
            let r = whistle(
                &s,
                &["league", "round", "--dir", "killed", "--progress", "quiet"],
                Duration::from_secs(120),
            );
            if r.status.success() {
                closed = true;
                break;
            }
            assert_eq!(r.status.code(), Some(75), "round {round}: {}", r.stderr);
        }
        assert!(closed, "round {round} never closed");
    }
    assert!(kills > 0, "no round was killed; the waits are too long");
    let got = settled(&standings(&s, "killed"));
    assert_eq!(got, expected, "killed {kills} times");
    // And the rounds played are the same two.
    let dirs = |d: &str| {
        let mut v: Vec<String> = std::fs::read_dir(s.path(d).join("rounds"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(dirs("killed"), dirs("calm"));
}

/// A CA and a server certificate for `localhost` signed by it, as PEM
/// files in `s`: (ca.pem, cert.pem, key.pem).
fn certificates(s: &Scratch) -> (String, String, String) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "whistle test league CA");
    let ca_key = KeyPair::generate().unwrap();
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let server = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = server.signed_by(&key, &issuer).unwrap();
    s.write("ca.pem", &ca_cert.pem());
    s.write("cert.pem", &cert.pem());
    s.write("key.pem", &key.serialize_pem());
    ("ca.pem".into(), "cert.pem".into(), "key.pem".into())
}

/// Waits (at most `limit`) until `done(standings)` holds.
fn wait_for(s: &Scratch, dir: &str, limit: Duration, what: &str, done: impl Fn(&[Value]) -> bool) {
    let start = std::time::Instant::now();
    loop {
        if done(&standings(s, dir)) {
            return;
        }
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_served_league_seats_bots_that_connect_by_token_over_tls() {
    let s = Scratch::new("league-serve");
    let (ca, cert, key) = certificates(&s);
    // Short clocks: a bot that vanishes forfeits quickly.
    league_head("served", Some(11), 1, "round-robin", true)
        .and(
            "[time]\nper_action_ms = 3000\ntime_bank_ms = 10000\nreconnect_grace_ms = 300\n\
             start_timeout_ms = 3000\n",
        )
        .reference_bot("filler", &["--bot", "first"])
        .reference_bot("filler-2", &["--bot", "heuristic"])
        .write(&s, "served.toml");
    ok(&s, &["league", "init", "served.toml", "--dir", "lg"]);
    let tokens = common::add_league_bots(&s, "lg", &["b1", "b2", "b3", "b4", "b5", "b6"]);
    let (mut serve, lines) = common::spawn_serve(
        &s,
        "lg",
        &["--tls-cert", &cert, "--tls-key", &key],
        &["listening on "],
    );
    let listening = lines[0].clone();
    assert!(listening.ends_with(" tls"), "{listening}");
    let port = listening
        .split_whitespace()
        .nth(2)
        .unwrap()
        .rsplit(':')
        .next()
        .unwrap()
        .to_string();
    let address = format!("https://localhost:{port}");
    let bot = |i: usize| {
        let kind = if i % 2 == 0 { "heuristic" } else { "first" };
        Command::new(WHISTLE)
            .args([
                "bot",
                "--bot",
                kind,
                "--address",
                &address,
                "--token",
                &tokens[i - 1],
            ])
            .env("WHISTLE_CA", s.path(&ca))
            .current_dir(&s.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(
                std::fs::File::create(s.path(&format!("b{i}.{}.stderr", std::process::id())))
                    .unwrap(),
            )
            .spawn_killed()
    };
    let mut bots: Vec<_> = (1..=5).map(|i| Some(bot(i))).collect();
    let played = |rows: &[Value], b: &str| row(rows, b)["matches"].as_u64().unwrap();
    wait_for(&s, "lg", Duration::from_secs(60), "round 1", |r| {
        played(r, "b1") > 0
    });

    // b5 vanishes; b6 joins late.
    let mut b5 = bots[4].take().unwrap();
    b5.kill().unwrap();
    let _ = b5.wait();
    let b5_before = played(&standings(&s, "lg"), "b5");
    let mut b6 = bot(6);
    wait_for(&s, "lg", Duration::from_secs(60), "b6 to play", |r| {
        played(r, "b6") > 0
    });
    // b5 comes back and is seated again.
    bots[4] = Some(bot(5));
    wait_for(&s, "lg", Duration::from_secs(60), "b5 to play again", |r| {
        played(r, "b5") > b5_before
    });

    // Retired, b6's token is refused from then on.
    ok(&s, &["league", "retire-bot", "b6", "--dir", "lg"]);
    std::thread::sleep(Duration::from_millis(600));
    let ca_path = s.path(&ca);
    let again = common::whistle_with_ca(
        &s,
        &[
            "bot",
            "--bot",
            "first",
            "--address",
            &address,
            "--token",
            &tokens[5],
        ],
        Some(&ca_path),
    );
    assert!(!again.status.success());
    let said = String::from_utf8_lossy(&again.stderr);
    // Refused by the store at once, or once the league has looked.
    assert!(
        said.contains("unknown token") || said.contains("the bot is retired"),
        "{said}"
    );
    // A league bot's token is not the admin token.
    let admin = common::whistle_with_ca(
        &s,
        &[
            "retire-bot",
            "b1",
            "--server",
            &address,
            "--admin-token",
            &tokens[0],
        ],
        Some(&ca_path),
    );
    assert!(!admin.status.success(), "a bot token called Admin");
    // Without the league's CA the certificate is not trusted.
    let untrusted = common::whistle_with_ca(
        &s,
        &[
            "bot",
            "--bot",
            "first",
            "--address",
            &address,
            "--token",
            &tokens[0],
        ],
        None,
    );
    assert!(!untrusted.status.success());

    // SIGTERM stops the league: the round in progress drains, exit 0.
    let term = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(st) = serve.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = serve.kill();
            panic!(
                "serve did not stop: {}",
                std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        status.success(),
        "{}",
        std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
    );
    for b in bots.iter_mut().flatten() {
        let _ = b.kill();
        let _ = b.wait();
    }
    let _ = b6.kill();
    let _ = b6.wait();
    let rows = standings(&s, "lg");
    assert_eq!(row(&rows, "b6")["retired"], true);
    for i in 1..=5 {
        assert!(
            played(&rows, &format!("b{i}")) > 0,
            "b{i} never played: {rows:?}"
        );
    }
    // The store has no token whole.
    let db = std::fs::read(s.path("lg/league.db")).unwrap();
    let wal = std::fs::read(s.path("lg/league.db-wal")).unwrap_or_default();
    for t in &tokens {
        assert!(!String::from_utf8_lossy(&db).contains(t.as_str()));
        assert!(!String::from_utf8_lossy(&wal).contains(t.as_str()));
    }
    let logged = std::fs::read_to_string(s.path("serve.stderr")).unwrap();
    for t in &tokens {
        assert!(!logged.contains(t.as_str()), "a token in the serve log");
    }
    assert!(
        logged.contains("refused"),
        "the refused token is logged: {logged}"
    );
}

#[test]
fn half_sent_requests_to_the_site_neither_take_it_down_nor_the_bots_port() {
    use std::io::{Read, Write};
    let s = Scratch::new("league-idle");
    let file = round_robin_league("idle", 1);
    s.write("idle.toml", &file);
    ok(&s, &["league", "init", "idle.toml", "--dir", "lg"]);
    let tokens = common::add_league_bots(&s, "lg", &["b1", "b2", "b3", "b4"]);
    // 512 descriptors, as the attack was tried.
    let (mut serve, lines) = common::spawn_serve_limited(
        &s,
        "lg",
        &["--http", "127.0.0.1:0"],
        &["listening on ", "site on "],
        Some(512),
    );
    let grpc = common::listening_address(&lines[0]);
    let site = common::site_address(&lines[1]);
    // 600 requests that never finish their headers.
    let mut idle = Vec::new();
    for _ in 0..600 {
        let Ok(mut c) = std::net::TcpStream::connect(&site) else {
            continue;
        };
        let _ = c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n");
        idle.push(c);
    }
    let flooded = std::time::Instant::now();
    // The bots still connect and play.
    let mut bots: Vec<_> = tokens
        .iter()
        .map(|t| common::spawn_remote_bot(&grpc, t, "first"))
        .collect();
    wait_for(&s, "lg", Duration::from_secs(60), "a match", |rows| {
        rows.iter().any(|r| r["matches"].as_u64() > Some(0))
    });
    // Every half-sent request is closed within the header timeout.
    for c in &mut idle {
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut buf = [0u8; 512];
        loop {
            match c.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!("a half-sent request was held: {e}"),
            }
        }
    }
    assert!(flooded.elapsed() < Duration::from_secs(40));
    drop(idle);
    // And the site answers again.
    let mut c = std::net::TcpStream::connect(&site).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut page = String::new();
    let _ = c.read_to_string(&mut page);
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    common::stop_all(&mut serve, &mut bots);
    let log = std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default();
    assert!(!log.contains("Too many open files"), "{log}");
}

#[test]
fn import_counts_only_verified_logs_of_the_leagues_game_and_rates_no_retired_bot() {
    let s = Scratch::new("league-import-checks");
    s.write("l.toml", &league_file("checked", 1, false, &[]));
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    ok(&s, &["league", "add-bot", "gone", "--dir", "lg"]);
    ok(&s, &["league", "retire-bot", "gone", "--dir", "lg"]);
    let play = |name: &str, head: &str, bots: &[(&str, &str)]| {
        s.write(
            &format!("{name}.toml"),
            &common::israeli_tournament(head, bots),
        );
        ok(
            &s,
            &[
                "tournament",
                &format!("{name}.toml"),
                "--out",
                name,
                "--progress",
                "quiet",
            ],
        );
    };
    let four = [
        ("p1", "first"),
        ("p2", "heuristic"),
        ("p3", "random"),
        ("p4", "first"),
    ];
    // Another game; other options (two hands, not one).
    let honeymoon = "name = \"hm\"\nseed = 1\nhands = 1\n".to_string();
    s.write(
        "hm.toml",
        &common::small_tournament("honeymoon", &honeymoon, &four[..2]),
    );
    ok(
        &s,
        &[
            "tournament",
            "hm.toml",
            "--out",
            "hm",
            "--progress",
            "quiet",
        ],
    );
    play("two", "name = \"two\"\nseed = 1\nhands = 2\n", &four);
    // A result edited after the fact (in the last line, which no later
    // line's hash covers: only replaying the match finds it).
    play("edited", "name = \"edited\"\nseed = 2\nhands = 1\n", &four);
    let log = std::fs::read_dir(s.path("edited/matches"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&log).unwrap();
    let end: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let mut totals = end["result"]["totals"].clone();
    totals[0] = Value::from(totals[0].as_i64().unwrap() + 500);
    let edited = text.replacen(
        &format!("\"totals\":{}", end["result"]["totals"]),
        &format!("\"totals\":{totals}"),
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&log, edited).unwrap();
    for (folder, says) in [
        ("hm", "this league plays israeli"),
        ("two", "options"),
        ("edited", "fails `whistle replay verify`"),
    ] {
        let r = common::whistle(
            &s,
            &["league", "import", folder, "--dir", "lg"],
            Duration::from_secs(60),
        );
        assert_eq!(
            r.status.code(),
            Some(3),
            "{folder}: {}\n{}",
            r.stdout,
            r.stderr
        );
        assert!(
            r.stdout.contains("refused") && r.stdout.contains(says),
            "{folder}: {}",
            r.stdout
        );
        if folder == "edited" {
            // The other matches of the folder are sound and count.
            assert!(r.stdout.contains(", 1 refused"), "{}", r.stdout);
        } else {
            let rows = standings(&s, "lg");
            assert!(rows.iter().all(|r| r["matches"] == 0), "{folder}: {rows:?}");
        }
    }
    let history = |bot: &str| -> usize {
        let h = ok(&s, &["league", "history", bot, "--json", "--dir", "lg"]);
        serde_json::from_str::<Value>(&h.stdout)
            .unwrap()
            .as_array()
            .unwrap()
            .len()
    };
    let p2_before = history("p2");
    // A retired bot's matches are recorded and rate no one.
    play(
        "late",
        "name = \"late\"\nseed = 3\nhands = 1\n",
        &[
            ("gone", "first"),
            ("p2", "heuristic"),
            ("p3", "random"),
            ("p4", "first"),
        ],
    );
    let r = ok(&s, &["league", "import", "late", "--dir", "lg"]);
    assert!(r.stdout.contains("unrated"), "{}", r.stdout);
    assert_eq!(history("gone"), 1, "only its start");
    assert_eq!(
        history("p2"),
        p2_before,
        "no rating from a retired bot's matches"
    );
}

#[test]
fn a_bot_retired_while_serving_is_out_at_once_and_nothing_after_it_is_rated() {
    let s = Scratch::new("league-retire-now");
    let file = round_robin_league("now", 4);
    s.write("now.toml", &file);
    ok(&s, &["league", "init", "now.toml", "--dir", "lg"]);
    let names = ["b1", "b2", "b3", "b4"];
    let tokens = common::add_league_bots(&s, "lg", &names);
    let (mut serve, lines) = common::spawn_serve(&s, "lg", &[], &["listening on "]);
    let grpc = common::listening_address(&lines[0]);
    // Bots that think: a match lasts seconds.
    let mut bots: Vec<_> = tokens
        .iter()
        .map(|t| common::spawn_remote_bot(&grpc, t, "sampler:40ms"))
        .collect();
    // Round 1 is being played: its match has a log with a hand in it.
    let matches = s.path("lg/rounds/0001/matches");
    let start = std::time::Instant::now();
    let log = loop {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "round 1 never started"
        );
        let found = std::fs::read_dir(&matches)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.contains("\"deck\"")))
            });
        if let Some(p) = found {
            break p;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    ok(&s, &["league", "retire-bot", "b1", "--dir", "lg"]);
    let retired_at = std::time::Instant::now();
    // Out at once: said, and its match ends with its seat forfeited.
    loop {
        let said = std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default();
        if said.contains("bot b1 retired") {
            break;
        }
        assert!(
            retired_at.elapsed() < Duration::from_secs(5),
            "not revoked: {said}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let end: Value = loop {
        let text = common::read_log(&log);
        if let Some(end) = text.lines().find(|l| l.contains("\"type\":\"end\"")) {
            break serde_json::from_str(end).unwrap();
        }
        assert!(
            retired_at.elapsed() < Duration::from_secs(60),
            "the match never ended"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let header: Value =
        serde_json::from_str(common::read_log(&log).lines().next().unwrap()).unwrap();
    let seat = header["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|b| b == "b1")
        .unwrap();
    assert!(
        end["forfeited"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f.as_u64() == Some(seat as u64)),
        "{end}"
    );
    // Recorded, rating no one.
    wait_for(
        &s,
        "lg",
        Duration::from_secs(60),
        "the match recorded",
        |rows| rows.iter().any(|r| r["matches"].as_u64() > Some(0)),
    );
    for b in names {
        let h = ok(&s, &["league", "history", b, "--json", "--dir", "lg"]);
        let h: Value = serde_json::from_str(&h.stdout).unwrap();
        assert_eq!(h.as_array().unwrap().len(), 1, "{b} was rated: {h}");
    }
    common::stop_all(&mut serve, &mut bots);
}

#[test]
fn a_restarted_league_waits_for_its_seated_bots_before_it_plays_on() {
    let s = Scratch::new("league-restart");
    // Tight clocks: a seat nobody plays forfeits within a second or two.
    league_head("back", Some(11), 3, "round-robin", false)
        .and(
            "[time]\nper_action_ms = 1000\ntime_bank_ms = 1000\nreconnect_grace_ms = 2500\n\
             start_timeout_ms = 500\n\n[faults]\nmax_faults = 1\n",
        )
        .write(&s, "back.toml");
    ok(&s, &["league", "init", "back.toml", "--dir", "lg"]);
    let tokens = common::add_league_bots(&s, "lg", &["b1", "b2", "b3", "b4"]);
    let spawn_bots = |grpc: &str| -> Vec<Killed> {
        tokens
            .iter()
            .map(|t| common::spawn_remote_bot(grpc, t, "sampler:30ms"))
            .collect()
    };
    let kill_all = |serve: &mut Killed, bots: &mut Vec<Killed>| {
        let _ = serve.kill();
        let _ = serve.wait();
        for b in bots.iter_mut() {
            let _ = b.kill();
            let _ = b.wait();
        }
    };
    let (mut serve, lines) = common::spawn_serve(&s, "lg", &[], &["listening on "]);
    let grpc = common::listening_address(&lines[0]);
    let mut bots = spawn_bots(&grpc);
    // Killed while round 1 plays: its match has a hand, not its end.
    let matches = s.path("lg/rounds/0001/matches");
    let start = std::time::Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "round 1 never started"
        );
        let playing = std::fs::read_dir(&matches)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("\"deck\"")));
        if playing {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    kill_all(&mut serve, &mut bots);
    // The league comes back first; its bots 3.5 s later: a table started
    // at once would have forfeited every seat by then (start timeout and
    // grace, 3 s); the league first waits a grace for them.
    let (mut serve, lines) = common::spawn_serve(&s, "lg", &[], &["listening on "]);
    let grpc = common::listening_address(&lines[0]);
    std::thread::sleep(Duration::from_millis(3500));
    let mut bots = spawn_bots(&grpc);
    wait_for(
        &s,
        "lg",
        Duration::from_secs(120),
        "round 1 recorded",
        |rows| rows.iter().any(|r| r["matches"].as_u64() > Some(0)),
    );
    kill_all(&mut serve, &mut bots);
    for e in std::fs::read_dir(&matches).unwrap() {
        let text = common::read_log(&e.unwrap().path());
        if let Some(end) = text.lines().find(|l| l.contains("\"type\":\"end\"")) {
            let end: Value = serde_json::from_str(end).unwrap();
            eprintln!("END {end}");
            assert_eq!(end["forfeited"].as_array().unwrap().len(), 0, "{end}");
        }
    }
    for b in ["b1", "b2", "b3", "b4"] {
        let h = ok(&s, &["league", "history", b, "--json", "--dir", "lg"]);
        let h: Value = serde_json::from_str(&h.stdout).unwrap();
        assert_eq!(
            h.as_array().unwrap().len(),
            2,
            "{b}: rated once, for a match played: {h}"
        );
    }
}

#[test]
fn a_league_draws_its_own_secret_seed_and_reveals_each_rounds_after_it_closes() {
    let s = Scratch::new("league-seed");
    // No seed in the file.
    s.write("secret.toml", &four_reference_bots("secret", None, 1));
    let mut first_decks = Vec::new();
    for dir in ["lg1", "lg2"] {
        let r = ok(&s, &["league", "init", "secret.toml", "--dir", dir]);
        assert!(r.stdout.contains("secret seed was drawn"), "{}", r.stdout);
        ok(
            &s,
            &["league", "round", "--dir", dir, "--progress", "quiet"],
        );
        let rounds = ok(&s, &["league", "rounds", "--json", "--dir", dir]);
        let rounds: Value = serde_json::from_str(&rounds.stdout).unwrap();
        let r1 = &rounds[0];
        assert_eq!(r1["round"], 1);
        assert_eq!(r1["closed"], true, "{rounds}");
        let seed = r1["seed"]
            .as_str()
            .expect("revealed once closed")
            .to_string();
        let matches = s.path(&format!("{dir}/rounds/0001/matches"));
        let log = std::fs::read_dir(&matches)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let text = common::read_log(&log);
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(header["seed_commitment"], r1["commitment"]);
        let hand: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        first_decks.push(hand["deck"].clone());
        // Anyone can check the round's logs with the revealed seed.
        let v = common::whistle(
            &s,
            &["replay", "verify", log.to_str().unwrap(), "--seed", &seed],
            Duration::from_secs(60),
        );
        assert_eq!(v.status.code(), Some(0), "{}{}", v.stdout, v.stderr);
        // The seed is in the store, not in the league file's copy.
        let copy = std::fs::read_to_string(s.path(&format!("{dir}/league.toml"))).unwrap();
        assert!(!copy.contains(&seed));
    }
    assert_ne!(
        first_decks[0], first_decks[1],
        "two leagues of one file deal alike"
    );
    // A seed given in the file is used, with a warning.
    s.write("given.toml", &four_reference_bots("secret", Some(5), 1));
    let r = ok(&s, &["league", "init", "given.toml", "--dir", "lg3"]);
    assert!(
        r.stdout.contains("warning: the file gives `seed`"),
        "{}",
        r.stdout
    );
}

#[test]
fn serve_refuses_an_expired_a_future_or_a_ca_certificate_as_the_servers() {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    let s = Scratch::new("league-bad-cert");
    s.write("l.toml", &league_file("certs", 1, false, &[]));
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let key = KeyPair::generate().unwrap();
    s.write("key.pem", &key.serialize_pem());
    type Edit = Box<dyn Fn(&mut CertificateParams)>;
    let cases: [(&str, Edit, &str); 3] = [
        (
            "expired",
            Box::new(|p| {
                p.not_before = rcgen::date_time_ymd(2020, 1, 1);
                p.not_after = rcgen::date_time_ymd(2021, 1, 1);
            }),
            "expired on",
        ),
        (
            "future",
            Box::new(|p| {
                p.not_before = rcgen::date_time_ymd(2090, 1, 1);
                p.not_after = rcgen::date_time_ymd(2091, 1, 1);
            }),
            "not valid until",
        ),
        (
            "ca",
            Box::new(|p| p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained)),
            "CA certificate",
        ),
    ];
    for (name, edit, says) in cases {
        let mut p = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        edit(&mut p);
        let cert = p.self_signed(&key).unwrap();
        let file = format!("{name}.pem");
        s.write(&file, &cert.pem());
        refused(
            &s,
            &[
                "league",
                "serve",
                "--dir",
                "lg",
                "--listen",
                "127.0.0.1:0",
                "--tls-cert",
                &file,
                "--tls-key",
                "key.pem",
            ],
            says,
        );
    }
}

#[test]
fn the_kit_waits_for_a_bot_just_added_says_certificate_and_tells_its_ends_apart() {
    let s = Scratch::new("league-kit-ends");
    let (ca, cert, key) = certificates(&s);
    s.write("l.toml", &league_file("kit", 1, false, &[]));
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let (mut serve, lines) = common::spawn_serve(
        &s,
        "lg",
        &["--tls-cert", &cert, "--tls-key", &key],
        &["listening on "],
    );
    let port = lines[0]
        .split_whitespace()
        .nth(2)
        .unwrap()
        .rsplit(':')
        .next()
        .unwrap()
        .to_string();
    let address = format!("https://localhost:{port}");
    let bot = |token: &str, ca: Option<&str>| {
        let mut c = Command::new(WHISTLE);
        c.args([
            "bot",
            "--bot",
            "first",
            "--address",
            &address,
            "--token",
            token,
        ])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        match ca {
            Some(ca) => c.env("WHISTLE_CA", s.path(ca)),
            None => c.env_remove("WHISTLE_CA"),
        };
        c.spawn_killed()
    };
    // Without the league's CA: the message names the certificate.
    let out = bot("whatever", None).wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("certificate"), "{said}");
    // Added while serving and connecting at once: it waits to be admitted.
    let token = common::add_league_bots(&s, "lg", &["fresh"]).remove(0);
    let mut fresh = bot(&token, Some(&ca));
    let start = std::time::Instant::now();
    loop {
        let log = std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default();
        if log.contains("bot subscribed bot=fresh") {
            break;
        }
        assert!(
            fresh.try_wait().unwrap().is_none(),
            "the kit gave up: {:?}",
            fresh.wait_with_output()
        );
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "never subscribed: {log}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // A token the league refuses: its own exit status.
    let out = bot("league-0000", Some(&ca)).wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The league shuts down: not the bot's end (a league's bot waits for
    // it to come back, crates/cli/tests/league_restart.rs); retired, it is
    // done: `whistle league retire-bot` is its clean end.
    let _ = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status();
    let _ = serve.wait();
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        fresh.try_wait().unwrap().is_none(),
        "the league's bot left when the league stopped"
    );
    let _ = fresh.kill();
    let out = fresh.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("the referee is away"), "{said}");
}

#[test]
fn long_names_keep_the_text_standings_aligned() {
    let s = Scratch::new("league-long-names");
    // Only bots that played are in the table (the others are listed apart):
    // the long names are reference bots, and a round is played.
    let long = "a".repeat(64);
    let first: &[&str] = &["--bot", "first"];
    s.write(
        "l.toml",
        &league_file(
            "long",
            1,
            false,
            &[
                ("b", first),
                (&long, first),
                ("mid-length-name-of-thirty-chars", first),
                ("r4", first),
            ],
        ),
    );
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    let r = ok(&s, &["league", "standings", "--dir", "lg"]);
    assert!(r.stdout.contains(&format!(" {long} ")), "{}", r.stdout);
    assert!(!r.stdout.contains("did not play"), "{}", r.stdout);
    let lines: Vec<&str> = r.stdout.lines().skip(1).collect();
    // Every row's rating ends where the header's `rating` ends.
    let end = lines[0].find("rating").unwrap() + "rating".len();
    for l in &lines[1..] {
        let rating = l[..end].rsplit(' ').next().unwrap();
        assert!(
            rating.parse::<f64>().is_ok() && l.as_bytes()[end] == b' ',
            "misaligned:\n{}",
            r.stdout
        );
    }
}

#[test]
fn a_closed_rounds_logs_are_compressed_and_every_reader_reads_them() {
    let s = Scratch::new("league-gz");
    s.write("gz.toml", &four_reference_bots("gz", Some(11), 2));
    ok(&s, &["league", "init", "gz.toml", "--dir", "lg"]);
    ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    let matches = s.path("lg/rounds/0001/matches");
    let names: Vec<String> = std::fs::read_dir(&matches)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.is_empty());
    assert!(names.iter().all(|n| n.ends_with(".jsonl.gz")), "{names:?}");
    let gz = matches.join(&names[0]);
    let packed = std::fs::metadata(&gz).unwrap().len();
    let plain = {
        use std::io::Read;
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&gz).unwrap())
            .read_to_end(&mut out)
            .unwrap();
        out.len() as u64
    };
    assert!(packed * 3 < plain, "{packed} of {plain} bytes");
    eprintln!("a closed round's log: {plain} bytes, {packed} compressed");
    // verify (a folder and a file), show, html, import: all read them.
    let v = common::whistle(
        &s,
        &["replay", "verify", "lg/rounds/0001"],
        Duration::from_secs(60),
    );
    assert_eq!(v.status.code(), Some(0), "{}{}", v.stdout, v.stderr);
    assert_eq!(
        v.stdout.matches(": ok (").count(),
        names.len(),
        "{}",
        v.stdout
    );
    let g = gz.to_str().unwrap();
    let sh = common::whistle(&s, &["replay", "show", g], Duration::from_secs(60));
    assert_eq!(sh.status.code(), Some(0), "{}{}", sh.stdout, sh.stderr);
    assert!(sh.stdout.contains("hand 0"), "{}", sh.stdout);
    let h = common::whistle(
        &s,
        &["replay", "html", g, "--out", "page"],
        Duration::from_secs(60),
    );
    assert_eq!(h.status.code(), Some(0), "{}{}", h.stdout, h.stderr);
    assert!(h.stdout.contains("verified"), "{}", h.stdout);
    let i = ok(&s, &["league", "import", "lg/rounds/0001", "--dir", "lg"]);
    assert!(
        i.stdout
            .starts_with(&format!("0 match(es) recorded, {} already", names.len())),
        "{}",
        i.stdout
    );
    // The next round plays on beside them.
    ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    assert!(s.path("lg/rounds/0002/matches").is_dir());
}

/// Waits up to 30 s for `path` to hold `text`; returns the file.
fn file_says(path: &std::path::Path, text: &str) -> String {
    let start = std::time::Instant::now();
    loop {
        let now = std::fs::read_to_string(path).unwrap_or_default();
        if now.contains(text) {
            return now;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{} never said `{text}`:\n{now}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn one_token_holds_one_stream_and_a_retired_bot_is_cut_off_as_the_retirement_returns() {
    use whistle_protocol::pb::{SubscribeRequest, referee_client::RefereeClient};
    let s = Scratch::new("league-token");
    Event::new("tok", "israeli")
        .and("seed = 3\nhands = 1\n")
        .write(&s, "l.toml");
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let tokens = common::add_league_bots(&s, "lg", &["b1"]);
    // The scheduler looks once a minute: nothing below may wait for it.
    let serve = Command::new(WHISTLE)
        .args([
            "league",
            "serve",
            "--dir",
            "lg",
            "--listen",
            "127.0.0.1:0",
            "--poll-ms",
            "60000",
            "--progress",
            "quiet",
        ])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(s.path("serve.stdout")).unwrap())
        .stderr(std::fs::File::create(s.path("serve.stderr")).unwrap())
        .spawn_killed();
    let said = file_says(&s.path("serve.stdout"), "listening on ");
    let line = said
        .lines()
        .find(|l| l.starts_with("listening on "))
        .unwrap();
    let address = common::listening_address(line);
    // A real bot process holds b1's stream.
    let first = Command::new(WHISTLE)
        .args([
            "bot",
            "--bot",
            "random",
            "--address",
            &address,
            "--token",
            &tokens[0],
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(s.path("first.stderr")).unwrap())
        .spawn_killed();
    // Killed (and reaped) when dropped, a failing test too.
    let mut procs = [serve, first];
    file_says(&s.path("serve.stderr"), "bot subscribed");

    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{address}"))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut client = RefereeClient::new(channel);
        let subscribe = |client: &mut RefereeClient<tonic::transport::Channel>| {
            let mut c = client.clone();
            let token = tokens[0].clone();
            async move {
                c.subscribe(SubscribeRequest {
                    token,
                    bot_name: "b1".into(),
                })
                .await
            }
        };
        // A second Subscribe with the token takes over; the first process's
        // stream ends with ABORTED and the process exits, refused.
        let mut second = subscribe(&mut client).await.unwrap().into_inner();
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(st) = procs[1].try_wait().unwrap() {
                break st;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the superseded bot process goes on"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert!(!status.success(), "{status}");
        let first_said = std::fs::read_to_string(s.path("first.stderr")).unwrap();
        assert!(first_said.contains("superseded"), "{first_said}");
        let log = std::fs::read_to_string(s.path("serve.stderr")).unwrap();
        assert!(
            log.lines()
                .any(|l| l.contains("WARN") && l.contains("a second Subscribe for the bot")),
            "{log}"
        );

        // Retired: the open stream ends UNAUTHENTICATED at once, and a
        // Subscribe made as soon as the command returns is refused.
        ok(&s, &["league", "retire-bot", "b1", "--dir", "lg"]);
        let retired_at = std::time::Instant::now();
        let again = subscribe(&mut client).await.unwrap_err();
        assert_eq!(again.code(), tonic::Code::Unauthenticated, "{again:?}");
        assert!(again.message().contains("retired"), "{again:?}");
        let ended = tokio::time::timeout(Duration::from_secs(5), second.message())
            .await
            .expect("the retired bot's stream stays open");
        let e = ended.unwrap_err();
        assert_eq!(e.code(), tonic::Code::Unauthenticated, "{e:?}");
        assert!(
            retired_at.elapsed() < Duration::from_secs(2),
            "the stream ended {:?} after the retirement",
            retired_at.elapsed()
        );
    });
    common::stop_all(&mut procs[0], &mut []);
    let log = std::fs::read_to_string(s.path("serve.stderr")).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("subscribe refused: the bot is retired")),
        "{log}"
    );
}

/// A gRPC bot that subscribes and never opens a seat it is given: Python
/// with the kit's generated stubs (the kit and grpcio in a venv made for
/// the test; where the registry is missing the test is skipped, except
/// under CI).
const LAZY_BOT: &str = r#"import sys, grpc
from whistle_bot import _stubs
pb, pb_grpc = _stubs.load()
stub = pb_grpc.RefereeStub(grpc.insecure_channel(sys.argv[1]))
for a in stub.Subscribe(pb.SubscribeRequest(token=sys.argv[2])):
    print("assigned", a.table_id, a.seat, "and never opened", flush=True)
"#;

/// The venv's python with the Python kit installed, or `None` (said).
fn kit_python() -> Option<std::path::PathBuf> {
    let venv = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("league-kit-venv");
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
    let kit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots/python");
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

#[test]
fn a_bot_that_never_opens_its_seats_forfeits_at_the_start_timeout_and_is_benched() {
    let Some(python) = kit_python() else { return };
    let s = Scratch::new("league-lazy");
    // A long grace: a table that waited it out for the lazy bot's seat
    // would hold its round a minute and more.
    league_head("lazy", Some(11), 1, "round-robin", true)
        .and(
            "[time]\nper_action_ms = 5000\ntime_bank_ms = 10000\nreconnect_grace_ms = 120000\n\
             start_timeout_ms = 2000\n",
        )
        .reference_bot("r1", &["--bot", "first"])
        .write(&s, "lazy.toml");
    ok(&s, &["league", "init", "lazy.toml", "--dir", "lg"]);
    let tokens = common::add_league_bots(&s, "lg", &["b1", "b2", "b3", "lazy"]);
    s.write("lazy.py", LAZY_BOT);
    let (mut serve, lines) = common::spawn_serve(&s, "lg", &[], &["listening on "]);
    let grpc = common::listening_address(&lines[0]);
    let lazy = |n: usize| {
        Command::new(&python)
            .args(["lazy.py", &grpc, &tokens[3]])
            .current_dir(&s.dir)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(s.path(&format!("lazy{n}.stdout"))).unwrap())
            .stderr(std::fs::File::create(s.path(&format!("lazy{n}.stderr"))).unwrap())
            .spawn_killed()
    };
    let mut bots: Vec<Killed> = tokens[..3]
        .iter()
        .map(|t| common::spawn_remote_bot(&grpc, t, "first"))
        .collect();
    bots.push(lazy(1));
    let said = |what: &str| {
        std::fs::read_to_string(s.path("serve.stderr"))
            .unwrap_or_default()
            .contains(what)
    };
    let wait_until = |what: &str, limit: Duration| {
        let start = std::time::Instant::now();
        while !said(what) {
            assert!(
                start.elapsed() < limit,
                "serve never said {what:?}: {}\nlazy: {}",
                std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default(),
                std::fs::read_to_string(s.path("lazy1.stdout")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    // Its seat forfeits at the start timeout; the round ends well within
    // the grace, and the bot is benched.
    wait_until("bot lazy missed its seats", Duration::from_secs(90));
    let rows = standings(&s, "lg");
    assert!(
        row(&rows, "lazy")["matches"].as_u64() >= Some(1),
        "{rows:?}"
    );
    assert!(row(&rows, "lazy")["faults"].as_u64() >= Some(1), "{rows:?}");
    assert!(
        std::fs::read_to_string(s.path("lazy1.stdout"))
            .unwrap()
            .contains("and never opened"),
    );
    // Benched: the rounds after it seat the others (and the reference bot)
    // without it, while its stream stays open.
    let rounds_now = || -> Vec<u64> {
        let mut v: Vec<u64> = std::fs::read_dir(s.path("lg/rounds"))
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .collect();
        v.sort();
        v
    };
    let benched_at = *rounds_now().last().unwrap();
    let start = std::time::Instant::now();
    while !rounds_now().iter().any(|r| *r >= benched_at + 2) {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "no round after the bench"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let later =
        std::fs::read_to_string(s.path(&format!("lg/rounds/{:04}/round.toml", benched_at + 2)))
            .unwrap();
    assert!(later.contains("\"b1\""), "{later}");
    assert!(
        !later.contains("\"lazy\""),
        "a benched bot was seated: {later}"
    );
    // It plays again once it subscribes anew.
    let mut old = bots.pop().unwrap();
    let _ = old.kill();
    let _ = old.wait();
    // Its stream seen ended (the league looks every --poll-ms), it comes back.
    std::thread::sleep(Duration::from_secs(2));
    bots.push(lazy(2));
    wait_until(
        "bot lazy subscribed anew: seated again",
        Duration::from_secs(60),
    );
    common::stop_all(&mut serve, &mut bots);
}
