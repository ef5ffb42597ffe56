//! What a seat sees: the hand's [`Event`] log with per-event visibility, and the
//! [`Observation`] built from it.
//!
//! Observations are built from the parts a seat may see (its own cards, public
//! events, events addressed to it), never by masking a full state. Each game
//! writes every event with the set of seats allowed to see it and, optionally,
//! a redacted form for everyone else; [`visible_events`] is the only filter.

use std::borrow::Cow;

use arrayvec::ArrayVec;

use crate::{
    action::{Action, ActionKind},
    card::{Card, Suit},
    card_set::CardSet,
    seat::{Player, Seat, SeatSet},
    trick::MAX_TRICK,
    variants::Variant,
};

/// Where a taken card came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Source {
    /// The stock (Honeymoon).
    Stock,
    /// The kitty (Illustrated).
    Kitty,
    /// Another seat (Israeli frisch, Yogi's rotation).
    Seat(Seat),
}

/// One thing that happened in a hand, as some seat may see it. `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "kebab-case"))]
pub enum Event {
    /// A hand begins.
    HandStart {
        /// Index of the deal in the match (0-based, misdeals included).
        deal: u32,
        /// The dealer.
        dealer: Seat,
    },
    /// A seat's cards as dealt (seen by that seat only).
    Dealt {
        /// The seat.
        seat: Seat,
        /// Its cards.
        cards: CardSet,
    },
    /// A card turned face up on the table (a trump indicator, a new stock top).
    TurnUp {
        /// The card.
        card: Card,
    },
    /// A seat's decision.
    Action {
        /// Who decided.
        seat: Seat,
        /// What.
        action: Action,
    },
    /// A decision whose content this viewer may not see.
    Hidden {
        /// Who decided.
        seat: Seat,
        /// The kind of decision (e.g. `Give`).
        kind: ActionKind,
    },
    /// A card the rules played for the dummy.
    DummyPlay {
        /// The card.
        card: Card,
    },
    /// A trick is complete.
    TrickWon {
        /// Trick number in the hand, from 0.
        index: u8,
        /// Who won it.
        winner: Player,
    },
    /// A seat takes a card; `card` is `None` when this viewer may not see it.
    Take {
        /// The seat taking the card.
        seat: Seat,
        /// The card, if visible.
        card: Option<Card>,
        /// Where it came from.
        from: Source,
    },
    /// Cards held by a seat become public (or visible to this viewer).
    Reveal {
        /// Whose cards.
        seat: Seat,
        /// The cards.
        cards: CardSet,
    },
    /// The deal was thrown in without a score.
    Misdeal,
    /// The hand is over; its result is in the match's hand results.
    HandEnd {
        /// Index of the deal.
        deal: u32,
    },
}

impl Event {
    /// The cards this event shows whoever sees it (none for an event that
    /// names no card).
    #[inline]
    pub fn cards(&self) -> CardSet {
        match *self {
            Event::Dealt { cards, .. } | Event::Reveal { cards, .. } => cards,
            Event::TurnUp { card } | Event::DummyPlay { card } => CardSet::single(card),
            Event::Take { card, .. } => card.map_or(CardSet::EMPTY, CardSet::single),
            Event::Action { action, .. } => action.card().map_or(CardSet::EMPTY, CardSet::single),
            Event::HandStart { .. }
            | Event::Hidden { .. }
            | Event::TrickWon { .. }
            | Event::Misdeal
            | Event::HandEnd { .. } => CardSet::EMPTY,
        }
    }
}

/// An event as written by a game, with who may see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogEntry {
    /// The full event.
    pub event: Event,
    /// Seats that see the full event.
    pub to: SeatSet,
    /// What the other seats see instead, if anything.
    pub others: Option<Event>,
}

impl LogEntry {
    /// An event every seat sees.
    pub fn public(event: Event, seats: usize) -> LogEntry {
        LogEntry {
            event,
            to: SeatSet::all(seats),
            others: None,
        }
    }

    /// An event only `to` sees; the rest see nothing.
    pub fn private(event: Event, to: SeatSet) -> LogEntry {
        LogEntry {
            event,
            to,
            others: None,
        }
    }

    /// An event `to` sees in full and the rest see as `others`.
    pub fn redacted(event: Event, to: SeatSet, others: Event) -> LogEntry {
        LogEntry {
            event,
            to,
            others: Some(others),
        }
    }

    /// This entry as `seat` sees it, if at all.
    pub fn seen_by(&self, seat: Seat) -> Option<Event> {
        if self.to.contains(seat) {
            Some(self.event)
        } else {
            self.others
        }
    }
}

/// The events of `log` that `seat` may see, in order.
pub fn visible_events(log: &[LogEntry], seat: Seat) -> Vec<Event> {
    log.iter().filter_map(|e| e.seen_by(seat)).collect()
}

/// The phase of a hand, common to all games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Phase {
    /// Waiting for the cards to be dealt.
    Deal,
    /// An auction for trump or contract (Israeli I2, Illustrated L2).
    Auction,
    /// Bidding a number of tricks (Israeli I4, Oneonta, Yogi's bid cards).
    Bid,
    /// Passing cards face down (Israeli frisch I3).
    Pass,
    /// A round of calls before play (Yogi's declare round, Illustrated announcements).
    Declare,
    /// A choice before play (Yogi's leader, hand size, vote; Illustrated exchange).
    Choose,
    /// Taking and discarding cards (Illustrated L3).
    Exchange,
    /// Playing tricks.
    Play,
    /// The match is over.
    Over,
}

/// What is trump this hand, as far as the viewer knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Trump {
    /// Not decided yet (an auction is running).
    Undecided,
    /// A suit.
    Suit(Suit),
    /// No trump suit.
    NoTrump,
    /// The four nines form the trump suit (Yogi's, Y2).
    Nines,
    /// The jokers form a trump suit of their own (Oneonta O3, Honeymoon at no trump).
    Jokers,
}

/// What the viewer knows of one seat.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// Number of cards it holds (public).
    pub held: u8,
    /// Cards of its hand the viewer can see (its whole hand for the viewer
    /// itself; a revealed hand; cards it took face up and has not played).
    pub known: CardSet,
    /// Its public bid, if any (in canonical notation).
    pub bid: Option<Action>,
    /// Tricks it has won this hand.
    pub tricks: u8,
    /// Its match total so far.
    pub total: i32,
    /// Its team (seats with the same number are partners).
    pub team: u8,
    /// Whether it takes part in this hand's play (false for a partner sitting
    /// out a null, L6).
    pub active: bool,
}

/// A face-up card on the table, with what it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TableCard {
    /// What the card is, e.g. `turn-up`, `stock-top`, `kitty`, `bid-card`
    /// (the games' labels are static texts: an observation refilled at
    /// every request holds them without allocating).
    pub label: Cow<'static, str>,
    /// Whose it is, if it belongs to a seat (a bid card).
    pub owner: Option<Seat>,
    /// The card.
    pub card: Card,
}

/// A completed or current trick as the viewer sees it (every card face up).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TrickView {
    /// Cards in play order with who played them (inline: a trick holds at
    /// most [`MAX_TRICK`] cards).
    pub cards: ArrayVec<(Player, Card), MAX_TRICK>,
    /// The winner, once complete.
    pub winner: Option<Player>,
}

/// Everything one seat may know at one moment, built from what it may see.
///
/// A request to a bot carries one; with the legal actions it is enough to act
/// without memory. Two observations of the same seat compare equal exactly when
/// the seat's knowledge is the same: hidden cards never change an observation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Observation {
    /// The game.
    pub game: Variant,
    /// The viewer.
    pub seat: Seat,
    /// Number of seats.
    pub seats: u8,
    /// Index of the current deal in the match (0-based, misdeals included).
    pub deal: u32,
    /// The dealer of the current hand.
    pub dealer: Seat,
    /// The phase.
    pub phase: Phase,
    /// Seats whose decision the game awaits. During a simultaneous step this is
    /// every seat of the step until the step completes, whoever has finished.
    pub to_act: SeatSet,
    /// Whether the current step is simultaneous.
    pub simultaneous: bool,
    /// The viewer's own cards.
    pub hand: CardSet,
    /// What the viewer knows of every seat, itself included.
    pub players: Vec<SeatView>,
    /// Trump, as far as known.
    pub trump: Trump,
    /// The contract or winning bid and who holds it, once decided.
    pub contract: Option<(Seat, Action)>,
    /// Face-up cards on the table that are not in a trick.
    pub table: Vec<TableCard>,
    /// Cards not in any hand or trick and not face up (stock, kitty, dummy pile), by count.
    pub piles: Vec<(String, u8)>,
    /// The trick being played (may be empty).
    pub trick: TrickView,
    /// The completed tricks of this hand, in order.
    pub tricks: Vec<TrickView>,
    /// This hand's events the viewer may see, in order.
    pub history: Vec<Event>,
    /// Game-specific facts as `key`/`value` text (documented per game).
    pub notes: Vec<(String, String)>,
}

impl Observation {
    /// The viewer's own [`SeatView`].
    pub fn me(&self) -> &SeatView {
        &self.players[self.seat.index()]
    }

    /// The value of a game-specific note, if present.
    pub fn note(&self, key: &str) -> Option<&str> {
        self.notes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for CardSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for CardSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        Ok(cards.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_and_privacy() {
        let s0 = Seat::new(0);
        let s1 = Seat::new(1);
        let card: Card = "3C".parse().unwrap();
        let log = [
            LogEntry::public(Event::TurnUp { card }, 2),
            LogEntry::redacted(
                Event::Take {
                    seat: s1,
                    card: Some(card),
                    from: Source::Stock,
                },
                SeatSet::single(s1),
                Event::Take {
                    seat: s1,
                    card: None,
                    from: Source::Stock,
                },
            ),
            LogEntry::private(
                Event::Dealt {
                    seat: s1,
                    cards: CardSet::single(card),
                },
                SeatSet::single(s1),
            ),
        ];
        assert_eq!(visible_events(&log, s1).len(), 3);
        let seen0 = visible_events(&log, s0);
        assert_eq!(seen0.len(), 2);
        assert!(matches!(seen0[1], Event::Take { card: None, .. }));
    }
}
