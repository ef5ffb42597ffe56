//! The bidding of Oneonta Whist: who bids first and who leads (O13, O14,
//! O16, O17) and which bids are legal (O4, O7, O13, O16, O17).

use super::*;

impl Oneonta {
    /// O13, O14: among `candidates`, the highest match total, then the dealer
    /// or the first seat clockwise from the dealer.
    pub(super) fn tie_break(&self, candidates: SeatSet) -> Seat {
        let top = candidates
            .iter()
            .map(|s| self.core.totals()[s.index()])
            .max()
            .unwrap_or(0);
        let best: SeatSet = candidates
            .iter()
            .filter(|s| self.core.totals()[s.index()] == top)
            .collect();
        self.first_from(self.core.dealer, best)
    }

    /// The seats of `among` whose `value` is highest.
    pub(super) fn highest(&self, among: SeatSet, value: impl Fn(Seat) -> u8) -> SeatSet {
        let top = among.iter().map(&value).max().unwrap_or(0);
        among.iter().filter(|&s| value(s) == top).collect()
    }

    /// Who bids first this hand (O4, O13, O16, O17).
    pub(super) fn first_bidder(&self) -> Seat {
        let previous = match self.core.results.last() {
            Some(r) => Some(r.bids.as_slice()),
            None if !self.context_bids.is_empty() => Some(self.context_bids.as_slice()),
            None => None,
        };
        match (self.cfg.mode, previous) {
            // O13: later hands start with the highest positive bid of the hand
            // before; a null counts 0, so with no positive bid every seat ties.
            (Mode::Multi, Some(previous)) => {
                let positive = |s: Seat| bid_value(previous[s.index()]);
                self.tie_break(self.highest(self.active, positive))
            }
            // O13 (the first hand), O16, O17: the dealer's left; solitaire: the player.
            _ => self.next_active(self.core.dealer),
        }
    }

    /// Who leads the first trick in the modes without a dummy (O14, O16).
    pub(super) fn first_leader(&self) -> Seat {
        let value = |s: Seat| bid_value(self.bids[s.index()]);
        let best = self.highest(self.active, value);
        match self.cfg.mode {
            // O14: highest positive bid, then the highest total, then the dealer.
            Mode::Multi => self.tie_break(best),
            // O16: highest bid, then the dealer or first clockwise from it.
            _ => self.first_from(self.core.dealer, best),
        }
    }

    pub(super) fn bids_total(&self) -> u8 {
        self.bids.iter().map(|&b| bid_value(b)).sum()
    }

    /// Seats still to bid after the one bidding now.
    pub(super) fn still_to_bid(&self) -> usize {
        let placed = self.bids.iter().filter(|b| b.is_some()).count();
        self.active.len() - placed - 1
    }

    /// O4, O7, O9, O13, O16, O17: whether the seat to bid may make `bid`.
    pub(super) fn check_bid(&self, bid: Action) -> Result<(), IllegalReason> {
        let h = self.size;
        let range = IllegalReason::OutOfRange {
            min: 1,
            max: i32::from(h),
        };
        let edd = self.cfg.scoring == Scoring::EddAllard;
        let no_double = IllegalReason::Rule {
            id: "O7",
            text: "doubling is not played (option `doubling`)",
        };
        let doubled = IllegalReason::Rule {
            id: "O7",
            text: "a bid has already been doubled this hand",
        };
        match bid {
            Action::Bid(k) if k < 1 || k > h => return Err(range),
            Action::Null(0) if !edd => return Err(range),
            Action::Null(r) if edd && r != 0 => {
                return Err(IllegalReason::Rule {
                    id: "O9",
                    text: "an Edd Allard null has no risk number (`null`)",
                });
            }
            Action::Null(r) if r > h => return Err(range),
            Action::DoubleBid(k) => {
                if !self.cfg.doubling {
                    return Err(no_double);
                }
                if k != h {
                    return Err(IllegalReason::Rule {
                        id: "O7",
                        text: "only a bid of the maximum may be doubled",
                    });
                }
                if self.doubled.is_some() {
                    return Err(doubled);
                }
            }
            Action::DoubleNull(r) => {
                if !self.cfg.doubling {
                    return Err(no_double);
                }
                if edd {
                    return Err(IllegalReason::Rule {
                        id: "O9",
                        text: "an Edd Allard null has no risk number to double",
                    });
                }
                if r != h {
                    return Err(IllegalReason::Rule {
                        id: "O7",
                        text: "only a null risking the maximum may be doubled",
                    });
                }
                if self.doubled.is_some() {
                    return Err(doubled);
                }
            }
            Action::Bid(_) | Action::Null(_) => {}
            _ => return Err(IllegalReason::WrongPhase),
        }
        let total = u32::from(self.bids_total()) + u32::from(bid_value(Some(bid)));
        match self.cfg.mode {
            Mode::Coop => {
                // O16: the seats still to bid can add anything from 0 (nulls)
                // to h each, so the total can still come out at exactly h iff
                // it is at most h now and reaches h with their help.
                let h = u32::from(h);
                let reach = total + self.still_to_bid() as u32 * h;
                if total > h || reach < h {
                    return Err(IllegalReason::Rule {
                        id: "O16",
                        text: "the bids must total exactly the hand size",
                    });
                }
            }
            Mode::CoopDummy if total > u32::from(h) => {
                return Err(IllegalReason::Rule {
                    id: "O17",
                    text: "the bids may total at most the hand size",
                });
            }
            _ => {}
        }
        Ok(())
    }
}
