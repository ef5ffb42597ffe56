//! Scoring of Yogi's Whist: the fines of a hand (Y9), its result and
//! summary, and the end of the match (Y11).

use std::fmt::Write as _;

use super::*;

impl Yogi {
    pub(super) fn end_hand(&mut self) {
        let n = self.n();
        // Y10: every bid card is shown.
        for s in Seat::all(n) {
            self.show_bid(s);
        }
        let targets: Vec<u8> = Seat::all(n).map(|s| self.target_of(s)).collect();
        let won = self.core.tricks.won_by_seat(n);
        let made: Vec<bool> = (0..n).map(|s| won[s] == targets[s]).collect();
        let points = fines(&made, self.declarer, self.revealer);
        let summary = self.summary(&targets, &made);
        self.core.end_hand(HandScore {
            bids: targets.iter().map(|&t| Some(Action::Bid(t))).collect(),
            made: made.iter().map(|&m| Some(m)).collect(),
            points: points.into_iter().collect(),
            summary,
            ..HandScore::default()
        });
        // The deal passes left; Y11: the match has `hands` hands.
        let over = self.core.played() >= self.cfg.hands;
        self.core.pass_deal(over);
        self.enter(if over { Stage::Over } else { Stage::Deal });
    }

    /// One line for people, e.g. `turn-up 7H (trump H); targets 3 0 2 2 1;
    /// tricks 0 3 0 0 0; declared by 1 (made)`, written in place (no
    /// allocation for a line that fits a summary's inline bytes).
    pub(super) fn summary(&self, targets: &[u8], made: &[bool]) -> Summary {
        let n = self.n();
        let turn_up = self.turn_up();
        let mut out = Summary::new();
        if self.cfg.dealer_chooses {
            let _ = write!(out, "size {}; ", self.size);
        }
        let _ = write!(out, "turn-up {turn_up} (trump {})", self.trump_text());
        if self.rotated == Some(true) {
            out.push_str("; bids rotated");
        }
        out.push_str("; targets ");
        write_joined(&mut out, targets.iter(), " ");
        out.push_str("; tricks ");
        write_joined(&mut out, self.core.tricks.won_by_seat(n), " ");
        let result = |s: Seat| if made[s.index()] { "made" } else { "missed" };
        match (self.declarer, self.revealer) {
            (Some(d), _) => {
                let _ = write!(out, "; declared by {d} ({})", result(d));
            }
            (None, Some(r)) => {
                let _ = write!(out, "; revealed by {r} ({})", result(r));
                if let Some(c) = self.cancelled {
                    let _ = write!(out, ", cancelling {c}'s declaration");
                }
            }
            (None, None) => {}
        }
        out
    }

    pub(super) fn trump_text(&self) -> TrumpText {
        TrumpText(self.turn_up)
    }
}

/// The trump as the notes and a hand's summary write it: `-` before the
/// turn-up, `nines`, or the turn-up's suit (written in place: no text is
/// built).
pub(super) struct TrumpText(Option<Card>);

crate::games::observe::display_note!(TrumpText);

impl std::fmt::Display for TrumpText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            None => f.write_str("-"),
            Some(t) if nines_are_a_suit(t) => f.write_str("nines"),
            Some(t) => write!(f, "{}", t.suit().expect("a suited turn-up")),
        }
    }
}
