//! A hand started from its match context ([`HandContext`]: hand number,
//! dealer, totals before it, the previous hand's bids) plays exactly as the
//! same hand did inside its match, in every game and option set: same seats
//! to act, same legal actions, same observation for every seat at every
//! step, same result, same end of match. This is what lets a disputed hand 2
//! or later be checked from a record typed in by a person.

mod common;

use common::{Driver, Policy, Rng, cases, replay};
use whistle_rules::{Action, ContextError, Game, HandContext, Options, Seat, Status, Variant};

/// The context of the hand about to be dealt in `game`, as a person would
/// read it off the match's earlier hands.
fn context_of(game: &impl Game, with_bids: bool) -> HandContext {
    let last = game.hand_results().last();
    HandContext {
        hand: game.deals(),
        dealer: game.dealer(),
        totals: last.map_or_else(Vec::new, |r| r.totals.to_vec()),
        misdeals: game.hand_results().iter().filter(|r| r.misdeal).count() as u32,
        previous_bids: match (with_bids, last) {
            (true, Some(r)) => r.bids.to_vec(),
            _ => Vec::new(),
        },
    }
}

#[test]
fn a_hand_started_from_its_context_plays_as_in_its_match() {
    let mut checked = 0;
    for case in cases() {
        for seed in 0..3u64 {
            let mut rng = Rng::new(seed);
            let mut d = Driver::new(&case, seed);
            while !d.game.is_over() && d.deals.len() < 5 {
                d.step(&mut rng, Policy::nth(seed));
            }
            for k in 1..d.deals.len() {
                let label = format!("{} seed {seed} hand {k}", case.label);
                let mut original = replay(case.variant, &case.options, &d.deals[..k]).unwrap();
                assert_eq!(original.status(), Status::Deal, "{label}");
                let mut fresh = case.variant.new_game(&case.options).unwrap();
                // Only the games whose rules read them take previous bids.
                let ctx = context_of(&original, true);
                match fresh.start_at(&ctx) {
                    Ok(()) => {}
                    Err(ContextError::Unused { .. }) => {
                        fresh
                            .start_at(&context_of(&original, false))
                            .unwrap_or_else(|e| panic!("{label}: {e}"));
                    }
                    Err(e) => panic!("{label}: {e}"),
                }
                assert_eq!(fresh.deals(), original.deals(), "{label}");
                assert_eq!(fresh.dealer(), original.dealer(), "{label}");
                let deal = &d.deals[k];
                original.deal(&deal.order).unwrap();
                fresh.deal(&deal.order).unwrap();
                let seats = original.seats();
                let same = |a: &whistle_rules::AnyGame, b: &whistle_rules::AnyGame, at: &str| {
                    assert_eq!(a.to_act(), b.to_act(), "{label} {at}: to act");
                    for s in Seat::all(seats) {
                        assert_eq!(
                            a.legal_actions(s),
                            b.legal_actions(s),
                            "{label} {at}: legal"
                        );
                        assert_eq!(a.observe(s), b.observe(s), "{label} {at}: seat {s} sees");
                    }
                };
                same(&original, &fresh, "after the deal");
                for (i, &(seat, action)) in deal.actions.iter().enumerate() {
                    original.apply(seat, action).unwrap();
                    fresh.apply(seat, action).unwrap_or_else(|e| {
                        panic!("{label} step {i}: refused in the fresh game: {e}")
                    });
                    same(&original, &fresh, &format!("step {i}"));
                }
                assert_eq!(
                    &original.hand_results()[k..],
                    fresh.hand_results(),
                    "{label}: result"
                );
                assert_eq!(original.status(), fresh.status(), "{label}: after the hand");
                assert_eq!(original.result(), fresh.result(), "{label}: match result");
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} hands checked");
}

fn game(variant: Variant, options: &[&str]) -> whistle_rules::AnyGame {
    variant.new_game(&Options::parse(options).unwrap()).unwrap()
}

fn ctx(hand: u32, dealer: usize, totals: &[i32], bids: &[Option<&str>]) -> HandContext {
    HandContext {
        hand,
        dealer: Seat::new(dealer),
        totals: totals.to_vec(),
        misdeals: 0,
        previous_bids: bids
            .iter()
            .map(|b| b.map(|t| t.parse::<Action>().unwrap()))
            .collect(),
    }
}

/// O13: in a later hand the seat with the highest positive bid of the hand
/// before bids first; ties go to the highest total, then the dealer or the
/// first seat clockwise from it.
#[test]
fn oneonta_o13_the_previous_bids_and_the_totals_choose_who_bids_first() {
    // (previous bids, totals, the seat that bids first)
    type Case<'a> = (&'a [Option<&'a str>], &'a [i32], usize);
    let cases: [Case; 4] = [
        (
            &[Some("bid 1"), Some("bid 3"), Some("null 2"), Some("bid 2")],
            &[0, 0, 0, 0],
            1,
        ),
        (
            &[Some("bid 3"), Some("bid 1"), Some("null 2"), Some("bid 3")],
            &[5, 0, 0, 9],
            3,
        ),
        (
            &[Some("bid 3"), Some("bid 1"), Some("null 2"), Some("bid 3")],
            &[5, 0, 0, 5],
            3,
        ),
        (
            &[
                Some("null 1"),
                Some("null 2"),
                Some("null 3"),
                Some("null 1"),
            ],
            &[0, 4, 4, 1],
            2,
        ),
    ];
    for (bids, totals, first) in cases {
        let mut g = game(Variant::Oneonta, &["mode=multi", "players=4"]);
        // Hand 2 dealt by seat 2 (the deal passes left from seat 0).
        g.start_at(&ctx(2, 2, totals, bids)).unwrap();
        let order = g.deck().to_vec();
        g.deal(&order).unwrap();
        assert_eq!(
            g.to_act().first(),
            Some(Seat::new(first)),
            "bids {bids:?} totals {totals:?}"
        );
        assert_eq!(g.observe(Seat::new(0)).players[3].total, totals[3]);
        assert_eq!(g.observe(Seat::new(0)).deal, 2);
    }
    // Without the previous bids the order cannot be known.
    let mut g = game(Variant::Oneonta, &["mode=multi", "players=4"]);
    let err = g.start_at(&ctx(2, 2, &[0; 4], &[])).unwrap_err();
    assert!(err.to_string().contains("O13"), "{err}");
}

/// O15: a hand after the last one is a play-off among the seats tied for
/// the lead, dealt by one of them.
#[test]
fn oneonta_o15_a_play_off_hand_from_its_context() {
    let mut g = game(Variant::Oneonta, &["mode=multi", "players=4"]);
    let bids = [Some("bid 1"), Some("bid 2"), Some("bid 1"), Some("bid 1")];
    g.start_at(&ctx(7, 1, &[9, 12, 3, 12], &bids)).unwrap();
    // Two tied seats play the two-player deck (O11, O15).
    assert_eq!(g.deck().len(), 30);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    let o = g.observe(Seat::new(1));
    assert!(o.players[1].active && o.players[3].active);
    assert!(!o.players[0].active && !o.players[2].active);
    // Not tied, or a dealer who does not play, is no play-off.
    for (totals, dealer) in [([9, 12, 3, 11], 1), ([9, 12, 3, 12], 0)] {
        let mut g = game(Variant::Oneonta, &["mode=multi", "players=4"]);
        let err = g.start_at(&ctx(7, dealer, &totals, &bids)).unwrap_err();
        assert!(err.to_string().contains("O15"), "{err}");
    }
}

/// What cannot be a match state is refused with the rule that says why.
#[test]
fn impossible_contexts_are_refused_with_their_reason() {
    let refused = |variant, options: &[&str], c: HandContext, needle: &str| {
        let mut g = game(variant, options);
        let err = g.start_at(&c).unwrap_err();
        assert!(
            err.to_string().contains(needle),
            "{variant}: `{err}` lacks `{needle}`"
        );
    };
    refused(Variant::Israeli, &[], ctx(1, 4, &[], &[]), "no such seat");
    refused(
        Variant::Israeli,
        &[],
        ctx(1, 1, &[0, 0, 0], &[]),
        "`totals` has 3 entries",
    );
    refused(Variant::Israeli, &[], ctx(3, 3, &[310, 0, 0, 0], &[]), "I7");
    refused(
        Variant::Israeli,
        &["hands=2"],
        ctx(2, 2, &[], &[]),
        "hand 2 does not exist",
    );
    refused(
        Variant::Israeli,
        &[],
        ctx(1, 1, &[], &[None, None, None, None]),
        "not used",
    );
    refused(
        Variant::Illustrated,
        &[],
        ctx(1, 1, &[5, 0, 4, 0], &[]),
        "L1",
    );
    refused(
        Variant::Illustrated,
        &["hands=4"],
        ctx(4, 0, &[], &[]),
        "L8",
    );
    refused(Variant::Honeymoon, &[], ctx(1, 1, &[15, 3], &[]), "H5");
    refused(Variant::Yogi, &[], ctx(10, 0, &[], &[]), "Y11");
    refused(
        Variant::Oneonta,
        &["mode=coop", "players=3"],
        ctx(1, 1, &[3, 2, 3], &[]),
        "O16",
    );
    refused(
        Variant::Oneonta,
        &["mode=multi", "players=2"],
        ctx(0, 0, &[], &[Some("bid 1"), Some("bid 2")]),
        "no previous hand",
    );
    // Only before the first deal.
    let mut g = game(Variant::Israeli, &[]);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    assert_eq!(
        g.start_at(&ctx(1, 1, &[], &[])),
        Err(ContextError::NotAtStart)
    );
}

/// I7: a match to a target ends after the context's hand once a total
/// reaches it, and the hand's totals start from the context's.
#[test]
fn israeli_i7_totals_carried_in_end_the_match_at_the_target() {
    let mut g = game(Variant::Israeli, &["target=100"]);
    g.start_at(&ctx(5, 1, &[95, 40, 0, -20], &[])).unwrap();
    let mut d = Driver {
        variant: Variant::Israeli,
        options: g.options(),
        seed: whistle_rules::dealing::Seed::from_u64(3),
        game: g,
        deals: Vec::new(),
    };
    let mut rng = Rng::new(1);
    while d.deals.len() < 2 && !d.game.is_over() {
        d.step(&mut rng, Policy::Uniform);
    }
    let first = &d.game.hand_results()[0];
    assert_eq!(first.deal, 5);
    assert_eq!(first.dealer, Seat::new(1));
    let before = [95, 40, 0, -20];
    for ((total, b), p) in first.totals.iter().zip(before).zip(&first.points) {
        assert_eq!(*total, b + p);
    }
    let over = first.totals.iter().any(|&t| t >= 100);
    assert_eq!(d.game.hand_results().len() == 1 && d.game.is_over(), over);
}
