//! What a seat is told beyond its cards: the phase, the teams and the notes
//! of Oneonta Whist's observation.

use super::*;

impl Oneonta {
    pub(super) fn phase(&self) -> Phase {
        match self.stage {
            Stage::Deal => Phase::Deal,
            Stage::Bid => Phase::Bid,
            Stage::Play => Phase::Play,
            Stage::Over => Phase::Over,
        }
    }

    pub(super) fn team_of(&self, seat: Seat) -> u8 {
        if self.cfg.mode.cooperative() {
            0
        } else {
            seat.index() as u8
        }
    }

    pub(super) fn notes(&self) -> Vec<(&'static str, String)> {
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
        if self.stage == Stage::Over {
            let verdict = self.verdict();
            if !verdict.is_empty() {
                notes.push(("verdict", verdict));
            }
        }
        notes
    }
}
