//! The connection loop: plays a [`Bot`] against a referee over gRPC.
//!
//! The launch contract (docs/protocol.md), the same for every bot process in
//! any language: the process finds the referee's address and its token in the
//! environment variables `WHISTLE_ADDRESS` and `WHISTLE_TOKEN` (or in
//! `--address` / `--token` arguments, which win), and optionally its name in
//! `WHISTLE_BOT_NAME`. It calls `Subscribe` with the token, and plays every
//! seat it is assigned, each on its own `Play` stream, until the assignments
//! end. A seat token yields one seat; a bot token yields a seat per table.
//!
//! Bots see over the wire exactly the [`Observation`](whistle_rules::Observation)
//! they would see in-process: the request's observation is decoded into the
//! engine's type. A stream cut by the network is resumed with the same seat
//! token (the referee allows a grace period); a refusal is final. A league's
//! bot (its `Subscribe` carries [`whistle_protocol::LASTING`]) outlives the
//! referee's restarts: while the referee is away it subscribes again, backing
//! off, and ends only when its assignments end or its token is refused.
//!
//! The stream itself, its reconnection and resumption, is the
//! [`transport`] layer's; this module plugs a [`Bot`] into it.

use std::{
    fmt,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use tonic::{Code, transport::Channel};
use tracing::{debug, info, warn};
use whistle_protocol::{compact::Rebuilder, convert, pb, wire::WireRequest};
use whistle_rules::{MatchResult, Options, Seat, Variant};

pub use crate::transport::{ClientError, resumable};
use crate::{
    Bot,
    transport::{self, HelloOptions, Resume, SeatHandler, Step, shutting_down},
};

/// Where to connect and as whom: the launch contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// The referee's address, e.g. `http://127.0.0.1:50051`.
    pub address: String,
    /// A seat token or a bot token.
    pub token: String,
    /// The bot's name for the referee's logs.
    pub bot_name: String,
}

/// The launch contract could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchError(pub String);

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LaunchError {}

impl Launch {
    /// Reads `WHISTLE_ADDRESS`, `WHISTLE_TOKEN` and `WHISTLE_BOT_NAME`;
    /// `address` and `token` given here take precedence.
    ///
    /// # Errors
    /// [`LaunchError`] naming what is missing.
    pub fn resolve(
        address: Option<String>,
        token: Option<String>,
        default_name: &str,
    ) -> Result<Launch, LaunchError> {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let address = address.or_else(|| env("WHISTLE_ADDRESS")).ok_or_else(|| {
            LaunchError("no referee address: set WHISTLE_ADDRESS or pass --address".into())
        })?;
        let token = token
            .or_else(|| env("WHISTLE_TOKEN"))
            .ok_or_else(|| LaunchError("no token: set WHISTLE_TOKEN or pass --token".into()))?;
        let bot_name = env("WHISTLE_BOT_NAME").unwrap_or_else(|| default_name.to_string());
        Ok(Launch {
            address: normalize(&address),
            token,
            bot_name,
        })
    }
}

fn normalize(address: &str) -> String {
    if address.contains("://") || address.starts_with("unix:") {
        address.to_string()
    } else {
        format!("http://{address}")
    }
}

/// How one seat ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatOutcome {
    /// The table.
    pub table_id: String,
    /// The seat played.
    pub seat: Seat,
    /// The match result, if the match ended normally for this seat.
    pub result: Option<MatchResult>,
    /// Faults the referee reported for this seat.
    pub faults: u32,
    /// Whether the seat forfeited.
    pub forfeited: bool,
}

/// A connected channel to `address`. An `https://` address is reached over
/// TLS: the server's certificate is checked against the CA certificate in
/// the PEM file `$WHISTLE_CA` when set (a league's own CA), else against the
/// Web PKI roots.
///
/// # Errors
/// [`ClientError::Connect`].
pub async fn channel(address: &str) -> Result<Channel, ClientError> {
    let connect = |e: &dyn fmt::Display| ClientError::Connect(e.to_string());
    let failed = |e: &tonic::transport::Error| ClientError::Connect(causes(e));
    #[cfg(unix)]
    if let Some(path) = address.strip_prefix("unix:") {
        // A sandboxed bot has no network: the referee is a Unix socket
        // (`unix:/path`, or `unix:///path` as some libraries write it).
        let path = std::path::PathBuf::from(path.strip_prefix("//").unwrap_or(path));
        return tonic::transport::Endpoint::from_static("http://whistle.referee")
            .connect_with_connector(tower::service_fn(move |_: tonic::transport::Uri| {
                let path = path.clone();
                async move {
                    Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(
                        whistle_protocol::unix::UnixConn::connect(path).await?,
                    ))
                }
            }))
            .await
            .map_err(|e| connect(&format!("{address}: {e}")));
    }
    let address = normalize(address);
    let mut endpoint = Channel::from_shared(address.clone())
        .map_err(|e| connect(&e))?
        .tcp_nodelay(true);
    if address.starts_with("https://") {
        let mut tls = tonic::transport::ClientTlsConfig::new();
        match std::env::var_os("WHISTLE_CA").filter(|v| !v.is_empty()) {
            Some(path) => {
                let pem = std::fs::read(&path).map_err(|e| {
                    connect(&format!(
                        "$WHISTLE_CA {}: {e}",
                        std::path::Path::new(&path).display()
                    ))
                })?;
                tls = tls.ca_certificate(tonic::transport::Certificate::from_pem(pem));
            }
            None => tls = tls.with_webpki_roots(),
        }
        endpoint = endpoint.tls_config(tls).map_err(|e| connect(&e))?;
    }
    endpoint.connect().await.map_err(|e| failed(&e))
}

/// An error and every cause under it, `: `-separated: "transport error"
/// alone hides what a student must fix ("invalid peer certificate:
/// UnknownIssuer", "Connection refused").
pub fn causes(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        let text = cause.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        next = cause.source();
    }
    if out.contains("certificate") || out.contains("Certificate") {
        out.push_str(
            " (the referee's TLS certificate was refused: check $WHISTLE_CA and the address's host name)",
        );
    }
    out
}

/// How long a bot token the referee does not know yet is tried again: a
/// league admits a bot added while it serves at its next look, and a league
/// restarting admits its bots again.
const UNKNOWN_TOKEN_RETRY: Duration = Duration::from_secs(15);

/// The longest wait between two `Subscribe`s of a lasting bot while the
/// referee is away.
const AWAY_BACKOFF_MAX: Duration = Duration::from_secs(30);

/// How long a lasting bot tries again every second before backing off: a
/// restart takes seconds, and a resumed round waits only the grace period
/// for its bots.
const AWAY_EAGER: Duration = Duration::from_secs(60);

/// A `Subscribe`'s stream, and whether the referee marked the bot lasting
/// ([`whistle_protocol::LASTING`]): it subscribes again across the referee's
/// restarts.
pub struct Subscription {
    /// The seats assigned, one by one.
    pub assignments: tonic::Streaming<pb::SeatAssignment>,
    /// The bot outlives the referee's process (a league's bot).
    pub lasting: bool,
}

/// Calls `Subscribe` with the bot token, trying again with a growing pause
/// (for 15 s in all) when the referee does not know the token yet (a league
/// admits a bot added while it serves at its next look).
///
/// # Errors
/// The status of the refusal.
pub async fn subscribe(
    channel: Channel,
    token: &str,
    bot_name: &str,
) -> Result<Subscription, tonic::Status> {
    let mut client = pb::referee_client::RefereeClient::new(channel);
    let started = tokio::time::Instant::now();
    let mut pause = Duration::from_millis(250);
    loop {
        let subscribed = client
            .subscribe(pb::SubscribeRequest {
                token: token.to_string(),
                bot_name: bot_name.to_string(),
            })
            .await;
        match subscribed {
            Ok(s) => {
                let lasting = s
                    .metadata()
                    .get(whistle_protocol::LASTING)
                    .is_some_and(|v| v == "1");
                return Ok(Subscription {
                    assignments: s.into_inner(),
                    lasting,
                });
            }
            Err(s) if unknown_token(&s) && started.elapsed() < UNKNOWN_TOKEN_RETRY => {
                if pause == Duration::from_millis(250) {
                    info!("the referee does not know the token (yet); trying again for 15 s");
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(4));
            }
            Err(s) => return Err(s),
        }
    }
}

/// Whether `s` refuses a token the referee does not know.
fn unknown_token(s: &tonic::Status) -> bool {
    s.code() == Code::Unauthenticated && s.message().contains("unknown token")
}

/// Whether a lasting bot whose `Subscribe` ended with `s` waits for the
/// referee to come back: the referee shutting down or out of reach, not a
/// refusal.
fn referee_away(s: &tonic::Status) -> bool {
    matches!(
        s.code(),
        Code::Unavailable | Code::Unknown | Code::Internal | Code::Cancelled
    )
}

/// Plays every seat the launch token is assigned, each with a fresh bot from
/// `make_bot(seat assignment)`, until the referee ends the assignments.
/// A lasting bot (a league's: [`whistle_protocol::LASTING`]) whose referee
/// goes away (shuts down, or is killed) subscribes again with its bot token,
/// every second for a minute and then backing off up to every 30 s, saying
/// so once when the referee goes and once when it is back; it stops when
/// its assignments end (`OK`) or its token is refused.
///
/// # Errors
/// [`ClientError`] if the referee cannot be reached or refuses the token.
/// Errors of single seats are logged and reported in their outcomes.
pub async fn run<F>(launch: &Launch, make_bot: F) -> Result<Vec<SeatOutcome>, ClientError>
where
    F: Fn(&pb::SeatAssignment) -> Box<dyn Bot> + Send + Sync + 'static,
{
    let channel = channel(&launch.address).await?;
    let mut seats = tokio::task::JoinSet::new();
    let mut outcomes = Vec::new();
    // The seat tokens being played: a newer `Subscribe` gives a lasting bot
    // its seats in play again, which this process is playing already (a
    // restarted referee's seats have new tokens, whatever their table ids).
    let playing: Arc<std::sync::Mutex<std::collections::HashSet<String>>> = Arc::default();
    let mut lasting = false;
    // Since when the referee has been away, and the next pause.
    let mut away: Option<(tokio::time::Instant, Duration)> = None;
    loop {
        let ended = match subscribe(channel.clone(), &launch.token, &launch.bot_name).await {
            Ok(sub) => {
                lasting |= sub.lasting;
                if let Some((since, _)) = away.take() {
                    // Said at the level "away" was, so both show.
                    warn!(
                        after_s = since.elapsed().as_secs(),
                        "subscribed again: the referee is back"
                    );
                }
                let mut assignments = sub.assignments;
                let play = |a: pb::SeatAssignment| {
                    let key = a.seat_token.clone();
                    let fresh = playing
                        .lock()
                        .map(|mut p| p.insert(key.clone()))
                        .unwrap_or(true);
                    let bot = fresh.then(|| make_bot(&a));
                    if fresh {
                        info!(table = %a.table_id, seat = a.seat, "assigned a seat");
                    }
                    let channel = channel.clone();
                    let name = launch.bot_name.clone();
                    let playing = playing.clone();
                    async move {
                        let outcome = match bot {
                            Some(bot) => {
                                let o = play_seat(channel, &a.seat_token, &name, bot).await;
                                if let Ok(mut p) = playing.lock() {
                                    p.remove(&key);
                                }
                                Some(o)
                            }
                            // Already played here.
                            None => None,
                        };
                        (a, outcome)
                    }
                };
                transport::play_assignments(&mut assignments, &mut seats, play, |joined| {
                    collect(joined, &mut outcomes)
                })
                .await
            }
            Err(s) if lasting && referee_away(&s) => Err(s),
            // A refusal (an unknown token tried for a while already, a
            // retired bot), or no referee at the first try.
            Err(s) => return Err(status_error(s)),
        };
        match ended {
            // The event is over for this bot.
            Ok(()) => break,
            Err(s) if lasting && referee_away(&s) => {
                let (since, pause) = away.get_or_insert_with(|| {
                    warn!(
                        error = %s.message(),
                        "the referee is away; subscribing again with the bot token, backing off up to every 30 s"
                    );
                    (tokio::time::Instant::now(), Duration::from_secs(1))
                });
                let wait = *pause;
                if since.elapsed() >= AWAY_EAGER {
                    *pause = (*pause * 2).min(AWAY_BACKOFF_MAX);
                }
                let until = tokio::time::Instant::now() + wait;
                // Seats still playing end meanwhile.
                loop {
                    tokio::select! {
                        () = tokio::time::sleep_until(until) => break,
                        Some(joined) = seats.join_next(), if !seats.is_empty() => {
                            collect(joined, &mut outcomes);
                        }
                    }
                }
            }
            // The referee stops: the seats finish, then the bot does.
            Err(s) if shutting_down(&s) => {
                info!("the referee is shutting down");
                break;
            }
            Err(s) => return Err(status_error(s)),
        }
    }
    while let Some(joined) = seats.join_next().await {
        collect(joined, &mut outcomes);
    }
    Ok(outcomes)
}

type SeatEnd = (pb::SeatAssignment, Option<Result<SeatOutcome, ClientError>>);

fn collect(joined: Result<SeatEnd, tokio::task::JoinError>, outcomes: &mut Vec<SeatOutcome>) {
    let Ok((a, Some(outcome))) = joined else {
        return;
    };
    match outcome {
        Ok(o) => outcomes.push(o),
        // Said once already, by the seat.
        Err(ClientError::Status(s)) if shutting_down(&s) => {
            debug!(table = %a.table_id, seat = a.seat, "seat ended: the referee shut down")
        }
        Err(e) => {
            warn!(table = %a.table_id, seat = a.seat, error = %e, "seat ended with an error")
        }
    }
}

/// A status as an error, its transport causes spelled out.
fn status_error(s: tonic::Status) -> ClientError {
    match std::error::Error::source(&s) {
        Some(_) if matches!(s.code(), Code::Unavailable | Code::Unknown | Code::Internal) => {
            ClientError::Connect(causes(&s))
        }
        _ => ClientError::Status(s),
    }
}

/// Plays one seat with `bot` to the end of its match, reconnecting with the
/// same token when the network cuts the stream.
///
/// # Errors
/// [`ClientError`] when the referee refuses the seat or a message does not decode.
pub async fn play_seat(
    channel: Channel,
    seat_token: &str,
    bot_name: &str,
    bot: Box<dyn Bot>,
) -> Result<SeatOutcome, ClientError> {
    let mut seat = BotSeat::new(bot);
    match transport::play(channel, seat_token, bot_name, &mut seat, Resume::Welcomed).await {
        Ok(()) => Ok(seat.outcome),
        Err(ClientError::Status(s)) if shutting_down(&s) => {
            // Final: the referee is going away, not the network.
            warn!(error = %s, "the referee shut down");
            Err(ClientError::Status(s))
        }
        Err(e) => Err(e),
    }
}

/// A [`Bot`] playing a seat: the kit's side of the stream. It asks for
/// compact binary requests (it rebuilds the whole observation, cards and
/// actions decoded from their ids), and quiet ones (no events pushed) when
/// the bot does not follow events.
struct BotSeat {
    bot: Box<dyn Bot>,
    outcome: SeatOutcome,
    /// The observation of the stream's last request.
    rebuilder: Rebuilder,
    /// The legal actions of the request read last in place.
    legal: Vec<whistle_rules::Action>,
}

impl BotSeat {
    fn new(bot: Box<dyn Bot>) -> BotSeat {
        BotSeat {
            bot,
            outcome: SeatOutcome {
                table_id: String::new(),
                seat: Seat::new(0),
                result: None,
                faults: 0,
                forfeited: false,
            },
            rebuilder: Rebuilder::new(),
            legal: Vec::new(),
        }
    }

    /// Tells the bot the game, its clock and its seat.
    fn begin(&mut self, w: &pb::Welcome) {
        if let Ok(variant) = w.game.parse::<Variant>() {
            let pairs: Vec<String> = w
                .options
                .iter()
                .map(|o| format!("{}={}", o.key, o.value))
                .collect();
            if let Ok(options) = Options::parse(&pairs) {
                self.bot.rules(variant, &options);
            }
        }
        if let Some(t) = &w.time_control {
            self.bot.clock(
                Duration::from_millis(t.per_action_ms),
                Duration::from_millis(t.time_bank_ms),
            );
        }
        self.bot.new_match(self.outcome.seat, w.seats as usize);
    }

    /// Hands an event to the bot (and the hand's result, at its end).
    fn deliver(&mut self, e: &pb::Event) -> Result<(), ClientError> {
        let decode = ClientError::Decode;
        if let Some(pb::event::Kind::HandEnd(pb::HandEnd { result: Some(r) })) = &e.kind {
            self.bot
                .hand_over(&convert::hand_result_from(r).map_err(decode)?);
        }
        self.bot.on_event(&convert::event_from(e).map_err(decode)?);
        Ok(())
    }
}

impl SeatHandler for BotSeat {
    fn hello(&self) -> HelloOptions {
        HelloOptions {
            quiet: !self.bot.wants_events(),
            compact: true,
            binary: true,
        }
    }

    fn new_stream(&mut self, _: u32) {
        self.rebuilder = Rebuilder::new();
    }

    async fn on_welcome(&mut self, w: &pb::Welcome, fresh: bool) -> Result<Step, ClientError> {
        self.outcome.table_id = w.table_id.clone();
        self.outcome.seat = Seat::new(w.seat as usize);
        if fresh {
            self.begin(w);
        }
        debug!(table = %w.table_id, seat = w.seat, resumed = w.resumed, "welcome");
        Ok(Step::Next)
    }

    async fn on_request(&mut self, r: &pb::DecisionRequest) -> Result<Step, ClientError> {
        if let Some(d) = &r.delta
            && self.bot.wants_events()
        {
            for e in &d.events {
                self.deliver(e)?;
            }
        }
        let obs = match self.rebuilder.update(r) {
            Ok(obs) => obs,
            // A delta with nothing to apply it to: ask again.
            Err(convert::DecodeError::Missing("observation")) => {
                return Ok(Step::Send(transport::resync()));
            }
            Err(e) => return Err(ClientError::Decode(e)),
        };
        let legal = convert::request_legal(r).map_err(ClientError::Decode)?;
        let index = self.bot.choose(obs, &legal);
        let choice = pb::answer::Choice::Index(index as u32);
        Ok(Step::Send(transport::answer(r.request_id, choice)))
    }

    /// A bot that follows no events is asked straight from the request's
    /// bytes, read into the observation kept (`Rebuilder::update_wire`);
    /// what that does not read is decoded and goes through `on_request`.
    async fn on_request_wire(&mut self, w: &WireRequest) -> Result<Step, ClientError> {
        if !self.bot.wants_events()
            && let Some((id, obs)) = self.rebuilder.update_wire(w.bytes(), &mut self.legal)
        {
            let index = self.bot.choose(obs, &self.legal);
            let choice = pb::answer::Choice::Index(index as u32);
            return Ok(Step::Send(transport::answer(id, choice)));
        }
        let r = w.decode().map_err(ClientError::Status)?;
        self.on_request(&r).await
    }

    async fn on_event(&mut self, e: &pb::Event) -> Result<Step, ClientError> {
        self.deliver(e).map(|()| Step::Next)
    }

    async fn on_fault(&mut self, f: &pb::Fault) -> Result<Step, ClientError> {
        self.outcome.faults = f.faults;
        self.outcome.forfeited |= f.forfeited;
        warn!(kind = fault_name(f.kind), detail = %f.detail, fallback = %f.fallback, "fault");
        Ok(Step::Next)
    }

    async fn on_match_end(&mut self, end: &pb::MatchEnd) -> Result<(), ClientError> {
        if let Some(r) = &end.result {
            let (result, _) = convert::match_result_from(r).map_err(ClientError::Decode)?;
            self.bot.match_over(&result);
            self.outcome.result = Some(result);
        }
        Ok(())
    }

    fn reconnecting(&mut self, status: &tonic::Status, retries: u32) {
        // Once per cut, not per attempt.
        if retries == 1 {
            warn!(error = %status, "stream cut; reconnecting");
        } else {
            debug!(error = %status, retries, "stream cut; reconnecting");
        }
    }
}

/// A `Fault.Kind`'s name in logs (`absent`, `late`, ...), not its number.
fn fault_name(kind: i32) -> &'static str {
    usize::try_from(kind)
        .ok()
        .and_then(|k| k.checked_sub(1))
        .and_then(|k| whistle_protocol::FaultKind::ALL.get(k))
        .map_or("unknown", |k| k.name())
}

/// Arguments of a bundled-bot process (`whistle-bot`, `whistle bot`).
#[derive(Debug, Clone, clap::Args)]
pub struct BotArgs {
    /// Which bot: random, first, heuristic or sampler (`sampler:N` for N
    /// playouts a decision, `sampler:Nms` for N milliseconds).
    #[arg(long, default_value = "heuristic")]
    pub bot: String,
    /// Seed of the random bot: a number, or 64 hex digits. With a seat token
    /// it is the bot's seed as is; with a bot token, each seat assigned uses
    /// `seed.derive(Bot, k)` where k is the FNV-1a hash of `TABLE/SEAT`
    /// (64 bits, top 8 cleared), so every seat's choices are reproducible
    /// whatever order the tables come in.
    #[arg(long, default_value = "0")]
    pub seed: String,
    /// The referee's address (default: $WHISTLE_ADDRESS).
    #[arg(long)]
    pub address: Option<String>,
    /// The seat or bot token (default: $WHISTLE_TOKEN).
    #[arg(long)]
    pub token: Option<String>,
    /// Log filter for stderr, e.g. `info` or `debug`.
    #[arg(long, default_value = "warn")]
    pub log: String,
    /// Testing aid that simulates a crashing bot: after answering N decisions
    /// in total (over all its seats), the process exits abruptly with code
    /// 101 when the next decision is due, leaving that decision unanswered.
    /// A restarted process counts from zero again.
    #[arg(long, value_name = "N", hide = true)]
    pub crash_after: Option<u64>,
}

/// The countdown of `--crash-after N`, shared by every seat of the process.
#[derive(Debug, Clone)]
pub struct CrashAfter {
    limit: u64,
    answered: Arc<AtomicU64>,
}

impl CrashAfter {
    /// A countdown that lets `limit` decisions through.
    pub fn new(limit: u64) -> CrashAfter {
        CrashAfter {
            limit,
            answered: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Called when a decision is due: true while it may still be answered
    /// (and counts it), false once `limit` decisions have been answered.
    pub fn admit(&self) -> bool {
        self.answered
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.limit).then_some(n + 1)
            })
            .is_ok()
    }

    /// Decisions admitted so far.
    pub fn answered(&self) -> u64 {
        self.answered.load(Ordering::SeqCst)
    }
}

/// A bot that ends the whole process (exit code 101, no clean-up) once its
/// [`CrashAfter`] countdown runs out: `--crash-after`.
struct Crashing {
    inner: Box<dyn Bot>,
    countdown: CrashAfter,
}

impl Bot for Crashing {
    fn choose(
        &mut self,
        obs: &whistle_rules::Observation,
        legal: &[whistle_rules::Action],
    ) -> usize {
        if !self.countdown.admit() {
            eprintln!(
                "whistle bot: --crash-after {}: exiting abruptly as asked",
                self.countdown.limit
            );
            std::process::exit(101);
        }
        self.inner.choose(obs, legal)
    }

    fn new_match(&mut self, seat: Seat, seats: usize) {
        self.inner.new_match(seat, seats);
    }

    fn wants_events(&self) -> bool {
        self.inner.wants_events()
    }

    fn on_event(&mut self, event: &whistle_rules::Event) {
        self.inner.on_event(event);
    }

    fn hand_over(&mut self, result: &whistle_rules::HandResult) {
        self.inner.hand_over(result);
    }

    fn match_over(&mut self, result: &MatchResult) {
        self.inner.match_over(result);
    }
}

fn parse_seed(s: &str) -> Result<whistle_rules::dealing::Seed, String> {
    if let Ok(n) = s.parse::<u64>() {
        return Ok(whistle_rules::dealing::Seed::from_u64(n));
    }
    whistle_rules::dealing::Seed::from_hex(s)
}

/// FNV-1a (64 bits) of `TABLE/SEAT`, top 8 bits cleared to fit a seed index.
pub fn seat_key(table_id: &str, seat: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{table_id}/{seat}").bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h & ((1 << 56) - 1)
}

/// Runs a bundled bot process to the end: 0 when the referee ends the
/// assignments or shuts down (a league's bot waits for a referee that shuts
/// down to come back), 1 when it cannot be reached, 2 for a bad command
/// line, [`EXIT_REFUSED`] when it refuses the token (a retired bot).
pub fn bot_main(args: BotArgs) -> std::process::ExitCode {
    use std::process::ExitCode;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(tracing_subscriber::EnvFilter::new(&args.log))
        .try_init();
    let seed = match parse_seed(&args.seed) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --seed: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = crate::bot_by_name(&args.bot, seed) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let launch = match Launch::resolve(args.address.clone(), args.token.clone(), &args.bot) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let name = args.bot.clone();
    let countdown = args.crash_after.map(CrashAfter::new);
    let own_token = launch.token.clone();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(run(&launch, move |a| {
        // Subscribing with a seat token yields that very token as the seat's.
        let seed = if a.seat_token == own_token {
            seed
        } else {
            seed.derive(
                whistle_rules::dealing::Domain::Bot,
                seat_key(&a.table_id, a.seat),
            )
        };
        let bot = crate::bot_by_name(&name, seed).expect("checked above");
        match &countdown {
            Some(c) => Box::new(Crashing {
                inner: bot,
                countdown: c.clone(),
            }),
            None => bot,
        }
    }));
    match outcome {
        Ok(seats) => {
            for s in &seats {
                info!(table = %s.table_id, seat = s.seat.index(), result = ?s.result.as_ref().map(|r| &r.totals), faults = s.faults, "seat done");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                ClientError::Status(s) if s.code() == Code::Unauthenticated => {
                    if unknown_token(&s) {
                        eprintln!(
                            "the referee at {} does not know this token: check the token (the one `whistle league add-bot` printed, whole), that the address is this league's, and that the bot is not retired",
                            launch.address
                        );
                    }
                    ExitCode::from(EXIT_REFUSED)
                }
                _ => ExitCode::FAILURE,
            }
        }
    }
}

/// The file name of the small program built and installed beside `whistle`
/// (a binary of `whistle-cli`): `whistle-bundled-bot ARGS`
/// runs what `whistle bot ARGS` runs ([`bundled_main`]) without loading the
/// whole of `whistle`. A tournament starts it for `whistle bot ...` when it
/// sits beside the running `whistle` and answers the same [`BUILD`].
pub const BUNDLED_BIN: &str = "whistle-bundled-bot";

/// The build of what [`bot_main`] runs: a digest of the sources of this
/// kit, the policies, the protocol and the rules (`build.rs`). The bundled
/// bot binary answers it to [`BUILD_ARG`]; one of another build may play
/// otherwise.
pub const BUILD: &str = env!("WHISTLE_BOT_BUILD");

/// The one argument the bundled bot binary answers [`BUILD`] to (no
/// argument `whistle bot` takes).
pub const BUILD_ARG: &str = "__build";

/// What `whistle bot` does, as its help says.
pub const BOT_ABOUT: &str = "Play a bundled bot (random, first, heuristic, sampler) against a \
                             referee, with the launch contract ($WHISTLE_ADDRESS, $WHISTLE_TOKEN)";

/// The command line of `whistle bot`, as `whistle` parses it: the same
/// help, usage and errors.
pub fn bot_command() -> clap::Command {
    use clap::Args as _;
    // After the arguments: they bring the doc of `BotArgs` as an about.
    BotArgs::augment_args(clap::Command::new("bot"))
        .bin_name("whistle bot")
        .about(BOT_ABOUT)
        .long_about(None)
}

/// The `main` of the bundled bot binary ([`BUNDLED_BIN`]): its arguments
/// are those of `whistle bot` (the same help, errors and exit statuses),
/// and it runs [`bot_main`]; to [`BUILD_ARG`] alone it prints [`BUILD`].
pub fn bundled_main() -> std::process::ExitCode {
    use clap::FromArgMatches as _;
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let [only] = args.as_slice()
        && only == BUILD_ARG
    {
        println!("{BUILD}");
        return std::process::ExitCode::SUCCESS;
    }
    let matches = bot_command().get_matches_from(std::iter::once("bot".into()).chain(args));
    match BotArgs::from_arg_matches(&matches) {
        Ok(args) => bot_main(args),
        Err(e) => e.exit(),
    }
}

/// The exit status of a bot whose token the referee refused (unknown,
/// retired, used up): 0 is a clean end (the referee ended the assignments
/// or shut down), 1 a referee that cannot be reached or a stream that
/// failed, 2 a bad command line.
pub const EXIT_REFUSED: u8 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_is_logged_by_its_kinds_name() {
        assert_eq!(fault_name(pb::fault::Kind::Absent as i32), "absent");
        assert_eq!(fault_name(pb::fault::Kind::Late as i32), "late");
        assert_eq!(fault_name(pb::fault::Kind::Flood as i32), "flood");
        assert_eq!(fault_name(0), "unknown");
        assert_eq!(fault_name(99), "unknown");
    }

    #[test]
    fn crash_after_admits_exactly_n_decisions_across_clones() {
        let c = CrashAfter::new(3);
        let other_seat = c.clone();
        assert!(c.admit());
        assert!(other_seat.admit());
        assert!(c.admit());
        assert!(!other_seat.admit(), "the fourth decision is refused");
        assert!(!c.admit());
        assert_eq!(c.answered(), 3);
        assert!(!CrashAfter::new(0).admit());
    }

    #[test]
    fn streams_are_quiet_exactly_for_bots_that_do_not_follow_events() {
        struct Follower;
        impl Bot for Follower {
            fn choose(
                &mut self,
                _: &whistle_rules::Observation,
                _: &[whistle_rules::Action],
            ) -> usize {
                0
            }
        }
        let quiet = |bot: Box<dyn Bot>| {
            let seat = BotSeat::new(bot);
            match transport::hello("t", "b", seat.hello()).msg {
                Some(pb::bot_message::Msg::Hello(h)) => {
                    assert!(
                        h.compact && h.binary,
                        "the kit asks for compact binary requests"
                    );
                    h.quiet
                }
                other => panic!("{other:?}"),
            }
        };
        assert!(!quiet(Box::new(Follower)), "the default follows events");
        let seed = whistle_rules::dealing::Seed::from_u64(1);
        for name in crate::BOT_NAMES {
            let bot = crate::bot_by_name(name, seed).unwrap();
            assert!(quiet(bot), "{name}");
            let crashing = Crashing {
                inner: crate::bot_by_name(name, seed).unwrap(),
                countdown: CrashAfter::new(1),
            };
            assert!(quiet(Box::new(crashing)), "{name} with --crash-after");
        }
    }

    #[tokio::test]
    async fn a_delta_with_no_observation_before_it_asks_for_a_resync_not_the_bot() {
        struct Never;
        impl Bot for Never {
            fn choose(
                &mut self,
                _: &whistle_rules::Observation,
                _: &[whistle_rules::Action],
            ) -> usize {
                panic!("asked with no observation")
            }
        }
        let mut seat = BotSeat::new(Box::new(Never));
        seat.new_stream(0);
        let delta = pb::DecisionRequest {
            request_id: 4,
            delta: Some(pb::ObservationDelta::default()),
            ..pb::DecisionRequest::default()
        };
        match seat.on_request(&delta).await.unwrap() {
            Step::Send(pb::BotMessage {
                msg: Some(pb::bot_message::Msg::Resync(_)),
            }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn crash_after_is_a_hidden_option() {
        use clap::{CommandFactory, Parser};
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            bot: BotArgs,
        }
        let cli = Cli::try_parse_from(["x", "--bot", "random", "--crash-after", "7"]).unwrap();
        assert_eq!(cli.bot.crash_after, Some(7));
        assert_eq!(Cli::try_parse_from(["x"]).unwrap().bot.crash_after, None);
        let help = Cli::command().render_help().to_string();
        assert!(!help.contains("crash-after"), "{help}");
    }
}
