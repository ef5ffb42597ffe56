//! Illustrated Whist over the referee on real loopback gRPC: four in-test
//! clients play a match (a choice of a kind of action first, then an action
//! of that kind, keyed by the observation, so that nulls, every kitty choice
//! and the calls come up); the recorded actions re-applied in-process give
//! the same hands and result, and every request a seat received carried
//! exactly the observation and legal actions the engine gives that seat at
//! that point.

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
    Action, ActionKind, Game, Observation, Options, Variant,
    dealing::{self, Seed},
};

const OPTIONS: &[&str] = &["hands=6"];
/// A seed whose match has a null, an open null, a trump contract and
/// every kitty choice under this policy.
const SEED: u64 = 3;

async fn channel(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap()
}

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

/// One decision as the seat received it over the wire, decoded.
struct Received {
    observation: Observation,
    legal: Vec<Action>,
}

/// Plays one seat; returns every decision it received and the match result.
async fn play_seat(addr: SocketAddr, token: String) -> (Vec<Received>, Option<pb::MatchResult>) {
    let mut client = RefereeClient::new(channel(addr).await);
    let (tx, rx) = mpsc::channel(16);
    tx.send(BotMessage {
        msg: Some(BotMsg::Hello(Hello {
            token,
            bot_name: "kind-first".into(),
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
    let mut received = Vec::new();
    while let Some(msg) = inbound.next().await {
        match msg.unwrap().msg {
            Some(Msg::Request(r)) => {
                let observation =
                    convert::observation_from(r.observation.as_ref().expect("an observation"))
                        .expect("a well-formed observation");
                let legal = convert::legal_from(&r.legal).expect("well-formed actions");
                let i = choose(&observation, &legal);
                received.push(Received { observation, legal });
                tx.send(BotMessage {
                    msg: Some(BotMsg::Answer(Answer {
                        request_id: r.request_id,
                        choice: Some(Choice::Index(i as u32)),
                    })),
                })
                .await
                .unwrap();
            }
            Some(Msg::MatchEnd(e)) => return (received, e.result),
            Some(Msg::Fault(f)) => panic!("unexpected fault {f:?}"),
            _ => {}
        }
    }
    (received, None)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illustrated_match_over_grpc_equals_the_same_match_in_process() {
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let seed = Seed::from_u64(SEED).derive(dealing::Domain::Match, 0);
    let mut spec = TableSpec::new(Variant::Illustrated, seed, &["n", "e", "s", "w"]);
    spec.options = Options::parse(OPTIONS).unwrap();
    let mut handle = referee.create_table(spec).unwrap();
    let seats: Vec<_> = handle
        .tokens
        .iter()
        .map(|t| tokio::spawn(play_seat(addr, t.clone())))
        .collect();
    let mut actions = Vec::new();
    let mut hands = Vec::new();
    let mut end = None;
    while let Some(r) = handle.records.recv().await {
        match r {
            TableRecord::Action {
                seat,
                action,
                fallback,
                ..
            } => {
                assert!(!fallback);
                actions.push((seat, action));
            }
            TableRecord::Hand(h) => hands.push(h),
            TableRecord::End { result, .. } => end = Some(result),
            TableRecord::Fault(f) => panic!("unexpected fault {f:?}"),
            _ => {}
        }
    }
    let mut received = Vec::new();
    for s in seats {
        let (decisions, result) = s.await.unwrap();
        assert!(result.is_some(), "every seat hears the end of the match");
        received.push(decisions.into_iter());
    }
    let end = end.expect("the match ended");

    // The recorded actions, re-applied in-process to the same seeded deals:
    // before each one, the acting seat's next request carried exactly what
    // the engine shows that seat, and the hands and the result agree.
    let mut game = Variant::Illustrated
        .new_game(&Options::parse(OPTIONS).unwrap())
        .unwrap();
    let mut played = std::collections::BTreeSet::new();
    for &(seat, action) in &actions {
        dealing::deal_if_needed(&mut game, seed).unwrap();
        let request = received[seat.index()]
            .next()
            .expect("a request for every action");
        assert_eq!(
            request.observation,
            game.observe(seat),
            "seat {seat} before {action}"
        );
        assert_eq!(request.legal, game.legal_actions(seat).as_slice());
        played.insert(action.to_string());
        game.apply(seat, action).unwrap();
    }
    for (s, mut rest) in received.into_iter().enumerate() {
        assert!(
            rest.next().is_none(),
            "seat {s} received a request it did not answer"
        );
    }
    assert!(game.is_over());
    assert_eq!(game.hand_results(), hands.as_slice());
    assert_eq!(game.result().unwrap(), end);
    assert_eq!(end.teams, [0, 1, 0, 1]);
    assert_eq!(end.totals[0], end.totals[2]);
    assert_eq!(end.totals[1], end.totals[3]);
    // The match went through nulls (the partner sitting out, the open-null
    // reveal), a trump contract, every kitty choice and the calls.
    let contracts: Vec<String> = hands
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
        assert!(played.contains(action), "no `{action}` in the match");
    }
    for prefix in ["discard ", "announce ", "bid "] {
        assert!(
            played.iter().any(|k| k.starts_with(prefix)),
            "no `{prefix}...` in the match"
        );
    }
    server.shutdown().await;
}
