//! `whistle tournament`, `whistle merge` and `whistle bot`.

use std::path::PathBuf;

use std::sync::Arc;

use clap::Args;
use whistle_rules::dealing::WrittenSeed;
use whistle_tournament::{Reporter, RunEvent, RunOptions, Shard, Tournament, report};

use crate::{
    progress::{Mode, Progress},
    signals::Interrupted,
    usage,
};

/// Arguments of `whistle tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// The tournament file (TOML), e.g. tournaments/demo.toml.
    file: PathBuf,
    /// Output folder (default: the file's `out`, else `replays/<name>/`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue an interrupted run from the logs in the output folder.
    #[arg(long, conflicts_with = "overwrite")]
    resume: bool,
    /// Start afresh in an output folder an earlier run used: its match
    /// logs, bot logs, pages and standings are removed first (nothing else).
    #[arg(long)]
    overwrite: bool,
    /// Run only the slice `i/n` of the schedule (matches whose index is i mod n).
    /// Every shard needs the same seed: `--seed` or the file's.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// The tournament seed, in place of the file's: 64 hex digits (as a run
    /// prints it at its end: the same seed repeats a run exactly), or a
    /// number (searchable: warned of). Default: the file's `seed`, else one
    /// drawn from the operating system (a resumed run keeps the one its
    /// folder drew).
    #[arg(long, value_name = "SEED")]
    seed: Option<WrittenSeed>,
    #[command(flatten)]
    run: RunFlags,
}

/// How a run shows its progress, logs and stops (`whistle tournament`,
/// `whistle league round`).
#[derive(Debug, Args)]
pub struct RunFlags {
    /// Progress display on stderr.
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: Mode,
    /// Log filter for stderr (tracing syntax). Each fault, bot restart and
    /// table started short of a seat is logged at the target
    /// `whistle::detail`, off by default: the standings summarise them, one
    /// line a bot, and the match logs hold every fault (`--log warn` shows
    /// each as it happens).
    #[arg(long, default_value = "warn,whistle::detail=off")]
    pub log: String,
    /// On SIGTERM or Ctrl-C, how long tables may take to finish the hand in
    /// progress; the run then plays on from its logs where it stopped.
    #[arg(long, default_value_t = 10_000)]
    pub drain_ms: u64,
    /// Threads for the referee and the scheduler; 0: one per core. One
    /// suits bots that run on the same machine: it leaves them the other
    /// cores and wakes fewer threads (10,000 Israeli hands at 16 tables on
    /// 2 cores: 15.3 s against 18.1 s with one thread per core).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

impl RunFlags {
    /// The Tokio runtime `--threads` asks for.
    pub fn runtime(&self) -> std::io::Result<tokio::runtime::Runtime> {
        match self.threads {
            1 => tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build(),
            0 => tokio::runtime::Runtime::new(),
            n => tokio::runtime::Builder::new_multi_thread()
                .worker_threads(n)
                .enable_all()
                .build(),
        }
    }
}

/// Runs a tournament and returns its standings as text. Stopped by SIGTERM
/// or Ctrl-C, it drains (hands in progress finish, up to `--drain-ms`),
/// stops its bots, and fails with [`Interrupted`] (exit status 75): the
/// folder resumes with `--resume`.
pub fn run(args: &TournamentArgs) -> anyhow::Result<String> {
    crate::serve::init_logging(&args.run.log);
    let mut t = Tournament::load(&args.file).map_err(usage)?;
    if let Some(seed) = args.seed {
        t.set_seed(seed);
    }
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(usage)?;
    // Each finished match's viewer page is written while the others play
    // (not for a resumed run, whose seed may be the folder's).
    let ahead = (!args.resume).then(|| {
        Arc::new(PagesAhead {
            progress: Progress::new(args.run.progress),
            pages: std::sync::Mutex::new(None),
            seed: t.seed,
        })
    });
    let reporter: Arc<dyn Reporter> = match &ahead {
        Some(a) => a.clone(),
        None => Arc::new(Progress::new(args.run.progress)),
    };
    let opts = RunOptions {
        out: args.out.clone(),
        resume: args.resume,
        overwrite: args.overwrite,
        shard,
        reporter,
        stop: None,
        drain: std::time::Duration::from_millis(args.run.drain_ms),
        plan: None,
        referee: None,
        secrets: Vec::new(),
        launcher: None,
    };
    if !args.resume {
        eprint!("{}", size_note(&t));
    }
    if let Some(why) = &t.seed_warning {
        eprintln!("warning: {why}");
    }
    let rt = args.run.runtime()?;
    let summary = rt.block_on(async {
        let opts = RunOptions {
            stop: Some(crate::signals::stop_on_signals("whistle tournament")),
            ..opts
        };
        whistle_tournament::run(&t, &opts).await
    })?;
    if summary.interrupted {
        // A drawn seed stays in the folder; a given one must be given again
        // (it is not printed: it stays secret until the event is over).
        let seed = if args.seed.is_some() {
            " --seed <the same seed>"
        } else {
            ""
        };
        return Err(Interrupted(format!(
            "whistle tournament: stopped; {} of {} matches finished, logs in {} \
             (continue with `whistle tournament {} --out {} --resume{seed}`)",
            summary.finished,
            summary.planned,
            summary.out.display(),
            args.file.display(),
            summary.out.display()
        ))
        .into());
    }
    let mut out = report::text(&summary.results);
    if let Some(seed) = summary.results.seed {
        // Revealed now that play is over: it matches the commitment said at
        // the start, and repeats the run exactly.
        out.push_str(&format!(
            "seed {seed} (SHA-256 {}; the same deals again: `--seed {seed}`)\n",
            whistle_replay::seed_commitment(seed.seed())
        ));
    }
    for (name, reason) in &summary.withdrawn {
        out.push_str(&format!(
            "bot {name} was out of the event ({reason}); its remaining matches were forfeits\n"
        ));
    }
    if !summary.crashed.is_empty() {
        out.push_str(&format!(
            "bot processes that ended during the run (see their stderr logs): {}\n",
            summary.crashed.join(", ")
        ));
    }
    let written = ahead
        .and_then(|a| a.pages.lock().ok()?.take())
        .map(whistle_pages::report::Ahead::finish)
        .unwrap_or_default();
    whistle_pages::report::write_with(&summary.out, written)
        .map_err(|e| anyhow::anyhow!("report: {e}"))?;
    out.push_str(&format!(
        "written to {} (report.html, results.json, standings.md, standings.csv, matches/, viewer/, logs/)\n",
        summary.out.display()
    ));
    if !summary.withdrawn.is_empty() {
        let names: Vec<&str> = summary.withdrawn.iter().map(|(n, _)| n.as_str()).collect();
        return Err(crate::Unclean {
            output: out,
            why: format!(
                "whistle tournament: finished, but {} bot(s) were out of the event ({}); exit status {}",
                names.len(),
                names.join(", "),
                crate::EXIT_UNCLEAN
            ),
        }
        .into());
    }
    Ok(out)
}

/// Arguments of `whistle merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard output folders of one tournament.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where to write the merged logs and results.
    #[arg(long)]
    out: PathBuf,
}

/// The run's progress, and each finished match's viewer page written at
/// once on a thread of its own ([`whistle_pages::report::Ahead`]), so that
/// the end of the run writes only the report.
struct PagesAhead {
    progress: Progress,
    /// Started at the first finished match, in the folder its log is in.
    pages: std::sync::Mutex<Option<whistle_pages::report::Ahead>>,
    seed: whistle_rules::dealing::Seed,
}

impl Reporter for PagesAhead {
    fn report(&self, event: RunEvent) {
        if let RunEvent::Match { index, log } = &event
            && let Some(out) = log.parent().and_then(std::path::Path::parent)
            && let Ok(mut pages) = self.pages.lock()
        {
            pages
                .get_or_insert_with(|| whistle_pages::report::Ahead::start(out, self.seed))
                .finished(*index, log);
        }
        self.progress.report(event);
    }
}

/// Merges shard folders into one set of results.
pub fn merge(args: &MergeArgs) -> anyhow::Result<String> {
    let results = whistle_tournament::merge(&args.dirs, &args.out, &Progress::new(Mode::Quiet))?;
    whistle_pages::report::write(&args.out).map_err(|e| anyhow::anyhow!("report: {e}"))?;
    Ok(report::text(&results))
}

/// Round robins larger than this many matches are said to be huge, with
/// the budget format named as the way to fit a class.
pub const HUGE: usize = 5_000;

/// The event's size and how long it may take, said before play; a huge
/// round robin names the budget format.
fn size_note(t: &Tournament) -> String {
    use whistle_rules::Game as _;
    use whistle_tournament::config::Format;
    let plan = whistle_tournament::schedule::plan(t);
    let n = t.bots.len().max(1);
    let per_bot = plan.len() * t.seats / n;
    let hands: usize = t
        .options
        .get("hands")
        .and_then(|h| h.parse().ok())
        .unwrap_or(1);
    let deck = t.game.new_game(&t.options).map_or(52, |g| g.deck().len());
    // A card played and a call or two a seat, every hand.
    let decisions = plan.len() * hands * (deck + 2 * t.seats);
    let parallel = t.parallel.max(1);
    let worst = std::time::Duration::from_secs_f64(
        decisions as f64 * t.time.per_action.as_secs_f64() / parallel as f64,
    );
    // A budget says exactly what each bot plays; other formats their mean.
    let per_bot = match t.format {
        Format::Budget => match whistle_tournament::schedule::budget_counts(t) {
            (m, 0) => format!("every bot {m}"),
            (m, more) => format!(
                "every bot {m} or {}: {more} of the {n} bots play one more, as {} × {m} seats \
                 do not fill whole tables of {}",
                m + 1,
                n,
                t.seats
            ),
        },
        _ => format!("{per_bot} per bot"),
    };
    let mut out = format!(
        "{}: {} matches ({}, {} hand(s) each), about {} decisions, {} table(s) at once; \
         at most about {} if every decision took its whole {} ms clock (bots that answer in \
         milliseconds take far less)\n",
        t.name,
        plan.len(),
        per_bot,
        hands,
        decisions,
        parallel,
        human(worst),
        t.time.per_action.as_millis()
    );
    if plan.len() > HUGE
        && matches!(
            t.format,
            Format::RoundRobin | Format::Duplicate | Format::Gauntlet
        )
    {
        let budget = 6 * t.seats;
        let _ = std::fmt::Write::write_fmt(
            &mut out,
            format_args!(
                "warning: this {} is huge ({} matches, {}). For a class, `format = \"budget\"` \
                 with `matches_per_bot = {budget}` plays about {} matches: every bot the same number, \
                 opponents and seats spread evenly, each deal at several tables \
                 (docs/tournaments.md)\n",
                t.format.name(),
                plan.len(),
                per_bot,
                (n * budget).div_ceil(t.seats),
            ),
        );
    }
    out
}

/// A duration as people read it: `45 s`, `12 min`, `3.5 h`, `2.1 days`.
fn human(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 172_800.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(bots: usize, budget: u32) -> Tournament {
        let mut text = format!(
            "name = \"class\"\ngame = \"israeli\"\nseed = 1\nhands = 1\nformat = \"budget\"\n\
             matches_per_bot = {budget}\n"
        );
        for i in 0..bots {
            text.push_str(&format!("[[bots]]\nname = \"b{i}\"\ncommand = \"x\"\n"));
        }
        Tournament::parse(std::path::Path::new("class.toml"), &text).expect("a valid file")
    }

    /// Before play a budget event says what every bot plays: the same
    /// number where the seats fill whole tables, else which bots play one
    /// more and why.
    #[test]
    fn a_budget_says_before_play_what_every_bot_plays() {
        let note = size_note(&class(30, 8));
        assert!(
            note.starts_with("class: 60 matches (every bot 8, 1 hand(s) each)"),
            "{note}"
        );
        let note = size_note(&class(30, 3));
        assert!(
            note.starts_with(
                "class: 23 matches (every bot 3 or 4: 2 of the 30 bots play one more, as 30 × 3 \
                 seats do not fill whole tables of 4, 1 hand(s) each)"
            ),
            "{note}"
        );
    }
}
