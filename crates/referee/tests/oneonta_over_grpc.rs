//! Oneonta Whist over the referee, end to end: in-test gRPC clients play whole
//! matches over loopback: solitaire (one seat against the dummy the rules
//! play, with doubling, and under Edd Allard's scoring), multiplayer, and the
//! cooperative form with a dummy. The recorded actions, re-applied in-process
//! to the same seeded deals, give the same result (Edd Allard's verdict
//! included); and before each of its actions every seat had received, over
//! the wire, exactly the observation and the legal actions the engine gives
//! in-process at that point, the dummy's turned cards included.

use std::net::SocketAddr;

use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::transport::Channel;
use whistle_protocol::{
    convert,
    pb::{
        self, Answer, BotMessage, Hello, answer::Choice, bot_message::Msg as BotMsg,
        referee_client::RefereeClient, referee_message::Msg,
    },
};
use whistle_referee::{Referee, TableRecord, TableSpec};
use whistle_rules::{
    Action, ActionKind, Event, Game, MatchResult, Observation, Options, Player, Variant,
    dealing::{self, Seed},
};

/// One decision as a seat saw and answered it over the wire.
#[derive(Debug)]
struct Decision {
    observation: Observation,
    legal: Vec<Action>,
    index: usize,
}

async fn channel(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap()
}

/// A choice that depends on what the seat observes only.
fn choose(o: &Observation, legal: usize) -> usize {
    let spread = o.deal as usize * 31 + o.history.len() * 7 + o.seat.index() * 3 + o.hand.len();
    spread % legal
}

/// Plays one seat to the end of its match; returns every decision it made
/// and the result it was told.
async fn play_seat(addr: SocketAddr, token: String) -> (Vec<Decision>, Option<pb::MatchResult>) {
    let mut client = RefereeClient::new(channel(addr).await);
    let (tx, rx) = mpsc::channel(16);
    tx.send(BotMessage {
        msg: Some(BotMsg::Hello(Hello {
            token,
            bot_name: "oneonta-test".into(),
            protocol: "whistle.v1".into(),
            quiet: false,
        })),
    })
    .await
    .unwrap();
    let mut inbound = client
        .play(ReceiverStream::new(rx))
        .await
        .unwrap()
        .into_inner();
    let mut decisions = Vec::new();
    while let Some(msg) = inbound.next().await {
        match msg.unwrap().msg {
            Some(Msg::Request(r)) => {
                let observation =
                    convert::observation_from(r.observation.as_ref().expect("an observation"))
                        .expect("the observation decodes");
                let legal = convert::legal_from(&r.legal).expect("the legal actions decode");
                let index = choose(&observation, legal.len());
                decisions.push(Decision {
                    observation,
                    legal,
                    index,
                });
                tx.send(BotMessage {
                    msg: Some(BotMsg::Answer(Answer {
                        request_id: r.request_id,
                        choice: Some(Choice::Index(index as u32)),
                    })),
                })
                .await
                .unwrap();
            }
            Some(Msg::MatchEnd(e)) => return (decisions, e.result),
            Some(Msg::Fault(f)) => panic!("unexpected fault {f:?}"),
            _ => {}
        }
    }
    (decisions, None)
}

/// What a match over the wire showed.
struct Played {
    kinds: Vec<ActionKind>,
    result: MatchResult,
    /// Every observation a seat received with a request, in order.
    seen: Vec<Observation>,
}

/// Plays an Oneonta match under `options` over loopback and checks it against
/// the engine in-process.
async fn match_over_grpc(options: &[&str], seed: u64) -> Played {
    let options = Options::parse(options).unwrap();
    let seats = Variant::Oneonta.new_game(&options).unwrap().seats();
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let match_seed = Seed::from_u64(seed).derive(dealing::Domain::Match, 0);
    let names: Vec<String> = (0..seats).map(|s| format!("bot{s}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut spec = TableSpec::new(Variant::Oneonta, match_seed, &names);
    spec.options = options.clone();
    let mut handle = referee.create_table(spec).unwrap();
    let clients: Vec<_> = handle
        .tokens
        .iter()
        .map(|t| tokio::spawn(play_seat(addr, t.clone())))
        .collect();
    let mut actions = Vec::new();
    let mut end = None;
    while let Some(r) = handle.records.recv().await {
        match r {
            TableRecord::Action {
                seat,
                action,
                fallback,
                ..
            } => {
                assert!(!fallback, "no fallback in a match of well-behaved seats");
                actions.push((seat, action));
            }
            TableRecord::End { result, .. } => end = Some(result),
            _ => {}
        }
    }
    let mut decisions = Vec::new();
    for c in clients {
        let (d, told) = c.await.unwrap();
        assert!(told.is_some(), "every seat is told the result");
        decisions.push(d.into_iter());
    }
    let end = end.expect("the match ended");
    server.shutdown().await;

    // The same deals and actions in-process: each seat's decisions, in order,
    // are its actions in the record, each made on the observation and the
    // legal actions the engine gives at that point.
    let mut game = Variant::Oneonta.new_game(&options).unwrap();
    let mut seen = Vec::new();
    for &(seat, action) in &actions {
        dealing::deal_if_needed(&mut game, match_seed).unwrap();
        let d = decisions[seat.index()]
            .next()
            .expect("a decision for every action");
        assert_eq!(
            d.observation,
            game.observe(seat),
            "seat {seat} before {action}"
        );
        assert_eq!(d.legal, game.legal_actions(seat).to_vec(), "seat {seat}");
        assert_eq!(
            d.legal[d.index], action,
            "seat {seat} answered index {}",
            d.index
        );
        seen.push(d.observation);
        game.apply(seat, action).unwrap();
    }
    for (s, rest) in decisions.iter_mut().enumerate() {
        assert!(rest.next().is_none(), "seat {s} decided more than it acted");
    }
    assert!(game.is_over());
    let result = game.result().unwrap();
    assert_eq!(result, end);
    assert_eq!(result.hands, game.hand_results().len() as u32);
    Played {
        kinds: actions.iter().map(|(_, a)| a.kind()).collect(),
        result,
        seen,
    }
}

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
    let played = match_over_grpc(&["hands=4", "doubling=true"], 31).await;
    assert_eq!(played.result.totals.len(), 1);
    assert_eq!(played.result.hands, 4);
    assert_eq!(played.result.ranks, [1]);
    assert!(played.kinds.contains(&ActionKind::Play));
    assert!(dummy_was_seen(&played.seen));
    // The player is asked for a bid once per deal, and for a card nine times.
    let bids = played
        .kinds
        .iter()
        .filter(|k| **k != ActionKind::Play)
        .count();
    assert_eq!(bids, 4);
    assert_eq!(played.kinds.len(), 4 * 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edd_allard_match_over_grpc_carries_its_verdict() {
    let played = match_over_grpc(&["scoring=edd-allard"], 32).await;
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
    let played = match_over_grpc(&["mode=multi", "players=4", "hands=2"], 33).await;
    assert_eq!(played.result.totals.len(), 4);
    assert!(played.result.hands >= 2);
    for kind in [ActionKind::Bid, ActionKind::Play] {
        assert!(played.kinds.contains(&kind), "no {kind:?} was played");
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
    let played = match_over_grpc(&["mode=coop-dummy", "players=3", "hands=2"], 34).await;
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
