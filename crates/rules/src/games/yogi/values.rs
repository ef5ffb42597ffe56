//! Yogi's Whist's rules as plain functions: what a bid card asks for (Y4),
//! the trump suit and the order of the cards (Y2, Y3), and the fines (Y9).

use super::*;

/// Y4: the tricks a printed suit asks for: D = 0, S = 1, H = 2, C = 3.
pub const fn suit_value(suit: Suit) -> u8 {
    match suit {
        Suit::Diamonds => 0,
        Suit::Spades => 1,
        Suit::Hearts => 2,
        Suit::Clubs => 3,
    }
}

/// Y3, Y4: the value of one bid card with `turn_up` face up: its printed suit
/// (a nine too, even while the nines are a suit); the joker counts as the
/// turn-up's printed suit.
///
/// # Panics
/// If `card` is the joker and so is `turn_up` (no joker is in play then).
pub fn bid_value(card: Card, turn_up: Card) -> u8 {
    let suit = card
        .suit()
        .or(turn_up.suit())
        .expect("the joker is in play only under a suited turn-up (Y3)");
    suit_value(suit)
}

/// Y4, Y12: a seat's target: the sum of the values of its bid cards.
pub fn target(bid: CardSet, turn_up: Card) -> u8 {
    bid.iter().map(|c| bid_value(c, turn_up)).sum()
}

/// Y2: whether `turn_up` makes the four nines a suit of their own (a nine or
/// the joker).
pub fn nines_are_a_suit(turn_up: Card) -> bool {
    turn_up.is_joker() || turn_up.rank() == Some(Rank::Nine)
}

/// Y2, Y3: how cards follow and beat each other under `turn_up`.
///
/// A suited turn-up other than a nine makes its suit trump, and the joker a
/// card of that suit with the turn-up's power. A nine or the joker turned up
/// makes the nines a suit of their own ([`suit_id::NINES`]), trump, in Yogi's
/// order; a nine then belongs to no printed suit, and the joker is a copy of
/// the nine turned up (with the joker turned up it is out of play).
pub fn trick_rules(turn_up: Card) -> TrickRules {
    if nines_are_a_suit(turn_up) {
        let mut rules = TrickRules::plain(None);
        rules.set_trump(suit_id::NINES);
        for (i, suit) in YOGI_ORDER.into_iter().enumerate() {
            rules.set(Card::new(Rank::Nine, suit), suit_id::NINES, i as u8 + 1);
        }
        if !turn_up.is_joker() {
            let power = rules.power_of(turn_up);
            rules.set(Card::BIG_JOKER, suit_id::NINES, power);
        }
        rules
    } else {
        let suit = turn_up.suit().expect("a suited turn-up");
        let mut rules = TrickRules::plain(Some(suit));
        let power = rules.power_of(turn_up);
        rules.set(Card::BIG_JOKER, suit as u8, power);
        rules
    }
}

/// Y9: the fines of one hand. `made[s]` says whether seat `s` won exactly its
/// target; `declarer` is a declaration still standing at the end of the hand
/// (a reveal cancels it, Y5), `revealer` the seat that revealed.
pub fn fines(made: &[bool], declarer: Option<Seat>, revealer: Option<Seat>) -> Vec<i32> {
    let m = made.iter().filter(|&&x| x).count() as i32;
    let mut out: Vec<i32> = made.iter().map(|&x| if x { 0 } else { m + 1 }).collect();
    for (caller, others, itself) in [(declarer, 2, 4), (revealer, 4, 8)] {
        let Some(c) = caller else { continue };
        if made[c.index()] {
            for (s, f) in out.iter_mut().enumerate() {
                if s != c.index() {
                    *f += others;
                }
            }
        } else {
            out[c.index()] += itself;
        }
    }
    out
}
