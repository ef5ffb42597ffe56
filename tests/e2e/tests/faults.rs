//! Misbehaving bot processes, one test per fault: an embedded referee (so the
//! test reads the table's record), three real `whistle-bot` processes and one
//! `badbot` process under a tight clock. Each test proves that the bad seat
//! gets the documented outcome (the fault kinds recorded, the fallbacks
//! played, a forfeit, a refusal, a takeover, a resumption), that no
//! well-behaved seat is blamed, and that the match completes and adds up
//! (`record::check` replays it through the engine).

use std::time::Duration;

use tokio::{process::Command, time::timeout};
use whistle_e2e::{
    bins::workspace_bin,
    process::Proc,
    record::{self, Summary},
};
use whistle_referee::{
    Fallback, FaultKind, FaultPolicy, Referee, TableRecord, TableSpec, TimeControl,
};
use whistle_rules::{
    Options, Seat, Variant,
    dealing::{Domain, Seed},
};

const BADBOT: &str = env!("CARGO_BIN_EXE_badbot");
/// Time-box for a whole match.
const MATCH_LIMIT: Duration = Duration::from_secs(60);
/// Time-box for a process to exit once its match is over.
const EXIT_LIMIT: Duration = Duration::from_secs(20);

/// One Israeli hand under a tight clock; faults forfeit only in the tests
/// that lower `max_faults`.
fn spec(seed: u64) -> TableSpec {
    let mut spec = TableSpec::new(
        Variant::Israeli,
        Seed::from_u64(seed).derive(Domain::Match, 0),
        &["random", "random", "random", "random"],
    );
    spec.options = Options::parse(&["hands=1"]).expect("options");
    spec.time = TimeControl {
        per_action: Duration::from_millis(200),
        time_bank: Duration::from_millis(300),
        reconnect_grace: Duration::from_secs(2),
    };
    spec.faults = FaultPolicy {
        max_faults: 100,
        fallback: Fallback::Random,
        flood_per_second: 50,
    };
    spec.start_timeout = Duration::from_secs(20);
    spec
}

/// A match played out with a badbot.
struct Played {
    records: Vec<TableRecord>,
    summary: Summary,
    bad_seat: usize,
    bad: Proc,
    good: Vec<(usize, Proc)>,
}

impl Played {
    /// The badbot's stdout lines that start with `prefix`.
    fn bad_lines(&self, prefix: &str) -> Vec<String> {
        self.bad
            .stdout()
            .lines()
            .filter(|l| l.starts_with(prefix))
            .map(str::to_string)
            .collect()
    }

    fn dump(&self) -> String {
        let mut s = record::summarize(&self.records);
        s.push_str(&self.bad.dump());
        for (_, p) in &self.good {
            s.push_str(&p.dump());
        }
        s
    }

    /// The bad seat's fault kinds.
    fn bad_kinds(&self) -> Vec<FaultKind> {
        self.summary.kinds(self.bad_seat)
    }

    /// The fault kinds the badbot was told in-band (`Fault` messages), by
    /// their proto names.
    fn told(&self) -> Vec<String> {
        self.bad_lines("fault ")
            .iter()
            .map(|l| field(l, "kind"))
            .collect()
    }

    /// The bad seat's recorded fault kinds, by their proto names.
    fn recorded(&self) -> Vec<String> {
        self.bad_kinds()
            .iter()
            .map(|k| k.name().to_uppercase().replace('-', "_"))
            .collect()
    }

    /// What holds whatever the fault: the well-behaved seats (except
    /// `spare`) have no fault, played no fallback and exited with success
    /// after the match; every seat that got MatchEnd saw the recorded totals.
    fn assert_common(&self, spare: Option<usize>) {
        let d = self.dump();
        for (seat, p) in &self.good {
            if Some(*seat) == spare {
                continue;
            }
            assert!(
                self.summary.faults[*seat].is_empty(),
                "well-behaved seat {seat} has faults {:?}\n{d}",
                self.summary.faults[*seat]
            );
            assert_eq!(self.summary.fallbacks[*seat], 0, "seat {seat}\n{d}");
            assert!(p.code() == Some(0), "whistle-bot seat {seat} failed\n{d}");
        }
        let totals = format!("totals={:?}", self.summary.result.totals);
        for line in self.bad_lines("end ") {
            assert!(line.ends_with(&totals), "{line} vs {totals}\n{d}");
        }
        assert_eq!(
            self.summary.faults.iter().map(Vec::len).sum::<usize>(),
            self.records
                .iter()
                .filter(|r| matches!(r, TableRecord::Fault(_)))
                .count()
        );
    }
}

/// Plays `spec` with `whistle-bot --bot random` in every seat but `bad_seat`,
/// where `badbot` runs with `args` (and, for `other`, the other seat's token
/// in `WHISTLE_OTHER_TOKEN`). Waits for the record's end and every process's
/// exit, then checks the record.
async fn play(spec: TableSpec, bad_seat: usize, args: &[&str], other: Option<usize>) -> Played {
    play_inner(spec, bad_seat, args, other, 0).await
}

/// As [`play`], but the badbot connects alone first and the other bots are
/// started only once the table has recorded `faults` faults of its seat: for
/// misbehaviour at its Welcome that must meet no pending request of its own.
async fn play_after_faults(
    spec: TableSpec,
    bad_seat: usize,
    args: &[&str],
    faults: usize,
) -> Played {
    play_inner(spec, bad_seat, args, None, faults).await
}

async fn play_inner(
    spec: TableSpec,
    bad_seat: usize,
    args: &[&str],
    other: Option<usize>,
    faults_first: usize,
) -> Played {
    // First, as it may build: the table's start timeout runs from its creation.
    let whistle_bot = workspace_bin("whistle-bot");
    let referee = Referee::new(None);
    let (addr, server) = referee
        .spawn("127.0.0.1:0".parse().expect("address"))
        .await
        .expect("the referee listens");
    let mut handle = referee.create_table(spec.clone()).expect("the table");
    let mut cmd = Command::new(BADBOT);
    cmd.args(args)
        .args(["--seed", "99"])
        .env("WHISTLE_ADDRESS", addr.to_string())
        .env("WHISTLE_TOKEN", &handle.tokens[bad_seat]);
    if let Some(o) = other {
        cmd.env("WHISTLE_OTHER_TOKEN", &handle.tokens[o]);
    }
    let spawn_bad = |cmd: &mut Command| Proc::spawn(format!("badbot {}", args.join(" ")), cmd);
    let mut early = Vec::new();
    let mut bad = None;
    if faults_first > 0 {
        let p = spawn_bad(&mut cmd);
        let seen = timeout(MATCH_LIMIT, async {
            let mut n = 0;
            while n < faults_first {
                let Some(r) = handle.records.recv().await else {
                    break;
                };
                if matches!(&r, TableRecord::Fault(f) if f.seat.index() == bad_seat) {
                    n += 1;
                }
                early.push(r);
            }
            n
        })
        .await;
        assert_eq!(
            seen,
            Ok(faults_first),
            "the badbot's first faults:\n{}{}",
            record::summarize(&early),
            p.dump()
        );
        bad = Some(p);
    }
    let mut good = Vec::new();
    for seat in (0..4).filter(|&s| s != bad_seat) {
        let mut cmd = Command::new(&whistle_bot);
        cmd.args(["--bot", "random", "--seed", &(seat + 1).to_string()])
            .env("WHISTLE_ADDRESS", addr.to_string())
            .env("WHISTLE_TOKEN", &handle.tokens[seat]);
        good.push((
            seat,
            Proc::spawn(format!("whistle-bot seat {seat}"), &mut cmd),
        ));
    }
    let mut bad = bad.unwrap_or_else(|| spawn_bad(&mut cmd));
    let records = match record::read_all(&mut handle.records, MATCH_LIMIT).await {
        Ok(r) => early.into_iter().chain(r).collect::<Vec<_>>(),
        Err(e) => {
            let mut s = record::summarize(&early);
            s.push_str(&e);
            s.push_str(&bad.dump());
            for (_, p) in &good {
                s.push_str(&p.dump());
            }
            panic!("{s}");
        }
    };
    bad.wait(EXIT_LIMIT).await;
    for (_, p) in &mut good {
        p.wait(EXIT_LIMIT).await;
    }
    server.shutdown().await;
    let summary = record::check(&spec, &records);
    Played {
        records,
        summary,
        bad_seat,
        bad,
        good,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_answer_is_one_late_fault_and_the_fallback_is_played() {
    // Two hands, so that the late answer surely arrives while play goes on.
    let mut spec = spec(1);
    spec.options = Options::parse(&["hands=2"]).expect("options");
    let p = play(spec, 2, &["--mode", "slow", "--count", "1"], None).await;
    let d = p.dump();
    // The answer went out 50 ms after the allowance and the bank ran out,
    // before the match ended.
    let out = p.bad.stdout();
    let late = out.find("late answer id=").expect("a late answer");
    assert!(late < out.find("end ").expect("an end"), "{d}");
    // One late answer is one Late fault, whether the referee's timer or
    // the answer came first; the fallback stands and the answer is ignored.
    assert_eq!(p.bad_kinds(), [FaultKind::Late], "{d}");
    let fault = &p.summary.faults[2][0];
    assert!(fault.fallback.is_some() && !fault.forfeited, "{d}");
    assert_eq!(p.summary.fallbacks[2], 1, "{d}");
    assert_eq!(p.told(), ["LATE"], "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_bot_is_late_every_time_and_forfeits_at_max_faults() {
    let mut spec = spec(2);
    spec.faults.max_faults = 3;
    let p = play(spec, 1, &["--mode", "silent"], None).await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::Late; 3], "{d}");
    let flags: Vec<bool> = p.summary.faults[1].iter().map(|f| f.forfeited).collect();
    assert_eq!(flags, [false, false, true], "{d}");
    assert_eq!(p.summary.forfeited, [Seat::new(1)], "{d}");
    // Every action of the seat was a fallback: three after faults, the
    // rest played without asking once it had forfeited.
    assert_eq!(p.summary.fallbacks[1], p.summary.actions[1], "{d}");
    assert!(p.summary.actions[1] > 3, "{d}");
    // It was told each fault, and its stream stayed open to MatchEnd.
    assert_eq!(p.told(), p.recorded(), "{d}");
    assert_eq!(p.bad_lines("end ").len(), 1, "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_card_is_an_illegal_fault_with_a_fallback() {
    let p = play(spec(3), 0, &["--mode", "illegal", "--count", "2"], None).await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::Illegal; 2], "{d}");
    assert!(
        p.summary.faults[0].iter().all(|f| f.fallback.is_some()),
        "{d}"
    );
    assert_eq!(p.summary.fallbacks[0], 2, "{d}");
    assert_eq!(p.told(), p.recorded(), "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_text_is_a_malformed_fault_with_a_fallback() {
    let p = play(spec(4), 3, &["--mode", "garbage", "--count", "2"], None).await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::Malformed; 2], "{d}");
    assert!(
        p.summary.faults[3].iter().all(|f| f.fallback.is_some()),
        "{d}"
    );
    assert_eq!(p.summary.fallbacks[3], 2, "{d}");
    assert_eq!(p.told(), p.recorded(), "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_with_nothing_pending_are_out_of_turn_faults_and_nothing_is_played() {
    // The badbot answers at its Welcome, before the other bots connect:
    // nothing is pending for its seat then. Seat 0 deals the first hand, so
    // the auction opens at seat 1.
    let p = play_after_faults(spec(5), 0, &["--mode", "out-of-turn", "--count", "3"], 3).await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::OutOfTurn; 3], "{d}");
    assert!(
        p.summary.faults[0].iter().all(|f| f.fallback.is_none()),
        "{d}"
    );
    assert_eq!(p.summary.fallbacks[0], 0, "{d}");
    assert_eq!(p.told(), p.recorded(), "{d}");
    let first = p.records.iter().find_map(|r| match r {
        TableRecord::Action { seat, .. } => Some(seat.index()),
        _ => None,
    });
    assert_eq!(first, Some(1), "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answering_an_old_request_again_is_a_stale_fault_and_nothing_is_played() {
    let p = play(
        spec(6),
        1,
        &["--mode", "stale", "--count", "2", "--at", "2"],
        None,
    )
    .await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::Stale; 2], "{d}");
    let requests: Vec<u64> = p
        .bad_lines("request ")
        .iter()
        .map(|l| field(l, "id").parse().expect("an id"))
        .collect();
    for f in &p.summary.faults[1] {
        assert!(f.fallback.is_none(), "{d}");
        // The stale id is one of the seat's own earlier requests.
        let id = f.request_id.expect("a request id");
        assert!(requests.contains(&id), "{d}");
    }
    assert_eq!(p.summary.fallbacks[1], 0, "{d}");
    assert_eq!(p.told(), p.recorded(), "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_token_is_refused_and_the_seat_is_absent_then_forfeits() {
    let mut spec = spec(7);
    // Long enough for three bot processes to start on a loaded machine.
    spec.start_timeout = Duration::from_millis(3000);
    spec.time.reconnect_grace = Duration::from_millis(400);
    let p = play(spec, 3, &["--mode", "wrong-token"], None).await;
    let d = p.dump();
    // Refused with UNAUTHENTICATED; the process exits with failure.
    let refused = p.bad_lines("refused ");
    assert_eq!(refused.len(), 1, "{d}");
    assert!(refused[0].contains("code=Unauthenticated"), "{d}");
    assert_eq!(p.bad.code(), Some(1), "{d}");
    // The table started without it after the start timeout.
    assert_eq!(p.summary.connected, [true, true, true, false], "{d}");
    // Its decisions were Absent faults with fallbacks until the grace
    // period ran out and it forfeited; then fallbacks without asking.
    let kinds = p.bad_kinds();
    assert!(
        !kinds.is_empty() && kinds.iter().all(|&k| k == FaultKind::Absent),
        "{d}"
    );
    let last = p.summary.faults[3].last().expect("a fault");
    assert!(last.forfeited, "{d}");
    assert_eq!(p.summary.forfeited, [Seat::new(3)], "{d}");
    assert_eq!(p.summary.fallbacks[3], p.summary.actions[3], "{d}");
    assert!(p.told().is_empty(), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_seats_token_takes_that_seat_over_and_the_older_stream_is_aborted() {
    let p = play(spec(8), 0, &["--mode", "other-seat"], Some(2)).await;
    let d = p.dump();
    // The badbot's second stream was welcomed to seat 2 as a resumption...
    let welcomes = p.bad_lines("welcome ");
    assert_eq!(
        welcomes,
        [
            "welcome seat=0 resumed=false",
            "welcome seat=2 resumed=true"
        ],
        "{d}"
    );
    // ...and played it to the end, as it played its own.
    let ends = p.bad_lines("end ");
    assert_eq!(ends.len(), 2, "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    // The older stream of seat 2 ended with ABORTED.
    let (_, victim) = p.good.iter().find(|(s, _)| *s == 2).expect("seat 2");
    let said = victim.stderr();
    assert!(
        said.contains("superseded by a newer stream for the same seat (Aborted)"),
        "{d}"
    );
    // Nobody was blamed: the pending request moved to the new stream.
    assert!(p.summary.faults.iter().all(Vec::is_empty), "{d}");
    // The kit logs the seat's end as an error and, having no other seat,
    // exits with success.
    assert_eq!(victim.code(), Some(0), "{d}");
    p.assert_common(Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_resumes_the_seat_with_its_pending_request() {
    let p = play(spec(9), 2, &["--mode", "disconnect", "--at", "2"], None).await;
    let d = p.dump();
    let drops = p.bad_lines("drop ");
    assert_eq!(drops.len(), 1, "{d}");
    let dropped = field(&drops[0], "id");
    assert_eq!(p.bad_lines("reconnect ").len(), 1, "{d}");
    let welcomes = p.bad_lines("welcome ");
    assert_eq!(
        welcomes,
        [
            "welcome seat=2 resumed=false",
            "welcome seat=2 resumed=true"
        ],
        "{d}"
    );
    // The request it walked away from was sent again on the new stream,
    // unless its time ran out first: then it was an Absent fault with a
    // fallback, the only fault allowed here.
    let out = p.bad.stdout();
    let after = &out[out.find("resumed=true").expect("resumed")..];
    let next = after
        .lines()
        .find(|l| l.starts_with("request "))
        .expect("a request");
    match p.summary.faults[2].as_slice() {
        [] => assert_eq!(field(next, "id"), dropped, "{d}"),
        [absent] => {
            assert_eq!(absent.kind, FaultKind::Absent, "{d}");
            assert_eq!(absent.request_id, dropped.parse().ok(), "{d}");
            assert!(absent.fallback.is_some(), "{d}");
        }
        more => panic!("faults {more:?}\n{d}"),
    }
    // A fault while away is not told: there was no stream to tell.
    assert!(p.told().is_empty(), "{d}");
    assert!(p.summary.forfeited.is_empty(), "{d}");
    assert_eq!(p.bad_lines("end ").len(), 1, "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_closes_the_stream_with_a_flood_fault_and_the_seat_may_come_back() {
    let mut spec = spec(10);
    spec.faults.flood_per_second = 20;
    spec.faults.max_faults = 50;
    let p = play_after_faults(spec, 0, &["--mode", "flood", "--flood", "5000"], 21).await;
    let d = p.dump();
    // The first 20 unsolicited answers are out-of-turn faults; the 21st
    // within the second closes the stream as a flood.
    let mut expected = vec![FaultKind::OutOfTurn; 20];
    expected.push(FaultKind::Flood);
    assert_eq!(p.bad_kinds(), expected, "{d}");
    assert_eq!(p.summary.fallbacks[0], 0, "{d}");
    // The out-of-turn faults were told in-band; the flood fault is recorded
    // after the stream is cut, so the bot learns of it from the status.
    assert_eq!(p.told(), ["OUT_OF_TURN"; 20], "{d}");
    let status = p.bad_lines("status ");
    assert_eq!(status.len(), 1, "{d}");
    assert!(status[0].contains("code=ResourceExhausted"), "{d}");
    let welcomes = p.bad_lines("welcome ");
    assert_eq!(
        welcomes,
        [
            "welcome seat=0 resumed=false",
            "welcome seat=0 resumed=true"
        ],
        "{d}"
    );
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resyncs_resend_the_whole_request_and_a_flood_of_them_closes_the_stream() {
    // A compact stream sends 200 Resyncs at its third request: each of the
    // first 20 within the second re-sends the pending request (the same id,
    // the whole observation) and is no fault; the 21st closes the stream as
    // a flood. The bot comes back (a new compact stream starts whole) and
    // the match ends with no other fault and no fallback.
    let mut spec = spec(14);
    spec.faults.flood_per_second = 20;
    spec.faults.max_faults = 50;
    let p = play(
        spec,
        0,
        &["--mode", "resync-flood", "--flood", "200", "--at", "3"],
        None,
    )
    .await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::Flood], "{d}");
    assert_eq!(p.summary.fallbacks[0], 0, "{d}");
    let flood_at = p.bad_lines("resync-flood ");
    assert_eq!(flood_at.len(), 1, "{d}");
    let id = field(&flood_at[0], "id");
    let copies: Vec<String> = p
        .bad_lines("request ")
        .into_iter()
        .filter(|l| field(l, "id") == id)
        .collect();
    let repeats = copies.len();
    // The first was a delta (a compact stream's third request); every copy
    // sent again for a Resync or a reconnection is whole.
    assert_eq!(field(&copies[0], "whole"), "false", "{d}");
    assert!(
        copies[1..].iter().all(|l| field(l, "whole") == "true"),
        "{d}"
    );
    // The request itself, one whole copy per admitted Resync (some may still
    // be in flight when the stream closes), and once more after the bot
    // came back.
    assert!(
        (3..=22).contains(&repeats),
        "{repeats} copies of request {id}\n{d}"
    );
    let status = p.bad_lines("status ");
    assert_eq!(status.len(), 1, "{d}");
    assert!(status[0].contains("code=ResourceExhausted"), "{d}");
    assert_eq!(p.bad_lines("welcome ").len(), 2, "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

/// The value of `key=` in a badbot line.
fn field(line: &str, key: &str) -> String {
    let prefix = format!("{key}=");
    line.split(' ')
        .find_map(|w| w.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {key} in `{line}`"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_the_default_policy_a_flood_forfeits_on_out_of_turn_faults_before_the_flood_limit() {
    // The default policy: 10 faults forfeit, 50 unsolicited messages a
    // second close the stream. Each unsolicited message below the flood
    // limit is itself a fault, so a flooding seat forfeits first; its
    // stream is still closed at the limit, with no Flood fault (a forfeited
    // seat collects no more faults), and it may not come back.
    let mut spec = spec(12);
    spec.faults = FaultPolicy::default();
    let p = play_after_faults(spec, 0, &["--mode", "flood", "--flood", "5000"], 10).await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::OutOfTurn; 10], "{d}");
    assert!(p.summary.faults[0][9].forfeited, "{d}");
    assert_eq!(p.summary.forfeited, [Seat::new(0)], "{d}");
    assert_eq!(p.summary.fallbacks[0], p.summary.actions[0], "{d}");
    let status = p.bad_lines("status ");
    assert_eq!(status.len(), 1, "{d}");
    assert!(status[0].contains("code=ResourceExhausted"), "{d}");
    let refused = p.bad_lines("refused ");
    assert_eq!(refused.len(), 1, "{d}");
    assert!(refused[0].contains("code=FailedPrecondition"), "{d}");
    assert_eq!(p.bad.code(), Some(1), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_over_the_size_limit_is_a_malformed_fault_and_the_stream_ends_out_of_range() {
    let p = play(spec(13), 1, &["--mode", "huge", "--count", "1"], None).await;
    let d = p.dump();
    // One MALFORMED fault that settled the pending request with the
    // fallback; the detail is short and does not quote the message.
    assert_eq!(p.bad_kinds(), [FaultKind::Malformed], "{d}");
    let f = &p.summary.faults[1][0];
    assert!(f.fallback.is_some(), "{d}");
    assert!(f.detail.contains("larger than 65536 bytes"), "{d}");
    assert!(f.detail.len() < 300, "detail of {} bytes", f.detail.len());
    assert!(f.answer.is_none(), "{d}");
    // The stream ended with OUT_OF_RANGE; the bot came back and finished.
    let status = p.bad_lines("status ");
    assert_eq!(status.len(), 1, "{d}");
    assert!(status[0].contains("code=OutOfRange"), "{d}");
    assert_eq!(p.bad_lines("welcome ").len(), 2, "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_malformed_answer_is_never_echoed_whole() {
    let p = play(
        spec(14),
        2,
        &["--mode", "long-garbage", "--count", "2"],
        None,
    )
    .await;
    let d = p.dump();
    assert_eq!(p.bad_kinds(), [FaultKind::Malformed; 2], "{d}");
    for f in &p.summary.faults[2] {
        assert!(f.fallback.is_some(), "{d}");
        assert!(f.detail.len() < 300, "detail of {} bytes", f.detail.len());
        assert!(!f.detail.contains('\n'), "control characters cleaned");
        // The recorded answer is cut but still judged malformed again.
        match &f.answer {
            Some(whistle_rules::Answer::Text(t)) => {
                assert!(t.len() < 200, "answer of {} bytes", t.len());
                assert!(t.len() > whistle_rules::MAX_ANSWER_TEXT);
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(p.told(), p.recorded(), "{d}");
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_closed_stream_ends_with_aborted_and_the_seat_may_come_back() {
    let mut spec = spec(15);
    spec.time.per_action = Duration::from_secs(2);
    let p = play(spec, 3, &["--mode", "half-close", "--at", "2"], None).await;
    let d = p.dump();
    let status = p.bad_lines("status ");
    assert_eq!(status.len(), 1, "{d}");
    assert!(status[0].contains("code=Aborted"), "{d}");
    assert!(status[0].contains("closed its side"), "{d}");
    // It came back within the grace period; the request it left was sent
    // again (or, if its time ran out first, was one Absent fault).
    assert_eq!(p.bad_lines("welcome ").len(), 2, "{d}");
    assert!(
        p.bad_kinds().iter().all(|&k| k == FaultKind::Absent) && p.bad_kinds().len() <= 1,
        "{d}"
    );
    assert_eq!(p.bad.code(), Some(0), "{d}");
    p.assert_common(None);
}
