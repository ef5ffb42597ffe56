//! # whistle-e2e
//!
//! End-to-end tests of whistle with real processes: the `whistle` binary
//! (`serve`, `table`, `play`), the `whistle-bot` binary, and `badbot`, a
//! scripted misbehaving bot built by this crate (`src/bin/badbot.rs`, in the
//! spirit of fastchess's `scripted_result`). The tests live in `tests/`; this
//! library is their harness:
//!
//! - [`bins`]: where the workspace's binaries are. Cargo only exposes
//!   `CARGO_BIN_EXE_*` for a package's own binaries, so the harness runs
//!   `cargo build -p whistle-cli -p whistle-bot` once per test process, with
//!   the profile and target directory of the test itself; cargo makes that a
//!   no-op when they are fresh, and rebuilds them when their sources changed.
//! - [`process`]: a child process guard that collects the output and kills the
//!   process when dropped, including when a test panics.
//! - [`record`]: reads a table's record and checks it against the engine:
//!   every deal, action, fallback, fault count, hand result and the match
//!   result, replayed in-process.
//!
//! Every wait is time-boxed; synchronisation is on signals (records, lines of
//! output, process exits), never on sleeps.
//!
//! Run them with `cargo test -p whistle-e2e` (or as part of `cargo test
//! --workspace`); about 15 s in a debug build on two cores once built.

pub mod bins;
pub mod process;
pub mod record;
