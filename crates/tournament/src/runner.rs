//! Runs a tournament: the embedded referee on loopback, the bot processes,
//! tables in parallel, one replay log per match (flushed after every hand),
//! then the results.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use tokio::{sync::Semaphore, task::JoinSet};
use tracing::{info, warn};
use whistle_referee::{Referee, Resume, TableRecord, TableSpec};
use whistle_replay::{
    Clocks, Duplicate, EndLog, Faults, Header, MatchLog, RecordError, Recorder, Writer,
    seed_commitment,
};
use whistle_rules::{Game, MatchDriver, Seat};

use crate::{
    config::{BotKind, Tournament},
    confine::{self, Confinement},
    error::io_at,
    fair_play::{FairPlay, LocalLaunch, bot_address},
    layout::{BOTS_FILE, BotsState, OutBot, has_header, remove_outputs, table_id},
    pool::{Instance, Instances},
    procs::{self, BotProcess},
    report,
    schedule::{self, Planned, Shard},
    stats::{self, Results},
};
// The error and the output folder's layout have modules of their own; these
// paths of theirs stay where they were.
pub use crate::{
    error::RunError,
    layout::{
        MANIFEST_FORMAT, Manifest, OUTPUTS, SEED_FILE, for_each_log, log_paths, match_path,
        read_logs,
    },
};

/// What a run needs beyond the tournament file.
#[derive(Clone)]
pub struct RunOptions {
    /// Output folder instead of the file's `out`.
    pub out: Option<PathBuf>,
    /// Continue an interrupted run from its logs.
    pub resume: bool,
    /// Start afresh in an output folder an earlier run used: its outputs
    /// (see [`OUTPUTS`]) are removed first; nothing else in it is touched.
    pub overwrite: bool,
    /// Run only this slice of the schedule.
    pub shard: Option<Shard>,
    /// Where progress and messages go (the library prints nothing).
    pub reporter: Arc<dyn Reporter>,
    /// When this turns true (a signal), the run stops: no new matches, the
    /// tables finish the hand in progress (at most `drain` long), the bots
    /// are retired and stopped, and the logs stay resumable.
    pub stop: Option<tokio::sync::watch::Receiver<bool>>,
    /// How long tables may take to finish their hand once stopped.
    pub drain: Duration,
    /// The matches to play instead of the file's schedule (a league's round
    /// seats its own tables; see `whistle-league`). Indices must run from 0.
    pub plan: Option<Vec<Planned>>,
    /// Play on this running referee instead of one of the run's own (a
    /// league's, which outlives its rounds). Its owner registers the remote
    /// bots (their tokens in the file are not used) and keeps them: the run
    /// neither registers nor retires them, and leaves the server running.
    pub referee: Option<SharedReferee>,
    /// More paths no bot may read (a league's folder); the event file and the
    /// output folder always.
    pub secrets: Vec<PathBuf>,
    /// The sandbox launcher: a program that calls
    /// `whistle_sandbox::launcher_main` (default: the small launcher beside
    /// the running program where `whistle_sandbox::launcher_for` picks it,
    /// else the running program).
    pub launcher: Option<PathBuf>,
}

/// A referee serving already, and the address bots reach it at.
#[derive(Clone)]
pub struct SharedReferee {
    /// The referee.
    pub referee: Referee,
    /// Where the runner's bot processes connect (`http://…` or `https://…`).
    pub address: String,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            out: None,
            resume: false,
            overwrite: false,
            shard: None,
            reporter: Arc::new(Silent),
            stop: None,
            drain: Duration::from_secs(10),
            plan: None,
            referee: None,
            secrets: Vec::new(),
            launcher: None,
        }
    }
}

/// What a run reports as it goes, for whoever shows it (the CLI draws a bar
/// or prints lines; a test may count). The library itself prints nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEvent {
    /// Play begins.
    Started {
        /// The tournament.
        name: String,
        /// Matches this run plays (finished ones of a resumed run excluded).
        to_play: u64,
        /// Matches in this folder's schedule (the shard's, if one).
        planned: u64,
        /// Matches in the whole schedule.
        total: u64,
        /// The shard, `(i, n)`, if one.
        shard: Option<(u64, u64)>,
        /// Hands this run plays, where every match has a fixed number.
        hands: Option<u64>,
        /// SHA-256 of the tournament seed.
        seed_commitment: String,
    },
    /// A remote bot is awaited at this address.
    RemoteBot {
        /// The bot.
        name: String,
        /// Where it connects.
        address: String,
    },
    /// A bot runs without a sandbox: the organiser's choice (`sandbox =
    /// false`), said wherever the results are.
    Unsandboxed {
        /// The bot.
        name: String,
    },
    /// How the run confines its bots.
    Sandbox {
        /// The mode and what it guarantees here, in words
        /// (`whistle_sandbox::Support::describe`).
        mode: String,
        /// Whether each play of a deal gets a fresh instance of a bot, and why.
        instances: Option<String>,
    },
    /// A bot is out of the event (its command cannot start).
    BotOut {
        /// The bot.
        name: String,
        /// Why.
        reason: String,
    },
    /// A hand was logged.
    Hand,
    /// A match finished: its log is complete and will not change.
    Match {
        /// The match's index in the schedule.
        index: u64,
        /// Its log.
        log: PathBuf,
    },
    /// A stop was asked for: tables finish the hand in progress.
    Stopping {
        /// The drain deadline.
        drain: Duration,
    },
    /// Play is over (finished or stopped).
    Done,
    /// A merge found fewer matches than the schedule has.
    MergePartial {
        /// Matches present.
        present: u64,
        /// Matches scheduled.
        total: u64,
    },
}

/// Receives a run's [`RunEvent`]s, from several tasks at once.
pub trait Reporter: Send + Sync {
    /// One event.
    fn report(&self, event: RunEvent);
}

/// A reporter that shows nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Reporter for Silent {
    fn report(&self, _: RunEvent) {}
}

/// The tournament a run of `out` plays: `t` itself, or, where `t` drew its
/// seed, resumes, and `out` keeps the seed an earlier run drew, `t` with
/// that seed.
///
/// # Errors
/// A sharded run without a given seed (each shard would draw its own); an
/// unreadable or damaged seed file.
fn with_kept_seed(
    t: &Tournament,
    out: &Path,
    opts: &RunOptions,
) -> Result<Option<Tournament>, RunError> {
    if !t.seed_drawn {
        return Ok(None);
    }
    if opts.shard.is_some() {
        return Err(RunError::Mismatch(format!(
            "the shards of a tournament must deal from one seed, and none is given: give \
             every shard the same `--seed` (or `seed` in the file), e.g. --seed {}",
            crate::config::draw_seed()
        )));
    }
    if !opts.resume {
        return Ok(None);
    }
    let path = out.join(SEED_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        // A folder without one: a fresh folder starts with the drawn seed;
        // one that holds a run is refused by the manifest's check.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_at(&path)(e)),
    };
    let seed = whistle_rules::dealing::Seed::from_hex(&text).map_err(|e| RunError::Parse {
        path: path.clone(),
        message: e,
    })?;
    let mut kept = t.clone();
    kept.keep_drawn_seed(seed);
    Ok(Some(kept))
}

/// Writes a drawn seed to `out`'s [`SEED_FILE`] (owner-only, on disk before
/// any log), or removes a stale one when the seed is given.
fn keep_seed(t: &Tournament, out: &Path) -> Result<(), RunError> {
    let path = out.join(SEED_FILE);
    if !t.seed_drawn {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_at(&path)(e)),
            _ => Ok(()),
        };
    }
    // Owner-only, and whole or not at all.
    write_whole(&path, format!("{}\n", t.seed).as_bytes(), 0o600).map_err(io_at(&path))
}

/// Makes `dir` and the folders above it that are missing, mode 0700 (the
/// owner's alone); a folder that exists keeps its mode.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir)
}

/// Writes `path` whole or not at all: a temporary file beside it, synced,
/// then renamed over it (a run killed at any point leaves the old file or
/// the new one, never an empty one), with permissions `mode`.
fn write_whole(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    #[cfg(unix)]
    tmp.as_file()
        .set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))?;
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
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

/// The output folder made ready for play, and what is left to play in it.
struct Prepared {
    /// The output folder.
    out: PathBuf,
    /// The tournament with the seed an earlier run drew, where it kept one.
    kept: Option<Tournament>,
    /// The whole schedule.
    all: Vec<Planned>,
    /// This run's slice of it.
    planned: Vec<Planned>,
    /// The manifest, written.
    manifest: Manifest,
    /// The unfinished logs an earlier run left, by match index.
    partial: std::collections::HashMap<u64, MatchLog>,
    /// The matches of the slice not finished yet.
    todo: Vec<Planned>,
}

/// The first level of a run: checks the output folder against the options
/// and the manifest an earlier run left, keeps or reads back a drawn seed,
/// writes the manifest, and finds what is left to play.
fn prepare(t: &Tournament, opts: &RunOptions) -> Result<Prepared, RunError> {
    let out = opts.out.clone().unwrap_or_else(|| t.out.clone());
    if opts.overwrite && opts.resume {
        return Err(RunError::Mismatch(
            "--overwrite starts afresh and --resume continues: give one".into(),
        ));
    }
    if opts.overwrite {
        remove_outputs(&out)?;
    }
    let kept = with_kept_seed(t, &out, opts)?;
    if kept.is_some() && opts.plan.is_some() {
        return Err(RunError::Mismatch(
            "a run given its plan must be given its seed too".into(),
        ));
    }
    let t = kept.as_ref().unwrap_or(t);
    let all = opts.plan.clone().unwrap_or_else(|| schedule::plan(t));
    let planned: Vec<Planned> = all
        .iter()
        .filter(|p| opts.shard.is_none_or(|s| s.owns(p.index)))
        .cloned()
        .collect();
    // The output folder (seed, deals and logs) is the owner's alone where
    // whistle makes it.
    private_dir(&out.join("matches")).map_err(io_at(&out))?;
    private_dir(&out.join("logs")).map_err(io_at(&out))?;
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
            let seed = if old.seed_commitment == manifest.seed_commitment {
                ""
            } else if t.seed_drawn {
                // A drawn seed with no seed file: the folder's run was
                // given its seed.
                " and seed (it was given one: resume with the same `--seed`)"
            } else {
                " and seed"
            };
            return Err(RunError::Mismatch(format!(
                "{} holds a different tournament (or shard); resume needs the same file{seed}",
                out.display()
            )));
        }
    } else if existing > 0 {
        return Err(RunError::Mismatch(format!(
            "{} already holds match logs: use --resume to continue, --overwrite to start afresh, \
             or --out for a new folder",
            out.display()
        )));
    }
    keep_seed(t, &out)?;
    if !opts.resume || fresh {
        // What an earlier run of this folder learnt of its bots belongs to
        // its logs: a run that starts afresh starts without it.
        let path = out.join(BOTS_FILE);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_at(&path)(e)),
            _ => {}
        }
    }
    write_whole(
        &out.join("tournament.json"),
        (serde_json::to_string_pretty(&manifest).expect("manifest serializes") + "\n").as_bytes(),
        0o644,
    )
    .map_err(io_at(&out.join("tournament.json")))?;

    let todo: Vec<Planned> = planned
        .iter()
        .filter(|p| !finished.contains(&p.index))
        .cloned()
        .collect();

    Ok(Prepared {
        out,
        kept,
        all,
        planned,
        manifest,
        partial,
        todo,
    })
}

/// Runs the tournament (or its shard) to the end.
///
/// # Errors
/// [`RunError`] for an unusable output folder, a bot that cannot be started,
/// or a log that cannot be written.
pub async fn run(t: &Tournament, opts: &RunOptions) -> Result<Summary, RunError> {
    let Prepared {
        out,
        kept,
        all,
        planned,
        manifest,
        mut partial,
        todo,
    } = prepare(t, opts)?;
    let t = kept.as_ref().unwrap_or(t);

    let (referee, server, address) = match &opts.referee {
        Some(shared) => (shared.referee.clone(), None, shared.address.clone()),
        None => {
            let referee = Referee::new(Some(whistle_referee::new_token("admin")));
            let (addr, server) =
                referee
                    .spawn(t.listen)
                    .await
                    .map_err(|error| RunError::Listen {
                        addr: t.listen,
                        error,
                    })?;
            (referee, Some(server), format!("http://{addr}"))
        }
    };
    let shared = opts.referee.is_some();
    let fair = prepare_bots(t, opts, &out, &all, &referee, &address).await?;
    // The bots' processes, shared with their supervisors' `on_end`: a
    // process's verdicts hold the limit that ended it by then.
    let procs: Arc<std::sync::Mutex<Vec<BotProcess>>> = Arc::default();
    // What an earlier run of this folder learnt of its bots (none on a
    // fresh start: `prepare` removed it): a bot out of the event stays out,
    // and one whose process ended keeps the restarts it has left.
    let ledger = Arc::new(Ledger::open(&out)?);
    let withdrawn: Arc<std::sync::Mutex<Vec<(String, String)>>> = Arc::default();
    for OutBot { bot, reason } in ledger.out() {
        opts.reporter.report(RunEvent::BotOut {
            name: bot.clone(),
            reason: reason.clone(),
        });
        referee.withdraw_bot(&bot, &reason);
        withdrawn
            .lock()
            .expect("withdrawn list")
            .push((bot, reason));
    }
    for b in &t.bots {
        if fair.unsandboxed.contains(&b.name) {
            opts.reporter.report(RunEvent::Unsandboxed {
                name: b.name.clone(),
            });
        }
    }
    if let Some(c) = &fair.confinement {
        opts.reporter.report(RunEvent::Sandbox {
            mode: c.support.describe(c.mode),
            instances: fair.instances.clone(),
        });
    }
    for b in &t.bots {
        match &b.kind {
            BotKind::Remote { token } => {
                // On a shared referee the owner admits its remote bots
                // (and they are connected already).
                if !shared {
                    referee.register_bot(&b.name, Some(token.clone()));
                    opts.reporter.report(RunEvent::RemoteBot {
                        name: b.name.clone(),
                        address: address.clone(),
                    });
                }
            }
            BotKind::Local(_) => {
                let token = referee.register_bot(&b.name, None);
                if todo.is_empty() || fair.instances.is_some() {
                    // Instances are started table by table, with seat tokens.
                    continue;
                }
                if ledger.is_out(&b.name) {
                    // Out in an earlier run of this folder: its seats are
                    // forfeits, as they were after it went out.
                    continue;
                }
                let on_out = out_of_event(&referee, &withdrawn, &opts.reporter, &ledger);
                let (l, running) = (ledger.clone(), procs.clone());
                let p = BotProcess::start_counted(
                    fair.launch(&b.name, token, &out, false),
                    Some(on_out),
                    ledger.ended(&b.name),
                    Some(Box::new(move |name: &str, n: u32| {
                        let limits = running
                            .lock()
                            .expect("bot processes")
                            .iter()
                            .find(|p| p.name() == name)
                            .map(BotProcess::verdicts);
                        l.record_end(name, n, limits.as_deref());
                    })),
                )
                .map_err(|e| fair.start_error(&b.name, e))?;
                procs.lock().expect("bot processes").push(p);
            }
        }
    }
    let fair = Arc::new(fair);
    let instances: Arc<std::sync::Mutex<Vec<BotProcess>>> = Arc::default();
    let stoppers: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();

    let hands_per_match = t.options.get("hands").and_then(|h| h.parse::<u64>().ok());
    let progress = opts.reporter.clone();
    progress.report(RunEvent::Started {
        name: t.name.clone(),
        to_play: todo.len() as u64,
        planned: planned.len() as u64,
        total: all.len() as u64,
        shard: opts.shard.map(|s| (s.index, s.count)),
        hands: hands_per_match.map(|h| h * todo.len() as u64),
        seed_commitment: manifest.seed_commitment.clone(),
    });
    let slots = Arc::new(Semaphore::new(t.parallel));
    let mut tasks = JoinSet::new();
    let t_shared = Arc::new(t.clone());
    let mut stop = opts.stop.clone();
    let stopped = |stop: &Option<tokio::sync::watch::Receiver<bool>>| {
        stop.as_ref().is_some_and(|s| *s.borrow())
    };
    let mut stopped_matches = 0u64;
    let mut drained = false;
    // With fresh instances, a match waits until its bots' instances that
    // saw its deals are gone; other sets of deals play meanwhile.
    let mut pending = confine::Pending::new(todo.clone(), fair.instances.is_some(), |b| {
        fair.locals.contains_key(&t.bots[b].name)
    });
    let holds = pending.holds().clone();
    // With fresh instances, a match's instances start as soon as the match
    // may (`crate::pool`), up to `parallel` matches ahead of a free table.
    let ahead = fair.instances.is_some().then(|| {
        let (r, w, rep, l) = (
            referee.clone(),
            withdrawn.clone(),
            opts.reporter.clone(),
            ledger.clone(),
        );
        Instances::new(
            referee.clone(),
            fair.clone(),
            out.clone(),
            Box::new(move || out_of_event(&r, &w, &rep, &l)),
        )
    });
    let mut ready: std::collections::VecDeque<(Planned, confine::Held, Option<SeatInstances>)> =
        Default::default();
    loop {
        if stopped(&stop) {
            break;
        }
        // Every match that may start and fits ahead (one without instances:
        // the next, taken when a table is free as before).
        while ready.len() < ahead.as_ref().map_or(1, |_| t.parallel) {
            let Some((p, held)) = pending.startable() else {
                break;
            };
            let seats = ahead.as_ref().map(|a| SeatInstances {
                taken: a.start(t, &p),
                done: instances.clone(),
                stoppers: stoppers.clone(),
                ledger: ledger.clone(),
            });
            ready.push_back((p, held, seats));
        }
        if ready.is_empty() {
            if pending.is_empty() {
                break;
            }
            tokio::select! {
                () = holds.freed() => continue,
                () = wait_stop(&mut stop) => break,
            }
        }
        // A table for the first ready match; a hold given back meanwhile
        // lets another get ready.
        let more = !pending.is_empty() && ahead.is_some() && ready.len() < t.parallel;
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => permit.expect("never closed"),
            () = holds.freed(), if more => continue,
            () = wait_stop(&mut stop) => break,
        };
        let Some((p, held, seats)) = ready.pop_front() else {
            continue;
        };
        let referee = referee.clone();
        let t = t_shared.clone();
        let path = match_path(&out, p.index);
        let resume = partial.remove(&p.index);
        let progress = progress.clone();
        tasks.spawn(async move {
            let r = play_match(&referee, &t, &p, &path, resume, &progress, seats.as_ref()).await;
            match seats {
                Some(si) => end_instances(&referee, si, held),
                None => drop(held),
            }
            // Its record is in the log: the referee need not keep the table.
            referee.forget_table(&table_id(&t, p.index));
            drop(permit);
            if matches!(r, Ok(Recorded::Finished)) {
                progress.report(RunEvent::Match {
                    index: p.index,
                    log: path,
                });
            }
            (p.index, r)
        });
        // Surface errors early rather than after the whole schedule.
        while let Some(done) = tasks.try_join_next() {
            stopped_matches += check(done)?;
        }
    }
    // Stopped: the matches ready but not started give their instances back.
    for (_, held, seats) in ready.drain(..) {
        match seats {
            Some(si) => end_instances(&referee, si, held),
            None => drop(held),
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
                progress.report(RunEvent::Stopping { drain: opts.drain });
                referee.drain(opts.drain).await;
            }
        }
    }
    progress.report(RunEvent::Done);
    let interrupted = stopped(&stop);
    if interrupted && !drained {
        referee.drain(opts.drain).await;
    }

    let procs = std::mem::take(&mut *procs.lock().expect("bot processes"));
    let (crashed, limits, withdrawn) = stop_bots(
        t, &referee, shared, server, &fair, procs, &instances, &stoppers, &withdrawn,
    )
    .await;
    // This run's limits after the earlier runs' of the folder.
    let limits = ledger.all_limits(&limits);
    // The bots whose process ended in this event, this run or an earlier
    // one of the folder, in file order.
    let crashed: Vec<String> = t
        .bots
        .iter()
        .map(|b| &b.name)
        .filter(|n| crashed.contains(n) || ledger.ended(n) > 0 || ledger.is_out(n))
        .cloned()
        .collect();

    let results = finish(
        t,
        opts,
        &out,
        &withdrawn,
        &fair.unsandboxed,
        &limits,
        interrupted.then_some(stopped_matches),
    )?;
    let finished = results.matches.len() as u64;
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

/// What stopping a run's bots leaves: the bots whose process crashed, each
/// sandbox verdict `(bot, verdict)`, and the bots out of the event with why.
type Stopped = (Vec<String>, Vec<(String, String)>, Vec<(String, String)>);

/// Stops what the run started once its tables are over: the fresh
/// instances' stoppers, the bots' processes (dismissed first, so that they
/// exit by themselves), the referee's servers; on a shared referee the bots
/// out of this event are readmitted.
#[allow(clippy::too_many_arguments)]
async fn stop_bots(
    t: &Tournament,
    referee: &Referee,
    shared: bool,
    server: Option<whistle_referee::ServerHandle>,
    fair: &FairPlay,
    mut procs: Vec<BotProcess>,
    instances: &std::sync::Mutex<Vec<BotProcess>>,
    stoppers: &std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>,
    withdrawn: &std::sync::Mutex<Vec<(String, String)>>,
) -> Stopped {
    let mut crashed = Vec::new();
    // Every instance of a finished match is stopped before the run ends.
    let pending = std::mem::take(&mut *stoppers.lock().expect("stoppers"));
    for h in pending {
        let _ = h.await;
    }
    procs.extend(std::mem::take(&mut *instances.lock().expect("instances")));
    for p in &procs {
        p.finishing();
    }
    // Dismissed, the bots' Subscribe streams end and they exit by
    // themselves (the launch contract); whatever is left is stopped.
    for b in &t.bots {
        if !(shared && matches!(b.kind, BotKind::Remote { .. })) {
            referee.dismiss_bot(&b.name);
        }
    }
    let mut limits: Vec<(String, String)> = Vec::new();
    for mut p in procs {
        if p.crashed() && !crashed.iter().any(|c| c == p.name()) {
            crashed.push(p.name().to_string());
        }
        let name = p.name().to_string();
        p.stop_and_wait().await;
        for v in p.verdicts() {
            limits.push((name.clone(), v));
        }
    }
    if let Some(server) = server {
        server.shutdown().await;
    }
    let unix = fair.unix_server.lock().expect("server").take();
    if let Some(unix) = unix {
        unix.shutdown().await;
    }
    let withdrawn = std::mem::take(&mut *withdrawn.lock().expect("withdrawn list"));
    // Out of this event, not of a shared referee's next one (a league's
    // next round starts the bot afresh).
    if shared {
        for (name, _) in &withdrawn {
            referee.readmit_bot(name);
        }
    }
    (crashed, limits, withdrawn)
}

/// The last level of a run: the results of its slice from the logs, with
/// the notes (a searchable seed, bots run unsandboxed, stopped by their
/// sandbox or out of the event); written, the seed revealed, unless the run
/// was interrupted (`interrupted` is then how many matches it stopped).
fn finish(
    t: &Tournament,
    opts: &RunOptions,
    out: &Path,
    withdrawn: &[(String, String)],
    unsandboxed: &[String],
    limits: &[(String, String)],
    interrupted: Option<u64>,
) -> Result<Results, RunError> {
    let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
    let mut tally = stats::Tally::new(&t.name, t.game.name(), &names);
    tally.mark_out(withdrawn);
    for_each_log(out, |l| {
        if opts.shard.is_none_or(|s| s.owns(l.header.match_index)) {
            tally.add(&l);
        }
        Ok(())
    })?;
    let mut results = tally.finish();
    if let Some(why) = &t.seed_warning {
        results.notes.push(stats::Note {
            bot: String::new(),
            kind: "seed".into(),
            detail: why.clone(),
        });
    }
    for name in unsandboxed {
        results.notes.push(stats::Note {
            bot: name.clone(),
            kind: "unsandboxed".into(),
            detail: "ran without a sandbox (`sandbox = false`, the organiser's choice)".into(),
        });
    }
    let mut seen = std::collections::BTreeMap::<(String, String), u32>::new();
    for (bot, v) in limits {
        *seen.entry((bot.clone(), v.clone())).or_default() += 1;
    }
    for ((bot, v), n) in seen {
        results.notes.push(stats::Note {
            bot,
            kind: "limit".into(),
            detail: if n == 1 {
                format!("stopped by its sandbox: {v}")
            } else {
                format!("stopped by its sandbox {n} times: {v}")
            },
        });
    }
    for (bot, why) in withdrawn {
        results.notes.push(stats::Note {
            bot: bot.clone(),
            kind: "out".into(),
            detail: format!("out of the event: {why}"),
        });
    }
    let finished = results.matches.len() as u64;
    if let Some(stopped_matches) = interrupted {
        // The seed stays secret and no standings are written: the event is
        // not over. The logs resume with `--resume`.
        info!(finished, stopped_matches, "run interrupted");
    } else {
        results.seed = Some(t.written_seed);
        report::write_all(out, &results).map_err(io_at(out))?;
    }
    Ok(results)
}

/// Checks and prepares the bots' fair play: refuses formats that would show
/// a remote bot one deal twice, probes the sandbox (refusing clearly where
/// none can be made), checks what each bot may read, and opens the Unix
/// socket sandboxed bots reach the referee through.
async fn prepare_bots(
    t: &Tournament,
    opts: &RunOptions,
    out: &Path,
    plan: &[Planned],
    referee: &Referee,
    address: &str,
) -> Result<FairPlay, RunError> {
    let instances = confine::replays_deals(t, plan);
    let is_remote = |b: usize| matches!(t.bots[b].kind, BotKind::Remote { .. });
    if let Some(why) = confine::replays_deals_of(t, plan, is_remote) {
        return Err(RunError::Format(format!(
            "{why}; a remote bot connects by itself, so whistle cannot give it a fresh \
             instance for each play of a deal. With remote bots, use `format = \"movement\"` \
             (each set of deals at several tables of different bots, compared on the same \
             cards) or `\"round-robin\"` with at least as many bots as seats (see \
             docs/fair-play.md)"
        )));
    }
    let secrets = confine::secrets(t, out, &opts.secrets);
    let base = t.base_dir();
    let mut locals = std::collections::HashMap::new();
    let mut unsandboxed = Vec::new();
    let any_sandboxed = t
        .bots
        .iter()
        .any(|b| matches!(&b.kind, BotKind::Local(l) if l.sandbox));
    let confinement = if any_sandboxed {
        let launcher = match &opts.launcher {
            Some(l) => l.clone(),
            // The small launcher beside `whistle` where it can stand in.
            None => std::env::current_exe()
                .map(|me| whistle_sandbox::launcher_for(&me))
                .map_err(|e| RunError::Sandbox(format!("cannot find the running program: {e}")))?,
        };
        Some(Confinement::new(launcher)?)
    } else {
        None
    };
    for b in &t.bots {
        let BotKind::Local(l) = &b.kind else { continue };
        let launch = if l.sandbox {
            let g = confine::grants(t, &b.name, l, &secrets)?;
            let mut command = vec![g.program.display().to_string()];
            command.extend(confine::absolute_args(&l.command[1..], &base));
            LocalLaunch {
                command,
                dir: g.folder,
                read: g.read,
                sandbox: true,
                limits: l.limits,
                stdio: l.stdio,
            }
        } else {
            unsandboxed.push(b.name.clone());
            let mut command = vec![
                confine::resolve_program(&l.command[0], &base)
                    .display()
                    .to_string(),
            ];
            command.extend(confine::absolute_args(&l.command[1..], &base));
            LocalLaunch {
                command,
                dir: l.folder(&base),
                read: Vec::new(),
                sandbox: false,
                limits: l.limits,
                stdio: l.stdio,
            }
        };
        locals.insert(b.name.clone(), launch);
    }
    let plain_address = bot_address(address);
    let mut reach = match &confinement {
        Some(c) => Some(c.reach(referee, &plain_address).await?),
        None => None,
    };
    let unix_server = std::sync::Mutex::new(reach.as_mut().and_then(|r| r.server.take()));
    Ok(FairPlay {
        confinement,
        reach,
        plain_address,
        unix_server,
        instances,
        locals,
        unsandboxed,
    })
}

/// What a bot that is out of the event does: reported, listed, kept in the
/// output folder's [`BOTS_FILE`], withdrawn.
fn out_of_event(
    referee: &Referee,
    withdrawn: &Arc<std::sync::Mutex<Vec<(String, String)>>>,
    reporter: &Arc<dyn Reporter>,
    ledger: &Arc<Ledger>,
) -> procs::OnOut {
    let (r, w, reporter, ledger) = (
        referee.clone(),
        withdrawn.clone(),
        reporter.clone(),
        ledger.clone(),
    );
    Box::new(move |name: &str, reason: &str| {
        let mut list = w.lock().expect("withdrawn list");
        // Said once, however many of its instances give out.
        if !list.iter().any(|(n, _)| n == name) {
            list.push((name.to_string(), reason.to_string()));
            reporter.report(RunEvent::BotOut {
                name: name.to_string(),
                reason: reason.to_string(),
            });
        }
        // On disk before its seats are forfeits: a run stopped or killed
        // from now on resumes with the bot out.
        ledger.record_out(name, reason);
        drop(list);
        r.withdraw_bot(name, reason);
    })
}

/// What the run learns of its bots as it goes (their processes' ends, who
/// is out of the event, the sandbox limits that stopped them), kept in the
/// output folder's [`BOTS_FILE`], written whole at each change, so that a
/// resumed run grades them as one run would have.
struct Ledger {
    path: PathBuf,
    state: std::sync::Mutex<BotsState>,
    /// The limits that stopped the bots in the earlier runs of the folder.
    earlier_limits: std::collections::BTreeMap<String, Vec<String>>,
    /// How many times the bots' processes ended in the earlier runs.
    earlier_ended: std::collections::BTreeMap<String, u32>,
    /// This run's fresh instances by seat token: the bot, its ends and
    /// limits (an instance recorded again replaces what it said before).
    instances: std::sync::Mutex<std::collections::BTreeMap<String, InstanceRecord>>,
}

/// A fresh instance as the [`Ledger`] keeps it: its bot, how many times its
/// process ended, the limits that stopped it.
type InstanceRecord = (String, u32, Vec<String>);

impl Ledger {
    /// The ledger of `out`, with what an earlier run left there.
    fn open(out: &Path) -> Result<Ledger, RunError> {
        let state = BotsState::read(out)?;
        Ok(Ledger {
            path: out.join(BOTS_FILE),
            earlier_limits: state.limits.clone(),
            earlier_ended: state.ended.clone(),
            instances: Default::default(),
            state: std::sync::Mutex::new(state),
        })
    }

    /// The bots out of the event, in the order they went out.
    fn out(&self) -> Vec<OutBot> {
        self.state.lock().expect("bots state").out.clone()
    }

    fn is_out(&self, bot: &str) -> bool {
        self.state
            .lock()
            .expect("bots state")
            .out_reason(bot)
            .is_some()
    }

    /// How many times `bot`'s process ended so far in the event.
    fn ended(&self, bot: &str) -> u32 {
        let state = self.state.lock().expect("bots state");
        state.ended.get(bot).copied().unwrap_or(0)
    }

    /// `bot`'s process ended, the `n`th time in the event; `limits`, the
    /// limits that stopped its processes in this run so far, if known.
    fn record_end(&self, bot: &str, n: u32, limits: Option<&[String]>) {
        let mut state = self.state.lock().expect("bots state");
        let e = state.ended.entry(bot.to_string()).or_default();
        let mut changed = *e < n;
        *e = (*e).max(n);
        if let Some(this_run) = limits.filter(|l| !l.is_empty()) {
            let mut all = self.earlier_limits.get(bot).cloned().unwrap_or_default();
            all.extend_from_slice(this_run);
            let kept = state.limits.entry(bot.to_string()).or_default();
            changed |= *kept != all;
            *kept = all;
        }
        if changed {
            self.save(&state);
        }
    }

    /// A fresh instance of `bot` (its seat token `token`), its process
    /// ended `ends` times during its match, stopped by `limits`. The bot's
    /// ends are its earlier runs' and its instances' in this run (each has
    /// its own restart allowance: the count says that its processes ended,
    /// as a resumed run reports), its limits likewise.
    fn record_instance(&self, token: &str, bot: &str, ends: u32, limits: Vec<String>) {
        if ends == 0 && limits.is_empty() {
            return;
        }
        let mut instances = self.instances.lock().expect("instances");
        instances.insert(token.to_string(), (bot.to_string(), ends, limits));
        let mut ended = self.earlier_ended.get(bot).copied().unwrap_or(0);
        let mut all = self.earlier_limits.get(bot).cloned().unwrap_or_default();
        for (_, e, l) in instances.values().filter(|(b, _, _)| b == bot) {
            ended += e;
            all.extend_from_slice(l);
        }
        let mut state = self.state.lock().expect("bots state");
        let mut changed = false;
        if ended > 0 {
            changed |= state.ended.insert(bot.to_string(), ended) != Some(ended);
        }
        if !all.is_empty() {
            changed |= state.limits.insert(bot.to_string(), all.clone()) != Some(all);
        }
        if changed {
            self.save(&state);
        }
    }

    /// Every limit that stopped a bot in the event, `(bot, verdict)`: the
    /// earlier runs' of the folder, then `this_run`'s (the run's processes
    /// know theirs, also those that came as they were stopped); kept as
    /// the event's whole list.
    fn all_limits(&self, this_run: &[(String, String)]) -> Vec<(String, String)> {
        let mut all = self.earlier_limits.clone();
        for (bot, v) in this_run {
            all.entry(bot.clone()).or_default().push(v.clone());
        }
        let mut state = self.state.lock().expect("bots state");
        if state.limits != all {
            state.limits = all.clone();
            self.save(&state);
        }
        all.into_iter()
            .flat_map(|(bot, vs)| vs.into_iter().map(move |v| (bot.clone(), v)))
            .collect()
    }

    /// `bot` is out of the event.
    fn record_out(&self, bot: &str, reason: &str) {
        let mut state = self.state.lock().expect("bots state");
        if state.out_reason(bot).is_none() {
            state.out.push(OutBot {
                bot: bot.to_string(),
                reason: reason.to_string(),
            });
            self.save(&state);
        }
    }

    /// Writes the state (under its lock, so that writes keep their order).
    fn save(&self, state: &BotsState) {
        let text = serde_json::to_string_pretty(state).expect("bots state serializes") + "\n";
        if let Err(e) = write_whole(&self.path, text.as_bytes(), 0o644) {
            warn!(path = %self.path.display(), error = %e, "cannot keep the bots' state; a resumed run would not know it");
        }
    }
}

/// Fresh instances for the seats of one match: each local bot's seat is
/// played by a process of its own (`crate::pool`), whose token the table is
/// created with, stopped when the match ends.
struct SeatInstances {
    /// By seat: the instance of the seat's bot, if the run starts it.
    taken: Vec<Option<Instance>>,
    /// Finished instances, kept for their verdicts.
    done: Arc<std::sync::Mutex<Vec<BotProcess>>>,
    /// The tasks stopping the instances of finished matches.
    stoppers: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
    /// Where a finished instance's ends and limits are kept for a resumed
    /// run (its match is in its log by then).
    ledger: Arc<Ledger>,
}

impl SeatInstances {
    /// Keeps each instance's ends and limits so far in the [`Ledger`].
    fn keep(&self) {
        for i in self.taken.iter().flatten() {
            let p = &i.process;
            self.ledger
                .record_instance(&i.token, p.name(), p.restarts(), p.verdicts());
        }
    }
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
        Ok((_, Err(e))) => Err(e),
        Err(e) => Err(RunError::Task(e.to_string())),
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

fn header(t: &Tournament, p: &Planned) -> Header {
    Header::builder(
        &t.name,
        p.index,
        t.game,
        t.options.clone(),
        p.seats.iter().map(|&b| t.bots[b].name.clone()).collect(),
    )
    .table(table_id(t, p.index))
    .seed_commitment(seed_commitment(t.seed))
    .clocks(Clocks {
        per_action_ms: t.time.per_action.as_millis() as u64,
        time_bank_ms: t.time.time_bank.as_millis() as u64,
        reconnect_grace_ms: t.time.reconnect_grace.as_millis() as u64,
    })
    .faults(Faults {
        max_faults: t.faults.max_faults,
        fallback: t.faults.fallback.name().into(),
    })
    .duplicate(
        p.duplicate
            .map(|(group, rotation)| Duplicate { group, rotation }),
    )
    .build()
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
    progress: &Arc<dyn Reporter>,
    seats: Option<&SeatInstances>,
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
            let game = t.game.new_game(&t.options).map_err(RunError::Options)?;
            let mut driver =
                MatchDriver::new(game, p.match_seed, t.faults.fallback).with_deals(r.deals.clone());
            driver.replay(&r.actions).map_err(RunError::Replay)?;
            let game = driver.into_game();
            let mut w = Writer::append(path, log)?;
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
                })?;
                return Ok(Recorded::Finished);
            }
            if !r.actions.is_empty() {
                spec.resume = Some(r);
            }
            w
        }
        Some(_) => {
            return Err(RunError::Mismatch(format!(
                "{}: its header does not match the tournament file",
                path.display()
            )));
        }
        None => Writer::create(path, &header)?,
    };
    if let Some(si) = seats {
        // The table takes each instance's reserved token for its seat.
        for (seat, taken) in spec.seats.iter_mut().zip(&si.taken) {
            if let Some(i) = taken {
                seat.token = Some(i.token.clone());
            }
        }
    }
    let mut table = referee.create_table(spec).map_err(RunError::Table)?;
    record_table(&mut table, &mut writer, p.match_seed, || {
        progress.report(RunEvent::Hand);
        // What its instances went through is kept with each hand logged,
        // before the match's end line: a run killed once it is written
        // resumes knowing it.
        if let Some(si) = seats {
            si.keep();
        }
    })
    .await
}

/// After a match with fresh instances: a token no seat took (the match
/// needed no table) is given back, so its instance exits; the instances end
/// by themselves with their match, and the stragglers are stopped in the
/// background so that a table of other deals can start. The deals stay held
/// until every instance is gone: only then may another instance of one of
/// these bots see them (`held`, the match's deals, is given back then).
fn end_instances(referee: &Referee, si: SeatInstances, held: confine::Held) {
    let mut started = Vec::new();
    si.keep();
    let ledger = si.ledger.clone();
    for i in si.taken.into_iter().flatten() {
        referee.release_seat_token(&i.token);
        i.process.finishing();
        started.push((i.token, i.process));
    }
    let done = si.done.clone();
    let stopper = tokio::spawn(async move {
        let mut finished = Vec::new();
        for (token, mut p) in started {
            p.stop_and_wait().await;
            // And what came as it was stopped.
            ledger.record_instance(&token, p.name(), p.restarts(), p.verdicts());
            finished.push(p);
        }
        drop(held);
        done.lock().expect("instances").extend(finished);
    });
    let mut stoppers = si.stoppers.lock().expect("stoppers");
    stoppers.retain(|h| !h.is_finished());
    stoppers.push(stopper);
}

/// Turns a table's record into its replay log as it comes, each entry
/// through [`TableRecord::log`]: one hand line per hand (with its deal,
/// actions and faults), then the end line with the match seed. `on_hand` is
/// called after each hand is written. A table the referee
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
    let mut log = Recorder::new(writer);
    while let Some(rec) = table.records.recv().await {
        match rec {
            TableRecord::Started { connected } => {
                if connected.iter().any(|c| !c) {
                    warn!(target: "whistle::detail", table = %table_id, ?connected, "started without every seat");
                }
            }
            TableRecord::Stopped {
                reason, hands_done, ..
            } => {
                info!(table = %table_id, hands_done, %reason, "match stopped; its log resumes");
                return Ok(Recorded::Stopped { reason });
            }
            TableRecord::Aborted { reason } => {
                return Err(RunError::Match {
                    table: table_id,
                    reason: format!("aborted: {reason}"),
                });
            }
            rec => {
                let (hand, end) = (
                    matches!(rec, TableRecord::Hand(_)),
                    matches!(rec, TableRecord::End { .. }),
                );
                rec.log(&mut log, match_seed).map_err(|e| match e {
                    RecordError::NoDeal => RunError::Match {
                        table: table_id.clone(),
                        reason: e.to_string(),
                    },
                    RecordError::Log(e) => e.into(),
                })?;
                if hand {
                    on_hand();
                }
                if end {
                    info!(table = %table_id, "match logged");
                    return Ok(Recorded::Finished);
                }
            }
        }
    }
    Err(RunError::Match {
        table: table_id,
        reason: "ended without a result".into(),
    })
}

/// Merges shard folders: the union of their match logs gives the same
/// results as one run. Writes the results into `out`.
///
/// # Errors
/// If folders hold different tournaments, a match appears twice, or a log
/// cannot be read.
pub fn merge(dirs: &[PathBuf], out: &Path, reporter: &dyn Reporter) -> Result<Results, RunError> {
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
                return Err(RunError::Mismatch(format!(
                    "{} holds a different tournament than {}",
                    d.display(),
                    dirs[0].display()
                )));
            }
            Some(_) => {}
        }
        for (index, path) in log_paths(d)? {
            let finished = has_header(&path)? && whistle_replay::read(&path)?.end.is_some();
            if !finished {
                return Err(RunError::Mismatch(format!(
                    "{}: match {index} is unfinished (resume that shard first)",
                    d.display(),
                )));
            }
            if found.insert(index, path).is_some() {
                return Err(RunError::Mismatch(format!("match {index} appears twice")));
            }
        }
    }
    let m = manifest.ok_or_else(|| RunError::Mismatch("nothing to merge".into()))?;
    if (found.len() as u64) < m.matches {
        reporter.report(RunEvent::MergePartial {
            present: found.len() as u64,
            total: m.matches,
        });
    }
    private_dir(&out.join("matches")).map_err(io_at(out))?;
    let mut tally = stats::Tally::new(&m.name, &m.game, &m.bots);
    for (&index, from) in &found {
        let to = match_path(out, index);
        if std::fs::canonicalize(from).ok() != std::fs::canonicalize(&to).ok() {
            std::fs::copy(from, &to).map_err(io_at(&to))?;
        }
        tally.add(&whistle_replay::read(&to)?);
    }
    write_whole(
        &out.join("tournament.json"),
        (serde_json::to_string_pretty(&m).expect("manifest serializes") + "\n").as_bytes(),
        0o644,
    )
    .map_err(io_at(&out.join("tournament.json")))?;
    let mut results = tally.finish();
    // The seed as revealed by the shards (they all ran the same file).
    results.seed = dirs.iter().find_map(|d| {
        let text = std::fs::read_to_string(d.join("results.json")).ok()?;
        serde_json::from_value(
            serde_json::from_str::<serde_json::Value>(&text)
                .ok()?
                .get("seed")?
                .clone(),
        )
        .ok()
    });
    // And what the shards noted about the event (a searchable seed): once.
    for d in dirs {
        let Ok(text) = std::fs::read_to_string(d.join("results.json")) else {
            continue;
        };
        let Some(notes) = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("notes").cloned())
            .and_then(|n| serde_json::from_value::<Vec<stats::Note>>(n).ok())
        else {
            continue;
        };
        for n in notes.into_iter().filter(|n| n.kind == "seed") {
            if !results.notes.contains(&n) {
                results.notes.push(n);
            }
        }
    }
    report::write_all(out, &results).map_err(io_at(out))?;
    Ok(results)
}
