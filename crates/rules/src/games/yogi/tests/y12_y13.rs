//! Scenario tests: Y12 and Y13: the dealer chooses, the vote.

use super::*;

pub(super) fn chooser_bid(options: &[&str]) -> Yogi {
    let mut g = game(options);
    g.deal(&order_for(0, &CHOOSER, "2C")).unwrap();
    act(&mut g, 0, "size 3");
    act(&mut g, 1, "count 1");
    act(&mut g, 1, "place 3D");
    act(&mut g, 2, "count 2");
    act(&mut g, 2, "place 4S");
    act(&mut g, 2, "place 5S");
    act(&mut g, 0, "count 1");
    act(&mut g, 0, "place KD");
    g
}

#[test]
fn y12_the_dealer_chooses_the_size_and_bids_are_sequential() {
    let mut g = game(&["players=3", "dealer-chooses=true", "hands=1"]);
    assert!(g.accepts(ActionKind::HandSize));
    assert!(!game(&[]).accepts(ActionKind::HandSize));
    assert!(game(&[]).parse_action("size 3").is_err());
    g.deal(&order_for(0, &CHOOSER, "2C")).unwrap();
    // The dealer chooses before any card is dealt: nobody holds or sees any.
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    let o = g.observe(seat(0));
    assert_eq!(o.phase, Phase::Choose);
    assert_eq!(o.hand, CardSet::EMPTY);
    assert_eq!(o.table, []);
    assert_eq!(o.trump, Trump::Undecided);
    assert_eq!(o.note("hand-size"), Some("-"));
    assert_eq!(g.seen_by(seat(0)), CardSet::EMPTY);
    // 2 ≤ h and 3h + 1 ≤ 53: 2..=17.
    let sizes = g.legal_actions(seat(0));
    assert_eq!(sizes.first(), Some(&Action::HandSize(2)));
    assert_eq!(sizes.last(), Some(&Action::HandSize(17)));
    assert_eq!(sizes.len(), 16);
    assert_eq!(
        g.check(seat(0), Action::HandSize(18)),
        Err(IllegalReason::OutOfRange { min: 2, max: 17 })
    );
    act(&mut g, 0, "size 3");
    assert_eq!(g.hands[1], cards("5H 6H 3D"));
    assert_eq!(g.turn_up, Some(card("2C")));
    assert_eq!(g.observe(seat(2)).note("hand-size"), Some("3"));
    // Sequential from the dealer's left: a count (1..=h-1), then the cards.
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    assert!(!g.simultaneous());
    assert_eq!(legal(&g, 1), ["count 1", "count 2"]);
    act(&mut g, 1, "count 1");
    assert_eq!(g.observe(seat(0)).note("bid-counts"), Some("- 1 -"));
    act(&mut g, 1, "place 3D");
    act(&mut g, 2, "count 2");
    act(&mut g, 2, "place 4S");
    // Others see that seat 2 placed a card, not which.
    let o0 = g.observe(seat(0));
    assert_eq!(
        o0.history.last(),
        Some(&Event::Hidden {
            seat: seat(2),
            kind: ActionKind::Place
        })
    );
    assert_eq!(o0.players[2].held, 2);
    assert_eq!(o0.players[1].bid, None);
    let o2 = g.observe(seat(2));
    assert_eq!(bid_cards_seen(&o2), [(2, "4S".to_string())]);
    assert_eq!(o2.players[2].bid, None, "not complete yet");
    act(&mut g, 2, "place 5S");
    assert_eq!(g.observe(seat(2)).players[2].bid, Some(Action::Bid(2)));
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    act(&mut g, 0, "count 1");
    act(&mut g, 0, "place KD");
    assert_eq!(g.stage, Stage::Declare);
    assert_eq!(g.observe(seat(1)).note("bid-counts"), Some("1 1 2"));
    let targets: Vec<u8> = (0..3).map(|s| g.target_of(seat(s))).collect();
    assert_eq!(targets, [0, 0, 2]);
}

#[test]
fn y12_empty_hands_are_skipped_and_a_winner_without_cards_passes_the_lead() {
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true", "hands=1"]);
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    // Trick 1: 5H, AH (seat 2's last card) wins, 7H.
    act(&mut g, 1, "5H");
    act(&mut g, 2, "AH");
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    act(&mut g, 0, "7H");
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(2)));
    // Seat 2 has no cards: the next seat clockwise holding cards, seat 0, leads.
    assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    let o = g.observe(seat(1));
    assert!(!o.players[2].active);
    assert!(o.players[0].active);
    act(&mut g, 0, "8D");
    // Seat 2 is skipped; seat 1 follows and the trick is complete.
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(&mut g, 1, "6H");
    assert_eq!(g.core.tricks.done()[1].0.len(), 2);
    assert_eq!(g.core.tricks.done()[1].1, Player::Seat(seat(0)));
    // Tricks 1 0 1 against targets 0 0 2: seat 1 made (m = 1); the others pay 2.
    assert!(g.is_over());
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [1, 0, 1]);
    assert_eq!(*r.points, [2, 0, 2]);
    assert_eq!(
        r.summary,
        "size 3; turn-up 2C (trump C); targets 0 0 2; tricks 1 0 1"
    );
}

#[test]
fn y12_a_declare_or_reveal_shows_every_bid_card_of_the_seat() {
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true"]);
    act(&mut g, 1, "no");
    act(&mut g, 2, "reveal");
    let o = g.observe(seat(0));
    assert_eq!(
        bid_cards_seen(&o),
        [
            (0, "KD".to_string()),
            (2, "4S".to_string()),
            (2, "5S".to_string())
        ]
    );
    assert_eq!(o.players[2].bid, Some(Action::Bid(2)));
    act(&mut g, 2, "lead 2");
    act(&mut g, 2, "AH");
    // The revealer's hand (now empty) is public; seat 2 sits out from now on.
    let o = g.observe(seat(0));
    assert_eq!(o.players[2].known, CardSet::EMPTY);
    assert_eq!(o.players[2].held, 0);
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true"]);
    act(&mut g, 1, "no");
    act(&mut g, 2, "declare");
    act(&mut g, 0, "no");
    assert_eq!(bid_cards_seen(&g.observe(seat(1))), [(1, "3D".to_string())]);
    act(&mut g, 1, "5H");
    assert_eq!(
        bid_cards_seen(&g.observe(seat(1))),
        [
            (1, "3D".to_string()),
            (2, "4S".to_string()),
            (2, "5S".to_string())
        ]
    );
}

#[test]
fn y13_a_majority_passes_every_bid_card_left() {
    let hands = ["2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S"];
    let mut g = game(&["players=3", "rotate-vote=true", "hands=1"]);
    g.deal(&order_for(0, &hands, "2C")).unwrap();
    act(&mut g, 0, "place 2D");
    act(&mut g, 1, "place 2H");
    act(&mut g, 2, "place 2S");
    // The vote: simultaneous; nothing shows until every seat has voted.
    assert_eq!(g.stage, Stage::Vote);
    assert!(g.simultaneous());
    assert_eq!(legal(&g, 0), ["vote yes", "vote no"]);
    let before = g.observe(seat(2));
    act(&mut g, 0, "vote yes");
    act(&mut g, 1, "vote no");
    assert_eq!(g.observe(seat(2)), before);
    assert_eq!(g.observe(seat(2)).to_act, SeatSet::all(3));
    act(&mut g, 2, "vote yes");
    // Two of three said yes: a strict majority. 2D goes to seat 1, 2H to
    // seat 2, 2S to seat 0.
    assert_eq!(g.stage, Stage::Declare);
    assert_eq!(g.bids[..3], [cards("2S"), cards("2D"), cards("2H")]);
    let o2 = g.observe(seat(2));
    assert_eq!(o2.note("rotated"), Some("yes"));
    // Every vote shows once the step is complete, in seat order.
    let votes: Vec<Event> = o2
        .history
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Action {
                    action: Action::Vote(_),
                    ..
                }
            )
        })
        .copied()
        .collect();
    let vote = |s: usize, v: bool| Event::Action {
        seat: seat(s),
        action: Action::Vote(v),
    };
    assert_eq!(votes, [vote(0, true), vote(1, false), vote(2, true)]);
    let all_votes = g
        .log()
        .iter()
        .filter(|e| {
            matches!(
                e.event,
                Event::Action {
                    action: Action::Vote(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(all_votes, 3, "each vote once in the hand's log");
    // Seat 2 sees the card it receives (2H from seat 1) and the one it
    // gives (2S to seat 0); of 2D passing from seat 0 to seat 1 it sees
    // only that a card passed.
    let take = |r: usize, c: Option<&str>, g: usize| Event::Take {
        seat: seat(r),
        card: c.map(card),
        from: Source::Seat(seat(g)),
    };
    let tail = [
        take(1, None, 0),
        take(2, Some("2H"), 1),
        take(0, Some("2S"), 2),
    ];
    assert!(o2.history.ends_with(&tail), "{:?}", o2.history);
    assert_eq!(
        bid_cards_seen(&o2),
        [(0, "2S".to_string()), (2, "2H".to_string())]
    );
    assert_eq!(bids_seen(&o2), [Some(1), None, Some(2)]);
    assert_eq!(g.seen_by(seat(2)), cards("2S 3S 4S 5S 2H 2C"));
    // Seat 2's target is now 2 (hearts): it holds no heart and wins nothing.
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    for _ in 0..3 {
        for s in [1, 2, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
    }
    // Seat 1 leads hearts each time and wins: tricks 0 3 0 against targets
    // 1 (2S), 0 (2D), 2 (2H): nobody made; everyone pays 1.
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [0, 3, 0]);
    assert_eq!(*r.bids, [1, 0, 2].map(|t| Some(Action::Bid(t))));
    assert_eq!(*r.points, [1, 1, 1]);
    assert_eq!(
        r.summary,
        "turn-up 2C (trump C); bids rotated; targets 1 0 2; tricks 0 3 0"
    );
}

#[test]
fn y13_a_tie_is_no_majority() {
    let hands = ["2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S", "6D 7D 8D TD"];
    let mut g = game(&["players=4", "rotate-vote=true"]);
    g.deal(&order_for(0, &hands, "2C")).unwrap();
    for (s, c) in [(0, "2D"), (1, "2H"), (2, "2S"), (3, "6D")] {
        act(&mut g, s, &format!("place {c}"));
    }
    for (s, v) in [(0, "yes"), (1, "yes"), (2, "no"), (3, "no")] {
        act(&mut g, s, &format!("vote {v}"));
    }
    assert_eq!(
        g.bids[..4],
        [cards("2D"), cards("2H"), cards("2S"), cards("6D")]
    );
    let o = g.observe(seat(0));
    assert_eq!(o.note("rotated"), Some("no"));
    assert_eq!(bid_cards_seen(&o), [(0, "2D".to_string())]);
    assert!(!o.history.iter().any(|e| matches!(e, Event::Take { .. })));
}

#[test]
fn y12_y13_groups_of_bid_cards_pass_as_one() {
    let mut g = chooser_bid(&["players=3", "dealer-chooses=true", "rotate-vote=true"]);
    assert_eq!(g.stage, Stage::Vote);
    for s in [0, 1, 2] {
        act(&mut g, s, "vote yes");
    }
    // Seat 2's 4S 5S go to seat 0, seat 1's 3D to seat 2, seat 0's KD to seat 1.
    assert_eq!(g.bids[..3], [cards("4S 5S"), cards("KD"), cards("3D")]);
    let targets: Vec<u8> = (0..3).map(|s| g.target_of(seat(s))).collect();
    assert_eq!(targets, [2, 0, 0]);
    let o1 = g.observe(seat(1));
    assert_eq!(
        bid_cards_seen(&o1),
        [(1, "KD".to_string()), (2, "3D".to_string())]
    );
    assert_eq!(o1.piles[1], ("bid-cards".to_string(), 2));
    let takes = o1
        .history
        .iter()
        .filter(|e| matches!(e, Event::Take { card: None, .. }))
        .count();
    assert_eq!(
        takes, 2,
        "seat 1 sees two cards pass from 2 to 0, face down"
    );
    // The hands are untouched: trick play as before.
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    for (s, c) in [(1, "5H"), (2, "AH"), (0, "7H"), (0, "8D"), (1, "6H")] {
        act(&mut g, s, c);
    }
    // Tricks 1 0 1 against targets 2 0 0: seat 1 made (m = 1); the others pay 2.
    assert_eq!(*g.hand_results()[0].points, [2, 0, 2]);
}
