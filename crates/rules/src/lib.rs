//! # whistle-rules
//!
//! The pure rules engine of whistle: cards, decks, seeded dealing, tricks, and
//! one module per game behind one trait, [`Game`]. No IO, no async, no clock,
//! no randomness except the seeds it is given. Same seed and same actions give
//! the same everything, forever (golden vectors pin the deal).
//!
//! ```
//! use whistle_rules::{dealing, Game, Options, Seat, Status, Variant};
//!
//! let mut game = Variant::Israeli.new_game(&Options::parse(&["hands=1"]).unwrap()).unwrap();
//! let seed = dealing::Seed::from_u64(7);
//! while !game.is_over() {
//!     if dealing::deal_if_needed(&mut game, seed).unwrap() {
//!         continue;
//!     }
//!     // Everyone plays their first legal action.
//!     let seat: Seat = game.to_act().first().unwrap();
//!     let action = game.legal_actions(seat)[0];
//!     game.apply(seat, action).unwrap();
//! }
//! assert_eq!(game.status(), Status::Over);
//! println!("{:?}", game.result().unwrap().totals);
//! ```
//!
//! Features: `serde` derives serialization for cards, actions, observations
//! and results (cards and actions as their canonical text).

mod action;
mod card;
mod card_set;
mod context;
pub mod dealing;
mod driver;
mod error;
mod game;
#[macro_use]
pub mod games;
mod judge;
mod options;
mod outcome;
pub mod passive;
pub mod sample;
mod seat;
mod trick;
mod variants;
mod view;
mod vocabulary;

pub use action::{
    Action, ActionKind, ActionList, Exchange, Feat, MAX_ACTIONS, ParseActionError, Strain, Target,
};
pub use card::{Card, ParseCardError, Rank, Suit};
pub use card_set::{CardSet, CardSetIter, decks};
pub use context::{ContextError, HandContext};
pub use driver::{DriveError, Fallback, MatchDriver, MatchEvent, fallback_action};
pub use error::{ActionError, DealError, IllegalAction, IllegalReason, OptionError};
pub use game::{Game, Status};
pub use judge::{Answer, MAX_ANSWER_TEXT, Rejection, judge};
pub use options::{OptionReader, OptionSpec, Options};
pub use outcome::{HandResult, MatchResult, PerSeat, ScoreOrder, Summary, ranks_by};
pub use seat::{MAX_SEATS, Player, Seat, SeatSet};
pub use trick::{MAX_TRICK, Trick, TrickRules, suit_id};
pub use variants::{AnyGame, Variant};
pub use view::{
    Event, LogEntry, Observation, Phase, SeatView, Source, TableCard, TrickView, Trump,
    visible_events,
};
pub use vocabulary::Vocabulary;
