//! The tournament speed benchmark: Israeli Whist hands played by four Rust
//! bot processes (`whistle bot`, two `heuristic` and two `random`) over gRPC
//! on loopback, with parallel tables, through the real `whistle tournament`
//! binary. For each number of hands and of tables it reports the time until
//! the last match is played (`play`), the wall time of the whole run
//! (results, report and viewer pages included), hands per second of play, the peak resident memory (VmHWM) of the runner and of
//! the largest bot process, and their CPU time.
//!
//! ```text
//! cargo build --release -p whistle-cli
//! cargo bench -p whistle-tournament --bench tournament
//! ```
//!
//! Settings (environment variables):
//! - `WHISTLE_BIN`: the `whistle` binary (default: `target/release/whistle`);
//! - `BENCH_HANDS`: comma-separated hand counts (default `2000,10000`);
//! - `BENCH_PARALLEL`: comma-separated table counts (default `8,16,32`);
//! - `BENCH_HANDS_PER_MATCH`: hands per match (default 50).
//!
//! Memory and CPU are sampled from `/proc` every 20 ms (Linux only). The
//! numbers of one machine are in docs/tournaments.md ("Speed").

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

fn list(var: &str, default: &str) -> Vec<u64> {
    std::env::var(var)
        .unwrap_or_else(|_| default.into())
        .split(',')
        .map(|x| {
            x.trim()
                .parse()
                .unwrap_or_else(|_| panic!("{var}: not a number: {x}"))
        })
        .collect()
}

fn whistle_bin() -> PathBuf {
    if let Ok(p) = std::env::var("WHISTLE_BIN") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("target"));
    target.join("release").join("whistle")
}

/// `key:   value kB` from /proc/PID/status, in kB.
fn status_kb(pid: u32, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// (parent pid, user + system CPU ticks) from /proc/PID/stat.
fn stat(pid: u32) -> Option<(u32, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = text.rsplit_once(')')?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    // After the command: state(0) ppid(1) ... utime(11) stime(12).
    Some((
        f.get(1)?.parse().ok()?,
        f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?,
    ))
}

fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| stat(pid).is_some_and(|(pp, _)| pp == parent))
        .collect()
}

#[derive(Default, Clone, Copy)]
struct Peak {
    hwm_kb: u64,
    cpu_ticks: u64,
}

struct Measured {
    wall: Duration,
    play: Duration,
    hands: u64,
    faults: u64,
    runner: Peak,
    bots: BTreeMap<u32, Peak>,
}

fn tournament_file(hands_per_match: u64, rounds: u64, parallel: u64) -> String {
    let mut t = format!(
        "name = \"bench\"\ngame = \"israeli\"\nseed = 1\nhands = {hands_per_match}\n\
         rounds = {rounds}\nparallel = {parallel}\n\
         [time]\nper_action_ms = 10000\ntime_bank_ms = 60000\n"
    );
    for (name, args) in [
        ("heuristic", "\"--bot\", \"heuristic\""),
        ("heuristic-2", "\"--bot\", \"heuristic\""),
        ("random", "\"--bot\", \"random\", \"--seed\", \"1\""),
        ("random-2", "\"--bot\", \"random\", \"--seed\", \"2\""),
    ] {
        t += &format!("\n[[bots]]\nname = \"{name}\"\ncommand = [\"whistle\", \"bot\", {args}]\n");
    }
    t
}

fn measure(bin: &Path, dir: &Path, hands: u64, per_match: u64, parallel: u64) -> Measured {
    // Four bots: one group, four seat rotations per round.
    let rounds = hands.div_ceil(per_match * 4);
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("bench.toml"),
        tournament_file(per_match, rounds, parallel),
    )
    .unwrap();
    let started = Instant::now();
    let mut child = Command::new(bin)
        .args([
            "tournament",
            "bench.toml",
            "--out",
            "out",
            "--progress",
            "plain",
        ])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let pid = child.id();
    // The moment the last match is played (the progress line that counts
    // every match), before the results and the report are written.
    let stderr = child.stderr.take().expect("piped");
    let mut log = std::fs::File::create(dir.join("stderr.log")).unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::{BufRead, Write};
        let mut played = None;
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Some(rest) = line.strip_prefix("progress: ")
                && let Some((done, rest)) = rest.split_once('/')
                && rest.split_once(' ').is_some_and(|(all, _)| all == done)
            {
                played.get_or_insert_with(Instant::now);
            }
            let _ = writeln!(log, "{line}");
        }
        played
    });
    let mut runner = Peak::default();
    let mut bots: BTreeMap<u32, Peak> = BTreeMap::new();
    let mut last_scan = Instant::now() - Duration::from_secs(1);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if let (Some(kb), Some((_, cpu))) = (status_kb(pid, "VmHWM:"), stat(pid)) {
            runner.hwm_kb = runner.hwm_kb.max(kb);
            runner.cpu_ticks = runner.cpu_ticks.max(cpu);
        }
        if last_scan.elapsed() > Duration::from_millis(500) {
            for c in children(pid) {
                bots.entry(c).or_default();
            }
            last_scan = Instant::now();
        }
        for (&b, peak) in bots.iter_mut() {
            if let (Some(kb), Some((_, cpu))) = (status_kb(b, "VmHWM:"), stat(b)) {
                peak.hwm_kb = peak.hwm_kb.max(kb);
                peak.cpu_ticks = peak.cpu_ticks.max(cpu);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let wall = started.elapsed();
    let play = reader
        .join()
        .expect("the reader")
        .map_or(wall, |t| t - started);
    assert!(
        status.success(),
        "the tournament failed ({status}):\n{}",
        std::fs::read_to_string(dir.join("stderr.log")).unwrap_or_default()
    );
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("out").join("results.json")).unwrap(),
    )
    .unwrap();
    let played = results["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["hands"].as_u64().unwrap())
        .sum();
    let faults = results["bots"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["faults"].as_object().unwrap().values())
        .map(|n| n.as_u64().unwrap())
        .sum();
    Measured {
        wall,
        play,
        hands: played,
        faults,
        runner,
        bots,
    }
}

fn main() {
    let bin = whistle_bin();
    if !bin.exists() {
        eprintln!(
            "{} not found: build it first with `cargo build --release -p whistle-cli`, \
             or set WHISTLE_BIN",
            bin.display()
        );
        std::process::exit(2);
    }
    let hands = list("BENCH_HANDS", "2000,10000");
    let parallel = list("BENCH_PARALLEL", "8,16,32");
    let per_match = list("BENCH_HANDS_PER_MATCH", "50")[0];
    let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
    let tick = 100.0; // USER_HZ on Linux
    let scratch = std::env::temp_dir().join(format!("whistle-bench-{}", std::process::id()));
    println!(
        "whistle tournament: Israeli, 4 bot processes (2 heuristic, 2 random), \
         {per_match} hands a match, {nproc} CPUs, {}",
        bin.display()
    );
    println!(
        "| hands | tables | play s | wall s | hands/s (play) | runner peak RSS MiB | largest bot peak RSS MiB | runner CPU s | bots CPU s | faults |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &h in &hands {
        for &p in &parallel {
            let m = measure(&bin, &scratch, h, per_match, p);
            let bot_hwm = m.bots.values().map(|b| b.hwm_kb).max().unwrap_or(0);
            let bot_cpu: u64 = m.bots.values().map(|b| b.cpu_ticks).sum();
            println!(
                "| {} | {p} | {:.1} | {:.1} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {} |",
                m.hands,
                m.play.as_secs_f64(),
                m.wall.as_secs_f64(),
                m.hands as f64 / m.play.as_secs_f64(),
                m.runner.hwm_kb as f64 / 1024.0,
                bot_hwm as f64 / 1024.0,
                m.runner.cpu_ticks as f64 / tick,
                bot_cpu as f64 / tick,
                m.faults
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
