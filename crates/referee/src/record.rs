//! A table's record: everything that happened, in order, as the referee saw
//! it (omniscient). The tournament runner turns it into replay logs.

use std::time::Duration;

use whistle_rules::{Action, Card, HandResult, MatchResult, Seat};

/// The kinds of rule violation by a seat (defined with the wire types).
pub use whistle_protocol::FaultKind;

/// A fault, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultRecord {
    /// The seat at fault.
    pub seat: Seat,
    /// What kind.
    pub kind: FaultKind,
    /// The request concerned, if any.
    pub request_id: Option<u64>,
    /// What was wrong, for people.
    pub detail: String,
    /// The action played instead, if one was due.
    pub fallback: Option<Action>,
    /// The seat's fault count after this one.
    pub faults: u32,
    /// Whether this fault made the seat forfeit.
    pub forfeited: bool,
    /// For malformed and illegal answers: the answer as the seat gave it,
    /// so that it can be judged again from the log.
    pub answer: Option<whistle_rules::Answer>,
}

/// One entry of a table's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableRecord {
    /// Every seat is connected (or the start timeout passed) and play begins.
    Started {
        /// Which seats were connected at the start.
        connected: Vec<bool>,
    },
    /// A new deal: its index and deck order (top first).
    Deal {
        /// Deal index in the match.
        deal: u32,
        /// The deck order.
        order: Vec<Card>,
    },
    /// An action applied.
    Action {
        /// Who.
        seat: Seat,
        /// What.
        action: Action,
        /// Time from request to answer (zero for a fallback played without asking).
        elapsed: Duration,
        /// Whether the referee played it as a fallback.
        fallback: bool,
    },
    /// A fault.
    Fault(FaultRecord),
    /// A hand is over.
    Hand(HandResult),
    /// The match is over.
    End {
        /// The result.
        result: MatchResult,
        /// Seats that forfeited.
        forfeited: Vec<Seat>,
        /// Faults per seat.
        faults: Vec<u32>,
    },
    /// The referee stopped the table before its match ended (it is shutting
    /// down). Every completed hand was recorded; a match stopped mid-hand
    /// loses only the hand in progress, and can be resumed from the rest.
    Stopped {
        /// Why.
        reason: String,
        /// Hands completed.
        hands_done: u32,
        /// Whether a hand was in progress (and is not recorded).
        mid_hand: bool,
    },
    /// The table could not go on (for example an override deal was not a
    /// permutation of the deck).
    Aborted {
        /// Why.
        reason: String,
    },
}
