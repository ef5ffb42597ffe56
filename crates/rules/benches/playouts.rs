//! Uniform-random complete hands, per game: how fast the engine plays, and
//! whether it allocates per action.
//!
//! Each iteration plays one hand: deal from a seed (the real derivation and
//! shuffle of `dealing`), then, while the hand lasts, a seat to act plays a
//! uniformly random legal action through the checked `Game::apply`. Criterion
//! reports the throughput in hands per second (`elem/s`). The bench side draws
//! its random choices from a small xorshift generator so that the engine's
//! cost dominates.
//!
//! Before the timings, a counting global allocator (`stats_alloc`) measures
//! allocations in the steady state: after a warm-up, over many hands, split
//! into allocations inside `apply` calls that do not end a hand (the target
//! is none at all) and allocations per hand (dealing, and the hand result
//! pushed when a hand ends). A plain timed loop then prints hands and actions
//! per second on one core, for the notes in `docs/benchmarks.md`.
//!
//! Last, Israeli Whist against OpenSpiel's C++ `oh_hell(players=4,
//! num_tricks_fixed=12)` played by `pyspiel.evaluate_bots` with uniform
//! random bots, measured alternately in the same run, when `open_spiel` is
//! importable by `$WHISTLE_OPENSPIEL_PYTHON` (default `python3`); the bench
//! says so when it is not. The ratio is printed per second of wall-clock
//! time and per second of CPU time (which a shared machine's load does not
//! count).
//!
//! Run: `cargo bench -p whistle-rules --bench playouts`
//! (`WHISTLE_OPENSPIEL_PYTHON=/path/to/venv/bin/python` for the comparison).
//! Instruction counts, which repeat on a loaded machine where times do not:
//! the `random_hands` example under callgrind (docs/benchmarks.md).

use std::{
    alloc::System,
    hint::black_box,
    time::{Duration, Instant},
};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use whistle_rules::{
    ActionList, AnyGame, Game, Options, Status, Variant,
    dealing::{self, Seed},
};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The options each game is benchmarked under: a long match, so that a
/// measurement never has to start a new one.
fn options(variant: Variant) -> Options {
    let pairs: &[&str] = match variant {
        Variant::Israeli => &["hands=10000"],
        Variant::Honeymoon => &["hands=10000"],
        Variant::Illustrated => &["hands=10000"],
        Variant::Yogi => &["hands=10000"],
        Variant::Oneonta => &["hands=10000"],
    };
    Options::parse(pairs).expect("valid options")
}

/// xorshift64*: a few instructions per draw.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (((x >> 32) * n as u64) >> 32) as usize
    }
}

/// A game being played hand after hand, with its seed and the bench's RNG.
struct Table {
    variant: Variant,
    fresh: AnyGame,
    game: AnyGame,
    seed: Seed,
    rng: XorShift,
    legal: ActionList,
}

impl Table {
    fn new(variant: Variant, seed: u64) -> Table {
        let fresh = variant.new_game(&options(variant)).expect("valid options");
        Table {
            variant,
            game: fresh.clone(),
            fresh,
            seed: Seed::from_u64(seed),
            rng: XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
            legal: ActionList::new(),
        }
    }

    /// Deals the next hand (starting a new match if the last one ended).
    fn deal(&mut self) {
        if self.game.is_over() {
            self.game = self.fresh.clone();
            self.seed = Seed::from_u64(self.rng.below(1 << 30) as u64);
        }
        dealing::deal_if_needed(&mut self.game, self.seed).expect("a deal");
    }

    /// One random action; returns false if the hand is over (no one to act).
    #[inline]
    fn act(&mut self) -> bool {
        if self.game.status() != Status::Act {
            return false;
        }
        let to_act = self.game.to_act();
        let seat = if to_act.len() == 1 {
            to_act.first().expect("a seat")
        } else {
            to_act
                .iter()
                .nth(self.rng.below(to_act.len()))
                .expect("a seat")
        };
        self.legal.clear();
        self.game.legal_actions_into(seat, &mut self.legal);
        let action = self.legal[self.rng.below(self.legal.len())];
        self.game.apply(seat, action).expect("a legal action");
        true
    }

    /// Plays one complete hand; returns the number of actions.
    fn hand(&mut self) -> usize {
        self.deal();
        let mut actions = 0;
        while self.act() {
            actions += 1;
        }
        actions
    }
}

/// Whether this run is `cargo test`/`--test` mode (run everything once, fast).
fn quick() -> bool {
    std::env::args().any(|a| a == "--test") || cfg!(debug_assertions)
}

/// Counts allocations in the steady state and prints them; fails if any
/// action that does not end a hand allocates.
fn allocations(_c: &mut Criterion) {
    let hands = if quick() { 50 } else { 5_000 };
    for variant in Variant::ALL {
        let mut t = Table::new(variant, 1);
        // Warm up: the log and the result list reach their working capacity.
        for _ in 0..200 {
            t.hand();
        }
        let (mut mid_actions, mut mid_allocs) = (0u64, 0u64);
        let (mut hand_allocs, mut bytes) = (0u64, 0u64);
        for _ in 0..hands {
            let region = Region::new(GLOBAL);
            t.deal();
            let dealt = region.change();
            hand_allocs += (dealt.allocations + dealt.reallocations) as u64;
            loop {
                let region = Region::new(GLOBAL);
                if !t.act() {
                    break;
                }
                let change = region.change();
                let n = (change.allocations + change.reallocations) as u64;
                if t.game.status() == Status::Act {
                    mid_actions += 1;
                    mid_allocs += n;
                } else {
                    // The action that ends the hand records its result.
                    hand_allocs += n;
                    bytes += change.bytes_allocated as u64;
                }
            }
        }
        println!(
            "allocations {variant}: {:.4} per action over {mid_actions} actions that do not end \
             a hand; {:.1} per hand for dealing and the hand's result ({:.0} bytes)",
            mid_allocs as f64 / mid_actions as f64,
            hand_allocs as f64 / hands as f64,
            bytes as f64 / hands as f64,
        );
        assert_eq!(
            mid_allocs, 0,
            "{variant}: actions allocate in the steady state"
        );
    }
}

/// A plain timed loop on this thread: hands and actions per second.
fn plain_rate(_c: &mut Criterion) {
    let budget = if quick() {
        Duration::from_millis(20)
    } else {
        Duration::from_secs(3)
    };
    for variant in Variant::ALL {
        let mut t = Table::new(variant, 2);
        for _ in 0..1_000 {
            t.hand();
        }
        let start = Instant::now();
        let (mut hands, mut actions) = (0u64, 0u64);
        while start.elapsed() < budget {
            for _ in 0..256 {
                actions += t.hand() as u64;
                hands += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "rate {variant}: {:.0} hands/s, {:.0} actions/s ({hands} hands, {:.1} actions a hand, \
             one core)",
            hands as f64 / secs,
            actions as f64 / secs,
            actions as f64 / hands as f64,
        );
    }
}

/// Hands per second of `variant` in a plain loop for `budget`.
/// Also per second of this thread's CPU time, where Linux tells it
/// (`/proc/thread-self/schedstat`): on a shared machine the wall clock
/// counts the time other processes hold the core, CPU time does not.
fn rate(variant: Variant, budget: Duration) -> (f64, Option<f64>) {
    let mut t = Table::new(variant, 4);
    for _ in 0..1_000 {
        t.hand();
    }
    let (start, cpu) = (Instant::now(), thread_cpu());
    let mut hands = 0u64;
    while start.elapsed() < budget {
        for _ in 0..256 {
            t.hand();
            hands += 1;
        }
    }
    let wall = hands as f64 / start.elapsed().as_secs_f64();
    let cpu = cpu
        .zip(thread_cpu())
        .map(|(a, b)| hands as f64 / (b - a).as_secs_f64());
    (wall, cpu)
}

/// CPU time this thread has run, if the system says.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// OpenSpiel's C++ Oh Hell, uniform random bots, one `evaluate_bots` call a
/// game, for about `secs` seconds: games per second of wall-clock time and
/// of the process's CPU time, or why it could not run.
const OPENSPIEL: &str = r#"
import sys, time
import pyspiel
game = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=12)")
bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(4)]
for seed in range(200):
    pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
secs = float(sys.argv[1])
n, seed, start, cpu = 0, 200, time.perf_counter(), time.process_time()
while time.perf_counter() - start < secs:
    for _ in range(500):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        seed += 1
    n += 500
print(n / (time.perf_counter() - start), n / (time.process_time() - cpu))
"#;

fn openspiel_rate(python: &str, secs: f64) -> Result<(f64, f64), String> {
    let out = std::process::Command::new(python)
        .args(["-c", OPENSPIEL, &secs.to_string()])
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().last().unwrap_or("failed").to_string());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut rates = text.split_whitespace().map(str::parse::<f64>);
    match (rates.next(), rates.next()) {
        (Some(Ok(wall)), Some(Ok(cpu))) => Ok((wall, cpu)),
        _ => Err(format!("unexpected output: {text}")),
    }
}

/// Israeli Whist against OpenSpiel's Oh Hell, alternately, three times each.
fn openspiel(_c: &mut Criterion) {
    let python = std::env::var("WHISTLE_OPENSPIEL_PYTHON").unwrap_or_else(|_| "python3".into());
    if quick() {
        return;
    }
    if let Err(e) = openspiel_rate(&python, 0.1) {
        println!(
            "openspiel: not measured: `{python}` cannot import open_spiel ({e}); \
             pip install open-spiel in a virtual environment and set WHISTLE_OPENSPIEL_PYTHON"
        );
        return;
    }
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut ours_cpu, mut theirs_cpu) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let (wall, cpu) = rate(Variant::Israeli, Duration::from_secs(3));
        ours.push(wall);
        ours_cpu.extend(cpu);
        let (wall, cpu) = openspiel_rate(&python, 3.0).expect("it ran a moment ago");
        theirs.push(wall);
        theirs_cpu.push(cpu);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (a, b) = (median(&mut ours), median(&mut theirs));
    println!(
        "openspiel: israeli {a:.0} hands/s, oh_hell(players=4,num_tricks_fixed=12) with \
         evaluate_bots {b:.0} games/s (medians of 3, alternating, one core each): {:.1}x \
         (israeli {ours:.0?}, oh_hell {theirs:.0?})",
        a / b
    );
    if ours_cpu.len() == theirs_cpu.len() {
        let (a, b) = (median(&mut ours_cpu), median(&mut theirs_cpu));
        println!(
            "openspiel, per second of CPU time (the same runs; holds on a shared machine): \
             israeli {a:.0} hands/s, oh_hell {b:.0} games/s: {:.1}x",
            a / b
        );
    }
}

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("random-hand");
    group.throughput(Throughput::Elements(1));
    for variant in Variant::ALL {
        let mut t = Table::new(variant, 3);
        group.bench_function(variant.name(), |b| b.iter(|| black_box(t.hand())));
        assert_eq!(t.variant, variant);
    }
    group.finish();
}

criterion_group!(benches, allocations, plain_rate, openspiel, hands);
criterion_main!(benches);
