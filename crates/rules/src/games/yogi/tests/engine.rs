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
    assert_eq!(o.trick.cards, [(Player::Seat(seat(1)), card("AS"))]);
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
fn legal_actions_agree_with_check() {
    let mut universe = vec![
        Action::No,
        Action::Declare,
        Action::Reveal,
        Action::Vote(true),
        Action::Vote(false),
        Action::Pass,
    ];
    for c in decks::WITH_TWO_JOKERS {
        universe.extend([Action::Play(c), Action::Place(c)]);
    }
    for k in 0..30 {
        universe.extend([Action::HandSize(k), Action::Count(k)]);
    }
    universe.extend((0..MAX_SEATS).map(|i| Action::Leader(Seat::new(i))));
    for (n, options) in OPTION_SETS.iter().enumerate() {
        for seed in 0..6u64 {
            let mut g = game(options);
            let mut rng = Shuffler::new(Seed::from_u64(1000 + seed));
            while !g.is_over() {
                if deal_if_needed(&mut g, Seed::from_u64(seed * 7 + n as u64)).unwrap() {
                    continue;
                }
                for s in Seat::all(g.seats()) {
                    let legal = g.legal_actions(s);
                    for &a in &universe {
                        assert_eq!(
                            g.validate(s, a).is_ok(),
                            legal.contains(&a),
                            "{options:?} seed {seed}: {s} {a}"
                        );
                    }
                }
                random_steps(&mut g, &mut rng, 1);
            }
        }
    }
}

#[test]
fn observations_do_not_depend_on_unseen_cards() {
    for (n, options) in OPTION_SETS.iter().enumerate() {
        for seed in 0..25u64 {
            let mut g = game(options);
            let order = deck_order(Seed::from_u64(seed * 11 + n as u64), g.deck());
            g.deal(&order).unwrap();
            let mut rng = Shuffler::new(Seed::from_u64(seed));
            let steps = rng.below(120) as usize;
            let done = random_steps(&mut g, &mut rng, steps);
            for s in Seat::all(g.seats()) {
                let seen = g.seen_by(s);
                // Re-deal the unseen cards among their own positions; the
                // placed cards follow their cards, and each nine and the
                // joker stay (a nine changes suit under Y2).
                let movable =
                    |c: Card| !seen.contains(c) && c.rank() != Some(Rank::Nine) && !c.is_joker();
                for suit in Suit::ALL {
                    let hidden: Vec<usize> = (0..order.len())
                        .filter(|&i| movable(order[i]) && order[i].suit() == Some(suit))
                        .collect();
                    let mut moved: Vec<Card> = hidden.iter().map(|&i| order[i]).collect();
                    rng.shuffle(&mut moved);
                    let mut map = [None; Card::COUNT];
                    for (&i, &c) in hidden.iter().zip(&moved) {
                        map[order[i].index()] = Some(c);
                    }
                    let remap = |c: Card| map[c.index()].unwrap_or(c);
                    let other: Vec<Card> = order.iter().map(|&c| remap(c)).collect();
                    let mut h = game(options);
                    h.deal(&other).unwrap();
                    for &(who, a) in &done {
                        let a = a.card().map_or(a, |c| a.with_card(remap(c)));
                        h.apply(who, a)
                            .unwrap_or_else(|e| panic!("{options:?} seed {seed} seat {s}: {e}"));
                    }
                    assert_eq!(
                        h.observe(s),
                        g.observe(s),
                        "{options:?} seed {seed} seat {s}"
                    );
                    assert_eq!(h.legal_actions(s), g.legal_actions(s));
                    assert_eq!(h.seen_by(s), seen);
                }
            }
        }
    }
}

#[test]
fn random_matches_end_totals_add_up_and_the_log_never_grows() {
    for (n, options) in OPTION_SETS.iter().enumerate() {
        let mut g = game(options);
        let seed = Seed::from_u64(n as u64);
        let mut rng = Shuffler::new(seed);
        let log_buffer = g.core.log.as_ptr();
        while !g.is_over() {
            if deal_if_needed(&mut g, seed).unwrap() {
                continue;
            }
            random_steps(&mut g, &mut rng, usize::MAX);
            assert!(g.core.log.len() <= LOG_CAPACITY);
        }
        assert_eq!(g.core.log.as_ptr(), log_buffer, "the log never reallocated");
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
