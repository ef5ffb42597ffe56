//! `whistle replay verify | show`: settle disputes from the log alone.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use anyhow::{Context as _, bail};
use clap::{Args, Subcommand};
use prost::Message;
use rayon::prelude::*;
use whistle_replay::verify::{self, Context, Report};
use whistle_rules::{
    Event, Fallback, Game, MatchDriver, Player, Seat, Status,
    dealing::{Seed, WrittenSeed},
};

use crate::usage;

/// `whistle replay ...`
#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(subcommand)]
    command: ReplayCommand,
}

#[derive(Debug, Subcommand)]
enum ReplayCommand {
    /// Re-deal each hand from its seed, re-apply and re-judge every action,
    /// re-score, and check the hash chain and the seed commitment. Exit code
    /// 1 names the first mismatches (hand, step, both values).
    Verify(VerifyArgs),
    /// Print a hand trick by trick, or (with --hand, --step and --seat)
    /// exactly what one seat was sent at one decision (the request, in the
    /// form its protocol used: --stdio for a stdio bot), what it answered,
    /// and the referee's verdict and reason.
    Show(ShowArgs),
    /// Play one hand of a log again, same deal and same match so far, with
    /// live bots, and compare their decisions with the log's.
    Rerun(RerunArgs),
    /// Write a page (`DIR/index.html`, self-contained, works from file://)
    /// that steps through every hand as any seat saw it, with fallbacks and
    /// faults marked and the verifier's verdict.
    Html(HtmlArgs),
}

/// Arguments of `whistle replay html`.
#[derive(Debug, Args)]
pub struct HtmlArgs {
    /// A match log.
    file: PathBuf,
    /// The folder to write `index.html` to.
    #[arg(long)]
    out: PathBuf,
}

/// Arguments of `whistle replay rerun`.
#[derive(Debug, Args)]
pub struct RerunArgs {
    /// A match log.
    file: PathBuf,
    /// The hand (deal index) to play again.
    #[arg(long)]
    hand: u32,
    /// One bot per seat (cycled if fewer): a bundled bot name (random, first,
    /// heuristic, sampler), `cmd` for the bot command given after `--`
    /// (started as a tournament starts it, sandboxed, one process for all
    /// its seats), or `remote` to print that seat's token and wait for a bot
    /// to connect with it (the launch contract).
    #[arg(long, value_delimiter = ',', default_value = "heuristic")]
    bots: Vec<String>,
    /// Address for the referee (remote bots connect here).
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: std::net::SocketAddr,
    /// The `cmd` bot speaks JSON lines on stdin and stdout (docs/stdio.md).
    #[arg(long)]
    stdio: bool,
    /// The `cmd` bot's folder (default: its program's).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// More paths the `cmd` bot may read in its sandbox; repeat for several.
    #[arg(long)]
    read: Vec<PathBuf>,
    /// Run the `cmd` bot without a sandbox.
    #[arg(long)]
    no_sandbox: bool,
    /// The `cmd` bot's command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Arguments of `whistle replay verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Match logs (a folder stands for every `*.jsonl` or compressed `*.jsonl.gz` under its `matches/`,
    /// or in it).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The tournament seed, to check against the commitment. Default: the
    /// seed revealed in the tournament folder's results.json, if any. A
    /// number, or 64 hex digits (as results.json and `whistle tournament`
    /// print it).
    #[arg(long)]
    seed: Option<WrittenSeed>,
    /// Print the verdict on every action.
    #[arg(long)]
    steps: bool,
    /// Machine-readable output (one JSON document).
    #[arg(long)]
    json: bool,
}

/// Arguments of `whistle replay show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A match log.
    file: PathBuf,
    /// The hand (deal index, from 0); default every hand.
    #[arg(long)]
    hand: Option<u32>,
    /// With --step: the seat whose view to show (default: the seat acting at that step; a seat not asked then shows its view with no legal actions).
    #[arg(long)]
    seat: Option<usize>,
    /// The step (action index within the hand, from 0): show the observation
    /// just before that action, as the referee sent it.
    #[arg(long)]
    step: Option<usize>,
    /// With --step: print the observation as the hex of its protobuf encoding,
    /// byte for byte what the referee sent.
    #[arg(long)]
    raw: bool,
    /// With --step: the seat was a stdio bot (docs/stdio.md): show the
    /// `request` line it read. Without it, the request as a gRPC bot got it,
    /// in its JSON form. (The log does not record how a seat was connected.)
    #[arg(long)]
    stdio: bool,
    /// With --step: the step's document as one JSON object (request, answer,
    /// verdict, viewer link) for programs.
    #[arg(long)]
    json: bool,
}

/// Runs `whistle replay ...`. Returns the text and whether everything verified.
pub fn run(args: &ReplayArgs) -> anyhow::Result<(String, bool)> {
    match &args.command {
        ReplayCommand::Verify(a) => verify_cmd(a),
        ReplayCommand::Show(a) => show_checked(a),
        ReplayCommand::Rerun(a) => rerun(a).map(|t| (t, true)),
        ReplayCommand::Html(a) => html(a).map(|t| (t, true)),
    }
}

/// Writes the hand viewer of a log.
fn html(a: &HtmlArgs) -> anyhow::Result<String> {
    let Replayed { log, .. } = load(&a.file)?;
    let seed = revealed_seed(&a.file).map(WrittenSeed::seed);
    let report = verify::verify_file(
        &a.file,
        Context {
            tournament_seed: seed,
        },
    )
    .with_context(|| a.file.display().to_string())?;
    let m = whistle_pages::viewer::collect(&log, &report)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    std::fs::create_dir_all(&a.out)?;
    let page = a.out.join("index.html");
    std::fs::write(&page, whistle_pages::viewer_page(&m))?;
    Ok(format!(
        "{} ({} hand(s), {}) written\n",
        page.display(),
        m.hands.len(),
        if m.verified {
            "verified"
        } else {
            "NOT verified"
        }
    ))
}

fn expand(files: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for f in files {
        if f.is_dir() {
            let dir = if f.join("matches").is_dir() {
                f.join("matches")
            } else {
                f.clone()
            };
            let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
                .with_context(|| dir.display().to_string())?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.to_str()
                        .is_some_and(|n| n.ends_with(".jsonl") || n.ends_with(".jsonl.gz"))
                })
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(f.clone());
        }
    }
    Ok(out)
}

/// The seed revealed in `<tournament>/results.json` for a log at
/// `<tournament>/matches/<m>.jsonl`.
fn revealed_seed(log: &Path) -> Option<WrittenSeed> {
    /// Only the seed of results.json is read (the rest is skipped, not
    /// built).
    #[derive(serde::Deserialize)]
    struct Seeded {
        seed: Option<WrittenSeed>,
    }
    let dir = log.parent()?.parent()?;
    let text = std::fs::read_to_string(dir.join("results.json")).ok()?;
    serde_json::from_str::<Seeded>(&text).ok()?.seed
}

/// A hand result for people: summary, points, each seat's own points where
/// they differ from the team's (O16, O17), totals.
fn result_line(r: &whistle_rules::HandResult) -> String {
    if r.points.is_empty() {
        return "none yet (the hand is incomplete)".into();
    }
    let mut line = format!("{}; points {:?}", r.summary, r.points);
    if !r.seat_points.is_empty() {
        let _ = write!(line, "; seat points {:?}", r.seat_points);
    }
    let _ = write!(line, "; totals {:?}", r.totals);
    line
}

fn verify_cmd(a: &VerifyArgs) -> anyhow::Result<(String, bool)> {
    let files = expand(&a.files)?;
    if files.is_empty() {
        return Err(usage("no log files given"));
    }
    // One results.json a tournament folder, read once.
    let mut seeds: std::collections::HashMap<Option<PathBuf>, Option<WrittenSeed>> =
        Default::default();
    let seeded: Vec<(&PathBuf, Option<Seed>)> = files
        .iter()
        .map(|f| {
            let folder = f.parent().and_then(Path::parent).map(Path::to_path_buf);
            let revealed = *seeds.entry(folder).or_insert_with(|| revealed_seed(f));
            (f, a.seed.or(revealed).map(WrittenSeed::seed))
        })
        .collect();
    // The files are verified on every core (and each file's lines too:
    // `verify_file`). Each report is written out as soon as it is made and
    // dropped, so memory holds the output only; the outputs, and the first
    // file that cannot be read, come in the order of the files.
    let verified: Vec<anyhow::Result<(String, bool)>> = seeded
        .par_iter()
        .map(|&(f, seed)| verify_one(f, seed, a))
        .collect();
    let mut ok = true;
    let mut parts = Vec::with_capacity(verified.len());
    for v in verified {
        let (text, fine) = v?;
        ok &= fine;
        parts.push(text);
    }
    if a.json {
        return Ok((format!("[\n{}\n]\n", parts.join(",\n")), ok));
    }
    Ok((parts.concat(), ok))
}

/// One log verified, and its report as `verify` prints it (text, or one
/// JSON document with `--json`); with whether it verified.
fn verify_one(f: &Path, seed: Option<Seed>, a: &VerifyArgs) -> anyhow::Result<(String, bool)> {
    let r = verify::verify_file(
        f,
        Context {
            tournament_seed: seed,
        },
    )
    .with_context(|| f.display().to_string())?;
    if a.json {
        return Ok((serde_json::to_string_pretty(&r)?, r.ok()));
    }
    let mut out = String::new();
    write_report(&mut out, &r, a.steps);
    Ok((out, r.ok()))
}

/// One problem a verification found, as a line for people.
fn problem_line(p: &verify::Problem) -> String {
    let mut at = format!("line {}", p.line);
    if let Some(d) = p.deal {
        let _ = write!(at, ", hand {d}");
    }
    if let Some(s) = p.step {
        let _ = write!(at, ", step {s}");
    }
    format!(
        "{at}: {}: expected {}, found {}",
        p.what, p.expected, p.found
    )
}

/// One verification report as text.
fn write_report(out: &mut String, r: &Report, steps: bool) {
    {
        let typed_in = !r.sealed
            && r.hands
                .iter()
                .all(|h| !h.steps.is_empty() || h.result.is_some());
        if r.ok() {
            let mut checks = vec![format!("{} hands re-played", r.hands.len())];
            if r.sealed {
                checks.push("hash chain intact".into());
            }
            if r.seed_checked {
                checks.push("deals match the match seed".into());
            }
            if r.commitment_checked {
                checks.push("seed commitment holds".into());
            }
            let _ = writeln!(out, "{}: ok ({})", r.file, checks.join(", "));
        } else {
            let _ = writeln!(out, "{}: {} problem(s)", r.file, r.problems.len());
            for p in &r.problems {
                let _ = writeln!(out, "  {}", problem_line(p));
            }
        }
        // O16, O17: the team score is the rule's; each seat sees its own part.
        let own: Vec<&[i32]> = r
            .hands
            .iter()
            .filter_map(|h| h.result.as_ref())
            .map(|res| res.seat_points.as_slice())
            .filter(|p| !p.is_empty())
            .collect();
        if !own.is_empty() {
            let mut sums = vec![0; own.iter().map(|p| p.len()).max().unwrap_or(0)];
            for p in &own {
                for (s, v) in p.iter().enumerate() {
                    sums[s] += v;
                }
            }
            let _ = writeln!(
                out,
                "  own points per seat (each seat's O6 score; the team's are the totals): {sums:?} over {} hand(s)",
                own.len()
            );
        }
        if steps || (typed_in && !r.sealed) {
            for h in &r.hands {
                let _ = writeln!(out, "  hand {}:", h.deal);
                for s in &h.steps {
                    let fb = if s.fallback { " (fallback)" } else { "" };
                    let _ = writeln!(
                        out,
                        "    step {:>3}  seat {}  {:<14} {}{fb}",
                        s.index, s.seat, s.action, s.verdict
                    );
                }
                if let Some(res) = &h.result {
                    let _ = writeln!(out, "    result: {}", result_line(res));
                }
                if let Some(next) = &h.next {
                    let _ = writeln!(out, "    incomplete; next to act: {next}");
                }
            }
            if let Some(m) = &r.result {
                let _ = writeln!(out, "  match: totals {:?}, places {:?}", m.totals, m.ranks);
            }
        }
    }
}

/// A log and the match driver that plays it again.
struct Replayed {
    driver: MatchDriver<whistle_rules::AnyGame>,
    log: whistle_replay::MatchLog,
}

/// Reads a log the runner wrote, or a record typed in by a person (header
/// with the game only, hands by their cards and actions, an optional
/// context); the game starts from the first hand's context if it has one.
fn load(file: &Path) -> anyhow::Result<Replayed> {
    let log = match whistle_replay::read(file) {
        Ok(log) => log,
        Err(sealed) => whistle_replay::verify::read_typed_in(file)
            .map_err(|typed| anyhow::anyhow!("{sealed} (read as a typed-in record: {typed})"))?,
    };
    let game = log
        .header
        .game
        .parse::<whistle_rules::Variant>()
        .map_err(usage)?
        .new_game(&log.header.options)
        .map_err(usage)?;
    // The log says which actions were fallbacks; the driver's own fallback
    // rule is never asked here.
    let match_seed = log.end.as_ref().map_or(Seed::default(), |e| e.match_seed);
    let mut driver = MatchDriver::new(game, match_seed, Fallback::First);
    if let Some(ctx) = log.hands.first().and_then(|h| h.context.as_ref()) {
        driver
            .start_at(ctx)
            .map_err(|e| usage(format!("{}: context: {e}", file.display())))?;
    }
    Ok(Replayed { driver, log })
}

/// `replay show`: the log as far as it plays, after what `verify` finds
/// wrong with it (then the command fails, so a script notices).
fn show_checked(a: &ShowArgs) -> anyhow::Result<(String, bool)> {
    let report = verify::verify_file(&a.file, Context::default())
        .with_context(|| a.file.display().to_string())?;
    if report.problems.is_empty() {
        return show(a, &[]).map(|t| (t, true));
    }
    let mut out = format!(
        "{}: does not verify ({} problem(s)); shown as far as it plays:\n",
        a.file.display(),
        report.problems.len()
    );
    for p in &report.problems {
        let _ = writeln!(out, "  {}", problem_line(p));
    }
    match show(a, &report.problems) {
        Ok(text) => out.push_str(&text),
        Err(e) => {
            let _ = writeln!(out, "nothing more to show: {e:#}");
        }
    }
    Ok((out, false))
}

fn show(a: &ShowArgs, problems: &[verify::Problem]) -> anyhow::Result<String> {
    if a.seat.is_some() && a.step.is_none() {
        return Err(usage(
            "--seat needs --step (and --hand): it picks whose view of that step to show",
        ));
    }
    let Replayed { mut driver, log } = load(&a.file)?;
    if a.step.is_some() && a.hand.is_none() {
        return Err(usage("--step needs --hand"));
    }
    if let Some(h) = a.hand
        && log.hands.iter().all(|x| x.deal != h)
    {
        let have: Vec<String> = log.hands.iter().map(|x| x.deal.to_string()).collect();
        return Err(usage(format!(
            "no hand {h} in {} (its hands: {})",
            a.file.display(),
            if have.is_empty() {
                "none that can be read".to_string()
            } else {
                have.join(", ")
            }
        )));
    }
    let mut out = String::new();
    let mut asked = Requests::new(&log.header);
    for hand in &log.hands {
        if driver.game().status() != Status::Deal {
            bail!(
                "the log's hand {} does not follow a complete hand",
                hand.deal
            );
        }
        driver.deal_with(&hand.deck)?;
        let game = driver.game();
        let wanted = a.hand.is_none_or(|h| h == hand.deal);
        if wanted && a.step.is_none() {
            let _ = writeln!(out, "hand {} (dealer {})", hand.deal, game.dealer());
            for s in Seat::all(game.seats()) {
                let name = log.header.seats.get(s.index()).map_or("", |x| x);
                let name = if name.is_empty() {
                    String::new()
                } else {
                    format!(" ({name})")
                };
                let _ = writeln!(out, "  seat {s}{name}: {}", game.observe(s).hand);
            }
        }
        let mut line = String::new();
        let mut calls = String::new();
        if wanted && a.step.is_none() {
            // A dummy may lead the first trick as the cards are dealt.
            trick_events(game.log(), &mut line, &mut out);
        }
        for (i, act) in hand.actions.iter().enumerate() {
            let game = driver.game();
            asked.issue(game, &hand.faults, i);
            if wanted && a.step == Some(i) {
                let seat = a.seat.map_or(act.seat, Seat::new);
                if seat.index() >= game.seats() {
                    return Err(usage(format!(
                        "no such seat: {seat} ({} has {} seats, 0 to {})",
                        log.header.game,
                        game.seats(),
                        game.seats() - 1
                    )));
                }
                let obs = game.observe(seat);
                if a.raw {
                    let msg = whistle_protocol::convert::observation(&obs, game.hand_results());
                    let bytes = msg.encode_to_vec();
                    return Ok(bytes.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n");
                }
                return step_view(a, &log, hand, i, seat, game, &asked);
            }
            asked.answered(act, &hand.faults, i);
            let before = game.log().len();
            driver
                .apply(act.seat, act.action, act.fallback)
                .with_context(|| format!("hand {} step {i}", hand.deal))?;
            // Only the game's own log is read here.
            driver.take_events();
            let game = driver.game();
            if !wanted {
                continue;
            }
            let fb = if act.fallback { "*" } else { "" };
            if matches!(act.action, whistle_rules::Action::Play(_)) {
                if !calls.is_empty() {
                    let _ = writeln!(out, "  calls:{calls}");
                    calls.clear();
                }
                let _ = write!(line, " {}:{}{fb}", act.seat, act.action);
            } else {
                let _ = write!(calls, " {}:{}{fb}", act.seat, act.action);
            }
            trick_events(
                &game.log()[before.min(game.log().len())..],
                &mut line,
                &mut out,
            );
        }
        if wanted && a.step.is_some() {
            return Err(usage(format!(
                "hand {} has no step {} (its steps are 0 to {})",
                hand.deal,
                a.step.unwrap_or(0),
                hand.actions.len().saturating_sub(1)
            )));
        }
        if wanted {
            if !calls.is_empty() {
                let _ = writeln!(out, "  calls:{calls}");
            }
            if !line.is_empty() {
                let _ = writeln!(out, "  unfinished trick:{line}");
            }
            // Where the record stops being playable: the refused action.
            for p in problems.iter().filter(|p| p.deal == Some(hand.deal)) {
                if let Some(step) = p.step {
                    let _ = writeln!(
                        out,
                        "  step {step}: REFUSED {}: {} (play stops here)",
                        p.what, p.found
                    );
                }
            }
            let r = &hand.result;
            let _ = writeln!(out, "  result: {}", result_line(r));
            let _ = writeln!(out, "  (* marks a fallback played by the referee)");
            for f in &hand.faults {
                let _ = writeln!(
                    out,
                    "  fault: seat {} {} ({}) before step {}",
                    f.seat, f.kind, f.detail, f.at
                );
            }
        }
    }
    Ok(out)
}

/// The requests the referee issued, re-derived from the log as its table
/// issues them (`whistle-referee`'s `Table::issue`): one id a decision, from
/// 1, counted over the match, to each seat asked that has none pending and
/// has not forfeited (a forfeited seat's fallback is played unasked); each
/// states the whole decision time and the seat's bank then (the bank loses
/// what an answer took over the decision time, and all of it at a `late`
/// or `absent` fault).
struct Requests {
    next: u64,
    pending: std::collections::BTreeMap<Seat, u64>,
    forfeited: std::collections::BTreeSet<Seat>,
    /// Each seat's bank in microseconds.
    bank_us: Vec<u64>,
    per_action_us: u64,
    table: String,
}

impl Requests {
    fn new(h: &whistle_replay::Header) -> Requests {
        Requests {
            next: 1,
            pending: Default::default(),
            forfeited: Default::default(),
            bank_us: vec![h.clocks.time_bank_ms * 1000; h.seats.len().max(1)],
            per_action_us: h.clocks.per_action_ms * 1000,
            table: h.table.clone(),
        }
    }

    /// Before step `i`: the faults before it, then the requests the table
    /// issues for the seats now asked.
    fn issue(
        &mut self,
        game: &whistle_rules::AnyGame,
        faults: &[whistle_replay::FaultLog],
        i: usize,
    ) {
        for f in faults.iter().filter(|f| f.at == i) {
            if f.forfeited {
                self.forfeited.insert(f.seat);
            }
            if matches!(f.kind.as_str(), "late" | "absent")
                && let Some(b) = self.bank_us.get_mut(f.seat.index())
            {
                *b = 0;
            }
        }
        let to_act = game.to_act();
        if to_act.iter().any(|s| self.forfeited.contains(&s)) {
            return;
        }
        for s in to_act.iter() {
            if !self.pending.contains_key(&s) {
                self.pending.insert(s, self.next);
                self.next += 1;
            }
        }
    }

    /// Step `i` was applied: its seat's request is settled.
    fn answered(
        &mut self,
        act: &whistle_replay::ActionLog,
        _: &[whistle_replay::FaultLog],
        _: usize,
    ) {
        self.pending.remove(&act.seat);
        if !act.fallback {
            let took = (act.ms * 1000.0).round() as u64;
            if let Some(b) = self.bank_us.get_mut(act.seat.index()) {
                *b = b.saturating_sub(took.saturating_sub(self.per_action_us));
            }
        }
    }

    /// The request `seat` holds now, as the referee built it.
    fn request(
        &self,
        seat: Seat,
        game: &whistle_rules::AnyGame,
    ) -> Option<whistle_protocol::pb::DecisionRequest> {
        let id = *self.pending.get(&seat)?;
        let bank = self.bank_us.get(seat.index()).copied().unwrap_or(0);
        let msg = whistle_protocol::messages::request(
            id,
            &game.observe(seat),
            game.hand_results(),
            &game.legal_actions(seat),
            std::time::Duration::from_micros(self.per_action_us),
            std::time::Duration::from_micros(bank),
        );
        match msg.msg {
            Some(whistle_protocol::pb::referee_message::Msg::Request(r)) => Some(r),
            _ => None,
        }
    }
}

/// `replay show --hand --step --seat`: what the seat was sent, what it
/// answered, and the referee's verdict with its reason.
fn step_view(
    a: &ShowArgs,
    log: &whistle_replay::MatchLog,
    hand: &whistle_replay::HandLog,
    i: usize,
    seat: Seat,
    game: &whistle_rules::AnyGame,
    asked: &Requests,
) -> anyhow::Result<String> {
    let act = &hand.actions[i];
    let request = asked.request(seat, game);
    let sent = request.as_ref().map(|r| {
        if a.stdio {
            whistle_tournament::stdio::request_line(&asked.table, seat.index() as u32, r)
        } else {
            serde_json::to_string(r).unwrap_or_default()
        }
    });
    let legal = game.legal_actions(seat);
    // What the seat answered, and the verdict: a fault of this seat at this
    // step (its answer re-judged now), or the action it played.
    let faults: Vec<&whistle_replay::FaultLog> = hand
        .faults
        .iter()
        .filter(|f| f.at == i && f.seat == seat)
        .collect();
    let mut answers = Vec::new();
    let mut verdicts = Vec::new();
    for f in &faults {
        let given = match &f.answer {
            Some(whistle_rules::Answer::Index(n)) => match legal.get(*n as usize) {
                Some(x) => format!("index {n} (`{x}`)"),
                None => format!("index {n}"),
            },
            Some(whistle_rules::Answer::Text(t)) => {
                format!("`{}`", whistle_protocol::limits::truncate(t, 40))
            }
            Some(other) => whistle_protocol::limits::truncate(&format!("{other:?}"), 60),
            None => "nothing in time".to_string(),
        };
        let reason = match &f.answer {
            Some(ans) => match whistle_rules::judge(game, seat, ans) {
                Err(r) => r.to_string(),
                Ok(_) => f.detail.clone(),
            },
            None => f.detail.clone(),
        };
        let reason = whistle_pages::viewer::with_rule_id(&log.header.game, reason);
        let fallback = f.fallback.map_or(String::new(), |x| {
            format!("; the referee played its fallback `{x}`")
        });
        answers.push(given.clone());
        verdicts.push(format!(
            "sent {given}: refused ({}): {reason}{fallback}",
            f.kind
        ));
    }
    if act.seat == seat && !act.fallback {
        answers.push(format!("`{}`", act.action));
        verdicts.push(format!(
            "sent `{}` after {:.1} ms: accepted, a legal action",
            act.action, act.ms
        ));
    } else if act.seat == seat && faults.is_empty() {
        verdicts.push(format!(
            "the referee played the fallback `{}` (the seat had forfeited)",
            act.action
        ));
    } else if act.seat != seat && faults.is_empty() {
        verdicts.push(format!(
            "this step is seat {}'s (`{}`){}",
            act.seat,
            act.action,
            if request.is_some() {
                "; this seat's request was still open"
            } else {
                "; this seat was not asked"
            }
        ));
    }
    let link = viewer_link(&a.file, hand.deal, i, seat);
    if a.json {
        let doc = serde_json::json!({
            "hand": hand.deal,
            "step": i,
            "seat": seat.index(),
            "bot": log.header.seats.get(seat.index()),
            "protocol": if a.stdio { "stdio" } else { "grpc" },
            "sent": sent.as_ref().and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok()),
            // The seat's view at this step, asked or not, in the protocol's
            // JSON form (a request's `observation`).
            "observation": serde_json::to_value(whistle_protocol::convert::observation(
                &game.observe(seat),
                game.hand_results(),
            ))?,
            "legal": legal.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            "answered": answers,
            "verdict": verdicts,
            "played": {
                "seat": act.seat.index(),
                "action": act.action.to_string(),
                "fallback": act.fallback,
            },
            "viewer": link,
        });
        return Ok(serde_json::to_string_pretty(&doc)? + "\n");
    }
    let mut out = String::new();
    let bot = log.header.seats.get(seat.index()).map_or("", |x| x);
    let _ = writeln!(
        out,
        "hand {} step {i}, seat {seat}{}",
        hand.deal,
        if bot.is_empty() {
            String::new()
        } else {
            format!(" ({bot})")
        }
    );
    match &sent {
        Some(line) if a.stdio => {
            let _ = writeln!(out, "sent (the `request` line the stdio bot read):\n{line}");
        }
        Some(line) => {
            let _ = writeln!(
                out,
                "sent (the DecisionRequest in its JSON form; a kit with compact requests \
                 got it as a delta and rebuilt this; a stdio bot: --stdio):\n{line}"
            );
        }
        // No request: the seat was not asked, or (a fault with no answer
        // at its own turn) its bot was not connected to be asked; what it
        // answered, nothing, is the verdict's line below.
        None if faults.iter().any(|f| f.answer.is_none()) => {
            let _ = writeln!(
                out,
                "request: none: the seat's bot was not connected when it was asked"
            );
        }
        None => {
            let _ = writeln!(out, "request: none: the seat was not asked at this step");
        }
    }
    for v in &verdicts {
        let _ = writeln!(out, "{v}");
    }
    let _ = writeln!(out, "viewer: {link}");
    Ok(out)
}

/// The viewer's address for a step (docs/replay-format.md, "Viewer links"):
/// the tournament's `viewer/<match>.html` beside `matches/`, else the page
/// `replay html` writes; `#hand=H&step=S&seat=N` opens it there.
fn viewer_link(file: &Path, deal: u32, step: usize, seat: Seat) -> String {
    let hash = format!("#hand={deal}&step={step}&seat={}", seat.index());
    let name = file.file_name().and_then(|n| n.to_str()).map(|n| {
        n.trim_end_matches(".gz")
            .trim_end_matches(".jsonl")
            .to_string()
    });
    let page = file
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n == "matches"))
        .and_then(Path::parent)
        .zip(name)
        .map(|(dir, name)| dir.join("viewer").join(format!("{name}.html")))
        .filter(|p| p.is_file());
    match page {
        Some(p) => format!("{}{hash}", p.display()),
        None => format!(
            "DIR/index.html{hash} (after `whistle replay html {} --out DIR`)",
            file.display()
        ),
    }
}

/// Adds the dummy's cards to the trick line and prints each completed trick.
fn trick_events(events: &[whistle_rules::LogEntry], line: &mut String, out: &mut String) {
    for e in events {
        match e.event {
            Event::DummyPlay { card } => {
                let _ = write!(line, " dummy:{card}");
            }
            Event::TrickWon { index, winner } => {
                let who = match winner {
                    Player::Seat(s) => s.to_string(),
                    Player::Dummy => "dummy".into(),
                };
                let _ = writeln!(out, "  trick {:>2}:{line}  → {who}", index + 1);
                line.clear();
            }
            _ => {}
        }
    }
}

/// Plays hand `a.hand` of the log again with live bots: the hands before it
/// are replayed silently (same totals, same dealer), the hand is dealt the
/// logged deck, and the bots' decisions are compared with the log's.
fn rerun(a: &RerunArgs) -> anyhow::Result<String> {
    use whistle_bot::{bot_by_name, bot_seed, client};
    use whistle_referee::{Referee, Resume, TableRecord, TableSpec};

    let log = whistle_replay::read(&a.file).map_err(|e| anyhow::anyhow!("{e}"))?;
    let variant: whistle_rules::Variant = log.header.game.parse().map_err(usage)?;
    let Some(target) = log.hands.iter().position(|h| h.deal == a.hand) else {
        return Err(usage(format!("no hand {} in {}", a.hand, a.file.display())));
    };
    let seats = variant
        .new_game(&log.header.options)
        .map_err(usage)?
        .seats();
    let names: Vec<String> = (0..seats)
        .map(|i| a.bots[i % a.bots.len()].clone())
        .collect();
    for n in &names {
        if n != "remote" && n != CMD {
            bot_by_name(n, Seed::default()).map_err(usage)?;
        }
    }
    let with_cmd = names.iter().any(|n| n == CMD);
    if with_cmd && a.command.is_empty() {
        return Err(usage("a seat is `cmd`: give the bot's command after `--`"));
    }
    if !with_cmd && !a.command.is_empty() {
        return Err(usage("a command is given but no seat is `cmd` (--bots)"));
    }
    let match_seed = log.end.as_ref().map_or(Seed::default(), |e| e.match_seed);
    let mut resume = Resume {
        faults: vec![0; seats],
        forfeited: vec![false; seats],
        ..Resume::default()
    };
    for h in &log.hands[..target] {
        resume
            .actions
            .extend(h.actions.iter().map(|x| (x.seat, x.action, x.fallback)));
    }
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut spec = TableSpec::new(variant, match_seed, &name_refs);
    spec.options = log.header.options.clone();
    spec.deals = log.hands[..=target]
        .iter()
        .map(|h| h.deck.clone())
        .collect();
    resume.deals = spec.deals.clone();
    if target > 0 {
        spec.resume = Some(resume);
    }
    let rt = tokio::runtime::Runtime::new()?;
    let original = &log.hands[target];
    let stderr_dir = tempfile::tempdir()?;
    let stderr_path = stderr_dir.path().join("cmd.stderr");
    let (played, result, faults) = rt.block_on(async {
        let referee = Referee::new(None);
        let (addr, server) = referee.spawn(a.listen).await?;
        let cmd_token = with_cmd.then(|| referee.register_bot(CMD, None));
        let mut table = referee.create_table(spec)?;
        let process = match &cmd_token {
            Some(token) => Some(
                crate::check_bot::start(
                    &crate::check_bot::Process {
                        name: CMD,
                        command: &a.command,
                        dir: a.dir.as_deref(),
                        read: &a.read,
                        sandbox: !a.no_sandbox,
                        stdio: a.stdio,
                    },
                    &referee,
                    &addr.to_string(),
                    token,
                    &stderr_path,
                )
                .await?,
            ),
            None => None,
        };
        let channel = client::channel(&addr.to_string()).await?;
        for (s, n) in names.iter().enumerate() {
            let token = table.tokens[s].clone();
            if n == "remote" {
                eprintln!("seat {s}: connect to http://{addr} with WHISTLE_TOKEN={token}");
                continue;
            }
            if n == CMD {
                continue;
            }
            let bot = bot_by_name(n, bot_seed(match_seed, s)).expect("checked");
            let channel = channel.clone();
            tokio::spawn(async move { client::play_seat(channel, &token, "rerun", bot).await });
        }
        let mut played = Vec::new();
        let mut result = None;
        let mut faults = Vec::new();
        while let Some(r) = table.records.recv().await {
            match r {
                TableRecord::Action { seat, action, .. } => played.push((seat, action)),
                TableRecord::Fault(f) => faults.push(format!(
                    "seat {} {}: {}{}",
                    f.seat,
                    f.kind,
                    f.detail,
                    f.fallback
                        .map_or(String::new(), |x| format!("; fallback `{x}`"))
                )),
                TableRecord::Hand(h) if h.deal == a.hand => {
                    result = Some(h);
                    break;
                }
                TableRecord::Aborted { reason } => bail!("the table aborted: {reason}"),
                TableRecord::End { .. } => break,
                _ => {}
            }
        }
        if let Some(p) = process {
            referee.retire_bot(CMD);
            p.stop().await;
        }
        server.shutdown().await;
        anyhow::Ok((played, result, faults))
    })?;
    let mut out = format!(
        "hand {} of {} replayed with {}\n",
        a.hand,
        a.file.display(),
        names.join(",")
    );
    let mut diverged = None;
    for (k, orig) in original.actions.iter().enumerate() {
        let now = played.get(k);
        let same = now == Some(&(orig.seat, orig.action));
        if !same && diverged.is_none() {
            diverged = Some(k);
        }
        let _ = writeln!(
            out,
            "  step {k:>3}  seat {}  log {:<12} rerun {:<12}{}",
            orig.seat,
            orig.action.to_string(),
            now.map_or("-".to_string(), |x| x.1.to_string()),
            if same { "" } else { "  <- differs" }
        );
        if !same {
            break;
        }
    }
    match diverged {
        None => {
            let _ = writeln!(out, "every decision of the log was made again");
        }
        Some(k) => {
            let _ = writeln!(out, "first difference at step {k}");
        }
    }
    let _ = writeln!(
        out,
        "log:   {}; points {:?}",
        original.result.summary, original.result.points
    );
    if let Some(r) = result {
        let _ = writeln!(out, "rerun: {}; points {:?}", r.summary, r.points);
    }
    for f in &faults {
        let _ = writeln!(out, "fault in the rerun: {f}");
    }
    if with_cmd {
        // Read from its end only, each line cut: bounded whatever it wrote.
        let lines = crate::check_bot::stderr_lines(&stderr_path, None);
        if !lines.is_empty() {
            let _ = writeln!(out, "the cmd bot's stderr ends:");
            for l in lines {
                let _ = writeln!(out, "  | {l}");
            }
        }
    }
    Ok(out)
}

/// The name of the seats `replay rerun` gives to the command after `--`.
const CMD: &str = "cmd";
