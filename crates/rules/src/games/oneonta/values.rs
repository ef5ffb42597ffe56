//! Oneonta Whist's rules as plain functions: a bid's score (O6–O9), whether
//! it was made, its value in tricks, and the order of the cards (O3).

use super::*;

/// O6–O9: the score of `bid` with `took` tricks under `scoring`.
///
/// # Panics
/// If `bid` is not a bid of this game.
pub fn score(scoring: Scoring, bid: Action, took: u8) -> i32 {
    let t = i32::from(took);
    match bid {
        Action::Bid(b) => {
            let b = i32::from(b);
            if t == b {
                b
            } else if t < b {
                -b
            } else if scoring == Scoring::Alternative {
                0
            } else {
                b - (t - b)
            }
        }
        Action::Null(r) => match (scoring, t) {
            (Scoring::EddAllard, 0) => 10,
            (Scoring::EddAllard, _) => -(10 + t),
            (_, 0) => i32::from(r),
            _ => -i32::from(r),
        },
        // O7: a positive double is made with exactly the maximum.
        Action::DoubleBid(_) | Action::DoubleNull(_) => {
            if made(bid, took) {
                DOUBLED_POINTS
            } else {
                -DOUBLED_POINTS
            }
        }
        other => panic!("{other} is not an Oneonta bid"),
    }
}

/// Whether `bid` is made with `took` tricks: exactly the tricks bid, or none
/// for a null.
pub fn made(bid: Action, took: u8) -> bool {
    match bid {
        Action::Bid(b) | Action::DoubleBid(b) => took == b,
        _ => took == 0,
    }
}

/// The tricks a bid counts for in the cooperative totals (O16, O17): a null
/// counts 0.
pub(super) fn bid_value(bid: Option<Action>) -> u8 {
    match bid {
        Some(Action::Bid(b) | Action::DoubleBid(b)) => b,
        _ => 0,
    }
}

/// O3 and the ranking: how cards follow and win once `turn_up` is turned.
///
/// A suit turned makes it trump, with BJ > LJ above its ace. A joker turned
/// means no trump suit: the other joker forms a suit of its own
/// ([`suit_id::JOKERS`]) that is trump, so it beats everything, follows
/// nothing and, when it is led, asks nothing of the other seats. The turned
/// joker itself is out of play.
pub fn trick_rules(turn_up: Card) -> TrickRules {
    match turn_up.suit() {
        Some(suit) => {
            let mut rules = TrickRules::plain(Some(suit));
            // Suited cards have powers 1 (two) to 13 (ace).
            rules.set(Card::BIG_JOKER, suit as u8, 15);
            rules.set(Card::LITTLE_JOKER, suit as u8, 14);
            rules
        }
        None => {
            let mut rules = TrickRules::plain(None);
            rules.set(other_joker(turn_up), suit_id::JOKERS, 15);
            rules.set_trump(suit_id::JOKERS);
            rules
        }
    }
}

pub(super) fn other_joker(joker: Card) -> Card {
    if joker == Card::BIG_JOKER {
        Card::LITTLE_JOKER
    } else {
        Card::BIG_JOKER
    }
}
