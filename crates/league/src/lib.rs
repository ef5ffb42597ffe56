//! Leagues: ratings that last for weeks.
//!
//! A league lives in a folder: the league file it was made from
//! (`league.toml`), the store (`league.db`, SQLite in WAL mode) and the
//! match logs of its rounds (`rounds/NNNN/`). The store holds the bots (a
//! token's SHA-256, never the token), every finished match with the hash of
//! its log, each seat's score, and every rating update, each match with its
//! rating updates written in one transaction.
//!
//! * [`archive`]: a bot's upload (a folder, a `.tar.gz`, a `.zip`) unpacked
//!   safely, within bounds.
//! * [`config`]: the league file.
//! * [`store`]: the SQLite store, its schema migrations, standings and
//!   history.
//! * [`import`]: a finished tournament's (or round's) logs into the store,
//!   exactly once per log, in match order, with Weng-Lin updates.
//! * [`lock`]: one league folder, one writer (`LEAGUE/.lock`).
//! * [`pairing`]: how a round seats the league's bots (least played first,
//!   spreading opponents, reference bots filling empty seats).
//! * [`round`]: one scheduled round: the plan, the tournament runner, the
//!   import. A round killed at any point resumes where it stopped.
//! * [`serve`]: the referee, the scheduler and the store in one process:
//!   bots connect with their tokens (over TLS) and are seated as they wait.
//! * [`submit`]: bots' owners upload versions; each is checked (built in a
//!   sandbox, run through `check-bot`), kept by its content hash and played.
//! * [`site`]: the league's web site (standings, rating histories, recent
//!   matches in the hand viewer, live tables shown late).

pub mod archive;
pub mod config;
pub mod error;
pub mod import;
pub mod lock;
pub mod pairing;
pub mod round;
pub mod serve;
pub mod site;
pub mod store;
pub mod submit;

pub use config::LeagueFile;
pub use error::LeagueError;
pub use store::{HistoryRow, Standing, Store};

/// The league file's name inside a league folder.
pub const LEAGUE_FILE: &str = "league.toml";
/// The store's name inside a league folder.
pub const STORE_FILE: &str = "league.db";
