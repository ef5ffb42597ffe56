//! What a seat is told beyond its cards: the revealed hand, the bid cards
//! it may see (Y6, Y7, Y10), the piles and the notes of Yogi's Whist's
//! observation.

use std::fmt::Write as _;

use super::*;

impl Yogi {
    /// Whether `viewer` knows the bid cards of `owner`: its own, the ones it
    /// passed on in a rotation (Y13), and public ones.
    pub(super) fn knows_bid(&self, viewer: Seat, owner: Seat) -> bool {
        owner == viewer
            || self.bids_public.contains(owner)
            || (self.rotated == Some(true) && owner == viewer.next(self.n()))
    }

    /// Whether `seat` has placed all its bid cards.
    pub(super) fn bid_complete(&self, seat: Seat) -> bool {
        let placed = self.bids[seat.index()].len();
        placed > 0 && placed == self.counts[seat.index()] as usize
    }

}

impl Shown for Yogi {
    fn held(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    // Y6: the revealer's hand is public once the first card is played.
    fn known(&self, _viewer: Seat, seat: Seat) -> CardSet {
        if self.hand_shown && self.revealer == Some(seat) {
            self.hands[seat.index()]
        } else {
            CardSet::EMPTY
        }
    }

    fn bid(&self, viewer: Seat, seat: Seat) -> Option<Action> {
        (self.bid_complete(seat) && self.knows_bid(viewer, seat))
            .then(|| Action::Bid(self.target_of(seat)))
    }

    // Y12: a seat out of cards sits out the rest of the play.
    fn active(&self, seat: Seat) -> bool {
        !(self.stage == Stage::Play && self.hands[seat.index()].is_empty())
    }

    fn trump(&self) -> Trump {
        match self.turn_up {
            None => Trump::Undecided,
            Some(t) if nines_are_a_suit(t) => Trump::Nines,
            Some(t) => Trump::Suit(t.suit().expect("a suited turn-up")),
        }
    }

    fn contract(&self) -> Option<(Seat, Action)> {
        match (self.declarer, self.revealer) {
            (Some(d), _) => Some((d, Action::Declare)),
            (None, Some(r)) => Some((r, Action::Reveal)),
            (None, None) => None,
        }
    }

    fn piles(&self, viewer: Seat) -> Piles {
        let n = self.n();
        let undealt = if self.order.is_empty() {
            0
        } else {
            DECK - n * self.size as usize - usize::from(self.turn_up.is_some())
        };
        let unknown_bids: usize = Seat::all(n)
            .filter(|&s| !self.knows_bid(viewer, s))
            .map(|s| self.bids[s.index()].len())
            .sum();
        [("undealt", undealt as u8), ("bid-cards", unknown_bids as u8)]
            .into_iter()
            .collect()
    }

    fn table_into(&self, viewer: Seat, table: &mut Vec<TableCard>) {
        if let Some(card) = self.turn_up {
            table.push(TableCard {
                label: "turn-up".into(),
                owner: None,
                card,
            });
        }
        for s in Seat::all(self.n()) {
            if self.knows_bid(viewer, s) {
                for card in self.bids[s.index()] {
                    table.push(TableCard {
                        label: "bid-card".into(),
                        owner: Some(s),
                        card,
                    });
                }
            }
        }
    }

    fn write_notes(&self, notes: &mut Notes<'_>) {
        let n = self.n();
        notes.put("players", n);
        notes.put("hands", self.cfg.hands);
        notes.put("hands-played", self.core.played());
        notes.put("dealer-chooses", self.cfg.dealer_chooses);
        notes.put("rotate-vote", self.cfg.rotate_vote);
        notes.put_or("hand-size", (self.size != 0).then_some(self.size), "-");
        notes.put_or("turn-up", self.turn_up, "-");
        notes.put("trump", self.trump_text());
        match self.turn_up {
            None => notes.put("joker", "-"),
            Some(t) if t.is_joker() => notes.put("joker", "none"),
            Some(t) => notes.put("joker", t),
        }
        let counts = notes.value("bid-counts");
        for s in 0..n {
            let sep = if s == 0 { "" } else { " " };
            let _ = match self.counts[s] {
                0 => write!(counts, "{sep}-"),
                b => write!(counts, "{sep}{b}"),
            };
        }
        let rotated = match self.rotated {
            None => "-",
            Some(true) => "yes",
            Some(false) => "no",
        };
        notes.put("rotated", rotated);
        notes.put_or("declarer", self.declarer, "-");
        notes.put_or("revealer", self.revealer, "-");
        notes.put_or("leader", self.leader, "-");
    }
}
