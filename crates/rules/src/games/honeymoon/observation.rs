//! What a seat is told beyond its cards: the face-up cards taken from the
//! stock, the stock's top card and the notes of Honeymoon Whist's
//! observation.

use std::fmt::Write as _;

use super::*;

impl Shown for Honeymoon {
    fn held(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    // H3: a card taken face up stays public until it is played.
    fn known(&self, _viewer: Seat, seat: Seat) -> CardSet {
        self.hands[seat.index()].and(self.taken_up[seat.index()])
    }

    fn trump(&self) -> Trump {
        match (self.core.phase, self.current_trump()) {
            (Phase::Deal, _) => Trump::Undecided,
            (_, Strain::Suit(s)) => Trump::Suit(s),
            (_, Strain::NoTrump) => Trump::Jokers,
        }
    }

    /// The face-up cards on the table (see the module documentation).
    fn table_into(&self, _viewer: Seat, table: &mut Vec<TableCard>) {
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
    }

    fn piles(&self, _viewer: Seat) -> Piles {
        let face_down = (self.stock.len() - self.top).saturating_sub(1);
        [("stock", face_down as u8)].into_iter().collect()
    }

    fn write_notes(&self, notes: &mut Notes<'_>) {
        let phase = match (self.core.phase, self.in_phase1()) {
            (Phase::Play, true) => "1",
            (Phase::Play, false) => "2",
            _ => "-",
        };
        notes.put("phase", phase);
        notes.put("stock", self.stock.len() - self.top);
        notes.put_or("trump", self.core.dealt_here().then_some(self.trump), "-");
        for (key, w) in [("phase1-tricks", self.won[0]), ("phase2-tricks", self.won[1])] {
            let _ = write!(notes.value(key), "{} {}", w[0], w[1]);
        }
        notes.put("hands-played", self.core.played());
        notes.put("scoring", self.cfg.scoring.name());
        notes.put("target", self.cfg.target);
        notes.put_or("hands", self.cfg.hands, "unset");
        notes.put(
            "jokers",
            if self.cfg.equal_jokers {
                "equal"
            } else {
                "distinct"
            },
        );
        notes.put("phase1-follow", self.cfg.phase1_follow);
        notes.put("phase1-trumps", self.cfg.phase1_trumps);
    }
}
