//! Finished matches into the store: a tournament's (or a round's) output
//! folder, exactly once per log.
//!
//! Logs are taken in match order and each is written with its rating
//! updates in one transaction keyed by the log's SHA-256 ([`Store::record_match`]),
//! so importing a folder twice, or again after a crash part way, records
//! every finished match once and gives the ratings a single uninterrupted
//! import would. Unfinished logs (a match still playing, or stopped) are
//! left for a later import.
//!
//! Nothing counts unchecked: a log must pass `replay verify` (hash chain,
//! deals, legality, scores, result), be of the league's game with the
//! league's options, and name its bots with valid names; anything else is
//! refused, with the reason, and changes nothing. A match that names a
//! retired bot, or one every seat forfeited, is recorded without rating
//! anyone.

use std::path::Path;

use whistle_replay::MatchLog;
use whistle_tournament::{layout, stats};

use crate::{
    error::LeagueError,
    store::{MatchRecord, SeatRecord, Store},
};

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// Matches recorded now.
    pub recorded: u64,
    /// Of those, recorded without rating (a retired bot played).
    pub unrated: u64,
    /// Finished matches recorded before (left unchanged).
    pub known: u64,
    /// Logs of matches not finished (left for later).
    pub unfinished: u64,
    /// Logs refused, each with why.
    pub refused: Vec<Refusal>,
}

/// A log an import refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The log.
    pub log: String,
    /// Why.
    pub why: String,
}

/// The game and options every imported log must have: the league's.
#[derive(Debug, Clone)]
pub struct Expect {
    /// The game's name.
    pub game: String,
    /// Its options, effective values.
    pub options: whistle_rules::Options,
}

/// Imports every finished match log of `dir` (a tournament's output folder)
/// into `store`; `source` says where they came from; `league_dir`, if the
/// logs lie inside the league folder, makes their recorded paths relative.
///
/// # Errors
/// [`LeagueError::Io`] or [`LeagueError::Config`] for an unreadable folder
/// or log; [`LeagueError::Store`]. Matches recorded before the error stay.
pub fn import_dir(
    store: &mut Store,
    dir: &Path,
    source: &str,
    league_dir: Option<&Path>,
    expect: &Expect,
) -> Result<Imported, LeagueError> {
    import_rated(store, dir, source, league_dir, expect, &[])
}

/// [`import_dir`], with `still_rated`: retired bots whose matches are rated
/// all the same (a round's versions their owners replaced or withdrew while
/// it played: the round was seated with them and plays them to the end).
///
/// # Errors
/// As [`import_dir`].
pub fn import_rated(
    store: &mut Store,
    dir: &Path,
    source: &str,
    league_dir: Option<&Path>,
    expect: &Expect,
    still_rated: &[String],
) -> Result<Imported, LeagueError> {
    let paths = layout::log_paths(dir).map_err(|e| LeagueError::Config(e.to_string()))?;
    if paths.is_empty() && !dir.join("matches").is_dir() {
        return Err(LeagueError::Config(format!(
            "{}: not a tournament output folder (no matches/ folder)",
            dir.display()
        )));
    }
    let retired: Vec<String> = store
        .bots()?
        .into_iter()
        .filter(|b| b.retired && !still_rated.contains(&b.name))
        .map(|b| b.name)
        .collect();
    let mut done = Imported::default();
    for (_, path) in paths {
        // The log as written: a compressed one hashes as it did before.
        let bytes =
            whistle_replay::read_log_bytes(&path).map_err(|e| LeagueError::Io(path.clone(), e))?;
        let shown = league_dir
            .and_then(|l| path.strip_prefix(l).ok())
            .unwrap_or(&path)
            .display()
            .to_string();
        let log = match whistle_replay::read(&path) {
            Ok(log) => log,
            Err(e) => {
                done.refused.push(Refusal {
                    log: shown,
                    why: format!("not a replay log: {e}"),
                });
                continue;
            }
        };
        if log.end.is_none() {
            done.unfinished += 1;
            continue;
        }
        let log_hash = whistle_replay::sha256_hex(&bytes);
        if !store.has_match(&log_hash)? {
            if let Err(why) = check(&log, &bytes, &shown, expect) {
                done.refused.push(Refusal { log: shown, why });
                continue;
            }
        }
        // A match nobody played (every seat forfeited) rates no one either.
        let all_forfeited = log
            .end
            .as_ref()
            .is_some_and(|e| e.forfeited.len() >= log.header.seats.len());
        let rated = !all_forfeited && !log.header.seats.iter().any(|b| retired.contains(b));
        let record = match_record(&log, log_hash, source, shown);
        let (names, teams, places) = line_up(&log);
        let fresh = store.record_match(&record, rated, |before| {
            stats::weng_lin_sides(before, &names, &teams, &places)
        })?;
        if fresh {
            done.recorded += 1;
            done.unrated += u64::from(!rated);
        } else {
            done.known += 1;
        }
    }
    Ok(done)
}

/// Why a finished log may not count in the league, if it may not.
fn check(log: &MatchLog, bytes: &[u8], shown: &str, expect: &Expect) -> Result<(), String> {
    if log.header.game != expect.game {
        return Err(format!(
            "a match of {}; this league plays {}",
            whistle_protocol::limits::echo(&log.header.game),
            expect.game
        ));
    }
    // Options compare by their effective values (a default given or left
    // out is the same game).
    let effective = |o: &whistle_rules::Options| {
        use whistle_rules::Game as _;
        expect
            .game
            .parse::<whistle_rules::Variant>()
            .ok()
            .and_then(|v| v.new_game(o).ok())
            .map(|g| g.options())
    };
    let (found, wanted) = (effective(&log.header.options), effective(&expect.options));
    if found.is_none() || found != wanted {
        return Err(format!(
            "played with options {}; this league's are {}",
            log.header.options,
            wanted.unwrap_or_else(|| expect.options.clone())
        ));
    }
    for (seat, bot) in log.header.seats.iter().enumerate() {
        whistle_protocol::limits::check_name(bot).map_err(|e| format!("seat {seat}'s bot: {e}"))?;
    }
    let text = String::from_utf8_lossy(bytes);
    let report = whistle_replay::verify::verify_text(shown, &text, Default::default());
    if let Some(p) = report.problems.first() {
        return Err(format!(
            "fails `whistle replay verify` ({} problem(s)); the first, line {}: {}: expected {}, found {}",
            report.problems.len(),
            p.line,
            p.what,
            whistle_protocol::limits::echo(&p.expected),
            whistle_protocol::limits::echo(&p.found),
        ));
    }
    Ok(())
}

/// The seats' bots, teams and places of a finished log.
fn line_up(log: &MatchLog) -> (Vec<String>, Vec<u8>, Vec<usize>) {
    let end = log.end.as_ref().expect("a finished log");
    let forfeited: Vec<usize> = end.forfeited.iter().map(|s| s.index()).collect();
    (
        log.header.seats.clone(),
        end.result.teams.clone(),
        stats::places(&end.result.ranks, &forfeited),
    )
}

fn match_record(log: &MatchLog, log_hash: String, source: &str, log_path: String) -> MatchRecord {
    let end = log.end.as_ref().expect("a finished log");
    let (_, _, places) = line_up(log);
    let seats = log
        .header
        .seats
        .iter()
        .enumerate()
        .map(|(s, bot)| {
            let points = log
                .hands
                .iter()
                .filter(|h| !h.result.misdeal)
                .map(|h| i64::from(h.result.points.get(s).copied().unwrap_or(0)));
            let (sum, sum_sq, hands) =
                points.fold((0, 0, 0), |(a, b, n), p| (a + p, b + p * p, n + 1));
            SeatRecord {
                bot: bot.clone(),
                points: sum,
                points_sq: sum_sq,
                hands,
                place: places[s],
                faults: u64::from(end.faults.get(s).copied().unwrap_or(0)),
                forfeited: end.forfeited.iter().any(|f| f.index() == s),
            }
        })
        .collect();
    MatchRecord {
        log_hash,
        source: source.to_string(),
        tournament: log.header.tournament.clone(),
        match_index: log.header.match_index,
        log_path,
        hands: log.hands.iter().filter(|h| !h.result.misdeal).count() as u64,
        seats,
    }
}
