//! From a table's record to its log: [`Recorder`] collects each hand's
//! deal, actions and faults as a table reports them and writes the hand
//! when its result comes, then the end record.

use std::{io::Write, time::Duration};

use whistle_rules::{Action, Card, HandResult, MatchResult, PerSeat, Seat, Summary, dealing::Seed};

use crate::{ActionLog, EndLog, FaultLog, HandLog, ReplayError, Writer};

/// Turns the events of one table, in the order the table reports them, into
/// its log through a [`Writer`]: one hand line per hand (its deal, actions
/// and faults, then its result), then the end line with the match seed. A
/// fault before the first deal goes into the first hand.
#[derive(Debug)]
pub struct Recorder<'w, W: Write> {
    writer: &'w mut Writer<W>,
    hand: Option<HandLog>,
    early_faults: Vec<FaultLog>,
}

/// Why a table's record could not become a log.
#[derive(Debug)]
pub enum RecordError {
    /// A hand's result came before its deal.
    NoDeal,
    /// The log could not be written.
    Log(ReplayError),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::NoDeal => f.write_str("a hand result without a deal"),
            RecordError::Log(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

impl<'w, W: Write> Recorder<'w, W> {
    /// A recorder writing to `writer` (whose header is written).
    pub fn new(writer: &'w mut Writer<W>) -> Recorder<'w, W> {
        Recorder {
            writer,
            hand: None,
            early_faults: Vec::new(),
        }
    }

    /// A deal: the hand `deal` begins, dealt from `order` (top card first).
    pub fn deal(&mut self, deal: u32, order: Vec<Card>) {
        self.hand = Some(HandLog {
            prev: String::new(),
            deal,
            dealer: Seat::new(0),
            deck: order,
            actions: Vec::new(),
            faults: std::mem::take(&mut self.early_faults),
            result: HandResult {
                deal,
                dealer: Seat::new(0),
                misdeal: false,
                bids: PerSeat::new(),
                tricks: PerSeat::new(),
                made: PerSeat::new(),
                points: PerSeat::new(),
                totals: PerSeat::new(),
                seat_points: PerSeat::new(),
                summary: Summary::new(),
            },
            context: None,
        });
    }

    /// An action applied for `seat`, answered `elapsed` after it was asked
    /// (logged in milliseconds to the microsecond), `fallback` when the
    /// referee played it. Outside a hand it is not logged.
    pub fn action(&mut self, seat: Seat, action: Action, elapsed: Duration, fallback: bool) {
        if let Some(h) = self.hand.as_mut() {
            h.actions.push(ActionLog {
                seat,
                action,
                ms: elapsed.as_micros() as f64 / 1000.0,
                fallback,
            });
        }
    }

    /// A fault; its `at` is set here (before the hand's next action).
    pub fn fault(&mut self, mut fault: FaultLog) {
        fault.at = self.hand.as_ref().map_or(0, |h| h.actions.len());
        match self.hand.as_mut() {
            Some(h) => h.faults.push(fault),
            None => self.early_faults.push(fault),
        }
    }

    /// The hand's result: the hand line is written.
    ///
    /// # Errors
    /// [`RecordError::NoDeal`] outside a hand; [`RecordError::Log`].
    pub fn hand(&mut self, result: HandResult) -> Result<(), RecordError> {
        let mut h = self.hand.take().ok_or(RecordError::NoDeal)?;
        h.dealer = result.dealer;
        h.result = result;
        self.writer.hand(h).map_err(RecordError::Log)
    }

    /// The match is over: the end line is written, with the match seed.
    ///
    /// # Errors
    /// [`ReplayError::Io`].
    pub fn end(
        &mut self,
        result: MatchResult,
        forfeited: Vec<Seat>,
        faults: Vec<u32>,
        match_seed: Seed,
    ) -> Result<(), ReplayError> {
        self.writer.end(EndLog {
            prev: String::new(),
            result,
            forfeited,
            faults,
            match_seed,
        })
    }
}
