//! [`Tricks`]: the play of one hand, common to every game: the trick in
//! progress, the finished tricks with their winners and the tricks each
//! seat has won. Held by the [`MatchCore`](super::MatchCore);
//! the game decides who may play what and who leads next.

use arrayvec::ArrayVec;

use crate::{
    card::Card,
    seat::{MAX_SEATS, Player, Seat},
    trick::{Trick, TrickRules},
    view::TrickView,
};

/// The most tricks a hand of any game has (Honeymoon Whist's 14 + 13).
pub(crate) const MAX_TRICKS: usize = 27;

/// The tricks of the current hand.
#[derive(Debug, Clone)]
pub(crate) struct Tricks {
    current: Trick,
    done: ArrayVec<(Trick, Player), MAX_TRICKS>,
    won: [u8; MAX_SEATS],
}

impl Tricks {
    /// No trick played yet.
    pub(crate) fn new() -> Self {
        Tricks {
            current: Trick::new(),
            done: ArrayVec::new(),
            won: [0; MAX_SEATS],
        }
    }

    /// A new hand: nothing played, nothing won.
    pub(crate) fn clear(&mut self) {
        self.current.clear();
        self.done.clear();
        self.won = [0; MAX_SEATS];
    }

    /// The trick in progress (possibly empty).
    pub(crate) fn current(&self) -> &Trick {
        &self.current
    }

    /// The finished tricks of the hand, in order, with their winners.
    pub(crate) fn done(&self) -> &[(Trick, Player)] {
        &self.done
    }

    /// How many tricks are finished.
    pub(crate) fn count(&self) -> usize {
        self.done.len()
    }

    /// Tricks `seat` has won this hand.
    pub(crate) fn won(&self, seat: Seat) -> u8 {
        self.won[seat.index()]
    }

    /// Tricks won by each of the first `n` seats.
    pub(crate) fn won_by_seat(&self, n: usize) -> &[u8] {
        &self.won[..n]
    }

    /// `player` plays `card` to the trick in progress; returns how many
    /// cards the trick now holds. The game logs the play.
    pub(crate) fn play(&mut self, player: Player, card: Card) -> usize {
        self.current.push(player, card);
        self.current.len()
    }

    /// Completes the trick in progress under `rules` and counts its
    /// winner's trick. Returns the trick's index and winner.
    pub(crate) fn finish(&mut self, rules: &TrickRules) -> (u8, Player) {
        let winner = rules.winner(&self.current);
        if let Player::Seat(s) = winner {
            self.won[s.index()] += 1;
        }
        let index = self.done.len() as u8;
        self.done.push((std::mem::take(&mut self.current), winner));
        (index, winner)
    }

    /// The trick in progress as an observation shows it.
    pub(crate) fn current_view(&self) -> TrickView {
        TrickView {
            cards: self.current.cards().iter().copied().collect(),
            winner: None,
        }
    }

    /// The finished tricks as an observation shows them.
    pub(crate) fn done_views(&self) -> Vec<TrickView> {
        self.done
            .iter()
            .map(|(t, w)| TrickView {
                cards: t.cards().iter().copied().collect(),
                winner: Some(*w),
            })
            .collect()
    }
}
