//! A table's record: everything that happened, in order, as the referee saw
//! it (omniscient). The tournament runner turns it into replay logs.

use std::{fmt, time::Duration};

use whistle_rules::{Action, Card, HandResult, MatchResult, Seat};

/// The kinds of rule violation by a seat (see `Fault.Kind` in the proto).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// No answer within the allowance and the bank.
    Late,
    /// A well-formed action that is not legal now.
    Illegal,
    /// Not an action of the game, an index out of range, no choice, or an
    /// unknown request id.
    Malformed,
    /// An answer while no decision of this seat was pending.
    OutOfTurn,
    /// An answer to an older request.
    Stale,
    /// Disconnected when a decision was due, or not back within the grace period.
    Absent,
    /// Too many unsolicited messages: the stream was closed.
    Flood,
}

impl FaultKind {
    /// Every kind, in the order above.
    pub const ALL: [FaultKind; 7] = [
        FaultKind::Late,
        FaultKind::Illegal,
        FaultKind::Malformed,
        FaultKind::OutOfTurn,
        FaultKind::Stale,
        FaultKind::Absent,
        FaultKind::Flood,
    ];

    /// The kind's name in logs (`late`, `illegal`, ...).
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Late => "late",
            FaultKind::Illegal => "illegal",
            FaultKind::Malformed => "malformed",
            FaultKind::OutOfTurn => "out-of-turn",
            FaultKind::Stale => "stale",
            FaultKind::Absent => "absent",
            FaultKind::Flood => "flood",
        }
    }

    /// The kind for a name.
    pub fn from_name(s: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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
