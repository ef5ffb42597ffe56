//! Scenario tests: L1.

use super::*;

// ----- L1 -----

#[test]
fn l1_deal_partnerships_and_kitty() {
    let g = dealt(A, A_KITTY);
    for (s, hand) in A.iter().enumerate() {
        assert_eq!(g.hands[s], cards(hand));
    }
    assert_eq!(g.kitty.map(|c| c.to_string()).join(" "), A_KITTY);
    assert_eq!(g.teams()[..], [0, 1, 0, 1]);
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
    assert_eq!(g.core.phase, Phase::Auction);
    act(&mut g, 0, "pass");
    // Three passes with a bid standing: its bidder declares.
    assert_eq!(g.core.phase, Phase::Choose);
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
    assert_eq!(g.core.phase, Phase::Choose);
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
    assert_eq!(*r.points, [0, 0, 0, 0]);
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
