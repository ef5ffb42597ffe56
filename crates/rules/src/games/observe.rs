//! [`observe`]: one seat's [`Observation`], built once for every game. The
//! parts every game shares (the deal, the dealer, the seats' cards held,
//! tricks won and totals, the tricks, the history the log lets the seat see)
//! come from the [`MatchCore`](super::MatchCore); a game says only what is
//! its own through [`Shown`].

use arrayvec::ArrayVec;

use crate::{
    action::Action,
    card_set::CardSet,
    game::{Game, Status},
    seat::{Seat, SeatSet},
    view::{Observation, SeatView, TableCard, TrickView, Trump, visible_events},
};

/// The most face-down piles a game shows.
pub const MAX_PILES: usize = 2;

/// A game's face-down piles by count ([`Shown::piles`]).
pub type Piles = ArrayVec<(&'static str, u8), MAX_PILES>;

/// What a game shows of itself in an observation. Defaults fit a game
/// without the feature (no contract, no table cards, no piles, ...). Public
/// in a private module: every [`Game`] has it, and only this crate's games
/// can implement it.
pub trait Shown {
    /// The cards `seat` holds.
    fn held(&self, seat: Seat) -> CardSet;

    /// What `viewer` knows of another seat's cards (e.g. a hand turned
    /// public).
    fn known(&self, _viewer: Seat, _seat: Seat) -> CardSet {
        CardSet::EMPTY
    }

    /// `seat`'s bid or contract this hand, as far as `viewer` knows.
    fn bid(&self, _viewer: Seat, _seat: Seat) -> Option<Action> {
        None
    }

    /// Whether `seat` takes part in this hand.
    fn active(&self, _seat: Seat) -> bool {
        true
    }

    /// Trump, as far as known.
    fn trump(&self) -> Trump;

    /// The contract or winning bid and who holds it, once decided.
    fn contract(&self) -> Option<(Seat, Action)> {
        None
    }

    /// Face-up cards not in a trick, as `viewer` sees them, appended to
    /// `out` (which the caller empties first).
    fn table_into(&self, _viewer: Seat, _out: &mut Vec<TableCard>) {}

    /// Face-down piles by count, as `viewer` knows them (inline: no game
    /// has more than [`MAX_PILES`]).
    fn piles(&self, _viewer: Seat) -> Piles {
        Piles::new()
    }

    /// Writes the game's notes (documented per game), in order, each with
    /// [`Notes::put`] or [`Notes::value`].
    fn write_notes(&self, notes: &mut Notes<'_>);

    /// The game's notes, written into `out` in place: its keys and values
    /// are refilled where they can be (a caller that observes at every
    /// request, the referee, then allocates none), and `out` ends equal to
    /// [`Shown::notes`]. FINAL.
    fn notes_into(&self, out: &mut Vec<(String, String)>) {
        let mut notes = Notes { out, len: 0 };
        self.write_notes(&mut notes);
        let len = notes.len;
        out.truncate(len);
    }

    /// The game's notes as a new vector. FINAL.
    fn notes(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        self.notes_into(&mut out);
        out
    }
}

/// The notes being written into an observation's `(key, value)` list:
/// each note refills the next pair, keeping the strings' buffers.
#[derive(Debug)]
pub struct Notes<'a> {
    out: &'a mut Vec<(String, String)>,
    /// The notes written so far.
    len: usize,
}

impl Notes<'_> {
    /// Starts the next note, `key`, and returns its value, empty, for the
    /// caller to write into (`write!`, `push_str`).
    pub fn value(&mut self, key: &'static str) -> &mut String {
        let i = self.len;
        self.len += 1;
        if i == self.out.len() {
            self.out.push((key.to_string(), String::new()));
        } else {
            let (k, v) = &mut self.out[i];
            if k != key {
                k.clear();
                k.push_str(key);
            }
            v.clear();
        }
        &mut self.out[i].1
    }

    /// The next note, `key`, with `value`'s text.
    pub fn put(&mut self, key: &'static str, value: impl NoteValue) {
        value.write_note(self.value(key));
    }

    /// The next note, `key`, with `value`'s text, or `none` without one.
    pub fn put_or(&mut self, key: &'static str, value: Option<impl NoteValue>, none: &str) {
        match value {
            Some(v) => self.put(key, v),
            None => self.put(key, none),
        }
    }
}

/// A value a note can hold, written as its `Display` text. Numbers, texts
/// and flags are written without `core::fmt` (the referee writes a seat's
/// notes at every request); anything else through its `Display`.
pub trait NoteValue {
    /// Appends the value's text to `out`.
    fn write_note(&self, out: &mut String);
}

impl<T: NoteValue + ?Sized> NoteValue for &T {
    fn write_note(&self, out: &mut String) {
        (**self).write_note(out);
    }
}

impl NoteValue for str {
    fn write_note(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl NoteValue for String {
    fn write_note(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl NoteValue for bool {
    fn write_note(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut String, negative: bool, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        out.push('-');
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

macro_rules! unsigned_note {
    ($($t:ty),*) => {$(
        impl NoteValue for $t {
            fn write_note(&self, out: &mut String) {
                push_decimal(out, false, u64::from(*self));
            }
        }
    )*};
}
unsigned_note!(u8, u16, u32, u64);

macro_rules! signed_note {
    ($($t:ty),*) => {$(
        impl NoteValue for $t {
            fn write_note(&self, out: &mut String) {
                let n = i64::from(*self);
                push_decimal(out, n < 0, n.unsigned_abs());
            }
        }
    )*};
}
signed_note!(i8, i16, i32, i64);

impl NoteValue for usize {
    fn write_note(&self, out: &mut String) {
        push_decimal(out, false, *self as u64);
    }
}

/// Types whose note is their `Display` text, through `core::fmt`.
macro_rules! display_note {
    ($($t:ty),*) => {$(
        impl $crate::games::observe::NoteValue for $t {
            fn write_note(&self, out: &mut String) {
                // Writing to a `String` cannot fail.
                let _ = std::fmt::Write::write_fmt(out, format_args!("{self}"));
            }
        }
    )*};
}
pub(crate) use display_note;

/// What `seat` may know now, built from what it may see; without the
/// hand's history unless `with_history`.
pub(crate) fn observe<G: Game>(game: &G, seat: Seat, with_history: bool) -> Observation {
    let core = game.core();
    let teams = game.teams();
    let totals = core.totals();
    let players = Seat::all(game.seats())
        .map(|s| {
            let held = game.held(s);
            SeatView {
                seat: s,
                held: held.len() as u8,
                known: if s == seat { held } else { game.known(seat, s) },
                bid: game.bid(seat, s),
                tricks: core.tricks.won(s),
                total: totals[s.index()],
                team: teams[s.index()],
                active: game.active(s),
            }
        })
        .collect();
    Observation {
        game: game.variant(),
        seat,
        seats: game.seats() as u8,
        deal: core.current_deal(),
        dealer: core.observed_dealer(game.status() == Status::Act),
        phase: game.phase(),
        // In a simultaneous step every seat of the step stays listed,
        // whoever has finished: the step's progress is hidden (I3, Y4, Y13).
        to_act: if game.simultaneous() {
            SeatSet::all(game.seats())
        } else {
            game.to_act()
        },
        simultaneous: game.simultaneous(),
        hand: game.held(seat),
        players,
        trump: game.trump(),
        contract: game.contract(),
        table: {
            let mut table = Vec::new();
            game.table_into(seat, &mut table);
            table
        },
        piles: game
            .piles(seat)
            .into_iter()
            .map(|(k, n)| (k.to_string(), n))
            .collect(),
        trick: core.tricks.current_view(),
        tricks: core.tricks.done_views(),
        history: if with_history {
            visible_events(core.log(), seat)
        } else {
            Vec::new()
        },
        notes: game.notes(),
    }
}

/// [`observe`] into `out`, whose vectors and strings are refilled where
/// they can be (a caller that observes at every request, the referee, then
/// allocates only for the games' table cards and piles). `out` ends equal to what [`observe`]
/// returns.
pub(crate) fn observe_into<G: Game>(
    game: &G,
    seat: Seat,
    with_history: bool,
    out: &mut Observation,
) {
    let core = game.core();
    let teams = game.teams();
    let totals = core.totals();
    out.game = game.variant();
    out.seat = seat;
    out.seats = game.seats() as u8;
    out.deal = core.current_deal();
    out.dealer = core.observed_dealer(game.status() == Status::Act);
    out.phase = game.phase();
    out.to_act = if game.simultaneous() {
        SeatSet::all(game.seats())
    } else {
        game.to_act()
    };
    out.simultaneous = game.simultaneous();
    out.hand = game.held(seat);
    out.players.clear();
    out.players.extend(Seat::all(game.seats()).map(|s| {
        let held = game.held(s);
        SeatView {
            seat: s,
            held: held.len() as u8,
            known: if s == seat { held } else { game.known(seat, s) },
            bid: game.bid(seat, s),
            tricks: core.tricks.won(s),
            total: totals[s.index()],
            team: teams[s.index()],
            active: game.active(s),
        }
    }));
    out.trump = game.trump();
    out.contract = game.contract();
    out.table.clear();
    game.table_into(seat, &mut out.table);
    let piles = game.piles(seat);
    out.piles.truncate(piles.len());
    for (i, (k, n)) in piles.into_iter().enumerate() {
        match out.piles.get_mut(i) {
            Some(p) => {
                p.0.clear();
                p.0.push_str(k);
                p.1 = n;
            }
            None => out.piles.push((k.to_string(), n)),
        }
    }
    out.trick.cards.clear();
    out.trick
        .cards
        .extend(core.tricks.current().cards().iter().copied());
    out.trick.winner = None;
    let done = core.tricks.done();
    out.tricks.truncate(done.len());
    for (i, (t, w)) in done.iter().enumerate() {
        match out.tricks.get_mut(i) {
            Some(v) => {
                v.cards.clear();
                v.cards.extend(t.cards().iter().copied());
                v.winner = Some(*w);
            }
            None => out.tricks.push(TrickView {
                cards: t.cards().iter().copied().collect(),
                winner: Some(*w),
            }),
        }
    }
    out.history.clear();
    if with_history {
        out.history
            .extend(core.log().iter().filter_map(|e| e.seen_by(seat)));
    }
    game.notes_into(&mut out.notes);
}

#[cfg(test)]
mod tests {
    /// A note's text is its value's `Display` text, numbers written
    /// without `core::fmt` included.
    #[test]
    fn note_values_write_their_display_text() {
        fn text(v: impl NoteValue) -> String {
            let mut out = String::from("kept");
            out.clear();
            v.write_note(&mut out);
            out
        }
        for n in [0u64, 7, 9, 10, 13, 99, 100, 65_535, 1 << 32, u64::MAX] {
            assert_eq!(text(n), n.to_string());
        }
        for n in [0i64, -1, -9, -10, 13, -65_536, i64::MIN, i64::MAX] {
            assert_eq!(text(n), n.to_string());
        }
        assert_eq!(text(u8::MAX), "255");
        assert_eq!(text(i8::MIN), "-128");
        assert_eq!(text(usize::MAX), usize::MAX.to_string());
        assert_eq!(text(true), "true");
        assert_eq!(text("over"), "over");
        assert_eq!(text(String::from("nines")), "nines");
        assert_eq!(
            text(crate::seat::Seat::new(2)),
            crate::seat::Seat::new(2).to_string()
        );
    }

    use super::*;
    use crate::{
        Options,
        dealing::{Seed, Shuffler, deal_if_needed},
        games::{AnyGame, Variant, testing::random_steps},
    };

    /// Every option set of `variant`'s `testdata/options.txt`.
    fn option_sets(variant: Variant) -> Vec<Options> {
        let path = format!(
            "{}/src/games/{}/testdata/options.txt",
            env!("CARGO_MANIFEST_DIR"),
            variant.name()
        );
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| Options::parse(&l.split_whitespace().collect::<Vec<_>>()).unwrap())
            .collect()
    }

    /// `notes_into` ends equal to `notes` whatever the list held before
    /// (another seat, hand, game or option set: longer, shorter, other
    /// keys), and refilling a list that holds the same notes moves none
    /// of its strings (nothing is allocated anew).
    #[test]
    fn notes_into_refills_in_place_and_equals_notes() {
        let mut reused: Vec<(String, String)> = Vec::new();
        let mut states = 0;
        for variant in Variant::ALL {
            for options in option_sets(variant) {
                let mut game: AnyGame = variant.new_game(&options).unwrap();
                let seed = Seed::from_u64(states as u64 + 1);
                let mut rng = Shuffler::new(seed);
                while !game.is_over() {
                    if !deal_if_needed(&mut game, seed).unwrap() {
                        random_steps(&mut game, &mut rng, 1);
                    }
                    let fresh = game.notes();
                    game.notes_into(&mut reused);
                    assert_eq!(reused, fresh, "{variant} {options}");
                    let at: Vec<_> = reused
                        .iter()
                        .map(|(k, v)| (k.as_ptr(), v.as_ptr()))
                        .collect();
                    game.notes_into(&mut reused);
                    let again: Vec<_> = reused
                        .iter()
                        .map(|(k, v)| (k.as_ptr(), v.as_ptr()))
                        .collect();
                    assert_eq!(at, again, "{variant} {options}: a note moved");
                    states += 1;
                }
            }
        }
        assert!(states > 1000, "{states} states");
    }

    #[test]
    fn a_note_replaces_the_key_and_value_it_refills_and_the_rest_go() {
        let mut out = vec![
            ("a".to_string(), "old".to_string()),
            ("b".to_string(), "older".to_string()),
            ("c".to_string(), "gone".to_string()),
        ];
        let mut notes = Notes {
            out: &mut out,
            len: 0,
        };
        notes.put("a", 7);
        notes.put_or("x", None::<u8>, "-");
        let len = notes.len;
        out.truncate(len);
        assert_eq!(
            out,
            [
                ("a".to_string(), "7".to_string()),
                ("x".to_string(), "-".to_string())
            ]
        );
    }
}

display_note!(crate::action::Strain, crate::card::Card, crate::seat::Seat);
