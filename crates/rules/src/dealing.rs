//! Seeded dealing: seeds, their derivation, and the shuffle.
//!
//! The specification, written so that another language can re-implement it,
//! is `docs/dealing.md`; `docs/dealing.py` is a dependency-free reference in
//! Python that the test suite checks against this module. In short:
//!
//! * A [`Seed`] is 32 bytes. [`Seed::from_u64`] puts the number's 8
//!   little-endian bytes first and zeros after.
//! * [`Seed::derive`]`(domain, index)` is the first 32 bytes of the ChaCha20
//!   keystream (Bernstein's original layout: 64-bit block counter from 0,
//!   64-bit stream id) keyed by the parent seed, with stream id
//!   `domain << 56 | index`. A tournament seed derives one seed per match
//!   ([`Domain::Match`]); a match seed derives one seed per deal
//!   ([`Domain::Deal`]) and per fallback decision ([`Domain::Fallback`]); a
//!   league's secret derives one tournament seed per round ([`Domain::Round`]).
//! * A [`WrittenSeed`] is a seed as files and command lines write it: a
//!   number (the seed [`Seed::from_u64`] makes of it) or 64 hex digits.
//! * A deal's deck order: the game's deck in ascending card index, shuffled by
//!   Fisher–Yates from the last position down, each swap partner drawn by
//!   [`Shuffler::below`] (rejection sampling on raw 32-bit words of the ChaCha20
//!   keystream keyed by the deal seed, stream 0). Position 0 is the top card.
//!
//! Nothing here depends on `rand`'s distributions or shuffles, whose values may
//! change between versions; only the raw ChaCha20 keystream is used, and golden
//! vectors in the tests pin the result.

use std::fmt;

use arrayvec::ArrayVec;
use rand_chacha::{
    ChaCha20Rng,
    rand_core::{Rng, SeedableRng},
};

use crate::{
    card::Card,
    card_set::CardSet,
    error::DealError,
    game::{Game, Status},
};

/// What a derived seed is for; part of the derivation (`docs/dealing.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Domain {
    /// Tournament seed → the seed of match `index`.
    Match = 1,
    /// Match seed → the seed of deal `index`.
    Deal = 2,
    /// Match seed → the seed of the `index`-th fallback decision.
    Fallback = 3,
    /// Match seed → a seed for the built-in random bot in seat `index`.
    Bot = 4,
    /// League secret → the tournament seed of round `index`.
    Round = 5,
}

/// A 32-byte seed (a ChaCha20 key).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// The seed for a number: its 8 little-endian bytes, then 24 zero bytes.
    pub fn from_u64(n: u64) -> Seed {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&n.to_le_bytes());
        Seed(b)
    }

    /// A child seed: the first 32 keystream bytes of ChaCha20 keyed by `self`
    /// with stream id `domain << 56 | index`.
    ///
    /// # Panics
    /// If `index >= 2^56`.
    pub fn derive(self, domain: Domain, index: u64) -> Seed {
        assert!(index < 1 << 56, "seed index out of range");
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(((domain as u64) << 56) | index);
        let mut out = [0u8; 32];
        rng.fill_bytes(&mut out);
        Seed(out)
    }

    /// The seed as 64 lowercase hex digits.
    pub fn to_hex(self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Parses 64 hex digits.
    ///
    /// # Errors
    /// If `s` is not exactly 64 hex digits.
    pub fn from_hex(s: &str) -> Result<Seed, String> {
        let s = s.trim();
        if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("`{s}` is not a seed (64 hex digits)"));
        }
        let mut b = [0u8; 32];
        for (i, chunk) in s.as_bytes().chunks(2).enumerate() {
            let pair = std::str::from_utf8(chunk).map_err(|e| e.to_string())?;
            b[i] = u8::from_str_radix(pair, 16).map_err(|e| e.to_string())?;
        }
        Ok(Seed(b))
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// A seed as a tournament file, a league file or a command line writes it,
/// and as `results.json` reveals it: a number or 64 hex digits
/// (`docs/dealing.md`, section 2).
///
/// Text that is exactly 64 hex digits is the seed in full; otherwise it must
/// be a decimal number below 2^64, whose seed is [`Seed::from_u64`] of it.
/// A number is written back as a number (a JSON number in `results.json`),
/// so files and results written before full seeds existed read and deal
/// exactly as before.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum WrittenSeed {
    /// A number: the seed is [`Seed::from_u64`] of it.
    Number(u64),
    /// The 32 bytes in full.
    Full(Seed),
}

impl WrittenSeed {
    /// The seed itself.
    pub fn seed(self) -> Seed {
        match self {
            WrittenSeed::Number(n) => Seed::from_u64(n),
            WrittenSeed::Full(s) => s,
        }
    }

    /// Whether the seed is one of the 2^64 seeds of a number (its last 24
    /// bytes are zero, however it is written): few enough to be searched. A
    /// person's choice (a year, a date, a small number) is found in seconds
    /// by dealing seed after seed against one hand a bot was dealt; and even
    /// a random number below 2^64 is within reach of a patient attacker with
    /// many machines. A seed drawn in full (256 bits) is not.
    pub fn searchable(self) -> bool {
        self.seed().0[8..].iter().all(|&b| b == 0)
    }

    /// Reads a written seed: 64 hex digits, or a decimal number below 2^64.
    ///
    /// # Errors
    /// Anything else, with what a seed may be.
    pub fn parse(text: &str) -> Result<WrittenSeed, String> {
        let t = text.trim();
        if t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Seed::from_hex(t).map(WrittenSeed::Full);
        }
        if !t.is_empty() && t.len() <= 20 && t.bytes().all(|b| b.is_ascii_digit()) {
            if let Ok(n) = t.parse::<u64>() {
                return Ok(WrittenSeed::Number(n));
            }
        }
        let shown: String = t.chars().take(80).collect();
        Err(format!(
            "`{shown}` is not a seed: 64 hex digits, or a number below 2^64"
        ))
    }
}

impl From<Seed> for WrittenSeed {
    fn from(s: Seed) -> WrittenSeed {
        WrittenSeed::Full(s)
    }
}

impl std::str::FromStr for WrittenSeed {
    type Err = String;
    fn from_str(s: &str) -> Result<WrittenSeed, String> {
        WrittenSeed::parse(s)
    }
}

impl fmt::Debug for WrittenSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WrittenSeed({self})")
    }
}

impl fmt::Display for WrittenSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WrittenSeed::Number(n) => write!(f, "{n}"),
            WrittenSeed::Full(s) => write!(f, "{s}"),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for WrittenSeed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            WrittenSeed::Number(n) => s.serialize_u64(*n),
            WrittenSeed::Full(seed) => seed.serialize(s),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for WrittenSeed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<WrittenSeed, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = WrittenSeed;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a seed: 64 hex digits (a string), or a number below 2^64")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<WrittenSeed, E> {
                Ok(WrittenSeed::Number(n))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<WrittenSeed, E> {
                u64::try_from(n)
                    .map(WrittenSeed::Number)
                    .map_err(|_| E::custom("a seed is not negative"))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<WrittenSeed, E> {
                WrittenSeed::parse(s).map_err(E::custom)
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Seed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seed, D::Error> {
        let s = String::deserialize(d)?;
        Seed::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

/// Unbiased draws from the raw ChaCha20 keystream of a seed (stream 0).
#[derive(Clone, Debug)]
pub struct Shuffler {
    rng: ChaCha20Rng,
}

impl Shuffler {
    /// A shuffler keyed by `seed`.
    pub fn new(seed: Seed) -> Shuffler {
        Shuffler {
            rng: ChaCha20Rng::from_seed(seed.0),
        }
    }

    /// The next raw keystream word (4 bytes, little-endian).
    #[inline]
    pub fn next_word(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// A uniform number in `0..n` by rejection: draw words until one is below
    /// `2^32 - (2^32 mod n)`, then take it mod `n`.
    ///
    /// # Panics
    /// If `n == 0`.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "empty range");
        // The same numbers as `w % n` below `2^32 - 2^32 mod n`, without a
        // division a draw (a division costs more than the draw itself); for
        // the deck sizes a shuffle meets, the constants come from a table.
        let (limit, m) = match BELOW.get(n as usize) {
            Some(&entry) => entry,
            None => below_entry(n),
        };
        loop {
            let w = self.next_word();
            if u64::from(w) < limit {
                return fast_mod(w, m, n);
            }
        }
    }

    /// Fisher–Yates from the last position down: for `i = len-1 ..= 1`, swap
    /// position `i` with position `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// For each `n` in `1..=64`: the rejection limit `2^32 - 2^32 mod n` and
/// the multiplier `floor((2^64 - 1) / n) + 1` of [`fast_mod`] (entry 0 is
/// never used).
const BELOW: [(u64, u64); 65] = {
    let mut t = [(0u64, 0u64); 65];
    let mut n = 1;
    while n <= 64 {
        t[n] = below_entry(n as u32);
        n += 1;
    }
    t
};

/// For `n > 0`: the rejection limit `2^32 - 2^32 mod n` and the multiplier
/// `floor((2^64 - 1) / n) + 1` of [`fast_mod`].
const fn below_entry(n: u32) -> (u64, u64) {
    let n = n as u64;
    (
        (1u64 << 32) - ((1u64 << 32) % n),
        (u64::MAX / n).wrapping_add(1),
    )
}

/// `w % n` for 32-bit `w` and `n` without a division (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019): exact for every
/// 32-bit `w` and `n > 0` with `m = floor((2^64 - 1) / n) + 1`.
#[inline]
fn fast_mod(w: u32, m: u64, n: u32) -> u32 {
    let low = m.wrapping_mul(u64::from(w));
    ((u128::from(low) * u128::from(n)) >> 64) as u32
}

/// A deck order on the stack (top card first).
pub type DeckOrder = ArrayVec<Card, { Card::COUNT }>;

/// The deck order for `deck` under `seed`: ascending card index, then shuffled.
pub fn deck_order(seed: Seed, deck: CardSet) -> DeckOrder {
    let mut order: DeckOrder = deck.iter().collect();
    Shuffler::new(seed).shuffle(&mut order);
    order
}

/// The seed of deal `deal` of the match with `match_seed`.
pub fn deal_seed(match_seed: Seed, deal: u32) -> Seed {
    match_seed.derive(Domain::Deal, deal as u64)
}

/// If `game` waits for a deal, deals it from the match seed (deal index
/// [`Game::deals`]); returns whether it dealt.
///
/// # Errors
/// Never for a correct game; a [`DealError`] would mean its deck is inconsistent.
pub fn deal_if_needed<G: Game>(game: &mut G, match_seed: Seed) -> Result<bool, DealError> {
    if game.status() != Status::Deal {
        return Ok(false);
    }
    let order = deck_order(deal_seed(match_seed, game.deals()), game.deck());
    game.deal(&order)?;
    Ok(true)
}

/// The deck order that deals `hands[s]` to seat `s` and puts `rest` (in deck
/// order) in every other position (stock, kitty, turn-up, dummy), for the
/// next deal of `game`. This is how a hand typed in by a person (its hands,
/// not a deck order) becomes a deal.
///
/// The positions are found by dealing the deck in its canonical order to a
/// copy of the game and seeing where each card lands; within a hand, cards are
/// placed in ascending order (the order of a hand does not matter to play).
///
/// # Errors
/// [`DealError`] if no deal is expected, a hand has the wrong number of
/// cards, or the cards are not exactly the game's deck.
pub fn deck_from_hands<G: Game>(
    game: &G,
    hands: &[CardSet],
    rest: &[Card],
) -> Result<Vec<Card>, DealError> {
    if game.status() != Status::Deal {
        return Err(DealError::NotExpected);
    }
    let canonical: Vec<Card> = game.deck().iter().collect();
    let mut probe = game.clone();
    probe.deal(&canonical)?;
    let mut order: Vec<Option<Card>> = vec![None; canonical.len()];
    for (s, hand) in hands.iter().enumerate() {
        let dealt = probe.observe(crate::Seat::new(s)).hand;
        if dealt.len() != hand.len() {
            return Err(DealError::WrongCards {
                expected: dealt.len(),
                got: hand.len(),
            });
        }
        let positions = canonical
            .iter()
            .enumerate()
            .filter(|(_, c)| dealt.contains(**c))
            .map(|(i, _)| i);
        for (i, c) in positions.zip(hand.iter()) {
            order[i] = Some(c);
        }
    }
    let open: Vec<usize> = (0..order.len()).filter(|&i| order[i].is_none()).collect();
    if open.len() != rest.len() {
        return Err(DealError::WrongCards {
            expected: open.len(),
            got: rest.len(),
        });
    }
    for (i, &c) in open.into_iter().zip(rest) {
        order[i] = Some(c);
    }
    let order: Vec<Card> = order.into_iter().map(|c| c.expect("filled")).collect();
    // The same checks as a real deal: exactly the game's deck.
    game.clone().deal(&order)?;
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card_set::decks;

    #[test]
    fn the_draw_gives_the_same_numbers_as_the_divisions() {
        // Every n of the table, against edge words and a spread of others.
        let mut words: Vec<u32> = vec![0, 1, 2, 63, 64, 65, u32::MAX, u32::MAX - 1, 1 << 31];
        let mut x = 0x9E37_79B9u32;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            words.push(x);
        }
        // The table's n, and some beyond it (computed per call).
        for n in (1..=64u32).chain([65, 100, 1000, 1 << 20, u32::MAX - 1, u32::MAX]) {
            let (limit, m) = BELOW.get(n as usize).copied().unwrap_or(below_entry(n));
            assert_eq!(limit, (1u64 << 32) - ((1u64 << 32) % u64::from(n)));
            for &w in &words {
                assert_eq!(fast_mod(w, m, n), w % n, "{w} mod {n}");
            }
            for w in [(limit - 1) as u32, (limit - u64::from(n)) as u32] {
                assert_eq!(fast_mod(w, m, n), w % n, "{w} mod {n}");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut s = Shuffler::new(Seed::from_u64(7));
        let mut seen = [false; 13];
        for _ in 0..1000 {
            let x = s.below(13) as usize;
            seen[x] = true;
        }
        assert!(seen.iter().all(|&b| b));
    }

    #[test]
    fn a_shuffle_is_a_permutation() {
        let order = deck_order(Seed::from_u64(1), decks::WITH_TWO_JOKERS);
        assert_eq!(order.len(), 54);
        assert_eq!(
            order.iter().copied().collect::<CardSet>(),
            decks::WITH_TWO_JOKERS
        );
    }

    #[test]
    fn hands_become_the_deck_order_that_deals_them() {
        use crate::{Options, Seat, Variant};
        for variant in Variant::ALL {
            let mut g = variant.new_game(&Options::new()).unwrap();
            let order = deck_order(Seed::from_u64(4), g.deck());
            let mut dealt = g.clone();
            dealt.deal(&order).unwrap();
            let hands: Vec<CardSet> = (0..g.seats())
                .map(|s| dealt.observe(Seat::new(s)).hand)
                .collect();
            let in_hands = hands.iter().fold(CardSet::EMPTY, |a, h| a.or(*h));
            let rest: Vec<Card> = order
                .iter()
                .copied()
                .filter(|c| !in_hands.contains(*c))
                .collect();
            let rebuilt = deck_from_hands(&g, &hands, &rest).unwrap();
            g.deal(&rebuilt).unwrap();
            for (s, hand) in hands.iter().enumerate() {
                assert_eq!(g.observe(Seat::new(s)).hand, *hand, "{variant}");
            }
            assert_eq!(
                format!("{:?}", g.observe(Seat::new(0)).table),
                format!("{:?}", dealt.observe(Seat::new(0)).table),
                "{variant}: the rest lands where it did"
            );
        }
    }

    #[test]
    fn written_seeds_read_both_forms() {
        let n = WrittenSeed::parse("2026").unwrap();
        assert_eq!(n, WrittenSeed::Number(2026));
        assert_eq!(n.seed(), Seed::from_u64(2026));
        assert_eq!(n.to_string(), "2026");
        assert!(n.searchable());
        let full = Seed::from_u64(1).derive(Domain::Round, 1);
        let f = WrittenSeed::parse(&full.to_hex()).unwrap();
        assert_eq!(f, WrittenSeed::Full(full));
        assert_eq!(f.to_string(), full.to_hex());
        assert!(!f.searchable());
        // The seed of a number written in full is as searchable as the number.
        let small = WrittenSeed::parse(&Seed::from_u64(7).to_hex()).unwrap();
        assert!(small.searchable());
        assert_eq!(
            WrittenSeed::parse("18446744073709551615").unwrap(),
            WrittenSeed::Number(u64::MAX)
        );
        for bad in [
            "",
            "-1",
            "18446744073709551616",
            "0x10",
            "12ab",
            &"f".repeat(63),
        ] {
            assert!(WrittenSeed::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hex_round_trips() {
        let s = Seed::from_u64(42).derive(Domain::Match, 3);
        assert_eq!(Seed::from_hex(&s.to_hex()).unwrap(), s);
        assert!(Seed::from_hex("xyz").is_err());
    }
}
