//! What a seat is told beyond its cards: the phase, the bid cards it may
//! see (Y6, Y7, Y10) and the notes of Yogi's Whist's observation.

use super::*;

impl Yogi {
    pub(super) fn phase(&self) -> Phase {
        match self.stage {
            Stage::Deal => Phase::Deal,
            Stage::Place | Stage::Count | Stage::PlaceEach => Phase::Bid,
            Stage::Size | Stage::Vote | Stage::Leader => Phase::Choose,
            Stage::Declare => Phase::Declare,
            Stage::Play => Phase::Play,
            Stage::Over => Phase::Over,
        }
    }

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

    pub(super) fn table(&self, viewer: Seat) -> Vec<TableCard> {
        let mut table = Vec::new();
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
        table
    }

    pub(super) fn notes(&self) -> Vec<(&'static str, String)> {
        let n = self.n();
        let seat_text = |s: Option<Seat>| s.map_or("-".to_string(), |s| s.to_string());
        let counts = (0..n)
            .map(|s| match self.counts[s] {
                0 => "-".to_string(),
                b => b.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ");
        let joker = match self.turn_up {
            None => "-".to_string(),
            Some(t) if t.is_joker() => "none".to_string(),
            Some(t) => t.to_string(),
        };
        vec![
            ("players", n.to_string()),
            ("hands", self.cfg.hands.to_string()),
            ("hands-played", self.core.played().to_string()),
            ("dealer-chooses", self.cfg.dealer_chooses.to_string()),
            ("rotate-vote", self.cfg.rotate_vote.to_string()),
            (
                "hand-size",
                match self.size {
                    0 => "-".to_string(),
                    h => h.to_string(),
                },
            ),
            (
                "turn-up",
                self.turn_up.map_or("-".to_string(), |c| c.to_string()),
            ),
            ("trump", self.trump_text()),
            ("joker", joker),
            ("bid-counts", counts),
            (
                "rotated",
                match self.rotated {
                    None => "-",
                    Some(true) => "yes",
                    Some(false) => "no",
                }
                .to_string(),
            ),
            ("declarer", seat_text(self.declarer)),
            ("revealer", seat_text(self.revealer)),
            ("leader", seat_text(self.leader)),
        ]
    }
}
