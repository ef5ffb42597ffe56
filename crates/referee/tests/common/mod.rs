//! The in-test gRPC bot shared by the referee's loopback tests, and a match
//! played with it and checked against the engine in-process.

#![allow(dead_code)] // each test file uses its own part

use std::net::SocketAddr;

use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::transport::Channel;
use whistle_protocol::{
    compact::Rebuilder,
    convert,
    pb::{
        self, Answer, BotMessage, Hello, answer::Choice, bot_message::Msg as BotMsg,
        referee_client::RefereeClient, referee_message::Msg,
    },
};
use whistle_referee::{Referee, TableRecord, TableSpec};
use whistle_rules::{
    Action, ActionKind, Game, HandResult, MatchResult, Observation, Options, Seat, Variant,
    dealing::{self, Seed},
};

/// A bot's policy: the index of the legal action to answer, from what the
/// seat observes only (never request ids), so a resumed match chooses as
/// an uninterrupted one.
pub type Choose = fn(&Observation, &[Action]) -> usize;

/// A choice spread by which deal, how much the seat has seen, and who it is.
pub fn spread(o: &Observation, legal: &[Action]) -> usize {
    (o.deal as usize * 31 + o.history.len() * 7 + o.seat.index() * 3 + o.hand.len()) % legal.len()
}

/// One decision as a seat received and answered it over the wire, decoded.
#[derive(Debug)]
pub struct Decision {
    pub observation: Observation,
    pub legal: Vec<Action>,
    pub index: usize,
}

pub async fn channel(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap()
}

/// Plays one seat to the end of its match with `choose`; returns every
/// decision it made and the result it was told. Any fault is a failure.
/// `compact`: the stream asks for compact requests and the observation is
/// rebuilt from them (whistle_protocol::compact); every event the seat may
/// see then arrives inside a request or, after its last request, as an
/// Event message before MatchEnd. `binary`: cards and actions come as ids
/// (`Hello.binary`), decoded by the same functions.
pub async fn play_seat(
    addr: SocketAddr,
    token: String,
    choose: Choose,
    compact: bool,
    binary: bool,
) -> (Vec<Decision>, Option<pb::MatchResult>) {
    let mut client = RefereeClient::new(channel(addr).await);
    let (tx, rx) = mpsc::channel(16);
    tx.send(BotMessage {
        msg: Some(BotMsg::Hello(Hello {
            token,
            bot_name: "test".into(),
            protocol: "whistle.v1".into(),
            quiet: false,
            compact,
            binary,
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
    let mut rebuilder = Rebuilder::new();
    let mut requests = 0;
    let mut flushed = false;
    while let Some(msg) = inbound.next().await {
        match msg.unwrap().msg {
            Some(Msg::Request(r)) => {
                assert!(
                    !flushed,
                    "a request after a compact stream's events were flushed"
                );
                requests += 1;
                assert_eq!(
                    r.observation.is_some(),
                    !compact || requests == 1,
                    "whole observations: every request, or a compact stream's first"
                );
                assert_eq!(r.delta.is_some(), compact && requests > 1);
                let observation = rebuilder
                    .update(&r)
                    .expect("the observation decodes")
                    .clone();
                assert_eq!(
                    (r.legal.is_empty(), r.legal_ids.is_empty()),
                    (binary, !binary),
                    "legal actions as text or as ids, as the Hello asked"
                );
                let legal = convert::request_legal(&r).expect("the legal actions decode");
                let index = choose(&observation, &legal);
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
            // A compact stream is sent Event messages only after its last
            // request (the events held for a next request that never came).
            Some(Msg::Event(_)) if compact => flushed = true,
            _ => {}
        }
    }
    (decisions, None)
}

/// A table played to its end by one [`play_seat`] bot per seat (seat 0
/// compact binary, 1 whole text, 2 compact text, 3 whole binary, and so on).
pub struct Table {
    pub records: Vec<TableRecord>,
    /// Each seat's decisions, in order.
    pub decisions: Vec<Vec<Decision>>,
    pub result: MatchResult,
}

/// Creates the table of `spec` and plays it with `choose` at every seat;
/// every seat must be told the result.
pub async fn play_table(
    referee: &Referee,
    addr: SocketAddr,
    spec: TableSpec,
    choose: Choose,
) -> Table {
    let mut handle = referee.create_table(spec).unwrap();
    let seats: Vec<_> = handle
        .tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (compact, binary) = (i % 2 == 0, i % 4 == 0 || i % 4 == 3);
            tokio::spawn(play_seat(addr, t.clone(), choose, compact, binary))
        })
        .collect();
    let mut records = Vec::new();
    while let Some(r) = handle.records.recv().await {
        records.push(r);
    }
    let mut decisions = Vec::new();
    for (s, seat) in seats.into_iter().enumerate() {
        let (d, told) = seat.await.unwrap();
        assert!(told.is_some(), "seat {s} was not told the result");
        decisions.push(d);
    }
    let result = records
        .iter()
        .find_map(|r| match r {
            TableRecord::End { result, .. } => Some((**result).clone()),
            _ => None,
        })
        .expect("the match ended");
    Table {
        records,
        decisions,
        result,
    }
}

/// What a match over the wire showed, once checked against the engine.
pub struct Played {
    pub actions: Vec<(Seat, Action)>,
    pub result: MatchResult,
    pub hands: Vec<HandResult>,
    /// Every observation sent with a request, in the order of the actions.
    pub seen: Vec<Observation>,
}

impl Played {
    pub fn kinds(&self) -> Vec<ActionKind> {
        self.actions.iter().map(|(_, a)| a.kind()).collect()
    }
}

/// Plays a match of `variant` under `options` from match seed `seed` over
/// loopback, one [`play_seat`] bot per seat, and checks it against the
/// engine: no fault and no fallback; the recorded actions, re-applied
/// in-process to the same seeded deals, are each seat's decisions in order,
/// each made on exactly the observation and the legal actions the engine
/// gives that seat at that point; the hand results and the result agree.
pub async fn match_over_grpc(
    variant: Variant,
    options: &[&str],
    seed: u64,
    choose: Choose,
) -> Played {
    let options = Options::parse(options).unwrap();
    let seats = variant.new_game(&options).unwrap().seats();
    let referee = Referee::new(None);
    let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let match_seed = Seed::from_u64(seed).derive(dealing::Domain::Match, 0);
    let names: Vec<String> = (0..seats).map(|s| format!("bot{s}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut spec = TableSpec::new(variant, match_seed, &names);
    spec.options = options.clone();
    let table = play_table(&referee, addr, spec, choose).await;
    server.shutdown().await;

    let mut actions = Vec::new();
    let mut hands = Vec::new();
    for r in table.records {
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
            TableRecord::Hand(h) => hands.push(*h),
            TableRecord::Fault(f) => panic!("unexpected fault {f:?}"),
            _ => {}
        }
    }
    let mut decisions: Vec<_> = table.decisions.into_iter().map(Vec::into_iter).collect();
    let mut game = variant.new_game(&options).unwrap();
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
    assert_eq!(game.hand_results(), hands.as_slice());
    let result = game.result().unwrap();
    assert_eq!(result, table.result);
    assert_eq!(result.hands, hands.len() as u32);
    Played {
        actions,
        result,
        hands,
        seen,
    }
}
