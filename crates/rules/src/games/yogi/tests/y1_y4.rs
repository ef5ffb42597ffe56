//! Scenario tests: Y1 to Y4: the deal, trump, the joker, bid cards.

use super::*;

#[test]
fn y1_four_cards_each_from_the_dealers_left_and_the_next_turned_up() {
    let mut g = game(&[]);
    assert_eq!(g.seats(), 5);
    assert_eq!(g.deck(), decks::WITH_ONE_JOKER);
    let order = decks::WITH_ONE_JOKER.to_vec();
    g.deal(&order).unwrap();
    // Seat 1 gets the 1st, 6th, 11th and 16th cards; the 21st is turned up.
    assert_eq!(g.hands[1], cards("2C 7C QC 4D"));
    assert_eq!(g.hands[0], cards("6C JC 3D 8D"));
    assert_eq!(g.turn_up, Some(card("9D")));
    assert_eq!(g.to_act(), SeatSet::all(5));
    assert!(g.simultaneous());
    let o = g.observe(seat(3));
    assert_eq!(o.phase, Phase::Bid);
    assert_eq!(table(&o), [("turn-up".to_string(), None, "9D".to_string())]);
    assert_eq!(o.note("turn-up"), Some("9D"));
    assert_eq!(
        o.piles,
        [("undealt".to_string(), 32), ("bid-cards".to_string(), 0)]
    );
    assert_eq!(
        g.seen_by(seat(3)),
        g.hands[3].or(CardSet::single(card("9D")))
    );
    // Y1: 2 to 13 players; 13 × 4 + 1 = 53 cards.
    for bad in ["players=1", "players=14", "players=x", "players=unset"] {
        assert!(
            Yogi::new(&Options::parse(&[bad]).unwrap()).is_err(),
            "{bad}"
        );
    }
    let mut g = game(&["players=13"]);
    g.deal(&order).unwrap();
    assert!(g.hands[..13].iter().all(|h| h.len() == 4));
    assert_eq!(g.turn_up, Some(Card::BIG_JOKER));
    let o = g.observe(seat(0));
    assert_eq!(o.piles[0], ("undealt".to_string(), 0));
    assert_eq!(o.trump, Trump::Nines);
    assert_eq!(o.note("joker"), Some("none"));
}

#[test]
fn y2_a_nine_turned_up_makes_the_nines_a_suit_and_trump() {
    // Dealer 0, three seats, 9D turned up: the nines are trump.
    let hands = ["9H 3S 4S 5S", "2H 9C JD QD", "AH KH 2S 9S"];
    let mut g = game(&["players=3"]);
    g.deal(&order_for(0, &hands, "9D")).unwrap();
    let o = g.observe(seat(0));
    assert_eq!(o.trump, Trump::Nines);
    assert_eq!(o.note("trump"), Some("nines"));
    assert_eq!(o.note("joker"), Some("9D"));
    act(&mut g, 0, "place 5S");
    act(&mut g, 1, "place JD");
    act(&mut g, 2, "place 2S");
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    // Seat 1 leads 2H. Seat 2 must follow with a heart. Seat 0 holds 9H,
    // which is no heart while the nines are a suit: it may play anything.
    act(&mut g, 1, "2H");
    assert_eq!(playable(&g, 2), cards("AH KH"));
    act(&mut g, 2, "KH");
    assert_eq!(playable(&g, 0), cards("9H 3S 4S"));
    act(&mut g, 0, "9H");
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(0)), "the nine trumps the hearts");
    // Seat 0 leads a spade: seat 2's 9S does not follow spades, AH may go.
    act(&mut g, 0, "3S");
    assert_eq!(playable(&g, 1), cards("9C QD"));
    act(&mut g, 1, "QD");
    assert_eq!(playable(&g, 2), cards("AH 9S"), "9S is not a spade");
    act(&mut g, 2, "AH");
    assert_eq!(g.core.tricks.done()[1].1, Player::Seat(seat(0)));
    // A nine led must be followed by a nine when held.
    act(&mut g, 0, "4S");
    act(&mut g, 1, "9C");
    act(&mut g, 2, "9S");
    assert_eq!(g.core.tricks.done()[2].1, Player::Seat(seat(1)), "9C beats 9S");
    let mut g = game(&["players=3"]);
    g.deal(&order_for(0, &hands, "9D")).unwrap();
    act(&mut g, 0, "place 3S");
    act(&mut g, 1, "place 2H");
    act(&mut g, 2, "place 2S");
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    act(&mut g, 1, "9C");
    assert_eq!(playable(&g, 2), cards("9S"));
    assert_eq!(
        g.check(seat(2), Action::Play(card("AH"))),
        Err(IllegalReason::MustFollowSpecial("nines"))
    );
    act(&mut g, 2, "9S");
    assert_eq!(playable(&g, 0), cards("9H"), "9H must follow the nines");
    assert_eq!(
        g.check(seat(0), Action::Play(card("4S"))),
        Err(IllegalReason::MustFollowSpecial("nines"))
    );
}

#[test]
fn y2_yogis_order_of_the_nines() {
    let winner = trick_winner;
    for turn_up in ["9D", "9S", "9H", "9C", "BJ"] {
        let rules = trick_rules(card(turn_up));
        assert_eq!(rules.trump(), suit_id::NINES, "{turn_up}");
        // 9D < 9S < 9H < 9C.
        assert_eq!(winner(&rules, "9D 9S"), 1);
        assert_eq!(winner(&rules, "9S 9H"), 1);
        assert_eq!(winner(&rules, "9H 9C"), 1);
        assert_eq!(winner(&rules, "9C 9D 9S 9H"), 0);
        assert_eq!(winner(&rules, "9S 9C 9D 9H"), 1);
        // The lowest nine trumps an ace; a plain nine is no card of its suit.
        assert_eq!(winner(&rules, "AS 9D"), 1);
        assert_eq!(winner(&rules, "8H 9H"), 1);
        assert_eq!(rules.suit_of(card("9H")), suit_id::NINES);
    }
    // Otherwise a nine is a card of its suit, between the eight and the ten.
    let rules = trick_rules(card("2C"));
    assert_eq!(winner(&rules, "8H 9H TH"), 2);
    assert_eq!(winner(&rules, "9H 8H"), 0);
    assert_eq!(winner(&rules, "9H 9C"), 1, "a club trumps");
    assert_eq!(winner(&rules, "9H 9S"), 0, "a spade does not follow");
}

#[test]
fn y2_y3_a_joker_turned_up_makes_nines_trump_and_no_joker_in_play() {
    let hands = ["9H AS", "2S 3S"];
    let mut g = game(&["players=2", "dealer-chooses=true"]);
    g.deal(&order_for(0, &hands, "BJ")).unwrap();
    act(&mut g, 0, "size 2");
    assert_eq!(g.turn_up, Some(Card::BIG_JOKER));
    let o = g.observe(seat(0));
    assert_eq!(o.trump, Trump::Nines);
    assert_eq!(o.note("joker"), Some("none"));
    assert_eq!(g.rules.suit_of(Card::BIG_JOKER), suit_id::NONE);
    assert_eq!(g.rules.suit_of(card("9H")), suit_id::NINES);
}

#[test]
fn y3_the_joker_is_a_second_copy_of_the_turn_up() {
    // 7H turned up: hearts are trump and BJ is a heart between 6H and 8H.
    let rules = trick_rules(card("7H"));
    assert_eq!(rules.suit_of(Card::BIG_JOKER), Suit::Hearts as u8);
    assert_eq!(rules.power_of(Card::BIG_JOKER), rules.power_of(card("7H")));
    let winner = |text: &str| {
        let mut t = Trick::new();
        for (i, c) in text.split_whitespace().enumerate() {
            t.push(Player::Seat(seat(i)), card(c));
        }
        rules.winning_index(&t)
    };
    assert_eq!(winner("6H BJ"), 1);
    assert_eq!(winner("BJ 8H"), 1);
    assert_eq!(winner("AS BJ"), 1, "the joker trumps");
    // In play: a heart led, the holder of BJ must follow with it.
    let hands = ["BJ 2S 3S 4S", "2H 5D 6D 7D", "AD KD QD JD"];
    let mut g = game(&["players=3"]);
    g.deal(&order_for(0, &hands, "7H")).unwrap();
    act(&mut g, 0, "place 4S");
    act(&mut g, 1, "place 7D");
    act(&mut g, 2, "place JD");
    for s in [1, 2, 0] {
        act(&mut g, s, "no");
    }
    act(&mut g, 1, "2H");
    assert_eq!(playable(&g, 2), cards("AD KD QD"));
    act(&mut g, 2, "AD");
    assert_eq!(playable(&g, 0), cards("BJ"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("2S"))),
        Err(IllegalReason::MustFollow(Suit::Hearts))
    );
    act(&mut g, 0, "BJ");
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(0)));
    // Y4: the joker bids as the turn-up's printed suit.
    assert_eq!(bid_value(Card::BIG_JOKER, card("7H")), 2);
    assert_eq!(bid_value(Card::BIG_JOKER, card("QD")), 0);
    assert_eq!(bid_value(Card::BIG_JOKER, card("9S")), 1);
    assert_eq!(bid_value(Card::BIG_JOKER, card("2C")), 3);
}

#[test]
fn y3_with_a_nine_turned_up_the_joker_is_that_nine() {
    let rules = trick_rules(card("9S"));
    assert_eq!(rules.suit_of(Card::BIG_JOKER), suit_id::NINES);
    let winner = |text: &str| {
        let mut t = Trick::new();
        for (i, c) in text.split_whitespace().enumerate() {
            t.push(Player::Seat(seat(i)), card(c));
        }
        rules.winning_index(&t)
    };
    assert_eq!(winner("9D BJ"), 1, "9S > 9D");
    assert_eq!(winner("BJ 9H"), 1, "9H > 9S");
    assert_eq!(winner("AS BJ"), 1, "a nine trumps");
    // It bids as a spade.
    let hands = ["BJ 2S 3S 4S", "2H 5D 6D 7D"];
    let mut g = game(&["players=2"]);
    g.deal(&order_for(0, &hands, "9S")).unwrap();
    act(&mut g, 0, "place BJ");
    act(&mut g, 1, "place 2H");
    assert_eq!(g.target_of(seat(0)), 1);
    assert_eq!(g.target_of(seat(1)), 2);
}

#[test]
fn y4_bid_cards_are_placed_at_once_and_face_down() {
    let mut g = game(&[]);
    g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
    let before = g.observe(seat(3));
    assert_eq!(
        legal(&g, 1),
        ["place 4C", "place QS", "place KS", "place AS"]
    );
    act(&mut g, 1, "place 4C");
    act(&mut g, 4, "place 9H");
    // Nothing of it shows to seat 3, not even who has placed: the cards stay
    // in their hands and every seat stays listed to act.
    let o3 = g.observe(seat(3));
    assert_eq!(o3, before);
    assert_eq!(o3.to_act, SeatSet::all(5));
    assert!(o3.simultaneous);
    assert_eq!(o3.players[1].held, 4);
    assert_eq!(
        g.to_act().iter().map(Seat::index).collect::<Vec<_>>(),
        [0, 2, 3]
    );
    assert!(g.legal_actions(seat(1)).is_empty());
    assert_eq!(
        g.validate(seat(1), Action::Place(card("AS"))),
        Err(IllegalReason::NotYourTurn {
            to_act: SeatSet::EMPTY
        })
    );
    // Seat 1 sees its own choice in its history.
    let o1 = g.observe(seat(1));
    assert_eq!(
        o1.history.last(),
        Some(&Event::Action {
            seat: seat(1),
            action: Action::Place(card("4C"))
        })
    );
    assert_eq!(
        g.check(seat(2), Action::Place(card("AS"))),
        Err(IllegalReason::NotInHand(card("AS")))
    );
    act(&mut g, 2, "place 5D");
    act(&mut g, 0, "place TH");
    act(&mut g, 3, "place 5H");
    // Complete: a Hidden marker for every other seat, in seat order.
    let o3 = g.observe(seat(3));
    let hidden = |s: usize| Event::Hidden {
        seat: seat(s),
        kind: ActionKind::Place,
    };
    assert_eq!(
        o3.history[o3.history.len() - 4..],
        [hidden(0), hidden(1), hidden(2), hidden(4)]
    );
    assert_eq!(o3.history.last(), Some(&hidden(4)));
    assert_eq!(o3.hand, cards("2H 3H 4H"));
    assert!(o3.players.iter().all(|p| p.held == 3));
    // Its own bid card shows to seat 3 alone, with its target.
    assert_eq!(bid_cards_seen(&o3), [(3, "5H".to_string())]);
    assert_eq!(bids_seen(&o3), [None, None, None, Some(2), None]);
    assert_eq!(o3.note("bid-counts"), Some("1 1 1 1 1"));
    assert_eq!(o3.piles[1], ("bid-cards".to_string(), 4));
    assert!(!format!("{o3:?}").contains("4C"));
    // Targets: D = 0, S = 1, H = 2, C = 3.
    let targets: Vec<u8> = (0..5).map(|s| g.target_of(seat(s))).collect();
    assert_eq!(targets, [2, 3, 0, 2, 2]);
    assert_eq!(
        YOGI_ORDER.map(suit_value),
        [0, 1, 2, 3],
        "D S H C is Yogi's order"
    );
    // A nine bids by its printed suit even while the nines are a suit.
    assert_eq!(bid_value(card("9H"), card("9D")), 2);
    assert_eq!(bid_value(card("9C"), Card::BIG_JOKER), 3);
}
