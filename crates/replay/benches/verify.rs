//! `whistle replay verify`: hands verified a second on one thread and on
//! every core, against the SHA-256 floor, and whether memory stays flat as
//! logs are read.
//!
//! Writes `LOGS` sealed Israeli match logs of `HANDS` hands each (random legal
//! actions drawn by the engine's own seeded `Shuffler`, dealt from the match seed, through the
//! crate's own `Writer`, so each is a log as the runner writes it, hash chain
//! and end record included), then verifies every file with
//! `verify::verify_file` (with the tournament seed, so the commitment and
//! each match seed are checked too) in rounds: first on one thread (a
//! one-thread pool: one file after another, each file's lines in turn),
//! then on every core (files in parallel, and each file's lines). Prints
//! hands a second per round and the process's resident memory after each
//! round.
//!
//! Run: `cargo bench -p whistle-replay --bench verify`
//! (`BENCH_LOGS=200 BENCH_HANDS=50 BENCH_ROUNDS=5` are the defaults;
//! `BENCH_DIR=dir` writes the logs there and keeps them, for timing
//! `whistle replay verify --seed 2026 dir`: scripts/verify-bench.sh).

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use rayon::prelude::*;

use whistle_replay::{
    Clocks, EndLog, Faults, HandLog, Header, Writer, seed_commitment, sha256_hex,
    verify::{self, Context},
};
use whistle_rules::{
    Game, MatchDriver, MatchEvent, Options, Variant,
    dealing::{Domain, Seed, Shuffler},
};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Writes match `index` of the tournament seeded by `seed` to `path`.
fn write_log(path: &Path, seed: Seed, index: u64, hands: usize) {
    let options = Options::parse(&[&format!("hands={hands}")]).expect("options");
    let game = Variant::Israeli.new_game(&options).expect("game");
    let header = Header {
        format: whistle_replay::FORMAT.into(),
        version: whistle_replay::VERSION,
        tournament: "verify-bench".into(),
        match_index: index,
        table: format!("t{index}"),
        game: "israeli".into(),
        options: game.options(),
        seats: (0..4).map(|s| format!("random-{s}")).collect(),
        seed_commitment: seed_commitment(seed),
        clocks: Clocks {
            per_action_ms: 1000,
            time_bank_ms: 10_000,
            reconnect_grace_ms: 0,
        },
        faults: Faults {
            max_faults: 3,
            fallback: "first".into(),
        },
        duplicate: None,
    };
    let match_seed = seed.derive(Domain::Match, index);
    let mut driver = MatchDriver::new(game, match_seed, Default::default());
    let mut writer = Writer::create(path, &header).expect("create log");
    // The bench's own choices, from a seed of their own.
    let mut rng = Shuffler::new(Seed::from_u64(index + 1));
    let mut hand: Option<Pending> = None;
    loop {
        let seats = driver.to_ask().expect("deal");
        for event in driver.take_events() {
            record(&mut writer, &mut hand, event, match_seed);
        }
        let Some(seat) = seats.iter().next() else {
            break;
        };
        let legal = driver.game().legal_actions(seat);
        let action = legal[rng.below(legal.len() as u32) as usize];
        driver.apply(seat, action, false).expect("legal");
        for event in driver.take_events() {
            record(&mut writer, &mut hand, event, match_seed);
        }
    }
}

/// A hand being written: its deal, deck order and actions so far.
type Pending = (
    u32,
    Vec<whistle_rules::Card>,
    Vec<whistle_replay::ActionLog>,
);

fn record(writer: &mut Writer, hand: &mut Option<Pending>, event: MatchEvent, match_seed: Seed) {
    match event {
        MatchEvent::Dealt { deal, order } => *hand = Some((deal, order, Vec::new())),
        MatchEvent::Applied {
            seat,
            action,
            fallback,
        } => hand
            .as_mut()
            .expect("dealt")
            .2
            .push(whistle_replay::ActionLog {
                seat,
                action,
                ms: 0.25,
                fallback,
            }),
        MatchEvent::HandEnded(result) => {
            let (deal, deck, actions) = hand.take().expect("dealt");
            writer
                .hand(HandLog {
                    prev: String::new(),
                    deal,
                    dealer: result.dealer,
                    deck,
                    actions,
                    faults: Vec::new(),
                    result,
                    context: None,
                })
                .expect("write hand");
        }
        MatchEvent::Over(result) => writer
            .end(EndLog {
                prev: String::new(),
                result,
                forfeited: Vec::new(),
                faults: vec![0; 4],
                match_seed,
            })
            .expect("write end"),
    }
}

/// Resident and peak resident memory of this process, in MiB.
fn rss() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let logs = env("BENCH_LOGS", 200);
    let hands = env("BENCH_HANDS", 50);
    let rounds = env("BENCH_ROUNDS", 5);
    let temp = tempfile::tempdir().expect("tempdir");
    let dir =
        std::env::var_os("BENCH_DIR").map_or_else(|| temp.path().to_path_buf(), PathBuf::from);
    std::fs::create_dir_all(&dir).expect("log folder");
    let seed = Seed::from_u64(2026);
    let files: Vec<_> = (0..logs as u64)
        .map(|i| {
            let p = dir.join(format!("{i:04}.jsonl"));
            write_log(&p, seed, i, hands);
            p
        })
        .collect();
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
        .sum();
    println!(
        "verify: {logs} Israeli logs of {hands} hands ({:.1} MB), {} core(s) available, {}",
        bytes as f64 / 1e6,
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu()
    );
    // The floor: every line after the header is hashed once for the chain
    // (SHA-256 of the line before it). Hashing alone, from memory:
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("read"))
        .collect();
    let start = Instant::now();
    let mut hashed = 0usize;
    for _ in 0..3 {
        for t in &texts {
            for line in t.lines() {
                hashed += line.len();
                std::hint::black_box(sha256_hex(line.as_bytes()));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "  SHA-256 of every line alone: {:.0} MB/s, {:.0} hands/s at most",
        hashed as f64 / secs / 1e6,
        (3 * logs * hands) as f64 / secs
    );
    drop(texts);
    let ctx = Context {
        tournament_seed: Some(seed),
    };
    let (rss0, _) = rss();
    println!("  resident before: {rss0:.1} MiB");
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread");
    println!("  one thread:");
    one.install(|| {
        rounds_of(&files, ctx, rounds, |f| {
            f.iter().copied().map(verify_one).sum()
        })
    });
    println!("  every core ({} threads):", rayon::current_num_threads());
    rounds_of(&files, ctx, rounds, |f| {
        f.par_iter().copied().map(verify_one).sum()
    });
}

/// Verifies one log, which must verify; returns its hands.
fn verify_one((f, ctx): (&PathBuf, Context)) -> usize {
    let report = verify::verify_file(f, ctx).expect("read");
    assert!(report.ok(), "{}: {:?}", f.display(), report.problems);
    assert!(report.seed_checked && report.commitment_checked);
    report.hands.len()
}

/// `rounds` rounds of verifying every file with `all`; prints each round and
/// the median.
fn rounds_of(
    files: &[PathBuf],
    ctx: Context,
    rounds: usize,
    all: impl Fn(&[(&PathBuf, Context)]) -> usize,
) {
    let files: Vec<_> = files.iter().map(|f| (f, ctx)).collect();
    let mut rates = Vec::new();
    for round in 1..=rounds {
        let start = Instant::now();
        let verified = all(&files);
        let secs = start.elapsed().as_secs_f64();
        let rate = verified as f64 / secs;
        rates.push(rate);
        let (now, peak) = rss();
        println!(
            "    round {round}: {verified} hands in {secs:.3} s = {rate:.0} hands/s; resident {now:.1} MiB (peak {peak:.1})"
        );
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "    median {:.0} hands/s (range {:.0}–{:.0})",
        rates[rates.len() / 2],
        rates[0],
        rates[rates.len() - 1]
    );
}

/// The CPU's model name, from /proc/cpuinfo.
fn cpu() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "an unknown CPU".into())
}
