//! Bots' owners upload versions of their bots; the league checks, keeps and
//! plays them (docs/leagues.md, "For students").
//!
//! An upload (a folder, a `.tar.gz` or a `.zip`; [`crate::archive`]) holds a
//! manifest, `whistle.toml` (or `bot.toml`) at its root ([`Manifest`]). With
//! the bot's token, [`submit`] takes the league's upload lock, unpacks the
//! upload into a staging folder inside the league folder, builds it in a
//! sandbox (its own time, memory and disk limits, no network) when the
//! manifest says how, and runs `whistle check-bot` on it for the league's
//! game. Accepted, the folder is renamed into `submissions/OWNER/HASH/` and
//! one transaction records the version and adds the bot that plays it,
//! `OWNER.vN`, which replaces the owner's previous version (its rating
//! carried on or reset as `rating.new_version` says). Refused, the staging
//! folder is removed and the refusal (with the check's output) is recorded
//! for the owner: no bot, rating or file of the league changes. A kill at
//! any point leaves at most a staging folder or an unrecorded version
//! folder, both removed by the next upload.

use std::{
    fs::File,
    io::Read,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::{
    archive::{self, Bounds},
    config::{LeagueError, LeagueFile, NewVersion},
    round,
    store::{Store, now},
};

pub use crate::config::Rules;

/// The folder of the league folder that holds the accepted versions.
pub const SUBMISSIONS: &str = "submissions";
/// The manifest's names, in the order they are looked for.
pub const MANIFESTS: [&str; 2] = ["whistle.toml", "bot.toml"];
/// What a token that admits no bot of the league is told, whether the bot
/// exists, is retired or never was.
pub const BAD_TOKEN: &str = "this token admits no bot of the league";
/// The most bytes of a check's output, or of a failing build's stderr, kept.
const OUTPUT_BYTES: usize = 6000;

impl Rules {
    fn bounds(&self) -> Bounds {
        Bounds {
            archive_bytes: self.archive_mib << 20,
            unpacked_bytes: self.unpacked_mib << 20,
            entries: self.files,
        }
    }
}

/// An upload's manifest (`whistle.toml` at its root).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Program and arguments that start the bot, run in its folder.
    pub command: Vec<String>,
    /// `"stdio"` (JSON lines, docs/stdio.md) or `"grpc"` (the launch
    /// contract, docs/protocol.md).
    pub protocol: String,
    /// A build step run before the check: a shell command line or a
    /// program and arguments.
    pub build: Option<Build>,
    /// The program the bot needs on the league's machine (`python3`,
    /// `node`, `java`, ...): the upload is refused at once without it.
    pub runtime: Option<String>,
}

/// A build step.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Build {
    /// Run by `sh -c`.
    Line(String),
    /// A program and its arguments.
    Words(Vec<String>),
}

impl Manifest {
    /// Reads and checks a manifest's text.
    ///
    /// # Errors
    /// What is wrong, naming the key.
    pub fn parse(name: &str, text: &str) -> Result<Manifest, String> {
        let m: Manifest = toml::from_str(text).map_err(|e| {
            format!(
                "{name}: {}",
                whistle_protocol::limits::truncate(e.to_string().trim(), 600)
            )
        })?;
        if m.command.is_empty() || m.command[0].is_empty() {
            return Err(format!(
                "{name}: `command` is empty: give the program and its arguments, e.g. \
                 command = [\"python3\", \"bot.py\"]"
            ));
        }
        if let Some(why) = crate::config::foreign_program(&m.command[0]) {
            return Err(format!("{name}: `command`: {why}"));
        }
        // The build's sandbox is granted the runtime of its program too.
        if let Some(Build::Words(w)) = &m.build
            && let Some(why) = w.first().and_then(|p| crate::config::foreign_program(p))
        {
            return Err(format!("{name}: `build`: {why}"));
        }
        let words: Vec<&String> = m
            .command
            .iter()
            .chain(match &m.build {
                Some(Build::Words(w)) => w.iter(),
                _ => [].iter(),
            })
            .collect();
        if words.len() > 64 || words.iter().any(|w| w.len() > 512 || w.contains('\0')) {
            return Err(format!(
                "{name}: `command` and `build` take at most 64 words of 512 bytes"
            ));
        }
        if let Some(Build::Line(l)) = &m.build
            && (l.is_empty() || l.len() > 4096 || l.contains('\0'))
        {
            return Err(format!(
                "{name}: `build` is empty or longer than 4096 bytes"
            ));
        }
        if let Some(Build::Words(w)) = &m.build
            && w.is_empty()
        {
            return Err(format!("{name}: `build` is empty"));
        }
        if m.protocol != "stdio" && m.protocol != "grpc" {
            return Err(format!(
                "{name}: `protocol` is `{}`: `stdio` (JSON lines on stdin and stdout) or `grpc`",
                whistle_protocol::limits::truncate(&m.protocol, 40)
            ));
        }
        Ok(m)
    }

    /// Whether the bot speaks JSON lines on stdio.
    pub fn stdio(&self) -> bool {
        self.protocol == "stdio"
    }
}

/// What an upload came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The version number, if accepted.
    pub version: Option<u32>,
    /// `accepted: version 4 ...` or `refused: ...`.
    pub message: String,
    /// The check's output (bounded), if it ran.
    pub output: String,
}

/// A version of a bot, as its owner and the organiser see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Version {
    /// Its number (accepted versions only).
    pub number: Option<u32>,
    /// `accepted` (it plays), `replaced`, `withdrawn`, `disabled`, `refused`.
    pub status: String,
    /// When it was uploaded.
    pub submitted_at: String,
    /// SHA-256 of its files.
    pub hash: String,
    /// The bot that plays it.
    pub bot: Option<String>,
    /// Its folder, relative to the league folder.
    pub dir: Option<String>,
    /// Its bytes unpacked.
    pub bytes: u64,
    /// The check's output, or why it was refused.
    pub output: String,
    /// Its bot's rating (accepted versions).
    pub rating: Option<f64>,
    /// Matches its bot played.
    pub matches: Option<u64>,
    /// Faults its bot made in them.
    pub faults: Option<u64>,
}

/// The owner a token admits (an active bot with a token).
fn owner(store: &Store, token: &str) -> Result<(i64, String), LeagueError> {
    let name = store
        .bot_by_token(token)?
        .ok_or_else(|| LeagueError::Refused(BAD_TOKEN.into()))?;
    let id: i64 = store
        .conn()
        .query_row("SELECT id FROM bots WHERE name = ?1", [&name], |r| r.get(0))?;
    Ok((id, name))
}

fn owner_id(store: &Store, name: &str) -> Result<i64, LeagueError> {
    store
        .conn()
        .query_row(
            "SELECT id FROM bots WHERE name = ?1 AND token_hint IS NOT NULL",
            [name],
            |r| r.get(0),
        )
        .optional()?
        .ok_or_else(|| LeagueError::Refused(format!("no bot named `{name}` takes uploads")))
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The league's upload lock, held while one upload is checked: an
/// exclusive transaction on a SQLite file of its own (`submissions/.lock`),
/// which the system releases when the process ends, however it ends.
struct Lock {
    _conn: rusqlite::Connection,
}

/// The file of the upload queue (beside the lock): the uploads waiting, one
/// a bot, and when each bot was last served.
const QUEUE_FILE: &str = ".lock-queue";

/// How often a waiting upload looks whether its turn has come.
const QUEUE_POLL: Duration = Duration::from_millis(100);

/// An upload's place in the queue, given up when dropped (served, refused
/// or failed).
struct Ticket {
    conn: rusqlite::Connection,
    id: i64,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let _ = self
            .conn
            .execute("DELETE FROM waiting WHERE id = ?1", [self.id]);
    }
}

/// Whether process `pid` still runs (a ticket of a killed upload is
/// dropped by the next upload that looks).
fn alive(pid: i64) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    !matches!(
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None),
        Err(nix::errno::Errno::ESRCH)
    )
}

/// Why an upload of `owner` would be refused before it queues, if it would:
/// the hourly bound reached, or an upload of the bot waiting already (from
/// the command line or the site). The site asks before it answers 202, so
/// that such a refusal is the answer, not a later surprise. Read only; a
/// store or queue that cannot be read says nothing (the check decides).
pub fn refused_before_queue(league: &Path, owner: &str) -> Option<String> {
    let (file, store) = round::open_read_only(league).ok()?;
    let rules = Rules::of(&file).ok()?;
    let owner_id = owner_id(&store, owner).ok()?;
    let recent: u32 = store
        .conn()
        .query_row(
            "SELECT COUNT(*) FROM versions WHERE owner_id = ?1 AND submitted_unix > ?2",
            params![owner_id, unix_now() - 3600],
            |r| r.get(0),
        )
        .ok()?;
    if recent >= rules.uploads_per_hour {
        return Some(format!(
            "refused: {recent} uploads of `{owner}` in the last hour; the league takes {} an hour",
            rules.uploads_per_hour
        ));
    }
    let queue = league.join(SUBMISSIONS).join(QUEUE_FILE);
    if !queue.exists() {
        return None;
    }
    let q =
        rusqlite::Connection::open_with_flags(&queue, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .ok()?;
    let pid: i64 = q
        .query_row("SELECT pid FROM waiting WHERE bot = ?1", [owner], |r| {
            r.get(0)
        })
        .ok()?;
    alive(pid).then(|| {
        format!(
            "refused: an upload of `{owner}` is waiting to be checked already (a bot has one \
             upload waiting at a time); upload again once it is checked"
        )
    })
}

/// Takes the upload lock in `tx` if upload `id` (of `owner`) is at the head
/// of the queue and the lock is free: the bot's turn recorded and its place
/// given up. Whether it was taken.
fn take_turn(
    tx: &rusqlite::Transaction<'_>,
    lock: &rusqlite::Connection,
    id: i64,
    owner: &str,
) -> Result<bool, LeagueError> {
    let head: Option<i64> = tx
        .query_row(
            "SELECT w.id FROM waiting w LEFT JOIN served s ON s.bot = w.bot
             ORDER BY COALESCE(s.turn, 0), w.id LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if head != Some(id) {
        return Ok(false);
    }
    match lock.execute_batch("BEGIN EXCLUSIVE") {
        Ok(()) => {
            tx.execute(
                "INSERT INTO served (bot, turn)
                 VALUES (?1, (SELECT COALESCE(MAX(turn), 0) + 1 FROM served))
                 ON CONFLICT(bot) DO UPDATE SET turn = excluded.turn",
                [owner],
            )?;
            tx.execute("DELETE FROM waiting WHERE id = ?1", [id])?;
            Ok(true)
        }
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::DatabaseBusy =>
        {
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// Takes the upload lock for `owner`'s upload, in its turn: uploads wait in
/// a queue shared by every process that uploads (the command line's, the
/// site's), one upload a bot, and the lock goes round by bot: to the
/// waiting upload of the bot served longest ago (a bot never served
/// first), then the one that came first. A bot that uploads again and
/// again therefore goes once a turn, behind every other bot waiting: an
/// upload waits at most for the one being checked and one of each other
/// bot with an upload waiting. After `wait` in the queue the upload is
/// refused (and not recorded: it does not count against the hourly bound).
fn lock(league: &Path, owner: &str, wait: Duration) -> Result<Lock, LeagueError> {
    let dir = league.join(SUBMISSIONS);
    std::fs::create_dir_all(&dir).map_err(|e| LeagueError::Io(dir.clone(), e))?;
    // The bots' code is their owners' and the organiser's only.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| LeagueError::Io(dir.clone(), e))?;
    }
    let queue = rusqlite::Connection::open(dir.join(QUEUE_FILE))?;
    queue.busy_timeout(Duration::from_secs(10))?;
    queue.execute_batch(
        "CREATE TABLE IF NOT EXISTS waiting (id INTEGER PRIMARY KEY, bot TEXT NOT NULL UNIQUE,
                                             pid INTEGER NOT NULL);
         CREATE TABLE IF NOT EXISTS served (bot TEXT PRIMARY KEY, turn INTEGER NOT NULL);",
    )?;
    let clear_dead = |q: &rusqlite::Connection| -> Result<(), LeagueError> {
        let pids: Vec<i64> = q
            .prepare("SELECT DISTINCT pid FROM waiting")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for pid in pids.into_iter().filter(|p| !alive(*p)) {
            q.execute("DELETE FROM waiting WHERE pid = ?1", [pid])?;
        }
        Ok(())
    };
    let conn = rusqlite::Connection::open(dir.join(".lock"))?;
    // Asked, never waited for: the queue says whose turn it is.
    conn.busy_timeout(Duration::ZERO)?;
    let id = {
        let tx =
            rusqlite::Transaction::new_unchecked(&queue, rusqlite::TransactionBehavior::Immediate)?;
        clear_dead(&tx)?;
        let taken = tx.execute(
            "INSERT INTO waiting (bot, pid) VALUES (?1, ?2) ON CONFLICT(bot) DO NOTHING",
            params![owner, i64::from(std::process::id())],
        )?;
        if taken == 0 {
            return Err(LeagueError::Refused(format!(
                "refused: an upload of `{owner}` is waiting to be checked already (a bot has one \
                 upload waiting at a time); upload again once it is checked"
            )));
        }
        let id = tx.last_insert_rowid();
        // Its turn at once when nothing waits before it: taken in the same
        // transaction, so that the bot's next upload never finds this one
        // waiting when it is in fact being checked.
        if take_turn(&tx, &conn, id, owner)? {
            tx.commit()?;
            return Ok(Lock { _conn: conn });
        }
        tx.commit()?;
        id
    };
    let ticket = Ticket { conn: queue, id };
    let started = Instant::now();
    loop {
        let tx = rusqlite::Transaction::new_unchecked(
            &ticket.conn,
            rusqlite::TransactionBehavior::Immediate,
        )?;
        clear_dead(&tx)?;
        if take_turn(&tx, &conn, ticket.id, owner)? {
            tx.commit()?;
            return Ok(Lock { _conn: conn });
        }
        tx.commit()?;
        if started.elapsed() >= wait {
            return Err(LeagueError::Refused(format!(
                "refused: the league is still checking other uploads after {} s; try again later \
                 (this refusal does not count against the hourly bound)",
                wait.as_secs()
            )));
        }
        std::thread::sleep(QUEUE_POLL);
    }
}

/// Removes what an upload killed part way left: staging folders and version
/// folders no version names. Called with the lock held.
fn clean(league: &Path, store: &Store) -> Result<(), LeagueError> {
    let root = league.join(SUBMISSIONS);
    let staging = root.join(".staging");
    if staging.exists() {
        // A killed upload's build or check may still run: ended first.
        for up in std::fs::read_dir(&staging).into_iter().flatten().flatten() {
            end_leftovers(&up.path());
        }
        std::fs::remove_dir_all(&staging).map_err(|e| LeagueError::Io(staging.clone(), e))?;
    }
    let kept: std::collections::HashSet<String> = {
        let mut q = store
            .conn()
            .prepare("SELECT dir FROM versions WHERE dir IS NOT NULL")?;
        q.query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<_, _>>()?
    };
    let Ok(owners) = std::fs::read_dir(&root) else {
        return Ok(());
    };
    for o in owners.flatten() {
        if !o.path().is_dir() || o.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(versions) = std::fs::read_dir(o.path()) else {
            continue;
        };
        for v in versions.flatten() {
            let rel = format!(
                "{SUBMISSIONS}/{}/{}",
                o.file_name().to_string_lossy(),
                v.file_name().to_string_lossy()
            );
            if !kept.contains(&rel) {
                tracing::warn!(folder = %rel, "removing a version folder an interrupted upload left");
                let _ = std::fs::remove_dir_all(v.path());
            }
        }
    }
    Ok(())
}

/// The file of a staging folder that lists the process groups its upload
/// started (its build's sandbox, its check).
const PIDS: &str = "pids";

/// Notes a process group an upload started, so that the next upload can
/// end it if this one is killed.
fn note_pid(staging: &Path, pid: u32) {
    use std::io::Write;
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(staging.join(PIDS))
    {
        let _ = writeln!(f, "{pid}");
    }
}

/// Ends the process groups a killed upload left running in `staging`:
/// each one still a whistle sandbox launcher or a `check-bot` of that
/// folder (its command line says so; a pid taken since by another program
/// is left alone).
fn end_leftovers(staging: &Path) {
    let Ok(text) = std::fs::read_to_string(staging.join(PIDS)) else {
        return;
    };
    let folder = std::path::absolute(staging)
        .unwrap_or_else(|_| staging.to_path_buf())
        .display()
        .to_string();
    for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
        if pid <= 1 {
            continue;
        }
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let words: Vec<String> = cmdline
            .split(|b| *b == 0)
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        let ours = words.iter().any(|w| w == whistle_sandbox::LAUNCHER_ARG)
            || (words.iter().any(|w| w == "check-bot")
                && words.iter().any(|w| w.starts_with(&folder)));
        if ours {
            tracing::warn!(
                pid,
                "ending a build or check an interrupted upload left running"
            );
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

/// The bytes under `dir` (files only, links not followed).
fn disk(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => disk(&e.path()),
            Ok(m) if m.is_file() => m.len(),
            _ => 0,
        })
        .sum()
}

/// Where the upload's manifest is: the root, or the one folder the root
/// holds (an archive of a folder).
fn find_root(unpacked: &Path) -> Result<(PathBuf, &'static str), String> {
    let has = |d: &Path| MANIFESTS.into_iter().find(|m| d.join(m).is_file());
    if let Some(m) = has(unpacked) {
        return Ok((unpacked.to_path_buf(), m));
    }
    let entries: Vec<_> = std::fs::read_dir(unpacked)
        .map_err(|e| e.to_string())?
        .flatten()
        .collect();
    if let [one] = entries.as_slice()
        && std::fs::symlink_metadata(one.path()).is_ok_and(|m| m.is_dir())
        && let Some(m) = has(&one.path())
    {
        return Ok((one.path(), m));
    }
    Err(
        "the upload has no whistle.toml at its root (the manifest: command, protocol, build, \
         runtime; see docs/leagues.md)"
            .into(),
    )
}

/// Submits a version of the bot `token` admits: checks it and, accepted,
/// makes it the bot's version that plays. `whistle` is the whistle binary
/// (the sandbox's launcher and `check-bot`).
///
/// # Errors
/// [`LeagueError::Refused`] for a bad token ([`BAD_TOKEN`]), a full queue or
/// the hourly bound (nothing recorded); IO and store errors. An upload the
/// checks refuse is an [`Outcome`] without a version.
pub fn submit(
    league: &Path,
    token: &str,
    upload: &Path,
    whistle: &Path,
) -> Result<Outcome, LeagueError> {
    let (file, mut store) = round::open(league)?;
    let rules = Rules::of(&file)?;
    let (owner_id, owner) = owner(&store, token)?;
    // Past the hourly bound an upload is refused before it queues (and
    // again once its turn has come: another of the bot's may have been
    // checked meanwhile).
    let hourly = |store: &Store| -> Result<(), LeagueError> {
        let recent: u32 = store.conn().query_row(
            "SELECT COUNT(*) FROM versions WHERE owner_id = ?1 AND submitted_unix > ?2",
            params![owner_id, unix_now() - 3600],
            |r| r.get(0),
        )?;
        if recent >= rules.uploads_per_hour {
            return Err(LeagueError::Refused(format!(
                "refused: {recent} uploads of `{owner}` in the last hour; the league takes {} an \
                 hour",
                rules.uploads_per_hour
            )));
        }
        Ok(())
    };
    hourly(&store)?;
    let _lock = lock(league, &owner, Duration::from_secs(rules.queue_s))?;
    clean(league, &store)?;
    hourly(&store)?;
    let staging = league
        .join(SUBMISSIONS)
        .join(".staging")
        .join(whistle_referee::new_token("up").replace(['-', '_'], ""));
    std::fs::create_dir_all(&staging).map_err(|e| LeagueError::Io(staging.clone(), e))?;
    let result = check(
        league, &file, &mut store, &rules, owner_id, &owner, token, upload, whistle, &staging,
    );
    let _ = std::fs::remove_dir_all(&staging);
    if let Some(parent) = staging.parent() {
        // Only when empty: nothing of a finished upload stays.
        let _ = std::fs::remove_dir(parent);
    }
    result
}

/// The refusal of an upload, recorded for its owner.
fn refuse(
    store: &mut Store,
    owner_id: i64,
    token: &str,
    hash: &str,
    bytes: u64,
    why: &str,
    output: &str,
) -> Result<Outcome, LeagueError> {
    let why = bounded(why, OUTPUT_BYTES);
    let why = why.trim_end();
    let output = bounded(output, OUTPUT_BYTES);
    store.conn().execute(
        "INSERT INTO versions (owner_id, hash, uploader, submitted_at, submitted_unix, status,
                               bytes, output)
         VALUES (?1, ?2, ?3, ?4, ?5, 'refused', ?6, ?7)",
        params![
            owner_id,
            hash,
            whistle_protocol::limits::token_hint(token),
            now(),
            unix_now(),
            bytes as i64,
            format!("{why}\n{output}")
        ],
    )?;
    Ok(Outcome {
        version: None,
        message: format!("refused: {why}"),
        output: output.to_string(),
    })
}

#[allow(clippy::too_many_arguments)]
fn check(
    league: &Path,
    file: &LeagueFile,
    store: &mut Store,
    rules: &Rules,
    owner_id: i64,
    owner: &str,
    token: &str,
    upload: &Path,
    whistle: &Path,
    staging: &Path,
) -> Result<Outcome, LeagueError> {
    let unpacked = staging.join("upload");
    std::fs::create_dir(&unpacked).map_err(|e| LeagueError::Io(unpacked.clone(), e))?;
    let done = match archive::unpack(upload, &unpacked, &rules.bounds()) {
        Ok(d) => d,
        Err(why) => return refuse(store, owner_id, token, "", 0, &why, ""),
    };
    let (root, manifest_name) = match find_root(&unpacked) {
        Ok(r) => r,
        Err(why) => return refuse(store, owner_id, token, "", done.bytes, &why, ""),
    };
    let hash = archive::tree_hash(&root).map_err(LeagueError::Refused)?;
    let text = std::fs::read_to_string(root.join(manifest_name)).unwrap_or_default();
    let manifest = match Manifest::parse(manifest_name, &text) {
        Ok(m) => m,
        Err(why) => return refuse(store, owner_id, token, &hash, done.bytes, &why, ""),
    };
    if let Some(rt) = &manifest.runtime {
        let path = std::env::var("PATH").unwrap_or_default();
        if whistle_sandbox::which(rt, &path).is_none() {
            let why = format!(
                "the manifest's runtime `{}` is not on the league's machine",
                whistle_protocol::limits::truncate(rt, 60)
            );
            return refuse(store, owner_id, token, &hash, done.bytes, &why, "");
        }
    }
    // The same files as the version that plays: nothing to check.
    let playing: Option<u32> = store
        .conn()
        .query_row(
            "SELECT v.number FROM versions v JOIN bots b ON b.id = v.bot_id
             WHERE v.owner_id = ?1 AND v.hash = ?2 AND v.status = 'accepted'
             AND b.retired_at IS NULL",
            params![owner_id, hash],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(n) = playing {
        return Ok(Outcome {
            version: Some(n),
            message: format!("accepted already: version {n} has the same files and plays"),
            output: String::new(),
        });
    }
    let number: u32 = store.conn().query_row(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE owner_id = ?1",
        [owner_id],
        |r| r.get(0),
    )?;
    let bot_name = format!("{owner}.v{number}");
    if let Err(e) = whistle_protocol::limits::check_name(&bot_name) {
        let why = format!("the version's bot name `{bot_name}`: {e} (a shorter bot name)");
        return refuse(store, owner_id, token, &hash, done.bytes, &why, "");
    }
    let owner_dir = league.join(SUBMISSIONS).join(owner);
    let used = disk(&owner_dir);
    if used + done.bytes > rules.disk_mib << 20 {
        let why = format!(
            "`{owner}`'s versions take {} MiB and this one {} MiB; the league keeps {} MiB a bot \
             (the organiser can disable old versions)",
            used >> 20,
            done.bytes.div_ceil(1 << 20),
            rules.disk_mib
        );
        return refuse(store, owner_id, token, &hash, done.bytes, &why, "");
    }

    // Built in the sandbox: the version's folder is what the build leaves.
    let folder = match &manifest.build {
        None => root.clone(),
        Some(b) => {
            let built = staging.join("built");
            std::fs::create_dir(&built).map_err(|e| LeagueError::Io(built.clone(), e))?;
            if let Err(why) = build(whistle, rules, &root, b, &built, staging) {
                return refuse(store, owner_id, token, &hash, done.bytes, &why, "");
            }
            built
        }
    };
    let (passed, output) = check_bot(
        whistle, league, file, rules, &bot_name, &manifest, &folder, staging,
    );
    if !passed {
        // The FAIL lines, and the bot's stderr lines: those indented under
        // the first FAIL, or the report's line that gives them.
        let mut fails: Vec<&str> = Vec::new();
        let mut under_first = false;
        for l in output.lines() {
            if l.starts_with("FAIL") {
                under_first = !fails.iter().any(|f| f.starts_with("FAIL"));
                fails.push(l);
            } else if l.starts_with("check-bot:") || l.starts_with("the bot's stderr:") {
                under_first = false;
                fails.push(l);
            } else if under_first && l.starts_with(char::is_whitespace) {
                fails.push(l);
            } else {
                under_first = false;
            }
        }
        let why = if fails.is_empty() {
            "check-bot: FAIL (see its output)".to_string()
        } else {
            format!("check-bot: {}", fails.join("\n"))
        };
        return refuse(store, owner_id, token, &hash, done.bytes, &why, &output);
    }

    // Accepted: into place, then recorded in one transaction.
    let rel = format!("{SUBMISSIONS}/{owner}/{hash}");
    let dest = league.join(&rel);
    if !dest.exists() {
        std::fs::create_dir_all(&owner_dir).map_err(|e| LeagueError::Io(owner_dir.clone(), e))?;
        std::fs::rename(&folder, &dest).map_err(|e| LeagueError::Io(dest.clone(), e))?;
        if let Ok(d) = File::open(&owner_dir) {
            let _ = d.sync_all();
        }
    }
    let inherit = file.new_version == NewVersion::Inherit;
    let command_json = serde_json::to_string(&manifest.command).expect("strings serialize");
    let tx = store.conn_mut().transaction()?;
    let previous: Option<(i64, f64, f64)> = tx
        .query_row(
            "SELECT b.id, b.mu, b.sigma FROM versions v JOIN bots b ON b.id = v.bot_id
             WHERE v.owner_id = ?1 AND v.bot_id IS NOT NULL ORDER BY v.number DESC LIMIT 1",
            [owner_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let fresh = skillratings::weng_lin::WengLinRating::new();
    let (mu, sigma) = match previous {
        Some((_, mu, sigma)) if inherit => (mu, sigma),
        _ => (fresh.rating, fresh.uncertainty),
    };
    if let Some((id, ..)) = previous {
        tx.execute(
            "UPDATE bots SET retired_at = COALESCE(retired_at, ?2) WHERE id = ?1",
            params![id, now()],
        )?;
        tx.execute(
            "UPDATE versions SET status = 'replaced' WHERE bot_id = ?1 AND status = 'accepted'",
            [id],
        )?;
    }
    let taken: Option<i64> = tx
        .query_row("SELECT id FROM bots WHERE name = ?1", [&bot_name], |r| {
            r.get(0)
        })
        .optional()?;
    if taken.is_some() {
        return Err(LeagueError::Refused(format!(
            "refused: a bot named `{bot_name}` is in the league already (not a version of \
             `{owner}`)"
        )));
    }
    tx.execute(
        "INSERT INTO bots (name, command, reference, added_at, replaces, mu, sigma)
         VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6)",
        params![
            bot_name,
            command_json,
            now(),
            previous.map(|p| p.0),
            mu,
            sigma
        ],
    )?;
    let bot_id = tx.last_insert_rowid();
    tx.execute(
        "INSERT INTO ratings (bot_id, match_id, mu, sigma, at) VALUES (?1, NULL, ?2, ?3, ?4)",
        params![bot_id, mu, sigma, now()],
    )?;
    let output = bounded(&output, OUTPUT_BYTES);
    tx.execute(
        "INSERT INTO versions (owner_id, number, hash, bot_id, uploader, submitted_at,
                               submitted_unix, status, dir, command, stdio, bytes, output)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'accepted', ?8, ?9, ?10, ?11, ?12)",
        params![
            owner_id,
            number,
            hash,
            bot_id,
            whistle_protocol::limits::token_hint(token),
            now(),
            unix_now(),
            rel,
            command_json,
            manifest.stdio(),
            done.bytes as i64,
            output
        ],
    )?;
    tx.commit()?;
    tracing::info!(bot = %owner, version = number, hash = %hash, "version accepted");
    Ok(Outcome {
        version: Some(number),
        message: format!(
            "accepted: version {number} (bot {bot_name}, sha256 {}; it plays from the next round{})",
            &hash[..12],
            match previous {
                Some(_) if inherit => ", with the previous version's rating",
                Some(_) => ", rated afresh",
                None => "",
            }
        ),
        output,
    })
}

/// `text` cut to about `max` characters, line by line, each line's control
/// characters shown as `?` (an untrusted program's output).
fn bounded(text: &str, max: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let left = max.saturating_sub(out.len());
        if left == 0 {
            out.push_str("…(cut)\n");
            break;
        }
        out.push_str(&whistle_protocol::limits::truncate(line, left.min(2000)));
        out.push('\n');
    }
    out
}

/// The last lines of a build's or a bot's stderr, bounded.
fn tail(text: &str, lines: usize) -> String {
    let v: Vec<&str> = text.lines().rev().take(lines).collect();
    let joined = v.into_iter().rev().collect::<Vec<_>>().join("\n");
    let start = joined.len().saturating_sub(1500);
    let start = (start..=joined.len())
        .find(|&i| joined.is_char_boundary(i))
        .unwrap_or(joined.len());
    joined[start..].to_string()
}

/// Kills a child and its process group.
fn kill_group(child: &mut std::process::Child) {
    // The child leads its own process group (`process_group(0)`).
    if let Ok(pid) = i32::try_from(child.id())
        && pid > 1
    {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Waits for `child` until `limit`; kills its group past it. `Some` exit
/// status, or `None` when it was killed at the limit.
fn wait_for(
    child: &mut std::process::Child,
    limit: Duration,
) -> std::io::Result<Option<std::process::ExitStatus>> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(s) = child.try_wait()? {
            return Ok(Some(s));
        }
        if Instant::now() > deadline {
            kill_group(child);
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Reads at most `limit` bytes of `r` on a thread (the rest is drained).
fn read_bounded(
    mut r: impl Read + Send + 'static,
    limit: usize,
) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = limit.saturating_sub(kept.len()).min(n);
                    kept.extend_from_slice(&buf[..room]);
                }
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// Builds the upload at `src` in a sandbox: a copy of it in the sandbox's
/// scratch folder (its only writable place, `build_disk_mib` of it), the
/// build step run there under the build's limits with no network, and the
/// folder it leaves streamed out as a tar and unpacked into `out` with the
/// upload's own checks and bounds.
fn build(
    whistle: &Path,
    rules: &Rules,
    src: &Path,
    step: &Build,
    out: &Path,
    staging: &Path,
) -> Result<(), String> {
    let (mode, _) = whistle_sandbox::probe(whistle)
        .map_err(|why| format!("the build needs a sandbox, and this machine has none: {why}"))?;
    let runtime = tempfile::Builder::new()
        .prefix("whistle-build-")
        .tempdir()
        .map_err(|e| format!("cannot make the build's folder: {e}"))?;
    let scratch = runtime.path().join("scratch");
    std::fs::create_dir(&scratch).map_err(|e| format!("cannot make the build's folder: {e}"))?;
    let words: Vec<String> = match step {
        Build::Line(l) => vec!["sh".into(), "-c".into(), l.clone()],
        Build::Words(w) => w.clone(),
    };
    let path = std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into());
    let mut read: Vec<PathBuf> = rules
        .build_read
        .iter()
        .filter(|p| p.exists())
        .cloned()
        .collect();
    if let Some(p) = whistle_sandbox::which(&words[0], &path) {
        read.extend(whistle_sandbox::runtime_paths(&p));
    }
    let home = scratch.display().to_string();
    // The build's own stdout goes to its stderr: stdout carries the tar.
    let script = "set -e; mkdir \"$HOME/build\"; cp -R . \"$HOME/build\"; cd \"$HOME/build\"; \
                  \"$@\" 1>&2; tar -cf - .";
    let mut args = vec!["-c".to_string(), script.to_string(), "sh".to_string()];
    args.extend(words);
    let env: Vec<(String, String)> = rules
        .build_env
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "HOME" | "TMPDIR" | "PATH"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .chain([
            ("HOME".into(), home.clone()),
            ("TMPDIR".into(), home),
            ("PATH".into(), path),
            (
                "LANG".into(),
                std::env::var("LANG").unwrap_or_else(|_| "C.UTF-8".into()),
            ),
        ])
        .collect();
    // Read as the launcher reads it: the sandbox's keys this build does not
    // set (CPU share, ...) take their defaults.
    let spec: whistle_sandbox::Spec = serde_json::from_value(serde_json::json!({
        "mode": mode,
        "program": "/bin/sh",
        "args": args,
        "dir": std::path::absolute(src).unwrap_or_else(|_| src.to_path_buf()),
        "env": env,
        "read": read,
        "scratch": scratch,
        "limits": {
            "memory_mib": rules.build_memory_mib,
            "processes": 256,
            "cpu_s": rules.build_s,
            "file_mib": rules.build_disk_mib,
            "open_files": 1024,
            "scratch_mib": rules.build_disk_mib,
        },
        "referee_port": null,
    }))
    .map_err(|e| format!("the build's sandbox: {e}"))?;
    let mut cmd = spec.command(whistle);
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the build: {e}"))?;
    note_pid(staging, child.id());
    let stderr = read_bounded(child.stderr.take().expect("stderr is piped"), 64 << 10);
    let stdout = child.stdout.take().expect("stdout is piped");
    let out_dir = out.to_path_buf();
    let bounds = rules.bounds();
    let unpacker = std::thread::spawn(move || {
        let r = archive::unpack_tar(stdout, &out_dir, &bounds);
        // Whatever the tar held past a refusal is not read.
        r
    });
    let status = wait_for(&mut child, Duration::from_secs(rules.build_s));
    let unpacked = loop {
        if unpacker.is_finished() {
            break unpacker
                .join()
                .unwrap_or_else(|_| Err("the build's output".into()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let err = stderr.join().unwrap_or_default();
    let says = |what: String| format!("build: {what}; its stderr ends:\n{}", tail(&err, 10));
    // A folder past the upload's bounds is the reason, even when the build
    // then failed on its closed output.
    if let Err(e) = &unpacked
        && e.contains("the league's bound")
    {
        return Err(format!("build: the folder it left: {e}"));
    }
    match status {
        Err(e) => Err(format!("build: cannot wait for it: {e}")),
        Ok(None) => Err(says(format!(
            "still running after {} s, the build's time limit (stopped)",
            rules.build_s
        ))),
        Ok(Some(s)) if !s.success() => {
            let (code, signal) = (s.code(), std::os::unix::process::ExitStatusExt::signal(&s));
            let verdict = whistle_sandbox::Verdict::of_exit(code, signal, &spec.limits);
            Err(says(verdict.to_string()))
        }
        Ok(Some(_)) => unpacked
            .map(|_| ())
            .map_err(|e| format!("build: the folder it left: {e}")),
    }
}

/// Runs `whistle check-bot` on the version in `folder` for the league's
/// game, under the league's options, clock and sandbox limits; returns whether it passed and its output (bounded).
#[allow(clippy::too_many_arguments)]
fn check_bot(
    whistle: &Path,
    league: &Path,
    file: &LeagueFile,
    rules: &Rules,
    name: &str,
    manifest: &Manifest,
    folder: &Path,
    staging: &Path,
) -> (bool, String) {
    let folder = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
    let mut cmd = Command::new(whistle);
    // As the league plays: its game's options, its clock and its bots'
    // sandbox limits (not the game's defaults and check-bot's own).
    cmd.args(["check-bot", "--games", &file.game])
        .args(["--hands", &rules.check_hands.to_string()])
        .args(["--name", name])
        .args([
            "--per-action-ms",
            &file.clock.per_action.as_millis().to_string(),
        ])
        .args([
            "--time-bank-ms",
            &file.clock.time_bank.as_millis().to_string(),
        ])
        .args([
            "--limits",
            &serde_json::to_string(&file.limits).expect("limits serialize"),
        ])
        .arg("--dir")
        .arg(&folder);
    // The upload's grants must neither hold nor lie inside the league's
    // folder (the store, the rounds, other students' versions); its own
    // folder inside it is read as the upload.
    cmd.arg("--secret")
        .arg(std::path::absolute(league).unwrap_or_else(|_| league.to_path_buf()));
    for (k, v) in file.game_options.iter() {
        cmd.arg(format!("--option={k}={v}"));
    }
    if manifest.stdio() {
        cmd.arg("--stdio");
    }
    cmd.arg("--").args(&manifest.command).current_dir(&folder);
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let spawned = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return (false, format!("check-bot: cannot start it: {e}\n")),
    };
    note_pid(staging, child.id());
    let stdout = read_bounded(child.stdout.take().expect("stdout is piped"), OUTPUT_BYTES);
    let stderr = read_bounded(child.stderr.take().expect("stderr is piped"), 2000);
    let status = wait_for(&mut child, Duration::from_secs(rules.check_s));
    let mut out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    match status {
        Ok(Some(s)) if s.success() => (true, out),
        Ok(Some(_)) => {
            if !err.trim().is_empty() {
                out.push_str(&format!("check-bot: {}\n", tail(&err, 5)));
            }
            (false, out)
        }
        Ok(None) => {
            out.push_str(&format!(
                "check-bot: FAIL not done after {} s, the check's time limit (stopped)\n",
                rules.check_s
            ));
            (false, out)
        }
        Err(e) => (false, format!("check-bot: cannot wait for it: {e}\n")),
    }
}

/// A bot's versions, the newest first.
///
/// # Errors
/// [`LeagueError::Store`].
fn versions_of(store: &Store, owner_id: i64) -> Result<Vec<Version>, LeagueError> {
    let mut q = store.conn().prepare(
        "SELECT v.number, v.status, v.submitted_at, v.hash, b.name, v.dir, v.bytes, v.output,
                b.mu, b.played,
                (SELECT COALESCE(SUM(s.faults), 0) FROM seats s WHERE s.bot_id = b.id)
         FROM versions v LEFT JOIN bots b ON b.id = v.bot_id
         WHERE v.owner_id = ?1 ORDER BY v.id DESC",
    )?;
    let rows = q.query_map([owner_id], |r| {
        Ok(Version {
            number: r.get(0)?,
            status: r.get(1)?,
            submitted_at: r.get(2)?,
            hash: r.get(3)?,
            bot: r.get(4)?,
            dir: r.get(5)?,
            bytes: r.get::<_, i64>(6)? as u64,
            output: r.get(7)?,
            rating: r.get(8)?,
            matches: r.get::<_, Option<i64>>(9)?.map(|n| n as u64),
            faults: r.get::<_, Option<i64>>(10)?.map(|n| n as u64),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The versions of the bot `token` admits (its owner's view).
///
/// # Errors
/// [`BAD_TOKEN`]; store errors.
pub fn versions_by_token(
    league: &Path,
    token: &str,
) -> Result<(String, Vec<Version>), LeagueError> {
    let (_, store) = round::open_read_only(league)?;
    let (id, name) = owner(&store, token)?;
    Ok((name, versions_of(&store, id)?))
}

/// The versions of bot `name` (the organiser's view).
///
/// # Errors
/// An unknown bot; store errors.
pub fn versions(league: &Path, name: &str) -> Result<Vec<Version>, LeagueError> {
    let (_, store) = round::open_read_only(league)?;
    let id = owner_id(&store, name)?;
    versions_of(&store, id)
}

/// Stops the version that plays of the bot `token` admits: it is seated in
/// no later round (the bot may upload again).
///
/// # Errors
/// [`BAD_TOKEN`]; no version plays.
pub fn withdraw(league: &Path, token: &str) -> Result<String, LeagueError> {
    let (_, mut store) = round::open(league)?;
    let (id, name) = owner(&store, token)?;
    let playing: Option<(u32, i64)> = store
        .conn()
        .query_row(
            "SELECT v.number, v.bot_id FROM versions v JOIN bots b ON b.id = v.bot_id
             WHERE v.owner_id = ?1 AND v.status = 'accepted' AND b.retired_at IS NULL",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((number, bot)) = playing else {
        return Err(LeagueError::Refused(format!(
            "no version of `{name}` plays: nothing to withdraw"
        )));
    };
    stop(&mut store, bot, "withdrawn")?;
    Ok(format!(
        "withdrawn: version {number} of {name} plays no more rounds\n"
    ))
}

/// Disables version `number` of bot `name` (the organiser): it never plays
/// again.
///
/// # Errors
/// No such version.
pub fn disable(league: &Path, name: &str, number: u32) -> Result<String, LeagueError> {
    let (_, mut store) = round::open(league)?;
    let id = owner_id(&store, name)?;
    let bot: Option<i64> = store
        .conn()
        .query_row(
            "SELECT bot_id FROM versions WHERE owner_id = ?1 AND number = ?2",
            params![id, number],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    let Some(bot) = bot else {
        return Err(LeagueError::Refused(format!(
            "`{name}` has no accepted version {number}"
        )));
    };
    stop(&mut store, bot, "disabled")?;
    Ok(format!("disabled: version {number} of {name}\n"))
}

fn stop(store: &mut Store, bot: i64, status: &str) -> Result<(), LeagueError> {
    let tx = store.conn_mut().transaction()?;
    tx.execute(
        "UPDATE bots SET retired_at = COALESCE(retired_at, ?2) WHERE id = ?1",
        params![bot, now()],
    )?;
    tx.execute(
        "UPDATE versions SET status = ?2 WHERE bot_id = ?1",
        params![bot, status],
    )?;
    tx.commit()?;
    Ok(())
}

/// Writes version `number` of bot `name` as a `.tar.gz` to `out` (the
/// organiser: grading, plagiarism checks).
///
/// # Errors
/// No such version; IO errors.
pub fn download(league: &Path, name: &str, number: u32, out: &Path) -> Result<String, LeagueError> {
    let (_, store) = round::open_read_only(league)?;
    let id = owner_id(&store, name)?;
    let dir: Option<String> = store
        .conn()
        .query_row(
            "SELECT dir FROM versions WHERE owner_id = ?1 AND number = ?2",
            params![id, number],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    let Some(dir) = dir else {
        return Err(LeagueError::Refused(format!(
            "`{name}` has no accepted version {number}"
        )));
    };
    let src = league.join(&dir);
    let io = |e: std::io::Error| LeagueError::Io(out.to_path_buf(), e);
    let f = File::create(out).map_err(io)?;
    let gz = flate2::write::GzEncoder::new(f, flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    tar.follow_symlinks(false);
    tar.append_dir_all(format!("{name}.v{number}"), &src)
        .map_err(io)?;
    tar.into_inner()
        .map_err(io)?
        .finish()
        .map_err(io)?
        .sync_all()
        .map_err(io)?;
    Ok(format!(
        "version {number} of {name} ({dir}) written to {}\n",
        out.display()
    ))
}

/// The stderr of the bot `token` admits in its last `rounds` rounds: the
/// last `bytes` bytes of each of its versions' logs there (its owner's
/// view; nobody else's).
///
/// # Errors
/// [`BAD_TOKEN`]; store errors.
pub fn stderr(
    league: &Path,
    token: &str,
    rounds: usize,
    bytes: u64,
) -> Result<String, LeagueError> {
    let (_, store) = round::open_read_only(league)?;
    let (id, name) = owner(&store, token)?;
    let mut names: Vec<String> = versions_of(&store, id)?
        .into_iter()
        .filter_map(|v| v.bot)
        .collect();
    names.push(name.clone());
    let (open_round, started) = store.rounds()?;
    let mut out = String::new();
    let mut shown = 0;
    for n in (1..=started).rev() {
        if shown >= rounds {
            break;
        }
        // The round being played is hidden: its stderr, read live, would
        // tell a bot of the same owner at another seat what this one sees.
        if open_round.as_ref().is_some_and(|(o, _)| *o == n) {
            out.push_str(&format!(
                "== round {n} is being played: its stderr shows once the round is closed ==\n"
            ));
            continue;
        }
        let dir = round::round_dir(league, n);
        let mut any = false;
        for bot in &names {
            let log = whistle_tournament::procs::stderr_log(&dir, bot);
            let Ok(mut f) = File::open(&log) else {
                continue;
            };
            let len = f.metadata().map_or(0, |m| m.len());
            let skip = len.saturating_sub(bytes);
            if skip > 0 {
                let _ = std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(skip));
            }
            let mut buf = Vec::new();
            let _ = f.take(bytes).read_to_end(&mut buf);
            any = true;
            out.push_str(&format!(
                "== round {n}, {bot} ({len} bytes{}) ==\n{}\n",
                if skip > 0 { ", its end" } else { "" },
                String::from_utf8_lossy(&buf).trim_end()
            ));
        }
        if any {
            shown += 1;
        }
    }
    if shown == 0 {
        out.push_str(&format!(
            "no stderr of {name} in the league's closed rounds yet\n"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(league: &Path) -> i64 {
        let q = rusqlite::Connection::open(league.join(SUBMISSIONS).join(QUEUE_FILE)).unwrap();
        q.busy_timeout(Duration::from_secs(10)).unwrap();
        q.query_row("SELECT COUNT(*) FROM waiting", [], |r| r.get(0))
            .unwrap()
    }

    fn until(what: impl Fn() -> bool) {
        let start = Instant::now();
        while !what() {
            assert!(start.elapsed() < Duration::from_secs(30), "never came");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn uploads_take_turns_by_bot_one_waiting_a_bot() {
        let tmp = tempfile::tempdir().unwrap();
        let league = tmp.path().to_path_buf();
        let long = Duration::from_secs(60);
        // The hog's upload is being checked; its next one waits first.
        let checking = lock(&league, "hog", long).unwrap();
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let take = |bot: &'static str| {
            let (league, order) = (league.clone(), order.clone());
            std::thread::spawn(move || {
                let held = lock(&league, bot, long).unwrap();
                order.lock().unwrap().push(bot);
                std::thread::sleep(Duration::from_millis(200));
                drop(held);
            })
        };
        let hog = take("hog");
        until(|| waiting(&league) == 1);
        // A bot has one upload waiting at a time.
        let third = lock(&league, "hog", long).err().unwrap().to_string();
        assert!(third.contains("waiting to be checked already"), "{third}");
        let victim = take("victim");
        until(|| waiting(&league) == 2);
        drop(checking);
        hog.join().unwrap();
        victim.join().unwrap();
        // The victim came later but its bot was served longer ago (never).
        assert_eq!(*order.lock().unwrap(), ["victim", "hog"]);
        assert_eq!(waiting(&league), 0);

        // A time-out in the queue is refused, says it does not count, and
        // leaves the queue as it was.
        let checking = lock(&league, "a", long).unwrap();
        let late = lock(&league, "b", Duration::from_millis(300))
            .err()
            .unwrap()
            .to_string();
        assert!(
            late.contains("does not count against the hourly bound"),
            "{late}"
        );
        assert_eq!(waiting(&league), 0);
        drop(checking);
        drop(lock(&league, "b", long).unwrap());
    }

    #[test]
    fn manifests_say_what_is_wrong() {
        let ok = Manifest::parse(
            "whistle.toml",
            "command = [\"python3\", \"bot.py\"]\nprotocol = \"stdio\"\nbuild = \"make\"\n",
        )
        .unwrap();
        assert!(ok.stdio());
        for fine in ["/usr/bin/python3", "venv/bin/python3", "./b", "python3"] {
            let text = format!("command = [\"{fine}\"]\nprotocol = \"stdio\"\n");
            assert!(Manifest::parse("whistle.toml", &text).is_ok(), "{fine}");
        }
        assert_eq!(ok.build, Some(Build::Line("make".into())));
        let words = Manifest::parse(
            "bot.toml",
            "command = [\"./b\"]\nprotocol = \"grpc\"\nbuild = [\"cc\", \"b.c\"]\n",
        )
        .unwrap();
        assert_eq!(
            words.build,
            Some(Build::Words(vec!["cc".into(), "b.c".into()]))
        );
        for (text, says) in [
            ("command = []\nprotocol = \"stdio\"\n", "`command` is empty"),
            (
                "command = [\"x\"]\nprotocol = \"tcp\"\n",
                "`protocol` is `tcp`",
            ),
            ("command = [\"x\"]\n", "protocol"),
            (
                "command = [\"x\"]\nprotocol = \"stdio\"\nlanguage = 1\n",
                "language",
            ),
            (
                "command = [\"x\"]\nprotocol = \"stdio\"\nbuild = \"\"\n",
                "`build` is empty",
            ),
            (
                "command = [\"/home/t/py/bin/python3\", \"b.py\"]\nprotocol = \"stdio\"\n",
                "outside the upload and the system's paths",
            ),
            (
                "command = [\"../../league.db/bin/x\"]\nprotocol = \"stdio\"\n",
                "outside the upload",
            ),
            (
                "command = [\"./b\"]\nprotocol = \"stdio\"\nbuild = [\"/l/submissions/bob/h/bin/cc\"]\n",
                "`build`: its program `/l/submissions",
            ),
        ] {
            let e = Manifest::parse("whistle.toml", text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn the_league_file_bounds_uploads() {
        let head = "name = \"d\"\ngame = \"israeli\"\nhands = 2\n";
        let f = LeagueFile::parse(Path::new("l.toml"), head).unwrap();
        assert_eq!(Rules::of(&f).unwrap(), Rules::default());
        let f = LeagueFile::parse(
            Path::new("l.toml"),
            &format!("{head}[submissions]\nuploads_per_hour = 2\nbuild_s = 9\n"),
        )
        .unwrap();
        let r = Rules::of(&f).unwrap();
        assert_eq!((r.uploads_per_hour, r.build_s), (2, 9));
        let e = LeagueFile::parse(
            Path::new("l.toml"),
            &format!("{head}[submissions]\nbuild_z = 9\n"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("build_z"), "{e}");
        let e = LeagueFile::parse(
            Path::new("l.toml"),
            &format!("{head}[submissions]\ncheck_s = 0\n"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("`check_s` must be above 0"), "{e}");
    }
}
