//! The [`Bot`] trait.

use std::time::Duration;

use whistle_rules::{Action, Event, HandResult, MatchResult, Observation, Options, Seat, Variant};

/// A player for one seat of one match.
///
/// The driver (in-process [`play_match`](crate::play_match), or the Rust
/// kit's gRPC connection loop, `whistle_bot::client`) calls the hooks in
/// this order:
///
/// 1. [`Bot::rules`] and [`Bot::new_match`] once, before anything else;
/// 2. for every event of a hand that the seat may see, [`Bot::on_event`], as it
///    happens (the deal, other seats' public actions, tricks won, ...);
/// 3. [`Bot::choose`] whenever the seat must decide;
/// 4. [`Bot::hand_over`] after each hand, [`Bot::match_over`] at the end.
///
/// Only [`Bot::choose`] is required. A request carries everything needed to act
/// without memory, so a stateless bot ignores every other hook; a stateful bot
/// can follow the events instead of comparing observations.
///
/// A bot is `Send` so that a driver may run each seat on its own task.
pub trait Bot: Send {
    /// Picks one of `legal` (never empty) for the seat described by `obs`,
    /// returning its index. The order of `legal` is fixed by the game and part
    /// of the protocol; an index out of range is a fault of the bot.
    fn choose(&mut self, obs: &Observation, legal: &[Action]) -> usize;

    /// The game of the match about to begin and its options (every option
    /// with its effective value), before [`Bot::new_match`]. A bot that
    /// simulates the game (the `sampler`) builds it from these.
    fn rules(&mut self, variant: Variant, options: &Options) {
        let _ = (variant, options);
    }

    /// The event's clock, when there is one (over the wire, from the
    /// referee's `Welcome`): the time a decision may take before the match's
    /// bank is drawn on, and the bank. A bot whose effort is elastic (the
    /// `sampler`) keeps inside it.
    fn clock(&mut self, per_action: Duration, bank: Duration) {
        let _ = (per_action, bank);
    }

    /// A new match begins and this bot plays `seat` at a table of `seats`.
    fn new_match(&mut self, seat: Seat, seats: usize) {
        let _ = (seat, seats);
    }

    /// Whether the bot follows events ([`Bot::on_event`], [`Bot::hand_over`]).
    /// A bot that decides from each request alone returns false: over the
    /// wire its streams then ask the referee for quiet mode (no events are
    /// pushed, and those two hooks are not called), which saves traffic.
    /// The default is true.
    fn wants_events(&self) -> bool {
        true
    }

    /// Something happened that this seat may see. Hidden content arrives
    /// redacted (e.g. [`Event::Hidden`]), exactly as in the seat's observation.
    fn on_event(&mut self, event: &Event) {
        let _ = event;
    }

    /// A hand is over; `result` is its result for every seat.
    fn hand_over(&mut self, result: &HandResult) {
        let _ = result;
    }

    /// The match is over.
    fn match_over(&mut self, result: &MatchResult) {
        let _ = result;
    }
}

impl<B: Bot + ?Sized> Bot for Box<B> {
    fn choose(&mut self, obs: &Observation, legal: &[Action]) -> usize {
        (**self).choose(obs, legal)
    }

    fn rules(&mut self, variant: Variant, options: &Options) {
        (**self).rules(variant, options);
    }

    fn clock(&mut self, per_action: Duration, bank: Duration) {
        (**self).clock(per_action, bank);
    }

    fn new_match(&mut self, seat: Seat, seats: usize) {
        (**self).new_match(seat, seats);
    }

    fn wants_events(&self) -> bool {
        (**self).wants_events()
    }

    fn on_event(&mut self, event: &Event) {
        (**self).on_event(event);
    }

    fn hand_over(&mut self, result: &HandResult) {
        (**self).hand_over(result);
    }

    fn match_over(&mut self, result: &MatchResult) {
        (**self).match_over(result);
    }
}
