//! A seat stream's outgoing messages: what the table's task queues and the
//! `Play` call's response body takes.
//!
//! One writer (the table, through the seat's `Conn`) and one reader (the
//! response body, polled by the transport's task for the stream): a short
//! queue under a lock, with the reader's waker beside it. A tokio channel
//! does the same with a semaphore, a linked list of blocks of slots and an
//! atomic waker; at 64 tables (256 streams) that was a cache line or two of
//! cold memory for every message and more work on both sides.

use std::{
    collections::VecDeque,
    pin::Pin,
    sync::{Arc, Mutex, PoisonError},
    task::{Context, Poll, Waker},
    time::Duration,
};

use tokio::time::Instant;
use tokio_stream::Stream;
use tonic::Status;
use whistle_protocol::codec::Encoded;

/// The status a stream ends with, after its queued messages.
struct End {
    status: Status,
    /// Set when the status was given while the queue was full: it is
    /// delivered only if the reader takes a message before this instant
    /// (a reader that takes nothing by then gets the messages and no
    /// status).
    unless_idle_until: Option<Instant>,
}

struct Shared {
    queue: VecDeque<Encoded>,
    end: Option<End>,
    /// The writer is gone: the stream ends after what is queued.
    closed: bool,
    /// The reader is gone: nothing more is read.
    gone: bool,
    reader: Option<Waker>,
}

impl Shared {
    fn wake(&mut self) {
        if let Some(w) = self.reader.take() {
            w.wake();
        }
    }
}

fn lock(s: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    // A poisoned lock holds a queue still in order: nothing panics while
    // holding it but an allocation failure.
    s.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The writer's half: queues messages, ends the stream; dropping it ends
/// the stream after what is queued.
pub(crate) struct Outbox {
    shared: Arc<Mutex<Shared>>,
    capacity: usize,
}

/// The reader's half: the response body's stream of messages.
pub(crate) struct OutboxStream {
    shared: Arc<Mutex<Shared>>,
}

/// A stream's outbox holding up to `capacity` messages not yet read.
pub(crate) fn outbox(capacity: usize) -> (Outbox, OutboxStream) {
    let shared = Arc::new(Mutex::new(Shared {
        queue: VecDeque::new(),
        end: None,
        closed: false,
        gone: false,
        reader: None,
    }));
    (
        Outbox {
            shared: shared.clone(),
            capacity,
        },
        OutboxStream { shared },
    )
}

impl Outbox {
    /// Queues `msg`; `false` if the queue is full or the reader is gone.
    pub(crate) fn push(&self, msg: Encoded) -> bool {
        let mut s = lock(&self.shared);
        if s.gone || s.queue.len() >= self.capacity {
            return false;
        }
        if s.end.is_none() {
            s.queue.push_back(msg);
            s.wake();
        }
        true
    }

    /// Ends the stream with `status` once the queued messages are read;
    /// `false` (and no status) if the queue is full or the reader is gone.
    pub(crate) fn end(&self, status: Status) -> bool {
        let mut s = lock(&self.shared);
        if s.gone || s.queue.len() >= self.capacity {
            return false;
        }
        if s.end.is_none() {
            s.end = Some(End {
                status,
                unless_idle_until: None,
            });
            s.wake();
        }
        true
    }

    /// Ends the stream of a reader that stopped reading (its queue full):
    /// with `status` after the queued messages if it reads one of them
    /// within `wait`, else with those messages alone.
    pub(crate) fn end_unless_idle(&self, status: Status, wait: Duration) {
        let mut s = lock(&self.shared);
        if s.gone || s.end.is_some() {
            return;
        }
        let unless_idle_until = (s.queue.len() >= self.capacity).then(|| Instant::now() + wait);
        s.end = Some(End {
            status,
            unless_idle_until,
        });
        s.wake();
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        let mut s = lock(&self.shared);
        s.closed = true;
        s.wake();
    }
}

impl Stream for OutboxStream {
    type Item = Result<Encoded, Status>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut s = lock(&self.shared);
        if let Some(msg) = s.queue.pop_front() {
            if let Some(end) = &mut s.end
                && let Some(until) = end.unless_idle_until
            {
                if Instant::now() <= until {
                    end.unless_idle_until = None;
                } else {
                    s.end = None;
                }
            }
            return Poll::Ready(Some(Ok(msg)));
        }
        if let Some(end) = s.end.take() {
            // What follows the status is never read.
            s.closed = true;
            return Poll::Ready(Some(Err(end.status)));
        }
        if s.closed {
            return Poll::Ready(None);
        }
        match &mut s.reader {
            Some(w) if w.will_wake(cx.waker()) => {}
            w => *w = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

impl Drop for OutboxStream {
    fn drop(&mut self) {
        let mut s = lock(&self.shared);
        s.gone = true;
        s.queue.clear();
    }
}

#[cfg(test)]
mod tests {
    use tokio_stream::StreamExt;

    use super::*;

    fn msg(b: u8) -> Encoded {
        Encoded(vec![b].into())
    }

    #[tokio::test]
    async fn messages_then_the_status_then_the_end() {
        let (tx, mut rx) = outbox(2);
        assert!(tx.push(msg(1)));
        assert!(tx.push(msg(2)));
        assert!(!tx.push(msg(3)), "full");
        assert!(!tx.end(Status::aborted("x")), "full: no status");
        assert_eq!(rx.next().await.unwrap().unwrap(), msg(1));
        assert!(tx.end(Status::aborted("x")));
        drop(tx);
        assert_eq!(rx.next().await.unwrap().unwrap(), msg(2));
        assert_eq!(
            rx.next().await.unwrap().unwrap_err().code(),
            tonic::Code::Aborted
        );
        assert!(rx.next().await.is_none());
    }

    #[tokio::test]
    async fn a_dropped_writer_ends_the_stream_after_its_messages() {
        let (tx, mut rx) = outbox(4);
        let reader = tokio::spawn(async move {
            let mut n = 0;
            while let Some(m) = rx.next().await {
                m.unwrap();
                n += 1;
            }
            n
        });
        tokio::task::yield_now().await;
        assert!(tx.push(msg(1)));
        assert!(tx.push(msg(2)));
        drop(tx);
        assert_eq!(reader.await.unwrap(), 2);
    }

    #[tokio::test]
    async fn a_gone_reader_refuses_messages() {
        let (tx, rx) = outbox(4);
        drop(rx);
        assert!(!tx.push(msg(1)));
        assert!(!tx.end(Status::aborted("x")));
    }

    #[tokio::test(start_paused = true)]
    async fn a_reader_that_stopped_gets_the_status_only_if_it_reads_in_time() {
        for (wait_ms, status) in [(1_000, true), (6_000, false)] {
            let (tx, mut rx) = outbox(2);
            assert!(tx.push(msg(1)));
            assert!(tx.push(msg(2)));
            tx.end_unless_idle(Status::resource_exhausted("x"), Duration::from_secs(5));
            drop(tx);
            tokio::time::sleep(Duration::from_millis(wait_ms)).await;
            assert_eq!(rx.next().await.unwrap().unwrap(), msg(1));
            assert_eq!(rx.next().await.unwrap().unwrap(), msg(2));
            match rx.next().await {
                Some(Err(s)) => {
                    assert!(status, "{wait_ms} ms");
                    assert_eq!(s.code(), tonic::Code::ResourceExhausted);
                    assert!(rx.next().await.is_none());
                }
                None => assert!(!status, "{wait_ms} ms"),
                Some(Ok(_)) => panic!("a message after the last"),
            }
        }
    }
}
