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
//!
//! Time is judged for the time the bot had: the referee's clock is the
//! given one times the seats (the bot plays them all, and a simultaneous
//! step's requests wait in it one behind another), and each answer is
//! measured from its request or the bot's previous answer, whichever came
//! later ([`late_answers`]); a stdio bot's, through its pipes, from the
//! writing of each request line to its answer ([`timed_bridge`]), its
//! start-up off the clock (whistle subscribes for it once it reads its
//! stdin). The deals are searched for ([`seed_asking_everything`]); where
//! the bot's own choices may not lead to a kind of decision, mixed tables
//! (whistle's own bots in the other seats, [`Role`]) and positions
//! ([`Position`]) ask it, and a kind never asked fails. A check made once
//! the bot's process has exited
//! does not pass (a stdio bot's bridge would otherwise carry its seats).
//! Every FAIL is followed by the last lines of the bot's stderr, bounded.
//! Games whose options open more kinds of decision are played again under
//! them ([`plans`]); the kinds asked are reported per game.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
    process::Stdio,
    time::Duration,
};

use clap::Args;
use tokio::time::Instant;
use whistle_referee::{Referee, TableRecord, TableSpec, TimeControl};
use whistle_rules::{Action, ActionKind, Game, Options, Seat, Variant, dealing::Seed};
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
    /// A path no folder the bot is granted may hold or lie inside (a
    /// league checking an upload passes its own folder); repeat for
    /// several.
    #[arg(long, hide = true)]
    secret: Vec<std::path::PathBuf>,
    /// The bot speaks JSON lines on stdin and stdout (docs/stdio.md);
    /// whistle speaks gRPC to the referee for it.
    #[arg(long)]
    stdio: bool,
    /// A game option every match is played under, `KEY=VALUE` (as a
    /// tournament's `[options]`; a league's check passes the league's);
    /// repeat for several. `hands` stays `--hands`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// The bot's sandbox limits, the keys of a tournament's `[sandbox]`
    /// table as JSON (`{"memory_mib": 256}`; the rest take their defaults).
    #[arg(long, value_name = "JSON")]
    limits: Option<String>,
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
    /// How long the bot's stderr was when the next match began (`None`:
    /// no match after it): a FAIL shows the lines written up to then, not
    /// those of later matches.
    stderr_end: Option<u64>,
}

#[derive(Default)]
struct Report {
    checks: Vec<Check>,
    /// The bot's stderr log: the last lines written before each FAIL go
    /// under it (read once the bot is done).
    stderr: Option<std::path::PathBuf>,
    /// Requests the bot answered, over every match.
    answered: usize,
}

impl Report {
    fn add(&mut self, name: impl Into<String>, pass: bool, detail: impl Into<String>) {
        self.checks.push(Check {
            name: name.into(),
            pass,
            detail: detail.into(),
            stderr_end: None,
        });
    }

    /// A match begins: the checks so far keep the bot's stderr as it is now
    /// (the previous match's last lines have landed by then).
    fn mark(&mut self) {
        let len = self
            .stderr
            .as_ref()
            .and_then(|p| std::fs::metadata(p).ok())
            .map(|m| m.len());
        for c in &mut self.checks {
            c.stderr_end = c.stderr_end.or(len);
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.checks {
            let verdict = if c.pass { "PASS" } else { "FAIL" };
            out.push_str(&format!("{verdict} {}: {}\n", c.name, c.detail));
            if let (false, Some(path)) = (c.pass, &self.stderr) {
                let tail = stderr_lines(path, c.stderr_end);
                if tail.is_empty() {
                    out.push_str("    (the bot's stderr is empty)\n");
                } else {
                    out.push_str("    the bot's stderr ends:\n");
                    for l in &tail {
                        out.push_str(&format!("    | {l}\n"));
                    }
                }
            }
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

/// Said under a stdio bot's malformed or stale answers.
const STDOUT_HINT: &str = "; every line a stdio bot prints on stdout is read as an answer: \
                           print logs and debugging output to stderr (docs/stdio.md)";

/// How many of the bot's last stderr lines go under a FAIL, and how long
/// each may be: bounded whatever the bot writes.
const TAIL_LINES: usize = 12;
const TAIL_WIDTH: usize = 240;

/// The last lines of the bot's stderr up to byte `end` (its end if
/// `None`): at most [`TAIL_LINES`], each cut to [`TAIL_WIDTH`] bytes, read
/// from there back only.
pub(crate) fn stderr_lines(path: &Path, end: Option<u64>) -> Vec<String> {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let whole = f.metadata().map_or(0, |m| m.len());
    let len = end.map_or(whole, |e| e.min(whole));
    let from = len.saturating_sub((TAIL_LINES * TAIL_WIDTH * 4) as u64);
    let mut bytes = Vec::new();
    if f.seek(SeekFrom::Start(from)).is_err()
        || (&mut f).take(len - from).read_to_end(&mut bytes).is_err()
    {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<String> = text
        .lines()
        .skip(usize::from(from > 0))
        .filter(|l| !l.trim().is_empty())
        .map(|l| whistle_protocol::limits::truncate(l, TAIL_WIDTH))
        .collect();
    let cut = lines.len().saturating_sub(TAIL_LINES);
    lines.drain(..cut);
    lines
}

/// Where a failure's detail points: the last lines of the bot's stderr are
/// printed under every FAIL ([`Report::text`]).
const SEE_STDERR: &str = "its last stderr lines are below";

/// What a gRPC bot printed on stdout: its first lines (cut) and whether
/// one looked like JSON.
#[derive(Default)]
struct Stdout {
    first: Vec<String>,
    json: bool,
}

/// Reads a bot's stdout to its end, keeping only its first lines (bounded),
/// so the bot never blocks on a full pipe and nothing it prints is held.
fn watch_stdout(out: tokio::process::ChildStdout) -> std::sync::Arc<std::sync::Mutex<Stdout>> {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt};
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Stdout::default()));
    let keep = seen.clone();
    tokio::spawn(async move {
        let mut r = tokio::io::BufReader::new(out);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            // A line is read up to 4 KiB at a time; what is longer is cut.
            match (&mut r).take(4096).read_until(b'\n', &mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim();
                    if let Ok(mut s) = keep.lock()
                        && s.first.len() < 3
                        && !line.is_empty()
                    {
                        s.json |= line.starts_with('{');
                        s.first.push(whistle_protocol::limits::truncate(line, 120));
                    }
                }
            }
        }
    });
    seen
}

/// The hint for a process that never subscribed: a stdio bot started
/// without `--stdio` prints JSON lines, or exits at once when its stdin
/// (closed without `--stdio`) ends.
fn stdio_hint(
    args: &CheckBotArgs,
    stdout: Option<&std::sync::Arc<std::sync::Mutex<Stdout>>>,
    at_once: bool,
    errored: bool,
) -> String {
    if args.stdio {
        return String::new();
    }
    // An error on its stderr (a traceback: a kit bot that cannot import
    // whistle_bot) is the cause, not the way it was started.
    if at_once && errored {
        return "; it exited at once with an error on its stderr: the error below is the \
                cause (a kit bot that cannot import whistle_bot: the Python that runs it \
                lacks the kit; install it there, bots/python/README.md, or, for an upload \
                to a league, ship the kit in the upload or ask the league's organiser)"
            .to_string();
    }
    let seen = stdout
        .and_then(|s| s.lock().ok().map(|s| (s.json, s.first.clone())))
        .unwrap_or_default();
    let again = "check-bot --stdio -- ...";
    match seen {
        (true, first) => format!(
            "; it printed JSON lines on stdout ({}): a bot that speaks JSON lines on \
             stdin and stdout (docs/stdio.md) is checked with `{again}`",
            first.join(" | ")
        ),
        (false, first) if !first.is_empty() => format!(
            "; it printed on stdout ({}); a gRPC bot reads $WHISTLE_ADDRESS and \
             $WHISTLE_TOKEN, a stdio bot (docs/stdio.md) is checked with `{again}`",
            first.join(" | ")
        ),
        _ if at_once => format!(
            "; it exited at once: if it speaks JSON lines on stdin and stdout \
             (docs/stdio.md), its stdin was closed: check it with `{again}`"
        ),
        _ => format!(
            "; a gRPC bot reads $WHISTLE_ADDRESS and $WHISTLE_TOKEN; a bot that speaks \
             JSON lines on stdin and stdout is checked with `{again}`"
        ),
    }
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
    if args.name == OPPONENTS {
        return Err(usage(format!(
            "--name {OPPONENTS}: the name of check-bot's own opponents"
        )));
    }
    // Two workers: the referee, a stdio bot's bridge and the checks share
    // them, so that whistle's own work does not eat into the bot's clock.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let scratch = tempfile::tempdir()?;
    let stderr_path = scratch.path().join("bot.stderr");
    let report = rt.block_on(check(args, &games, &stderr_path))?;
    // Read after every process is gone, so its last words are in.
    Ok((report.text(), report.ok()))
}

async fn check(
    args: &CheckBotArgs,
    games: &[Variant],
    stderr_path: &Path,
) -> anyhow::Result<Report> {
    let mut report = Report {
        stderr: Some(stderr_path.to_path_buf()),
        ..Report::default()
    };
    let bench = Bench::open(args).await?;
    let Some(mut bot) = Candidate::start(args, &bench, stderr_path, &mut report).await? else {
        bench.close().await;
        return Ok(report);
    };
    let subscribed = bot.subscribe(args, &bench.referee).await?;
    let said = if args.stdio {
        "running; whistle subscribed for it and speaks to it on stdin and stdout"
    } else {
        "called Subscribe with the bot token from $WHISTLE_TOKEN"
    };
    if let Err(e) = subscribed {
        report.add("subscribe", false, e);
        bot.kill().await;
        bench.close().await;
        return Ok(report);
    }
    report.add("subscribe", true, said);
    let kinds = play_games(args, games, &bench, &mut bot, &mut report).await?;
    // Which kinds of decision each game asked, over every match it played
    // (nothing to say of a bot that died on the way).
    let alive = bot.child.try_wait()?.is_none();
    report_kinds(args, &mut report, kinds, alive);
    judge_exit(args, &bench.referee, &mut bot, &mut report).await;
    bot.close(bench).await;
    Ok(report)
}

/// What the checks run against: the embedded referee and its server, the
/// bot's token, and the opponents of mixed tables (built-in bots in this
/// process, each seat with the role its table gave it).
struct Bench {
    referee: Referee,
    addr: std::net::SocketAddr,
    server: whistle_referee::ServerHandle,
    token: String,
    seating: Seating,
    /// Ended before the server's graceful shutdown, which waits for every
    /// connection to close.
    opponents: AbortOnDrop,
}

impl Bench {
    async fn open(args: &CheckBotArgs) -> anyhow::Result<Bench> {
        let referee = Referee::new(None);
        let (addr, server) = referee.spawn("127.0.0.1:0".parse()?).await?;
        let token = referee.register_bot(&args.name, None);
        let seating = Seating::default();
        let launch = whistle_bot::client::Launch {
            address: format!("http://{addr}"),
            token: referee.register_bot(OPPONENTS, None),
            bot_name: OPPONENTS.to_string(),
        };
        let roles = seating.clone();
        let opponents = tokio::spawn(async move {
            let _ = whistle_bot::client::run(&launch, move |a| -> Box<dyn whistle_bot::Bot> {
                let inner = Box::new(whistle_bot::HeuristicBot);
                let role = roles.lock().ok().and_then(|s| {
                    s.get(&a.table_id)
                        .and_then(|r| r.get(a.seat as usize).copied().flatten())
                });
                match role {
                    Some(role) => Box::new(Player {
                        inner,
                        kinds: None,
                        role: Some(role),
                    }),
                    None => inner,
                }
            })
            .await;
        });
        Ok(Bench {
            referee,
            addr,
            server,
            token,
            seating,
            opponents: AbortOnDrop(opponents),
        })
    }

    /// Ends the opponents, then the server.
    async fn close(self) {
        self.opponents.0.abort();
        self.server.shutdown().await;
    }
}

/// The bot's sandbox, made before it starts: what confines it, the Unix
/// socket's server that reaches the referee, and the line its check says.
struct Confined {
    confinement: Confinement,
    unix_server: Option<whistle_referee::ServerHandle>,
    line: String,
}

/// The bot's process as the checks started it, and what serves it.
struct Candidate {
    child: tokio::process::Child,
    launch: whistle_tournament::procs::Launch,
    /// A stdio bot's bridge to the referee.
    bridge: Option<tokio::task::JoinHandle<()>>,
    /// A stdio bot's answers as its bridge timed them.
    timing: std::sync::Arc<std::sync::Mutex<Timing>>,
    /// What a gRPC bot printed on stdout.
    stdout_seen: Option<std::sync::Arc<std::sync::Mutex<Stdout>>>,
    started: Instant,
    unix_server: Option<whistle_referee::ServerHandle>,
    _confinement: Option<Confinement>,
    _scratch: Option<tempfile::TempDir>,
}

impl Candidate {
    /// Starts the bot as a tournament does (sandboxed unless
    /// `--no-sandbox`); `None`, with the FAIL in `report`, if it cannot be.
    async fn start(
        args: &CheckBotArgs,
        bench: &Bench,
        stderr_path: &Path,
        report: &mut Report,
    ) -> anyhow::Result<Option<Candidate>> {
        let cwd = std::env::current_dir()?;
        let limits = match &args.limits {
            Some(json) => {
                serde_json::from_str(json).map_err(|e| usage(format!("--limits: {e}")))?
            }
            None => whistle_sandbox::Limits::default(),
        };
        let p = Process {
            name: &args.name,
            command: &args.command,
            dir: args.dir.as_deref(),
            read: &args.read,
            sandbox: !args.no_sandbox,
            stdio: args.stdio,
        };
        let address = bench.addr.to_string();
        let (bot, mut launch, program) =
            local_launch(&p, limits, &address, &bench.token, stderr_path, &cwd);
        let confined = match sandbox(args, bench, &bot, &mut launch, &cwd).await? {
            Ok(c) => c,
            Err(e) => {
                report.add("sandbox", false, e);
                return Ok(None);
            }
        };
        Candidate::spawn(args, launch, confined, &program, report).await
    }

    /// Spawns the bot's process as `launch` says, its stdin piped for a
    /// stdio bot and its stdout read: a stdio bot's through its timed
    /// bridge, a gRPC bot's for one sign (a bot that prints JSON lines is
    /// a stdio bot run without `--stdio`).
    async fn spawn(
        args: &CheckBotArgs,
        launch: whistle_tournament::procs::Launch,
        confined: Option<Confined>,
        program: &Path,
        report: &mut Report,
    ) -> anyhow::Result<Option<Candidate>> {
        let stderr_file = std::fs::File::create(&launch.stderr_log)?;
        let spawned = whistle_tournament::procs::command(&launch).and_then(|(mut cmd, scratch)| {
            cmd.stdin(if args.stdio {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(stderr_file)
            .kill_on_drop(true);
            Ok((cmd.spawn()?, scratch))
        });
        let (mut child, scratch) = match spawned {
            Ok(c) => c,
            Err(e) => {
                let detail = format!("cannot start `{}`: {e}", program.display());
                report.add("start", false, detail);
                if let Some(u) = confined.and_then(|c| c.unix_server) {
                    u.shutdown().await;
                }
                return Ok(None);
            }
        };
        let timing = std::sync::Arc::new(std::sync::Mutex::new(Timing::default()));
        let bridge = if args.stdio {
            timed_bridge(&mut child, &launch, timing.clone())
        } else {
            None
        };
        let stdout_seen = (!args.stdio)
            .then(|| child.stdout.take().map(watch_stdout))
            .flatten();
        let started = Instant::now();
        let (confinement, unix_server) = match confined {
            Some(c) => {
                report.add("sandbox", true, c.line);
                (Some(c.confinement), c.unix_server)
            }
            None => (None, None),
        };
        Ok(Some(Candidate {
            child,
            launch,
            bridge,
            timing,
            stdout_seen,
            started,
            unix_server,
            _confinement: confinement,
            _scratch: scratch,
        }))
    }

    /// Waits for the bot to subscribe with its token, within 10 s; a stdio
    /// bot is waited for as long as a tournament waits for it to read its
    /// stdin (the bridge's START_WAIT), so that an upload is not refused
    /// for a slow start. `Err`: why it did not.
    async fn subscribe(
        &mut self,
        args: &CheckBotArgs,
        referee: &Referee,
    ) -> anyhow::Result<Result<(), String>> {
        let wait = if args.stdio {
            whistle_tournament::stdio::START_WAIT
        } else {
            Duration::from_secs(10)
        };
        let deadline = Instant::now() + wait;
        loop {
            if referee.waiting_bots().contains(&args.name) {
                break;
            }
            if let Some(status) = self.child.try_wait()? {
                return Ok(Err(self.exited_unsubscribed(args, status)));
            }
            if Instant::now() > deadline {
                return Ok(Err(if args.stdio {
                    format!(
                        "it did not begin reading its stdin within {} s (whistle subscribes \
                         for a stdio bot once it reads its first line, docs/stdio.md)",
                        wait.as_secs()
                    )
                } else {
                    format!(
                        "no Subscribe with $WHISTLE_TOKEN within 10 s{}",
                        stdio_hint(args, self.stdout_seen.as_ref(), false, false)
                    )
                }));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if !args.stdio {
            return Ok(Ok(()));
        }
        // The bridge subscribes for a stdio bot once it has begun reading
        // its stdin: the process must still be running a second from its
        // start (an interpreter that fails on its first line is gone by
        // then; a bot that ended cleanly, having closed its stdout, is
        // judged by its answers: absent).
        tokio::time::sleep(Duration::from_secs(1).saturating_sub(self.started.elapsed())).await;
        Ok(match self.child.try_wait()? {
            Some(status) if !status.success() => Err(format!(
                "the process exited at once ({status}); whistle subscribed for it, \
                 but nobody is there to answer"
            )),
            _ => Ok(()),
        })
    }

    /// Why a process that exited before subscribing did not.
    fn exited_unsubscribed(&self, args: &CheckBotArgs, status: std::process::ExitStatus) -> String {
        if args.stdio {
            // whistle subscribes for a stdio bot once it reads its stdin.
            return format!(
                "the process exited before it answered a single request ({status}); \
                 whistle subscribes for a stdio bot once it has read its first line"
            );
        }
        format!(
            "the process exited ({status}) without subscribing{}",
            stdio_hint(
                args,
                self.stdout_seen.as_ref(),
                self.started.elapsed() < Duration::from_secs(2),
                std::fs::read_to_string(&self.launch.stderr_log)
                    .is_ok_and(|text| text.contains("Traceback") || text.contains("Error"))
            )
        )
    }

    /// Ends the bot's process, and every process of its sandbox.
    async fn kill_group(&mut self) {
        let sandboxed = self.launch.sandbox.is_some();
        whistle_tournament::procs::kill_group(&mut self.child, sandboxed).await;
    }

    /// Ends a bot that is not to be checked further.
    async fn kill(&mut self) {
        if let Some(b) = &self.bridge {
            b.abort();
        }
        self.kill_group().await;
    }

    /// Ends what served the bot, and the bench.
    async fn close(self, bench: Bench) {
        if let Some(b) = self.bridge {
            b.abort();
        }
        bench.close().await;
        if let Some(u) = self.unix_server {
            u.shutdown().await;
        }
    }
}

/// The bot's sandbox as in a tournament, so that what it needs to read
/// shows now: `Ok(None)` without `--sandbox`; `Err`, the FAIL's detail,
/// where this machine cannot confine it.
async fn sandbox(
    args: &CheckBotArgs,
    bench: &Bench,
    bot: &whistle_tournament::config::LocalBot,
    launch: &mut whistle_tournament::procs::Launch,
    cwd: &Path,
) -> anyhow::Result<Result<Option<Confined>, String>> {
    if !bot.sandbox {
        return Ok(Ok(None));
    }
    let c = match Confinement::new(std::env::current_exe()?) {
        Ok(c) => c,
        Err(e) => return Ok(Err(format!("{e} (or: check-bot --no-sandbox)"))),
    };
    let secrets: Vec<std::path::PathBuf> = args
        .secret
        .iter()
        .map(|s| std::fs::canonicalize(cwd.join(s)).unwrap_or_else(|_| cwd.join(s)))
        .collect();
    let grants = confine::check_grants(bot, cwd, &secrets).map_err(|e| anyhow::anyhow!("{e}"))?;
    launch.dir = grants.folder;
    let reach = c.reach(&bench.referee, &launch.address).await?;
    if !args.stdio {
        // A stdio bot's bridge runs here, outside the sandbox.
        launch.address = reach.address.clone();
    }
    launch.sandbox = Some(c.sandboxed(bot.limits, grants.read, &reach));
    let line = format!(
        "runs in a sandbox ({}; the referee is reached by {}) reading {} and the system's paths",
        c.support.describe(c.mode),
        c.mode.describe(args.stdio),
        launch.dir.display()
    );
    Ok(Ok(Some(Confined {
        confinement: c,
        unix_server: reach.server,
        line,
    })))
}

/// Plays every game's matches ([`plans`]) and adds their checks; returns
/// the kinds of decision each game asked and could ask.
async fn play_games(
    args: &CheckBotArgs,
    games: &[Variant],
    bench: &Bench,
    bot: &mut Candidate,
    report: &mut Report,
) -> anyhow::Result<Vec<(Variant, Kinds)>> {
    let mut kinds = Vec::new();
    for (i, &game) in games.iter().enumerate() {
        if let Some(status) = bot.child.try_wait()? {
            report.add(
                format!("{}: match", game.name()),
                false,
                format!("not played: the bot's process had exited ({status})"),
            );
            continue;
        }
        let first = report.checks.len();
        let mut asked = (BTreeSet::new(), BTreeSet::new());
        for (k, plan) in plans(game).iter().enumerate() {
            if k > 0 && bot.child.try_wait()?.is_some() {
                break;
            }
            let (a, p) = play_game(
                args,
                &bench.referee,
                game,
                plan,
                i == 0 && k == 0,
                report,
                args.stdio.then_some(&bot.timing),
                &bench.seating,
            )
            .await?;
            asked.0.extend(a);
            asked.1.extend(p);
        }
        // Nothing passes once the bot is gone: a stdio bot's bridge (or a
        // seat's fallbacks) may have carried the match on without it.
        if let Some(status) = bot.child.try_wait()? {
            for c in report.checks[first..].iter_mut().filter(|c| c.pass) {
                c.pass = false;
                c.detail = format!(
                    "the bot's process exited ({status}) before this match ended; \
                     not judged: {}",
                    c.detail
                );
            }
        }
        kinds.push((game, asked));
    }
    Ok(kinds)
}

/// The kinds of decision each game asked, for a bot still `alive`; and a
/// stdio bot's subscription undone if it died without answering anything
/// (the bridge subscribed its seats: it never really did).
fn report_kinds(
    args: &CheckBotArgs,
    report: &mut Report,
    kinds: Vec<(Variant, Kinds)>,
    alive: bool,
) {
    if args.stdio && !alive && report.answered == 0 {
        for c in report
            .checks
            .iter_mut()
            .filter(|c| c.name == "subscribe" && c.pass)
        {
            c.pass = false;
            c.detail = "the process exited before it answered a single request; whistle \
                        had subscribed for it, but nobody was there to answer"
                .into();
        }
    }
    for (game, (asked, possible)) in kinds.into_iter().filter(|_| alive) {
        let never: Vec<&str> = possible.difference(&asked).copied().collect();
        // Every kind is asked of a bot that plays on: its own choices, and
        // the mixed tables' opponents, lead everywhere. A kind never asked
        // is a part of the bot no check has seen.
        report.add(
            format!("{}: decision kinds", game.name()),
            never.is_empty(),
            format!(
                "asked: {}{}",
                asked.iter().copied().collect::<Vec<_>>().join(", "),
                if never.is_empty() {
                    " (every kind the game has)".to_string()
                } else {
                    format!(
                        "; never asked: {} (the bot's own choices, beside the opponents \
                         check-bot seats with it, never led there: that code is unchecked)",
                        never.join(", ")
                    )
                }
            ),
        );
    }
}

/// Dismisses the bot (its Subscribe stream ends) and checks that its
/// process then finishes on its own, with status 0, within 10 s.
async fn judge_exit(
    args: &CheckBotArgs,
    referee: &Referee,
    bot: &mut Candidate,
    report: &mut Report,
) {
    referee.dismiss_bot(&args.name);
    match tokio::time::timeout(Duration::from_secs(10), bot.child.wait()).await {
        Ok(Ok(status)) if status.success() => report.add(
            "exit",
            true,
            "exited with status 0 once its seats were done",
        ),
        Ok(Ok(status)) => {
            let tail = std::fs::read_to_string(&bot.launch.stderr_log).unwrap_or_default();
            let (how, _) = whistle_tournament::procs::how_it_ended(
                &Ok(status),
                bot.launch.sandbox.as_ref(),
                &tail,
            );
            report.add("exit", false, format!("{how}; {}", SEE_STDERR))
        }
        Ok(Err(e)) => report.add("exit", false, format!("cannot wait for it: {e}")),
        Err(_) => {
            bot.kill_group().await;
            report.add(
                "exit",
                false,
                "still running 10 s after its last seat ended and its Subscribe stream \
                 closed (it was killed); a bot should exit when Subscribe ends",
            );
        }
    }
}

/// The name the in-process opponents of mixed tables play under.
const OPPONENTS: &str = "check-bot-opponents";

/// One match check-bot plays of a game.
struct Plan {
    /// Options beyond `hands`.
    extra: Vec<&'static str>,
    /// A mixed table: the role of the opponent in each seat, `None` for
    /// the bot checked. Empty: the bot in every seat.
    roles: Vec<Option<Role>>,
    /// The kinds the match is there to ask (empty: every kind the game
    /// has under its options).
    wanted: Vec<&'static str>,
    /// How the checks name the match after the game's name.
    label: &'static str,
    /// A match that starts in the middle of its first hand, at a decision
    /// only the bot's own earlier choice leads to, that choice made for it.
    position: Option<Position>,
}

/// A position a match of check-bot starts from, for a decision only a
/// seat's own earlier choice leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    /// Yogi: every seat has placed its bid card (the first legal one) and
    /// the first seat to speak in the declare round, the dealer's left,
    /// has revealed (Y5): it is to name the leader of the first trick (Y6).
    Revealed,
    /// Illustrated: the first seat to call, the dealer's left, has bid the
    /// lowest contract and every other seat passed (L2): it is to take the
    /// kitty and exchange (L3).
    Declared,
    /// Israeli: all four seats have passed in the first auction (I2): each
    /// is to give three cards to its left, the frisch (I3).
    Passed,
}

/// A hand begun for a check: the deck order of its deal and the actions
/// played since, each `(seat, action, fallback)` as a resumed table
/// replays them.
type Prefix = (Vec<whistle_rules::Card>, Vec<(Seat, Action, bool)>);

/// The deck order of the first deal from `seed` and the actions that lead
/// from it to `position`.
fn position_prefix(
    game: Variant,
    options: &Options,
    seed: u64,
    position: Position,
) -> anyhow::Result<Prefix> {
    let mut g = game.new_game(options).map_err(usage)?;
    let order: Vec<whistle_rules::Card> = whistle_rules::dealing::deck_order(
        whistle_rules::dealing::deal_seed(Seed::from_u64(seed), 0),
        g.deck(),
    )
    .to_vec();
    g.deal(&order)
        .map_err(|e| anyhow::anyhow!("{}: dealing a position: {e}", game.name()))?;
    let mut actions: Vec<(Seat, Action, bool)> = Vec::new();
    for _ in 0..1000 {
        let Some(seat) = g.to_act().iter().next() else {
            break;
        };
        let legal = g.legal_actions(seat);
        let (action, last) = match position {
            Position::Revealed if legal.contains(&Action::Reveal) => (Some(&Action::Reveal), true),
            Position::Revealed => (legal.first(), false),
            // The auction over: the position is reached.
            Position::Declared if g.phase() != whistle_rules::Phase::Auction => {
                return Ok((order, actions));
            }
            Position::Declared if actions.is_empty() => (
                legal.iter().find(|a| a.kind() == ActionKind::Contract),
                false,
            ),
            Position::Declared => (legal.iter().find(|a| **a == Action::Pass), false),
            Position::Passed if g.phase() != whistle_rules::Phase::Auction => {
                return Ok((order, actions));
            }
            Position::Passed => (legal.iter().find(|a| **a == Action::Pass), false),
        };
        let Some(&action) = action else {
            break;
        };
        g.apply(seat, action)
            .map_err(|e| anyhow::anyhow!("{}: playing to a position: {e}", game.name()))?;
        actions.push((seat, action, false));
        if last {
            return Ok((order, actions));
        }
    }
    Err(anyhow::anyhow!(
        "{}: the first hand never reached {position:?}",
        game.name()
    ))
}

impl Plan {
    fn alone(extra: Vec<&'static str>) -> Plan {
        Plan {
            extra,
            roles: Vec::new(),
            wanted: Vec::new(),
            label: "",
            position: None,
        }
    }
}

/// The matches each game is checked with: the bot in every seat under the
/// defaults, then under option sets that open kinds of decision the
/// defaults never ask (Yogi's `size`, `count` and `vote`, Y12 and Y13;
/// Oneonta's doubles, O7, and the multiplayer bids, O13), then at mixed
/// tables where opponents lead the game where the bot's own choices may not:
/// Israeli opponents who open the auction, so that a bot that always passes
/// still bids its contract and plays (I2, I4, I5); an Illustrated partner
/// who declares and opponents who double, so that the bot is asked whether
/// to redouble (L4), and opponents who declare, so that it may double
/// (L4); and hands begun for it where only its own earlier choice leads:
/// in Yogi its seat having revealed, so that a bot that never reveals
/// still names a leader (Y6); in Illustrated its seat having won the
/// auction, so that a bot that never bids still takes the kitty (L3); in
/// Israeli every seat having passed, so that a bot that always bids still
/// gives its frisch (I3).
fn plans(game: Variant) -> Vec<Plan> {
    let mut out = vec![Plan::alone(vec![])];
    match game {
        Variant::Yogi => {
            out.push(Plan::alone(vec!["dealer-chooses=true", "rotate-vote=true"]));
            out.push(Plan {
                wanted: vec!["leader"],
                label: "from a hand where its seat 1 revealed",
                position: Some(Position::Revealed),
                ..Plan::alone(vec![])
            });
        }
        Variant::Oneonta => out.push(Plan::alone(vec!["mode=multi", "doubling=true"])),
        Variant::Israeli => {
            out.push(Plan {
                extra: vec![],
                roles: vec![
                    None,
                    Some(Role::Opener),
                    Some(Role::Opener),
                    Some(Role::Opener),
                ],
                wanted: vec!["bid", "play"],
                label: "against opponents who open the auction",
                position: None,
            });
            out.push(Plan {
                wanted: vec!["give"],
                label: "from a hand where every seat passed",
                position: Some(Position::Passed),
                ..Plan::alone(vec![])
            });
        }
        Variant::Illustrated => {
            out.push(Plan {
                extra: vec![],
                roles: vec![
                    None,
                    Some(Role::Doubler),
                    Some(Role::Declarer),
                    Some(Role::Doubler),
                ],
                wanted: vec!["redouble"],
                label: "beside a partner who declares, against opponents who double",
                position: None,
            });
            out.push(Plan {
                extra: vec![],
                roles: vec![None, Some(Role::Declarer), None, Some(Role::Declarer)],
                wanted: vec!["double"],
                label: "against opponents who declare",
                position: None,
            });
            out.push(Plan {
                wanted: vec!["discard", "exchange"],
                label: "from a hand where its seat 1 won the auction",
                position: Some(Position::Declared),
                ..Plan::alone(vec![])
            });
        }
        Variant::Honeymoon => {}
    }
    out
}

/// Each mixed table's opponents by seat, by table id, for the in-process
/// opponents' client.
type Seating = std::sync::Arc<std::sync::Mutex<BTreeMap<String, Vec<Option<Role>>>>>;

/// The kinds of decision asked in a match (`.0`) and those its game can
/// ask under its options (`.1`).
type Kinds = (BTreeSet<&'static str>, BTreeSet<&'static str>);

/// Plays one match of `game` as `plan` says and adds its checks.
#[allow(clippy::too_many_arguments)]
async fn play_game(
    args: &CheckBotArgs,
    referee: &Referee,
    game: Variant,
    plan: &Plan,
    cut: bool,
    report: &mut Report,
    timing: Option<&std::sync::Arc<std::sync::Mutex<Timing>>>,
    seating: &Seating,
) -> anyhow::Result<Kinds> {
    let setup = Setup::new(args, game, plan)?;
    report.mark();
    let (spec, seed, prefix) = setup.table(args, game, plan, seating)?;
    let mut handle = referee.create_table(spec)?;
    let limit = Duration::from_millis(
        (args.per_action_ms + 200) * 400 * u64::from(args.hands)
            + args.time_bank_ms * setup.mine_count
            + 30_000,
    );
    let Some(played) = play_out(referee, &mut handle, limit, cut).await else {
        report.add(
            format!("{}: match", setup.name),
            false,
            format!("not over after {} s; {}", limit.as_secs(), SEE_STDERR),
        );
        return Ok((BTreeSet::new(), setup.possible));
    };
    report_hello(report, &setup, &played.records);
    let verdicts = Verdicts::judge(args, &setup, &played, timing, &handle.table_id);
    let asked = Asked::replay(game, &setup, prefix.as_ref(), &played.records)?;
    report_answers(report, &setup.name, seed, verdicts, &asked);
    if cut {
        report_reconnect(report, &setup.name, &played);
    }
    Ok((asked.kinds, setup.possible))
}

/// A match of a check, set up from its [`Plan`]: what the checks call it,
/// its options, and who sits where.
struct Setup {
    /// How the checks name the match: the game, the options beyond the
    /// defaults, the plan's label.
    name: String,
    options: Options,
    seats: usize,
    /// The kinds of decision the game can ask under `options`.
    possible: BTreeSet<&'static str>,
    /// The opponent's role in each seat, `None` for the bot's.
    roles: Vec<Option<Role>>,
    /// The bot's seats (seat 0 always is).
    mine: Vec<bool>,
    /// How many seats the bot plays.
    mine_count: u64,
    /// The kinds the match is there to ask.
    wanted: BTreeSet<&'static str>,
}

impl Setup {
    fn new(args: &CheckBotArgs, game: Variant, plan: &Plan) -> anyhow::Result<Setup> {
        let extra = &plan.extra;
        let mut name = game.name().to_string();
        for w in extra {
            name.push(' ');
            name.push_str(w);
        }
        if !plan.label.is_empty() {
            name.push(' ');
            name.push_str(plan.label);
        }
        // The options asked for (`--option`), then `hands` (the first match
        // of a game is `--hands` long; the others, one hand), then the set
        // this match checks beyond them.
        let first = extra.is_empty() && plan.roles.is_empty() && plan.position.is_none();
        let mut words: Vec<String> = args
            .options
            .iter()
            .filter(|w| w.split_once('=').is_none_or(|(k, _)| k.trim() != "hands"))
            .cloned()
            .collect();
        words.push(format!("hands={}", if first { args.hands } else { 1 }));
        words.extend(extra.iter().map(|w| w.to_string()));
        let options = Options::parse(&words).map_err(usage)?;
        let probe = game.new_game(&options).map_err(usage)?;
        let seats = probe.seats();
        let possible: BTreeSet<&'static str> = ActionKind::ALL
            .into_iter()
            .filter(|k| probe.accepts(*k))
            .map(ActionKind::name)
            .collect();
        let roles: Vec<Option<Role>> = if plan.roles.len() == seats {
            plan.roles.clone()
        } else {
            vec![None; seats]
        };
        let mine: Vec<bool> = roles.iter().map(Option::is_none).collect();
        let wanted: BTreeSet<&'static str> = if plan.wanted.is_empty() {
            possible.clone()
        } else {
            plan.wanted.iter().copied().collect()
        };
        Ok(Setup {
            name,
            options,
            seats,
            possible,
            mine_count: mine.iter().filter(|&&m| m).count() as u64,
            roles,
            mine,
            wanted,
        })
    }

    /// The table to play: its spec, the seed of its deals, and the hand a
    /// position begins with (deck order and the moves made for the bot).
    fn table(
        &self,
        args: &CheckBotArgs,
        game: Variant,
        plan: &Plan,
        seating: &Seating,
    ) -> anyhow::Result<(TableSpec, u64, Option<Prefix>)> {
        // The deals: the first seed from `--seed` on whose match, played by
        // the heuristic bot in the bot's seats, asks every kind the match is
        // for. A position is reached by its own moves, from `--seed`'s deal.
        let seed = if plan.position.is_some() {
            args.seed
        } else {
            seed_asking_everything(game, &self.options, args.seed, &self.wanted, &self.roles)
        };
        let prefix = plan
            .position
            .map(|p| position_prefix(game, &self.options, seed, p))
            .transpose()?;
        let names: Vec<&str> = self
            .mine
            .iter()
            .map(|&m| if m { args.name.as_str() } else { OPPONENTS })
            .collect();
        let mut spec = TableSpec::new(game, Seed::from_u64(seed), &names);
        spec.options = self.options.clone();
        if let Some((order, actions)) = &prefix {
            spec.resume = Some(whistle_referee::Resume {
                deals: vec![order.clone()],
                actions: actions.clone(),
                faults: vec![0; self.seats],
                forfeited: vec![false; self.seats],
                mid_hand: true,
            });
        }
        if self.mine.iter().any(|m| !m) {
            // The opponents' client learns each seat's role by the table's id.
            let id = {
                let mut s = seating.lock().map_err(|_| anyhow::anyhow!("seating"))?;
                let id = format!("check-{}", s.len() + 1);
                s.insert(id.clone(), self.roles.clone());
                id
            };
            spec.table_id = Some(id);
        }
        // The referee's clock is the bot's times its seats: the bot plays
        // them all, and in a simultaneous step (Yogi's bid cards, Israeli's
        // frisch) the seats' requests wait on one another in the bot. Each
        // answer is judged against the clock for the time the bot actually
        // had ([`Verdicts::judge`]).
        let n = self.mine_count;
        spec.time = TimeControl {
            per_action: Duration::from_millis(args.per_action_ms * n),
            time_bank: Duration::from_millis(args.time_bank_ms * n),
            ..spec.time
        };
        spec.start_timeout = Duration::from_secs(10);
        Ok((spec, seed, prefix))
    }
}

/// A match played to its end: its records, when each arrived, and the
/// number of records up to seat 0's third answer, after which the checker
/// cut its stream (if it did).
struct Played {
    records: Vec<TableRecord>,
    at: Vec<Instant>,
    cut_at: Option<usize>,
}

/// Reads the table's records as they come until its end, cutting seat 0's
/// stream after its third answer if `cut`; `None` if the match is not over
/// within `limit`.
async fn play_out(
    referee: &Referee,
    handle: &mut whistle_referee::TableHandle,
    limit: Duration,
    cut: bool,
) -> Option<Played> {
    let deadline = Instant::now() + limit;
    let mut played = Played {
        records: Vec::new(),
        at: Vec::new(),
        cut_at: None,
    };
    let mut seat0_actions = 0;
    loop {
        match tokio::time::timeout_at(deadline, handle.records.recv()).await {
            Err(_) => return None,
            Ok(None) => return Some(played),
            Ok(Some(r)) => {
                if let TableRecord::Action {
                    seat,
                    fallback: false,
                    ..
                } = &r
                    && seat.index() == 0
                {
                    seat0_actions += 1;
                    if cut && played.cut_at.is_none() && seat0_actions == 3 {
                        referee.cut_stream(&handle.table_id, Seat::new(0));
                        played.cut_at = Some(played.records.len() + 1);
                    }
                }
                let end = matches!(
                    r,
                    TableRecord::End { .. }
                        | TableRecord::Aborted { .. }
                        | TableRecord::Stopped { .. }
                );
                played.records.push(r);
                played.at.push(Instant::now());
                if end {
                    return Some(played);
                }
            }
        }
    }
}

/// Hello: the match started with every seat of the bot connected.
fn report_hello(report: &mut Report, setup: &Setup, records: &[TableRecord]) {
    let (name, seats, n) = (&setup.name, setup.seats, setup.mine_count);
    match records.iter().find_map(|r| match r {
        TableRecord::Started { connected } => Some(connected.clone()),
        _ => None,
    }) {
        Some(c) if c.iter().zip(&setup.mine).all(|(&x, &m)| x || !m) => report.add(
            format!("{name}: hello"),
            true,
            if n as usize == seats {
                format!("every seat ({seats}) opened Play with a good Hello")
            } else {
                format!("each of its seats ({n} of {seats}) opened Play with a good Hello")
            },
        ),
        Some(c) => report.add(
            format!("{name}: hello"),
            false,
            format!(
                "seats {:?} did not open Play with a good Hello within 10 s; {}",
                c.iter()
                    .enumerate()
                    .filter(|&(i, x)| !*x && setup.mine[i])
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>(),
                SEE_STDERR
            ),
        ),
        None => report.add(
            format!("{name}: hello"),
            false,
            "the match never started".to_string(),
        ),
    }
}

/// What a match's faults and timings say of the bot, each `None` where
/// nothing is held against it.
struct Verdicts {
    /// Answers too late for the clock given to check-bot.
    late: Option<String>,
    /// Illegal or malformed answers.
    wrong: Option<String>,
    /// Absences (after the checker's cut stream, one is excused).
    absent: Option<String>,
    /// Answers out of turn, stale or flooding.
    protocol: Option<String>,
}

impl Verdicts {
    fn judge(
        args: &CheckBotArgs,
        setup: &Setup,
        played: &Played,
        timing: Option<&std::sync::Arc<std::sync::Mutex<Timing>>>,
        table_id: &str,
    ) -> Verdicts {
        let mut faults = fault_counts(played, &setup.mine);
        // A stdio bot's every stdout line is an answer: a debugging print
        // there answers garbage, and the real answer then comes to a
        // settled request.
        let stray_lines = args.stdio
            && ["malformed", "stale", "out-of-turn"]
                .iter()
                .any(|k| faults.contains_key(*k));
        let late = take_faults(&mut faults, &["late"])
            .or_else(|| match timing {
                // A stdio bot: each answer timed from the writing of its request.
                Some(t) => late_timed(args, t, table_id, setup.seats),
                None => late_answers(args, &played.records, &played.at, &setup.mine),
            })
            .map(|text| format!("{text}; {}", clock_held_to(args, setup)));
        let mut wrong = take_faults(&mut faults, &["illegal", "malformed"]);
        let absent = take_faults(&mut faults, &["absent"]);
        let mut protocol = take_faults(&mut faults, &["out-of-turn", "stale", "flood"]);
        if stray_lines {
            for text in [&mut wrong, &mut protocol].into_iter().flatten() {
                text.push_str(STDOUT_HINT);
            }
        }
        Verdicts {
            late,
            wrong,
            absent,
            protocol,
        }
    }
}

/// The clock the bot's answers were held to in a match: the referee's is
/// the per-seat clock times the seats the bot plays (it answers them all).
fn clock_held_to(args: &CheckBotArgs, setup: &Setup) -> String {
    let n = setup.mine.iter().filter(|&&m| m).count().max(1) as u64;
    if n == 1 {
        format!(
            "its clock: {} ms a decision and a {} ms bank",
            args.per_action_ms, args.time_bank_ms
        )
    } else {
        format!(
            "its clock: {} ms a decision and a {} ms bank a seat, times the {n} seats it plays \
             ({} ms and {} ms)",
            args.per_action_ms,
            args.time_bank_ms,
            args.per_action_ms * n,
            args.time_bank_ms * n
        )
    }
}

/// The bot's faults in a match by kind: how many, and the first's detail.
fn fault_counts(played: &Played, mine: &[bool]) -> BTreeMap<String, (usize, String)> {
    let mut faults: BTreeMap<String, (usize, String)> = BTreeMap::new();
    // The decision seat 0 missed while reconnecting after the checker cut
    // its stream is the checker's doing (under a short clock a reconnection
    // takes longer than a decision may): one absence is excused; the
    // reconnect check judges the reconnection.
    let mut excused = false;
    for (i, r) in played.records.iter().enumerate() {
        if let TableRecord::Fault(f) = r {
            if !mine.get(f.seat.index()).copied().unwrap_or(false) {
                continue;
            }
            if !excused
                && played.cut_at.is_some_and(|k| i + 1 >= k)
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
    faults
}

/// The faults of `kinds` taken out of `faults`, said in one line (`None`:
/// there were none).
fn take_faults(faults: &mut BTreeMap<String, (usize, String)>, kinds: &[&str]) -> Option<String> {
    let found: Vec<String> = kinds
        .iter()
        .filter_map(|k| {
            faults
                .remove(*k)
                .map(|(n, d)| format!("{n} {k} (first: {d})"))
        })
        .collect();
    (!found.is_empty()).then(|| found.join("; "))
}

/// What the bot was asked in a match, replayed in the engine.
#[derive(Default)]
struct Asked {
    /// The decisions it answered (not fallbacks).
    decisions: usize,
    /// Those decisions by phase.
    by_phase: BTreeMap<String, usize>,
    /// The kinds of action offered in them.
    offered: BTreeSet<&'static str>,
    /// The kinds of action it chose.
    chosen: BTreeSet<&'static str>,
    /// The kinds offered in every decision of its seats, fallbacks of late
    /// answers included.
    kinds: BTreeSet<&'static str>,
}

impl Asked {
    fn replay(
        game: Variant,
        setup: &Setup,
        prefix: Option<&Prefix>,
        records: &[TableRecord],
    ) -> anyhow::Result<Asked> {
        let name = &setup.name;
        let mut g = game.new_game(&setup.options).map_err(usage)?;
        // A position's first moves were made before the table began.
        if let Some((order, actions)) = prefix {
            g.deal(order)
                .map_err(|e| anyhow::anyhow!("{name}: replaying the deal: {e}"))?;
            for &(seat, action, _) in actions {
                g.apply(seat, action)
                    .map_err(|e| anyhow::anyhow!("{name}: replaying an action: {e}"))?;
            }
        }
        let mut asked = Asked::default();
        for r in records {
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
                    let ours = setup.mine.get(seat.index()).copied().unwrap_or(false);
                    if ours {
                        asked.note(&g, *seat, *action, *fallback);
                    }
                    g.apply(*seat, *action)
                        .map_err(|e| anyhow::anyhow!("{name}: replaying an action: {e}"))?;
                }
                _ => {}
            }
        }
        Ok(asked)
    }

    /// Notes a decision of the bot's `seat` in `g`, before `action` is
    /// applied.
    fn note(&mut self, g: &whistle_rules::AnyGame, seat: Seat, action: Action, fallback: bool) {
        let legal = g.legal_actions(seat);
        if !fallback {
            self.decisions += 1;
            *self
                .by_phase
                .entry(format!("{:?}", g.phase()).to_lowercase())
                .or_default() += 1;
            self.offered.extend(legal.iter().map(|a| a.kind().name()));
            self.chosen.insert(Action::kind(action).name());
        }
        // Every decision asked, fallbacks of late answers included.
        self.kinds.extend(legal.iter().map(|a| a.kind().name()));
    }
}

/// What the in-time and legal checks say of a match the bot answered no
/// decision of.
const NO_ANSWER: &str = "it answered no decision (every one of its decisions was played for it)";

/// The checks of a match's answers: in time, legal, by the protocol, and
/// no absence.
fn report_answers(report: &mut Report, name: &str, seed: u64, v: Verdicts, asked: &Asked) {
    report.answered += asked.decisions;
    let decisions = asked.decisions;
    let phases: Vec<String> = asked
        .by_phase
        .iter()
        .map(|(p, n)| format!("{p} {n}"))
        .collect();
    let never: Vec<&str> = asked.offered.difference(&asked.chosen).copied().collect();
    // A bot that answered nothing is not in time: it was never judged.
    report.add(
        format!("{name}: answers in time"),
        v.late.is_none() && decisions > 0,
        v.late.unwrap_or_else(|| {
            if decisions == 0 {
                NO_ANSWER.to_string()
            } else {
                format!("{decisions} decisions, none late")
            }
        }),
    );
    report.add(
        format!("{name}: legal answers"),
        v.wrong.is_none() && decisions > 0,
        v.wrong.unwrap_or_else(|| {
            if decisions == 0 {
                return NO_ANSWER.to_string();
            }
            format!(
                "every answer legal (deals of seed {seed}); decisions by phase: {}; \
                 action kinds answered: {}{}",
                phases.join(", "),
                asked.chosen.iter().copied().collect::<Vec<_>>().join(", "),
                if never.is_empty() {
                    String::new()
                } else {
                    format!(" (offered, never chosen: {})", never.join(", "))
                }
            )
        }),
    );
    if let Some(p) = v.protocol {
        report.add(format!("{name}: protocol"), false, p);
    }
    if let Some(f) = v.absent {
        report.add(
            format!("{name}: connection"),
            false,
            format!("{f}; {}", SEE_STDERR),
        );
    }
}

/// The reconnect check of the match whose seat 0 had its stream cut.
fn report_reconnect(report: &mut Report, name: &str, played: &Played) {
    let records = &played.records;
    let after: &[TableRecord] = played.cut_at.map_or(&[], |k| &records[k..]);
    let answered_again = after.iter().any(
        |r| matches!(r, TableRecord::Action { seat, fallback: false, .. } if seat.index() == 0),
    );
    let forfeited = records.iter().any(|r| match r {
        TableRecord::End { forfeited, .. } => !forfeited.is_empty(),
        _ => false,
    });
    let (pass, detail) = match (played.cut_at, answered_again, forfeited) {
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
                SEE_STDERR
            ),
        ),
    };
    report.add(format!("{name}: reconnect"), pass, detail);
}

/// A task aborted when this is dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A stdio bot's answers as its relay timed them.
#[derive(Default)]
struct Timing {
    /// The request written last and not answered yet: table, seat, when.
    asked: Option<(String, usize, Instant)>,
    /// Each answer: table, seat, and the time from the request's writing
    /// to the answer's first line.
    answers: Vec<(String, usize, Duration)>,
}

/// The bridge of a stdio bot ([`whistle_tournament::stdio::spawn`]) with
/// its answers timed: its stdin written through [`TimedStdin`], which notes
/// when each request line has been written, and its stdout behind a relay
/// that notes when the next line comes back (the bridge keeps one request
/// outstanding, so that line answers it). Bytes pass unchanged.
fn timed_bridge(
    child: &mut tokio::process::Child,
    launch: &whistle_tournament::procs::Launch,
    timing: std::sync::Arc<std::sync::Mutex<Timing>>,
) -> Option<tokio::task::JoinHandle<()>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (stdin, mut stdout) = (child.stdin.take()?, child.stdout.take()?);
    let (mut relay_out, bridge_out) = tokio::io::duplex(64 * 1024);
    let stdin = TimedStdin {
        inner: stdin,
        start: Vec::new(),
        timing: timing.clone(),
    };
    // From the bot: bytes as they come; the first line after a request
    // answers it.
    tokio::spawn(async move {
        let mut buf = vec![0u8; 8192];
        loop {
            let n = match stdout.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if buf[..n].contains(&b'\n')
                && let Ok(mut t) = timing.lock()
                && let Some((table, seat, at)) = t.asked.take()
            {
                t.answers.push((table, seat, at.elapsed()));
            }
            if relay_out.write_all(&buf[..n]).await.is_err() {
                break;
            }
        }
    });
    Some(whistle_tournament::stdio::spawn(
        stdin,
        bridge_out,
        launch.address.clone(),
        launch.token.clone(),
        launch.name.clone(),
    ))
}

/// A stdio bot's stdin that notes when each request line has been written
/// to it whole (only a line's start is kept: its table and seat). It tells
/// the bridge what its pipe tells: whether the bot has begun reading.
struct TimedStdin {
    inner: tokio::process::ChildStdin,
    start: Vec<u8>,
    timing: std::sync::Arc<std::sync::Mutex<Timing>>,
}

impl tokio::io::AsyncWrite for TimedStdin {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let written = std::pin::Pin::new(&mut this.inner).poll_write(cx, buf);
        if let std::task::Poll::Ready(Ok(n)) = &written {
            for &b in &buf[..*n] {
                if b != b'\n' {
                    if this.start.len() < 200 {
                        this.start.push(b);
                    }
                    continue;
                }
                if let Some((table, seat)) = request_of(&this.start)
                    && let Ok(mut t) = this.timing.lock()
                {
                    t.asked = Some((table, seat, Instant::now()));
                }
                this.start.clear();
            }
        }
        written
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

impl whistle_tournament::stdio::BotInput for TimedStdin {
    fn unread(&self) -> Option<u64> {
        whistle_tournament::stdio::BotInput::unread(&self.inner)
    }
}

/// The table and seat of a `request` line, from its start.
fn request_of(start: &[u8]) -> Option<(String, usize)> {
    let text = std::str::from_utf8(start).ok()?;
    let rest = text.strip_prefix("{\"type\":\"request\",\"table\":\"")?;
    let (table, rest) = rest.split_once('"')?;
    let rest = rest.strip_prefix(",\"seat\":")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((table.to_string(), digits.parse().ok()?))
}

/// [`late_answers`] for a stdio bot, from its relay's timings of the
/// answers at `table`: the time from the request's writing to the answer.
fn late_timed(
    args: &CheckBotArgs,
    timing: &std::sync::Arc<std::sync::Mutex<Timing>>,
    table: &str,
    seats: usize,
) -> Option<String> {
    let per_action = Duration::from_millis(args.per_action_ms);
    let mut bank = vec![Duration::from_millis(args.time_bank_ms); seats];
    let (mut late, mut worst) = (0, Duration::ZERO);
    let mut first = None;
    let answers = timing.lock().map(|t| t.answers.clone()).unwrap_or_default();
    for (_, seat, had) in answers.iter().filter(|(t, ..)| t == table) {
        let over = had.saturating_sub(per_action);
        let Some(b) = bank.get_mut(*seat) else {
            continue;
        };
        if over > *b {
            *b = Duration::ZERO;
            late += 1;
            worst = worst.max(*had);
            first.get_or_insert(format!("seat {seat}: after {} ms", had.as_millis()));
        } else {
            *b -= over;
        }
    }
    (late > 0).then(|| {
        format!(
            "{late} answers took longer than {} ms and the bank, timed from the writing of \
             each request to the bot (the slowest {} ms; first: {})",
            args.per_action_ms,
            worst.as_millis(),
            first.unwrap_or_default()
        )
    })
}

/// How many seeds [`seed_asking_everything`] tries.
const SEED_SEARCH: u64 = 64;

/// A seat of a check's in-process table, played by `inner`: the checked
/// bot's seats note the kinds of action they were offered (`kinds`), a
/// mixed table's other seats play their role first where it applies.
struct Player {
    inner: Box<dyn whistle_bot::Bot>,
    kinds: Option<std::sync::Arc<std::sync::Mutex<BTreeSet<&'static str>>>>,
    role: Option<Role>,
}

impl whistle_bot::Bot for Player {
    fn choose(&mut self, obs: &whistle_rules::Observation, legal: &[Action]) -> usize {
        if let Some(Ok(mut k)) = self.kinds.as_ref().map(|k| k.lock()) {
            k.extend(legal.iter().map(|a| a.kind().name()));
        }
        match self.role.and_then(|r| r.pick(obs, legal)) {
            Some(i) => i,
            None => self.inner.choose(obs, legal),
        }
    }
    fn rules(&mut self, variant: Variant, options: &Options) {
        self.inner.rules(variant, options);
    }
    fn new_match(&mut self, seat: Seat, seats: usize) {
        self.inner.new_match(seat, seats);
    }
    fn wants_events(&self) -> bool {
        self.inner.wants_events()
    }
    fn on_event(&mut self, event: &whistle_rules::Event) {
        self.inner.on_event(event);
    }
    fn hand_over(&mut self, result: &whistle_rules::HandResult) {
        self.inner.hand_over(result);
    }
    fn match_over(&mut self, result: &whistle_rules::MatchResult) {
        self.inner.match_over(result);
    }
}

/// The kinds of action offered to the bot's seats in a match of `game`
/// from `seed` played in-process: `bot` (a built-in bot's name) in the
/// seats whose role is `None`, the opponents of a mixed table in the
/// others.
fn kinds_reached(
    game: Variant,
    options: &Options,
    seed: u64,
    bot: &str,
    roles: &[Option<Role>],
) -> BTreeSet<&'static str> {
    let kinds = std::sync::Arc::new(std::sync::Mutex::new(BTreeSet::new()));
    let Ok(mut g) = game.new_game(options) else {
        return BTreeSet::new();
    };
    let match_seed = Seed::from_u64(seed);
    let mut bots: Vec<Box<dyn whistle_bot::Bot>> = Vec::new();
    for s in 0..g.seats() {
        let Ok(inner) = whistle_bot::bot_by_name(bot, whistle_bot::bot_seed(match_seed, s)) else {
            return BTreeSet::new();
        };
        let role = roles.get(s).copied().flatten();
        bots.push(Box::new(Player {
            inner,
            kinds: role.is_none().then(|| kinds.clone()),
            role,
        }));
    }
    if whistle_bot::play_match(&mut g, match_seed, &mut bots).is_err() {
        return BTreeSet::new();
    }
    kinds.lock().map(|k| k.clone()).unwrap_or_default()
}

/// What an in-process opponent at a mixed table does beyond the heuristic
/// bot's play, so that decisions the bot checked would not lead to itself
/// are asked of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Opens the trump auction when nobody has bid in the hand yet and
    /// passes once somebody has: the auction ends with a bid and the hand
    /// is played, whatever the bot checked calls (Israeli, I2).
    Opener,
    /// Bids the lowest contract allowed whenever it may: its team declares
    /// (Illustrated's partner of the bot checked, L2).
    Declarer,
    /// Doubles whenever a double is legal: the other team is asked whether
    /// to redouble (Illustrated, L4).
    Doubler,
}

impl Role {
    /// What an opponent (or partner) of the bot checked at a mixed table
    /// plays in this role, where the role decides.
    fn pick(self, obs: &whistle_rules::Observation, legal: &[Action]) -> Option<usize> {
        let contract = legal.iter().position(|a| a.kind() == ActionKind::Contract);
        match self {
            Role::Opener => {
                contract?;
                // A bid in this hand's auctions so far: the history since
                // the hand began.
                let start = obs
                    .history
                    .iter()
                    .rposition(|e| matches!(e, whistle_rules::Event::HandStart { .. }))
                    .unwrap_or(0);
                let bid = obs.history[start..].iter().any(|e| {
                    matches!(
                        e,
                        whistle_rules::Event::Action { action, .. }
                            if action.kind() == ActionKind::Contract
                    )
                });
                if bid {
                    legal.iter().position(|a| *a == Action::Pass)
                } else {
                    contract
                }
            }
            Role::Declarer => contract,
            Role::Doubler => legal.iter().position(|a| a.kind() == ActionKind::Double),
        }
    }
}

/// The seed of the deals a match is checked on: the first of `seed`,
/// `seed + 1`, ... ([`SEED_SEARCH`] tries) whose match, played in-process
/// by the heuristic bot in the bot's seats (and the opponents of a mixed
/// table in theirs), asks every kind in `wanted` (Israeli's frisch,
/// Illustrated's kitty, calls and doubles, Yogi's reveal come only from
/// some deals); failing that, the seed whose match asks the most kinds, and
/// among those the one where the random bot in the bot's seats reaches the
/// most. The bot checked may still choose otherwise: the kinds it was asked
/// are reported.
fn seed_asking_everything(
    game: Variant,
    options: &Options,
    seed: u64,
    wanted: &BTreeSet<&'static str>,
    roles: &[Option<Role>],
) -> u64 {
    let count = |k: BTreeSet<&'static str>| k.intersection(wanted).count();
    let mut best = ((0, 0), seed);
    for s in seed..seed.saturating_add(SEED_SEARCH) {
        let heuristic = count(kinds_reached(game, options, s, "heuristic", roles));
        if heuristic == wanted.len() {
            return s;
        }
        if heuristic < best.0.0 {
            continue;
        }
        let score = (
            heuristic,
            count(kinds_reached(game, options, s, "random", roles)),
        );
        if score > best.0 {
            best = (score, s);
        }
    }
    best.1
}

/// The answers that came too late for the clock given to check-bot, each
/// judged against the time the bot had for it: from its request, or from
/// the bot's previous answer if that came later (the bot plays every seat,
/// so a request of a simultaneous step waits in it behind the others).
/// Over `per_action` an answer draws on its seat's bank, as at a table.
fn late_answers(
    args: &CheckBotArgs,
    records: &[TableRecord],
    at: &[Instant],
    mine: &[bool],
) -> Option<String> {
    let per_action = Duration::from_millis(args.per_action_ms);
    let mut bank = vec![Duration::from_millis(args.time_bank_ms); mine.len()];
    let mut previous: Option<Instant> = None;
    let (mut late, mut worst) = (0, Duration::ZERO);
    let mut first = None;
    for (r, &t) in records.iter().zip(at) {
        let TableRecord::Action {
            seat,
            action,
            elapsed,
            fallback: false,
        } = r
        else {
            continue;
        };
        // The opponents' answers at a mixed table are not the bot's.
        if !mine.get(seat.index()).copied().unwrap_or(false) {
            continue;
        }
        let asked = t.checked_sub(*elapsed).unwrap_or(t);
        let from = previous.map_or(asked, |p| p.max(asked));
        previous = Some(t);
        let had = t.saturating_duration_since(from);
        let over = had.saturating_sub(per_action);
        let b = &mut bank[seat.index()];
        if over > *b {
            *b = Duration::ZERO;
            late += 1;
            worst = worst.max(had);
            first.get_or_insert(format!(
                "seat {}: `{action}` after {} ms",
                seat.index(),
                had.as_millis()
            ));
        } else {
            *b -= over;
        }
    }
    (late > 0).then(|| {
        format!(
            "{late} answers took longer than {} ms and the bank (the slowest {} ms; first: {})",
            args.per_action_ms,
            worst.as_millis(),
            first.unwrap_or_default()
        )
    })
}

/// How to start a bot process with the launch contract, as a tournament
/// does (`replay rerun` starts a student's bot with it).
pub(crate) struct Process<'a> {
    /// Its name (`$WHISTLE_BOT_NAME`, and the name its seats are routed by).
    pub name: &'a str,
    /// The command and its arguments.
    pub command: &'a [String],
    /// Its folder (default: its program's).
    pub dir: Option<&'a Path>,
    /// More paths it may read in its sandbox.
    pub read: &'a [std::path::PathBuf],
    /// Whether it runs in the sandbox.
    pub sandbox: bool,
    /// Whether it speaks JSON lines on stdin and stdout.
    pub stdio: bool,
}

/// The entry of a bot that `p` says, started from `cwd` with `limits`, its
/// launch to `address` with `token` as a tournament's (unsandboxed as yet),
/// its stderr to `stderr`, and its program as resolved.
fn local_launch(
    p: &Process<'_>,
    limits: whistle_sandbox::Limits,
    address: &str,
    token: &str,
    stderr: &Path,
    cwd: &Path,
) -> (
    whistle_tournament::config::LocalBot,
    whistle_tournament::procs::Launch,
    std::path::PathBuf,
) {
    let bot = whistle_tournament::config::LocalBot {
        command: p.command.to_vec(),
        dir: p.dir.map(|d| cwd.join(d)),
        read: p.read.iter().map(|r| cwd.join(r)).collect(),
        sandbox: p.sandbox,
        limits,
        stdio: p.stdio,
    };
    let program = confine::resolve_program(&p.command[0], cwd);
    let launch = whistle_tournament::procs::Launch {
        name: p.name.to_string(),
        command: std::iter::once(program.display().to_string())
            .chain(confine::absolute_args(&p.command[1..], cwd))
            .collect(),
        dir: bot.folder(cwd),
        address: address.to_string(),
        token: token.to_string(),
        stderr_log: stderr.to_path_buf(),
        sandbox: None,
        once: false,
        stdio: p.stdio,
    };
    (bot, launch, program)
}

/// A bot process started by [`start`]: dropped, it is killed and what it
/// was given (bridge, sandbox, socket) goes with it.
pub(crate) struct Started {
    /// The process.
    pub child: tokio::process::Child,
    /// A stdio bot's bridge to the referee.
    bridge: Option<tokio::task::JoinHandle<()>>,
    unix_server: Option<whistle_referee::ServerHandle>,
    _confinement: Option<Confinement>,
    _scratch: Option<tempfile::TempDir>,
}

impl Started {
    /// Stops the process and what serves it.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
        if let Some(b) = self.bridge.take() {
            b.abort();
        }
        if let Some(u) = self.unix_server.take() {
            u.shutdown().await;
        }
    }
}

/// Starts `p` against `referee` (listening at `address`) with `token`,
/// sandboxed as in a tournament unless `p.sandbox` is false; its stderr
/// goes to `stderr`.
pub(crate) async fn start(
    p: &Process<'_>,
    referee: &Referee,
    address: &str,
    token: &str,
    stderr: &Path,
) -> anyhow::Result<Started> {
    let cwd = std::env::current_dir()?;
    let limits = whistle_sandbox::Limits::default();
    let (bot, mut launch, program) = local_launch(p, limits, address, token, stderr, &cwd);
    let mut confinement = None;
    let mut unix_server = None;
    if bot.sandbox {
        let c = Confinement::new(std::env::current_exe()?)
            .map_err(|e| anyhow::anyhow!("{e} (or: --no-sandbox)"))?;
        let grants = confine::check_grants(&bot, &cwd, &[]).map_err(|e| anyhow::anyhow!("{e}"))?;
        launch.dir = grants.folder;
        let reach = c.reach(referee, &launch.address).await?;
        if !p.stdio {
            launch.address = reach.address.clone();
        }
        launch.sandbox = Some(c.sandboxed(bot.limits, grants.read, &reach));
        unix_server = reach.server;
        confinement = Some(c);
    }
    let piped = |on: bool| if on { Stdio::piped() } else { Stdio::null() };
    let (mut cmd, scratch) = whistle_tournament::procs::command(&launch)?;
    cmd.stdin(piped(p.stdio))
        .stdout(piped(p.stdio))
        .stderr(std::fs::File::create(stderr)?)
        .kill_on_drop(true);
    let mut child = cmd
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot start `{}`: {e}", program.display()))?;
    let bridge = whistle_tournament::procs::bridge(&mut child, &launch);
    Ok(Started {
        child,
        bridge,
        unix_server,
        _confinement: confinement,
        _scratch: scratch,
    })
}
