//! [`MatchCore`]: what every game's match has in common, composed into each
//! game: the dealer, the deals so far, the results of finished hands, the
//! current hand's event log, and where a match started from a
//! [`HandContext`] began, and what each seat has seen this hand (derived
//! from the log: whatever card an event shows a seat counts as seen by it).
//! A game keeps only its own stages and scoring.

use std::sync::Arc;

use crate::{
    action::{Action, ActionKind, ActionList},
    card::Card,
    card_set::CardSet,
    context::HandContext,
    error::IllegalReason,
    options::Options,
    outcome::{HandResult, MatchResult, PerSeat, ScoreOrder, Summary},
    seat::{MAX_SEATS, Player, Seat, SeatSet},
    trick::TrickRules,
    variants::Variant,
    view::{Event, LogEntry, Phase, Source},
};

pub(crate) use super::tricks::Tricks;

/// How a hand scored, as its game reports it; [`MatchCore::end_hand`]
/// adds the deal, the dealer, the tricks won and the totals.
#[derive(Debug, Default)]
pub(crate) struct HandScore {
    /// Whether the deal was thrown in without a score.
    pub misdeal: bool,
    /// Each seat's bid or contract, if it made one.
    pub bids: PerSeat<Option<Action>>,
    /// Whether each seat made its bid, where that applies.
    pub made: PerSeat<Option<bool>>,
    /// Points each seat scored (in team games, its team's).
    pub points: PerSeat<i32>,
    /// Each seat's own score where `points` hold a team figure (see
    /// [`HandResult::seat_points`]); else empty.
    pub seat_points: PerSeat<i32>,
    /// One line for people.
    pub summary: Summary,
}

/// The shared part of a match. See the module documentation.
#[derive(Debug, Clone)]
pub struct MatchCore {
    /// Where the match is: a deal awaited, the stage of the hand, or over.
    pub(crate) phase: Phase,
    /// The seat to act, outside simultaneous steps.
    pub(crate) turn: Seat,
    variant: Variant,
    /// Every option with its effective value (shared: a playout's copy of
    /// a match copies no strings).
    options: Arc<Options>,
    seats: usize,
    /// The dealer of the current hand (before a deal, of the next one).
    pub(crate) dealer: Seat,
    /// Deals started so far (the next deal's index), earlier hands of a
    /// [`HandContext`] included.
    pub(crate) deals: u32,
    /// Results of the hands finished here, in order.
    pub(crate) results: Vec<HandResult>,
    /// Each seat's match total (partners carry equal totals).
    totals: [i32; MAX_SEATS],
    /// The current hand's tricks.
    pub(crate) tricks: Tricks,
    /// Hands of the match dealt before this value's first one.
    before: u32,
    /// Of those, deals thrown in without a score.
    misdeals_before: u32,
    /// The current hand's events, each with who may see it.
    pub(crate) log: Vec<LogEntry>,
    /// Room the log keeps for a hand.
    log_capacity: usize,
}

impl MatchCore {
    /// A match of `variant` under `options` at `seats` seats, seat 0
    /// dealing first; the log keeps room for `log_capacity` events.
    pub(crate) fn new(
        variant: Variant,
        options: Options,
        seats: usize,
        log_capacity: usize,
    ) -> MatchCore {
        MatchCore {
            phase: Phase::Deal,
            turn: Seat::new(0),
            variant,
            options: Arc::new(options),
            seats,
            totals: [0; MAX_SEATS],
            tricks: Tricks::new(),
            dealer: Seat::new(0),
            deals: 0,
            results: Vec::new(),
            before: 0,
            misdeals_before: 0,
            log: Vec::with_capacity(log_capacity),
            log_capacity,
        }
    }

    /// Where the match is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seats to act when one seat acts at a time: the seat whose turn
    /// it is, or none while a deal is awaited and once the match is over.
    pub fn to_act(&self) -> SeatSet {
        match self.phase {
            Phase::Deal | Phase::Over => SeatSet::EMPTY,
            _ => SeatSet::single(self.turn),
        }
    }

    /// Which game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Every option with its effective value (defaults filled in).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Each seat's match total.
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.seats]
    }

    /// Sets the match totals (a context's; scenario tests start from
    /// chosen scores).
    pub(crate) fn set_totals(&mut self, totals: &[i32]) {
        self.totals[..totals.len()].copy_from_slice(totals);
    }

    /// The match result: the totals ranked under `order`.
    pub(crate) fn result(&self, teams: PerSeat<u8>, order: ScoreOrder) -> MatchResult {
        MatchResult::by_totals(self.totals().to_vec(), teams.to_vec(), order, self.scored())
    }

    /// The dealer of the current (or next) hand.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Deals started so far.
    pub fn deals(&self) -> u32 {
        self.deals
    }

    /// The current hand's log.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Results of the hands finished so far.
    pub fn results(&self) -> &[HandResult] {
        &self.results
    }

    /// Every card the log has shown `seat` this hand: its own cards as
    /// dealt, cards it took or was given, cards turned up, revealed or
    /// played. Read from the log when asked, so that logging costs nothing
    /// more.
    pub fn seen_by(&self, seat: Seat) -> CardSet {
        self.log
            .iter()
            .filter_map(|e| e.seen_by(seat))
            .fold(CardSet::EMPTY, |seen, e| seen.or(e.cards()))
    }

    /// Writes `entry` to the log; the cards it shows count as seen by the
    /// seats that see it ([`MatchCore::seen_by`]).
    #[inline]
    pub(crate) fn push(&mut self, entry: LogEntry) {
        self.log.push(entry);
    }

    /// An event every seat sees.
    pub(crate) fn public(&mut self, event: Event) {
        self.push(LogEntry::public(event, self.seats));
    }

    /// An event only `to` sees.
    pub(crate) fn private(&mut self, event: Event, to: SeatSet) {
        self.push(LogEntry::private(event, to));
    }

    /// An event `to` sees in full and the other seats see as `others`.
    pub(crate) fn redacted(&mut self, event: Event, to: SeatSet, others: Event) {
        self.push(LogEntry::redacted(event, to, others));
    }

    /// `seat`'s face-down decision: it sees `action`, the other seats only
    /// that it made one of that kind.
    pub(crate) fn face_down(&mut self, seat: Seat, action: Action) {
        let kind = action.kind();
        let full = Event::Action { seat, action };
        self.redacted(full, SeatSet::single(seat), Event::Hidden { seat, kind });
    }

    /// The other seats learn that `seat` made a face-down decision of
    /// `kind` (it saw its own when it made it).
    pub(crate) fn hidden_to_others(&mut self, seat: Seat, kind: ActionKind) {
        let mut others = SeatSet::all(self.seats);
        others.remove(seat);
        self.private(Event::Hidden { seat, kind }, others);
    }

    /// Each seat's cards as dealt, each seen by its own seat only.
    pub(crate) fn dealt(&mut self, hands: &[CardSet]) {
        self.dealt_to(SeatSet::all(self.seats), hands);
    }

    /// The cards dealt to the seats of `to` (those playing the hand), each
    /// seen by its own seat only; `hands` is indexed by seat.
    pub(crate) fn dealt_to(&mut self, to: SeatSet, hands: &[CardSet]) {
        for seat in to.iter() {
            let cards = hands[seat.index()];
            self.private(Event::Dealt { seat, cards }, SeatSet::single(seat));
        }
    }

    /// A new hand begins: the log restarts with its `HandStart`, and the
    /// deal counts. Returns the deal's index.
    pub(crate) fn begin_hand(&mut self) -> u32 {
        self.log.clear();
        self.tricks.clear();
        // A cloned game's log has no spare capacity (`Vec::clone` keeps only
        // the length); reserving here keeps the hand's actions from
        // allocating.
        self.log.reserve(self.log_capacity);
        let deal = self.deals;
        self.public(Event::HandStart {
            deal,
            dealer: self.dealer,
        });
        self.deals += 1;
        deal
    }

    /// Whether this value has dealt a hand yet (a context's earlier hands
    /// were dealt elsewhere).
    pub(crate) fn dealt_here(&self) -> bool {
        self.deals > self.before
    }

    /// The index of the current (or last) deal.
    pub(crate) fn current_deal(&self) -> u32 {
        self.deals.saturating_sub(1)
    }

    /// The hand is over and scored: the points are added to the totals and
    /// the result (with the deal, the dealer, the tricks won and the new
    /// totals) is kept; every seat sees `HandEnd`.
    pub(crate) fn end_hand(&mut self, score: HandScore) {
        for (total, p) in self.totals.iter_mut().zip(&score.points) {
            *total += p;
        }
        let deal = self.current_deal();
        self.results.push(HandResult {
            deal,
            dealer: self.dealer,
            misdeal: score.misdeal,
            bids: score.bids,
            tricks: self
                .tricks
                .won_by_seat(self.seats)
                .iter()
                .copied()
                .collect(),
            made: score.made,
            points: score.points,
            totals: self.totals().iter().copied().collect(),
            seat_points: score.seat_points,
            summary: score.summary,
        });
        self.public(Event::HandEnd { deal });
    }

    /// The dummy's `card` goes to the trick in progress (the game logs the
    /// play); returns how many cards the trick now holds.
    pub(crate) fn play(&mut self, player: Player, card: Card) -> usize {
        self.tricks.play(player, card)
    }

    /// `seat` plays `card` from `hand` to the trick in progress, seen by
    /// every seat; returns how many cards the trick now holds.
    pub(crate) fn play_card(&mut self, seat: Seat, card: Card, hand: &mut CardSet) -> usize {
        self.public(Event::Action {
            seat,
            action: Action::Play(card),
        });
        hand.remove(card);
        self.tricks.play(Player::Seat(seat), card)
    }

    /// The plays of `hand` legal under `rules` with the plain follow-suit
    /// rule.
    pub(crate) fn plays(&self, rules: &TrickRules, hand: CardSet, out: &mut ActionList) {
        out.extend(
            rules
                .follow(hand, self.tricks.current())
                .iter()
                .map(Action::Play),
        );
    }

    /// Why playing `card` from `hand` breaks the plain follow-suit rule
    /// under `rules`, if it does.
    pub(crate) fn check_play(
        &self,
        rules: &TrickRules,
        hand: CardSet,
        card: Card,
    ) -> Result<(), IllegalReason> {
        rules.check_play(hand, self.tricks.current(), card)
    }

    /// `seat` takes `card` from `from`; the seats of `to` see the card, the
    /// others only that a card was taken.
    pub(crate) fn take(&mut self, seat: Seat, card: Card, from: Source, to: SeatSet) {
        let event = |card| Event::Take { seat, card, from };
        self.redacted(event(Some(card)), to, event(None));
    }

    /// The match moves on after a hand: the deal passes to the left, and
    /// the match waits for the next deal unless it is `over`.
    pub(crate) fn pass_deal(&mut self, over: bool) {
        self.dealer = self.dealer.next(self.seats);
        self.phase = if over { Phase::Over } else { Phase::Deal };
    }

    /// Completes the trick in progress under `rules`: the winner's trick
    /// counts and every seat sees `TrickWon`. Returns the trick's index and
    /// winner.
    pub(crate) fn finish_trick(&mut self, rules: &TrickRules) -> (u8, Player) {
        let (index, winner) = self.tricks.finish(rules);
        self.public(Event::TrickWon { index, winner });
        (index, winner)
    }

    /// Hands of the match dealt so far, those before a context's hand
    /// included (misdeals too).
    pub(crate) fn played(&self) -> u32 {
        self.before + self.results.len() as u32
    }

    /// Hands scored so far (misdeals excluded).
    pub(crate) fn scored(&self) -> u32 {
        self.before - self.misdeals_before
            + self.results.iter().filter(|r| !r.misdeal).count() as u32
    }

    /// The dealer an observation shows: the current hand's while one is
    /// being played, else the last hand's (the next dealer is not announced
    /// before the deal).
    pub(crate) fn observed_dealer(&self, in_hand: bool) -> Seat {
        if in_hand {
            self.dealer
        } else {
            self.results.last().map_or(self.dealer, |r| r.dealer)
        }
    }

    /// Moves the match to the start of `ctx.hand` with `ctx.dealer`; the
    /// game sets its totals and checks its rules.
    ///
    /// # Errors
    /// A context with more misdeals than earlier hands.
    pub(crate) fn start_at(&mut self, ctx: &HandContext) -> Result<(), crate::ContextError> {
        if ctx.misdeals > ctx.hand {
            return Err(crate::ContextError::Impossible(format!(
                "{} misdeals among {} earlier hands",
                ctx.misdeals, ctx.hand
            )));
        }
        self.dealer = ctx.dealer;
        self.totals[..self.seats].copy_from_slice(&ctx.totals_or_zero(self.seats));
        self.deals = ctx.hand;
        self.before = ctx.hand;
        self.misdeals_before = ctx.misdeals;
        Ok(())
    }
}
