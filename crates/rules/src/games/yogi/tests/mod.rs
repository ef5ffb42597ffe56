//! Scenario tests of yogi, named by the decision ids of docs/rules.

use super::*;
use crate::Observation;
use crate::dealing::{Seed, deal_if_needed};
use crate::games::testing::{trick_winner, legal_texts as legal, act, card, cards, options_round_trip, play_random_match, seat};

fn game(options: &[&str]) -> Yogi {
    Yogi::new(&Options::parse(options).unwrap()).unwrap()
}

/// A deck order that deals `hands[s]` to seat `s` (one at a time from the
/// dealer's left) when `dealer` deals, then turns up `turn_up`; the rest
/// of the deck follows in ascending order.
fn order_for(dealer: usize, hands: &[&str], turn_up: &str) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h).to_vec()).collect();
    let size = hands[0].len();
    assert!(hands.iter().all(|h| h.len() == size));
    let mut order: Vec<Card> = (0..n * size)
        .map(|i| hands[(dealer + 1 + i) % n][i / n])
        .collect();
    order.push(card(turn_up));
    let used: CardSet = order.iter().copied().collect();
    assert_eq!(used.len(), order.len(), "a card twice");
    order.extend(decks::WITH_ONE_JOKER.minus(used));
    order
}

fn playable(g: &Yogi, s: usize) -> CardSet {
    g.legal_actions(seat(s))
        .iter()
        .filter_map(|a| a.card())
        .collect()
}

fn table(o: &Observation) -> Vec<(String, Option<usize>, String)> {
    o.table
        .iter()
        .map(|t| {
            (
                t.label.to_string(),
                t.owner.map(Seat::index),
                t.card.to_string(),
            )
        })
        .collect()
}

fn bid_cards_seen(o: &Observation) -> Vec<(usize, String)> {
    o.table
        .iter()
        .filter(|t| t.label == "bid-card")
        .map(|t| (t.owner.unwrap().index(), t.card.to_string()))
        .collect()
}

fn bids_seen(o: &Observation) -> Vec<Option<u8>> {
    o.players
        .iter()
        .map(|p| match p.bid {
            Some(Action::Bid(n)) => Some(n),
            None => None,
            Some(other) => panic!("unexpected bid {other}"),
        })
        .collect()
}

/// The source's example, dealt by seat 0 with 2C turned up (clubs trump).
/// Seat 1 holds the three top spades and bids 4C (3 tricks); seat 2 holds
/// diamonds and bids 5D (0); seats 3, 4 and 0 hold hearts and diamonds and
/// bid hearts (2). Nobody else holds a spade or a club, so seat 1 wins
/// every trick it leads with a spade.
const EXAMPLE: [&str; 5] = [
    "6D 7D 8D TH",
    "AS KS QS 4C",
    "2D 3D 4D 5D",
    "2H 3H 4H 5H",
    "6H 7H 8H 9H",
];
const EXAMPLE_BIDS: [&str; 5] = ["TH", "4C", "5D", "5H", "9H"];

/// The example dealt, and every bid card placed (seat order 4, 2, 0, 3, 1:
/// the order of a simultaneous step does not matter).
fn example_bid() -> Yogi {
    let mut g = game(&[]);
    g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
    for s in [4, 2, 0, 3, 1] {
        act(&mut g, s, &format!("place {}", EXAMPLE_BIDS[s]));
    }
    assert_eq!(g.stage, Stage::Declare);
    g
}

/// Seat 1 leads its three spades; every other seat throws its lowest card.
fn seat_1_takes_three_spade_tricks(g: &mut Yogi) {
    for lead in ["AS", "KS", "QS"] {
        act(g, 1, lead);
        for s in [2, 3, 4, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
        assert_eq!(g.core.tricks.done().last().unwrap().1, Player::Seat(seat(1)));
    }
}

mod engine;
mod y12_y13;
mod y1_y4;
mod y5_y11;

#[allow(unused_imports)]
use {engine::*, y1_y4::*, y5_y11::*, y12_y13::*};
