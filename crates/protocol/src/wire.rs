//! A bot's side of a `Play` stream read straight from its bytes.
//!
//! A compact binary decision request (what the kits ask for) is mostly a
//! handful of small integers: decoding it into prost messages first and
//! then into the engine's values allocates a dozen vectors and strings a
//! request. [`Rebuilder::update_wire`] reads such a request's bytes into
//! the observation it keeps, in place. It reads only what it knows the
//! shape of (a delta in the binary form), and declines anything else
//! without touching the observation; the caller then decodes the message
//! with prost and takes the usual path ([`Rebuilder::update`],
//! [`convert::request_legal`]), so the result is the same either way. The
//! tests compare the two over every request of every game.
//!
//! [`BotCodec`] (with `grpc`) is the `Play` codec of a bot: its messages
//! are encoded by prost as usual, and a referee message that is a lone
//! decision request is handed over as bytes ([`Incoming::Request`]).

use whistle_rules::{
    Action, CardSet, Event, Observation, Phase, Player, Seat, SeatSet, SeatView, Source, TableCard,
    TrickView, Trump, Variant,
};

use crate::{
    compact::Rebuilder,
    convert::{self, field},
    pb,
};

/// The fields of a request's delta read ahead of their use: nothing is
/// applied to the observation until the whole request has been read. Its
/// vectors and strings are kept from one request to the next.
#[derive(Debug)]
pub(crate) struct Staged {
    events: Vec<Event>,
    changed: Vec<u32>,
    tricks: Vec<TrickView>,
    game: Option<Variant>,
    seat: Seat,
    seats: u8,
    deal: u32,
    dealer: Seat,
    phase: Option<Phase>,
    to_act: SeatSet,
    simultaneous: bool,
    hand: CardSet,
    players: Vec<SeatView>,
    trump: Option<Trump>,
    contract: Option<(Seat, Action)>,
    table: Vec<TableCard>,
    piles: Vec<(String, u8)>,
    piles_len: usize,
    trick: Option<TrickView>,
    notes: Vec<(String, String)>,
    notes_len: usize,
}

impl Default for Staged {
    fn default() -> Staged {
        Staged {
            events: Vec::new(),
            changed: Vec::new(),
            tricks: Vec::new(),
            game: None,
            seat: Seat::new(0),
            seats: 0,
            deal: 0,
            dealer: Seat::new(0),
            phase: None,
            to_act: SeatSet::EMPTY,
            simultaneous: false,
            hand: CardSet::EMPTY,
            players: Vec::new(),
            trump: None,
            contract: None,
            table: Vec::new(),
            piles: Vec::new(),
            piles_len: 0,
            trick: None,
            notes: Vec::new(),
            notes_len: 0,
        }
    }
}

impl Staged {
    /// Back to an empty delta (the defaults of every field), its buffers kept.
    fn reset(&mut self) {
        self.events.clear();
        self.changed.clear();
        self.tricks.clear();
        self.game = None;
        self.seat = Seat::new(0);
        self.seats = 0;
        self.deal = 0;
        self.dealer = Seat::new(0);
        self.phase = None;
        self.to_act = SeatSet::EMPTY;
        self.simultaneous = false;
        self.hand = CardSet::EMPTY;
        self.players.clear();
        self.trump = None;
        self.contract = None;
        self.table.clear();
        self.piles_len = 0;
        self.trick = None;
        self.notes_len = 0;
    }
}

impl Rebuilder {
    /// [`Rebuilder::update`] and [`convert::request_legal`] of a
    /// `DecisionRequest` given as its wire bytes, read in place: the
    /// request's id and the whole observation it stands for, its legal
    /// actions in `legal`. `None` when the request is not a delta in the
    /// binary form from the observation kept (a whole observation, texts,
    /// anything malformed or unusual): nothing has been changed then, and
    /// the caller decodes the message and calls [`Rebuilder::update`].
    pub fn update_wire(
        &mut self,
        request: &[u8],
        legal: &mut Vec<Action>,
    ) -> Option<(u64, &Observation)> {
        let obs = self.obs.as_mut()?;
        let st = &mut self.staged;
        st.reset();
        legal.clear();
        let mut request_id = 0;
        let mut delta = None;
        fields(request, |f, wt, r| {
            match f {
                1 => request_id = r.u64(wt)?,
                // A whole observation, or legal actions as texts.
                2 | 3 => return None,
                4 | 5 => {
                    r.u64(wt)?;
                }
                6 if delta.is_none() => delta = Some(r.message(wt)?),
                7 => r.u32s(wt, |id| {
                    legal.push(convert::action_of_id(id).ok()?);
                    Some(())
                })?,
                6 => return None,
                _ => r.skip(wt)?,
            }
            Some(())
        })?;
        let mut kept = 0u32;
        let mut values = None;
        fields(delta?, |f, wt, r| {
            match f {
                1 => st.events.push(event(r.message(wt)?)?),
                2 => r.u32s(wt, |c| {
                    st.changed.push(c);
                    Some(())
                })?,
                3 if values.is_none() => values = Some(r.message(wt)?),
                3 => return None,
                4 => kept = r.u32(wt)?,
                _ => r.skip(wt)?,
            }
            Some(())
        })?;
        if let Some(values) = values {
            read_values(st, values)?;
        }
        let kept = kept as usize;
        if kept > obs.tricks.len() {
            return None;
        }
        // Every changed field must take as `convert::take_field` would,
        // before anything is applied.
        for &f in &st.changed {
            let takes = match f {
                field::GAME => st.game.is_some(),
                field::PHASE => st.phase.is_some(),
                field::TRUMP => st.trump.is_some(),
                field::TRICK => st.trick.is_some(),
                field::TRICKS | field::HISTORY => false,
                f => field::ALL.contains(&f),
            };
            if !takes {
                return None;
            }
        }
        for e in st.events.drain(..) {
            if matches!(e, Event::HandStart { .. }) {
                obs.history.clear();
            }
            obs.history.push(e);
        }
        obs.tricks.truncate(kept);
        obs.tricks.append(&mut st.tricks);
        let mut taken = 0u32;
        for &f in &st.changed {
            if taken & (1 << f) != 0 {
                continue;
            }
            taken |= 1 << f;
            match f {
                field::GAME => obs.game = st.game?,
                field::SEAT => obs.seat = st.seat,
                field::SEATS => obs.seats = st.seats,
                field::DEAL => obs.deal = st.deal,
                field::DEALER => obs.dealer = st.dealer,
                field::PHASE => obs.phase = st.phase?,
                field::TO_ACT => obs.to_act = st.to_act,
                field::SIMULTANEOUS => obs.simultaneous = st.simultaneous,
                field::HAND => obs.hand = st.hand,
                field::PLAYERS => std::mem::swap(&mut obs.players, &mut st.players),
                field::TRUMP => obs.trump = st.trump?,
                field::CONTRACT => obs.contract = st.contract,
                field::TABLE => std::mem::swap(&mut obs.table, &mut st.table),
                field::PILES => {
                    // Past the piles read lie the strings of older ones.
                    st.piles.truncate(st.piles_len);
                    std::mem::swap(&mut obs.piles, &mut st.piles);
                }
                field::TRICK => obs.trick = st.trick.take()?,
                field::NOTES => {
                    st.notes.truncate(st.notes_len);
                    std::mem::swap(&mut obs.notes, &mut st.notes);
                }
                _ => {}
            }
        }
        Some((request_id, obs))
    }
}

/// Reads a delta's `values` (an `Observation` holding the changed fields)
/// into `st`, each field converted as `convert::take_field` converts it.
fn read_values(st: &mut Staged, values: &[u8]) -> Option<()> {
    let mut seen = 0u32;
    fields(values, |f, wt, r| {
        match f {
            field::GAME => st.game = Some(r.str(wt)?.parse().ok()?),
            field::SEAT => st.seat = seat(r.u32(wt)?)?,
            field::SEATS => st.seats = small(r.u32(wt)?)?,
            field::DEAL => st.deal = r.u32(wt)?,
            field::DEALER => st.dealer = seat(r.u32(wt)?)?,
            field::PHASE => st.phase = Some(convert::phase_from(r.i32(wt)?).ok()?),
            field::TO_ACT => r.u32s(wt, |s| {
                st.to_act.insert(seat(s)?);
                Some(())
            })?,
            field::SIMULTANEOUS => st.simultaneous = r.bool(wt)?,
            field::PLAYERS => st.players.push(seat_view(r.message(wt)?)?),
            field::TRUMP if seen & (1 << f) == 0 => {
                let (mut kind, mut suit) = (0, "");
                fields(r.message(wt)?, |f, wt, r| {
                    match f {
                        1 => kind = r.i32(wt)?,
                        2 => suit = r.str(wt)?,
                        _ => r.skip(wt)?,
                    }
                    Some(())
                })?;
                st.trump = Some(convert::trump_of(kind, suit).ok()?);
            }
            field::CONTRACT if seen & (1 << f) == 0 => {
                let (mut s, mut action) = (0, 0);
                fields(r.message(wt)?, |f, wt, r| {
                    match f {
                        1 => s = r.u32(wt)?,
                        2 => r.empty_str(wt)?,
                        3 => action = r.u32(wt)?,
                        _ => r.skip(wt)?,
                    }
                    Some(())
                })?;
                st.contract = Some((seat(s)?, action_id(action)?));
            }
            field::TABLE => {
                let (mut label, mut has_owner, mut owner, mut card) = ("", false, 0, 0);
                fields(r.message(wt)?, |f, wt, r| {
                    match f {
                        1 => label = r.str(wt)?,
                        2 => has_owner = r.bool(wt)?,
                        3 => owner = r.u32(wt)?,
                        4 => r.empty_str(wt)?,
                        5 => card = r.u32(wt)?,
                        _ => r.skip(wt)?,
                    }
                    Some(())
                })?;
                st.table.push(TableCard {
                    label: label.to_owned().into(),
                    owner: if has_owner { Some(seat(owner)?) } else { None },
                    card: convert::card_of_id(card).ok()?,
                });
            }
            field::PILES => {
                let (mut name, mut count) = ("", 0);
                fields(r.message(wt)?, |f, wt, r| {
                    match f {
                        1 => name = r.str(wt)?,
                        2 => count = r.u32(wt)?,
                        _ => r.skip(wt)?,
                    }
                    Some(())
                })?;
                let count = small(count)?;
                if st.piles_len == st.piles.len() {
                    st.piles.push((String::new(), 0));
                }
                let pile = &mut st.piles[st.piles_len];
                pile.0.clear();
                pile.0.push_str(name);
                pile.1 = count;
                st.piles_len += 1;
            }
            field::TRICK if seen & (1 << f) == 0 => st.trick = Some(trick(r.message(wt)?)?),
            field::TRICKS => st.tricks.push(trick(r.message(wt)?)?),
            field::NOTES => {
                let (mut key, mut value) = ("", "");
                fields(r.message(wt)?, |f, wt, r| {
                    match f {
                        1 => key = r.str(wt)?,
                        2 => value = r.str(wt)?,
                        _ => r.skip(wt)?,
                    }
                    Some(())
                })?;
                if st.notes_len == st.notes.len() {
                    st.notes.push((String::new(), String::new()));
                }
                let note = &mut st.notes[st.notes_len];
                note.0.clear();
                note.0.push_str(key);
                note.1.clear();
                note.1.push_str(value);
                st.notes_len += 1;
            }
            // `hand_ids`: the hand.
            19 => r.u32s(wt, |id| {
                st.hand.insert(convert::card_of_id(id).ok()?);
                Some(())
            })?,
            // Texts (`hand`), a second trump, contract or trick (prost
            // merges them), the history (never a delta's).
            field::HAND | field::TRUMP | field::CONTRACT | field::TRICK | field::HISTORY => {
                return None;
            }
            _ => r.skip(wt)?,
        }
        if f < 32 {
            seen |= 1 << f;
        }
        Some(())
    })
}

fn seat(i: u32) -> Option<Seat> {
    convert::seat_from(i).ok()
}

fn small(i: u32) -> Option<u8> {
    u8::try_from(i).ok()
}

fn action_id(id: u32) -> Option<Action> {
    convert::action_of_id(id).ok()
}

fn player(dummy: bool, s: u32) -> Option<Player> {
    if dummy {
        Some(Player::Dummy)
    } else {
        seat(s).map(Player::Seat)
    }
}

fn seat_view(b: &[u8]) -> Option<SeatView> {
    let mut v = SeatView {
        seat: Seat::new(0),
        held: 0,
        known: CardSet::EMPTY,
        bid: None,
        tricks: 0,
        total: 0,
        team: 0,
        active: false,
    };
    fields(b, |f, wt, r| {
        match f {
            1 => v.seat = seat(r.u32(wt)?)?,
            2 => v.held = small(r.u32(wt)?)?,
            3 => return None,
            4 => r.empty_str(wt)?,
            5 => v.tricks = small(r.u32(wt)?)?,
            6 => v.total = r.i32(wt)?,
            7 => v.team = small(r.u32(wt)?)?,
            8 => v.active = r.bool(wt)?,
            9 => r.u32s(wt, |id| {
                v.known.insert(convert::card_of_id(id).ok()?);
                Some(())
            })?,
            10 => {
                let id = r.u32(wt)?;
                v.bid = if id == 0 { None } else { Some(action_id(id)?) };
            }
            _ => r.skip(wt)?,
        }
        Some(())
    })?;
    Some(v)
}

fn trick(b: &[u8]) -> Option<TrickView> {
    let mut t = TrickView {
        cards: Default::default(),
        winner: None,
    };
    let (mut complete, mut winner_dummy, mut winner_seat) = (false, false, 0);
    fields(b, |f, wt, r| {
        match f {
            1 => {
                let (mut dummy, mut s, mut card) = (false, 0, 0);
                fields(r.message(wt)?, |f, wt, r| {
                    match f {
                        1 => dummy = r.bool(wt)?,
                        2 => s = r.u32(wt)?,
                        3 => r.empty_str(wt)?,
                        4 => card = r.u32(wt)?,
                        _ => r.skip(wt)?,
                    }
                    Some(())
                })?;
                let card = convert::card_of_id(card).ok()?;
                t.cards.try_push((player(dummy, s)?, card)).ok()?;
            }
            2 => complete = r.bool(wt)?,
            3 => winner_dummy = r.bool(wt)?,
            4 => winner_seat = r.u32(wt)?,
            _ => r.skip(wt)?,
        }
        Some(())
    })?;
    if complete {
        t.winner = Some(player(winner_dummy, winner_seat)?);
    }
    Some(t)
}

/// One event, as [`convert::event_from`] reads it. Kinds seen once a hand
/// (deals, reveals, misdeals, a hand's end) are decoded by prost.
fn event(b: &[u8]) -> Option<Event> {
    let mut kind = None;
    fields(b, |f, wt, r| {
        match f {
            1..=11 if kind.is_none() => kind = Some((f, r.message(wt)?)),
            1..=11 => return None,
            _ => r.skip(wt)?,
        }
        Some(())
    })?;
    let (k, m) = kind?;
    // The kind's fields by number, as (integer, flag) pairs; text fields
    // must be empty (the binary form) but `Hidden.kind` and `Take.from`.
    let mut n = [0u64; 6];
    let mut text = "";
    let text_field = match k {
        5 => 2,
        8 => 3,
        1 | 3 | 4 | 6 | 7 => 0,
        _ => {
            let e = <pb::Event as prost::Message>::decode(b).ok()?;
            return convert::event_from(&e).ok();
        }
    };
    fields(m, |f, wt, r| {
        match (k, f) {
            (_, f) if f == text_field => text = r.str(wt)?,
            // A card's or an action's text.
            (3 | 6, 1) | (4 | 8, 2) => r.empty_str(wt)?,
            (_, 1..=5) => n[f as usize] = r.u64(wt)?,
            _ => r.skip(wt)?,
        }
        Some(())
    })?;
    // As prost reads a `uint32` and a `bool` from a varint.
    #[allow(clippy::cast_possible_truncation)]
    let u = |i: usize| n[i] as u32;
    let card = |i: usize| convert::card_of_id(u(i)).ok();
    Some(match k {
        1 => Event::HandStart {
            deal: u(1),
            dealer: seat(u(2))?,
        },
        3 => Event::TurnUp { card: card(2)? },
        4 => Event::Action {
            seat: seat(u(1))?,
            action: action_id(u(3))?,
        },
        5 => Event::Hidden {
            seat: seat(u(1))?,
            kind: whistle_rules::ActionKind::from_name(text)?,
        },
        6 => Event::DummyPlay { card: card(2)? },
        7 => Event::TrickWon {
            index: small(u(1))?,
            winner: player(n[2] != 0, u(3))?,
        },
        _ => Event::Take {
            seat: seat(u(1))?,
            card: match u(5) {
                0 => None,
                _ => Some(card(5)?),
            },
            from: match text {
                "stock" => Source::Stock,
                "kitty" => Source::Kitty,
                "seat" => Source::Seat(seat(u(4))?),
                _ => return None,
            },
        },
    })
}

/// Calls `each(field, wire type, reader)` for every field of the message
/// `b`, which must read or skip the field's value.
#[inline]
fn fields<'a>(
    b: &'a [u8],
    mut each: impl FnMut(u32, u8, &mut Reader<'a>) -> Option<()>,
) -> Option<()> {
    let mut r = Reader(b);
    while !r.0.is_empty() {
        let key = u32::try_from(r.varint()?).ok()?;
        let f = key >> 3;
        if f == 0 {
            return None;
        }
        each(f, (key & 7) as u8, &mut r)?;
    }
    Some(())
}

/// Protobuf's wire format, read as prost reads it; `None` wherever prost
/// would fail.
struct Reader<'a>(&'a [u8]);

const VARINT: u8 = 0;
const LEN: u8 = 2;

impl<'a> Reader<'a> {
    /// A varint: one byte for most of a request's (field keys, seats, ids
    /// below 128), read inline.
    #[inline]
    fn varint(&mut self) -> Option<u64> {
        let (&b, rest) = self.0.split_first()?;
        if b < 0x80 {
            self.0 = rest;
            return Some(u64::from(b));
        }
        self.long_varint()
    }

    fn long_varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = *self.0.get(i)?;
            if i == 9 && b > 1 {
                return None;
            }
            v |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                self.0 = &self.0[i + 1..];
                return Some(v);
            }
        }
        None
    }

    fn u64(&mut self, wt: u8) -> Option<u64> {
        (wt == VARINT).then_some(())?;
        self.varint()
    }

    #[allow(clippy::cast_possible_truncation)]
    fn u32(&mut self, wt: u8) -> Option<u32> {
        self.u64(wt).map(|v| v as u32)
    }

    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    fn i32(&mut self, wt: u8) -> Option<i32> {
        self.u64(wt).map(|v| v as i32)
    }

    fn bool(&mut self, wt: u8) -> Option<bool> {
        self.u64(wt).map(|v| v != 0)
    }

    fn message(&mut self, wt: u8) -> Option<&'a [u8]> {
        (wt == LEN).then_some(())?;
        let n = usize::try_from(self.varint()?).ok()?;
        if n > self.0.len() {
            return None;
        }
        let (m, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(m)
    }

    fn str(&mut self, wt: u8) -> Option<&'a str> {
        std::str::from_utf8(self.message(wt)?).ok()
    }

    /// A card's or an action's text, which a binary stream leaves empty.
    fn empty_str(&mut self, wt: u8) -> Option<()> {
        self.message(wt)?.is_empty().then_some(())
    }

    /// A repeated `uint32`, packed or not.
    fn u32s(&mut self, wt: u8, mut each: impl FnMut(u32) -> Option<()>) -> Option<()> {
        if wt == LEN {
            let mut packed = Reader(self.message(wt)?);
            while !packed.0.is_empty() {
                each(packed.u32(VARINT)?)?;
            }
            Some(())
        } else {
            each(self.u32(wt)?)
        }
    }

    fn skip(&mut self, wt: u8) -> Option<()> {
        let n = match wt {
            VARINT => return self.varint().map(|_| ()),
            LEN => return self.message(wt).map(|_| ()),
            1 => 8,
            5 => 4,
            _ => return None,
        };
        self.0 = self.0.get(n..)?;
        Some(())
    }
}

/// A referee's message on a bot's `Play` stream, as [`BotCodec`] hands it
/// over.
#[cfg(feature = "grpc")]
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A message that is a lone decision request, not yet decoded.
    Request(WireRequest),
    /// Any other message, decoded (boxed: every message is moved a few
    /// times on its way, and requests are most of them).
    Message(Box<pb::RefereeMessage>),
}

/// A `RefereeMessage` holding only a `DecisionRequest`, as its bytes.
#[cfg(feature = "grpc")]
#[derive(Debug, Clone)]
pub struct WireRequest {
    message: prost::bytes::Bytes,
    start: usize,
}

#[cfg(feature = "grpc")]
impl WireRequest {
    /// The `DecisionRequest`'s bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.message[self.start..]
    }

    /// The request decoded by prost.
    ///
    /// # Errors
    /// The status a prost codec ends the stream with for a message that
    /// does not decode (`INTERNAL`, prost's error).
    pub fn decode(&self) -> Result<pb::DecisionRequest, tonic::Status> {
        use prost::Message;
        pb::DecisionRequest::decode(self.bytes()).map_err(|_| {
            // The error as decoding the whole message words it.
            match pb::RefereeMessage::decode(&self.message[..]) {
                Err(e) => tonic::Status::internal(e.to_string()),
                Ok(_) => tonic::Status::internal("failed to decode Protobuf message"),
            }
        })
    }
}

/// The `Play` codec of a bot: what it sends is encoded by prost
/// (`tonic_prost`'s encoder), and what it receives is decoded by prost but
/// for lone decision requests, handed over as bytes
/// ([`Incoming::Request`]) for [`Rebuilder::update_wire`].
#[cfg(feature = "grpc")]
#[derive(Debug, Clone, Copy, Default)]
pub struct BotCodec;

#[cfg(feature = "grpc")]
impl tonic::codec::Codec for BotCodec {
    type Encode = pb::BotMessage;
    type Decode = Incoming;
    type Encoder = tonic_prost::ProstEncoder<pb::BotMessage>;
    type Decoder = BotDecoder;

    fn encoder(&mut self) -> Self::Encoder {
        tonic_prost::ProstEncoder::default()
    }

    fn decoder(&mut self) -> Self::Decoder {
        BotDecoder
    }
}

/// [`BotCodec`]'s decoder.
#[cfg(feature = "grpc")]
#[derive(Debug, Clone, Copy, Default)]
pub struct BotDecoder;

#[cfg(feature = "grpc")]
impl tonic::codec::Decoder for BotDecoder {
    type Item = Incoming;
    type Error = tonic::Status;

    fn decode(
        &mut self,
        buf: &mut tonic::codec::DecodeBuf<'_>,
    ) -> Result<Option<Incoming>, tonic::Status> {
        use prost::{Message, bytes::Buf};
        let message = buf.copy_to_bytes(buf.remaining());
        if let Some(start) = lone_request(&message) {
            return Ok(Some(Incoming::Request(WireRequest { message, start })));
        }
        pb::RefereeMessage::decode(&message[..])
            .map(|m| Some(Incoming::Message(Box::new(m))))
            .map_err(|e| tonic::Status::internal(e.to_string()))
    }
}

/// Where the `DecisionRequest` of a `RefereeMessage` that holds that
/// alone (field 2, once, the whole message) begins.
#[cfg(feature = "grpc")]
fn lone_request(message: &[u8]) -> Option<usize> {
    let mut r = Reader(message);
    if r.varint()? != u64::from(2 << 3 | LEN) {
        return None;
    }
    let request = r.message(LEN)?;
    r.0.is_empty().then(|| message.len() - request.len())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use prost::Message;
    use whistle_rules::{Fallback, Game, MatchDriver, Options, dealing::Seed};

    use super::*;
    use crate::{
        compact::DeltaEncoder,
        convert::{DecodeError, Form},
    };

    /// What the usual path makes of a request's bytes: prost, then
    /// [`Rebuilder::update`] and [`convert::request_legal`].
    /// A request's id, observation and legal actions.
    type Read = (u64, Observation, Vec<Action>);

    fn slow(r: &mut Rebuilder, bytes: &[u8]) -> Option<Result<Read, DecodeError>> {
        let req = pb::DecisionRequest::decode(bytes).ok()?;
        Some(
            r.update(&req).cloned().and_then(|obs| {
                convert::request_legal(&req).map(|legal| (req.request_id, obs, legal))
            }),
        )
    }

    /// A rebuilder holding `obs`.
    fn holding(obs: Option<&Observation>) -> Rebuilder {
        Rebuilder {
            obs: obs.cloned(),
            staged: Staged::default(),
        }
    }

    /// Plays `hands` hands of `variant` with every seat on a compact stream,
    /// each request read from its bytes both ways. Returns the requests
    /// read in place and the delta requests.
    fn play(variant: Variant, seed: u64, resync_every: usize, form: Form) -> (usize, usize) {
        let options = Options::parse(&["hands=3"]).expect("options");
        let game = variant.new_game(&options).expect("game");
        let seats = game.seats();
        let mut driver = MatchDriver::new(game, Seed::from_u64(seed), Fallback::First);
        let mut encoders: Vec<DeltaEncoder> =
            (0..seats).map(|_| DeltaEncoder::with_form(form)).collect();
        let mut bots: Vec<Rebuilder> = (0..seats).map(|_| Rebuilder::new()).collect();
        let mut pushed = (0usize, 0u32);
        let mut rng = seed | 1;
        let (mut requests, mut fast, mut deltas) = (0, 0, 0);
        let mut legal_read = Vec::new();
        loop {
            let to_act = driver.to_ask().expect("drive");
            let game = driver.game();
            if game.deals() != pushed.1 {
                pushed = (0, game.deals());
            }
            for seat in Seat::all(seats) {
                for entry in &game.log()[pushed.0..] {
                    if let Some(ev) = entry.seen_by(seat) {
                        encoders[seat.index()].hold_event(&ev, game.hand_results());
                    }
                }
            }
            pushed.0 = game.log().len();
            let _ = driver.take_events();
            let Some(seat) = to_act.iter().next() else {
                break;
            };
            let game = driver.game();
            let obs = game.observe(seat);
            let legal = game.legal_actions(seat);
            requests += 1;
            if resync_every > 0 && requests % resync_every == 0 {
                encoders[seat.index()].resync();
            }
            let id = 1000 + requests as u64;
            let msg = encoders[seat.index()].request(
                id,
                obs.clone(),
                game.hand_results(),
                &legal,
                Duration::from_millis(100),
                Duration::ZERO,
            );
            let bytes = msg.encode_to_vec();
            let Some(pb::referee_message::Msg::Request(r)) = &msg.msg else {
                panic!("a request");
            };
            let start = bytes.len() - r.encoded_len();
            #[cfg(feature = "grpc")]
            assert_eq!(lone_request(&bytes), Some(start));
            assert_eq!(&bytes[start..], r.encode_to_vec().as_slice());
            let request = &bytes[start..];
            deltas += usize::from(r.delta.is_some());
            let bot = &mut bots[seat.index()];
            let before = bot.obs.clone();
            let expected = slow(&mut holding(before.as_ref()), request)
                .expect("decodes")
                .expect("rebuilds");
            let mut legal_out = vec![legal[0]; 3];
            match bot.update_wire(request, &mut legal_out) {
                Some((got_id, got)) => {
                    fast += 1;
                    assert_eq!(got_id, id);
                    assert_eq!(got, &expected.1, "{variant} seed {seed} request {requests}");
                    assert_eq!(legal_out, expected.2);
                }
                None => {
                    assert_eq!(bot.obs, before, "declined, untouched");
                    let rebuilt = bot.update(r).expect("rebuild").clone();
                    assert_eq!(rebuilt, expected.1);
                }
            }
            assert_eq!(bot.obs.as_ref(), Some(&obs));
            // A damaged copy is read in place only as prost and the usual
            // path read it, and otherwise left alone.
            for k in 0..3 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let mut damaged = request.to_vec();
                let at = (rng as usize >> 8) % damaged.len();
                match k {
                    0 => damaged[at] ^= 1 << (rng % 8),
                    1 => damaged[at] = (rng >> 16) as u8,
                    _ => damaged.truncate(at),
                }
                let mut probe = holding(before.as_ref());
                match probe.update_wire(&damaged, &mut legal_read) {
                    Some((got_id, got)) => {
                        let got = (got_id, got.clone(), legal_read.clone());
                        let usual = slow(&mut holding(before.as_ref()), &damaged);
                        assert_eq!(usual, Some(Ok(got)), "{variant} seed {seed}: {damaged:?}");
                    }
                    None => assert_eq!(probe.obs, before, "declined, untouched"),
                }
            }
            let action = legal[(rng % legal.len() as u64) as usize];
            driver.apply(seat, action, false).expect("legal");
        }
        (fast, deltas)
    }

    #[test]
    fn every_binary_delta_is_read_in_place_as_the_usual_path_reads_it() {
        for variant in Variant::ALL {
            for seed in 1..4 {
                let (fast, deltas) = play(variant, seed, 0, Form::Binary);
                assert!(deltas > 0);
                assert_eq!(fast, deltas, "{variant} seed {seed}: every delta in place");
                let (fast, deltas) = play(variant, seed, 5, Form::Binary);
                assert_eq!(fast, deltas, "{variant} seed {seed}: with resyncs");
                let (fast, _) = play(variant, seed, 0, Form::Text);
                assert_eq!(fast, 0, "{variant}: texts are read by prost");
            }
        }
    }

    #[test]
    fn a_delta_with_nothing_to_apply_it_to_is_declined() {
        let req = pb::DecisionRequest {
            delta: Some(pb::ObservationDelta::default()),
            ..Default::default()
        };
        let mut legal = Vec::new();
        assert!(
            Rebuilder::new()
                .update_wire(&req.encode_to_vec(), &mut legal)
                .is_none()
        );
    }

    #[cfg(feature = "grpc")]
    #[test]
    fn only_a_lone_request_is_handed_over_as_bytes() {
        let request = pb::RefereeMessage {
            msg: Some(pb::referee_message::Msg::Request(pb::DecisionRequest {
                request_id: 3,
                ..Default::default()
            })),
        };
        let bytes = request.encode_to_vec();
        assert_eq!(lone_request(&bytes), Some(2));
        let mut twice = bytes.clone();
        twice.extend_from_slice(&bytes);
        assert_eq!(lone_request(&twice), None);
        let event = pb::RefereeMessage {
            msg: Some(pb::referee_message::Msg::Event(pb::Event::default())),
        };
        assert_eq!(lone_request(&event.encode_to_vec()), None);
        let w = WireRequest {
            message: bytes.into(),
            start: 2,
        };
        assert_eq!(w.decode().expect("decodes").request_id, 3);
        let broken = WireRequest {
            message: vec![0x12, 0x02, 0x08].into(),
            start: 2,
        };
        let status = broken.decode().expect_err("truncated");
        assert_eq!(status.code(), tonic::Code::Internal);
        let whole = pb::RefereeMessage::decode(&[0x12, 0x02, 0x08][..]).expect_err("truncated");
        assert_eq!(status.message(), whole.to_string());
    }
}
