//! Scenario tests of illustrated, named by RULES.md decision ids.

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

// ----- L1 -----

#[test]
fn l1_deal_partnerships_and_kitty() {
    let g = dealt(A, A_KITTY);
    for (s, hand) in A.iter().enumerate() {
        assert_eq!(g.hands[s], cards(hand));
    }
    assert_eq!(g.kitty.map(|c| c.to_string()).join(" "), A_KITTY);
    assert_eq!(g.teams(), [0, 1, 0, 1]);
    let o = g.observe(seat(1));
    assert_eq!(
        o.players.iter().map(|p| p.team).collect::<Vec<_>>(),
        [0, 1, 0, 1]
    );
    assert_eq!(o.piles[0], ("kitty".to_string(), 6));
    assert_eq!(o.hand, cards(A[1]));
    assert_eq!(g.seen_by(seat(1)), cards(A[1]));
    assert_eq!(g.deck().len(), 54);
    // L2: the auction starts at the dealer's left.
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    assert_eq!(o.phase, Phase::Auction);
    assert_eq!(o.trump, Trump::Undecided);
}

// ----- L2 -----

#[test]
fn l2_bids_by_base_value() {
    let expected = [
        ("bid 8S", 1, Section::Low),
        ("bid 8NT", 2, Section::Low),
        ("bid 9D", 3, Section::Low),
        ("bid 9NT", 4, Section::Low),
        ("null", 5, Section::Middle),
        ("bid 10H", 6, Section::Middle),
        ("bid 10NT", 7, Section::Middle),
        ("bid 11C", 8, Section::Middle),
        ("bid 11NT", 9, Section::Middle),
        ("open-null", 10, Section::High),
        ("bid 12S", 11, Section::High),
        ("bid 12NT", 12, Section::High),
    ];
    for (text, base, section) in expected {
        let c = Contract::from_action(text.parse().unwrap()).unwrap();
        assert_eq!((c.base(), c.section()), (base, section), "{text}");
        assert_eq!(c.action().to_string(), text);
    }
    // The bids' order is by base value.
    for pair in Contract::BIDS.windows(2) {
        assert!(pair[0].base() <= pair[1].base());
    }
    for bad in ["bid 7S", "bid 13NT", "null 3"] {
        assert!(
            Contract::from_action(bad.parse().unwrap()).is_none(),
            "{bad}"
        );
    }
}

#[test]
fn l2_a_bid_must_have_a_higher_base_value_and_a_pass_is_final() {
    let mut g = dealt(A, A_KITTY);
    let legal = g.legal_actions(seat(0));
    assert_eq!(legal.len(), 28);
    assert_eq!(legal[0], Action::Pass);
    assert_eq!(legal[1].to_string(), "bid 8C");
    assert_eq!(legal[11], Action::Null(0));
    assert_eq!(legal[27].to_string(), "bid 12NT");
    act(&mut g, 0, "bid 8S");
    // Trump bids of the same number never overcall each other (L2).
    assert_eq!(
        g.check(seat(1), "bid 8D".parse().unwrap()),
        Err(IllegalReason::NotHigher("bid 8S".parse().unwrap()))
    );
    assert!(g.check(seat(1), "bid 8NT".parse().unwrap()).is_ok());
    assert_eq!(
        g.check(seat(1), "bid 7NT".parse().unwrap()),
        Err(IllegalReason::OutOfRange { min: 8, max: 12 })
    );
    assert!(matches!(
        g.check(seat(1), "null 2".parse().unwrap()),
        Err(IllegalReason::Rule { id: "L2", .. })
    ));
    act(&mut g, 1, "bid 9D");
    act(&mut g, 2, "pass");
    act(&mut g, 3, "null");
    assert_eq!(
        g.check(seat(0), "bid 9S".parse().unwrap()),
        Err(IllegalReason::NotHigher(Action::Null(0)))
    );
    act(&mut g, 0, "bid 10C");
    act(&mut g, 1, "pass");
    // Seat 2 passed: it is never asked again.
    assert_eq!(g.to_act(), SeatSet::single(seat(3)));
    act(&mut g, 3, "open-null");
    assert_eq!(g.stage, Stage::Auction);
    act(&mut g, 0, "pass");
    // Three passes with a bid standing: its bidder declares.
    assert_eq!(g.stage, Stage::Choose);
    assert_eq!(g.to_act(), SeatSet::single(seat(3)));
    let o = g.observe(seat(2));
    assert_eq!(o.contract, Some((seat(3), Action::OpenNull)));
    assert_eq!(o.trump, Trump::NoTrump);
    assert_eq!(o.note("declarer"), Some("3"));
    assert_eq!(o.note("base"), Some("10"));
    assert_eq!(o.note("section"), Some("high"));
    assert_eq!(o.note("passed"), Some("0 1 2"));
    assert_eq!(
        o.players[0].bid.map(|b| b.to_string()).as_deref(),
        Some("bid 10C")
    );
}

#[test]
fn l2_the_dealer_may_still_bid_after_three_passes() {
    let mut g = dealt(A, A_KITTY);
    passes(&mut g, &[0, 1, 2]);
    assert_eq!(g.to_act(), SeatSet::single(seat(3)));
    assert_eq!(g.legal_actions(seat(3)).len(), 28);
    act(&mut g, 3, "bid 8C");
    assert_eq!(g.stage, Stage::Choose);
    assert_eq!(g.declarer, seat(3));
}

#[test]
fn l2_four_passes_are_a_misdeal_and_the_deal_passes_left() {
    let mut g = game(&["hands=2"]);
    g.core.dealer = seat(3);
    g.deal(&order_for(A, A_KITTY, 3)).unwrap();
    passes(&mut g, &[0, 1, 2, 3]);
    assert_eq!(g.status(), Status::Deal);
    let r = &g.hand_results()[0];
    assert!(r.misdeal);
    assert_eq!(r.points, [0, 0, 0, 0]);
    assert_eq!(r.summary, "misdeal: four passes");
    assert_eq!(g.dealer(), seat(0));
    assert_eq!(
        g.observe(seat(1)).history.last(),
        Some(&Event::HandEnd { deal: 0 })
    );
    // L8: a misdeal counts towards `hands`, and scores nothing.
    g.deal(&order_for(A, A_KITTY, 0)).unwrap();
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    passes(&mut g, &[1, 2, 3, 0]);
    assert!(g.is_over());
    let m = g.result().unwrap();
    assert_eq!(m.hands, 0);
    assert_eq!(m.ranks, [1, 1, 1, 1]);
}

// ----- L3 -----

#[test]
fn l3_difficulty_bonus_table() {
    let table: Vec<[i32; 3]> = Exchange::ALL
        .iter()
        .map(|&e| [Section::Low, Section::Middle, Section::High].map(|s| difficulty(e, s)))
        .collect();
    assert_eq!(table, [[0, 0, 0], [0, 2, 4], [0, 3, 5], [0, 6, 10]]);
}

#[test]
fn l3_whole_the_declarer_alone_sees_the_kitty_and_discards_face_down() {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 8S");
    assert_eq!(
        g.legal_actions(seat(0)).as_slice(),
        Exchange::ALL.map(Action::Exchange)
    );
    act(&mut g, 0, "whole");
    assert_eq!(g.hands[0].len(), 18);
    let kitty = cards(A_KITTY);
    let o0 = g.observe(seat(0));
    assert_eq!(o0.phase, Phase::Exchange);
    assert_eq!(o0.table.len(), 6);
    assert!(
        o0.table
            .iter()
            .all(|t| t.label == "kitty" && t.owner == Some(seat(0)))
    );
    assert_eq!(o0.table.iter().map(|t| t.card).collect::<CardSet>(), kitty);
    assert_eq!(o0.piles[0], ("kitty".to_string(), 0));
    assert_eq!(o0.note("to-discard"), Some("6"));
    assert_eq!(g.seen_by(seat(0)), cards(A[0]).or(kitty));
    for (s, hand) in A.iter().enumerate().skip(1) {
        let o = g.observe(seat(s));
        assert!(o.table.is_empty());
        assert_eq!(o.players[0].held, 18);
        assert_eq!(g.seen_by(seat(s)), cards(hand));
        let takes: Vec<Event> = o
            .history
            .iter()
            .copied()
            .filter(|e| matches!(e, Event::Take { .. }))
            .collect();
        assert_eq!(takes.len(), 6);
        assert!(takes.iter().all(|e| matches!(
            e,
            Event::Take { seat: taker, card: None, from: Source::Kitty } if *taker == seat(0)
        )));
    }
    // L3: at trumps no joker may be discarded; aces and kings may.
    assert_eq!(
        g.check(seat(0), Action::Discard(Card::BIG_JOKER)),
        Err(IllegalReason::Rule {
            id: "L3",
            text: "in a trump contract no one who exchanges may discard a joker"
        })
    );
    assert_eq!(g.legal_actions(seat(0)).len(), 16);
    assert!(g.check(seat(0), "discard AS".parse().unwrap()).is_ok());
    assert_eq!(
        g.check(seat(0), "discard AH".parse().unwrap()),
        Err(IllegalReason::NotInHand(card("AH")))
    );
    act(&mut g, 0, "discard 2H");
    assert_eq!(
        g.observe(seat(0)).history.last(),
        Some(&Event::Action {
            seat: seat(0),
            action: "discard 2H".parse().unwrap()
        })
    );
    assert_eq!(
        g.observe(seat(3)).history.last(),
        Some(&Event::Hidden {
            seat: seat(0),
            kind: ActionKind::Discard
        })
    );
    assert_eq!(g.observe(seat(3)).piles[1], ("discards".to_string(), 1));
    discard(&mut g, 0, "2D 2C 3S 4S 5S");
    assert_eq!(g.stage, Stage::Announce);
    assert_eq!(g.hands[0].len(), 12);
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    // The kitty stays in the declarer's view for the rest of the hand.
    assert_eq!(g.observe(seat(0)).table.len(), 6);
    assert!(!format!("{:?}", g.observe(seat(2))).contains("2H"));
}

#[test]
fn l3_half_takes_the_first_three_kitty_cards() {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 8NT");
    act(&mut g, 0, "half");
    let taken = cards("2S LJ BJ");
    assert_eq!(g.hands[0], cards(A[0]).or(taken));
    let o = g.observe(seat(0));
    assert_eq!(o.table.iter().map(|t| t.card).collect::<CardSet>(), taken);
    assert_eq!(o.piles[0], ("kitty".to_string(), 3));
    assert_eq!(o.note("difficulty"), Some("0"));
    assert_eq!(g.seen_by(seat(0)), cards(A[0]).or(taken));
    // At notrump a joker may be discarded.
    assert!(g.check(seat(0), Action::Discard(Card::BIG_JOKER)).is_ok());
    discard(&mut g, 0, "BJ LJ 2S");
    assert_eq!(g.stage, Stage::Announce);
    assert_eq!(g.observe(seat(1)).piles[1], ("discards".to_string(), 3));
}

#[test]
fn l3_without_no_one_sees_the_kitty() {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 10H");
    act(&mut g, 0, "without");
    assert_eq!(g.stage, Stage::Announce);
    for (s, hand) in A.iter().enumerate() {
        let o = g.observe(seat(s));
        assert!(o.table.is_empty());
        assert_eq!(o.piles[0], ("kitty".to_string(), 6));
        assert_eq!(o.note("difficulty"), Some("3"));
        assert_eq!(g.seen_by(seat(s)), cards(hand));
    }
}

#[test]
fn l3_against_both_opponents_see_the_kitty_and_the_left_one_exchanges() {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 8S");
    act(&mut g, 0, "against");
    let kitty = cards(A_KITTY);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert_eq!(g.hands[1], cards(A[1]).or(kitty));
    for s in [1, 3] {
        let o = g.observe(seat(s));
        assert_eq!(o.table.iter().map(|t| t.card).collect::<CardSet>(), kitty);
        assert!(o.table.iter().all(|t| t.owner == Some(seat(1))));
        assert_eq!(g.seen_by(seat(s)), cards(A[s]).or(kitty));
        assert_eq!(o.note("exchanger"), Some("1"));
    }
    for s in [0, 2] {
        let o = g.observe(seat(s));
        assert!(o.table.is_empty());
        assert_eq!(g.seen_by(seat(s)), cards(A[s]));
        assert!(!format!("{o:?}").contains("BJ"));
    }
    // No one who exchanges may discard a joker at trumps (L3).
    assert!(matches!(
        g.check(seat(1), Action::Discard(Card::LITTLE_JOKER)),
        Err(IllegalReason::Rule { id: "L3", .. })
    ));
    discard(&mut g, 1, "2S 2H 2D 2C 3H 4H");
    // The taker's partner saw the kitty but not the discards.
    let o3 = g.observe(seat(3));
    assert_eq!(
        o3.history
            .iter()
            .filter(|e| matches!(e, Event::Hidden { .. }))
            .count(),
        6
    );
    assert_eq!(g.stage, Stage::Announce);
    // The calls start with the declarer.
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    assert_eq!(o3.note("difficulty"), Some("0"));
}

// ----- L4 -----

#[test]
fn l4_who_may_call_what_and_four_passes_end_the_round() {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 8S");
    act(&mut g, 0, "without");
    let all_announcements: Vec<Action> = Feat::ALL.map(Action::Announce).to_vec();
    let mut expected = vec![Action::Pass];
    expected.extend(&all_announcements);
    assert_eq!(g.legal_actions(seat(0)).as_slice(), expected);
    assert!(matches!(
        g.check(seat(0), "double game".parse().unwrap()),
        Err(IllegalReason::Rule { id: "L4", text }) if text.contains("opponents")
    ));
    act(&mut g, 0, "announce four-kings");
    let legal1 = g.legal_actions(seat(1));
    assert!(legal1.contains(&"double game".parse().unwrap()));
    assert!(legal1.contains(&"double four-kings".parse().unwrap()));
    assert!(legal1.contains(&"announce four-kings".parse().unwrap()));
    act(&mut g, 1, "double four-kings");
    let legal2 = g.legal_actions(seat(2));
    assert!(legal2.contains(&"redouble four-kings".parse().unwrap()));
    assert!(!legal2.contains(&"double four-kings".parse().unwrap()));
    assert!(!legal2.contains(&"announce four-kings".parse().unwrap()));
    act(&mut g, 2, "announce slam");
    // A declaring team's slam is not doubled as a feat (L5).
    assert!(matches!(
        g.check(seat(3), "double slam".parse().unwrap()),
        Err(IllegalReason::Rule { id: "L5", .. })
    ));
    assert!(matches!(
        g.check(seat(3), "redouble four-kings".parse().unwrap()),
        Err(IllegalReason::Rule { id: "L4", .. })
    ));
    act(&mut g, 3, "double game");
    assert!(g.check(seat(0), "redouble game".parse().unwrap()).is_ok());
    act(&mut g, 0, "redouble game");
    assert!(g.check(seat(1), "double game".parse().unwrap()).is_err());
    assert!(g.check(seat(1), "redouble game".parse().unwrap()).is_err());
    passes(&mut g, &[1, 2, 3]);
    assert_eq!(g.stage, Stage::Announce);
    // A call other than a pass starts the count again.
    act(&mut g, 0, "announce four-aces");
    passes(&mut g, &[1, 2, 3]);
    assert_eq!(g.stage, Stage::Announce);
    act(&mut g, 0, "pass");
    assert_eq!(g.stage, Stage::Play);
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    let o = g.observe(seat(3));
    assert_eq!(o.phase, Phase::Play);
    assert_eq!(
        o.note("announcements"),
        Some("0 four-kings x2, 0 four-aces x1, 0 slam x1")
    );
    assert_eq!(o.note("game"), Some("x4"));
}

#[test]
fn l4_l5_notrump_feats_and_null_calls() {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 9NT");
    act(&mut g, 0, "without");
    let legal = g.legal_actions(seat(0));
    assert_eq!(
        legal.as_slice(),
        [
            Action::Pass,
            Action::Announce(Feat::FourKings),
            Action::Announce(Feat::FourAces),
            Action::Announce(Feat::Slam)
        ]
    );
    assert!(matches!(
        g.check(seat(0), "announce dix-last".parse().unwrap()),
        Err(IllegalReason::Rule { id: "L5", .. })
    ));

    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "null");
    act(&mut g, 0, "without");
    assert_eq!(g.legal_actions(seat(0)).as_slice(), [Action::Pass]);
    assert_eq!(
        g.check(seat(0), "announce four-kings".parse().unwrap()),
        Err(NULL_CALLS_ONLY)
    );
    act(&mut g, 0, "pass");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert_eq!(
        g.legal_actions(seat(1)).as_slice(),
        [Action::Pass, Action::Double(Target::Game)]
    );
    act(&mut g, 1, "double game");
    // L4: the partner of a null declarer takes part in the round of calls.
    assert_eq!(g.to_act(), SeatSet::single(seat(2)));
    assert_eq!(
        g.legal_actions(seat(2)).as_slice(),
        [Action::Pass, Action::Redouble(Target::Game)]
    );
    act(&mut g, 2, "pass");
    act(&mut g, 3, "pass");
    assert_eq!(
        g.legal_actions(seat(0)).as_slice(),
        [Action::Pass, Action::Redouble(Target::Game)]
    );
    act(&mut g, 0, "pass");
    // L4: four seats, so three passes in a row do not end it in a null.
    assert_eq!(g.stage, Stage::Announce);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(&mut g, 1, "pass");
    assert_eq!(g.stage, Stage::Play);
    // L6: it sits out of the play only; the declarer leads.
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
}

#[test]
fn l4_the_partner_of_a_null_declarer_redoubles_a_double_of_the_game() {
    let mut g = dealt(N, N_KITTY);
    declare(&mut g, "null");
    act(&mut g, 0, "without");
    acts(
        &mut g,
        &[(0, "pass"), (1, "double game"), (2, "redouble game")],
    );
    assert_eq!(g.game_mult, 4);
    // After a call, four passes in a row are needed again.
    passes(&mut g, &[3, 0, 1]);
    assert_eq!(g.stage, Stage::Announce);
    act(&mut g, 2, "pass");
    assert_eq!(g.stage, Stage::Play);
    let mut to_act = SeatSet::EMPTY;
    for trick in N_PLAY {
        for c in trick.split_whitespace() {
            let s = g.to_act().first().unwrap();
            to_act.insert(s);
            g.apply(s, Action::Play(card(c))).unwrap();
        }
    }
    assert!(!to_act.contains(seat(2)), "the partner plays no card (L6)");
    // Made: (5 + 3) × 4 = 32 (middle section, without; redoubled).
    assert_eq!(points(&g), [32, 0]);
}

// ----- L5 and L7 on deal A -----

#[test]
fn l5_l7_silent_feats_and_a_silent_slam_on_a_low_contract() {
    let mut g = a_whole_8s();
    passes(&mut g, &[0, 1, 2, 3]);
    play(&mut g, &A_SWEEP);
    // 8S by 0, whole, twelve tricks: base min(1 + 6, 12) = 7, difficulty 0.
    // Silent: four kings 2, four aces 3, dix last 4 (won with 2S, contract
    // made), all three 2 (BJ, LJ, 2S). 7 + 11 = 18.
    let b = g.breakdown().unwrap();
    assert!(b.made);
    assert_eq!((b.hand, b.game), (7, 1));
    assert_eq!(b.feats, [[2, 3, 4, 2, 0, 0], [0; 6]]);
    assert_eq!(points(&g), [18, 0]);
    let r = &g.hand_results()[0];
    assert_eq!(
        r.summary,
        "8S by 0, whole: tricks 12-0, made +7; feats 0 four-kings +2, 0 four-aces +3, \
         0 dix-last +4, 0 all-three +2; team 0 +18, team 1 +0"
    );
    assert_eq!(r.tricks, [12, 0, 0, 0]);
    assert_eq!(r.bids[0], Some("bid 8S".parse().unwrap()));
    assert_eq!(r.made, [Some(true), None, None, None]);
    let m = g.result().unwrap();
    assert_eq!(m.totals, [18, 0, 18, 0]);
    assert_eq!(m.ranks, [1, 3, 1, 3]);
    assert_eq!(m.winners(), [seat(0), seat(2)]);
}

/// Also the example hand of docs/notation.md.
#[test]
fn l5_announced_feats_doubles_redoubles_and_a_doubled_game() {
    let mut g = a_whole_8s();
    acts(
        &mut g,
        &[
            (0, "announce four-kings"),
            (1, "double four-kings"),
            (2, "redouble four-kings"),
            (3, "double game"),
            (0, "announce dix-last"),
            (1, "double dix-last"),
            (2, "announce all-three"),
            (3, "announce slam"),
            (0, "double slam"),
        ],
    );
    passes(&mut g, &[1, 2, 3, 0]);
    play(&mut g, &A_SWEEP);
    // Team 0: four kings announced, redoubled: 4 × 4 = 16; four aces
    // silent 3; dix last announced, doubled: 8 × 2 = 16; all three
    // announced 4; hand 7 × 2 (game doubled) = 14. Total 53.
    // Team 1: its slam announced, doubled, failed: −12 × 2 = −24.
    let b = g.breakdown().unwrap();
    assert_eq!((b.hand, b.game), (7, 2));
    assert_eq!(b.feats, [[16, 3, 16, 4, 0, 0], [0, 0, 0, 0, 0, -24]]);
    assert_eq!(points(&g), [53, -24]);
}

#[test]
fn l5_announced_feats_that_fail_cost_their_value() {
    let mut g = a_whole_8s();
    acts(
        &mut g,
        &[
            (0, "announce four-aces"),
            (1, "announce four-kings"),
            (2, "pass"),
            // Both teams may announce the same feat.
            (3, "announce four-aces"),
            (0, "pass"),
            (1, "announce dix-last"),
            (2, "pass"),
            (3, "announce all-three"),
            (0, "pass"),
            (1, "announce joker-catch"),
        ],
    );
    passes(&mut g, &[2, 3, 0, 1]);
    play(&mut g, &A_SWEEP);
    // Team 0: four aces announced 6; four kings 2, dix last 4 and all
    // three 2 silent (the other team's announcements do not stop them);
    // hand 7. Total 21. Team 1: −4 − 6 − 8 − 4 − 20 = −42.
    let b = g.breakdown().unwrap();
    assert_eq!(b.feats, [[2, 6, 4, 2, 0, 0], [-4, -6, -8, -4, -20, 0]]);
    assert_eq!(points(&g), [21, -42]);
}

#[test]
fn l7_an_announced_slam_made_scores_base_twelve_and_the_game_redoubled() {
    let mut g = a_whole_8s();
    acts(
        &mut g,
        &[(0, "pass"), (1, "double game"), (2, "announce slam")],
    );
    assert!(matches!(
        g.check(seat(3), "double slam".parse().unwrap()),
        Err(IllegalReason::Rule { id: "L5", .. })
    ));
    acts(&mut g, &[(3, "pass"), (0, "redouble game")]);
    passes(&mut g, &[1, 2, 3, 0]);
    play(&mut g, &A_SWEEP);
    // Hand (12 + 0) × 4 = 48; silent feats 2 + 3 + 4 + 2 = 11.
    let b = g.breakdown().unwrap();
    assert_eq!((b.hand, b.game), (12, 4));
    assert_eq!(b.feats[0][Feat::Slam as usize], 0);
    assert_eq!(points(&g), [59, 0]);
}

#[test]
fn l7_a_silent_slam_on_a_high_contract_a_made_slam_bid_keeps_its_base() {
    // RULES.md L7 follows the source's prose (a slam neither bid nor
    // announced raises the base); the source's formula would give 12 here.
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 12S");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    let tricks: Vec<String> = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"]
        .iter()
        .map(|r| format!("{r}S {r}H {r}D {r}C"))
        .collect();
    play(
        &mut g,
        &tricks.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // Base 11 + difficulty 5 (without, high) = 16; four kings 2, four aces 3.
    let b = g.breakdown().unwrap();
    assert_eq!(b.hand, 16);
    assert_eq!(points(&g), [21, 0]);
}

/// B: deal A with seat 0's 3S and seat 1's 3H swapped.
const B: [&str; 4] = [
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3H",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3S",
    A[2],
    A[3],
];

#[test]
fn l7_an_announced_slam_that_fails_scores_minus_24_plus_difficulty() {
    let mut g = dealt(B, A_KITTY);
    declare(&mut g, "bid 10S");
    act(&mut g, 0, "half");
    discard(&mut g, 0, "4S 5S 6S");
    acts(
        &mut g,
        &[(0, "announce slam"), (1, "pass"), (2, "announce dix-last")],
    );
    passes(&mut g, &[3, 0, 1, 2]);
    play(
        &mut g,
        &[
            "3H AH 3D 3C",
            "3S 4D 4C BJ",
            "LJ KH AD AC",
            "AS QH KD KC",
            "KS JH QD QC",
            "QS TH JD JC",
            "JS 9H TD TC",
            "TS 8H 9D 9C",
            "9S 7H 8D 8C",
            "8S 6H 7D 7C",
            "7S 5H 6D 6C",
            "2S 4H 5D 5C",
        ],
    );
    assert_eq!(g.team_tricks(), [11, 1]);
    // Eleven tricks make 10S, but the announced slam is a bid of twelve:
    // set, −(24 + 2) (half, middle). Dix Last then counts the contract as
    // set: won with the dix, it fails (−8). Silent four kings 2 (the aces
    // are split) and all three 2 (BJ, LJ, 2S). −26 − 8 + 2 + 2 = −30.
    let b = g.breakdown().unwrap();
    assert!(!b.made);
    assert_eq!(b.hand, -26);
    assert_eq!(b.feats[0], [2, 0, -8, 2, 0, 0]);
    assert_eq!(points(&g), [-30, 0]);
    assert_eq!(g.hand_results()[0].made[0], Some(false));
}

/// C: seat 0 holds the dix and loses it to the ace at the last trick.
const C: [&str; 4] = [
    "BJ LJ KS QS JS 4S 3S 2S AD KD QD JD",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
    "TD 9D 8D 7D 6D 5D 4D 3D 9C 8C 7C 6C",
    "AS TS 9S 8S 7S 6S 5S AC KC QC JC TC",
];
const C_KITTY: &str = "2H 2D 5C 4C 3C 2C";

#[test]
fn l5_dix_last_lost_scores_for_the_dix_players_opponents() {
    let mut g = dealt(C, C_KITTY);
    declare(&mut g, "bid 8S");
    act(&mut g, 0, "without");
    acts(
        &mut g,
        &[
            (0, "announce dix-last"),
            (1, "pass"),
            (2, "pass"),
            (3, "announce dix-last"),
            (0, "double dix-last"),
        ],
    );
    passes(&mut g, &[1, 2, 3, 0]);
    play(
        &mut g,
        &[
            "BJ 3H 3D 5S",
            "LJ 4H 4D 6S",
            "KS 5H 5D 7S",
            "QS 6H 6D 8S",
            "JS 7H 7D 9S",
            "AD 8H 8D AC",
            "KD 9H 9D KC",
            "QD TH TD QC",
            "JD JH 9C JC",
            "4S QH 8C TS",
            "TC 3S KH 7C",
            "2S AH 6C AS",
        ],
    );
    assert_eq!(g.team_tricks(), [10, 2]);
    // 8S made: +1. The dix played to the last trick and lost: the dix
    // player's opponents make Dix Last whatever the contract; team 1's
    // announcement, doubled, scores 8 × 2 = 16, team 0's fails (−8).
    // Team 0 also makes four kings silently (+2); the aces are split.
    let b = g.breakdown().unwrap();
    assert!(b.made);
    assert_eq!(b.hand, 1);
    assert_eq!(b.feats, [[2, 0, -8, 0, 0, 0], [0, 0, 16, 0, 0, 0]]);
    assert_eq!(points(&g), [-5, 16]);
}

/// D: seat 0 holds BJ and seat 1 LJ as its only trump.
const D: [&str; 4] = [
    "BJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
    "LJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
];

#[test]
fn l5_joker_catch_announced_and_doubled() {
    let mut g = dealt(D, "3S 2S 3H 2H 2D 2C");
    declare(&mut g, "bid 9S");
    act(&mut g, 0, "without");
    acts(
        &mut g,
        &[(0, "announce joker-catch"), (1, "double joker-catch")],
    );
    passes(&mut g, &[2, 3, 0, 1]);
    let mut tricks = vec!["BJ LJ AD AC".to_string()];
    let (s, h, d, c) = ("AKQJT98765", "AKQJT98765", "KQJT987654", "KQJT987654");
    for i in 0..10 {
        tricks.push(
            [s, h, d, c]
                .iter()
                .zip(["S", "H", "D", "C"])
                .map(|(r, suit)| format!("{}{suit}", &r[i..i + 1]))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    tricks.push("4S 4H 3D 3C".to_string());
    play(
        &mut g,
        &tricks.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // 9S with a silent slam: min(3 + 6, 12) = 9. Joker catch announced,
    // doubled: 20 × 2 = 40; four kings 2, four aces 3. 54.
    let b = g.breakdown().unwrap();
    assert_eq!(b.hand, 9);
    assert_eq!(b.feats[0], [2, 3, 0, 0, 40, 0]);
    assert_eq!(points(&g), [54, 0]);
}

#[test]
fn l5_joker_catch_fails_when_the_partner_plays_the_little_joker() {
    let hands = [
        D[0],
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "LJ AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
        D[3],
    ];
    let mut g = dealt(hands, "3S 2S 2H 3D 2D 2C");
    declare(&mut g, "bid 9S");
    act(&mut g, 0, "without");
    act(&mut g, 0, "announce joker-catch");
    passes(&mut g, &[1, 2, 3, 0]);
    // Seat 2 must follow the big joker with its only trump, the little one.
    act(&mut g, 0, "BJ");
    act(&mut g, 1, "AH");
    assert_eq!(
        g.legal_actions(seat(2)).as_slice(),
        [Action::Play(Card::LITTLE_JOKER)]
    );
    play(
        &mut g,
        &[
            "LJ AC",
            "AS KH AD KC",
            "KS QH KD QC",
            "QS JH QD JC",
            "JS TH JD TC",
            "TS 9H TD 9C",
            "9S 8H 9D 8C",
            "8S 7H 8D 7C",
            "7S 6H 7D 6C",
            "6S 5H 6D 5C",
            "5S 4H 5D 4C",
            "4S 3H 4D 3C",
        ],
    );
    // Hand 9 (silent slam); joker catch announced and failed −20; four
    // kings 2, four aces 3: −6.
    let b = g.breakdown().unwrap();
    assert_eq!(b.feats[0], [2, 3, 0, 0, -20, 0]);
    assert_eq!(points(&g), [-6, 0]);
}

// ----- L6 and the nulls -----

/// N: seat 0 holds every two, three and four; seat 1 the court cards.
const N: [&str; 4] = [
    "2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S",
    "AC KC QC AD KD QD AH KH QH AS KS QS",
    "JC TC 9C JD TD 9D JH TH 9H JS TS 9S",
    "8C 7C 6C 8D 7D 6D 8H 7H 6H 8S 7S 6S",
];
const N_KITTY: &str = "5C 5D 5H 5S LJ BJ";
/// Three-card tricks: seat 1 wins them all.
const N_PLAY: [&str; 12] = [
    "2C AC 8C", "KC 7C 3C", "QC 6C 4C", "AD 8D 2D", "KD 7D 3D", "QD 6D 4D", "AH 8H 2H", "KH 7H 3H",
    "QH 6H 4H", "AS 8S 2S", "KS 7S 3S", "QS 6S 4S",
];

#[test]
fn l6_null_the_partner_sits_out_and_a_made_null_doubled() {
    let mut g = dealt(N, N_KITTY);
    declare(&mut g, "null");
    let o = g.observe(seat(2));
    assert!(!o.players[2].active);
    assert!(o.players.iter().filter(|p| p.active).count() == 3);
    assert_eq!(o.note("sitting-out"), Some("2"));
    assert_eq!(o.trump, Trump::NoTrump);
    act(&mut g, 0, "without");
    acts(&mut g, &[(0, "pass"), (1, "double game")]);
    passes(&mut g, &[2, 3, 0, 1]);
    let mut to_act = SeatSet::EMPTY;
    for (i, trick) in N_PLAY.iter().enumerate() {
        for c in trick.split_whitespace() {
            let s = g.to_act().first().unwrap();
            to_act.insert(s);
            g.apply(s, Action::Play(card(c)))
                .unwrap_or_else(|e| panic!("trick {}: {e}", i + 1));
        }
    }
    assert!(!to_act.contains(seat(2)), "the partner never acts");
    assert!(g.tricks.iter().all(|(t, _)| t.len() == 3));
    assert_eq!(g.hands[2].len(), 12, "the partner's cards stay out of play");
    // Made: (5 + 3) × 2 = 16 (middle section, without).
    let b = g.breakdown().unwrap();
    assert!(b.made);
    assert_eq!((b.hand, b.game), (8, 2));
    assert_eq!(points(&g), [16, 0]);
    assert_eq!(
        g.hand_results()[0].summary.split(':').next(),
        Some("null by 0, without")
    );
}

#[test]
fn l6_open_null_against_is_revealed_after_the_first_trick() {
    let mut g = dealt(N, N_KITTY);
    declare(&mut g, "open-null");
    act(&mut g, 0, "against");
    // Seat 1 takes the kitty; at null it may discard the jokers.
    assert!(g.check(seat(1), Action::Discard(Card::BIG_JOKER)).is_ok());
    discard(&mut g, 1, N_KITTY);
    passes(&mut g, &[0, 1, 2, 3]);
    // The first trick is complete with its third card.
    acts(&mut g, &[(0, "2C"), (1, "AC")]);
    assert_eq!(g.observe(seat(3)).players[0].known, CardSet::EMPTY);
    assert!(!g.seen_by(seat(3)).contains(card("3C")));
    act(&mut g, 3, "8C");
    let hand0 = g.hands[0];
    for s in [1, 2, 3] {
        let o = g.observe(seat(s));
        assert_eq!(o.players[0].known, hand0);
        assert!(g.seen_by(seat(s)).and(hand0) == hand0);
    }
    assert!(g.observe(seat(3)).history.contains(&Event::Reveal {
        seat: seat(0),
        cards: cards("3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S"),
    }));
    play(&mut g, &N_PLAY[1..]);
    // Made: 10 + 10 (against, high) = 20.
    assert_eq!(points(&g), [20, 0]);
}

/// N2: seat 0's ace of spades is a sure trick while its partner, who
/// holds the other spades, sits out.
const N2: [&str; 4] = [
    "AS 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H",
    "AC KC QC JC AD KD QD JD AH KH QH JH",
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "TC 9C 8C 7C TD 9D 8D 7D TH 9H 8H 7H",
];
const N2_KITTY: &str = "6C 6D 6H 5H LJ BJ";

#[test]
fn l6_a_null_set_by_one_trick() {
    let mut g = dealt(N2, N2_KITTY);
    declare(&mut g, "null");
    act(&mut g, 0, "half");
    discard(&mut g, 0, "6C 6D 6H");
    passes(&mut g, &[0, 1, 2, 3]);
    play(&mut g, &["AS AC TC"]);
    assert_eq!(g.won[0], 1);
    play_out(&mut g);
    // Set: −(5 + 2) (half, middle).
    assert_eq!(points(&g), [-7, 0]);
    assert_eq!(g.hand_results()[0].made[0], Some(false));
}

#[test]
fn l6_an_open_null_set_high_section() {
    let mut g = dealt(N2, N2_KITTY);
    declare(&mut g, "open-null");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    play(&mut g, &["AS AC TC"]);
    let hand0 = g.hands[0];
    assert_eq!(g.observe(seat(2)).players[0].known, hand0);
    play_out(&mut g);
    // Set: −(10 + 5) (without, high).
    assert_eq!(points(&g), [-15, 0]);
}

#[test]
fn l6_jokers_at_notrump_follow_nothing_and_never_win() {
    let hands = [
        "BJ 2H AS KS QS JS TS 9S 8S 7S 6S 5S",
        "LJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
        A[2],
        A[3],
    ];
    let mut g = dealt(hands, "4S 3S 2S 3H 2D 2C");
    declare(&mut g, "bid 8NT");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    // A joker is led only from a hand that holds nothing else.
    assert!(
        !g.legal_actions(seat(0))
            .contains(&Action::Play(Card::BIG_JOKER))
    );
    assert!(matches!(
        g.check(seat(0), Action::Play(Card::BIG_JOKER)),
        Err(IllegalReason::Rule { id: "L6", .. })
    ));
    act(&mut g, 0, "2H");
    // It may not be played by a hand that can follow.
    assert_eq!(
        g.check(seat(1), Action::Play(Card::LITTLE_JOKER)),
        Err(IllegalReason::MustFollow(Suit::Hearts))
    );
    play(&mut g, &["AH 3D 3C"]);
    assert_eq!(g.tricks[0].1, seat(1));
    // Played by a hand that cannot follow, it never wins.
    play(&mut g, &["KH 4D 4C"]);
    assert!(
        g.legal_actions(seat(0))
            .contains(&Action::Play(Card::BIG_JOKER))
    );
    act(&mut g, 0, "BJ");
    assert_eq!(g.tricks[1].1, seat(1));
    // The little joker cannot be led either while seat 1 holds hearts.
    assert!(
        !g.legal_actions(seat(1))
            .contains(&Action::Play(Card::LITTLE_JOKER))
    );
}

#[test]
fn l6_trump_jokers_are_the_two_top_trumps_and_follow_as_trumps() {
    let rules = Illustrated::trick_rules(Contract::Numbered {
        tricks: 8,
        strain: Strain::Suit(Suit::Hearts),
    });
    let winner = |text: &str| {
        let mut t = Trick::new();
        for (i, c) in text.split_whitespace().enumerate() {
            t.push(Player::Seat(seat(i)), card(c));
        }
        rules.winning_index(&t)
    };
    assert_eq!(winner("AH LJ 2H BJ"), 3);
    assert_eq!(winner("AS 2H KS LJ"), 3);
    assert_eq!(winner("LJ AH KH 2H"), 0);
    assert_eq!(rules.suit_of(Card::BIG_JOKER), Suit::Hearts as u8);
    let nt = Illustrated::trick_rules(Contract::Null);
    assert_eq!(nt.suit_of(Card::BIG_JOKER), suit_id::NONE);
}

// ----- L7: the sections -----

/// L: seat 0 holds six top spades and six low hearts; seat 1 the high hearts.
const L: [&str; 4] = [
    "AS KS QS JS TS 9S 2H 3H 4H 5H 6H 7H",
    "AH KH QH JH TH 9H 8H 2C 3C 4C 5C 6C",
    A[2],
    "8S 7S 6S 5S 4S 3S 2S AC KC QC JC TC",
];

#[test]
fn l7_a_low_contract_set() {
    let mut g = dealt(L, "9C 8C 7C BJ LJ 2D");
    declare(&mut g, "bid 9NT");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    play(
        &mut g,
        &[
            "AS 2C AD 2S",
            "KS 3C 3D 3S",
            "QS 4C 4D 4S",
            "JS 5C 5D 5S",
            "TS 6C 6D 6S",
            "9S 8H 7D 7S",
            "2H AH KD 8S",
            "KH 8D AC 3H",
            "QH 9D KC 4H",
            "JH TD QC 5H",
            "TH JD JC 6H",
            "9H QD TC 7H",
        ],
    );
    assert_eq!(g.team_tricks(), [6, 6]);
    // Set: −(4 + 0); no feat (kings and aces are split).
    let b = g.breakdown().unwrap();
    assert!(!b.made);
    assert_eq!(b.feats, [[0; 6]; 2]);
    assert_eq!(points(&g), [-4, 0]);
}

/// M: seat 0 holds eleven hearts and the two of spades.
const M: [&str; 4] = [
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 2S",
    "3S AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3H",
];

#[test]
fn l7_a_middle_contract_made() {
    let mut g = dealt(M, "2H 3D 2D 2C LJ BJ");
    declare(&mut g, "bid 11H");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    play(
        &mut g,
        &[
            "AH 4D 3C 3H",
            "KH 5D 4C 4S",
            "QH 6D 5C 5S",
            "JH 7D 6C 6S",
            "TH 8D 7C 7S",
            "9H 9D 8C 8S",
            "8H TD 9C 9S",
            "7H JD TC TS",
            "6H QD JC JS",
            "5H KD QC QS",
            "4H AD KC KS",
            "2S 3S AC AS",
        ],
    );
    assert_eq!(g.team_tricks(), [11, 1]);
    // Made: 8 + 3 (without, middle) = 11; four kings 2 silent.
    let b = g.breakdown().unwrap();
    assert!(b.made);
    assert_eq!(b.hand, 11);
    assert_eq!(b.feats[0], [2, 0, 0, 0, 0, 0]);
    assert_eq!(points(&g), [13, 0]);
}

// ----- L8 -----

#[test]
fn l8_a_match_is_hands_deals_and_the_higher_team_total_wins() {
    assert_eq!(game(&[]).config().hands, 16);
    assert_eq!(game(&[]).options().to_string(), "hands=16");
    for bad in ["hands=0", "hands=unset", "hands=x", "target=3"] {
        assert!(
            Illustrated::new(&Options::parse(&[bad]).unwrap()).is_err(),
            "{bad}"
        );
    }
    let mut g = game(&["hands=3"]);
    let seed = Seed::from_u64(9);
    let mut rng = Shuffler::new(seed);
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            continue;
        }
        kind_first(&mut g, &mut rng);
    }
    let results = g.hand_results();
    assert_eq!(results.len(), 3);
    assert_eq!(
        results.iter().map(|r| r.dealer.index()).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let m = g.result().unwrap();
    let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
    assert_eq!(m.totals, [sum(0), sum(1), sum(0), sum(1)]);
    assert_eq!(m.teams, [0, 1, 0, 1]);
    assert_eq!(m.ranks[0], m.ranks[2]);
    assert_eq!(g.observe(seat(1)).players[3].total, sum(1));
}

// ----- the engine contract -----

/// Random play choosing a kind of action first, then an action of it.
fn kind_first(g: &mut Illustrated, rng: &mut Shuffler) -> (Seat, Action) {
    let s = g.to_act().first().unwrap();
    let legal = g.legal_actions(s);
    let mut kinds: Vec<ActionKind> = legal.iter().map(|a| a.kind()).collect();
    kinds.dedup();
    let kind = kinds[rng.below(kinds.len() as u32) as usize];
    let of_kind: Vec<Action> = legal.iter().copied().filter(|a| a.kind() == kind).collect();
    let a = of_kind[rng.below(of_kind.len() as u32) as usize];
    g.apply(s, a).unwrap();
    (s, a)
}

#[test]
fn random_play_reaches_every_contract_exchange_and_call() {
    let mut seen: std::collections::BTreeSet<String> = Default::default();
    let mut g = game(&["hands=400"]);
    let seed = Seed::from_u64(4);
    let mut rng = Shuffler::new(seed);
    let log_buffer = g.core.log.as_ptr();
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            continue;
        }
        let (_, a) = kind_first(&mut g, &mut rng);
        let key = match a {
            Action::Exchange(e) => format!("exchange {}", e.name()),
            Action::Double(Target::Game) | Action::Redouble(Target::Game) => a.to_string(),
            Action::Double(_) => "double feat".into(),
            Action::Redouble(_) => "redouble feat".into(),
            Action::Announce(_) => "announce".into(),
            _ => continue,
        };
        seen.insert(key);
        if let Some(c) = g.contract {
            seen.insert(match c {
                Contract::Numbered {
                    strain: Strain::NoTrump,
                    ..
                } => "notrump".into(),
                Contract::Numbered { .. } => "trump".into(),
                other => other.to_string(),
            });
        }
    }
    assert_eq!(g.core.log.as_ptr(), log_buffer, "the log never reallocated");
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            "announce",
            "double feat",
            "double game",
            "exchange against",
            "exchange half",
            "exchange whole",
            "exchange without",
            "notrump",
            "null",
            "open-null",
            "redouble feat",
            "redouble game",
            "trump"
        ]
    );
}

#[test]
fn results_add_up_and_every_hand_has_twelve_tricks() {
    let mut g = game(&["hands=200"]);
    let seed = Seed::from_u64(5);
    let mut rng = Shuffler::new(seed);
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            continue;
        }
        kind_first(&mut g, &mut rng);
        if g.status() != Status::Act && !g.hand_results().last().unwrap().misdeal {
            assert_eq!(g.tricks.len(), TRICKS);
            let active = g.active();
            assert!(g.tricks.iter().all(|(t, _)| t.len() == active));
            let b = g.breakdown().unwrap();
            assert_eq!(g.hand_results().last().unwrap().points[0], b.points[0]);
        }
    }
    let results = g.hand_results();
    let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
    assert_eq!(g.result().unwrap().totals, [sum(0), sum(1), sum(0), sum(1)]);
}

#[test]
fn parse_errors_differ_from_illegal_actions() {
    let g = dealt(A, A_KITTY);
    for text in ["give 2C", "bid 5", "declare", "null 3 double"] {
        assert!(g.parse_action(text).is_err(), "{text}");
    }
    assert!(matches!(
        g.resolve(seat(0), "whole"),
        Err(ActionError::Illegal(IllegalAction {
            reason: IllegalReason::WrongPhase,
            ..
        }))
    ));
    assert!(matches!(
        g.resolve(seat(1), "pass"),
        Err(ActionError::Illegal(IllegalAction {
            reason: IllegalReason::NotYourTurn { .. },
            ..
        }))
    ));
}

#[test]
fn registered_as_a_variant() {
    let mut g = Variant::Illustrated.new_game(&Options::new()).unwrap();
    assert_eq!(
        "illustrated".parse::<Variant>().unwrap(),
        Variant::Illustrated
    );
    assert_eq!(g.seats(), 4);
    assert_eq!(g.teams(), [0, 1, 0, 1]);
    deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
    assert_eq!(g.observe(seat(0)).game, Variant::Illustrated);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
}
