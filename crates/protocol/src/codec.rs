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

use whistle_rules::{HandResult, Observation, SeatView, TrickView};

use crate::{
    convert::{self, Form, field},
    ids, pb,
};

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
                write_request(r, &mut self.scratch, &mut self.body, |_| false);
            }
            _ => msg.encode_raw(&mut self.scratch),
        }
        self.split()
    }

    /// A `RefereeMessage` holding a decision request encoded, as
    /// [`EncodeBuffer::encode_referee`] does, except that a delta without
    /// values has them written by `values` (the bytes of the
    /// `Observation` they would be): `DeltaEncoder::encode_request`.
    pub(crate) fn encode_request(
        &mut self,
        msg: &pb::RefereeMessage,
        values: impl FnOnce(&mut Vec<u8>),
    ) -> Encoded {
        self.scratch.clear();
        match &msg.msg {
            Some(pb::referee_message::Msg::Request(r)) => {
                write_request(r, &mut self.scratch, &mut self.body, |body| {
                    values(body);
                    true
                });
            }
            _ => msg.encode_raw(&mut self.scratch),
        }
        self.split()
    }

    /// The message in `scratch`, moved into the stream's buffer.
    fn split(&mut self) -> Encoded {
        let len = self.scratch.len();
        // Once the transport has dropped every message split off before,
        // the next one is written at the buffer's start again: a stream
        // keeps writing the same few cache lines rather than walking
        // through its whole chunk (at 64 tables, 256 streams' chunks do
        // not stay in the caches).
        if self.buf.capacity() < CHUNK {
            let _ = self.buf.try_reclaim(CHUNK);
        }
        if self.buf.capacity() < len {
            self.buf.reserve(len.max(CHUNK));
        }
        self.buf.extend_from_slice(&self.scratch);
        Encoded(self.buf.split().freeze())
    }
}

/// `RefereeMessage { msg: Request(r) }` written to `out`, byte for byte what
/// prost writes, with only the request and its delta measured. prost
/// measures a nested message at every level it is nested under, so that a
/// request's seat views, tricks and events (four and five levels down) were
/// measured four and five times over. Here the request's observation
/// (whole), or its delta's events and values, are written first, into
/// `body`, which gives their lengths; their own nested messages (seat
/// views, tricks, notes, actions) are written in one pass each, never
/// measured ([`put_message`]), and only events other than actions are
/// left to prost. The request and its delta are then written field by
/// field in tag order (as prost's derive writes them), `body`'s parts
/// copied in. The compact tests check it against prost on every request of
/// every game, whole and delta, text and binary.
///
/// A delta without values has them written by `values` instead, when it
/// returns `true` (`DeltaEncoder::encode_request`).
fn write_request(
    r: &pb::DecisionRequest,
    out: &mut Vec<u8>,
    body: &mut Vec<u8>,
    values: impl FnOnce(&mut Vec<u8>) -> bool,
) {
    use prost::encoding::{encoded_len_varint, key_len};
    /// A length-delimited field's size: key, length and body.
    fn nested(tag: u32, len: usize) -> usize {
        key_len(tag) + encoded_len_varint(len as u64) + len
    }
    /// A length-delimited field written: key, length, then `bytes`.
    fn put_nested(tag: u32, bytes: &[u8], out: &mut Vec<u8>) {
        wire::bytes_field(tag, bytes, out);
    }
    body.clear();
    if let Some(o) = &r.observation {
        write_observation(o, body);
    }
    let observation = r.observation.as_ref().map(|_| body.len());
    // Then the delta's events, each a field of its own (`events` is field
    // 1 of the delta), and its values.
    let events_at = body.len();
    for e in r.delta.iter().flat_map(|d| &d.events) {
        put_message(1, body, |out| write_event(e, out));
    }
    let values_at = body.len();
    let values = match r.delta.as_ref().map(|d| &d.values) {
        Some(Some(v)) => {
            write_observation(v, body);
            Some(())
        }
        Some(None) => values(body).then_some(()),
        None => None,
    };
    let (observation_bytes, rest) = body.split_at(events_at);
    let (events_bytes, values_bytes) = rest.split_at(values_at - events_at);
    let delta = r.delta.as_ref().map(|d| {
        let len = events_bytes.len()
            + prost::encoding::uint32::encoded_len_packed(2, &d.changed)
            + values.map_or(0, |()| nested(3, values_bytes.len()))
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
    wire::key(2, wire::LEN, out);
    wire::varint(len as u64, out);
    if r.request_id != 0 {
        wire::varint_field(1, r.request_id, out);
    }
    if observation.is_some() {
        put_nested(2, observation_bytes, out);
    }
    wire::strings(3, &r.legal, out);
    if r.deadline_ms != 0 {
        wire::varint_field(4, r.deadline_ms, out);
    }
    if r.time_bank_ms != 0 {
        wire::varint_field(5, r.time_bank_ms, out);
    }
    if let Some((d, len)) = delta {
        wire::key(6, wire::LEN, out);
        wire::varint(len as u64, out);
        out.extend_from_slice(events_bytes);
        wire::packed(2, &d.changed, out);
        if values.is_some() {
            put_nested(3, values_bytes, out);
        }
        if d.tricks_kept != 0 {
            wire::varint_field(4, u64::from(d.tricks_kept), out);
        }
    }
    wire::packed(7, &r.legal_ids, out);
}

/// A length-delimited field: its key, then what `body` writes, preceded
/// by its length. The length is written after the body, into a byte kept
/// for it (a body of 128 bytes or more moves over for a longer one), so
/// that no message is measured before it is written: prost measures a
/// nested message, then writes it.
fn put_message(tag: u32, out: &mut Vec<u8>, body: impl FnOnce(&mut Vec<u8>)) {
    wire::key(tag, wire::LEN, out);
    let at = out.len();
    out.push(0);
    body(out);
    let len = out.len() - at - 1;
    if len < 0x80 {
        out[at] = len as u8;
    } else {
        let mut varint = Vec::with_capacity(10);
        wire::varint(len as u64, &mut varint);
        out.splice(at..=at, varint);
    }
}

/// An `Observation`'s fields, byte for byte what prost's `encode_raw`
/// writes (fields in tag order, defaults left out), its nested messages
/// written in one pass ([`put_message`]). The history's events are left
/// to prost (whole observations only, once in a long while).
fn write_observation(o: &pb::Observation, out: &mut Vec<u8>) {
    if !o.game.is_empty() {
        wire::bytes_field(1, o.game.as_bytes(), out);
    }
    if o.seat != 0 {
        wire::varint_field(2, u64::from(o.seat), out);
    }
    if o.seats != 0 {
        wire::varint_field(3, u64::from(o.seats), out);
    }
    if o.deal != 0 {
        wire::varint_field(4, u64::from(o.deal), out);
    }
    if o.dealer != 0 {
        wire::varint_field(5, u64::from(o.dealer), out);
    }
    if o.phase != 0 {
        wire::varint_field(6, i64::from(o.phase) as u64, out);
    }
    wire::packed(7, &o.to_act, out);
    if o.simultaneous {
        wire::varint_field(8, u64::from(o.simultaneous), out);
    }
    wire::strings(9, &o.hand, out);
    for p in &o.players {
        put_message(10, out, |out| write_seat_view(p, out));
    }
    if let Some(t) = &o.trump {
        put_message(11, out, |out| {
            if t.kind != 0 {
                wire::varint_field(1, i64::from(t.kind) as u64, out);
            }
            if !t.suit.is_empty() {
                wire::bytes_field(2, t.suit.as_bytes(), out);
            }
        });
    }
    if let Some(c) = &o.contract {
        put_message(12, out, |out| {
            if c.seat != 0 {
                wire::varint_field(1, u64::from(c.seat), out);
            }
            if !c.action.is_empty() {
                wire::bytes_field(2, c.action.as_bytes(), out);
            }
            if c.action_id != 0 {
                wire::varint_field(3, u64::from(c.action_id), out);
            }
        });
    }
    for t in &o.table {
        put_message(13, out, |out| {
            if !t.label.is_empty() {
                wire::bytes_field(1, t.label.as_bytes(), out);
            }
            if t.has_owner {
                wire::varint_field(2, u64::from(t.has_owner), out);
            }
            if t.owner != 0 {
                wire::varint_field(3, u64::from(t.owner), out);
            }
            if !t.card.is_empty() {
                wire::bytes_field(4, t.card.as_bytes(), out);
            }
            if t.card_id != 0 {
                wire::varint_field(5, u64::from(t.card_id), out);
            }
        });
    }
    for p in &o.piles {
        put_message(14, out, |out| {
            if !p.name.is_empty() {
                wire::bytes_field(1, p.name.as_bytes(), out);
            }
            if p.count != 0 {
                wire::varint_field(2, u64::from(p.count), out);
            }
        });
    }
    if let Some(t) = &o.trick {
        put_message(15, out, |out| write_trick(t, out));
    }
    for t in &o.tricks {
        put_message(16, out, |out| write_trick(t, out));
    }
    prost::encoding::message::encode_repeated(17, &o.history, out);
    for n in &o.notes {
        put_message(18, out, |out| {
            if !n.key.is_empty() {
                wire::bytes_field(1, n.key.as_bytes(), out);
            }
            if !n.value.is_empty() {
                wire::bytes_field(2, n.value.as_bytes(), out);
            }
        });
    }
    wire::packed(19, &o.hand_ids, out);
}

/// A delta's values straight from the engine's observation: the fields
/// of `obs` in `mask` (a bit per field number) and its completed tricks
/// after the first `kept`, byte for byte what `convert::put_field` builds
/// and [`write_observation`] writes (checked on every request of every
/// game). The fields that change with every request (whose turn it is,
/// the hand, the seats, the trick, the notes) are written in place;
/// the others, rare, through a message of their own. `text` holds an
/// action's text while it is written.
pub(crate) fn write_values(
    obs: &Observation,
    mask: u32,
    kept: usize,
    results: &[HandResult],
    form: Form,
    text: &mut String,
    out: &mut Vec<u8>,
) {
    let changes = |f: u32| mask & (1 << f) != 0;
    for f in field::ALL.filter(|&f| changes(f) || f == field::TRICKS) {
        match f {
            field::TO_ACT => {
                wire::packed_iter(7, obs.to_act.iter().map(convert::seat), out);
            }
            field::HAND => {
                // Binary: `hand_ids`, field 19, after the others.
                if form == Form::Text {
                    for c in obs.hand.iter() {
                        wire::bytes_field(9, c.text().as_bytes(), out);
                    }
                }
            }
            field::PLAYERS => {
                for v in &obs.players {
                    put_message(10, out, |out| write_seat(v, form, text, out));
                }
            }
            field::TRICK => put_message(15, out, |out| write_trick_view(&obs.trick, form, out)),
            field::TRICKS => {
                for t in obs.tricks.iter().skip(kept) {
                    put_message(16, out, |out| write_trick_view(t, form, out));
                }
            }
            field::NOTES => {
                for (k, v) in &obs.notes {
                    put_message(18, out, |out| {
                        if !k.is_empty() {
                            wire::bytes_field(1, k.as_bytes(), out);
                        }
                        if !v.is_empty() {
                            wire::bytes_field(2, v.as_bytes(), out);
                        }
                    });
                }
            }
            _ => {
                let mut one = pb::Observation::default();
                convert::put_field(&mut one, obs, f, results, form);
                write_observation(&one, out);
            }
        }
    }
    if form == Form::Binary && changes(field::HAND) {
        wire::packed_iter(19, obs.hand.iter().map(ids::card_id), out);
    }
}

/// A seat's view as `convert`'s `SeatView` message, written.
fn write_seat(v: &SeatView, form: Form, text: &mut String, out: &mut Vec<u8>) {
    let seat = convert::seat(v.seat);
    if seat != 0 {
        wire::varint_field(1, u64::from(seat), out);
    }
    if v.held != 0 {
        wire::varint_field(2, u64::from(v.held), out);
    }
    if form == Form::Text {
        for c in v.known.iter() {
            wire::bytes_field(3, c.text().as_bytes(), out);
        }
        if let Some(a) = v.bid {
            convert::action_text_into(a, text);
            if !text.is_empty() {
                wire::bytes_field(4, text.as_bytes(), out);
            }
        }
    }
    if v.tricks != 0 {
        wire::varint_field(5, u64::from(v.tricks), out);
    }
    if v.total != 0 {
        wire::varint_field(6, i64::from(v.total) as u64, out);
    }
    if v.team != 0 {
        wire::varint_field(7, u64::from(v.team), out);
    }
    if v.active {
        wire::varint_field(8, 1, out);
    }
    if form == Form::Binary {
        wire::packed_iter(9, v.known.iter().map(ids::card_id), out);
        if let Some(a) = v.bid {
            let id = ids::action_id(a);
            if id != 0 {
                wire::varint_field(10, u64::from(id), out);
            }
        }
    }
}

/// A trick as `convert`'s `Trick` message, written.
fn write_trick_view(t: &TrickView, form: Form, out: &mut Vec<u8>) {
    for &(p, c) in &t.cards {
        put_message(1, out, |out| {
            let (dummy, seat) = convert::player(p);
            if dummy {
                wire::varint_field(1, 1, out);
            }
            if seat != 0 {
                wire::varint_field(2, u64::from(seat), out);
            }
            match form {
                Form::Text => wire::bytes_field(3, c.text().as_bytes(), out),
                Form::Binary => {
                    let id = ids::card_id(c);
                    if id != 0 {
                        wire::varint_field(4, u64::from(id), out);
                    }
                }
            }
        });
    }
    if let Some(w) = t.winner {
        wire::varint_field(2, 1, out);
        let (dummy, seat) = convert::player(w);
        if dummy {
            wire::varint_field(3, 1, out);
        }
        if seat != 0 {
            wire::varint_field(4, u64::from(seat), out);
        }
    }
}

/// An `Event`'s fields, as prost writes them: an action (most events)
/// written in one pass, the other kinds by prost.
fn write_event(e: &pb::Event, out: &mut Vec<u8>) {
    match &e.kind {
        Some(pb::event::Kind::Action(a)) => put_message(4, out, |out| {
            if a.seat != 0 {
                wire::varint_field(1, u64::from(a.seat), out);
            }
            if !a.action.is_empty() {
                wire::bytes_field(2, a.action.as_bytes(), out);
            }
            if a.action_id != 0 {
                wire::varint_field(3, u64::from(a.action_id), out);
            }
        }),
        Some(kind) => kind.encode(out),
        None => {}
    }
}

/// A `SeatView`'s fields, as prost writes them.
fn write_seat_view(p: &pb::SeatView, out: &mut Vec<u8>) {
    if p.seat != 0 {
        wire::varint_field(1, u64::from(p.seat), out);
    }
    if p.held != 0 {
        wire::varint_field(2, u64::from(p.held), out);
    }
    wire::strings(3, &p.known, out);
    if !p.bid.is_empty() {
        wire::bytes_field(4, p.bid.as_bytes(), out);
    }
    if p.tricks != 0 {
        wire::varint_field(5, u64::from(p.tricks), out);
    }
    if p.total != 0 {
        wire::varint_field(6, i64::from(p.total) as u64, out);
    }
    if p.team != 0 {
        wire::varint_field(7, u64::from(p.team), out);
    }
    if p.active {
        wire::varint_field(8, u64::from(p.active), out);
    }
    wire::packed(9, &p.known_ids, out);
    if p.bid_id != 0 {
        wire::varint_field(10, u64::from(p.bid_id), out);
    }
}

/// A `Trick`'s fields, as prost writes them.
fn write_trick(t: &pb::Trick, out: &mut Vec<u8>) {
    for c in &t.cards {
        put_message(1, out, |out| {
            if c.dummy {
                wire::varint_field(1, u64::from(c.dummy), out);
            }
            if c.seat != 0 {
                wire::varint_field(2, u64::from(c.seat), out);
            }
            if !c.card.is_empty() {
                wire::bytes_field(3, c.card.as_bytes(), out);
            }
            if c.card_id != 0 {
                wire::varint_field(4, u64::from(c.card_id), out);
            }
        });
    }
    if t.complete {
        wire::varint_field(2, u64::from(t.complete), out);
    }
    if t.winner_dummy {
        wire::varint_field(3, u64::from(t.winner_dummy), out);
    }
    if t.winner_seat != 0 {
        wire::varint_field(4, u64::from(t.winner_seat), out);
    }
}

/// Protocol buffers' wire format, written inline into a `Vec` (prost's
/// `encode_varint` writes a byte a call through `BufMut`): the same bytes
/// as prost's field encoders.
mod wire {
    /// The wire type of a length-delimited field.
    pub(super) const LEN: u32 = 2;

    /// `v` as a varint.
    #[inline]
    pub(super) fn varint(mut v: u64, out: &mut Vec<u8>) {
        while v >= 0x80 {
            out.push(v as u8 | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    /// A field's key.
    #[inline]
    pub(super) fn key(tag: u32, wire_type: u32, out: &mut Vec<u8>) {
        varint(u64::from(tag << 3 | wire_type), out);
    }

    /// A varint field (`uint32`, `uint64`, `int32` sign-extended, `bool`).
    #[inline]
    pub(super) fn varint_field(tag: u32, v: u64, out: &mut Vec<u8>) {
        key(tag, 0, out);
        varint(v, out);
    }

    /// A length-delimited field of `bytes` (a string's).
    #[inline]
    pub(super) fn bytes_field(tag: u32, bytes: &[u8], out: &mut Vec<u8>) {
        key(tag, LEN, out);
        varint(bytes.len() as u64, out);
        out.extend_from_slice(bytes);
    }

    /// A repeated string field: every item, empty ones too.
    pub(super) fn strings(tag: u32, items: &[String], out: &mut Vec<u8>) {
        for s in items {
            bytes_field(tag, s.as_bytes(), out);
        }
    }

    /// [`packed`] of the items `items` yields.
    pub(super) fn packed_iter(
        tag: u32,
        items: impl Iterator<Item = u32> + Clone,
        out: &mut Vec<u8>,
    ) {
        let len: usize = items
            .clone()
            .map(|v| prost::encoding::encoded_len_varint(u64::from(v)))
            .sum();
        if len == 0 {
            return;
        }
        key(tag, LEN, out);
        varint(len as u64, out);
        for v in items {
            varint(u64::from(v), out);
        }
    }

    /// A packed repeated `uint32` field; nothing when empty.
    pub(super) fn packed(tag: u32, items: &[u32], out: &mut Vec<u8>) {
        if items.is_empty() {
            return;
        }
        key(tag, LEN, out);
        let len: usize = items
            .iter()
            .map(|&v| prost::encoding::encoded_len_varint(u64::from(v)))
            .sum();
        varint(len as u64, out);
        for &v in items {
            varint(u64::from(v), out);
        }
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
    fn an_observation_with_nested_messages_of_every_length_is_prosts_encoding() {
        // Nested messages shorter and longer than 128 bytes (a length of
        // one varint byte and of two), and empty ones.
        for n in [0usize, 1, 20, 40, 200] {
            let cards: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
            let o = pb::Observation {
                game: "israeli".into(),
                seat: 1,
                seats: 4,
                deal: 3,
                phase: 2,
                to_act: vec![1],
                hand: cards.clone(),
                players: vec![
                    pb::SeatView::default(),
                    pb::SeatView {
                        seat: 1,
                        held: n as u32,
                        known: cards.clone(),
                        bid: "7S".into(),
                        total: -20,
                        known_ids: (0..n as u32).collect(),
                        ..Default::default()
                    },
                ],
                trump: Some(pb::Trump::default()),
                contract: Some(pb::Contract {
                    seat: 2,
                    action: "bid 7S".into(),
                    action_id: 9,
                }),
                table: vec![pb::TableCard {
                    label: "turn-up".into(),
                    has_owner: true,
                    card: "AS".into(),
                    ..Default::default()
                }],
                piles: vec![pb::Pile {
                    name: "stock".into(),
                    count: 3,
                }],
                trick: Some(pb::Trick {
                    cards: (0..n)
                        .map(|i| pb::TrickCard {
                            seat: i as u32,
                            card: format!("c{i}"),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }),
                tricks: vec![
                    pb::Trick::default(),
                    pb::Trick {
                        complete: true,
                        winner_seat: 3,
                        ..Default::default()
                    },
                ],
                notes: vec![pb::Note {
                    key: "k".into(),
                    value: cards.join(","),
                }],
                hand_ids: (0..n as u32).collect(),
                ..Default::default()
            };
            let mut out = Vec::new();
            write_observation(&o, &mut out);
            assert_eq!(out, o.encode_to_vec(), "{n} cards");
        }
    }

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
