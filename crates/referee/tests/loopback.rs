//! The referee over real loopback gRPC with in-test clients: a whole match
//! played by index answers equals the same match played in-process; the
//! admin, health and reflection services answer; tokens are checked.

use std::net::SocketAddr;

use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::transport::Channel;
use whistle_protocol::pb::{
    self, Answer, BotMessage, Hello, answer::Choice, bot_message::Msg as BotMsg,
    referee_client::RefereeClient, referee_message::Msg,
};
use whistle_referee::{Referee, TableRecord, TableSpec};
use whistle_rules::{
    Game, Options, Variant,
    dealing::{self, Seed},
};

async fn channel(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap()
}

/// Plays one seat: always the legal action at index `(request_id * 7) % n`.
async fn play_seat(addr: SocketAddr, token: String) -> Option<pb::MatchResult> {
    play_seat_with(addr, token, |r| (r.request_id * 7) % r.legal.len() as u64).await
}

/// Plays one seat with `policy` choosing the index to answer.
async fn play_seat_with(
    addr: SocketAddr,
    token: String,
    policy: impl Fn(&pb::DecisionRequest) -> u64,
) -> Option<pb::MatchResult> {
    let mut client = RefereeClient::new(channel(addr).await);
    let (tx, rx) = mpsc::channel(16);
    tx.send(BotMessage {
        msg: Some(BotMsg::Hello(Hello {
            token,
            bot_name: "test".into(),
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
    while let Some(msg) = inbound.next().await {
        match msg.unwrap().msg {
            Some(Msg::Request(r)) => {
                let i = policy(&r);
                tx.send(BotMessage {
                    msg: Some(BotMsg::Answer(Answer {
                        request_id: r.request_id,
                        choice: Some(Choice::Index(i as u32)),
                    })),
                })
                .await
                .unwrap();
            }
            Some(Msg::MatchEnd(e)) => return e.result,
            Some(Msg::Fault(f)) => panic!("unexpected fault {f:?}"),
            _ => {}
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_over_loopback_equals_the_same_match_in_process() {
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let seed = Seed::from_u64(11).derive(dealing::Domain::Match, 0);
    let mut spec = TableSpec::new(Variant::Israeli, seed, &["a", "b", "c", "d"]);
    spec.options = Options::parse(&["hands=2"]).unwrap();
    let mut handle = referee.create_table(spec).unwrap();
    let seats: Vec<_> = handle
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
                assert!(!fallback);
                actions.push((seat, action));
            }
            TableRecord::End { result, .. } => end = Some(result),
            _ => {}
        }
    }
    for s in seats {
        assert!(s.await.unwrap().is_some());
    }
    let end = end.expect("the match ended");

    // The recorded actions, re-applied in-process to the same seeded deals,
    // give the same result: the referee adds nothing of its own.
    let mut game = Variant::Israeli
        .new_game(&Options::parse(&["hands=2"]).unwrap())
        .unwrap();
    for &(seat, action) in &actions {
        dealing::deal_if_needed(&mut game, seed).unwrap();
        game.apply(seat, action).unwrap();
    }
    assert!(game.is_over());
    assert_eq!(game.result().unwrap(), end);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_tokens_are_refused_and_admin_needs_its_token() {
    let referee = Referee::new(Some("sesame".into()));
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let mut client = RefereeClient::new(channel(addr).await);
    let hello = BotMessage {
        msg: Some(BotMsg::Hello(Hello {
            token: "nope".into(),
            ..Default::default()
        })),
    };
    let err = client
        .play(tokio_stream::once(hello))
        .await
        .expect_err("unknown token");
    assert_eq!(err.code(), tonic::Code::Unauthenticated);

    let mut admin = pb::admin_client::AdminClient::new(channel(addr).await);
    let err = admin
        .list_tables(pb::ListTablesRequest {})
        .await
        .expect_err("no admin token");
    assert_eq!(err.code(), tonic::Code::Unauthenticated);
    let mut req = tonic::Request::new(pb::CreateTableRequest {
        game: "israeli".into(),
        match_seed: Seed::from_u64(1).to_hex(),
        seats: (0..4)
            .map(|i| pb::SeatConfig {
                token: String::new(),
                bot_name: format!("b{i}"),
            })
            .collect(),
        ..Default::default()
    });
    req.metadata_mut()
        .insert("authorization", "Bearer sesame".parse().unwrap());
    let created = admin.create_table(req).await.unwrap().into_inner();
    assert_eq!(created.tokens.len(), 4);

    let mut health = tonic_health::pb::health_client::HealthClient::new(channel(addr).await);
    let status = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "whistle.v1.Referee".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        status.status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );
    server.shutdown().await;
}

/// A policy that depends on the observation only (not on request ids), so a
/// resumed match makes the same choices as an uninterrupted one.
fn by_observation(r: &pb::DecisionRequest) -> u64 {
    let o = r.observation.as_ref().unwrap();
    (o.deal as u64 * 31 + o.history.len() as u64 * 7) % r.legal.len() as u64
}

async fn play_table(
    referee: &Referee,
    addr: SocketAddr,
    spec: TableSpec,
) -> (Vec<TableRecord>, whistle_rules::MatchResult) {
    let mut handle = referee.create_table(spec).unwrap();
    let seats: Vec<_> = handle
        .tokens
        .iter()
        .map(|t| tokio::spawn(play_seat_with(addr, t.clone(), by_observation)))
        .collect();
    let mut records = Vec::new();
    while let Some(r) = handle.records.recv().await {
        records.push(r);
    }
    for s in seats {
        s.await.unwrap();
    }
    let end = records
        .iter()
        .find_map(|r| match r {
            TableRecord::End { result, .. } => Some(result.clone()),
            _ => None,
        })
        .expect("the match ended");
    (records, end)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_match_ends_as_the_uninterrupted_one() {
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let seed = Seed::from_u64(5).derive(dealing::Domain::Match, 2);
    let mut spec = TableSpec::new(Variant::Israeli, seed, &["a", "b", "c", "d"]);
    spec.options = Options::parse(&["hands=3"]).unwrap();
    let (records, full) = play_table(&referee, addr, spec.clone()).await;

    // Keep the first hand (its deal and actions), as a log would after a crash
    // during the second hand.
    let mut resume = whistle_referee::Resume {
        faults: vec![0; 4],
        forfeited: vec![false; 4],
        ..Default::default()
    };
    for r in &records {
        match r {
            TableRecord::Deal { order, .. } => resume.deals.push(order.clone()),
            TableRecord::Action {
                seat,
                action,
                fallback,
                ..
            } => resume.actions.push((*seat, *action, *fallback)),
            TableRecord::Hand(_) => break,
            _ => {}
        }
    }
    let mut resumed_spec = spec;
    resumed_spec.resume = Some(resume);
    let (resumed_records, resumed) = play_table(&referee, addr, resumed_spec).await;
    assert_eq!(resumed, full);
    // Nothing of the first hand is played again.
    let hands: Vec<u32> = resumed_records
        .iter()
        .filter_map(|r| match r {
            TableRecord::Hand(h) => Some(h.deal),
            _ => None,
        })
        .collect();
    assert_eq!(hands, [1, 2]);
    server.shutdown().await;
}
