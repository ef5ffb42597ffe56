//! What a seat is told beyond its cards: the teams, the turn-up, the piles
//! and the notes of Oneonta Whist's observation.

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

    fn table(&self, _viewer: Seat) -> Vec<TableCard> {
        let in_hand = matches!(self.core.phase, Phase::Bid | Phase::Play);
        match (in_hand, self.turn_up) {
            (true, Some(card)) => vec![TableCard {
                label: "turn-up".to_string(),
                owner: None,
                card,
            }],
            _ => Vec::new(),
        }
    }

    fn piles(&self, _viewer: Seat) -> Vec<(&'static str, u8)> {
        let mut piles = Vec::with_capacity(2);
        if self.cfg.mode.has_dummy() {
            let left = self.dummy.len() - self.dummy_next;
            piles.push(("dummy", left as u8));
        }
        piles.push(("undealt", self.undealt.len() as u8));
        piles
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        let mode = self.cfg.mode;
        let mut notes = vec![
            ("mode", mode.name().to_string()),
            ("scoring", self.cfg.scoring.name().to_string()),
            ("doubling", self.cfg.doubling.to_string()),
            ("hand-size", self.size.to_string()),
            ("hands", self.cfg.hands.to_string()),
            ("hands-played", self.core.played().to_string()),
            ("bids-total", self.bids_total().to_string()),
        ];
        if self.cfg.doubling {
            notes.push((
                "doubled",
                self.doubled.map_or("-".to_string(), |s| s.to_string()),
            ));
        }
        if mode.has_dummy() {
            notes.push(("dummy-tricks", self.dummy_won.to_string()));
        }
        if matches!(mode, Mode::Multi | Mode::Coop) {
            notes.push(("first-bidder", self.first_bidder.to_string()));
            let lead = if self.cfg.fixed_lead {
                "fixed"
            } else {
                "winner-leads"
            };
            notes.push(("lead", lead.to_string()));
        }
        if mode == Mode::Multi {
            notes.push(("playoff", self.playoff.to_string()));
            notes.push(("playoff-hands", self.cfg.playoff_hands.to_string()));
            notes.push(("playoff-hands-played", self.playoffs.to_string()));
        }
        if mode.cooperative() {
            let team = if self.cfg.team_lowest {
                "lowest"
            } else {
                "sum"
            };
            notes.push(("team-score", team.to_string()));
            let limit = if mode == Mode::Coop {
                "exactly"
            } else {
                "at-most"
            };
            notes.push(("bid-limit", format!("{limit} {}", self.size)));
        }
        if self.cfg.scoring == Scoring::EddAllard {
            notes.push(("target", EDD_ALLARD_TARGET.to_string()));
        }
        if self.core.phase == Phase::Over {
            let verdict = self.verdict();
            if !verdict.is_empty() {
                notes.push(("verdict", verdict));
            }
        }
        notes
    }
}
