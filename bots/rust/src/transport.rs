//! The gRPC client layer: one seat's `Play` stream, whatever plays the seat.
//!
//! [`play`] sends the `Hello`, hands the referee's messages to a
//! [`SeatHandler`] in order, sends back what the handler answers (at once,
//! or later from elsewhere: [`SeatHandler::answered`]), and when the
//! network cuts the stream opens a new one with the same seat token, which
//! the referee resumes within its grace period. It logs nothing: what is
//! worth saying is the handler's to say, in its own module.
//!
//! The stream is read with `whistle_protocol::wire::BotCodec`: a message
//! that is a lone decision request reaches the handler as its bytes
//! ([`SeatHandler::on_request_wire`], which by default decodes it for
//! [`SeatHandler::on_request`]), every other message decoded as before.
//!
//! The Rust kit's [`Bot`](crate::Bot) adapter (`client`) is one handler; the
//! stdio bridge of `whistle-tournament`, which puts the requests to a
//! program on its stdin, is another. [`play_assignments`] plays every seat a
//! `Subscribe` stream assigns, each in a task of its own.

use std::{fmt, future::Future, time::Duration};

use tokio::{sync::mpsc, task::JoinSet};
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::{Code, Status, transport::Channel};
use whistle_protocol::{
    PROTOCOL, convert, pb,
    wire::{BotCodec, Incoming, WireRequest},
};

/// Why the connection loop stopped.
#[derive(Debug)]
pub enum ClientError {
    /// The address is not a valid URI or cannot be reached.
    Connect(String),
    /// The referee refused or ended a call.
    Status(Status),
    /// The referee sent something that does not decode.
    Decode(convert::DecodeError),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Connect(e) => write!(f, "cannot connect: {e}"),
            ClientError::Status(s) => write!(f, "referee: {} ({:?})", s.message(), s.code()),
            ClientError::Decode(e) => write!(f, "undecodable message from the referee: {e}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// What a seat asks for in its `Hello` (docs/protocol.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HelloOptions {
    /// No events pushed: the seat does not follow them.
    pub quiet: bool,
    /// Requests carry only what changed since the seat's last request.
    pub compact: bool,
    /// Cards and actions as small integers, not their texts.
    pub binary: bool,
}

/// When a seat's stream is opened again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// Only once the seat has been welcomed, and only when the referee's
    /// side ends the stream with a status that may be resumed: a refusal
    /// before any welcome is final, and a send that fails ends the seat
    /// (the Rust kit).
    Welcomed,
    /// Whenever the stream is lost with a status that may be resumed,
    /// welcomed or not; a send that fails counts as the stream cut (the
    /// stdio bridge).
    Always,
}

/// Reconnections of one seat before it is given up.
const RETRIES: u32 = 20;

/// Messages waiting to go to the referee on one stream.
const OUTBOX: usize = 64;

/// What a handler does after one of the referee's messages.
#[derive(Debug)]
pub enum Step {
    /// Nothing to send; the stream goes on.
    Next,
    /// Send this to the referee; the stream goes on.
    Send(pb::BotMessage),
    /// The seat is done with this match: the stream ends here.
    End,
}

/// What plays a seat: the handler of one seat's messages, stream after
/// stream. Each hook runs in the order the referee's messages arrive.
pub trait SeatHandler: Send {
    /// The options of every stream's `Hello`.
    fn hello(&self) -> HelloOptions;

    /// A stream is being opened: `number` 0 first, then one more at each
    /// reconnection.
    fn new_stream(&mut self, number: u32) {
        let _ = number;
    }

    /// The seat is welcomed; `fresh` unless this is a resumed stream of a
    /// match the handler has already been welcomed to.
    fn on_welcome(
        &mut self,
        welcome: &pb::Welcome,
        fresh: bool,
    ) -> impl Future<Output = Result<Step, ClientError>> + Send;

    /// A decision: answer it now ([`Step::Send`]) or later, through
    /// [`SeatHandler::answered`].
    fn on_request(
        &mut self,
        request: &pb::DecisionRequest,
    ) -> impl Future<Output = Result<Step, ClientError>> + Send;

    /// A decision as the bytes of its `DecisionRequest` (a message that
    /// holds that alone). By default it is decoded and handed to
    /// [`SeatHandler::on_request`]; a message that does not decode ends
    /// the stream as it would have ended it undecoded.
    fn on_request_wire(
        &mut self,
        request: &WireRequest,
    ) -> impl Future<Output = Result<Step, ClientError>> + Send {
        async move {
            let request = request.decode().map_err(ClientError::Status)?;
            self.on_request(&request).await
        }
    }

    /// Something the seat may see happened.
    fn on_event(
        &mut self,
        event: &pb::Event,
    ) -> impl Future<Output = Result<Step, ClientError>> + Send;

    /// A fault of the seat.
    fn on_fault(
        &mut self,
        fault: &pb::Fault,
    ) -> impl Future<Output = Result<Step, ClientError>> + Send;

    /// The match is over; the stream ends after this.
    fn on_match_end(
        &mut self,
        end: &pb::MatchEnd,
    ) -> impl Future<Output = Result<(), ClientError>> + Send;

    /// The next message to send that did not come from a hook (an answer
    /// worked out elsewhere), waited for while the referee's messages are;
    /// `None` when there is none to wait for now. By default there never is.
    fn answered(&mut self) -> impl Future<Output = Option<pb::BotMessage>> + Send {
        std::future::pending()
    }

    /// The stream was cut by `status`; the `retries`-th new one opens
    /// after a short wait.
    fn reconnecting(&mut self, status: &Status, retries: u32) {
        let _ = (status, retries);
    }
}

/// The first message of a `Play` stream.
pub fn hello(seat_token: &str, bot_name: &str, options: HelloOptions) -> pb::BotMessage {
    pb::BotMessage {
        msg: Some(pb::bot_message::Msg::Hello(pb::Hello {
            token: seat_token.to_string(),
            bot_name: bot_name.to_string(),
            protocol: PROTOCOL.to_string(),
            quiet: options.quiet,
            compact: options.compact,
            binary: options.binary,
        })),
    }
}

/// The answer to request `request_id`.
pub fn answer(request_id: u64, choice: pb::answer::Choice) -> pb::BotMessage {
    pb::BotMessage {
        msg: Some(pb::bot_message::Msg::Answer(pb::Answer {
            request_id,
            choice: Some(choice),
        })),
    }
}

/// The request to send the whole observation again (a delta came with
/// nothing to apply it to).
pub fn resync() -> pb::BotMessage {
    pb::BotMessage {
        msg: Some(pb::bot_message::Msg::Resync(pb::Resync {})),
    }
}

/// Whether a stream that ended with `code` may be resumed by reconnecting.
pub fn resumable(code: Code) -> bool {
    matches!(
        code,
        Code::Unavailable
            | Code::Unknown
            | Code::Internal
            | Code::Cancelled
            | Code::ResourceExhausted
            | Code::OutOfRange
    )
}

/// Whether `s` says the referee is going away (not the network).
pub fn shutting_down(s: &Status) -> bool {
    s.code() == Code::Unavailable && s.message().starts_with(whistle_protocol::SHUTTING_DOWN)
}

/// Plays one seat with `handler` to the end of its match, reconnecting with
/// the same token when the network cuts the stream, as `resume` allows: at
/// most 20 times, waiting 100 ms longer each time. A referee shutting down
/// is final.
///
/// # Errors
/// [`ClientError`] when the referee refuses the seat or ends its stream for
/// good, or a hook fails.
pub async fn play<H: SeatHandler>(
    channel: Channel,
    seat_token: &str,
    bot_name: &str,
    handler: &mut H,
    resume: Resume,
) -> Result<(), ClientError> {
    let mut welcomed = false;
    let mut retries = 0;
    let mut number = 0u32;
    loop {
        handler.new_stream(number);
        number += 1;
        let hello = hello(seat_token, bot_name, handler.hello());
        let end = stream(channel.clone(), hello, handler, &mut welcomed).await;
        let status = match end {
            StreamEnd::Done => return Ok(()),
            StreamEnd::Closed if resume == Resume::Welcomed => return Ok(()),
            StreamEnd::Closed => Status::cancelled("the stream closed"),
            StreamEnd::Failed(ClientError::Status(s)) => s,
            StreamEnd::Failed(e) => return Err(e),
        };
        let again = resumable(status.code()) && (welcomed || resume == Resume::Always);
        if shutting_down(&status) || !again || retries >= RETRIES {
            return Err(ClientError::Status(status));
        }
        retries += 1;
        handler.reconnecting(&status, retries);
        tokio::time::sleep(Duration::from_millis(100 * u64::from(retries))).await;
    }
}

/// How one stream ended.
enum StreamEnd {
    /// The match ended, the referee closed the stream, or a hook ended it.
    Done,
    /// A message could not be sent: the stream is gone on our side.
    Closed,
    /// The referee's status, or a hook's error.
    Failed(ClientError),
}

/// One `Play` stream, from its `Hello` to its end.
async fn stream<H: SeatHandler>(
    channel: Channel,
    hello: pb::BotMessage,
    handler: &mut H,
    welcomed: &mut bool,
) -> StreamEnd {
    let (tx, rx) = mpsc::channel(OUTBOX);
    if tx.send(hello).await.is_err() {
        return StreamEnd::Closed;
    }
    let mut inbound = match open(channel, ReceiverStream::new(rx)).await {
        Ok(inbound) => inbound.into_inner(),
        Err(s) => return StreamEnd::Failed(ClientError::Status(s)),
    };
    loop {
        let step = tokio::select! {
            msg = inbound.next() => match msg {
                None => return StreamEnd::Done,
                Some(Err(s)) => return StreamEnd::Failed(ClientError::Status(s)),
                Some(Ok(m)) => receive(handler, m, welcomed).await,
            },
            Some(out) = handler.answered() => Ok(Step::Send(out)),
        };
        match step {
            Ok(Step::Next) => {}
            Ok(Step::Send(out)) => {
                if tx.send(out).await.is_err() {
                    return StreamEnd::Closed;
                }
            }
            Ok(Step::End) => return StreamEnd::Done,
            Err(e) => return StreamEnd::Failed(e),
        }
    }
}

/// Calls `Play` as the generated client's `play` does, with [`BotCodec`]:
/// the same messages on the wire, a lone decision request handed over as
/// its bytes.
async fn open(
    channel: Channel,
    outbound: ReceiverStream<pb::BotMessage>,
) -> Result<tonic::Response<tonic::Streaming<Incoming>>, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.map_err(|e| {
        let e: tonic::codegen::StdError = e.into();
        Status::unknown(format!("Service was not ready: {e}"))
    })?;
    let path = tonic::codegen::http::uri::PathAndQuery::from_static("/whistle.v1.Referee/Play");
    let mut request = tonic::Request::new(outbound);
    request
        .extensions_mut()
        .insert(tonic::GrpcMethod::new("whistle.v1.Referee", "Play"));
    grpc.streaming(request, path, BotCodec).await
}

/// Hands one of the referee's messages to the hook of its kind: a lone
/// decision request as its bytes.
async fn receive<H: SeatHandler>(
    handler: &mut H,
    msg: Incoming,
    welcomed: &mut bool,
) -> Result<Step, ClientError> {
    match msg {
        Incoming::Request(r) => handler.on_request_wire(&r).await,
        Incoming::Message(m) => dispatch(handler, *m, welcomed).await,
    }
}

/// Hands one of the referee's messages to the hook of its kind.
async fn dispatch<H: SeatHandler>(
    handler: &mut H,
    msg: pb::RefereeMessage,
    welcomed: &mut bool,
) -> Result<Step, ClientError> {
    use pb::referee_message::Msg;
    match &msg.msg {
        Some(Msg::Welcome(w)) => {
            let fresh = !w.resumed || !*welcomed;
            *welcomed = true;
            handler.on_welcome(w, fresh).await
        }
        Some(Msg::Request(r)) => handler.on_request(r).await,
        Some(Msg::Event(e)) => handler.on_event(e).await,
        Some(Msg::Fault(f)) => handler.on_fault(f).await,
        Some(Msg::MatchEnd(end)) => handler.on_match_end(end).await.map(|()| Step::End),
        None => Ok(Step::Next),
    }
}

/// Plays every seat `assignments` yields, each in a task of its own on
/// `seats` (`play(assignment)`), handing each task's end to `done` as it
/// ends: a process that plays thousands of matches keeps only the live
/// ones. Returns when the assignments end, leaving the seats still playing
/// on `seats`.
///
/// # Errors
/// The status that ended the assignments.
pub async fn play_assignments<T, P, F>(
    assignments: &mut tonic::Streaming<pb::SeatAssignment>,
    seats: &mut JoinSet<T>,
    mut play: P,
    mut done: impl FnMut(Result<T, tokio::task::JoinError>),
) -> Result<(), Status>
where
    T: Send + 'static,
    P: FnMut(pb::SeatAssignment) -> F,
    F: Future<Output = T> + Send + 'static,
{
    loop {
        tokio::select! {
            next = assignments.next() => match next {
                None => return Ok(()),
                Some(Err(s)) => return Err(s),
                Some(Ok(a)) => {
                    seats.spawn(play(a));
                }
            },
            Some(joined) = seats.join_next(), if !seats.is_empty() => done(joined),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Notes the welcomes it gets, and whether each was fresh.
    #[derive(Default)]
    struct Welcomes(Vec<(bool, bool)>);

    impl SeatHandler for Welcomes {
        fn hello(&self) -> HelloOptions {
            HelloOptions {
                quiet: true,
                compact: false,
                binary: false,
            }
        }

        async fn on_welcome(&mut self, w: &pb::Welcome, fresh: bool) -> Result<Step, ClientError> {
            self.0.push((w.resumed, fresh));
            Ok(Step::Next)
        }

        async fn on_request(&mut self, r: &pb::DecisionRequest) -> Result<Step, ClientError> {
            let choice = pb::answer::Choice::Index(0);
            Ok(Step::Send(answer(r.request_id, choice)))
        }

        async fn on_event(&mut self, _: &pb::Event) -> Result<Step, ClientError> {
            Ok(Step::Next)
        }

        async fn on_fault(&mut self, _: &pb::Fault) -> Result<Step, ClientError> {
            Ok(Step::Next)
        }

        async fn on_match_end(&mut self, _: &pb::MatchEnd) -> Result<(), ClientError> {
            Ok(())
        }
    }

    fn message(msg: pb::referee_message::Msg) -> pb::RefereeMessage {
        pb::RefereeMessage { msg: Some(msg) }
    }

    fn welcome(resumed: bool) -> pb::RefereeMessage {
        message(pb::referee_message::Msg::Welcome(pb::Welcome {
            resumed,
            ..pb::Welcome::default()
        }))
    }

    #[tokio::test]
    async fn a_welcome_is_fresh_unless_it_resumes_a_match_already_welcomed() {
        let mut seat = Welcomes::default();
        let mut welcomed = false;
        // A resumed welcome with none before it (the process restarted):
        // the handler has not seen the match yet.
        for resumed in [true, true, false] {
            let step = dispatch(&mut seat, welcome(resumed), &mut welcomed).await;
            assert!(matches!(step, Ok(Step::Next)));
        }
        assert_eq!(seat.0, [(true, true), (true, false), (false, true)]);
        assert!(welcomed);
    }

    #[tokio::test]
    async fn a_request_is_answered_and_the_match_end_ends_the_stream() {
        let mut seat = Welcomes::default();
        let mut welcomed = false;
        let request = message(pb::referee_message::Msg::Request(pb::DecisionRequest {
            request_id: 7,
            ..pb::DecisionRequest::default()
        }));
        match dispatch(&mut seat, request, &mut welcomed).await {
            Ok(Step::Send(pb::BotMessage {
                msg: Some(pb::bot_message::Msg::Answer(a)),
            })) => assert_eq!(a.request_id, 7),
            other => panic!("{other:?}"),
        }
        let end = message(pb::referee_message::Msg::MatchEnd(pb::MatchEnd::default()));
        let step = dispatch(&mut seat, end, &mut welcomed).await;
        assert!(matches!(step, Ok(Step::End)), "{step:?}");
        let empty = dispatch(&mut seat, pb::RefereeMessage { msg: None }, &mut welcomed).await;
        assert!(matches!(empty, Ok(Step::Next)), "{empty:?}");
        assert!(!welcomed && seat.0.is_empty());
    }

    #[test]
    fn only_a_cut_stream_is_resumed_and_never_a_referee_shutting_down() {
        assert!(resumable(Code::Unavailable) && resumable(Code::Cancelled));
        assert!(!resumable(Code::Unauthenticated) && !resumable(Code::NotFound));
        let going = Status::unavailable(whistle_protocol::SHUTTING_DOWN);
        assert!(shutting_down(&going));
        assert!(!shutting_down(&Status::unavailable("connection reset")));
        assert!(!shutting_down(&Status::internal(
            whistle_protocol::SHUTTING_DOWN
        )));
    }
}
