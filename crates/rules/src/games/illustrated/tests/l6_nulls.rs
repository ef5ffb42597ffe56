//! Scenario tests: L6 and the nulls.

use super::*;

// ----- L6 and the nulls -----

/// N: seat 0 holds every two, three and four; seat 1 the court cards.
pub(super) const N: [&str; 4] = [
    "2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S",
    "AC KC QC AD KD QD AH KH QH AS KS QS",
    "JC TC 9C JD TD 9D JH TH 9H JS TS 9S",
    "8C 7C 6C 8D 7D 6D 8H 7H 6H 8S 7S 6S",
];
pub(super) const N_KITTY: &str = "5C 5D 5H 5S LJ BJ";
/// Three-card tricks: seat 1 wins them all.
pub(super) const N_PLAY: [&str; 12] = [
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
    assert!(g.core.tricks.done().iter().all(|(t, _)| t.len() == 3));
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
pub(super) const N2: [&str; 4] = [
    "AS 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H",
    "AC KC QC JC AD KD QD JD AH KH QH JH",
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "TC 9C 8C 7C TD 9D 8D 7D TH 9H 8H 7H",
];
pub(super) const N2_KITTY: &str = "6C 6D 6H 5H LJ BJ";

#[test]
fn l6_a_null_set_by_one_trick() {
    let mut g = dealt(N2, N2_KITTY);
    declare(&mut g, "null");
    act(&mut g, 0, "half");
    discard(&mut g, 0, "6C 6D 6H");
    passes(&mut g, &[0, 1, 2, 3]);
    play(&mut g, &["AS AC TC"]);
    assert_eq!(g.core.tricks.won(seat(0)), 1);
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
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(1)));
    // Played by a hand that cannot follow, it never wins.
    play(&mut g, &["KH 4D 4C"]);
    assert!(
        g.legal_actions(seat(0))
            .contains(&Action::Play(Card::BIG_JOKER))
    );
    act(&mut g, 0, "BJ");
    assert_eq!(g.core.tricks.done()[1].1, Player::Seat(seat(1)));
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
