//! Tournament files (TOML): what they hold, and errors that name the key and
//! the line.
//!
//! ```toml
//! name = "demo"
//! game = "israeli"
//! # seed = "9f0c…"           # 64 hex digits; default: drawn from the operating
//!                             # system, committed to at the start, revealed at the end
//! format = "round-robin"      # round-robin | duplicate | gauntlet | movement | budget
//! seatings = "rotations"      # rotations | permutations (games where each seat plays for itself)
//!                             # | whole-partnerships (partnership games: a bot plays both seats of its side)
//! hands = 4                   # hands per match (the game's `hands` option)
//! rounds = 1                  # repeat the schedule with fresh deals
//! parallel = 4                # tables at once
//! # out = "replays/demo"      # default: replays/<name>/ in the file's folder (its parent's for tournaments/)
//! # listen = "127.0.0.1:0"    # where bots connect; remote bots need a reachable address
//! # challenger = "heuristic"  # gauntlet only
//!
//! [options]                   # any game option
//! target = 300
//!
//! [time]
//! per_action_ms = 1000
//! time_bank_ms = 10000
//! reconnect_grace_ms = 5000
//! start_timeout_ms = 30000
//!
//! [faults]
//! max_faults = 10
//! fallback = "passive"        # passive | first | random
//!
//! [[bots]]
//! name = "random"
//! command = ["whistle", "bot", "--bot", "random"]
//!
//! [[bots]]
//! name = "alice"
//! remote = true               # connects by itself with its token
//! token = "bot-alice-secret"  # required for a remote bot: the secret it connects with
//! ```

use std::{
    collections::BTreeMap,
    fmt,
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use serde::Deserialize;
use toml::Spanned;
use whistle_protocol::limits::check_name;
use whistle_referee::{Fallback, FaultPolicy, TimeControl};
use whistle_rules::{
    Game, Options, Variant,
    dealing::{Seed, WrittenSeed},
};
use whistle_sandbox::Limits;

/// A tournament file that cannot be used: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line, if known.
    pub line: Option<usize>,
    /// The key concerned, if known.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if let Some(k) = &self.key {
            write!(f, ": key `{k}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// The tournament formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Every group of k bots, every seat rotation, fresh deals for each match.
    RoundRobin,
    /// Every group, every rotation, the same deals for all rotations of a group.
    Duplicate,
    /// One bot (the challenger) against every group of the others.
    Gauntlet,
    /// Each set of deals is played at several tables at once by disjoint
    /// tables of bots, as a bridge pairs movement: no bot holds a deal
    /// twice, and each seat is compared with the others who held the same
    /// cards. For bots that cannot be given fresh instances (remote ones).
    Movement,
    /// A budget: every bot plays exactly `matches_per_bot` matches (or one
    /// more, where the bots' seats do not fill whole tables), whatever the
    /// field's size. Sessions seat the bots at tables of k, the least-met
    /// bots together (as a league pairs its rounds); each session plays k
    /// sets of deals, each set at every table, seats rotating, so a bot
    /// sits in every seat once a session; the budget's rest is played set
    /// by set. A bot holds no deal twice and is compared on the same cards
    /// with the other tables.
    Budget,
}

impl Format {
    /// The format's name in files.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Duplicate => "duplicate",
            Format::Gauntlet => "gauntlet",
            Format::Movement => "movement",
            Format::Budget => "budget",
        }
    }
}

/// How the bots of a group are seated at its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Seatings {
    /// The k rotations of the group's order: every bot in every seat once.
    #[default]
    Rotations,
    /// All k! orders: every bot in every seat with every arrangement of the
    /// others around it, so who sits before and after whom cancels out too.
    Permutations,
    /// Partnership games: each bot makes up a whole partnership (it plays
    /// both seats of its side) and every two bots meet, each side in every
    /// team position; a bot's result is then its own, not a split's.
    WholePartnerships,
}

impl Seatings {
    /// The name in files.
    pub fn name(self) -> &'static str {
        match self {
            Seatings::Rotations => "rotations",
            Seatings::Permutations => "permutations",
            Seatings::WholePartnerships => "whole-partnerships",
        }
    }
}

/// At most this many seats for `seatings = "permutations"` (720 tables per group).
pub const MAX_PERMUTED_SEATS: usize = 6;

/// A bot the runner starts: its command and its sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalBot {
    /// Program and arguments. The program `whistle` means the running
    /// `whistle` binary.
    pub command: Vec<String>,
    /// Its folder (`dir`): its working directory, readable in its sandbox.
    /// `None`: its program's folder (see [`LocalBot::folder`]).
    pub dir: Option<PathBuf>,
    /// More paths it may read in its sandbox (`read`), such as a virtual
    /// environment and the interpreter it links to.
    pub read: Vec<PathBuf>,
    /// `false` only where the organiser opted out (`sandbox = false`).
    pub sandbox: bool,
    /// Its limits: the file's `[sandbox]` table with its own `limits` over it.
    pub limits: Limits,
    /// `stdio = true`: the bot speaks JSON lines on stdin and stdout and
    /// whistle speaks gRPC for it (docs/stdio.md).
    pub stdio: bool,
}

impl LocalBot {
    /// The bot's folder: `dir` when given; else the folder of its program:
    /// the running binary's for `whistle`; the program's when it is named
    /// by a path outside a `bin` folder (`bots/run.sh`: `bots/`); else the
    /// script an interpreter runs (`python3 bots/mine.py`,
    /// `venv/bin/python bots/mine.py`: `bots/`), resolved against `base`
    /// (the tournament file's folder); else the folder `PATH` finds the
    /// program in.
    pub fn folder(&self, base: &Path) -> PathBuf {
        if let Some(d) = &self.dir {
            return d.clone();
        }
        let first = &self.command[0];
        if first == "whistle" {
            if let Some(dir) = std::env::current_exe()
                .ok()
                .and_then(|p| p.parent().map(Path::to_path_buf))
            {
                return dir;
            }
        }
        // The program when it is a path; else the first argument that names
        // a file (the script an interpreter runs), else one that looks like
        // a path.
        // (A word with spaces is a shell's command line, `sh -c 'cc …'`.)
        let path_like = |w: &&String| {
            Path::new(w.as_str()).components().count() > 1
                && !w.starts_with('-')
                && !w.contains(char::is_whitespace)
        };
        // (An interpreter named by path, `venv/bin/python`, is a runtime:
        // its script decides.)
        let in_bin = Path::new(first.as_str())
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "bin");
        let named = Some(first)
            .filter(|w| path_like(w) && !in_bin)
            .or_else(|| {
                self.command[1..]
                    .iter()
                    .find(|w| !w.starts_with('-') && base.join(w.as_str()).is_file())
            })
            .or_else(|| self.command[1..].iter().find(path_like));
        if let Some(w) = named {
            let p = base.join(w);
            return p
                .parent()
                .map_or_else(|| base.to_path_buf(), Path::to_path_buf);
        }
        // A program found in `PATH` (`false`, `my-installed-bot`): its folder.
        std::env::var("PATH")
            .ok()
            .and_then(|path| whistle_sandbox::which(first, &path))
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| base.to_path_buf())
    }
}

/// How a bot takes part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotKind {
    /// The runner starts this program (with the launch contract's environment).
    Local(LocalBot),
    /// The bot connects by itself with this token.
    Remote {
        /// Its bot token.
        token: String,
    },
}

/// One bot of the tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSpec {
    /// Its unique name.
    pub name: String,
    /// How it takes part.
    pub kind: BotKind,
}

/// A tournament, read and checked.
#[derive(Debug, Clone)]
pub struct Tournament {
    /// The file it came from.
    pub path: PathBuf,
    /// Its name (also the default output folder's name).
    pub name: String,
    /// The game.
    pub game: Variant,
    /// Game options, with `hands` set from the file's `hands`.
    pub options: Options,
    /// The tournament seed.
    pub seed: Seed,
    /// The seed as written: the file's or `--seed`'s as given, a drawn one
    /// in full. What `results.json` reveals once play is over.
    pub written_seed: WrittenSeed,
    /// Whether the seed was drawn from the operating system (neither the
    /// file nor the command line gave one). A run keeps a drawn seed in its
    /// output folder ([`crate::layout::SEED_FILE`]), and a resumed run
    /// reads it back from there rather than drawing anew.
    pub seed_drawn: bool,
    /// Why the seed can be searched, when it can ([`seed_warning`]): said
    /// at the start of the run and kept in the results' notes.
    pub seed_warning: Option<String>,
    /// The format.
    pub format: Format,
    /// How a group's bots are seated.
    pub seatings: Seatings,
    /// Repetitions of the schedule, each with fresh deals.
    pub rounds: u32,
    /// A budget event's matches per bot (exactly, or one more where the
    /// bots' seats do not fill whole tables: `schedule::budget_counts`).
    pub matches_per_bot: Option<u32>,
    /// Tables at once.
    pub parallel: usize,
    /// Output folder.
    pub out: PathBuf,
    /// Where the referee listens.
    pub listen: SocketAddr,
    /// The gauntlet's challenger (index into `bots`).
    pub challenger: Option<usize>,
    /// Clocks.
    pub time: TimeControl,
    /// How long a table waits for its seats.
    pub start_timeout: Duration,
    /// Fault policy.
    pub faults: FaultPolicy,
    /// The bots.
    pub bots: Vec<BotSpec>,
    /// Seats per table.
    pub seats: usize,
    /// The team of each seat (from the game): all different in individual
    /// games, pairs in partnership games, one team in cooperative games.
    pub teams: Vec<u8>,
    /// The default limits of sandboxed bots (`[sandbox]`).
    pub sandbox: Limits,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Spanned<String>,
    game: Spanned<String>,
    seed: Option<Spanned<WrittenSeed>>,
    format: Option<Spanned<String>>,
    seatings: Option<Spanned<String>>,
    hands: Option<Spanned<u32>>,
    rounds: Option<Spanned<u32>>,
    matches_per_bot: Option<Spanned<u32>>,
    parallel: Option<Spanned<usize>>,
    out: Option<String>,
    listen: Option<Spanned<String>>,
    challenger: Option<Spanned<String>>,
    #[serde(default)]
    options: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    time: RawTime,
    #[serde(default)]
    faults: RawFaults,
    sandbox: Option<Spanned<toml::Table>>,
    bots: Vec<Spanned<RawBot>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTime {
    per_action_ms: Option<u64>,
    time_bank_ms: Option<u64>,
    reconnect_grace_ms: Option<u64>,
    start_timeout_ms: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFaults {
    max_faults: Option<Spanned<u32>>,
    fallback: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: Spanned<String>,
    command: Option<Spanned<Command>>,
    #[serde(default)]
    remote: bool,
    token: Option<Spanned<String>>,
    dir: Option<Spanned<String>>,
    #[serde(default)]
    read: Vec<String>,
    sandbox: Option<Spanned<bool>>,
    limits: Option<Spanned<toml::Table>>,
    stdio: Option<Spanned<bool>>,
}

/// `over` read as [`Limits`] on top of `base`.
fn limits_over(base: &Limits, over: &toml::Table) -> Result<Limits, String> {
    let mut t = toml::Table::new();
    for (k, v) in base.fields() {
        t.insert(k.into(), toml::Value::Integer(v as i64));
    }
    t.insert("cpus".into(), toml::Value::Float(base.cpus.get()));
    for (k, v) in over {
        t.insert(k.clone(), v.clone());
    }
    let limits: Limits = toml::Value::Table(t)
        .try_into()
        .map_err(|e: toml::de::Error| {
            format!(
                "{} (the limits are {})",
                e.message().trim(),
                Limits::NAMES.join(", ")
            )
        })?;
    limits.check()?;
    Ok(limits)
}

#[derive(Debug, Deserialize)]
#[serde(untagged, expecting = "expected a string or an array of strings")]
enum Command {
    Line(String),
    Words(Vec<String>),
}

/// The dotted key a TOML error at `line` (1-based) concerns: the key assigned
/// on that line, or on the nearest line above (a value spanning lines), under
/// the nearest table header above it; for a table header line, that table.
fn key_at(source: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = source.lines().collect();
    let mut key: Option<&str> = None;
    let mut table: Option<&str> = None;
    for text in lines[..line.min(lines.len())].iter().rev() {
        let t = text.trim();
        if t.starts_with('[') {
            table = Some(t.trim_matches(|c| c == '[' || c == ']').trim());
            break;
        }
        if key.is_none() {
            if let Some((k, _)) = t.split_once('=') {
                let k = k.trim();
                let plausible = !k.is_empty()
                    && k.chars().all(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | '\'' | ' ')
                    });
                if plausible && !t.starts_with('#') {
                    key = Some(k);
                }
            }
        }
    }
    match (table, key) {
        (Some(t), Some(k)) => Some(format!("{t}.{k}")),
        (None, Some(k)) => Some(k.to_string()),
        (Some(t), None) => Some(t.to_string()),
        (None, None) => None,
    }
}

/// The key of a `toml` deserialization error: a missing field is named by
/// the message (under the table whose header the error points at); anything
/// else by where it points.
fn key_of_toml_error(source: &str, line: Option<usize>, message: &str) -> Option<String> {
    let field = message
        .strip_prefix("missing field `")
        .and_then(|m| m.split_once('`'))
        .map(|(f, _)| f);
    match (field, line) {
        (Some(f), Some(l)) => {
            let header = source.lines().nth(l - 1).map(str::trim);
            match header.filter(|h| h.starts_with('[')) {
                Some(h) => Some(format!(
                    "{}.{f}",
                    h.trim_matches(|c| c == '[' || c == ']').trim()
                )),
                None => Some(f.to_string()),
            }
        }
        (Some(f), None) => Some(f.to_string()),
        (None, Some(l)) => key_at(source, l),
        (None, None) => None,
    }
}

fn line_of(source: &str, offset: usize) -> usize {
    source[..offset.min(source.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// The file being read, for errors that name the line of a span.
struct Source<'a> {
    path: &'a Path,
    source: &'a str,
}

impl Source<'_> {
    /// An error at `span` (its line), about `key` (none if empty).
    fn err(&self, span: Option<std::ops::Range<usize>>, key: &str, message: String) -> ConfigError {
        ConfigError {
            path: self.path.to_path_buf(),
            line: span.map(|s| line_of(self.source, s.start)),
            key: (!key.is_empty()).then(|| key.to_string()),
            message,
        }
    }
}

/// What the file's top says about the game: the event's name, the game,
/// its options (`[options]` and `hands`) and its table.
struct GameSpec {
    name: String,
    game: Variant,
    options: Options,
    seats: usize,
    teams: Vec<u8>,
}

/// Reads `name`, `game`, `[options]` and `hands`.
fn read_game(src: &Source<'_>, raw: &RawFile) -> Result<GameSpec, ConfigError> {
    let name = raw.name.get_ref().trim().to_string();
    if let Err(why) = check_name(&name) {
        return Err(src.err(
            Some(raw.name.span()),
            "name",
            format!("{why} (the name names the output folder)"),
        ));
    }
    let game: Variant = raw
        .game
        .get_ref()
        .parse()
        .map_err(|e: whistle_rules::OptionError| {
            src.err(Some(raw.game.span()), "game", e.to_string())
        })?;
    let mut options = Options::new();
    for (k, v) in &raw.options {
        let text = match v.get_ref() {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            toml::Value::Float(f) => f.to_string(),
            _ => {
                return Err(src.err(
                    Some(v.span()),
                    &format!("options.{k}"),
                    "an option value must be a string, number or boolean".into(),
                ));
            }
        };
        options.set(k, &text);
    }
    if let Some(h) = &raw.hands {
        if options.get("hands").is_some() {
            return Err(src.err(
                Some(h.span()),
                "hands",
                "give `hands` or `options.hands`, not both".into(),
            ));
        }
        options.set("hands", &h.get_ref().to_string());
    }
    let probe = game.new_game(&options).map_err(|e| {
        let key = match &e {
            whistle_rules::OptionError::UnknownOption { key, .. }
            | whistle_rules::OptionError::BadValue { key, .. } => key.clone(),
            _ => String::new(),
        };
        let span = raw.options.get(&key).map(|v| v.span()).or_else(|| {
            (key == "hands")
                .then(|| raw.hands.as_ref().map(|h| h.span()))
                .flatten()
        });
        src.err(span, &format!("options.{key}"), e.to_string())
    })?;
    Ok(GameSpec {
        name,
        game,
        options: probe.options(),
        seats: probe.seats(),
        teams: probe.teams().to_vec(),
    })
}

/// Reads `format`, and checks that a format that replays deals has a fixed
/// number of hands per match.
fn read_format(src: &Source<'_>, raw: &RawFile, options: &Options) -> Result<Format, ConfigError> {
    let span = raw.format.as_ref().map(|f| f.span());
    let format = match raw.format.as_ref().map(|f| f.get_ref().as_str()) {
        None | Some("round-robin") => Format::RoundRobin,
        Some("duplicate") => Format::Duplicate,
        Some("gauntlet") => Format::Gauntlet,
        Some("movement") => Format::Movement,
        Some("budget") => Format::Budget,
        Some(other) => {
            return Err(src.err(
                span,
                "format",
                format!(
                    "unknown format `{other}` (round-robin, duplicate, gauntlet, movement, budget)"
                ),
            ));
        }
    };
    if matches!(
        format,
        Format::Duplicate | Format::Movement | Format::Budget
    ) && options.get("hands").is_none_or(|h| h == "unset")
    {
        return Err(src.err(
            span,
            "hands",
            format!(
                "a {} event needs a fixed number of hands per match (`hands`)",
                format.name()
            ),
        ));
    }
    Ok(format)
}

/// Reads `[sandbox]`: the default limits of sandboxed bots.
fn read_sandbox(
    src: &Source<'_>,
    table: Option<&Spanned<toml::Table>>,
) -> Result<Limits, ConfigError> {
    match table {
        Some(t) => limits_over(&Limits::default(), t.get_ref())
            .map_err(|m| src.err(Some(t.span()), "sandbox", m)),
        None => Ok(Limits::default()),
    }
}

/// Reads `[[bots]]`: each bot, its name unique, at least one.
fn read_bots(
    src: &Source<'_>,
    raw: &[Spanned<RawBot>],
    sandbox: &Limits,
    base: &Path,
) -> Result<Vec<BotSpec>, ConfigError> {
    let mut bots: Vec<BotSpec> = Vec::new();
    for b in raw {
        let bot = read_bot(src, b, sandbox, base, &bots)?;
        bots.push(bot);
    }
    if bots.is_empty() {
        return Err(src.err(None, "bots", "no bots".into()));
    }
    Ok(bots)
}

/// Reads one `[[bots]]` entry (`before`: the bots above it).
fn read_bot(
    src: &Source<'_>,
    b: &Spanned<RawBot>,
    sandbox: &Limits,
    base: &Path,
    before: &[BotSpec],
) -> Result<BotSpec, ConfigError> {
    let span = b.span();
    let b = b.get_ref();
    if b.remote {
        let local_only = [
            ("dir", b.dir.as_ref().map(|d| d.span())),
            ("sandbox", b.sandbox.as_ref().map(|d| d.span())),
            ("limits", b.limits.as_ref().map(|d| d.span())),
            ("stdio", b.stdio.as_ref().map(|d| d.span())),
        ];
        if let Some((key, at)) = local_only.into_iter().find(|(_, s)| s.is_some()) {
            return Err(src.err(
                at,
                &format!("bots.{key}"),
                "a remote bot runs on its owner's machine: only bots the runner starts \
                 have a folder, a sandbox, limits and stdio"
                    .into(),
            ));
        }
    }
    let name = b.name.get_ref().trim().to_string();
    if let Err(why) = check_name(&name) {
        return Err(src.err(
            Some(b.name.span()),
            "bots.name",
            format!("{why} (a bot's name names its log files and table cells)"),
        ));
    }
    if before.iter().any(|x| x.name == name) {
        return Err(src.err(
            Some(b.name.span()),
            "bots.name",
            format!("two bots are named `{name}`"),
        ));
    }
    let kind = match (&b.command, b.remote) {
        (Some(c), false) => {
            let words = match c.get_ref() {
                Command::Line(s) => s.split_whitespace().map(str::to_string).collect(),
                Command::Words(w) => w.clone(),
            };
            if words.is_empty() {
                return Err(src.err(
                    Some(c.span()),
                    "bots.command",
                    "the command is empty".into(),
                ));
            }
            if let Some(t) = &b.token {
                return Err(src.err(
                    Some(t.span()),
                    "bots.token",
                    "a token is for a remote bot (`remote = true`); the runner gives \
                     the bots it starts their tokens itself"
                        .into(),
                ));
            }
            let limits = match &b.limits {
                Some(l) => limits_over(sandbox, l.get_ref())
                    .map_err(|m| src.err(Some(l.span()), "bots.limits", m))?,
                None => *sandbox,
            };
            BotKind::Local(LocalBot {
                command: words,
                dir: b.dir.as_ref().map(|d| base.join(d.get_ref())),
                read: b.read.iter().map(|r| base.join(r)).collect(),
                sandbox: b.sandbox.as_ref().is_none_or(|s| *s.get_ref()),
                limits,
                stdio: b.stdio.as_ref().is_some_and(|s| *s.get_ref()),
            })
        }
        (None, true) => match &b.token {
            Some(t) if !t.get_ref().trim().is_empty() => BotKind::Remote {
                token: t.get_ref().trim().to_string(),
            },
            Some(t) => {
                return Err(src.err(Some(t.span()), "bots.token", "the token is empty".into()));
            }
            None => {
                return Err(src.err(
                    Some(span),
                    "bots.token",
                    format!(
                        "remote bot `{name}` needs its `token` (the secret it \
                         connects with)"
                    ),
                ));
            }
        },
        (Some(c), true) => {
            return Err(src.err(
                Some(c.span()),
                "bots.command",
                "a remote bot has no command".into(),
            ));
        }
        (None, false) => {
            return Err(src.err(
                Some(span),
                "bots.command",
                format!("bot `{name}` needs a `command` (or `remote = true`)"),
            ));
        }
    };
    Ok(BotSpec { name, kind })
}

/// What the format asks of the field: a gauntlet's challenger, a budget
/// event's matches per bot.
struct Field {
    challenger: Option<usize>,
    matches_per_bot: Option<u32>,
}

/// Reads `challenger` and `matches_per_bot`, and checks that the field is
/// large enough for the format.
fn read_field(
    src: &Source<'_>,
    raw: &RawFile,
    format: Format,
    bots: &[BotSpec],
    seats: usize,
) -> Result<Field, ConfigError> {
    let format_span = || raw.format.as_ref().map(|f| f.span());
    let challenger = match (&raw.challenger, format) {
        (Some(c), Format::Gauntlet) => Some(
            bots.iter()
                .position(|b| b.name == *c.get_ref())
                .ok_or_else(|| {
                    src.err(
                        Some(c.span()),
                        "challenger",
                        format!("no bot is named `{}`", c.get_ref()),
                    )
                })?,
        ),
        (None, Format::Gauntlet) => {
            return Err(src.err(
                format_span(),
                "challenger",
                "a gauntlet needs `challenger = \"<bot name>\"`".into(),
            ));
        }
        (Some(c), _) => {
            return Err(src.err(
                Some(c.span()),
                "challenger",
                "`challenger` is for the gauntlet format".into(),
            ));
        }
        (None, _) => None,
    };
    let matches_per_bot = match (&raw.matches_per_bot, format) {
        (Some(m), Format::Budget) if *m.get_ref() == 0 => {
            return Err(src.err(
                Some(m.span()),
                "matches_per_bot",
                "must be at least 1".into(),
            ));
        }
        (Some(m), Format::Budget) => Some(*m.get_ref()),
        (None, Format::Budget) => {
            return Err(src.err(
                format_span(),
                "matches_per_bot",
                "a budget event needs `matches_per_bot` (how many matches each bot plays: \
                 exactly that, or one more where the seats do not fill whole tables)"
                    .into(),
            ));
        }
        (Some(m), _) => {
            return Err(src.err(
                Some(m.span()),
                "matches_per_bot",
                "`matches_per_bot` is for the budget format".into(),
            ));
        }
        (None, _) => None,
    };
    if format == Format::Budget && bots.len() < 2 * seats {
        return Err(src.err(
            format_span(),
            "format",
            format!(
                "a budget event plays each set of deals at two tables or more: it needs at \
                 least {} bots for {seats} seats (it has {}); a round robin of so few is small",
                2 * seats,
                bots.len()
            ),
        ));
    }
    if format == Format::Movement && bots.len() < 2 * seats {
        return Err(src.err(
            format_span(),
            "format",
            format!(
                "a movement plays each set of deals at two tables or more, with no bot at \
                 two: it needs at least {} bots for {seats} seats (it has {})",
                2 * seats,
                bots.len()
            ),
        ));
    }
    if format == Format::Gauntlet && bots.len() < 2 {
        return Err(src.err(None, "bots", "a gauntlet needs at least two bots".into()));
    }
    Ok(Field {
        challenger,
        matches_per_bot,
    })
}

/// Reads `parallel` and `listen`: how the run plays its tables.
fn read_run(src: &Source<'_>, raw: &RawFile) -> Result<(usize, SocketAddr), ConfigError> {
    let parallel = match &raw.parallel {
        Some(p) if *p.get_ref() == 0 => {
            return Err(src.err(Some(p.span()), "parallel", "must be at least 1".into()));
        }
        Some(p) => *p.get_ref(),
        None => 4,
    };
    let listen = match &raw.listen {
        Some(l) => l
            .get_ref()
            .parse()
            .map_err(|e| src.err(Some(l.span()), "listen", format!("not an address: {e}")))?,
        None => "127.0.0.1:0".parse().expect("a valid address"),
    };
    Ok((parallel, listen))
}

/// Reads `[time]`: the clocks and how long a table waits for its seats.
fn read_time(raw: &RawTime) -> (TimeControl, Duration) {
    let defaults = TimeControl::default();
    let time = TimeControl {
        per_action: raw
            .per_action_ms
            .map_or(defaults.per_action, Duration::from_millis),
        time_bank: raw
            .time_bank_ms
            .map_or(defaults.time_bank, Duration::from_millis),
        reconnect_grace: raw
            .reconnect_grace_ms
            .map_or(defaults.reconnect_grace, Duration::from_millis),
    };
    let start_timeout = Duration::from_millis(raw.start_timeout_ms.unwrap_or(30_000));
    (time, start_timeout)
}

/// Reads `[faults]`: the fault policy.
fn read_faults(src: &Source<'_>, raw: &RawFaults) -> Result<FaultPolicy, ConfigError> {
    let mut faults = FaultPolicy::default();
    if let Some(m) = &raw.max_faults {
        if *m.get_ref() == 0 {
            return Err(src.err(
                Some(m.span()),
                "faults.max_faults",
                "must be at least 1".into(),
            ));
        }
        faults.max_faults = *m.get_ref();
    }
    if let Some(f) = &raw.fallback {
        faults.fallback = Fallback::from_name(f.get_ref()).ok_or_else(|| {
            src.err(
                Some(f.span()),
                "faults.fallback",
                "must be `passive`, `first` or `random`".into(),
            )
        })?;
    }
    Ok(faults)
}

/// Reads `rounds` and `seatings`: how often the schedule repeats and how a
/// group's bots are seated (checked against the game's seats and teams).
fn read_seatings(
    src: &Source<'_>,
    raw: &RawFile,
    seats: usize,
    teams: &[u8],
) -> Result<(u32, Seatings), ConfigError> {
    let rounds = match &raw.rounds {
        Some(r) if *r.get_ref() == 0 => {
            return Err(src.err(Some(r.span()), "rounds", "must be at least 1".into()));
        }
        Some(r) => *r.get_ref(),
        None => 1,
    };
    let span = raw.seatings.as_ref().map(|f| f.span());
    let sides = {
        let mut t = teams.to_vec();
        t.sort_unstable();
        t.dedup();
        t.len()
    };
    let seatings = match raw.seatings.as_ref().map(|f| f.get_ref().as_str()) {
        None | Some("rotations") => Seatings::Rotations,
        Some("permutations") => {
            if sides != seats {
                return Err(src.err(
                    span,
                    "seatings",
                    "`permutations` is for games where every seat plays for itself (partnership games seat every split of the partnerships; a cooperative table is one team)".into(),
                ));
            }
            if seats > MAX_PERMUTED_SEATS {
                return Err(src.err(
                    span,
                    "seatings",
                    format!(
                        "`permutations` seats each group in k! ways: at most {MAX_PERMUTED_SEATS} seats (this game has {seats})"
                    ),
                ));
            }
            Seatings::Permutations
        }
        Some("whole-partnerships") => {
            if sides < 2 || sides == seats {
                return Err(src.err(
                    span,
                    "seatings",
                    "`whole-partnerships` is for partnership games (Illustrated Whist): here no two seats are partners on opposing sides".into(),
                ));
            }
            Seatings::WholePartnerships
        }
        Some(other) => {
            return Err(src.err(
                span,
                "seatings",
                format!("unknown seatings `{other}` (rotations, permutations, whole-partnerships)"),
            ));
        }
    };
    Ok((rounds, seatings))
}

impl Tournament {
    /// Reads and checks a tournament file.
    ///
    /// # Errors
    /// [`ConfigError`] naming the key and line of the first problem.
    pub fn load(path: &Path) -> Result<Tournament, ConfigError> {
        let source = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            line: None,
            key: None,
            message: e.to_string(),
        })?;
        Tournament::parse(path, &source)
    }

    /// Checks a tournament given as text (`path` is used for messages and
    /// for resolving the output folder).
    ///
    /// # Errors
    /// [`ConfigError`] naming the key and line of the first problem.
    pub fn parse(path: &Path, source: &str) -> Result<Tournament, ConfigError> {
        let src = Source { path, source };
        let raw: RawFile = toml::from_str(source).map_err(|e| {
            let msg = e.message().trim().to_string();
            let line = e.span().map(|s| line_of(source, s.start));
            let key = key_of_toml_error(source, line, &msg).unwrap_or_default();
            src.err(e.span(), &key, msg)
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        // One reader a table (the top level's game, format and run keys are
        // tables of their own here), in the order their errors are found.
        let game = read_game(&src, &raw)?;
        let format = read_format(&src, &raw, &game.options)?;
        let sandbox = read_sandbox(&src, raw.sandbox.as_ref())?;
        let bots = read_bots(&src, &raw.bots, &sandbox, base)?;
        let field = read_field(&src, &raw, format, &bots, game.seats)?;
        let (parallel, listen) = read_run(&src, &raw)?;
        let (time, start_timeout) = read_time(&raw.time);
        let faults = read_faults(&src, &raw.faults)?;
        let (rounds, seatings) = read_seatings(&src, &raw, game.seats, &game.teams)?;
        let out = match raw.out {
            Some(o) => base.join(o),
            None => default_out(base, &game.name),
        };
        let written = match &raw.seed {
            Some(s) => *s.get_ref(),
            None => WrittenSeed::Full(draw_seed()),
        };
        Ok(Tournament {
            path: path.to_path_buf(),
            name: game.name,
            game: game.game,
            options: game.options,
            seed: written.seed(),
            written_seed: written,
            seed_drawn: raw.seed.is_none(),
            seed_warning: raw.seed.and_then(|s| seed_warning(*s.get_ref())),
            matches_per_bot: field.matches_per_bot,
            format,
            seatings,
            rounds,
            parallel,
            out,
            listen,
            challenger: field.challenger,
            time,
            start_timeout,
            faults,
            bots,
            seats: game.seats,
            teams: game.teams,
            sandbox,
        })
    }

    /// Plays with `seed` (`--seed`, in place of the file's or a drawn
    /// one): obeyed, with a warning when it can be searched.
    pub fn set_seed(&mut self, seed: WrittenSeed) {
        self.seed = seed.seed();
        self.written_seed = seed;
        self.seed_drawn = false;
        self.seed_warning = seed_warning(seed);
    }

    /// Plays with the seed an earlier run of this folder drew (a resumed
    /// run): still a drawn seed.
    pub fn keep_drawn_seed(&mut self, seed: Seed) {
        self.seed = seed;
        self.written_seed = WrittenSeed::Full(seed);
        self.seed_drawn = true;
        self.seed_warning = None;
    }

    /// The folder bot commands run in (the tournament file's folder).
    pub fn base_dir(&self) -> PathBuf {
        self.path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    }
}

/// A fresh seed: 32 bytes from the operating system's random source.
///
/// # Panics
/// If the operating system gives no randomness (then no token could be
/// made either, and nothing could run safely).
pub fn draw_seed() -> Seed {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the operating system's random source");
    Seed(b)
}

/// The warning a seed someone wrote deserves, if any: a seed that is one of
/// the 2^64 seeds of a number (any seed written as a number, or in hex with
/// its last 24 bytes zero) can be searched. Dealing one seed takes about
/// 2.6 µs on one core (measured: 2,000,000 seeds in 5.2 s, release build),
/// so `2026` is found in 5 ms, every number below 2^32 in about three hours,
/// and one hand a bot was dealt tells which seed it was, and with it every
/// deal of the event. The bound is the whole of 2^64, not less: people
/// choose small numbers (years, dates, 1, 42), nothing tells a chosen number
/// from a random one, and even a random one offers only 64 bits, half the
/// margin cryptography asks for (128 bits) against attackers with many
/// machines and faster ChaCha20. Seeds written in full (64 hex digits) are
/// not judged by number, but those a person typed are: few distinct digits,
/// a long run of one digit, a short pattern repeated, a count or a mirror (`000…01`, `111…1`,
/// `0123…`, the bytes `000102…`) are among the first anyone searches. No test tells a hash of a
/// word (`sha256("2026")`) from a drawn seed, so the warning says that such
/// a hash is as guessable as the word. Draw one (leave `seed` out, or
/// `openssl rand -hex 32`).
pub fn seed_warning(seed: WrittenSeed) -> Option<String> {
    const DRAW: &str = "leave `seed` out (a seed is drawn, committed to at the start and \
                        revealed at the end) or give 64 hex digits drawn at random (`openssl \
                        rand -hex 32`); a hash of a word or a date is as guessable as the word";
    if seed.searchable() {
        return Some(format!(
            "the seed is a number (one of the 2^64 seeds of a number): anyone who knows how \
             whistle deals can search those against one hand a bot was dealt and learn every \
             deal of the event; {DRAW}"
        ));
    }
    typed_by_hand(&seed.seed().to_hex()).then(|| {
        format!(
            "the seed's 64 hex digits look typed by a person (few distinct digits, a long run \
             of one digit, a short pattern repeated, a count or a mirror): such seeds are searched first, \
             against one hand a bot was dealt, and give away every deal of the event; {DRAW}"
        )
    })
}

/// Whether 64 hex digits look typed rather than drawn: fewer than 10
/// distinct digits, a run of 12 of one digit, or a pattern of at most 16
/// digits repeated; the same of the steps from one digit to the next (a
/// count such as `0123…` or `fedc…`, in any stride); a byte sequence that
/// steps by one amount 6 times running (`000102…1f`, the bytes counted);
/// or digits mirrored (the second half the first one reversed, at 24 or
/// more of 32 places). 64 digits drawn at random do any of these with a
/// chance below 10^-10 (fewer than 10 distinct: about 10^-12; a run of 12:
/// about 4 x 10^-12; 6 equal byte steps running: about 3 x 10^-11).
fn typed_by_hand(hex: &str) -> bool {
    let b = hex.as_bytes();
    let digits: Vec<u8> = b
        .iter()
        .filter_map(|&c| char::from(c).to_digit(16))
        .map(|d| d as u8)
        .collect();
    if digits.len() != b.len() {
        return false;
    }
    let steps: Vec<u8> = digits
        .windows(2)
        .map(|w| w[1].wrapping_sub(w[0]) & 15)
        .collect();
    let bytes: Vec<u8> = digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect();
    let byte_steps: Vec<u8> = bytes.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    let mirrored = (0..b.len() / 2)
        .filter(|&i| b[i] == b[b.len() - 1 - i])
        .count();
    patterned(b, 10, 12)
        || patterned(&steps, 10, 12)
        || longest_run(&byte_steps) >= 6
        || mirrored >= 24
}

/// Fewer than `distinct` distinct values, a run of `run` of one value, or a
/// pattern of at most 16 values repeated.
fn patterned(b: &[u8], distinct: usize, run: usize) -> bool {
    let mut seen = [false; 256];
    for &c in b {
        seen[usize::from(c)] = true;
    }
    let periodic = (1..=16).any(|p| b.len() > p && b.iter().zip(&b[p..]).all(|(x, y)| x == y));
    seen.iter().filter(|s| **s).count() < distinct || longest_run(b) >= run || periodic
}

/// The longest run of one value in `b`.
fn longest_run(b: &[u8]) -> usize {
    b.chunk_by(|x, y| x == y)
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

/// `replays/<name>/` inside the folder holding the tournament file, or
/// inside its parent when that folder is named `tournaments` (so
/// `tournaments/demo.toml` writes to `replays/demo/`, `class/t.toml` to
/// `class/replays/t/`).
fn default_out(base: &Path, name: &str) -> PathBuf {
    let root = if base.file_name().is_some_and(|n| n == "tournaments") {
        base.parent().unwrap_or(Path::new(".")).to_path_buf()
    } else {
        base.to_path_buf()
    };
    root.join("replays").join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
name = "t"
game = "israeli"
seed = 5
hands = 2

[[bots]]
name = "a"
command = "whistle bot --bot random"

[[bots]]
name = "b"
command = ["whistle", "bot", "--bot", "first"]
"#;

    fn parse(text: &str) -> Result<Tournament, ConfigError> {
        Tournament::parse(Path::new("tournaments/t.toml"), text)
    }

    #[test]
    fn a_good_file_reads_with_defaults() {
        let t = parse(GOOD).unwrap();
        assert_eq!(t.game, Variant::Israeli);
        assert_eq!(t.options.get("hands"), Some("2"));
        assert_eq!(t.format, Format::RoundRobin);
        assert_eq!(t.out, Path::new("replays/t"));
        assert_eq!(t.seats, 4);
        assert_eq!(
            t.bots[0].kind,
            BotKind::Local(LocalBot {
                command: vec![
                    "whistle".into(),
                    "bot".into(),
                    "--bot".into(),
                    "random".into()
                ],
                dir: None,
                read: Vec::new(),
                sandbox: true,
                limits: Limits::default(),
                stdio: false,
            })
        );
    }

    #[test]
    fn a_file_without_a_seed_draws_one_and_a_given_one_is_obeyed() {
        let a = parse(&GOOD.replace("seed = 5\n", "")).unwrap();
        let b = parse(&GOOD.replace("seed = 5\n", "")).unwrap();
        assert!(a.seed_drawn && b.seed_drawn);
        assert_ne!(a.seed, b.seed, "each run draws its own");
        assert_eq!(a.written_seed, WrittenSeed::Full(a.seed));
        assert_eq!(a.seed_warning, None);
        // A number is searchable: obeyed, with a warning.
        let n = parse(GOOD).unwrap();
        assert!(!n.seed_drawn);
        assert_eq!(n.seed, Seed::from_u64(5));
        assert_eq!(n.written_seed, WrittenSeed::Number(5));
        assert!(n.seed_warning.as_deref().unwrap().contains("2^64"));
        // So is a number spelled in hex; 64 random hex digits are not.
        let hex = GOOD.replace("seed = 5", &format!("seed = \"{}\"", Seed::from_u64(5)));
        let h = parse(&hex).unwrap();
        assert_eq!(h.seed, Seed::from_u64(5));
        assert!(h.seed_warning.is_some());
        let full = a.seed.to_hex();
        let f = parse(&GOOD.replace("seed = 5", &format!("seed = \"{full}\""))).unwrap();
        assert_eq!(
            (f.seed, f.seed_drawn, f.seed_warning),
            (a.seed, false, None)
        );
        // A number may be written as a string too (above 2^63, TOML's
        // integers end).
        // 64 hex digits a person typed are warned of too (a hash of a word
        // cannot be told from a drawn seed: the warning says it).
        for typed in [
            format!("{}1", "0".repeat(63)),
            "1".repeat(64),
            "0123456789abcdef".repeat(4),
            format!("{}{}", full.get(..40).unwrap(), "7".repeat(24)),
            // The bytes counted, a count in digits, a stride of 3, and a
            // half mirrored.
            (0..32u8).map(|i| format!("{i:02x}")).collect(),
            format!("{}fedcba9876543210", "0123456789abcdef".repeat(3)),
            (0..64u32)
                .map(|i| format!("{:x}", (i * 3 + 5) % 16))
                .collect(),
            {
                let half = full.get(..32).unwrap();
                format!("{half}{}", half.chars().rev().collect::<String>())
            },
        ] {
            let t = parse(&GOOD.replace("seed = 5", &format!("seed = \"{typed}\""))).unwrap();
            let why = t
                .seed_warning
                .unwrap_or_else(|| panic!("{typed}: no warning"));
            assert!(why.contains("hash of a word"), "{why}");
        }
        let big = parse(&GOOD.replace("seed = 5", "seed = \"18446744073709551615\"")).unwrap();
        assert_eq!(big.seed, Seed::from_u64(u64::MAX));
        let mut c = a.clone();
        c.set_seed(WrittenSeed::Number(9));
        assert_eq!((c.seed, c.seed_drawn), (Seed::from_u64(9), false));
        assert!(c.seed_warning.is_some());
    }

    /// Seeds drawn at random are not taken for typed ones: 20,000 seeds
    /// derived from one (ChaCha20 output, as uniform as a drawn seed), none
    /// flagged.
    #[test]
    fn drawn_seeds_do_not_look_typed() {
        let root = Seed::from_u64(7);
        let flagged: Vec<String> = (0..20_000u64)
            .map(|i| {
                root.derive(whistle_rules::dealing::Domain::Match, i)
                    .to_hex()
            })
            .filter(|h| typed_by_hand(h))
            .collect();
        assert!(flagged.is_empty(), "{flagged:?}");
    }

    #[test]
    fn a_cpu_share_reads_from_the_sandbox_table_and_a_bots_limits() {
        let text = GOOD
            .replace("hands = 2", "hands = 2\n\n[sandbox]\ncpus = 2")
            .replace(
                "command = \"whistle bot --bot random\"",
                "command = \"whistle bot --bot random\"\nlimits = { cpus = 0.5, memory_mib = 512 }",
            );
        let t = parse(&text).unwrap();
        assert_eq!(t.sandbox.cpus, whistle_sandbox::Cpus::new(2.0));
        let BotKind::Local(a) = &t.bots[0].kind else {
            panic!("a local bot")
        };
        assert_eq!(a.limits.cpus, whistle_sandbox::Cpus::new(0.5));
        assert_eq!(a.limits.memory_mib, 512);
        let BotKind::Local(b) = &t.bots[1].kind else {
            panic!("a local bot")
        };
        assert_eq!(b.limits.cpus, whistle_sandbox::Cpus::new(2.0));
        let e = parse(&text.replace("cpus = 0.5", "cpus = 0")).unwrap_err();
        assert!(e.to_string().contains("cpus"), "{e}");
    }

    #[test]
    fn errors_name_the_key_and_the_line() {
        let cases = [
            (
                GOOD.replace("game = \"israeli\"", "game = \"chess\""),
                "game",
                3,
            ),
            (
                GOOD.replace("hands = 2", "hands = 2\n[options]\ncolour = \"red\""),
                "options.colour",
                7,
            ),
            (GOOD.replace("hands = 2", "hands = 0"), "options.hands", 5),
            (
                GOOD.replace("seed = 5", "seed = 5\nformat = \"swiss\""),
                "format",
                5,
            ),
            (
                GOOD.replace("name = \"b\"", "name = \"a\""),
                "bots.name",
                12,
            ),
            (
                GOOD.replace("seed = 5", "seed = 5\nparallel = 0"),
                "parallel",
                5,
            ),
            // Israeli Whist has no partnerships to make whole.
            (
                GOOD.replace("seed = 5", "seed = 5\nseatings = \"whole-partnerships\""),
                "seatings",
                5,
            ),
        ];
        for (text, key, line) in cases {
            let e = parse(&text).unwrap_err();
            assert_eq!(e.key.as_deref(), Some(key), "{e}");
            assert_eq!(e.line, Some(line), "{e}");
        }
        let e = parse(&GOOD.replace("seed = 5", "seed = \"five\"")).unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert_eq!(e.key.as_deref(), Some("seed"), "{e}");
        let e = parse(&GOOD.replace("seed = 5", "seed = -5")).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("seed"), "{e}");
        let e = parse(&GOOD.replace("seed = 5", "sede = 5")).unwrap_err();
        assert!(e.to_string().contains("sede"), "{e}");
    }

    #[test]
    fn names_that_would_escape_the_output_folder_or_a_csv_cell_are_refused() {
        for bad in ["../../evil", "smith,j", ".hidden", "a/b", "two words", ""] {
            let text = GOOD.replace("name = \"b\"", &format!("name = {bad:?}"));
            let e = parse(&text).unwrap_err();
            assert_eq!(
                (e.key.as_deref(), e.line),
                (Some("bots.name"), Some(12)),
                "{bad:?}: {e}"
            );
        }
        let e = parse(&GOOD.replace("name = \"t\"", "name = \"../t\"")).unwrap_err();
        assert_eq!((e.key.as_deref(), e.line), (Some("name"), Some(2)), "{e}");
    }

    #[test]
    fn a_remote_bot_connects_with_the_token_of_the_file() {
        let t = parse(&GOOD.replace(
            "command = \"whistle bot --bot random\"",
            "remote = true\ntoken = \"bot-a-secret\"",
        ))
        .unwrap();
        assert_eq!(
            t.bots[0].kind,
            BotKind::Remote {
                token: "bot-a-secret".into()
            }
        );
    }

    #[test]
    fn errors_found_while_reading_the_toml_name_the_key_too() {
        let cases = [
            // Unknown keys, at the top level, in a table, in a bot.
            (
                GOOD.replace("seed = 5", "seed = 5\ncolour = 1"),
                "colour",
                5,
            ),
            (
                format!("{GOOD}[time]\nper_action = 5\n"),
                "time.per_action",
                15,
            ),
            (
                GOOD.replace("name = \"b\"", "name = \"b\"\nkolor = 1"),
                "bots.kolor",
                13,
            ),
            // Values of the wrong type or out of range.
            (GOOD.replace("hands = 2", "hands = -3"), "hands", 5),
            (
                GOOD.replace("seed = 5", "seed = 5\nparallel = \"many\""),
                "parallel",
                5,
            ),
            (
                format!("{GOOD}[time]\nper_action_ms = \"fast\"\n"),
                "time.per_action_ms",
                15,
            ),
            (GOOD.replace("\"first\"]", "\n  3]"), "bots.command", 13),
            (
                GOOD.replace("seed = 5", "seed = 5\nrounds = 0"),
                "rounds",
                5,
            ),
            (
                format!("{GOOD}[faults]\nmax_faults = 0\n"),
                "faults.max_faults",
                15,
            ),
            // Missing keys.
            // Remote bots connect with the token of the file; local ones have none.
            (
                GOOD.replace("command = \"whistle bot --bot random\"", "remote = true"),
                "bots.token",
                7,
            ),
            (
                GOOD.replace(
                    "command = \"whistle bot --bot random\"",
                    "remote = true\ntoken = \" \"",
                ),
                "bots.token",
                10,
            ),
            (
                GOOD.replace("name = \"b\"", "name = \"b\"\ntoken = \"s\""),
                "bots.token",
                13,
            ),
            (GOOD.replace("name = \"b\"", ""), "bots.name", 11),
        ];
        for (text, key, line) in cases {
            let e = parse(&text).unwrap_err();
            assert_eq!(
                (e.key.as_deref(), e.line),
                (Some(key), Some(line)),
                "{e}\n{text}"
            );
            assert!(!e.to_string().contains('\n'), "one line: {e}");
        }
    }
}
