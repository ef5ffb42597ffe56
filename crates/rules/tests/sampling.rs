//! Worlds sampled from an observation (`whistle_rules::sample`): for random
//! states of random matches of every game and option set, and for the seats
//! at the table, every sampled world shows that seat exactly its
//! observation, sampling succeeds, and the unseen cards are drawn without
//! bias (a card's holder is uniform among the seats that may hold it).

mod common;

use common::{Case, Driver, Policy, Rng, cases, in_ci};
use whistle_rules::{
    AnyGame, Card, CardSet, Game, Observation, Seat, Status, Variant,
    dealing::{Seed, Shuffler},
    sample::WorldSampler,
};

#[derive(Debug, Default)]
struct Tally {
    states: usize,
    worlds: usize,
    attempts: usize,
    failed: Vec<String>,
}

const ATTEMPTS: usize = 20_000;

/// Samples worlds for `seat`'s observation of `game` and checks each.
fn check(case: &Case, game: &AnyGame, seat: Seat, rng: &mut Shuffler, tally: &mut Tally) {
    let obs = game.observe(seat);
    let fresh = case.variant.new_game(&case.options).unwrap();
    let sampler =
        WorldSampler::new(&fresh, &obs).unwrap_or_else(|e| panic!("{}: {e}\n{obs:#?}", case.label));
    tally.states += 1;
    for _ in 0..3 {
        let mut tries = 0;
        let world = loop {
            tries += 1;
            if let Some(w) = sampler.attempt(rng) {
                break Some(w);
            }
            if tries == ATTEMPTS {
                break None;
            }
        };
        tally.attempts += tries;
        let Some(world) = world.map(|w| w.game) else {
            tally.failed.push(format!(
                "{} seat {seat}, deal {}, {} events",
                case.label,
                obs.deal,
                obs.history.len()
            ));
            return;
        };
        tally.worlds += 1;
        assert_eq!(world.observe(seat), obs, "{}", case.label);
        // In a simultaneous step the world's other seats may not have
        // chosen yet where the true ones have: the seat cannot tell.
        if !game.simultaneous() {
            assert_eq!(world.to_act(), game.to_act());
        }
        if game.to_act().contains(seat) {
            assert_eq!(world.legal_actions(seat), game.legal_actions(seat));
        }
    }
}

fn run(variant: Variant) {
    let matches = if in_ci() { 3 } else { 6 };
    let mut rng = Shuffler::new(Seed::from_u64(variant as u64 + 1));
    for case in cases().into_iter().filter(|c| c.variant == variant) {
        let mut tally = Tally::default();
        for m in 0..matches {
            let mut r = Rng::new(1000 + m);
            let mut driver = Driver::new(&case, 77 + m);
            let policy = Policy::nth(m);
            let mut steps = 0;
            while !driver.game.is_over() && steps < 400 {
                steps += 1;
                driver.step(&mut r, policy);
                if driver.game.status() == Status::Act && r.chance(1, 4) {
                    for seat in Seat::all(driver.game.seats()) {
                        check(&case, &driver.game, seat, &mut rng, &mut tally);
                    }
                }
            }
        }
        eprintln!(
            "{}: {} states ({} without a world), {} worlds, {:.1} attempts a world",
            case.label,
            tally.states,
            tally.failed.len(),
            tally.worlds,
            tally.attempts as f64 / tally.worlds.max(1) as f64
        );
        // Every state yields worlds (the hardest, an Israeli hand after
        // three frisches, takes about thirty attempts a world).
        assert!(
            tally.failed.is_empty(),
            "{}: no world in {ATTEMPTS} attempts for {} of {} states: {:#?}",
            case.label,
            tally.failed.len(),
            tally.states,
            tally.failed
        );
    }
}

#[test]
fn israeli_worlds_match_the_observation() {
    run(Variant::Israeli);
}

#[test]
fn honeymoon_worlds_match_the_observation() {
    run(Variant::Honeymoon);
}

#[test]
fn illustrated_worlds_match_the_observation() {
    run(Variant::Illustrated);
}

#[test]
fn yogi_worlds_match_the_observation() {
    run(Variant::Yogi);
}

#[test]
fn oneonta_worlds_match_the_observation() {
    run(Variant::Oneonta);
}

/// Holders of the cards a seat has not seen, counted over many worlds.
fn holders(game: &AnyGame, obs: &Observation, worlds: usize) -> Vec<[usize; 4]> {
    let fresh = Variant::Israeli.new_game(&Default::default()).unwrap();
    let sampler = WorldSampler::new(&fresh, obs).unwrap();
    let mut rng = Shuffler::new(Seed::from_u64(5));
    let mut counts = vec![[0usize; 4]; Card::COUNT];
    for _ in 0..worlds {
        let w = sampler.sample(&mut rng, 1000).expect("a world");
        assert_eq!(w.weight, 1.0);
        let w = w.game;
        for s in Seat::all(4) {
            for c in w.observe(s).hand.iter() {
                counts[c.index()][s.index()] += 1;
            }
        }
    }
    let _ = game;
    counts
}

/// At the first bid of an Israeli hand, each card seat 0 cannot see is with
/// each other seat a third of the time (13 of 39 places each): a chi-square
/// test over the 39 cards at a fixed seed.
#[test]
fn unseen_cards_are_drawn_without_bias() {
    let mut g = Variant::Israeli.new_game(&Default::default()).unwrap();
    whistle_rules::dealing::deal_if_needed(&mut g, Seed::from_u64(9)).unwrap();
    let me = g.to_act().first().unwrap();
    let obs = g.observe(me);
    let n = 3000;
    let counts = holders(&g, &obs, n);
    let mut chi2 = 0.0;
    let mut cells = 0;
    for c in CardSet::STANDARD.iter() {
        if obs.hand.contains(c) {
            assert_eq!(counts[c.index()][me.index()], n);
            continue;
        }
        assert_eq!(counts[c.index()][me.index()], 0);
        for s in Seat::all(4).filter(|&s| s != me) {
            let expected = n as f64 / 3.0;
            let d = counts[c.index()][s.index()] as f64 - expected;
            chi2 += d * d / expected;
            cells += 1;
        }
    }
    // 39 cards × 2 free cells each = 78 degrees of freedom; the 99.9th
    // percentile of chi-square(78) is about 124.
    assert_eq!(cells, 117);
    assert!(
        chi2 < 124.0,
        "chi-square {chi2:.1} over 78 degrees of freedom"
    );
}

/// After a seat fails to follow suit, no world gives it a card of that suit,
/// and the other unseen cards stay uniform between the seats that may hold
/// them.
#[test]
fn a_void_shown_is_kept_in_every_world() {
    let mut rng = Rng::new(3);
    for seed in 0..200 {
        let case = &cases()
            .into_iter()
            .find(|c| c.variant == Variant::Israeli)
            .unwrap();
        let mut d = Driver::new(case, seed);
        // Play until some seat has shown a void, then check seat 0's worlds.
        let mut void = None;
        while !d.game.is_over() && void.is_none() {
            d.step(&mut rng, Policy::Uniform);
            let obs = d.game.observe(Seat::new(0));
            for t in &obs.tricks {
                let Some(led) = t.cards[0].1.suit() else {
                    continue;
                };
                for &(p, c) in &t.cards[1..] {
                    if c.suit() != Some(led)
                        && let Some(s) = p.seat()
                        && s != Seat::new(0)
                        && d.game.status() == Status::Act
                    {
                        void = Some((s, led));
                    }
                }
            }
        }
        let Some((s, suit)) = void else { continue };
        let obs = d.game.observe(Seat::new(0));
        let fresh = case.variant.new_game(&case.options).unwrap();
        let sampler = WorldSampler::new(&fresh, &obs).unwrap();
        let mut srng = Shuffler::new(Seed::from_u64(seed));
        for _ in 0..50 {
            let w = sampler.sample(&mut srng, ATTEMPTS).expect("a world").game;
            let hand = w.observe(s).hand;
            assert!(
                hand.iter().all(|c| c.suit() != Some(suit)),
                "seat {s} showed a void in {suit:?} but holds {hand}"
            );
        }
        return;
    }
    panic!("no void shown in 200 matches");
}

/// A constrained draw: after a first trick in which one seat failed to
/// follow the suit led and the two others followed, every unseen card of
/// that suit is with one of the two followers, each half the time (they
/// hold equally many unseen cards, so a uniform draw over the consistent
/// deals cannot prefer either): a chi-square test at a fixed seed.
#[test]
fn cards_of_a_void_suit_split_evenly_between_the_seats_that_may_hold_them() {
    let me = Seat::new(0);
    let case = cases()
        .into_iter()
        .find(|c| c.variant == Variant::Israeli)
        .unwrap();
    for seed in 0..500 {
        let mut rng = Rng::new(seed);
        let mut d = Driver::new(&case, seed);
        // Random play until the first trick is complete.
        while !d.game.is_over() && d.game.observe(me).tricks.is_empty() {
            d.step(&mut rng, Policy::Uniform);
        }
        let obs = d.game.observe(me);
        if obs.deal != 0 || obs.tricks.len() != 1 || obs.note("frisch") != Some("0") {
            continue;
        }
        let trick = &obs.tricks[0];
        let Some(led) = trick.cards[0].1.suit() else {
            continue;
        };
        let off: Vec<Seat> = trick
            .cards
            .iter()
            .filter(|(_, c)| c.suit() != Some(led))
            .filter_map(|(p, _)| p.seat())
            .collect();
        let [void] = off[..] else { continue };
        if void == me {
            continue;
        }
        let followers: Vec<Seat> = Seat::all(4).filter(|&s| s != me && s != void).collect();
        let unseen: Vec<Card> = CardSet::suit(led)
            .iter()
            .filter(|&c| !obs.hand.contains(c) && !trick.cards.iter().any(|&(_, t)| t == c))
            .collect();
        if unseen.len() < 4 {
            continue;
        }
        let fresh = case.variant.new_game(&case.options).unwrap();
        let sampler = WorldSampler::new(&fresh, &obs).unwrap();
        let mut srng = Shuffler::new(Seed::from_u64(seed));
        let n = 2000;
        let mut first = vec![0usize; Card::COUNT];
        for _ in 0..n {
            let w = sampler.sample(&mut srng, ATTEMPTS).expect("a world").game;
            assert_eq!(w.observe(me), obs);
            let hands: Vec<CardSet> = followers.iter().map(|&s| w.observe(s).hand).collect();
            assert!(w.observe(void).hand.iter().all(|c| c.suit() != Some(led)));
            for &c in &unseen {
                assert!(hands[0].contains(c) || hands[1].contains(c), "{c}");
                first[c.index()] += usize::from(hands[0].contains(c));
            }
        }
        let half = n as f64 / 2.0;
        let chi2: f64 = unseen
            .iter()
            .map(|c| {
                let d = first[c.index()] as f64 - half;
                2.0 * d * d / half
            })
            .sum();
        // Degrees of freedom: one a card (at most 12); the 99.9th
        // percentile of chi-square(12) is 32.9.
        assert!(
            chi2 < 32.9,
            "chi-square {chi2:.1} over {} cards",
            unseen.len()
        );
        return;
    }
    panic!("no first trick with one seat off suit in 500 matches");
}
