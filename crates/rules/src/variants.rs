//! [`Variant`] (which game) and [`AnyGame`] (a game chosen at run time),
//! both made by the registration in `games/mod.rs`; here, how a variant is
//! written and read, and [`Game`] for [`AnyGame`] by delegation.
//!
//! Code outside `games/` never names a concrete game type: it builds an
//! [`AnyGame`] from a [`Variant`] and options, and drives it through [`Game`].

use std::{fmt, str::FromStr};

pub use crate::games::{AnyGame, Variant};
use crate::{
    action::{Action, ActionKind, ActionList},
    card::Card,
    card_set::CardSet,
    context::{ContextError, HandContext},
    error::{IllegalReason, OptionError},
    game::Game,
    games::{Notes, Shown},
    outcome::{MatchResult, PerSeat, ScoreOrder},
    seat::{Seat, SeatSet},
    view::{Observation, TableCard, Trump},
    vocabulary::Vocabulary,
};

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = OptionError;

    fn from_str(s: &str) -> Result<Variant, OptionError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| OptionError::UnknownGame(s.to_string()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl Variant {
    /// The game's vocabulary under `options` ([`Game::vocabulary`]).
    ///
    /// # Errors
    /// [`OptionError`] for an unknown option or a bad value.
    pub fn vocabulary(self, options: &crate::Options) -> Result<Vocabulary, OptionError> {
        Ok(self.new_game(options)?.vocabulary())
    }
}

impl Game for AnyGame {
    #[inline]
    fn to_act(&self) -> SeatSet {
        delegate!(self, g => g.to_act())
    }
    #[inline]
    fn simultaneous(&self) -> bool {
        delegate!(self, g => g.simultaneous())
    }
    #[inline]
    fn append_legal(&self, seat: Seat, out: &mut ActionList) {
        delegate!(self, g => g.append_legal(seat, out))
    }
    #[inline]
    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        delegate!(self, g => g.check(seat, action))
    }
    #[inline]
    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        delegate!(self, g => g.apply_unchecked(seat, action))
    }
    fn deck(&self) -> CardSet {
        delegate!(self, g => g.deck())
    }
    #[inline]
    fn deal_unchecked(&mut self, order: &[Card]) {
        delegate!(self, g => g.deal_unchecked(order))
    }
    fn observe(&self, seat: Seat) -> Observation {
        delegate!(self, g => g.observe(seat))
    }
    fn observe_without_history(&self, seat: Seat) -> Observation {
        delegate!(self, g => g.observe_without_history(seat))
    }
    // The provided checks below are delegated whole: the same FINAL code,
    // run on the concrete game, costs one dispatch a call instead of one
    // for each hook it calls (random Israeli hands: 10 % faster). The hot
    // ones are `#[inline]`: callers in other crates (the referee, bots,
    // the bench) then dispatch in place (8 % fewer instructions a hand).
    #[inline]
    fn legal_actions_into(&self, seat: Seat, out: &mut ActionList) {
        delegate!(self, g => g.legal_actions_into(seat, out))
    }
    #[inline]
    fn validate(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        delegate!(self, g => g.validate(seat, action))
    }
    #[inline]
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), crate::IllegalAction> {
        delegate!(self, g => g.apply(seat, action))
    }
    #[inline]
    fn deal(&mut self, order: &[Card]) -> Result<(), crate::DealError> {
        delegate!(self, g => g.deal(order))
    }
    #[inline]
    fn core(&self) -> &crate::games::MatchCore {
        delegate!(self, g => g.core())
    }
    fn result(&self) -> Option<MatchResult> {
        delegate!(self, g => g.result())
    }
    fn accepts(&self, kind: ActionKind) -> bool {
        delegate!(self, g => g.accepts(kind))
    }
    fn append_vocabulary(&self, out: &mut Vec<Action>) {
        delegate!(self, g => g.append_vocabulary(out))
    }
    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        delegate!(self, g => g.start_at_unchecked(ctx))
    }
    fn world_context(&self, obs: &Observation) -> HandContext {
        delegate!(self, g => g.world_context(obs))
    }
    #[inline]
    fn trick_rules(&self) -> &crate::TrickRules {
        delegate!(self, g => g.trick_rules())
    }
    fn passive_key(&self, seat: Seat, action: Action) -> u32 {
        delegate!(self, g => g.passive_key(seat, action))
    }
    fn teams(&self) -> PerSeat<u8> {
        delegate!(self, g => g.teams())
    }
    fn score_order(&self) -> ScoreOrder {
        delegate!(self, g => g.score_order())
    }
}

impl Shown for AnyGame {
    #[inline]
    fn held(&self, seat: Seat) -> CardSet {
        delegate!(self, g => g.held(seat))
    }
    fn known(&self, viewer: Seat, seat: Seat) -> CardSet {
        delegate!(self, g => g.known(viewer, seat))
    }
    #[inline]
    fn bid(&self, viewer: Seat, seat: Seat) -> Option<Action> {
        delegate!(self, g => g.bid(viewer, seat))
    }
    fn active(&self, seat: Seat) -> bool {
        delegate!(self, g => g.active(seat))
    }
    #[inline]
    fn trump(&self) -> Trump {
        delegate!(self, g => g.trump())
    }
    fn contract(&self) -> Option<(Seat, Action)> {
        delegate!(self, g => g.contract())
    }
    fn table_into(&self, viewer: Seat, out: &mut Vec<TableCard>) {
        delegate!(self, g => g.table_into(viewer, out))
    }
    fn piles(&self, viewer: Seat) -> crate::games::Piles {
        delegate!(self, g => g.piles(viewer))
    }
    fn write_notes(&self, notes: &mut Notes<'_>) {
        delegate!(self, g => g.write_notes(notes))
    }
}
