//! The league file: what every round of a league plays.
//!
//! ```toml
//! name = "student-league"        # ASCII letters, digits, `-`, `_`, `.`
//! game = "israeli"
//! # seed = "9f0c…"               # no: `init` draws a secret seed (a given one
//!                                # makes every league of this file deal alike;
//!                                # a number is searchable and warned of)
//! hands = 4                      # hands per match
//! format = "duplicate"           # or "round-robin": one match a table
//! parallel = 4                   # tables at once
//! fill = true                    # reference bots fill a round's empty seats
//!
//! [options]                      # the game's options
//! [time]                         # as in a tournament file
//! [faults]                       # as in a tournament file
//! [sandbox]                      # as in a tournament file: the reference bots' limits
//!
//! [rating]
//! new_version = "inherit"        # or "reset": a bot's next version's rating
//!
//! [[reference]]                  # bots the league starts by command
//! name = "heuristic"
//! command = ["whistle", "bot", "--bot", "heuristic"]
//! # dir, read, sandbox, limits and stdio as for a tournament file's bot; relative
//! # paths are the league file's folder's (where `league init` read it)
//! ```
//!
//! The keys `options`, `time` and `faults` and the reference bots are a
//! tournament file's: a round is played as a tournament (see
//! [`crate::round`]), and [`LeagueFile::tournament`] writes that file.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use whistle_rules::dealing::{Domain, Seed, WrittenSeed};
use whistle_tournament::config::Tournament;

// The error has a module of its own; `config::LeagueError` stays a path to it.
pub use crate::error::LeagueError;

/// How a new version of a bot starts its rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NewVersion {
    /// It carries the old version's rating on.
    #[default]
    Inherit,
    /// It starts afresh.
    Reset,
}

/// A bot the league starts by command.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// Its name in the league.
    pub name: String,
    /// Program and arguments (`whistle` is the running `whistle` binary).
    pub command: Vec<String>,
    /// The folder the bot reads (by default its program's).
    pub dir: Option<PathBuf>,
    /// More paths the bot reads.
    #[serde(default)]
    pub read: Vec<PathBuf>,
    /// `false`: started without a sandbox (the organiser's choice).
    pub sandbox: Option<bool>,
    /// Its own limits over the `[sandbox]` table's.
    pub limits: Option<toml::Table>,
    /// `true`: a stdio bot (docs/stdio.md).
    pub stdio: Option<bool>,
}

impl Reference {
    /// The keys of a tournament file's bot that this reference sets beside
    /// its name and command, relative paths made `base`'s.
    fn bot_keys(&self, base: &Path) -> toml::Table {
        let path = |p: &Path| toml::Value::String(base.join(p).display().to_string());
        let mut t = toml::Table::new();
        if let Some(d) = &self.dir {
            t.insert("dir".into(), path(d));
        }
        if !self.read.is_empty() {
            t.insert(
                "read".into(),
                toml::Value::Array(self.read.iter().map(|p| path(p)).collect()),
            );
        }
        if let Some(s) = self.sandbox {
            t.insert("sandbox".into(), toml::Value::Boolean(s));
        }
        if let Some(l) = &self.limits {
            t.insert("limits".into(), toml::Value::Table(l.clone()));
        }
        if let Some(s) = self.stdio {
            t.insert("stdio".into(), toml::Value::Boolean(s));
        }
        t
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: String,
    game: String,
    seed: Option<WrittenSeed>,
    hands: Option<u32>,
    format: Option<String>,
    parallel: Option<usize>,
    #[serde(default)]
    fill: bool,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    time: toml::Table,
    #[serde(default)]
    faults: toml::Table,
    #[serde(default)]
    sandbox: toml::Table,
    #[serde(default)]
    rating: RawRating,
    #[serde(default)]
    reference: Vec<Reference>,
    #[serde(default)]
    submissions: toml::Table,
    keep_stderr_rounds: Option<u64>,
}

/// How many closed rounds keep their bots' stderr logs when the league file
/// does not say ([`LeagueFile::keep_stderr_rounds`]).
pub const KEEP_STDERR_ROUNDS: u64 = 20;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRating {
    new_version: Option<String>,
}

/// A league file, read and checked.
#[derive(Debug, Clone)]
pub struct LeagueFile {
    /// The league's name.
    pub name: String,
    /// The game's name.
    pub game: String,
    /// The league's secret: the file's seed if it gives one (every league
    /// made from that file then deals the same cards), else the secret one
    /// `init` drew (kept in the store, see [`LeagueFile::set_seed`]). Each
    /// round's seed is derived from it ([`LeagueFile::round_seed`]).
    pub seed: Seed,
    /// The seed as the file gives it, if it does.
    pub seed_given: Option<WrittenSeed>,
    /// Hands per match (the game's default when absent).
    pub hands: Option<u32>,
    /// `true`: every table of a round plays all its seat rotations on the
    /// same deals; `false`: one match a table.
    pub duplicate: bool,
    /// Tables at once.
    pub parallel: usize,
    /// Whether reference bots fill the seats the league's bots leave empty.
    pub fill: bool,
    /// How a new version of a bot starts.
    pub new_version: NewVersion,
    /// The bots the league starts by command.
    pub reference: Vec<Reference>,
    /// Seats per table (from the game and its options).
    pub seats: usize,
    /// The folder relative paths of the reference bots are read from: the
    /// league file's folder (see [`LeagueFile::set_base`]).
    pub base: PathBuf,
    /// The game's options, effective values (what every log must carry).
    pub game_options: whistle_rules::Options,
    /// The `[submissions]` table: bounds on the bots' owners' uploads
    /// (read by [`Rules::of`]).
    pub submissions: toml::Table,
    /// The limits of the bots the league starts (its `[sandbox]` table over
    /// the defaults): an upload's check runs under them.
    pub limits: whistle_sandbox::Limits,
    /// The league's clock (`[time]`): an upload's check runs on it.
    pub clock: whistle_referee::TimeControl,
    /// How many of the last closed rounds keep their bots' stderr logs
    /// (`keep_stderr_rounds`, default [`KEEP_STDERR_ROUNDS`]; `0` keeps
    /// every round's): older rounds' are deleted as each round closes, so
    /// that a chatty bot cannot fill the disk over weeks (each round keeps
    /// at most 1 MiB a bot, the runner's cap).
    pub keep_stderr_rounds: u64,
    options: toml::Table,
    time: toml::Table,
    faults: toml::Table,
    sandbox: toml::Table,
}

impl LeagueFile {
    /// Reads and checks a league file.
    ///
    /// # Errors
    /// [`LeagueError::Config`] naming the problem, [`LeagueError::Io`].
    pub fn load(path: &Path) -> Result<LeagueFile, LeagueError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| LeagueError::Io(path.to_path_buf(), e))?;
        LeagueFile::parse(path, &text)
    }

    /// Checks a league file's text.
    ///
    /// # Errors
    /// [`LeagueError::Config`] naming the problem.
    pub fn parse(path: &Path, text: &str) -> Result<LeagueFile, LeagueError> {
        let bad = |m: String| LeagueError::Config(format!("{}: {m}", path.display()));
        let raw: RawFile = toml::from_str(text).map_err(|e| bad(e.to_string()))?;
        whistle_protocol::limits::check_name(&raw.name).map_err(|e| bad(format!("name: {e}")))?;
        for r in &raw.reference {
            whistle_protocol::limits::check_name(&r.name)
                .map_err(|e| bad(format!("reference: {e}")))?;
        }
        let duplicate = match raw.format.as_deref() {
            None | Some("duplicate") => true,
            Some("round-robin") => false,
            Some(other) => {
                return Err(bad(format!(
                    "format `{other}`: `duplicate` or `round-robin`"
                )));
            }
        };
        let new_version = match raw.rating.new_version.as_deref() {
            None | Some("inherit") => NewVersion::Inherit,
            Some("reset") => NewVersion::Reset,
            Some(other) => {
                return Err(bad(format!(
                    "rating.new_version `{other}`: `inherit` or `reset`"
                )));
            }
        };
        let mut file = LeagueFile {
            name: raw.name,
            game: raw.game,
            seed: raw.seed.map(WrittenSeed::seed).unwrap_or_default(),
            seed_given: raw.seed,
            hands: raw.hands,
            duplicate,
            parallel: raw.parallel.unwrap_or(4).max(1),
            fill: raw.fill,
            new_version,
            reference: raw.reference,
            seats: 0,
            game_options: whistle_rules::Options::default(),
            submissions: raw.submissions,
            limits: whistle_sandbox::Limits::default(),
            clock: whistle_referee::TimeControl::default(),
            keep_stderr_rounds: raw.keep_stderr_rounds.unwrap_or(KEEP_STDERR_ROUNDS),
            base: path
                .parent()
                .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
                .unwrap_or_default(),
            options: raw.options,
            time: raw.time,
            faults: raw.faults,
            sandbox: raw.sandbox,
        };
        // The file is valid iff the tournament a round would play is: the
        // tournament reader checks the game, its options, clocks and faults.
        let mut names: Vec<(String, BotEntry)> = file
            .reference
            .iter()
            .map(|r| (r.name.clone(), BotEntry::Command(r.command.clone())))
            .collect();
        if names.is_empty() {
            // A league of remote bots only: the check needs some bot.
            names.push(("check".into(), BotEntry::Command(vec!["whistle".into()])));
        }
        // Its errors name the league file's line and keys, not the
        // generated tournament's.
        let t = file
            .tournament(path, 0, &names, &path.with_extension("check"))
            .map_err(|e| match e {
                LeagueError::Config(m) => LeagueError::Config(in_league_file(path, text, &m)),
                other => other,
            })?;
        file.seats = t.seats;
        file.game_options = t.options.clone();
        file.limits = t.sandbox;
        file.clock = t.time;
        Rules::of(&file).map_err(|e| LeagueError::Config(format!("{}: {e}", path.display())))?;
        Ok(file)
    }

    /// What every match counted in this league must be: its game, its
    /// options.
    pub fn expect(&self) -> crate::import::Expect {
        crate::import::Expect {
            game: self.game.clone(),
            options: self.game_options.clone(),
        }
    }

    /// The secret seed `init` drew, used unless the file gives one.
    pub fn set_seed(&mut self, seed: Seed) {
        if self.seed_given.is_none() {
            self.seed = seed;
        }
    }

    /// A round's seed: derived from the league's secret by ChaCha20 keyed
    /// with it ([`Domain::Round`], `docs/dealing.md`), so that a round's
    /// seed, published once the round is closed, tells nothing of any
    /// other round's without the secret.
    pub fn round_seed(&self, round: u64) -> Seed {
        self.seed.derive(Domain::Round, round)
    }

    /// The warning the file's seed deserves, if it gives a searchable one
    /// (as a tournament file's: [`whistle_tournament::config::seed_warning`]).
    pub fn seed_warning(&self) -> Option<String> {
        let why = whistle_tournament::config::seed_warning(self.seed_given?)?;
        Some(format!("the league file gives `seed`: {why}"))
    }

    /// Reads the reference bots' relative paths from `base` (a league
    /// folder's copy of the file keeps the folder of the file `init` read).
    pub fn set_base(&mut self, base: PathBuf) {
        self.base = base;
    }

    /// The tournament file (as text) a round plays: the league's game,
    /// options, clocks and faults, the round's seed, and `bots`.
    pub fn tournament_text(&self, round: u64, bots: &[(String, BotEntry)], out: &Path) -> String {
        let mut doc = toml::Table::new();
        let s = |v: &str| toml::Value::String(v.to_string());
        doc.insert("name".into(), s(&format!("{}-r{round:04}", self.name)));
        doc.insert("game".into(), s(&self.game));
        let seed = self.round_seed(round);
        doc.insert("seed".into(), toml::Value::String(seed.to_hex()));
        let format = if self.duplicate {
            "duplicate"
        } else {
            "round-robin"
        };
        doc.insert("format".into(), s(format));
        if let Some(h) = self.hands {
            doc.insert("hands".into(), toml::Value::Integer(i64::from(h)));
        }
        doc.insert(
            "parallel".into(),
            toml::Value::Integer(self.parallel as i64),
        );
        doc.insert("out".into(), s(&out.display().to_string()));
        doc.insert("options".into(), toml::Value::Table(self.options.clone()));
        doc.insert("time".into(), toml::Value::Table(self.time.clone()));
        doc.insert("faults".into(), toml::Value::Table(self.faults.clone()));
        if !self.sandbox.is_empty() {
            doc.insert("sandbox".into(), toml::Value::Table(self.sandbox.clone()));
        }
        let bots = bots
            .iter()
            .map(|(name, entry)| {
                let mut b = toml::Table::new();
                b.insert("name".into(), s(name));
                match entry {
                    BotEntry::Command(c) => {
                        b.insert(
                            "command".into(),
                            toml::Value::Array(c.iter().map(|w| s(w)).collect()),
                        );
                        if let Some(r) = self.reference.iter().find(|r| &r.name == name) {
                            b.extend(r.bot_keys(&self.base));
                        }
                    }
                    BotEntry::Hosted {
                        command,
                        dir,
                        stdio,
                    } => {
                        b.insert(
                            "command".into(),
                            toml::Value::Array(command.iter().map(|w| s(w)).collect()),
                        );
                        b.insert("dir".into(), s(&dir.display().to_string()));
                        if *stdio {
                            b.insert("stdio".into(), toml::Value::Boolean(true));
                        }
                    }
                    BotEntry::Remote(token) => {
                        b.insert("remote".into(), toml::Value::Boolean(true));
                        b.insert("token".into(), s(token));
                    }
                }
                toml::Value::Table(b)
            })
            .collect();
        doc.insert("bots".into(), toml::Value::Array(bots));
        toml::to_string(&doc).expect("a TOML table serializes")
    }

    /// The tournament a round plays, checked by the tournament reader.
    ///
    /// # Errors
    /// [`LeagueError::Config`] if the tournament reader refuses it.
    pub fn tournament(
        &self,
        path: &Path,
        round: u64,
        bots: &[(String, BotEntry)],
        out: &Path,
    ) -> Result<Tournament, LeagueError> {
        let text = self.tournament_text(round, bots, out);
        Tournament::parse(path, &text).map_err(|e| {
            LeagueError::Config(format!(
                "{}: {}",
                path.display(),
                e.to_string()
                    .trim_start_matches(&format!("{}: ", path.display()))
            ))
        })
    }
}

/// A tournament reader's message about the tournament a league file makes
/// (`PATH: PATH:LINE: key `K`: WHY`), said of the league file: its line and
/// its key names (`bots` is `reference` there).
fn in_league_file(path: &Path, text: &str, message: &str) -> String {
    let shown = path.display().to_string();
    let rest = message
        .strip_prefix(&format!("{shown}: "))
        .unwrap_or(message);
    let rest = rest.strip_prefix(&format!("{shown}:")).unwrap_or(rest);
    // `LINE: key `K`: WHY`, or the message as it is.
    let Some((_, after)) = rest.split_once(": key `") else {
        return format!("{shown}: {rest}");
    };
    let Some((key, why)) = after.split_once("`: ") else {
        return format!("{shown}: {rest}");
    };
    let key = key.replacen("bots.", "reference.", 1);
    let (table, leaf) = key.rsplit_once('.').unwrap_or(("", key.as_str()));
    // The lines that set `leaf` in `[table]` (or `[[table]]`).
    let mut current = String::new();
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix('[') {
            current = h
                .trim_matches(|c| c == '[' || c == ']' || c == ' ')
                .to_string();
            continue;
        }
        let sets = t
            .strip_prefix(leaf)
            .is_some_and(|r| r.trim_start().starts_with('='));
        if sets && current == table {
            lines.push((i + 1, t));
        }
    }
    // A name given twice: the second time it is given.
    let named = why
        .split_once("named `")
        .and_then(|(_, n)| n.split_once('`'))
        .map(|(n, _)| format!("\"{n}\""));
    let line = match &named {
        Some(n) => lines.iter().filter(|(_, t)| t.contains(n.as_str())).nth(1),
        None => lines.first(),
    }
    .or(lines.first())
    .map(|(n, _)| *n);
    let why = why.replace("two bots are named", "two reference bots are named");
    match line {
        Some(n) => format!("{shown}:{n}: key `{key}`: {why}"),
        None => format!("{shown}: key `{key}`: {why}"),
    }
}

/// How a bot of a round takes part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotEntry {
    /// Started by the runner with this command.
    Command(Vec<String>),
    /// Connects by itself with this token.
    Remote(String),
    /// An accepted upload of a bot's owner ([`crate::submit`]): started by
    /// the runner in its version's folder, sandboxed under the league's
    /// limits like any bot the league starts.
    Hosted {
        /// Program and arguments (arguments naming the version's files made
        /// absolute).
        command: Vec<String>,
        /// The version's folder (absolute).
        dir: PathBuf,
        /// Whether it speaks JSON lines on stdio.
        stdio: bool,
    },
}

/// The league file's `[submissions]` table: the bounds on uploads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Uploads a bot's owner may make in an hour (refused ones count).
    pub uploads_per_hour: u32,
    /// Disk a bot's kept versions may take, MiB.
    pub disk_mib: u64,
    /// The largest archive, MiB.
    pub archive_mib: u64,
    /// The most an upload may unpack to, MiB.
    pub unpacked_mib: u64,
    /// The most files and folders in an upload.
    pub files: u64,
    /// The build's time limit, seconds (wall clock and CPU).
    pub build_s: u64,
    /// The build's memory limit, MiB.
    pub build_memory_mib: u64,
    /// The build's disk (its scratch folder, where it builds), MiB.
    pub build_disk_mib: u64,
    /// The check's time limit, seconds.
    pub check_s: u64,
    /// Hands of each match of the check.
    pub check_hands: u32,
    /// How long an upload waits for the uploads ahead of it, seconds.
    pub queue_s: u64,
    /// More paths the build may read (a toolchain outside the system's
    /// paths, e.g. `~/.cargo/bin` and `~/.rustup`).
    pub build_read: Vec<PathBuf>,
    /// More environment variables of the build (e.g. `RUSTUP_HOME`); its
    /// `HOME` and `TMPDIR` are its scratch folder.
    pub build_env: std::collections::BTreeMap<String, String>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            uploads_per_hour: 6,
            disk_mib: 200,
            archive_mib: 20,
            unpacked_mib: 100,
            files: 5000,
            build_s: 300,
            build_memory_mib: 2048,
            build_disk_mib: 512,
            check_s: 300,
            check_hands: 2,
            queue_s: 600,
            build_read: Vec::new(),
            build_env: Default::default(),
        }
    }
}

impl Rules {
    /// The league file's rules.
    ///
    /// # Errors
    /// [`LeagueError::Config`] for an unknown key or a bad value.
    pub fn of(file: &LeagueFile) -> Result<Rules, LeagueError> {
        let rules: Rules = toml::Value::Table(file.submissions.clone())
            .try_into()
            .map_err(|e| LeagueError::Config(format!("the league file's [submissions]: {e}")))?;
        let zero = [
            ("disk_mib", rules.disk_mib),
            ("archive_mib", rules.archive_mib),
            ("unpacked_mib", rules.unpacked_mib),
            ("files", rules.files),
            ("build_s", rules.build_s),
            ("build_memory_mib", rules.build_memory_mib),
            ("build_disk_mib", rules.build_disk_mib),
            ("check_s", rules.check_s),
            ("check_hands", u64::from(rules.check_hands)),
        ];
        if let Some((k, _)) = zero.iter().find(|(_, v)| *v == 0) {
            return Err(LeagueError::Config(format!(
                "the league file's [submissions]: `{k}` must be above 0"
            )));
        }
        Ok(rules)
    }
}

/// Why a hosted version may not start its command with `word`, if it may
/// not: a program given by an absolute path outside the system's paths (the
/// organiser's home, another version's folder: whistle would grant the
/// folder above its `bin/`), or a path that leaves the upload. A bare name
/// (`python3`, from the league's `PATH`) and a path inside the upload are
/// fine.
pub fn foreign_program(word: &str) -> Option<String> {
    let p = Path::new(word);
    let leaves = p
        .components()
        .any(|c| matches!(c, std::path::Component::ParentDir));
    if (p.is_absolute() && !whistle_sandbox::in_system_paths(p)) || (!p.is_absolute() && leaves) {
        return Some(format!(
            "its program `{}` lies outside the upload and the system's paths (/usr, /bin, \
             /opt, ...): ship the program in the upload (a path from its root, such as \
             `bin/bot`) or name one the league's machine has on its PATH (`python3`)",
            whistle_protocol::limits::truncate(word, 200)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_league_files_own_lines_and_keys() {
        let text = "name = \"d\"\ngame = \"israeli\"\nhands = 2\n\n[options]\nbogus = 3\n";
        let e = LeagueFile::parse(Path::new("l.toml"), text)
            .unwrap_err()
            .to_string();
        assert!(e.contains("l.toml:6: key `options.bogus`"), "{e}");
        let text = "name = \"d\"\ngame = \"israeli\"\nhands = 2\n[[reference]]\nname = \"a\"\n\
                    command = [\"whistle\"]\n\n[[reference]]\nname = \"a\"\ncommand = [\"whistle\"]\n";
        let e = LeagueFile::parse(Path::new("l.toml"), text)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("l.toml:9: key `reference.name`: two reference bots are named `a`"),
            "{e}"
        );
        let text = "name = \"d\"\ngame = \"israeli\"\nhands = 2\n[time]\nper_action_ms = \"x\"\n";
        let e = LeagueFile::parse(Path::new("l.toml"), text)
            .unwrap_err()
            .to_string();
        assert!(e.contains("l.toml:5: key `time.per_action_ms`"), "{e}");
    }

    #[test]
    fn a_reference_bot_may_be_a_stdio_bot() {
        let text = "name = \"d\"\ngame = \"israeli\"\nhands = 2\n[[reference]]\nname = \"py\"\n\
                    command = [\"python3\", \"bot.py\"]\nstdio = true\n";
        let league = LeagueFile::parse(Path::new("/l/l.toml"), text).unwrap();
        let bots: Vec<(String, BotEntry)> = ["py", "a", "b", "c"]
            .iter()
            .map(|n| {
                let command = if *n == "py" {
                    vec!["python3".to_string(), "bot.py".to_string()]
                } else {
                    vec!["whistle".to_string(), "bot".to_string()]
                };
                (n.to_string(), BotEntry::Command(command))
            })
            .collect();
        let t = league
            .tournament(Path::new("/l/r.toml"), 1, &bots, Path::new("/l/out"))
            .unwrap();
        let stdio = |name: &str| {
            t.bots.iter().find(|b| b.name == name).is_some_and(
                |b| matches!(&b.kind, whistle_tournament::BotKind::Local(l) if l.stdio),
            )
        };
        assert!(stdio("py"));
        assert!(!stdio("a"));
    }
}
