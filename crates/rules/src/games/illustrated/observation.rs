//! What a seat is told beyond its cards: the phase and the notes of
//! Illustrated Whist's observation (documented in the module).

use super::*;

impl Illustrated {
    pub(super) fn phase(&self) -> Phase {
        match self.stage {
            Stage::Deal => Phase::Deal,
            Stage::Auction => Phase::Auction,
            Stage::Choose => Phase::Choose,
            Stage::Discard => Phase::Exchange,
            Stage::Announce => Phase::Declare,
            Stage::Play => Phase::Play,
            Stage::Over => Phase::Over,
        }
    }

    pub(super) fn notes(&self) -> Vec<(&'static str, String)> {
        let seat_or_dash = |s: Option<Seat>| s.map_or("-".to_string(), |s| s.to_string());
        let passed = if self.passed.is_empty() {
            "-".to_string()
        } else {
            self.passed
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut announcements = Vec::new();
        for (t, row) in self.calls.iter().enumerate() {
            for feat in Feat::ALL {
                let m = row[feat as usize];
                if m != 0 {
                    announcements.push(format!("{t} {} x{m}", feat.name()));
                }
            }
        }
        let announcements = if announcements.is_empty() {
            "-".to_string()
        } else {
            announcements.join(", ")
        };
        let difficulty = match (self.contract, self.exchange) {
            (Some(c), Some(e)) => difficulty(e, c.section()).to_string(),
            _ => "-".to_string(),
        };
        let tricks = self.team_tricks();
        vec![
            ("hands", self.cfg.hands.to_string()),
            ("hands-played", self.core.played().to_string()),
            ("passed", passed),
            (
                "declarer",
                seat_or_dash(self.contract.map(|_| self.declarer)),
            ),
            (
                "base",
                self.contract
                    .map_or("-".to_string(), |c| c.base().to_string()),
            ),
            (
                "section",
                self.contract
                    .map_or("-".to_string(), |c| c.section().name().to_string()),
            ),
            (
                "exchange",
                self.exchange
                    .map_or("-".to_string(), |e| e.name().to_string()),
            ),
            ("difficulty", difficulty),
            ("exchanger", seat_or_dash(self.exchanger)),
            ("to-discard", self.to_discard.to_string()),
            ("sitting-out", seat_or_dash(self.sitting_out)),
            ("announcements", announcements),
            ("game", format!("x{}", self.game_mult)),
            ("team-tricks", format!("{} {}", tricks[0], tricks[1])),
        ]
    }
}
