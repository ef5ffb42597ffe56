//! `whistle league`: a league folder's bots, rounds, standings and history.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    sync::Arc,
};

use clap::{Args, Subcommand};
use whistle_league::{
    LEAGUE_FILE, LeagueError, LeagueFile, STORE_FILE, Store, import, round, serve, store::Standing,
};
use whistle_tournament::RunOptions;

use crate::{
    progress::{Mode, Progress},
    signals::Interrupted,
    usage,
};

/// Arguments of `whistle league`.
#[derive(Debug, Args)]
pub struct LeagueArgs {
    #[command(subcommand)]
    command: LeagueCommand,
}

/// The league folder every subcommand works in.
#[derive(Debug, Args)]
struct DirArg {
    /// The league folder.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
}

#[derive(Debug, Subcommand)]
enum LeagueCommand {
    /// Make a league folder from a league file: its store, its reference
    /// bots (see docs/leagues.md).
    Init {
        /// The league file (TOML), e.g. tournaments/league.toml.
        file: PathBuf,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Add a bot; prints its token once (the league keeps only a hash).
    /// With `-- COMMAND...` the league starts the bot itself in its rounds.
    AddBot {
        /// The bot's name (a new version of a bot needs a new name).
        name: String,
        /// This bot is a new version of that one: the old one retires, and
        /// the league file's `rating.new_version` says whether the rating
        /// carries on.
        #[arg(long)]
        replaces: Option<String>,
        #[command(flatten)]
        dir: DirArg,
        /// The program and arguments that start the bot (`whistle` is this
        /// whistle binary).
        #[arg(last = true)]
        command: Vec<String>,
    },
    /// Retire a bot: its token is refused from now on, it is seated in no
    /// later round, its record stays.
    RetireBot {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Print the standings: rating, interval, matches, points per hand with
    /// its interval, faults, last seen.
    Standings {
        /// As JSON: a list of rows with `bot`, `rating`, `uncertainty`,
        /// `matches`, ...
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// As CSV, one row a bot (the bots that played ranked first), for a
        /// spreadsheet: `rank,bot,rating,sigma,low,high,matches,hands,...`.
        #[arg(long)]
        csv: bool,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Print a bot's rating history.
    History {
        /// The bot's name.
        bot: String,
        /// As JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Import a finished tournament's matches (its output folder); a match
    /// already imported is not counted again.
    Import {
        /// The tournament's output folder.
        folder: PathBuf,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Serve the league: the referee, the scheduler and the store in one
    /// process. Bots connect with their tokens and are seated round after
    /// round. Prints `listening on ADDR admin-token TOKEN`; stops on SIGTERM
    /// or Ctrl-C (the round in progress plays on at the next start).
    Serve {
        #[command(flatten)]
        dir: DirArg,
        /// Where bots' owners connect.
        #[arg(long, default_value = "127.0.0.1:50151")]
        listen: std::net::SocketAddr,
        /// Serve TLS with this certificate chain (PEM); needs --tls-key.
        #[arg(long, requires = "tls_key")]
        tls_cert: Option<PathBuf>,
        /// The certificate's private key (PEM).
        #[arg(long, requires = "tls_cert")]
        tls_key: Option<PathBuf>,
        /// The token Admin calls must carry (default: a fresh one, printed).
        #[arg(long, env = "WHISTLE_ADMIN_TOKEN")]
        admin_token: Option<String>,
        /// Stop after this many rounds (default: until stopped).
        #[arg(long)]
        rounds: Option<u64>,
        /// Start a new round at most this often, counted from one round's
        /// start to the next's (e.g. `30m`, `6h`, `1d`; default `0s`: each
        /// round as soon as the last one ends).
        #[arg(long, default_value = "0s", value_parser = parse_every)]
        every: std::time::Duration,
        /// Serve the league's web site here (standings, rating histories,
        /// recent matches, live tables).
        #[arg(long)]
        http: Option<std::net::SocketAddr>,
        /// How late the site shows the tables being played, in seconds.
        #[arg(long, default_value_t = 60)]
        watch_delay_s: u64,
        /// How often the scheduler looks for waiting bots, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        poll_ms: u64,
        /// Progress display on stderr.
        #[arg(long, value_enum, default_value = "plain")]
        progress: Mode,
        /// Log filter for stderr (tracing syntax).
        #[arg(long, default_value = "info")]
        log: String,
        /// On SIGTERM or Ctrl-C, how long tables may take to finish the hand
        /// in progress.
        #[arg(long, default_value_t = 10_000)]
        drain_ms: u64,
    },
    /// The rounds so far: each one's seed commitment (SHA-256, published
    /// before it plays, in every log) and, once it is closed, its seed
    /// (check a log with `whistle replay verify LOG --seed SEED`).
    Rounds {
        #[command(flatten)]
        dir: DirArg,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play one scheduled round and exit (for cron or a batch job). A round
    /// stopped or killed part way is played on by the next `round`.
    Round {
        #[command(flatten)]
        dir: DirArg,
        #[command(flatten)]
        run: crate::tournament::RunFlags,
    },
    #[command(flatten)]
    Submissions(crate::submissions::Command),
}

/// Runs a `whistle league` subcommand and returns what to print.
pub fn run(args: &LeagueArgs) -> anyhow::Result<String> {
    match &args.command {
        LeagueCommand::Init { file, dir } => init(file, &dir.dir),
        LeagueCommand::AddBot {
            name,
            replaces,
            dir,
            command,
        } => add_bot(&dir.dir, name, replaces.as_deref(), command),
        LeagueCommand::RetireBot { name, dir } => {
            let (_, mut store) = open(&dir.dir)?;
            Ok(if store.retire_bot(name).map_err(refused)? {
                format!("bot {name} retired\n")
            } else {
                format!("bot {name} was already retired\n")
            })
        }
        LeagueCommand::Standings { json, csv, dir } => {
            let (file, store) = open_read_only(&dir.dir)?;
            let rows = store.standings()?;
            Ok(if *json {
                serde_json::to_string_pretty(&rows)? + "\n"
            } else if *csv {
                standings_csv(&rows)
            } else {
                standings_text(&file, &rows)
            })
        }
        LeagueCommand::History { bot, json, dir } => {
            let (_, store) = open_read_only(&dir.dir)?;
            let rows = store.history(bot).map_err(refused)?;
            if *json {
                return Ok(serde_json::to_string_pretty(&rows)? + "\n");
            }
            let (before, after) = store.lineage(bot).map_err(refused)?;
            let mut out = format!("rating history of {bot}");
            if let Some(b) = before {
                let _ = write!(out, " (a new version of {b})");
            }
            if let Some(a) = after {
                let _ = write!(out, " (replaced by {a})");
            }
            out.push('\n');
            for r in &rows {
                let _ = writeln!(
                    out,
                    "  {}  {:>7.2} ± {:<5.2}  {}",
                    r.at,
                    r.rating,
                    r.uncertainty,
                    r.r#match.as_deref().unwrap_or("(start)")
                );
            }
            Ok(out)
        }
        LeagueCommand::Import { folder, dir } => {
            let _writer = writer(&dir.dir, "league import")?;
            let (file, mut store) = open(&dir.dir)?;
            let done = import::import_dir(
                &mut store,
                folder,
                &format!("import {}", folder.display()),
                None,
                &file.expect(),
            )
            .map_err(refused)?;
            let mut out = format!(
                "{} match(es) recorded{}, {} already in the league{}{}\n",
                done.recorded,
                if done.unrated > 0 {
                    format!(" ({} unrated: a retired bot played)", done.unrated)
                } else {
                    String::new()
                },
                done.known,
                if done.unfinished > 0 {
                    format!(", {} unfinished left out", done.unfinished)
                } else {
                    String::new()
                },
                if done.refused.is_empty() {
                    String::new()
                } else {
                    format!(", {} refused", done.refused.len())
                }
            );
            for r in &done.refused {
                out.push_str(&format!("refused {}: {}\n", r.log, r.why));
            }
            if !done.refused.is_empty() {
                return Err(crate::Unclean {
                    why: format!(
                        "whistle league import: {} log(s) refused; exit status {}",
                        done.refused.len(),
                        crate::EXIT_UNCLEAN
                    ),
                    output: out,
                }
                .into());
            }
            Ok(out)
        }
        LeagueCommand::Round { dir, run } => play_round(&dir.dir, run),
        LeagueCommand::Submissions(c) => crate::submissions::run(c),
        LeagueCommand::Rounds { dir, json } => {
            let rounds = round::round_seeds(&dir.dir).map_err(refused)?;
            if *json {
                return Ok(serde_json::to_string_pretty(&rounds)? + "\n");
            }
            let mut out = String::from(
                "round  commitment (SHA-256 of the seed)                                  seed\n",
            );
            for r in rounds {
                out.push_str(&format!(
                    "{:>5}  {}  {}\n",
                    r.round,
                    r.commitment,
                    r.seed.map_or_else(
                        || "(secret until the round closes)".to_string(),
                        |s| s.to_string()
                    )
                ));
            }
            Ok(out)
        }
        LeagueCommand::Serve {
            dir,
            listen,
            tls_cert,
            tls_key,
            admin_token,
            rounds,
            every,
            http,
            watch_delay_s,
            poll_ms,
            progress,
            log,
            drain_ms,
        } => {
            crate::serve::init_logging(log);
            let tls = match (tls_cert, tls_key) {
                (Some(c), Some(k)) => {
                    let id = whistle_referee::TlsIdentity::from_files(c, k).map_err(usage)?;
                    id.check()
                        .map_err(|e| usage(format!("{}: {e}", c.display())))?;
                    Some(id)
                }
                _ => None,
            };
            let admin = admin_token
                .clone()
                .unwrap_or_else(|| whistle_referee::new_token("admin"));
            let rt = tokio::runtime::Runtime::new()?;
            let played = rt.block_on(async {
                let opts = serve::ServeOptions {
                    listen: *listen,
                    tls,
                    admin_token: admin.clone(),
                    stop: crate::signals::stop_on_signals("whistle league serve"),
                    drain: std::time::Duration::from_millis(*drain_ms),
                    poll: std::time::Duration::from_millis(*poll_ms),
                    rounds: *rounds,
                    every: *every,
                    reporter: Arc::new(Progress::new(*progress)),
                    http: *http,
                    watch_delay: std::time::Duration::from_secs(*watch_delay_s),
                };
                serve::serve(&dir.dir, opts, |e| report_serve(&e, &admin)).await
            });
            let played = played.map_err(refused)?;
            let (file, store) = open(&dir.dir)?;
            let mut out = format!("{played} round(s) played\n");
            out.push_str(&standings_text(&file, &store.standings()?));
            Ok(out)
        }
    }
}

/// A pause given as a number and a unit: `90s`, `30m`, `6h`, `1d`.
fn parse_every(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("`{text}`: give a unit: s, m, h or d (e.g. `30m`)"))?;
    let (n, unit) = text.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{text}`: a whole number and a unit (e.g. `30m`)"))?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("`{text}`: the unit is one of s, m, h, d")),
    };
    n.checked_mul(secs)
        .map(std::time::Duration::from_secs)
        .ok_or_else(|| format!("`{text}`: too long"))
}

/// One line for each thing a serving league does: the listening line on
/// stdout (people and scripts read it), the rest on stderr.
fn report_serve(e: &serve::ServeEvent, admin: &str) {
    use std::io::Write;
    match e {
        serve::ServeEvent::Listening { addr, tls } => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "listening on {addr} admin-token {admin}{}",
                if *tls { " tls" } else { "" }
            );
            let _ = out.flush();
        }
        serve::ServeEvent::RoundStarted {
            number,
            matches,
            resumed,
            waiting,
            seed_warning,
            note,
        } => {
            if let Some(why) = seed_warning {
                eprintln!("warning: {why}");
            }
            if let Some(note) = note {
                eprintln!("round {number}: {note}");
            }
            eprintln!(
                "round {number}{}: {matches} match(es); waiting bots: {}",
                if *resumed { " (resumed)" } else { "" },
                if waiting.is_empty() {
                    "none".to_string()
                } else {
                    waiting.join(", ")
                }
            )
        }
        serve::ServeEvent::RoundEnded {
            number,
            recorded,
            complete,
            seed,
        } => eprintln!(
            "round {number} {}: {recorded} match(es) recorded{}",
            if *complete { "done" } else { "stopped" },
            seed.map_or_else(String::new, |s| format!("; its seed, now revealed: {s}"))
        ),
        serve::ServeEvent::Revoked { bot } => eprintln!("bot {bot} retired: its token is revoked"),
        serve::ServeEvent::Benched { bot } => eprintln!(
            "bot {bot} missed its seats (never opened them within the start timeout): \
             benched until it subscribes anew"
        ),
        serve::ServeEvent::Unbenched { bot } => {
            eprintln!("bot {bot} subscribed anew: seated again")
        }
        serve::ServeEvent::Site { addr, tls } => {
            let mut out = std::io::stdout().lock();
            if *tls {
                let _ = writeln!(out, "site on https://{addr}/");
            } else {
                let _ = writeln!(out, "site on http://{addr}/");
                // Owners type their tokens on its forms.
                eprintln!(
                    "whistle league serve: the site is plain HTTP: put it behind HTTPS, or give \
                     --tls-cert and --tls-key, before bots' owners type their tokens on its forms"
                );
            }
            let _ = out.flush();
        }
    }
}

/// A league error for the command line: a refusal or a bad file is a usage
/// error (exit 2), anything else a failure.
fn refused(e: LeagueError) -> anyhow::Error {
    match e {
        LeagueError::Refused(_) | LeagueError::Config(_) => usage(e),
        // A full disk leaves a defined state: said with what to do.
        LeagueError::Store(rusqlite_error) if disk_full(&rusqlite_error) => anyhow::anyhow!(
            "{}; nothing half-recorded: the round stays open and plays on when `serve` or \
             `round` starts again once there is room (docs/leagues.md, \"What survives a crash\")",
            LeagueError::Store(rusqlite_error)
        ),
        other => other.into(),
    }
}

/// Whether SQLite said the disk is full.
fn disk_full(e: &whistle_league::store::SqlError) -> bool {
    e.sqlite_error_code() == Some(whistle_league::store::SqlErrorCode::DiskFull)
}

fn open(dir: &Path) -> anyhow::Result<(LeagueFile, Store)> {
    round::open(dir).map_err(refused)
}

/// The league in `dir`, its store opened read-only (the commands that only
/// read: they work beside a serving league and in a folder nobody can
/// write, and say so on stderr when it is such a folder).
fn open_read_only(dir: &Path) -> anyhow::Result<(LeagueFile, Store)> {
    let (file, store) = round::open_read_only(dir).map_err(refused)?;
    if store.frozen() || whistle_league::store::folder_is_read_only(dir) {
        eprintln!(
            "note: {} cannot be written: its store is opened read-only{}",
            dir.display(),
            if store.frozen() {
                ", as it is on disk"
            } else {
                ""
            }
        );
    }
    Ok((file, store))
}

/// The league folder's writer's lock for `command` (see
/// `whistle_league::lock`): a second writer is refused at once.
fn writer(dir: &Path, command: &str) -> anyhow::Result<whistle_league::lock::Writer> {
    round::holds_league(dir).map_err(refused)?;
    whistle_league::lock::acquire(dir, command).map_err(refused)
}

fn init(file: &Path, dir: &Path) -> anyhow::Result<String> {
    let league = LeagueFile::load(file).map_err(refused)?;
    let target = dir.join(LEAGUE_FILE);
    if target.exists() || dir.join(STORE_FILE).exists() {
        return Err(usage(format!("{} already holds a league", dir.display())));
    }
    std::fs::create_dir_all(dir)?;
    let _writer = whistle_league::lock::acquire(dir, "league init").map_err(refused)?;
    if target.exists() || dir.join(STORE_FILE).exists() {
        return Err(usage(format!("{} already holds a league", dir.display())));
    }
    std::fs::copy(file, &target)?;
    let mut store = Store::open(&dir.join(STORE_FILE))?;
    store.set_meta("name", &league.name)?;
    store.set_meta("game", &league.game)?;
    store.set_meta(round::BASE_META, &league.base.display().to_string())?;
    let seed_note = if league.seed_given.is_some() {
        let mut note = "warning: the file gives `seed`: every league made from this file deals \
                        the same cards (remove it and `init` draws a secret seed)\n"
            .to_string();
        if let Some(why) = league.seed_warning() {
            note.push_str(&format!("warning: {why}\n"));
        }
        note
    } else {
        store.set_meta(round::SEED_META, &round::draw_seed().to_hex())?;
        "a secret seed was drawn (256 bits): each round's seed is derived from it, its \
         commitment published before the round plays and the seed once it is closed \
         (`whistle league rounds`)\n"
            .to_string()
    };
    for r in &league.reference {
        store
            .add_bot(&r.name, None, Some(&r.command), true, None, false)
            .map_err(refused)?;
    }
    Ok(format!(
        "league {} ({}, {} seats a table) in {}: {} reference bot(s)\n{seed_note}",
        league.name,
        league.game,
        league.seats,
        dir.display(),
        league.reference.len()
    ))
}

fn add_bot(
    dir: &Path,
    name: &str,
    replaces: Option<&str>,
    command: &[String],
) -> anyhow::Result<String> {
    let (file, mut store) = open(dir)?;
    let token = whistle_referee::new_token("league");
    let inherit = file.new_version == whistle_league::config::NewVersion::Inherit;
    let command = (!command.is_empty()).then_some(command);
    let bot = store
        .add_bot(name, Some(&token), command, false, replaces, inherit)
        .map_err(refused)?;
    let how = if command.is_some() {
        "the league starts it in its rounds"
    } else {
        "it connects with its token"
    };
    Ok(format!(
        "bot {} added ({how}); rating {:.2} ± {:.2}\ntoken (shown once; the league keeps only its hash): {token}\n",
        bot.name, bot.mu, bot.sigma
    ))
}

fn play_round(dir: &Path, run: &crate::tournament::RunFlags) -> anyhow::Result<String> {
    crate::serve::init_logging(&run.log);
    let _writer = writer(dir, "league round")?;
    round::compress_closed(dir).map_err(refused)?;
    let prepared = round::prepare(dir).map_err(refused)?;
    if let Some(why) = &prepared.tournament.seed_warning {
        eprintln!("warning: {why}");
    }
    if let Some(note) = &prepared.note {
        eprintln!("round {}: {note}", prepared.number);
    }
    let opts = RunOptions {
        out: Some(prepared.dir.clone()),
        resume: true,
        reporter: Arc::new(Progress::new(run.progress)),
        drain: std::time::Duration::from_millis(run.drain_ms),
        plan: Some(prepared.plan.clone()),
        ..RunOptions::default()
    };
    let rt = run.runtime()?;
    let summary = rt.block_on(async {
        let opts = RunOptions {
            stop: Some(crate::signals::stop_on_signals("whistle league round")),
            ..opts
        };
        whistle_tournament::run(&prepared.tournament, &opts).await
    })?;
    // Whatever finished is recorded, stopped or not.
    let finished = round::finish(dir, &prepared)?;
    if summary.interrupted || !finished.complete {
        return Err(Interrupted(format!(
            "whistle league round: round {} stopped; {} of {} matches recorded \
             (the next `whistle league round --dir {}` plays it on)",
            prepared.number,
            finished.imported.recorded + finished.imported.known,
            prepared.plan.len(),
            dir.display()
        ))
        .into());
    }
    let (file, store) = open(dir)?;
    let mut out = format!(
        "round {}{}: {} match(es) at {} table(s), logs in {}\n",
        prepared.number,
        if prepared.resumed { " (resumed)" } else { "" },
        prepared.plan.len(),
        // A duplicate round's first set of deals is played at every table.
        prepared
            .plan
            .iter()
            .filter(|p| p.duplicate.is_none_or(|(set, _)| set == 0))
            .count(),
        prepared.dir.display()
    );
    out.push_str(&standings_text(&file, &store.standings()?));
    Ok(out)
}

/// The league's standings as CSV: the bots that played, ranked, then those
/// that did not (no rank). Numbers as the JSON has them; empty cells where
/// it has `null`.
fn standings_csv(rows: &[Standing]) -> String {
    // Names are valid bot names (no comma, quote or newline); a cell is
    // quoted all the same if it ever holds one.
    let cell = |t: String| {
        if t.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", t.replace('"', "\"\""))
        } else {
            t
        }
    };
    let mut out = String::from(
        "rank,bot,rating,sigma,low,high,matches,hands,points_per_hand,points_low,points_high,\
         faults,last_seen,retired,played\n",
    );
    let ranked = rows
        .iter()
        .filter(|r| r.played)
        .enumerate()
        .map(|(i, r)| (Some(i + 1), r));
    let idle = rows.iter().filter(|r| !r.played).map(|r| (None, r));
    for (rank, r) in ranked.chain(idle) {
        let opt = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
        let fields = [
            rank.map_or_else(String::new, |n| n.to_string()),
            cell(r.bot.clone()),
            r.rating.to_string(),
            r.uncertainty.to_string(),
            r.interval[0].to_string(),
            r.interval[1].to_string(),
            r.matches.to_string(),
            r.hands.to_string(),
            opt(r.points_per_hand),
            opt(r.points_interval.map(|i| i[0])),
            opt(r.points_interval.map(|i| i[1])),
            r.faults.to_string(),
            cell(r.last_seen.clone().unwrap_or_default()),
            r.retired.to_string(),
            r.played.to_string(),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

fn standings_text(file: &LeagueFile, rows: &[Standing]) -> String {
    let mut out = format!(
        "{} ({}): Weng-Lin rating μ ± σ (the interval is μ ± 2σ)\n",
        file.name, file.game
    );
    // The bot column is as wide as the longest name (names are at most 64
    // ASCII characters), so the numbers line up whatever the names.
    let w = rows.iter().map(|r| r.bot.len()).max().unwrap_or(0).max(20);
    let _ = writeln!(
        out,
        "{:<4} {:<w$} {:>7} {:>6}  {:<17} {:>7} {:>15}  {:>6}  last seen",
        "#", "bot", "rating", "σ", "interval", "matches", "points/hand", "faults"
    );
    for (i, r) in rows.iter().filter(|r| r.played).enumerate() {
        let pts = match (r.points_per_hand, r.points_interval) {
            (Some(m), Some([lo, hi])) => format!("{m:.2} [{lo:.1}, {hi:.1}]"),
            (Some(m), None) => format!("{m:.2}"),
            _ => "-".into(),
        };
        let _ = writeln!(
            out,
            "{:<4} {:<w$} {:>7.2} {:>6.2}  [{:>6.2}, {:>6.2}] {:>7} {:>15}  {:>6}  {}{}",
            i + 1,
            r.bot,
            r.rating,
            r.uncertainty,
            r.interval[0],
            r.interval[1],
            r.matches,
            pts,
            r.faults,
            r.last_seen.as_deref().unwrap_or("never"),
            if r.retired { " (retired)" } else { "" }
        );
    }
    // As a tournament's standings: the bots that played no rated match are
    // listed apart, unranked.
    let idle: Vec<String> = rows
        .iter()
        .filter(|r| !r.played)
        .map(|r| r.did_not_play(rows))
        .collect();
    if !idle.is_empty() {
        let _ = writeln!(
            out,
            "did not play (no rated match yet; not ranked): {}",
            idle.join(", ")
        );
    }
    out
}
