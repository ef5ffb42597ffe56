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
        let len = msg.encoded_len();
        if self.buf.capacity() < len {
            self.buf.reserve(len.max(CHUNK));
        }
        // Room was made above: encoding cannot run out of it.
        let _ = msg.encode(&mut self.buf);
        Encoded(self.buf.split().freeze())
    }
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
