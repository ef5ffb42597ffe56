//! The viewer pages a tournament writes while it plays: the work of the
//! `viewer-pages` thread ([`whistle_pages::report::Ahead`]) on one thread,
//! every finished log of a tournament folder verified and its page written,
//! one match after another, as the thread does.
//!
//! Prints the CPU time a match (the process's user + sys over the pages,
//! which verifying a log may spread over the cores) and, through a counting
//! global allocator (`stats_alloc`), the allocations and bytes allocated a
//! match.
//!
//! Run: `BENCH_DIR=folder cargo bench -p whistle-pages --bench pages`, where
//! `folder` is a tournament's output folder (e.g. the demo's:
//! `whistle tournament tournaments/demo.toml --out folder`); its pages are
//! written to a copy of its `matches/` under the system's temporary folder,
//! `BENCH_ROUNDS` times (default 3). Without `BENCH_DIR`, the bundled
//! sample logs (`replays/samples`) are used.

use std::{
    alloc::System,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use whistle_pages::report::Ahead;
use whistle_rules::dealing::Seed;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The process's user + sys CPU time so far.
fn cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command's name (in parentheses): fields 14 and 15 of the
    // line are utime and stime, in clock ticks (100 a second).
    let rest = text.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|x| x.parse().ok())
        .collect();
    Duration::from_millis(f.iter().sum::<u64>() * 10)
}

/// The logs of `dir` (a tournament folder, or a folder of logs) by index,
/// and the tournament seed its results say.
fn logs(dir: &Path) -> (Vec<(u64, PathBuf)>, Seed) {
    let seed = std::fs::read_to_string(dir.join("results.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<whistle_tournament::Results>(&t).ok())
        .and_then(|r| r.seed)
        .map_or(Seed::default(), whistle_rules::dealing::WrittenSeed::seed);
    let list = whistle_tournament::layout::log_paths(dir).expect("a tournament folder");
    (list, seed)
}

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let sources: Vec<(Vec<(u64, PathBuf)>, Seed)> = match std::env::var_os("BENCH_DIR") {
        Some(d) => vec![logs(Path::new(&d))],
        None => {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../replays/samples");
            ["israeli", "honeymoon", "illustrated", "yogi", "oneonta"]
                .iter()
                .map(|g| logs(&root.join(g)))
                .collect()
        }
    };
    let n: usize = sources.iter().map(|(l, _)| l.len()).sum();
    let scratch = std::env::temp_dir().join(format!("whistle-pages-bench-{}", std::process::id()));
    for round in 0..rounds {
        let _ = std::fs::remove_dir_all(&scratch);
        let reg = Region::new(GLOBAL);
        let (t0, c0) = (Instant::now(), cpu());
        for (k, (list, seed)) in sources.iter().enumerate() {
            let out = scratch.join(k.to_string());
            let ahead = Ahead::start(&out, *seed);
            for (i, p) in list {
                ahead.finished(*i, p);
            }
            drop(ahead.finish());
        }
        let (wall, cpu) = (t0.elapsed(), cpu() - c0);
        let s = reg.change();
        println!(
            "round {round}: {n} matches, {:.2} ms wall, {:.2} ms CPU, {:.0} allocations, {:.0} KB allocated a match",
            wall.as_secs_f64() * 1e3 / n as f64,
            cpu.as_secs_f64() * 1e3 / n as f64,
            (s.allocations + s.reallocations) as f64 / n as f64,
            s.bytes_allocated as f64 / n as f64 / 1e3,
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
