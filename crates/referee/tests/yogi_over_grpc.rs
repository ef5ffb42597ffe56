//! Yogi's Whist over the referee, end to end: in-test gRPC clients play whole
//! matches (the plain game, and `dealer-chooses` with `rotate-vote`) over
//! loopback. The recorded actions, re-applied in-process to the same seeded
//! deals, give the same result; and before each of its actions every seat
//! had received, over the wire, exactly the observation and the legal actions
//! the engine gives in-process at that point, bid cards placed simultaneously
//! included.

mod common;

use common::{match_over_grpc, spread};
use whistle_rules::{ActionKind, Variant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yogi_match_over_grpc_equals_the_same_match_in_process() {
    let played = match_over_grpc(Variant::Yogi, &["hands=3"], 21, spread).await;
    let (kinds, result) = (played.kinds(), played.result);
    for kind in [
        ActionKind::Place,
        ActionKind::No,
        ActionKind::Declare,
        ActionKind::Reveal,
        ActionKind::Leader,
        ActionKind::Play,
    ] {
        assert!(kinds.contains(&kind), "no {kind:?} was played");
    }
    assert_eq!(result.totals.len(), 5);
    // Fines: lower is better, and the places follow.
    assert_eq!(result.order, whistle_rules::ScoreOrder::LowerIsBetter);
    let best = *result.totals.iter().min().unwrap();
    for (s, &t) in result.totals.iter().enumerate() {
        assert_eq!(result.ranks[s] == 1, t == best, "seat {s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn yogi_with_dealer_chooses_and_rotate_vote_over_grpc() {
    let played = match_over_grpc(
        Variant::Yogi,
        &[
            "players=4",
            "dealer-chooses=true",
            "rotate-vote=true",
            "hands=3",
        ],
        22,
        spread,
    )
    .await;
    let (kinds, result) = (played.kinds(), played.result);
    for kind in [
        ActionKind::HandSize,
        ActionKind::Count,
        ActionKind::Place,
        ActionKind::Vote,
        ActionKind::Play,
    ] {
        assert!(kinds.contains(&kind), "no {kind:?} was played");
    }
    assert_eq!(result.totals.len(), 4);
}
