//! Compact requests (`Hello.compact`): the referee's encoder, which sends a
//! seat the changes since its previous request, and the bot's rebuilder,
//! which turns them back into the whole observation.
//!
//! The rule both sides follow is the one whistle.proto states on
//! `ObservationDelta`: events append to the history (a `HandStart` clears
//! it), the first `tricks_kept` completed tricks stay and `values.tricks`
//! follow, and every field number in `changed` is replaced by its value in
//! `values`. The tests below play every game and compare the rebuilt
//! observation with the engine's at every request.

use std::time::Duration;

use whistle_rules::{Action, Event, HandResult, Observation};

use crate::{
    convert::{self, DecodeError, Form, field},
    messages::millis,
    pb,
};

/// Events a compact stream may hold for its next request. A seat that goes
/// longer without a request (it sits out hand after hand) loses them: its
/// next request carries the whole observation instead.
pub const MAX_BUFFERED_EVENTS: usize = 4096;

/// The referee's side of one compact stream: the events not yet delivered
/// and the observation the seat's previous request left it with.
///
/// Everything a request is built from stays in place from one request to
/// the next: the message itself (lent to the caller's `send`), the two
/// observations (boxed, so that handing one over moves a pointer), and the
/// held events, written over delivered ones where they lie.
#[derive(Debug, Default)]
pub struct DeltaEncoder {
    prev: Option<Box<Observation>>,
    /// An observation no longer needed (the one before `prev`), for the
    /// caller to refill rather than allocate anew ([`DeltaEncoder::take_spare`]).
    spare: Option<Box<Observation>>,
    /// The events held for the next request are `events[..held]`; the
    /// ones after them were delivered with an earlier request and are
    /// written over by the next ones ([`DeltaEncoder::hold_event`]).
    events: Vec<pb::Event>,
    held: usize,
    form: Form,
    /// The message last sent: its request's vectors and strings are
    /// refilled in place for the next one.
    msg: pb::RefereeMessage,
    /// The delta's buffers while a whole request is out (its `delta` is
    /// then `None`).
    delta: Option<pb::ObservationDelta>,
    /// Lists of the delta's values left out of the last request (their
    /// fields had not changed), kept with their items' buffers for the
    /// next request that changes them.
    unused: Unused,
    /// An action's text, written by `encode_request`'s values.
    #[cfg_attr(not(feature = "grpc"), allow(dead_code))]
    text: String,
}

/// See [`DeltaEncoder::unused`].
#[derive(Debug, Default)]
struct Unused {
    hand: Vec<String>,
    players: Vec<pb::SeatView>,
    trick: Option<pb::Trick>,
    notes: Vec<pb::Note>,
    tricks: Vec<pb::Trick>,
}

impl DeltaEncoder {
    /// A stream that has been sent nothing yet: its first request is whole.
    pub fn new() -> DeltaEncoder {
        DeltaEncoder::default()
    }

    /// [`DeltaEncoder::new`] for a stream sent cards and actions in `form`.
    pub fn with_form(form: Form) -> DeltaEncoder {
        DeltaEncoder {
            form,
            ..DeltaEncoder::default()
        }
    }

    /// The form of the stream's cards and actions (held events must be
    /// built in it).
    pub fn form(&self) -> Form {
        self.form
    }

    /// Makes room for one more held event: once [`MAX_BUFFERED_EVENTS`]
    /// are held they are dropped, and the next request is whole.
    fn room(&mut self) {
        if self.held >= MAX_BUFFERED_EVENTS {
            self.events = Vec::new();
            self.held = 0;
            if let Some(prev) = self.prev.take() {
                self.spare = Some(prev);
            }
        }
    }

    /// Holds an event the seat may see for its next request.
    pub fn push_event(&mut self, event: pb::Event) {
        self.room();
        if self.held < self.events.len() {
            self.events[self.held] = event;
        } else {
            self.events.push(event);
        }
        self.held += 1;
    }

    /// [`DeltaEncoder::push_event`] of `event` in this stream's form,
    /// written over an event delivered before when there is one (an
    /// action's text refilled in place).
    pub fn hold_event(&mut self, event: &Event, results: &[HandResult]) {
        self.room();
        match self.events.get_mut(self.held) {
            Some(w) => convert::event_into(w, event, results, self.form),
            None => self
                .events
                .push(convert::event_in(event, results, self.form)),
        }
        self.held += 1;
    }

    /// The next request carries the whole observation (`Resync`).
    pub fn resync(&mut self) {
        if let Some(prev) = self.prev.take() {
            self.spare = Some(prev);
        }
    }

    /// An observation this encoder no longer needs, if it has one: the
    /// caller may refill it for the next request
    /// (`Game::observe_into`) instead of building a new one, so that a
    /// stream's requests reuse two observations' buffers in turn.
    pub fn take_spare(&mut self) -> Option<Box<Observation>> {
        self.spare.take()
    }

    /// Whether the next request is whole (the stream's first, or after a
    /// resync or dropped events). Otherwise it is a delta, which never
    /// reads the observation's history (the held events carry it): the
    /// caller may build that observation without it
    /// (`Game::observe_without_history`).
    pub fn next_is_whole(&self) -> bool {
        self.prev.is_none()
    }

    /// The events held and not yet delivered (sent as `Event` messages
    /// before `MatchEnd`).
    pub fn take_events(&mut self) -> Vec<pb::Event> {
        self.events.truncate(self.held);
        self.held = 0;
        std::mem::take(&mut self.events)
    }

    /// A `DecisionRequest` for `obs`: whole the first time (or after a
    /// resync), otherwise a delta from the previous one with the events held.
    pub fn request(
        &mut self,
        request_id: u64,
        obs: Observation,
        results: &[HandResult],
        legal: &[Action],
        deadline: Duration,
        time_bank: Duration,
    ) -> pb::RefereeMessage {
        self.with_request(
            request_id,
            Box::new(obs),
            results,
            legal,
            deadline,
            time_bank,
            pb::RefereeMessage::clone,
        )
    }

    /// [`DeltaEncoder::request`], built in this encoder's own buffers and
    /// lent to `send` (which encodes it): in a stream's steady state
    /// nothing is allocated or moved for it but what grew.
    #[allow(clippy::too_many_arguments)]
    pub fn with_request<R>(
        &mut self,
        request_id: u64,
        obs: Box<Observation>,
        results: &[HandResult],
        legal: &[Action],
        deadline: Duration,
        time_bank: Duration,
        send: impl FnOnce(&pb::RefereeMessage) -> R,
    ) -> R {
        let request = Request {
            id: request_id,
            results,
            legal,
            deadline,
            time_bank,
        };
        self.prepare(&obs, &request, false);
        self.spare = self.prev.replace(obs);
        let out = send(&self.msg);
        self.sent();
        out
    }

    /// [`DeltaEncoder::request`] encoded into `buffer`: the same bytes as
    /// [`DeltaEncoder::with_request`] and [`EncodeBuffer::encode_referee`]
    /// make, a delta's values written straight from `obs`
    /// (`codec::write_values`) rather than built as a message first.
    ///
    /// [`EncodeBuffer::encode_referee`]: crate::codec::EncodeBuffer::encode_referee
    #[cfg(feature = "grpc")]
    #[allow(clippy::too_many_arguments)]
    pub fn encode_request(
        &mut self,
        request_id: u64,
        obs: Box<Observation>,
        results: &[HandResult],
        legal: &[Action],
        deadline: Duration,
        time_bank: Duration,
        buffer: &mut crate::codec::EncodeBuffer,
    ) -> crate::codec::Encoded {
        let request = Request {
            id: request_id,
            results,
            legal,
            deadline,
            time_bank,
        };
        let values = self.prepare(&obs, &request, true);
        let form = self.form;
        let text = &mut self.text;
        let encoded = buffer.encode_request(&self.msg, |out| {
            if let Some((mask, kept)) = values {
                crate::codec::write_values(&obs, mask, kept, results, form, text, out);
            }
        });
        self.spare = self.prev.replace(obs);
        self.sent();
        encoded
    }

    /// The request for `obs` written over the message kept: whole, or a
    /// delta from `prev` with the events held. A delta's values are built
    /// as a message unless `direct`; then they are left out of it, and
    /// what they hold is returned: the fields changed (a bit each) and
    /// the completed tricks kept.
    fn prepare(
        &mut self,
        obs: &Observation,
        q: &Request<'_>,
        direct: bool,
    ) -> Option<(u32, usize)> {
        let form = self.form;
        let msg = &mut self.msg.msg;
        if !matches!(msg, Some(pb::referee_message::Msg::Request(_))) {
            *msg = Some(pb::referee_message::Msg::Request(Default::default()));
        }
        let Some(pb::referee_message::Msg::Request(r)) = msg else {
            unreachable!("set above");
        };
        let mut values = None;
        match &self.prev {
            None => {
                r.observation = Some(convert::observation_in(obs, q.results, form));
                if let Some(d) = r.delta.take() {
                    self.delta = Some(d);
                }
                // Held events are in the whole observation's history; the
                // ones in the vector are written over by the next ones.
                self.held = 0;
            }
            Some(prev) => {
                let d = r
                    .delta
                    .get_or_insert_with(|| self.delta.take().unwrap_or_default());
                // The events held go out; the ones delivered last time are
                // written over by the next ones.
                self.events.truncate(self.held);
                self.held = 0;
                std::mem::swap(&mut d.events, &mut self.events);
                if direct {
                    let mask = changed_fields(prev, obs);
                    d.changed.clear();
                    d.changed
                        .extend(field::ALL.filter(|f| mask & (1 << f) != 0));
                    let kept = tricks_kept(prev, obs);
                    d.tricks_kept = kept as u32;
                    d.values = None;
                    values = Some((mask, kept));
                } else {
                    delta_into(prev, obs, d, &mut self.unused, q.results, form);
                }
            }
        }
        r.request_id = q.id;
        r.deadline_ms = millis(q.deadline);
        r.time_bank_ms = millis(q.time_bank);
        r.legal_ids.clear();
        match form {
            Form::Text => convert::refill(&mut r.legal, q.legal.iter(), |w, &a| {
                convert::action_text_into(a, w);
            }),
            Form::Binary => {
                r.legal.clear();
                r.legal_ids
                    .extend(q.legal.iter().map(|&a| crate::ids::action_id(a)));
            }
        }
        values
    }

    /// After a request went out: a whole observation is sent once in a
    /// long while, and not kept.
    fn sent(&mut self) {
        if let Some(pb::referee_message::Msg::Request(r)) = &mut self.msg.msg
            && r.observation.is_some()
        {
            r.observation = None;
        }
    }
}

/// What a request says besides its observation.
struct Request<'a> {
    id: u64,
    results: &'a [HandResult],
    legal: &'a [Action],
    deadline: Duration,
    time_bank: Duration,
}

/// How many of `obs`'s completed tricks `prev` had already: a delta
/// carries the ones after them.
fn tricks_kept(prev: &Observation, obs: &Observation) -> usize {
    prev.tricks
        .iter()
        .zip(&obs.tricks)
        .take_while(|(a, b)| a == b)
        .count()
}

/// The delta from `prev` to `obs` written over `d`, whose `events` are
/// already the ones it carries: its vectors are refilled in place, and the
/// lists of fields that did not change are set aside in `unused`.
fn delta_into(
    prev: &Observation,
    obs: &Observation,
    d: &mut pb::ObservationDelta,
    unused: &mut Unused,
    results: &[HandResult],
    form: Form,
) {
    let mask = changed_fields(prev, obs);
    d.changed.clear();
    d.changed
        .extend(field::ALL.filter(|f| mask & (1 << f) != 0));
    let values = d.values.get_or_insert_with(Default::default);
    // Every field not changed goes back to its default (as a new message
    // has it); the lists about to be refilled keep their items.
    let changes = |f: u32| mask & (1 << f) != 0;
    let hand = std::mem::take(&mut values.hand);
    let players = std::mem::take(&mut values.players);
    let trick = values.trick.take();
    let notes = std::mem::take(&mut values.notes);
    let tricks = std::mem::take(&mut values.tricks);
    prost::Message::clear(values);
    if changes(field::HAND) {
        values.hand = longer(hand, &mut unused.hand);
    } else if hand.len() > unused.hand.len() {
        unused.hand = hand;
    }
    if changes(field::PLAYERS) {
        values.players = longer(players, &mut unused.players);
    } else if players.len() > unused.players.len() {
        unused.players = players;
    }
    if changes(field::TRICK) {
        values.trick = trick.or_else(|| unused.trick.take());
    } else if trick.is_some() {
        unused.trick = trick;
    }
    if changes(field::NOTES) {
        values.notes = longer(notes, &mut unused.notes);
    } else if notes.len() > unused.notes.len() {
        unused.notes = notes;
    }
    for &f in &d.changed {
        convert::put_field(values, obs, f, results, form);
    }
    let kept = tricks_kept(prev, obs);
    if kept < obs.tricks.len() {
        values.tricks = longer(tricks, &mut unused.tricks);
        convert::refill(&mut values.tricks, obs.tricks[kept..].iter(), |w, t| {
            convert::trick_into(w, t, form);
        });
    } else if tricks.len() > unused.tricks.len() {
        unused.tricks = tricks;
    }
    d.tricks_kept = kept as u32;
}

/// Whichever of `list` and `unused` holds more items (the other stays in
/// `unused`).
fn longer<T>(list: Vec<T>, unused: &mut Vec<T>) -> Vec<T> {
    if list.len() >= unused.len() {
        list
    } else {
        std::mem::replace(unused, list)
    }
}

/// The fields of `now` that differ from `prev`, as a mask with bit `f` set
/// for field number `f` (`convert::field`), the completed tricks and the
/// history left out: within a hand they only grow, and travel as what was
/// added (compact requests, the viewer's pages).
pub fn changed_fields(prev: &Observation, now: &Observation) -> u32 {
    field::ALL
        .filter(|&f| f != field::TRICKS && f != field::HISTORY && !same(prev, now, f))
        .fold(0, |mask, f| mask | 1 << f)
}

/// Whether field number `f` is the same in both observations.
fn same(a: &Observation, b: &Observation, f: u32) -> bool {
    match f {
        field::GAME => a.game == b.game,
        field::SEAT => a.seat == b.seat,
        field::SEATS => a.seats == b.seats,
        field::DEAL => a.deal == b.deal,
        field::DEALER => a.dealer == b.dealer,
        field::PHASE => a.phase == b.phase,
        field::TO_ACT => a.to_act == b.to_act,
        field::SIMULTANEOUS => a.simultaneous == b.simultaneous,
        field::HAND => a.hand == b.hand,
        field::PLAYERS => a.players == b.players,
        field::TRUMP => a.trump == b.trump,
        field::CONTRACT => a.contract == b.contract,
        field::TABLE => a.table == b.table,
        field::PILES => a.piles == b.piles,
        field::TRICK => a.trick == b.trick,
        field::TRICKS => a.tricks == b.tricks,
        field::HISTORY => a.history == b.history,
        field::NOTES => a.notes == b.notes,
        _ => true,
    }
}

/// A bot's side of a stream: the whole observation, rebuilt from compact
/// requests (or simply taken from whole ones).
#[derive(Debug, Default)]
pub struct Rebuilder {
    pub(crate) obs: Option<Observation>,
    /// What [`Rebuilder::update_wire`] reads before it applies it.
    pub(crate) staged: crate::wire::Staged,
}

impl Rebuilder {
    /// Nothing received yet.
    pub fn new() -> Rebuilder {
        Rebuilder::default()
    }

    /// Takes in a request and returns the whole observation it stands for.
    ///
    /// # Errors
    /// [`DecodeError`] for a malformed request, and
    /// `DecodeError::Missing("observation")` for a delta without an
    /// observation before it: the bot should send `Resync`. Either way the
    /// rebuilder then waits for a whole observation.
    pub fn update(&mut self, r: &pb::DecisionRequest) -> Result<&Observation, DecodeError> {
        let result = match (&r.observation, &r.delta, self.obs.take()) {
            (Some(o), _, _) => convert::observation_from(o),
            (None, Some(d), Some(mut obs)) => apply(&mut obs, d).map(|()| obs),
            (None, _, _) => Err(DecodeError::Missing("observation")),
        };
        Ok(self.obs.insert(result?))
    }

    /// The observation of the last request taken in, if any.
    pub fn observation(&self) -> Option<&Observation> {
        self.obs.as_ref()
    }
}

/// Applies a delta to the observation it was made from.
///
/// # Errors
/// [`DecodeError`] for a malformed delta (then `obs` may be half changed).
pub fn apply(obs: &mut Observation, d: &pb::ObservationDelta) -> Result<(), DecodeError> {
    for e in &d.events {
        let e = convert::event_from(e)?;
        if matches!(e, Event::HandStart { .. }) {
            obs.history.clear();
        }
        obs.history.push(e);
    }
    let kept = d.tricks_kept as usize;
    if kept > obs.tricks.len() {
        return Err(DecodeError::Bad {
            what: "tricks_kept",
            value: kept.to_string(),
        });
    }
    obs.tricks.truncate(kept);
    let empty = pb::Observation::default();
    let values = d.values.as_ref().unwrap_or(&empty);
    for t in &values.tricks {
        obs.tricks.push(convert::trick_from(t)?);
    }
    for &f in &d.changed {
        if f == field::TRICKS || f == field::HISTORY || !field::ALL.contains(&f) {
            return Err(DecodeError::Bad {
                what: "changed field",
                value: f.to_string(),
            });
        }
        convert::take_field(obs, values, f)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use prost::Message;
    use whistle_rules::{Fallback, Game, MatchDriver, Options, Seat, Variant, dealing::Seed};

    use super::*;

    /// Plays `hands` hands of `variant` with every seat on a compact stream
    /// (events held as the referee holds them), rebuilds each request and
    /// compares it with the engine's observation. Returns (whole bytes,
    /// compact bytes) over every request.
    fn play(
        variant: Variant,
        options: &Options,
        seed: u64,
        resync_every: usize,
        form: Form,
    ) -> (usize, usize) {
        let game = variant.new_game(options).expect("game");
        let seats = game.seats();
        let mut driver = MatchDriver::new(game, Seed::from_u64(seed), Fallback::First);
        let mut encoders: Vec<DeltaEncoder> =
            (0..seats).map(|_| DeltaEncoder::with_form(form)).collect();
        // The same streams through `encode_request` (the referee's way).
        let mut direct: Vec<DeltaEncoder> =
            (0..seats).map(|_| DeltaEncoder::with_form(form)).collect();
        let mut bots: Vec<Rebuilder> = (0..seats).map(|_| Rebuilder::new()).collect();
        let (mut whole, mut compact) = (0, 0);
        let mut pushed = (0usize, 0u32);
        let mut rng = seed | 1;
        let mut requests = 0;
        loop {
            let to_act = driver.to_ask().expect("drive");
            // Hold the new log entries as the table pushes them.
            let game = driver.game();
            if game.deals() != pushed.1 {
                pushed = (0, game.deals());
            }
            for seat in Seat::all(seats) {
                for entry in &game.log()[pushed.0..] {
                    if let Some(ev) = entry.seen_by(seat) {
                        // As the referee holds them: over delivered ones.
                        encoders[seat.index()].hold_event(&ev, game.hand_results());
                        direct[seat.index()].hold_event(&ev, game.hand_results());
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
                direct[seat.index()].resync();
            }
            let full = messages_request(&obs, game.hand_results(), &legal);
            // What a new message built for this request alone holds.
            let encoder = &encoders[seat.index()];
            let expected = fresh_request(
                encoder.prev.as_deref(),
                &obs,
                encoder.events[..encoder.held].to_vec(),
                game.hand_results(),
                &legal,
                form,
            );
            let msg = encoders[seat.index()].request(
                7,
                obs.clone(),
                game.hand_results(),
                &legal,
                Duration::from_millis(100),
                Duration::ZERO,
            );
            assert_eq!(
                msg.encode_to_vec(),
                expected.encode_to_vec(),
                "{variant} seed {seed} request {requests}: the reused request's bytes"
            );
            #[cfg(feature = "grpc")]
            {
                // The referee writes requests itself: prost's bytes.
                let mut buffer = crate::codec::EncodeBuffer::new();
                assert_eq!(
                    buffer.encode_referee(&msg).0.as_ref(),
                    msg.encode_to_vec().as_slice(),
                    "{variant} seed {seed} request {requests}: written by the codec"
                );
                assert_eq!(
                    buffer.encode_referee(&full).0.as_ref(),
                    full.encode_to_vec().as_slice(),
                    "{variant} seed {seed} request {requests}: a whole one, by the codec"
                );
                // Values written straight from the observation.
                let encoded = direct[seat.index()].encode_request(
                    7,
                    Box::new(obs.clone()),
                    game.hand_results(),
                    &legal,
                    Duration::from_millis(100),
                    Duration::ZERO,
                    &mut buffer,
                );
                assert_eq!(
                    encoded.0.as_ref(),
                    msg.encode_to_vec().as_slice(),
                    "{variant} seed {seed} request {requests}: encoded directly"
                );
            }
            whole += full.encoded_len();
            compact += msg.encoded_len();
            let msg = pb::RefereeMessage::decode(msg.encode_to_vec().as_slice()).expect("decode");
            let Some(pb::referee_message::Msg::Request(r)) = msg.msg else {
                panic!("a request");
            };
            let rebuilt = bots[seat.index()].update(&r).expect("rebuild");
            assert_eq!(rebuilt, &obs, "{variant} seed {seed} request {requests}");
            assert_eq!(convert::request_legal(&r).expect("legal"), legal.to_vec());
            if form == Form::Binary {
                assert!(r.legal.is_empty() && !r.legal_ids.is_empty());
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let action = legal[(rng % legal.len() as u64) as usize];
            driver.apply(seat, action, false).expect("legal");
        }
        (whole, compact)
    }

    /// The request [`DeltaEncoder::request`] sends, built anew from
    /// nothing: the seat's previous observation, if any, and the events held.
    fn fresh_request(
        prev: Option<&Observation>,
        obs: &Observation,
        events: Vec<pb::Event>,
        results: &[HandResult],
        legal: &[Action],
        form: Form,
    ) -> pb::RefereeMessage {
        let (observation, delta) = match prev {
            None => (Some(convert::observation_in(obs, results, form)), None),
            Some(prev) => {
                let mut values = pb::Observation::default();
                let mask = changed_fields(prev, obs);
                let changed: Vec<u32> = field::ALL.filter(|f| mask & (1 << f) != 0).collect();
                for &f in &changed {
                    convert::put_field(&mut values, obs, f, results, form);
                }
                let kept = prev
                    .tricks
                    .iter()
                    .zip(&obs.tricks)
                    .take_while(|(a, b)| a == b)
                    .count();
                values.tricks = obs.tricks[kept..]
                    .iter()
                    .map(|t| {
                        let mut w = pb::Trick::default();
                        convert::trick_into(&mut w, t, form);
                        w
                    })
                    .collect();
                let delta = pb::ObservationDelta {
                    events,
                    changed,
                    values: Some(values),
                    tricks_kept: kept as u32,
                };
                (None, Some(delta))
            }
        };
        let (legal, legal_ids) = crate::messages::legal_in(legal, form);
        pb::RefereeMessage {
            msg: Some(pb::referee_message::Msg::Request(pb::DecisionRequest {
                request_id: 7,
                observation,
                legal,
                deadline_ms: 100,
                time_bank_ms: 0,
                delta,
                legal_ids,
            })),
        }
    }

    fn messages_request(
        obs: &Observation,
        results: &[HandResult],
        legal: &[Action],
    ) -> pb::RefereeMessage {
        crate::messages::request(
            7,
            obs,
            results,
            legal,
            Duration::from_millis(100),
            Duration::ZERO,
        )
    }

    #[test]
    fn every_game_rebuilds_the_whole_observation_at_every_request() {
        for variant in Variant::ALL {
            let options = Options::parse(&["hands=3"]).expect("options");
            for seed in 1..4 {
                let (whole, compact) = play(variant, &options, seed, 0, Form::Text);
                assert!(
                    compact * 3 < whole * 2,
                    "{variant}: compact {compact} bytes against {whole}"
                );
                play(variant, &options, seed, 5, Form::Text);
                let (_, binary) = play(variant, &options, seed, 0, Form::Binary);
                println!(
                    "{variant} seed {seed}: whole {whole} bytes, compact {compact}, binary {binary}"
                );
                assert!(
                    binary < compact,
                    "{variant}: binary {binary} bytes against compact {compact}"
                );
                play(variant, &options, seed, 5, Form::Binary);
            }
        }
    }

    #[test]
    fn a_delta_without_a_whole_observation_before_it_asks_for_one() {
        let mut r = Rebuilder::new();
        let req = pb::DecisionRequest {
            delta: Some(pb::ObservationDelta::default()),
            ..Default::default()
        };
        assert_eq!(r.update(&req), Err(DecodeError::Missing("observation")));
    }

    #[test]
    fn a_delta_that_names_history_or_keeps_unknown_tricks_is_malformed() {
        let game = Variant::Israeli
            .new_game(&Options::default())
            .expect("game");
        let mut obs = game.observe(Seat::new(0));
        for d in [
            pb::ObservationDelta {
                changed: vec![field::HISTORY],
                ..Default::default()
            },
            pb::ObservationDelta {
                changed: vec![99],
                ..Default::default()
            },
            pb::ObservationDelta {
                tricks_kept: 3,
                ..Default::default()
            },
        ] {
            assert!(
                matches!(apply(&mut obs, &d), Err(DecodeError::Bad { .. })),
                "{d:?}"
            );
        }
    }
}
