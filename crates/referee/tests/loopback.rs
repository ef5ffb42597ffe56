//! The referee over real loopback gRPC with in-test clients: a whole match
//! played by index answers (the shared test bot of `common`) equals the same match played in-process; the
//! admin, health and reflection services answer; tokens are checked.

mod common;

use common::{Table, channel, match_over_grpc, play_table, spread};
use whistle_protocol::pb::{
    self, BotMessage, Hello, bot_message::Msg as BotMsg, referee_client::RefereeClient,
};
use whistle_referee::{Referee, TableRecord, TableSpec};
use whistle_rules::{
    Options, Variant,
    dealing::{self, Seed},
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_over_loopback_equals_the_same_match_in_process() {
    let played = match_over_grpc(Variant::Israeli, &["hands=2"], 11, spread).await;
    assert_eq!(played.result.hands, 2);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_match_ends_as_the_uninterrupted_one() {
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let seed = Seed::from_u64(5).derive(dealing::Domain::Match, 2);
    let mut spec = TableSpec::new(Variant::Israeli, seed, &["a", "b", "c", "d"]);
    spec.options = Options::parse(&["hands=3"]).unwrap();
    let Table {
        records,
        result: full,
        ..
    } = play_table(&referee, addr, spec.clone(), spread).await;

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
    let Table {
        records: resumed_records,
        result: resumed,
        ..
    } = play_table(&referee, addr, resumed_spec, spread).await;
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
