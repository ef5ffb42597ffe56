//! [`MatchDriver`]: one match as a pure state machine over a game.
//!
//! Everything that plays or re-plays a match goes through it: the referee's
//! tables (which add clocks, faults and the wire at their edge), the in-process
//! play of `whistle play`, `replay verify`, `rerun` and resumed matches. It
//! deals each hand from the match seed (or from recorded deck orders), says
//! which seats are asked, applies an answer through [`judge`] or the fallback
//! ([`fallback_action`], the one fallback rule), and reports what happened as
//! [`MatchEvent`]s. No IO, no clock.
//!
//! Invariants:
//! * a deal happens only when the game asks for one, from the recorded order
//!   of that deal index if there is one, else from
//!   `dealing::deal_seed(match_seed, deal)`;
//! * the `n`-th fallback of a match (counting from 0, whoever it is for) is
//!   `fallback_action(game, seat, legal, rule, match_seed, n)`: the most
//!   passive legal action (`passive`, the default), the first (`first`) or
//!   one drawn from the match seed (`random`); replaying recorded actions
//!   counts their fallbacks, so a resumed match draws the same ones;
//! * every applied action, every finished hand and the end of the match
//!   produce one event each, in the order they happened.

use std::fmt;

use crate::{
    action::Action,
    card::Card,
    context::{ContextError, HandContext},
    dealing::{self, Domain, Seed, Shuffler},
    error::{DealError, IllegalAction},
    game::{Game, Status},
    judge::{Answer, Rejection, judge},
    outcome::{HandResult, MatchResult},
    passive,
    seat::{Seat, SeatSet},
};

/// How the action played for a seat that did not answer in time (or
/// forfeited) is chosen. The rule is named in a log's header, so a log
/// recorded under any of them verifies and replays as it was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fallback {
    /// The most passive legal action (pass, the lowest bid allowed, the
    /// lowest card that follows), so that a faulting seat decides nothing
    /// for its table: [`crate::passive`], each game's page ("Fallback").
    /// Pure: a function of the game's state and the legal actions.
    #[default]
    Passive,
    /// The first legal action in the game's fixed order.
    First,
    /// Uniform over the legal actions, drawn with `Shuffler::below` from the
    /// match seed derived with `Domain::Fallback` and the match's fallback
    /// count so far (docs/dealing.md). Deterministic, and checkable from the
    /// log.
    Random,
}

impl Fallback {
    /// Every rule, the default first.
    pub const ALL: [Fallback; 3] = [Fallback::Passive, Fallback::First, Fallback::Random];

    /// The rule's name on the wire and in logs (`passive`, `first`, `random`).
    pub fn name(self) -> &'static str {
        match self {
            Fallback::Passive => "passive",
            Fallback::First => "first",
            Fallback::Random => "random",
        }
    }

    /// The rule for a name.
    pub fn from_name(s: &str) -> Option<Fallback> {
        Fallback::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// The fallback rule: the action played for `seat`, whose `legal` actions
/// in `game` are given, as the match's `n`-th fallback (0-based) under
/// `rule`.
///
/// # Panics
/// If `legal` is empty (a seat asked to act always has a legal action).
pub fn fallback_action<G: Game>(
    game: &G,
    seat: Seat,
    legal: &[Action],
    rule: Fallback,
    match_seed: Seed,
    n: u64,
) -> Action {
    match rule {
        Fallback::Passive => passive::passive_action(game, seat, legal),
        Fallback::First => legal[0],
        Fallback::Random => {
            let seed = match_seed.derive(Domain::Fallback, n);
            legal[Shuffler::new(seed).below(legal.len() as u32) as usize]
        }
    }
}

/// Something that happened in a match, in order.
// A hand's result is held inline (no allocation at a hand's end): boxing
// it here would bring back an allocation per hand.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchEvent {
    /// A hand was dealt from this deck order (top first).
    Dealt {
        /// The deal index.
        deal: u32,
        /// The deck order.
        order: Vec<Card>,
    },
    /// An action was applied.
    Applied {
        /// Its seat.
        seat: Seat,
        /// The action.
        action: Action,
        /// Whether it was the fallback, played for the seat.
        fallback: bool,
    },
    /// A hand ended.
    HandEnded(HandResult),
    /// The match ended.
    Over(MatchResult),
}

/// Why the driver could not go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DriveError {
    /// A recorded deal is not a permutation of the game's deck.
    Deal {
        /// The deal index.
        deal: u32,
        /// What is wrong with it.
        error: DealError,
    },
    /// Replaying recorded actions needs the order of a deal that was not
    /// recorded.
    MissingDeal(u32),
    /// A recorded action is not legal.
    Illegal {
        /// Its index among the recorded actions.
        index: usize,
        /// The refusal.
        error: IllegalAction,
    },
}

impl fmt::Display for DriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriveError::Deal { deal, error } => write!(f, "deal {deal}: {error}"),
            DriveError::MissingDeal(d) => write!(f, "deal {d} is missing"),
            DriveError::Illegal { index, error } => write!(f, "action {index}: {error}"),
        }
    }
}

impl std::error::Error for DriveError {}

/// One match driven step by step. See the module documentation.
#[derive(Debug, Clone)]
pub struct MatchDriver<G: Game> {
    game: G,
    match_seed: Seed,
    rule: Fallback,
    fallbacks: u64,
    /// Recorded deck orders by deal index (a replay, a resume, a test).
    deals: Vec<Vec<Card>>,
    /// Hand results already reported as events.
    hands_reported: usize,
    events: Vec<MatchEvent>,
    /// Whether events are kept for [`MatchDriver::take_events`].
    record: bool,
}

impl<G: Game> MatchDriver<G> {
    /// A driver for `game` (usually new, or started at a later hand), dealing
    /// from `match_seed`, with `rule` for fallbacks.
    pub fn new(game: G, match_seed: Seed, rule: Fallback) -> MatchDriver<G> {
        let hands_reported = game.hand_results().len();
        MatchDriver {
            game,
            match_seed,
            rule,
            fallbacks: 0,
            deals: Vec::new(),
            hands_reported,
            events: Vec::new(),
            record: true,
        }
    }

    /// Keeps no events (a caller that never takes them, such as a
    /// verification, then spends nothing on them and holds no growing list).
    pub fn without_events(mut self) -> MatchDriver<G> {
        self.record = false;
        self.events = Vec::new();
        self
    }

    /// Deals these deck orders (by deal index) instead of the seed's.
    pub fn with_deals(mut self, deals: Vec<Vec<Card>>) -> MatchDriver<G> {
        self.deals = deals;
        self
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, given back.
    pub fn into_game(self) -> G {
        self.game
    }

    /// The match seed.
    pub fn match_seed(&self) -> Seed {
        self.match_seed
    }

    /// Fallbacks played so far.
    pub fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// Deals every hand the game needs, then returns the seats to ask (empty
    /// once the match is over).
    ///
    /// # Errors
    /// [`DriveError::Deal`] for a recorded order that is not the game's deck.
    pub fn to_ask(&mut self) -> Result<SeatSet, DriveError> {
        while self.game.status() == Status::Deal {
            let deal = self.game.deals();
            let order = match self.deals.get(deal as usize) {
                Some(o) => o.clone(),
                None => {
                    dealing::deck_order(dealing::deal_seed(self.match_seed, deal), self.game.deck())
                        .to_vec()
                }
            };
            self.game
                .deal(&order)
                .map_err(|error| DriveError::Deal { deal, error })?;
            if self.record {
                self.events.push(MatchEvent::Dealt { deal, order });
            }
        }
        Ok(match self.game.status() {
            Status::Act => self.game.to_act(),
            _ => SeatSet::EMPTY,
        })
    }

    /// Deals the next hand from `order` now (a log that gives each hand's
    /// deck as it goes).
    ///
    /// # Errors
    /// [`DriveError::Deal`] if no deal is due or `order` is not the deck.
    pub fn deal_with(&mut self, order: &[Card]) -> Result<(), DriveError> {
        let deal = self.game.deals();
        self.game
            .deal(order)
            .map_err(|error| DriveError::Deal { deal, error })?;
        if self.record {
            self.events.push(MatchEvent::Dealt {
                deal,
                order: order.to_vec(),
            });
        }
        Ok(())
    }

    /// Starts the match at a later hand ([`Game::start_at`]).
    ///
    /// # Errors
    /// The game's [`ContextError`].
    pub fn start_at(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        self.game.start_at(ctx)?;
        self.hands_reported = self.game.hand_results().len();
        Ok(())
    }

    /// Judges `answer` by `seat` ([`judge`]) and applies it if it is legal.
    ///
    /// # Errors
    /// The [`Rejection`]: the game is unchanged.
    pub fn answer(&mut self, seat: Seat, answer: &Answer) -> Result<Action, Rejection> {
        let action = judge(&self.game, seat, answer)?;
        self.apply(seat, action, false)
            .expect("a judged action is legal");
        Ok(action)
    }

    /// The fallback `seat` would get now (the next one of the match).
    pub fn fallback(&self, seat: Seat) -> Action {
        fallback_action(
            &self.game,
            seat,
            &self.game.legal_actions(seat),
            self.rule,
            self.match_seed,
            self.fallbacks,
        )
    }

    /// Plays the fallback for `seat` and returns it.
    pub fn play_fallback(&mut self, seat: Seat) -> Action {
        let action = self.fallback(seat);
        self.apply(seat, action, true)
            .expect("a fallback is a legal action");
        action
    }

    /// Applies `action` by `seat`; `fallback` says whether the referee played
    /// it for the seat (it then counts as one of the match's fallbacks).
    ///
    /// # Errors
    /// [`IllegalAction`], the game unchanged.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        fallback: bool,
    ) -> Result<(), IllegalAction> {
        self.game.apply(seat, action)?;
        if fallback {
            self.fallbacks += 1;
        }
        if !self.record {
            return Ok(());
        }
        self.events.push(MatchEvent::Applied {
            seat,
            action,
            fallback,
        });
        let results = self.game.hand_results();
        while self.hands_reported < results.len() {
            self.events
                .push(MatchEvent::HandEnded(results[self.hands_reported].clone()));
            self.hands_reported += 1;
        }
        if let Some(result) = self.game.result() {
            self.events.push(MatchEvent::Over(result));
        }
        Ok(())
    }

    /// Replays recorded actions (seat, action, whether it was a fallback),
    /// dealing from the recorded orders (a resume, a rerun, a verification).
    ///
    /// # Errors
    /// [`DriveError::MissingDeal`] if a needed order was not recorded, or the
    /// first deal or action the game refuses.
    pub fn replay(&mut self, actions: &[(Seat, Action, bool)]) -> Result<(), DriveError> {
        for (index, &(seat, action, fallback)) in actions.iter().enumerate() {
            if self.game.status() == Status::Deal
                && self.deals.get(self.game.deals() as usize).is_none()
            {
                return Err(DriveError::MissingDeal(self.game.deals()));
            }
            self.to_ask()?;
            self.apply(seat, action, fallback)
                .map_err(|error| DriveError::Illegal { index, error })?;
        }
        Ok(())
    }

    /// The events since the last call, in order.
    pub fn take_events(&mut self) -> Vec<MatchEvent> {
        std::mem::take(&mut self.events)
    }

    /// [`MatchDriver::take_events`] into `buf` (emptied first), whose
    /// capacity the driver keeps for the next events: a caller that takes
    /// them after every action swaps two buffers instead of allocating.
    pub fn take_events_into(&mut self, buf: &mut Vec<MatchEvent>) {
        buf.clear();
        std::mem::swap(&mut self.events, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, Variant};

    fn israeli() -> crate::AnyGame {
        Variant::Israeli
            .new_game(&Options::parse(&["hands=1"]).unwrap())
            .unwrap()
    }

    #[test]
    fn deals_from_the_seed_and_reports_every_step() {
        let seed = Seed::from_u64(5);
        let mut d = MatchDriver::new(israeli(), seed, Fallback::First);
        let mut n = 0;
        loop {
            let to_ask = d.to_ask().unwrap();
            let Some(seat) = to_ask.first() else { break };
            d.answer(seat, &Answer::Index(0)).unwrap();
            n += 1;
        }
        let events = d.take_events();
        let expected = dealing::deck_order(dealing::deal_seed(seed, 0), israeli().deck()).to_vec();
        assert_eq!(
            events[0],
            MatchEvent::Dealt {
                deal: 0,
                order: expected
            }
        );
        let applied = events
            .iter()
            .filter(|e| matches!(e, MatchEvent::Applied { .. }))
            .count();
        assert_eq!(applied, n);
        assert!(matches!(events[events.len() - 2], MatchEvent::HandEnded(_)));
        assert!(matches!(events[events.len() - 1], MatchEvent::Over(_)));
    }

    #[test]
    fn fallbacks_are_numbered_across_the_match_and_replay_counts_them() {
        let seed = Seed::from_u64(9);
        let mut d = MatchDriver::new(israeli(), seed, Fallback::Random);
        let mut played = Vec::new();
        for k in 0..6 {
            let seat = d.to_ask().unwrap().first().unwrap();
            let legal = d.game().legal_actions(seat);
            let expected = fallback_action(d.game(), seat, &legal, Fallback::Random, seed, k);
            assert_eq!(d.play_fallback(seat), expected);
            played.push((seat, expected, true));
        }
        assert_eq!(d.fallbacks(), 6);
        let deals: Vec<Vec<Card>> = d
            .take_events()
            .into_iter()
            .filter_map(|e| match e {
                MatchEvent::Dealt { order, .. } => Some(order),
                _ => None,
            })
            .collect();
        let mut again = MatchDriver::new(israeli(), seed, Fallback::Random).with_deals(deals);
        again.replay(&played).unwrap();
        assert_eq!(again.fallbacks(), 6);
        let seat = again.to_ask().unwrap().first().unwrap();
        assert_eq!(again.fallback(seat), d.fallback(seat));
        // Without the recorded deals a replay says which one is missing.
        let mut bare = MatchDriver::new(israeli(), seed, Fallback::Random);
        assert_eq!(bare.replay(&played), Err(DriveError::MissingDeal(0)));
    }

    #[test]
    fn the_first_rule_takes_the_first_legal_action() {
        let mut d = MatchDriver::new(israeli(), Seed::from_u64(1), Fallback::First);
        let seat = d.to_ask().unwrap().first().unwrap();
        let legal = [Action::Bid(3), Action::Pass];
        for n in 0..5 {
            assert_eq!(
                fallback_action(
                    d.game(),
                    seat,
                    &legal,
                    Fallback::First,
                    Seed::from_u64(1),
                    n
                ),
                Action::Bid(3)
            );
        }
    }

    /// Logs name their rule: the names stay what old logs wrote, and the
    /// default is the passive rule.
    #[test]
    fn rules_are_named_as_in_logs() {
        assert_eq!(Fallback::default(), Fallback::Passive);
        for (name, rule) in [
            ("passive", Fallback::Passive),
            ("first", Fallback::First),
            ("random", Fallback::Random),
        ] {
            assert_eq!(Fallback::from_name(name), Some(rule));
            assert_eq!(rule.name(), name);
        }
        assert_eq!(Fallback::from_name("13NT"), None);
    }

    /// The random rule draws what it drew before the passive rule existed:
    /// a golden vector of the first Israeli auction's fallbacks (seed 9),
    /// so logs recorded with `random` still verify.
    #[test]
    fn random_fallbacks_are_unchanged() {
        let seed = Seed::from_u64(9);
        let mut d = MatchDriver::new(israeli(), seed, Fallback::Random);
        let drawn: Vec<String> = (0..6)
            .map(|_| {
                let seat = d.to_ask().unwrap().first().unwrap();
                d.play_fallback(seat).to_string()
            })
            .collect();
        assert_eq!(drawn, GOLDEN_RANDOM);
    }

    const GOLDEN_RANDOM: [&str; 6] = [
        "bid 5H", "bid 8H", "bid 9H", "bid 13S", "bid 5NT", "bid 12NT",
    ];
}
