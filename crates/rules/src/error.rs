//! Errors: illegal actions (with reasons), bad deals, bad options.

use std::fmt;

use crate::{
    action::{Action, ParseActionError},
    card::{Card, Suit},
    seat::{Seat, SeatSet},
};

/// Why an action is not legal now. Every rejection carries one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalReason {
    /// The match is over.
    MatchOver,
    /// The next step is a deal, not a decision.
    AwaitingDeal,
    /// The seat is not one the game is waiting for.
    NotYourTurn {
        /// The seats the game is waiting for (empty in a simultaneous step,
        /// whose progress is hidden).
        to_act: SeatSet,
    },
    /// The seat does not exist in this game.
    NoSuchSeat {
        /// The number of seats at the table.
        seats: u8,
    },
    /// This kind of action is not possible in the current phase.
    WrongPhase,
    /// The card is not in the seat's hand.
    NotInHand(Card),
    /// The seat holds a card of the suit led and must play one.
    MustFollow(Suit),
    /// Must follow a suit that is not one of the four printed suits
    /// (nines, jokers); the text names it.
    MustFollowSpecial(&'static str),
    /// A bid that does not beat the standing bid.
    NotHigher(Action),
    /// A number outside the allowed range.
    OutOfRange {
        /// Lowest allowed.
        min: i32,
        /// Highest allowed.
        max: i32,
    },
    /// A game-specific rule, cited by its decision id (e.g. `I4`).
    Rule {
        /// The decision id, defined on the game's page in docs/rules.
        id: &'static str,
        /// What the rule forbids here.
        text: &'static str,
    },
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::MatchOver => f.write_str("the match is over"),
            IllegalReason::AwaitingDeal => f.write_str("the cards have not been dealt"),
            IllegalReason::NotYourTurn { to_act } => {
                let seats: Vec<String> = to_act.iter().map(|s| s.to_string()).collect();
                match seats.len() {
                    0 => f.write_str("it is not this seat's turn"),
                    1 => write!(
                        f,
                        "it is not this seat's turn (seat {} is to act)",
                        seats[0]
                    ),
                    _ => write!(
                        f,
                        "it is not this seat's turn (seats {} are to act)",
                        seats.join(", ")
                    ),
                }
            }
            IllegalReason::NoSuchSeat { seats } => write!(
                f,
                "no such seat: the game has {seats} seats, 0 to {}",
                seats.saturating_sub(1)
            ),
            IllegalReason::WrongPhase => f.write_str("that kind of action is not possible now"),
            IllegalReason::NotInHand(c) => write!(f, "{c} is not in the hand"),
            IllegalReason::MustFollow(s) => write!(f, "must follow suit ({s})"),
            IllegalReason::MustFollowSpecial(s) => write!(f, "must follow suit ({s})"),
            IllegalReason::NotHigher(a) => write!(f, "must bid higher than {a}"),
            IllegalReason::OutOfRange { min, max } => {
                write!(f, "out of range (allowed {min}..={max})")
            }
            IllegalReason::Rule { id, text } => write!(f, "{text} ({id})"),
        }
    }
}

/// An action refused by [`Game::apply`](crate::Game::apply).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalAction {
    /// Who tried it.
    pub seat: Seat,
    /// What was tried.
    pub action: Action,
    /// Why it was refused.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal action `{}` by seat {}: {}",
            self.action, self.seat, self.reason
        )
    }
}

impl std::error::Error for IllegalAction {}

/// Text from a seat that could not become a legal action: either it does not
/// parse (a syntax error, [`ActionError::Parse`]) or it is not legal now
/// ([`ActionError::Illegal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionError {
    /// Not an action of this game's notation.
    Parse(ParseActionError),
    /// A well-formed action that is not legal now.
    Illegal(IllegalAction),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::Parse(e) => e.fmt(f),
            ActionError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ActionError {}

/// A deal that the game cannot use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DealError {
    /// The game is not waiting for a deal.
    NotExpected,
    /// The order does not hold exactly the cards of the game's deck.
    WrongCards {
        /// How many cards the deck has.
        expected: usize,
        /// How many were given.
        got: usize,
    },
    /// A card appears twice, or is not in this game's deck.
    BadCard(Card),
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::NotExpected => f.write_str("the game is not waiting for a deal"),
            DealError::WrongCards { expected, got } => {
                write!(f, "a deal needs exactly {expected} cards, got {got}")
            }
            DealError::BadCard(c) => write!(f, "{c} is repeated or not in this game's deck"),
        }
    }
}

impl std::error::Error for DealError {}

/// A game option that is unknown or has a bad value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// No such game.
    UnknownGame(String),
    /// The game has no option with this key.
    UnknownOption {
        /// The game.
        game: &'static str,
        /// The key given.
        key: String,
    },
    /// The value is not allowed for the key.
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// A `key=value` pair without `=`.
    Malformed(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownGame(g) => write!(
                f,
                "unknown game `{g}` (known: {})",
                crate::Variant::ALL.map(|v| v.name()).join(", ")
            ),
            OptionError::UnknownOption { game, key } => {
                write!(
                    f,
                    "game `{game}` has no option `{key}` (see `whistle games`)"
                )
            }
            OptionError::BadValue {
                key,
                value,
                expected,
            } => write!(
                f,
                "option `{key}`: bad value `{value}` (expected {expected})"
            ),
            OptionError::Malformed(s) => write!(f, "option `{s}` is not of the form key=value"),
        }
    }
}

impl std::error::Error for OptionError {}
