//! Scenario tests: observations, options, reasons and the engine contract.

use super::*;

#[test]
fn observations_at_each_decision_show_exactly_what_is_public() {
    // Seat 4 watches the example hand with a declaration by seat 1.
    let mut g = game(&[]);
    g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
    let w = seat(4);
    let o = g.observe(w);
    assert_eq!(o.hand, cards(EXAMPLE[4]));
    assert_eq!(table(&o), [("turn-up".to_string(), None, "2C".to_string())]);
    assert_eq!(o.trump, Trump::Suit(Suit::Clubs));
    assert_eq!(o.note("joker"), Some("2C"));
    assert!(o.players.iter().all(|p| p.bid.is_none()));
    for s in [4, 2, 0, 3, 1] {
        act(&mut g, s, &format!("place {}", EXAMPLE_BIDS[s]));
    }
    act(&mut g, 1, "declare");
    act(&mut g, 2, "no");
    act(&mut g, 3, "no");
    let o = g.observe(w);
    assert_eq!(o.to_act, SeatSet::single(w));
    assert_eq!(legal(&g, 4), ["no", "reveal"]);
    let known_to_4 = cards("6H 7H 8H 9H 2C");
    assert_eq!(g.seen_by(w), known_to_4);
    // No card seat 4 has not seen is named anywhere in what it observes.
    let text = format!("{o:?}");
    let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    for c in decks::WITH_ONE_JOKER.minus(known_to_4) {
        assert!(!words.contains(&c.to_string().as_str()), "{c} in {text}");
    }
    assert!(o.players.iter().all(|p| p.known.is_empty() || p.seat == w));
    act(&mut g, 4, "no");
    act(&mut g, 0, "no");
    act(&mut g, 1, "AS");
    let o = g.observe(w);
    assert_eq!(o.trick.cards[..], [(Player::Seat(seat(1)), card("AS"))]);
    assert_eq!(bids_seen(&o), [None, Some(3), None, None, Some(2)]);
    assert_eq!(g.seen_by(w), known_to_4.or(cards("AS 4C")));
}

#[test]
fn options_resolve_and_round_trip() {
    let g = game(&[]);
    assert_eq!(
        g.options().to_string(),
        "dealer-chooses=false hands=10 players=5 rotate-vote=false"
    );
    options_round_trip(
        Yogi::new,
        Yogi::config,
        &[
            &["players=2"],
            &["players=13", "hands=3", "dealer-chooses=true"],
            &["rotate-vote=true", "hands=auto", "players=7"],
        ],
        &[
            "hands=0",
            "hands=unset",
            "players=0",
            "dealer-chooses=yes",
            "rotate-vote=1",
            "target=5",
        ],
    );
}

#[test]
fn illegal_actions_have_precise_reasons() {
    let mut g = game(&["dealer-chooses=true", "players=4"]);
    assert_eq!(
        g.validate(seat(0), Action::HandSize(3)),
        Err(IllegalReason::AwaitingDeal)
    );
    g.deal(&decks::WITH_ONE_JOKER.to_vec()).unwrap();
    assert_eq!(
        g.check(seat(0), Action::Count(1)),
        Err(IllegalReason::WrongPhase)
    );
    assert_eq!(
        g.validate(seat(1), Action::HandSize(3)),
        Err(IllegalReason::NotYourTurn {
            to_act: SeatSet::single(seat(0))
        })
    );
    act(&mut g, 0, "size 5");
    assert_eq!(
        g.check(seat(1), Action::Count(5)),
        Err(IllegalReason::OutOfRange { min: 1, max: 4 })
    );
    assert!(g.check(seat(1), Action::Count(0)).is_err());
    assert!(g.parse_action("give 2C").is_err());
    assert!(
        g.parse_action("vote yes").is_err(),
        "no vote without rotate-vote"
    );
    assert!(matches!(
        g.resolve(seat(1), "AS"),
        Err(crate::error::ActionError::Illegal(_))
    ));
}

pub(super) const OPTION_SETS: [&[&str]; 5] = [
    &["hands=3"],
    &["players=2", "dealer-chooses=true", "hands=3"],
    &["players=13", "rotate-vote=true", "hands=2"],
    &[
        "players=7",
        "dealer-chooses=true",
        "rotate-vote=true",
        "hands=2",
    ],
    &["players=13", "dealer-chooses=true", "hands=2"],
];

#[test]
fn random_matches_end_totals_add_up_and_the_log_never_grows() {
    for (n, options) in OPTION_SETS.iter().enumerate() {
        let mut g = game(options);
        play_random_match(&mut g, n as u64);
        let results = g.hand_results();
        for r in results {
            let dealt = r.tricks.iter().map(|&t| t as usize).sum::<usize>();
            assert!(dealt >= 1);
            assert!(r.bids.iter().all(Option::is_some));
        }
        let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
        let totals: Vec<i32> = (0..g.seats()).map(sum).collect();
        assert_eq!(g.result().unwrap().totals, totals);
    }
}

#[test]
fn the_largest_hand_fits_the_log() {
    // Two seats, 26 cards each, the longest Y12 hand: one bid card each,
    // then 25 tricks; and thirteen seats of four with every option.
    for (options, size) in [
        (
            &["players=2", "dealer-chooses=true", "rotate-vote=true"][..],
            "size 26",
        ),
        (
            &["players=13", "dealer-chooses=true", "rotate-vote=true"],
            "size 4",
        ),
    ] {
        let mut g = game(options);
        g.deal(&decks::WITH_ONE_JOKER.to_vec()).unwrap();
        let s = g.to_act().first().unwrap();
        act(&mut g, s.index(), size);
        while g.status() == Status::Act {
            let s = g.to_act().first().unwrap();
            let legal = g.legal_actions(s);
            // The most cards bid and a rotation: the last count, `vote yes`.
            let a = match legal[0] {
                Action::Count(_) => *legal.last().unwrap(),
                a => a,
            };
            g.apply(s, a).unwrap();
        }
        assert!(g.core.log.len() <= LOG_CAPACITY, "{}", g.core.log.len());
    }
}

#[test]
fn registered_as_a_variant() {
    let mut g = Variant::Yogi.new_game(&Options::new()).unwrap();
    assert_eq!("yogi".parse::<Variant>().unwrap(), Variant::Yogi);
    assert_eq!(g.seats(), 5);
    assert_eq!(g.deck().len(), 53);
    assert_eq!(g.score_order(), ScoreOrder::LowerIsBetter);
    deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
    assert_eq!(g.observe(seat(0)).game, Variant::Yogi);
}
