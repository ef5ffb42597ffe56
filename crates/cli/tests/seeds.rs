//! End-to-end tests of seeds nobody can guess: the real `whistle` binary,
//! real bot processes, real output folders.
//!
//! A tournament file without `seed` draws 256 bits from the operating
//! system, prints their commitment (SHA-256) at the start and the seed at
//! the end, keeps it in its folder for `--resume`, and repeats exactly when
//! given the printed seed. A seed that is a number is obeyed with a warning.
//! A league's round seeds are derived from its secret by a keyed function,
//! so one round's published seed tells nothing of the next round's deals.
//!
//! The attack these guard against: dealing seed after seed (0, 1, 2 ...)
//! with the real dealing code until one gives the 13 cards a bot holds in
//! deal 0 finds a chosen seed in seconds, and with it every deal.
//!
//! "The same logs" means the same lines once timings are left out (`ms`,
//! and `prev`, the SHA-256 chain over lines that hold `ms`): thinking times
//! are the only thing two runs of one file may differ in.

mod common;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{Event, Killed, Scratch, SpawnKilled, WHISTLE, whistle, whistle_ok};
use serde_json::Value;
use whistle_replay::seed_commitment;
use whistle_rules::{
    Card, CardSet,
    dealing::{Domain, Seed, deal_seed, deck_order},
};

/// A small Israeli round robin (four bots, one group, four seat rotations:
/// four matches) named `name`; `head` adds keys (`seed`, `hands` ...).
fn tournament(name: &str, head: &str) -> String {
    Event::new(name, "israeli")
        .and(&format!("{head}\nparallel = 4\n"))
        .calm()
        .bundled("heuristic", "heuristic")
        .bot("random", &["--bot", "random", "--seed", "1"])
        .bundled("first", "first")
        .bundled("heuristic-2", "heuristic")
        .text()
        .to_string()
}

/// `whistle tournament FILE --out OUT --progress quiet EXTRA...`, which must succeed.
fn run(s: &Scratch, file: &str, out: &str, extra: &[&str]) -> common::Ran {
    let mut args = vec!["tournament", file, "--out", out, "--progress", "quiet"];
    args.extend_from_slice(extra);
    whistle_ok(s, &args)
}

/// The commitment a run printed at its start (stderr).
fn commitment_said(stderr: &str) -> String {
    stderr
        .lines()
        .find_map(|l| l.split_once("seed commitment ").map(|(_, c)| c.trim()))
        .unwrap_or_else(|| panic!("no commitment said at the start:\n{stderr}"))
        .to_string()
}

/// The seed a run printed at its end (stdout: `seed SEED (...)`).
fn seed_said(stdout: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("seed "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no seed said at the end:\n{stdout}"))
        .to_string()
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Removes every `keys` entry from every object in `v`.
fn strip(v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(m) => {
            for k in keys {
                m.remove(*k);
            }
            m.values_mut().for_each(|x| strip(x, keys));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| strip(x, keys)),
        _ => {}
    }
}

/// results.json without its timing fields.
fn results(out: &Path) -> Value {
    let mut v = read_json(&out.join("results.json"));
    strip(&mut v, &["mean_ms", "max_ms"]);
    v
}

/// Within each hand, every run of frisch gives in the order they were
/// sent: those four are asked at once, and the order they arrive in is
/// timing, not play.
fn gives_in_order(line: &mut Value) {
    let Some(actions) = line.get_mut("actions").and_then(Value::as_array_mut) else {
        return;
    };
    let give = |a: &Value| a["action"].as_str().is_some_and(|t| t.starts_with("give "));
    let mut i = 0;
    while i < actions.len() {
        let start = i;
        while i < actions.len() && give(&actions[i]) {
            i += 1;
        }
        actions[start..i].sort_by_key(Value::to_string);
        i = i.max(start + 1);
    }
}

/// Asserts that two folders hold the same logs (see [`logs`]), naming the
/// first line that differs.
fn assert_same_logs(a: &Path, b: &Path, what: &str) {
    let (la, lb) = (logs(a), logs(b));
    assert_eq!(
        la.keys().collect::<Vec<_>>(),
        lb.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (name, lines) in &la {
        assert_eq!(lines.len(), lb[name].len(), "{what}: {name}");
        for (i, (x, y)) in lines.iter().zip(&lb[name]).enumerate() {
            assert!(x == y, "{what}: {name} line {}:\n{x}\n{y}", i + 1);
        }
    }
}

/// Every match log of `out` (file name → its lines) without timings, frisch
/// gives in the order they were sent ([`gives_in_order`]).
fn logs(out: &Path) -> BTreeMap<String, Vec<Value>> {
    let mut logs = BTreeMap::new();
    for e in std::fs::read_dir(out.join("matches")).unwrap() {
        let p = e.unwrap().path();
        let mut lines: Vec<Value> = common::read_log(&p)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        lines.iter_mut().for_each(|l| {
            strip(l, &["ms", "prev"]);
            gives_in_order(l);
        });
        logs.insert(p.file_name().unwrap().to_string_lossy().into_owned(), lines);
    }
    logs
}

/// Every hand's deck order in the logs of `out` (its `matches/`, or the
/// folder itself).
fn decks(dir: &Path) -> BTreeSet<Vec<String>> {
    let matches = if dir.join("matches").is_dir() {
        dir.join("matches")
    } else {
        dir.to_path_buf()
    };
    let mut all = BTreeSet::new();
    for e in std::fs::read_dir(matches).unwrap() {
        for l in common::read_log(&e.unwrap().path()).lines() {
            let v: Value = serde_json::from_str(l).unwrap();
            if v["type"] == "hand" {
                all.insert(
                    v["deck"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_str().unwrap().to_string())
                        .collect(),
                );
            }
        }
    }
    all
}

/// The deck order of deal `deal` of the match seeded `match_seed`, as logs
/// write it.
fn deck_of(match_seed: Seed, deal: u32) -> Vec<String> {
    deck_order(deal_seed(match_seed, deal), CardSet::STANDARD)
        .iter()
        .map(Card::to_string)
        .collect()
}

/// The attack: the 13 cards seat 1 holds in deal 0 of match 0 of `out`
/// (Israeli deals position i to seat (dealer + 1 + i) mod 4, the dealer
/// being seat 0: seat 1 holds positions 0, 4, 8 ...), and the first number
/// in `range` whose seed deals seat 1 exactly those cards, found with the
/// real dealing code.
fn search_numbers(out: &Path, range: std::ops::Range<u64>) -> Option<u64> {
    let log = common::read_log(&out.join("matches/m00000.jsonl"));
    let hand0: Value = serde_json::from_str(log.lines().nth(1).unwrap()).unwrap();
    assert_eq!(hand0["deal"], 0);
    let held: CardSet = hand0["deck"]
        .as_array()
        .unwrap()
        .iter()
        .step_by(4)
        .map(|c| c.as_str().unwrap().parse::<Card>().unwrap())
        .collect();
    assert_eq!(held.len(), 13);
    range.into_iter().find(|&n| {
        let order = deck_order(
            deal_seed(Seed::from_u64(n).derive(Domain::Match, 0), 0),
            CardSet::STANDARD,
        );
        order.iter().step_by(4).copied().collect::<CardSet>() == held
    })
}

#[test]
fn a_seedless_tournament_draws_commits_reveals_and_repeats_with_the_printed_seed() {
    let s = Scratch::new("seeds-drawn");
    s.write("t.toml", &tournament("drawn", "hands = 1"));
    let a = run(&s, "t.toml", "a", &[]);
    let commitment = commitment_said(&a.stderr);
    let seed = seed_said(&a.stdout);
    assert_eq!(seed.len(), 64, "256 bits in full: {seed}");
    let parsed = Seed::from_hex(&seed).unwrap();
    assert_eq!(
        seed_commitment(parsed),
        commitment,
        "the seed said at the end is the one committed to"
    );
    assert!(!a.stderr.contains("warning: the seed"), "{}", a.stderr);
    // The commitment is the folder's and every log's; the seed is revealed
    // in the results and was kept (owner-only) in the folder.
    let out = s.path("a");
    assert_eq!(
        read_json(&out.join("tournament.json"))["seed_commitment"],
        commitment
    );
    let la = logs(&out);
    assert_eq!(la.len(), 4);
    for lines in la.values() {
        assert_eq!(lines[0]["seed_commitment"], commitment);
    }
    let r = results(&out);
    assert_eq!(r["seed"], seed.as_str());
    assert!(
        r["notes"]
            .as_array()
            .is_none_or(|n| n.iter().all(|n| n["kind"] != "seed")),
        "{r}"
    );
    let kept = out.join("seed.secret");
    assert_eq!(std::fs::read_to_string(&kept).unwrap().trim(), seed);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777,
        0o600
    );

    // The printed seed repeats the run: on the command line, and in the file.
    let b = run(&s, "t.toml", "b", &["--seed", &seed]);
    assert_eq!(commitment_said(&b.stderr), commitment);
    assert_eq!(seed_said(&b.stdout), seed);
    assert!(!b.stderr.contains("warning"), "{}", b.stderr);
    assert_same_logs(&s.path("b"), &out, "--seed gives the same logs");
    assert!(results(&s.path("b")) == r, "--seed gives the same results");
    s.write(
        "given.toml",
        &tournament("drawn", &format!("hands = 1\nseed = \"{seed}\"")),
    );
    let c = run(&s, "given.toml", "c", &[]);
    assert!(!c.stderr.contains("warning"), "{}", c.stderr);
    assert_same_logs(
        &s.path("c"),
        &out,
        "the seed in the file gives the same logs",
    );
    assert!(
        !s.path("c/seed.secret").exists(),
        "a given seed is the file's"
    );

    // Run again without a seed: another seed, other deals.
    let d = run(&s, "t.toml", "d", &[]);
    assert_ne!(commitment_said(&d.stderr), commitment);
    assert_ne!(seed_said(&d.stdout), seed);
    assert!(decks(&s.path("d")).is_disjoint(&decks(&out)));

    // Anyone checks the logs against the revealed seed; shards merge.
    let v = whistle_ok(&s, &["replay", "verify", "a"]);
    assert_eq!(
        v.stdout.matches("seed commitment holds").count(),
        4,
        "{}",
        v.stdout
    );
    let wrong = whistle(
        &s,
        &[
            "replay",
            "verify",
            "d/matches/m00000.jsonl",
            "--seed",
            &seed,
        ],
        Duration::from_secs(60),
    );
    assert!(
        !wrong.status.success(),
        "another run's seed does not verify: {}",
        wrong.stdout
    );
    whistle_ok(&s, &["merge", "a", "--out", "merged"]);
    assert_eq!(results(&s.path("merged"))["seed"], seed.as_str());
    let v = whistle_ok(&s, &["replay", "verify", "merged"]);
    assert_eq!(
        v.stdout.matches("seed commitment holds").count(),
        4,
        "{}",
        v.stdout
    );

    // The attack finds nothing: no number below 100,000 deals seat 1 its
    // cards of deal 0.
    assert_eq!(search_numbers(&out, 0..100_000), None);
}

#[test]
fn a_seed_that_is_a_number_is_obeyed_with_a_warning_and_the_attack_finds_it() {
    let s = Scratch::new("seeds-small");
    s.write("t.toml", &tournament("small", "hands = 1\nseed = 2026"));
    let a = run(&s, "t.toml", "a", &[]);
    assert!(
        a.stderr.contains("warning: the seed is a number"),
        "{}",
        a.stderr
    );
    assert!(
        a.stdout.contains("note: the seed is a number"),
        "{}",
        a.stdout
    );
    assert_eq!(seed_said(&a.stdout), "2026");
    assert_eq!(
        commitment_said(&a.stderr),
        seed_commitment(Seed::from_u64(2026))
    );
    let r = results(&s.path("a"));
    assert_eq!(r["seed"], 2026, "a number stays a number");
    let notes = r["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n["kind"] == "seed"
            && n["bot"] == ""
            && n["detail"].as_str().unwrap().contains("2^64")),
        "{r}"
    );
    let md = std::fs::read_to_string(s.path("a/standings.md")).unwrap();
    assert!(md.contains("the seed is a number"), "{md}");
    // `--seed N` in place of a drawn one warns the same way and deals as
    // the file's number.
    s.write("none.toml", &tournament("small", "hands = 1"));
    let b = run(&s, "none.toml", "b", &["--seed", "2026"]);
    assert!(
        b.stderr.contains("warning: the seed is a number"),
        "{}",
        b.stderr
    );
    assert_same_logs(&s.path("b"), &s.path("a"), "--seed 2026");
    // Found from one hand, as the warning says.
    let started = Instant::now();
    assert_eq!(search_numbers(&s.path("a"), 0..100_000), Some(2026));
    eprintln!(
        "the seed 2026 found from one hand in {:?}",
        started.elapsed()
    );
    // The same number written as 64 hex digits is just as searchable.
    let hex = Seed::from_u64(2026).to_hex();
    let c = run(&s, "none.toml", "c", &["--seed", &hex]);
    assert!(
        c.stderr.contains("warning: the seed is a number"),
        "{}",
        c.stderr
    );
    assert_same_logs(&s.path("c"), &s.path("a"), "2026 in hex");
}

/// `whistle tournament FILE --out OUT --progress quiet` in the background,
/// its stderr to `err`.
fn spawn(s: &Scratch, file: &str, out: &str, err: &Path) -> Killed {
    Command::new(WHISTLE)
        .args(["tournament", file, "--out", out, "--progress", "quiet"])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(err).unwrap())
        .spawn_killed()
}

#[test]
fn an_interrupted_seedless_run_resumes_with_the_seed_it_drew() {
    let s = Scratch::new("seeds-resume");
    s.write(
        "t.toml",
        &tournament("resumed", "hands = 3\nrounds = 2").replace("parallel = 4", "parallel = 3"),
    );
    let err = s.path("stopped.stderr");
    let mut child = spawn(&s, "t.toml", "stopped", &err);
    let stopped = s.path("stopped");
    let started = Instant::now();
    while !std::fs::read_dir(stopped.join("matches")).is_ok_and(|d| {
        d.flatten().any(|e| {
            std::fs::read_to_string(e.path())
                .unwrap_or_default()
                .contains("{\"type\":\"hand\"")
        })
    }) {
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no hands logged"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert_eq!(status.code(), Some(75), "{stderr}");
    let commitment = commitment_said(&stderr);
    assert!(
        !stopped.join("results.json").exists(),
        "the seed stays secret"
    );
    let kept = std::fs::read_to_string(stopped.join("seed.secret")).unwrap();
    let kept = kept.trim();
    assert_eq!(seed_commitment(Seed::from_hex(kept).unwrap()), commitment);

    // Another seed than the folder's is refused.
    let other = Seed::from_u64(1).derive(Domain::Round, 99).to_hex();
    let refused = whistle(
        &s,
        &[
            "tournament",
            "t.toml",
            "--out",
            "stopped",
            "--resume",
            "--progress",
            "quiet",
            "--seed",
            &other,
        ],
        Duration::from_secs(60),
    );
    assert!(!refused.status.success(), "{}", refused.stderr);
    assert!(refused.stderr.contains("seed"), "{}", refused.stderr);

    // Resumed, it keeps the seed it drew: same commitment, and its end
    // reveals that seed.
    let done = run(&s, "t.toml", "stopped", &["--resume"]);
    assert_eq!(commitment_said(&done.stderr), commitment);
    assert_eq!(seed_said(&done.stdout), kept);
    assert_eq!(results(&stopped)["seed"], kept);
    for lines in logs(&stopped).values() {
        assert_eq!(lines[0]["seed_commitment"], commitment);
    }
    // The deals are those of an uninterrupted run given that seed, and the
    // logs verify against it.
    run(&s, "t.toml", "whole", &["--seed", kept]);
    assert_eq!(decks(&stopped), decks(&s.path("whole")));
    let v = whistle_ok(&s, &["replay", "verify", "stopped"]);
    assert_eq!(
        v.stdout.matches("seed commitment holds").count(),
        8,
        "{}",
        v.stdout
    );
    whistle_ok(&s, &["merge", "stopped", "--out", "merged"]);
    assert_eq!(results(&s.path("merged"))["seed"], kept);
}

#[test]
fn shards_need_one_given_seed_and_then_merge_and_verify() {
    let s = Scratch::new("seeds-shards");
    s.write("t.toml", &tournament("sharded", "hands = 1"));
    let r = whistle(
        &s,
        &[
            "tournament",
            "t.toml",
            "--out",
            "s0",
            "--shard",
            "0/2",
            "--progress",
            "quiet",
        ],
        Duration::from_secs(60),
    );
    assert!(!r.status.success(), "each shard would draw its own seed");
    // The refusal suggests a freshly drawn seed.
    let seed = r
        .stderr
        .split("--seed ")
        .last()
        .and_then(|t| t.split_whitespace().next())
        .unwrap_or_default()
        .to_string();
    assert_eq!(seed.len(), 64, "{}", r.stderr);
    for (i, out) in ["s0", "s1"].iter().enumerate() {
        let shard = format!("{i}/2");
        let ran = run(&s, "t.toml", out, &["--shard", &shard, "--seed", &seed]);
        assert!(!ran.stderr.contains("warning"), "{}", ran.stderr);
    }
    whistle_ok(&s, &["merge", "s0", "s1", "--out", "merged"]);
    assert_eq!(results(&s.path("merged"))["seed"], seed.as_str());
    let v = whistle_ok(&s, &["replay", "verify", "merged"]);
    assert_eq!(
        v.stdout.matches("seed commitment holds").count(),
        4,
        "{}",
        v.stdout
    );
    run(&s, "t.toml", "whole", &["--seed", &seed]);
    assert_same_logs(&s.path("merged"), &s.path("whole"), "merged shards");
}

/// A league file of four bundled reference bots filling every seat, one
/// hand a match, duplicate tables; `head` adds keys.
fn league(name: &str, head: &str) -> String {
    let mut text = format!(
        "name = \"{name}\"\ngame = \"israeli\"\n{head}\nhands = 1\nformat = \"duplicate\"\n\
         parallel = 2\nfill = true\n\n[time]\nper_action_ms = 20000\ntime_bank_ms = 60000\n"
    );
    for (bot, kind) in [
        ("r1", "first"),
        ("r2", "heuristic"),
        ("r3", "random"),
        ("r4", "first"),
    ] {
        text.push_str(&format!(
            "\n[[reference]]\nname = \"{bot}\"\ncommand = [\"whistle\", \"bot\", \"--bot\", \"{kind}\"]\n"
        ));
    }
    text
}

/// Every deal of the first `matches` match seeds a tournament seed derives
/// (the first `deals` deals of each).
fn decks_from(tournament_seed: Seed, matches: u64, deals: u32) -> BTreeSet<Vec<String>> {
    (0..matches)
        .flat_map(|m| {
            let ms = tournament_seed.derive(Domain::Match, m);
            (0..deals).map(move |d| deck_of(ms, d))
        })
        .collect()
}

/// The seed of the 256-bit little-endian number `s + k` (mod 2^256).
fn plus(s: Seed, k: u128) -> Seed {
    let mut b = s.0;
    let mut carry = k;
    for byte in &mut b {
        let sum = u128::from(*byte) + (carry & 0xff);
        *byte = sum as u8;
        carry = (carry >> 8) + (sum >> 8);
    }
    Seed(b)
}

#[test]
fn a_published_round_seed_tells_nothing_of_the_next_rounds_deals() {
    let s = Scratch::new("seeds-league");
    s.write("l.toml", &league("keyed", ""));
    let init = whistle_ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    assert!(init.stdout.contains("256 bits"), "{}", init.stdout);
    for _ in 0..2 {
        whistle_ok(
            &s,
            &["league", "round", "--dir", "lg", "--progress", "quiet"],
        );
    }
    let rounds: Value = serde_json::from_str(
        &whistle_ok(&s, &["league", "rounds", "--json", "--dir", "lg"]).stdout,
    )
    .unwrap();
    let seed_of = |i: usize| Seed::from_hex(rounds[i]["seed"].as_str().unwrap()).unwrap();
    // What /rounds publishes of round 1, once closed.
    let published = seed_of(0);
    let round1 = decks(&s.path("lg/rounds/0001"));
    let round2 = decks(&s.path("lg/rounds/0002"));
    assert!(!round2.is_empty());
    // The comparison is sound: each round's own seed deals its cards.
    assert!(round1.is_subset(&decks_from(published, 64, 2)));
    assert!(round2.is_subset(&decks_from(seed_of(1), 64, 2)));

    // Everything one could compute from the published seed without the
    // league's secret.
    const OLD_STEP: u64 = 0xBF58_476D_1CE4_E5B9; // the old formula's step between rounds
    let low = u64::from_le_bytes(published.0[..8].try_into().unwrap());
    let mut candidates = vec![
        ("the same seed", published),
        (
            "the next round's number through the derivation, keyed by the published seed",
            published.derive(Domain::Round, 2),
        ),
        (
            "round 1 through the derivation, keyed by the published seed",
            published.derive(Domain::Round, 1),
        ),
        (
            "the next round's number, keyed by a zero secret",
            Seed::default().derive(Domain::Round, 2),
        ),
        (
            "the next round's number, keyed by the number 1",
            Seed::from_u64(1).derive(Domain::Round, 2),
        ),
        ("the next round's number as a seed", Seed::from_u64(2)),
        (
            "the old formula's next round",
            Seed::from_u64(low.wrapping_add(OLD_STEP) & ((1 << 62) - 1)),
        ),
        (
            "the published commitment as a seed",
            Seed::from_hex(rounds[0]["commitment"].as_str().unwrap()).unwrap(),
        ),
        (
            "the published seed's match 1 as a tournament seed",
            published.derive(Domain::Match, 1),
        ),
    ];
    for k in 1..=4u128 {
        candidates.push(("seed + k", plus(published, k)));
        candidates.push((
            "seed + k × the old step",
            plus(published, k * u128::from(OLD_STEP)),
        ));
        candidates.push(("seed + k × 2^64", plus(published, k << 64)));
    }
    for (what, candidate) in candidates {
        let dealt = decks_from(candidate, 64, 2);
        assert!(dealt.is_disjoint(&round2), "{what} deals round 2's cards");
    }
}

#[test]
fn an_old_league_secret_is_replaced_before_its_next_round_and_a_given_number_warns() {
    let s = Scratch::new("seeds-old-league");
    s.write("l.toml", &league("old", ""));
    whistle_ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    // A league made before round seeds were keyed: its secret a 62-bit
    // number, which the old linear round seed gave away.
    let store = whistle_league::store::Store::open(&s.path("lg/league.db")).unwrap();
    store.set_meta("seed", "1234567890123").unwrap();
    drop(store);
    whistle_ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    let store = whistle_league::store::Store::open(&s.path("lg/league.db")).unwrap();
    let secret = store.meta("seed").unwrap().unwrap();
    drop(store);
    assert_eq!(secret.len(), 64, "a fresh 256-bit secret: {secret}");
    let secret = Seed::from_hex(&secret).unwrap();
    let rounds: Value = serde_json::from_str(
        &whistle_ok(&s, &["league", "rounds", "--json", "--dir", "lg"]).stdout,
    )
    .unwrap();
    let round1 = rounds[0]["seed"].as_str().unwrap();
    assert_eq!(round1, secret.derive(Domain::Round, 1).to_hex());
    let toml = std::fs::read_to_string(s.path("lg/rounds/0001/round.toml")).unwrap();
    assert!(toml.contains(round1), "the round records its seed: {toml}");

    // A league file's number is obeyed, with a warning, in the terminal and
    // in the round's results.
    s.write("given.toml", &league("given", "seed = 5"));
    let init = whistle_ok(&s, &["league", "init", "given.toml", "--dir", "lg2"]);
    assert!(
        init.stdout
            .contains("warning: the league file gives `seed`: the seed is a number"),
        "{}",
        init.stdout
    );
    let r = whistle_ok(
        &s,
        &["league", "round", "--dir", "lg2", "--progress", "quiet"],
    );
    assert!(
        r.stderr.contains("warning: the league file gives `seed`"),
        "{}",
        r.stderr
    );
    let notes = read_json(&s.path("lg2/rounds/0001/results.json"))["notes"].clone();
    assert!(
        notes
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["kind"] == "seed"),
        "{notes}"
    );
    let rounds: Value = serde_json::from_str(
        &whistle_ok(&s, &["league", "rounds", "--json", "--dir", "lg2"]).stdout,
    )
    .unwrap();
    assert_eq!(
        rounds[0]["seed"].as_str().unwrap(),
        Seed::from_u64(5).derive(Domain::Round, 1).to_hex()
    );
}
