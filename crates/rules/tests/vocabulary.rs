//! `Game::vocabulary`: every action a game can ever take, with fixed ids.
//!
//! * Golden: each game's `testdata/vocabulary.txt` pins, for every option
//!   set of its `testdata/options.txt`, the vocabulary's size, its first
//!   and last entries and a fingerprint of every entry in order (FNV-1a of
//!   the texts, one a line), so that an id never moves unnoticed.
//! * Every entry is of the game's notation: listed once, accepted by
//!   `parse_action`, its text parsing back to it.
//! * Every legal action met in seeded random playouts of every game and
//!   option set has an id (`conformance.rs` checks the same at every state
//!   of its biased playouts, which reach the rare paths).
//!
//! `WHISTLE_VOCABULARY_PRINT=1` prints the golden lines the code gives now.

mod common;

use common::{Case, Driver, Rng, cases, fnv1a, testdata_dir};
use whistle_rules::{Action, Game, Variant};

/// One golden line: `options | size | first | last | fingerprint`.
fn golden_line(case: &Case, set: &str) -> String {
    let v = &case.vocabulary;
    let texts: Vec<String> = v.texts().collect();
    format!(
        "{set} | {} | {} | {} | {:016x}",
        v.len(),
        texts.first().map_or("-", String::as_str),
        texts.last().map_or("-", String::as_str),
        fnv1a(texts.join("\n").as_bytes())
    )
}

/// The option set of a case as its `options.txt` line gives it.
fn option_set(case: &Case) -> String {
    case.label
        .strip_prefix(case.variant.name())
        .unwrap_or(&case.label)
        .trim()
        .to_string()
}

fn golden_file(variant: Variant) -> Vec<String> {
    let path = testdata_dir(variant).join("vocabulary.txt");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_vocabulary_matches_its_golden_line() {
    let print = std::env::var("WHISTLE_VOCABULARY_PRINT").is_ok();
    for variant in Variant::ALL {
        let now: Vec<String> = cases()
            .iter()
            .filter(|c| c.variant == variant)
            .map(|c| golden_line(c, &option_set(c)))
            .collect();
        if print {
            println!("{variant}:\n{}", now.join("\n"));
            continue;
        }
        assert_eq!(
            now,
            golden_file(variant),
            "{variant}: the vocabulary changed (ids must stay fixed); \
             WHISTLE_VOCABULARY_PRINT=1 prints the lines it gives now"
        );
    }
}

#[test]
fn the_default_options_have_the_expected_sizes() {
    // I2-I4: pass, 45 trump bids, 52 gives, 14 contract bids, 52 plays.
    // H1: 54 plays. L2-L4: pass, 27 bids, 4 exchanges, 54 discards, 20
    // calls, 54 plays. Y1-Y6 (5 seats): 53 placements, no/declare/reveal,
    // 5 leaders, 53 plays. O1, O4 (solitaire): 9 bids, 9 nulls, 22 plays.
    let sizes = [
        (Variant::Israeli, 1 + 45 + 52 + 14 + 52),
        (Variant::Honeymoon, 54),
        (Variant::Illustrated, 1 + 27 + 4 + 54 + 20 + 54),
        (Variant::Yogi, 53 + 3 + 5 + 53),
        (Variant::Oneonta, 9 + 9 + 22),
    ];
    for (variant, size) in sizes {
        let v = variant.vocabulary(&Default::default()).unwrap();
        assert_eq!(v.len(), size, "{variant}");
        assert_eq!(
            v.len(),
            variant
                .new_game(&Default::default())
                .unwrap()
                .vocabulary()
                .len()
        );
    }
}

#[test]
fn every_entry_is_listed_once_and_is_of_the_games_notation() {
    for case in cases() {
        let game = case.variant.new_game(&case.options).unwrap();
        let mut raw = Vec::new();
        game.append_vocabulary(&mut raw);
        assert_eq!(raw.len(), case.vocabulary.len(), "{}: repeats", case.label);
        assert_eq!(raw, case.vocabulary.actions(), "{}", case.label);
        for (id, &a) in raw.iter().enumerate() {
            assert_eq!(case.vocabulary.id(a), Some(id), "{}: {a}", case.label);
            assert_eq!(case.vocabulary.action(id), Some(a), "{}", case.label);
            assert!(game.accepts(a.kind()), "{}: {a}", case.label);
            assert_eq!(game.parse_action(&a.to_string()), Ok(a), "{}", case.label);
        }
    }
}

#[test]
fn every_legal_action_of_random_playouts_has_an_id() {
    let matches = if common::in_ci() { 20 } else { 40 };
    for case in cases() {
        let mut met = vec![false; case.vocabulary.len()];
        let mut legal_seen = 0usize;
        for seed in 0..matches {
            let mut driver = Driver::new(&case, 7_000 + seed);
            let mut rng = Rng::new(seed);
            while !driver.game.is_over() {
                if driver.deal_if_needed() {
                    continue;
                }
                for seat in driver.game.to_act().iter() {
                    for a in driver.game.legal_actions(seat) {
                        let id = case.vocabulary.id(a).unwrap_or_else(|| {
                            panic!("{}: legal {a} has no id (seed {seed})", case.label)
                        });
                        met[id] = true;
                        legal_seen += 1;
                    }
                }
                driver.step_random(&mut rng);
            }
        }
        assert!(legal_seen > 0, "{}", case.label);
        // Every card of a game's deck gets played in this many matches:
        // the vocabulary names no card that cannot be.
        let unplayed: Vec<Action> = case
            .vocabulary
            .actions()
            .iter()
            .zip(&met)
            .filter(|&(a, &m)| !m && matches!(a, Action::Play(_)))
            .map(|(&a, _)| a)
            .collect();
        assert!(
            unplayed.is_empty() || case.variant == Variant::Oneonta,
            "{}: cards never playable: {unplayed:?}",
            case.label
        );
    }
}
