//! `whistle league submit|versions|withdraw|stderr|disable|download`: bots'
//! owners upload versions of their bots with their token; the organiser
//! disables and downloads them (docs/leagues.md, "For students" and "For
//! teachers").

use std::path::PathBuf;

use clap::Subcommand;
use whistle_league::{LeagueError, submit};

/// The subcommands of `whistle league` about uploaded versions.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Upload a version of your bot (a folder, a .tar.gz or a .zip with a
    /// whistle.toml at its root): the league builds it in a sandbox, runs
    /// check-bot on it and, if it passes, plays it from the next round.
    /// Prints `accepted: version N` or `refused: WHY` (exit status 1).
    Submit {
        /// The folder or archive.
        path: PathBuf,
        /// Your bot's token (the one `league add-bot` printed).
        #[arg(long, env = "WHISTLE_TOKEN", hide_env_values = true)]
        token: String,
        /// The league folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// A bot's versions: each upload, its status and the check's output.
    /// With --token, your bot's; with a name, any bot's (the organiser).
    Versions {
        /// The bot (the organiser's view).
        bot: Option<String>,
        /// Your bot's token.
        #[arg(long, env = "WHISTLE_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// As JSON.
        #[arg(long)]
        json: bool,
        /// The league folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Stop your bot's version that plays (upload again to play again).
    Withdraw {
        /// Your bot's token.
        #[arg(long, env = "WHISTLE_TOKEN", hide_env_values = true)]
        token: String,
        /// The league folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Your bot's stderr in the league's last rounds (the end of each log).
    Stderr {
        /// Your bot's token.
        #[arg(long, env = "WHISTLE_TOKEN", hide_env_values = true)]
        token: String,
        /// How many rounds back.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// The most bytes shown of each log (its end).
        #[arg(long, default_value_t = 4096)]
        bytes: u64,
        /// The league folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Disable a version of a bot (the organiser): it never plays again.
    Disable {
        /// The bot.
        bot: String,
        /// The version's number.
        version: u32,
        /// The league folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Write a version of a bot as a .tar.gz (the organiser: grading,
    /// plagiarism checks).
    Download {
        /// The bot.
        bot: String,
        /// The version's number.
        version: u32,
        /// The file to write.
        #[arg(long, short)]
        out: PathBuf,
        /// The league folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
}

fn plain(e: LeagueError) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// Runs one of the subcommands; returns what to print.
pub fn run(command: &Command) -> anyhow::Result<String> {
    match command {
        Command::Submit { path, token, dir } => {
            let whistle = std::env::current_exe()?;
            let outcome = submit::submit(dir, token, path, &whistle).map_err(plain)?;
            if outcome.version.is_some() {
                return Ok(format!("{}\n", outcome.message));
            }
            // The check's report first, the verdict last (and on stderr).
            if !outcome.output.is_empty() {
                print!("{}", outcome.output);
            }
            Err(anyhow::anyhow!("{}", outcome.message))
        }
        Command::Versions {
            bot,
            token,
            json,
            dir,
        } => {
            let (name, rows) = match (bot, token) {
                (Some(b), _) => (b.clone(), submit::versions(dir, b).map_err(plain)?),
                (None, Some(t)) => submit::versions_by_token(dir, t).map_err(plain)?,
                (None, None) => {
                    return Err(crate::usage(
                        "league versions: give a bot's name (the organiser) or --token",
                    ));
                }
            };
            if *json {
                return Ok(serde_json::to_string_pretty(&rows)? + "\n");
            }
            let mut out = format!("versions of {name}\n");
            for v in &rows {
                let first = v.output.lines().next().unwrap_or("");
                let played = match (v.rating, v.matches, v.faults) {
                    (Some(r), Some(m), Some(f)) => {
                        format!("rating {r:.2}, {m} match(es), {f} fault(s); ")
                    }
                    _ => String::new(),
                };
                out.push_str(&format!(
                    "  {:>4}  {:<9}  {}  {}  {played}{}\n",
                    v.number.map_or("-".to_string(), |n| format!("v{n}")),
                    v.status,
                    v.submitted_at,
                    v.hash.get(..12).unwrap_or("-"),
                    first
                ));
            }
            Ok(out)
        }
        Command::Withdraw { token, dir } => submit::withdraw(dir, token).map_err(plain),
        Command::Stderr {
            token,
            rounds,
            bytes,
            dir,
        } => submit::stderr(dir, token, *rounds, (*bytes).min(1 << 20)).map_err(plain),
        Command::Disable { bot, version, dir } => {
            submit::disable(dir, bot, *version).map_err(plain)
        }
        Command::Download {
            bot,
            version,
            out,
            dir,
        } => submit::download(dir, bot, *version, out).map_err(plain),
    }
}
