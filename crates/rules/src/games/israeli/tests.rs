//! Scenario tests of israeli, named by the decision ids of docs/rules.

use super::*;
use crate::card::Suit;
use crate::games::testing::{act, seat};

/// A deck order that deals `hands[s]` to seat `s` when `dealer` deals.
fn order_for(hands: [&str; 4], dealer: usize) -> Vec<Card> {
    let hands: Vec<Vec<Card>> = hands
        .iter()
        .map(|h| h.parse::<CardSet>().unwrap().to_vec())
        .collect();
    (0..52)
        .map(|i| hands[(dealer + 1 + i) % 4][i / 4])
        .collect()
}

const HANDS: [&str; 4] = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
];

fn dealt(options: &[&str]) -> Israeli {
    let mut g = Israeli::new(&Options::parse(options).unwrap()).unwrap();
    g.deal(&order_for(HANDS, 0)).unwrap();
    g
}

#[test]
fn i6_worked_numbers_from_the_source() {
    assert_eq!(score(5, 5, false), 35);
    assert_eq!(score(5, 7, false), -20);
    assert_eq!(score(0, 3, true), -30);
    assert_eq!(score(0, 1, false), -50);
    assert_eq!(score(0, 0, false), 50);
    assert_eq!(score(0, 0, true), 25);
    assert_eq!(score(13, 13, true), 179);
    assert_eq!(score(4, 1, true), -30);
}

#[test]
fn i1_deal_starts_at_dealers_left() {
    let g = dealt(&[]);
    for (s, hand) in HANDS.iter().enumerate() {
        assert_eq!(g.hands[s], hand.parse().unwrap());
    }
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
}

#[test]
fn i2_suit_first_order_matches_the_sources_example() {
    let mut g = dealt(&[]);
    act(&mut g, 1, "bid 7D");
    // 5H beats 7D: any bid in a higher suit is higher.
    assert!(g.check(seat(2), "bid 5H".parse().unwrap()).is_ok());
    // 6D does not; 8D does.
    assert_eq!(
        g.check(seat(2), "bid 6D".parse().unwrap()),
        Err(IllegalReason::NotHigher("bid 7D".parse().unwrap()))
    );
    assert!(g.check(seat(2), "bid 8D".parse().unwrap()).is_ok());
    assert!(g.check(seat(2), "bid 13C".parse().unwrap()).is_err());
    assert!(matches!(
        g.check(seat(2), "bid 4S".parse().unwrap()),
        Err(IllegalReason::OutOfRange { min: 5, .. })
    ));
}

#[test]
fn i2_number_first_is_bridge_order() {
    let mut g = dealt(&["auction-order=number-first"]);
    act(&mut g, 1, "bid 7D");
    assert!(g.check(seat(2), "bid 5H".parse().unwrap()).is_err());
    assert!(g.check(seat(2), "bid 7H".parse().unwrap()).is_ok());
    assert!(g.check(seat(2), "bid 8C".parse().unwrap()).is_ok());
}

#[test]
fn i2_auction_ends_after_three_passes_and_a_pass_does_not_bar() {
    let mut g = dealt(&[]);
    act(&mut g, 1, "pass");
    act(&mut g, 2, "bid 5C");
    act(&mut g, 3, "pass");
    act(&mut g, 0, "pass");
    act(&mut g, 1, "bid 5D"); // seat 1 passed before and bids again
    act(&mut g, 2, "pass");
    act(&mut g, 3, "pass");
    assert_eq!(g.core.phase, Phase::Auction);
    act(&mut g, 0, "pass");
    assert_eq!(g.core.phase, Phase::Bid);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert_eq!(g.observe(seat(3)).trump, Trump::Suit(Suit::Diamonds));
}

#[test]
fn i3_frisch_passes_three_cards_left_and_raises_the_minimum() {
    let mut g = dealt(&[]);
    for s in [1, 2, 3, 0] {
        act(&mut g, s, "pass");
    }
    assert_eq!(g.core.phase, Phase::Pass);
    assert!(g.simultaneous());
    assert_eq!(g.to_act(), SeatSet::all(4));
    for (s, cards) in [(0, ["2C", "3C", "4C"]), (1, ["2D", "3D", "4D"])] {
        for c in cards {
            act(&mut g, s, &format!("give {c}"));
        }
    }
    // Nothing moves until every seat has chosen, and no one sees others' choices.
    assert!(g.hands[1].contains("2D".parse().unwrap()));
    let o3 = g.observe(seat(3));
    assert!(!format!("{o3:?}").contains("2C"));
    // Not even who has chosen shows while the step is open (I3).
    assert!(!o3.history.iter().any(|e| matches!(e, Event::Hidden { .. })));
    assert_eq!(
        g.to_act().iter().map(Seat::index).collect::<Vec<_>>(),
        [2, 3]
    );
    assert!(g.check(seat(2), "give 2C".parse().unwrap()).is_err());
    for (s, cards) in [(3, ["2S", "3S", "4S"]), (2, ["2H", "3H", "4H"])] {
        for c in cards {
            act(&mut g, s, &format!("give {c}"));
        }
    }
    assert_eq!(g.core.phase, Phase::Auction);
    assert_eq!(g.min_bid(), 6);
    assert!(g.hands[1].contains("2C".parse().unwrap()));
    assert!(g.hands[0].contains("2S".parse().unwrap()));
    assert!(!g.hands[0].contains("2C".parse().unwrap()));
    // Once it completes, every seat sees each other seat's three gives
    // face down, and its own in full.
    let o2 = g.observe(seat(2));
    for s in [0, 1, 3] {
        let hidden = o2
            .history
            .iter()
            .filter(|e| {
                **e == Event::Hidden {
                    seat: seat(s),
                    kind: ActionKind::Give,
                }
            })
            .count();
        assert_eq!(hidden, 3, "seat {s}'s gives as seat 2 sees them");
    }
    assert!(!o2.history.iter().any(|e| matches!(
        e,
        Event::Hidden { seat: s, .. } if *s == seat(2)
    )));
    assert!(o2.history.contains(&Event::Action {
        seat: seat(2),
        action: "give 2H".parse().unwrap()
    }));
    // I8: the receiver sees the passed cards; the others do not.
    assert!(format!("{:?}", g.observe(seat(1)).history).contains("2C"));
    assert!(!format!("{:?}", g.observe(seat(2)).history).contains("2C"));
    assert!(g.check(seat(1), "bid 5S".parse().unwrap()).is_err());
    assert!(g.check(seat(1), "bid 6C".parse().unwrap()).is_ok());
}

#[test]
fn i3_fourth_all_pass_auction_is_a_misdeal() {
    let mut g = dealt(&["hands=2"]);
    for round in 0..4 {
        for s in [1, 2, 3, 0] {
            act(&mut g, s, "pass");
        }
        if round < 3 {
            for s in 0..4 {
                let cards: Vec<Action> = g.legal_actions(seat(s)).iter().take(3).copied().collect();
                for a in cards {
                    g.apply(seat(s), a).unwrap();
                }
            }
        }
    }
    assert_eq!(g.status(), Status::Deal);
    let r = g.hand_results().last().unwrap();
    assert!(r.misdeal);
    assert_eq!(*r.points, [0, 0, 0, 0]);
    assert_eq!(g.dealer(), seat(1), "the deal passes left");
    assert_eq!(g.core.scored(), 0, "a misdeal scores nothing");
    assert_eq!(
        g.hand_results().len(),
        1,
        "a misdeal counts towards `hands`"
    );
}

#[test]
fn i4_contract_bids_winner_minimum_and_no_total_of_thirteen() {
    let mut g = dealt(&[]);
    act(&mut g, 1, "bid 7D");
    for s in [2, 3, 0] {
        act(&mut g, s, "pass");
    }
    // The source's example: Bob 7, Lenny 0, Sally 3; Frank may not bid 3.
    assert!(g.check(seat(1), Action::Bid(6)).is_err());
    act(&mut g, 1, "bid 7");
    act(&mut g, 2, "bid 0");
    act(&mut g, 3, "bid 3");
    assert_eq!(
        g.check(seat(0), Action::Bid(3)),
        Err(IllegalReason::Rule {
            id: "I4",
            text: "the fourth bid may not make the total exactly 13"
        })
    );
    let legal = g.legal_actions(seat(0));
    assert_eq!(legal.len(), 13);
    assert!(!legal.contains(&Action::Bid(3)));
    act(&mut g, 0, "bid 4");
    assert_eq!(g.core.phase, Phase::Play);
    // I5: the auction winner leads.
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    let o = g.observe(seat(2));
    assert_eq!(o.note("over-under"), Some("over"));
}

#[test]
fn i5_i6_a_whole_hand_scores_as_computed_by_hand() {
    // Every seat holds one suit; diamonds are trump.
    let mut g = dealt(&["hands=1"]);
    act(&mut g, 1, "bid 13D");
    for s in [2, 3, 0] {
        act(&mut g, s, "pass");
    }
    act(&mut g, 1, "bid 13");
    act(&mut g, 2, "bid 0");
    act(&mut g, 3, "bid 0");
    act(&mut g, 0, "bid 1"); // 0 would make 13: not allowed
    // Seat 1 leads diamonds 13 times; the others cannot follow and discard.
    for _ in 0..13 {
        for s in [1, 2, 3, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
    }
    assert_eq!(g.status(), Status::Over);
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [0, 13, 0, 0]);
    // Total 14: an Over. Seat 1: 13² + 10; seats 2, 3: zero made in an Over; seat 0 missed by one.
    assert_eq!(*r.points, [-10, 179, 25, 25]);
    let m = g.result().unwrap();
    assert_eq!(m.ranks, [4, 1, 2, 2]);
}

#[test]
fn i5_must_follow_suit() {
    let mut g = Israeli::new(&Options::new()).unwrap();
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D",
        "AC 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ];
    g.deal(&order_for(hands, 0)).unwrap();
    act(&mut g, 1, "bid 5NT");
    for s in [2, 3, 0] {
        act(&mut g, s, "pass");
    }
    for (s, b) in [(1, 5), (2, 0), (3, 0), (0, 0)] {
        g.apply(seat(s), Action::Bid(b)).unwrap();
    }
    act(&mut g, 1, "3D");
    act(&mut g, 2, "2H");
    act(&mut g, 3, "2S");
    assert_eq!(
        g.check(seat(0), "2C".parse().unwrap()),
        Err(IllegalReason::MustFollow(Suit::Diamonds))
    );
    assert_eq!(
        g.legal_actions(seat(0)).as_slice(),
        [Action::Play("2D".parse().unwrap())]
    );
}

#[test]
fn i7_target_ends_the_match() {
    let mut g = Israeli::new(&Options::parse(&["target=100"]).unwrap()).unwrap();
    g.core.set_totals(&[95, 0, 0, 0]);
    g.deal(&order_for(HANDS, 0)).unwrap();
    act(&mut g, 1, "pass");
    act(&mut g, 2, "pass");
    act(&mut g, 3, "pass");
    act(&mut g, 0, "bid 5C");
    for s in [1, 2, 3] {
        act(&mut g, s, "pass");
    }
    for (s, b) in [(0, 13), (1, 0), (2, 0), (3, 1)] {
        g.apply(seat(s), Action::Bid(b)).unwrap();
    }
    while g.status() == Status::Act {
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
    assert_eq!(g.status(), Status::Over);
    assert_eq!(g.result().unwrap().winners(), [seat(0)]);
}

#[test]
fn parse_errors_differ_from_illegal_actions() {
    let g = dealt(&[]);
    assert!(g.parse_action("declare").is_err());
    assert!(g.parse_action("garbage").is_err());
    assert!(matches!(
        g.resolve(seat(1), "AS"),
        Err(crate::error::ActionError::Illegal(_))
    ));
    assert!(matches!(
        g.resolve(seat(1), "open-null"),
        Err(crate::error::ActionError::Parse(_))
    ));
}
