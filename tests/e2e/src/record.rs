//! A table's record, read to its end and checked against the engine.

use std::time::Duration;

use tokio::{sync::mpsc, time::timeout};
use whistle_referee::{Fallback, FaultKind, FaultRecord, TableRecord, TableSpec};
use whistle_replay::{Clocks, Faults, Header, Recorder, Writer, verify};
use whistle_rules::{
    Action, Game, MatchResult, Seat, Status,
    dealing::{self, Domain, Shuffler},
};

/// Reads `records` until the table closes it (after `End` or `Aborted`).
///
/// # Errors
/// If the record is not complete within `limit`: a message with what was
/// recorded so far.
pub async fn read_all(
    records: &mut mpsc::UnboundedReceiver<TableRecord>,
    limit: Duration,
) -> Result<Vec<TableRecord>, String> {
    let mut out = Vec::new();
    let done = timeout(limit, async {
        while let Some(r) = records.recv().await {
            out.push(r);
        }
    })
    .await;
    match done {
        Ok(()) => Ok(out),
        Err(_) => Err(format!(
            "the table's record did not end within {limit:?}; so far:\n{}",
            summarize(&out)
        )),
    }
}

/// The record in short, one entry per line, for failure messages.
pub fn summarize(records: &[TableRecord]) -> String {
    let mut s = String::new();
    for r in records {
        let line = match r {
            TableRecord::Action {
                seat,
                action,
                fallback,
                ..
            } => format!(
                "action {seat} {action}{}",
                if *fallback { " (fallback)" } else { "" }
            ),
            TableRecord::Deal { deal, .. } => format!("deal {deal}"),
            other => format!("{other:?}"),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// The table's record as its replay log, each entry through
/// [`TableRecord::log`] as the tournament runner writes it (match 0 of an event
/// named `e2e`, no seed commitment).
///
/// # Panics
/// If the record does not make a log (a hand's result before its deal).
pub fn to_log(spec: &TableSpec, records: &[TableRecord]) -> String {
    let header = Header::builder(
        "e2e",
        0,
        spec.game,
        spec.options.clone(),
        spec.seats.iter().map(|s| s.bot_name.clone()).collect(),
    )
    .clocks(Clocks {
        per_action_ms: spec.time.per_action.as_millis() as u64,
        time_bank_ms: spec.time.time_bank.as_millis() as u64,
        reconnect_grace_ms: spec.time.reconnect_grace.as_millis() as u64,
    })
    .faults(Faults {
        max_faults: spec.faults.max_faults,
        fallback: spec.faults.fallback.name().into(),
    })
    .build();
    let mut writer = Writer::new(Vec::new(), &header).expect("a log in memory");
    let mut log = Recorder::new(&mut writer);
    for r in records {
        r.clone()
            .log(&mut log, spec.match_seed)
            .expect("a hand after its deal, written in memory");
    }
    String::from_utf8(writer.into_inner()).expect("a log is UTF-8")
}

/// What a checked record says, per seat.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Which seats were connected when play began.
    pub connected: Vec<bool>,
    /// The faults of each seat, in order.
    pub faults: Vec<Vec<FaultRecord>>,
    /// Actions applied for each seat, fallbacks included.
    pub actions: Vec<u32>,
    /// Fallbacks played for each seat.
    pub fallbacks: Vec<u32>,
    /// The match result.
    pub result: MatchResult,
    /// Seats that forfeited.
    pub forfeited: Vec<Seat>,
}

impl Summary {
    /// The kinds of `seat`'s faults, in order.
    pub fn kinds(&self, seat: usize) -> Vec<FaultKind> {
        self.faults[seat].iter().map(|f| f.kind).collect()
    }
}

/// Replays `records` through the engine and checks that they add up: deals
/// are the table's (explicit or seeded), every action is legal when
/// applied, every fallback is the policy's deterministic choice, each fault
/// with a fallback is followed by that fallback, fault counts and forfeits
/// agree, hand results are the engine's and sum to the match result, and the
/// record ends with `End` after the engine's last action.
///
/// # Panics
/// On the first thing that does not add up, with the record in the message.
pub fn check(spec: &TableSpec, records: &[TableRecord]) -> Summary {
    let fail = |what: String| -> ! { panic!("{what}\nrecord:\n{}", summarize(records)) };
    let mut game = spec
        .game
        .new_game(&spec.options)
        .unwrap_or_else(|e| fail(format!("bad spec: {e}")));
    let seats = game.seats();
    let mut connected = None;
    let mut faults: Vec<Vec<FaultRecord>> = vec![Vec::new(); seats];
    let mut actions = vec![0u32; seats];
    let mut fallbacks = vec![0u32; seats];
    let mut forfeit_seen = vec![false; seats];
    let mut fallback_count = 0u64;
    let mut owed: Option<(Seat, Action)> = None;
    let mut hands = 0usize;
    let mut end = None;
    for (i, r) in records.iter().enumerate() {
        if end.is_some() {
            fail(format!("entry {i} after End: {r:?}"));
        }
        match r {
            TableRecord::Started { connected: c } => {
                if connected.replace(c.clone()).is_some() {
                    fail("Started twice".into());
                }
            }
            TableRecord::Deal { deal, order } => {
                if game.status() != Status::Deal || *deal != game.deals() {
                    fail(format!("entry {i}: unexpected deal {deal}"));
                }
                let expected = match spec.deals.get(*deal as usize) {
                    Some(o) => o.clone(),
                    None => {
                        dealing::deck_order(dealing::deal_seed(spec.match_seed, *deal), game.deck())
                            .to_vec()
                    }
                };
                if *order != expected {
                    fail(format!(
                        "entry {i}: deal {deal} is not the table's deck order"
                    ));
                }
                game.deal(order)
                    .unwrap_or_else(|e| fail(format!("entry {i}: {e}")));
            }
            TableRecord::Action {
                seat,
                action,
                elapsed,
                fallback,
            } => {
                if connected.is_none() {
                    fail(format!("entry {i}: an action before Started"));
                }
                if let Some(due) = owed.take()
                    && (due != (*seat, *action) || !fallback)
                {
                    fail(format!(
                        "entry {i}: expected the fallback {} {} of the fault before",
                        due.0, due.1
                    ));
                }
                if *fallback {
                    let legal = game.legal_actions(*seat);
                    let expected = match spec.faults.fallback {
                        Fallback::Passive => {
                            whistle_rules::passive::passive_action(&game, *seat, &legal)
                        }
                        Fallback::First => legal[0],
                        Fallback::Random => {
                            let seed = spec.match_seed.derive(Domain::Fallback, fallback_count);
                            legal[Shuffler::new(seed).below(legal.len() as u32) as usize]
                        }
                    };
                    fallback_count += 1;
                    if *action != expected {
                        fail(format!(
                            "entry {i}: fallback {action} for seat {seat}, the policy gives {expected}"
                        ));
                    }
                    if !elapsed.is_zero() {
                        fail(format!(
                            "entry {i}: a fallback with elapsed time {elapsed:?}"
                        ));
                    }
                    fallbacks[seat.index()] += 1;
                }
                game.apply(*seat, *action)
                    .unwrap_or_else(|e| fail(format!("entry {i}: {e}")));
                actions[seat.index()] += 1;
            }
            TableRecord::Fault(f) => {
                let s = f.seat.index();
                faults[s].push(f.clone());
                if f.faults as usize != faults[s].len() {
                    fail(format!(
                        "entry {i}: fault count {} but {} faults recorded for seat {s}",
                        f.faults,
                        faults[s].len()
                    ));
                }
                if forfeit_seen[s] {
                    fail(format!("entry {i}: a fault after seat {s} forfeited"));
                }
                // A forfeit comes from reaching the maximum, or from staying
                // away longer than the grace period (an Absent fault).
                let by_count = f.faults >= spec.faults.max_faults;
                if f.forfeited != by_count && !(f.forfeited && f.kind == FaultKind::Absent) {
                    fail(format!(
                        "entry {i}: forfeited={} at {} of {} faults",
                        f.forfeited, f.faults, spec.faults.max_faults
                    ));
                }
                forfeit_seen[s] |= f.forfeited;
                if let Some(a) = f.fallback {
                    owed = Some((f.seat, a));
                }
            }
            TableRecord::Hand(h) => {
                let engine = game.hand_results();
                if engine.get(hands) != Some(h) {
                    fail(format!("entry {i}: hand {hands} is not the engine's"));
                }
                hands += 1;
            }
            TableRecord::End {
                result,
                forfeited,
                faults: counts,
            } => {
                if !game.is_over() || game.result().as_ref() != Some(&**result) {
                    fail(format!("entry {i}: End is not the engine's result"));
                }
                if hands != game.hand_results().len() {
                    fail(format!("entry {i}: {hands} hands recorded"));
                }
                let expected: Vec<Seat> = Seat::all(seats)
                    .filter(|s| forfeit_seen[s.index()])
                    .collect();
                if *forfeited != expected {
                    fail(format!(
                        "entry {i}: forfeited {forfeited:?}, faults say {expected:?}"
                    ));
                }
                let n: Vec<u32> = faults.iter().map(|f| f.len() as u32).collect();
                if *counts != n {
                    fail(format!(
                        "entry {i}: fault counts {counts:?}, recorded {n:?}"
                    ));
                }
                let mut totals = vec![0i32; seats];
                for h in game.hand_results() {
                    for (t, p) in totals.iter_mut().zip(&h.points) {
                        *t += p;
                    }
                }
                if result.totals != totals {
                    fail(format!(
                        "entry {i}: totals {:?} are not the sum of the hands {totals:?}",
                        result.totals
                    ));
                }
                end = Some(((**result).clone(), forfeited.clone()));
            }
            TableRecord::Aborted { reason } => fail(format!("entry {i}: aborted: {reason}")),
            TableRecord::Stopped { reason, .. } => fail(format!("entry {i}: stopped: {reason}")),
        }
    }
    if owed.is_some() {
        fail("a fault's fallback was never played".into());
    }
    let Some((result, forfeited)) = end else {
        fail("the record has no End".into())
    };
    // The record made into a log verifies as a tournament's log does: the
    // same deals (from the match seed, unless the spec gave them), actions,
    // fallbacks, faults and results, the hash chain and the end.
    let log = to_log(spec, records);
    let report = verify::verify_text("e2e.jsonl", &log, verify::Context::default());
    let seeded = spec.deals.is_empty();
    let problems: Vec<_> = report
        .problems
        .iter()
        .filter(|p| seeded || p.what != "deal (from the match seed)")
        .collect();
    if !problems.is_empty() || report.result.as_ref() != Some(&result) {
        fail(format!(
            "its log does not verify: {problems:?}\nlog:\n{log}"
        ));
    }
    Summary {
        connected: connected.unwrap_or_default(),
        faults,
        actions,
        fallbacks,
        result,
        forfeited,
    }
}
