//! What a seat is told beyond its cards: the revealed open-null hand, the
//! kitty cards it saw, the piles and the notes of Illustrated Whist's
//! observation (documented in the module).

use std::fmt::Write as _;

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
    fn table_into(&self, viewer: Seat, table: &mut Vec<TableCard>) {
        table.extend(
            self.kitty_seen[viewer.index()]
                .iter()
                .map(|card| TableCard {
                    label: "kitty".into(),
                    owner: self.exchanger,
                    card,
                }),
        );
    }

    fn piles(&self, _viewer: Seat) -> Piles {
        let discards: usize = self.discarded.iter().map(|d| d.len()).sum();
        [("kitty", self.kitty_left), ("discards", discards as u8)]
            .into_iter()
            .collect()
    }

    fn write_notes(&self, notes: &mut Notes<'_>) {
        notes.put("hands", self.cfg.hands);
        notes.put("hands-played", self.core.played());
        let passed = notes.value("passed");
        if self.passed.is_empty() {
            passed.push('-');
        }
        for (i, s) in self.passed.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(passed, "{sep}{s}");
        }
        notes.put_or("declarer", self.contract.map(|_| self.declarer), "-");
        notes.put_or("base", self.contract.map(|c| c.base()), "-");
        notes.put_or("section", self.contract.map(|c| c.section().name()), "-");
        notes.put_or("exchange", self.exchange.map(|e| e.name()), "-");
        let difficulty = match (self.contract, self.exchange) {
            (Some(c), Some(e)) => Some(difficulty(e, c.section())),
            _ => None,
        };
        notes.put_or("difficulty", difficulty, "-");
        notes.put_or("exchanger", self.exchanger, "-");
        notes.put("to-discard", self.to_discard);
        notes.put_or("sitting-out", self.sitting_out, "-");
        let announcements = notes.value("announcements");
        for (t, row) in self.calls.iter().enumerate() {
            for feat in Feat::ALL {
                let m = row[feat as usize];
                if m != 0 {
                    let sep = if announcements.is_empty() { "" } else { ", " };
                    let _ = write!(announcements, "{sep}{t} {} x{m}", feat.name());
                }
            }
        }
        if announcements.is_empty() {
            announcements.push('-');
        }
        let _ = write!(notes.value("game"), "x{}", self.game_mult);
        let tricks = self.team_tricks();
        let _ = write!(notes.value("team-tricks"), "{} {}", tricks[0], tricks[1]);
    }
}
