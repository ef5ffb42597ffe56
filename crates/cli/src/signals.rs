//! Stopping on a signal: the first SIGTERM or Ctrl-C asks the running
//! command to stop cleanly (it drains and flushes); a second one exits at
//! once, with 128 + the signal's number.

use tokio::sync::watch;

/// The exit status of a command that stopped cleanly before its work was
/// done (a tournament that can be resumed): `EX_TEMPFAIL`.
pub const EXIT_INTERRUPTED: u8 = 75;

/// A command stopped by a signal before its work was done; the message says
/// how to continue. Exits with [`EXIT_INTERRUPTED`].
#[derive(Debug)]
pub struct Interrupted(pub String);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Interrupted {}

/// Starts listening for SIGTERM and SIGINT (in the current Tokio runtime);
/// the receiver turns true at the first. `what` names the command in the
/// messages printed.
pub fn stop_on_signals(what: &'static str) -> watch::Receiver<bool> {
    let (tx, rx) = watch::channel(false);
    let mut signals = Signals::new();
    tokio::spawn(async move {
        let first = signals.next().await;
        eprintln!("{what}: {first} received: stopping cleanly (a second signal exits at once)");
        tracing::info!(signal = first.name(), "stopping");
        let _ = tx.send(true);
        let second = signals.next().await;
        eprintln!("{what}: second signal ({second}): exiting at once");
        std::process::exit(128 + second.number());
    });
    rx
}

#[derive(Debug, Clone, Copy)]
enum Signal {
    Interrupt,
    Terminate,
}

impl Signal {
    fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }

    fn number(self) -> i32 {
        match self {
            Signal::Interrupt => 2,
            Signal::Terminate => 15,
        }
    }
}

impl std::fmt::Display for Signal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The signal listeners, made once so that no signal between two waits is
/// missed.
struct Signals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Signals {
                term: signal(SignalKind::terminate()).expect("a SIGTERM handler"),
                int: signal(SignalKind::interrupt()).expect("a SIGINT handler"),
            }
        }
        #[cfg(not(unix))]
        Signals {}
    }

    async fn next(&mut self) -> Signal {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => Signal::Terminate,
                _ = self.int.recv() => Signal::Interrupt,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            Signal::Interrupt
        }
    }
}
