//! Scenario tests: L3.

use super::*;

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
    assert_eq!(g.core.phase, Phase::Declare);
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
    assert_eq!(g.core.phase, Phase::Declare);
    assert_eq!(g.observe(seat(1)).piles[1], ("discards".to_string(), 3));
}

#[test]
fn l3_without_no_one_sees_the_kitty() {
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 10H");
    act(&mut g, 0, "without");
    assert_eq!(g.core.phase, Phase::Declare);
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
    assert_eq!(g.core.phase, Phase::Declare);
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
    assert_eq!(g.core.phase, Phase::Declare);
    // A call other than a pass starts the count again.
    act(&mut g, 0, "announce four-aces");
    passes(&mut g, &[1, 2, 3]);
    assert_eq!(g.core.phase, Phase::Declare);
    act(&mut g, 0, "pass");
    assert_eq!(g.core.phase, Phase::Play);
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
    assert_eq!(g.core.phase, Phase::Declare);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(&mut g, 1, "pass");
    assert_eq!(g.core.phase, Phase::Play);
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
    assert_eq!(g.core.phase, Phase::Declare);
    act(&mut g, 2, "pass");
    assert_eq!(g.core.phase, Phase::Play);
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
