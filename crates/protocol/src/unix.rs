//! A gRPC connection over a Unix stream socket that wakes its reader only
//! for something to read.
//!
//! Tokio watches a socket for reading and writing at once. On a Unix
//! socket that costs a wake-up for every message the peer reads: the
//! kernel tells the sender that it has room again (`unix_write_space`)
//! each time the receiver takes a message out, so a bot that answered, and
//! went back to waiting for its next request, was woken up again the
//! moment the referee read the answer, only to find nothing to do, and the
//! referee was woken so by every request the bot read. In the sandboxed
//! demo that was a second sleep and wake-up of the bot for each of its
//! decisions (docs/benchmarks.md). [`UnixConn`] is watched for reading
//! only; a write goes straight to the socket, and only one that finds the
//! socket full (its peer not reading) waits for room, on a registration of
//! its own that ends with the write.

use std::{
    io::{self, Read, Write},
    os::{fd::OwnedFd, unix::net::UnixStream},
    path::Path,
    pin::Pin,
    task::{Context, Poll, ready},
};

use tokio::io::{
    AsyncRead, AsyncWrite, Interest, ReadBuf,
    unix::{AsyncFd, AsyncFdReadyGuard},
};

/// At most this many bytes of a read buffer are made ready (zeroed) for one
/// read: hyper offers up to hundreds of KiB; a request is far smaller.
const READ_AT_MOST: usize = 64 * 1024;

/// A connected Unix stream socket, watched for reading only (see the
/// module's documentation).
#[derive(Debug)]
pub struct UnixConn {
    socket: AsyncFd<UnixStream>,
    /// A duplicate of the socket watched for room to write, only while a
    /// write waits for it.
    room: Option<AsyncFd<OwnedFd>>,
}

impl UnixConn {
    /// Connects to the socket at `path`.
    ///
    /// # Errors
    /// If it cannot be reached.
    pub async fn connect(path: impl AsRef<Path>) -> io::Result<UnixConn> {
        UnixConn::new(tokio::net::UnixStream::connect(path).await?)
    }

    /// Takes over a connected stream (e.g. an accepted one).
    ///
    /// # Errors
    /// If the runtime cannot watch it.
    pub fn new(stream: tokio::net::UnixStream) -> io::Result<UnixConn> {
        let socket = stream.into_std()?;
        socket.set_nonblocking(true)?;
        Ok(UnixConn {
            socket: watched(socket, Interest::READABLE)?,
            room: None,
        })
    }

    /// Writes with `write` as soon as the socket takes it, waiting for room
    /// on a registration of its own where it is full.
    fn poll_with(
        &mut self,
        cx: &mut Context<'_>,
        mut write: impl FnMut(&UnixStream) -> io::Result<usize>,
    ) -> Poll<io::Result<usize>> {
        loop {
            match write(self.socket.get_ref()) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                done => {
                    // Room again: no wake-up for it from now on.
                    self.room = None;
                    return Poll::Ready(done);
                }
            }
            let room = match &mut self.room {
                Some(r) => r,
                None => {
                    let dup = self.socket.get_ref().try_clone()?;
                    self.room
                        .insert(watched(OwnedFd::from(dup), Interest::WRITABLE)?)
                }
            };
            let mut guard: AsyncFdReadyGuard<'_, OwnedFd> = ready!(room.poll_write_ready(cx))?;
            // Readiness seen: try the write again; if it still finds no
            // room, the next look waits for a new edge.
            guard.clear_ready();
        }
    }
}

/// `fd` watched by the runtime for `interest`. Tokio's safe constructor is
/// deprecated because a type may close or change the descriptor it
/// answers while the runtime still watches it; a `UnixStream` or an
/// `OwnedFd` owns its descriptor and closes it only when dropped, with the
/// `AsyncFd` (which deregisters it first).
#[allow(deprecated)]
fn watched<T: std::os::fd::AsRawFd>(fd: T, interest: Interest) -> io::Result<AsyncFd<T>> {
    AsyncFd::with_interest(fd, interest)
}

impl AsyncRead for UnixConn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            let mut guard = ready!(this.socket.poll_read_ready(cx))?;
            let n = buf.remaining().min(READ_AT_MOST);
            let unfilled = buf.initialize_unfilled_to(n);
            match guard.try_io(|s| s.get_ref().read(unfilled)) {
                Ok(Ok(read)) => {
                    buf.advance(read);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                // Nothing after all: readiness cleared, wait again.
                Err(_would_block) => {}
            }
        }
    }
}

impl AsyncWrite for UnixConn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().poll_with(cx, |mut s| s.write(buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().poll_with(cx, |mut s| s.write_vectored(bufs))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.socket.get_ref().shutdown(std::net::Shutdown::Write))
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// Bytes both ways, a write that waits for its peer to read (the socket
    /// full), and the end of the stream.
    #[tokio::test]
    async fn carries_bytes_both_ways_and_waits_for_room() {
        let (a, b) = tokio::net::UnixStream::pair().unwrap();
        let (mut a, mut b) = (UnixConn::new(a).unwrap(), UnixConn::new(b).unwrap());
        a.write_all(b"hello").await.unwrap();
        let mut got = [0u8; 5];
        b.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"hello");
        // Far more than a Unix socket holds: the writer must wait for the
        // reader, several times.
        let big: Vec<u8> = (0..8 << 20).map(|i: u32| (i % 251) as u8).collect();
        let sent = big.clone();
        let writer = tokio::spawn(async move {
            a.write_all(&sent).await.unwrap();
            a.shutdown().await.unwrap();
            a
        });
        let mut back = Vec::new();
        b.read_to_end(&mut back).await.unwrap();
        assert!(back == big, "the bytes arrived in order, all of them");
        let a = writer.await.unwrap();
        assert!(a.room.is_none(), "no registration for room is kept");
    }

    /// A connection by path, and a peer that goes away: the read sees the
    /// end, the write an error.
    #[tokio::test]
    async fn connects_by_path_and_sees_its_peer_go() {
        let dir = std::env::temp_dir().join(format!("whistle-unixconn-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let listener = tokio::net::UnixListener::bind(&dir).unwrap();
        let (client, accepted) = tokio::join!(UnixConn::connect(&dir), listener.accept());
        let (mut client, (server, _)) = (client.unwrap(), accepted.unwrap());
        drop(server);
        let mut buf = [0u8; 8];
        assert_eq!(client.read(&mut buf).await.unwrap(), 0);
        let mut failed = false;
        for _ in 0..4 {
            if client.write_all(b"anyone?").await.is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed, "writing to a closed peer fails");
        let _ = std::fs::remove_file(&dir);
    }
}
