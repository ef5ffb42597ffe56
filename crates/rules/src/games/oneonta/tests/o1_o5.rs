//! Scenario tests: O1 to O5: solitaire deck, deal, jokers, bids and the dummy.

use super::*;

#[test]
fn o1_solitaire_deck_is_ten_to_ace_and_both_jokers() {
    let g = game(&[]);
    assert_eq!(g.seats(), 1);
    assert_eq!(
        g.deck(),
        cards("TC JC QC KC AC TD JD QD KD AD TH JH QH KH AH TS JS QS KS AS LJ BJ")
    );
    assert_eq!(g.deck().len(), 22);
    // 9 + 9 + 4 (O2): the deck is exactly enough.
    assert_eq!(2 * 9 + 4, g.deck().len());
    assert_eq!(deck_for(Mode::Solitaire, 1), (decks::reduced(Rank::Ten), 9));
}

#[test]
fn o2_solitaire_deal_alternates_dummy_first_and_turns_the_nineteenth_card() {
    let mut g = game(&[]);
    let order = g.deck().to_vec();
    // TC JC QC KC AC TD JD QD KD AD TH JH QH KH AH TS JS QS KS | AS LJ BJ
    g.deal(&order).unwrap();
    assert_eq!(g.hands[0], cards("JC KC TD QD AD JH KH TS QS"));
    assert_eq!(
        g.dummy.as_slice(),
        cards("TC QC AC JD KD TH QH AH JS").to_vec().as_slice(),
        "the dummy's pile in deal order"
    );
    assert_eq!(g.turn_up, Some(card("KS")));
    assert_eq!(g.undealt, cards("AS LJ BJ"));
    let o = g.observe(seat(0));
    assert_eq!(o.phase, Phase::Bid);
    assert_eq!(o.trump, Trump::Suit(Suit::Spades));
    assert_eq!(
        o.table,
        [TableCard {
            label: "turn-up".into(),
            owner: None,
            card: card("KS")
        }]
    );
    assert_eq!(
        o.piles,
        [("dummy".to_string(), 9), ("undealt".to_string(), 3)]
    );
    assert_eq!(o.history[..2], hand_start(0, seat(0), seat(0), g.hands[0]));
    assert_eq!(o.history[2..], [Event::TurnUp { card: card("KS") }]);
    assert_eq!(g.seen_by(seat(0)), g.hands[0].or(cards("KS")));
}

/// O3 checks shared by every form: the trump is the lone joker's suit.
pub(super) fn assert_lone_joker(g: &Oneonta, joker: Card) {
    assert_eq!(g.observe(seat(0)).trump, Trump::Jokers);
    assert_eq!(g.rules.suit_of(joker), suit_id::JOKERS);
    assert_eq!(g.rules.trump(), suit_id::JOKERS);
    assert_eq!(g.rules.suit_mask(suit_id::JOKERS), CardSet::single(joker));
}

#[test]
fn o3_solitaire_joker_turned_the_other_is_the_only_trump() {
    let mut g = game(&["hands=1"]);
    deal(
        &mut g,
        &["BJ AC KC QC JC TC AD KD QD"],
        "TD AH KH QH JH TH AS KS QS LJ JD JS TS",
    );
    assert_lone_joker(&g, Card::BIG_JOKER);
    act(&mut g, 0, "bid 2");
    // TD led: the player must follow with a diamond; BJ follows nothing.
    assert_eq!(legal_cards(&g, 0), cards("QD KD AD"));
    assert_eq!(
        g.check(seat(0), Action::Play(Card::BIG_JOKER)),
        Err(IllegalReason::MustFollow(Suit::Diamonds))
    );
    act(&mut g, 0, "QD");
    assert_eq!(g.core.tricks.won(seat(0)), 1);
    // AH led: void in hearts, anything goes, and no suit trumps: AC loses.
    assert_eq!(legal_cards(&g, 0).len(), 8);
    act(&mut g, 0, "AC");
    assert_eq!(g.core.tricks.done()[1].1, Player::Dummy);
    // KH led: BJ, played when unable to follow, beats everything.
    act(&mut g, 0, "BJ");
    assert_eq!(g.core.tricks.done()[2].1, Player::Seat(seat(0)));
    play_out(&mut g);
    assert!(
        g.hand_results()[0]
            .summary
            .starts_with("trump BJ alone (LJ turned)")
    );
}

#[test]
fn o3_solitaire_the_dummy_leads_the_lone_joker_and_anything_follows() {
    let mut g = game(&["hands=1"]);
    deal(
        &mut g,
        &["AC KC QC JC TC AD KD QD JD"],
        "LJ AH KH QH JH TH AS KS QS BJ TD JS TS",
    );
    assert_lone_joker(&g, Card::LITTLE_JOKER);
    act(&mut g, 0, "null 1");
    assert_eq!(
        g.core.tricks.current().cards(),
        [(Player::Dummy, Card::LITTLE_JOKER)]
    );
    // The whole hand may be played to the lone joker led; it wins.
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AC");
    assert_eq!(g.core.tricks.done()[0].1, Player::Dummy);
}

#[test]
fn o3_multi_joker_turned() {
    let mut g = game(&["mode=multi", "players=2"]);
    deal(
        &mut g,
        &["AH KH QH JH TH 9H 8H AD KD", "LJ AC KC QC JC TC 9C 8C 8D"],
        "BJ QD JD TD 9D 8S 9S TS JS QS KS AS",
    );
    assert_lone_joker(&g, Card::LITTLE_JOKER);
    act(&mut g, 1, "bid 9");
    act(&mut g, 0, "null 1");
    // LJ led: seat 0 may play any card, and LJ wins.
    act(&mut g, 1, "LJ");
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AH");
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(1)));
    // A plain suit led still must be followed; hearts trump nothing.
    act(&mut g, 1, "8D");
    assert_eq!(legal_cards(&g, 0), cards("KD AD"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("KH"))),
        Err(IllegalReason::MustFollow(Suit::Diamonds))
    );
    act(&mut g, 0, "AD");
    act(&mut g, 0, "KH");
    act(&mut g, 1, "AC");
    assert_eq!(
        g.core.tricks.done()[2].1,
        Player::Seat(seat(0)),
        "AC does not trump"
    );
}

#[test]
fn o3_coop_joker_turned() {
    let mut g = game(&["mode=coop", "players=3"]);
    deal(
        &mut g,
        &[
            "AS KS QS JS TS JD TD",
            "BJ AC KC QC JC TC AD",
            "AH KH QH JH TH KD QD",
        ],
        "LJ",
    );
    assert_lone_joker(&g, Card::BIG_JOKER);
    act(&mut g, 1, "bid 5");
    act(&mut g, 2, "bid 1");
    act(&mut g, 0, "bid 1");
    act(&mut g, 1, "BJ");
    assert_eq!(legal_cards(&g, 2), g.hands[2]);
    act(&mut g, 2, "AH");
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AS");
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(1)));
}

#[test]
fn o3_coop_dummy_joker_turned() {
    let mut g = game(&["mode=coop-dummy", "players=2"]);
    deal(
        &mut g,
        &["AH KH QH JH TH 9H 8H JD TD", "AC KC QC JC TC 9C 8C KD QD"],
        "BJ AS KS QS JS TS 9S 8S AD LJ 9D 8D",
    );
    assert_lone_joker(&g, Card::BIG_JOKER);
    act(&mut g, 1, "null 1");
    act(&mut g, 0, "null 1");
    assert_eq!(
        g.core.tricks.current().cards(),
        [(Player::Dummy, Card::BIG_JOKER)]
    );
    assert_eq!(legal_cards(&g, 1), g.hands[1]);
    act(&mut g, 1, "AC");
    assert_eq!(legal_cards(&g, 0), g.hands[0]);
    act(&mut g, 0, "AH");
    assert_eq!(g.core.tricks.done()[0].1, Player::Dummy);
}

#[test]
fn o4_solitaire_bids_and_the_hidden_dummy() {
    let mut g = solitaire(&[]);
    let mut expected: Vec<String> = (1..=9).map(|k| format!("bid {k}")).collect();
    expected.extend((1..=9).map(|r| format!("null {r}")));
    assert_eq!(legal(&g, 0), expected);
    let range = Err(IllegalReason::OutOfRange { min: 1, max: 9 });
    for bad in [
        Action::Bid(0),
        Action::Bid(10),
        Action::Null(0),
        Action::Null(10),
    ] {
        assert_eq!(g.check(seat(0), bad), range, "{bad}");
    }
    assert_eq!(
        g.check(seat(0), Action::Play(card("KH"))),
        Err(IllegalReason::WrongPhase)
    );
    // The player sees its own hand and the turn-up, never the dummy.
    let dummy = cards("BJ LJ AH KC JC KD JD KS JS");
    let o = g.observe(seat(0));
    assert_eq!(o.hand, cards(PLAYER));
    assert_eq!(g.seen_by(seat(0)), cards(PLAYER).or(cards("TH")));
    let text = format!("{o:?}");
    for c in dummy.or(cards("AC AD AS")) {
        assert!(!names(&text, c), "{c} shows: {text}");
    }
    act(&mut g, 0, "bid 5");
    // Play starts at once: the dummy's top card is turned and led.
    let o = g.observe(seat(0));
    assert_eq!(o.phase, Phase::Play);
    assert_eq!(o.trick.cards[..], [(Player::Dummy, Card::BIG_JOKER)]);
    assert_eq!(
        o.history.last(),
        Some(&Event::DummyPlay {
            card: Card::BIG_JOKER
        })
    );
    assert_eq!(o.me().bid, Some(Action::Bid(5)));
    assert_eq!(o.piles[0], ("dummy".to_string(), 8));
    assert_eq!(g.seen_by(seat(0)), cards(PLAYER).or(cards("TH BJ")));
    let text = format!("{o:?}");
    for c in dummy.minus(cards("BJ")) {
        assert!(!names(&text, c), "{c} shows: {text}");
    }
}

#[test]
fn o5_the_dummy_leads_every_trick_from_its_pile_in_deal_order() {
    let mut g = solitaire(&["hands=1"]);
    act(&mut g, 0, "bid 3");
    // BJ led asks for the trump suit: a heart.
    assert_eq!(legal_cards(&g, 0), cards("JH QH KH"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("QC"))),
        Err(IllegalReason::MustFollow(Suit::Hearts))
    );
    for _ in 0..3 {
        let first = legal_cards(&g, 0).first().unwrap();
        g.apply(seat(0), Action::Play(first)).unwrap();
    }
    // KC led: the player must follow with a club.
    assert_eq!(legal_cards(&g, 0), cards("TC QC"));
    assert_eq!(
        g.check(seat(0), Action::Play(card("QD"))),
        Err(IllegalReason::MustFollow(Suit::Clubs))
    );
    play_solitaire(&mut g, &[C, D, S]);
    let pile = ["BJ", "LJ", "AH", "KC", "JC", "KD", "JD", "KS", "JS"];
    let winners: Vec<Player> = g.core.tricks.done().iter().map(|(_, w)| *w).collect();
    let (d, p) = (Player::Dummy, Player::Seat(seat(0)));
    // The player wins JC, JD and JS; the dummy leads the next trick anyway.
    assert_eq!(winners, [d, d, d, d, p, d, p, d, p]);
    for (i, (trick, _)) in g.core.tricks.done().iter().enumerate() {
        assert_eq!(
            trick.cards()[0],
            (Player::Dummy, card(pile[i])),
            "trick {i}"
        );
        assert_eq!(trick.len(), 2);
    }
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [3]);
    assert_eq!(g.dummy_won, 6);
    assert_eq!(*r.points, [3]);
    assert_eq!(*r.made, [Some(true)]);
    assert_eq!(
        r.summary,
        "trump H; bids bid 3; tricks 3 (dummy 6); points +3"
    );
    let dummy_plays = g
        .core
        .log
        .iter()
        .filter(|e| matches!(e.event, Event::DummyPlay { .. }))
        .count();
    assert_eq!(dummy_plays, 9);
}
