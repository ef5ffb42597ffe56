//! A caller that observes at every decision (the referee builds each seat's
//! compact request from `Game::observe_into`, without the history) allocates nothing once its kept
//! observation holds a state of the same shape: refilling it, in every game
//! and option set, at every state of whole matches, allocates nothing (the
//! vectors and strings it holds are refilled in place). What may still
//! allocate is growth past the largest state the observation has held (a
//! note or table card that a hand adds, after a hand that had none).
//!
//! Counted with a counting global allocator (`stats_alloc`), around the
//! `observe_into` calls only; not a timing.

mod common;

use common::{Driver, Rng, cases};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use whistle_rules::{Game, Observation, Seat};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn observe_into_allocates_nothing_refilling_a_kept_observation() {
    let mut report = Vec::new();
    let mut calls = 0u64;
    for case in cases() {
        for seed in 1..=3u64 {
            let mut d = Driver::new(&case, seed);
            let mut rng = Rng::new(seed);
            let seats = d.game.seats();
            // One observation a seat, kept across the match as the referee
            // keeps one a seat.
            let mut kept: Vec<Observation> = Seat::all(seats).map(|s| d.game.observe(s)).collect();
            let mut allocs = 0u64;
            while !d.game.is_over() {
                if d.deal_if_needed() {
                    continue;
                }
                for s in Seat::all(seats) {
                    let obs = &mut kept[s.index()];
                    // The first refill may grow the kept vectors and strings
                    // to this state's shape; the second must not allocate.
                    d.game.observe_into(s, false, obs);
                    let region = Region::new(GLOBAL);
                    d.game.observe_into(s, false, obs);
                    allocs += region.change().allocations as u64;
                    calls += 1;
                    assert_eq!(*obs, d.game.observe_without_history(s), "{}", case.label);
                }
                if d.step_random(&mut rng).is_none() {
                    break;
                }
            }
            if allocs > 0 {
                report.push(format!("{} seed {seed}: {allocs} allocations", case.label));
            }
        }
    }
    assert!(calls > 10_000, "{calls} refills");
    assert!(report.is_empty(), "{}", report.join("\n"));
}
