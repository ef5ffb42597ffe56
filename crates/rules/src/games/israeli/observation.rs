//! What a seat is told beyond its cards: bids, trump, the contract and the
//! notes of Israeli Whist's observation.

use super::*;

impl Shown for Israeli {
    fn held(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    fn bid(&self, _viewer: Seat, seat: Seat) -> Option<Action> {
        self.bids[seat.index()].map(Action::Bid)
    }

    fn trump(&self) -> Trump {
        match (self.core.phase, self.trump) {
            (Phase::Auction | Phase::Pass | Phase::Deal, _) | (_, None) => Trump::Undecided,
            (_, Some(Strain::NoTrump)) => Trump::NoTrump,
            (_, Some(Strain::Suit(s))) => Trump::Suit(s),
        }
    }

    fn contract(&self) -> Option<(Seat, Action)> {
        match self.core.phase {
            Phase::Bid | Phase::Play => self
                .standing
                .map(|(d, tricks, strain)| (d, Action::Contract { tricks, strain })),
            _ => None,
        }
    }

    fn write_notes(&self, notes: &mut Notes<'_>) {
        notes.put("min-bid", self.min_bid());
        notes.put("frisch", self.frisches);
        notes.put(
            "auction-order",
            if self.cfg.number_first {
                "number-first"
            } else {
                "suit-first"
            },
        );
        notes.put("hands-scored", self.core.scored());
        notes.put("target", self.cfg.target);
        notes.put_or("hands", self.cfg.hands, "unset");
        let in_hand = !matches!(self.core.phase, Phase::Deal | Phase::Over);
        if in_hand && self.bids.iter().all(Option::is_some) {
            let total = self.bids_total();
            notes.put("bids-total", total);
            notes.put("over-under", if total > 13 { "over" } else { "under" });
        }
    }
}
