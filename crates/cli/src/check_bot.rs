//! `whistle check-bot -- COMMAND...`: what a student runs before entering a
//! bot. The bot is started the way the tournament runner starts it (the
//! launch contract: `$WHISTLE_ADDRESS`, a bot token in `$WHISTLE_TOKEN`,
//! `$WHISTLE_BOT_NAME`), on an embedded referee, and plays a short match of
//! each game it says it plays (`--games`), in every seat. Each check prints
//! PASS or FAIL with the reason; any FAIL makes the exit status 1.
//!
//! The checks: it subscribes with its token; every seat's `Play` stream
//! says `Hello` (the match starts with every seat connected); in each game
//! every decision is answered in time and legally, whatever the phase
//! (the phases and action kinds asked are listed); after its stream is cut
//! in the middle of the first match it reconnects and plays on; and once
//! its seats are done (its token retired) the process exits by itself with
//! status 0.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
    process::Stdio,
    time::Duration,
};

use clap::Args;
use tokio::time::Instant;
use whistle_referee::{Referee, TableRecord, TableSpec, TimeControl};
use whistle_rules::{Action, Game, Options, Seat, Variant, dealing::Seed};
use whistle_tournament::confine::{self, Confinement};

use crate::usage;

/// Arguments of `whistle check-bot`.
#[derive(Debug, Args)]
pub struct CheckBotArgs {
    /// The games the bot plays, comma-separated (default: every game).
    #[arg(long, value_delimiter = ',')]
    games: Vec<String>,
    /// Hands of each match.
    #[arg(long, default_value_t = 3)]
    hands: u32,
    /// Milliseconds per decision before the time bank is drawn on.
    #[arg(long, default_value_t = 1000)]
    per_action_ms: u64,
    /// Milliseconds of time bank per match.
    #[arg(long, default_value_t = 10_000)]
    time_bank_ms: u64,
    /// The seed of the deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The bot's name (`$WHISTLE_BOT_NAME`).
    #[arg(long, default_value = "candidate")]
    name: String,
    /// The bot's folder (its working directory, readable in its sandbox;
    /// default: its program's folder).
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
    /// More paths the bot may read in its sandbox (a virtual environment,
    /// the interpreter it links to); repeat for several.
    #[arg(long)]
    read: Vec<std::path::PathBuf>,
    /// Run the bot without a sandbox (it then can read and do whatever
    /// this account can).
    #[arg(long)]
    no_sandbox: bool,
    /// The bot speaks JSON lines on stdin and stdout (docs/stdio.md);
    /// whistle speaks gRPC to the referee for it.
    #[arg(long)]
    stdio: bool,
    /// The bot's command and its arguments, after `--` (`whistle` is this
    /// whistle binary).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// One check's outcome.
struct Check {
    name: String,
    pass: bool,
    detail: String,
}

#[derive(Default)]
struct Report {
    checks: Vec<Check>,
}

impl Report {
    fn add(&mut self, name: impl Into<String>, pass: bool, detail: impl Into<String>) {
        self.checks.push(Check {
            name: name.into(),
            pass,
            detail: detail.into(),
        });
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.checks {
            let verdict = if c.pass { "PASS" } else { "FAIL" };
            out.push_str(&format!("{verdict} {}: {}\n", c.name, c.detail));
        }
        let failed = self.checks.iter().filter(|c| !c.pass).count();
        if failed == 0 {
            out.push_str(&format!("all {} checks passed\n", self.checks.len()));
        } else {
            out.push_str(&format!(
                "{failed} of {} checks failed\n",
                self.checks.len()
            ));
        }
        out
    }

    fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.pass)
    }
}

/// The last lines of the bot's stderr, for a failure's detail.
fn stderr_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().rev().take(5).collect();
    if lines.is_empty() {
        return "its stderr is empty".into();
    }
    let tail: Vec<&str> = lines.into_iter().rev().collect();
    format!(
        "its stderr ends: {}",
        whistle_protocol::limits::truncate(&tail.join(" | "), 600)
    )
}

/// Runs the checks; returns the report and whether every check passed.
pub fn run(args: &CheckBotArgs) -> anyhow::Result<(String, bool)> {
    let games: Vec<Variant> = if args.games.is_empty() {
        Variant::ALL.to_vec()
    } else {
        args.games
            .iter()
            .map(|g| g.parse::<Variant>().map_err(usage))
            .collect::<Result<_, _>>()?
    };
    whistle_protocol::limits::check_name(&args.name).map_err(usage)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = rt.block_on(check(args, &games))?;
    Ok((report.text(), report.ok()))
}

async fn check(args: &CheckBotArgs, games: &[Variant]) -> anyhow::Result<Report> {
    let mut report = Report::default();
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse()?).await?;
    let token = referee.register_bot(&args.name, None);
    let scratch = tempfile::tempdir()?;
    let stderr_path = scratch.path().join("bot.stderr");
    let cwd = std::env::current_dir()?;
    let bot = whistle_tournament::config::LocalBot {
        command: args.command.clone(),
        dir: args.dir.as_ref().map(|d| cwd.join(d)),
        read: args.read.iter().map(|r| cwd.join(r)).collect(),
        sandbox: !args.no_sandbox,
        limits: whistle_sandbox::Limits::default(),
        stdio: args.stdio,
    };
    let program = confine::resolve_program(&args.command[0], &cwd);
    let mut launch = whistle_tournament::procs::Launch {
        name: args.name.clone(),
        command: std::iter::once(program.display().to_string())
            .chain(confine::absolute_args(&args.command[1..], &cwd))
            .collect(),
        dir: bot.folder(&cwd),
        address: addr.to_string(),
        token: token.clone(),
        stderr_log: stderr_path.clone(),
        sandbox: None,
        once: false,
        stdio: args.stdio,
    };
    // Sandboxed as in a tournament, so what the bot needs to read shows now.
    let mut _confinement = None;
    let mut sandbox_line = None;
    let mut unix_server = None;
    if bot.sandbox {
        let c = match Confinement::new(std::env::current_exe()?) {
            Ok(c) => c,
            Err(e) => {
                report.add(
                    "sandbox",
                    false,
                    format!("{e} (or: check-bot --no-sandbox)"),
                );
                server.shutdown().await;
                return Ok(report);
            }
        };
        let grants = confine::check_grants(&bot, &cwd, &[]).map_err(|e| anyhow::anyhow!("{e}"))?;
        launch.dir = grants.folder;
        let reach = c.reach(&referee, &launch.address).await?;
        if !args.stdio {
            // A stdio bot's bridge runs here, outside the sandbox.
            launch.address = reach.address.clone();
        }
        launch.sandbox = Some(c.sandboxed(bot.limits, grants.read, &reach));
        unix_server = reach.server;
        sandbox_line = Some(format!(
            "runs in a sandbox ({}; the referee is reached by {}) reading {} and the system's paths",
            c.mode.name(),
            c.mode.reaches_referee(),
            launch.dir.display()
        ));
        _confinement = Some(c);
    }
    let stderr_file = std::fs::File::create(&stderr_path)?;
    let piped = || {
        if args.stdio {
            Stdio::piped()
        } else {
            Stdio::null()
        }
    };
    let spawned = whistle_tournament::procs::command(&launch).and_then(|(mut cmd, scratch)| {
        cmd.stdin(piped())
            .stdout(piped())
            .stderr(stderr_file)
            .kill_on_drop(true);
        Ok((cmd.spawn()?, scratch))
    });
    let (mut child, _bot_scratch) = match spawned {
        Ok(c) => c,
        Err(e) => {
            report.add(
                "start",
                false,
                format!("cannot start `{}`: {e}", program.display()),
            );
            if let Some(u) = unix_server {
                u.shutdown().await;
            }
            server.shutdown().await;
            return Ok(report);
        }
    };

    // A stdio bot: whistle subscribes and plays for it over gRPC.
    let bridge = whistle_tournament::procs::bridge(&mut child, &launch);
    if let Some(line) = sandbox_line {
        report.add("sandbox", true, line);
    }
    // Subscribe: the bot's token, within 10 s.
    let deadline = Instant::now() + Duration::from_secs(10);
    let subscribed = loop {
        if referee.waiting_bots().contains(&args.name) {
            break Ok(());
        }
        if let Some(status) = child.try_wait()? {
            break Err(format!(
                "the process exited ({status}) without subscribing; {}",
                stderr_tail(&stderr_path)
            ));
        }
        if Instant::now() > deadline {
            break Err(format!(
                "no Subscribe with $WHISTLE_TOKEN within 10 s; {}",
                stderr_tail(&stderr_path)
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    match subscribed {
        Ok(()) => report.add(
            "subscribe",
            true,
            if args.stdio {
                "running; whistle subscribed for it and speaks to it on stdin and stdout"
            } else {
                "called Subscribe with the bot token from $WHISTLE_TOKEN"
            },
        ),
        Err(e) => {
            report.add("subscribe", false, e);
            if let Some(b) = &bridge {
                b.abort();
            }
            let _ = child.kill().await;
            server.shutdown().await;
            return Ok(report);
        }
    }

    for (i, &game) in games.iter().enumerate() {
        play_game(args, &referee, game, i == 0, &mut report, &stderr_path).await?;
    }

    // Exit: once retired, its Subscribe stream ends and the process should
    // finish on its own.
    referee.retire_bot(&args.name);
    match tokio::time::timeout(Duration::from_secs(10), child.wait()).await {
        Ok(Ok(status)) if status.success() => report.add(
            "exit",
            true,
            "exited with status 0 once its seats were done",
        ),
        Ok(Ok(status)) => {
            let tail = std::fs::read_to_string(&stderr_path).unwrap_or_default();
            let (how, _) = whistle_tournament::procs::how_it_ended(
                &Ok(status),
                launch.sandbox.as_ref(),
                &tail,
            );
            report.add(
                "exit",
                false,
                format!("{how}; {}", stderr_tail(&stderr_path)),
            )
        }
        Ok(Err(e)) => report.add("exit", false, format!("cannot wait for it: {e}")),
        Err(_) => {
            let _ = child.kill().await;
            report.add(
                "exit",
                false,
                "still running 10 s after its last seat ended and its Subscribe stream \
                 closed (it was killed); a bot should exit when Subscribe ends",
            );
        }
    }
    if let Some(b) = bridge {
        b.abort();
    }
    server.shutdown().await;
    if let Some(u) = unix_server {
        u.shutdown().await;
    }
    Ok(report)
}

/// Plays one match of `game` with the bot in every seat and adds its checks.
async fn play_game(
    args: &CheckBotArgs,
    referee: &Referee,
    game: Variant,
    cut: bool,
    report: &mut Report,
    stderr_path: &Path,
) -> anyhow::Result<()> {
    let name = game.name();
    let options = Options::parse(&[format!("hands={}", args.hands)]).map_err(usage)?;
    let seats = game.new_game(&options).map_err(usage)?.seats();
    let names: Vec<&str> = vec![args.name.as_str(); seats];
    let mut spec = TableSpec::new(game, Seed::from_u64(args.seed), &names);
    spec.options = options.clone();
    spec.time = TimeControl {
        per_action: Duration::from_millis(args.per_action_ms),
        time_bank: Duration::from_millis(args.time_bank_ms),
        ..spec.time
    };
    spec.start_timeout = Duration::from_secs(10);
    let mut handle = referee.create_table(spec)?;
    let limit = Duration::from_millis(
        (args.per_action_ms + 200) * 400 * u64::from(args.hands) + args.time_bank_ms + 30_000,
    );
    let deadline = Instant::now() + limit;
    let mut records = Vec::new();
    let mut cut_at: Option<usize> = None;
    let mut seat0_actions = 0;
    let ended = loop {
        match tokio::time::timeout_at(deadline, handle.records.recv()).await {
            Err(_) => break false,
            Ok(None) => break true,
            Ok(Some(r)) => {
                if let TableRecord::Action {
                    seat,
                    fallback: false,
                    ..
                } = &r
                    && seat.index() == 0
                {
                    seat0_actions += 1;
                    if cut && cut_at.is_none() && seat0_actions == 3 {
                        referee.cut_stream(&handle.table_id, Seat::new(0));
                        cut_at = Some(records.len() + 1);
                    }
                }
                let end = matches!(
                    r,
                    TableRecord::End { .. }
                        | TableRecord::Aborted { .. }
                        | TableRecord::Stopped { .. }
                );
                records.push(r);
                if end {
                    break true;
                }
            }
        }
    };
    if !ended {
        report.add(
            format!("{name}: match"),
            false,
            format!(
                "not over after {} s; {}",
                limit.as_secs(),
                stderr_tail(stderr_path)
            ),
        );
        return Ok(());
    }

    // Hello: the match started with every seat connected.
    match records.iter().find_map(|r| match r {
        TableRecord::Started { connected } => Some(connected.clone()),
        _ => None,
    }) {
        Some(c) if c.iter().all(|&x| x) => report.add(
            format!("{name}: hello"),
            true,
            format!("every seat ({seats}) opened Play with a good Hello"),
        ),
        Some(c) => report.add(
            format!("{name}: hello"),
            false,
            format!(
                "seats {:?} did not open Play with a good Hello within 10 s; {}",
                c.iter()
                    .enumerate()
                    .filter(|(_, x)| !**x)
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>(),
                stderr_tail(stderr_path)
            ),
        ),
        None => report.add(
            format!("{name}: hello"),
            false,
            "the match never started".to_string(),
        ),
    }

    // Faults by kind, with the first detail of each.
    let mut faults: BTreeMap<String, (usize, String)> = BTreeMap::new();
    // The decision seat 0 missed while reconnecting after the checker cut
    // its stream is the checker's doing (under a short clock a reconnection
    // takes longer than a decision may): one absence is excused; the
    // reconnect check below judges the reconnection.
    let mut excused = false;
    for (i, r) in records.iter().enumerate() {
        if let TableRecord::Fault(f) = r {
            if !excused
                && cut_at.is_some_and(|k| i + 1 >= k)
                && f.seat == Seat::new(0)
                && f.kind.to_string() == "absent"
            {
                excused = true;
                continue;
            }
            let e = faults
                .entry(f.kind.to_string())
                .or_insert((0, format!("seat {}: {}", f.seat.index(), f.detail)));
            e.0 += 1;
        }
    }
    let mut fault_text = |kinds: &[&str]| -> Option<String> {
        let found: Vec<String> = kinds
            .iter()
            .filter_map(|k| {
                faults
                    .remove(*k)
                    .map(|(n, d)| format!("{n} {k} (first: {d})"))
            })
            .collect();
        (!found.is_empty()).then(|| found.join("; "))
    };
    let late = fault_text(&["late"]);
    let wrong = fault_text(&["illegal", "malformed"]);
    let cut_faults = fault_text(&["absent"]);
    let protocol = fault_text(&["out-of-turn", "stale", "flood"]);

    // What was asked: phases and action kinds, replayed in the engine.
    let mut asked: BTreeMap<String, usize> = BTreeMap::new();
    let mut offered: BTreeSet<&'static str> = BTreeSet::new();
    let mut chosen: BTreeSet<&'static str> = BTreeSet::new();
    let mut g = game.new_game(&options).map_err(usage)?;
    let mut decisions = 0;
    for r in &records {
        match r {
            TableRecord::Deal { order, .. } => {
                g.deal(order)
                    .map_err(|e| anyhow::anyhow!("{name}: replaying the deal: {e}"))?;
            }
            TableRecord::Action {
                seat,
                action,
                fallback,
                ..
            } => {
                if !fallback {
                    decisions += 1;
                    *asked
                        .entry(format!("{:?}", g.phase()).to_lowercase())
                        .or_default() += 1;
                    offered.extend(g.legal_actions(*seat).iter().map(|a| a.kind().name()));
                    chosen.insert(Action::kind(*action).name());
                }
                g.apply(*seat, *action)
                    .map_err(|e| anyhow::anyhow!("{name}: replaying an action: {e}"))?;
            }
            _ => {}
        }
    }
    let phases: Vec<String> = asked.iter().map(|(p, n)| format!("{p} {n}")).collect();
    let never: Vec<&str> = offered.difference(&chosen).copied().collect();
    report.add(
        format!("{name}: answers in time"),
        late.is_none(),
        late.unwrap_or_else(|| format!("{decisions} decisions, none late")),
    );
    report.add(
        format!("{name}: legal answers"),
        wrong.is_none() && decisions > 0,
        wrong.unwrap_or_else(|| {
            format!(
                "every answer legal; decisions by phase: {}; action kinds answered: {}{}",
                phases.join(", "),
                chosen.iter().copied().collect::<Vec<_>>().join(", "),
                if never.is_empty() {
                    String::new()
                } else {
                    format!(" (offered, never chosen: {})", never.join(", "))
                }
            )
        }),
    );
    if let Some(p) = protocol {
        report.add(format!("{name}: protocol"), false, p);
    }
    if let Some(f) = cut_faults {
        report.add(
            format!("{name}: connection"),
            false,
            format!("{f}; {}", stderr_tail(stderr_path)),
        );
    }
    if cut {
        let after: &[TableRecord] = cut_at.map_or(&[], |k| &records[k..]);
        let answered_again = after.iter().any(
            |r| matches!(r, TableRecord::Action { seat, fallback: false, .. } if seat.index() == 0),
        );
        let forfeited = records.iter().any(|r| match r {
            TableRecord::End { forfeited, .. } => !forfeited.is_empty(),
            _ => false,
        });
        let (pass, detail) = match (cut_at, answered_again, forfeited) {
            (None, ..) => (
                false,
                "seat 0 never answered three decisions, so its stream was not cut".to_string(),
            ),
            (Some(_), true, false) => (
                true,
                "seat 0's stream was cut after its third answer; it reconnected and played on"
                    .to_string(),
            ),
            (Some(_), true, true) => (false, "a seat forfeited".to_string()),
            (Some(_), false, _) => (
                false,
                format!(
                    "seat 0 never answered again after its stream was cut; {}",
                    stderr_tail(stderr_path)
                ),
            ),
        };
        report.add(format!("{name}: reconnect"), pass, detail);
    }
    Ok(())
}
