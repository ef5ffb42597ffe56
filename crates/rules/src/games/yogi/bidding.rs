//! The bidding of Yogi's Whist: the deal of the chosen size (Y12), the bid
//! cards placed (Y4, Y12), the vote to pass them on (Y13), and the declare
//! round's bid cards shown (Y5–Y7).

use super::*;

impl Yogi {
    /// Y1, Y12: deals `size` cards to each seat from the dealer's left, one at
    /// a time, turns up the next card, and starts the bidding.
    pub(super) fn distribute(&mut self, size: u8) {
        let n = self.n();
        self.size = size;
        let dealt = n * size as usize;
        for (i, &c) in self.order[..dealt].iter().enumerate() {
            self.hands[self.core.dealer.left(1 + i, n).index()].insert(c);
        }
        let turn_up = self.order[dealt];
        self.turn_up = Some(turn_up);
        self.rules = trick_rules(turn_up);
        self.core.dealt(&self.hands);
        self.core.public(Event::TurnUp { card: turn_up });
        if self.cfg.dealer_chooses {
            self.enter(Stage::Count);
            self.core.turn = self.core.dealer.next(n);
        } else {
            self.enter(Stage::Place);
        }
    }

    /// Y4: every seat has chosen; the cards go face down, and everyone learns
    /// that the others have placed theirs.
    pub(super) fn finish_placing(&mut self) {
        for s in Seat::all(self.n()) {
            let c = self.pending[s.index()].take().expect("every seat placed");
            self.hands[s.index()].remove(c);
            self.bids[s.index()].insert(c);
            self.counts[s.index()] = 1;
        }
        for s in Seat::all(self.n()) {
            self.core.hidden_to_others(s, ActionKind::Place);
        }
        self.after_bidding();
    }

    pub(super) fn after_bidding(&mut self) {
        if self.cfg.rotate_vote {
            self.enter(Stage::Vote);
        } else {
            self.start_declaring();
        }
    }

    /// Y13: every seat has voted; the votes are shown in seat order (each
    /// once: the log is also the hand's record), and a strict majority
    /// passes every bid card (group) to the next seat clockwise.
    pub(super) fn finish_vote(&mut self) {
        let n = self.n();
        let mut yes = 0;
        for s in Seat::all(n) {
            let v = self.votes[s.index()].expect("every seat voted");
            yes += usize::from(v);
            self.core.public(Event::Action {
                seat: s,
                action: Action::Vote(v),
            });
        }
        let rotate = 2 * yes > n;
        self.rotated = Some(rotate);
        if rotate {
            let old = self.bids;
            for g in Seat::all(n) {
                let r = g.next(n);
                self.bids[r.index()] = old[g.index()];
                let to = SeatSet::single(g).with(r);
                for c in old[g.index()] {
                    self.core.take(r, c, Source::Seat(g), to);
                }
            }
        }
        self.start_declaring();
    }

    pub(super) fn start_declaring(&mut self) {
        self.enter(Stage::Declare);
        self.core.turn = self.core.dealer.next(self.n());
        self.spoken = 0;
    }

    /// Makes `seat`'s bid cards public (Y6, Y7, Y10).
    pub(super) fn show_bid(&mut self, seat: Seat) {
        if self.bids_public.contains(seat) {
            return;
        }
        self.bids_public.insert(seat);
        let cards = self.bids[seat.index()];
        self.core.public(Event::Reveal { seat, cards });
    }
}
