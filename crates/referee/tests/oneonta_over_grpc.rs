//! Oneonta Whist over the referee, end to end: in-test gRPC clients play whole
//! matches over loopback: solitaire (one seat against the dummy the rules
//! play, with doubling, and under Edd Allard's scoring), multiplayer, and the
//! cooperative form with a dummy. The recorded actions, re-applied in-process
//! to the same seeded deals, give the same result (Edd Allard's verdict
//! included); and before each of its actions every seat had received, over
//! the wire, exactly the observation and the legal actions the engine gives
//! in-process at that point, the dummy's turned cards included.

mod common;

use common::{match_over_grpc, spread};
use whistle_rules::{ActionKind, Event, Observation, Player, Variant};

/// Whether the dummy's cards reached the seats: as `DummyPlay` events and as
/// trick cards played by the dummy.
fn dummy_was_seen(seen: &[Observation]) -> bool {
    let events = seen.iter().any(|o| {
        o.history
            .iter()
            .any(|e| matches!(e, Event::DummyPlay { .. }))
    });
    let tricks = seen.iter().any(|o| {
        o.trick
            .cards
            .first()
            .is_some_and(|(p, _)| *p == Player::Dummy)
    });
    events && tricks
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solitaire_match_over_grpc_equals_the_same_match_in_process() {
    let played = match_over_grpc(Variant::Oneonta, &["hands=4", "doubling=true"], 31, spread).await;
    assert_eq!(played.result.totals.len(), 1);
    assert_eq!(played.result.hands, 4);
    assert_eq!(played.result.ranks, [1]);
    assert!(played.kinds().contains(&ActionKind::Play));
    assert!(dummy_was_seen(&played.seen));
    // The player is asked for a bid once per deal, and for a card nine times.
    let bids = played
        .kinds()
        .iter()
        .filter(|k| **k != ActionKind::Play)
        .count();
    assert_eq!(bids, 4);
    assert_eq!(played.kinds().len(), 4 * 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edd_allard_match_over_grpc_carries_its_verdict() {
    let played = match_over_grpc(Variant::Oneonta, &["scoring=edd-allard"], 32, spread).await;
    assert_eq!(played.result.hands, 9);
    let expected = match played.result.totals[0] {
        t if t > 30 => "win",
        30 => "draw",
        _ => "loss",
    };
    assert_eq!(played.result.note, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multiplayer_match_over_grpc_equals_the_same_match_in_process() {
    let played = match_over_grpc(
        Variant::Oneonta,
        &["mode=multi", "players=4", "hands=2"],
        33,
        spread,
    )
    .await;
    assert_eq!(played.result.totals.len(), 4);
    assert!(played.result.hands >= 2);
    for kind in [ActionKind::Bid, ActionKind::Play] {
        assert!(played.kinds().contains(&kind), "no {kind:?} was played");
    }
    // No dummy here: every trick card is a seat's.
    assert!(!dummy_was_seen(&played.seen));
    let best = *played.result.totals.iter().max().unwrap();
    for (s, &t) in played.result.totals.iter().enumerate() {
        assert_eq!(played.result.ranks[s] == 1, t == best, "seat {s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cooperative_match_with_a_dummy_over_grpc() {
    let played = match_over_grpc(
        Variant::Oneonta,
        &["mode=coop-dummy", "players=3", "hands=2"],
        34,
        spread,
    )
    .await;
    assert!(dummy_was_seen(&played.seen));
    let totals = &played.result.totals;
    assert!(totals.iter().all(|&t| t == totals[0]), "one team total");
    assert_eq!(played.result.teams, [0, 0, 0]);
    let verdict = if totals[0] > 0 {
        "beaten"
    } else {
        "not beaten"
    };
    assert_eq!(played.result.note, verdict);
}
