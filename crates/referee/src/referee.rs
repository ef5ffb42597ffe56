//! [`Referee`]: the set of tables, the token registry, and the two gRPC
//! services (`whistle.v1.Referee` for bots, `whistle.v1.Admin` for people and
//! the tournament runner), plus gRPC health and reflection.

use std::{
    collections::{HashMap, VecDeque},
    future::Future,
    net::SocketAddr,
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use tokio::{
    net::TcpListener,
    sync::{broadcast, mpsc, oneshot},
    time::{Instant, timeout},
};
use tokio_stream::{Stream, wrappers::ReceiverStream};
use tonic::{
    Request, Response, Status, Streaming,
    transport::{Server, server::TcpIncoming},
};
use tracing::{info, warn};
use whistle_protocol::{convert, pb};
use whistle_rules::{Game, Seat, Variant, dealing::Seed};

use crate::{
    config::{Fallback, FaultPolicy, SeatSpec, TableSpec, TimeControl},
    record::TableRecord,
    table::{Conn, Table, TableCmd, TableSnapshot, TableState, fault_kind, millis},
};

/// How long a new Play stream may take to send its Hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// Outgoing messages buffered per stream before it counts as not reading.
const STREAM_BUFFER: usize = 4096;

/// Why a table could not be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateError(pub String);

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CreateError {}

/// A created table, as seen by whoever created it.
#[derive(Debug)]
pub struct TableHandle {
    /// The table id.
    pub table_id: String,
    /// The seat tokens, by seat.
    pub tokens: Vec<String>,
    /// The table's record, entry by entry, ending with `End` or `Aborted`.
    pub records: mpsc::UnboundedReceiver<TableRecord>,
}

struct TableEntry {
    cmd: mpsc::Sender<TableCmd>,
    snapshot: Arc<Mutex<TableSnapshot>>,
    watch: broadcast::Sender<TableRecord>,
    max_faults: u32,
}

#[derive(Default)]
struct BotQueue {
    backlog: VecDeque<pb::SeatAssignment>,
    subscribers: Vec<mpsc::Sender<Result<pb::SeatAssignment, Status>>>,
    next: usize,
}

#[derive(Default)]
struct Registry {
    tables: HashMap<String, TableEntry>,
    seat_tokens: HashMap<String, (String, Seat, Variant)>,
    bot_tokens: HashMap<String, String>,
    bots: HashMap<String, BotQueue>,
}

struct Inner {
    registry: Mutex<Registry>,
    next_table: AtomicU64,
    next_conn: AtomicU64,
    admin_token: Option<String>,
}

/// The referee: creates tables and serves them. Cheap to clone (shared state).
#[derive(Clone)]
pub struct Referee {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Referee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Referee").finish_non_exhaustive()
    }
}

/// A random token: 128 bits from the operating system, as hex.
pub fn new_token(prefix: &str) -> String {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).expect("the operating system's random source");
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{prefix}-{hex}")
}

impl Referee {
    /// A referee with no tables. With `admin_token`, Admin calls must carry
    /// the metadata `authorization: Bearer <token>`; without, Admin is open
    /// (for loopback use only).
    pub fn new(admin_token: Option<String>) -> Referee {
        Referee {
            inner: Arc::new(Inner {
                registry: Mutex::new(Registry::default()),
                next_table: AtomicU64::new(1),
                next_conn: AtomicU64::new(1),
                admin_token,
            }),
        }
    }

    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.inner.registry.lock().expect("registry lock")
    }

    /// Creates a table and starts its task; it begins play when every seat
    /// has connected or `start_timeout` passes. Must be called inside a Tokio
    /// runtime.
    ///
    /// # Errors
    /// [`CreateError`] for bad options, a wrong number of seats, a taken table
    /// id or token, or an override deal that is not a permutation of the deck.
    pub fn create_table(&self, spec: TableSpec) -> Result<TableHandle, CreateError> {
        let game = spec
            .game
            .new_game(&spec.options)
            .map_err(|e| CreateError(e.to_string()))?;
        if spec.seats.len() != game.seats() {
            return Err(CreateError(format!(
                "{} needs {} seats, got {}",
                spec.game,
                game.seats(),
                spec.seats.len()
            )));
        }
        for (i, order) in spec.deals.iter().enumerate() {
            let mut probe = game.clone();
            probe
                .deal(order)
                .map_err(|e| CreateError(format!("deal {i}: {e}")))?;
        }
        let mut game = game;
        if let Some(r) = &spec.resume {
            replay_prefix(&mut game, r)?;
        }
        let tokens: Vec<String> = spec
            .seats
            .iter()
            .map(|s| s.token.clone().unwrap_or_else(|| new_token("seat")))
            .collect();
        let id = spec.table_id.clone().unwrap_or_else(|| {
            format!("t{}", self.inner.next_table.fetch_add(1, Ordering::Relaxed))
        });
        let (cmd_tx, cmd_rx) = mpsc::channel(1024);
        let (rec_tx, rec_rx) = mpsc::unbounded_channel();
        let (watch, _) = broadcast::channel(4096);
        let snapshot = Arc::new(Mutex::new(TableSnapshot {
            table_id: id.clone(),
            game: spec.game.name().to_string(),
            state: TableState::Waiting,
            connected: vec![false; game.seats()],
            faults: vec![0; game.seats()],
            hands_done: 0,
            result: None,
        }));
        {
            let mut reg = self.registry();
            if reg.tables.contains_key(&id) {
                return Err(CreateError(format!("table `{id}` already exists")));
            }
            if let Some(t) = tokens.iter().find(|t| reg.seat_tokens.contains_key(*t)) {
                return Err(CreateError(format!("token `{t}` is already in use")));
            }
            for (i, t) in tokens.iter().enumerate() {
                reg.seat_tokens
                    .insert(t.clone(), (id.clone(), Seat::new(i), spec.game));
            }
            reg.tables.insert(
                id.clone(),
                TableEntry {
                    cmd: cmd_tx,
                    snapshot: snapshot.clone(),
                    watch: watch.clone(),
                    max_faults: spec.faults.max_faults,
                },
            );
            for (i, seat) in spec.seats.iter().enumerate() {
                let assignment = pb::SeatAssignment {
                    table_id: id.clone(),
                    seat: i as u32,
                    seat_token: tokens[i].clone(),
                    game: spec.game.name().to_string(),
                };
                if reg.bot_tokens.values().any(|n| n == &seat.bot_name) {
                    deliver(
                        reg.bots.entry(seat.bot_name.clone()).or_default(),
                        assignment,
                    );
                }
            }
        }
        let table = Table::new(id.clone(), spec, game, rec_tx, watch, snapshot);
        tokio::spawn(table.run(cmd_rx));
        Ok(TableHandle {
            table_id: id,
            tokens,
            records: rec_rx,
        })
    }

    /// Registers a bot token: a `Subscribe` with it receives every seat created
    /// for `bot_name` from now on. Returns the token.
    pub fn register_bot(&self, bot_name: &str, token: Option<String>) -> String {
        let token = token.unwrap_or_else(|| new_token("bot"));
        let mut reg = self.registry();
        reg.bot_tokens.insert(token.clone(), bot_name.to_string());
        reg.bots.entry(bot_name.to_string()).or_default();
        token
    }

    /// Ends every `Subscribe` stream of `bot_name` (no more tables for it).
    pub fn retire_bot(&self, bot_name: &str) {
        let mut reg = self.registry();
        if let Some(q) = reg.bots.get_mut(bot_name) {
            q.subscribers.clear();
        }
    }

    /// Forgets a table: drops its registry entry (with the buffer kept for
    /// watchers, about half a megabyte), its seat tokens and any assignment
    /// of it still waiting for a bot. Meant for tables whose match is over,
    /// so that a referee that runs thousands of matches (a tournament) does
    /// not keep them all; the table is then unknown to [`Referee::table`],
    /// `GetTable`, `WatchTable` and `Play`. Returns whether it was known.
    pub fn forget_table(&self, table_id: &str) -> bool {
        let mut reg = self.registry();
        reg.seat_tokens.retain(|_, (t, _, _)| t != table_id);
        for q in reg.bots.values_mut() {
            q.backlog.retain(|a| a.table_id != table_id);
        }
        reg.tables.remove(table_id).is_some()
    }

    /// A table's current state.
    pub fn table(&self, table_id: &str) -> Option<TableSnapshot> {
        let reg = self.registry();
        reg.tables
            .get(table_id)
            .map(|t| t.snapshot.lock().expect("snapshot lock").clone())
    }

    /// The gRPC router with the bot service, the admin service, health and
    /// reflection.
    pub fn router(&self) -> tonic::transport::server::Router {
        let (health_reporter, health_service) = tonic_health::server::health_reporter();
        // Reflection in both versions: v1, and v1alpha for the clients that
        // still speak only it (grpcurl 1.8, Python's grpcio-reflection).
        let reflection_builder = || {
            tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        };
        let reflection = reflection_builder()
            .build_v1()
            .expect("the descriptor sets are valid");
        let reflection_alpha = reflection_builder()
            .build_v1alpha()
            .expect("the descriptor sets are valid");
        let bots = pb::referee_server::RefereeServer::new(BotService(self.clone()));
        let admin = pb::admin_server::AdminServer::new(AdminService(self.clone()));
        tokio::spawn(async move {
            health_reporter
                .set_serving::<pb::referee_server::RefereeServer<BotService>>()
                .await;
            health_reporter
                .set_serving::<pb::admin_server::AdminServer<AdminService>>()
                .await;
        });
        Server::builder()
            .tcp_nodelay(true)
            .http2_keepalive_interval(Some(Duration::from_secs(20)))
            .add_service(health_service)
            .add_service(reflection)
            .add_service(reflection_alpha)
            .add_service(bots)
            .add_service(admin)
    }

    /// Serves on `listener` until `shutdown` completes.
    ///
    /// # Errors
    /// A transport error from the server.
    pub async fn serve(
        &self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), tonic::transport::Error> {
        // `Server::tcp_nodelay` applies only to listeners tonic binds itself:
        // set it on every accepted socket here, or Nagle's algorithm holds a
        // request queued behind an event until the bot's delayed ACK.
        let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
        self.router()
            .serve_with_incoming_shutdown(incoming, shutdown)
            .await
    }

    /// Binds `addr` (port 0 picks a free port) and serves in a background
    /// task. Returns the bound address and a handle that stops the server when
    /// dropped or triggered.
    ///
    /// # Errors
    /// If the address cannot be bound.
    pub async fn spawn(&self, addr: SocketAddr) -> std::io::Result<(SocketAddr, ServerHandle)> {
        let listener = TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let me = self.clone();
        let task = tokio::spawn(async move {
            let shutdown = async {
                let _ = stop_rx.await;
            };
            if let Err(e) = me.serve(listener, shutdown).await {
                warn!(error = %e, "server stopped with an error");
            }
        });
        info!(%local, "referee listening");
        Ok((
            local,
            ServerHandle {
                stop: Some(stop_tx),
                task,
            },
        ))
    }

    fn check_admin<T>(&self, req: &Request<T>) -> Result<(), Status> {
        let Some(expected) = &self.inner.admin_token else {
            return Ok(());
        };
        let given = req
            .metadata()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if given == Some(expected.as_str()) {
            Ok(())
        } else {
            Err(Status::unauthenticated(
                "admin calls need `authorization: Bearer <admin token>`",
            ))
        }
    }
}

/// Re-applies the completed hands of an interrupted match.
fn replay_prefix(
    game: &mut whistle_rules::AnyGame,
    r: &crate::config::Resume,
) -> Result<(), CreateError> {
    let seats = game.seats();
    if r.faults.len() != seats || r.forfeited.len() != seats {
        return Err(CreateError(format!(
            "resume: fault counts and forfeits must have {seats} entries"
        )));
    }
    let deal = |game: &mut whistle_rules::AnyGame| -> Result<(), CreateError> {
        while game.status() == whistle_rules::Status::Deal {
            let d = game.deals() as usize;
            let order = r
                .deals
                .get(d)
                .ok_or_else(|| CreateError(format!("resume: deal {d} is missing")))?;
            game.deal(order)
                .map_err(|e| CreateError(format!("resume: deal {d}: {e}")))?;
        }
        Ok(())
    };
    for (i, &(seat, action, _)) in r.actions.iter().enumerate() {
        deal(game)?;
        game.apply(seat, action)
            .map_err(|e| CreateError(format!("resume: action {i}: {e}")))?;
    }
    if game.status() == whistle_rules::Status::Act {
        return Err(CreateError(
            "resume: the recorded actions stop in the middle of a hand".into(),
        ));
    }
    if game.is_over() {
        return Err(CreateError("resume: the match is already over".into()));
    }
    Ok(())
}

fn deliver(q: &mut BotQueue, assignment: pb::SeatAssignment) {
    q.subscribers.retain(|s| !s.is_closed());
    let n = q.subscribers.len();
    for k in 0..n {
        let i = (q.next + k) % n;
        if q.subscribers[i].try_send(Ok(assignment.clone())).is_ok() {
            q.next = i + 1;
            return;
        }
    }
    q.backlog.push_back(assignment);
}

/// Stops a spawned server.
#[derive(Debug)]
pub struct ServerHandle {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl ServerHandle {
    /// Stops the server and waits for it to finish.
    pub async fn shutdown(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = (&mut self.task).await;
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

type BoxStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

/// The `whistle.v1.Referee` service.
#[derive(Debug, Clone)]
pub struct BotService(Referee);

#[tonic::async_trait]
impl pb::referee_server::Referee for BotService {
    type SubscribeStream = BoxStream<pb::SeatAssignment>;
    type PlayStream = BoxStream<pb::RefereeMessage>;

    async fn subscribe(
        &self,
        req: Request<pb::SubscribeRequest>,
    ) -> Result<Response<Self::SubscribeStream>, Status> {
        let req = req.into_inner();
        let mut reg = self.0.registry();
        if let Some((table_id, seat, game)) = reg.seat_tokens.get(&req.token).cloned() {
            let one = pb::SeatAssignment {
                table_id,
                seat: seat.index() as u32,
                seat_token: req.token.clone(),
                game: game.name().to_string(),
            };
            return Ok(Response::new(Box::pin(tokio_stream::once(Ok(one)))));
        }
        let Some(name) = reg.bot_tokens.get(&req.token).cloned() else {
            return Err(Status::unauthenticated("unknown token"));
        };
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        let q = reg.bots.entry(name.clone()).or_default();
        while let Some(a) = q.backlog.pop_front() {
            if tx.try_send(Ok(a)).is_err() {
                break;
            }
        }
        q.subscribers.push(tx);
        info!(bot = %name, "bot subscribed");
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn play(
        &self,
        req: Request<Streaming<pb::BotMessage>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let mut inbound = req.into_inner();
        let first = timeout(HELLO_TIMEOUT, inbound.message())
            .await
            .map_err(|_| Status::unauthenticated("no Hello within 10 s"))??;
        let hello = match first {
            Some(pb::BotMessage {
                msg: Some(pb::bot_message::Msg::Hello(h)),
            }) => h,
            _ => {
                return Err(Status::unauthenticated("the first message must be a Hello"));
            }
        };
        if !hello.protocol.is_empty() && hello.protocol != whistle_protocol::PROTOCOL {
            return Err(Status::failed_precondition(format!(
                "this referee speaks {}, not {}",
                whistle_protocol::PROTOCOL,
                hello.protocol
            )));
        }
        let (table_id, seat) = {
            let reg = self.0.registry();
            match reg.seat_tokens.get(&hello.token) {
                Some((t, s, _)) => (t.clone(), *s),
                None => {
                    warn!(bot = %hello.bot_name, "unknown token refused");
                    return Err(Status::unauthenticated("unknown token"));
                }
            }
        };
        let cmd = {
            let reg = self.0.registry();
            reg.tables
                .get(&table_id)
                .map(|t| t.cmd.clone())
                .ok_or_else(|| Status::not_found("no such table"))?
        };
        let conn_id = self.0.inner.next_conn.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        let (reply_tx, reply_rx) = oneshot::channel();
        cmd.send(TableCmd::Attach {
            seat,
            conn: Conn {
                id: conn_id,
                tx,
                quiet: hello.quiet,
                bot_name: hello.bot_name.clone(),
            },
            reply: reply_tx,
        })
        .await
        .map_err(|_| Status::failed_precondition("the table is over"))?;
        reply_rx
            .await
            .map_err(|_| Status::failed_precondition("the table is over"))??;
        tokio::spawn(async move {
            while let Ok(Some(msg)) = inbound.message().await {
                let at = Instant::now();
                let m = TableCmd::Message {
                    seat,
                    conn_id,
                    msg,
                    at,
                };
                if cmd.send(m).await.is_err() {
                    break;
                }
            }
            let _ = cmd.send(TableCmd::Detach { seat, conn_id }).await;
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }
}

/// The `whistle.v1.Admin` service.
#[derive(Debug, Clone)]
pub struct AdminService(Referee);

fn snapshot_msg(s: &TableSnapshot) -> pb::TableStatus {
    pb::TableStatus {
        table_id: s.table_id.clone(),
        game: s.game.clone(),
        state: match s.state {
            TableState::Waiting => pb::table_status::State::Waiting,
            TableState::Playing => pb::table_status::State::Playing,
            TableState::Over => pb::table_status::State::Over,
        } as i32,
        connected: s.connected.clone(),
        faults: s.faults.clone(),
        hands_done: s.hands_done,
        result: s.result.as_ref().map(|(r, f)| convert::match_result(r, f)),
    }
}

fn record_msg(r: &TableRecord, max_faults: u32) -> Option<pb::TableRecord> {
    use pb::table_record::Entry;
    let (entry, seat) = match r {
        TableRecord::Started { .. } => (None, 0),
        TableRecord::Deal { order, .. } => (Some(Entry::Deal(convert::deck_order(order))), 0),
        TableRecord::Action {
            seat,
            action,
            elapsed,
            fallback,
        } => (
            Some(Entry::Action(pb::AppliedAction {
                seat: seat.index() as u32,
                action: action.to_string(),
                elapsed_ms: millis(*elapsed),
                fallback: *fallback,
            })),
            seat.index() as u32,
        ),
        TableRecord::Fault(f) => (
            Some(Entry::Fault(pb::Fault {
                kind: fault_kind(f.kind) as i32,
                request_id: f.request_id.unwrap_or(0),
                detail: f.detail.clone(),
                fallback: f.fallback.map(|a| a.to_string()).unwrap_or_default(),
                faults: f.faults,
                max_faults,
                forfeited: f.forfeited,
            })),
            f.seat.index() as u32,
        ),
        TableRecord::Hand(h) => (Some(Entry::Hand(convert::hand_result(h))), 0),
        TableRecord::End {
            result, forfeited, ..
        } => (
            Some(Entry::Result(convert::match_result(result, forfeited))),
            0,
        ),
        TableRecord::Aborted { .. } => (None, 0),
    };
    entry.map(|entry| pb::TableRecord {
        entry: Some(entry),
        seat,
    })
}

#[tonic::async_trait]
impl pb::admin_server::Admin for AdminService {
    type WatchTableStream = BoxStream<pb::TableRecord>;

    async fn create_table(
        &self,
        req: Request<pb::CreateTableRequest>,
    ) -> Result<Response<pb::CreateTableResponse>, Status> {
        self.0.check_admin(&req)?;
        let r = req.into_inner();
        let game: Variant = r
            .game
            .parse()
            .map_err(|e: whistle_rules::OptionError| Status::invalid_argument(e.to_string()))?;
        let match_seed = Seed::from_hex(&r.match_seed).map_err(Status::invalid_argument)?;
        let mut spec = TableSpec::new(game, match_seed, &[]);
        spec.table_id = (!r.table_id.is_empty()).then(|| r.table_id.clone());
        spec.options = convert::options_from(&r.options);
        spec.seats = r
            .seats
            .iter()
            .map(|s| SeatSpec {
                token: (!s.token.is_empty()).then(|| s.token.clone()),
                bot_name: s.bot_name.clone(),
            })
            .collect();
        if let Some(t) = r.time_control {
            spec.time = TimeControl {
                per_action: Duration::from_millis(t.per_action_ms),
                time_bank: Duration::from_millis(t.time_bank_ms),
                reconnect_grace: Duration::from_millis(t.reconnect_grace_ms),
            };
        }
        if let Some(p) = r.fault_policy {
            spec.faults = FaultPolicy {
                max_faults: p.max_faults.max(1),
                fallback: if p.fallback.is_empty() {
                    Fallback::default()
                } else {
                    Fallback::from_name(&p.fallback).ok_or_else(|| {
                        Status::invalid_argument("fallback must be `first` or `random`")
                    })?
                },
                flood_per_second: if p.flood_per_second == 0 {
                    FaultPolicy::default().flood_per_second
                } else {
                    p.flood_per_second
                },
            };
        }
        if r.start_timeout_ms > 0 {
            spec.start_timeout = Duration::from_millis(r.start_timeout_ms);
        }
        spec.deals = r
            .deals
            .iter()
            .map(convert::parse_deck_order)
            .collect::<Result<_, _>>()
            .map_err(|e| Status::invalid_argument(e.to_string()))?;
        let handle = self
            .0
            .create_table(spec)
            .map_err(|e| Status::invalid_argument(e.0))?;
        Ok(Response::new(pb::CreateTableResponse {
            table_id: handle.table_id,
            tokens: handle.tokens,
        }))
    }

    async fn register_bot(
        &self,
        req: Request<pb::RegisterBotRequest>,
    ) -> Result<Response<pb::RegisterBotResponse>, Status> {
        self.0.check_admin(&req)?;
        let r = req.into_inner();
        if r.bot_name.is_empty() {
            return Err(Status::invalid_argument("bot_name is empty"));
        }
        let token = self
            .0
            .register_bot(&r.bot_name, (!r.token.is_empty()).then_some(r.token));
        Ok(Response::new(pb::RegisterBotResponse { token }))
    }

    async fn get_table(
        &self,
        req: Request<pb::GetTableRequest>,
    ) -> Result<Response<pb::TableStatus>, Status> {
        self.0.check_admin(&req)?;
        let id = req.into_inner().table_id;
        self.0
            .table(&id)
            .map(|s| Response::new(snapshot_msg(&s)))
            .ok_or_else(|| Status::not_found(format!("no table `{id}`")))
    }

    async fn list_tables(
        &self,
        req: Request<pb::ListTablesRequest>,
    ) -> Result<Response<pb::ListTablesResponse>, Status> {
        self.0.check_admin(&req)?;
        let reg = self.0.registry();
        let mut tables: Vec<pb::TableStatus> = reg
            .tables
            .values()
            .map(|t| snapshot_msg(&t.snapshot.lock().expect("snapshot lock")))
            .collect();
        tables.sort_by(|a, b| a.table_id.cmp(&b.table_id));
        Ok(Response::new(pb::ListTablesResponse { tables }))
    }

    async fn watch_table(
        &self,
        req: Request<pb::WatchTableRequest>,
    ) -> Result<Response<Self::WatchTableStream>, Status> {
        self.0.check_admin(&req)?;
        let id = req.into_inner().table_id;
        let (rx, max_faults) = {
            let reg = self.0.registry();
            let t = reg
                .tables
                .get(&id)
                .ok_or_else(|| Status::not_found(format!("no table `{id}`")))?;
            (t.watch.subscribe(), t.max_faults)
        };
        let mut rx = rx;
        let (tx, out) = mpsc::channel(STREAM_BUFFER);
        tokio::spawn(async move {
            // Forward until the match ends; a watcher that falls too far behind
            // gets DATA_LOSS rather than a silently incomplete record.
            loop {
                match rx.recv().await {
                    Ok(TableRecord::Aborted { reason }) => {
                        let _ = tx.send(Err(Status::aborted(reason))).await;
                        break;
                    }
                    Ok(r) => {
                        let end = matches!(r, TableRecord::End { .. });
                        if let Some(msg) = record_msg(&r, max_faults)
                            && tx.send(Ok(msg)).await.is_err()
                        {
                            break;
                        }
                        if end {
                            break;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        let _ = tx
                            .send(Err(Status::data_loss(format!(
                                "watcher lagged by {n} records"
                            ))))
                            .await;
                        break;
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        let stream = ReceiverStream::new(out);
        Ok(Response::new(Box::pin(stream)))
    }
}

#[cfg(test)]
mod tests {
    use whistle_rules::dealing::Seed;

    use super::*;

    #[tokio::test]
    async fn a_forgotten_table_leaves_nothing_in_the_registry() {
        let referee = Referee::new(None);
        referee.register_bot("a", None);
        let mut spec = TableSpec::new(Variant::Israeli, Seed::from_u64(1), &["a", "b", "c", "d"]);
        spec.table_id = Some("t1".into());
        let _kept = referee
            .create_table(TableSpec {
                table_id: Some("t2".into()),
                ..spec.clone()
            })
            .unwrap();
        let handle = referee.create_table(spec).unwrap();
        assert!(referee.table("t1").is_some());
        assert!(referee.forget_table("t1"));
        assert!(referee.table("t1").is_none());
        assert!(!referee.forget_table("t1"), "already forgotten");
        let reg = referee.registry();
        assert!(
            handle
                .tokens
                .iter()
                .all(|t| !reg.seat_tokens.contains_key(t))
        );
        assert_eq!(reg.seat_tokens.len(), 4, "t2's tokens stay");
        let backlog: Vec<&str> = reg.bots["a"]
            .backlog
            .iter()
            .map(|a| a.table_id.as_str())
            .collect();
        assert_eq!(backlog, ["t2"]);
        assert!(reg.tables.contains_key("t2"));
    }
}
