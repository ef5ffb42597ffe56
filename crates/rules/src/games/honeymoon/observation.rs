//! What a seat is told beyond its cards: the phase, the tricks as seen, the
//! face-up stock card and the notes of Honeymoon Whist's observation.

use super::*;

impl Honeymoon {
    pub(super) fn phase(&self) -> Phase {
        match self.stage {
            Stage::Deal => Phase::Deal,
            Stage::Play => Phase::Play,
            Stage::Over => Phase::Over,
        }
    }

    pub(super) fn trick_view(played: &Played) -> TrickView {
        let follower = played.leader.next(SEATS);
        TrickView {
            cards: vec![
                (Player::Seat(played.leader), played.cards[0]),
                (Player::Seat(follower), played.cards[1]),
            ],
            winner: Some(Player::Seat(played.winner)),
        }
    }

    /// The face-up cards on the table (see the module documentation).
    pub(super) fn table(&self) -> Vec<TableCard> {
        let mut table = Vec::new();
        if let Some(&card) = self.stock.get(self.top) {
            if self.top == 0 {
                table.push(TableCard {
                    label: "turn-up".into(),
                    owner: None,
                    card,
                });
            }
            table.push(TableCard {
                label: "stock-top".into(),
                owner: None,
                card,
            });
        }
        table
    }

    pub(super) fn notes(&self) -> Vec<(&'static str, String)> {
        let phase = match (self.stage, self.in_phase1()) {
            (Stage::Play, true) => "1",
            (Stage::Play, false) => "2",
            _ => "-",
        };
        let trump = if !self.core.dealt_here() {
            "-".to_string()
        } else {
            self.trump.to_string()
        };
        let by_seat = |w: [u8; SEATS]| format!("{} {}", w[0], w[1]);
        vec![
            ("phase", phase.to_string()),
            ("stock", (self.stock.len() - self.top).to_string()),
            ("trump", trump),
            ("phase1-tricks", by_seat(self.won[0])),
            ("phase2-tricks", by_seat(self.won[1])),
            ("hands-played", self.core.played().to_string()),
            ("scoring", self.cfg.scoring.name().to_string()),
            ("target", self.cfg.target.to_string()),
            ("hands", hands_text(self.cfg.hands)),
            (
                "jokers",
                if self.cfg.equal_jokers {
                    "equal"
                } else {
                    "distinct"
                }
                .to_string(),
            ),
            ("phase1-follow", self.cfg.phase1_follow.to_string()),
            ("phase1-trumps", self.cfg.phase1_trumps.to_string()),
        ]
    }
}
