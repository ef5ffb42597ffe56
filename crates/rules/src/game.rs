//! The [`Game`] trait every game implements.
//!
//! A `Game` value is a whole match: many hands, the deal rotating, totals
//! carried. It moves through three kinds of step, reported by [`Game::status`]:
//!
//! * [`Status::Deal`]: the next hand needs cards. The driver supplies a deck
//!   order ([`Game::deal`]), normally from [`crate::dealing`]; a replay supplies
//!   the recorded one. The engine itself never draws randomness.
//! * [`Status::Act`]: one or more seats must decide ([`Game::to_act`]). When
//!   several seats are listed the step is simultaneous: each seat's actions are
//!   applied as they come, in any order, and nobody sees another's choice until
//!   the step completes. A multi-card choice (three cards to pass, six to
//!   discard) is a run of single-card actions by the same seat.
//! * [`Status::Over`]: [`Game::result`] is final.
//!
//! Dummies played by the rules, hands turning public, seats sitting out and team
//! scores are all expressed through these steps and through [`Observation`]s;
//! see ARCHITECTURE.md for how each game maps onto them.

use std::fmt;

use crate::{
    action::{Action, ActionKind, ActionList, ParseActionError},
    card::Card,
    card_set::CardSet,
    context::{ContextError, HandContext},
    error::{ActionError, DealError, IllegalAction, IllegalReason},
    games::{MatchCore, Shown, observe, observe_into},
    options::Options,
    outcome::{HandResult, MatchResult, PerSeat, ScoreOrder},
    passive,
    seat::{Seat, SeatSet},
    trick::{Trick, TrickRules},
    variants::Variant,
    view::{LogEntry, Observation, Phase, Trump},
    vocabulary::Vocabulary,
};

/// What the game needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The cards for the next hand ([`Game::deal`]).
    Deal,
    /// Decisions from the seats in [`Game::to_act`].
    Act,
    /// Nothing: the match is over.
    Over,
}

/// One whist-family game: a whole match under fixed options.
///
/// Required methods are hooks for each game; the provided methods marked
/// `/* FINAL */` hold the checks every game shares and must not be overridden.
pub trait Game: Shown + Clone + fmt::Debug + Send + Sync + 'static {
    // ----- required hooks -----

    /// Seats that must act now (empty unless [`Status::Act`]). In a
    /// simultaneous step, the seats that have not finished their part yet.
    /// By default the one seat whose turn it is.
    fn to_act(&self) -> SeatSet {
        self.core().to_act()
    }

    /// Whether the current step is simultaneous.
    fn simultaneous(&self) -> bool {
        false
    }

    /// Appends the legal actions of `seat`, which is to act, to `out`, in a
    /// fixed order (the order is part of the protocol: bots may answer by
    /// index). Called by [`Game::legal_actions_into`].
    fn append_legal(&self, seat: Seat, out: &mut ActionList);

    /// Why `action` by `seat` is illegal, if it is. Called only when the
    /// game's status is [`Status::Act`] and `seat` is in [`Game::to_act`].
    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason>;

    /// Applies a legal action. Behaviour on an illegal action is unspecified
    /// (it may panic); use [`Game::apply`] for anything from outside.
    fn apply_unchecked(&mut self, seat: Seat, action: Action);

    /// The cards the next deal uses (valid when the status is [`Status::Deal`]).
    fn deck(&self) -> CardSet;

    /// Deals from `order` (top of the deck first), which must be a permutation
    /// of [`Game::deck`]. Use [`Game::deal`] for anything from outside.
    fn deal_unchecked(&mut self, order: &[Card]);

    /// The part of the match every game shares ([`MatchCore`]: dealer,
    /// deals, totals, results, the hand's log and tricks).
    fn core(&self) -> &MatchCore;

    /// Whether this game's notation has actions of this kind at all (used to
    /// tell a syntax error from an illegal action).
    fn accepts(&self, kind: ActionKind) -> bool;

    /// Appends every action this game, under its options, can ever list
    /// as legal, in the game's fixed order, once each (the order of its
    /// stages: bids and calls, cards given or discarded, cards played; its
    /// `testdata/vocabulary.txt` pins it). Called by [`Game::vocabulary`].
    fn append_vocabulary(&self, out: &mut Vec<Action>);

    /// Moves a game that has not dealt yet to the start of hand `ctx.hand`,
    /// with its dealer, totals and whatever else the game's rules read from
    /// earlier hands; checks what only the game knows. Called by
    /// [`Game::start_at`] after the shared checks (the dealer is a seat, the
    /// per-seat lists have one entry per seat or none).
    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError>;

    /// Where the hand `obs` shows sits in its match, as far as the
    /// observation tells: the context a world sampled for it starts from
    /// ([`crate::sample`]). By default the deal's index, the dealer and the
    /// seats' totals; a game whose rules read more from earlier hands
    /// (Oneonta's first bidder) overrides it.
    fn world_context(&self, obs: &Observation) -> HandContext {
        HandContext::observed(obs)
    }

    /// The trick rules of the current hand (which card follows and beats
    /// which), as far as the hand has set them.
    fn trick_rules(&self) -> &TrickRules;

    /// How passive `action` by `seat` is now, lower being more passive: the
    /// `passive` fallback plays the legal action with the lowest key
    /// ([`crate::passive`], each game's page, section "Fallback"). By default
    /// [`passive::default_key`] under [`Game::trick_rules`].
    fn passive_key(&self, seat: Seat, action: Action) -> u32 {
        let _ = seat;
        passive::default_key(self.trick_rules(), action)
    }

    /// Team of each seat; seats with equal numbers are partners. Inline
    /// (an observation reads it at every request: no allocation).
    fn teams(&self) -> PerSeat<u8> {
        (0..self.seats() as u8).collect()
    }

    /// Whether higher or lower totals are better.
    fn score_order(&self) -> ScoreOrder {
        ScoreOrder::HigherIsBetter
    }

    /// The match result, once [`Status::Over`]: the totals ranked under
    /// [`Game::score_order`] with [`Game::teams`].
    fn result(&self) -> Option<MatchResult> {
        self.is_over()
            .then(|| self.core().result(self.teams(), self.score_order()))
    }

    // ----- provided: FINAL -----

    /// Which game this is. /* FINAL */
    fn variant(&self) -> Variant {
        self.core().variant()
    }

    /// Every option with its effective value (defaults filled in). /* FINAL */
    fn options(&self) -> Options {
        self.core().options().clone()
    }

    /// Number of seats (bots) at the table. /* FINAL */
    fn seats(&self) -> usize {
        self.core().seats()
    }

    /// Where the match is: [`Phase::Deal`] while the next hand needs cards,
    /// [`Phase::Over`] once the match is over, the stage of the hand
    /// between. /* FINAL */
    fn phase(&self) -> Phase {
        self.core().phase()
    }

    /// What the game needs next, read from [`Game::phase`]. /* FINAL */
    fn status(&self) -> Status {
        match self.phase() {
            Phase::Deal => Status::Deal,
            Phase::Over => Status::Over,
            _ => Status::Act,
        }
    }

    /// What `seat` may know now, built from what it may see: the shared
    /// parts from [`Game::core`], the rest from the game. /* FINAL */
    fn observe(&self, seat: Seat) -> Observation {
        observe(self, seat, true)
    }

    /// [`Game::observe`] with an empty `history`, for a caller that sends
    /// the hand's events by themselves (the referee's compact requests):
    /// every other field is the same. /* FINAL */
    fn observe_without_history(&self, seat: Seat) -> Observation {
        observe(self, seat, false)
    }

    /// [`Game::observe`] (or, without `with_history`,
    /// [`Game::observe_without_history`]) into `out`, refilling its
    /// vectors and strings instead of allocating new ones: a caller that
    /// observes at every decision (the referee) keeps one and reuses it.
    /// `out` may hold any earlier observation, of any seat. /* FINAL */
    fn observe_into(&self, seat: Seat, with_history: bool, out: &mut Observation) {
        observe_into(self, seat, with_history, out);
    }

    /// The cards `seat` holds: [`Observation::hand`] of `observe(seat)`,
    /// without building the observation (a playout's policy reads it at
    /// every decision). /* FINAL */
    #[inline]
    fn hand_of(&self, seat: Seat) -> CardSet {
        self.held(seat)
    }

    /// `seat`'s bid or contract this hand as `viewer` knows it: the `bid`
    /// of `seat`'s entry in `observe(viewer).players`. /* FINAL */
    #[inline]
    fn bid_seen(&self, viewer: Seat, seat: Seat) -> Option<Action> {
        Shown::bid(self, viewer, seat)
    }

    /// Trump, as far as known: [`Observation::trump`]. /* FINAL */
    #[inline]
    fn trump_now(&self) -> Trump {
        Shown::trump(self)
    }

    /// The trick in progress, possibly empty: the cards of
    /// [`Observation::trick`]. /* FINAL */
    #[inline]
    fn current_trick(&self) -> &Trick {
        self.core().tricks.current()
    }

    /// Tricks `seat` has won this hand: the `tricks` of its entry in an
    /// observation's `players`. /* FINAL */
    #[inline]
    fn tricks_won(&self, seat: Seat) -> u8 {
        self.core().tricks.won(seat)
    }

    /// Every card `seat` has seen during the current hand, as the log showed
    /// it: its own cards (dealt or received), cards it gave away, and every
    /// card shown face up. Cards outside this set never influence
    /// `observe(seat)`. /* FINAL */
    fn seen_by(&self, seat: Seat) -> CardSet {
        self.core().seen_by(seat)
    }

    /// Number of deals started so far; the next deal has this index. /* FINAL */
    fn deals(&self) -> u32 {
        self.core().deals()
    }

    /// The dealer of the current (or, before a deal, the next) hand. /* FINAL */
    fn dealer(&self) -> Seat {
        self.core().dealer()
    }

    /// The current hand's event log with per-event visibility. /* FINAL */
    fn log(&self) -> &[LogEntry] {
        self.core().log()
    }

    /// Results of the hands completed so far, in order. /* FINAL */
    fn hand_results(&self) -> &[HandResult] {
        self.core().results()
    }

    /// Appends the legal actions of `seat` to `out`, in a fixed order (the
    /// order is part of the protocol: bots may answer by index). Appends
    /// nothing if `seat` is not to act. /* FINAL */
    fn legal_actions_into(&self, seat: Seat, out: &mut ActionList) {
        if self.to_act().contains(seat) {
            self.append_legal(seat, out);
        }
    }

    /// The legal actions of `seat` (empty if it is not to act). /* FINAL */
    fn legal_actions(&self, seat: Seat) -> ActionList {
        let mut out = ActionList::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// Why `action` by `seat` is not legal now, if it is not. /* FINAL */
    ///
    /// # Errors
    /// The [`IllegalReason`].
    fn validate(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        match self.status() {
            Status::Over => return Err(IllegalReason::MatchOver),
            Status::Deal => return Err(IllegalReason::AwaitingDeal),
            Status::Act => {}
        }
        if seat.index() >= self.seats() {
            return Err(IllegalReason::NoSuchSeat {
                seats: self.seats() as u8,
            });
        }
        let to_act = self.to_act();
        if !to_act.contains(seat) {
            // Who has still to finish a simultaneous step is not told: the
            // step's progress is hidden until it completes.
            let to_act = if self.simultaneous() {
                SeatSet::EMPTY
            } else {
                to_act
            };
            return Err(IllegalReason::NotYourTurn { to_act });
        }
        self.check(seat, action)
    }

    /// Applies `action` by `seat` if it is legal. /* FINAL */
    ///
    /// # Errors
    /// [`IllegalAction`] with the reason, leaving the game unchanged.
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.validate(seat, action)
            .map_err(|reason| IllegalAction {
                seat,
                action,
                reason,
            })?;
        self.apply_unchecked(seat, action);
        Ok(())
    }

    /// Deals the next hand from `order` (top first). /* FINAL */
    ///
    /// # Errors
    /// [`DealError`] if no deal is expected or `order` is not a permutation of
    /// [`Game::deck`].
    fn deal(&mut self, order: &[Card]) -> Result<(), DealError> {
        if self.status() != Status::Deal {
            return Err(DealError::NotExpected);
        }
        let deck = self.deck();
        if order.len() != deck.len() {
            return Err(DealError::WrongCards {
                expected: deck.len(),
                got: order.len(),
            });
        }
        // As many cards as the deck, covering it: a permutation of it.
        if order.iter().copied().collect::<CardSet>() != deck {
            let mut seen = CardSet::EMPTY;
            for &c in order {
                if !deck.contains(c) || seen.contains(c) {
                    return Err(DealError::BadCard(c));
                }
                seen.insert(c);
            }
        }
        self.deal_unchecked(order);
        Ok(())
    }

    /// Starts the match at a later hand: for a hand typed in by a person
    /// that is not the first of its match (disputes after hand 1). Only
    /// before the first deal. /* FINAL */
    ///
    /// # Errors
    /// [`ContextError`] for a game that has dealt already, a dealer that is
    /// not a seat, per-seat lists of the wrong length, a field the game does
    /// not use, or a state its rules cannot reach.
    fn start_at(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        if self.status() != Status::Deal || self.deals() != 0 || !self.hand_results().is_empty() {
            return Err(ContextError::NotAtStart);
        }
        let seats = self.seats();
        if ctx.dealer.index() >= seats {
            return Err(ContextError::NoSuchSeat {
                seat: ctx.dealer,
                seats,
            });
        }
        for (field, got) in [
            ("totals", ctx.totals.len()),
            ("previous_bids", ctx.previous_bids.len()),
        ] {
            if got != 0 && got != seats {
                return Err(ContextError::Length {
                    field,
                    expected: seats,
                    got,
                });
            }
        }
        self.start_at_unchecked(ctx)
    }

    /// Every action this game, under its options, can ever take, in a
    /// fixed order: an action's position is its id ([`Vocabulary`]). It
    /// depends on the options only, never on the deal or the state. /* FINAL */
    fn vocabulary(&self) -> Vocabulary {
        let mut out = Vec::new();
        self.append_vocabulary(&mut out);
        Vocabulary::new(out)
    }

    /// Parses `text` as an action of this game's notation. /* FINAL */
    ///
    /// # Errors
    /// [`ParseActionError`] if the text is not an action of this game.
    fn parse_action(&self, text: &str) -> Result<Action, ParseActionError> {
        let action: Action = text.parse()?;
        if self.accepts(action.kind()) {
            Ok(action)
        } else {
            Err(ParseActionError {
                text: text.to_string(),
                reason: format!("{} has no action of this kind", self.variant().name()),
            })
        }
    }

    /// Parses `text` and checks it is legal for `seat` now, without applying it. /* FINAL */
    ///
    /// # Errors
    /// [`ActionError::Parse`] or [`ActionError::Illegal`].
    fn resolve(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let action = self.parse_action(text).map_err(ActionError::Parse)?;
        self.validate(seat, action).map_err(|reason| {
            ActionError::Illegal(IllegalAction {
                seat,
                action,
                reason,
            })
        })?;
        Ok(action)
    }

    /// Whether the match is over. /* FINAL */
    fn is_over(&self) -> bool {
        self.status() == Status::Over
    }
}
