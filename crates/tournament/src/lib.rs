//! # whistle-tournament
//!
//! The tournament runner: reads a tournament file ([`Tournament`]), plans the
//! schedule ([`schedule::plan`]: round robin, duplicate, gauntlet), starts the
//! bot processes with the launch contract, plays the matches in parallel on
//! an embedded referee over loopback, writes one replay log per match
//! (flushed after every hand), and computes the standings
//! ([`stats::compute`]): ratings from `skillratings`, per-bot statistics with
//! confidence intervals, duplicate comparisons. Interrupted runs resume from
//! their logs; shards merge into the results of one run.
//!
//! Start reading at [`runner::run`].

pub mod config;
pub mod confine;
pub mod error;
mod fair_play;
pub mod layout;
pub mod page_cache;
mod pool;
pub mod procs;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod stdio;

pub use config::{BotKind, BotSpec, ConfigError, Format, Tournament};
pub use error::RunError;
pub use runner::{Reporter, RunEvent, RunOptions, SharedReferee, Silent, Summary, merge, run};
pub use schedule::Shard;
pub use stats::Results;
