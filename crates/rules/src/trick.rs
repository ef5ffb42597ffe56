//! Tricks, and [`TrickRules`]: which cards follow which, and who wins.
//!
//! Every game here resolves tricks the same way once each card is given an
//! *effective suit* and a *power* within it: a trick is won by the most
//! powerful card of the trump suit, else of the suit led; on equal power the
//! card played first wins (Honeymoon's equal jokers, H6). Games differ only in
//! how they fill the tables: jokers as trumps (H2, O-ranking), the joker as a
//! copy of the turn-up (Y3), the nines as a suit (Y2), a lone joker as its own
//! trump suit (O3), jokers that follow nothing and never win (L6).

use arrayvec::ArrayVec;

use crate::{
    card::{Card, Suit},
    card_set::CardSet,
    error::IllegalReason,
    seat::Player,
};

/// The most cards one trick can hold (Yogi's Whist with 13 players).
pub const MAX_TRICK: usize = 14;

/// Effective suit ids 0..=3 are the printed suits; games may use these extra ids.
pub mod suit_id {
    /// The four nines as a suit of their own (Y2).
    pub const NINES: u8 = 4;
    /// Jokers as a suit of their own (O3's lone joker, H2 at no trump).
    pub const JOKERS: u8 = 5;
    /// A card that belongs to no suit: it follows nothing and never wins (L6).
    pub const NONE: u8 = u8::MAX;
}

/// How cards follow and beat each other during one hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrickRules {
    suit: [u8; Card::COUNT],
    power: [u8; Card::COUNT],
    masks: [CardSet; 6],
    trump: u8,
    /// Bit `s` set: within effective suit `s`, power rises with the card
    /// index (as in a printed suit), so the most powerful of a set of its
    /// cards is the highest bit ([`TrickRules::winning_index`]).
    ascending: u8,
}

/// The tables of [`TrickRules::plain`] without a trump: printed suits,
/// power = rank + 1, jokers in no suit.
const PLAIN: TrickRules = {
    let mut suit = [suit_id::NONE; Card::COUNT];
    let mut power = [0; Card::COUNT];
    let mut i = 0;
    while i < 52 {
        suit[i] = (i / 13) as u8;
        power[i] = (i % 13) as u8 + 1;
        i += 1;
    }
    TrickRules {
        suit,
        power,
        masks: [
            CardSet::suit(Suit::Clubs),
            CardSet::suit(Suit::Diamonds),
            CardSet::suit(Suit::Hearts),
            CardSet::suit(Suit::Spades),
            CardSet::EMPTY,
            CardSet::EMPTY,
        ],
        trump: suit_id::NONE,
        ascending: 0b11_1111,
    }
};

impl TrickRules {
    /// Printed suits, aces high, jokers in no suit, and `trump` (if any) as the
    /// trump suit. Games adjust single cards with [`TrickRules::set`].
    pub fn plain(trump: Option<Suit>) -> TrickRules {
        TrickRules {
            trump: trump.map_or(suit_id::NONE, |s| s as u8),
            ..PLAIN
        }
    }

    /// Gives `card` an effective suit and a power within it (higher wins).
    pub fn set(&mut self, card: Card, suit: u8, power: u8) {
        let old = self.suit[card.index()];
        if (old as usize) < self.masks.len() {
            self.masks[old as usize].remove(card);
        }
        self.suit[card.index()] = suit;
        self.power[card.index()] = power;
        if (suit as usize) < self.masks.len() {
            self.masks[suit as usize].insert(card);
        }
        for s in [old, suit] {
            if (s as usize) < self.masks.len() {
                self.recheck_ascending(s);
            }
        }
    }

    /// Whether power rises strictly with the card index in effective suit
    /// `s` (kept in `ascending`).
    fn recheck_ascending(&mut self, s: u8) {
        let mut last = None;
        let mut ascending = true;
        for c in self.masks[s as usize] {
            let p = self.power[c.index()];
            if last.is_some_and(|l| p <= l) {
                ascending = false;
                break;
            }
            last = Some(p);
        }
        if ascending {
            self.ascending |= 1 << s;
        } else {
            self.ascending &= !(1 << s);
        }
    }

    /// Makes `suit` (an effective suit id, or [`suit_id::NONE`]) the trump suit.
    pub fn set_trump(&mut self, suit: u8) {
        self.trump = suit;
    }

    /// The trump suit id, or [`suit_id::NONE`].
    pub fn trump(&self) -> u8 {
        self.trump
    }

    /// The effective suit of `card`.
    #[inline]
    pub fn suit_of(&self, card: Card) -> u8 {
        self.suit[card.index()]
    }

    /// The power of `card` within its effective suit.
    #[inline]
    pub fn power_of(&self, card: Card) -> u8 {
        self.power[card.index()]
    }

    /// All cards of an effective suit (empty for [`suit_id::NONE`]).
    #[inline]
    pub fn suit_mask(&self, suit: u8) -> CardSet {
        self.masks
            .get(suit as usize)
            .copied()
            .unwrap_or(CardSet::EMPTY)
    }

    /// The suit led to `trick`: that of its first card that has a suit
    /// ([`suit_id::NONE`] while the trick is empty or holds only suitless cards).
    pub fn led_suit(&self, trick: &Trick) -> u8 {
        trick
            .cards()
            .iter()
            .map(|&(_, c)| self.suit_of(c))
            .find(|&s| s != suit_id::NONE)
            .unwrap_or(suit_id::NONE)
    }

    /// The cards of `hand` that may be played to `trick` under "follow suit if
    /// able": all of them when the trick is empty or no suit has been led.
    #[inline]
    pub fn follow(&self, hand: CardSet, trick: &Trick) -> CardSet {
        let led = self.led_suit(trick);
        let same = hand.and(self.suit_mask(led));
        if same.is_empty() { hand } else { same }
    }

    /// Whether `card` may be played from `hand` to `trick` under "follow suit
    /// if able": [`IllegalReason::NotInHand`], or the suit it fails to follow.
    #[inline]
    pub fn check_play(
        &self,
        hand: CardSet,
        trick: &Trick,
        card: Card,
    ) -> Result<(), IllegalReason> {
        if !hand.contains(card) {
            Err(IllegalReason::NotInHand(card))
        } else if self.follow(hand, trick).contains(card) {
            Ok(())
        } else {
            Err(self.follow_reason(trick))
        }
    }

    /// Why a card outside [`TrickRules::follow`] is refused: the effective suit
    /// led to `trick`, a printed suit or the nines (Y2) or jokers (H2, O3) as
    /// suits of their own.
    #[cold]
    pub fn follow_reason(&self, trick: &Trick) -> IllegalReason {
        match self.led_suit(trick) {
            led if (led as usize) < Suit::ALL.len() => {
                IllegalReason::MustFollow(Suit::from_index(led as usize))
            }
            suit_id::NINES => IllegalReason::MustFollowSpecial("nines"),
            suit_id::JOKERS => IllegalReason::MustFollowSpecial("jokers"),
            _ => IllegalReason::MustFollowSpecial("the suit led"),
        }
    }

    fn key(&self, card: Card, led: u8) -> u16 {
        let suit = self.suit_of(card);
        let power = self.power_of(card) as u16;
        if suit == suit_id::NONE {
            0
        } else if suit == self.trump {
            512 + power
        } else if suit == led {
            256 + power
        } else {
            0
        }
    }

    /// The position in `trick` of the winning card: the most powerful trump,
    /// else the most powerful card of the suit led; the earlier card wins ties.
    ///
    /// On bit sets: the trick's trumps (else its cards of the suit led) as
    /// a set; where power rises with the card index in that suit, the
    /// winner is the set's highest card. Otherwise (jokers or nines ranked
    /// apart, equal jokers) by comparing powers card by card.
    ///
    /// # Panics
    /// If the trick is empty.
    pub fn winning_index(&self, trick: &Trick) -> usize {
        assert!(!trick.is_empty(), "an empty trick has no winner");
        let led = self.led_suit(trick);
        let played = trick.card_set();
        for s in [self.trump, led] {
            let Some(&mask) = self.masks.get(s as usize) else {
                continue;
            };
            let Some(best) = played.and(mask).last() else {
                continue;
            };
            if self.ascending & (1 << s) == 0 {
                break;
            }
            return trick
                .cards()
                .iter()
                .position(|&(_, c)| c == best)
                .unwrap_or(0);
        }
        self.winning_index_by_power(trick, led)
    }

    /// [`TrickRules::winning_index`] card by card: the highest key, the
    /// earlier card on ties.
    fn winning_index_by_power(&self, trick: &Trick, led: u8) -> usize {
        let mut best = 0;
        let mut best_key = self.key(trick.cards()[0].1, led);
        for (i, &(_, c)) in trick.cards().iter().enumerate().skip(1) {
            let k = self.key(c, led);
            if k > best_key {
                best = i;
                best_key = k;
            }
        }
        best
    }

    /// Who wins `trick` (see [`TrickRules::winning_index`]).
    #[inline]
    pub fn winner(&self, trick: &Trick) -> Player {
        trick.cards()[self.winning_index(trick)].0
    }
}

/// One trick: who led and the cards played to it, in order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Trick {
    cards: ArrayVec<(Player, Card), MAX_TRICK>,
}

impl Trick {
    /// An empty trick.
    pub fn new() -> Trick {
        Trick::default()
    }

    /// The cards played so far, in order, with who played them.
    pub fn cards(&self) -> &[(Player, Card)] {
        &self.cards
    }

    /// Who led, if anyone has played yet.
    pub fn leader(&self) -> Option<Player> {
        self.cards.first().map(|&(p, _)| p)
    }

    /// The first card played, if any.
    pub fn led_card(&self) -> Option<Card> {
        self.cards.first().map(|&(_, c)| c)
    }

    /// Number of cards played.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether no card has been played yet.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Adds a card.
    ///
    /// # Panics
    /// If the trick already holds [`MAX_TRICK`] cards.
    pub fn push(&mut self, player: Player, card: Card) {
        self.cards.push((player, card));
    }

    /// Empties the trick for reuse.
    pub fn clear(&mut self) {
        self.cards.clear();
    }

    /// The cards as a set.
    #[inline]
    pub fn card_set(&self) -> CardSet {
        self.cards.iter().map(|&(_, c)| c).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::Seat;

    fn trick(cards: &str) -> Trick {
        let mut t = Trick::new();
        for (i, c) in cards.split_whitespace().enumerate() {
            t.push(Player::Seat(Seat::new(i)), c.parse().unwrap());
        }
        t
    }

    #[test]
    fn highest_of_suit_led_wins_without_trumps() {
        let rules = TrickRules::plain(None);
        assert_eq!(rules.winning_index(&trick("5H AS KH 2H")), 2);
    }

    #[test]
    fn lowest_trump_beats_ace_led() {
        let rules = TrickRules::plain(Some(Suit::Clubs));
        assert_eq!(rules.winning_index(&trick("AH 2C KH 3C")), 3);
    }

    #[test]
    fn check_play_names_the_effective_suit_to_follow() {
        let card = |t: &str| t.parse::<Card>().unwrap();
        let mut rules = TrickRules::plain(Some(Suit::Clubs));
        let hand: CardSet = "2H 9H 9S AC BJ".parse().unwrap();
        assert_eq!(rules.check_play(hand, &trick("5H"), card("2H")), Ok(()));
        assert_eq!(
            rules.check_play(hand, &trick("5H"), card("3H")),
            Err(IllegalReason::NotInHand(card("3H")))
        );
        assert_eq!(
            rules.check_play(hand, &trick("5H"), card("AC")),
            Err(IllegalReason::MustFollow(Suit::Hearts))
        );
        // Y2: the nines as a suit of their own; a nine led asks for nines.
        for nine in ["9D", "9S", "9H", "9C"] {
            rules.set(card(nine), suit_id::NINES, 1);
        }
        assert_eq!(
            rules.check_play(hand, &trick("9D"), card("2H")),
            Err(IllegalReason::MustFollowSpecial("nines"))
        );
        assert_eq!(rules.check_play(hand, &trick("9D"), card("9H")), Ok(()));
        // O3: the jokers as a suit of their own.
        rules.set(Card::BIG_JOKER, suit_id::JOKERS, 2);
        rules.set(Card::LITTLE_JOKER, suit_id::JOKERS, 1);
        assert_eq!(
            rules.check_play(hand, &trick("LJ"), card("AC")),
            Err(IllegalReason::MustFollowSpecial("jokers"))
        );
    }

    #[test]
    fn follow_restricts_to_the_suit_led() {
        let rules = TrickRules::plain(Some(Suit::Clubs));
        let hand: CardSet = "2H 9H AC".parse().unwrap();
        assert_eq!(rules.follow(hand, &trick("5H")).to_string(), "2H 9H");
        assert_eq!(rules.follow(hand, &trick("5S")), hand);
        assert_eq!(rules.follow(hand, &Trick::new()), hand);
    }

    #[test]
    fn equal_power_goes_to_the_earlier_card() {
        let mut rules = TrickRules::plain(Some(Suit::Spades));
        rules.set(Card::BIG_JOKER, Suit::Spades as u8, 20);
        rules.set(Card::LITTLE_JOKER, Suit::Spades as u8, 20);
        assert_eq!(rules.winning_index(&trick("LJ BJ")), 0);
        assert_eq!(rules.winning_index(&trick("BJ LJ")), 0);
    }

    /// The rules the games build (Y2 nines, Y3 a joker copy, O3 and H2
    /// joker suits, H6 equal jokers, L6 suitless jokers, jokers as top
    /// trumps): the bit-set winner is the card-by-card one, for random
    /// tricks of 2 to 6 cards.
    #[test]
    fn the_bit_set_winner_is_the_most_powerful_card() {
        use crate::card::Rank;
        let card = |t: &str| t.parse::<Card>().unwrap();
        let plain = TrickRules::plain(Some(Suit::Hearts));
        let mut nines = TrickRules::plain(None);
        for (i, nine) in ["9D", "9S", "9H", "9C"].into_iter().enumerate() {
            nines.set(card(nine), suit_id::NINES, i as u8 + 1);
        }
        nines.set_trump(suit_id::NINES);
        let mut copy = TrickRules::plain(Some(Suit::Spades));
        copy.set(Card::BIG_JOKER, Suit::Spades as u8, Rank::Queen as u8 + 1);
        let mut top = TrickRules::plain(Some(Suit::Diamonds));
        top.set(Card::LITTLE_JOKER, Suit::Diamonds as u8, 14);
        top.set(Card::BIG_JOKER, Suit::Diamonds as u8, 15);
        let mut equal = top.clone();
        equal.set(Card::LITTLE_JOKER, Suit::Diamonds as u8, 15);
        let mut own = TrickRules::plain(None);
        own.set(Card::BIG_JOKER, suit_id::JOKERS, 2);
        own.set(Card::LITTLE_JOKER, suit_id::JOKERS, 1);
        own.set_trump(suit_id::JOKERS);
        assert_eq!(plain.ascending, 0b11_1111);
        assert_eq!(nines.ascending & (1 << suit_id::NINES), 0);
        // BJ > LJ > A as the top trumps still rise with the index.
        assert_ne!(top.ascending & (1 << Suit::Diamonds as u8), 0);
        assert_eq!(equal.ascending & (1 << Suit::Diamonds as u8), 0);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for rules in [plain, nines, copy, top, equal, own] {
            for _ in 0..2000 {
                let mut deck: Vec<Card> = (0..Card::COUNT).filter_map(Card::from_index).collect();
                let mut t = Trick::new();
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                for i in 0..(2 + state % 5) as usize {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let c = deck.swap_remove((state % deck.len() as u64) as usize);
                    t.push(Player::Seat(Seat::new(i)), c);
                }
                let led = rules.led_suit(&t);
                assert_eq!(
                    rules.winning_index(&t),
                    rules.winning_index_by_power(&t, led),
                    "{t:?}"
                );
            }
        }
    }

    #[test]
    fn suitless_cards_never_win_and_do_not_set_the_suit() {
        let rules = TrickRules::plain(None);
        let t = trick("BJ 4D 9D");
        assert_eq!(rules.led_suit(&t), Suit::Diamonds as u8);
        assert_eq!(rules.winning_index(&t), 2);
    }
}
