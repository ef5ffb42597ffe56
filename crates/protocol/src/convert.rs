//! Conversions between engine values and wire messages.
//!
//! Engine → wire is total. Wire → engine (bot answers, table requests) checks
//! syntax only and reports a [`DecodeError`]; whether an action is legal is
//! decided by the engine.

use std::fmt;

use whistle_rules::{
    Action, ActionKind, Card, CardSet, Event, HandResult, MAX_SEATS, MatchResult, Observation,
    Options, Phase, Player, ScoreOrder, Seat, SeatView, Source, TableCard, TrickView, Trump,
};

use crate::{ids, pb};

/// The form of the cards and actions a stream is sent: canonical text, or
/// small integers (`Hello.binary`, [`crate::ids`]) in the `*_id` fields,
/// the text fields then left empty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Form {
    /// Canonical text (the default, and what logs keep).
    #[default]
    Text,
    /// Card and action ids.
    Binary,
}

impl Form {
    /// The form a `Hello` asks for.
    pub fn of(binary: bool) -> Form {
        if binary { Form::Binary } else { Form::Text }
    }

    /// A card as (text, id): one of the two is empty.
    fn card(self, c: Card) -> (String, u32) {
        match self {
            Form::Text => (card_text(c), 0),
            Form::Binary => (String::new(), ids::card_id(c)),
        }
    }

    /// An action as (text, id): one of the two is empty.
    fn action(self, a: Action) -> (String, u32) {
        match self {
            Form::Text => (action_text(a), 0),
            Form::Binary => (String::new(), ids::action_id(a)),
        }
    }

    /// A set of cards as (texts, ids): one of the two is empty.
    fn cards(self, set: CardSet) -> (Vec<String>, Vec<u32>) {
        match self {
            Form::Text => (cards(set), Vec::new()),
            Form::Binary => (Vec::new(), ids::card_ids(set)),
        }
    }

    /// [`Form::cards`] into `texts` and `ids`, refilled in place (the
    /// texts' strings are written over, not made anew).
    fn cards_into(self, set: CardSet, texts: &mut Vec<String>, ids: &mut Vec<u32>) {
        ids.clear();
        match self {
            Form::Text => refill(texts, set.iter(), |w, c| set_text(w, c.text())),
            Form::Binary => {
                texts.clear();
                ids.extend(set.iter().map(ids::card_id));
            }
        }
    }

    /// [`Form::card`] written over `text` and `id`.
    fn card_into(self, c: Card, text: &mut String, id: &mut u32) {
        match self {
            Form::Text => {
                set_text(text, c.text());
                *id = 0;
            }
            Form::Binary => {
                text.clear();
                *id = ids::card_id(c);
            }
        }
    }

    /// [`Form::action`] of `a`, if any, written over `text` and `id`
    /// (empty and 0 for none).
    fn action_into(self, a: Option<Action>, text: &mut String, id: &mut u32) {
        match (self, a) {
            (Form::Text, Some(a)) => {
                action_text_into(a, text);
                *id = 0;
            }
            (Form::Binary, Some(a)) => {
                text.clear();
                *id = ids::action_id(a);
            }
            (_, None) => {
                text.clear();
                *id = 0;
            }
        }
    }
}

/// Refills `v` with an item per element of `from`, each written by `fill`
/// over the item already at its place (or a new one past the end), so that
/// the items' own vectors and strings are used again.
pub(crate) fn refill<T: Default, S>(
    v: &mut Vec<T>,
    from: impl ExactSizeIterator<Item = S>,
    mut fill: impl FnMut(&mut T, S),
) {
    v.truncate(from.len());
    for (i, x) in from.enumerate() {
        if i == v.len() {
            v.push(T::default());
        }
        fill(&mut v[i], x);
    }
}

/// `text` into `out`, refilled in place.
fn set_text(out: &mut String, text: &str) {
    out.clear();
    out.push_str(text);
}

/// A wire message that does not decode into engine values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A field holds a value that is not one of its kind (a card, a seat,
    /// an action, a phase...).
    Bad {
        /// What the field holds.
        what: &'static str,
        /// The value found.
        value: String,
    },
    /// A required field or message is absent.
    Missing(&'static str),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Bad { what, value } => write!(f, "bad {what}: `{value}`"),
            DecodeError::Missing(what) => write!(f, "missing {what}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// A card's canonical text, the same as its `Display` but built without the
/// formatting machinery: requests carry dozens of cards, and this is the
/// referee's hot path.
fn card_text(c: Card) -> String {
    c.text().to_owned()
}

/// An action's canonical text (its `Display`), card plays the fast way.
pub(crate) fn action_text(a: Action) -> String {
    match a {
        Action::Play(c) => card_text(c),
        a => a.to_string(),
    }
}

/// [`action_text`] written over `out`.
pub(crate) fn action_text_into(a: Action, out: &mut String) {
    match a {
        Action::Play(c) => set_text(out, c.text()),
        a => {
            use std::fmt::Write;
            out.clear();
            let _ = write!(out, "{a}");
        }
    }
}

fn cards(set: CardSet) -> Vec<String> {
    set.iter().map(card_text).collect()
}

pub(crate) fn seat(s: Seat) -> u32 {
    s.index() as u32
}

/// A deck order (top first) as a wire message.
pub fn deck_order(order: &[Card]) -> pb::DeckOrder {
    pb::DeckOrder {
        cards: order.iter().map(|&c| card_text(c)).collect(),
    }
}

/// A wire deck order as cards.
///
/// # Errors
/// [`DecodeError`] naming the first text that is not a card.
pub fn parse_deck_order(order: &pb::DeckOrder) -> Result<Vec<Card>, DecodeError> {
    order
        .cards
        .iter()
        .map(|c| c.parse::<Card>().map_err(|_| bad("card", c)))
        .collect()
}

/// Options as wire pairs (sorted by key).
pub fn options(options: &Options) -> Vec<pb::Option> {
    options
        .iter()
        .map(|(k, v)| pb::Option {
            key: k.to_string(),
            value: v.to_string(),
        })
        .collect()
}

/// Wire pairs as options (a later pair with the same key wins).
pub fn options_from(pairs: &[pb::Option]) -> Options {
    let mut o = Options::new();
    for p in pairs {
        o.set(&p.key, &p.value);
    }
    o
}

/// A phase as its wire enum value.
pub fn phase(p: Phase) -> pb::Phase {
    match p {
        Phase::Deal => pb::Phase::Deal,
        Phase::Auction => pb::Phase::Auction,
        Phase::Bid => pb::Phase::Bid,
        Phase::Pass => pb::Phase::Pass,
        Phase::Declare => pb::Phase::Declare,
        Phase::Choose => pb::Phase::Choose,
        Phase::Exchange => pb::Phase::Exchange,
        Phase::Play => pb::Phase::Play,
        Phase::Over => pb::Phase::Over,
    }
}

fn trump(t: Trump) -> pb::Trump {
    use pb::trump::Kind;
    let (kind, suit) = match t {
        Trump::Undecided => (Kind::Undecided, String::new()),
        Trump::Suit(s) => (Kind::Suit, s.to_string()),
        Trump::NoTrump => (Kind::NoTrump, String::new()),
        Trump::Nines => (Kind::Nines, String::new()),
        Trump::Jokers => (Kind::Jokers, String::new()),
    };
    pb::Trump {
        kind: kind as i32,
        suit,
    }
}

/// `v` written over `w`, whose card lists are refilled in place.
fn seat_view_into(w: &mut pb::SeatView, v: &SeatView, form: Form) {
    let (mut known, mut known_ids) = (
        std::mem::take(&mut w.known),
        std::mem::take(&mut w.known_ids),
    );
    form.cards_into(v.known, &mut known, &mut known_ids);
    let (mut bid, mut bid_id) = (std::mem::take(&mut w.bid), 0);
    form.action_into(v.bid, &mut bid, &mut bid_id);
    *w = pb::SeatView {
        seat: seat(v.seat),
        held: v.held as u32,
        known,
        bid,
        tricks: v.tricks as u32,
        total: v.total,
        team: v.team as u32,
        active: v.active,
        known_ids,
        bid_id,
    };
}

fn table_card(t: &TableCard, form: Form) -> pb::TableCard {
    let (card, card_id) = form.card(t.card);
    pb::TableCard {
        label: t.label.to_string(),
        has_owner: t.owner.is_some(),
        owner: t.owner.map_or(0, seat),
        card,
        card_id,
    }
}

pub(crate) fn player(p: Player) -> (bool, u32) {
    match p {
        Player::Seat(s) => (false, seat(s)),
        Player::Dummy => (true, 0),
    }
}

/// `t` written over `w`, whose card list is refilled in place.
pub(crate) fn trick_into(w: &mut pb::Trick, t: &TrickView, form: Form) {
    let (winner_dummy, winner_seat) = t.winner.map_or((false, 0), player);
    let mut cards = std::mem::take(&mut w.cards);
    refill(&mut cards, t.cards.iter(), |w, &(p, c)| {
        let (dummy, seat) = player(p);
        w.dummy = dummy;
        w.seat = seat;
        form.card_into(c, &mut w.card, &mut w.card_id);
    });
    *w = pb::Trick {
        cards,
        complete: t.winner.is_some(),
        winner_dummy,
        winner_seat,
    };
}

/// A hand result as a wire message.
pub fn hand_result(r: &HandResult) -> pb::HandResult {
    pb::HandResult {
        deal: r.deal,
        dealer: seat(r.dealer),
        misdeal: r.misdeal,
        bids: r
            .bids
            .iter()
            .map(|b| b.map(action_text).unwrap_or_default())
            .collect(),
        tricks: r.tricks.iter().map(|&t| t as u32).collect(),
        points: r.points.to_vec(),
        totals: r.totals.to_vec(),
        summary: r.summary.to_string(),
        seat_points: r.seat_points.to_vec(),
    }
}

/// A match result as a wire message, with the seats that forfeited.
pub fn match_result(r: &MatchResult, forfeited: &[Seat]) -> pb::MatchResult {
    pb::MatchResult {
        totals: r.totals.clone(),
        teams: r.teams.iter().map(|&t| t as u32).collect(),
        ranks: r.ranks.iter().map(|&t| t as u32).collect(),
        lower_is_better: r.order == ScoreOrder::LowerIsBetter,
        hands: r.hands,
        note: r.note.clone(),
        forfeited: forfeited.iter().map(|&s| seat(s)).collect(),
    }
}

/// An event as a wire message. `results` are the match's hand results, from
/// which a `HandEnd` takes its result.
pub fn event(e: &Event, results: &[HandResult]) -> pb::Event {
    event_in(e, results, Form::Text)
}

/// [`event_in`] written over `w`: an action over an action refills its
/// text in place.
pub(crate) fn event_into(w: &mut pb::Event, e: &Event, results: &[HandResult], form: Form) {
    use pb::event::Kind;
    match (e, &mut w.kind) {
        (&Event::Action { seat: s, action }, Some(Kind::Action(a))) => {
            a.seat = seat(s);
            form.action_into(Some(action), &mut a.action, &mut a.action_id);
        }
        _ => *w = event_in(e, results, form),
    }
}

/// An event as a wire message in `form`.
pub fn event_in(e: &Event, results: &[HandResult], form: Form) -> pb::Event {
    use pb::event::Kind;
    let kind = match *e {
        Event::HandStart { deal, dealer } => Kind::HandStart(pb::HandStart {
            deal,
            dealer: seat(dealer),
        }),
        Event::Dealt { seat: s, cards: c } => {
            let (cards, card_ids) = form.cards(c);
            Kind::Dealt(pb::Dealt {
                seat: seat(s),
                cards,
                card_ids,
            })
        }
        Event::TurnUp { card } => {
            let (card, card_id) = form.card(card);
            Kind::TurnUp(pb::TurnUp { card, card_id })
        }
        Event::Action { seat: s, action } => {
            let (action, action_id) = form.action(action);
            Kind::Action(pb::ActionTaken {
                seat: seat(s),
                action,
                action_id,
            })
        }
        Event::Hidden { seat: s, kind } => Kind::Hidden(pb::HiddenAction {
            seat: seat(s),
            kind: kind.name().to_string(),
        }),
        Event::DummyPlay { card } => {
            let (card, card_id) = form.card(card);
            Kind::DummyPlay(pb::DummyPlay { card, card_id })
        }
        Event::TrickWon { index, winner } => {
            let (dummy, s) = player(winner);
            Kind::TrickWon(pb::TrickWon {
                index: index as u32,
                dummy,
                seat: s,
            })
        }
        Event::Take {
            seat: s,
            card,
            from,
        } => {
            let (from, from_seat) = match from {
                Source::Stock => ("stock", 0),
                Source::Kitty => ("kitty", 0),
                Source::Seat(f) => ("seat", seat(f)),
            };
            let (card, card_id) = card.map(|c| form.card(c)).unwrap_or_default();
            Kind::Take(pb::Take {
                seat: seat(s),
                card,
                from: from.to_string(),
                from_seat,
                card_id,
            })
        }
        Event::Reveal { seat: s, cards: c } => {
            let (cards, card_ids) = form.cards(c);
            Kind::Reveal(pb::Reveal {
                seat: seat(s),
                cards,
                card_ids,
            })
        }
        Event::Misdeal => Kind::Misdeal(pb::Misdeal {}),
        Event::HandEnd { deal } => Kind::HandEnd(pb::HandEnd {
            result: results.iter().find(|r| r.deal == deal).map(hand_result),
        }),
    };
    pb::Event { kind: Some(kind) }
}

/// The field numbers of `Observation` in whistle.proto.
pub mod field {
    /// `game`.
    pub const GAME: u32 = 1;
    /// `seat`.
    pub const SEAT: u32 = 2;
    /// `seats`.
    pub const SEATS: u32 = 3;
    /// `deal`.
    pub const DEAL: u32 = 4;
    /// `dealer`.
    pub const DEALER: u32 = 5;
    /// `phase`.
    pub const PHASE: u32 = 6;
    /// `to_act`.
    pub const TO_ACT: u32 = 7;
    /// `simultaneous`.
    pub const SIMULTANEOUS: u32 = 8;
    /// `hand`.
    pub const HAND: u32 = 9;
    /// `players`.
    pub const PLAYERS: u32 = 10;
    /// `trump`.
    pub const TRUMP: u32 = 11;
    /// `contract`.
    pub const CONTRACT: u32 = 12;
    /// `table`.
    pub const TABLE: u32 = 13;
    /// `piles`.
    pub const PILES: u32 = 14;
    /// `trick`.
    pub const TRICK: u32 = 15;
    /// `tricks`.
    pub const TRICKS: u32 = 16;
    /// `history`.
    pub const HISTORY: u32 = 17;
    /// `notes`.
    pub const NOTES: u32 = 18;
    /// Every field number, in order.
    pub const ALL: std::ops::RangeInclusive<u32> = GAME..=NOTES;
}

/// Sets field number `f` of the wire observation `w` from `o`. Lists are
/// refilled in place (their items' vectors and strings used again), so a
/// caller that keeps `w` from one request to the next allocates only for
/// what grew.
pub(crate) fn put_field(
    w: &mut pb::Observation,
    o: &Observation,
    f: u32,
    results: &[HandResult],
    form: Form,
) {
    match f {
        field::GAME => set_text(&mut w.game, o.game.name()),
        field::SEAT => w.seat = seat(o.seat),
        field::SEATS => w.seats = o.seats as u32,
        field::DEAL => w.deal = o.deal,
        field::DEALER => w.dealer = seat(o.dealer),
        field::PHASE => w.phase = phase(o.phase) as i32,
        field::TO_ACT => {
            w.to_act.clear();
            w.to_act.extend(o.to_act.iter().map(seat));
        }
        field::SIMULTANEOUS => w.simultaneous = o.simultaneous,
        field::HAND => form.cards_into(o.hand, &mut w.hand, &mut w.hand_ids),
        field::PLAYERS => refill(&mut w.players, o.players.iter(), |w, v| {
            seat_view_into(w, v, form);
        }),
        field::TRUMP => w.trump = Some(trump(o.trump)),
        field::CONTRACT => {
            w.contract = o.contract.map(|(s, a)| {
                let (action, action_id) = form.action(a);
                pb::Contract {
                    seat: seat(s),
                    action,
                    action_id,
                }
            });
        }
        field::TABLE => w.table = o.table.iter().map(|t| table_card(t, form)).collect(),
        field::PILES => {
            refill(&mut w.piles, o.piles.iter(), |w, (name, count)| {
                set_text(&mut w.name, name);
                w.count = *count as u32;
            });
        }
        field::TRICK => trick_into(w.trick.get_or_insert_with(Default::default), &o.trick, form),
        field::TRICKS => refill(&mut w.tricks, o.tricks.iter(), |w, t| {
            trick_into(w, t, form)
        }),
        field::HISTORY => {
            w.history = o
                .history
                .iter()
                .map(|e| event_in(e, results, form))
                .collect();
        }
        field::NOTES => {
            refill(&mut w.notes, o.notes.iter(), |w, (k, v)| {
                set_text(&mut w.key, k);
                set_text(&mut w.value, v);
            });
        }
        _ => {}
    }
}

/// An observation as a wire message. `results` are the match's hand results.
pub fn observation(o: &Observation, results: &[HandResult]) -> pb::Observation {
    observation_in(o, results, Form::Text)
}

/// An observation as a wire message in `form`.
pub fn observation_in(o: &Observation, results: &[HandResult], form: Form) -> pb::Observation {
    let mut w = pb::Observation::default();
    for f in field::ALL {
        put_field(&mut w, o, f, results, form);
    }
    w
}

/// A bot's choice, decoded but not yet checked against the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// An index into the request's legal actions.
    Index(u32),
    /// Canonical action text.
    Text(String),
}

/// Decodes an answer into its request id and choice.
///
/// # Errors
/// [`DecodeError`] when the answer carries neither an index nor text.
pub fn answer(a: &pb::Answer) -> Result<(u64, Choice), DecodeError> {
    match &a.choice {
        Some(pb::answer::Choice::Index(i)) => Ok((a.request_id, Choice::Index(*i))),
        Some(pb::answer::Choice::Text(t)) => Ok((a.request_id, Choice::Text(t.clone()))),
        None => Err(DecodeError::Missing("answer: an index or text")),
    }
}

/// The legal actions as wire text.
pub fn legal(actions: &[Action]) -> Vec<String> {
    actions.iter().map(|&a| action_text(a)).collect()
}

// ---------------------------------------------------------------------------
// Wire → engine, for bot kits: the same Observation a bot sees in-process.
// ---------------------------------------------------------------------------

fn bad(what: &'static str, value: impl fmt::Display) -> DecodeError {
    DecodeError::Bad {
        what,
        value: crate::limits::echo(&value.to_string()),
    }
}

pub(crate) fn seat_from(i: u32) -> Result<Seat, DecodeError> {
    if (i as usize) < whistle_rules::MAX_SEATS {
        Ok(Seat::new(i as usize))
    } else {
        Err(bad("seat", i))
    }
}

fn card_from(s: &str) -> Result<Card, DecodeError> {
    s.parse().map_err(|_| bad("card", s))
}

fn cards_from(v: &[String]) -> Result<CardSet, DecodeError> {
    v.iter().map(|c| card_from(c)).collect()
}

fn action_from(s: &str) -> Result<Action, DecodeError> {
    s.parse().map_err(|_| bad("action", s))
}

pub(crate) fn card_of_id(id: u32) -> Result<Card, DecodeError> {
    ids::card_from_id(id).ok_or_else(|| bad("card id", id))
}

pub(crate) fn action_of_id(id: u32) -> Result<Action, DecodeError> {
    ids::action_from_id(id).ok_or_else(|| bad("action id", id))
}

/// A card sent as text or (binary streams) as an id; `None` when neither.
fn card_either(text: &str, id: u32) -> Result<Option<Card>, DecodeError> {
    match (text.is_empty(), id) {
        (true, 0) => Ok(None),
        (true, id) => card_of_id(id).map(Some),
        (false, _) => card_from(text).map(Some),
    }
}

fn card_required(text: &str, id: u32) -> Result<Card, DecodeError> {
    card_either(text, id)?.ok_or(DecodeError::Missing("card"))
}

/// An action sent as text or as an id; `None` when neither.
fn action_either(text: &str, id: u32) -> Result<Option<Action>, DecodeError> {
    match (text.is_empty(), id) {
        (true, 0) => Ok(None),
        (true, id) => action_of_id(id).map(Some),
        (false, _) => action_from(text).map(Some),
    }
}

fn action_required(text: &str, id: u32) -> Result<Action, DecodeError> {
    action_either(text, id)?.ok_or(DecodeError::Missing("action"))
}

/// Cards sent as texts or as ids (one of the two lists is empty).
fn cards_either(texts: &[String], ids: &[u32]) -> Result<CardSet, DecodeError> {
    let mut set = cards_from(texts)?;
    for &id in ids {
        set.insert(card_of_id(id)?);
    }
    Ok(set)
}

fn small(i: u32, what: &'static str) -> Result<u8, DecodeError> {
    u8::try_from(i).map_err(|_| bad(what, i))
}

pub(crate) fn phase_from(i: i32) -> Result<Phase, DecodeError> {
    Ok(match pb::Phase::try_from(i).map_err(|_| bad("phase", i))? {
        pb::Phase::Deal => Phase::Deal,
        pb::Phase::Auction => Phase::Auction,
        pb::Phase::Bid => Phase::Bid,
        pb::Phase::Pass => Phase::Pass,
        pb::Phase::Declare => Phase::Declare,
        pb::Phase::Choose => Phase::Choose,
        pb::Phase::Exchange => Phase::Exchange,
        pb::Phase::Play => Phase::Play,
        pb::Phase::Over => Phase::Over,
        pb::Phase::Unspecified => return Err(bad("phase", i)),
    })
}

fn trump_from(t: Option<&pb::Trump>) -> Result<Trump, DecodeError> {
    let t = t.ok_or(DecodeError::Missing("trump"))?;
    trump_of(t.kind, &t.suit)
}

/// A `Trump`'s kind and suit as the engine's.
pub(crate) fn trump_of(kind: i32, suit: &str) -> Result<Trump, DecodeError> {
    use pb::trump::Kind;
    Ok(
        match Kind::try_from(kind).map_err(|_| bad("trump", kind))? {
            Kind::Undecided => Trump::Undecided,
            Kind::Suit => {
                let c = suit.chars().next().unwrap_or(' ');
                Trump::Suit(whistle_rules::Suit::from_char(c).ok_or_else(|| bad("suit", suit))?)
            }
            Kind::NoTrump => Trump::NoTrump,
            Kind::Nines => Trump::Nines,
            Kind::Jokers => Trump::Jokers,
            Kind::Unspecified => return Err(bad("trump", kind)),
        },
    )
}

fn player_from(dummy: bool, seat: u32) -> Result<Player, DecodeError> {
    if dummy {
        Ok(Player::Dummy)
    } else {
        seat_from(seat).map(Player::Seat)
    }
}

pub(crate) fn trick_from(t: &pb::Trick) -> Result<TrickView, DecodeError> {
    if t.cards.len() > whistle_rules::MAX_TRICK {
        return Err(bad("trick cards", format!("{} entries", t.cards.len())));
    }
    Ok(TrickView {
        cards: t
            .cards
            .iter()
            .map(|c| {
                Ok((
                    player_from(c.dummy, c.seat)?,
                    card_required(&c.card, c.card_id)?,
                ))
            })
            .collect::<Result<_, DecodeError>>()?,
        winner: if t.complete {
            Some(player_from(t.winner_dummy, t.winner_seat)?)
        } else {
            None
        },
    })
}

/// A wire hand result as the engine's.
///
/// # Errors
/// [`DecodeError`] for a bad seat or bid.
pub fn hand_result_from(r: &pb::HandResult) -> Result<HandResult, DecodeError> {
    for (what, len) in [
        ("bids", r.bids.len()),
        ("tricks", r.tricks.len()),
        ("points", r.points.len()),
        ("totals", r.totals.len()),
        ("seat_points", r.seat_points.len()),
    ] {
        if len > MAX_SEATS {
            return Err(bad(what, format!("{len} entries")));
        }
    }
    let per_seat = |v: &[i32]| v.iter().copied().collect();
    Ok(HandResult {
        deal: r.deal,
        dealer: seat_from(r.dealer)?,
        misdeal: r.misdeal,
        bids: r
            .bids
            .iter()
            .map(|b| {
                if b.is_empty() {
                    Ok(None)
                } else {
                    action_from(b).map(Some)
                }
            })
            .collect::<Result<_, _>>()?,
        tricks: r
            .tricks
            .iter()
            .map(|&t| small(t, "tricks"))
            .collect::<Result<_, _>>()?,
        made: r.points.iter().map(|_| None).collect(),
        points: per_seat(&r.points),
        totals: per_seat(&r.totals),
        seat_points: per_seat(&r.seat_points),
        summary: r.summary.as_str().into(),
    })
}

/// A wire match result as the engine's, with the forfeited seats.
///
/// # Errors
/// [`DecodeError`] for a bad seat, team or rank.
pub fn match_result_from(r: &pb::MatchResult) -> Result<(MatchResult, Vec<Seat>), DecodeError> {
    Ok((
        MatchResult {
            totals: r.totals.clone(),
            teams: r
                .teams
                .iter()
                .map(|&t| small(t, "team"))
                .collect::<Result<_, _>>()?,
            order: if r.lower_is_better {
                ScoreOrder::LowerIsBetter
            } else {
                ScoreOrder::HigherIsBetter
            },
            ranks: r
                .ranks
                .iter()
                .map(|&t| small(t, "rank"))
                .collect::<Result<_, _>>()?,
            hands: r.hands,
            note: r.note.clone(),
        },
        r.forfeited
            .iter()
            .map(|&s| seat_from(s))
            .collect::<Result<_, _>>()?,
    ))
}

/// A wire event as the engine's. A `HandEnd` keeps only its deal index; its
/// result is available through [`hand_result_from`].
///
/// # Errors
/// [`DecodeError`] for a missing or malformed event.
pub fn event_from(e: &pb::Event) -> Result<Event, DecodeError> {
    use pb::event::Kind;
    let kind = e.kind.as_ref().ok_or(DecodeError::Missing("event kind"))?;
    Ok(match kind {
        Kind::HandStart(h) => Event::HandStart {
            deal: h.deal,
            dealer: seat_from(h.dealer)?,
        },
        Kind::Dealt(d) => Event::Dealt {
            seat: seat_from(d.seat)?,
            cards: cards_either(&d.cards, &d.card_ids)?,
        },
        Kind::TurnUp(t) => Event::TurnUp {
            card: card_required(&t.card, t.card_id)?,
        },
        Kind::Action(a) => Event::Action {
            seat: seat_from(a.seat)?,
            action: action_required(&a.action, a.action_id)?,
        },
        Kind::Hidden(h) => Event::Hidden {
            seat: seat_from(h.seat)?,
            kind: ActionKind::from_name(&h.kind).ok_or_else(|| bad("action kind", &h.kind))?,
        },
        Kind::DummyPlay(d) => Event::DummyPlay {
            card: card_required(&d.card, d.card_id)?,
        },
        Kind::TrickWon(t) => Event::TrickWon {
            index: small(t.index, "trick index")?,
            winner: player_from(t.dummy, t.seat)?,
        },
        Kind::Take(t) => Event::Take {
            seat: seat_from(t.seat)?,
            card: card_either(&t.card, t.card_id)?,
            from: match t.from.as_str() {
                "stock" => Source::Stock,
                "kitty" => Source::Kitty,
                "seat" => Source::Seat(seat_from(t.from_seat)?),
                other => return Err(bad("source", other)),
            },
        },
        Kind::Reveal(r) => Event::Reveal {
            seat: seat_from(r.seat)?,
            cards: cards_either(&r.cards, &r.card_ids)?,
        },
        Kind::Misdeal(_) => Event::Misdeal,
        Kind::HandEnd(h) => Event::HandEnd {
            deal: h.result.as_ref().map_or(0, |r| r.deal),
        },
    })
}

/// A wire observation as the engine's [`Observation`]: a Rust bot sees over
/// the wire exactly what it would see in-process.
///
/// # Errors
/// [`DecodeError`] for any malformed field.
pub fn observation_from(o: &pb::Observation) -> Result<Observation, DecodeError> {
    let mut obs = Observation {
        game: o.game.parse().map_err(|_| bad("game", &o.game))?,
        seat: seat_from(o.seat)?,
        seats: small(o.seats, "seats")?,
        deal: 0,
        dealer: Seat::new(0),
        phase: Phase::Deal,
        to_act: whistle_rules::SeatSet::EMPTY,
        simultaneous: false,
        hand: CardSet::EMPTY,
        players: Vec::new(),
        trump: Trump::Undecided,
        contract: None,
        table: Vec::new(),
        piles: Vec::new(),
        trick: TrickView {
            cards: Default::default(),
            winner: None,
        },
        tricks: Vec::new(),
        history: Vec::new(),
        notes: Vec::new(),
    };
    for f in field::DEAL..=field::NOTES {
        take_field(&mut obs, o, f)?;
    }
    Ok(obs)
}

/// Sets field number `f` of `obs` from the wire observation `o`.
pub(crate) fn take_field(
    obs: &mut Observation,
    o: &pb::Observation,
    f: u32,
) -> Result<(), DecodeError> {
    match f {
        field::GAME => obs.game = o.game.parse().map_err(|_| bad("game", &o.game))?,
        field::SEAT => obs.seat = seat_from(o.seat)?,
        field::SEATS => obs.seats = small(o.seats, "seats")?,
        field::DEAL => obs.deal = o.deal,
        field::DEALER => obs.dealer = seat_from(o.dealer)?,
        field::PHASE => obs.phase = phase_from(o.phase)?,
        field::TO_ACT => {
            obs.to_act = o
                .to_act
                .iter()
                .map(|&s| seat_from(s))
                .collect::<Result<_, _>>()?;
        }
        field::SIMULTANEOUS => obs.simultaneous = o.simultaneous,
        field::HAND => obs.hand = cards_either(&o.hand, &o.hand_ids)?,
        field::PLAYERS => {
            obs.players = o
                .players
                .iter()
                .map(|p| {
                    Ok(SeatView {
                        seat: seat_from(p.seat)?,
                        held: small(p.held, "held")?,
                        known: cards_either(&p.known, &p.known_ids)?,
                        bid: action_either(&p.bid, p.bid_id)?,
                        tricks: small(p.tricks, "tricks")?,
                        total: p.total,
                        team: small(p.team, "team")?,
                        active: p.active,
                    })
                })
                .collect::<Result<_, DecodeError>>()?;
        }
        field::TRUMP => obs.trump = trump_from(o.trump.as_ref())?,
        field::CONTRACT => {
            obs.contract = match &o.contract {
                Some(c) => Some((seat_from(c.seat)?, action_required(&c.action, c.action_id)?)),
                None => None,
            };
        }
        field::TABLE => {
            obs.table = o
                .table
                .iter()
                .map(|t| {
                    Ok(TableCard {
                        label: t.label.clone().into(),
                        owner: if t.has_owner {
                            Some(seat_from(t.owner)?)
                        } else {
                            None
                        },
                        card: card_required(&t.card, t.card_id)?,
                    })
                })
                .collect::<Result<_, DecodeError>>()?;
        }
        field::PILES => {
            obs.piles = o
                .piles
                .iter()
                .map(|p| Ok((p.name.clone(), small(p.count, "pile count")?)))
                .collect::<Result<_, DecodeError>>()?;
        }
        field::TRICK => {
            obs.trick = trick_from(o.trick.as_ref().ok_or(DecodeError::Missing("trick"))?)?;
        }
        field::TRICKS => obs.tricks = o.tricks.iter().map(trick_from).collect::<Result<_, _>>()?,
        field::HISTORY => {
            obs.history = o.history.iter().map(event_from).collect::<Result<_, _>>()?;
        }
        field::NOTES => {
            obs.notes = o
                .notes
                .iter()
                .map(|n| (n.key.clone(), n.value.clone()))
                .collect();
        }
        _ => {}
    }
    Ok(())
}

/// The legal actions of a request as engine actions.
///
/// # Errors
/// [`DecodeError`] for text that is not an action.
pub fn legal_from(legal: &[String]) -> Result<Vec<Action>, DecodeError> {
    legal.iter().map(|a| action_from(a)).collect()
}

/// The legal actions of a request, sent as texts or (binary streams) as ids.
///
/// # Errors
/// [`DecodeError`] for text or an id that is not an action.
pub fn request_legal(r: &pb::DecisionRequest) -> Result<Vec<Action>, DecodeError> {
    let mut legal = legal_from(&r.legal)?;
    for &id in &r.legal_ids {
        legal.push(action_of_id(id)?);
    }
    Ok(legal)
}

#[cfg(test)]
mod tests {
    use prost::Message;
    use whistle_rules::{Game, Variant, dealing};

    use super::*;

    #[test]
    fn an_observation_encodes_and_decodes() {
        let mut g = Variant::Israeli
            .new_game(&Options::parse(&["hands=1"]).unwrap())
            .unwrap();
        dealing::deal_if_needed(&mut g, dealing::Seed::from_u64(3)).unwrap();
        let o = g.observe(Seat::new(1));
        let msg = observation(&o, g.hand_results());
        let bytes = msg.encode_to_vec();
        let back = pb::Observation::decode(bytes.as_slice()).unwrap();
        assert_eq!(back, msg);
        assert_eq!(back.hand.len(), 13);
        assert_eq!(back.phase, pb::Phase::Auction as i32);
        assert_eq!(back.to_act, [1]);
    }

    #[test]
    fn observations_round_trip_through_the_wire_for_every_game() {
        for variant in Variant::ALL {
            let mut g = variant
                .new_game(&Options::parse(&["hands=2"]).unwrap())
                .unwrap();
            let seed = dealing::Seed::from_u64(9);
            let mut step = 0usize;
            while !g.is_over() {
                if dealing::deal_if_needed(&mut g, seed).unwrap() {
                    continue;
                }
                for s in Seat::all(g.seats()) {
                    let o = g.observe(s);
                    let back = observation_from(&observation(&o, g.hand_results())).unwrap();
                    assert_eq!(back, o, "{variant} step {step} seat {s}");
                    let binary = observation_in(&o, g.hand_results(), Form::Binary);
                    assert!(binary.hand.is_empty() && binary.hand_ids.len() == o.hand.len());
                    let back = observation_from(&binary).unwrap();
                    assert_eq!(back, o, "{variant} step {step} seat {s}, binary");
                }
                let seat = g.to_act().first().unwrap();
                let actions = g.legal_actions(seat);
                assert_eq!(legal_from(&legal(&actions)).unwrap(), actions.to_vec());
                g.apply(seat, actions[step % actions.len()]).unwrap();
                step += 1;
            }
            for r in g.hand_results() {
                let mut back = hand_result_from(&hand_result(r)).unwrap();
                back.made = r.made.clone();
                assert_eq!(&back, r);
            }
            let result = g.result().unwrap();
            let (back, forfeited) =
                match_result_from(&match_result(&result, &[Seat::new(1)])).unwrap();
            assert_eq!(back, result);
            assert_eq!(forfeited, [Seat::new(1)]);
        }
    }

    #[test]
    fn the_json_of_text_messages_has_no_id_fields() {
        let mut g = Variant::Israeli
            .new_game(&Options::parse(&["hands=1"]).unwrap())
            .unwrap();
        dealing::deal_if_needed(&mut g, dealing::Seed::from_u64(3)).unwrap();
        let o = g.observe(Seat::new(1));
        let text = serde_json::to_string(&observation(&o, g.hand_results())).unwrap();
        assert!(!text.contains("_id"), "{text}");
        let binary =
            serde_json::to_string(&observation_in(&o, g.hand_results(), Form::Binary)).unwrap();
        assert!(binary.contains("\"hand_ids\":["), "{binary}");
        let pass = Event::Action {
            seat: Seat::new(0),
            action: Action::Pass,
        };
        let text = serde_json::to_string(&event(&pass, &[])).unwrap();
        assert_eq!(text, r#"{"action":{"seat":0,"action":"pass"}}"#);
        let binary = serde_json::to_string(&event_in(&pass, &[], Form::Binary)).unwrap();
        assert_eq!(
            binary,
            r#"{"action":{"seat":0,"action":"","action_id":4097}}"#
        );
    }

    #[test]
    fn card_and_action_text_match_display() {
        for i in 0..54 {
            let Some(c) = Card::from_index(i) else {
                continue;
            };
            assert_eq!(card_text(c), c.to_string());
            assert_eq!(action_text(Action::Play(c)), Action::Play(c).to_string());
            assert_eq!(action_text(Action::Give(c)), Action::Give(c).to_string());
        }
        assert_eq!(action_text(Action::Pass), "pass");
    }

    #[test]
    fn answers_decode_or_fail() {
        let a = pb::Answer {
            request_id: 4,
            choice: Some(pb::answer::Choice::Text("AS".into())),
        };
        assert_eq!(answer(&a).unwrap(), (4, Choice::Text("AS".into())));
        let empty = pb::Answer {
            request_id: 4,
            choice: None,
        };
        assert!(answer(&empty).is_err());
    }

    #[test]
    fn deck_orders_round_trip() {
        let order = dealing::deck_order(dealing::Seed::from_u64(1), whistle_rules::decks::STANDARD);
        let msg = deck_order(&order);
        assert_eq!(parse_deck_order(&msg).unwrap(), order.to_vec());
        let bad = pb::DeckOrder {
            cards: vec!["ZZ".into()],
        };
        assert!(parse_deck_order(&bad).is_err());
    }
}
