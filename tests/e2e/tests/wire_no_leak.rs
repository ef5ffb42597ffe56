//! No leak over the wire: with the cards a seat has not seen re-dealt, every
//! byte the referee sends to that seat is unchanged, with whole requests,
//! compact ones, and both in the binary form (cards and actions as ids).
//!
//! For several seeds, a first match on an embedded referee is played by four
//! in-test clients choosing freely (often passing, so frisches and misdeals
//! happen); its deals D and actions are recorded. Then, for several seats `s`
//! and steps `k` (and the match's end), the engine replays the first `k`
//! actions and finds, for every deal so far, the cards `s` has not seen
//! (`deck − seen_by(s)`, at the end of each earlier deal and at step `k` for
//! the current one). A permutation σ within each suit of those cards gives D'
//! (σ applied to the deck orders, and to every card named by the actions of
//! those deals; later deals are unchanged). The match is played again twice
//! on fresh referees with the same table id, tokens and clock, with explicit
//! deals D and D', by four scripted clients that send the recorded (or
//! σ-mapped) actions one at a time in the recorded order. Each client keeps
//! the raw protobuf bytes of every message it receives, undecoded. The bytes
//! `s` received before the first message caused by action `k + 1` (its
//! `k + 1`-th action event; the whole stream when `k` is the end) must be
//! equal in both runs. Requests carry the full allowance, so their time
//! fields do not depend on scheduling.
//!
//! Controls that show the comparison has teeth: the re-deals change what
//! other seats receive, and a σ that also moves one of `s`'s own cards
//! changes what `s` receives.

use std::{collections::VecDeque, net::SocketAddr, time::Duration};

use prost::{Message, bytes::Buf};
use tokio::{sync::mpsc, task::JoinHandle, time::timeout};
use tokio_stream::wrappers::ReceiverStream;
use tonic::{
    Status,
    codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder, Streaming},
    codegen::http::uri::PathAndQuery,
    transport::Channel,
};
use whistle_e2e::record;
use whistle_protocol::pb::{self, referee_message::Msg};
use whistle_referee::{Referee, SeatSpec, TableRecord, TableSpec, TimeControl};
use whistle_rules::{
    Action, AnyGame, Card, CardSet, Game, Options, Seat, Status as GameStatus, Variant,
    dealing::{Domain, Seed},
};

const TABLE_ID: &str = "no-leak";

/// What a stream asks for in its Hello.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mode {
    compact: bool,
    binary: bool,
}
const HANDS: &str = "hands=2";
const STEP_LIMIT: Duration = Duration::from_secs(10);
const MATCH_LIMIT: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------
// A Play stream that hands over the received messages as raw bytes.
// ---------------------------------------------------------------------------

/// Encodes bot messages with prost; decodes nothing: each referee message
/// arrives as the exact bytes of its protobuf encoding on the wire.
#[derive(Debug, Clone, Copy, Default)]
struct RawCodec;

#[derive(Debug)]
struct BotEncoder;

#[derive(Debug)]
struct RawDecoder;

impl Codec for RawCodec {
    type Encode = pb::BotMessage;
    type Decode = Vec<u8>;
    type Encoder = BotEncoder;
    type Decoder = RawDecoder;

    fn encoder(&mut self) -> BotEncoder {
        BotEncoder
    }

    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

impl Encoder for BotEncoder {
    type Item = pb::BotMessage;
    type Error = Status;

    fn encode(&mut self, item: pb::BotMessage, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        item.encode(dst)
            .map_err(|e| Status::internal(e.to_string()))
    }
}

impl Decoder for RawDecoder {
    type Item = Vec<u8>;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
    }
}

async fn open_raw(
    addr: SocketAddr,
    token: &str,
    mode: Mode,
) -> (mpsc::Sender<pb::BotMessage>, Streaming<Vec<u8>>) {
    let channel = Channel::from_shared(format!("http://{addr}"))
        .expect("uri")
        .connect()
        .await
        .expect("the referee answers");
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.expect("ready");
    let (tx, rx) = mpsc::channel(64);
    tx.send(pb::BotMessage {
        msg: Some(pb::bot_message::Msg::Hello(pb::Hello {
            token: token.to_string(),
            bot_name: "scripted".into(),
            protocol: "whistle.v1".into(),
            quiet: false,
            compact: mode.compact,
            binary: mode.binary,
        })),
    })
    .await
    .expect("send Hello");
    let inbound = grpc
        .streaming(
            tonic::Request::new(ReceiverStream::new(rx)),
            PathAndQuery::from_static("/whistle.v1.Referee/Play"),
            RawCodec,
        )
        .await
        .expect("Play")
        .into_inner();
    (tx, inbound)
}

// ---------------------------------------------------------------------------
// In-test clients.
// ---------------------------------------------------------------------------

/// How a client answers.
enum Policy {
    /// At once: `pass` with this percentage when it is legal, else a legal
    /// action by a hash of the seed and the request id.
    Free { seed: u64, pass_percent: u64 },
    /// The action texts it receives, in order, each as the answer to its
    /// next request; once the sender is gone and the texts are used up, as
    /// `Free` with no bias (the rest of the match is no longer scripted).
    Scripted(mpsc::UnboundedReceiver<String>),
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays one seat to MatchEnd and returns every message received, as bytes.
async fn client(addr: SocketAddr, token: String, mut policy: Policy, mode: Mode) -> Vec<Vec<u8>> {
    let (tx, mut inbound) = open_raw(addr, &token, mode).await;
    let mut log = Vec::new();
    let mut pending: Option<pb::DecisionRequest> = None;
    let mut orders: VecDeque<String> = VecDeque::new();
    let mut orders_open = matches!(policy, Policy::Scripted(_));
    loop {
        let order = async {
            match &mut policy {
                Policy::Scripted(rx) => rx.recv().await,
                Policy::Free { .. } => None,
            }
        };
        tokio::select! {
            msg = inbound.message() => {
                let bytes = match msg {
                    Ok(Some(b)) => b,
                    Ok(None) => panic!("{token}: the stream ended without MatchEnd"),
                    Err(s) => panic!("{token}: the stream failed: {s}"),
                };
                let m = pb::RefereeMessage::decode(&bytes[..]).expect("a referee message");
                log.push(bytes);
                match m.msg {
                    Some(Msg::Request(mut r)) => {
                        assert_eq!(r.legal.is_empty(), mode.binary, "{token}: legal texts or ids");
                        // The legal actions as text, from their ids on a binary stream.
                        let ids = std::mem::take(&mut r.legal_ids);
                        r.legal.extend(ids.into_iter().map(|id| {
                            whistle_protocol::ids::action_from_id(id)
                                .expect("an action id")
                                .to_string()
                        }));
                        pending = Some(r);
                    }
                    Some(Msg::Fault(f)) => panic!("{token}: unexpected fault {f:?}"),
                    Some(Msg::MatchEnd(_)) => return log,
                    _ => {}
                }
            }
            o = order, if orders_open => match o {
                Some(o) => orders.push_back(o),
                None => orders_open = false,
            },
        }
        let choice = match &policy {
            Policy::Free { seed, pass_percent } => pending.take().map(|r| {
                let h = splitmix(seed ^ splitmix(r.request_id));
                let text = if r.legal.iter().any(|a| a == "pass") && h % 100 < *pass_percent {
                    "pass".to_string()
                } else {
                    r.legal[(h >> 8) as usize % r.legal.len()].clone()
                };
                (r.request_id, text)
            }),
            Policy::Scripted(_) if pending.is_some() && !orders.is_empty() => {
                let r = pending.take().expect("checked");
                Some((r.request_id, orders.pop_front().expect("checked")))
            }
            Policy::Scripted(_) if !orders_open => pending.take().map(|r| {
                let h = splitmix(r.request_id);
                (r.request_id, r.legal[h as usize % r.legal.len()].clone())
            }),
            Policy::Scripted(_) => None,
        };
        if let Some((request_id, text)) = choice {
            tx.send(pb::BotMessage {
                msg: Some(pb::bot_message::Msg::Answer(pb::Answer {
                    request_id,
                    choice: Some(pb::answer::Choice::Text(text)),
                })),
            })
            .await
            .expect("send an answer");
        }
    }
}

// ---------------------------------------------------------------------------
// Matches.
// ---------------------------------------------------------------------------

/// A match to play again: deck orders by deal, and every action in order.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Script {
    deals: Vec<Vec<Card>>,
    actions: Vec<(Seat, Action)>,
}

fn spec(seed: u64, deals: Vec<Vec<Card>>) -> TableSpec {
    let mut spec = TableSpec::new(
        Variant::Israeli,
        Seed::from_u64(seed).derive(Domain::Match, 0),
        &["north", "east", "south", "west"],
    );
    spec.table_id = Some(TABLE_ID.into());
    spec.options = Options::parse(&[HANDS]).expect("options");
    spec.seats = (0..4)
        .map(|i| SeatSpec {
            token: Some(format!("token-{i}")),
            bot_name: spec.seats[i].bot_name.clone(),
            withdrawn: None,
        })
        .collect();
    // Generous clocks: no answer is ever late, so the bank never moves and
    // every request states the same allowance.
    spec.time = TimeControl {
        per_action: Duration::from_secs(60),
        time_bank: Duration::from_secs(60),
        reconnect_grace: Duration::from_secs(60),
    };
    spec.start_timeout = Duration::from_secs(60);
    spec.deals = deals;
    spec
}

/// A match played by four free clients: its script.
async fn free_match(seed: u64, pass_percent: u64) -> Script {
    let referee = Referee::new(None);
    let (addr, server) = referee
        .spawn("127.0.0.1:0".parse().expect("address"))
        .await
        .expect("listen");
    let spec = spec(seed, Vec::new());
    let mut handle = referee.create_table(spec.clone()).expect("table");
    let clients: Vec<JoinHandle<Vec<Vec<u8>>>> = (0..4)
        .map(|i| {
            let policy = Policy::Free {
                seed: seed * 10 + i as u64,
                pass_percent,
            };
            let mode = Mode {
                compact: false,
                binary: false,
            };
            tokio::spawn(client(addr, handle.tokens[i].clone(), policy, mode))
        })
        .collect();
    let records = record::read_all(&mut handle.records, MATCH_LIMIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    for c in clients {
        timeout(MATCH_LIMIT, c)
            .await
            .expect("in time")
            .expect("client");
    }
    server.shutdown().await;
    let summary = record::check(&spec, &records);
    assert!(summary.faults.iter().all(Vec::is_empty));
    let mut script = Script {
        deals: Vec::new(),
        actions: Vec::new(),
    };
    for r in records {
        match r {
            TableRecord::Deal { order, .. } => script.deals.push(order),
            TableRecord::Action { seat, action, .. } => script.actions.push((seat, action)),
            _ => {}
        }
    }
    script
}

/// Plays the first `upto` actions of `script` with four scripted clients,
/// one action at a time in order, then lets them finish the match freely;
/// returns every seat's received messages as bytes.
async fn scripted_match(seed: u64, script: &Script, upto: usize, mode: Mode) -> Vec<Vec<Vec<u8>>> {
    let referee = Referee::new(None);
    let (addr, server) = referee
        .spawn("127.0.0.1:0".parse().expect("address"))
        .await
        .expect("listen");
    let spec = spec(seed, script.deals.clone());
    let mut handle = referee.create_table(spec.clone()).expect("table");
    let mut orders = Vec::new();
    let mut clients = Vec::new();
    for i in 0..4 {
        let (tx, rx) = mpsc::unbounded_channel();
        orders.push(tx);
        clients.push(tokio::spawn(client(
            addr,
            handle.tokens[i].clone(),
            Policy::Scripted(rx),
            mode,
        )));
    }
    let mut records = Vec::new();
    for (j, &(seat, action)) in script.actions[..upto].iter().enumerate() {
        orders[seat.index()]
            .send(action.to_string())
            .expect("the client is alive");
        // The next action is sent only once this one is applied, so the
        // table sees the actions in the script's order.
        loop {
            let r = timeout(STEP_LIMIT, handle.records.recv())
                .await
                .unwrap_or_else(|_| panic!("step {j} ({seat} {action}) was not applied in time"))
                .expect("the record goes on");
            records.push(r.clone());
            match r {
                TableRecord::Action {
                    seat: s,
                    action: a,
                    fallback,
                    ..
                } => {
                    assert_eq!((s, a, fallback), (seat, action, false), "step {j}");
                    break;
                }
                TableRecord::Fault(f) => panic!("step {j} ({seat} {action}): {f:?}"),
                _ => {}
            }
        }
    }
    drop(orders);
    records.extend(
        record::read_all(&mut handle.records, MATCH_LIMIT)
            .await
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let mut logs = Vec::new();
    for c in clients {
        logs.push(
            timeout(MATCH_LIMIT, c)
                .await
                .expect("in time")
                .expect("client"),
        );
    }
    server.shutdown().await;
    record::check(&spec, &records);
    logs
}

// ---------------------------------------------------------------------------
// Re-dealing what a seat has not seen.
// ---------------------------------------------------------------------------

/// SplitMix64 for the test's own choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(1);
        (splitmix(self.0) % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A permutation of the cards (identity outside what it was built on).
#[derive(Debug, Clone)]
struct CardMap(Vec<usize>);

impl CardMap {
    fn identity() -> CardMap {
        CardMap((0..Card::COUNT).collect())
    }

    /// A random permutation of `cards` within each suit.
    fn within_suits(cards: CardSet, rng: &mut Rng) -> CardMap {
        let mut map = CardMap::identity();
        let all: Vec<Card> = cards.iter().collect();
        let mut classes: Vec<Vec<Card>> = Vec::new();
        for c in all {
            match classes.iter_mut().find(|k| k[0].suit() == c.suit()) {
                Some(k) => k.push(c),
                None => classes.push(vec![c]),
            }
        }
        for from in classes {
            let mut to = from.clone();
            rng.shuffle(&mut to);
            for (f, t) in from.iter().zip(&to) {
                map.0[f.index()] = t.index();
            }
        }
        map
    }

    fn swap(&mut self, a: Card, b: Card) {
        self.0.swap(a.index(), b.index());
    }

    fn card(&self, c: Card) -> Card {
        Card::from_index(self.0[c.index()]).expect("a card")
    }

    fn action(&self, a: Action) -> Action {
        a.card().map_or(a, |c| a.with_card(self.card(c)))
    }
}

fn new_game() -> AnyGame {
    Variant::Israeli
        .new_game(&Options::parse(&[HANDS]).expect("options"))
        .expect("a game")
}

/// Deals the script's next deck order while the game waits for a deal.
fn deal_next(game: &mut AnyGame, script: &Script) {
    while game.status() == GameStatus::Deal {
        let d = game.deals() as usize;
        game.deal(&script.deals[d]).expect("the deal");
    }
}

/// The engine's state before action `k` of `script` (after any deal due).
fn before(script: &Script, k: usize) -> AnyGame {
    let mut game = new_game();
    for &(s, a) in &script.actions[..k] {
        deal_next(&mut game, script);
        game.apply(s, a).expect("a legal action");
    }
    deal_next(&mut game, script);
    game
}

/// What `seat` may know before action `k` of `script`.
struct Prefix {
    /// The cards it has not seen, per deal so far: at the end of each
    /// earlier deal, and before action `k` in the current one.
    unseen: Vec<CardSet>,
    /// How many events the referee has sent it by then: one per entry of
    /// each deal's log that the seat may see.
    events: usize,
}

fn prefix(script: &Script, seat: Seat, k: usize) -> Prefix {
    let visible = |g: &AnyGame| g.log().iter().filter(|e| e.seen_by(seat).is_some()).count();
    let mut game = new_game();
    let mut unseen = Vec::new();
    let mut events = 0;
    for j in 0..=k {
        if game.status() == GameStatus::Deal && game.deals() > 0 {
            // A deal is over and the next is due: what the seat never saw.
            unseen.push(game.deck().minus(game.seen_by(seat)));
            events += visible(&game);
        }
        deal_next(&mut game, script);
        if j == k {
            break;
        }
        let (s, a) = script.actions[j];
        game.apply(s, a).expect("a legal action");
    }
    unseen.push(game.deck().minus(game.seen_by(seat)));
    events += visible(&game);
    assert_eq!(unseen.len(), game.deals() as usize);
    Prefix { unseen, events }
}

/// The deal each action of `script` belongs to.
fn deal_of(script: &Script) -> Vec<usize> {
    let mut game = new_game();
    let mut out = Vec::new();
    for &(s, a) in &script.actions {
        deal_next(&mut game, script);
        out.push(game.deals() as usize - 1);
        game.apply(s, a).expect("a legal action");
    }
    assert!(game.is_over());
    out
}

/// The script with each deal's `maps[d]` applied (deals beyond `maps`
/// unchanged).
fn remap(script: &Script, maps: &[CardMap], deal_of: &[usize]) -> Script {
    let id = CardMap::identity();
    let map = |d: usize| maps.get(d).unwrap_or(&id);
    Script {
        deals: script
            .deals
            .iter()
            .enumerate()
            .map(|(d, order)| order.iter().map(|&c| map(d).card(c)).collect())
            .collect(),
        actions: script
            .actions
            .iter()
            .zip(deal_of)
            .map(|(&(s, a), &d)| (s, map(d).action(a)))
            .collect(),
    }
}

/// Where a seat's stream goes beyond what it may know when it has been
/// sent `events` events: at the message that carries its next event (or the
/// end). Requests issued in that state come before it. Events come as Event
/// messages, inside compact requests' deltas, and in the whole observation
/// of a compact stream's first request (its history: such a stream is sent
/// no Event message before it, where a full stream is sent the hand's
/// HandStart).
fn cut(log: &[Vec<u8>], events: usize) -> usize {
    let mut seen = 0;
    for (i, bytes) in log.iter().enumerate() {
        let m = pb::RefereeMessage::decode(&bytes[..]).expect("a message");
        let now = match m.msg {
            Some(Msg::Event(_)) => seen + 1,
            Some(Msg::Request(r)) => match (r.delta, r.observation) {
                (Some(d), _) => seen + d.events.len(),
                (None, Some(o)) if seen == 0 => o.history.len(),
                _ => seen,
            },
            _ => seen,
        };
        if now > events {
            return i;
        }
        seen = now;
    }
    log.len()
}

fn first_difference(a: &[Vec<u8>], b: &[Vec<u8>]) -> Option<String> {
    let at = a.iter().zip(b).position(|(x, y)| x != y);
    let at = at.or((a.len() != b.len()).then(|| a.len().min(b.len())))?;
    let show = |log: &[Vec<u8>]| {
        log.get(at)
            .map(|m| {
                format!(
                    "{:?}",
                    pb::RefereeMessage::decode(&m[..]).expect("a message")
                )
            })
            .unwrap_or_else(|| "(nothing)".into())
    };
    Some(format!(
        "message {at} differs:\n  original: {}\n  re-dealt: {}",
        show(a),
        show(b)
    ))
}

#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    deals_changed: usize,
    others_changed: usize,
    controls: usize,
}

async fn check_seed(seed: u64, pass_percent: u64, mode: Mode, tally: &mut Tally) {
    let script = free_match(seed, pass_percent).await;
    let n = script.actions.len();
    let deal_of = deal_of(&script);
    let original = scripted_match(seed, &script, n, mode).await;
    for (s, log) in original.iter().enumerate() {
        // The seat got exactly one event per log entry it may see, which is
        // what `cut` counts on.
        let all = prefix(&script, Seat::new(s), n).events;
        assert_eq!(cut(log, all), log.len(), "seat {s}");
        assert!(cut(log, all - 1) < log.len(), "seat {s}");
    }
    let mut rng = Rng(seed);
    for s in 0..4 {
        let seat = Seat::new(s);
        let mut steps = vec![rng.below(n), rng.below(n)];
        if s == seed as usize % 4 {
            steps.push(n);
        }
        for k in steps {
            let known = prefix(&script, seat, k);
            let maps: Vec<CardMap> = known
                .unseen
                .iter()
                .map(|&u| CardMap::within_suits(u, &mut rng))
                .collect();
            let redealt = remap(&script, &maps, &deal_of);
            let logs = scripted_match(seed, &redealt, k, mode).await;
            let end = cut(&original[s], known.events);
            assert_eq!(
                end,
                cut(&logs[s], known.events),
                "seed {seed} seat {s} step {k}"
            );
            if let Some(diff) = first_difference(&original[s][..end], &logs[s][..end]) {
                panic!(
                    "seed {seed} ({mode:?}): seat {s} received different bytes when the cards it had not \
                     seen by step {k} of {n} were re-dealt; {diff}"
                );
            }
            tally.cases += 1;
            tally.deals_changed += (redealt.deals != script.deals) as usize;
            // Some other seat saw some of the re-dealt cards by step `k`.
            tally.others_changed += (0..4).filter(|&t| t != s).any(|t| {
                let end = cut(&original[t], prefix(&script, Seat::new(t), k).events);
                end > cut(&logs[t], prefix(&script, Seat::new(t), k).events)
                    || logs[t][..end] != original[t][..end]
            }) as usize;
        }
    }

    // Control: swap one card the seat holds with a card of the same suit it
    // has not seen; then what the seat received must differ.
    let seat = Seat::new(seed as usize % 4);
    let k = n / 4;
    let known = prefix(&script, seat, k);
    let current = known.unseen.len() - 1;
    let held = before(&script, k).observe(seat).hand;
    let pair = held.iter().find_map(|c| {
        known.unseen[current]
            .iter()
            .find(|u| u.suit() == c.suit())
            .map(|u| (c, u))
    });
    if let Some((mine, other)) = pair {
        let mut maps = vec![CardMap::identity(); known.unseen.len()];
        maps[current].swap(mine, other);
        let logs = scripted_match(seed, &remap(&script, &maps, &deal_of), k, mode).await;
        let end = cut(&original[seat.index()], known.events);
        assert!(
            first_difference(&original[seat.index()][..end], &logs[seat.index()][..end]).is_some(),
            "seed {seed}: swapping seat {seat}'s own {mine} for {other} changed nothing it received"
        );
        tally.controls += 1;
    }
}

/// Every request form: whole observations with events pushed, compact
/// requests (deltas, events inside them), each with text or binary cards
/// and actions.
async fn check_mode(compact: bool, binary: bool) {
    let mode = Mode { compact, binary };
    let mut tally = Tally::default();
    for (seed, pass_percent) in [(1, 90), (2, 60), (3, 30)] {
        check_seed(seed, pass_percent, mode, &mut tally).await;
    }
    println!("{mode:?}: {tally:?}");
    assert!(tally.cases >= 24, "{tally:?}");
    // The re-deals did change the matches, visibly to other seats.
    assert!(tally.deals_changed * 4 >= tally.cases * 3, "{tally:?}");
    assert!(tally.others_changed * 2 >= tally.cases, "{tally:?}");
    assert!(tally.controls >= 2, "{tally:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_byte_sent_to_a_seat_ignores_the_cards_it_has_not_seen() {
    check_mode(false, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_compact_byte_sent_to_a_seat_ignores_the_cards_it_has_not_seen() {
    check_mode(true, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_binary_byte_sent_to_a_seat_ignores_the_cards_it_has_not_seen() {
    check_mode(true, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_whole_binary_byte_sent_to_a_seat_ignores_the_cards_it_has_not_seen() {
    check_mode(false, true).await;
}
