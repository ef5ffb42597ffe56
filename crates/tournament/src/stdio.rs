//! Bots on stdin and stdout (docs/stdio.md): whistle speaks gRPC to the
//! referee on the bot's behalf and the bot reads one JSON object per line
//! and answers each request with one line.
//!
//! The bridge holds the bot's token; the bot never sees it and needs no
//! network. It plays every seat the token is assigned, each on its own
//! `Play` stream on the Rust kit's seat loop (`whistle_bot::transport`,
//! which reconnects and resumes it), and puts the requests of all
//! of them to the bot **one at a time**: the next request line is written
//! only once the bot has answered the previous one. A line the bot prints
//! answers the request written last; one more line with nothing asked is
//! sent again as an answer to that request, which the referee counts as a
//! stale or out-of-turn answer, as it would from a gRPC bot. A request the
//! referee has replaced (the bot was late and the fallback played) before it
//! was written is never written. A line longer than [`MAX_LINE`] bytes is not
//! kept: it is read and dropped, and the referee gets `[a line of N bytes]`
//! as the answer (a malformed one). Writes to the bot go through a
//! bounded queue, so a bot that stops reading cannot make whistle hold more
//! than [`QUEUE`] lines for it.
//!
//! A bot's start-up is not on its clock: the bridge first writes a `start`
//! line and subscribes only once the bot has begun reading its stdin (the
//! pipe holds fewer bytes than were written: [`BotInput::unread`]), as a
//! gRPC bot subscribes once it has started. Its tables wait for its seats
//! up to their start timeout meanwhile, so a JVM compiling its bot, or a
//! table loaded before the first line is read, costs no decision its time;
//! a bot slower than that has the seats of the tables that started without
//! it absent, as a gRPC bot would, and plays from the first table after it
//! reads (never requests piled up unread, each of them `late`). One warning
//! says so after [`START_WAIT`].

use std::{
    collections::{HashMap, VecDeque},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader},
    sync::mpsc,
    task::JoinHandle,
};
use tracing::{info, warn};
use whistle_bot::{
    client::{self, ClientError},
    transport::{self, HelloOptions, Resume, SeatHandler, Step},
};
use whistle_protocol::{limits::echo, pb};

/// The longest answer line taken whole; a longer one is dropped and the
/// referee sees `[a line of N bytes]` (a malformed answer).
pub const MAX_LINE: usize = 4096;
/// Lines waiting to be written to the bot.
pub const QUEUE: usize = 256;
/// How long a stdio bot may take to begin reading its stdin before the
/// bridge warns that it has not (the default `start_timeout_ms` of a
/// tournament: a table waits that long for its seats), and before
/// `check-bot --stdio` fails it. The bridge subscribes for the bot only once
/// it reads, however long that takes.
pub const START_WAIT: Duration = Duration::from_secs(30);
/// How often the bridge looks whether the bot has begun reading.
const START_POLL: Duration = Duration::from_millis(10);
/// How often it looks after [`START_WAIT`].
const START_POLL_LATE: Duration = Duration::from_millis(100);

/// The bot's stdin as the bridge writes to it.
pub trait BotInput: AsyncWrite + Unpin + Send + 'static {
    /// Bytes written to the bot that it has not read yet, where that can
    /// be told (a pipe: its `FIONREAD`); `None` where it cannot, and the
    /// bridge then subscribes at once.
    fn unread(&self) -> Option<u64> {
        None
    }
}

impl BotInput for tokio::process::ChildStdin {
    fn unread(&self) -> Option<u64> {
        rustix::io::ioctl_fionread(self).ok()
    }
}

impl BotInput for tokio::io::DuplexStream {}

/// The first line a bot reads: whistle is there, the bot may begin.
pub fn start_line(name: &str) -> String {
    line("start", vec![("bot_name", json!(name))])
}

/// Writes the `start` line and waits until the bot has begun reading it
/// (however long that takes: the bridge is stopped with the process; one
/// warning after [`START_WAIT`]); returns how long that took, `None` if it
/// could not be told (the stream cannot say, or the bot is gone).
async fn started<W: BotInput>(stdin: &mut W, name: &str) -> Option<Duration> {
    let begun = tokio::time::Instant::now();
    let mut first = start_line(name);
    first.push('\n');
    if stdin.write_all(first.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
        return None;
    }
    let written = first.len() as u64;
    let mut warned = false;
    loop {
        if stdin.unread()? < written {
            return Some(begun.elapsed());
        }
        if begun.elapsed() < START_WAIT {
            tokio::time::sleep(START_POLL).await;
            continue;
        }
        if !warned {
            warned = true;
            warn!(
                bot = %name,
                "stdio bot: it has not read its stdin after {} s; the tables that start \
                 meanwhile have its seats absent (whistle subscribes for it once it reads)",
                START_WAIT.as_secs()
            );
        }
        tokio::time::sleep(START_POLL_LATE).await;
    }
}

/// A request for the bot to answer.
struct Ask {
    line: String,
    request_id: u64,
    /// The newest request id of the seat: an ask older than it is not
    /// written.
    newest: Arc<AtomicU64>,
    /// Where the answer goes: (request id, the line).
    answers: mpsc::Sender<(u64, String)>,
}

/// What seats send the speaker.
enum ToBot {
    /// A line the bot may ignore.
    Info(String),
    /// A request.
    Ask(Ask),
}

/// Starts the bridge between a bot's standard streams and the referee at
/// `address`, playing with `token`: it writes the `start` line, waits for
/// the bot to begin reading (see the module's documentation), then
/// subscribes. It ends when the referee ends the assignments or the bot
/// closes its stdout; aborting it closes the seats' streams.
pub fn spawn<W, R>(
    stdin: W,
    stdout: R,
    address: String,
    token: String,
    name: String,
) -> JoinHandle<()>
where
    W: BotInput,
    R: AsyncRead + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        let mut stdin = stdin;
        if let Some(took) = started(&mut stdin, &name).await {
            info!(bot = %name, ms = took.as_millis() as u64, "stdio bot reading its stdin");
        }
        let (to_bot, from_seats) = mpsc::channel::<ToBot>(QUEUE);
        let speaker = tokio::spawn(speak(stdin, stdout, from_seats, name.clone()));
        tokio::select! {
            r = assignments(&address, &token, &name, to_bot) => match r {
                Ok(()) => {}
                // The event forgot the token: it ended (or stopped) before
                // the bot began reading. Nothing is wrong with the bot.
                Err(Refused::Ended) => {
                    info!(bot = %name, "stdio bridge: the event ended before the bot began reading");
                }
                Err(Refused::Other(e)) => warn!(bot = %name, error = %e, "stdio bridge: no seats"),
            },
            _ = speaker => info!(bot = %name, "stdio bot closed its output"),
        }
    })
}

/// Why the bridge has no seats.
enum Refused {
    /// The referee no longer knows the token: the event is over.
    Ended,
    /// Anything else.
    Other(String),
}

/// Subscribes with the bot token and plays each assigned seat. The token
/// was registered before the bot was started: a referee that does not know
/// it has forgotten it (the event ended), and is not asked again.
async fn assignments(
    address: &str,
    token: &str,
    name: &str,
    to_bot: mpsc::Sender<ToBot>,
) -> Result<(), Refused> {
    let channel = client::channel(address)
        .await
        .map_err(|e| Refused::Other(e.to_string()))?;
    let mut stream = pb::referee_client::RefereeClient::new(channel.clone())
        .subscribe(pb::SubscribeRequest {
            token: token.to_string(),
            bot_name: name.to_string(),
        })
        .await
        .map_err(|s| {
            if s.code() == tonic::Code::Unauthenticated && s.message().contains("unknown token") {
                Refused::Ended
            } else {
                Refused::Other(s.message().to_string())
            }
        })?
        .into_inner();
    let mut seats = tokio::task::JoinSet::new();
    let play = |a: pb::SeatAssignment| {
        let (channel, to_bot, name) = (channel.clone(), to_bot.clone(), name.to_string());
        async move { play_seat(channel, a, &name, to_bot).await }
    };
    // However the assignments end, the seats already assigned play on.
    let _ = transport::play_assignments(&mut stream, &mut seats, play, |_| {}).await;
    while seats.join_next().await.is_some() {}
    Ok(())
}

/// Plays one seat to the end of its match, reconnecting when the stream is
/// cut.
async fn play_seat(
    channel: tonic::transport::Channel,
    a: pb::SeatAssignment,
    name: &str,
    to_bot: mpsc::Sender<ToBot>,
) {
    let mut seat = BridgedSeat::new(&a, to_bot);
    let played = transport::play(channel, &a.seat_token, name, &mut seat, Resume::Always).await;
    if let Err(e) = played {
        let error = match &e {
            ClientError::Status(s) => s.message().to_string(),
            other => other.to_string(),
        };
        warn!(table = %a.table_id, seat = a.seat, error = %error, "stdio bridge: the seat's stream ended");
    }
}

/// A seat played by the bot on the bridge's other side: the referee's
/// messages become lines for the bot, its requests asks that the speaker
/// puts to the bot one at a time. It asks for whole requests with texts
/// (the lines carry them as they are) and every event.
struct BridgedSeat {
    table: String,
    /// The seat assigned, and the seat as the stream's welcome gives it.
    assigned: u32,
    seat: u32,
    to_bot: mpsc::Sender<ToBot>,
    /// The newest request id of the seat, shared with its asks.
    newest: Arc<AtomicU64>,
    answers_tx: mpsc::Sender<(u64, String)>,
    answers: mpsc::Receiver<(u64, String)>,
    /// The stream open now.
    stream: u32,
    /// The last answer sent, and on which stream: a request the referee
    /// sends again after a reconnection is answered again without asking
    /// the bot, unless that answer already went on the new stream.
    last_answer: Option<(u64, pb::answer::Choice, u32)>,
    /// The newest request put to the bot (ids start at 1).
    asked: u64,
}

impl BridgedSeat {
    fn new(a: &pb::SeatAssignment, to_bot: mpsc::Sender<ToBot>) -> BridgedSeat {
        let (answers_tx, answers) = mpsc::channel::<(u64, String)>(4);
        BridgedSeat {
            table: a.table_id.clone(),
            assigned: a.seat,
            seat: a.seat,
            to_bot,
            newest: Arc::new(AtomicU64::new(0)),
            answers_tx,
            answers,
            stream: 0,
            last_answer: None,
            asked: 0,
        }
    }

    /// Puts `out` to the speaker; the seat ends if the bot is gone.
    async fn tell(&self, out: ToBot) -> Step {
        match self.to_bot.send(out).await {
            Ok(()) => Step::Next,
            Err(_) => Step::End,
        }
    }

    /// A request asked already: its answer comes from that ask, or went on
    /// a stream now cut and goes again.
    fn asked_again(&mut self) -> Step {
        match &self.last_answer {
            Some((id, choice, on)) if *id == self.asked && *on != self.stream => {
                let (id, choice) = (*id, choice.clone());
                self.last_answer = Some((id, choice.clone(), self.stream));
                Step::Send(transport::answer(id, choice))
            }
            _ => Step::Next,
        }
    }
}

impl SeatHandler for BridgedSeat {
    fn hello(&self) -> HelloOptions {
        HelloOptions {
            quiet: false,
            compact: false,
            binary: false,
        }
    }

    fn new_stream(&mut self, number: u32) {
        self.stream = number;
        self.seat = self.assigned;
    }

    async fn on_welcome(&mut self, w: &pb::Welcome, _: bool) -> Result<Step, ClientError> {
        self.seat = w.seat;
        Ok(self.tell(ToBot::Info(welcome_line(&self.table, w))).await)
    }

    async fn on_request(&mut self, r: &pb::DecisionRequest) -> Result<Step, ClientError> {
        if r.request_id == self.asked {
            return Ok(self.asked_again());
        }
        self.asked = r.request_id;
        self.newest.store(r.request_id, Ordering::Relaxed);
        let ask = Ask {
            line: request_line(&self.table, self.seat, r),
            request_id: r.request_id,
            newest: self.newest.clone(),
            answers: self.answers_tx.clone(),
        };
        Ok(self.tell(ToBot::Ask(ask)).await)
    }

    async fn on_event(&mut self, e: &pb::Event) -> Result<Step, ClientError> {
        let line = event_line(&self.table, self.seat, e);
        Ok(self.tell(ToBot::Info(line)).await)
    }

    async fn on_fault(&mut self, f: &pb::Fault) -> Result<Step, ClientError> {
        let line = fault_line(&self.table, self.seat, f);
        Ok(self.tell(ToBot::Info(line)).await)
    }

    async fn on_match_end(&mut self, m: &pb::MatchEnd) -> Result<(), ClientError> {
        let line = match_end_line(&self.table, self.seat, m);
        self.tell(ToBot::Info(line)).await;
        Ok(())
    }

    async fn answered(&mut self) -> Option<pb::BotMessage> {
        let (request_id, text) = self.answers.recv().await?;
        let choice = choice(&text);
        self.last_answer = Some((request_id, choice.clone(), self.stream));
        Some(transport::answer(request_id, choice))
    }
}

/// A line of the bot as an answer: a decimal number is an index into
/// `legal`, anything else the action's text.
fn choice(line: &str) -> pb::answer::Choice {
    let t = line.trim();
    match t.parse::<u32>() {
        Ok(i) if t.bytes().all(|b| b.is_ascii_digit()) => pb::answer::Choice::Index(i),
        _ => pb::answer::Choice::Text(line.trim_end_matches(['\r', '\n']).to_string()),
    }
}

/// A `request` line, as a stdio bot reads it (docs/stdio.md); `replay show
/// --stdio` prints the one a seat was sent.
pub fn request_line(table: &str, seat: u32, r: &pb::DecisionRequest) -> String {
    line(
        "request",
        vec![
            ("table", json!(table)),
            ("seat", json!(seat)),
            ("request_id", json!(r.request_id)),
            ("legal", json!(r.legal)),
            ("deadline_ms", json!(r.deadline_ms)),
            ("time_bank_ms", json!(r.time_bank_ms)),
            (
                "observation",
                r.observation.as_ref().map_or(Value::Null, to_value),
            ),
        ],
    )
}

/// A line: `type` first, then `fields` in order (so that a bot may tell a
/// request by the line's start), one JSON object with no newline in it.
fn line(kind: &str, fields: Vec<(&str, Value)>) -> String {
    let mut out = format!("{{\"type\":{}", Value::from(kind));
    for (key, value) in fields {
        out.push_str(&format!(",{}:{value}", Value::from(key)));
    }
    out.push('}');
    out
}

fn to_value<T: serde::Serialize>(m: &T) -> Value {
    serde_json::to_value(m).unwrap_or(Value::Null)
}

/// A `welcome` line.
fn welcome_line(table: &str, w: &pb::Welcome) -> String {
    let options: serde_json::Map<String, Value> = w
        .options
        .iter()
        .map(|o| (o.key.clone(), Value::String(o.value.clone())))
        .collect();
    let t = w.time_control.unwrap_or_default();
    line(
        "welcome",
        vec![
            ("table", json!(table)),
            ("seat", json!(w.seat)),
            ("seats", json!(w.seats)),
            ("game", json!(w.game)),
            ("options", Value::Object(options)),
            ("bot_names", json!(w.bot_names)),
            ("per_action_ms", json!(t.per_action_ms)),
            ("time_bank_ms", json!(t.time_bank_ms)),
            ("resumed", json!(w.resumed)),
        ],
    )
}

/// An `event` line.
fn event_line(table: &str, seat: u32, e: &pb::Event) -> String {
    line(
        "event",
        vec![
            ("table", json!(table)),
            ("seat", json!(seat)),
            ("event", to_value(e)),
        ],
    )
}

/// A `fault` line.
fn fault_line(table: &str, seat: u32, f: &pb::Fault) -> String {
    let kind = pb::fault::Kind::try_from(f.kind).map_or("KIND_UNSPECIFIED", |k| k.as_str_name());
    line(
        "fault",
        vec![
            ("table", json!(table)),
            ("seat", json!(seat)),
            ("kind", json!(kind)),
            ("request_id", json!(f.request_id)),
            ("detail", json!(echo(&f.detail))),
            ("fallback", json!(f.fallback)),
            ("faults", json!(f.faults)),
            ("max_faults", json!(f.max_faults)),
            ("forfeited", json!(f.forfeited)),
        ],
    )
}

/// A `match_end` line.
fn match_end_line(table: &str, seat: u32, m: &pb::MatchEnd) -> String {
    line(
        "match_end",
        vec![
            ("table", json!(table)),
            ("seat", json!(seat)),
            ("result", m.result.as_ref().map_or(Value::Null, to_value)),
        ],
    )
}

/// Writes the seats' lines to the bot and reads its answers: one request
/// outstanding at a time. Ends when the bot closes its stdout.
async fn speak<W, R>(stdin: W, stdout: R, mut from_seats: mpsc::Receiver<ToBot>, name: String)
where
    W: AsyncWrite + Unpin + Send + 'static,
    R: AsyncRead + Unpin + Send + 'static,
{
    // The writer and the reader are tasks of their own: a bot that stops
    // reading never keeps its answers from being read, and the other way round.
    let (write_tx, mut write_rx) = mpsc::channel::<String>(QUEUE);
    let writer = tokio::spawn(async move {
        let mut stdin = stdin;
        while let Some(mut line) = write_rx.recv().await {
            line.push('\n');
            if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
                // The bot closed its stdin: it reads no more.
                while write_rx.recv().await.is_some() {}
                return;
            }
        }
    });
    let (line_tx, mut lines) = mpsc::channel::<String>(4);
    let reader = tokio::spawn(read_lines(stdout, line_tx));
    let mut pending: VecDeque<Ask> = VecDeque::new();
    let mut outstanding: Option<Ask> = None;
    // The last request written, for lines printed with nothing asked.
    let mut last: Option<(u64, mpsc::Sender<(u64, String)>)> = None;
    let mut dropped: HashMap<&'static str, u64> = HashMap::new();
    loop {
        if outstanding.is_none() {
            while let Some(ask) = pending.pop_front() {
                let replaced = ask.request_id < ask.newest.load(Ordering::Relaxed);
                if replaced || ask.answers.is_closed() {
                    continue;
                }
                if write_tx.send(ask.line.clone()).await.is_err() {
                    return;
                }
                last = Some((ask.request_id, ask.answers.clone()));
                outstanding = Some(ask);
                break;
            }
        }
        tokio::select! {
            msg = from_seats.recv() => match msg {
                None => break,
                Some(ToBot::Ask(ask)) => {
                    if pending.len() >= QUEUE {
                        *dropped.entry("request").or_default() += 1;
                    } else {
                        pending.push_back(ask);
                    }
                }
                Some(ToBot::Info(line)) => {
                    if write_tx.try_send(line).is_err() {
                        *dropped.entry("info").or_default() += 1;
                    }
                }
            },
            line = lines.recv() => {
                let Some(line) = line else { break };
                match outstanding.take() {
                    Some(ask) => {
                        let _ = ask.answers.try_send((ask.request_id, line));
                    }
                    None => {
                        if let Some((id, to)) = &last {
                            let _ = to.try_send((*id, line));
                        }
                    }
                }
            }
        }
    }
    if !dropped.is_empty() {
        warn!(bot = %name, ?dropped, "stdio bridge: lines the bot was too slow to take were dropped");
    }
    reader.abort();
    // The last lines (a match's end) still reach a bot that reads them; one
    // that does not is not waited for long.
    drop(write_tx);
    let mut writer = writer;
    if tokio::time::timeout(Duration::from_secs(2), &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

/// Reads the bot's lines, each cut at [`MAX_LINE`] bytes, until it closes
/// its stdout.
async fn read_lines<R: AsyncRead + Unpin>(stdout: R, to: mpsc::Sender<String>) {
    let mut reader = BufReader::with_capacity(8192, stdout);
    loop {
        let mut line: Vec<u8> = Vec::new();
        let mut total = 0usize;
        let ended = loop {
            let buf = match reader.fill_buf().await {
                Ok(b) => b,
                Err(_) => break true,
            };
            if buf.is_empty() {
                break true;
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            let room = MAX_LINE.saturating_sub(line.len());
            line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            total += chunk.len();
            let used = done.unwrap_or(buf.len());
            reader.consume(used);
            if done.is_some() {
                break false;
            }
        };
        if ended && total == 0 {
            return;
        }
        // A line too long to be an answer is forwarded as its length, an
        // answer the referee refuses as malformed and echoes whole.
        let text = if total > MAX_LINE {
            format!("[a line of {total} bytes]")
        } else {
            String::from_utf8_lossy(&line).into_owned()
        };
        if to.send(text).await.is_err() || ended {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: u64) -> pb::DecisionRequest {
        pb::DecisionRequest {
            request_id: id,
            ..pb::DecisionRequest::default()
        }
    }

    fn answered_with(step: Step) -> Option<(u64, pb::answer::Choice)> {
        match step {
            Step::Send(pb::BotMessage {
                msg: Some(pb::bot_message::Msg::Answer(a)),
            }) => Some((a.request_id, a.choice?)),
            _ => None,
        }
    }

    #[tokio::test]
    async fn a_request_sent_again_after_a_reconnection_is_answered_again_once_without_asking() {
        let (to_bot, mut speaker) = mpsc::channel(8);
        let a = pb::SeatAssignment {
            table_id: "t1".into(),
            seat: 2,
            ..pb::SeatAssignment::default()
        };
        let mut seat = BridgedSeat::new(&a, to_bot);
        seat.new_stream(0);
        let asked = seat.on_request(&request(1)).await.unwrap();
        assert!(matches!(asked, Step::Next), "{asked:?}");
        let Some(ToBot::Ask(ask)) = speaker.recv().await else {
            panic!("the request is put to the bot")
        };
        assert!(
            ask.line
                .starts_with(r#"{"type":"request","table":"t1","seat":2,"request_id":1,"#)
        );
        // The same request again on the same stream: already asked.
        assert!(matches!(
            seat.on_request(&request(1)).await.unwrap(),
            Step::Next
        ));
        ask.answers.send((1, "3\n".into())).await.unwrap();
        let sent = seat
            .answered()
            .await
            .and_then(|m| answered_with(Step::Send(m)));
        assert_eq!(sent, Some((1, pb::answer::Choice::Index(3))));
        // The stream is cut before the referee took the answer: it sends
        // the request again on the new stream, answered from the bot's line.
        seat.new_stream(1);
        let again = answered_with(seat.on_request(&request(1)).await.unwrap());
        assert_eq!(again, Some((1, pb::answer::Choice::Index(3))));
        assert!(matches!(
            seat.on_request(&request(1)).await.unwrap(),
            Step::Next
        ));
        assert!(speaker.try_recv().is_err(), "the bot is not asked again");
        // A new request is the bot's to answer.
        assert!(matches!(
            seat.on_request(&request(2)).await.unwrap(),
            Step::Next
        ));
        assert!(matches!(speaker.recv().await, Some(ToBot::Ask(a)) if a.request_id == 2));
    }

    #[tokio::test]
    async fn a_seat_whose_bot_is_gone_ends() {
        let (to_bot, speaker) = mpsc::channel(8);
        let mut seat = BridgedSeat::new(&pb::SeatAssignment::default(), to_bot);
        drop(speaker);
        assert!(matches!(
            seat.on_request(&request(1)).await.unwrap(),
            Step::End
        ));
        let event = seat.on_event(&pb::Event::default()).await.unwrap();
        assert!(matches!(event, Step::End));
    }

    #[test]
    fn a_number_is_an_index_and_anything_else_text() {
        assert_eq!(choice("3\n"), pb::answer::Choice::Index(3));
        assert_eq!(choice(" 0 "), pb::answer::Choice::Index(0));
        assert_eq!(choice("bid 7D"), pb::answer::Choice::Text("bid 7D".into()));
        assert_eq!(choice("-1"), pb::answer::Choice::Text("-1".into()));
        assert_eq!(
            choice("99999999999"),
            pb::answer::Choice::Text("99999999999".into())
        );
        assert_eq!(choice(""), pb::answer::Choice::Text(String::new()));
    }
}
