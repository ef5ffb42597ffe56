//! The messages the referee sends on a Play stream, built from engine and
//! table values: the table decides what to send, this module how it looks
//! on the wire.

use std::{fmt, time::Duration};

use whistle_rules::{
    Action, Answer, Event, Fallback, HandResult, MatchResult, Observation, Options, Seat,
};

use crate::{
    convert::{self, Form},
    pb,
};

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

impl FaultKind {
    /// The wire's `Fault.Kind`.
    pub fn wire(self) -> pb::fault::Kind {
        match self {
            FaultKind::Late => pb::fault::Kind::Late,
            FaultKind::Illegal => pb::fault::Kind::Illegal,
            FaultKind::Malformed => pb::fault::Kind::Malformed,
            FaultKind::OutOfTurn => pb::fault::Kind::OutOfTurn,
            FaultKind::Stale => pb::fault::Kind::Stale,
            FaultKind::Absent => pb::fault::Kind::Absent,
            FaultKind::Flood => pb::fault::Kind::Flood,
        }
    }
}

/// Whole milliseconds of `d`, saturating.
pub fn millis(d: Duration) -> u64 {
    d.as_millis().min(u64::MAX as u128) as u64
}

fn referee(msg: pb::referee_message::Msg) -> pb::RefereeMessage {
    pb::RefereeMessage { msg: Some(msg) }
}

/// What a `Welcome` states.
#[derive(Debug, Clone)]
pub struct Welcome<'a> {
    /// The table.
    pub table_id: &'a str,
    /// The seat the stream plays.
    pub seat: Seat,
    /// Seats at the table.
    pub seats: usize,
    /// The game's name.
    pub game: &'a str,
    /// Every option with its effective value.
    pub options: &'a Options,
    /// Time per decision.
    pub per_action: Duration,
    /// The match's time bank per seat.
    pub time_bank: Duration,
    /// Reconnection grace period.
    pub reconnect_grace: Duration,
    /// Faults at which a seat forfeits.
    pub max_faults: u32,
    /// The fallback rule.
    pub fallback: Fallback,
    /// The flood limit.
    pub flood_per_second: u32,
    /// The bot in each seat.
    pub bot_names: Vec<String>,
    /// Whether the stream resumes a seat.
    pub resumed: bool,
}

/// The `Welcome` message.
pub fn welcome(w: &Welcome<'_>) -> pb::RefereeMessage {
    referee(pb::referee_message::Msg::Welcome(pb::Welcome {
        protocol: crate::PROTOCOL.to_string(),
        table_id: w.table_id.to_string(),
        seat: w.seat.index() as u32,
        seats: w.seats as u32,
        game: w.game.to_string(),
        options: convert::options(w.options),
        time_control: Some(pb::TimeControl {
            per_action_ms: millis(w.per_action),
            time_bank_ms: millis(w.time_bank),
            reconnect_grace_ms: millis(w.reconnect_grace),
        }),
        fault_policy: Some(pb::FaultPolicy {
            max_faults: w.max_faults,
            fallback: w.fallback.name().to_string(),
            flood_per_second: w.flood_per_second,
        }),
        bot_names: w.bot_names.clone(),
        resumed: w.resumed,
    }))
}

/// A `DecisionRequest`: the seat's observation, its legal actions, and the
/// time it has.
pub fn request(
    request_id: u64,
    observation: &Observation,
    results: &[HandResult],
    legal: &[Action],
    deadline: Duration,
    time_bank: Duration,
) -> pb::RefereeMessage {
    request_in(
        request_id,
        observation,
        results,
        legal,
        deadline,
        time_bank,
        Form::Text,
    )
}

/// A whole `DecisionRequest` in `form` (binary streams that are not compact).
pub fn request_in(
    request_id: u64,
    observation: &Observation,
    results: &[HandResult],
    legal: &[Action],
    deadline: Duration,
    time_bank: Duration,
    form: Form,
) -> pb::RefereeMessage {
    let (legal, legal_ids) = legal_in(legal, form);
    referee(pb::referee_message::Msg::Request(pb::DecisionRequest {
        request_id,
        observation: Some(convert::observation_in(observation, results, form)),
        legal,
        deadline_ms: millis(deadline),
        time_bank_ms: millis(time_bank),
        delta: None,
        legal_ids,
    }))
}

/// The legal actions as (texts, ids) in `form`: one of the two is empty.
pub fn legal_in(legal: &[Action], form: Form) -> (Vec<String>, Vec<u32>) {
    match form {
        Form::Text => (convert::legal(legal), Vec::new()),
        Form::Binary => (Vec::new(), crate::ids::action_ids(legal)),
    }
}

/// An `Event` message.
pub fn event(event: &Event, results: &[HandResult]) -> pb::RefereeMessage {
    event_in(event, results, Form::Text)
}

/// An `Event` message in `form`.
pub fn event_in(event: &Event, results: &[HandResult], form: Form) -> pb::RefereeMessage {
    referee(pb::referee_message::Msg::Event(convert::event_in(
        event, results, form,
    )))
}

/// What a `Fault` states.
#[derive(Debug, Clone)]
pub struct Fault<'a> {
    /// Its kind.
    pub kind: FaultKind,
    /// The request it concerns, if any.
    pub request_id: Option<u64>,
    /// What was wrong (already cut to size).
    pub detail: &'a str,
    /// The fallback played, if a decision was due.
    pub fallback: Option<Action>,
    /// The seat's fault count after it.
    pub faults: u32,
    /// Faults at which the seat forfeits.
    pub max_faults: u32,
    /// Whether it made the seat forfeit.
    pub forfeited: bool,
}

/// A `Fault` message.
pub fn fault(f: &Fault<'_>) -> pb::RefereeMessage {
    referee(pb::referee_message::Msg::Fault(pb::Fault {
        kind: f.kind.wire() as i32,
        request_id: f.request_id.unwrap_or(0),
        detail: f.detail.to_string(),
        fallback: f.fallback.map(convert::action_text).unwrap_or_default(),
        faults: f.faults,
        max_faults: f.max_faults,
        forfeited: f.forfeited,
    }))
}

/// The `MatchEnd` message.
pub fn match_end(result: &MatchResult, forfeited: &[Seat]) -> pb::RefereeMessage {
    referee(pb::referee_message::Msg::MatchEnd(pb::MatchEnd {
        result: Some(convert::match_result(result, forfeited)),
    }))
}

/// The choice an `Answer` carries, for judging; `None` without one. A text
/// too long to be an action is kept as its length and first characters
/// (nothing a bot sends is kept whole; its fault names the real length).
pub fn given(answer: &pb::Answer) -> Option<Answer> {
    match &answer.choice {
        Some(pb::answer::Choice::Index(i)) => Some(Answer::Index(*i)),
        Some(pb::answer::Choice::Text(t)) if t.len() > whistle_rules::MAX_ANSWER_TEXT => {
            Some(Answer::TooLong {
                bytes: t.len(),
                // As much as any bot text is ever echoed (control
                // characters shown as `?`).
                head: t
                    .chars()
                    .take(crate::limits::ECHO_CHARS)
                    .map(|c| if c.is_control() { '?' } else { c })
                    .collect(),
            })
        }
        Some(pb::answer::Choice::Text(t)) => Some(Answer::Text(t.clone())),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use whistle_rules::{Options, Rejection, Seat, Variant, dealing};

    #[test]
    fn a_cut_answer_is_refused_with_its_real_length() {
        let mut g = Variant::Israeli.new_game(&Options::new()).unwrap();
        dealing::deal_if_needed(&mut g, dealing::Seed::from_u64(1)).unwrap();
        let text = "x".repeat(60_000);
        let answer = given(&pb::Answer {
            choice: Some(pb::answer::Choice::Text(text)),
            ..Default::default()
        })
        .unwrap();
        assert!(answer.to_string().len() < 120, "{answer}");
        match whistle_rules::judge(&g, Seat::new(1), &answer) {
            Err(Rejection::Malformed(m)) => assert!(m.contains("60000 bytes long"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
