//! Results: of one hand ([`HandResult`]) and of a match ([`MatchResult`]).

use crate::{action::Action, seat::Seat};

/// Whether a higher or a lower total is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum ScoreOrder {
    /// Points: most wins.
    HigherIsBetter,
    /// Fines (Yogi's, Y9): fewest wins.
    LowerIsBetter,
}

impl ScoreOrder {
    /// Whether total `a` ranks strictly before total `b`.
    pub fn better(self, a: i32, b: i32) -> bool {
        match self {
            ScoreOrder::HigherIsBetter => a > b,
            ScoreOrder::LowerIsBetter => a < b,
        }
    }
}

/// The outcome of one hand (one deal).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HandResult {
    /// Index of the deal in the match (0-based, misdeals included).
    pub deal: u32,
    /// The dealer.
    pub dealer: Seat,
    /// Whether the deal was thrown in without a score.
    pub misdeal: bool,
    /// Each seat's bid or contract this hand, if it made one, in canonical notation.
    pub bids: Vec<Option<Action>>,
    /// Tricks won by each seat.
    pub tricks: Vec<u8>,
    /// Whether each seat made its bid, where that applies.
    pub made: Vec<Option<bool>>,
    /// Points (or fines) each seat scored this hand. In team games every seat
    /// carries its team's points.
    pub points: Vec<i32>,
    /// Match totals after this hand.
    pub totals: Vec<i32>,
    /// Each seat's own score this hand where `points` hold a team's figure
    /// that is not simply its partners' shared score: in cooperative Oneonta
    /// (O16, O17) `points` carry the team score and this each seat's own O6
    /// score. Empty in every other game and mode.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub seat_points: Vec<i32>,
    /// One line for people, e.g. `7D by 2; bids 7 0 3 4 (over)`.
    pub summary: String,
}

/// The outcome of a whole match.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MatchResult {
    /// Final total of each seat (in team games, its team's total).
    pub totals: Vec<i32>,
    /// Team of each seat; seats with equal numbers are partners.
    pub teams: Vec<u8>,
    /// Whether higher or lower totals are better.
    pub order: ScoreOrder,
    /// Place of each seat: 1 is first; tied seats share a place.
    pub ranks: Vec<u8>,
    /// Hands scored (misdeals excluded).
    pub hands: u32,
    /// A game-specific verdict for people (e.g. `win`, `draw`, `loss` for a
    /// solitaire target), empty if none.
    pub note: String,
}

impl MatchResult {
    /// A result ranked by totals alone under `order`; ties share a place.
    pub fn by_totals(
        totals: Vec<i32>,
        teams: Vec<u8>,
        order: ScoreOrder,
        hands: u32,
    ) -> MatchResult {
        let ranks = ranks_by(&totals, order);
        MatchResult {
            totals,
            teams,
            order,
            ranks,
            hands,
            note: String::new(),
        }
    }

    /// The seats in first place.
    pub fn winners(&self) -> Vec<Seat> {
        self.ranks
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r == 1)
            .map(|(i, _)| Seat::new(i))
            .collect()
    }
}

/// Places for `totals` under `order`: 1 + the number of strictly better totals.
pub fn ranks_by(totals: &[i32], order: ScoreOrder) -> Vec<u8> {
    totals
        .iter()
        .map(|&t| 1 + totals.iter().filter(|&&o| order.better(o, t)).count() as u8)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_places() {
        assert_eq!(
            ranks_by(&[10, 30, 10, 5], ScoreOrder::HigherIsBetter),
            [2, 1, 2, 4]
        );
        assert_eq!(
            ranks_by(&[10, 30, 10, 5], ScoreOrder::LowerIsBetter),
            [2, 4, 2, 1]
        );
    }
}
