//! Yogi's Whist over the referee, end to end: in-test gRPC clients play whole
//! matches (the plain game, and `dealer-chooses` with `rotate-vote`) over
//! loopback. The recorded actions, re-applied in-process to the same seeded
//! deals, give the same result; and before each of its actions every seat
//! had received, over the wire, exactly the observation and the legal actions
//! the engine gives in-process at that point, bid cards placed simultaneously
//! included.

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
    Action, ActionKind, Game, MatchResult, Observation, Options, Variant,
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

/// A choice that depends on what the seat observes only: which deal, how much
/// it has seen, and who it is.
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
            bot_name: "yogi-test".into(),
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

/// Plays a Yogi match under `options` over loopback and checks it against
/// the engine in-process; returns the kinds of action played and the result.
async fn match_over_grpc(options: &[&str], seed: u64) -> (Vec<ActionKind>, MatchResult) {
    let options = Options::parse(options).unwrap();
    let seats = Variant::Yogi.new_game(&options).unwrap().seats();
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let match_seed = Seed::from_u64(seed).derive(dealing::Domain::Match, 0);
    let names: Vec<String> = (0..seats).map(|s| format!("bot{s}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut spec = TableSpec::new(Variant::Yogi, match_seed, &names);
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
    // are its actions in the record, and each was made on the observation and
    // the legal actions the engine gives at that point.
    let mut game = Variant::Yogi.new_game(&options).unwrap();
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
        game.apply(seat, action).unwrap();
    }
    for (s, rest) in decisions.iter_mut().enumerate() {
        assert!(rest.next().is_none(), "seat {s} decided more than it acted");
    }
    assert!(game.is_over());
    let result = game.result().unwrap();
    assert_eq!(result, end);
    assert_eq!(result.hands, game.hand_results().len() as u32);
    let kinds = actions.iter().map(|(_, a)| a.kind()).collect();
    (kinds, result)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yogi_match_over_grpc_equals_the_same_match_in_process() {
    let (kinds, result) = match_over_grpc(&["hands=3"], 21).await;
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
    let (kinds, result) = match_over_grpc(
        &[
            "players=4",
            "dealer-chooses=true",
            "rotate-vote=true",
            "hands=3",
        ],
        22,
    )
    .await;
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
