//! One scheduled round of a league, played by the tournament runner.
//!
//! [`prepare`] seats the active bots ([`crate::pairing`]) and writes the
//! round's folder (`rounds/NNNN/`: `round.toml`, the tournament file it
//! plays, and `tables.json`, its tables) before the store marks the round
//! started; the caller runs the tournament (`whistle_tournament::run` with
//! the round's folder, its plan and `resume`) and then calls [`finish`],
//! which imports the round's finished matches and closes the round once they
//! all are. Killed at any point, the next `prepare` finds the open round and
//! plays it on from its logs: no finished hand is lost, none counted twice.

use std::{
    collections::{BTreeMap, HashMap},
    path::{Path, PathBuf},
};

use whistle_rules::dealing::{Seed, WrittenSeed};
use whistle_tournament::{Tournament, schedule::Planned};

use crate::{
    LEAGUE_FILE, STORE_FILE,
    config::{BotEntry, LeagueFile},
    error::LeagueError,
    import::{Imported, import_rated},
    pairing::{self, Candidate},
    store::{Bot, Store},
};

/// A round folder's file that lists its tables (indices into its bots).
pub const TABLES_FILE: &str = "tables.json";

/// A round ready to play.
#[derive(Debug)]
pub struct Prepared {
    /// Its number (from 1).
    pub number: u64,
    /// Its folder.
    pub dir: PathBuf,
    /// The tournament it plays.
    pub tournament: Tournament,
    /// Its matches.
    pub plan: Vec<Planned>,
    /// Whether it continues a round an earlier run left open.
    pub resumed: bool,
    /// Who sits out this round and why, if anyone does (also in the
    /// round's `notes.txt`).
    pub note: Option<String>,
}

/// The file of a round's folder that says who sat out and why.
pub const NOTES_FILE: &str = "notes.txt";

/// The folder of round `number`.
pub fn round_dir(league: &Path, number: u64) -> PathBuf {
    league.join("rounds").join(format!("{number:04}"))
}

/// Opens the league at `league`: its file and its store.
///
/// # Errors
/// [`LeagueError`] if the folder holds no league.
pub fn open(league: &Path) -> Result<(LeagueFile, Store), LeagueError> {
    holds_league(league)?;
    let file = LeagueFile::load(&league.join(LEAGUE_FILE))?;
    let store = Store::open(&league.join(STORE_FILE))?;
    with_store(league, file, store)
}

/// [`open`] to read only ([`Store::open_read_only`]): what the commands
/// that only read (`standings`, `rounds`, `history`, `versions`, `stderr`,
/// `download`) and the site's pages use. It creates, migrates and writes
/// nothing, works beside a serving league and in a folder nobody can write.
///
/// # Errors
/// As [`open`].
pub fn open_read_only(league: &Path) -> Result<(LeagueFile, Store), LeagueError> {
    holds_league(league)?;
    let file = LeagueFile::load(&league.join(LEAGUE_FILE))?;
    let store = Store::open_read_only(&league.join(STORE_FILE))?;
    with_store(league, file, store)
}

/// The league file completed from the store: its folder and secret seed.
fn with_store(
    league: &Path,
    mut file: LeagueFile,
    store: Store,
) -> Result<(LeagueFile, Store), LeagueError> {
    if let Some(base) = store.meta(BASE_META)? {
        file.set_base(base.into());
    }
    if let Some(seed) = store.meta(SEED_META)? {
        let seed = WrittenSeed::parse(&seed).map_err(|_| {
            LeagueError::Config(format!("{}: the store's seed is damaged", league.display()))
        })?;
        file.set_seed(seed.seed());
    }
    Ok((file, store))
}

/// Refuses a folder that holds no league (no league file).
///
/// # Errors
/// [`LeagueError::Refused`], saying how to make one.
pub fn holds_league(league: &Path) -> Result<(), LeagueError> {
    if league.join(LEAGUE_FILE).exists() {
        return Ok(());
    }
    Err(LeagueError::Refused(format!(
        "{} holds no league (no {LEAGUE_FILE}); make one with `whistle league init FILE --dir {}`",
        league.display(),
        league.display()
    )))
}

/// Whether the league's secret must be drawn anew before its next round: a
/// league made before round seeds were derived by a keyed function keeps a
/// 62-bit number as its secret, which anyone can compute back from one
/// closed round's published seed (the old round seed was a linear function
/// of it), or none at all. Its played rounds keep their seeds (each
/// round's `round.toml` holds its own, and [`round_seeds`] reads them
/// there); its next rounds are derived from a fresh 256-bit secret.
fn secret_is_old(file: &LeagueFile, store: &Store) -> Result<bool, LeagueError> {
    if file.seed_given.is_some() {
        return Ok(false);
    }
    Ok(match store.meta(SEED_META)? {
        None => true,
        Some(s) => !matches!(WrittenSeed::parse(&s), Ok(WrittenSeed::Full(_))),
    })
}

/// The store's key for the folder of the league file `init` read: the
/// reference bots' relative paths are that folder's.
pub const BASE_META: &str = "file_folder";

/// The store's key for the league's secret seed, drawn at `init` when the
/// league file gives none. Bots never read the store (their sandboxes do not
/// reach the league folder) and no page shows it; each round's seed is
/// committed to before the round plays and revealed once it is closed
/// ([`round_seeds`]).
pub const SEED_META: &str = "seed";

/// A fresh secret league seed: 256 bits from the operating system.
pub fn draw_seed() -> Seed {
    whistle_tournament::config::draw_seed()
}

/// A round's seed as the public sees it: the commitment (SHA-256 of the
/// seed) from the moment the round starts, the seed once it is closed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundSeed {
    /// The round.
    pub round: u64,
    /// SHA-256 of its seed, as every log of the round carries it.
    pub commitment: String,
    /// The seed, once the round is closed: as its `round.toml` gives it
    /// (a number for rounds played before round seeds were 256 bits).
    pub seed: Option<WrittenSeed>,
    /// Whether the round is closed.
    pub closed: bool,
}

/// Every round started so far, with its commitment and (closed) its seed.
///
/// # Errors
/// The league cannot be opened.
pub fn round_seeds(league: &Path) -> Result<Vec<RoundSeed>, LeagueError> {
    let (_, store) = open_read_only(league)?;
    let (open_round, started) = store.rounds()?;
    (1..=started)
        .map(|round| {
            let seed = recorded_seed(league, round)?;
            let closed = open_round.as_ref().is_none_or(|(n, _)| *n != round);
            Ok(RoundSeed {
                round,
                commitment: whistle_replay::seed_commitment(seed.seed()),
                seed: closed.then_some(seed),
                closed,
            })
        })
        .collect()
}

/// The seed round `round` plays, as its folder's `round.toml` records it
/// (written before the round starts, never changed).
///
/// # Errors
/// A missing or damaged `round.toml`.
pub fn recorded_seed(league: &Path, round: u64) -> Result<WrittenSeed, LeagueError> {
    #[derive(serde::Deserialize)]
    struct Seeded {
        seed: WrittenSeed,
    }
    let path = round_dir(league, round).join("round.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| LeagueError::Io(path.clone(), e))?;
    // Only the seed is read; the rest of the file is skipped.
    toml::from_str::<Seeded>(&text)
        .map(|s| s.seed)
        .map_err(|e| LeagueError::Config(format!("{}: {}", path.display(), e.message())))
}

/// Seats the next round (or finds the round left open) and writes its
/// folder.
///
/// # Errors
/// [`LeagueError::Round`] when too few bots can play; IO and store errors.
pub fn prepare(league: &Path) -> Result<Prepared, LeagueError> {
    prepare_online(league, None)
}

/// [`prepare`] for a league that serves: the tables form around `online`,
/// the remote bots connected and waiting, and reference bots only fill
/// seats. Without `online` (a round run by itself) the bots the league
/// starts by command play, reference bots among them.
///
/// # Errors
/// As [`prepare`].
pub fn prepare_online(league: &Path, online: Option<&[String]>) -> Result<Prepared, LeagueError> {
    let (mut file, store) = open(league)?;
    let (open_round, started) = store.rounds()?;
    let (number, resumed) = match open_round {
        Some((n, _)) => (n, true),
        None => (started + 1, false),
    };
    let dir = round_dir(league, number);
    let tables_path = dir.join(TABLES_FILE);
    let round_path = dir.join("round.toml");
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| LeagueError::Io(p, e)
    };
    if !resumed {
        if secret_is_old(&file, &store)? {
            let secret = draw_seed();
            store.set_meta(SEED_META, &secret.to_hex())?;
            file.set_seed(secret);
        }
        let Seating { bots, groups, note } = seat(&file, &store, online)?;
        // The round's folder (its seed, deals and logs) is the owner's
        // alone.
        std::os::unix::fs::DirBuilderExt::mode(std::fs::DirBuilder::new().recursive(true), 0o700)
            .create(&dir)
            .map_err(io(&dir))?;
        let notes_path = dir.join(NOTES_FILE);
        if let Some(note) = &note {
            write_synced(&notes_path, format!("{note}\n").as_bytes()).map_err(io(&notes_path))?;
        }
        let text = file.tournament_text(number, &bots, &dir);
        write_synced(&round_path, text.as_bytes()).map_err(io(&round_path))?;
        let tables = serde_json::to_string_pretty(&groups).expect("indices serialize") + "\n";
        write_synced(&tables_path, tables.as_bytes()).map_err(io(&tables_path))?;
        store.start_round(number, &dir.display().to_string())?;
    }
    // A log of the open round that does not read (damaged by a crash of
    // the machine, or written by two processes at once before the league
    // folder was locked) would stop every start: it is set aside and its
    // match played again from the round's seed.
    let damaged = if resumed {
        set_aside_damaged(&dir)?
    } else {
        Vec::new()
    };
    if !damaged.is_empty() {
        use std::io::Write;
        let notes_path = dir.join(NOTES_FILE);
        let mut notes = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&notes_path)
            .map_err(io(&notes_path))?;
        for d in &damaged {
            writeln!(notes, "{d}").map_err(io(&notes_path))?;
        }
        notes.sync_all().map_err(io(&notes_path))?;
    }
    let text = std::fs::read_to_string(&round_path).map_err(io(&round_path))?;
    let mut tournament = Tournament::parse(&round_path, &text)?;
    // The round's own seed is 256 bits, derived; a searchable league seed
    // makes it searchable all the same.
    if tournament.seed_warning.is_none() {
        tournament.seed_warning = file.seed_warning();
    }
    let groups: Vec<Vec<usize>> =
        serde_json::from_str(&std::fs::read_to_string(&tables_path).map_err(io(&tables_path))?)
            .map_err(|e| LeagueError::Config(format!("{}: {e}", tables_path.display())))?;
    let plan = pairing::plan(&groups, file.duplicate, tournament.seed);
    let note = std::fs::read_to_string(dir.join(NOTES_FILE))
        .ok()
        .map(|t| t.trim_end().to_string())
        .filter(|t| !t.is_empty());
    Ok(Prepared {
        number,
        dir,
        tournament,
        plan,
        resumed,
        note,
    })
}

/// The folder of a round's folder where the logs that did not read are
/// kept (`rounds/NNNN/damaged/`).
pub const DAMAGED_DIR: &str = "damaged";

/// Sets aside the match logs of the round in `dir` that do not read as a
/// log of their match (a line that is not JSON, a broken hash chain, a
/// header of another match): each is moved to `dir/damaged/` (never
/// deleted: it is evidence) and its match is played again from the round's
/// seed, as if it had not started. A log cut short at its last line (a
/// kill) reads, and resumes as before. Returns a line for each log set
/// aside, saying so.
///
/// # Errors
/// [`LeagueError::Io`] if a damaged log cannot be moved.
pub fn set_aside_damaged(dir: &Path) -> Result<Vec<String>, LeagueError> {
    let paths = whistle_tournament::layout::log_paths(dir)
        .map_err(|e| LeagueError::Config(e.to_string()))?;
    let mut out = Vec::new();
    for (index, path) in paths {
        let why = match whistle_replay::open_log(&path) {
            // A log with no complete header line yet is started afresh by
            // the runner itself.
            Ok(mut r) => {
                let mut first = Vec::new();
                if std::io::BufRead::read_until(&mut r, b'\n', &mut first).is_err()
                    || !first.ends_with(b"\n")
                {
                    continue;
                }
                match whistle_replay::read(&path) {
                    Ok(log) if log.header.match_index == index => continue,
                    Ok(log) => format!("it holds match {}", log.header.match_index),
                    Err(e) => e.to_string(),
                }
            }
            Err(e) => e.to_string(),
        };
        let aside = dir.join(DAMAGED_DIR);
        std::os::unix::fs::DirBuilderExt::mode(std::fs::DirBuilder::new().recursive(true), 0o700)
            .create(&aside)
            .map_err(|e| LeagueError::Io(aside.clone(), e))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // A second damage of the same match keeps the first one's file.
        let mut target = aside.join(&name);
        let mut n = 1;
        while target.exists() {
            target = aside.join(format!("{name}.{n}"));
            n += 1;
        }
        std::fs::rename(&path, &target).map_err(|e| LeagueError::Io(path.clone(), e))?;
        let shown = target
            .strip_prefix(dir)
            .unwrap_or(&target)
            .display()
            .to_string();
        tracing::warn!(match_index = index, log = %shown, error = %why, "a damaged log set aside");
        out.push(format!(
            "match {index}'s log did not read ({}); it is kept as {shown} and the match is \
             played again from the round's seed",
            why.replace('\n', " ")
        ));
    }
    Ok(out)
}

/// A round's bots and tables.
struct Seating {
    /// The active bots the league can start.
    bots: Vec<(String, BotEntry)>,
    /// The tables: indices into `bots`.
    groups: Vec<Vec<usize>>,
    /// Who sits out and why, if anyone does.
    note: Option<String>,
}

/// The active bots the league can start, and the round's tables.
fn seat(
    file: &LeagueFile,
    store: &Store,
    online: Option<&[String]>,
) -> Result<Seating, LeagueError> {
    let meetings = store.meetings()?;
    let played: BTreeMap<String, u64> = meetings.played.into_iter().collect();
    let met: BTreeMap<(String, String), u64> = meetings
        .met
        .into_iter()
        .map(|(a, b, n)| if a < b { ((a, b), n) } else { ((b, a), n) })
        .collect();
    // Bots started by command always can play; a remote bot only while it
    // is connected (serving). A remote bot's token in the round's file is a
    // fresh random one nobody knows: the serving referee admits the bot by
    // its league token and ignores the file's.
    let hosted = hosted(store)?;
    // An owner sits once a round: its hosted version when one plays, its
    // token bot (connected by itself) otherwise. Both seated, the owner
    // would hold two seats of the same deals (one table, or two tables of a
    // duplicate movement) and could play one with what the other sees.
    let owners = hosting_owners(store)?;
    let active: Vec<(Bot, BotEntry)> = store
        .bots()?
        .into_iter()
        .filter(|b| !b.retired)
        .filter_map(|b| match (&b.command, online) {
            (Some(_), _) if hosted.contains_key(&b.name) => {
                let entry = hosted.get(&b.name).cloned()?;
                Some((b, entry))
            }
            (Some(c), _) => {
                let entry = BotEntry::Command(c.clone());
                Some((b, entry))
            }
            (None, Some(on)) if on.contains(&b.name) && !owners.contains(&b.name) => {
                Some((b, BotEntry::Remote(whistle_referee::new_token("unused"))))
            }
            (None, _) => None,
        })
        .collect();
    let candidates: Vec<Candidate> = active
        .iter()
        .map(|(b, _)| Candidate {
            name: b.name.clone(),
            played: played.get(&b.name).copied().unwrap_or(0),
            reference: b.reference,
            filler_only: online.is_some() && b.reference,
        })
        .collect();
    let groups = pairing::tables(&candidates, &met, file.seats, file.fill);
    if groups.is_empty() {
        return Err(LeagueError::Round(format!(
            "no table to play: {} bot(s) the league can start, {} seats a table{}",
            candidates.len(),
            file.seats,
            if file.fill {
                ""
            } else {
                " (`fill = true` lets reference bots fill seats)"
            }
        )));
    }
    let note = sitting_out(&candidates, &groups, file.seats, file.fill);
    let bots = active.into_iter().map(|(b, e)| (b.name, e)).collect();
    Ok(Seating { bots, groups, note })
}

/// Who of `candidates` (the bots that wanted a seat, reference bots that
/// only fill seats aside) has none at `groups`' tables, and why: too few
/// bots left for a table of `seats`, and, with `fill`, too few reference
/// bots to fill its seats; what to add for everyone to play.
fn sitting_out(
    candidates: &[Candidate],
    groups: &[Vec<usize>],
    seats: usize,
    fill: bool,
) -> Option<String> {
    let seated: std::collections::BTreeSet<usize> = groups.iter().flatten().copied().collect();
    let out: Vec<&str> = (0..candidates.len())
        .filter(|&b| !candidates[b].filler_only && !candidates[b].reference)
        .filter(|b| !seated.contains(b))
        .map(|b| candidates[b].name.as_str())
        .collect();
    if out.is_empty() {
        return None;
    }
    let left = out.len();
    let who = format!(
        "{} sit{} out this round: {left} bot(s) left over for a table of {seats} seats",
        out.join(", "),
        if left == 1 { "s" } else { "" }
    );
    if !fill {
        return Some(format!(
            "{who} (`fill = true` lets reference bots fill its seats)"
        ));
    }
    // Reference bots fill the leftover table; those seated elsewhere play
    // two tables only while the league runs rounds by itself.
    let spare = candidates.iter().filter(|c| c.reference).count();
    let missing = (seats - left).saturating_sub(spare);
    Some(format!(
        "{who}, and {spare} reference bot(s) to fill its {} empty seat(s); add {missing} more \
         reference bot(s) (`[[reference]]` in the league file) for every bot to be seated",
        seats - left
    ))
}

/// Writes `bytes` to `path` (the owner's alone) and waits until they are on
/// disk.
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::{io::Write, os::unix::fs::OpenOptionsExt};
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// What a round left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The import of its logs.
    pub imported: Imported,
    /// Whether every match of the round is recorded (the round is closed).
    pub complete: bool,
}

/// Imports the round's finished matches and closes the round if all its
/// matches are recorded.
///
/// # Errors
/// IO and store errors; matches recorded before an error stay.
pub fn finish(league: &Path, round: &Prepared) -> Result<Finished, LeagueError> {
    let (file, mut store) = open(league)?;
    // A version its owner replaced or withdrew while the round played was
    // seated when the round started: the round plays it to the end and its
    // matches are rated, its opponents' too. Its successor starts at the
    // next round, from the rating the round left it (if it inherits).
    let mut still_rated = Vec::new();
    for bot in &round.tournament.bots {
        if store.stopped_by_owner(&bot.name)? {
            still_rated.push(bot.name.clone());
        }
    }
    let imported = import_rated(
        &mut store,
        &round.dir,
        &format!("round {}", round.number),
        Some(league),
        &file.expect(),
        &still_rated,
    )?;
    if file.new_version == crate::config::NewVersion::Inherit {
        store.carry_ratings(&still_rated)?;
    }
    // A log refused is accounted for: it never counts, and the round
    // closes all the same.
    let complete = imported.unfinished == 0
        && (imported.recorded + imported.known) as usize + imported.refused.len()
            == round.plan.len();
    if complete {
        mark_round_files(&round.dir, round.number)?;
        store.finish_round(round.number)?;
        prune_stderr(league, round.number, file.keep_stderr_rounds)?;
        // A closed round's logs are kept compressed (every reader takes
        // them so); a log left uncompressed by a kill is compressed by the
        // next `compress_closed`.
        compress_logs(&round.dir)?;
    }
    Ok(Finished { imported, complete })
}

/// The note a round's `results.json` (`notes`, kind [`ROUND_NOTE`]) and
/// `standings.md` (its first lines) carry: they rate the round alone.
pub fn round_note(number: u64) -> String {
    format!(
        "these standings rate round {number}'s matches alone, every bot from scratch; the \
         league's ratings, carried over every round, are `whistle league standings` (and the \
         league site's front page)"
    )
}

/// The kind of the note of [`round_note`] in a round's `results.json`.
pub const ROUND_NOTE: &str = "league round";

/// Says in the round's `results.json` and `standings.md` (written by the
/// tournament runner, which knows nothing of leagues) that they rate the
/// round alone and where the league's ratings are. Done once.
fn mark_round_files(dir: &Path, number: u64) -> Result<(), LeagueError> {
    let path = dir.join("results.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        // No results (a round of nothing but refused logs): nothing to say.
        return Ok(());
    };
    let mut results: whistle_tournament::Results = serde_json::from_str(&text)
        .map_err(|e| LeagueError::Config(format!("{}: {e}", path.display())))?;
    if results.notes.iter().any(|n| n.kind == ROUND_NOTE) {
        return Ok(());
    }
    let note = round_note(number);
    results.notes.insert(
        0,
        whistle_tournament::stats::Note {
            bot: String::new(),
            kind: ROUND_NOTE.into(),
            detail: note.clone(),
        },
    );
    whistle_tournament::report::write_all(dir, &results)
        .map_err(|e| LeagueError::Io(dir.into(), e))?;
    let md = dir.join("standings.md");
    let body = std::fs::read_to_string(&md).map_err(|e| LeagueError::Io(md.clone(), e))?;
    let mut first = note;
    if let Some(c) = first.get_mut(..1) {
        c.make_ascii_uppercase();
    }
    std::fs::write(&md, format!("> League round {number}: {first}.\n\n{body}"))
        .map_err(|e| LeagueError::Io(md, e))
}

/// Deletes the bots' stderr logs (`logs/*.stderr.log`) of the rounds
/// before the last `keep` up to round `last` (`keep` 0: none is deleted).
/// The match logs, the evidence, stay.
///
/// # Errors
/// [`LeagueError::Io`] if a log cannot be deleted.
pub fn prune_stderr(league: &Path, last: u64, keep: u64) -> Result<(), LeagueError> {
    if keep == 0 {
        return Ok(());
    }
    for n in 1..=last.saturating_sub(keep) {
        let logs = round_dir(league, n).join("logs");
        let Ok(entries) = std::fs::read_dir(&logs) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".stderr.log"))
            {
                std::fs::remove_file(&path).map_err(|e| LeagueError::Io(path.clone(), e))?;
            }
        }
    }
    Ok(())
}

/// Compresses every uncompressed match log of a round's folder.
///
/// # Errors
/// A log that cannot be compressed.
pub fn compress_logs(dir: &Path) -> Result<(), LeagueError> {
    let paths = whistle_tournament::layout::log_paths(dir)
        .map_err(|e| LeagueError::Config(e.to_string()))?;
    for (_, path) in paths {
        if !whistle_replay::is_compressed(&path) {
            whistle_replay::compress_log(&path).map_err(|e| LeagueError::Io(path.clone(), e))?;
        }
    }
    Ok(())
}

/// Compresses what a kill left uncompressed in the league's closed rounds.
///
/// # Errors
/// As [`compress_logs`]; the league cannot be opened.
pub fn compress_closed(league: &Path) -> Result<(), LeagueError> {
    let (_, store) = open(league)?;
    let (open_round, started) = store.rounds()?;
    for n in 1..=started {
        if open_round.as_ref().is_some_and(|(o, _)| *o == n) {
            continue;
        }
        let dir = round_dir(league, n);
        if dir.is_dir() {
            compress_logs(&dir)?;
        }
    }
    Ok(())
}

/// The owners (token bots) with a version that plays: the round seats the
/// version and not the token bot.
///
/// # Errors
/// [`LeagueError::Store`].
pub fn hosting_owners(store: &Store) -> Result<std::collections::BTreeSet<String>, LeagueError> {
    let mut q = store.conn().prepare(
        "SELECT o.name FROM versions v JOIN bots b ON b.id = v.bot_id
         JOIN bots o ON o.id = v.owner_id
         WHERE v.status = 'accepted' AND b.retired_at IS NULL",
    )?;
    let rows = q.query_map([], |r| r.get::<_, String>(0))?;
    let mut out = std::collections::BTreeSet::new();
    for row in rows {
        out.insert(row?);
    }
    Ok(out)
}

/// The versions that play, as the round seats them: each accepted version's
/// bot, started in its folder.
///
/// # Errors
/// [`LeagueError::Store`].
pub fn hosted(store: &Store) -> Result<HashMap<String, BotEntry>, LeagueError> {
    // The league folder is the store's.
    let Some(league) = store
        .conn()
        .path()
        .and_then(|p| Path::new(p).parent())
        .map(Path::to_path_buf)
    else {
        return Ok(HashMap::new());
    };
    let mut q = store.conn().prepare(
        "SELECT b.name, v.dir, v.command, v.stdio FROM versions v JOIN bots b ON b.id = v.bot_id
         WHERE v.status = 'accepted' AND b.retired_at IS NULL",
    )?;
    let rows = q.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, bool>(3)?,
        ))
    })?;
    let league = std::path::absolute(&league).unwrap_or(league);
    let mut out = HashMap::new();
    for row in rows {
        let (name, dir, command, stdio) = row?;
        let dir = league.join(dir);
        let Ok(words) = serde_json::from_str::<Vec<String>>(&command) else {
            continue;
        };
        // A version taken before such programs were refused is not hosted.
        if words
            .first()
            .is_none_or(|w| crate::config::foreign_program(w).is_some())
        {
            continue;
        }
        // A program given by a path is the version's; arguments naming its
        // files are made absolute (the round's file lies elsewhere).
        let mut command = whistle_tournament::confine::absolute_args(&words, &dir);
        if let Some(first) = words.first()
            && Path::new(first).components().count() > 1
            && Path::new(first).is_relative()
        {
            command[0] = dir.join(first).display().to_string();
        }
        out.insert(
            name,
            BotEntry::Hosted {
                command,
                dir,
                stdio,
            },
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use whistle_rules::dealing::Domain;

    #[test]
    fn a_bot_left_without_a_table_is_named_with_what_to_add() {
        // Five students and two reference bots that only fill seats (a
        // served league), tables of four: one table of students; the one
        // left over needs three reference bots and there are two.
        let mut bots: Vec<Candidate> = ["a", "b", "c", "d", "e", "r1", "r2"]
            .iter()
            .map(|n| Candidate {
                name: (*n).to_string(),
                played: 0,
                reference: n.starts_with('r'),
                filler_only: n.starts_with('r'),
            })
            .collect();
        let groups = pairing::tables(&bots, &BTreeMap::new(), 4, true);
        assert_eq!(groups.len(), 1);
        let note = sitting_out(&bots, &groups, 4, true).unwrap();
        assert!(
            note.starts_with("e sits out this round: 1 bot(s) left over"),
            "{note}"
        );
        assert!(
            note.contains("2 reference bot(s) to fill its 3 empty seat(s); add 1 more"),
            "{note}"
        );
        // A third reference bot seats everyone: nothing to say.
        bots.push(Candidate {
            name: "r3".into(),
            played: 0,
            reference: true,
            filler_only: true,
        });
        let groups = pairing::tables(&bots, &BTreeMap::new(), 4, true);
        assert_eq!(groups.len(), 2);
        assert_eq!(sitting_out(&bots, &groups, 4, true), None);
        // Without fill the leftover bot sits out, and the note says why.
        let groups = pairing::tables(&bots, &BTreeMap::new(), 4, false);
        let note = sitting_out(&bots, &groups, 4, false).unwrap();
        assert!(
            note.contains("`fill = true` lets reference bots fill"),
            "{note}"
        );
    }

    #[test]
    fn only_the_last_rounds_keep_their_bots_stderr() {
        let tmp = tempfile::tempdir().unwrap();
        let league = tmp.path();
        for n in 1..=5 {
            let dir = round_dir(league, n);
            std::fs::create_dir_all(dir.join("logs")).unwrap();
            std::fs::create_dir_all(dir.join("matches")).unwrap();
            std::fs::write(dir.join("logs/a.stderr.log"), "chatter").unwrap();
            std::fs::write(dir.join("matches/m00000.jsonl.gz"), "evidence").unwrap();
        }
        let kept = |n: u64| round_dir(league, n).join("logs/a.stderr.log").exists();
        prune_stderr(league, 5, 0).unwrap();
        assert!((1..=5).all(kept), "0 keeps every round's");
        prune_stderr(league, 5, 2).unwrap();
        assert_eq!(
            (1..=5).map(kept).collect::<Vec<_>>(),
            [false, false, false, true, true]
        );
        assert!(
            (1..=5).all(|n| round_dir(league, n)
                .join("matches/m00000.jsonl.gz")
                .exists()),
            "match logs stay"
        );
        // A round with no logs folder (never played) is passed over.
        prune_stderr(league, 9, 2).unwrap();
        assert!(!kept(5));
    }

    #[test]
    fn a_round_keeps_the_seed_its_file_records_old_or_new() {
        let tmp = tempfile::tempdir().unwrap();
        let league = tmp.path();
        let new = Seed::from_u64(1).derive(Domain::Round, 2);
        for (n, seed) in [(1, "123456789".to_string()), (2, format!("\"{new}\""))] {
            let dir = round_dir(league, n);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("round.toml"),
                format!("name = \"l-r{n:04}\"\ngame = \"israeli\"\nseed = {seed}\n"),
            )
            .unwrap();
        }
        // A round played before round seeds were 256 bits keeps its number
        // (it is what its logs commit to); a new one its 64 hex digits.
        assert_eq!(
            recorded_seed(league, 1).unwrap(),
            WrittenSeed::Number(123_456_789)
        );
        assert_eq!(recorded_seed(league, 2).unwrap(), WrittenSeed::Full(new));
        assert!(recorded_seed(league, 3).is_err());
    }
}
