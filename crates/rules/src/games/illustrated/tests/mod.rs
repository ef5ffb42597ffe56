//! Scenario tests of illustrated, named by the decision ids of docs/rules.

use super::*;
use crate::games::testing::{act, card, cards, seat};
use crate::{
    dealing::{Seed, Shuffler, deal_if_needed},
    error::{ActionError, IllegalAction},
};

/// A deck order that deals `hands[s]` to seat `s` when `dealer` deals,
/// one card at a time from the dealer's left, then `kitty` in order (L1).
fn order_for(hands: [&str; 4], kitty: &str, dealer: usize) -> Vec<Card> {
    let hands = hands.map(|h| cards(h).to_vec());
    assert!(hands.iter().all(|h| h.len() == HAND), "{hands:?}");
    let mut order: Vec<Card> = (0..SEATS * HAND)
        .map(|i| hands[(dealer + 1 + i) % SEATS][i / SEATS])
        .collect();
    order.extend(kitty.split_whitespace().map(card));
    assert_eq!(order.len(), 54);
    order
}

fn game(options: &[&str]) -> Illustrated {
    Illustrated::new(&Options::parse(options).unwrap()).unwrap()
}

/// A one-hand match dealt by seat 3, so seat 0 opens the auction.
fn dealt(hands: [&str; 4], kitty: &str) -> Illustrated {
    let mut g = game(&["hands=1"]);
    g.core.dealer = seat(3);
    g.deal(&order_for(hands, kitty, 3)).unwrap();
    g
}

fn acts(g: &mut Illustrated, steps: &[(usize, &str)]) {
    for &(s, text) in steps {
        act(g, s, text);
    }
}

/// Plays each trick's cards in order, each by the seat to act.
fn play(g: &mut Illustrated, tricks: &[&str]) {
    for (i, trick) in tricks.iter().enumerate() {
        for c in trick.split_whitespace() {
            let s = g.to_act().first().expect("a seat to act");
            g.apply(s, Action::Play(card(c)))
                .unwrap_or_else(|e| panic!("trick {}: {e}", i + 1));
        }
    }
}

/// Plays the first legal action until the hand ends.
fn play_out(g: &mut Illustrated) {
    while g.status() == Status::Act {
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
}

/// Seat 0 wins the auction with `contract`; the others pass.
fn declare(g: &mut Illustrated, contract: &str) {
    acts(g, &[(0, contract), (1, "pass"), (2, "pass"), (3, "pass")]);
}

fn discard(g: &mut Illustrated, s: usize, list: &str) {
    for c in list.split_whitespace() {
        act(g, s, &format!("discard {c}"));
    }
}

fn points(g: &Illustrated) -> [i32; 2] {
    let p = &g.hand_results().last().unwrap().points;
    assert_eq!((p[0], p[1]), (p[2], p[3]), "partners share their points");
    [p[0], p[1]]
}

fn passes(g: &mut Illustrated, seats: &[usize]) {
    for &s in seats {
        act(g, s, "pass");
    }
}

// ----- deals -----

/// A: one suit a seat; the kitty holds the twos and both jokers. Seat 0
/// holds every spade but the two.
const A: [&str; 4] = [
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
];
const A_KITTY: &str = "2S LJ BJ 2H 2D 2C";

/// Deal A at spades after a `whole` exchange that keeps both jokers and
/// the dix: seat 0 leads its trumps from the top and wins all twelve
/// tricks, the last with the dix.
const A_WHOLE_DISCARDS: &str = "2H 2D 2C 3S 4S 5S";
const A_SWEEP: [&str; 12] = [
    "BJ AH AD AC",
    "LJ KH KD KC",
    "AS QH QD QC",
    "KS JH JD JC",
    "QS TH TD TC",
    "JS 9H 9D 9C",
    "TS 8H 8D 8C",
    "9S 7H 7D 7C",
    "8S 6H 6D 6C",
    "7S 5H 5D 5C",
    "6S 4H 4D 4C",
    "2S 3H 3D 3C",
];

/// Deal A, 8S, `whole`, ready for the round of calls.
fn a_whole_8s() -> Illustrated {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 8S");
    act(&mut g, 0, "whole");
    discard(&mut g, 0, A_WHOLE_DISCARDS);
    g
}

mod l1_l2;
mod l3_l4;
mod l5_l7;
mod l6_nulls;
mod l7_l8_engine;

#[allow(unused_imports)]
use {l1_l2::*, l3_l4::*, l5_l7::*, l6_nulls::*, l7_l8_engine::*};
