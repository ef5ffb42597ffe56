//! The league's store: SQLite (bundled, nothing to install) in WAL mode,
//! with versioned schema migrations (`PRAGMA user_version`).
//!
//! Invariants: a token is stored as its SHA-256 and a hint, never whole; a
//! finished match, its seats' scores and its rating updates are written in
//! one transaction, keyed by the SHA-256 of its log, so a match is counted
//! once however often its log is imported and never half; a bot's current
//! rating is the last of its history.

use std::{path::Path, time::SystemTime};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use skillratings::weng_lin::WengLinRating;

use crate::error::LeagueError;

/// SQLite's error and error code, as [`LeagueError::Store`] carries them.
pub use rusqlite::{Error as SqlError, ErrorCode as SqlErrorCode};

/// Whether the folder `dir` cannot be written: a file cannot be made
/// there (a read-only mount, or no permission).
pub fn folder_is_read_only(dir: &Path) -> bool {
    match tempfile::tempfile_in(dir) {
        Ok(_) => false,
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied
        ),
    }
}

/// The `file:` URI of the store at `path`, read as it is on disk.
fn immutable_uri(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut uri = String::from("file:");
    for c in abs.display().to_string().chars() {
        match c {
            '%' => uri.push_str("%25"),
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            c => uri.push(c),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

/// The schema, one migration per version; `user_version` says how many
/// have been applied.
const MIGRATIONS: &[&str] = &[
    // 1: bots, matches, seats, rating history, rounds.
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE bots (
         id INTEGER PRIMARY KEY,
         name TEXT NOT NULL UNIQUE,
         token_hash TEXT,
         token_hint TEXT,
         command TEXT,
         reference INTEGER NOT NULL DEFAULT 0,
         added_at TEXT NOT NULL,
         retired_at TEXT,
         replaces INTEGER REFERENCES bots(id),
         mu REAL NOT NULL,
         sigma REAL NOT NULL,
         last_seen TEXT
     );
     CREATE TABLE matches (
         id INTEGER PRIMARY KEY,
         log_hash TEXT NOT NULL UNIQUE,
         source TEXT NOT NULL,
         tournament TEXT NOT NULL,
         match_index INTEGER NOT NULL,
         log_path TEXT NOT NULL,
         hands INTEGER NOT NULL,
         recorded_at TEXT NOT NULL
     );
     CREATE TABLE seats (
         match_id INTEGER NOT NULL REFERENCES matches(id),
         seat INTEGER NOT NULL,
         bot_id INTEGER NOT NULL REFERENCES bots(id),
         points INTEGER NOT NULL,
         points_sq INTEGER NOT NULL,
         hands INTEGER NOT NULL,
         place INTEGER NOT NULL,
         faults INTEGER NOT NULL,
         forfeited INTEGER NOT NULL,
         PRIMARY KEY (match_id, seat)
     );
     CREATE INDEX seats_bot ON seats(bot_id);
     CREATE TABLE ratings (
         id INTEGER PRIMARY KEY,
         bot_id INTEGER NOT NULL REFERENCES bots(id),
         match_id INTEGER REFERENCES matches(id),
         mu REAL NOT NULL,
         sigma REAL NOT NULL,
         at TEXT NOT NULL
     );
     CREATE INDEX ratings_bot ON ratings(bot_id);
     CREATE TABLE rounds (
         number INTEGER PRIMARY KEY,
         dir TEXT NOT NULL,
         started_at TEXT NOT NULL,
         finished_at TEXT
     );",
    // 2: a match recorded without rating anyone (a retired bot played).
    "ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;",
    // 3: how many matches each bot played and each pair met, kept as the
    // matches are recorded (the pairing reads them every round; counting
    // them from `seats` took time in proportion to the whole history).
    "ALTER TABLE bots ADD COLUMN played INTEGER NOT NULL DEFAULT 0;
     UPDATE bots SET played =
         (SELECT COUNT(DISTINCT s.match_id) FROM seats s WHERE s.bot_id = bots.id);
     CREATE TABLE meetings (
         a INTEGER NOT NULL REFERENCES bots(id),
         b INTEGER NOT NULL REFERENCES bots(id),
         matches INTEGER NOT NULL,
         PRIMARY KEY (a, b)
     );
     INSERT INTO meetings (a, b, matches)
         SELECT x.bot_id, y.bot_id, COUNT(DISTINCT x.match_id) FROM seats x
         JOIN seats y ON x.match_id = y.match_id AND x.bot_id < y.bot_id
         GROUP BY x.bot_id, y.bot_id;",
    // 4: the versions bots' owners upload (crate::submit): accepted ones
    // are played by a bot of their own (`bot_id`), refused ones keep the
    // check's output for their owner.
    "CREATE TABLE versions (
         id INTEGER PRIMARY KEY,
         owner_id INTEGER NOT NULL REFERENCES bots(id),
         number INTEGER,
         hash TEXT NOT NULL,
         bot_id INTEGER REFERENCES bots(id),
         uploader TEXT NOT NULL,
         submitted_at TEXT NOT NULL,
         submitted_unix INTEGER NOT NULL,
         status TEXT NOT NULL,
         dir TEXT,
         command TEXT,
         stdio INTEGER NOT NULL DEFAULT 0,
         bytes INTEGER NOT NULL,
         output TEXT NOT NULL,
         UNIQUE (owner_id, number)
     );
     CREATE INDEX versions_owner ON versions(owner_id, submitted_unix);",
];

/// The current time, as the store writes it (RFC 3339, seconds, UTC).
pub fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// A bot of the league.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bot {
    /// Its row id.
    #[serde(skip)]
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its command, if the league starts it.
    pub command: Option<Vec<String>>,
    /// Whether it is one of the league file's reference bots.
    pub reference: bool,
    /// Whether it is retired.
    pub retired: bool,
    /// Its rating.
    pub mu: f64,
    /// The rating's uncertainty (one standard deviation).
    pub sigma: f64,
}

/// One row of the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// The bot.
    pub bot: String,
    /// Its Weng-Lin rating (μ).
    pub rating: f64,
    /// One standard deviation of the rating (σ).
    pub uncertainty: f64,
    /// μ − 2σ and μ + 2σ.
    pub interval: [f64; 2],
    /// Matches played.
    pub matches: u64,
    /// Hands played.
    pub hands: u64,
    /// Mean points per hand, if it played a hand.
    pub points_per_hand: Option<f64>,
    /// The 95 % interval of the points per hand.
    pub points_interval: Option<[f64; 2]>,
    /// Faults.
    pub faults: u64,
    /// When it last played (or connected), if ever.
    pub last_seen: Option<String>,
    /// Whether it is retired.
    pub retired: bool,
    /// Whether it played a rated match: the bots that did not are listed
    /// apart, after those that did, and never ranked (their rating is
    /// where they started).
    pub played: bool,
}

impl Standing {
    /// The names of this bot's versions among `rows` (`alice.v1`, `alice.v2`
    /// for `alice`): a bot whose owner uploads versions plays through them,
    /// not under its own name.
    #[must_use]
    pub fn versions<'a>(&self, rows: &'a [Standing]) -> Vec<&'a str> {
        rows.iter()
            .map(|r| r.bot.as_str())
            .filter(|b| {
                b.strip_prefix(self.bot.as_str())
                    .and_then(|rest| rest.strip_prefix(".v"))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
            })
            .collect()
    }

    /// How a bot that did not play reads in a list of them: its name, and
    /// the versions it plays through if it has any.
    #[must_use]
    pub fn did_not_play(&self, rows: &[Standing]) -> String {
        let versions = self.versions(rows);
        let mut text = self.bot.clone();
        if !versions.is_empty() {
            text.push_str(&format!(
                " (plays as its versions: {})",
                versions.join(", ")
            ));
        }
        if self.retired {
            text.push_str(" (retired)");
        }
        text
    }
}

/// A recorded match, as the league site lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecentMatch {
    /// Its row id.
    pub id: i64,
    /// The tournament (round) it belongs to.
    pub tournament: String,
    /// Its index there.
    pub match_index: u64,
    /// Its log.
    pub log_path: String,
    /// Hands played.
    pub hands: u64,
    /// When it was recorded.
    pub recorded_at: String,
    /// The bot in each seat.
    pub bots: Vec<String>,
    /// Each seat's points.
    pub points: Vec<i64>,
}

/// One rating update of a bot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryRow {
    /// When.
    pub at: String,
    /// The match (`tournament#index`), or none for a start or reset.
    pub r#match: Option<String>,
    /// The rating after it.
    pub rating: f64,
    /// Its uncertainty.
    pub uncertainty: f64,
    /// The match's id in the store (the site's `/matches/ID`), if a match.
    #[serde(skip)]
    pub match_id: Option<i64>,
}

/// One seat of a finished match, as recorded.
#[derive(Debug, Clone)]
pub struct SeatRecord {
    /// The bot's name.
    pub bot: String,
    /// Points over the match.
    pub points: i64,
    /// Sum of the squares of its points per hand.
    pub points_sq: i64,
    /// Hands it played.
    pub hands: u64,
    /// Its place (1 is first).
    pub place: usize,
    /// Its faults.
    pub faults: u64,
    /// Whether it forfeited.
    pub forfeited: bool,
}

/// A finished match with everything the store keeps of it.
#[derive(Debug, Clone)]
pub struct MatchRecord {
    /// SHA-256 of the log file.
    pub log_hash: String,
    /// Where it came from (`round 3`, `import <dir>`).
    pub source: String,
    /// The tournament it belongs to.
    pub tournament: String,
    /// Its index there.
    pub match_index: u64,
    /// Its log, relative to the league folder where it lies inside it.
    pub log_path: String,
    /// Hands played.
    pub hands: u64,
    /// Its seats.
    pub seats: Vec<SeatRecord>,
}

/// Who has played how much, and against whom.
#[derive(Debug, Clone, Default)]
pub struct Meetings {
    /// Matches each bot has played.
    pub played: Vec<(String, u64)>,
    /// How many matches each pair of bots played together.
    pub met: Vec<(String, String, u64)>,
}

/// The league's store.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    /// Opened read-only from a folder nobody can write (the store taken as
    /// it is on disk, `immutable`).
    frozen: bool,
}

impl Store {
    /// Opens (creating if needed) the store at `path` and brings its schema
    /// up to date.
    ///
    /// # Errors
    /// [`LeagueError::Store`] if SQLite refuses, or a store newer than this
    /// program.
    pub fn open(path: &Path) -> Result<Store, LeagueError> {
        // A new store is the owner's alone (it holds the league's secret
        // seed); SQLite gives its journal files the same mode.
        {
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path);
        }
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // WAL with synchronous=FULL: a committed transaction survives a
        // crash of the machine, not just of the process.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let mut store = Store {
            conn,
            frozen: false,
        };
        store.migrate()?;
        Ok(store)
    }

    /// Opens the store at `path` to read only: nothing is created, migrated
    /// or written, so a league folder on read-only media (a snapshot, a
    /// read-only mount) or one a serving league writes meanwhile can be
    /// read. In a folder that cannot be written, where SQLite cannot make
    /// the files a WAL store's readers share, the store is read as it is on
    /// disk (SQLite's `immutable`): nothing can change it there.
    ///
    /// # Errors
    /// [`LeagueError::Refused`] if there is no store or its schema is not
    /// this program's (a writing command brings an older one up to date);
    /// [`LeagueError::Store`] if SQLite cannot read it.
    pub fn open_read_only(path: &Path) -> Result<Store, LeagueError> {
        use rusqlite::OpenFlags;
        if !path.exists() {
            return Err(LeagueError::Refused(format!(
                "{}: no store",
                path.display()
            )));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let readable = |conn: &Connection| {
            conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })
        };
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let (conn, frozen) = match readable(&conn) {
            Ok(_) => (conn, false),
            Err(first) => {
                // Only where nobody can write: a folder we may write holds
                // a store we must not take as frozen.
                let folder = path.parent().unwrap_or(Path::new("."));
                if !folder_is_read_only(folder) {
                    return Err(first.into());
                }
                let conn = Connection::open_with_flags(immutable_uri(path), flags)?;
                readable(&conn)?;
                (conn, true)
            }
        };
        let store = Store { conn, frozen };
        let version = store.schema_version()?;
        if version != MIGRATIONS.len() as i64 {
            return Err(LeagueError::Refused(format!(
                "the store has schema version {version}; this whistle reads version {} (a \
                 command that writes the league, e.g. `whistle league round`, brings an older \
                 one up to date)",
                MIGRATIONS.len()
            )));
        }
        Ok(store)
    }

    /// Whether the store was opened read-only from a folder nobody can
    /// write, and read as it is on disk ([`Store::open_read_only`]).
    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// The connection, for the modules that keep tables of their own
    /// (crate::submit's versions).
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// [`Store::conn`], to write in a transaction.
    pub(crate) fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    fn migrate(&mut self) -> Result<(), LeagueError> {
        let version: usize = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))?
            as usize;
        if version > MIGRATIONS.len() {
            return Err(LeagueError::Refused(format!(
                "the store has schema version {version}; this whistle knows up to {}",
                MIGRATIONS.len()
            )));
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// The schema version.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn schema_version(&self) -> Result<i64, LeagueError> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// A value of the league's metadata.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn meta(&self, key: &str) -> Result<Option<String>, LeagueError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    /// Sets a value of the league's metadata.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), LeagueError> {
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value],
        )?;
        Ok(())
    }

    /// Adds a bot. With `token`, only its hash and hint are stored; with
    /// `replaces`, the old version is retired and (if `inherit`) its rating
    /// carried on. Returns the new bot.
    ///
    /// # Errors
    /// [`LeagueError::Refused`] for a name already taken or an unknown bot to
    /// replace.
    pub fn add_bot(
        &mut self,
        name: &str,
        token: Option<&str>,
        command: Option<&[String]>,
        reference: bool,
        replaces: Option<&str>,
        inherit: bool,
    ) -> Result<Bot, LeagueError> {
        whistle_protocol::limits::check_name(name)
            .map_err(|e| LeagueError::Refused(format!("bot name: {e}")))?;
        let tx = self.conn.transaction()?;
        if bot_id(&tx, name)?.is_some() {
            return Err(LeagueError::Refused(format!(
                "a bot named `{name}` is already in the league (a new version needs a new name)"
            )));
        }
        let default = WengLinRating::new();
        let (mut mu, mut sigma) = (default.rating, default.uncertainty);
        let mut old_id = None;
        if let Some(old) = replaces {
            let (id, old_mu, old_sigma, old_reference): (i64, f64, f64, bool) = tx
                .query_row(
                    "SELECT id, mu, sigma, reference FROM bots WHERE name = ?1",
                    [old],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?
                .ok_or_else(|| LeagueError::Refused(format!("no bot named `{old}`")))?;
            if old_reference {
                return Err(LeagueError::Refused(format!(
                    "`{old}` is a reference bot: the league file names it (edit the file's \
                     [[reference]] and make a new league, or add `{name}` without --replaces)"
                )));
            }
            let successor: Option<String> = tx
                .query_row("SELECT name FROM bots WHERE replaces = ?1", [id], |r| {
                    r.get(0)
                })
                .optional()?;
            if let Some(next) = successor {
                return Err(LeagueError::Refused(format!(
                    "`{old}` was replaced by `{next}` already: replace `{next}`"
                )));
            }
            if inherit {
                (mu, sigma) = (old_mu, old_sigma);
            }
            tx.execute(
                "UPDATE bots SET retired_at = COALESCE(retired_at, ?2), token_hash = NULL
                 WHERE id = ?1",
                params![id, now()],
            )?;
            old_id = Some(id);
        }
        let command_json = command.map(|c| serde_json::to_string(c).expect("strings serialize"));
        tx.execute(
            "INSERT INTO bots (name, token_hash, token_hint, command, reference, added_at,
                               replaces, mu, sigma)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                name,
                token.map(whistle_referee::token_hash),
                token.map(whistle_protocol::limits::token_hint),
                command_json,
                reference,
                now(),
                old_id,
                mu,
                sigma
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.execute(
            "INSERT INTO ratings (bot_id, match_id, mu, sigma, at) VALUES (?1, NULL, ?2, ?3, ?4)",
            params![id, mu, sigma, now()],
        )?;
        tx.commit()?;
        Ok(Bot {
            id,
            name: name.to_string(),
            command: command.map(<[String]>::to_vec),
            reference,
            retired: false,
            mu,
            sigma,
        })
    }

    /// Retires a bot: its token no longer admits it, it is seated in no
    /// later round, its record stays. Returns whether it was active.
    ///
    /// # Errors
    /// [`LeagueError::Refused`] for an unknown bot.
    pub fn retire_bot(&mut self, name: &str) -> Result<bool, LeagueError> {
        let changed = self.conn.execute(
            "UPDATE bots SET retired_at = ?2, token_hash = NULL
             WHERE name = ?1 AND retired_at IS NULL",
            params![name, now()],
        )?;
        if changed == 0 && bot_id(&self.conn, name)?.is_none() {
            return Err(LeagueError::Refused(format!("no bot named `{name}`")));
        }
        Ok(changed > 0)
    }

    /// Whether `name` is a retired bot (a name the store does not know is
    /// not).
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn is_retired(&self, name: &str) -> Result<bool, LeagueError> {
        Ok(self
            .conn
            .query_row(
                "SELECT retired_at IS NOT NULL FROM bots WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(false))
    }

    /// Whether `name` is a version its owner stopped (replaced by a new
    /// upload, or withdrawn), as opposed to a bot the organiser retired or
    /// disabled: a round it was seated in plays it to the end, rated.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn stopped_by_owner(&self, name: &str) -> Result<bool, LeagueError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM versions v JOIN bots b ON b.id = v.bot_id
                 WHERE b.name = ?1 AND v.status IN ('replaced', 'withdrawn')",
                [name],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Gives each bot of `played` that an owner replaced by a version that
    /// inherits its rating (`replaces`) and that has played no match yet
    /// the rating `played` has now: a version accepted while its
    /// predecessor's round plays starts from where that round left it.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn carry_ratings(&mut self, played: &[String]) -> Result<(), LeagueError> {
        let tx = self.conn.transaction()?;
        for name in played {
            tx.execute(
                "UPDATE bots SET mu = (SELECT mu FROM bots WHERE name = ?1),
                                 sigma = (SELECT sigma FROM bots WHERE name = ?1)
                 WHERE replaces = (SELECT id FROM bots WHERE name = ?1) AND played = 0",
                [name],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// A number that changes whenever another connection commits to the
    /// store (SQLite's `data_version`): cheap to ask often.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn data_version(&self) -> Result<i64, LeagueError> {
        Ok(self
            .conn
            .pragma_query_value(None, "data_version", |r| r.get(0))?)
    }

    /// The bot a token belongs to, if it is an active bot's.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn bot_by_token(&self, token: &str) -> Result<Option<String>, LeagueError> {
        Ok(self
            .conn
            .query_row(
                "SELECT name FROM bots WHERE token_hash = ?1 AND retired_at IS NULL",
                [whistle_referee::token_hash(token)],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The bots that connect by themselves, with their token's hash (none
    /// once retired).
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn remote_tokens(&self) -> Result<Vec<(String, Option<String>)>, LeagueError> {
        let mut q = self.conn.prepare(
            "SELECT name, token_hash FROM bots
             WHERE command IS NULL AND token_hint IS NOT NULL ORDER BY id",
        )?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Whether an active bot that is not a reference bot is started by the
    /// league itself (so rounds can be played without anyone connecting).
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn has_local_players(&self) -> Result<bool, LeagueError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM bots WHERE command IS NOT NULL AND reference = 0
                 AND retired_at IS NULL LIMIT 1",
                [],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Notes that these bots were seen (connected) now.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn touch(&self, bots: &[String]) -> Result<(), LeagueError> {
        if bots.is_empty() {
            return Ok(());
        }
        let at = now();
        // One transaction (one sync to disk) for all of them.
        let tx = self.conn.unchecked_transaction()?;
        for b in bots {
            tx.execute(
                "UPDATE bots SET last_seen = ?2 WHERE name = ?1",
                params![b, at],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Every bot, in the order they were added.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn bots(&self) -> Result<Vec<Bot>, LeagueError> {
        let mut q = self.conn.prepare(
            "SELECT id, name, command, reference, retired_at IS NOT NULL, mu, sigma
             FROM bots ORDER BY id",
        )?;
        let rows = q.query_map([], |r| {
            let command: Option<String> = r.get(2)?;
            Ok(Bot {
                id: r.get(0)?,
                name: r.get(1)?,
                command: command.and_then(|c| serde_json::from_str(&c).ok()),
                reference: r.get(3)?,
                retired: r.get(4)?,
                mu: r.get(5)?,
                sigma: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Whether a log with this hash is recorded.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn has_match(&self, log_hash: &str) -> Result<bool, LeagueError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM matches WHERE log_hash = ?1",
                [log_hash],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Records a finished match and the ratings `rate` computes from the
    /// seats' current ratings, in one transaction. A bot the league does not
    /// know yet (an imported tournament's) is added without a token. Returns
    /// `false`, changing nothing, if the log was recorded before.
    ///
    /// # Errors
    /// [`LeagueError::Store`]: nothing of the match is written.
    pub fn record_match(
        &mut self,
        m: &MatchRecord,
        rated: bool,
        rate: impl FnOnce(&[WengLinRating]) -> Vec<WengLinRating>,
    ) -> Result<bool, LeagueError> {
        let tx = self.conn.transaction()?;
        let fresh = tx.execute(
            "INSERT INTO matches (log_hash, source, tournament, match_index, log_path, hands,
                                  recorded_at, rated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT(log_hash) DO NOTHING",
            params![
                m.log_hash,
                m.source,
                m.tournament,
                m.match_index as i64,
                m.log_path,
                m.hands as i64,
                now(),
                rated
            ],
        )?;
        if fresh == 0 {
            return Ok(false);
        }
        let match_id = tx.last_insert_rowid();
        let at = now();
        let mut ids = Vec::with_capacity(m.seats.len());
        let mut before = Vec::with_capacity(m.seats.len());
        for (seat, s) in m.seats.iter().enumerate() {
            let id = match bot_id(&tx, &s.bot)? {
                Some(id) => id,
                None => {
                    let r = WengLinRating::new();
                    tx.execute(
                        "INSERT INTO bots (name, added_at, mu, sigma) VALUES (?1, ?2, ?3, ?4)",
                        params![s.bot, at, r.rating, r.uncertainty],
                    )?;
                    tx.last_insert_rowid()
                }
            };
            let (mu, sigma): (f64, f64) =
                tx.query_row("SELECT mu, sigma FROM bots WHERE id = ?1", [id], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?;
            tx.execute(
                "INSERT INTO seats (match_id, seat, bot_id, points, points_sq, hands, place,
                                    faults, forfeited)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    match_id,
                    seat as i64,
                    id,
                    s.points,
                    s.points_sq,
                    s.hands as i64,
                    s.place as i64,
                    s.faults as i64,
                    s.forfeited
                ],
            )?;
            tx.execute(
                "UPDATE bots SET last_seen = ?2 WHERE id = ?1",
                params![id, at],
            )?;
            ids.push(id);
            before.push(WengLinRating {
                rating: mu,
                uncertainty: sigma,
            });
        }
        let mut distinct = ids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        for (i, &a) in distinct.iter().enumerate() {
            tx.execute("UPDATE bots SET played = played + 1 WHERE id = ?1", [a])?;
            for &b in &distinct[i + 1..] {
                tx.execute(
                    "INSERT INTO meetings (a, b, matches) VALUES (?1, ?2, 1)
                     ON CONFLICT (a, b) DO UPDATE SET matches = matches + 1",
                    [a, b],
                )?;
            }
        }
        if !rated {
            tx.commit()?;
            return Ok(true);
        }
        let after = rate(&before);
        // A bot in several seats is updated once (the rating of its first
        // seat's side).
        let mut done = Vec::new();
        for (id, r) in ids.iter().zip(after) {
            if done.contains(id) {
                continue;
            }
            done.push(*id);
            tx.execute(
                "UPDATE bots SET mu = ?2, sigma = ?3 WHERE id = ?1",
                params![id, r.rating, r.uncertainty],
            )?;
            tx.execute(
                "INSERT INTO ratings (bot_id, match_id, mu, sigma, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, match_id, r.rating, r.uncertainty, at],
            )?;
        }
        tx.commit()?;
        Ok(true)
    }

    /// Matches recorded.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn match_count(&self) -> Result<u64, LeagueError> {
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM matches", [], |r| r.get::<_, i64>(0))?
            as u64)
    }

    /// Matches each bot has played, and how often each pair met.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn meetings(&self) -> Result<Meetings, LeagueError> {
        // Kept by `record_match` (migration 3), so a round's pairing costs
        // the same after a million matches as after ten.
        let mut q = self
            .conn
            .prepare("SELECT name, played FROM bots ORDER BY id")?;
        let played = q
            .query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?
            .collect::<Result<_, _>>()?;
        let mut q = self.conn.prepare(
            "SELECT a.name, b.name, m.matches FROM meetings m
             JOIN bots a ON a.id = m.a JOIN bots b ON b.id = m.b ORDER BY m.a, m.b",
        )?;
        let met = q
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? as u64))
            })?
            .collect::<Result<_, _>>()?;
        Ok(Meetings { played, met })
    }

    /// The standings: every bot (retired ones too, marked), best rating
    /// first.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn standings(&self) -> Result<Vec<Standing>, LeagueError> {
        let mut q = self.conn.prepare(
            "SELECT b.name, b.mu, b.sigma, COUNT(DISTINCT s.match_id),
                    COALESCE(SUM(s.hands), 0), COALESCE(SUM(s.points), 0),
                    COALESCE(SUM(s.points_sq), 0), COALESCE(SUM(s.faults), 0),
                    b.last_seen, b.retired_at IS NOT NULL,
                    COUNT(DISTINCT CASE WHEN m.rated THEN m.id END) > 0 AS played
             FROM bots b LEFT JOIN seats s ON s.bot_id = b.id
                  LEFT JOIN matches m ON m.id = s.match_id
             GROUP BY b.id
             ORDER BY played DESC, b.mu DESC, b.name",
        )?;
        let rows = q.query_map([], |r| {
            let (mu, sigma): (f64, f64) = (r.get(1)?, r.get(2)?);
            let hands = r.get::<_, i64>(4)? as u64;
            let sum = r.get::<_, i64>(5)? as f64;
            let sum_sq = r.get::<_, i64>(6)? as f64;
            let (mean, interval) = mean_interval(hands, sum, sum_sq);
            Ok(Standing {
                bot: r.get(0)?,
                rating: mu,
                uncertainty: sigma,
                interval: [mu - 2.0 * sigma, mu + 2.0 * sigma],
                matches: r.get::<_, i64>(3)? as u64,
                hands,
                points_per_hand: mean,
                points_interval: interval,
                faults: r.get::<_, i64>(7)? as u64,
                last_seen: r.get(8)?,
                retired: r.get(9)?,
                played: r.get(10)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The newest `limit` matches, newest first.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn recent_matches(&self, limit: usize) -> Result<Vec<RecentMatch>, LeagueError> {
        let mut q = self.conn.prepare(
            "SELECT m.id, m.tournament, m.match_index, m.log_path, m.hands, m.recorded_at,
                    group_concat(b.name, ' ' ORDER BY s.seat), group_concat(s.points, ' ' ORDER BY s.seat)
             FROM matches m JOIN seats s ON s.match_id = m.id JOIN bots b ON b.id = s.bot_id
             GROUP BY m.id ORDER BY m.id DESC LIMIT ?1",
        )?;
        let rows = q.query_map([limit as i64], |r| {
            let bots: String = r.get(6)?;
            let points: String = r.get(7)?;
            Ok(RecentMatch {
                id: r.get(0)?,
                tournament: r.get(1)?,
                match_index: r.get::<_, i64>(2)? as u64,
                log_path: r.get(3)?,
                hands: r.get::<_, i64>(4)? as u64,
                recorded_at: r.get(5)?,
                bots: bots.split(' ').map(String::from).collect(),
                points: points.split(' ').filter_map(|p| p.parse().ok()).collect(),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A recorded match's log path (relative to the league folder if it
    /// lies in it).
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn match_log(&self, id: i64) -> Result<Option<String>, LeagueError> {
        Ok(self
            .conn
            .query_row("SELECT log_path FROM matches WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// The version `name` replaced, and the one that replaced it.
    ///
    /// # Errors
    /// [`LeagueError::Refused`] for an unknown bot; [`LeagueError::Store`].
    pub fn lineage(&self, name: &str) -> Result<(Option<String>, Option<String>), LeagueError> {
        let id = bot_id(&self.conn, name)?
            .ok_or_else(|| LeagueError::Refused(format!("no bot named `{name}`")))?;
        let before: Option<String> = self
            .conn
            .query_row(
                "SELECT o.name FROM bots b JOIN bots o ON o.id = b.replaces WHERE b.id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()?;
        let after: Option<String> = self
            .conn
            .query_row("SELECT name FROM bots WHERE replaces = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        Ok((before, after))
    }

    /// A bot's rating history, oldest first.
    ///
    /// # Errors
    /// [`LeagueError::Refused`] for an unknown bot.
    pub fn history(&self, name: &str) -> Result<Vec<HistoryRow>, LeagueError> {
        let id = bot_id(&self.conn, name)?
            .ok_or_else(|| LeagueError::Refused(format!("no bot named `{name}`")))?;
        let mut q = self.conn.prepare(
            "SELECT r.at, m.tournament, m.match_index, r.mu, r.sigma, m.id
             FROM ratings r LEFT JOIN matches m ON m.id = r.match_id
             WHERE r.bot_id = ?1 ORDER BY r.id",
        )?;
        let rows = q.query_map([id], |r| {
            let t: Option<String> = r.get(1)?;
            let i: Option<i64> = r.get(2)?;
            Ok(HistoryRow {
                at: r.get(0)?,
                r#match: t.zip(i).map(|(t, i)| format!("{t}#{i}")),
                rating: r.get(3)?,
                uncertainty: r.get(4)?,
                match_id: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records that round `number` started, playing in `dir`, unless it is
    /// known already.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn start_round(&self, number: u64, dir: &str) -> Result<(), LeagueError> {
        self.conn.execute(
            "INSERT INTO rounds (number, dir, started_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(number) DO NOTHING",
            params![number as i64, dir, now()],
        )?;
        Ok(())
    }

    /// Records that round `number` is over (all its matches recorded).
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn finish_round(&self, number: u64) -> Result<(), LeagueError> {
        self.conn.execute(
            "UPDATE rounds SET finished_at = ?2 WHERE number = ?1",
            params![number as i64, now()],
        )?;
        Ok(())
    }

    /// The unfinished round, if one was started (its number and folder), and
    /// the number of rounds started.
    ///
    /// # Errors
    /// [`LeagueError::Store`].
    pub fn rounds(&self) -> Result<(Option<(u64, String)>, u64), LeagueError> {
        let open = self
            .conn
            .query_row(
                "SELECT number, dir FROM rounds WHERE finished_at IS NULL ORDER BY number LIMIT 1",
                [],
                |r| Ok((r.get::<_, i64>(0)? as u64, r.get(1)?)),
            )
            .optional()?;
        let count = self
            .conn
            .query_row("SELECT COUNT(*) FROM rounds", [], |r| r.get::<_, i64>(0))?
            as u64;
        Ok((open, count))
    }
}

fn bot_id(conn: &Connection, name: &str) -> Result<Option<i64>, rusqlite::Error> {
    conn.query_row("SELECT id FROM bots WHERE name = ?1", [name], |r| r.get(0))
        .optional()
}

/// The mean per hand and its 95 % interval (normal approximation) from
/// `n` hands with sum `sum` and sum of squares `sum_sq`.
fn mean_interval(n: u64, sum: f64, sum_sq: f64) -> (Option<f64>, Option<[f64; 2]>) {
    if n == 0 {
        return (None, None);
    }
    let nf = n as f64;
    let mean = sum / nf;
    if n < 2 {
        return (Some(mean), None);
    }
    let var = ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0);
    let half = 1.96 * (var / nf).sqrt();
    (Some(mean), Some([mean - half, mean + half]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(&dir.path().join("league.db")).unwrap();
        (dir, s)
    }

    fn record(hash: &str, bots: &[&str]) -> MatchRecord {
        MatchRecord {
            log_hash: hash.into(),
            source: "test".into(),
            tournament: "t".into(),
            match_index: 0,
            log_path: "m.jsonl".into(),
            hands: 2,
            seats: bots
                .iter()
                .enumerate()
                .map(|(i, b)| SeatRecord {
                    bot: b.to_string(),
                    points: 10 - i as i64 * 10,
                    points_sq: 100,
                    hands: 2,
                    place: i + 1,
                    faults: 0,
                    forfeited: false,
                })
                .collect(),
        }
    }

    /// The winner's rating up by one, the loser's down by one.
    fn plus_minus(before: &[WengLinRating]) -> Vec<WengLinRating> {
        before
            .iter()
            .enumerate()
            .map(|(i, r)| WengLinRating {
                rating: r.rating + if i == 0 { 1.0 } else { -1.0 },
                uncertainty: r.uncertainty * 0.9,
            })
            .collect()
    }

    #[test]
    fn the_schema_is_migrated_once_and_a_newer_store_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("league.db");
        let s = Store::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), MIGRATIONS.len() as i64);
        drop(s);
        // Opening again applies nothing twice.
        let s = Store::open(&path).unwrap();
        s.conn.pragma_update(None, "user_version", 99).unwrap();
        drop(s);
        let e = Store::open(&path).unwrap_err().to_string();
        assert!(e.contains("schema version 99"), "{e}");
    }

    #[test]
    fn a_match_counts_once_with_its_rating_updates() {
        let (_d, mut s) = store();
        s.add_bot("a", Some("league-aaaa"), None, false, None, true)
            .unwrap();
        assert!(
            s.record_match(&record("h1", &["a", "b"]), true, plus_minus)
                .unwrap()
        );
        assert!(
            !s.record_match(&record("h1", &["a", "b"]), true, plus_minus)
                .unwrap()
        );
        assert_eq!(s.match_count().unwrap(), 1);
        let rows = s.standings().unwrap();
        assert_eq!(rows[0].bot, "a");
        assert_eq!(rows[0].rating, 26.0);
        assert_eq!(
            rows[1].bot, "b",
            "an unknown bot is added by its first match"
        );
        assert_eq!(rows[1].rating, 24.0);
        assert_eq!(rows[0].matches, 1);
        assert_eq!(rows[0].points_per_hand, Some(5.0));
        let h = s.history("a").unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!(h[1].r#match.as_deref(), Some("t#0"));
        assert_eq!(h[1].rating, 26.0);
        // A failing update leaves nothing of the match.
        let bad = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = s.record_match(&record("h2", &["a", "b"]), true, |_| panic!("no rating"));
        }));
        assert!(bad.is_err());
        assert_eq!(s.match_count().unwrap(), 1);
        assert!(!s.has_match("h2").unwrap());
    }

    #[test]
    fn a_new_version_inherits_or_resets_and_the_old_one_retires() {
        let (_d, mut s) = store();
        s.add_bot("a", Some("league-aaaa"), None, false, None, true)
            .unwrap();
        s.record_match(&record("h1", &["a", "b"]), true, plus_minus)
            .unwrap();
        let kept = s
            .add_bot("a-2", Some("league-bbbb"), None, false, Some("a"), true)
            .unwrap();
        assert_eq!(kept.mu, 26.0);
        let fresh = s
            .add_bot("b-2", Some("league-cccc"), None, false, Some("b"), false)
            .unwrap();
        assert_eq!(fresh.mu, WengLinRating::new().rating);
        let bots = s.bots().unwrap();
        assert!(bots.iter().find(|b| b.name == "a").unwrap().retired);
        assert_eq!(s.bot_by_token("league-aaaa").unwrap(), None, "retired");
        assert_eq!(
            s.bot_by_token("league-bbbb").unwrap().as_deref(),
            Some("a-2")
        );
        assert!(matches!(
            s.add_bot("a-2", None, None, false, None, true),
            Err(LeagueError::Refused(_))
        ));
        assert!(matches!(
            s.add_bot("c", None, None, false, Some("nobody"), true),
            Err(LeagueError::Refused(_))
        ));
        assert!(s.retire_bot("a-2").unwrap());
        assert!(!s.retire_bot("a-2").unwrap());
        assert!(matches!(
            s.retire_bot("nobody"),
            Err(LeagueError::Refused(_))
        ));
    }

    #[test]
    fn a_version_its_owner_stopped_plays_out_and_its_successor_takes_the_rating_it_leaves() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("league.db")).unwrap();
        let cmd = ["x".to_string()];
        s.add_bot("alice", Some("league-aaaa"), None, false, None, false)
            .unwrap();
        for name in ["alice.v1", "alice.v2", "alice.v3", "bob"] {
            s.add_bot(name, None, Some(&cmd), false, None, false)
                .unwrap();
        }
        let id = |s: &Store, n: &str| bot_id(&s.conn, n).unwrap().unwrap();
        let (owner, v1, v2, v3) = (
            id(&s, "alice"),
            id(&s, "alice.v1"),
            id(&s, "alice.v2"),
            id(&s, "alice.v3"),
        );
        for (number, bot, status) in [
            (1, v1, "replaced"),
            (2, v2, "disabled"),
            (3, v3, "accepted"),
        ] {
            s.conn
                .execute(
                    "INSERT INTO versions (owner_id, number, hash, bot_id, uploader, submitted_at,
                                           submitted_unix, status, bytes, output)
                     VALUES (?1, ?2, 'h', ?3, 'u', 't', 0, ?4, 0, '')",
                    params![owner, number, bot, status],
                )
                .unwrap();
        }
        // Replaced (or withdrawn) by its owner: plays its round out. Disabled
        // by the organiser, playing, or not a version: no.
        assert!(s.stopped_by_owner("alice.v1").unwrap());
        for other in ["alice.v2", "alice.v3", "alice", "bob", "nobody"] {
            assert!(!s.stopped_by_owner(other).unwrap(), "{other}");
        }
        // alice.v3 replaced alice.v1 and has played nothing: it takes the
        // rating alice.v1's round left; once it has played, it keeps its own.
        s.conn
            .execute(
                "UPDATE bots SET mu = 31.5, sigma = 6.25 WHERE id = ?1",
                [v1],
            )
            .unwrap();
        s.conn
            .execute("UPDATE bots SET replaces = ?1 WHERE id = ?2", [v1, v3])
            .unwrap();
        s.carry_ratings(&["alice.v1".to_string()]).unwrap();
        let rating = |s: &Store, n: &str| {
            let b = s.bots().unwrap().into_iter().find(|b| b.name == n).unwrap();
            (b.mu, b.sigma)
        };
        assert_eq!(rating(&s, "alice.v3"), (31.5, 6.25));
        s.conn
            .execute("UPDATE bots SET played = 1, mu = 20.0 WHERE id = ?1", [v3])
            .unwrap();
        s.carry_ratings(&["alice.v1".to_string()]).unwrap();
        assert_eq!(rating(&s, "alice.v3").0, 20.0);
        assert_ne!(rating(&s, "bob"), (31.5, 6.25));
    }

    /// Matches a bot played, and matches each pair met.
    type Counts = (Vec<(String, u64)>, Vec<(String, String, u64)>);

    /// The meeting counts as the seats table gives them (the query the
    /// store ran every round before migration 3).
    fn counted(s: &Store) -> Counts {
        let mut q = s
            .conn
            .prepare(
                "SELECT b.name, COUNT(DISTINCT s.match_id) FROM bots b
                 LEFT JOIN seats s ON s.bot_id = b.id GROUP BY b.id ORDER BY b.id",
            )
            .unwrap();
        let played = q
            .query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut q = s
            .conn
            .prepare(
                "SELECT a.name, b.name, COUNT(DISTINCT x.match_id) FROM seats x
                 JOIN seats y ON x.match_id = y.match_id AND x.bot_id < y.bot_id
                 JOIN bots a ON a.id = x.bot_id JOIN bots b ON b.id = y.bot_id
                 GROUP BY x.bot_id, y.bot_id ORDER BY x.bot_id, y.bot_id",
            )
            .unwrap();
        let met = q
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? as u64))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        (played, met)
    }

    #[test]
    fn meetings_kept_as_matches_are_recorded_equal_the_counts_of_the_seats() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("league.db");
        let mut s = Store::open(&path).unwrap();
        let tables: [&[&str]; 6] = [
            &["a", "b", "c", "d"],
            &["a", "b", "c", "e"],
            &["b", "b", "d", "e"],
            &["e", "d", "c", "a"],
            &["a", "b", "c", "d"],
            &["c", "d", "e", "a"],
        ];
        for (i, bots) in tables.iter().enumerate() {
            let rated = i != 2;
            s.record_match(&record(&format!("h{i}"), bots), rated, |b| b.to_vec())
                .unwrap();
        }
        // Recording one again changes nothing.
        s.record_match(&record("h0", tables[0]), true, |b| b.to_vec())
            .unwrap();
        let m = s.meetings().unwrap();
        let (played, met) = counted(&s);
        assert_eq!(m.played, played);
        assert_eq!(m.met, met);
        assert!(m.met.contains(&("a".into(), "b".into(), 3)), "{:?}", m.met);
        // A store of schema 2 gets the counts from its seats.
        s.conn
            .execute_batch(
                "DROP TABLE versions; DROP TABLE meetings; ALTER TABLE bots DROP COLUMN played;
                 PRAGMA user_version = 2;",
            )
            .unwrap();
        drop(s);
        let s = Store::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), MIGRATIONS.len() as i64);
        let m = s.meetings().unwrap();
        assert_eq!((m.played, m.met), counted(&s));
    }
}
