//! # whistle-policies
//!
//! The bots of whistle as policies over the rules alone: the [`Bot`] trait a
//! bot implements, the built-in bots (`random`, `first`, `heuristic` and
//! `sampler`, see [`bot_by_name`]), [`play_match`], a driver that plays one
//! match in-process with no referee and no network, and [`playout`], the
//! rest of a hand played out by a fast policy in every seat (what the
//! sampler and the Python package's batch calls run).
//!
//! This crate needs nothing but `whistle-rules`: no network, no protocol, no
//! async runtime. The gRPC client that plays a [`Bot`] against a referee is
//! the Rust kit, `whistle-bot` (`bots/rust`), which re-exports everything
//! here; the Python package (`crates/python`) links this crate alone.
//!
//! A bot decides from what its seat may see: every request carries the seat's
//! full [`Observation`](whistle_rules::Observation) and the list of legal
//! actions, and the bot answers with an index into that list. The same trait
//! is driven in-process by [`play_match`] and over gRPC by the Rust kit's
//! connection loop, so a bot written against it runs in-process for tests
//! and remotely in a tournament alike.
//!
//! ```
//! use whistle_policies::{Bot, bot_by_name, bot_seed, play_match};
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
mod driver;
mod heuristic;
pub mod playout;
pub mod sampler;

pub use bot::Bot;
pub use builtin::{BOT_NAMES, FirstBot, RandomBot, UnknownBot, bot_by_name, bot_seed};
pub use driver::{HandRecord, MatchError, MatchRecord, play_match};
pub use heuristic::HeuristicBot;
pub use playout::Rollout;
pub use sampler::{Budget, SamplerBot};
