//! Hidden information: what a seat observes depends only on what it may see.
//!
//! DESIGN.md promises that no message to a seat contains what that seat may not
//! see, "tested by construction": for random states of random matches of every
//! game and option set, and for every seat `s`, the cards of the current deal
//! that `s` has not seen (`deck − seen_by(s)`) are re-dealt by a random
//! permutation σ, applied both to the recorded deck order and to every card in
//! the recorded actions of the current deal; the match is replayed from scratch
//! with the earlier deals unchanged. If the replay is legal, `observe(s)` must be
//! byte-identical (as Debug text) and `legal_actions(s)` identical.
//!
//! Two kinds of σ are drawn: within each printed suit (jokers a class of their
//! own), which keeps every seat's suit lengths and so must always replay
//! legally (a follow-suit refusal there is itself a failure); and fully
//! random, which may break follow-suit constraints (those replays are skipped
//! and counted). Also, no card outside `seen_by(s)` may appear anywhere in the
//! Debug text of `observe(s)`.

mod common;

use common::{
    CardMap, Case, DealRecord, Driver, Policy, Rng, cases, contains_word, replay, suit_class,
};
use whistle_rules::{AnyGame, Card, CardSet, Game, Seat, Status, Variant};

#[derive(Debug, Default)]
struct Tally {
    states: usize,
    same_suit: usize,
    changed: usize,
    hidden: usize,
    random_legal: usize,
    random_skipped: usize,
}

/// Replays `driver`'s match with the current deal's cards mapped by `map`.
fn replay_mapped(driver: &Driver, map: &CardMap) -> Result<AnyGame, String> {
    let (current, earlier) = driver.deals.split_last().expect("a deal");
    let mut deals: Vec<DealRecord> = earlier.to_vec();
    deals.push(map.deal(current));
    replay(driver.variant, &driver.options, &deals)
}

fn check_seat(case: &Case, driver: &Driver, seat: Seat, rng: &mut Rng, tally: &mut Tally) {
    let label = &case.label;
    let game = &driver.game;
    let current = driver.deals.last().expect("a deal");
    let deck: CardSet = current.order.iter().copied().collect();
    let seen = game.seen_by(seat);
    assert_eq!(
        seen.minus(deck),
        CardSet::EMPTY,
        "{label}: seen_by({seat}) holds cards outside the deal"
    );
    let hidden = deck.minus(seen);
    tally.hidden += hidden.len();
    let obs = format!("{:?}", game.observe(seat));
    let legal = game.legal_actions(seat);

    // No hidden card is named anywhere in the observation.
    for card in hidden.iter() {
        assert!(
            !contains_word(&obs, &card.to_string()),
            "{label}: seat {seat} never saw {card} but its observation names it:\n{obs}"
        );
    }

    let whole = format!("{game:?}");
    let mut changed = 0;
    let mut compare = |other: &AnyGame, what: &str| {
        // Count re-deals that really changed the game: permuting cards that
        // all lie in one place changes nothing, and proves nothing.
        changed += (whole != format!("{other:?}")) as usize;
        let other_obs = format!("{:?}", other.observe(seat));
        assert_eq!(
            obs, other_obs,
            "{label}: seat {seat}'s observation changed when unseen cards were re-dealt ({what})"
        );
        assert_eq!(
            legal,
            other.legal_actions(seat),
            "{label}: seat {seat}'s legal actions changed ({what})"
        );
    };

    // Within each printed suit: must always replay.
    for _ in 0..2 {
        let map = CardMap::random_within(hidden, suit_class, rng);
        let other = replay_mapped(driver, &map).unwrap_or_else(|e| {
            panic!(
                "{label}: re-dealing unseen cards within their suits gave an illegal replay: {e}"
            )
        });
        compare(&other, "within suits");
        tally.same_suit += 1;
    }

    // Fully random: skip replays that break the rules.
    let map = CardMap::random_within(hidden, |_| 0u8, rng);
    match replay_mapped(driver, &map) {
        Ok(other) => {
            compare(&other, "any permutation");
            tally.random_legal += 1;
        }
        Err(_) => tally.random_skipped += 1,
    }
    tally.changed += changed;
}

fn run(case: &Case, first: u64, matches: u64, per_match: usize, tally: &mut Tally) {
    for seed in first..first + matches {
        let mut driver = Driver::new(case, 7_000 + seed);
        let mut rng = Rng::new(seed);
        let mut checked = 0;
        while !driver.game.is_over() {
            driver.step(&mut rng, Policy::nth(seed));
            // Check random states: mid-hand, and between hands (where the last
            // hand's events are still observed).
            let state_ok = !driver.deals.is_empty() && driver.game.status() != Status::Over;
            if state_ok && checked < per_match && rng.chance(1, 20) {
                checked += 1;
                tally.states += 1;
                // Sanity: replaying the record reproduces the game exactly.
                let again = replay(driver.variant, &driver.options, &driver.deals).unwrap();
                assert_eq!(
                    format!("{again:?}"),
                    format!("{:?}", driver.game),
                    "{}: replay differs",
                    case.label
                );
                for seat in Seat::all(driver.game.seats()) {
                    check_seat(case, &driver, seat, &mut rng, tally);
                }
            }
        }
        // The final state too.
        tally.states += 1;
        for seat in Seat::all(driver.game.seats()) {
            check_seat(case, &driver, seat, &mut rng, tally);
        }
    }
}

fn run_variant(variant: Variant) {
    // `WHISTLE_HIDDEN=matches,states_per_match,first_seed` overrides the sizes
    // for a longer soak (with `--release`).
    let (matches, per_match, first) = match std::env::var("WHISTLE_HIDDEN") {
        Ok(v) => {
            let n: Vec<u64> = v.split(',').map(|x| x.trim().parse().unwrap()).collect();
            (n[0], n[1] as usize, n.get(2).copied().unwrap_or(0))
        }
        Err(_) if common::in_ci() => (25, 10, 0),
        Err(_) => (40, 10, 0),
    };
    for case in cases().iter().filter(|c| c.variant == variant) {
        let mut tally = Tally::default();
        run(case, first, matches, per_match, &mut tally);
        println!("{}: {tally:?}", case.label);
        assert!(
            tally.states >= matches as usize * 2,
            "{}: too few states",
            case.label
        );
        assert!(
            tally.changed * 3 > tally.same_suit,
            "{}: the re-deals hardly changed a game ({tally:?})",
            case.label
        );
        assert!(
            tally.hidden > 0,
            "{}: no state had a hidden card",
            case.label
        );
        assert!(
            tally.random_legal > 0,
            "{}: no fully random permutation replayed ({tally:?})",
            case.label
        );
    }
}

#[test]
fn israeli_observations_ignore_unseen_cards() {
    run_variant(Variant::Israeli);
}

#[test]
fn every_other_game_observations_ignore_unseen_cards() {
    for variant in Variant::ALL {
        if variant != Variant::Israeli {
            run_variant(variant);
        }
    }
}

#[test]
fn a_seat_sees_its_own_hand_and_no_other_before_play() {
    // Right after a deal nothing is public yet but what the game turns up: a
    // seat's observation names its own cards, and seen_by is its hand plus
    // the table's face-up cards.
    for case in cases() {
        let mut driver = Driver::new(&case, 99);
        assert!(driver.deal_if_needed());
        let game = &driver.game;
        for seat in Seat::all(game.seats()) {
            let obs = game.observe(seat);
            let table: CardSet = obs.table.iter().map(|t| t.card).collect();
            let known: CardSet = obs
                .players
                .iter()
                .fold(CardSet::EMPTY, |acc, p| acc.or(p.known));
            assert_eq!(
                game.seen_by(seat),
                obs.hand.or(table).or(known),
                "{}: seat {seat}",
                case.label
            );
            let text = format!("{obs:?}");
            for card in (0..Card::COUNT).filter_map(Card::from_index) {
                let visible = game.seen_by(seat).contains(card);
                if !visible {
                    assert!(!contains_word(&text, &card.to_string()), "{}", case.label);
                }
            }
        }
    }
}
