//! The output folder of a run, shared by the runner, the league and the
//! pages: what a run writes there ([`OUTPUTS`]), the manifest
//! (`tournament.json`), the seed file, where each match's log lies
//! ([`match_path`], [`log_paths`]) and the table id of a match
//! ([`table_id`]).
//!
//! ```text
//! OUT/
//!   tournament.json      the manifest, written before play
//!   seed.secret          a drawn seed, kept for a resumed run
//!   bots.json            each bot's ended processes and whether it is out
//!                        of the event, kept as the run goes for a resume
//!   matches/m00042.jsonl one replay log per match (or .jsonl.gz)
//!   logs/                each bot's stderr
//!   results.json, standings.md, standings.csv, report.html, viewer/
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use whistle_replay::{MatchLog, seed_commitment};
use whistle_rules::Options;

use crate::{
    config::Tournament,
    error::{RunError, io_at},
    schedule::Shard,
};

/// What a run writes in its output folder: all that `overwrite` removes.
pub const OUTPUTS: &[&str] = &[
    "matches",
    "logs",
    "viewer",
    "tournament.json",
    SEED_FILE,
    BOTS_FILE,
    "results.json",
    "standings.md",
    "standings.csv",
    "report.html",
];

/// Removes what an earlier run wrote in `out` ([`OUTPUTS`]), and nothing
/// else.
pub(crate) fn remove_outputs(out: &Path) -> Result<(), RunError> {
    for name in OUTPUTS {
        let p = out.join(name);
        let gone = if p.is_dir() {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
        match gone {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_at(&p)(e)),
            _ => {}
        }
    }
    Ok(())
}

/// The file of the output folder that keeps what the run learnt of its bots
/// as it goes ([`BotsState`]): a resumed run reads it back, so that a bot out
/// of the event stays out and its restart allowance is not given anew.
pub const BOTS_FILE: &str = "bots.json";

/// `bots.json`'s format name.
pub const BOTS_FORMAT: &str = "whistle-bots";

/// `bots.json`: how many times each bot's process ended during the event,
/// the bots out of the event, in the order they went out, with why, and
/// the sandbox limits that stopped its processes.
/// Written whole (a temporary file renamed over it) each time that changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotsState {
    /// Always [`BOTS_FORMAT`].
    pub format: String,
    /// Version 1.
    pub version: u32,
    /// By bot name: how many times its process ended (the restart allowance
    /// used: see `procs::MAX_RESTARTS`; in fresh-instance mode, where each
    /// instance has its own, its instances' ends, kept as each match ends).
    #[serde(default)]
    pub ended: std::collections::BTreeMap<String, u32>,
    /// The bots out of the event, in the order they went out.
    #[serde(default)]
    pub out: Vec<OutBot>,
    /// By bot name: the sandbox limits that stopped its processes (in
    /// fresh-instance mode, its instances), in words, one a time: the
    /// results' `limit` notes of the runs so far. Absent when none did.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub limits: std::collections::BTreeMap<String, Vec<String>>,
}

/// A bot out of the event, in [`BotsState`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutBot {
    /// The bot.
    pub bot: String,
    /// Why it is out.
    pub reason: String,
}

impl Default for BotsState {
    fn default() -> BotsState {
        BotsState {
            format: BOTS_FORMAT.into(),
            version: 1,
            ended: Default::default(),
            out: Vec::new(),
            limits: Default::default(),
        }
    }
}

impl BotsState {
    /// Reads `bots.json` from `dir`: empty where there is none.
    ///
    /// # Errors
    /// If it cannot be read or is malformed.
    pub fn read(dir: &Path) -> Result<BotsState, RunError> {
        let path = dir.join(BOTS_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(BotsState::default());
            }
            Err(e) => return Err(io_at(&path)(e)),
        };
        let state: BotsState = serde_json::from_str(&text).map_err(|e| RunError::Parse {
            path: path.clone(),
            message: e.to_string(),
        })?;
        if state.format != BOTS_FORMAT {
            return Err(RunError::Parse {
                path,
                message: format!("not a {BOTS_FORMAT} file"),
            });
        }
        Ok(state)
    }

    /// Why `bot` is out of the event, if it is.
    pub fn out_reason(&self, bot: &str) -> Option<&str> {
        self.out
            .iter()
            .find(|o| o.bot == bot)
            .map(|o| o.reason.as_str())
    }
}

/// The manifest's format name.
pub const MANIFEST_FORMAT: &str = "whistle-tournament";

/// The file of the output folder that keeps a drawn seed (64 hex digits),
/// written before play (readable by the organiser's account only; no bot's
/// sandbox reaches the output folder): a resumed run reads it back. The
/// results reveal the seed once play is over.
pub const SEED_FILE: &str = "seed.secret";

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
    pub(crate) fn of(t: &Tournament, total: u64, shard: Option<Shard>) -> Manifest {
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
        let text = std::fs::read_to_string(&path).map_err(io_at(&path))?;
        serde_json::from_str(&text).map_err(|e| RunError::Parse {
            path: path.clone(),
            message: e.to_string(),
        })
    }
}

/// The log file of match `index`.
pub fn match_path(out: &Path, index: u64) -> PathBuf {
    out.join("matches").join(format!("m{index:05}.jsonl"))
}

/// Whether a log file holds its complete first line (the header). A runner
/// killed between creating a log and flushing its header leaves an empty or
/// cut header: that match had not started, and a resumed run starts it anew.
pub(crate) fn has_header(path: &Path) -> Result<bool, RunError> {
    let mut first = Vec::new();
    whistle_replay::open_log(path)
        .and_then(|mut r| r.read_until(b'\n', &mut first))
        .map_err(io_at(path))?;
    Ok(first.ends_with(b"\n"))
}

/// The match logs in `out/matches` (the files `m<index>.jsonl` that
/// [`match_path`] names, or their compressed `m<index>.jsonl.gz`), by match
/// index, without reading them. Where both forms of one log are there (a
/// compression cut short), the original is taken.
///
/// # Errors
/// If the folder cannot be listed.
pub fn log_paths(out: &Path) -> Result<Vec<(u64, PathBuf)>, RunError> {
    let dir = out.join("matches");
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_at(&dir)(e)),
    };
    let mut paths: Vec<(u64, PathBuf)> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?;
            let stem = name.strip_prefix('m')?;
            let (index, compressed) = match stem.strip_suffix(".jsonl.gz") {
                Some(i) => (i, true),
                None => (stem.strip_suffix(".jsonl")?, false),
            };
            let index = index
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| index.parse().ok())??;
            Some((index, compressed, path))
        })
        .collect::<Vec<(u64, bool, PathBuf)>>()
        .into_iter()
        .map(|(i, c, p)| ((i, c), p))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_iter()
        .map(|((i, _), p)| (i, p))
        .collect();
    // Sorted by (index, compressed): the original first; keep one a match.
    paths.dedup_by_key(|(i, _)| *i);
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
        let log = whistle_replay::read(&path)?;
        if log.header.match_index != index {
            return Err(RunError::Mismatch(format!(
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

/// The table id of match `index`: `<name>-m00042`.
pub fn table_id(t: &Tournament, index: u64) -> String {
    format!("{}-m{index:05}", t.name)
}
