//! Runs a tournament: the embedded referee on loopback, the bot processes,
//! tables in parallel, one replay log per match (flushed after every hand),
//! then the results.

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use tokio::{sync::Semaphore, task::JoinSet};
use tracing::{info, warn};
use whistle_referee::{Referee, Resume, TableRecord, TableSpec};
use whistle_replay::{
    ActionLog, Clocks, Duplicate, EndLog, FaultLog, Faults, HandLog, Header, MatchLog, Writer,
    seed_commitment,
};
use whistle_rules::{Game, MatchDriver, Options, Seat};

use crate::{
    config::{BotKind, Tournament},
    procs::{self, BotProcess},
    report,
    schedule::{self, Planned, Shard},
    stats::{self, Results},
};

/// The manifest's format name.
pub const MANIFEST_FORMAT: &str = "whistle-tournament";

/// What a run needs beyond the tournament file.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Output folder instead of the file's `out`.
    pub out: Option<PathBuf>,
    /// Continue an interrupted run from its logs.
    pub resume: bool,
    /// Run only this slice of the schedule.
    pub shard: Option<Shard>,
    /// Progress display.
    pub progress: ProgressMode,
    /// When this turns true (a signal), the run stops: no new matches, the
    /// tables finish the hand in progress (at most `drain` long), the bots
    /// are retired and stopped, and the logs stay resumable.
    pub stop: Option<tokio::sync::watch::Receiver<bool>>,
    /// How long tables may take to finish their hand once stopped.
    pub drain: Duration,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            out: None,
            resume: false,
            shard: None,
            progress: ProgressMode::default(),
            stop: None,
            drain: Duration::from_secs(10),
        }
    }
}

/// How progress is shown on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProgressMode {
    /// A bar on a terminal, plain lines otherwise.
    #[default]
    Auto,
    /// Plain lines.
    Plain,
    /// Nothing.
    Quiet,
}

/// Why a run failed.
#[derive(Debug)]
pub struct RunError(pub String);

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RunError {}

fn fail(e: impl std::fmt::Display) -> RunError {
    RunError(e.to_string())
}

/// `tournament.json`: what the output folder holds, written before play.
/// It commits to the seed without revealing it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`MANIFEST_FORMAT`].
    pub format: String,
    /// Version 1.
    pub version: u32,
    /// The tournament's name.
    pub name: String,
    /// The game.
    pub game: String,
    /// Game options, resolved.
    pub options: Options,
    /// The event format.
    pub event: String,
    /// How a group's bots are seated (`rotations` or `permutations`).
    #[serde(default = "rotations")]
    pub seatings: String,
    /// Rounds.
    pub rounds: u32,
    /// Bot names, in file order.
    pub bots: Vec<String>,
    /// SHA-256 of the tournament seed.
    pub seed_commitment: String,
    /// Matches in the whole schedule.
    pub matches: u64,
    /// The shard this folder holds, `i/n`, if any.
    pub shard: Option<String>,
}

fn rotations() -> String {
    "rotations".into()
}

impl Manifest {
    fn of(t: &Tournament, total: u64, shard: Option<Shard>) -> Manifest {
        Manifest {
            format: MANIFEST_FORMAT.into(),
            version: 1,
            name: t.name.clone(),
            game: t.game.name().into(),
            options: t.options.clone(),
            event: t.format.name().into(),
            seatings: t.seatings.name().into(),
            rounds: t.rounds,
            bots: t.bots.iter().map(|b| b.name.clone()).collect(),
            seed_commitment: seed_commitment(t.seed),
            matches: total,
            shard: shard.map(|s| format!("{}/{}", s.index, s.count)),
        }
    }

    /// Reads `tournament.json` from `dir`.
    ///
    /// # Errors
    /// If it is missing or malformed.
    pub fn read(dir: &Path) -> Result<Manifest, RunError> {
        let path = dir.join("tournament.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| fail(format!("{}: {e}", path.display())))?;
        serde_json::from_str(&text).map_err(|e| fail(format!("{}: {e}", path.display())))
    }
}

/// The log file of match `index`.
pub fn match_path(out: &Path, index: u64) -> PathBuf {
    out.join("matches").join(format!("m{index:05}.jsonl"))
}

/// Whether a log file holds its complete first line (the header). A runner
/// killed between creating a log and flushing its header leaves an empty or
/// cut header: that match had not started, and a resumed run starts it anew.
fn has_header(path: &Path) -> Result<bool, RunError> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|e| fail(format!("{}: {e}", path.display())))?;
    let mut first = Vec::new();
    std::io::BufReader::new(file)
        .read_until(b'\n', &mut first)
        .map_err(|e| fail(format!("{}: {e}", path.display())))?;
    Ok(first.ends_with(b"\n"))
}

/// The match logs in `out/matches` (the files `m<index>.jsonl` that
/// [`match_path`] names), by match index, without reading them.
///
/// # Errors
/// If the folder cannot be listed.
pub fn log_paths(out: &Path) -> Result<Vec<(u64, PathBuf)>, RunError> {
    let dir = out.join("matches");
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(fail(format!("{}: {e}", dir.display()))),
    };
    let mut paths: Vec<(u64, PathBuf)> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?;
            let index = name.strip_prefix('m')?.strip_suffix(".jsonl")?;
            let index = index
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| index.parse().ok())??;
            Some((index, path))
        })
        .collect();
    paths.sort();
    Ok(paths)
}

/// Reads the match logs of `out` one at a time, in schedule order, and hands
/// each to `f`, so that only one is in memory at once. Logs without a
/// complete header line (matches that had not started) are left out.
///
/// # Errors
/// If a log cannot be read, holds another match than its name says, or `f`
/// fails.
pub fn for_each_log(
    out: &Path,
    mut f: impl FnMut(MatchLog) -> Result<(), RunError>,
) -> Result<(), RunError> {
    for (index, path) in log_paths(out)? {
        if !has_header(&path)? {
            continue;
        }
        let log = whistle_replay::read(&path).map_err(fail)?;
        if log.header.match_index != index {
            return Err(fail(format!(
                "{} holds match {}",
                path.display(),
                log.header.match_index
            )));
        }
        f(log)?;
    }
    Ok(())
}

/// Reads every match log in `out/matches`, in schedule order (see
/// [`for_each_log`], which does not keep them all in memory).
///
/// # Errors
/// If a log cannot be read.
pub fn read_logs(out: &Path) -> Result<Vec<MatchLog>, RunError> {
    let mut logs = Vec::new();
    for_each_log(out, |l| {
        logs.push(l);
        Ok(())
    })?;
    Ok(logs)
}

struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    started: Instant,
    last_line: std::sync::Mutex<Instant>,
    hands: std::sync::atomic::AtomicU64,
    matches: std::sync::atomic::AtomicU64,
    total_hands: Option<u64>,
    total_matches: u64,
}

impl Progress {
    fn new(mode: ProgressMode, total_matches: u64, total_hands: Option<u64>) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (mode == ProgressMode::Auto && terminal).then(|| {
            let bar = ProgressBar::new(total_hands.unwrap_or(total_matches));
            let unit = if total_hands.is_some() {
                "hands"
            } else {
                "matches"
            };
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:40}} {{pos}}/{{len}} {unit}  {{per_sec}}  ETA {{eta}}  {{msg}}"
                ))
                .expect("a valid template"),
            );
            bar
        });
        Progress {
            plain: mode == ProgressMode::Plain || (mode == ProgressMode::Auto && !terminal),
            bar,
            started: Instant::now(),
            last_line: std::sync::Mutex::new(Instant::now()),
            hands: 0.into(),
            matches: 0.into(),
            total_hands,
            total_matches,
        }
    }

    fn hand(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        let h = self.hands.fetch_add(1, Relaxed) + 1;
        if let Some(bar) = &self.bar {
            if self.total_hands.is_some() {
                bar.set_position(h);
            }
        }
        self.line(false);
    }

    fn finished_match(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        let m = self.matches.fetch_add(1, Relaxed) + 1;
        if let Some(bar) = &self.bar {
            if self.total_hands.is_none() {
                bar.set_position(m);
            }
            bar.set_message(format!("{m}/{} matches", self.total_matches));
        }
        self.line(m == self.total_matches);
    }

    fn line(&self, force: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        if !self.plain {
            return;
        }
        let mut last = self.last_line.lock().expect("progress lock");
        if !force && last.elapsed() < Duration::from_secs(5) {
            return;
        }
        *last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        let h = self.hands.load(Relaxed);
        let m = self.matches.load(Relaxed);
        let rate = h as f64 / secs;
        let eta = self
            .total_hands
            .filter(|_| rate > 0.0)
            .map(|t| format!(", ETA {:.0} s", t.saturating_sub(h) as f64 / rate))
            .unwrap_or_default();
        eprintln!(
            "progress: {m}/{} matches, {h} hands, {rate:.1} hands/s{eta}",
            self.total_matches
        );
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What a finished run leaves.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The output folder.
    pub out: PathBuf,
    /// The results.
    pub results: Results,
    /// Matches played in this run (not counting ones finished before a resume).
    pub played: u64,
    /// Bots whose process ended during the run.
    pub crashed: Vec<String>,
    /// Bots taken out of the event (their process kept failing), with why;
    /// their remaining matches were forfeits.
    pub withdrawn: Vec<(String, String)>,
    /// The run was stopped before its end (see [`RunOptions::stop`]): the
    /// results cover the finished matches only and are not written; the
    /// folder resumes with `--resume`.
    pub interrupted: bool,
    /// Matches of this run's slice finished (in this run and before).
    pub finished: u64,
    /// Matches in this run's slice.
    pub planned: u64,
}

/// Runs the tournament (or its shard) to the end.
///
/// # Errors
/// [`RunError`] for an unusable output folder, a bot that cannot be started,
/// or a log that cannot be written.
pub async fn run(t: &Tournament, opts: &RunOptions) -> Result<Summary, RunError> {
    let out = opts.out.clone().unwrap_or_else(|| t.out.clone());
    let all = schedule::plan(t);
    let planned: Vec<Planned> = all
        .iter()
        .filter(|p| opts.shard.is_none_or(|s| s.owns(p.index)))
        .cloned()
        .collect();
    std::fs::create_dir_all(out.join("matches"))
        .map_err(|e| fail(format!("{}: {e}", out.display())))?;
    std::fs::create_dir_all(out.join("logs")).map_err(fail)?;
    let manifest = Manifest::of(t, all.len() as u64, opts.shard);
    // What an earlier run left: the finished matches by index, and the
    // unfinished logs (at most one per table that was playing).
    let mut finished = std::collections::HashSet::new();
    let mut partial: std::collections::HashMap<u64, MatchLog> = Default::default();
    for_each_log(&out, |l| {
        if l.end.is_some() {
            finished.insert(l.header.match_index);
        } else {
            partial.insert(l.header.match_index, l);
        }
        Ok(())
    })?;
    let existing = finished.len() + partial.len();
    let fresh = existing == 0 && !out.join("tournament.json").exists();
    if opts.resume && !fresh {
        // (A folder with nothing in it yet is simply started: `--resume` may
        // be given to every attempt of a job, the first one included.)
        let old = Manifest::read(&out)?;
        if old != manifest {
            return Err(fail(format!(
                "{} holds a different tournament (or shard); resume needs the same file",
                out.display()
            )));
        }
    } else if existing > 0 {
        return Err(fail(format!(
            "{} already holds match logs: use --resume to continue, or --out for a new folder",
            out.display()
        )));
    }
    std::fs::write(
        out.join("tournament.json"),
        serde_json::to_string_pretty(&manifest).expect("manifest serializes") + "\n",
    )
    .map_err(fail)?;
    eprintln!(
        "tournament {}: {} matches{}, seed commitment {}",
        t.name,
        planned.len(),
        opts.shard
            .map(|s| format!(" (shard {}/{} of {})", s.index, s.count, all.len()))
            .unwrap_or_default(),
        manifest.seed_commitment
    );

    let todo: Vec<Planned> = planned
        .iter()
        .filter(|p| !finished.contains(&p.index))
        .cloned()
        .collect();

    let referee = Referee::new(Some(whistle_referee::new_token("admin")));
    let (addr, server) = referee
        .spawn(t.listen)
        .await
        .map_err(|e| fail(format!("cannot listen on {}: {e}", t.listen)))?;
    let address = format!("http://{addr}");
    let mut procs = Vec::new();
    let withdrawn: Arc<std::sync::Mutex<Vec<(String, String)>>> = Arc::default();
    for b in &t.bots {
        match &b.kind {
            BotKind::Remote { token } => {
                referee.register_bot(&b.name, Some(token.clone()));
                eprintln!("remote bot {}: connect to {address} with its token", b.name);
            }
            BotKind::Local { command } => {
                let token = referee.register_bot(&b.name, None);
                if todo.is_empty() {
                    continue;
                }
                let (r, w) = (referee.clone(), withdrawn.clone());
                let on_out: procs::OnOut = Box::new(move |name: &str, reason: &str| {
                    eprintln!("bot `{name}` is out of the event: {reason}");
                    w.lock()
                        .expect("withdrawn list")
                        .push((name.to_string(), reason.to_string()));
                    r.withdraw_bot(name, reason);
                });
                let p = BotProcess::start(
                    procs::Launch {
                        name: b.name.clone(),
                        command: command.clone(),
                        dir: t.base_dir(),
                        address: address.clone(),
                        token,
                        stderr_log: procs::stderr_log(&out, &b.name),
                    },
                    Some(on_out),
                )
                .map_err(|e| {
                    fail(format!(
                        "bot `{}`: cannot start `{}`: {e}",
                        b.name, command[0]
                    ))
                })?;
                procs.push(p);
            }
        }
    }

    let hands_per_match = t.options.get("hands").and_then(|h| h.parse::<u64>().ok());
    let progress = Arc::new(Progress::new(
        opts.progress,
        todo.len() as u64,
        hands_per_match.map(|h| h * todo.len() as u64),
    ));
    let slots = Arc::new(Semaphore::new(t.parallel));
    let mut tasks = JoinSet::new();
    let t_shared = Arc::new(t.clone());
    let mut stop = opts.stop.clone();
    let stopped = |stop: &Option<tokio::sync::watch::Receiver<bool>>| {
        stop.as_ref().is_some_and(|s| *s.borrow())
    };
    let mut stopped_matches = 0u64;
    let mut drained = false;
    for p in todo.iter().cloned() {
        if stopped(&stop) {
            break;
        }
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => permit.expect("never closed"),
            () = wait_stop(&mut stop) => break,
        };
        let referee = referee.clone();
        let t = t_shared.clone();
        let path = match_path(&out, p.index);
        let resume = partial.remove(&p.index);
        let progress = progress.clone();
        tasks.spawn(async move {
            let r = play_match(&referee, &t, &p, &path, resume, &progress).await;
            // Its record is in the log: the referee need not keep the table.
            referee.forget_table(&table_id(&t, p.index));
            drop(permit);
            if matches!(r, Ok(Recorded::Finished)) {
                progress.finished_match();
            }
            (p.index, r)
        });
        // Surface errors early rather than after the whole schedule.
        while let Some(done) = tasks.try_join_next() {
            stopped_matches += check(done)?;
        }
    }
    loop {
        tokio::select! {
            done = tasks.join_next() => match done {
                Some(done) => stopped_matches += check(done)?,
                None => break,
            },
            () = wait_stop(&mut stop), if !drained => {
                drained = true;
                eprintln!(
                    "stopping: the tables finish the hand in progress (at most {} ms); \
                     a second signal exits at once",
                    opts.drain.as_millis()
                );
                referee.drain(opts.drain).await;
            }
        }
    }
    progress.done();
    let interrupted = stopped(&stop);
    if interrupted && !drained {
        referee.drain(opts.drain).await;
    }

    let mut crashed = Vec::new();
    for p in &procs {
        p.finishing();
    }
    // Retired, the bots' Subscribe streams end and they exit by themselves
    // (the launch contract); whatever is left is stopped.
    for b in &t.bots {
        referee.retire_bot(&b.name);
    }
    for p in procs {
        if p.crashed() {
            crashed.push(p.name().to_string());
        }
        p.stop().await;
    }
    server.shutdown().await;
    let withdrawn = std::mem::take(&mut *withdrawn.lock().expect("withdrawn list"));

    let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
    let mut tally = stats::Tally::new(&t.name, t.game.name(), &names);
    for_each_log(&out, |l| {
        if opts.shard.is_none_or(|s| s.owns(l.header.match_index)) {
            tally.add(&l);
        }
        Ok(())
    })?;
    let mut results = tally.finish();
    let finished = results.matches.len() as u64;
    if interrupted {
        // The seed stays secret and no standings are written: the event is
        // not over. The logs resume with `--resume`.
        info!(finished, stopped_matches, "run interrupted");
    } else {
        results.seed = Some(t.seed_number);
        report::write_all(&out, &results).map_err(fail)?;
    }
    Ok(Summary {
        out,
        results,
        played: todo.len() as u64,
        crashed,
        withdrawn,
        interrupted,
        finished,
        planned: planned.len() as u64,
    })
}

/// Completes when `stop` turns true; never without one.
async fn wait_stop(stop: &mut Option<tokio::sync::watch::Receiver<bool>>) {
    match stop {
        Some(rx) => {
            if rx.wait_for(|s| *s).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
        None => std::future::pending().await,
    }
}

/// A finished match task: 0 if its match ended, 1 if it was stopped.
fn check(
    done: Result<(u64, Result<Recorded, RunError>), tokio::task::JoinError>,
) -> Result<u64, RunError> {
    match done {
        Ok((_, Ok(Recorded::Finished))) => Ok(0),
        Ok((_, Ok(Recorded::Stopped { .. }))) => Ok(1),
        Ok((i, Err(e))) => Err(fail(format!("match {i}: {e}"))),
        Err(e) => Err(fail(format!("a match task failed: {e}"))),
    }
}

/// How a table's record ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// The match ended; its log is complete.
    Finished,
    /// The referee stopped the table (shutting down); the log holds the
    /// completed hands and resumes from them.
    Stopped {
        /// Why.
        reason: String,
    },
}

/// The table id of match `index`: `<name>-m00042`.
fn table_id(t: &Tournament, index: u64) -> String {
    format!("{}-m{index:05}", t.name)
}

fn header(t: &Tournament, p: &Planned) -> Header {
    Header {
        format: whistle_replay::FORMAT.into(),
        version: whistle_replay::VERSION,
        tournament: t.name.clone(),
        match_index: p.index,
        table: table_id(t, p.index),
        game: t.game.name().into(),
        options: t.options.clone(),
        seats: p.seats.iter().map(|&b| t.bots[b].name.clone()).collect(),
        seed_commitment: seed_commitment(t.seed),
        clocks: Clocks {
            per_action_ms: t.time.per_action.as_millis() as u64,
            time_bank_ms: t.time.time_bank.as_millis() as u64,
            reconnect_grace_ms: t.time.reconnect_grace.as_millis() as u64,
        },
        faults: Faults {
            max_faults: t.faults.max_faults,
            fallback: t.faults.fallback.name().into(),
        },
        duplicate: p
            .duplicate
            .map(|(group, rotation)| Duplicate { group, rotation }),
    }
}

/// The resume state of a partly played match log.
fn resume_of(log: &MatchLog, seats: usize) -> Resume {
    let mut r = Resume {
        faults: vec![0; seats],
        forfeited: vec![false; seats],
        ..Resume::default()
    };
    for h in &log.hands {
        r.deals.push(h.deck.clone());
        r.actions
            .extend(h.actions.iter().map(|a| (a.seat, a.action, a.fallback)));
        for f in &h.faults {
            let s = f.seat.index();
            r.faults[s] = r.faults[s].max(f.faults);
            r.forfeited[s] |= f.forfeited;
        }
    }
    r
}

async fn play_match(
    referee: &Referee,
    t: &Tournament,
    p: &Planned,
    path: &Path,
    resume: Option<MatchLog>,
    progress: &Progress,
) -> Result<Recorded, RunError> {
    let header = header(t, p);
    let names: Vec<&str> = header.seats.iter().map(String::as_str).collect();
    let mut spec = TableSpec::new(t.game, p.match_seed, &names);
    spec.table_id = Some(header.table.clone());
    spec.options = t.options.clone();
    spec.time = t.time;
    spec.faults = t.faults;
    spec.start_timeout = t.start_timeout;
    let mut writer = match &resume {
        Some(log) if log.header == header => {
            let r = resume_of(log, names.len());
            let game = t.game.new_game(&t.options).map_err(fail)?;
            let mut driver =
                MatchDriver::new(game, p.match_seed, t.faults.fallback).with_deals(r.deals.clone());
            driver.replay(&r.actions).map_err(fail)?;
            let game = driver.into_game();
            let mut w = Writer::append(path, log).map_err(fail)?;
            if game.is_over() {
                // Every hand was logged but not the end: write it from the game.
                w.end(EndLog {
                    prev: String::new(),
                    result: game.result().expect("over"),
                    forfeited: Seat::all(names.len())
                        .filter(|s| r.forfeited[s.index()])
                        .collect(),
                    faults: r.faults.clone(),
                    match_seed: p.match_seed,
                })
                .map_err(fail)?;
                return Ok(Recorded::Finished);
            }
            if !r.actions.is_empty() {
                spec.resume = Some(r);
            }
            w
        }
        Some(_) => {
            return Err(fail(format!(
                "{}: its header does not match the tournament file",
                path.display()
            )));
        }
        None => Writer::create(path, &header).map_err(fail)?,
    };
    let mut table = referee.create_table(spec).map_err(fail)?;
    record_table(&mut table, &mut writer, p.match_seed, || progress.hand()).await
}

/// Turns a table's record into its replay log: one hand line per hand (with
/// its deal, actions and faults), then the end line with the match seed.
/// `on_hand` is called after each hand is written. A table the referee
/// stopped leaves its completed hands and no end line (a resumable log).
///
/// # Errors
/// If the log cannot be written, or the table aborts or ends without a result.
pub async fn record_table(
    table: &mut whistle_referee::TableHandle,
    writer: &mut Writer,
    match_seed: whistle_rules::dealing::Seed,
    mut on_hand: impl FnMut(),
) -> Result<Recorded, RunError> {
    let table_id = table.table_id.clone();
    let mut hand: Option<HandLog> = None;
    let mut early_faults: Vec<FaultLog> = Vec::new();
    while let Some(rec) = table.records.recv().await {
        match rec {
            TableRecord::Started { connected } => {
                if connected.iter().any(|c| !c) {
                    warn!(table = %table_id, ?connected, "started without every seat");
                }
            }
            TableRecord::Deal { deal, order } => {
                hand = Some(HandLog {
                    prev: String::new(),
                    deal,
                    dealer: Seat::new(0),
                    deck: order,
                    actions: Vec::new(),
                    faults: std::mem::take(&mut early_faults),
                    result: whistle_rules::HandResult {
                        deal,
                        dealer: Seat::new(0),
                        misdeal: false,
                        bids: vec![],
                        tricks: vec![],
                        made: vec![],
                        points: vec![],
                        totals: vec![],
                        seat_points: Vec::new(),
                        summary: String::new(),
                    },
                    context: None,
                });
            }
            TableRecord::Action {
                seat,
                action,
                elapsed,
                fallback,
            } => {
                if let Some(h) = hand.as_mut() {
                    h.actions.push(ActionLog {
                        seat,
                        action,
                        ms: elapsed.as_micros() as f64 / 1000.0,
                        fallback,
                    });
                }
            }
            TableRecord::Fault(f) => {
                let entry = FaultLog {
                    seat: f.seat,
                    kind: f.kind.name().into(),
                    detail: f.detail,
                    fallback: f.fallback,
                    faults: f.faults,
                    forfeited: f.forfeited,
                    at: hand.as_ref().map_or(0, |h| h.actions.len()),
                    answer: f.answer,
                };
                match hand.as_mut() {
                    Some(h) => h.faults.push(entry),
                    None => early_faults.push(entry),
                }
            }
            TableRecord::Hand(result) => {
                let mut h = hand
                    .take()
                    .ok_or_else(|| fail("a hand result without a deal"))?;
                h.dealer = result.dealer;
                h.result = result;
                writer.hand(h).map_err(fail)?;
                on_hand();
            }
            TableRecord::End {
                result,
                forfeited,
                faults,
            } => {
                writer
                    .end(EndLog {
                        prev: String::new(),
                        result,
                        forfeited,
                        faults,
                        match_seed,
                    })
                    .map_err(fail)?;
                info!(table = %table_id, "match logged");
                return Ok(Recorded::Finished);
            }
            TableRecord::Stopped {
                reason, hands_done, ..
            } => {
                info!(table = %table_id, hands_done, %reason, "match stopped; its log resumes");
                return Ok(Recorded::Stopped { reason });
            }
            TableRecord::Aborted { reason } => {
                return Err(fail(format!("table {} aborted: {reason}", table_id)));
            }
        }
    }
    Err(fail(format!("table {} ended without a result", table_id)))
}

/// Merges shard folders: the union of their match logs gives the same
/// results as one run. Writes the results into `out`.
///
/// # Errors
/// If folders hold different tournaments, a match appears twice, or a log
/// cannot be read.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Results, RunError> {
    let mut manifest: Option<Manifest> = None;
    // Every match log to merge: match index → its file. The logs are read
    // one at a time, here to check them and below to count them.
    let mut found: std::collections::BTreeMap<u64, PathBuf> = Default::default();
    for d in dirs {
        let m = Manifest::read(d)?;
        let base = Manifest {
            shard: None,
            ..m.clone()
        };
        match &manifest {
            None => manifest = Some(base),
            Some(first) if *first != base => {
                return Err(fail(format!(
                    "{} holds a different tournament than {}",
                    d.display(),
                    dirs[0].display()
                )));
            }
            Some(_) => {}
        }
        for (index, path) in log_paths(d)? {
            let finished =
                has_header(&path)? && whistle_replay::read(&path).map_err(fail)?.end.is_some();
            if !finished {
                return Err(fail(format!(
                    "{}: match {index} is unfinished (resume that shard first)",
                    d.display(),
                )));
            }
            if found.insert(index, path).is_some() {
                return Err(fail(format!("match {index} appears twice")));
            }
        }
    }
    let m = manifest.ok_or_else(|| fail("nothing to merge"))?;
    if (found.len() as u64) < m.matches {
        eprintln!(
            "merge: {} of {} matches present; the results cover those only",
            found.len(),
            m.matches
        );
    }
    std::fs::create_dir_all(out.join("matches")).map_err(fail)?;
    let mut tally = stats::Tally::new(&m.name, &m.game, &m.bots);
    for (&index, from) in &found {
        let to = match_path(out, index);
        if std::fs::canonicalize(from).ok() != std::fs::canonicalize(&to).ok() {
            std::fs::copy(from, &to).map_err(fail)?;
        }
        tally.add(&whistle_replay::read(&to).map_err(fail)?);
    }
    std::fs::write(
        out.join("tournament.json"),
        serde_json::to_string_pretty(&m).expect("manifest serializes") + "\n",
    )
    .map_err(fail)?;
    let mut results = tally.finish();
    // The seed as revealed by the shards (they all ran the same file).
    results.seed = dirs.iter().find_map(|d| {
        let text = std::fs::read_to_string(d.join("results.json")).ok()?;
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()?
            .get("seed")?
            .as_u64()
    });
    report::write_all(out, &results).map_err(fail)?;
    Ok(results)
}
