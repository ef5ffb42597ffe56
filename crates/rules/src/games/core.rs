//! [`MatchCore`]: what every game's match has in common, composed into each
//! game: the dealer, the deals so far, the results of finished hands, the
//! current hand's event log, and where a match started from a
//! [`HandContext`] began. A game keeps only its own stages and scoring.

use crate::{
    context::HandContext,
    outcome::HandResult,
    seat::{Player, Seat, SeatSet},
    trick::Trick,
    view::{Event, LogEntry, TrickView},
};

/// The shared part of a match. See the module documentation.
#[derive(Debug, Clone)]
pub struct MatchCore {
    seats: usize,
    /// The dealer of the current hand (before a deal, of the next one).
    pub(crate) dealer: Seat,
    /// Deals started so far (the next deal's index), earlier hands of a
    /// [`HandContext`] included.
    pub(crate) deals: u32,
    /// Results of the hands finished here, in order.
    pub(crate) results: Vec<HandResult>,
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
    /// A match of `seats` seats, seat 0 dealing first; the log keeps room
    /// for `log_capacity` events.
    pub(crate) fn new(seats: usize, log_capacity: usize) -> MatchCore {
        MatchCore {
            seats,
            dealer: Seat::new(0),
            deals: 0,
            results: Vec::new(),
            before: 0,
            misdeals_before: 0,
            log: Vec::with_capacity(log_capacity),
            log_capacity,
        }
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

    /// An event every seat sees.
    pub(crate) fn public(&mut self, event: Event) {
        self.log.push(LogEntry::public(event, self.seats));
    }

    /// An event only `to` sees.
    pub(crate) fn private(&mut self, event: Event, to: SeatSet) {
        self.log.push(LogEntry::private(event, to));
    }

    /// A new hand begins: the log restarts with its `HandStart`, and the
    /// deal counts. Returns the deal's index.
    pub(crate) fn begin_hand(&mut self) -> u32 {
        self.log.clear();
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

    /// The hand is over: its result is kept and every seat sees `HandEnd`.
    pub(crate) fn end_hand(&mut self, result: HandResult) {
        let deal = result.deal;
        self.results.push(result);
        self.public(Event::HandEnd { deal });
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
        self.deals = ctx.hand;
        self.before = ctx.hand;
        self.misdeals_before = ctx.misdeals;
        Ok(())
    }
}

/// A trick as an observation shows it, with its winner once complete.
pub(crate) fn trick_view(trick: &Trick, winner: Option<Player>) -> TrickView {
    TrickView {
        cards: trick.cards().to_vec(),
        winner,
    }
}
