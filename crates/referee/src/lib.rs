//! # whistle-referee
//!
//! The referee: it creates tables (one match each), authenticates seats by
//! token, sends each seat its decision requests and the events it may see,
//! keeps the clocks, applies the fault policy, and records everything. It
//! knows nothing about tournaments: the tournament runner embeds it as a
//! library and bots reach it over gRPC (`proto/whistle/v1/whistle.proto`).
//!
//! Start reading at [`Referee::create_table`] and the `table` module, whose
//! task owns one match.

mod config;
mod conn;
mod outbox;
mod record;
mod referee;
mod table;

pub use config::{Fallback, FaultPolicy, Resume, SeatSpec, TableSpec, TimeControl};
pub use record::{FaultKind, FaultRecord, TableRecord};
pub use referee::{
    AdminService, BotService, CreateError, HANDSHAKE_TIMEOUT, KEEP_FINISHED, LASTING, RETIRED,
    Referee, RefereeConfig, ServerHandle, TableHandle, TlsIdentity, new_token, token_hash,
};
pub use table::{TableSnapshot, TableState};
