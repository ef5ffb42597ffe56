//! Playthroughs: whole matches written out step by step and kept as golden
//! files in each game's folder
//! (`src/games/<game>/testdata/playthroughs/`, the cases in
//! `testdata/playthroughs.txt`), as OpenSpiel keeps its playthroughs.
//! For a few seeds and option sets of every game, each file holds every deal,
//! then at every step: who is to act, every seat's observation (its history
//! as the events that seat had not seen at its previous step) and legal
//! actions, and the action taken; every hand's result and the match result.
//! Any change to what a seat sees or may do, or to a score, shows as a diff.
//!
//! After a deliberate rules change, regenerate and review the diff:
//! `WHISTLE_UPDATE_PLAYTHROUGHS=1 cargo test -p whistle-rules --test playthroughs`.

mod common;

use std::fmt::Write as _;

use common::{Case, Driver, Policy, Rng, game_testdata, testdata_dir};
use whistle_rules::{Game, Options, Seat, Variant};

/// The playthroughs of `variant`, from its `testdata/playthroughs.txt`:
/// (name, options, seed, policy number).
fn cases(variant: Variant) -> Vec<(String, Vec<String>, u64, u64)> {
    game_testdata(variant, "playthroughs.txt")
        .into_iter()
        .map(|words| {
            let number = |i: usize| -> u64 {
                words
                    .get(i)
                    .and_then(|w| w.parse().ok())
                    .unwrap_or_else(|| panic!("{variant}: bad playthrough line {words:?}"))
            };
            (words[0].clone(), words[3..].to_vec(), number(1), number(2))
        })
        .collect()
}

/// The playthrough of one match as text.
fn playthrough(variant: Variant, options: &[String], seed: u64, policy: u64) -> String {
    let options = Options::parse(options).expect("well-formed options");
    let case = Case {
        variant,
        label: String::new(),
        options: options.clone(),
        vocabulary: variant.vocabulary(&options).expect("valid options"),
    };
    let mut d = Driver::new(&case, seed);
    let mut rng = Rng::new(seed);
    let policy = Policy::nth(policy);
    let mut out = String::new();
    let _ = writeln!(out, "game {variant}");
    let _ = writeln!(out, "options {}", d.game.options());
    let _ = writeln!(out, "seed {seed} policy {policy:?}");
    let seats = d.game.seats();
    let mut results = 0;
    let mut step = 0;
    let mut shown = vec![0usize; seats];
    let mut shown_deal = vec![u32::MAX; seats];
    while !d.game.is_over() {
        if d.deal_if_needed() {
            let deal = d.deals.last().expect("just dealt");
            let cards: Vec<String> = deal.order.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(
                out,
                "\ndeal {} dealer {}: {}",
                d.game.deals() - 1,
                d.game.dealer(),
                cards.join(" ")
            );
            continue;
        }
        let _ = writeln!(out, "\nstep {step} to_act {:?}", d.game.to_act());
        for s in Seat::all(seats) {
            // The observation without its history, then the events of the
            // history this seat had not seen at its previous step (the
            // history restarts with each hand).
            let mut obs = d.game.observe(s);
            let history = std::mem::take(&mut obs.history);
            let seen = &mut shown[s.index()];
            if history.len() < *seen || obs.deal != shown_deal[s.index()] {
                *seen = 0;
                shown_deal[s.index()] = obs.deal;
            }
            let _ = writeln!(out, "  obs {s}: {obs:?}");
            for e in &history[*seen..] {
                let _ = writeln!(out, "  event {s}: {e:?}");
            }
            *seen = history.len();
            let legal = d.game.legal_actions(s);
            if !legal.is_empty() {
                let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
                let _ = writeln!(out, "  legal {s}: {}", legal.join(", "));
            }
        }
        let (seat, action) = d.step(&mut rng, policy).expect("an action");
        let _ = writeln!(out, "  action {seat}: {action}");
        step += 1;
        for r in &d.game.hand_results()[results..] {
            let _ = writeln!(out, "\nhand result: {r:?}");
        }
        results = d.game.hand_results().len();
    }
    let _ = writeln!(out, "\nmatch result: {:?}", d.game.result());
    out
}

#[test]
fn playthroughs_match_their_golden_files() {
    let update = std::env::var("WHISTLE_UPDATE_PLAYTHROUGHS").is_ok_and(|v| v == "1");
    let mut failed = Vec::new();
    for variant in Variant::ALL {
        let cases = cases(variant);
        assert!(!cases.is_empty(), "no playthrough of {variant}");
        for (name, options, seed, policy) in cases {
            check(variant, &name, &options, seed, policy, update, &mut failed);
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Compares one playthrough with its golden file (or, with `update`,
/// writes the file); a difference is added to `failed`.
fn check(
    variant: Variant,
    name: &str,
    options: &[String],
    seed: u64,
    policy: u64,
    update: bool,
    failed: &mut Vec<String>,
) {
    {
        let text = playthrough(variant, options, seed, policy);
        assert_eq!(
            text,
            playthrough(variant, options, seed, policy),
            "{name}: not deterministic"
        );
        let dir = testdata_dir(variant).join("playthroughs");
        let path = dir.join(format!("{name}.txt"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
            return;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; generate it with WHISTLE_UPDATE_PLAYTHROUGHS=1",
                path.display()
            )
        });
        if golden != text {
            let line = golden
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .map_or(golden.lines().count().min(text.lines().count()), |i| i);
            failed.push(format!(
                "{name}: differs from {} at line {}:\n  golden: {}\n  now:    {}",
                path.display(),
                line + 1,
                golden.lines().nth(line).unwrap_or("(end)"),
                text.lines().nth(line).unwrap_or("(end)")
            ));
        }
    }
}
