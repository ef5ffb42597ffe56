//! # whistle-protocol
//!
//! The only crate that knows the wire types. `pb` holds the code generated from
//! `proto/whistle/v1/whistle.proto`; `convert` turns engine values into wire
//! messages and decodes bot answers (syntax only: legality is the referee's
//! business, through the engine); `messages` builds what the referee sends on
//! a Play stream; `compact` encodes and rebuilds compact requests; `ids`
//! numbers cards and actions for binary requests; `wire` reads a compact
//! binary request's bytes straight into a bot's observation (and, with
//! `grpc`, is a bot's `Play` codec).
//!
//! Features: `grpc` (default) adds the generated gRPC client and server
//! (`pb::referee_client`, `pb::referee_server`) and with them tonic; without
//! it the crate is the messages, their JSON form and the conversions.

#[cfg(feature = "grpc")]
pub mod codec;
pub mod compact;
pub mod convert;
pub mod ids;
pub mod limits;
pub mod messages;
#[cfg(all(unix, feature = "grpc"))]
pub mod unix;
pub mod wire;

pub use messages::FaultKind;

/// Generated protobuf and gRPC code for package `whistle.v1` (the gRPC
/// client and server with the `grpc` feature).
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod pb {
    // What `tonic::include_proto!` and `include_file_descriptor_set!`
    // expand to, written out so that the messages need no tonic.
    include!(concat!(env!("OUT_DIR"), "/whistle.v1.rs"));
    include!(concat!(env!("OUT_DIR"), "/whistle.v1.serde.rs"));

    /// The encoded file descriptor set, for the gRPC reflection service.
    /// The referee's server of `whistle.v1.Referee`, whose `Play` sends
    /// messages already encoded (`codec::PlayCodec`).
    #[cfg(feature = "grpc")]
    pub mod encoded {
        include!(concat!(env!("OUT_DIR"), "/whistle.v1.Referee.rs"));
    }

    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/whistle_v1_descriptor.bin"));
}

/// The protocol version string bots send in `Hello.protocol`.
pub const PROTOCOL: &str = "whistle.v1";

/// The start of the message of the UNAVAILABLE status that ends every stream
/// when the referee shuts down. A stream ended so is final, unless its
/// `Subscribe` carried the [`LASTING`] header: a bot does not reconnect its
/// seats (their tables are gone), and a lasting bot subscribes again once
/// the referee is back (docs/protocol.md).
pub const SHUTTING_DOWN: &str = "the referee is shutting down";

/// The response header (initial metadata) of a `Subscribe` whose bot
/// outlives the referee's process (a league's bot), with the value `1`: when
/// its stream ends with `UNAVAILABLE` (the referee shutting down, or gone)
/// the bot subscribes again with its bot token, backing off, until the
/// referee is back; it stops only when the stream ends with `OK` (its event
/// is over) or `UNAUTHENTICATED` (it is retired). Without the header a
/// referee going away ends the bot (a tournament's launched bots).
pub const LASTING: &str = "whistle-lasting";
