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
    card::{Card, Rank, Suit},
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
}

impl TrickRules {
    /// Printed suits, aces high, jokers in no suit, and `trump` (if any) as the
    /// trump suit. Games adjust single cards with [`TrickRules::set`].
    pub fn plain(trump: Option<Suit>) -> TrickRules {
        let mut rules = TrickRules {
            suit: [suit_id::NONE; Card::COUNT],
            power: [0; Card::COUNT],
            masks: [CardSet::EMPTY; 6],
            trump: trump.map_or(suit_id::NONE, |s| s as u8),
        };
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                rules.set(Card::new(rank, suit), suit as u8, rank as u8 + 1);
            }
        }
        rules.set(Card::BIG_JOKER, suit_id::NONE, 0);
        rules.set(Card::LITTLE_JOKER, suit_id::NONE, 0);
        rules
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
    /// # Panics
    /// If the trick is empty.
    pub fn winning_index(&self, trick: &Trick) -> usize {
        assert!(!trick.is_empty(), "an empty trick has no winner");
        let led = self.led_suit(trick);
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

    #[test]
    fn suitless_cards_never_win_and_do_not_set_the_suit() {
        let rules = TrickRules::plain(None);
        let t = trick("BJ 4D 9D");
        assert_eq!(rules.led_suit(&t), Suit::Diamonds as u8);
        assert_eq!(rules.winning_index(&t), 2);
    }
}
