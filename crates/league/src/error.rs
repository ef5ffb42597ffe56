//! Why a league could not be used: [`LeagueError`].

use std::{fmt, path::PathBuf};

use whistle_tournament::config::ConfigError;

/// Why a league could not be used.
#[derive(Debug)]
pub enum LeagueError {
    /// The league file or a round's tournament file is not valid.
    Config(String),
    /// A file of the league folder could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The store refused an operation.
    Store(rusqlite::Error),
    /// A request that the league's state does not allow (an unknown bot, a
    /// name already taken, ...).
    Refused(String),
    /// A round could not be played.
    Round(String),
}

impl fmt::Display for LeagueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeagueError::Config(m) | LeagueError::Refused(m) | LeagueError::Round(m) => {
                f.write_str(m)
            }
            LeagueError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            LeagueError::Store(e) => write!(f, "league store: {e}"),
        }
    }
}

impl std::error::Error for LeagueError {}

impl From<rusqlite::Error> for LeagueError {
    fn from(e: rusqlite::Error) -> LeagueError {
        LeagueError::Store(e)
    }
}

impl From<ConfigError> for LeagueError {
    fn from(e: ConfigError) -> LeagueError {
        LeagueError::Config(e.to_string())
    }
}
