//! Illustrated Whist over the referee on real loopback gRPC: four in-test
//! clients play a match (a choice of a kind of action first, then an action
//! of that kind, keyed by the observation, so that nulls, every kitty choice
//! and the calls come up); the recorded actions re-applied in-process give
//! the same hands and result, and every request a seat received carried
//! exactly the observation and legal actions the engine gives that seat at
//! that point.

mod common;

use std::collections::BTreeSet;

use common::match_over_grpc;
use whistle_rules::{Action, ActionKind, Observation, Variant};

const OPTIONS: &[&str] = &["hands=6"];
/// A seed whose match has a null, an open null, a trump contract and
/// every kitty choice under this policy.
const SEED: u64 = 3;

/// A kind of action first, then an action of that kind (the lowest bid, or
/// one from a hash of where the decision falls and of the seat's hand).
fn choose(obs: &Observation, legal: &[Action]) -> usize {
    let key = (obs.deal as u64) << 32 | (obs.history.len() as u64) << 4 | obs.seat.index() as u64;
    let hash = (key ^ obs.hand.bits())
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29);
    let mut kinds: Vec<_> = legal.iter().map(|a| a.kind()).collect();
    kinds.sort();
    kinds.dedup();
    let kind = kinds[(hash % kinds.len() as u64) as usize];
    let of_kind: Vec<usize> = (0..legal.len())
        .filter(|&i| legal[i].kind() == kind)
        .collect();
    // The lowest bid of a kind, so that auctions climb slowly.
    if kind == ActionKind::Contract {
        return of_kind[0];
    }
    of_kind[((hash >> 20) % of_kind.len() as u64) as usize]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illustrated_match_over_grpc_equals_the_same_match_in_process() {
    let played = match_over_grpc(Variant::Illustrated, OPTIONS, SEED, choose).await;
    let done: BTreeSet<String> = played.actions.iter().map(|(_, a)| a.to_string()).collect();
    assert_eq!(played.result.teams, [0, 1, 0, 1]);
    assert_eq!(played.result.totals[0], played.result.totals[2]);
    assert_eq!(played.result.totals[1], played.result.totals[3]);
    // The match went through nulls (the partner sitting out, the open-null
    // reveal), a trump contract, every kitty choice and the calls.
    let contracts: Vec<String> = played
        .hands
        .iter()
        .flat_map(|h| h.bids.iter().flatten().map(Action::to_string))
        .collect();
    for contract in ["null", "open-null", "bid 12C"] {
        assert!(
            contracts.iter().any(|c| c == contract),
            "no {contract} in {contracts:?}"
        );
    }
    for action in ["whole", "half", "without", "against", "double game", "pass"] {
        assert!(done.contains(action), "no `{action}` in the match");
    }
    for prefix in ["discard ", "announce ", "bid "] {
        assert!(
            done.iter().any(|k| k.starts_with(prefix)),
            "no `{prefix}...` in the match"
        );
    }
}
