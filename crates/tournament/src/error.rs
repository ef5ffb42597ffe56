//! Why a run (or a merge) failed: [`RunError`].

use std::path::{Path, PathBuf};

/// Why a run (or a merge) failed.
#[derive(Debug)]
pub enum RunError {
    /// A file or folder could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A file does not hold what it should (`tournament.json`).
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A match log could not be read or written.
    Log(whistle_replay::ReplayError),
    /// The output folder, a resume or a merge does not fit the tournament;
    /// the text says how.
    Mismatch(String),
    /// The embedded referee could not listen.
    Listen {
        /// The address.
        addr: std::net::SocketAddr,
        /// The error.
        error: std::io::Error,
    },
    /// A bot's command could not be started.
    BotStart {
        /// The bot.
        bot: String,
        /// Its program.
        program: String,
        /// Why.
        message: String,
    },
    /// The game's options are not valid.
    Options(whistle_rules::OptionError),
    /// The referee refused a table.
    Table(whistle_referee::CreateError),
    /// A logged match does not re-play (resume).
    Replay(whistle_rules::DriveError),
    /// A table ended without a result; the text says why.
    Match {
        /// The table.
        table: String,
        /// Why.
        reason: String,
    },
    /// A match's task failed.
    Task(String),
    /// The bots cannot be sandboxed as the file asks; the text says why and
    /// what to do.
    Sandbox(String),
    /// The format would show a bot the same deal twice where it cannot be
    /// given a fresh instance for each play; the text names the format.
    Format(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            RunError::Parse { path, message } => write!(f, "{}: {message}", path.display()),
            RunError::Log(e) => write!(f, "{e}"),
            RunError::Mismatch(why) => f.write_str(why),
            RunError::Listen { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            RunError::BotStart {
                bot,
                program,
                message,
            } => write!(f, "bot `{bot}`: cannot start `{program}`: {message}"),
            RunError::Options(e) => write!(f, "{e}"),
            RunError::Table(e) => write!(f, "{e}"),
            RunError::Replay(e) => write!(f, "a logged match does not re-play: {e}"),
            RunError::Match { table, reason } => write!(f, "table {table}: {reason}"),
            RunError::Task(why) => write!(f, "a match task failed: {why}"),
            RunError::Sandbox(why) | RunError::Format(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RunError {}

impl From<whistle_replay::ReplayError> for RunError {
    fn from(e: whistle_replay::ReplayError) -> RunError {
        RunError::Log(e)
    }
}

/// An IO error on `path`.
pub(crate) fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> RunError + '_ {
    move |error| RunError::Io {
        path: path.to_path_buf(),
        error,
    }
}
