//! One table: a task that owns one match and its seats.
//!
//! Everything that touches the game happens in this task, in the order its
//! commands and its seats' messages arrive, so the match is a plain
//! sequential function of the bots' answers and of time. The task reads
//! every seat's incoming stream itself (a seat's [`Conn`] holds it), so an
//! answer reaches the table with no task in between; the gRPC layer hands
//! over a stream once its Hello is read ([`TableCmd::Attach`]) and relays
//! what the table sends back.
//!
//! Decisions: for each seat the game waits on, the table sends a
//! `DecisionRequest` with a fresh id and starts its clock. The answer must
//! name that id. Anything else from a seat is a fault of a documented kind
//! (docs/protocol.md), answered in-band with a `Fault`; when a decision was
//! due, the fallback action is played for it. A seat forfeits when its fault
//! count reaches the policy's maximum, or when it stays disconnected longer
//! than the grace period; from then on its decisions are fallbacks played at
//! once, and the match goes on to its end so the other seats' results stand.

use std::{
    collections::HashSet,
    pin::Pin,
    sync::{
        Arc, Mutex, PoisonError, RwLock,
        atomic::{AtomicU64, Ordering},
    },
    task::{Context, Poll, Wake as WakeTask, Waker},
    time::Duration,
};

use tokio::{
    sync::{broadcast, mpsc, oneshot},
    time::{Instant, Sleep, sleep_until},
};
use tokio_stream::Stream;
use tonic::Status;
use tracing::{debug, info, warn};
use whistle_protocol::{
    codec::EncodeBuffer,
    compact::DeltaEncoder,
    convert::Form,
    limits::echo,
    messages::{self, millis},
    pb,
};
use whistle_rules::{
    Action, ActionList, AnyGame, DriveError, Game, MatchDriver, MatchEvent, Seat,
    Status as GameStatus,
};

use crate::{
    config::TableSpec,
    outbox::Outbox,
    record::{FaultKind, FaultRecord, TableRecord},
};

/// Messages from the gRPC layer to a table.
#[derive(Debug)]
pub(crate) enum TableCmd {
    /// A stream authenticated for `seat`.
    Attach {
        seat: Seat,
        conn: Box<Conn>,
        reply: oneshot::Sender<Result<(), Status>>,
    },
    /// The referee is stopping: finish the hand in progress, but stop at
    /// `deadline` at the latest.
    Drain { deadline: Instant },
    /// Bot `bot_name` is out of the event (its process keeps failing):
    /// every seat of it forfeits now, with `reason`.
    Withdraw { bot_name: String, reason: String },
    /// End the live stream of `seat` with UNAVAILABLE, as a network failure
    /// would (`whistle check-bot` tests that a bot reconnects).
    Cut { seat: Seat },
}

/// A seat's incoming messages: the `Play` call's request stream, after its
/// Hello.
pub(crate) type Inbound = Pin<Box<dyn Stream<Item = Result<pb::BotMessage, Status>> + Send>>;

/// A seat's stream: both halves.
pub(crate) struct Conn {
    pub id: u64,
    /// The stream's messages, encoded by the table (`Conn::send`), and
    /// the status it ends with.
    pub tx: Outbox,
    /// Where this stream's messages are encoded: its memory is used again
    /// once the transport has written the earlier ones.
    pub out: EncodeBuffer,
    /// Read by the table's task; it goes with the `Conn` (a superseded or
    /// closed stream is no longer read).
    pub inbound: Inbound,
    pub quiet: bool,
    /// Compact requests: what this stream was last sent, and the events
    /// held for its next request (events are then not pushed).
    pub compact: Option<DeltaEncoder>,
    /// Cards and actions as text or as ids (`Hello.binary`).
    pub form: Form,
    pub bot_name: String,
}

impl Conn {
    /// Encodes `msg` and queues it on the stream; `false` if the stream's
    /// buffer is full or the stream is gone.
    fn send(&mut self, msg: &pb::RefereeMessage) -> bool {
        let encoded = self.out.encode_referee(msg);
        self.tx.push(encoded)
    }
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conn")
            .field("id", &self.id)
            .field("quiet", &self.quiet)
            .field("compact", &self.compact.is_some())
            .field("form", &self.form)
            .field("bot_name", &self.bot_name)
            .finish_non_exhaustive()
    }
}

/// Which seats' streams may have a message to read. Each seat's stream is
/// polled with a waker of its own ([`SeatWaker`]) that marks the seat and
/// wakes the table's task, so that a wake-up reads the streams that
/// signalled rather than every seat's (a poll of an idle stream takes the
/// connection's lock in h2 and registers a waker again).
#[derive(Debug)]
struct Readiness {
    /// Bit `i`: seat `i`'s stream was woken (or newly attached);
    /// [`COMMANDS`]: the command channel was.
    marked: AtomicU64,
    /// The table's task, woken with any seat: read by every wake-up (the
    /// connections' tasks, on any worker), written when the table's task
    /// polls with another waker (in practice once).
    task: RwLock<Option<Waker>>,
}

/// The bit of [`Readiness::marked`] that says the table's command channel
/// may have a command (it is polled with a waker that sets it, so that a
/// wake-up by a seat's stream does not poll the channel too).
const COMMANDS: u64 = 1 << 63;

/// The waker a seat's stream (or the command channel) is polled with.
struct SeatWaker {
    readiness: Arc<Readiness>,
    bit: u64,
}

impl WakeTask for SeatWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.readiness.marked.fetch_or(self.bit, Ordering::AcqRel);
        let task = self
            .readiness
            .task
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(task) = task.as_ref() {
            task.wake_by_ref();
        }
    }
}

/// What woke the table's task.
enum Wake {
    /// A command, or `None` once every handle to the table is gone.
    Cmd(Option<TableCmd>),
    /// A message from `seat`'s stream, an error, or its end (`None`).
    Inbound(Seat, Option<Result<pb::BotMessage, Status>>),
    /// The earliest deadline passed.
    Timer,
    /// Nothing can wake the table any more.
    Idle,
}

/// What a table shows to `GetTable`/`ListTables`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSnapshot {
    /// The table id.
    pub table_id: String,
    /// The game's name.
    pub game: String,
    /// Waiting, playing or over.
    pub state: TableState,
    /// Which seats have a live stream.
    pub connected: Vec<bool>,
    /// Faults per seat.
    pub faults: Vec<u32>,
    /// Hands completed.
    pub hands_done: u32,
    /// The result, once over.
    pub result: Option<(whistle_rules::MatchResult, Vec<Seat>)>,
}

/// A table's life stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableState {
    /// Waiting for seats to connect.
    Waiting,
    /// Playing.
    Playing,
    /// Over (or aborted).
    Over,
}

#[derive(Debug)]
struct Pending {
    id: u64,
    issued: Instant,
    deadline: Instant,
    legal: ActionList,
}

#[derive(Debug)]
struct SeatState {
    conn: Option<Conn>,
    ever_connected: bool,
    faults: u32,
    forfeited: bool,
    bank: Duration,
    pending: Option<Pending>,
    /// Requests withdrawn (the step moved on) or expired (timed out): an
    /// answer to one of them is ignored.
    cancelled: HashSet<u64>,
    disconnected_at: Option<Instant>,
    unsolicited: (Instant, u32),
}

pub(crate) struct Table {
    id: String,
    spec: TableSpec,
    /// The match: deals, fallbacks and events come from it.
    driver: MatchDriver<AnyGame>,
    seats: Vec<SeatState>,
    next_id: u64,
    /// The seat each request was issued to, by id − 1 (ids start at 1 and
    /// increase by one): a byte a request, where a set of ids per seat
    /// took tens of bytes and a reallocation every so often.
    issued_to: Vec<u8>,
    pushed: usize,
    pushed_deals: u32,
    state: TableState,
    created: Instant,
    records: mpsc::UnboundedSender<TableRecord>,
    watch: Watch,
    snapshot: Arc<Mutex<TableSnapshot>>,
    /// Set by [`TableCmd::Drain`]: stop at the next hand boundary or at this
    /// instant, whichever comes first.
    draining: Option<Instant>,
    /// Seats forfeited before play (their bot is out of the event), with the
    /// reason, to record as faults when the match starts.
    withdrawn: Vec<(Seat, String)>,
    /// The driver's events being recorded, a buffer swapped with the
    /// driver's after every action.
    events: Vec<MatchEvent>,
    /// The seats whose streams have something to read, and the waker each
    /// seat's stream is polled with.
    readiness: Arc<Readiness>,
    seat_wakers: Vec<Waker>,
    /// The waker the command channel is polled with.
    commands_waker: Waker,
    /// What the snapshot last published: state, connected seats (a bit
    /// each), hands completed, whether the match is over; and each
    /// seat's faults.
    published: Option<(TableState, u64, u32, bool)>,
    published_faults: Vec<u32>,
}

/// The channel that feeds `WatchTable`, made by the first watcher: a table
/// nobody watches keeps no buffer for watchers (a broadcast buffer is
/// allocated whole, about a megabyte at 4096 records).
pub(crate) type Watch = Arc<std::sync::OnceLock<broadcast::Sender<TableRecord>>>;

/// Records buffered per table for its watchers; one that falls further
/// behind gets DATA_LOSS.
pub(crate) const WATCH_BUFFER: usize = 4096;

/// Called once when a table's task ends, so that its owner can let go of it.
pub(crate) type OnOver = Box<dyn FnOnce() + Send>;

impl Table {
    pub(crate) fn new(
        id: String,
        spec: TableSpec,
        driver: MatchDriver<AnyGame>,
        records: mpsc::UnboundedSender<TableRecord>,
        watch: Watch,
        snapshot: Arc<Mutex<TableSnapshot>>,
    ) -> Table {
        let now = Instant::now();
        let resume = spec.resume.clone().unwrap_or_default();
        let seats = (0..driver.game().seats())
            .map(|i| SeatState {
                conn: None,
                ever_connected: false,
                faults: resume.faults.get(i).copied().unwrap_or(0),
                forfeited: resume.forfeited.get(i).copied().unwrap_or(false),
                bank: spec.time.time_bank,
                pending: None,
                cancelled: HashSet::new(),
                disconnected_at: None,
                unsolicited: (now, 0),
            })
            .collect();
        // A resumed match continues where its record stopped (the driver has
        // replayed it, fallback count included); old events are not pushed
        // again.
        let mut seats: Vec<SeatState> = seats;
        let mut withdrawn = Vec::new();
        for (i, spec_seat) in spec.seats.iter().enumerate() {
            if let Some(reason) = &spec_seat.withdrawn
                && !seats[i].forfeited
            {
                seats[i].forfeited = true;
                withdrawn.push((Seat::new(i), reason.clone()));
            }
        }
        let (pushed, pushed_deals) = (driver.game().log().len(), driver.game().deals());
        // The command channel is read at the first look.
        let readiness = Arc::new(Readiness {
            marked: AtomicU64::new(COMMANDS),
            task: RwLock::new(None),
        });
        let waker = |bit| {
            Waker::from(Arc::new(SeatWaker {
                readiness: readiness.clone(),
                bit,
            }))
        };
        let seat_wakers = (0..seats.len()).map(|i| waker(1 << i)).collect();
        let commands_waker = waker(COMMANDS);
        Table {
            id,
            spec,
            driver,
            seats,
            next_id: 1,
            issued_to: Vec::new(),
            pushed,
            pushed_deals,
            state: TableState::Waiting,
            created: now,
            records,
            watch,
            snapshot,
            draining: None,
            withdrawn,
            events: Vec::new(),
            readiness,
            seat_wakers,
            commands_waker,
            published: None,
            published_faults: Vec::new(),
        }
    }

    /// Runs the table to the end of its match (or until a drain stops it),
    /// then calls `on_over`.
    pub(crate) async fn run(mut self, mut rx: mpsc::Receiver<TableCmd>, on_over: OnOver) {
        info!(table = %self.id, game = %self.driver.game().variant(), "table created");
        let mut closed = false;
        if self.all_seated() {
            // Every seat's bot is out of the event: nobody to wait for.
            self.start();
        }
        // One timer for the table's life, moved only when its earliest
        // deadline changes.
        let sleep = sleep_until(far_future());
        tokio::pin!(sleep);
        // The seat whose stream is read first next time (in turn, so that a
        // busy stream cannot keep the others waiting).
        let mut first = 0;
        loop {
            if self.drain_due() {
                self.stop(whistle_protocol::SHUTTING_DOWN);
                break;
            }
            if self.state == TableState::Playing {
                if let Err(e) = self.advance() {
                    let reason = e.to_string();
                    warn!(table = %self.id, %reason, "table aborted");
                    self.record(TableRecord::Aborted { reason });
                    self.finish_streams();
                    break;
                }
                if self.driver.game().is_over() {
                    self.finish();
                    break;
                }
            }
            if closed && self.state == TableState::Waiting && !self.any_stream() {
                // Every handle to the table is gone and no stream is open:
                // nobody can connect any more, so the match plays on with
                // what it has.
                self.start();
                continue;
            }
            let wake = self.next_wake();
            if let Some(at) = wake
                && sleep.deadline() != at
            {
                sleep.as_mut().reset(at);
            }
            let woken = std::future::poll_fn(|cx| {
                self.poll_wake(
                    cx,
                    &mut rx,
                    closed,
                    wake.is_some(),
                    sleep.as_mut(),
                    &mut first,
                )
            })
            .await;
            match woken {
                Wake::Cmd(Some(cmd)) => self.handle(cmd),
                Wake::Cmd(None) => closed = true,
                Wake::Inbound(seat, item) => {
                    self.on_inbound(seat, item);
                    self.update_snapshot();
                }
                Wake::Timer => self.on_timer(),
                Wake::Idle => {
                    self.record(TableRecord::Aborted {
                        reason: "no seat can act and no one can connect".into(),
                    });
                    self.finish_streams();
                    break;
                }
            }
        }
        self.update_snapshot();
        // The streams' wakers may outlive the table in h2 for a while: they
        // no longer hold its task.
        *self
            .readiness
            .task
            .write()
            .unwrap_or_else(PoisonError::into_inner) = None;
        // Dropping the table closes its record channel (which tells the
        // creator that the record is complete) and every seat's stream. Its
        // command channel closes too: messages still in flight fail at once
        // on the gRPC side, which then stops reading those streams.
        drop(self);
        drop(rx);
        on_over();
    }

    /// Waits for the next thing to do: a command, a seat's message (the
    /// seats' streams read in turn from `first`), or the timer when
    /// `timed`. [`Wake::Idle`] when nothing is left that could wake the
    /// table.
    fn poll_wake(
        &mut self,
        cx: &mut Context<'_>,
        rx: &mut mpsc::Receiver<TableCmd>,
        closed: bool,
        timed: bool,
        sleep: Pin<&mut Sleep>,
        first: &mut usize,
    ) -> Poll<Wake> {
        let known = self
            .readiness
            .task
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|t| t.will_wake(cx.waker()));
        if !known {
            *self
                .readiness
                .task
                .write()
                .unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
        }
        // Only the streams (and the command channel) marked since the
        // last look are read; one that gives a message stays marked (it
        // may hold more), and so do the marked ones not read yet.
        let marked = self.readiness.marked.swap(0, Ordering::AcqRel);
        if !closed && marked & COMMANDS != 0 {
            let mut commands_cx = Context::from_waker(&self.commands_waker);
            if let Poll::Ready(cmd) = rx.poll_recv(&mut commands_cx) {
                self.readiness.marked.fetch_or(marked, Ordering::AcqRel);
                return Poll::Ready(Wake::Cmd(cmd));
            }
        }
        let marked = marked & !COMMANDS;
        let n = self.seats.len();
        let mut pending = 0;
        for k in 0..n {
            let i = (*first + k) % n;
            if marked & (1 << i) == 0 {
                continue;
            }
            if let Some(conn) = &mut self.seats[i].conn {
                let mut seat_cx = Context::from_waker(&self.seat_wakers[i]);
                if let Poll::Ready(item) = conn.inbound.as_mut().poll_next(&mut seat_cx) {
                    *first = (i + 1) % n;
                    self.readiness
                        .marked
                        .fetch_or(marked & !pending, Ordering::AcqRel);
                    return Poll::Ready(Wake::Inbound(Seat::new(i), item));
                }
            }
            pending |= 1 << i;
        }
        if timed {
            if sleep.poll(cx).is_ready() {
                return Poll::Ready(Wake::Timer);
            }
        } else if closed && !self.any_stream() {
            return Poll::Ready(Wake::Idle);
        }
        Poll::Pending
    }

    /// Whether any seat has a stream open.
    fn any_stream(&self) -> bool {
        self.seats.iter().any(|s| s.conn.is_some())
    }

    /// What a seat's stream brought: a message, or its end. The stream
    /// ended because the bot half-closed it, or sent a message larger than
    /// the limit (`whistle_protocol::limits::MAX_MESSAGE_BYTES`), or its
    /// connection failed.
    fn on_inbound(&mut self, seat: Seat, item: Option<Result<pb::BotMessage, Status>>) {
        match item {
            Some(Ok(msg)) => self.on_message(seat, msg, Instant::now()),
            None => self.detach(seat, true),
            Some(Err(status)) if status.code() == tonic::Code::OutOfRange => {
                self.oversized(seat, status.message());
            }
            Some(Err(_)) => self.detach(seat, false),
        }
    }

    /// The seat's stream ended: the bot half-closed it (`half_closed`), or
    /// the connection failed.
    fn detach(&mut self, seat: Seat, half_closed: bool) {
        let s = &mut self.seats[seat.index()];
        let Some(conn) = s.conn.take() else {
            return;
        };
        if half_closed {
            // Documented: a bot that closes its side can no longer
            // answer, so the referee ends the call too, and says so.
            let _ = conn.tx.end(Status::aborted(
                "the bot closed its side of the stream; the seat is \
                 disconnected and may reconnect within the grace period",
            ));
        }
        if self.state != TableState::Over {
            s.disconnected_at = Some(Instant::now());
        }
        info!(table = %self.id, seat = seat.index(), half_closed, "seat disconnected");
    }

    /// Whether a drain asks the table to stop now: before play, at a hand
    /// boundary (a deal is due), or at the drain deadline.
    fn drain_due(&self) -> bool {
        let Some(deadline) = self.draining else {
            return false;
        };
        self.state == TableState::Waiting
            || self.driver.game().status() == GameStatus::Deal
            || Instant::now() >= deadline
    }

    /// Ends the match early: every stream ends with UNAVAILABLE and `reason`,
    /// and the record ends with `Stopped`. The hands completed so far stand
    /// (a tournament resumes the match from them).
    fn stop(&mut self, reason: &str) {
        let mid_hand =
            self.state == TableState::Playing && self.driver.game().status() == GameStatus::Act;
        info!(table = %self.id, hands = self.driver.game().hand_results().len(), mid_hand, "table stopped: {reason}");
        for s in &self.seats {
            if let Some(conn) = &s.conn {
                let _ = conn.tx.end(Status::unavailable(reason.to_string()));
            }
        }
        self.record(TableRecord::Stopped {
            reason: reason.to_string(),
            hands_done: self.driver.game().hand_results().len() as u32,
            mid_hand,
        });
        self.finish_streams();
    }

    fn record(&self, r: TableRecord) {
        match self.watch.get() {
            Some(w) => {
                let _ = self.records.send(r.clone());
                let _ = w.send(r);
            }
            None => {
                let _ = self.records.send(r);
            }
        }
    }

    /// Publishes what `GetTable`/`ListTables` show, when it changed since
    /// it was last published (most actions change none of it).
    fn update_snapshot(&mut self) {
        let connected = self
            .seats
            .iter()
            .enumerate()
            .filter(|(_, x)| x.conn.is_some())
            .fold(0u64, |m, (i, _)| m | 1 << i);
        let game = self.driver.game();
        let key = (
            self.state,
            connected,
            game.hand_results().len() as u32,
            game.is_over(),
        );
        if self.published == Some(key)
            && self
                .seats
                .iter()
                .map(|x| x.faults)
                .eq(self.published_faults.iter().copied())
        {
            return;
        }
        self.published = Some(key);
        self.published_faults.clear();
        self.published_faults
            .extend(self.seats.iter().map(|x| x.faults));
        let mut s = self.snapshot.lock().expect("snapshot lock");
        s.state = self.state;
        // In place, whenever what it shows changed.
        s.connected.clear();
        s.connected
            .extend(self.seats.iter().map(|x| x.conn.is_some()));
        s.faults.clear();
        s.faults.extend(self.seats.iter().map(|x| x.faults));
        s.hands_done = self.driver.game().hand_results().len() as u32;
        if self.driver.game().is_over() {
            s.result = self.driver.game().result().map(|r| (r, self.forfeited()));
        }
    }

    fn forfeited(&self) -> Vec<Seat> {
        Seat::all(self.seats.len())
            .filter(|s| self.seats[s.index()].forfeited)
            .collect()
    }

    fn next_wake(&self) -> Option<Instant> {
        let mut wake: Option<Instant> = None;
        let mut consider = |t: Instant| {
            wake = Some(wake.map_or(t, |w| w.min(t)));
        };
        if let Some(d) = self.draining {
            consider(d);
        }
        match self.state {
            TableState::Waiting => consider(self.created + self.spec.start_timeout),
            TableState::Playing => {
                for s in &self.seats {
                    if let Some(p) = &s.pending {
                        consider(p.deadline);
                    }
                    if let (Some(at), false) = (s.disconnected_at, s.forfeited) {
                        consider(at + self.spec.time.reconnect_grace);
                    }
                }
            }
            TableState::Over => {}
        }
        wake
    }

    fn handle(&mut self, cmd: TableCmd) {
        match cmd {
            TableCmd::Attach { seat, conn, reply } => {
                let result = self.attach(seat, *conn);
                let _ = reply.send(result);
            }
            TableCmd::Drain { deadline } => {
                self.draining = Some(self.draining.map_or(deadline, |d| d.min(deadline)));
            }
            TableCmd::Cut { seat } => {
                if let Some(conn) = self.seats[seat.index()].conn.take() {
                    let _ = conn.tx.end(Status::unavailable(
                        "the stream was cut by the referee (a reconnection test)",
                    ));
                    info!(table = %self.id, seat = seat.index(), "stream cut on request");
                    if self.state != TableState::Over {
                        self.seats[seat.index()].disconnected_at = Some(Instant::now());
                    }
                }
            }
            TableCmd::Withdraw { bot_name, reason } => {
                for seat in Seat::all(self.seats.len()) {
                    let s = &self.seats[seat.index()];
                    if self.spec.seats[seat.index()].bot_name == bot_name
                        && !s.forfeited
                        && self.state != TableState::Over
                    {
                        self.forfeit(seat, FaultKind::Absent, reason.clone());
                    }
                }
                if self.state == TableState::Waiting && self.all_seated() {
                    self.start();
                }
            }
        }
        self.update_snapshot();
    }

    fn attach(&mut self, seat: Seat, mut conn: Conn) -> Result<(), Status> {
        if self.state == TableState::Over {
            return Err(Status::failed_precondition("the table is over"));
        }
        let s = &mut self.seats[seat.index()];
        if s.forfeited {
            return Err(Status::failed_precondition("this seat has forfeited"));
        }
        if let Some(old) = s.conn.take() {
            // Documented: the newer stream takes over; the older one ends.
            let _ = old.tx.end(Status::aborted(
                "superseded by a newer stream for the same seat",
            ));
            info!(table = %self.id, seat = seat.index(), "seat taken over by a new stream");
        }
        let resumed = s.ever_connected;
        s.ever_connected = true;
        s.disconnected_at = None;
        // The seat's bot is the table's (a league's name); what the Hello
        // says is only the bot's word, quoted.
        info!(table = %self.id, seat = seat.index(), bot = %self.spec.seats[seat.index()].bot_name, says = ?conn.bot_name, resumed, "seat connected");
        let game = self.driver.game();
        let welcome = messages::welcome(&messages::Welcome {
            table_id: &self.id,
            seat,
            seats: game.seats(),
            game: game.variant().name(),
            options: &game.options(),
            per_action: self.spec.time.per_action,
            time_bank: self.spec.time.time_bank,
            reconnect_grace: self.spec.time.reconnect_grace,
            max_faults: self.spec.faults.max_faults,
            fallback: self.spec.faults.fallback,
            flood_per_second: self.spec.faults.flood_per_second,
            bot_names: self.spec.seats.iter().map(|x| x.bot_name.clone()).collect(),
            resumed,
        });
        conn.send(&welcome);
        s.conn = Some(conn);
        // A new stream is read at the table's next look.
        self.readiness
            .marked
            .fetch_or(1 << seat.index(), Ordering::AcqRel);
        match self.state {
            TableState::Waiting => {
                if self.all_seated() {
                    self.start();
                }
            }
            TableState::Playing => {
                // A resumed seat gets its pending request again, with the time left.
                if self.seats[seat.index()].pending.is_some() {
                    self.send_request(seat, true);
                }
            }
            TableState::Over => {}
        }
        Ok(())
    }

    fn start(&mut self) {
        let now = Instant::now();
        let connected: Vec<bool> = self.seats.iter().map(|s| s.conn.is_some()).collect();
        for s in &mut self.seats {
            if s.conn.is_none() {
                s.disconnected_at = Some(now);
            }
        }
        info!(table = %self.id, ?connected, "match starts");
        self.state = TableState::Playing;
        self.update_snapshot();
        self.record(TableRecord::Started { connected });
        for (seat, reason) in std::mem::take(&mut self.withdrawn) {
            self.forfeit(seat, FaultKind::Absent, reason);
        }
        // A seat never opened by now forfeits at once: waiting the
        // reconnection grace for it as well would hold the table for a
        // bot that never came. A seat opened and then lost keeps its grace,
        // and so do the seats of a resumed match (opened before it was
        // interrupted: their bots are coming back).
        let resumed = self.spec.resume.is_some();
        for seat in Seat::all(self.seats.len()).filter(|_| !resumed) {
            let s = &self.seats[seat.index()];
            if !s.ever_connected && !s.forfeited {
                self.forfeit(
                    seat,
                    FaultKind::Absent,
                    format!(
                        "not opened within the {} ms start timeout",
                        millis(self.spec.start_timeout)
                    ),
                );
            }
        }
    }

    /// Whether every seat is connected or forfeited: nobody left to wait for.
    fn all_seated(&self) -> bool {
        self.seats.iter().all(|x| x.conn.is_some() || x.forfeited)
    }

    /// Plays everything that needs no answer: deals, fallbacks for forfeited
    /// seats; and sends requests to seats that must act.
    fn advance(&mut self) -> Result<(), DriveError> {
        loop {
            let to_act = self.driver.to_ask()?;
            self.record_events(Duration::ZERO);
            if to_act.is_empty() {
                // The match is over.
                return Ok(());
            }
            let forfeit = to_act.iter().find(|s| self.seats[s.index()].forfeited);
            if let Some(seat) = forfeit {
                let action = self.driver.fallback(seat);
                self.seats[seat.index()].pending = None;
                self.apply(seat, action, Duration::ZERO, true);
                continue;
            }
            for seat in to_act.iter() {
                if self.seats[seat.index()].pending.is_none() {
                    self.issue(seat);
                }
            }
            return Ok(());
        }
    }

    fn issue(&mut self, seat: Seat) {
        let id = self.next_id;
        self.next_id += 1;
        let now = Instant::now();
        debug_assert_eq!(self.issued_to.len() as u64, id - 1);
        self.issued_to.push(seat.index() as u8);
        let s = &mut self.seats[seat.index()];
        let allowance = self.spec.time.per_action + s.bank;
        s.pending = Some(Pending {
            id,
            issued: now,
            deadline: now + allowance,
            legal: self.driver.game().legal_actions(seat),
        });
        self.send_request(seat, false);
    }

    /// Sends the seat its pending request. A fresh request states the full
    /// allowance (so that the bytes sent depend on the game alone, not on
    /// scheduling); a request sent again after a reconnection states what is
    /// left of it.
    fn send_request(&mut self, seat: Seat, resent: bool) {
        let s = &mut self.seats[seat.index()];
        let (Some(p), Some(conn)) = (&s.pending, &mut s.conn) else {
            return;
        };
        let per_action = self.spec.time.per_action;
        let used = if resent {
            Instant::now().saturating_duration_since(p.issued)
        } else {
            Duration::ZERO
        };
        let (deadline, bank) = if used <= per_action {
            (per_action - used, s.bank)
        } else {
            (Duration::ZERO, s.bank.saturating_sub(used - per_action))
        };
        let game = self.driver.game();
        // A compact delta carries the hand's events, not the observation's
        // history: the history is built only for a whole request. A compact
        // stream refills the observation its encoder no longer needs.
        let sent = match &mut conn.compact {
            Some(encoder) => {
                let whole = encoder.next_is_whole();
                let obs = match encoder.take_spare() {
                    Some(mut obs) => {
                        game.observe_into(seat, whole, &mut obs);
                        obs
                    }
                    None if whole => Box::new(game.observe(seat)),
                    None => Box::new(game.observe_without_history(seat)),
                };
                let encoded = encoder.encode_request(
                    p.id,
                    obs,
                    game.hand_results(),
                    &p.legal,
                    deadline,
                    bank,
                    &mut conn.out,
                );
                conn.tx.push(encoded)
            }
            None => conn.send(&messages::request_in(
                p.id,
                &game.observe(seat),
                game.hand_results(),
                &p.legal,
                deadline,
                bank,
                conn.form,
            )),
        };
        if !sent {
            self.drop_slow_reader(seat);
        }
    }

    /// A stream whose outgoing buffer is full is not reading: it is cut off
    /// (documented), and the seat counts as disconnected.
    fn drop_slow_reader(&mut self, seat: Seat) {
        let s = &mut self.seats[seat.index()];
        if let Some(conn) = s.conn.take() {
            warn!(table = %self.id, seat = seat.index(), "stream not reading; disconnected");
            // The buffer is full: the status follows what is queued if the
            // bot reads again within five seconds; the table never blocks
            // on a seat.
            conn.tx.end_unless_idle(
                Status::resource_exhausted("the stream stopped reading its messages"),
                Duration::from_secs(5),
            );
            s.disconnected_at = Some(Instant::now());
        }
    }

    /// A message above the size limit: the stream is closed with
    /// OUT_OF_RANGE and the seat counts as disconnected (it may come back
    /// within the grace period); the message is a MALFORMED fault that
    /// settles the pending decision, if any, with the fallback.
    fn oversized(&mut self, seat: Seat, detail: &str) {
        let limit = whistle_protocol::limits::MAX_MESSAGE_BYTES;
        let s = &mut self.seats[seat.index()];
        if let Some(conn) = s.conn.take() {
            let _ = conn.tx.end(Status::out_of_range(format!(
                "a message larger than {limit} bytes; stream closed"
            )));
        }
        if self.state != TableState::Over {
            s.disconnected_at = Some(Instant::now());
        }
        if s.forfeited || self.state != TableState::Playing {
            warn!(table = %self.id, seat = seat.index(), detail = %echo(detail), "oversized message; stream closed");
            return;
        }
        let pending = s.pending.as_ref().map(|p| p.id);
        if let Some(id) = pending {
            // The answer to it can no longer come on this stream.
            s.cancelled.insert(id);
        }
        self.fault(
            seat,
            FaultKind::Malformed,
            pending,
            format!(
                "a message larger than {limit} bytes ({}); stream closed",
                echo(detail)
            ),
        );
    }

    fn on_message(&mut self, seat: Seat, msg: pb::BotMessage, at: Instant) {
        if self.seats[seat.index()].forfeited {
            self.count_unsolicited(seat, at);
            return;
        }
        let answer = match msg.msg {
            Some(pb::bot_message::Msg::Answer(a)) => a,
            Some(pb::bot_message::Msg::Resync(_)) => {
                // Bounded like unsolicited answers: each one costs a whole
                // observation.
                if self.count_unsolicited(seat, at) {
                    return;
                }
                if let Some(encoder) = self.seats[seat.index()]
                    .conn
                    .as_mut()
                    .and_then(|c| c.compact.as_mut())
                {
                    encoder.resync();
                }
                debug!(table = %self.id, seat = seat.index(), "resync");
                if self.seats[seat.index()].pending.is_some() {
                    self.send_request(seat, true);
                }
                return;
            }
            Some(pb::bot_message::Msg::Hello(_)) | None => {
                // A second Hello or an empty message on an authenticated stream.
                if !self.count_unsolicited(seat, at) {
                    self.fault(
                        seat,
                        FaultKind::Malformed,
                        None,
                        "expected an Answer".into(),
                    );
                }
                return;
            }
        };
        let id = answer.request_id;
        let pending_id = self.seats[seat.index()].pending.as_ref().map(|p| p.id);
        if pending_id != Some(id) {
            if self.seats[seat.index()].cancelled.contains(&id) {
                debug!(table = %self.id, seat = seat.index(), id, "answer to a withdrawn or expired request ignored");
                return;
            }
            if self.count_unsolicited(seat, at) {
                return;
            }
            let issued = id
                .checked_sub(1)
                .and_then(|i| self.issued_to.get(usize::try_from(i).ok()?))
                == Some(&(seat.index() as u8));
            let (kind, detail) = match (pending_id, issued) {
                (_, true) => (
                    FaultKind::Stale,
                    format!("request {id} was already settled"),
                ),
                (None, false) => (
                    FaultKind::OutOfTurn,
                    "no decision of this seat is pending".to_string(),
                ),
                (Some(_), false) => (FaultKind::Malformed, format!("unknown request id {id}")),
            };
            self.fault(seat, kind, Some(id), detail);
            return;
        }
        let p = self.seats[seat.index()]
            .pending
            .take()
            .expect("the pending request");
        let elapsed = at.saturating_duration_since(p.issued);
        if at > p.deadline {
            // The timer lost a race with the answer: the answer is late all the same.
            self.seats[seat.index()].pending = Some(p);
            self.late(seat, at);
            return;
        }
        // Judged by the engine's one rule, which the replay verifier uses too.
        // Recorded for re-judging (cut to size).
        let given = messages::given(&answer);
        let chosen = match &given {
            None => Err((
                FaultKind::Malformed,
                "the answer has neither an index nor text".to_string(),
            )),
            Some(a) => whistle_rules::judge(self.driver.game(), seat, a).map_err(|r| match r {
                whistle_rules::Rejection::Malformed(m) => (FaultKind::Malformed, m),
                whistle_rules::Rejection::Illegal(m) => (FaultKind::Illegal, m),
            }),
        };
        self.charge(seat, elapsed);
        match chosen {
            Ok(action) => self.apply(seat, action, elapsed, false),
            Err((kind, detail)) => {
                self.seats[seat.index()].pending = Some(p);
                self.fault_with(seat, kind, Some(id), detail, given);
            }
        }
    }

    /// Counts an unsolicited message; returns true (and closes the stream with
    /// a flood fault) when the seat has sent too many in the last second.
    fn count_unsolicited(&mut self, seat: Seat, at: Instant) -> bool {
        let limit = self.spec.faults.flood_per_second;
        let s = &mut self.seats[seat.index()];
        if at.saturating_duration_since(s.unsolicited.0) >= Duration::from_secs(1) {
            s.unsolicited = (at, 0);
        }
        s.unsolicited.1 += 1;
        if s.unsolicited.1 <= limit {
            return false;
        }
        if let Some(conn) = s.conn.take() {
            let _ = conn.tx.end(Status::resource_exhausted(format!(
                "more than {limit} unsolicited messages in one second"
            )));
            s.disconnected_at = Some(Instant::now());
            s.unsolicited = (at, 0);
            if !s.forfeited {
                self.fault(
                    seat,
                    FaultKind::Flood,
                    None,
                    format!("more than {limit} unsolicited messages in one second; stream closed"),
                );
            }
        }
        true
    }

    fn charge(&mut self, seat: Seat, elapsed: Duration) {
        let per_action = self.spec.time.per_action;
        let s = &mut self.seats[seat.index()];
        if elapsed > per_action {
            s.bank = s.bank.saturating_sub(elapsed - per_action);
        }
    }

    fn on_timer(&mut self) {
        let now = Instant::now();
        if self.state == TableState::Waiting {
            if now >= self.created + self.spec.start_timeout {
                self.start();
            }
            return;
        }
        for seat in Seat::all(self.seats.len()) {
            let s = &self.seats[seat.index()];
            if s.pending.as_ref().is_some_and(|p| p.deadline <= now) {
                self.late(seat, now);
            }
            let s = &self.seats[seat.index()];
            if let (Some(at), false) = (s.disconnected_at, s.forfeited)
                && at + self.spec.time.reconnect_grace <= now
            {
                self.forfeit(
                    seat,
                    FaultKind::Absent,
                    format!(
                        "not connected within the {} ms grace period",
                        millis(self.spec.time.reconnect_grace)
                    ),
                );
            }
        }
    }

    fn late(&mut self, seat: Seat, now: Instant) {
        let s = &mut self.seats[seat.index()];
        let Some(p) = &s.pending else { return };
        let id = p.id;
        let waited = now.saturating_duration_since(p.issued);
        s.bank = Duration::ZERO;
        // If the answer still comes, it is this same late answer: the fault
        // below covers it and the fallback stands, so it is ignored rather
        // than faulted again as stale. One late answer is one fault, whether
        // the timer or the answer reaches the table first.
        s.cancelled.insert(id);
        let (kind, detail) = if s.conn.is_none() {
            (
                FaultKind::Absent,
                "disconnected when the decision was due".to_string(),
            )
        } else {
            (
                FaultKind::Late,
                format!("no answer within {} ms", millis(waited)),
            )
        };
        self.fault(seat, kind, Some(id), detail);
    }

    /// Records a fault, plays the fallback if a decision was due, and applies
    /// the forfeit rule.
    fn fault(&mut self, seat: Seat, kind: FaultKind, request_id: Option<u64>, detail: String) {
        self.fault_with(seat, kind, request_id, detail, None);
    }

    /// [`Table::fault`] with the answer that was judged, when there was one.
    fn fault_with(
        &mut self,
        seat: Seat,
        kind: FaultKind,
        request_id: Option<u64>,
        detail: String,
        answer: Option<whistle_rules::Answer>,
    ) {
        let due = self.seats[seat.index()]
            .pending
            .as_ref()
            .is_some_and(|p| Some(p.id) == request_id);
        let s = &mut self.seats[seat.index()];
        s.faults += 1;
        let forfeited = s.faults >= self.spec.faults.max_faults;
        if forfeited {
            s.forfeited = true;
        }
        let fallback = if due || forfeited {
            s.pending.take().map(|_| ())
        } else {
            None
        };
        let fallback = fallback.map(|()| self.driver.fallback(seat));
        self.report_fault(FaultRecord {
            seat,
            kind,
            request_id,
            detail,
            fallback,
            faults: self.seats[seat.index()].faults,
            forfeited,
            answer: answer.map(whistle_rules::Answer::for_log),
        });
        if let Some(action) = fallback {
            self.apply(seat, action, Duration::ZERO, true);
        }
    }

    fn forfeit(&mut self, seat: Seat, kind: FaultKind, detail: String) {
        let s = &mut self.seats[seat.index()];
        s.forfeited = true;
        s.faults += 1;
        let fallback = s.pending.take().map(|_| ());
        let fallback = fallback.map(|()| self.driver.fallback(seat));
        self.report_fault(FaultRecord {
            seat,
            kind,
            request_id: None,
            detail,
            fallback,
            faults: self.seats[seat.index()].faults,
            forfeited: true,
            answer: None,
        });
        if let Some(action) = fallback {
            self.apply(seat, action, Duration::ZERO, true);
        }
    }

    fn report_fault(&mut self, mut f: FaultRecord) {
        // Details can quote what a bot sent: bounded and without control
        // characters wherever they go (the log, the seat, the record).
        f.detail = whistle_protocol::limits::truncate(&f.detail, 240);
        // One line a fault: a run of many bots summarises them per bot
        // instead (`whistle tournament` turns this target off by default).
        warn!(
            target: "whistle::detail",
            table = %self.id,
            seat = f.seat.index(),
            kind = %f.kind,
            detail = %f.detail,
            fallback = ?f.fallback.map(|a| a.to_string()),
            faults = f.faults,
            forfeited = f.forfeited,
            "fault"
        );
        if let Some(conn) = &mut self.seats[f.seat.index()].conn {
            let msg = messages::fault(&messages::Fault {
                kind: f.kind,
                request_id: f.request_id,
                detail: &f.detail,
                fallback: f.fallback,
                faults: f.faults,
                max_faults: self.spec.faults.max_faults,
                forfeited: f.forfeited,
            });
            conn.send(&msg);
        }
        self.record(TableRecord::Fault(f));
    }

    fn apply(&mut self, seat: Seat, action: Action, elapsed: Duration, fallback: bool) {
        if let Err(e) = self.driver.apply(seat, action, fallback) {
            // Unreachable for actions taken from the legal list; keep the table alive.
            warn!(table = %self.id, error = %e, "engine refused a validated action");
            return;
        }
        self.record_events(elapsed);
        // Requests that no longer match the game (a step ended) are withdrawn.
        let to_act = self.driver.game().to_act();
        for s in Seat::all(self.seats.len()) {
            let stale = match &self.seats[s.index()].pending {
                Some(p) => !to_act.contains(s) || self.driver.game().legal_actions(s) != p.legal,
                None => false,
            };
            if stale {
                let st = &mut self.seats[s.index()];
                let p = st.pending.take().expect("checked");
                st.cancelled.insert(p.id);
            }
        }
        self.update_snapshot();
    }

    /// Records what the match driver reports (a deal, the action just
    /// applied, taking `elapsed`, a finished hand) and pushes the new events
    /// to the seats.
    fn record_events(&mut self, elapsed: Duration) {
        let mut events = std::mem::take(&mut self.events);
        self.driver.take_events_into(&mut events);
        for event in events.drain(..) {
            match event {
                MatchEvent::Dealt { deal, order } => {
                    self.record(TableRecord::Deal { deal, order });
                    self.push_events();
                }
                MatchEvent::Applied {
                    seat,
                    action,
                    fallback,
                } => {
                    self.record(TableRecord::Action {
                        seat,
                        action,
                        elapsed,
                        fallback,
                    });
                    self.push_events();
                }
                MatchEvent::HandEnded(r) => self.record(TableRecord::Hand(Box::new(r))),
                MatchEvent::Over(_) => {}
            }
        }
        self.events = events;
    }

    /// Sends every seat the new log entries it may see.
    fn push_events(&mut self) {
        if self.driver.game().deals() != self.pushed_deals {
            self.pushed_deals = self.driver.game().deals();
            self.pushed = 0;
        }
        let log = self.driver.game().log();
        if self.pushed >= log.len() {
            return;
        }
        let results = self.driver.game().hand_results();
        let mut slow = Vec::new();
        for seat in Seat::all(self.seats.len()) {
            let Some(conn) = &mut self.seats[seat.index()].conn else {
                continue;
            };
            if let Some(encoder) = &mut conn.compact {
                for entry in &log[self.pushed..] {
                    if let Some(ev) = entry.seen_by(seat) {
                        encoder.hold_event(&ev, results);
                    }
                }
                continue;
            }
            if conn.quiet {
                continue;
            }
            for entry in &log[self.pushed..] {
                if let Some(ev) = entry.seen_by(seat) {
                    let msg = messages::event_in(&ev, results, conn.form);
                    if !conn.send(&msg) {
                        slow.push(seat);
                        break;
                    }
                }
            }
        }
        self.pushed = log.len();
        for seat in slow {
            self.drop_slow_reader(seat);
        }
    }

    fn finish(&mut self) {
        self.state = TableState::Over;
        let result = self.driver.game().result().expect("the match is over");
        let forfeited = self.forfeited();
        info!(table = %self.id, totals = ?result.totals, ?forfeited, "match over");
        let msg = messages::match_end(&result, &forfeited);
        for s in &mut self.seats {
            if let Some(conn) = &mut s.conn {
                flush_held_events(conn);
                conn.send(&msg);
            }
        }
        self.record(TableRecord::End {
            result: Box::new(result),
            forfeited,
            faults: self.seats.iter().map(|s| s.faults).collect(),
        });
        self.finish_streams();
    }

    /// Drops every stream's sender, which ends the streams after what is queued.
    fn finish_streams(&mut self) {
        self.state = TableState::Over;
        for s in &mut self.seats {
            s.conn = None;
            s.pending = None;
        }
    }
}

/// A compact stream's events held since its last request, sent as `Event`
/// messages: every event reaches the bot once, the last ones before
/// `MatchEnd`.
fn flush_held_events(conn: &mut Conn) {
    if let Some(encoder) = &mut conn.compact {
        for e in encoder.take_events() {
            let msg = pb::RefereeMessage {
                msg: Some(pb::referee_message::Msg::Event(e)),
            };
            if !conn.send(&msg) {
                return;
            }
        }
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365)
}

#[cfg(test)]
mod tests {
    use tokio_stream::StreamExt;
    use whistle_rules::{Options, Variant, dealing::Seed};

    use super::*;
    use crate::config::TableSpec;

    type Stream = crate::outbox::OutboxStream;
    /// What a seat's bot sends on its stream.
    type Bot = mpsc::Sender<Result<pb::BotMessage, Status>>;

    /// An Israeli table with every seat attached (quiet), on paused time.
    async fn table() -> (Vec<Bot>, Vec<Stream>, mpsc::UnboundedReceiver<TableRecord>) {
        let mut spec = TableSpec::new(Variant::Israeli, Seed::from_u64(1), &["a", "b", "c", "d"]);
        spec.options = Options::parse(&["hands=1"]).unwrap();
        spec.time.per_action = Duration::from_millis(100);
        spec.time.time_bank = Duration::ZERO;
        let game = spec.game.new_game(&spec.options).unwrap();
        let driver = MatchDriver::new(game, spec.match_seed, spec.faults.fallback);
        let snapshot = Arc::new(Mutex::new(TableSnapshot {
            table_id: "t".into(),
            game: "israeli".into(),
            state: TableState::Waiting,
            connected: vec![false; 4],
            faults: vec![0; 4],
            hands_done: 0,
            result: None,
        }));
        let (rec_tx, rec_rx) = mpsc::unbounded_channel();
        let table = Table::new("t".into(), spec, driver, rec_tx, Watch::default(), snapshot);
        let (cmd, cmd_rx) = mpsc::channel(64);
        tokio::spawn(table.run(cmd_rx, Box::new(|| {})));
        let mut streams = Vec::new();
        let mut bots = Vec::new();
        for i in 0..4 {
            let (tx, rx) = crate::outbox::outbox(1024);
            let (bot, inbound) = mpsc::channel(1024);
            let (reply, ok) = oneshot::channel();
            let conn = Conn {
                id: i as u64,
                tx,
                out: EncodeBuffer::new(),
                inbound: Box::pin(tokio_stream::wrappers::ReceiverStream::new(inbound)),
                quiet: true,
                compact: None,
                form: Form::Text,
                bot_name: "t".into(),
            };
            cmd.send(TableCmd::Attach {
                seat: Seat::new(i),
                conn: Box::new(conn),
                reply,
            })
            .await
            .unwrap();
            ok.await.unwrap().unwrap();
            streams.push(rx);
            bots.push(bot);
        }
        // The table's task lives while its seats' streams are open.
        drop(cmd);
        (bots, streams, rec_rx)
    }

    async fn request(stream: &mut Stream) -> pb::DecisionRequest {
        loop {
            let msg = stream.next().await.unwrap().unwrap().decode().unwrap();
            if let Some(pb::referee_message::Msg::Request(r)) = msg.msg {
                return r;
            }
        }
    }

    fn answer(request_id: u64) -> Result<pb::BotMessage, Status> {
        Ok(pb::BotMessage {
            msg: Some(pb::bot_message::Msg::Answer(pb::Answer {
                request_id,
                choice: Some(pb::answer::Choice::Index(0)),
            })),
        })
    }

    /// Seat 1 opens the auction and answers 150 ms into its 100 ms; seat 2
    /// then answers in time. Returns the faults recorded up to seat 2's action.
    async fn late_answer(timer_first: bool) -> Vec<FaultRecord> {
        let (bots, mut streams, mut records) = table().await;
        let r = request(&mut streams[1]).await;
        if timer_first {
            // Paused time: the table's deadline fires during this sleep.
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        bots[1].send(answer(r.request_id)).await.unwrap();
        if !timer_first {
            // The table's task runs again only once the clock has jumped:
            // it reads the answer, 150 ms late, before its timer.
            tokio::time::advance(Duration::from_millis(150)).await;
        }
        let r2 = request(&mut streams[2]).await;
        bots[2].send(answer(r2.request_id)).await.unwrap();
        let mut faults = Vec::new();
        loop {
            match records.recv().await.unwrap() {
                TableRecord::Fault(f) => faults.push(f),
                TableRecord::Action { seat, fallback, .. } if seat.index() == 2 => {
                    assert!(!fallback);
                    return faults;
                }
                _ => {}
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_late_answer_is_one_late_fault_whether_the_timer_or_the_answer_comes_first() {
        for timer_first in [true, false] {
            let faults = late_answer(timer_first).await;
            let kinds: Vec<FaultKind> = faults.iter().map(|f| f.kind).collect();
            assert_eq!(kinds, [FaultKind::Late], "timer first: {timer_first}");
            assert!(faults[0].fallback.is_some());
        }
    }
}
