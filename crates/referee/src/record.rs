//! A table's record: everything that happened, in order, as the referee saw
//! it (omniscient), and how an entry goes into the table's replay log
//! ([`TableRecord::log`]: the one conversion the tournament runner and the
//! end-to-end tests write logs with).

use std::{io::Write, time::Duration};

use whistle_replay::{FaultLog, RecordError, Recorder};
use whistle_rules::{Action, Card, HandResult, MatchResult, Seat, dealing::Seed};

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
    /// A hand is over. (Boxed, as the match's result is: a record moves
    /// through a channel for every action, and these two would make every
    /// record several times the size of an action's.)
    Hand(Box<HandResult>),
    /// The match is over.
    End {
        /// The result.
        result: Box<MatchResult>,
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

impl From<FaultRecord> for FaultLog {
    /// The fault as its log writes it: the kind by name, the request id
    /// left out; its place in the hand (`at`) is set by the [`Recorder`].
    fn from(f: FaultRecord) -> FaultLog {
        FaultLog {
            seat: f.seat,
            kind: f.kind.name().into(),
            detail: f.detail,
            fallback: f.fallback,
            faults: f.faults,
            forfeited: f.forfeited,
            at: 0,
            answer: f.answer,
        }
    }
}

impl TableRecord {
    /// Writes this entry into its table's log through `log`: a deal, an
    /// action or a fault joins the hand in progress, a hand's result writes
    /// the hand line, the end writes the end line with `match_seed`.
    /// `Started`, `Stopped` and `Aborted` are not part of a log and write
    /// nothing (a stopped table's log holds its completed hands and no end
    /// line: it resumes).
    ///
    /// # Errors
    /// [`RecordError::NoDeal`] for a hand's result outside a hand;
    /// [`RecordError::Log`] if the log cannot be written.
    pub fn log<W: Write>(
        self,
        log: &mut Recorder<'_, W>,
        match_seed: Seed,
    ) -> Result<(), RecordError> {
        match self {
            TableRecord::Deal { deal, order } => log.deal(deal, order),
            TableRecord::Action {
                seat,
                action,
                elapsed,
                fallback,
            } => log.action(seat, action, elapsed, fallback),
            TableRecord::Fault(f) => log.fault(f.into()),
            TableRecord::Hand(result) => log.hand(*result)?,
            TableRecord::End {
                result,
                forfeited,
                faults,
            } => log
                .end(*result, forfeited, faults, match_seed)
                .map_err(RecordError::Log)?,
            TableRecord::Started { .. }
            | TableRecord::Stopped { .. }
            | TableRecord::Aborted { .. } => {}
        }
        Ok(())
    }
}
