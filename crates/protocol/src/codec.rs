//! The referee's `Play` stream on the wire: messages the referee encodes
//! itself ([`Encoded`]), written as they are, so that it can build each
//! message in buffers it keeps from one request to the next rather than
//! hand tonic a new message to encode and drop. The bytes are prost's
//! encoding of a `RefereeMessage`, the same as the generated codec writes;
//! bot messages are decoded by prost as before.

use prost::{
    Message,
    bytes::{BufMut, Bytes, BytesMut},
};
use tonic::{
    Status,
    codec::{Codec, EncodeBuf, Encoder},
};
use tonic_prost::ProstDecoder;

use crate::pb;

/// A `RefereeMessage`, encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded(pub Bytes);

impl Encoded {
    /// `msg` encoded, in a buffer of its own (for messages sent once:
    /// welcomes, faults, the match's end).
    pub fn new(msg: &pb::RefereeMessage) -> Encoded {
        Encoded(Bytes::from(msg.encode_to_vec()))
    }

    /// The message again (tests, and a reader of the stream's channel).
    ///
    /// # Errors
    /// prost's, for bytes that are not a `RefereeMessage`.
    pub fn decode(&self) -> Result<pb::RefereeMessage, prost::DecodeError> {
        pb::RefereeMessage::decode(self.0.as_ref())
    }
}

/// Encodes messages into one buffer kept by the stream: each message is
/// split off as [`Encoded`], and once tonic has written (and dropped) the
/// earlier ones the buffer's memory is used again, so that a stream in its
/// steady state allocates nothing to encode.
#[derive(Debug, Default)]
pub struct EncodeBuffer {
    buf: BytesMut,
    /// Where a message is written first: a `Vec` takes prost's byte-by-byte
    /// writes inline (a `BytesMut` makes a call of each), and the message
    /// is then copied into `buf` whole.
    scratch: Vec<u8>,
    /// A request's observation (whole, or a delta's values), written
    /// before the request around it (`write_request`).
    body: Vec<u8>,
}

/// What the buffer asks for when it must grow: room for many compact
/// requests, and little kept per stream (a referee may hold thousands).
const CHUNK: usize = 4 * 1024;

impl EncodeBuffer {
    /// An empty buffer.
    pub fn new() -> EncodeBuffer {
        EncodeBuffer::default()
    }

    /// `msg` encoded.
    pub fn encode(&mut self, msg: &impl Message) -> Encoded {
        self.scratch.clear();
        msg.encode_raw(&mut self.scratch);
        self.split()
    }

    /// A `RefereeMessage` encoded: the same bytes as [`EncodeBuffer::encode`]
    /// writes, a decision request's by `write_request`, with no nested message
    /// measured more than twice.
    pub fn encode_referee(&mut self, msg: &pb::RefereeMessage) -> Encoded {
        self.scratch.clear();
        match &msg.msg {
            Some(pb::referee_message::Msg::Request(r)) => {
                write_request(r, &mut self.scratch, &mut self.body);
            }
            _ => msg.encode_raw(&mut self.scratch),
        }
        self.split()
    }

    /// The message in `scratch`, moved into the stream's buffer.
    fn split(&mut self) -> Encoded {
        let len = self.scratch.len();
        if self.buf.capacity() < len {
            self.buf.reserve(len.max(CHUNK));
        }
        self.buf.extend_from_slice(&self.scratch);
        Encoded(self.buf.split().freeze())
    }
}

/// `RefereeMessage { msg: Request(r) }` written to `out`, byte for byte what
/// prost writes, with no nested message measured more than twice. prost
/// measures a nested message at every level it is nested under, so that a
/// request's seat views, tricks and events (four and five levels down) were
/// measured four and five times over. Here the request's observation
/// (whole, or its delta's values) is written first, into `body`, which
/// gives its length; the request and its delta are then written field by
/// field in tag order (as prost's derive writes them), the observation
/// copied in, and only the messages inside it and the events are left to
/// prost. The compact tests check it against prost on every request of
/// every game, whole and delta, text and binary.
fn write_request(r: &pb::DecisionRequest, out: &mut Vec<u8>, body: &mut Vec<u8>) {
    use prost::encoding::{WireType, encode_key, encode_varint, encoded_len_varint, key_len};
    /// A length-delimited field's size: key, length and body.
    fn nested(tag: u32, len: usize) -> usize {
        key_len(tag) + encoded_len_varint(len as u64) + len
    }
    /// A length-delimited field written: key, length, then `bytes`.
    fn put_nested(tag: u32, bytes: &[u8], out: &mut Vec<u8>) {
        encode_key(tag, WireType::LengthDelimited, out);
        encode_varint(bytes.len() as u64, out);
        out.extend_from_slice(bytes);
    }
    body.clear();
    if let Some(o) = &r.observation {
        o.encode_raw(body);
    }
    let observation = r.observation.as_ref().map(|_| body.len());
    let values = r.delta.as_ref().and_then(|d| d.values.as_ref()).map(|v| {
        let at = body.len();
        v.encode_raw(body);
        at
    });
    let (observation_bytes, values_bytes) = body.split_at(values.unwrap_or(body.len()));
    let delta = r.delta.as_ref().map(|d| {
        let events: usize = d
            .events
            .iter()
            .map(|e| {
                let len = e.encoded_len();
                encoded_len_varint(len as u64) + len
            })
            .sum();
        let len = key_len(1) * d.events.len()
            + events
            + prost::encoding::uint32::encoded_len_packed(2, &d.changed)
            + values.map_or(0, |_| nested(3, values_bytes.len()))
            + if d.tricks_kept != 0 {
                prost::encoding::uint32::encoded_len(4, &d.tricks_kept)
            } else {
                0
            };
        (d, len)
    });
    let len = if r.request_id != 0 {
        prost::encoding::uint64::encoded_len(1, &r.request_id)
    } else {
        0
    } + observation.map_or(0, |o| nested(2, o))
        + prost::encoding::string::encoded_len_repeated(3, &r.legal)
        + if r.deadline_ms != 0 {
            prost::encoding::uint64::encoded_len(4, &r.deadline_ms)
        } else {
            0
        }
        + if r.time_bank_ms != 0 {
            prost::encoding::uint64::encoded_len(5, &r.time_bank_ms)
        } else {
            0
        }
        + delta.as_ref().map_or(0, |&(_, len)| nested(6, len))
        + prost::encoding::uint32::encoded_len_packed(7, &r.legal_ids);
    out.reserve(nested(2, len));
    // `RefereeMessage.request` is field 2.
    encode_key(2, WireType::LengthDelimited, out);
    encode_varint(len as u64, out);
    if r.request_id != 0 {
        prost::encoding::uint64::encode(1, &r.request_id, out);
    }
    if observation.is_some() {
        put_nested(2, observation_bytes, out);
    }
    prost::encoding::string::encode_repeated(3, &r.legal, out);
    if r.deadline_ms != 0 {
        prost::encoding::uint64::encode(4, &r.deadline_ms, out);
    }
    if r.time_bank_ms != 0 {
        prost::encoding::uint64::encode(5, &r.time_bank_ms, out);
    }
    if let Some((d, len)) = delta {
        encode_key(6, WireType::LengthDelimited, out);
        encode_varint(len as u64, out);
        for e in &d.events {
            encode_key(1, WireType::LengthDelimited, out);
            encode_varint(e.encoded_len() as u64, out);
            e.encode_raw(out);
        }
        prost::encoding::uint32::encode_packed(2, &d.changed, out);
        if values.is_some() {
            put_nested(3, values_bytes, out);
        }
        if d.tricks_kept != 0 {
            prost::encoding::uint32::encode(4, &d.tricks_kept, out);
        }
    }
    prost::encoding::uint32::encode_packed(7, &r.legal_ids, out);
}

/// The codec of the referee's `Play` stream: [`Encoded`] messages out,
/// `BotMessage`s in.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlayCodec;

/// Writes an [`Encoded`] message as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct EncodedEncoder;

impl Encoder for EncodedEncoder {
    type Item = Encoded;
    type Error = Status;

    fn encode(&mut self, item: Encoded, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item.0);
        Ok(())
    }
}

impl Codec for PlayCodec {
    type Encode = Encoded;
    type Decode = pb::BotMessage;
    type Encoder = EncodedEncoder;
    type Decoder = ProstDecoder<pb::BotMessage>;

    fn encoder(&mut self) -> EncodedEncoder {
        EncodedEncoder
    }

    fn decoder(&mut self) -> ProstDecoder<pb::BotMessage> {
        ProstDecoder::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_encoded_message_is_prosts_encoding_and_the_buffer_is_used_again() {
        let mut buffer = EncodeBuffer::new();
        let msg = pb::RefereeMessage {
            msg: Some(pb::referee_message::Msg::Request(pb::DecisionRequest {
                request_id: 7,
                legal_ids: vec![1, 2, 3],
                ..Default::default()
            })),
        };
        let first = buffer.encode(&msg);
        assert_eq!(first.0.as_ref(), msg.encode_to_vec().as_slice());
        assert_eq!(first.decode().unwrap(), msg);
        assert_eq!(Encoded::new(&msg), first);
        let at = first.0.as_ptr();
        drop(first);
        // Its reader is done with it: the next message reuses its memory.
        let mut again = buffer.encode(&msg);
        for _ in 0..1000 {
            drop(again);
            again = buffer.encode(&msg);
        }
        assert_eq!(again.0.as_ref(), msg.encode_to_vec().as_slice());
        assert!(
            (again.0.as_ptr() as usize).abs_diff(at as usize) < CHUNK,
            "the buffer moved"
        );
    }
}
