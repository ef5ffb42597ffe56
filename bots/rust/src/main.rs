//! `whistle-bot`: the bundled Rust bots as a bot process.
//!
//! Follows the launch contract (docs/protocol.md): the referee's address and
//! the token come from `WHISTLE_ADDRESS` and `WHISTLE_TOKEN`, or from
//! `--address` and `--token`. It plays every seat the token is assigned and
//! exits when the referee has no more.

use std::process::ExitCode;

use clap::Parser;
use whistle_bot::{
    BOT_NAMES, bot_by_name,
    client::{Launch, run},
};
use whistle_rules::dealing::{Domain, Seed};

/// Plays a bundled bot against a whistle referee.
#[derive(Debug, Parser)]
#[command(name = "whistle-bot", version)]
struct Args {
    /// Which bot: random, first or heuristic.
    #[arg(long, default_value = "heuristic")]
    bot: String,
    /// Seed of the random bot: a number, or 64 hex digits. With a seat token
    /// it is the bot's seed as is; with a bot token, each seat assigned uses
    /// `seed.derive(Bot, k)` where k is the FNV-1a hash of `TABLE/SEAT`
    /// (64 bits, top 8 cleared), so every seat's choices are reproducible
    /// whatever order the tables come in.
    #[arg(long, default_value = "0")]
    seed: String,
    /// The referee's address (default: $WHISTLE_ADDRESS).
    #[arg(long)]
    address: Option<String>,
    /// The seat or bot token (default: $WHISTLE_TOKEN).
    #[arg(long)]
    token: Option<String>,
    /// Log filter for stderr, e.g. `info` or `debug`.
    #[arg(long, default_value = "warn")]
    log: String,
}

fn parse_seed(s: &str) -> Result<Seed, String> {
    if let Ok(n) = s.parse::<u64>() {
        return Ok(Seed::from_u64(n));
    }
    Seed::from_hex(s)
}

/// FNV-1a (64 bits) of `TABLE/SEAT`, top 8 bits cleared to fit a seed index.
fn seat_key(table_id: &str, seat: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{table_id}/{seat}").bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h & ((1 << 56) - 1)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::new(&args.log))
        .init();
    let seed = match parse_seed(&args.seed) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --seed: {e}");
            return ExitCode::from(2);
        }
    };
    if bot_by_name(&args.bot, seed).is_err() {
        eprintln!(
            "error: unknown bot `{}` (known: {})",
            args.bot,
            BOT_NAMES.join(", ")
        );
        return ExitCode::from(2);
    }
    let launch = match Launch::resolve(args.address, args.token, &args.bot) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let name = args.bot.clone();
    let own_token = launch.token.clone();
    let outcome = run(&launch, move |a| {
        // Subscribing with a seat token yields that very token as the seat's.
        let seed = if a.seat_token == own_token {
            seed
        } else {
            seed.derive(Domain::Bot, seat_key(&a.table_id, a.seat))
        };
        bot_by_name(&name, seed).expect("checked above")
    })
    .await;
    match outcome {
        Ok(seats) => {
            for s in &seats {
                tracing::info!(table = %s.table_id, seat = s.seat.index(), result = ?s.result.as_ref().map(|r| &r.totals), faults = s.faults, "seat done");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
