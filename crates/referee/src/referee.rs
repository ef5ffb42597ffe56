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
use tonic::{Request, Response, Status, Streaming, transport::Server};
use tracing::{debug, info, warn};
use whistle_protocol::{
    codec::{EncodeBuffer, Encoded},
    compact::DeltaEncoder,
    convert::{self, Form},
    limits::{echo, token_hint},
    pb,
};
use whistle_rules::{Game, MatchDriver, Seat, Variant, dealing::Seed};

use crate::{
    config::{Fallback, FaultPolicy, SeatSpec, TableSpec, TimeControl},
    record::TableRecord,
    table::{Conn, Table, TableCmd, TableSnapshot, TableState, WATCH_BUFFER, Watch},
};

/// The status message of a retired bot's refused or ended stream.
pub const RETIRED: &str = "the bot is retired";
/// The status message of a `Subscribe` stream a newer one replaced.
pub const SUPERSEDED: &str = "superseded by a newer Subscribe for the same bot";

/// The response header of a lasting bot's `Subscribe`.
pub use whistle_protocol::LASTING;
/// How long a new Play stream may take to send its Hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// Concurrent streams on one HTTP/2 connection (a bot token's bot holds one
/// `Play` stream a table, a league seats a bot at a few tables at once).
pub const MAX_STREAMS_PER_CONNECTION: u32 = 256;
/// `Play` streams of one peer address that may wait for their Hello at once
/// (each is closed after the Hello timeout anyway).
pub const MAX_PENDING_PER_PEER: usize = 256;
/// How long a new connection may stay silent before it is closed.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Finished tables kept for `GetTable`, `ListTables` and `WatchTable` by default.
pub const KEEP_FINISHED: usize = 1000;
/// Outgoing messages buffered per stream before it counts as not reading.
const STREAM_BUFFER: usize = 4096;

/// Why a table could not be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreateError {
    /// The referee is draining for shutdown.
    ShuttingDown,
    /// The game's options are not valid.
    Options(whistle_rules::OptionError),
    /// The seats given are not the game's number of seats.
    Seats {
        /// The game.
        game: Variant,
        /// Its seats.
        expected: usize,
        /// Seats given.
        got: usize,
    },
    /// A deck order given for a deal is not a permutation of the deck.
    Deal {
        /// The deal index.
        deal: usize,
        /// What is wrong.
        error: whistle_rules::DealError,
    },
    /// The table id is taken.
    TableExists(String),
    /// A seat token is already in use.
    TokenInUse(String),
    /// The record to resume from is not a match in progress at a hand
    /// boundary; the text says what is wrong.
    Resume(String),
}

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CreateError::ShuttingDown => f.write_str("the referee is shutting down: no new tables"),
            CreateError::Options(e) => write!(f, "{e}"),
            CreateError::Seats {
                game,
                expected,
                got,
            } => write!(f, "{game} needs {expected} seats, got {got}"),
            CreateError::Deal { deal, error } => write!(f, "deal {deal}: {error}"),
            CreateError::TableExists(id) => write!(f, "table `{id}` already exists"),
            CreateError::TokenInUse(t) => write!(f, "token `{t}` is already in use"),
            CreateError::Resume(why) => write!(f, "resume: {why}"),
        }
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
    /// The running table's channels; `None` once its task has ended.
    live: Option<Live>,
    snapshot: Arc<Mutex<TableSnapshot>>,
    max_faults: u32,
}

struct Live {
    cmd: mpsc::Sender<TableCmd>,
    watch: Watch,
    seats: Vec<String>,
    /// Each seat's assignment, given again to a lasting bot's newer
    /// `Subscribe` while the table plays (see [`BotQueue::lasting`]).
    assignments: Vec<pb::SeatAssignment>,
}

#[derive(Default)]
struct BotQueue {
    backlog: VecDeque<pb::SeatAssignment>,
    /// The bot's one `Subscribe` stream (one token, one bot: a newer one
    /// replaces it).
    subscriber: Option<Subscriber>,
    /// A bot its owner runs (a league's, [`Referee::register_bot_hash`]),
    /// not a process the event launched and restarts itself: a newer
    /// `Subscribe` of it is also given again the seats it holds in tables
    /// still playing (a process restarted within the grace takes them
    /// back), and every `Subscribe` of it carries the [`LASTING`] header
    /// (it comes back across the referee's restarts).
    lasting: bool,
}

/// An open `Subscribe` stream.
struct Subscriber {
    tx: mpsc::Sender<Result<pb::SeatAssignment, Status>>,
    /// Ends the stream at once with a status, whatever it still holds.
    end: oneshot::Sender<Status>,
    peer: String,
}

impl Subscriber {
    fn is_open(&self) -> bool {
        !self.tx.is_closed()
    }
}

/// Whether a bot may still play: asked with its name on every `Subscribe`
/// and `Play` (see [`Referee::set_admits`]).
pub type Admits = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// A `Subscribe` stream's messages: the assignments sent to it, unless a
/// status sent on `end` ends it first (at once, unsent assignments left).
struct Assignments {
    rx: mpsc::Receiver<Result<pb::SeatAssignment, Status>>,
    end: Option<oneshot::Receiver<Status>>,
    done: bool,
}

impl Stream for Assignments {
    type Item = Result<pb::SeatAssignment, Status>;

    fn poll_next(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        if self.done {
            return Poll::Ready(None);
        }
        if let Some(end) = self.end.as_mut() {
            match Pin::new(end).poll(cx) {
                Poll::Ready(Ok(status)) => {
                    self.done = true;
                    return Poll::Ready(Some(Err(status)));
                }
                // No early end any more: the stream ends with its channel.
                Poll::Ready(Err(_)) => self.end = None,
                Poll::Pending => {}
            }
        }
        self.rx.poll_recv(cx)
    }
}

#[derive(Default)]
struct Registry {
    tables: HashMap<String, TableEntry>,
    /// Finished tables still kept, oldest first.
    finished: VecDeque<String>,
    seat_tokens: HashMap<String, (String, Seat, Variant)>,
    /// Seat tokens given out before their seats exist
    /// ([`Referee::reserve_seat_token`]), each with its `Subscribe` stream
    /// once one is open.
    reserved: HashMap<String, Option<Subscriber>>,
    /// Bot tokens by their SHA-256 (hex): the referee keeps no bot token
    /// whole, so a league can register the hashes it stores.
    bot_tokens: HashMap<String, String>,
    /// The hashes of retired bots' tokens, with the bot's name: a
    /// `Subscribe` with one is told the bot is retired, not that its token
    /// is unknown (one entry a token a bot ever had: bounded by the bots).
    retired_tokens: HashMap<String, String>,
    /// The hashes of dismissed bots' tokens, with the bot's name: a
    /// `Subscribe` with one comes from a bot whose event is over (a stdio
    /// bot's bridge that began once its bot read its stdin), refused as an
    /// unknown token but not warned of (bounded as `retired_tokens`).
    dismissed_tokens: HashMap<String, String>,
    bots: HashMap<String, BotQueue>,
    /// Bots out of the event, with the reason: their seats forfeit.
    withdrawn: HashMap<String, String>,
    draining: bool,
}

struct Inner {
    registry: Mutex<Registry>,
    next_table: AtomicU64,
    next_conn: AtomicU64,
    config: RefereeConfig,
    /// `Play` streams that have not said Hello yet, by peer.
    pending: crate::conn::Pending,
    /// Who decides, beyond the registry, whether a bot may still play.
    admits: std::sync::OnceLock<Admits>,
}

/// How a referee runs: who may call Admin, and what it keeps.
#[derive(Debug, Clone)]
pub struct RefereeConfig {
    /// With a token, Admin calls must carry `authorization: Bearer <token>`;
    /// without, Admin is open (for loopback use only).
    pub admin_token: Option<String>,
    /// Finished tables kept for `GetTable`, `ListTables` and `WatchTable`
    /// (the oldest is forgotten first). A finished table keeps only its
    /// status and result; its channels and buffers are freed when it ends.
    pub keep_finished: usize,
    /// How long a new connection may stay silent before it is closed.
    pub handshake_timeout: Duration,
}

/// A server certificate chain and its private key, PEM-encoded.
#[derive(Clone)]
pub struct TlsIdentity {
    /// The certificate chain (the server's certificate first).
    pub cert_pem: Vec<u8>,
    /// The private key.
    pub key_pem: Vec<u8>,
}

impl std::fmt::Debug for TlsIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("TlsIdentity").finish_non_exhaustive()
    }
}

impl TlsIdentity {
    /// Reads a certificate chain and a key from PEM files.
    ///
    /// # Errors
    /// If either cannot be read.
    pub fn from_files(
        cert: &std::path::Path,
        key: &std::path::Path,
    ) -> std::io::Result<TlsIdentity> {
        let read = |p: &std::path::Path| {
            std::fs::read(p)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))
        };
        Ok(TlsIdentity {
            cert_pem: read(cert)?,
            key_pem: read(key)?,
        })
    }

    /// Why the chain's first certificate cannot be a server's now, if it
    /// cannot: not a certificate, expired, not yet valid, or a CA's (a
    /// client would refuse it at every connection; better said at start).
    ///
    /// # Errors
    /// A sentence naming the problem and the certificate's dates.
    pub fn check(&self) -> Result<(), String> {
        use x509_parser::pem::Pem;
        let pem = Pem::iter_from_buffer(&self.cert_pem)
            .next()
            .ok_or("the certificate file holds no PEM certificate")?
            .map_err(|e| format!("the certificate file is not PEM: {e}"))?;
        let cert = pem
            .parse_x509()
            .map_err(|e| format!("the certificate does not read as X.509: {e}"))?;
        let v = cert.validity();
        let now = x509_parser::time::ASN1Time::now();
        if now < v.not_before {
            return Err(format!(
                "the server certificate is not valid until {} (now {now})",
                v.not_before
            ));
        }
        if now > v.not_after {
            return Err(format!(
                "the server certificate expired on {} (now {now})",
                v.not_after
            ));
        }
        if cert.is_ca() {
            return Err(
                "the server certificate is a CA certificate (basic constraints CA:true): \
                 give the server's own certificate, signed by the CA"
                    .into(),
            );
        }
        Ok(())
    }
}

impl Default for RefereeConfig {
    fn default() -> RefereeConfig {
        RefereeConfig {
            admin_token: None,
            keep_finished: KEEP_FINISHED,
            handshake_timeout: HANDSHAKE_TIMEOUT,
        }
    }
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

/// The SHA-256 of a token as lower-case hex: how bot tokens are registered
/// and looked up.
pub fn token_hash(token: &str) -> String {
    ring::digest::digest(&ring::digest::SHA256, token.as_bytes())
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
        Referee::with_config(RefereeConfig {
            admin_token,
            ..RefereeConfig::default()
        })
    }

    /// A referee with no tables, configured.
    pub fn with_config(config: RefereeConfig) -> Referee {
        Referee {
            inner: Arc::new(Inner {
                registry: Mutex::new(Registry::default()),
                next_table: AtomicU64::new(1),
                next_conn: AtomicU64::new(1),
                pending: crate::conn::Pending::default(),
                admits: std::sync::OnceLock::new(),
                config,
            }),
        }
    }

    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.inner.registry.lock().expect("registry lock")
    }

    /// Makes `admits` the judge of whether a bot may still play: every
    /// `Subscribe` with its bot token and every `Play` of one of its seats
    /// asks it with the bot's name, and a bot it refuses is retired there
    /// and then ([`Referee::retire_bot`]) and its stream refused with
    /// `UNAUTHENTICATED`. A league asks its store, so a bot retired there is
    /// refused from the moment the retirement is committed, without waiting
    /// for the league to look. Set once; later calls are ignored.
    pub fn set_admits(&self, admits: Admits) {
        let _ = self.inner.admits.set(admits);
    }

    /// Whether `bot_name` may play (always, without [`Referee::set_admits`]).
    fn admitted(&self, bot_name: &str) -> bool {
        self.inner.admits.get().is_none_or(|a| a(bot_name))
    }

    /// Creates a table and starts its task; it begins play when every seat
    /// has connected or `start_timeout` passes. Must be called inside a Tokio
    /// runtime.
    ///
    /// # Errors
    /// [`CreateError`] for bad options, a wrong number of seats, a taken table
    /// id or token, or an override deal that is not a permutation of the deck.
    pub fn create_table(&self, mut spec: TableSpec) -> Result<TableHandle, CreateError> {
        {
            let reg = self.registry();
            if reg.draining {
                return Err(CreateError::ShuttingDown);
            }
            for seat in &mut spec.seats {
                if seat.withdrawn.is_none() {
                    seat.withdrawn = reg.withdrawn.get(&seat.bot_name).cloned();
                }
            }
        }
        let game = spec
            .game
            .new_game(&spec.options)
            .map_err(CreateError::Options)?;
        if spec.seats.len() != game.seats() {
            return Err(CreateError::Seats {
                game: spec.game,
                expected: game.seats(),
                got: spec.seats.len(),
            });
        }
        for (i, order) in spec.deals.iter().enumerate() {
            let mut probe = game.clone();
            probe
                .deal(order)
                .map_err(|error| CreateError::Deal { deal: i, error })?;
        }
        // The driver deals the table's given deck orders, then the recorded
        // ones of a resumed match, then the match seed's.
        let mut deals = spec.deals.clone();
        if let Some(r) = &spec.resume {
            deals.extend(r.deals.iter().skip(deals.len()).cloned());
        }
        let mut driver =
            MatchDriver::new(game, spec.match_seed, spec.faults.fallback).with_deals(deals);
        if let Some(r) = &spec.resume {
            replay_prefix(&mut driver, r)?;
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
        let watch = Watch::default();
        let snapshot = Arc::new(Mutex::new(TableSnapshot {
            table_id: id.clone(),
            game: spec.game.name().to_string(),
            state: TableState::Waiting,
            connected: vec![false; driver.game().seats()],
            faults: vec![0; driver.game().seats()],
            hands_done: 0,
            result: None,
        }));
        {
            let mut reg = self.registry();
            if reg.tables.contains_key(&id) {
                return Err(CreateError::TableExists(id));
            }
            if let Some(t) = tokens.iter().find(|t| reg.seat_tokens.contains_key(*t)) {
                return Err(CreateError::TokenInUse(t.clone()));
            }
            for (i, t) in tokens.iter().enumerate() {
                reg.seat_tokens
                    .insert(t.clone(), (id.clone(), Seat::new(i), spec.game));
            }
            // A reserved token's stream gets its one seat and ends; one
            // not subscribed yet finds its seat by the token when it does.
            for (i, t) in tokens.iter().enumerate() {
                if let Some(Some(s)) = reg.reserved.remove(t) {
                    let _ = s.tx.try_send(Ok(pb::SeatAssignment {
                        table_id: id.clone(),
                        seat: i as u32,
                        seat_token: t.clone(),
                        game: spec.game.name().to_string(),
                    }));
                }
            }
            let assignments: Vec<pb::SeatAssignment> = tokens
                .iter()
                .enumerate()
                .map(|(i, t)| pb::SeatAssignment {
                    table_id: id.clone(),
                    seat: i as u32,
                    seat_token: t.clone(),
                    game: spec.game.name().to_string(),
                })
                .collect();
            for (seat, assignment) in spec.seats.iter().zip(&assignments) {
                if reg.bot_tokens.values().any(|n| n == &seat.bot_name) {
                    deliver(
                        reg.bots.entry(seat.bot_name.clone()).or_default(),
                        assignment.clone(),
                    );
                }
            }
            reg.tables.insert(
                id.clone(),
                TableEntry {
                    live: Some(Live {
                        cmd: cmd_tx,
                        watch: watch.clone(),
                        seats: spec.seats.iter().map(|s| s.bot_name.clone()).collect(),
                        assignments,
                    }),
                    snapshot: snapshot.clone(),
                    max_faults: spec.faults.max_faults,
                },
            );
        }
        let table = Table::new(id.clone(), spec, driver, rec_tx, watch, snapshot);
        let weak = Arc::downgrade(&self.inner);
        let finished_id = id.clone();
        let on_over = Box::new(move || {
            if let Some(inner) = weak.upgrade() {
                Referee { inner }.table_ended(&finished_id);
            }
        });
        tokio::spawn(table.run(cmd_rx, on_over));
        Ok(TableHandle {
            table_id: id,
            tokens,
            records: rec_rx,
        })
    }

    /// A seat token for a seat not created yet: a `Subscribe` with it
    /// waits (the stream open, nothing sent) until a table is created with
    /// the token for one of its seats ([`crate::SeatSpec::token`]), then
    /// receives that one seat and ends, as a seat token's does. A
    /// tournament starts fresh instances of its bots with such tokens
    /// ahead of their matches. [`Referee::release_seat_token`] gives one
    /// back unused.
    pub fn reserve_seat_token(&self) -> String {
        let token = new_token("seat");
        self.registry().reserved.insert(token.clone(), None);
        token
    }

    /// Gives back a token of [`Referee::reserve_seat_token`] that no seat
    /// took: its `Subscribe` stream ends with OK (its bot exits, the
    /// launch contract) and the token is unknown from now on. Returns
    /// whether it was still reserved.
    pub fn release_seat_token(&self, token: &str) -> bool {
        let slot = self.registry().reserved.remove(token);
        slot.is_some()
    }

    /// Registers a bot token: a `Subscribe` with it receives every seat created
    /// for `bot_name` from now on. Returns the token.
    pub fn register_bot(&self, bot_name: &str, token: Option<String>) -> String {
        let token = token.unwrap_or_else(|| new_token("bot"));
        self.register(bot_name, &token_hash(&token), false);
        token
    }

    /// Registers a bot token by its SHA-256 (hex, as [`token_hash`] gives
    /// it): a `Subscribe` with the token receives every seat created for
    /// `bot_name` from now on. A league registers the hashes it keeps; its
    /// bots are lasting: run by their owners, they come back across the
    /// referee's restarts, and a newer `Subscribe` takes over the seats
    /// the bot holds in tables still playing ([`LASTING`]).
    pub fn register_bot_hash(&self, bot_name: &str, hash: &str) {
        self.register(bot_name, hash, true);
    }

    fn register(&self, bot_name: &str, hash: &str, lasting: bool) {
        let mut reg = self.registry();
        reg.retired_tokens.remove(hash);
        reg.dismissed_tokens.remove(hash);
        reg.bot_tokens
            .insert(hash.to_string(), bot_name.to_string());
        let q = reg.bots.entry(bot_name.to_string()).or_default();
        q.lasting |= lasting;
    }

    /// The bots with a `Subscribe` stream open now (connected and waiting
    /// for seats), by name.
    pub fn waiting_bots(&self) -> Vec<String> {
        let mut reg = self.registry();
        let mut out = Vec::new();
        for (name, q) in reg.bots.iter_mut() {
            if !q.subscriber.as_ref().is_some_and(Subscriber::is_open) {
                q.subscriber = None;
            } else {
                out.push(name.clone());
            }
        }
        out.sort();
        out
    }

    /// Retires `bot_name`: its bot tokens are revoked (from now on a
    /// `Subscribe` with one is refused with `UNAUTHENTICATED`) and its open
    /// `Subscribe` stream ends at once with `UNAUTHENTICATED` ("the bot is
    /// retired"), assignments it had not read included. Seats it already
    /// holds are not taken from it ([`Referee::withdraw_bot`] does that).
    /// Returns whether the bot was known.
    pub fn retire_bot(&self, bot_name: &str) -> bool {
        self.revoke(bot_name, true)
    }

    /// Lets `bot_name` go when its event is over: its bot tokens are
    /// revoked as by [`Referee::retire_bot`], but its `Subscribe` stream
    /// ends with OK once the assignments already sent are read, so a bot
    /// process exits when its seats are done (the launch contract). Seats it
    /// already holds play on. Returns whether the bot was known.
    pub fn dismiss_bot(&self, bot_name: &str) -> bool {
        self.revoke(bot_name, false)
    }

    fn revoke(&self, bot_name: &str, at_once: bool) -> bool {
        let mut reg = self.registry();
        let revoked: Vec<String> = reg
            .bot_tokens
            .iter()
            .filter(|(_, n)| *n == bot_name)
            .map(|(h, _)| h.clone())
            .collect();
        for h in &revoked {
            reg.bot_tokens.remove(h);
            let kept = if at_once {
                &mut reg.retired_tokens
            } else {
                &mut reg.dismissed_tokens
            };
            kept.insert(h.clone(), bot_name.to_string());
        }
        let known = !revoked.is_empty();
        let queue = reg.bots.remove(bot_name);
        drop(reg);
        if let Some(q) = &queue
            && !q.backlog.is_empty()
        {
            warn!(bot = %bot_name, seats = q.backlog.len(), "bot retired with seats it never received");
        }
        let had_queue = queue.is_some();
        let open = queue.and_then(|q| q.subscriber).filter(Subscriber::is_open);
        if at_once {
            if let Some(s) = open {
                let _ = s.end.send(Status::unauthenticated(RETIRED));
                warn!(bot = %bot_name, peer = %s.peer, "bot retired: its Subscribe stream is ended");
            }
            info!(bot = %bot_name, "bot retired: its tokens are revoked");
        } else {
            info!(bot = %bot_name, "bot dismissed: its event is over");
        }
        known || had_queue
    }

    /// Takes `bot_name` out of the event with `reason`: every seat of it in
    /// a running table forfeits now (an `Absent` fault with the reason), and
    /// every table created later starts with its seats forfeited, without
    /// waiting for it.
    pub fn withdraw_bot(&self, bot_name: &str, reason: &str) {
        let cmds: Vec<mpsc::Sender<TableCmd>> = {
            let mut reg = self.registry();
            reg.withdrawn
                .insert(bot_name.to_string(), reason.to_string());
            reg.tables
                .values()
                .filter_map(|t| t.live.as_ref())
                .filter(|l| l.seats.iter().any(|n| n == bot_name))
                .map(|l| l.cmd.clone())
                .collect()
        };
        // Detail: the runner says it once, in a line of its own.
        warn!(target: "whistle::detail", bot = %bot_name, %reason, tables = cmds.len(), "bot withdrawn from the event");
        for cmd in cmds {
            let _ = cmd.try_send(TableCmd::Withdraw {
                bot_name: bot_name.to_string(),
                reason: reason.to_string(),
            });
        }
    }

    /// Undoes [`Referee::withdraw_bot`] for tables created from now on: a
    /// bot out of one event may play the next on a referee that serves
    /// both (a league's rounds).
    pub fn readmit_bot(&self, bot_name: &str) {
        if self.registry().withdrawn.remove(bot_name).is_some() {
            info!(bot = %bot_name, "bot readmitted for later tables");
        }
    }

    /// Ends the live `Play` stream of `seat` at table `table_id` with
    /// UNAVAILABLE, as a network failure would: the seat counts as
    /// disconnected and may reconnect within its grace period. Returns
    /// whether the table is running.
    pub fn cut_stream(&self, table_id: &str, seat: Seat) -> bool {
        let cmd = {
            let reg = self.registry();
            reg.tables
                .get(table_id)
                .and_then(|t| t.live.as_ref())
                .map(|l| l.cmd.clone())
        };
        cmd.is_some_and(|c| c.try_send(TableCmd::Cut { seat }).is_ok())
    }

    /// Forgets a table: drops its registry entry, its seat tokens and any
    /// assignment of it still waiting for a bot. A table forgets itself when
    /// its task ends beyond the [`RefereeConfig::keep_finished`] newest; this
    /// is for an owner that has its record and wants it gone at once (the
    /// tournament runner). The table is then unknown to [`Referee::table`],
    /// `GetTable`, `WatchTable` and `Play`. Returns whether it was known.
    pub fn forget_table(&self, table_id: &str) -> bool {
        let mut reg = self.registry();
        forget(&mut reg, table_id)
    }

    /// A table's task ended: its channels go, its status stays among the
    /// newest finished tables.
    fn table_ended(&self, table_id: &str) {
        let mut reg = self.registry();
        let Some(entry) = reg.tables.get_mut(table_id) else {
            return;
        };
        entry.live = None;
        reg.finished.push_back(table_id.to_string());
        while reg.finished.len() > self.inner.config.keep_finished {
            let oldest = reg.finished.pop_front().expect("non-empty");
            forget(&mut reg, &oldest);
        }
    }

    /// Tables whose task is still running.
    pub fn live_tables(&self) -> usize {
        let reg = self.registry();
        reg.tables.values().filter(|t| t.live.is_some()).count()
    }

    /// Tables known (running, and finished ones kept).
    pub fn known_tables(&self) -> usize {
        self.registry().tables.len()
    }

    /// Stops the referee's play: no new tables or bot subscriptions; every
    /// running table finishes the hand in progress and stops, or stops at
    /// `deadline` mid-hand; every stream ends with UNAVAILABLE and a reason
    /// (Subscribe streams last, once the tables have stopped). Returns when
    /// every table has stopped, or shortly after the deadline.
    pub async fn drain(&self, deadline: Duration) {
        let until = Instant::now() + deadline;
        let cmds: Vec<mpsc::Sender<TableCmd>> = {
            let mut reg = self.registry();
            reg.draining = true;
            reg.tables
                .values()
                .filter_map(|t| t.live.as_ref())
                .map(|l| l.cmd.clone())
                .collect()
        };
        info!(
            tables = cmds.len(),
            deadline_ms = deadline.as_millis() as u64,
            "draining"
        );
        for cmd in &cmds {
            let _ = cmd.send(TableCmd::Drain { deadline: until }).await;
        }
        let slack = until + Duration::from_secs(2);
        while self.live_tables() > 0 && Instant::now() < slack {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let left = self.live_tables();
        if left > 0 {
            warn!(
                tables = left,
                "tables still running after the drain deadline"
            );
        }
        // Last, the bots' Subscribe streams: their seats have ended.
        let mut reg = self.registry();
        for s in reg.reserved.values_mut().filter_map(Option::take) {
            let _ =
                s.tx.try_send(Err(Status::unavailable(whistle_protocol::SHUTTING_DOWN)));
        }
        for q in reg.bots.values_mut() {
            if let Some(s) = q.subscriber.take() {
                let _ =
                    s.tx.try_send(Err(Status::unavailable(whistle_protocol::SHUTTING_DOWN)));
            }
        }
    }

    /// Every table's current state (running and the finished ones kept),
    /// by table id.
    pub fn tables(&self) -> Vec<TableSnapshot> {
        let reg = self.registry();
        let mut out: Vec<TableSnapshot> = reg
            .tables
            .values()
            .map(|t| t.snapshot.lock().expect("snapshot lock").clone())
            .collect();
        out.sort_by(|a, b| a.table_id.cmp(&b.table_id));
        out
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
    /// With `tls`, the router serves TLS with that identity.
    ///
    /// # Errors
    /// A TLS identity rustls cannot use (a bad certificate or key).
    pub fn router(
        &self,
        tls: Option<&TlsIdentity>,
    ) -> Result<tonic::transport::server::Router, tonic::transport::Error> {
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
        // Bot messages are small (an answer is a few bytes): anything above
        // the documented limit ends the stream as a fault. Admin keeps
        // tonic's 4 MiB, room for a table with many override deals.
        let bots = pb::encoded::referee_server::RefereeServer::new(BotService(self.clone()))
            .max_decoding_message_size(whistle_protocol::limits::MAX_MESSAGE_BYTES);
        let admin = pb::admin_server::AdminServer::new(AdminService(self.clone()));
        tokio::spawn(async move {
            health_reporter
                .set_serving::<pb::encoded::referee_server::RefereeServer<BotService>>()
                .await;
            health_reporter
                .set_serving::<pb::admin_server::AdminServer<AdminService>>()
                .await;
        });
        let mut builder = Server::builder()
            .tcp_nodelay(true)
            .http2_keepalive_interval(Some(Duration::from_secs(20)))
            .max_concurrent_streams(Some(MAX_STREAMS_PER_CONNECTION))
            // Every request marks its connection's handshake as done.
            .trace_fn(crate::conn::mark_greeted::<()>);
        if let Some(tls) = tls {
            let identity = tonic::transport::Identity::from_pem(&tls.cert_pem, &tls.key_pem);
            builder =
                builder.tls_config(tonic::transport::ServerTlsConfig::new().identity(identity))?;
        }
        Ok(builder
            .add_service(health_service)
            .add_service(reflection)
            .add_service(reflection_alpha)
            .add_service(bots)
            .add_service(admin))
    }

    /// Serves on `listener` until `shutdown` completes. A connection that
    /// sends nothing within [`RefereeConfig::handshake_timeout`] is closed
    /// (and logged) before it reaches the gRPC server.
    ///
    /// # Errors
    /// A transport error from the server.
    pub async fn serve(
        &self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), tonic::transport::Error> {
        self.serve_tls(listener, None, shutdown).await
    }

    /// [`Referee::serve`], over TLS with `tls` when given. One referee may
    /// serve several listeners (a league: TLS for its bots' owners, plain
    /// loopback for the processes it starts itself).
    ///
    /// # Errors
    /// A transport error from the server, or a TLS identity rustls refuses.
    pub async fn serve_tls(
        &self,
        listener: TcpListener,
        tls: Option<&TlsIdentity>,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), tonic::transport::Error> {
        let incoming = handshaking(listener, self.inner.config.handshake_timeout);
        self.router(tls)?
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
        self.spawn_tls(addr, None).await
    }

    /// [`Referee::spawn`], over TLS with `tls` when given.
    ///
    /// # Errors
    /// If the address cannot be bound, or rustls refuses the identity.
    pub async fn spawn_tls(
        &self,
        addr: SocketAddr,
        tls: Option<TlsIdentity>,
    ) -> std::io::Result<(SocketAddr, ServerHandle)> {
        // A certificate or key rustls refuses is an error now, not a log
        // line from the server task.
        self.router(tls.as_ref()).map_err(|e| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("TLS: {e}"))
        })?;
        let listener = TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let me = self.clone();
        let task = tokio::spawn(async move {
            let shutdown = async {
                let _ = stop_rx.await;
            };
            if let Err(e) = me.serve_tls(listener, tls.as_ref(), shutdown).await {
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

    /// Serves on a Unix socket at `path` (made now; an old file there is
    /// replaced) in a background task: how sandboxed bots, which have no
    /// network, reach the referee (`WHISTLE_ADDRESS=unix:PATH`). The handle
    /// stops the server when dropped or triggered.
    ///
    /// # Errors
    /// If the socket cannot be made.
    #[cfg(unix)]
    pub async fn spawn_unix(&self, path: &std::path::Path) -> std::io::Result<ServerHandle> {
        let _ = std::fs::remove_file(path);
        let listener = tokio::net::UnixListener::bind(path)?;
        let limit = self.inner.config.handshake_timeout;
        let incoming = tokio_stream::StreamExt::map(
            tokio_stream::wrappers::UnixListenerStream::new(listener),
            move |s| {
                s.and_then(whistle_protocol::unix::UnixConn::new)
                    .map(|s| crate::conn::Deadline::new(s, None, limit))
            },
        );
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let router = self.router(None).map_err(|e| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("router: {e}"))
        })?;
        let shown = path.display().to_string();
        let task = tokio::spawn(async move {
            let shutdown = async {
                let _ = stop_rx.await;
            };
            if let Err(e) = router
                .serve_with_incoming_shutdown(incoming, shutdown)
                .await
            {
                warn!(error = %e, "Unix socket server stopped with an error");
            }
        });
        info!(socket = %shown, "referee listening on a Unix socket");
        Ok(ServerHandle {
            stop: Some(stop_tx),
            task,
        })
    }

    fn check_admin<T>(&self, req: &Request<T>, call: &str) -> Result<(), Status> {
        let Some(expected) = &self.inner.config.admin_token else {
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
            warn!(
                peer = %peer(req),
                call,
                token = %given.map_or_else(|| "none".to_string(), token_hint),
                "admin call refused"
            );
            Err(Status::unauthenticated(
                "admin calls need `authorization: Bearer <admin token>`",
            ))
        }
    }
}

/// The peer address of a request, for logs.
fn peer<T>(req: &Request<T>) -> String {
    crate::conn::peer(req)
}

/// Accepted connections, each passed on only once it has sent its first
/// byte within `limit`; a silent one is closed and logged. Each waits in a
/// task of its own, so a silent socket never holds up the next one.
fn handshaking(
    listener: TcpListener,
    limit: Duration,
) -> ReceiverStream<std::io::Result<crate::conn::Deadline<tokio::net::TcpStream>>> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(async move {
        loop {
            let accepted = tokio::select! {
                a = listener.accept() => a,
                () = tx.closed() => break,
            };
            let (stream, addr) = match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait, go on.
                    warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            // `Server::tcp_nodelay` applies only to listeners tonic binds
            // itself: without it, Nagle's algorithm holds a request queued
            // behind an event until the bot's delayed ACK.
            let _ = stream.set_nodelay(true);
            let tx = tx.clone();
            tokio::spawn(async move {
                let accepted = Instant::now();
                let mut first = [0u8; 1];
                match timeout(limit, stream.peek(&mut first)).await {
                    Ok(Ok(n)) if n > 0 => {
                        // The rest of the handshake, up to a first request,
                        // within what is left of the limit.
                        let left = limit.saturating_sub(accepted.elapsed());
                        let stream = crate::conn::Deadline::new(stream, Some(addr), left);
                        let _ = tx.send(Ok(stream)).await;
                    }
                    Ok(_) => debug!(peer = %addr, "connection closed before sending anything"),
                    Err(_) => crate::conn::say_limited(
                        "connection closed at the handshake timeout",
                        || {
                            warn!(
                                peer = %addr,
                                limit_ms = limit.as_millis() as u64,
                                "connection sent nothing within the handshake timeout; closed"
                            );
                        },
                    ),
                }
            });
        }
    });
    ReceiverStream::new(rx)
}

/// The seats of `bot` in tables still playing, by table id.
fn held_seats(reg: &Registry, bot: &str) -> Vec<pb::SeatAssignment> {
    let mut held: Vec<pb::SeatAssignment> = reg
        .tables
        .values()
        .filter_map(|t| t.live.as_ref())
        .flat_map(|l| {
            l.seats
                .iter()
                .zip(&l.assignments)
                .filter(|(n, _)| *n == bot)
                .map(|(_, a)| a.clone())
        })
        .collect();
    held.sort_by(|a, b| (&a.table_id, a.seat).cmp(&(&b.table_id, b.seat)));
    held
}

fn forget(reg: &mut Registry, table_id: &str) -> bool {
    reg.seat_tokens.retain(|_, (t, _, _)| t != table_id);
    for q in reg.bots.values_mut() {
        q.backlog.retain(|a| a.table_id != table_id);
    }
    reg.finished.retain(|t| t != table_id);
    reg.tables.remove(table_id).is_some()
}

/// Re-applies the completed hands of an interrupted match.
fn replay_prefix(
    driver: &mut MatchDriver<whistle_rules::AnyGame>,
    r: &crate::config::Resume,
) -> Result<(), CreateError> {
    let seats = driver.game().seats();
    if r.faults.len() != seats || r.forfeited.len() != seats {
        return Err(CreateError::Resume(format!(
            "fault counts and forfeits must have {seats} entries"
        )));
    }
    driver
        .replay(&r.actions)
        .map_err(|e| CreateError::Resume(e.to_string()))?;
    driver.take_events();
    if !r.mid_hand && driver.game().status() == whistle_rules::Status::Act {
        return Err(CreateError::Resume(
            "the recorded actions stop in the middle of a hand".into(),
        ));
    }
    if driver.game().is_over() {
        return Err(CreateError::Resume("the match is already over".into()));
    }
    Ok(())
}

fn deliver(q: &mut BotQueue, assignment: pb::SeatAssignment) {
    if !q.subscriber.as_ref().is_some_and(Subscriber::is_open) {
        q.subscriber = None;
    }
    let assignment = match &q.subscriber {
        Some(s) => match s.tx.try_send(Ok(assignment)) {
            Ok(()) => return,
            Err(e) => match e.into_inner() {
                Ok(a) => a,
                Err(_) => return,
            },
        },
        None => assignment,
    };
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
impl pb::encoded::referee_server::Referee for BotService {
    type SubscribeStream = BoxStream<pb::SeatAssignment>;
    /// Messages the table encoded itself (`whistle_protocol::codec`).
    type PlayStream = BoxStream<Encoded>;

    async fn subscribe(
        &self,
        req: Request<pb::SubscribeRequest>,
    ) -> Result<Response<Self::SubscribeStream>, Status> {
        let peer = peer(&req);
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
        if reg.reserved.contains_key(&req.token) {
            if reg.draining {
                return Err(Status::unavailable(whistle_protocol::SHUTTING_DOWN));
            }
            let (tx, rx) = mpsc::channel(1);
            let (end_tx, end_rx) = oneshot::channel();
            let older = reg.reserved.insert(
                req.token.clone(),
                Some(Subscriber {
                    tx,
                    end: end_tx,
                    peer,
                }),
            );
            // One token, one instance: a newer stream takes over.
            if let Some(old) = older.flatten().filter(Subscriber::is_open) {
                let _ = old.end.send(Status::aborted(SUPERSEDED));
            }
            return Ok(Response::new(Box::pin(Assignments {
                rx,
                end: Some(end_rx),
                done: false,
            })));
        }
        let hash = token_hash(&req.token);
        if let Some(name) = reg.retired_tokens.get(&hash) {
            warn!(%peer, bot = %name, "subscribe refused: the bot is retired");
            return Err(Status::unauthenticated(RETIRED));
        }
        let Some(name) = reg.bot_tokens.get(&hash).cloned() else {
            if let Some(name) = reg.dismissed_tokens.get(&hash) {
                info!(%peer, bot = %name, "subscribe refused: the bot's event is over");
                return Err(Status::unauthenticated("unknown token"));
            }
            warn!(%peer, token = %token_hint(&req.token), bot = %echo(&req.bot_name), "subscribe refused: unknown token");
            return Err(Status::unauthenticated("unknown token"));
        };
        if reg.draining {
            warn!(%peer, bot = %name, "subscribe refused: shutting down");
            return Err(Status::unavailable(whistle_protocol::SHUTTING_DOWN));
        }
        drop(reg);
        if !self.0.admitted(&name) {
            warn!(%peer, bot = %name, "subscribe refused: the bot is retired");
            self.0.retire_bot(&name);
            return Err(Status::unauthenticated(RETIRED));
        }
        let mut reg = self.0.registry();
        // Retired meanwhile.
        if !reg.bot_tokens.contains_key(&hash) {
            if reg.retired_tokens.contains_key(&hash) {
                warn!(%peer, bot = %name, "subscribe refused: the bot is retired");
                return Err(Status::unauthenticated(RETIRED));
            }
            return Err(Status::unauthenticated("unknown token"));
        }
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        let (end_tx, end_rx) = oneshot::channel();
        let lasting = reg.bots.get(&name).is_some_and(|q| q.lasting);
        // A lasting bot's seats in tables still playing, given to an older
        // stream (the process that held them may be gone): the newer
        // process takes them back within their grace, the matches in
        // progress first.
        let held: Vec<pb::SeatAssignment> = if lasting {
            held_seats(&reg, &name)
        } else {
            Vec::new()
        };
        let q = reg.bots.entry(name.clone()).or_default();
        let mut taken = 0usize;
        for a in held {
            if q.backlog
                .iter()
                .any(|b| b.table_id == a.table_id && b.seat == a.seat)
            {
                continue;
            }
            if tx.try_send(Ok(a)).is_err() {
                break;
            }
            taken += 1;
        }
        while let Some(a) = q.backlog.pop_front() {
            if tx.try_send(Ok(a)).is_err() {
                break;
            }
        }
        let older = q.subscriber.replace(Subscriber {
            tx,
            end: end_tx,
            peer: peer.clone(),
        });
        drop(reg);
        if taken > 0 {
            info!(bot = %name, %peer, seats = taken, "seats of matches in progress given to the newer Subscribe");
        }
        // One token, one bot: the newer stream takes over.
        if let Some(old) = older.filter(Subscriber::is_open) {
            warn!(
                bot = %name,
                %peer,
                older = %old.peer,
                "a second Subscribe for the bot: the older stream is ended (superseded)"
            );
            let _ = old.end.send(Status::aborted(SUPERSEDED));
        }
        info!(bot = %name, %peer, "bot subscribed");
        let mut response: Response<Self::SubscribeStream> = Response::new(Box::pin(Assignments {
            rx,
            end: Some(end_rx),
            done: false,
        }));
        if lasting {
            response
                .metadata_mut()
                .insert(LASTING, tonic::metadata::MetadataValue::from_static("1"));
        }
        Ok(response)
    }

    async fn play(
        &self,
        req: Request<Streaming<pb::BotMessage>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let peer = peer(&req);
        let host = crate::conn::peer_host(&req);
        let mut inbound = req.into_inner();
        let refuse = |status: Status| {
            crate::conn::say_limited("play refused", || {
                warn!(%peer, code = ?status.code(), reason = %status.message(), "play refused");
            });
            status
        };
        let pending = self
            .0
            .inner
            .pending
            .enter(host, MAX_PENDING_PER_PEER)
            .ok_or_else(|| {
                crate::conn::say_limited("play refused", || {
                    warn!(%peer, max = MAX_PENDING_PER_PEER, "play refused: too many streams waiting for their Hello");
                });
                Status::resource_exhausted(format!(
                    "{MAX_PENDING_PER_PEER} streams from this address are waiting for their Hello already"
                ))
            })?;
        let first = match timeout(HELLO_TIMEOUT, inbound.message()).await {
            Err(_) => {
                return Err(refuse(Status::unauthenticated(format!(
                    "no Hello within {} s",
                    HELLO_TIMEOUT.as_secs()
                ))));
            }
            Ok(Err(status)) => return Err(refuse(status)),
            Ok(Ok(m)) => m,
        };
        drop(pending);
        let hello = match first {
            Some(pb::BotMessage {
                msg: Some(pb::bot_message::Msg::Hello(h)),
            }) => h,
            _ => {
                return Err(refuse(Status::unauthenticated(
                    "the first message must be a Hello",
                )));
            }
        };
        let bot_name = echo(&hello.bot_name);
        // Documented: an empty protocol is taken as v1; another is refused.
        if !hello.protocol.is_empty() && hello.protocol != whistle_protocol::PROTOCOL {
            return Err(refuse(Status::failed_precondition(format!(
                "this referee speaks `{}`; Hello.protocol was `{}`",
                whistle_protocol::PROTOCOL,
                echo(&hello.protocol)
            ))));
        }
        let (table_id, seat) = {
            let reg = self.0.registry();
            match reg.seat_tokens.get(&hello.token) {
                Some((t, s, _)) => (t.clone(), *s),
                None => {
                    warn!(%peer, bot = %bot_name, token = %token_hint(&hello.token), "play refused: unknown token");
                    return Err(Status::unauthenticated("unknown token"));
                }
            }
        };
        let (cmd, seat_bot) = {
            let reg = self.0.registry();
            match reg.tables.get(&table_id).map(|t| t.live.as_ref()) {
                None => return Err(refuse(Status::not_found("no such table"))),
                Some(None) => return Err(refuse(Status::failed_precondition("the table is over"))),
                Some(Some(l)) => (l.cmd.clone(), l.seats.get(seat.index()).cloned()),
            }
        };
        if let Some(b) = seat_bot.filter(|b| !self.0.admitted(b)) {
            self.0.retire_bot(&b);
            return Err(refuse(Status::unauthenticated(RETIRED)));
        }
        let conn_id = self.0.inner.next_conn.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = crate::outbox::outbox(STREAM_BUFFER);
        let (reply_tx, reply_rx) = oneshot::channel();
        let over = || refuse(Status::failed_precondition("the table is over"));
        cmd.send(TableCmd::Attach {
            seat,
            conn: Box::new(Conn {
                id: conn_id,
                tx,
                out: EncodeBuffer::new(),
                // The table's task reads the stream from here on.
                inbound: Box::pin(inbound),
                quiet: hello.quiet,
                compact: hello
                    .compact
                    .then(|| DeltaEncoder::with_form(Form::of(hello.binary))),
                form: Form::of(hello.binary),
                bot_name,
            }),
            reply: reply_tx,
        })
        .await
        .map_err(|_| over())?;
        reply_rx.await.map_err(|_| over())?.map_err(refuse)?;
        Ok(Response::new(Box::pin(rx)))
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
                elapsed_ms: whistle_protocol::messages::millis(*elapsed),
                fallback: *fallback,
            })),
            seat.index() as u32,
        ),
        TableRecord::Fault(f) => (
            Some(Entry::Fault(pb::Fault {
                kind: f.kind.wire() as i32,
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
        TableRecord::Aborted { .. } | TableRecord::Stopped { .. } => (None, 0),
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
        self.0.check_admin(&req, "CreateTable")?;
        let r = req.into_inner();
        let game: Variant = r
            .game
            .parse()
            .map_err(|e: whistle_rules::OptionError| Status::invalid_argument(e.to_string()))?;
        let match_seed = Seed::from_hex(&r.match_seed).map_err(Status::invalid_argument)?;
        let mut spec = TableSpec::new(game, match_seed, &[]);
        if !r.table_id.is_empty() {
            whistle_protocol::limits::check_table_id(&r.table_id)
                .map_err(|e| Status::invalid_argument(format!("table_id: {e}")))?;
        }
        spec.table_id = (!r.table_id.is_empty()).then(|| r.table_id.clone());
        spec.options = convert::options_from(&r.options);
        spec.seats = r
            .seats
            .iter()
            .map(|s| SeatSpec {
                token: (!s.token.is_empty()).then(|| s.token.clone()),
                bot_name: s.bot_name.clone(),
                withdrawn: None,
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
                        Status::invalid_argument("fallback must be `passive`, `first` or `random`")
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
        let handle = self.0.create_table(spec).map_err(|e| match e {
            CreateError::ShuttingDown => Status::unavailable(whistle_protocol::SHUTTING_DOWN),
            e => Status::invalid_argument(e.to_string()),
        })?;
        Ok(Response::new(pb::CreateTableResponse {
            table_id: handle.table_id,
            tokens: handle.tokens,
        }))
    }

    async fn register_bot(
        &self,
        req: Request<pb::RegisterBotRequest>,
    ) -> Result<Response<pb::RegisterBotResponse>, Status> {
        self.0.check_admin(&req, "RegisterBot")?;
        let r = req.into_inner();
        whistle_protocol::limits::check_name(&r.bot_name)
            .map_err(|e| Status::invalid_argument(format!("bot_name: {e}")))?;
        let token = self
            .0
            .register_bot(&r.bot_name, (!r.token.is_empty()).then_some(r.token));
        Ok(Response::new(pb::RegisterBotResponse { token }))
    }

    async fn retire_bot(
        &self,
        req: Request<pb::RetireBotRequest>,
    ) -> Result<Response<pb::RetireBotResponse>, Status> {
        self.0.check_admin(&req, "RetireBot")?;
        let name = req.into_inner().bot_name;
        if self.0.retire_bot(&name) {
            Ok(Response::new(pb::RetireBotResponse {}))
        } else {
            Err(Status::not_found(format!("no bot `{}`", echo(&name))))
        }
    }

    async fn get_table(
        &self,
        req: Request<pb::GetTableRequest>,
    ) -> Result<Response<pb::TableStatus>, Status> {
        self.0.check_admin(&req, "GetTable")?;
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
        self.0.check_admin(&req, "ListTables")?;
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
        self.0.check_admin(&req, "WatchTable")?;
        let id = req.into_inner().table_id;
        let (rx, max_faults) = {
            let reg = self.0.registry();
            let t = reg
                .tables
                .get(&id)
                .ok_or_else(|| Status::not_found(format!("no table `{id}`")))?;
            match &t.live {
                Some(l) => (
                    l.watch
                        .get_or_init(|| broadcast::channel(WATCH_BUFFER).0)
                        .subscribe(),
                    t.max_faults,
                ),
                None => {
                    // Over: what is left of it is its result.
                    let snap = t.snapshot.lock().expect("snapshot lock").clone();
                    let last = snap.result.map(|(r, f)| pb::TableRecord {
                        entry: Some(pb::table_record::Entry::Result(convert::match_result(
                            &r, &f,
                        ))),
                        seat: 0,
                    });
                    return match last {
                        Some(r) => Ok(Response::new(Box::pin(tokio_stream::once(Ok(r))))),
                        None => Err(Status::failed_precondition(format!(
                            "table `{id}` ended without a result"
                        ))),
                    };
                }
            }
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
                    Ok(TableRecord::Stopped { reason, .. }) => {
                        let _ = tx.send(Err(Status::unavailable(reason))).await;
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

    /// Token hashes are stored (a league's database): they stay SHA-256 as
    /// lowercase hex, whatever computes it (FIPS 180-2's test vector).
    #[test]
    fn a_token_hash_is_sha256_in_lowercase_hex() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[tokio::test]
    async fn a_reserved_seat_token_waits_for_its_one_seat_or_is_given_back() {
        use pb::encoded::referee_server::Referee as _;
        use tokio_stream::StreamExt as _;
        let referee = Referee::new(None);
        let service = BotService(referee.clone());
        let subscribe = |token: &str| {
            service.subscribe(Request::new(pb::SubscribeRequest {
                token: token.to_string(),
                bot_name: "a".into(),
            }))
        };
        // Subscribed before its seat exists: nothing comes until the table.
        let early = referee.reserve_seat_token();
        let mut waiting = subscribe(&early).await.unwrap().into_inner();
        let nothing =
            tokio::time::timeout(std::time::Duration::from_millis(50), waiting.next()).await;
        assert!(
            nothing.is_err(),
            "a reserved token sees nothing before its seat"
        );
        // Subscribed only after its table is created: the seat token's one seat.
        let late = referee.reserve_seat_token();
        let mut spec = TableSpec::new(Variant::Israeli, Seed::from_u64(1), &["a", "b", "c", "d"]);
        spec.table_id = Some("t1".into());
        spec.seats[2].token = Some(early.clone());
        spec.seats[0].token = Some(late.clone());
        let handle = referee.create_table(spec).unwrap();
        assert_eq!(handle.tokens[2], early);
        let a = waiting.next().await.unwrap().unwrap();
        assert_eq!(
            (a.table_id.as_str(), a.seat, a.seat_token.as_str()),
            ("t1", 2, early.as_str())
        );
        assert!(
            waiting.next().await.is_none(),
            "one seat, then the stream ends"
        );
        let mut after = subscribe(&late).await.unwrap().into_inner();
        assert_eq!(after.next().await.unwrap().unwrap().seat, 0);
        assert!(after.next().await.is_none());
        // Given back unused: its stream ends with OK, the token is unknown.
        let unused = referee.reserve_seat_token();
        let mut given_back = subscribe(&unused).await.unwrap().into_inner();
        assert!(referee.release_seat_token(&unused));
        assert!(given_back.next().await.is_none());
        assert!(!referee.release_seat_token(&unused));
        let refused = subscribe(&unused).await.err().unwrap();
        assert_eq!(refused.code(), tonic::Code::Unauthenticated);
        assert!(referee.registry().reserved.is_empty());
    }

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

    /// A one-hand Israeli table no bot joins: it starts at once, every seat
    /// forfeits at once, and fallbacks play the hand out.
    /// A lasting bot's (a league's) newer `Subscribe` is given again the
    /// seats the bot holds at tables still playing, with the `LASTING`
    /// header; a launched bot's newer `Subscribe` gets only new seats.
    #[tokio::test]
    async fn a_lasting_bots_newer_subscribe_takes_back_its_seats_in_play() {
        use pb::encoded::referee_server::Referee as _;
        use tokio_stream::StreamExt as _;
        let referee = Referee::new(None);
        let service = BotService(referee.clone());
        referee.register_bot_hash("a", &token_hash("league-a"));
        referee.register_bot("b", Some("bot-b".into()));
        let subscribe = |token: &str| {
            service.subscribe(Request::new(pb::SubscribeRequest {
                token: token.to_string(),
                bot_name: "x".into(),
            }))
        };
        let first_a = subscribe("league-a").await.unwrap();
        assert_eq!(
            first_a.metadata().get(LASTING).map(|v| v.to_str().unwrap()),
            Some("1")
        );
        let mut first_a = first_a.into_inner();
        let first_b = subscribe("bot-b").await.unwrap();
        assert!(first_b.metadata().get(LASTING).is_none());
        let mut first_b = first_b.into_inner();
        let mut spec = TableSpec::new(Variant::Israeli, Seed::from_u64(1), &["a", "b", "a", "c"]);
        spec.table_id = Some("t1".into());
        let handle = referee.create_table(spec).unwrap();
        let got: Vec<u32> = [first_a.next().await, first_a.next().await]
            .into_iter()
            .map(|a| a.unwrap().unwrap().seat)
            .collect();
        assert_eq!(got, [0, 2]);
        assert_eq!(first_b.next().await.unwrap().unwrap().seat, 1);
        // The process holding a's seats is gone; a new one subscribes.
        drop(first_a);
        let mut again = subscribe("league-a").await.unwrap().into_inner();
        for seat in [0, 2] {
            let a = again.next().await.unwrap().unwrap();
            assert_eq!(
                (a.table_id.as_str(), a.seat, a.seat_token.as_str()),
                ("t1", seat, handle.tokens[seat as usize].as_str())
            );
        }
        drop(first_b);
        let mut again_b = subscribe("bot-b").await.unwrap().into_inner();
        let nothing =
            tokio::time::timeout(std::time::Duration::from_millis(50), again_b.next()).await;
        assert!(nothing.is_err(), "a launched bot's seats stay its own");
        let nothing =
            tokio::time::timeout(std::time::Duration::from_millis(50), again.next()).await;
        assert!(nothing.is_err(), "each held seat once");
    }

    fn unattended(seed: u64) -> TableSpec {
        let mut spec = TableSpec::new(
            Variant::Israeli,
            Seed::from_u64(seed),
            &["a", "b", "c", "d"],
        );
        spec.options = whistle_rules::Options::parse(&["hands=1"]).unwrap();
        spec.start_timeout = Duration::ZERO;
        spec.time.reconnect_grace = Duration::ZERO;
        spec
    }

    async fn until(what: &str, mut f: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !f() {
            assert!(Instant::now() < deadline, "{what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn finished_tables_let_go_of_their_task_and_only_the_newest_are_kept() {
        let referee = Referee::with_config(RefereeConfig {
            keep_finished: 5,
            ..RefereeConfig::default()
        });
        for batch in 0..3 {
            let mut handles = Vec::new();
            for i in 0..16 {
                handles.push(referee.create_table(unattended(batch * 100 + i)).unwrap());
            }
            for h in &mut handles {
                let mut last = None;
                while let Some(r) = h.records.recv().await {
                    last = Some(r);
                }
                assert!(matches!(last, Some(TableRecord::End { .. })), "{last:?}");
            }
            until("every table task ended", || referee.live_tables() == 0).await;
            assert_eq!(referee.known_tables(), 5, "batch {batch}");
            let reg = referee.registry();
            assert_eq!(reg.seat_tokens.len(), 5 * 4, "tokens of kept tables only");
            assert_eq!(reg.finished.len(), 5);
        }
        // The ones kept are of the last batch, with their result.
        let reg = referee.registry();
        for id in &reg.finished {
            let n: u64 = id[1..].parse().unwrap();
            assert!(n > 32, "{id} is not of the last batch");
            let snap = reg.tables[id].snapshot.lock().unwrap().clone();
            assert_eq!(snap.state, TableState::Over);
            assert!(snap.result.is_some());
        }
    }

    /// A connected client channel to the referee at `addr`.
    async fn channel_to(addr: SocketAddr) -> tonic::transport::Channel {
        tonic::transport::Channel::from_shared(format!("http://{addr}"))
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    /// Reads from `c` until the referee closes it (or `limit` passes).
    async fn closed_within(c: &mut tokio::net::TcpStream, limit: Duration) -> bool {
        use tokio::io::AsyncReadExt;
        let mut buf = [0u8; 1024];
        timeout(limit, async {
            loop {
                match c.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        })
        .await
        .is_ok()
    }

    #[test]
    fn a_bot_out_of_one_event_is_readmitted_for_the_next() {
        let referee = Referee::new(None);
        referee.withdraw_bot("b", "its process ended 4 times");
        assert!(referee.registry().withdrawn.contains_key("b"));
        referee.readmit_bot("b");
        assert!(referee.registry().withdrawn.is_empty());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_unfinished_handshake_is_closed_and_a_real_client_stays() {
        use tokio::io::AsyncWriteExt;
        let referee = Referee::with_config(RefereeConfig {
            handshake_timeout: Duration::from_millis(300),
            ..RefereeConfig::default()
        });
        let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
        // One byte; half a preface; a whole preface and settings, no request.
        let preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        let settings = [0u8, 0, 0, 4, 0, 0, 0, 0, 0];
        let whole: Vec<u8> = preface.iter().chain(settings.iter()).copied().collect();
        for sent in [&b"P"[..], &preface[..10], &whole[..]] {
            let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
            c.write_all(sent).await.unwrap();
            let started = Instant::now();
            assert!(
                closed_within(&mut c, Duration::from_secs(10)).await,
                "{} bytes sent: never closed",
                sent.len()
            );
            assert!(started.elapsed() >= Duration::from_millis(200));
        }
        // A client that made its first request keeps its connection past
        // the limit.
        let mut admin = pb::admin_client::AdminClient::new(channel_to(addr).await);
        admin.list_tables(pb::ListTablesRequest {}).await.unwrap();
        tokio::time::sleep(Duration::from_millis(900)).await;
        admin.list_tables(pb::ListTablesRequest {}).await.unwrap();
        server.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn streams_that_never_say_hello_are_bounded_per_peer() {
        let referee = Referee::new(None);
        let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let (refused_tx, mut refused_rx) = mpsc::unbounded_channel();
        let mut hold = Vec::new();
        // Two connections (one holds at most MAX_STREAMS_PER_CONNECTION).
        for _ in 0..2 {
            let channel = channel_to(addr).await;
            for _ in 0..200 {
                let mut client = pb::referee_client::RefereeClient::new(channel.clone());
                let tx = refused_tx.clone();
                let (keep, rx) = mpsc::channel::<pb::BotMessage>(1);
                hold.push(keep);
                tokio::spawn(async move {
                    let r = client.play(ReceiverStream::new(rx)).await;
                    if let Err(s) = r {
                        let _ = tx.send(s.code());
                    }
                });
            }
        }
        let mut refused = 0;
        while let Ok(Some(code)) = timeout(Duration::from_secs(3), refused_rx.recv()).await {
            assert_eq!(code, tonic::Code::ResourceExhausted);
            refused += 1;
        }
        assert_eq!(refused, 400 - MAX_PENDING_PER_PEER);
        drop(hold);
        server.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_admins_table_id_is_bounded() {
        let referee = Referee::new(None);
        let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let mut admin = pb::admin_client::AdminClient::new(channel_to(addr).await);
        let create = |id: String| pb::CreateTableRequest {
            game: "israeli".into(),
            match_seed: "1".into(),
            table_id: id,
            ..Default::default()
        };
        let huge = admin
            .create_table(create("t".repeat(3 << 20)))
            .await
            .unwrap_err();
        assert_eq!(huge.code(), tonic::Code::InvalidArgument);
        assert!(huge.message().len() < 300, "{}", huge.message().len());
        let slash = admin.create_table(create("a/b".into())).await.unwrap_err();
        assert_eq!(slash.code(), tonic::Code::InvalidArgument);
        server.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_connection_that_sends_nothing_is_closed_after_the_handshake_timeout() {
        use tokio::io::AsyncReadExt;
        let referee = Referee::with_config(RefereeConfig {
            handshake_timeout: Duration::from_millis(200),
            ..RefereeConfig::default()
        });
        let (addr, server) = referee.spawn("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let mut silent = tokio::net::TcpStream::connect(addr).await.unwrap();
        let started = Instant::now();
        let mut buf = [0u8; 16];
        let n = timeout(Duration::from_secs(10), silent.read(&mut buf))
            .await
            .expect("the referee closes the silent socket")
            .unwrap_or(0);
        assert_eq!(n, 0, "closed without a word");
        assert!(started.elapsed() >= Duration::from_millis(150));
        // A real client still gets through.
        let mut admin = pb::admin_client::AdminClient::new(channel_to(addr).await);
        admin.list_tables(pb::ListTablesRequest {}).await.unwrap();
        server.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_drain_refuses_new_tables_and_stops_waiting_ones_with_a_stopped_record() {
        let referee = Referee::new(None);
        let mut spec = unattended(1);
        spec.start_timeout = Duration::from_secs(600);
        let mut waiting = referee.create_table(spec).unwrap();
        referee.drain(Duration::from_secs(5)).await;
        let mut last = None;
        while let Some(r) = waiting.records.recv().await {
            last = Some(r);
        }
        assert!(
            matches!(
                last,
                Some(TableRecord::Stopped {
                    hands_done: 0,
                    mid_hand: false,
                    ..
                })
            ),
            "{last:?}"
        );
        assert_eq!(referee.live_tables(), 0);
        let e = referee.create_table(unattended(2)).unwrap_err();
        assert_eq!(e, CreateError::ShuttingDown, "{e}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_withdrawn_bot_forfeits_from_the_start_and_the_table_does_not_wait_for_it() {
        let referee = Referee::new(None);
        referee.withdraw_bot("b", "its process ended 4 times");
        let mut spec = unattended(3);
        // The other seats' clock would hold the start for a minute.
        spec.start_timeout = Duration::from_secs(60);
        spec.seats[0].bot_name = "b".into();
        spec.seats[1].bot_name = "b".into();
        for s in &mut spec.seats[2..] {
            s.withdrawn = Some("gone too".into());
        }
        let mut h = referee.create_table(spec).unwrap();
        let mut faults = Vec::new();
        let mut ended = false;
        let got = timeout(Duration::from_secs(20), async {
            while let Some(r) = h.records.recv().await {
                match r {
                    TableRecord::Fault(f) => faults.push(f),
                    TableRecord::End { .. } => ended = true,
                    _ => {}
                }
            }
        })
        .await;
        assert!(got.is_ok() && ended, "the match played out at once");
        let first: Vec<(usize, bool, &str)> = faults
            .iter()
            .take(4)
            .map(|f| (f.seat.index(), f.forfeited, f.detail.as_str()))
            .collect();
        assert_eq!(
            first,
            [
                (0, true, "its process ended 4 times"),
                (1, true, "its process ended 4 times"),
                (2, true, "gone too"),
                (3, true, "gone too"),
            ]
        );
        assert!(faults.iter().all(|f| f.kind == crate::FaultKind::Absent));
    }
}
