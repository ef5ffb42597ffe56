//! Referee throughput over loopback gRPC, against raw tonic ping-pong measured
//! in the same run.
//!
//! ```sh
//! cargo bench -p whistle-referee --bench throughput            # 5 rounds, 3 s windows
//! cargo bench -p whistle-referee --bench throughput -- --rounds 1 --secs 1
//! ```
//!
//! Cases (each in a fresh multi-threaded Tokio runtime with default workers,
//! server and clients in the same process, talking over 127.0.0.1 with
//! `TCP_NODELAY` on both ends):
//!
//! - `raw ping-pong, 1 stream`: one bidirectional stream; the client sends a
//!   small `BotMessage`, the server answers each with a small
//!   `RefereeMessage` (about 100 bytes encoded) and the client waits for it
//!   before sending the next. The server is a hand-written implementation of
//!   `whistle.v1.Referee` whose `Play` maps its inbound stream to replies: no
//!   task or channel of its own, the leanest shape tonic allows.
//! - `raw ping-pong, 64 streams`: 64 such streams at once.
//! - `... 1 kB`: the same, but every reply is a copy of a real whistle
//!   request from the middle of a hand (an observation with its history and
//!   tricks, about as large as the average request): tonic and prost moving
//!   whistle-sized messages, without the referee.
//! - `whistle, 1 table` / `whistle, 64 tables`: tables of Israeli Whist on a
//!   [`Referee::spawn`] server, four in-bench bots per table that decode
//!   every message (generated types, as any bot does) and answer every
//!   request at once with the last legal index. (Index 0 would pass every
//!   auction, so that hands would be frisches and misdeals without a card
//!   played; the last index bids, then plays full hands.) Actions per second
//!   are `TableRecord::Action` entries read from the tables' records.
//!   `events` is the default stream; `quiet` sets `Hello.quiet`; `compact`
//!   sets `Hello.compact` (deltas, events inside the requests) and decodes
//!   like the others; `compact, rebuilt` also rebuilds the whole observation
//!   from every request; `binary` and `binary, rebuilt` the same with
//!   `Hello.binary` (cards and actions as ids), the kits' default; `binary,
//!   read as the Rust kit` reads a lone request's bytes straight into the
//!   kept observation, as the Rust kit does (`wire::BotCodec`,
//!   `Rebuilder::update_wire`; other requests decoded and rebuilt).
//!
//! Connections: every stream of the raw ping-pong has its own connection; a
//! table's four seats share one connection (as four seat tasks of one client
//! would), so 64 tables use 64 connections, like 64 ping-pong streams.
//!
//! Each round runs every case once; the table shows each case's median over
//! the rounds and their range, each whistle rate as a percentage of the
//! comparable ping-pong median (1 table with 1 stream, 64 tables with 64
//! streams, 100-byte replies), and the process's CPU time per operation.
//! `--rounds N`, `--secs S` (window), `--warmup S`, `--tables N` and
//! `--only 'TEXT|TEXT'` (cases whose name contains one of them; `TEXT$`:
//! whose name ends with it, to tell `binary$` from `binary, rebuilt`) change the
//! defaults. `--wait-idle S` waits before each case, up to S seconds, until
//! the machine's CPUs have been 90 % idle for a second. `--ops N` ends each
//! window after N operations instead of S seconds: under
//! `valgrind --tool=callgrind`, the difference of two runs' instruction
//! totals (say `--ops 500` and `--ops 2500`, `--warmup 0 --rounds 1` and one
//! case) over the difference of the actions they played (the calls of
//! `whistle_rules::judge::judge` callgrind counts: actions played while
//! the tables connect vary from run to run) is the instructions an action,
//! set-up left out. `--help` lists the options.
//!
//! `allocs each`: heap allocations in the whole process (server, clients,
//! tonic, hyper and h2) per round trip or action over the window, counted
//! by a global allocator wrapper (`stats_alloc`; it adds two atomic
//! additions to every allocation, for every case alike). The ping-pong rows
//! are the transport's own count; what a whistle row adds to them is the
//! referee's and its bots'.

use std::{
    net::SocketAddr,
    pin::Pin,
    sync::{
        Arc, OnceLock,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use tokio::{net::TcpListener, sync::mpsc};
use tokio_stream::{Stream, StreamExt, wrappers::ReceiverStream};
use tonic::{
    Request, Response, Status, Streaming,
    transport::{Channel, Server, server::TcpIncoming},
};
use whistle_protocol::{
    compact::Rebuilder,
    convert,
    pb::{
        self, Answer, BotMessage, DecisionRequest, Hello, RefereeMessage, answer::Choice,
        bot_message::Msg as BotMsg, referee_client::RefereeClient, referee_message::Msg,
    },
    wire::{BotCodec, Incoming},
};
use whistle_referee::{Referee, TableHandle, TableRecord, TableSpec};
use whistle_rules::{
    Game, Options, Variant,
    dealing::{self, Seed},
};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

/// Hands per match: enough that no table ends within a measurement.
const HANDS: u32 = 10_000;

#[derive(Debug, Clone)]
struct Settings {
    rounds: usize,
    warmup: Duration,
    window: Duration,
    tables: usize,
    /// Run only the cases whose label contains one of these (for profiling).
    only: Option<Vec<String>>,
    /// Before each case, wait up to this long for the machine to be idle.
    wait_idle: Duration,
    /// End each window after this many operations instead of after
    /// `window` (for instruction counts under valgrind: the difference of
    /// two runs with different counts is the cost of the operations alone).
    ops: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    PingPong(usize),
    /// Ping-pong whose replies are a real whistle request (about 1 kB).
    PingPongLarge(usize),
    Whistle {
        tables: usize,
        mode: Mode,
    },
}

/// How the bench's bots ask for requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Whole observations, events pushed.
    Events,
    /// Whole observations, no events (`Hello.quiet`).
    Quiet,
    /// Compact requests (`Hello.compact`), decoded like the others.
    Compact,
    /// Compact requests, and the bot rebuilds the whole observation as the
    /// kits do (`whistle_protocol::compact::Rebuilder`).
    Rebuilt,
    /// Compact binary requests (`Hello.compact` and `Hello.binary`: cards
    /// and actions as ids), decoded like the others.
    Binary,
    /// Compact binary requests, rebuilt (prost's decoding, then
    /// `Rebuilder::update`).
    BinaryRebuilt,
    /// Compact binary requests read as the Rust kit reads them (its
    /// default): a lone request's bytes straight into the kept observation
    /// (`whistle_protocol::wire::BotCodec`, `Rebuilder::update_wire`),
    /// anything else decoded and rebuilt.
    Kit,
}

impl Mode {
    fn label(self) -> &'static str {
        match self {
            Mode::Events => "events",
            Mode::Quiet => "quiet",
            Mode::Compact => "compact",
            Mode::Rebuilt => "compact, rebuilt",
            Mode::Binary => "binary",
            Mode::BinaryRebuilt => "binary, rebuilt",
            Mode::Kit => "binary, read as the Rust kit",
        }
    }
}

impl Case {
    fn label(self) -> String {
        match self {
            Case::PingPong(1) => "raw ping-pong, 1 stream".to_string(),
            Case::PingPong(n) => format!("raw ping-pong, {n} streams"),
            Case::PingPongLarge(n) => format!(
                "raw ping-pong, {n} stream{}, 1 kB",
                if n == 1 { "" } else { "s" }
            ),
            Case::Whistle { tables, mode } => format!(
                "whistle, {tables} table{}, {}",
                if tables == 1 { "" } else { "s" },
                mode.label()
            ),
        }
    }
}

fn main() {
    let settings = parse_args();
    let n = settings.tables;
    let all = [
        Case::PingPong(1),
        Case::PingPong(n),
        Case::PingPongLarge(1),
        Case::PingPongLarge(n),
        Case::Whistle {
            tables: 1,
            mode: Mode::Events,
        },
        Case::Whistle {
            tables: 1,
            mode: Mode::Quiet,
        },
        Case::Whistle {
            tables: 1,
            mode: Mode::Compact,
        },
        Case::Whistle {
            tables: 1,
            mode: Mode::Rebuilt,
        },
        Case::Whistle {
            tables: 1,
            mode: Mode::Binary,
        },
        Case::Whistle {
            tables: 1,
            mode: Mode::BinaryRebuilt,
        },
        Case::Whistle {
            tables: 1,
            mode: Mode::Kit,
        },
        Case::Whistle {
            tables: n,
            mode: Mode::Events,
        },
        Case::Whistle {
            tables: n,
            mode: Mode::Quiet,
        },
        Case::Whistle {
            tables: n,
            mode: Mode::Compact,
        },
        Case::Whistle {
            tables: n,
            mode: Mode::Rebuilt,
        },
        Case::Whistle {
            tables: n,
            mode: Mode::Binary,
        },
        Case::Whistle {
            tables: n,
            mode: Mode::BinaryRebuilt,
        },
        Case::Whistle {
            tables: n,
            mode: Mode::Kit,
        },
    ];
    let cases: Vec<Case> = all
        .into_iter()
        .filter(|c| {
            settings
                .only
                .as_ref()
                .is_none_or(|o| o.iter().any(|o| matches_only(&c.label(), o)))
        })
        .collect();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "throughput over loopback: {} round(s), {:.1} s warm-up + {:.1} s window per case, {cores} cores",
        settings.rounds,
        settings.warmup.as_secs_f64(),
        settings.window.as_secs_f64()
    );
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); cases.len()];
    for round in 1..=settings.rounds {
        let mut line = format!("round {round}:");
        for (i, &case) in cases.iter().enumerate() {
            let sample = run_case(case, &settings);
            samples[i].push(sample);
            line += &format!(" {:.0} ({} ops)", sample.rate, sample.ops);
        }
        println!("{line}");
    }
    let rates: Vec<Vec<f64>> = samples
        .iter()
        .map(|s| s.iter().map(|x| x.rate).collect())
        .collect();
    let medians: Vec<f64> = rates.iter().map(|r| median(r)).collect();
    let pp = |streams: usize| {
        cases
            .iter()
            .position(|&c| c == Case::PingPong(streams))
            .map_or(f64::NAN, |i| medians[i])
    };
    println!();
    println!(
        "| {:<32} | {:>10} | {:>15} | {:>6} | {:>11} | {:>11} |",
        "case", "per second", "range", "of raw", "CPU µs each", "allocs each"
    );
    println!(
        "|{:-<34}|{:->12}|{:->17}|{:->8}|{:->13}|{:->13}|",
        "", "", "", "", "", ""
    );
    for (i, &case) in cases.iter().enumerate() {
        let lo = rates[i].iter().copied().fold(f64::INFINITY, f64::min);
        let hi = rates[i].iter().copied().fold(0.0, f64::max);
        let of_raw = match case {
            Case::PingPong(_) | Case::PingPongLarge(_) => "-".to_string(),
            Case::Whistle { tables, .. } => {
                format!("{:.0} %", 100.0 * medians[i] / pp(tables))
            }
        };
        let cpu: Vec<f64> = samples[i].iter().map(|x| x.cpu_us).collect();
        let allocs: Vec<f64> = samples[i].iter().map(|x| x.allocs).collect();
        println!(
            "| {:<32} | {:>10} | {:>15} | {:>6} | {:>11} | {:>11} |",
            case.label(),
            format!("{:.0}", medians[i]),
            format!("{:.0}–{:.0}", lo, hi),
            of_raw,
            format!("{:.1}", median(&cpu)),
            format!("{:.1}", median(&allocs)),
        );
    }
    println!();
    println!(
        "per second: round trips (ping-pong) or actions (whistle: a request and its \
         answer), median of {} round(s) and their range; of raw: the whistle median \
         over the ping-pong median with as many streams as tables (100-byte replies); \
         CPU µs each: the process's CPU time (server and clients) per round trip or action; \
         allocs each: the process's heap allocations per round trip or action.",
        settings.rounds
    );
}

fn parse_args() -> Settings {
    let mut s = Settings {
        rounds: 5,
        warmup: Duration::from_millis(700),
        window: Duration::from_secs(3),
        tables: 64,
        only: None,
        wait_idle: Duration::ZERO,
        ops: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> f64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match a.as_str() {
            "--rounds" => s.rounds = value("--rounds").max(1.0) as usize,
            "--secs" => s.window = Duration::from_secs_f64(value("--secs")),
            "--warmup" => s.warmup = Duration::from_secs_f64(value("--warmup")),
            "--tables" => s.tables = value("--tables").max(1.0) as usize,
            "--only" => {
                s.only = args
                    .next()
                    .map(|o| o.split('|').map(String::from).collect())
            }
            "--wait-idle" => s.wait_idle = Duration::from_secs_f64(value("--wait-idle")),
            "--ops" => s.ops = Some(value("--ops").max(1.0) as u64),
            "--help" | "-h" => {
                println!("{HELP}");
                std::process::exit(0);
            }
            // `cargo bench` passes `--bench`; ignore it and filters.
            _ => {}
        }
    }
    s
}

const HELP: &str = "\
throughput [OPTIONS]: referee throughput against raw tonic ping-pong, same process
  --rounds N      rounds, each running every case once (default 5)
  --secs S        the measurement window of each case (default 3)
  --warmup S      played before each window (default 0.7)
  --tables N      the larger table and stream count (default 64)
  --only 'A|B$'   only the cases whose name contains A or ends with B
  --wait-idle S   before each case, wait up to S seconds for idle CPUs
  --ops N         end each window after N operations instead (for callgrind:
                  instructions an operation = the difference of two runs'
                  totals over the difference of their operation counts)";

/// Whether a case's label is picked by one `--only` entry: contains it,
/// or ends with it when it ends with `$`.
fn matches_only(label: &str, only: &str) -> bool {
    match only.strip_suffix('$') {
        Some(end) => label.ends_with(end),
        None => label.contains(only),
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs one case in a runtime of its own (dropping it ends every task the
/// case started) and returns its rate per second.
fn run_case(case: Case, s: &Settings) -> Sample {
    if !s.wait_idle.is_zero() && !wait_idle(s.wait_idle) {
        println!(
            "  (the machine was busy for {:?}; measuring anyway)",
            s.wait_idle
        );
    }
    let s = s.clone();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let rate = rt.block_on(async move {
        match case {
            Case::PingPong(streams) => ping_pong(streams, small_reply, &s).await,
            Case::PingPongLarge(streams) => ping_pong(streams, whistle_reply, &s).await,
            Case::Whistle { tables, mode } => whistle(tables, mode, &s).await,
        }
    });
    rt.shutdown_timeout(Duration::from_secs(1));
    rate
}

/// Waits until the machine's CPUs have been at least 90 % idle over one
/// second (other processes' builds and tests disturb a loopback benchmark
/// badly on 2 cores), at most `limit`. Linux only; elsewhere returns at once.
fn wait_idle(limit: Duration) -> bool {
    // (idle, total) jiffies of all CPUs, from the first line of /proc/stat.
    fn jiffies() -> Option<(u64, u64)> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let v: Vec<u64> = stat
            .lines()
            .next()?
            .split_whitespace()
            .skip(1)
            .filter_map(|x| x.parse().ok())
            .collect();
        Some((v.get(3)? + v.get(4)?, v.iter().sum()))
    }
    let start = Instant::now();
    while start.elapsed() < limit {
        let Some((i0, t0)) = jiffies() else {
            return true;
        };
        std::thread::sleep(Duration::from_secs(1));
        let Some((i1, t1)) = jiffies() else {
            return true;
        };
        if (i1 - i0) * 10 >= (t1 - t0) * 9 {
            return true;
        }
    }
    false
}

/// Counts events from the moment the warm-up ends to the end of the window.
async fn measure(counter: &AtomicU64, s: &Settings) -> Sample {
    tokio::time::sleep(s.warmup).await;
    let (c0, t0, cpu0) = (counter.load(Ordering::Relaxed), Instant::now(), cpu_time());
    let a0 = GLOBAL.stats().allocations;
    match s.ops {
        None => tokio::time::sleep(s.window).await,
        Some(ops) => {
            while counter.load(Ordering::Relaxed) < c0 + ops {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
    let (c1, t1, cpu1) = (counter.load(Ordering::Relaxed), Instant::now(), cpu_time());
    let a1 = GLOBAL.stats().allocations;
    let n = (c1 - c0) as f64;
    Sample {
        ops: c1 - c0,
        rate: n / (t1 - t0).as_secs_f64(),
        cpu_us: (cpu1 - cpu0) * 1e6 / n,
        allocs: a1.saturating_sub(a0) as f64 / n,
    }
}

/// One measurement: operations per second, and process CPU time per operation.
#[derive(Debug, Clone, Copy)]
struct Sample {
    ops: u64,
    rate: f64,
    cpu_us: f64,
    /// Heap allocations in the process per operation.
    allocs: f64,
}

/// The process's CPU time (user and system) in seconds, from /proc (Linux;
/// NaN elsewhere). Clock ticks of 10 ms: fine over a window of seconds.
fn cpu_time() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name, which is in parentheses: utime and
    // stime are fields 14 and 15 of the line, 12 and 13 after the `)`.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return f64::NAN;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}

async fn connect(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .expect("a valid URI")
        .tcp_nodelay(true)
        .connect()
        .await
        .expect("the server is listening")
}

// ---------------------------------------------------------------------------
// Raw ping-pong
// ---------------------------------------------------------------------------

struct Echo {
    reply: fn(u64) -> RefereeMessage,
}

type BoxStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

/// About 100 bytes on the wire, like a small request.
fn small_reply(id: u64) -> RefereeMessage {
    RefereeMessage {
        msg: Some(Msg::Request(DecisionRequest {
            request_id: id,
            observation: None,
            legal: [
                "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S",
            ]
            .iter()
            .map(|c| c.to_string())
            .collect(),
            deadline_ms: 1000,
            time_bank_ms: 30_000,
            delta: None,
            legal_ids: Vec::new(),
        })),
    }
}

fn ping(id: u64) -> BotMessage {
    BotMessage {
        msg: Some(BotMsg::Answer(Answer {
            request_id: id,
            choice: Some(Choice::Index(0)),
        })),
    }
}

#[tonic::async_trait]
impl pb::referee_server::Referee for Echo {
    type SubscribeStream = BoxStream<pb::SeatAssignment>;
    type PlayStream = BoxStream<RefereeMessage>;

    async fn subscribe(
        &self,
        _: Request<pb::SubscribeRequest>,
    ) -> Result<Response<Self::SubscribeStream>, Status> {
        Err(Status::unimplemented("echo only"))
    }

    async fn play(
        &self,
        req: Request<Streaming<BotMessage>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let reply = self.reply;
        let replies = req.into_inner().map(move |m| {
            let id = match m?.msg {
                Some(BotMsg::Answer(a)) => a.request_id,
                _ => 0,
            };
            Ok(reply(id))
        });
        Ok(Response::new(Box::pin(replies)))
    }
}

/// A real request of the bench's tables: the 40th decision of the first
/// hand (in the middle of the play), as the referee would send it. Encoded it
/// is about as large as the average request of a match (1 kB), and it is
/// cloned for every reply, much as the referee builds a message per request.
fn whistle_reply(id: u64) -> RefereeMessage {
    static TEMPLATE: OnceLock<RefereeMessage> = OnceLock::new();
    let mut m = TEMPLATE
        .get_or_init(|| {
            let options = Options::parse(&[format!("hands={HANDS}")]).expect("options");
            let mut game = Variant::Israeli.new_game(&options).expect("a game");
            let seed = Seed::from_u64(1);
            let mut decisions = 0;
            loop {
                dealing::deal_if_needed(&mut game, seed).expect("a deal");
                let seat = game.to_act().first().expect("a seat to act");
                let legal = game.legal_actions(seat);
                if decisions == 40 {
                    let obs = game.observe(seat);
                    break RefereeMessage {
                        msg: Some(Msg::Request(DecisionRequest {
                            request_id: 0,
                            observation: Some(convert::observation(&obs, game.hand_results())),
                            legal: convert::legal(&legal),
                            deadline_ms: 1000,
                            time_bank_ms: 30_000,
                            delta: None,
                            legal_ids: Vec::new(),
                        })),
                    };
                }
                game.apply(seat, legal[legal.len() - 1])
                    .expect("a legal action");
                decisions += 1;
            }
        })
        .clone();
    if let Some(Msg::Request(r)) = &mut m.msg {
        r.request_id = id;
    }
    m
}

async fn ping_pong(streams: usize, reply: fn(u64) -> RefereeMessage, s: &Settings) -> Sample {
    let _ = reply(0);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    tokio::spawn(
        Server::builder()
            .tcp_nodelay(true)
            .http2_keepalive_interval(Some(Duration::from_secs(20)))
            .add_service(pb::referee_server::RefereeServer::new(Echo { reply }))
            .serve_with_incoming(TcpIncoming::from(listener).with_nodelay(Some(true))),
    );
    let counter = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    for _ in 0..streams {
        let channel = connect(addr).await;
        let (counter, stop) = (counter.clone(), stop.clone());
        tokio::spawn(async move {
            let mut client = RefereeClient::new(channel);
            let (tx, rx) = mpsc::channel(64);
            tx.send(ping(0)).await.expect("open");
            let mut inbound = client
                .play(ReceiverStream::new(rx))
                .await
                .expect("play")
                .into_inner();
            while let Ok(Some(m)) = inbound.message().await {
                counter.fetch_add(1, Ordering::Relaxed);
                let Some(Msg::Request(r)) = m.msg else {
                    break;
                };
                if stop.load(Ordering::Relaxed) || tx.send(ping(r.request_id + 1)).await.is_err() {
                    break;
                }
            }
        });
    }
    let rate = measure(&counter, s).await;
    stop.store(true, Ordering::Relaxed);
    rate
}

// ---------------------------------------------------------------------------
// Whistle tables
// ---------------------------------------------------------------------------

/// A bench bot's Hello: the stream `mode` asks for.
fn hello(token: String, mode: Mode) -> BotMessage {
    BotMessage {
        msg: Some(BotMsg::Hello(Hello {
            token,
            bot_name: "last".into(),
            protocol: whistle_protocol::PROTOCOL.into(),
            quiet: mode == Mode::Quiet,
            compact: matches!(
                mode,
                Mode::Compact | Mode::Rebuilt | Mode::Binary | Mode::BinaryRebuilt | Mode::Kit
            ),
            binary: matches!(mode, Mode::Binary | Mode::BinaryRebuilt | Mode::Kit),
        })),
    }
}

/// One seat: answers every request at once with the last legal index.
async fn bot(channel: Channel, token: String, mode: Mode) {
    if mode == Mode::Kit {
        return kit_bot(channel, token).await;
    }
    let mut client = RefereeClient::new(channel);
    let (tx, rx) = mpsc::channel(64);
    tx.send(hello(token, mode)).await.expect("open");
    let Ok(response) = client.play(ReceiverStream::new(rx)).await else {
        return;
    };
    let mut inbound = response.into_inner();
    let mut rebuilder = Rebuilder::new();
    while let Ok(Some(m)) = inbound.message().await {
        match m.msg {
            Some(Msg::Request(r)) => {
                if matches!(mode, Mode::Rebuilt | Mode::BinaryRebuilt) {
                    rebuilder.update(&r).expect("a request that rebuilds");
                }
                let answer = BotMessage {
                    msg: Some(BotMsg::Answer(Answer {
                        request_id: r.request_id,
                        choice: Some(Choice::Index(
                            (r.legal.len() + r.legal_ids.len()).saturating_sub(1) as u32,
                        )),
                    })),
                };
                if tx.send(answer).await.is_err() {
                    break;
                }
            }
            Some(Msg::Fault(f)) => panic!("the bench bot faulted: {f:?}"),
            Some(Msg::MatchEnd(_)) => break,
            _ => {}
        }
    }
}

/// [`bot`] reading its requests as the Rust kit does (`bots/rust`'s
/// `transport::open` and `BotSeat::on_request_wire`): `Play` called with
/// [`BotCodec`], a lone request's bytes read into the kept observation
/// ([`Rebuilder::update_wire`]), any other request decoded and rebuilt.
async fn kit_bot(channel: Channel, token: String) {
    let (tx, rx) = mpsc::channel(64);
    tx.send(hello(token, Mode::Kit)).await.expect("open");
    let mut grpc = tonic::client::Grpc::new(channel);
    if grpc.ready().await.is_err() {
        return;
    }
    let path = tonic::codegen::http::uri::PathAndQuery::from_static("/whistle.v1.Referee/Play");
    let Ok(response) = grpc
        .streaming(Request::new(ReceiverStream::new(rx)), path, BotCodec)
        .await
    else {
        return;
    };
    let mut inbound = response.into_inner();
    let mut rebuilder = Rebuilder::new();
    let mut legal = Vec::new();
    while let Ok(Some(m)) = inbound.message().await {
        let (request_id, count) = match m {
            Incoming::Request(w) => match rebuilder.update_wire(w.bytes(), &mut legal) {
                Some((id, _)) => (id, legal.len()),
                None => {
                    let r = w.decode().expect("a request that decodes");
                    rebuilder.update(&r).expect("a request that rebuilds");
                    (r.request_id, r.legal.len() + r.legal_ids.len())
                }
            },
            Incoming::Message(m) => match m.msg {
                Some(Msg::Request(r)) => {
                    rebuilder.update(&r).expect("a request that rebuilds");
                    (r.request_id, r.legal.len() + r.legal_ids.len())
                }
                Some(Msg::Fault(f)) => panic!("the bench bot faulted: {f:?}"),
                Some(Msg::MatchEnd(_)) => break,
                _ => continue,
            },
        };
        let answer = BotMessage {
            msg: Some(BotMsg::Answer(Answer {
                request_id,
                choice: Some(Choice::Index(count.saturating_sub(1) as u32)),
            })),
        };
        if tx.send(answer).await.is_err() {
            break;
        }
    }
}

async fn whistle(tables: usize, mode: Mode, s: &Settings) -> Sample {
    let referee = Referee::new(None);
    let (addr, server) = referee
        .spawn("127.0.0.1:0".parse().expect("an address"))
        .await
        .expect("bind");
    let counter = Arc::new(AtomicU64::new(0));
    let options = Options::parse(&[format!("hands={HANDS}")]).expect("options");
    for t in 0..tables {
        let seed = Seed::from_u64(t as u64 + 1);
        let mut spec = TableSpec::new(Variant::Israeli, seed, &["a", "b", "c", "d"]);
        spec.options = options.clone();
        let TableHandle {
            tokens,
            mut records,
            ..
        } = referee.create_table(spec).expect("a table");
        let counter = counter.clone();
        tokio::spawn(async move {
            while let Some(r) = records.recv().await {
                match r {
                    TableRecord::Action { fallback, .. } => {
                        assert!(!fallback, "a fallback was played");
                        counter.fetch_add(1, Ordering::Relaxed);
                    }
                    TableRecord::End { .. } => panic!("a match ended during the bench"),
                    TableRecord::Aborted { reason } => panic!("a table aborted: {reason}"),
                    _ => {}
                }
            }
        });
        let channel = connect(addr).await;
        for token in tokens {
            tokio::spawn(bot(channel.clone(), token, mode));
        }
    }
    let rate = measure(&counter, s).await;
    drop(server);
    rate
}
