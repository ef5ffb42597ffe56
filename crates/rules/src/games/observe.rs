//! [`observe`]: one seat's [`Observation`], built once for every game. The
//! parts every game shares (the deal, the dealer, the seats' cards held,
//! tricks won and totals, the tricks, the history the log lets the seat see)
//! come from the [`MatchCore`](super::MatchCore); a game says only what is
//! its own through [`Shown`].

use crate::{
    action::Action,
    card_set::CardSet,
    game::{Game, Status},
    seat::{Seat, SeatSet},
    view::{Observation, SeatView, TableCard, TrickView, Trump, visible_events},
};

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

    /// Face-up cards not in a trick, as `viewer` sees them.
    fn table(&self, _viewer: Seat) -> Vec<TableCard> {
        Vec::new()
    }

    /// Face-down piles by count, as `viewer` knows them.
    fn piles(&self, _viewer: Seat) -> Vec<(&'static str, u8)> {
        Vec::new()
    }

    /// The game's notes (documented per game).
    fn notes(&self) -> Vec<(&'static str, String)>;
}

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
        table: game.table(seat),
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
        notes: game
            .notes()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    }
}

/// [`observe`] into `out`, whose vectors and strings are refilled where
/// they can be (a caller that observes at every request, the referee, then
/// allocates only the notes' values). `out` ends equal to what [`observe`]
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
    out.table = game.table(seat);
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
        .extend_from_slice(core.tricks.current().cards());
    out.trick.winner = None;
    let done = core.tricks.done();
    out.tricks.truncate(done.len());
    for (i, (t, w)) in done.iter().enumerate() {
        match out.tricks.get_mut(i) {
            Some(v) => {
                v.cards.clear();
                v.cards.extend_from_slice(t.cards());
                v.winner = Some(*w);
            }
            None => out.tricks.push(TrickView {
                cards: t.cards().to_vec(),
                winner: Some(*w),
            }),
        }
    }
    out.history.clear();
    if with_history {
        out.history
            .extend(core.log().iter().filter_map(|e| e.seen_by(seat)));
    }
    let notes = game.notes();
    out.notes.truncate(notes.len());
    for (i, (k, v)) in notes.into_iter().enumerate() {
        match out.notes.get_mut(i) {
            Some(n) => {
                if n.0 != k {
                    n.0.clear();
                    n.0.push_str(k);
                }
                n.1 = v;
            }
            None => out.notes.push((k.to_string(), v)),
        }
    }
}
