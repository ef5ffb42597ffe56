//! Seats, sets of seats, and the players of a trick (a seat or a dummy).

use std::fmt;

/// The most seats any game here uses (Yogi's Whist with 13 players, Y1).
pub const MAX_SEATS: usize = 13;

/// A seat at the table, numbered 0..n clockwise; "left of X" is X + 1 mod n.
///
/// Canonical text is the number itself (`0`, `1`, ...).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Seat(u8);

impl Seat {
    /// The seat with this number.
    ///
    /// # Panics
    /// If `i >= MAX_SEATS`.
    pub const fn new(i: usize) -> Seat {
        assert!(i < MAX_SEATS, "seat out of range");
        Seat(i as u8)
    }

    /// The seat's number.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat `k` places to the left (clockwise) at a table of `n`.
    pub const fn left(self, k: usize, n: usize) -> Seat {
        Seat(((self.0 as usize + k) % n) as u8)
    }

    /// The next seat clockwise at a table of `n`.
    pub const fn next(self, n: usize) -> Seat {
        self.left(1, n)
    }

    /// Seats `0..n`.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..n).map(Seat::new)
    }

    /// The `n` seats clockwise starting at `self`.
    pub fn clockwise_from(self, n: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..n).map(move |k| self.left(k, n))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S{}", self.0)
    }
}

/// A set of seats as a bitmask.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(u16);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Seats `0..n`.
    pub const fn all(n: usize) -> SeatSet {
        SeatSet(((1u32 << n) - 1) as u16)
    }

    /// Exactly `seat`.
    pub const fn single(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    /// The raw mask (bit i = seat i).
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether `seat` is in the set.
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    /// This set and `seat`.
    #[must_use]
    pub const fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | 1 << seat.0)
    }

    /// Adds `seat`.
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    /// Removes `seat`.
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    /// Number of seats.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether no seat is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest seat, if any.
    pub const fn first(self) -> Option<Seat> {
        if self.0 == 0 {
            None
        } else {
            Some(Seat(self.0.trailing_zeros() as u8))
        }
    }

    /// Iterates in ascending seat number.
    pub fn iter(self) -> impl Iterator<Item = Seat> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Seat(i)
            })
        })
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        for seat in iter {
            s.insert(seat);
        }
        s
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Who put a card on a trick: a seat, or a dummy hand that the rules play
/// (Oneonta's dummy, O5 and O17).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Player {
    /// A seat, played by a bot.
    Seat(Seat),
    /// The dummy hand, played by the rules.
    Dummy,
}

impl Player {
    /// The seat, if this is not the dummy.
    pub const fn seat(self) -> Option<Seat> {
        match self {
            Player::Seat(s) => Some(s),
            Player::Dummy => None,
        }
    }
}

impl From<Seat> for Player {
    fn from(s: Seat) -> Player {
        Player::Seat(s)
    }
}

impl fmt::Display for Player {
    /// A seat's number, or `dummy`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Seat(s) => write!(f, "{s}"),
            Player::Dummy => f.write_str("dummy"),
        }
    }
}

impl fmt::Debug for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Seat(s) => write!(f, "{s:?}"),
            Player::Dummy => f.write_str("Dummy"),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let i = u8::deserialize(d)?;
        if (i as usize) < MAX_SEATS {
            Ok(Seat(i))
        } else {
            Err(serde::de::Error::custom(format!("seat {i} out of range")))
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for SeatSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Player {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Player::Seat(seat) => seat.serialize(s),
            Player::Dummy => s.serialize_str("dummy"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_wraps() {
        assert_eq!(Seat::new(3).next(4), Seat::new(0));
        assert_eq!(Seat::new(1).left(6, 4), Seat::new(3));
        let order: Vec<_> = Seat::new(2).clockwise_from(4).map(Seat::index).collect();
        assert_eq!(order, [2, 3, 0, 1]);
    }

    #[test]
    fn seat_sets() {
        let mut s = SeatSet::all(4);
        assert_eq!(s.len(), 4);
        s.remove(Seat::new(1));
        assert!(!s.contains(Seat::new(1)));
        assert_eq!(s.iter().map(Seat::index).collect::<Vec<_>>(), [0, 2, 3]);
        assert_eq!(SeatSet::all(13).len(), 13);
    }
}
