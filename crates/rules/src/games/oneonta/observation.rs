//! What a seat is told beyond its cards: the teams, the turn-up, the piles
//! and the notes of Oneonta Whist's observation.

use std::fmt::Write as _;

use super::*;

impl Oneonta {
    pub(super) fn team_of(&self, seat: Seat) -> u8 {
        if self.cfg.mode.cooperative() {
            0
        } else {
            seat.index() as u8
        }
    }

}

impl Shown for Oneonta {
    fn held(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    // O13: bids are public.
    fn bid(&self, _viewer: Seat, seat: Seat) -> Option<Action> {
        self.bids[seat.index()]
    }

    // O15: only the tied leaders play a play-off hand.
    fn active(&self, seat: Seat) -> bool {
        self.active.contains(seat)
    }

    fn trump(&self) -> Trump {
        match (self.core.phase, self.turn_up) {
            (Phase::Deal, _) | (_, None) => Trump::Undecided,
            (_, Some(card)) => card.suit().map_or(Trump::Jokers, Trump::Suit),
        }
    }

    fn table_into(&self, _viewer: Seat, table: &mut Vec<TableCard>) {
        let in_hand = matches!(self.core.phase, Phase::Bid | Phase::Play);
        if let (true, Some(card)) = (in_hand, self.turn_up) {
            table.push(TableCard {
                label: "turn-up".into(),
                owner: None,
                card,
            });
        }
    }

    fn piles(&self, _viewer: Seat) -> Piles {
        let mut piles = Piles::new();
        if self.cfg.mode.has_dummy() {
            let left = self.dummy.len() - self.dummy_next;
            piles.push(("dummy", left as u8));
        }
        piles.push(("undealt", self.undealt.len() as u8));
        piles
    }

    fn write_notes(&self, notes: &mut Notes<'_>) {
        let mode = self.cfg.mode;
        notes.put("mode", mode.name());
        notes.put("scoring", self.cfg.scoring.name());
        notes.put("doubling", self.cfg.doubling);
        notes.put("hand-size", self.size);
        notes.put("hands", self.cfg.hands);
        notes.put("hands-played", self.core.played());
        notes.put("bids-total", self.bids_total());
        if self.cfg.doubling {
            notes.put_or("doubled", self.doubled, "-");
        }
        if mode.has_dummy() {
            notes.put("dummy-tricks", self.dummy_won);
        }
        if matches!(mode, Mode::Multi | Mode::Coop) {
            notes.put("first-bidder", self.first_bidder);
            let lead = if self.cfg.fixed_lead {
                "fixed"
            } else {
                "winner-leads"
            };
            notes.put("lead", lead);
        }
        if mode == Mode::Multi {
            notes.put("playoff", self.playoff);
            notes.put("playoff-hands", self.cfg.playoff_hands);
            notes.put("playoff-hands-played", self.playoffs);
        }
        if mode.cooperative() {
            let team = if self.cfg.team_lowest {
                "lowest"
            } else {
                "sum"
            };
            notes.put("team-score", team);
            let limit = if mode == Mode::Coop {
                "exactly"
            } else {
                "at-most"
            };
            let _ = write!(notes.value("bid-limit"), "{limit} {}", self.size);
        }
        if self.cfg.scoring == Scoring::EddAllard {
            notes.put("target", EDD_ALLARD_TARGET);
        }
        if self.core.phase == Phase::Over {
            let verdict = self.verdict();
            if !verdict.is_empty() {
                notes.put("verdict", verdict);
            }
        }
    }
}
