//! What a seat is told beyond its cards: the revealed open-null hand, the
//! kitty cards it saw, the piles and the notes of Illustrated Whist's
//! observation (documented in the module).

use super::*;

impl Shown for Illustrated {
    fn held(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    // L6: the open-null declarer's hand is public after the first trick.
    fn known(&self, _viewer: Seat, seat: Seat) -> CardSet {
        if self.revealed && seat == self.declarer {
            self.hands[seat.index()]
        } else {
            CardSet::EMPTY
        }
    }

    fn bid(&self, _viewer: Seat, seat: Seat) -> Option<Action> {
        self.last_bid[seat.index()].map(Contract::action)
    }

    // L6: the null declarer's partner sits out the play.
    fn active(&self, seat: Seat) -> bool {
        self.sitting_out != Some(seat)
    }

    fn trump(&self) -> Trump {
        match self.contract {
            None => Trump::Undecided,
            Some(c) => c.trump().map_or(Trump::NoTrump, Trump::Suit),
        }
    }

    fn contract(&self) -> Option<(Seat, Action)> {
        self.contract.map(|c| (self.declarer, c.action()))
    }

    // L3: the kitty cards the viewer has seen.
    fn table(&self, viewer: Seat) -> Vec<TableCard> {
        self.kitty_seen[viewer.index()]
            .iter()
            .map(|card| TableCard {
                label: "kitty".to_string(),
                owner: self.exchanger,
                card,
            })
            .collect()
    }

    fn piles(&self, _viewer: Seat) -> Vec<(&'static str, u8)> {
        let discards: usize = self.discarded.iter().map(|d| d.len()).sum();
        vec![("kitty", self.kitty_left), ("discards", discards as u8)]
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
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
