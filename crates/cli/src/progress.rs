//! What `whistle tournament` and `whistle merge` show on stderr while they
//! run: the runner's [`RunEvent`]s as a bar on a terminal, or as plain lines.

use std::{
    io::IsTerminal,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressStyle};
use whistle_tournament::{Reporter, RunEvent};

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// A bar on a terminal, plain lines otherwise.
    Auto,
    /// Plain lines every few seconds.
    Plain,
    /// Nothing but the messages (remote bots, bots out, stopping).
    Quiet,
}

/// Shows a run's progress on stderr.
pub struct Progress {
    mode: Mode,
    bar: Mutex<Option<ProgressBar>>,
    started: Mutex<Instant>,
    last_line: Mutex<Instant>,
    hands: AtomicU64,
    matches: AtomicU64,
    total_hands: Mutex<Option<u64>>,
    total_matches: AtomicU64,
}

impl Progress {
    /// Progress shown as `mode` says.
    pub fn new(mode: Mode) -> Progress {
        Progress {
            mode,
            bar: Mutex::new(None),
            started: Mutex::new(Instant::now()),
            last_line: Mutex::new(Instant::now()),
            hands: AtomicU64::new(0),
            matches: AtomicU64::new(0),
            total_hands: Mutex::new(None),
            total_matches: AtomicU64::new(0),
        }
    }

    fn plain(&self) -> bool {
        self.mode == Mode::Plain || (self.mode == Mode::Auto && !std::io::stderr().is_terminal())
    }

    /// A progress line, at most every five seconds unless `force`.
    fn line(&self, force: bool) {
        if !self.plain() {
            return;
        }
        let mut last = self.last_line.lock().expect("progress lock");
        if !force && last.elapsed() < Duration::from_secs(5) {
            return;
        }
        *last = Instant::now();
        let secs = self
            .started
            .lock()
            .expect("progress lock")
            .elapsed()
            .as_secs_f64()
            .max(1e-9);
        let h = self.hands.load(Relaxed);
        let m = self.matches.load(Relaxed);
        let rate = h as f64 / secs;
        let eta = self
            .total_hands
            .lock()
            .expect("progress lock")
            .filter(|_| rate > 0.0)
            .map(|t| format!(", ETA {:.0} s", t.saturating_sub(h) as f64 / rate))
            .unwrap_or_default();
        eprintln!(
            "progress: {m}/{} matches, {h} hands, {rate:.1} hands/s{eta}",
            self.total_matches.load(Relaxed)
        );
    }

    /// A run starts: its counts start from nothing (a serving league
    /// reports each of its rounds as a run of its own).
    fn start(&self, to_play: u64, hands: Option<u64>) {
        self.matches.store(0, Relaxed);
        self.hands.store(0, Relaxed);
        *self.started.lock().expect("progress lock") = Instant::now();
        self.total_matches.store(to_play, Relaxed);
        *self.total_hands.lock().expect("progress lock") = hands;
        if self.mode == Mode::Auto && std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(hands.unwrap_or(to_play));
            let unit = if hands.is_some() { "hands" } else { "matches" };
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:40}} {{pos}}/{{len}} {unit}  {{per_sec}}  ETA {{eta}}  {{msg}}"
                ))
                .expect("a valid template"),
            );
            *self.bar.lock().expect("progress lock") = Some(bar);
        }
    }
}

impl Reporter for Progress {
    fn report(&self, event: RunEvent) {
        match event {
            RunEvent::Started {
                name,
                to_play,
                planned,
                total,
                shard,
                hands,
                seed_commitment,
            } => {
                let shard = shard
                    .map(|(i, n)| format!(" (shard {i}/{n} of {total})"))
                    .unwrap_or_default();
                let resumed = if to_play < planned {
                    format!(", {} already finished", planned - to_play)
                } else {
                    String::new()
                };
                eprintln!(
                    "tournament {name}: {planned} matches{shard}{resumed}, seed commitment {seed_commitment}"
                );
                self.start(to_play, hands);
            }
            RunEvent::RemoteBot { name, address } => {
                eprintln!("remote bot {name}: connect to {address} with its token");
            }
            RunEvent::BotOut { name, reason } => {
                eprintln!("bot `{name}` is out of the event: {reason}");
            }
            RunEvent::Unsandboxed { name } => {
                eprintln!(
                    "warning: bot `{name}` runs WITHOUT a sandbox (`sandbox = false`): it can \
                     read and do whatever this account can"
                );
            }
            RunEvent::Sandbox { mode, instances } => {
                let fresh = match instances {
                    Some(why) => {
                        format!("; a fresh instance of a bot plays each seat of each match ({why})")
                    }
                    None => String::new(),
                };
                eprintln!("bots are sandboxed ({mode}){fresh}");
            }
            RunEvent::Hand => {
                let h = self.hands.fetch_add(1, Relaxed) + 1;
                if let Some(bar) = &*self.bar.lock().expect("progress lock")
                    && self.total_hands.lock().expect("progress lock").is_some()
                {
                    bar.set_position(h);
                }
                self.line(false);
            }
            RunEvent::Match { .. } => {
                let m = self.matches.fetch_add(1, Relaxed) + 1;
                let total = self.total_matches.load(Relaxed);
                if let Some(bar) = &*self.bar.lock().expect("progress lock") {
                    if self.total_hands.lock().expect("progress lock").is_none() {
                        bar.set_position(m);
                    }
                    bar.set_message(format!("{m}/{total} matches"));
                }
                self.line(m == total);
            }
            RunEvent::Stopping { drain } => {
                eprintln!(
                    "stopping: the tables finish the hand in progress (at most {} ms); \
                     a second signal exits at once",
                    drain.as_millis()
                );
            }
            RunEvent::Done => {
                if let Some(bar) = self.bar.lock().expect("progress lock").take() {
                    bar.finish_and_clear();
                }
            }
            RunEvent::MergePartial { present, total } => {
                eprintln!(
                    "merge: {present} of {total} matches present; the results cover those only"
                );
            }
        }
    }
}
