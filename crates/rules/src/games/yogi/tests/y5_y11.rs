//! Scenario tests: Y5 to Y11: declaring, revealing, play, fines, the match.

use super::*;

#[test]
fn y5_at_most_one_declarer_and_a_reveal_ends_the_round() {
    let mut g = example_bid();
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "the dealer's left first"
    );
    assert_eq!(legal(&g, 1), ["no", "declare", "reveal"]);
    act(&mut g, 1, "declare");
    assert_eq!(legal(&g, 2), ["no", "reveal"]);
    assert_eq!(
        g.check(seat(2), Action::Declare),
        Err(IllegalReason::Rule {
            id: "Y5",
            text: "there is already a declarer: only `no` or `reveal`"
        })
    );
    let o = g.observe(seat(4));
    assert_eq!(o.phase, Phase::Declare);
    assert_eq!(o.contract, Some((seat(1), Action::Declare)));
    assert_eq!(o.note("declarer"), Some("1"));
    // Y7: the declarer's bid card stays face down for now.
    assert_eq!(bid_cards_seen(&o), [(4, "9H".to_string())]);
    act(&mut g, 2, "no");
    // Seat 3 reveals: the round ends at once (seats 4 and 0 are not asked)
    // and the declaration is cancelled.
    act(&mut g, 3, "reveal");
    assert_eq!(g.stage, Stage::Leader);
    assert_eq!(g.to_act(), SeatSet::single(seat(3)));
    let o = g.observe(seat(4));
    assert_eq!(o.contract, Some((seat(3), Action::Reveal)));
    assert_eq!(o.note("declarer"), Some("-"));
    assert_eq!(o.note("revealer"), Some("3"));
    act(&mut g, 3, "lead 1");
    seat_1_takes_three_spade_tricks(&mut g);
    // Seats 1 (3 of 3) and 2 (0 of 0) made: m = 2. Seat 3 revealed and
    // missed (0 of 2): 3 + 8. Seats 4 and 0 missed: 3. Seat 1's cancelled
    // declaration counts for nothing.
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [0, 3, 0, 0, 0]);
    assert_eq!(*r.made, [false, true, true, false, false].map(Some));
    assert_eq!(*r.points, [3, 0, 0, 11, 3]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; \
         revealed by 3 (missed), cancelling 1's declaration"
    );
}

#[test]
fn y5_y8_nobody_calls_and_the_dealers_left_leads() {
    let mut g = example_bid();
    for s in [1, 2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    assert_eq!(g.stage, Stage::Play);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    let o = g.observe(seat(0));
    assert_eq!(o.contract, None);
    assert_eq!(o.note("leader"), Some("1"));
    seat_1_takes_three_spade_tricks(&mut g);
    // Y8: three tricks, then the hand is over. m = 2: the three others pay 3.
    assert_eq!(g.core.tricks.count(), 3);
    assert_eq!(g.status(), Status::Deal);
    let r = &g.hand_results()[0];
    assert_eq!(*r.points, [3, 0, 0, 3, 3]);
    assert_eq!(*r.totals, [3, 0, 0, 3, 3]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0"
    );
    assert_eq!(g.dealer(), seat(1), "the deal passes left");
}

#[test]
fn y6_the_revealers_card_at_once_its_leader_and_its_hand_after_the_first_card() {
    let mut g = example_bid();
    act(&mut g, 1, "no");
    act(&mut g, 2, "reveal");
    // Y6: seat 2's bid card is public at once, with its target.
    let o = g.observe(seat(4));
    assert_eq!(
        o.history.last(),
        Some(&Event::Reveal {
            seat: seat(2),
            cards: cards("5D")
        })
    );
    assert_eq!(
        bid_cards_seen(&o),
        [(2, "5D".to_string()), (4, "9H".to_string())]
    );
    assert_eq!(bids_seen(&o), [None, None, Some(0), None, Some(2)]);
    assert_eq!(o.players[2].known, CardSet::EMPTY, "not the hand yet");
    assert_eq!(o.phase, Phase::Choose);
    // The revealer names any seat to lead, itself included.
    assert_eq!(
        legal(&g, 2),
        ["lead 0", "lead 1", "lead 2", "lead 3", "lead 4"]
    );
    assert_eq!(
        g.check(seat(2), Action::Leader(seat(7))),
        Err(IllegalReason::OutOfRange { min: 0, max: 4 })
    );
    assert_eq!(g.check(seat(2), Action::No), Err(IllegalReason::WrongPhase));
    act(&mut g, 2, "lead 1");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert_eq!(g.observe(seat(0)).note("leader"), Some("1"));
    act(&mut g, 1, "AS");
    // After the first card the revealer's whole hand is public.
    let o = g.observe(seat(4));
    assert_eq!(o.players[2].known, cards("2D 3D 4D"));
    assert_eq!(
        o.history.last(),
        Some(&Event::Reveal {
            seat: seat(2),
            cards: cards("2D 3D 4D")
        })
    );
    assert!(g.seen_by(seat(4)).contains(card("3D")));
    act(&mut g, 2, "2D");
    assert_eq!(g.observe(seat(0)).players[2].known, cards("3D 4D"));
    for s in [3, 4, 0] {
        let a = g.legal_actions(seat(s))[0];
        g.apply(seat(s), a).unwrap();
    }
    for lead in ["KS", "QS"] {
        act(&mut g, 1, lead);
        for s in [2, 3, 4, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
    }
    // The revealer (seat 2) made: m = 2; +4 to every other seat. Seat 1
    // made: 4; seats 3, 4, 0 missed: 3 + 4.
    let r = &g.hand_results()[0];
    assert_eq!(*r.points, [7, 4, 0, 7, 7]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; revealed by 2 (made)"
    );
}

#[test]
fn y7_the_declarers_card_turns_up_after_the_first_card() {
    let mut g = example_bid();
    act(&mut g, 1, "declare");
    for s in [2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    let o = g.observe(seat(3));
    assert_eq!(o.contract, Some((seat(1), Action::Declare)));
    assert_eq!(bid_cards_seen(&o), [(3, "5H".to_string())]);
    assert_eq!(o.players[1].bid, None);
    assert!(!g.seen_by(seat(3)).contains(card("4C")));
    act(&mut g, 1, "AS");
    let o = g.observe(seat(3));
    assert_eq!(
        o.history.last(),
        Some(&Event::Reveal {
            seat: seat(1),
            cards: cards("4C")
        })
    );
    assert_eq!(
        bid_cards_seen(&o),
        [(1, "4C".to_string()), (3, "5H".to_string())]
    );
    assert_eq!(o.players[1].bid, Some(Action::Bid(3)));
    assert_eq!(
        o.players[1].known,
        CardSet::EMPTY,
        "a declarer's hand stays hidden"
    );
    assert!(g.seen_by(seat(3)).contains(card("4C")));
}

#[test]
fn y9_the_sources_example_two_make_and_one_of_them_declared() {
    let mut g = example_bid();
    act(&mut g, 1, "declare");
    for s in [2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    seat_1_takes_three_spade_tricks(&mut g);
    // Seat 1 (declared, 3 of 3) and seat 2 (0 of 0) made: m = 2. The other
    // maker pays the declarer's 2; the three others 3 + 2 = 5.
    let r = &g.hand_results()[0];
    assert_eq!(*r.bids, [2, 3, 0, 2, 2].map(|t| Some(Action::Bid(t))));
    assert_eq!(*r.tricks, [0, 3, 0, 0, 0]);
    assert_eq!(*r.points, [5, 0, 2, 5, 5]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; declared by 1 (made)"
    );
}

#[test]
fn y9_fines_by_hand() {
    let s = |i| Some(seat(i));
    // The source's example.
    assert_eq!(
        fines(&[false, true, true, false, false], s(1), None),
        [5, 0, 2, 5, 5]
    );
    // Two make, nobody calls: the three others pay 3.
    assert_eq!(
        fines(&[false, true, true, false, false], None, None),
        [3, 0, 0, 3, 3]
    );
    // Nobody makes: everyone pays 1.
    assert_eq!(fines(&[false; 4], None, None), [1, 1, 1, 1]);
    // A declarer who missed pays 4 on top of m + 1 (m = 1: 2 + 4).
    assert_eq!(fines(&[true, false, false], s(1), None), [0, 6, 2]);
    // A revealer who made: 4 to every other seat (m = 1, 2 + 4 for misses).
    assert_eq!(fines(&[true, false, false], None, s(0)), [0, 6, 6]);
    // A revealer who missed pays 8 on top (m = 2: 3 + 8).
    assert_eq!(fines(&[true, true, false], None, s(2)), [0, 0, 11]);
    // Everyone makes: nobody pays, but a declarer's 2 still goes to the others.
    assert_eq!(fines(&[true, true], None, None), [0, 0]);
    assert_eq!(fines(&[true, true], s(0), None), [0, 2]);
}

#[test]
fn y10_every_bid_card_is_public_at_the_end_of_the_hand() {
    let mut g = example_bid();
    act(&mut g, 1, "declare");
    for s in [2, 3, 4, 0] {
        act(&mut g, s, "no");
    }
    seat_1_takes_three_spade_tricks(&mut g);
    let o = g.observe(seat(3));
    assert_eq!(o.phase, Phase::Deal);
    let every: Vec<(usize, String)> = (0..5).map(|s| (s, EXAMPLE_BIDS[s].to_string())).collect();
    assert_eq!(bid_cards_seen(&o), every);
    assert_eq!(bids_seen(&o), [2, 3, 0, 2, 2].map(Some));
    // One Reveal per seat not yet shown (seat 1 was, after the first card).
    let reveals: Vec<usize> = o
        .history
        .iter()
        .rev()
        .skip(1)
        .take(4)
        .map(|e| match e {
            Event::Reveal { seat, .. } => seat.index(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(reveals, [4, 3, 2, 0]);
    assert_eq!(o.history.last(), Some(&Event::HandEnd { deal: 0 }));
    for (s, bid) in EXAMPLE_BIDS.iter().enumerate() {
        assert!(g.seen_by(seat(s)).contains(card(bid)));
        assert_eq!(
            g.seen_by(seat(s)).len(),
            21,
            "every card dealt and the turn-up"
        );
    }
}

#[test]
fn y11_a_match_is_two_deals_per_seat_and_the_lowest_total_wins() {
    assert_eq!(game(&[]).config().hands, 10);
    assert_eq!(game(&["players=3"]).config().hands, 6);
    assert_eq!(game(&["players=3", "hands=1"]).config().hands, 1);
    let mut g = game(&["players=3"]);
    assert_eq!(g.score_order(), ScoreOrder::LowerIsBetter);
    let seed = Seed::from_u64(8);
    let mut dealers = Vec::new();
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            dealers.push(g.dealer().index());
            continue;
        }
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
    assert_eq!(dealers, [0, 1, 2, 0, 1, 2], "each seat deals twice");
    let m = g.result().unwrap();
    assert_eq!(m.hands, 6);
    assert_eq!(m.order, ScoreOrder::LowerIsBetter);
    let sum = |s: usize| g.hand_results().iter().map(|r| r.points[s]).sum::<i32>();
    assert_eq!(m.totals, [sum(0), sum(1), sum(2)]);
    for s in 0..3 {
        let better = m.totals.iter().filter(|&&t| t < m.totals[s]).count();
        assert_eq!(m.ranks[s] as usize, 1 + better);
    }
    // Lower is better in the ranks.
    let r = MatchResult::by_totals(vec![9, 2, 5], vec![0, 1, 2], ScoreOrder::LowerIsBetter, 6);
    assert_eq!(r.ranks, [3, 1, 2]);
}

/// Y12 with three seats, dealer 0, h = 3 and 2C turned up. Seat 1 bids
/// one card (3D: 0), seat 2 two (4S 5S: 2), seat 0 one (KD: 0).
pub(super) const CHOOSER: [&str; 3] = ["7H 8D KD", "5H 6H 3D", "AH 4S 5S"];
