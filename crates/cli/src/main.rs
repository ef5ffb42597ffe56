//! `whistle`: the command-line front end of whistle.
//!
//! A thin layer over the crates: it parses arguments, builds games and bots,
//! and prints what the libraries return. Usage errors (an unknown game,
//! option, value or bot) print one line on stderr and exit with code 2; other
//! failures exit with code 1.

mod check_bot;
mod games;
mod league;
mod play;
mod progress;
mod replay;
mod serve;
mod signals;
mod submissions;
mod tournament;

use std::{
    fmt,
    io::{self, Write},
    process::ExitCode,
};

use clap::{Parser, Subcommand};

/// whistle: a headless referee and bot-tournament harness for whist-family
/// card games.
#[derive(Debug, Parser)]
#[command(name = "whistle", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List every game with its options: key, default, allowed values and
    /// what each does.
    Games(games::GamesArgs),
    /// Play one match in-process between built-in bots and print a
    /// hand-by-hand account and the final standing.
    Play(play::PlayArgs),
    /// Run the referee: a gRPC server that bots connect to (see
    /// docs/protocol.md). Prints `listening on ADDR admin-token TOKEN`.
    Serve(serve::ServeArgs),
    /// Create a table on a running referee and print its seat tokens.
    Table(serve::TableArgs),
    /// Retire a bot on a running referee: its bot tokens are revoked and its
    /// Subscribe streams end, so its process exits once its seats are done.
    RetireBot(serve::RetireArgs),
    /// Run a tournament file: bot processes, parallel tables, replay logs,
    /// ratings; prints the standings.
    Tournament(tournament::TournamentArgs),
    /// Merge the output folders of a sharded tournament into one set of results.
    Merge(tournament::MergeArgs),
    /// Run a league: bots with tokens, rounds, ratings carried from round to
    /// round, standings and history (see docs/leagues.md).
    League(league::LeagueArgs),
    /// Check, show and replay match logs: settle disputes from the log alone.
    Replay(replay::ReplayArgs),
    /// Play a bundled bot (random, first, heuristic, sampler) against a referee, with
    /// the launch contract ($WHISTLE_ADDRESS, $WHISTLE_TOKEN). The help says
    /// `BOT_ABOUT`, which the bundled bot binary's says too.
    #[command(about = whistle_bot::client::BOT_ABOUT, long_about = None)]
    Bot(whistle_bot::client::BotArgs),
    /// Check a bot before it enters an event: start it as the runner does,
    /// play it through every game it plays, and print PASS or FAIL for each
    /// check (exit status 1 on a FAIL). `whistle check-bot -- python3 my_bot.py`
    CheckBot(check_bot::CheckBotArgs),
}

/// A mistake in the command line that clap's own checks do not catch: an
/// unknown game, option, value or bot. Reported on one line, exit code 2.
#[derive(Debug)]
pub struct Usage(pub String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A command that ran to its end with something a script must notice: its
/// output is printed as usual, then `why` on stderr, and it exits with
/// [`EXIT_UNCLEAN`].
#[derive(Debug)]
pub struct Unclean {
    /// What the command prints on stdout.
    pub output: String,
    /// What went wrong, for stderr.
    pub why: String,
}

/// The exit status of an [`Unclean`] end: a tournament in which a bot was
/// out of the event, an import that refused logs.
pub const EXIT_UNCLEAN: u8 = 3;

impl fmt::Display for Unclean {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)
    }
}

impl std::error::Error for Unclean {}

/// Shorthand for a [`Usage`] error.
pub fn usage(message: impl fmt::Display) -> anyhow::Error {
    Usage(message.to_string()).into()
}

/// Prints a command's report and turns its verdict into the exit status
/// (`whistle replay verify`, `whistle check-bot`).
fn printed_verdict(result: anyhow::Result<(String, bool)>) -> anyhow::Result<ExitCode> {
    let (text, ok) = result?;
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The arguments of `whistle bot ...`, the command a tournament starts for
/// every seat a bundled bot plays, parsed without building the whole
/// command tree (a fifth of such a process's start); `None` for any other
/// command, and for anything this parse does not take (help, a bad
/// argument), which the whole parse then says as ever.
fn bot_args() -> Option<whistle_bot::client::BotArgs> {
    use clap::{Args as _, FromArgMatches as _};
    let mut args = std::env::args_os().skip(1);
    if args.next()? != "bot" {
        return None;
    }
    let matches = whistle_bot::client::BotArgs::augment_args(clap::Command::new("bot"))
        .try_get_matches_from(std::iter::once("bot".into()).chain(args))
        .ok()?;
    whistle_bot::client::BotArgs::from_arg_matches(&matches).ok()
}

fn main() -> ExitCode {
    // `whistle __sandbox ...`: this process makes a bot's sandbox (it must
    // still be single-threaded) and never returns.
    whistle_sandbox::launcher_main();
    // Servers and tournaments hold many sockets and files at once.
    let _ = whistle_sandbox::raise_open_files();
    if let Some(args) = bot_args() {
        return whistle_bot::client::bot_main(args);
    }
    let cli = Cli::parse();
    let output = match cli.command {
        Command::Games(args) => games::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Table(args) => serve::table(&args),
        Command::RetireBot(args) => serve::retire(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Merge(args) => tournament::merge(&args),
        Command::League(args) => league::run(&args),
        Command::Bot(args) => return whistle_bot::client::bot_main(args),
        Command::CheckBot(args) => match printed_verdict(check_bot::run(&args)) {
            Ok(code) => return code,
            Err(e) => Err(e),
        },
        Command::Replay(args) => match printed_verdict(replay::run(&args)) {
            Ok(code) => return code,
            Err(e) => Err(e),
        },
    };
    let written = output.and_then(|text| {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
        Ok(())
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.is::<signals::Interrupted>() => {
            eprintln!("{e}");
            ExitCode::from(signals::EXIT_INTERRUPTED)
        }
        Err(e) if e.is::<Unclean>() => {
            let u = e.downcast_ref::<Unclean>().expect("checked");
            let mut out = io::stdout().lock();
            let _ = out.write_all(u.output.as_bytes());
            let _ = out.flush();
            eprintln!("{}", u.why);
            ExitCode::from(EXIT_UNCLEAN)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.is::<Usage>() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Whether the reader of our output went away (`whistle play | head`), which
/// is not worth an error message.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

#[cfg(test)]
mod command_line {
    use clap::CommandFactory;

    /// clap's own checks of every subcommand: conflicting names, and default
    /// values its value parsers refuse (a `--progress` default that is no
    /// mode made `league serve` fail without the flag).
    #[test]
    fn every_subcommand_and_default_is_valid() {
        super::Cli::command().debug_assert();
        // Defaults are parsed when a flag is left out.
        for line in [
            "whistle league serve --dir lg",
            "whistle league round --dir lg",
            "whistle tournament t.toml",
            "whistle serve",
            "whistle check-bot -- true",
            "whistle replay verify x.jsonl",
        ] {
            let words: Vec<&str> = line.split(' ').collect();
            if let Err(e) = <super::Cli as clap::Parser>::try_parse_from(&words) {
                panic!("`{line}`: {e}");
            }
        }
    }
}
