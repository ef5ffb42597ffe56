//! `badbot`: a bot process that misbehaves on purpose, one way per `--mode`,
//! for the end-to-end fault tests (the idea of fastchess's `scripted_result`).
//!
//! It follows the launch contract of every bot (docs/protocol.md): the
//! referee's address and the seat token come from `WHISTLE_ADDRESS` and
//! `WHISTLE_TOKEN` (or `--address`, `--token`); it calls `Subscribe` with the
//! token and plays the seat assigned. Where its mode allows it plays
//! correctly (a seeded random legal action), so the match goes on.
//!
//! Modes (the misbehaviour starts at request `--at` and happens `--count`
//! times unless said otherwise):
//!
//! | mode          | what it does                                                        |
//! |---------------|---------------------------------------------------------------------|
//! | `slow`        | answers after the request's allowance and bank have run out         |
//! | `silent`      | never answers (always, whatever `--count`)                          |
//! | `illegal`     | answers by text a card that is not in its hand                      |
//! | `garbage`     | answers text that is no action at all                               |
//! | `out-of-turn` | on its first Welcome, sends `--count` answers to ids never issued   |
//! | `stale`       | answers its previous request again before answering the new one     |
//! | `wrong-token` | says Hello with a token the referee never issued (exits non-zero)   |
//! | `other-seat`  | after its first answer also plays `--other-token`'s seat            |
//! | `disconnect`  | drops its connection on a request, stays away `--away-ms`, resumes  |
//! | `flood`       | on the first Welcome, sends `--flood` answers at once; reconnects   |
//! | `huge`        | answers a 10 MB text (over the message limit); reconnects           |
//! | `long-garbage`| answers a 50 kB text that is no action (under the message limit)   |
//! | `half-close`  | closes its side of the stream on a request; reconnects             |
//! | `resync-flood`| a compact stream: sends `--flood` Resyncs on a request; reconnects  |
//!
//! It reports what it sees and does on stdout, one line each, for the tests
//! to read: `assigned table=T seat=S`, `welcome seat=S resumed=B`,
//! `request seat=S id=N whole=B` (B: the whole observation came), `fault seat=S kind=K id=N faults=F forfeited=B`
//! (K as in the proto), `refused seat=S code=C message=M` (Play refused),
//! `status seat=S code=C message=M` (a stream ended by the referee),
//! `late answer id=N`, `drop seat=S id=N`, `reconnect seat=S`,
//! `end seat=S totals=[..]`. Exit code 0 once every seat it played got its
//! MatchEnd, 1 otherwise, 2 for a usage error.

use std::{future::Future, pin::Pin, process::ExitCode, time::Duration};

use clap::{Parser, ValueEnum};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, transport::Channel};
use whistle_bot::{
    Bot, RandomBot,
    client::{Launch, channel},
};
use whistle_protocol::{PROTOCOL, compact::Rebuilder, convert, pb};
use whistle_rules::{
    Card, CardSet,
    dealing::{Domain, Seed},
    decks,
};

/// How to misbehave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Mode {
    Slow,
    Silent,
    Illegal,
    Garbage,
    OutOfTurn,
    Stale,
    WrongToken,
    OtherSeat,
    Disconnect,
    Flood,
    Huge,
    LongGarbage,
    HalfClose,
    ResyncFlood,
}

/// A bot that misbehaves on purpose (for the end-to-end tests).
#[derive(Debug, Clone, Parser)]
#[command(name = "badbot")]
struct Args {
    /// The way to misbehave.
    #[arg(long, value_enum)]
    mode: Mode,
    /// How many times to misbehave.
    #[arg(long, default_value_t = 1)]
    count: u32,
    /// The request (counted from 1) at which misbehaving starts.
    #[arg(long, default_value_t = 1)]
    at: u32,
    /// `disconnect`: how long to stay away, in milliseconds.
    #[arg(long, default_value_t = 50)]
    away_ms: u64,
    /// `flood`: how many messages to send at once.
    #[arg(long, default_value_t = 5000)]
    flood: u32,
    /// `other-seat`: the token of the seat to take over.
    #[arg(long, env = "WHISTLE_OTHER_TOKEN")]
    other_token: Option<String>,
    /// Seed of the random choices made when behaving.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The referee's address (default: $WHISTLE_ADDRESS).
    #[arg(long)]
    address: Option<String>,
    /// The seat token (default: $WHISTLE_TOKEN).
    #[arg(long)]
    token: Option<String>,
}

/// Ids that no request ever has (the referee counts from 1).
const UNKNOWN_ID: u64 = 1 << 40;

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let launch = match Launch::resolve(args.address.clone(), args.token.clone(), "badbot") {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.mode == Mode::OtherSeat && args.other_token.is_none() {
        eprintln!("error: --mode other-seat needs --other-token or WHISTLE_OTHER_TOKEN");
        return ExitCode::from(2);
    }
    match run(args, launch).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("error {e}");
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args, launch: Launch) -> Result<(), String> {
    let ch = channel(&launch.address).await.map_err(|e| e.to_string())?;
    let mut assignments = pb::referee_client::RefereeClient::new(ch.clone())
        .subscribe(pb::SubscribeRequest {
            token: launch.token.clone(),
            bot_name: launch.bot_name.clone(),
        })
        .await
        .map_err(|s| format!("subscribe: {:?}: {}", s.code(), s.message()))?
        .into_inner();
    let a = assignments
        .message()
        .await
        .map_err(|s| format!("subscribe: {:?}: {}", s.code(), s.message()))?
        .ok_or("no seat assigned")?;
    println!("assigned table={} seat={}", a.table_id, a.seat);
    let token = match args.mode {
        Mode::WrongToken => format!("{}-forged", a.seat_token),
        _ => a.seat_token.clone(),
    };
    let seed = Seed::from_u64(args.seed);
    let mut me = Player {
        label: a.seat.to_string(),
        mode: Some(args.mode),
        address: launch.address.clone(),
        channel: ch,
        token,
        bot: Box::new(RandomBot::new(seed.derive(Domain::Bot, 0))),
        requests: 0,
        misbehaved: 0,
        last_answered: None,
        flooded: false,
        rebuilder: Rebuilder::new(),
        other: args
            .other_token
            .clone()
            .map(|t| (t, seed.derive(Domain::Bot, 1))),
        helpers: tokio::task::JoinSet::new(),
        args,
    };
    let mine = me.play().await;
    let mut result = mine;
    while let Some(joined) = me.helpers.join_next().await {
        let r = joined.map_err(|e| e.to_string()).and_then(|r| r);
        if result.is_ok() {
            result = r;
        }
    }
    result
}

/// One seat played by this process.
struct Player {
    label: String,
    /// `None`: behaves.
    mode: Option<Mode>,
    args: Args,
    address: String,
    channel: Channel,
    token: String,
    bot: Box<dyn Bot>,
    requests: u32,
    misbehaved: u32,
    last_answered: Option<u64>,
    flooded: bool,
    /// The whole observation, rebuilt from compact requests.
    rebuilder: Rebuilder,
    /// `other-seat`: the token to take over and the seed of its bot.
    other: Option<(String, Seed)>,
    helpers: tokio::task::JoinSet<Result<(), String>>,
}

/// How one Play stream ended.
enum Ended {
    MatchEnd,
    /// This bot dropped it on purpose.
    Dropped,
    /// The referee ended it with a status.
    Status(tonic::Status),
    /// It ended without MatchEnd or status.
    Eof,
}

impl Player {
    async fn play(&mut self) -> Result<(), String> {
        loop {
            match self.stream().await? {
                Ended::MatchEnd => return Ok(()),
                Ended::Dropped => {
                    tokio::time::sleep(Duration::from_millis(self.args.away_ms)).await;
                    // A fresh connection, as a restarted process would make.
                    self.channel = channel(&self.address).await.map_err(|e| e.to_string())?;
                    println!("reconnect seat={}", self.label);
                }
                Ended::Status(s)
                    if s.code() == Code::ResourceExhausted
                        || s.code() == Code::OutOfRange
                        || (s.code() == Code::Aborted && self.mode == Some(Mode::HalfClose)) =>
                {
                    println!("reconnect seat={}", self.label);
                }
                Ended::Status(s) => {
                    return Err(format!("stream ended: {:?}: {}", s.code(), s.message()));
                }
                Ended::Eof => return Err("the stream ended without MatchEnd".into()),
            }
        }
    }

    fn misbehaving(&self) -> bool {
        self.requests >= self.args.at && self.misbehaved < self.args.count
    }

    async fn stream(&mut self) -> Result<Ended, String> {
        let (tx, rx) = mpsc::channel(self.args.flood as usize + 64);
        let hello = pb::BotMessage {
            msg: Some(pb::bot_message::Msg::Hello(pb::Hello {
                token: self.token.clone(),
                bot_name: "badbot".into(),
                protocol: PROTOCOL.into(),
                quiet: false,
                compact: self.mode == Some(Mode::ResyncFlood),
                binary: false,
            })),
        };
        tx.send(hello).await.map_err(|e| e.to_string())?;
        // A new stream starts with a whole observation, and its requests are
        // answered anew (a pending one comes again after a reconnection).
        self.rebuilder = Rebuilder::new();
        if self.mode == Some(Mode::ResyncFlood) {
            self.last_answered = None;
        }
        let mut tx = Some(tx);
        let mut inbound = pb::referee_client::RefereeClient::new(self.channel.clone())
            .play(ReceiverStream::new(rx))
            .await
            .map_err(|s| {
                println!(
                    "refused seat={} code={:?} message={}",
                    self.label,
                    s.code(),
                    s.message()
                );
                format!("refused: {:?}: {}", s.code(), s.message())
            })?
            .into_inner();
        loop {
            let msg = match inbound.message().await {
                Ok(Some(m)) => m,
                Ok(None) => return Ok(Ended::Eof),
                Err(s) => {
                    println!(
                        "status seat={} code={:?} message={}",
                        self.label,
                        s.code(),
                        s.message()
                    );
                    return Ok(Ended::Status(s));
                }
            };
            use pb::referee_message::Msg;
            match msg.msg {
                Some(Msg::Welcome(w)) => {
                    self.label = w.seat.to_string();
                    println!("welcome seat={} resumed={}", w.seat, w.resumed);
                    if let Some(tx) = &tx {
                        self.on_welcome(tx).await?;
                    }
                }
                Some(Msg::Request(r)) => {
                    self.requests += 1;
                    println!(
                        "request seat={} id={} whole={}",
                        self.label,
                        r.request_id,
                        r.observation.is_some()
                    );
                    if self.mode == Some(Mode::HalfClose) && self.misbehaving() {
                        // Close our side; the referee ends its side too.
                        self.misbehaved += 1;
                        println!("half-close seat={} id={}", self.label, r.request_id);
                        tx = None;
                        continue;
                    }
                    let Some(sender) = &tx else { continue };
                    if self.on_request(sender, &r).await? {
                        return Ok(Ended::Dropped);
                    }
                }
                Some(Msg::Fault(f)) => {
                    let kind = pb::fault::Kind::try_from(f.kind)
                        .map(|k| k.as_str_name())
                        .unwrap_or("?");
                    println!(
                        "fault seat={} kind={kind} id={} faults={} forfeited={}",
                        self.label, f.request_id, f.faults, f.forfeited
                    );
                }
                Some(Msg::MatchEnd(e)) => {
                    let totals = e.result.map(|r| r.totals).unwrap_or_default();
                    println!("end seat={} totals={totals:?}", self.label);
                    return Ok(Ended::MatchEnd);
                }
                Some(Msg::Event(_)) | None => {}
            }
        }
    }

    async fn on_welcome(&mut self, tx: &mpsc::Sender<pb::BotMessage>) -> Result<(), String> {
        match self.mode {
            Some(Mode::OutOfTurn) if self.misbehaved < self.args.count => {
                for i in 0..self.args.count {
                    send(tx, UNKNOWN_ID + u64::from(i), choice_index(0)).await?;
                }
                self.misbehaved = self.args.count;
            }
            Some(Mode::Flood) if !self.flooded => {
                self.flooded = true;
                for i in 0..self.args.flood {
                    if tx
                        .send(answer(UNKNOWN_ID + u64::from(i), choice_index(0)))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The bot's choice for `r`, as an index into its legal actions.
    fn choose(&mut self, r: &pb::DecisionRequest) -> Result<u32, String> {
        let obs = self.rebuilder.update(r).map_err(|e| e.to_string())?;
        let legal = convert::legal_from(&r.legal).map_err(|e| e.to_string())?;
        Ok(self.bot.choose(obs, &legal) as u32)
    }

    /// Handles a request; returns true to drop the stream.
    async fn on_request(
        &mut self,
        tx: &mpsc::Sender<pb::BotMessage>,
        r: &pb::DecisionRequest,
    ) -> Result<bool, String> {
        let bad = self.misbehaving();
        if self.mode == Some(Mode::ResyncFlood) && self.last_answered == Some(r.request_id) {
            // The same request again, sent for a Resync: already answered.
            self.rebuilder.update(r).map_err(|e| e.to_string())?;
            return Ok(false);
        }
        match self.mode {
            Some(Mode::Silent) => return Ok(false),
            Some(Mode::ResyncFlood) if bad => {
                self.misbehaved += 1;
                println!("resync-flood seat={} id={}", self.label, r.request_id);
                for _ in 0..self.args.flood {
                    let resync = pb::BotMessage {
                        msg: Some(pb::bot_message::Msg::Resync(pb::Resync {})),
                    };
                    if tx.send(resync).await.is_err() {
                        break;
                    }
                }
            }
            Some(Mode::Slow) if bad => {
                // Answer once the allowance and the bank have run out, and
                // meanwhile go on reading (and answering later requests).
                self.misbehaved += 1;
                let index = self.choose(r)?;
                let wait = Duration::from_millis(r.deadline_ms + r.time_bank_ms + 50);
                let (tx, id) = (tx.clone(), r.request_id);
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    println!("late answer id={id}");
                    let _ = send(&tx, id, choice_index(index)).await;
                });
                return Ok(false);
            }
            Some(Mode::Illegal) if bad => {
                self.misbehaved += 1;
                let card = card_not_in_hand(r)?;
                send(tx, r.request_id, choice_text(card.to_string())).await?;
                return Ok(false);
            }
            Some(Mode::Garbage) if bad => {
                self.misbehaved += 1;
                send(tx, r.request_id, choice_text("#!garbage%".into())).await?;
                return Ok(false);
            }
            Some(Mode::Huge) if bad => {
                self.misbehaved += 1;
                println!("huge answer id={}", r.request_id);
                send(tx, r.request_id, choice_text("x".repeat(10 << 20))).await?;
                return Ok(false);
            }
            Some(Mode::LongGarbage) if bad => {
                self.misbehaved += 1;
                let text = format!("\n{}", "garbage ".repeat(50_000 / 8));
                send(tx, r.request_id, choice_text(text)).await?;
                return Ok(false);
            }
            Some(Mode::Stale) if bad => {
                if let Some(old) = self.last_answered {
                    self.misbehaved += 1;
                    send(tx, old, choice_index(0)).await?;
                }
            }
            Some(Mode::Disconnect) if bad => {
                self.misbehaved += 1;
                println!("drop seat={} id={}", self.label, r.request_id);
                return Ok(true);
            }
            _ => {}
        }
        let index = self.choose(r)?;
        send(tx, r.request_id, choice_index(index)).await?;
        self.last_answered = Some(r.request_id);
        if let Some((token, seed)) = self.other.take() {
            // Take over the other seat on a stream of its own, and play it well.
            let other = Player {
                label: "other".into(),
                mode: None,
                args: Args {
                    other_token: None,
                    ..self.args.clone()
                },
                address: self.address.clone(),
                channel: self.channel.clone(),
                token,
                bot: Box::new(RandomBot::new(seed)),
                requests: 0,
                misbehaved: 0,
                last_answered: None,
                flooded: false,
                rebuilder: Rebuilder::new(),
                other: None,
                helpers: tokio::task::JoinSet::new(),
            };
            self.helpers.spawn(boxed_play(other));
        }
        Ok(false)
    }
}

/// `other.play()` as a boxed future: the type of `Player::play` refers to
/// itself through `on_request`, and boxing breaks the cycle for `Send`.
fn boxed_play(mut other: Player) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send>> {
    Box::pin(async move { other.play().await })
}

fn card_not_in_hand(r: &pb::DecisionRequest) -> Result<Card, String> {
    let obs = r
        .observation
        .as_ref()
        .ok_or("a request without observation")?;
    let hand: CardSet = obs
        .hand
        .iter()
        .map(|c| c.parse::<Card>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    decks::STANDARD
        .minus(hand)
        .first()
        .ok_or_else(|| "every card is in hand".to_string())
}

fn choice_index(i: u32) -> pb::answer::Choice {
    pb::answer::Choice::Index(i)
}

fn choice_text(t: String) -> pb::answer::Choice {
    pb::answer::Choice::Text(t)
}

fn answer(request_id: u64, choice: pb::answer::Choice) -> pb::BotMessage {
    pb::BotMessage {
        msg: Some(pb::bot_message::Msg::Answer(pb::Answer {
            request_id,
            choice: Some(choice),
        })),
    }
}

async fn send(
    tx: &mpsc::Sender<pb::BotMessage>,
    request_id: u64,
    choice: pb::answer::Choice,
) -> Result<(), String> {
    tx.send(answer(request_id, choice))
        .await
        .map_err(|_| "the stream is closed".to_string())
}
