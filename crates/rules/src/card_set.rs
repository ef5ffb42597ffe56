//! [`CardSet`]: a set of cards as a 64-bit mask, and the decks built from it.

use std::{fmt, str::FromStr};

use crate::card::{Card, ParseCardError, Rank, Suit};

/// A set of cards, one bit per card index. `Copy`, allocation-free.
///
/// Iteration is in ascending card index (clubs 2..A, diamonds, hearts,
/// spades, then `LJ`, `BJ`), which is also a deck's canonical order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// Both jokers.
    pub const JOKERS: CardSet = CardSet(0b11 << 52);
    /// The 52 suited cards.
    pub const STANDARD: CardSet = CardSet((1 << 52) - 1);

    /// The set with exactly this raw mask (bits above 53 are dropped).
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & ((1 << 54) - 1))
    }

    /// The raw mask.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The one-card set.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.index())
    }

    /// The thirteen cards of a suit.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(0x1fff << (suit as u32 * 13))
    }

    /// The four cards of a rank.
    pub const fn rank(rank: Rank) -> CardSet {
        let r = rank as u32;
        CardSet((1 << r) | (1 << (r + 13)) | (1 << (r + 26)) | (1 << (r + 39)))
    }

    /// The suited cards whose rank is at least `min` (in all four suits).
    pub const fn ranks_from(min: Rank) -> CardSet {
        let per_suit: u64 = (0x1fff >> (min as u32)) << (min as u32);
        CardSet(per_suit | per_suit << 13 | per_suit << 26 | per_suit << 39)
    }

    /// Whether the set holds `card`.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    /// Number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Cards in both sets.
    pub const fn and(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in either set.
    pub const fn or(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards in `self` but not in `other`.
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The lowest-index card, if any.
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_index(self.0.trailing_zeros() as usize)
        }
    }

    /// The highest-index card, if any.
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_index(63 - self.0.leading_zeros() as usize)
        }
    }

    /// Iterates in ascending card index.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The cards in ascending index, as a vector.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterator over a [`CardSet`], ascending.
#[derive(Debug, Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card::from_set_bit(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Display for CardSet {
    /// Space-separated cards in ascending index, e.g. `2C AC 3H BJ`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

impl FromStr for CardSet {
    type Err = ParseCardError;

    /// Parses whitespace- or comma-separated cards.
    fn from_str(s: &str) -> Result<CardSet, ParseCardError> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse::<Card>)
            .collect()
    }
}

/// The decks the five games use.
pub mod decks {
    use super::*;

    /// The 52-card pack.
    pub const STANDARD: CardSet = CardSet::STANDARD;

    /// 52 cards and the big joker (`BJ`): Yogi's Whist.
    pub const WITH_ONE_JOKER: CardSet = CardSet::STANDARD.or(CardSet::single(Card::BIG_JOKER));

    /// 52 cards and both jokers: Honeymoon, Illustrated, Oneonta with seven players.
    pub const WITH_TWO_JOKERS: CardSet = CardSet::STANDARD.or(CardSet::JOKERS);

    /// A reduced Oneonta deck: every suited card of rank `lowest` or higher,
    /// plus both jokers (O1, O11, O17). `reduced(Rank::Ten)` is the 22-card
    /// solitaire deck.
    pub const fn reduced(lowest: Rank) -> CardSet {
        CardSet::ranks_from(lowest).or(CardSet::JOKERS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_sizes() {
        assert_eq!(decks::STANDARD.len(), 52);
        assert_eq!(decks::WITH_ONE_JOKER.len(), 53);
        assert_eq!(decks::WITH_TWO_JOKERS.len(), 54);
        assert_eq!(decks::reduced(Rank::Ten).len(), 22);
        assert_eq!(decks::reduced(Rank::Eight).len(), 30);
        assert_eq!(decks::reduced(Rank::Six).len(), 38);
        assert_eq!(decks::reduced(Rank::Four).len(), 46);
        assert_eq!(decks::reduced(Rank::Two).len(), 54);
    }

    #[test]
    fn iteration_is_ascending_and_text_round_trips() {
        let s: CardSet = "BJ 3H 2C as".parse().unwrap();
        assert_eq!(s.to_string(), "2C 3H AS BJ");
        assert_eq!(s.to_string().parse::<CardSet>().unwrap(), s);
        assert_eq!(s.len(), 4);
        assert_eq!(s.first(), Some("2C".parse().unwrap()));
    }

    #[test]
    fn suit_and_rank_masks() {
        let hearts = CardSet::suit(Suit::Hearts);
        assert_eq!(hearts.len(), 13);
        assert!(hearts.iter().all(|c| c.suit() == Some(Suit::Hearts)));
        let nines = CardSet::rank(Rank::Nine);
        assert_eq!(nines.to_string(), "9C 9D 9H 9S");
    }
}
