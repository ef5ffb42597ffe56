//! # whistle-bot
//!
//! The Rust bot kit of whistle: the [`Bot`] trait a bot implements, the
//! built-in bots (`random`, `first`, `heuristic` and `sampler`, see
//! [`bot_by_name`]),
//! [`play_match`], a driver that plays one match in-process with no referee
//! and no network, and [`client`], the loop that plays a bot against a
//! referee over gRPC.
//!
//! The rules of the games, with every decision id the referee cites, are in
//! `docs/rules/` (`whistle games GAME --rules` prints a game's page); a bot
//! with no gRPC at all can speak JSON lines instead (`docs/stdio.md`).
//!
//! A bot decides from what its seat may see: every request carries the seat's
//! full [`Observation`](whistle_rules::Observation) and the list of legal
//! actions, and the bot answers with an index into that list. The same trait
//! will be driven over gRPC by the referee's connection loop, so a bot written
//! against it runs in-process for tests and remotely in a tournament alike.
//!
//! ```
//! use whistle_bot::{Bot, bot_by_name, bot_seed, play_match};
//! use whistle_rules::{Game, Options, Variant, dealing::Seed};
//!
//! let mut game = Variant::Israeli
//!     .new_game(&Options::parse(&["hands=2"]).unwrap())
//!     .unwrap();
//! let match_seed = Seed::from_u64(1);
//! let mut bots: Vec<Box<dyn Bot>> = (0..game.seats())
//!     .map(|s| bot_by_name(if s % 2 == 0 { "random" } else { "first" }, bot_seed(match_seed, s)))
//!     .collect::<Result<_, _>>()
//!     .unwrap();
//! let record = play_match(&mut game, match_seed, &mut bots).unwrap();
//! assert_eq!(record.hands.len(), 2);
//! println!("{:?}", record.result.ranks);
//! ```

mod bot;
mod builtin;
pub mod client;
mod driver;
mod heuristic;
pub mod sampler;

pub use bot::Bot;
pub use builtin::{BOT_NAMES, FirstBot, RandomBot, UnknownBot, bot_by_name, bot_seed};
pub use driver::{HandRecord, MatchError, MatchRecord, play_match};
pub use heuristic::HeuristicBot;
pub use sampler::{Budget, SamplerBot};
