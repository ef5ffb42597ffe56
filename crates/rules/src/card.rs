//! Suits, ranks and cards, with their canonical text (`AS`, `TC`, `BJ`, `LJ`).

use std::{fmt, str::FromStr};

/// One of the four French suits, in bridge order (`C < D < H < S`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Clubs, `C`.
    Clubs = 0,
    /// Diamonds, `D`.
    Diamonds = 1,
    /// Hearts, `H`.
    Hearts = 2,
    /// Spades, `S`.
    Spades = 3,
}

impl Suit {
    /// All four suits in bridge order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0 = clubs ... 3 = spades).
    ///
    /// # Panics
    /// If `i > 3`.
    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i]
    }

    /// This suit's index (0 = clubs ... 3 = spades).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit's letter: `C`, `D`, `H` or `S`.
    pub const fn char(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The suit for a letter (upper or lower case).
    pub const fn from_char(c: char) -> Option<Suit> {
        match c {
            'C' | 'c' => Some(Suit::Clubs),
            'D' | 'd' => Some(Suit::Diamonds),
            'H' | 'h' => Some(Suit::Hearts),
            'S' | 's' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank from two to ace; aces are high in every game here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 2
    Two = 0,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// T (ten)
    Ten,
    /// J
    Jack,
    /// Q
    Queen,
    /// K
    King,
    /// A
    Ace,
}

impl Rank {
    /// All thirteen ranks, low to high.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0 = two ... 12 = ace).
    ///
    /// # Panics
    /// If `i > 12`.
    pub const fn from_index(i: usize) -> Rank {
        Rank::ALL[i]
    }

    /// This rank's index (0 = two ... 12 = ace).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank's character: `2`-`9`, `T`, `J`, `Q`, `K`, `A`.
    pub const fn char(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }

    /// The rank for a character (upper or lower case; `0` is not accepted for ten).
    pub const fn from_char(c: char) -> Option<Rank> {
        Some(match c {
            '2' => Rank::Two,
            '3' => Rank::Three,
            '4' => Rank::Four,
            '5' => Rank::Five,
            '6' => Rank::Six,
            '7' => Rank::Seven,
            '8' => Rank::Eight,
            '9' => Rank::Nine,
            'T' | 't' => Rank::Ten,
            'J' | 'j' => Rank::Jack,
            'Q' | 'q' => Rank::Queen,
            'K' | 'k' => Rank::King,
            'A' | 'a' => Rank::Ace,
            _ => return None,
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One card: a suited card or one of the two jokers.
///
/// The numeric index is stable and part of the dealing specification
/// (`docs/dealing.md`): suited cards are `suit * 13 + rank` (so `2C` = 0,
/// `AC` = 12, `2D` = 13, ..., `AS` = 51), the little joker is 52 and the big
/// joker 53. A deck's canonical order is ascending index.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The little (low, small) joker, `LJ`.
    pub const LITTLE_JOKER: Card = Card(52);
    /// The big (high, large) joker, `BJ`.
    pub const BIG_JOKER: Card = Card(53);
    /// Number of distinct cards (52 suited + 2 jokers).
    pub const COUNT: usize = 54;

    /// The suited card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank as u8)
    }

    /// The card with this index (see the type's documentation), if any.
    pub const fn from_index(i: usize) -> Option<Card> {
        if i < Card::COUNT {
            Some(Card(i as u8))
        } else {
            None
        }
    }

    /// The card of bit `i` of a [`CardSet`](crate::CardSet), whose bits
    /// are all below 54 (`CardSet::from_bits` drops the others).
    #[inline]
    pub(crate) const fn from_set_bit(i: u32) -> Card {
        debug_assert!((i as usize) < Card::COUNT);
        Card(i as u8)
    }

    /// The card's stable index, 0..54.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is one of the two jokers.
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The printed suit; `None` for a joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index((self.0 / 13) as usize))
        }
    }

    /// The printed rank; `None` for a joker.
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Some(Rank::from_index((self.0 % 13) as usize))
        }
    }

    /// The card's canonical text (`AS`, `TC`, `BJ`), without formatting:
    /// every card's text is two ASCII characters, kept in a table.
    pub fn text(self) -> &'static str {
        // A slice of the table's text: no UTF-8 check at each call (cards
        // are most of what a log, a request and a viewer page write).
        let i = 2 * self.0 as usize;
        &CARD_TEXTS[i..i + 2]
    }

    const fn text_bytes(self) -> [u8; 2] {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => [r.char() as u8, s.char() as u8],
            _ if self.0 == Card::BIG_JOKER.0 => *b"BJ",
            _ => *b"LJ",
        }
    }
}

/// Every card's text, by index ([`Card::text`]).
const CARD_TEXT: [[u8; 2]; Card::COUNT] = {
    let mut t = [[0u8; 2]; Card::COUNT];
    let mut i = 0;
    while i < Card::COUNT {
        t[i] = Card(i as u8).text_bytes();
        i += 1;
    }
    t
};

/// Every card's text, by index, two characters each ([`Card::text`]): the
/// table above as text, checked against it when compiled.
const CARD_TEXTS: &str = "2C3C4C5C6C7C8C9CTCJCQCKCAC2D3D4D5D6D7D8D9DTDJDQDKDAD2H3H4H5H6H7H8H9HTHJHQHKHAH2S3S4S5S6S7S8S9STSJSQSKSASLJBJ";

const _: () = {
    let b = CARD_TEXTS.as_bytes();
    assert!(b.len() == 2 * Card::COUNT);
    let mut i = 0;
    while i < Card::COUNT {
        assert!(b[2 * i] == CARD_TEXT[i][0] && b[2 * i + 1] == CARD_TEXT[i][1]);
        i += 1;
    }
};

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for text that does not name a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseCardError(pub String);

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a card (expected rank then suit like `AS`, `TC`, or `BJ`/`LJ`)",
            self.0
        )
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Parses `AS`, `tc`, `BJ`, `LJ` (case-insensitive; `10` is accepted for ten).
    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        // Without allocating: logs, requests and answers carry many cards.
        let err = || ParseCardError(s.to_string());
        let up = |b: u8| b.to_ascii_uppercase() as char;
        let (rank, suit) = match s.as_bytes() {
            [r, x] => match (up(*r), up(*x)) {
                ('B', 'J') => return Ok(Card::BIG_JOKER),
                ('L', 'J') => return Ok(Card::LITTLE_JOKER),
                (r, x) => (Rank::from_char(r).ok_or_else(err)?, x),
            },
            [b'1', b'0', x] => (Rank::Ten, up(*x)),
            _ => return Err(err()),
        };
        let suit = Suit::from_char(suit).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        d.deserialize_str(FromText::<Card>::new("a card such as `AS` or `10H`"))
    }
}

/// Reads a value from its text without copying the text into a `String`
/// first (serde's `Cow<str>` always owns): cards and actions are most of
/// a replay log, and reading one must not allocate.
#[cfg(feature = "serde")]
pub(crate) struct FromText<T> {
    expecting: &'static str,
    marker: std::marker::PhantomData<T>,
}

#[cfg(feature = "serde")]
impl<T> FromText<T> {
    pub(crate) fn new(expecting: &'static str) -> FromText<T> {
        FromText {
            expecting,
            marker: std::marker::PhantomData,
        }
    }
}

#[cfg(feature = "serde")]
impl<T> serde::de::Visitor<'_> for FromText<T>
where
    T: std::str::FromStr,
    T::Err: fmt::Display,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Suit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_for_every_card() {
        for i in 0..Card::COUNT {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!(
            "10h".parse::<Card>().unwrap(),
            Card::new(Rank::Ten, Suit::Hearts)
        );
        assert!("1H".parse::<Card>().is_err());
        assert!("AX".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
    }

    #[test]
    fn indices_follow_the_documented_layout() {
        assert_eq!(Card::new(Rank::Two, Suit::Clubs).index(), 0);
        assert_eq!(Card::new(Rank::Ace, Suit::Clubs).index(), 12);
        assert_eq!(Card::new(Rank::Two, Suit::Diamonds).index(), 13);
        assert_eq!(Card::new(Rank::Ace, Suit::Spades).index(), 51);
        assert_eq!(Card::LITTLE_JOKER.index(), 52);
        assert_eq!(Card::BIG_JOKER.index(), 53);
        assert_eq!(Card::BIG_JOKER.suit(), None);
    }
}
