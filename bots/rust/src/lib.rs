//! # whistle-bot
//!
//! The Rust bot kit of whistle: [`client`], the loop that plays a [`Bot`]
//! against a referee over gRPC (the launch contract, compact requests), on
//! [`transport`], the one seat loop (reconnection and resumption) that the
//! stdio bridge plugs into as well, and the `whistle-bot` binary.
//!
//! What a bot decides with lives apart, in `whistle-policies`
//! (`bots/policies`), which needs only the rules: the [`Bot`] trait, the
//! built-in bots (`random`, `first`, `heuristic` and `sampler`, see
//! [`bot_by_name`]), [`play_match`] (one match in-process, with no referee
//! and no network) and [`playout`]. Everything there is re-exported here,
//! so a bot written against the kit names it `whistle_bot::Bot`.
//!
//! The rules of the games, with every decision id the referee cites, are in
//! `docs/rules/` (`whistle games GAME --rules` prints a game's page); a bot
//! with no gRPC at all can speak JSON lines instead (`docs/stdio.md`).
//!
//! A bot decides from what its seat may see: every request carries the seat's
//! full [`Observation`](whistle_rules::Observation) and the list of legal
//! actions, and the bot answers with an index into that list. The same trait
//! is driven over gRPC by [`client`], so a bot written against it runs
//! in-process for tests and remotely in a tournament alike.
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

pub mod client;
pub mod transport;

pub use whistle_policies::{
    BOT_NAMES, Bot, Budget, FirstBot, HandRecord, HeuristicBot, MatchError, MatchRecord, RandomBot,
    Rollout, SamplerBot, UnknownBot, bot_by_name, bot_seed, play_match, playout, sampler,
};
