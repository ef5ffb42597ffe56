//! `whistle-bot`: the bundled Rust bots as a bot process.
//!
//! Follows the launch contract (docs/protocol.md): the referee's address and
//! the token come from `WHISTLE_ADDRESS` and `WHISTLE_TOKEN`, or from
//! `--address` and `--token`. It plays every seat the token is assigned and
//! exits when the referee has no more.

use std::process::ExitCode;

use clap::Parser;
use whistle_bot::client::BotArgs;

/// Plays a bundled bot against a whistle referee.
#[derive(Debug, Parser)]
#[command(name = "whistle-bot", version)]
struct Args {
    #[command(flatten)]
    bot: BotArgs,
}

fn main() -> ExitCode {
    whistle_bot::client::bot_main(Args::parse().bot)
}
