//! The referee's connections before they are trusted: a deadline on the
//! whole handshake, and a bound on streams that have not said Hello.
//!
//! A connection must carry its first gRPC request (for a bot, the `Play`
//! or `Subscribe` call) within the handshake timeout: a TCP connection, a
//! TLS handshake, the HTTP/2 preface and settings, a request's headers. One
//! that sends a byte, half a preface or a TLS hello and then stalls is
//! closed when the deadline passes. [`Greeted`] is the marker the server
//! sets (see [`mark_greeted`]) when a request reaches it.

use std::{
    collections::HashMap,
    future::Future,
    io,
    net::{IpAddr, SocketAddr},
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
    time::{Duration, Instant},
};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tonic::transport::server::{Connected, TlsConnectInfo};
use tracing::warn;

/// How many lines of one kind a minute the log shows one by one, for
/// what a bot can cause over and over: connections closed at the handshake
/// timeout, `Play` streams refused. A bot opening idle connections or
/// streams in a loop (thousands a second, from its processes) must not
/// flood the organiser's terminal. The rest are counted, and said in one
/// line when the kind's next minute begins.
const SHOWN_A_MINUTE: u32 = 5;

/// The current minute of one kind of line: when it began, how many lines
/// it showed and how many it only counted.
struct Minute {
    since: Instant,
    shown: u32,
    counted: u64,
}

static MINUTES: Mutex<Vec<(&str, Minute)>> = Mutex::new(Vec::new());

/// Runs `say` (which logs one line of `kind`) at most [`SHOWN_A_MINUTE`]
/// times a minute; past that, one line says that the rest of the minute's
/// lines of `kind` are counted, and the count is logged when the kind's
/// next minute begins.
pub(crate) fn say_limited(kind: &'static str, say: impl FnOnce()) {
    let now = Instant::now();
    // A poisoned lock only loses counts: the state is plain numbers.
    let mut minutes = MINUTES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let at = match minutes.iter().position(|(k, _)| *k == kind) {
        Some(at) => at,
        None => {
            minutes.push((
                kind,
                Minute {
                    since: now,
                    shown: 0,
                    counted: 0,
                },
            ));
            minutes.len() - 1
        }
    };
    let minute = &mut minutes[at].1;
    if now.duration_since(minute.since) >= Duration::from_secs(60) {
        if minute.counted > 0 {
            warn!(
                count = minute.counted,
                "{kind}: more in the last minute than were shown"
            );
        }
        *minute = Minute {
            since: now,
            shown: 0,
            counted: 0,
        };
    }
    if minute.shown < SHOWN_A_MINUTE {
        minute.shown += 1;
        drop(minutes);
        say();
    } else {
        minute.counted += 1;
        if minute.counted == 1 {
            warn!("{kind}: more this minute, counted and not each shown");
        }
    }
}

/// What the server knows of a connection: the peer, and whether a request
/// arrived on it.
#[derive(Debug, Clone)]
pub struct Greeted {
    /// The peer's address (`None` on a Unix socket).
    pub peer: Option<SocketAddr>,
    done: Arc<AtomicBool>,
}

impl Greeted {
    /// The peer as a log shows it.
    pub fn shown(&self) -> String {
        self.peer
            .map_or_else(|| "unix".to_string(), |a| a.to_string())
    }
}

/// A connection with a deadline on its handshake.
pub struct Deadline<S> {
    inner: S,
    info: Greeted,
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
    limit: Duration,
}

impl<S> Deadline<S> {
    /// `inner`, closed if no request arrives on it within `limit`.
    pub fn new(inner: S, peer: Option<SocketAddr>, limit: Duration) -> Deadline<S> {
        Deadline {
            inner,
            info: Greeted {
                peer,
                done: Arc::new(AtomicBool::new(false)),
            },
            deadline: Some(Box::pin(tokio::time::sleep(limit))),
            limit,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Deadline<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.info.done.load(Ordering::Relaxed) {
            this.deadline = None;
        }
        if let Some(d) = &mut this.deadline {
            if d.as_mut().poll(cx).is_ready() {
                this.deadline = None;
                let (peer, limit_ms) = (this.info.shown(), this.limit.as_millis() as u64);
                say_limited("connection closed at the handshake timeout", || {
                    warn!(
                        %peer,
                        limit_ms,
                        "connection made no request within the handshake timeout; closed"
                    );
                });
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no request within the handshake timeout",
                )));
            }
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Deadline<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

impl<S> Connected for Deadline<S> {
    type ConnectInfo = Greeted;

    fn connect_info(&self) -> Greeted {
        self.info.clone()
    }
}

/// The connection a request came on (plain or TLS).
pub fn greeted<B>(req: &tonic::codegen::http::Request<B>) -> Option<&Greeted> {
    let ext = req.extensions();
    ext.get::<Greeted>().or_else(|| {
        ext.get::<TlsConnectInfo<Greeted>>()
            .map(TlsConnectInfo::get_ref)
    })
}

/// The peer of a request, as a log shows it.
pub fn peer<T>(req: &tonic::Request<T>) -> String {
    let ext = req.extensions();
    ext.get::<Greeted>()
        .or_else(|| {
            ext.get::<TlsConnectInfo<Greeted>>()
                .map(TlsConnectInfo::get_ref)
        })
        .map_or_else(|| "unknown".to_string(), Greeted::shown)
}

/// The peer's address without its port: whom pending streams count against.
pub fn peer_host<T>(req: &tonic::Request<T>) -> Option<IpAddr> {
    let ext = req.extensions();
    ext.get::<Greeted>()
        .or_else(|| {
            ext.get::<TlsConnectInfo<Greeted>>()
                .map(TlsConnectInfo::get_ref)
        })
        .and_then(|g| g.peer)
        .map(|a| a.ip())
}

/// Called for every request the server receives (as its trace hook): the
/// connection it came on has finished its handshake.
pub fn mark_greeted<B>(req: &tonic::codegen::http::Request<B>) -> tracing::Span {
    if let Some(g) = greeted(req) {
        g.done.store(true, Ordering::Relaxed);
    }
    tracing::Span::none()
}

/// Streams of each peer that have not said Hello yet, bounded.
#[derive(Debug, Default)]
pub struct Pending {
    counts: Mutex<HashMap<Option<IpAddr>, usize>>,
}

/// One pending stream; it stops counting when dropped.
pub struct PendingStream<'a> {
    pending: &'a Pending,
    host: Option<IpAddr>,
}

impl Pending {
    /// Counts a new stream of `host`, or refuses it if `host` has `max`
    /// pending already.
    pub fn enter(&self, host: Option<IpAddr>, max: usize) -> Option<PendingStream<'_>> {
        let mut c = self.counts.lock().expect("pending counts");
        let n = c.entry(host).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(PendingStream {
            pending: self,
            host,
        })
    }
}

impl Drop for PendingStream<'_> {
    fn drop(&mut self) {
        let mut c = self.pending.counts.lock().expect("pending counts");
        if let Some(n) = c.get_mut(&self.host) {
            *n -= 1;
            if *n == 0 {
                c.remove(&self.host);
            }
        }
    }
}
