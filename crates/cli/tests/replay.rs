//! `whistle replay`: the sample logs verify; every kind of corruption is
//! caught and located (hand, step, both values); a fresh tournament's logs
//! verify; and `show --seat --step --raw` prints, byte for byte, the
//! observation the referee sent in a live match.

mod common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
    time::Duration,
};

use common::{Event, Scratch, output_within, whistle_ok};

use prost::Message;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use whistle_protocol::pb::{self, bot_message::Msg as BotMsg, referee_message::Msg};
use whistle_referee::{Referee, TableHandle, TableSpec};
use whistle_replay::{Clocks, Faults, Header, Writer, sha256_hex};
use whistle_rules::{
    Options, Variant,
    dealing::{Domain, Seed},
};

fn whistle() -> Command {
    Command::new(common::WHISTLE)
}

/// Runs `command` to its end (two minutes at most), killed if the test
/// panics meanwhile.
fn run(command: &mut Command) -> Output {
    output_within(command, Duration::from_secs(120))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `whistle replay VERB ARGS`: whether it succeeded, and its stdout
/// then stderr.
fn replay_cmd(verb: &str, args: &[&str]) -> (bool, String) {
    let out = run(whistle().arg("replay").arg(verb).args(args));
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

fn verify(args: &[&str]) -> (bool, String) {
    replay_cmd("verify", args)
}

#[test]
fn every_sample_log_verifies() {
    let samples = repo().join("replays/samples");
    let mut games = Vec::new();
    for dir in std::fs::read_dir(&samples).unwrap() {
        let d = dir.unwrap().path();
        if d.file_name().unwrap() == "what-if" {
            continue;
        }
        games.push(d.file_name().unwrap().to_string_lossy().to_string());
        let (ok, text) = verify(&[d.to_str().unwrap()]);
        assert!(ok, "{text}");
        let files = std::fs::read_dir(d.join("matches")).unwrap().count();
        assert_eq!(text.matches(": ok (").count(), files, "{text}");
        assert!(text.contains("seed commitment holds"), "{text}");
        assert!(text.contains("deals match the match seed"), "{text}");
    }
    games.sort();
    assert_eq!(
        games,
        ["honeymoon", "illustrated", "israeli", "oneonta", "yogi"],
        "a sample tournament per game"
    );
    for f in std::fs::read_dir(samples.join("what-if")).unwrap() {
        let f = f.unwrap().path();
        let (ok, text) = verify(&[f.to_str().unwrap()]);
        assert!(ok, "{}: {text}", f.display());
        assert!(text.contains("legal"), "{text}");
    }
}

fn show(args: &[&str]) -> (bool, String) {
    replay_cmd("show", args)
}

/// `replay show` reads records typed in by a person as it reads the
/// runner's logs: every what-if sample shows its seats' cards.
#[test]
fn show_reads_typed_in_records() {
    for f in std::fs::read_dir(repo().join("replays/samples/what-if")).unwrap() {
        let f = f.unwrap().path();
        let (ok, text) = show(&[f.to_str().unwrap()]);
        assert!(ok, "{}: {text}", f.display());
        assert!(text.contains("seat 0: "), "{}: {text}", f.display());
        assert!(!text.contains("missing field"), "{text}");
    }
    let f = repo().join("replays/samples/what-if/israeli.jsonl");
    let (ok, text) = show(&[
        f.to_str().unwrap(),
        "--hand",
        "0",
        "--step",
        "8",
        "--seat",
        "2",
        "--json",
    ]);
    assert!(ok, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["observation"]["seat"], 2);
    // Seat 2 sees its own hearts, none of seat 1's diamonds.
    let hand = v["observation"]["hand"].to_string();
    assert!(hand.contains("AH") && !hand.contains('D'), "{hand}");
    let (ok, text) = show(&[
        f.to_str().unwrap(),
        "--hand",
        "0",
        "--step",
        "8",
        "--seat",
        "7",
    ]);
    assert!(!ok);
    assert!(text.contains("no such seat: 7"), "{text}");
}

/// A typed-in hand 3 of a multiplayer Oneonta match carries its context
/// (hand number, dealer, totals, previous bids): O13 picks who bids first
/// from the previous bids and the totals, and the totals carry on.
#[test]
fn a_typed_in_later_hand_is_checked_from_its_context() {
    let sample = repo().join("replays/samples/what-if/oneonta-hand-3.jsonl");
    let (ok, text) = verify(&[sample.to_str().unwrap()]);
    assert!(ok, "{text}");
    assert!(text.contains("hand 2:"), "{text}");
    assert!(text.contains("totals [2, 1, 11, -1]"), "{text}");
    let (ok, text) = show(&[sample.to_str().unwrap()]);
    assert!(ok, "{text}");
    assert!(text.contains("hand 2 (dealer 2)"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let records = lines(&sample);
    let write = |name: &str, records: &[Value]| {
        let path = dir.path().join(name);
        write_unsealed(&path, records);
        path
    };
    // Out of turn: the verdict names whose turn it was (O13: seats 1 and 3
    // bid 4 before; seat 3 has the higher total).
    let mut wrong = records.clone();
    wrong[1]["actions"] = serde_json::json!(["1 bid 1"]);
    let (ok, text) = verify(&[write("turn.jsonl", &wrong).to_str().unwrap()]);
    assert!(!ok);
    assert!(
        text.contains("it is not this seat's turn (seat 3 is to act)"),
        "{text}"
    );
    // A seat that does not exist.
    wrong[1]["actions"] = serde_json::json!(["7 bid 1"]);
    let (ok, text) = verify(&[write("seat.jsonl", &wrong).to_str().unwrap()]);
    assert!(!ok);
    assert!(text.contains("no such seat"), "{text}");
    // Without the previous bids the order cannot be known (O13).
    let mut no_bids = records.clone();
    no_bids[1]["context"]
        .as_object_mut()
        .unwrap()
        .remove("previous_bids");
    let (ok, text) = verify(&[write("bids.jsonl", &no_bids).to_str().unwrap()]);
    assert!(!ok);
    assert!(text.contains("context") && text.contains("O13"), "{text}");
    // A context on a later hand, and in a sealed log, is refused.
    let mut twice = records.clone();
    twice.push(records[1].clone());
    let (ok, text) = verify(&[write("twice.jsonl", &twice).to_str().unwrap()]);
    assert!(!ok);
    assert!(text.contains("a context on the first hand only"), "{text}");
    let (_d, log) = sample_copy();
    let mut sealed = lines(&log);
    sealed[1]["context"] = records[1]["context"].clone();
    write_sealed(&log, &sealed);
    let (ok, text) = verify(&[log.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        text.contains("none (a sealed log holds its whole match)"),
        "{text}"
    );
}

/// A copy of the Israeli sample tournament in a temporary folder, whose match
/// 0 log the tests then corrupt.
fn sample_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("replays/samples/israeli");
    std::fs::create_dir_all(dir.path().join("matches")).unwrap();
    std::fs::copy(src.join("results.json"), dir.path().join("results.json")).unwrap();
    let log = dir.path().join("matches/m00000.jsonl");
    std::fs::copy(src.join("matches/m00000.jsonl"), &log).unwrap();
    (dir, log)
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Writes `records`, re-computing every `prev` so that only the content
/// checks (not the hash chain) can notice the change.
fn write_sealed(path: &Path, records: &[Value]) {
    let mut out = String::new();
    let mut last = String::new();
    for (i, r) in records.iter().enumerate() {
        let mut r = r.clone();
        if i > 0 {
            r["prev"] = Value::String(last.clone());
        }
        let text = serde_json::to_string(&r).unwrap();
        last = sha256_hex(text.as_bytes());
        out.push_str(&text);
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}

fn write_unsealed(path: &Path, records: &[Value]) {
    let text: String = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    std::fs::write(path, text).unwrap();
}

fn assert_caught(log: &Path, expect: &[&str]) {
    let (ok, text) = verify(&[log.to_str().unwrap()]);
    assert!(!ok, "not caught:\n{text}");
    for e in expect {
        assert!(text.contains(e), "expected `{e}` in:\n{text}");
    }
}

#[test]
fn a_changed_card_is_caught_and_located() {
    let (_dir, log) = sample_copy();
    let mut r = lines(&log);
    let deck = r[1]["deck"].as_array_mut().unwrap();
    deck.swap(0, 1);
    let edited = r.clone();
    write_sealed(&log, &edited);
    assert_caught(
        &log,
        &["line 2, hand 0: deal (from the match seed): expected"],
    );
    // Without re-sealing, the chain says which line changed.
    write_unsealed(&log, &edited);
    assert_caught(
        &log,
        &["line 2: hash chain: line 2 changed after it was written (line 3's"],
    );
}

#[test]
fn a_changed_action_is_caught_and_located() {
    let (_dir, log) = sample_copy();
    let mut r = lines(&log);
    // The first card played in hand 0 becomes a card another seat plays
    // later: a card its player does not hold.
    let actions = r[1]["actions"].as_array_mut().unwrap();
    let is_card = |a: &Value| a["action"].as_str().unwrap().len() == 2;
    let k = actions.iter().position(is_card).unwrap();
    let seat = actions[k]["seat"].clone();
    let other = actions[k + 1..]
        .iter()
        .find(|a| is_card(a) && a["seat"] != seat)
        .unwrap()["action"]
        .clone();
    actions[k]["action"] = other.clone();
    write_sealed(&log, &r);
    assert_caught(
        &log,
        &[&format!(
            "line 2, hand 0, step {k}: action `{}` by seat {seat}",
            other.as_str().unwrap()
        )],
    );
}

#[test]
fn a_removed_or_reordered_record_is_caught() {
    let (_dir, log) = sample_copy();
    let r = lines(&log);
    let mut removed = r.clone();
    removed.remove(1);
    write_sealed(&log, &removed);
    assert_caught(&log, &["line 2, hand 0: deal (from the match seed)"]);
    let mut swapped = r.clone();
    swapped.swap(1, 2);
    write_sealed(&log, &swapped);
    assert_caught(&log, &["deal index: expected 0, found 1"]);
}

#[test]
fn an_edited_score_is_caught() {
    let (_dir, log) = sample_copy();
    let mut r = lines(&log);
    let p = r[1]["result"]["points"][0].as_i64().unwrap();
    r[1]["result"]["points"][0] = Value::from(p + 10);
    write_sealed(&log, &r);
    assert_caught(&log, &["line 2, hand 0: result: points: expected"]);
    let mut r = lines(&repo().join("replays/samples/israeli/matches/m00000.jsonl"));
    let last = r.len() - 1;
    r[last]["result"]["totals"][1] = Value::from(1000);
    write_sealed(&log, &r);
    assert_caught(&log, &["match result: totals: expected"]);
}

#[test]
fn a_wrong_seed_is_caught() {
    let (_dir, log) = sample_copy();
    let (ok, text) = verify(&[log.to_str().unwrap()]);
    assert!(ok, "the untouched copy verifies: {text}");
    let (ok, text) = verify(&[log.to_str().unwrap(), "--seed", "8"]);
    assert!(!ok, "{text}");
    assert!(text.contains("seed commitment"), "{text}");
    // A wrong match seed in the end record (re-sealed): every deal disagrees.
    let mut r = lines(&log);
    let last = r.len() - 1;
    r[last]["match_seed"] = Value::String(Seed::from_u64(1).to_hex());
    write_sealed(&log, &r);
    assert_caught(
        &log,
        &[
            "match seed (derived from the tournament seed)",
            "hand 0: deal (from the match seed)",
        ],
    );
}

/// Runs the tournament `event` in a new scratch folder named `name`;
/// returns the folder (kept while the `Scratch` lives) and the
/// tournament's output folder.
fn run_tournament(name: &str, event: &Event) -> (Scratch, PathBuf) {
    let s = Scratch::new(name);
    let file = event.write(&s, "t.toml");
    let out = s.path("out");
    whistle_ok(
        &s,
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--progress",
            "quiet",
        ],
    );
    (s, out)
}

#[test]
fn a_fresh_tournament_verifies() {
    let (_dir, out) = run_tournament(
        "replay-fresh",
        &Event::new("fresh", "israeli")
            .and("seed = 99\nhands = 2\nparallel = 4\n")
            .bundled("h", "heuristic")
            .bundled("r", "random"),
    );
    let (ok, text) = verify(&[out.to_str().unwrap()]);
    assert!(ok, "{text}");
    assert!(text.contains("seed commitment holds"), "{text}");
}

/// O16: a cooperative Oneonta event reports each seat's own O6 score beside
/// the team's, in the logs, in `replay verify` and in the results.
#[test]
fn cooperative_oneonta_reports_each_seats_own_score() {
    let (_dir, out) = run_tournament(
        "replay-coop",
        &Event::new("coop", "oneonta")
            .and("seed = 5\nhands = 3\n[options]\nmode = \"coop\"\nplayers = 3\n")
            .bundled("h", "heuristic")
            .bundled("r", "random"),
    );
    let log = std::fs::read_dir(out.join("matches"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let hands: Vec<Value> = lines(&log)
        .into_iter()
        .filter(|r| r["type"] == "hand")
        .collect();
    assert_eq!(hands.len(), 3);
    let mut sums = [0i64; 3];
    for h in &hands {
        let r = &h["result"];
        let own: Vec<i64> = r["seat_points"]
            .as_array()
            .expect("seat_points in a cooperative hand")
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        // O16 (team-score=sum): the team's score is the sum of the seats' own.
        let team = r["points"][0].as_i64().unwrap();
        assert_eq!(own.iter().sum::<i64>(), team, "{r}");
        for (s, v) in own.iter().enumerate() {
            sums[s] += v;
        }
    }
    let (ok, text) = verify(&[log.to_str().unwrap()]);
    assert!(ok, "{text}");
    assert!(
        text.contains(&format!("own points per seat (each seat's O6 score; the team's are the totals): {sums:?} over 3 hand(s)")),
        "{text}"
    );
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let m = &results["matches"][0];
    assert_eq!(m["seat_totals"], serde_json::json!(sums), "{m}");
    assert!(
        results["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["own_points"]["n"].as_u64().unwrap() > 0)
    );
    let md = std::fs::read_to_string(out.join("standings.md")).unwrap();
    assert!(md.contains("## Own scores"), "{md}");
}

/// Plays one seat over gRPC with events off, answering every request with
/// `answer`, until the match ends.
async fn play_seat(
    addr: std::net::SocketAddr,
    token: String,
    mut answer: impl FnMut(&pb::DecisionRequest) -> pb::answer::Choice,
) {
    let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = pb::referee_client::RefereeClient::new(channel);
    let (tx, rx) = mpsc::channel(16);
    tx.send(pb::BotMessage {
        msg: Some(BotMsg::Hello(pb::Hello {
            token,
            bot_name: "test".into(),
            protocol: "whistle.v1".into(),
            quiet: true,
            compact: false,
            binary: false,
        })),
    })
    .await
    .unwrap();
    let mut inbound = client
        .play(ReceiverStream::new(rx))
        .await
        .unwrap()
        .into_inner();
    while let Some(m) = inbound.next().await {
        match m.unwrap().msg {
            Some(Msg::Request(r)) => {
                let choice = answer(&r);
                tx.send(pb::BotMessage {
                    msg: Some(BotMsg::Answer(pb::Answer {
                        request_id: r.request_id,
                        choice: Some(choice),
                    })),
                })
                .await
                .unwrap();
            }
            Some(Msg::MatchEnd(_)) => break,
            _ => {}
        }
    }
}

/// Plays one seat and keeps every request's observation bytes with its
/// request id.
async fn capture_seat(addr: std::net::SocketAddr, token: String) -> Vec<(u64, Vec<u8>)> {
    let mut seen = Vec::new();
    play_seat(addr, token, |r| {
        seen.push((
            r.request_id,
            r.observation.as_ref().unwrap().encode_to_vec(),
        ));
        pb::answer::Choice::Index((r.request_id % r.legal.len() as u64) as u32)
    })
    .await;
    seen
}

/// Logs the four-seat Israeli match of `table` (match seed `seed` derived
/// from tournament seed `tournament_seed`, match 0) to `log`, as the runner
/// would, until the match ends.
async fn record_israeli(
    table: &mut TableHandle,
    tournament: &str,
    tournament_seed: u64,
    options: Options,
    log: &Path,
) {
    let game = Variant::Israeli.new_game(&options).unwrap();
    let header = Header::builder(
        tournament,
        0,
        Variant::Israeli,
        whistle_rules::Game::options(&game),
        vec!["a".into(), "b".into(), "c".into(), "d".into()],
    )
    .table(table.table_id.clone())
    .seed_commitment(whistle_replay::seed_commitment(Seed::from_u64(
        tournament_seed,
    )))
    .clocks(Clocks {
        per_action_ms: 1000,
        time_bank_ms: 30000,
        reconnect_grace_ms: 10000,
    })
    .faults(Faults {
        max_faults: 10,
        // The rule the table played its fallbacks by: the default policy.
        fallback: whistle_referee::FaultPolicy::default()
            .fallback
            .name()
            .into(),
    })
    .build();
    let seed = Seed::from_u64(tournament_seed).derive(Domain::Match, 0);
    let mut writer = Writer::create(log, &header).unwrap();
    whistle_tournament::runner::record_table(table, &mut writer, seed, || {})
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn show_prints_exactly_what_the_referee_sent() {
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let seed = Seed::from_u64(3).derive(Domain::Match, 0);
    let mut spec = TableSpec::new(Variant::Israeli, seed, &["a", "b", "c", "d"]);
    spec.options = Options::parse(&["hands=2"]).unwrap();
    let options = spec.options.clone();
    let mut table = referee.create_table(spec).unwrap();
    let seats: Vec<_> = table
        .tokens
        .iter()
        .map(|t| tokio::spawn(capture_seat(addr, t.clone())))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("m.jsonl");
    record_israeli(&mut table, "live", 3, options, &log).await;
    let mut sent: Vec<(usize, u64, Vec<u8>)> = Vec::new();
    for (s, h) in seats.into_iter().enumerate() {
        for (id, bytes) in h.await.unwrap() {
            sent.push((s, id, bytes));
        }
    }
    server.shutdown().await;
    // Request ids count decisions in order; Israeli with index answers here has
    // no simultaneous step unless a frisch occurs, so map requests to steps by
    // replaying the log: the k-th decision overall is step k of its hand.
    sent.sort_by_key(|x| x.1);
    let recorded = whistle_replay::read(&log).unwrap();
    let mut steps = Vec::new();
    for h in &recorded.hands {
        for (k, a) in h.actions.iter().enumerate() {
            steps.push((h.deal, k, a.seat.index()));
        }
    }
    let sequential = sent.len() == steps.len();
    assert!(sequential, "a frisch happened; pick another seed");
    let mut checked = 0;
    for (i, (deal, step, seat)) in steps.iter().enumerate() {
        if i % 7 != 0 {
            continue;
        }
        let (s, _, bytes) = &sent[i];
        assert_eq!(s, seat);
        let out = run(whistle().args([
            "replay",
            "show",
            log.to_str().unwrap(),
            "--hand",
            &deal.to_string(),
            "--step",
            &step.to_string(),
            "--seat",
            &seat.to_string(),
            "--raw",
        ]));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            hex,
            "hand {deal} step {step}"
        );
        checked += 1;
    }
    assert!(checked > 10);
}

#[test]
fn rerun_reproduces_deterministic_bots_decisions() {
    let (_dir, out) = run_tournament(
        "replay-det",
        &Event::new("det", "honeymoon")
            .and("seed = 5\nhands = 2\n")
            .bundled("h", "heuristic")
            .bundled("f", "first"),
    );
    let log = out.join("matches/m00000.jsonl");
    let seats = lines(&log)[0]["seats"].clone();
    let bots = if seats[0] == "h" {
        "heuristic,first"
    } else {
        "first,heuristic"
    };
    let rerun = run(whistle().args([
        "replay",
        "rerun",
        log.to_str().unwrap(),
        "--hand",
        "1",
        "--bots",
        bots,
    ]));
    let text = String::from_utf8_lossy(&rerun.stdout);
    assert!(rerun.status.success(), "{text}");
    assert!(
        text.contains("every decision of the log was made again"),
        "{text}"
    );
    let other = if bots.starts_with('h') {
        "first,first"
    } else {
        "heuristic,heuristic"
    };
    let rerun = run(whistle().args([
        "replay",
        "rerun",
        log.to_str().unwrap(),
        "--hand",
        "1",
        "--bots",
        other,
    ]));
    let text = String::from_utf8_lossy(&rerun.stdout);
    assert!(text.contains("first difference at step"), "{text}");
}

/// Plays one seat badly at first: a malformed answer, then an illegal one,
/// then the first legal action every time.
async fn faulty_seat(addr: std::net::SocketAddr, token: String) {
    let mut n = 0;
    play_seat(addr, token, |_| {
        n += 1;
        match n {
            1 => pb::answer::Choice::Text("declare".into()),
            2 => pb::answer::Choice::Text("bid 4C".into()),
            3 => pb::answer::Choice::Index(99),
            _ => pb::answer::Choice::Index(0),
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logged_fault_verdicts_are_judged_again() {
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let seed = Seed::from_u64(8).derive(Domain::Match, 0);
    let mut spec = TableSpec::new(Variant::Israeli, seed, &["a", "b", "c", "d"]);
    spec.options = Options::parse(&["hands=1"]).unwrap();
    let options = spec.options.clone();
    let mut table = referee.create_table(spec).unwrap();
    let seats: Vec<_> = table
        .tokens
        .iter()
        .map(|t| tokio::spawn(faulty_seat(addr, t.clone())))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("m.jsonl");
    record_israeli(&mut table, "faults", 8, options, &log).await;
    for s in seats {
        s.await.unwrap();
    }
    server.shutdown().await;
    let mut r = lines(&log);
    let faults = r[1]["faults"].as_array().unwrap().clone();
    let kinds: Vec<&str> = faults.iter().map(|f| f["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "malformed").count(),
        8,
        "{faults:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| **k == "illegal").count(),
        4,
        "{faults:?}"
    );
    assert!(
        faults.iter().all(|f| f.get("answer").is_some()),
        "{faults:?}"
    );
    let (ok, text) = verify(&[log.to_str().unwrap(), "--seed", "8"]);
    assert!(ok, "{text}");
    // A fault recorded as illegal that the rules judge malformed is caught.
    let i = kinds.iter().position(|k| *k == "illegal").unwrap();
    r[1]["faults"][i]["kind"] = Value::String("malformed".into());
    write_sealed(&log, &r);
    assert_caught(&log, &["fault verdict on text \"bid 4C\""]);
}

/// A student's typed-in record that `verify` refuses: `show` says why and
/// fails, draws what plays and marks the refused step; `verify` checks what
/// follows an incomplete hand; the messages use the game's notation.
#[test]
fn a_disputed_record_is_shown_with_its_problems_and_nothing_is_skipped() {
    let sample = repo().join("replays/samples/what-if/oneonta-hand-3.jsonl");
    let records = lines(&sample);
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, records: &[Value]| {
        let path = dir.path().join(name);
        write_unsealed(&path, records);
        path.to_str().unwrap().to_string()
    };
    // A card twice in the deal: nothing plays; the reason is said.
    let mut twice = records.clone();
    twice[1]["hands"][1] = twice[1]["hands"][0].clone();
    let twice = write("twice.jsonl", &twice);
    let (ok, text) = show(&[&twice]);
    assert!(!ok);
    assert!(
        text.contains("does not verify") && text.contains("8C is repeated"),
        "{text}"
    );
    let (ok, text) = show(&[&twice, "--hand", "2"]);
    assert!(!ok);
    assert!(
        text.contains("8C is repeated") && text.contains("its hands: none"),
        "{text}"
    );
    // An illegal action: drawn up to it, marked, and named where it is.
    let mut illegal = records.clone();
    illegal[1]["actions"][6] = Value::from("0 AH");
    let illegal = write("illegal.jsonl", &illegal);
    let (ok, text) = show(&[&illegal]);
    assert!(!ok);
    assert!(text.contains("step 6: REFUSED"), "{text}");
    assert!(text.contains("AH was played at step 4 already"), "{text}");
    // An incomplete hand followed by another: the rest is not skipped.
    let mut cut = records.clone();
    let kept: Vec<Value> = cut[1]["actions"].as_array().unwrap()[..8].to_vec();
    cut[1]["actions"] = Value::from(kept);
    let mut more = records[1].clone();
    more.as_object_mut().unwrap().remove("context");
    more["actions"] = serde_json::json!(["0 9H"]);
    cut.push(more);
    let (ok, text) = verify(&[&write("cut.jsonl", &cut)]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("1 more hand line(s) (lines 3), not checked"),
        "{text}"
    );
    // Steps: how many there are, which action was played, --seat alone.
    let s = sample.to_str().unwrap();
    let (ok, text) = show(&[s, "--hand", "2", "--step", "99"]);
    assert!(!ok);
    assert!(text.contains("its steps are 0 to"), "{text}");
    let (ok, text) = show(&[s, "--hand", "2", "--step", "1", "--json"]);
    assert!(ok, "{text}");
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["played"]["action"], "bid 1", "{doc}");
    assert_eq!(doc["played"]["seat"], 0);
    let (ok, text) = show(&[s, "--seat", "1"]);
    assert!(!ok);
    assert!(text.contains("--seat needs --step"), "{text}");
}

#[test]
fn verify_speaks_the_games_notation_and_names_the_changed_line() {
    let (_dir, log) = sample_copy();
    let mut r = lines(&log);
    // A bid in a hand's result edited: said as a bid, not as Rust.
    let bids = r[1]["result"]["bids"].as_array_mut().unwrap();
    let k = bids.iter().position(|b| b.is_string()).unwrap();
    bids[k] = Value::from("bid 13");
    write_sealed(&log, &r);
    let (ok, text) = verify(&[log.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        text.contains("result: bids: expected [") && text.contains("bid 13"),
        "{text}"
    );
    assert!(!text.contains("Some(") && !text.contains("Bid("), "{text}");
}

/// `whistle replay verify ARGS` on a pool of `threads` threads: whether it
/// succeeded, and its stdout then stderr.
fn verify_on(threads: usize, args: &[&str]) -> (bool, String) {
    let out = run(whistle()
        .args(["replay", "verify"])
        .args(args)
        .env("RAYON_NUM_THREADS", threads.to_string()));
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// Logs are verified in parallel, but several bad logs are reported exactly
/// as one at a time would report them, in the order of the files: a changed
/// line (chain and deal), a cut line, an edited score, around a good log;
/// the text and the `--json` the same on one thread as on many.
#[test]
fn several_bad_logs_are_reported_in_order_whatever_the_threads() {
    let (dir, _) = sample_copy();
    let src = repo().join("replays/samples/israeli/matches");
    let log = |i: usize| dir.path().join(format!("matches/m0000{i}.jsonl"));
    for i in 1..4 {
        std::fs::copy(src.join(format!("m0000{i}.jsonl")), log(i)).unwrap();
    }
    // m00000: its first hand's first two cards swapped, the chain as written.
    let mut r = lines(&log(0));
    r[1]["deck"].as_array_mut().unwrap().swap(0, 1);
    write_unsealed(&log(0), &r);
    // m00001 stays good. m00002: its second line cut in half.
    let text = std::fs::read_to_string(log(2)).unwrap();
    let mut cut: Vec<String> = text.lines().map(str::to_string).collect();
    let half = cut[1].len() / 2;
    cut[1].truncate(half);
    std::fs::write(log(2), cut.join("\n") + "\n").unwrap();
    // m00003: a hand's points edited, the chain re-sealed.
    let mut r = lines(&log(3));
    r[1]["result"]["points"][0] = Value::from(999);
    write_sealed(&log(3), &r);

    let folder = dir.path().to_str().unwrap();
    let (ok, every) = verify_on(4, &[folder]);
    assert!(!ok, "{every}");
    let (ok, one) = verify_on(1, &[folder]);
    assert!(!ok);
    assert_eq!(every, one);
    // Each log on its own, one after another: the same text, in the same
    // order.
    let alone: String = (0..4)
        .map(|i| verify_on(1, &[log(i).to_str().unwrap()]).1)
        .collect();
    assert_eq!(every, alone);
    let at: Vec<usize> = (0..4)
        .map(|i| every.find(&format!("m0000{i}.jsonl")).unwrap())
        .collect();
    assert!(at.is_sorted(), "{every}");
    assert!(
        every.contains("line 2: hash chain: line 2 changed"),
        "{every}"
    );
    assert!(
        every.contains("line 2, hand 0: deal (from the match seed)"),
        "{every}"
    );
    assert!(
        every.contains("line 2: record: expected a valid record"),
        "{every}"
    );
    assert!(every.contains("result: points"), "{every}");
    // --json: one document, the logs in order, the same on one thread.
    let (_, every) = verify_on(4, &[folder, "--json"]);
    let (_, one) = verify_on(1, &[folder, "--json"]);
    assert_eq!(every, one);
    let doc: Value = serde_json::from_str(&every).unwrap();
    let files: Vec<&str> = doc
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 4);
    assert!(
        files.is_sorted() && files[0].ends_with("m00000.jsonl"),
        "{files:?}"
    );
    assert_eq!(
        doc.as_array()
            .unwrap()
            .iter()
            .map(|r| r["problems"].as_array().unwrap().is_empty())
            .collect::<Vec<_>>(),
        [false, true, false, false]
    );
}
