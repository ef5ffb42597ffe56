//! Results: of one hand ([`HandResult`]) and of a match ([`MatchResult`]).

use std::{fmt, ops::Deref};

use arrayvec::{ArrayString, ArrayVec};

use crate::{
    action::Action,
    seat::{MAX_SEATS, Seat},
};

/// One entry per seat, held inline: a hand's result allocates nothing.
pub type PerSeat<T> = ArrayVec<T, MAX_SEATS>;

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
    pub bids: PerSeat<Option<Action>>,
    /// Tricks won by each seat.
    pub tricks: PerSeat<u8>,
    /// Whether each seat made its bid, where that applies.
    pub made: PerSeat<Option<bool>>,
    /// Points (or fines) each seat scored this hand. In team games every seat
    /// carries its team's points.
    pub points: PerSeat<i32>,
    /// Match totals after this hand.
    pub totals: PerSeat<i32>,
    /// Each seat's own score this hand where `points` hold a team's figure
    /// that is not simply its partners' shared score: in cooperative Oneonta
    /// (O16, O17) `points` carry the team score and this each seat's own O6
    /// score. Empty in every other game and mode.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "ArrayVec::is_empty")
    )]
    pub seat_points: PerSeat<i32>,
    /// One line for people, e.g. `7D by 2; bids 7 0 3 4 (over)`.
    pub summary: Summary,
}

/// The bytes a [`Summary`] holds inline; a longer line moves to the heap.
const SUMMARY_INLINE: usize = 96;

/// A hand's summary line: text that a game writes in place (inline up to
/// 96 bytes, which every Israeli Whist line fits, so that ending a hand
/// allocates nothing), read as a `str`.
#[derive(Clone)]
pub struct Summary(Text);

#[derive(Clone)]
enum Text {
    Inline(ArrayString<SUMMARY_INLINE>),
    Heap(String),
}

impl Summary {
    /// An empty line.
    pub const fn new() -> Summary {
        Summary(Text::Inline(ArrayString::new_const()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Text::Inline(s) => s.as_str(),
            Text::Heap(s) => s.as_str(),
        }
    }

    /// Appends `text`.
    pub fn push_str(&mut self, text: &str) {
        match &mut self.0 {
            Text::Inline(s) => {
                if s.try_push_str(text).is_err() {
                    let mut heap = String::with_capacity(s.len() + text.len());
                    heap.push_str(s);
                    heap.push_str(text);
                    self.0 = Text::Heap(heap);
                }
            }
            Text::Heap(s) => s.push_str(text),
        }
    }

    /// Appends `c`.
    pub fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }
}

impl Default for Summary {
    fn default() -> Summary {
        Summary::new()
    }
}

impl Deref for Summary {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Summary {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Write for Summary {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Summary {
    fn eq(&self, other: &Summary) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Summary {}

impl PartialEq<str> for Summary {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Summary {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Summary {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl From<String> for Summary {
    fn from(text: String) -> Summary {
        match ArrayString::from(&text) {
            Ok(s) => Summary(Text::Inline(s)),
            Err(_) => Summary(Text::Heap(text)),
        }
    }
}

impl From<&str> for Summary {
    fn from(text: &str) -> Summary {
        let mut s = Summary::new();
        s.push_str(text);
        s
    }
}

impl From<Summary> for String {
    fn from(s: Summary) -> String {
        match s.0 {
            Text::Inline(s) => s.as_str().to_string(),
            Text::Heap(s) => s,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Summary {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Summary {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Summary, D::Error> {
        String::deserialize(deserializer).map(Summary::from)
    }
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
    fn a_summary_is_its_text_inline_or_not() {
        use std::fmt::Write as _;
        let mut s = Summary::new();
        s.push_str("7D by 2");
        s.push(';');
        assert!(matches!(s.0, Text::Inline(_)));
        assert_eq!(s, "7D by 2;");
        let long = "x".repeat(SUMMARY_INLINE);
        let _ = write!(s, " {long}");
        assert!(matches!(s.0, Text::Heap(_)));
        assert_eq!(s.as_str(), format!("7D by 2; {long}"));
        assert_eq!(Summary::from(s.to_string()), s);
        assert_eq!(format!("{s:?}"), format!("{:?}", s.as_str()));
        assert_eq!(String::from(Summary::from("ab")), "ab");
        assert_eq!(Summary::from(long.clone() + "y"), long + "y");
    }

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
