//! Scenario tests of oneonta, named by the decision ids of docs/rules.

use super::*;
use crate::dealing::{Seed, deal_if_needed, deck_from_hands};
use crate::games::testing::{legal_texts as legal, act, card, cards, hand_start, play_random_match, seat};

fn game(options: &[&str]) -> Oneonta {
    Oneonta::new(&Options::parse(options).unwrap()).unwrap()
}

/// Deals the next hand: `hands[s]` to seat `s` (empty for a seat sitting
/// out) and `rest`, in order, everywhere else: the dummy's pile in deal
/// order (where there is a dummy), then the card turned up, then the
/// undealt cards.
fn deal(g: &mut Oneonta, hands: &[&str], rest: &str) {
    let hands: Vec<CardSet> = hands.iter().map(|h| cards(h)).collect();
    let rest: Vec<Card> = rest.split_whitespace().map(card).collect();
    let order = deck_from_hands(g, &hands, &rest).unwrap();
    g.deal(&order).unwrap();
}

fn legal_cards(g: &Oneonta, s: usize) -> CardSet {
    g.legal_actions(seat(s))
        .iter()
        .map(|a| a.card().unwrap())
        .collect()
}

fn rule(id: &'static str, text: &'static str) -> Result<(), IllegalReason> {
    Err(IllegalReason::Rule { id, text })
}

/// Every seat to act plays its first legal card until the hand ends.
fn play_out(g: &mut Oneonta) {
    while g.core.phase == Phase::Play {
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
}

/// Whether the Debug text of `value` names `card` as a word.
fn names(text: &str, card: Card) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == card.to_string())
}

// ----- the solitaire deal used by most solitaire scenarios -----

/// The player's hand: every card follows the dummy's leads, so the play
/// decides nothing but which card of a pair goes first.
const PLAYER: &str = "KH QH JH QC TC QD TD QS TS";
/// The dummy's pile in deal order (BJ is led first), then TH turned up
/// (hearts are trump), then the three undealt aces.
const DUMMY_AND_REST: &str = "BJ LJ AH KC JC KD JD KS JS TH AC AD AS";

fn solitaire(options: &[&str]) -> Oneonta {
    let mut g = game(options);
    deal(&mut g, &[PLAYER], DUMMY_AND_REST);
    g
}

/// Plays a hand of the solitaire deal. The dummy leads BJ, LJ and AH (the
/// player must follow with a heart and loses), then K and J of clubs,
/// diamonds and spades. The player holds Q and T of each: the queen on the
/// king loses and the ten on the jack loses (no trick), while the ten on
/// the king and the queen on the jack win one trick. The player takes
/// exactly one trick in each suit of `win`.
fn play_solitaire(g: &mut Oneonta, win: &[Suit]) {
    while g.core.phase == Phase::Play {
        let led = g.core.tricks.current().led_card().unwrap();
        let pick = match (led.rank(), led.suit()) {
            (Some(Rank::King), Some(s)) if win.contains(&s) => Card::new(Rank::Ten, s),
            (Some(Rank::King), Some(s)) => Card::new(Rank::Queen, s),
            _ => legal_cards(g, 0).first().unwrap(),
        };
        g.apply(seat(0), Action::Play(pick)).unwrap();
    }
}

/// Plays solitaire hands of the deal above: each a bid and the suits won.
fn solitaire_match(options: &[&str], plan: &[(&str, &[Suit])]) -> Oneonta {
    let mut g = game(options);
    for (bid, win) in plan {
        deal(&mut g, &[PLAYER], DUMMY_AND_REST);
        act(&mut g, 0, bid);
        play_solitaire(&mut g, win);
    }
    g
}

const C: Suit = Suit::Clubs;
const D: Suit = Suit::Diamonds;
const S: Suit = Suit::Spades;

// ----- multiplayer deals in which one seat takes every trick -----

/// Two players, 8–A (O11), hearts trump (8H turned). The strong hand holds
/// every other trump and AS, and the weak one neither hearts nor spades:
/// whoever leads, each card of the strong hand wins when it is led.
const STRONG2: &str = "9H TH JH QH KH AH BJ LJ AS";
const WEAK2: &str = "8C 9C TC JC QC KC AC 8D 9D";
const REST2: &str = "8H TD JD QD KD AD 8S 9S TS JS QS KS";

/// Three players, T–A (O11), hearts trump (TH turned): the strong hand
/// takes every trick it leads, and wins the lead back each time.
const STRONG3: &str = "BJ LJ AH KH QH JH AS";
const CLUBS3: &str = "AC KC QC JC TC AD KD";
const SPADES3: &str = "QD JD TD KS QS JS TS";

mod o11_o15;
mod o16_o17_engine;
mod o1_o5;
mod o6_o10;

#[allow(unused_imports)]
use {o1_o5::*, o6_o10::*, o11_o15::*, o16_o17_engine::*};
