//! Where a hand sits in its match, for a hand that is not the first one: a
//! disputed hand 2 or later, typed in by a person, starts from the match
//! state its rules depend on (hand number, dealer, totals, previous bids).

use std::fmt;

use crate::{action::Action, seat::Seat, view::Observation};

/// The match state a game starts from when its first hand is not the first
/// hand of the match. Given to [`Game::start_at`](crate::Game::start_at)
/// before the first deal.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct HandContext {
    /// Index of the hand in the match, 0-based: every earlier deal counts,
    /// misdeals and play-off hands included.
    pub hand: u32,
    /// The dealer of this hand.
    pub dealer: Seat,
    /// Each seat's match total before this hand, by seat (in team games every
    /// seat carries its team's total, as in the logs). Empty: all zero.
    #[cfg_attr(feature = "serde", serde(default))]
    pub totals: Vec<i32>,
    /// How many of the earlier deals were thrown in without a score (Israeli
    /// I3, Illustrated L2): they count as hands dealt but not as hands
    /// scored.
    #[cfg_attr(feature = "serde", serde(default))]
    pub misdeals: u32,
    /// Each seat's bid in the previous hand, by seat (`null` for none), for
    /// the games whose rules use it: Oneonta's multiplayer bidding order
    /// (O13). Empty where the game does not use it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub previous_bids: Vec<Option<Action>>,
}

/// Why a [`HandContext`] cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContextError {
    /// A context applies only to a game that has not dealt yet.
    NotAtStart,
    /// The dealer is not a seat of this game.
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
        /// Seats at the table.
        seats: usize,
    },
    /// A per-seat list of the wrong length.
    Length {
        /// The field.
        field: &'static str,
        /// Seats at the table.
        expected: usize,
        /// Entries given.
        got: usize,
    },
    /// A field this game's rules do not use.
    Unused {
        /// The field.
        field: &'static str,
        /// The game.
        game: &'static str,
    },
    /// A context the game's rules cannot reach; the text says why and cites
    /// the rule.
    Impossible(String),
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContextError::NotAtStart => {
                f.write_str("a context applies only before the first hand is dealt")
            }
            ContextError::NoSuchSeat { seat, seats } => write!(
                f,
                "no such seat: {seat} (the game has {seats} seats, 0 to {})",
                seats.saturating_sub(1)
            ),
            ContextError::Length {
                field,
                expected,
                got,
            } => write!(
                f,
                "`{field}` has {got} entries; the game has {expected} seats"
            ),
            ContextError::Unused { field, game } => {
                write!(f, "`{field}` is not used by the rules of {game}")
            }
            ContextError::Impossible(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ContextError {}

impl HandContext {
    /// The context an observation shows of its hand: the deal's index, the
    /// dealer, the seats' totals, and the misdeals where the game notes its
    /// `hands-scored` (no previous bids).
    pub fn observed(obs: &Observation) -> HandContext {
        let scored = obs.note("hands-scored").and_then(|n| n.parse::<u32>().ok());
        HandContext {
            hand: obs.deal,
            dealer: obs.dealer,
            totals: obs.players.iter().map(|p| p.total).collect(),
            misdeals: scored.map_or(0, |s| obs.deal.saturating_sub(s)),
            previous_bids: Vec::new(),
        }
    }

    /// The totals, all zero when none were given.
    pub(crate) fn totals_or_zero(&self, seats: usize) -> Vec<i32> {
        if self.totals.is_empty() {
            vec![0; seats]
        } else {
            self.totals.clone()
        }
    }

    /// [`ContextError::Unused`] if previous bids were given to a game that
    /// does not use them.
    pub(crate) fn no_previous_bids(&self, game: &'static str) -> Result<(), ContextError> {
        if self.previous_bids.is_empty() {
            Ok(())
        } else {
            Err(ContextError::Unused {
                field: "previous_bids",
                game,
            })
        }
    }

    /// [`ContextError::Unused`] if misdeals were given to a game without them.
    pub(crate) fn no_misdeals(&self, game: &'static str) -> Result<(), ContextError> {
        if self.misdeals == 0 {
            Ok(())
        } else {
            Err(ContextError::Unused {
                field: "misdeals",
                game,
            })
        }
    }

    /// [`ContextError::Impossible`] unless the hand is within a match of
    /// `hands` hands.
    pub(crate) fn within(&self, hands: u32, rule: &str) -> Result<(), ContextError> {
        if self.hand < hands {
            Ok(())
        } else {
            Err(ContextError::Impossible(format!(
                "hand {} does not exist: the match has {hands} hands, 0 to {} ({rule})",
                self.hand,
                hands.saturating_sub(1)
            )))
        }
    }

    /// For a match of `hands` hands when that option is set (`rule` cites
    /// it), else one that ends when a total reaches the target or after
    /// `max_hands`: [`ContextError::Impossible`] unless the hand is within
    /// it. `ended` says why the context's totals had already ended the match,
    /// if they had.
    pub(crate) fn within_target(
        &self,
        hands: Option<u32>,
        rule: &str,
        max_hands: u32,
        ended: Option<String>,
    ) -> Result<(), ContextError> {
        match (hands, ended) {
            (Some(h), _) => self.within(h, rule),
            (None, Some(why)) => Err(ContextError::Impossible(why)),
            (None, None) => self.within(max_hands, "the `max-hands` option"),
        }
    }
}
