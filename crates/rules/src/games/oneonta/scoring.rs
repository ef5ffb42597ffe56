//! Scoring of Oneonta Whist: a hand's points, the team score (O16, O17), the
//! next hand or the end of the match with its play-offs (O9, O10, O15), and
//! the verdict.

use std::fmt::Write as _;

use super::*;

impl Oneonta {
    pub(super) fn end_hand(&mut self) {
        let n = self.n();
        let mut points: PerSeat<i32> = std::iter::repeat_n(0, n).collect();
        let mut made_bids: PerSeat<Option<bool>> = std::iter::repeat_n(None, n).collect();
        for s in self.active.iter() {
            let bid = self.bids[s.index()].expect("every playing seat bid");
            let won = self.core.tricks.won(s);
            points[s.index()] = score(self.cfg.scoring, bid, won);
            made_bids[s.index()] = Some(made(bid, won));
        }
        let team = self.cfg.mode.cooperative().then(|| {
            // O16, O17: one score for the team, carried by every seat.
            let scores = self.active.iter().map(|s| points[s.index()]);
            if self.cfg.team_lowest {
                scores.min().unwrap_or(0)
            } else {
                scores.sum()
            }
        });
        // O16, O17: each seat's own O6 score is reported beside the team's.
        let seat_points = if team.is_some() {
            points.clone()
        } else {
            PerSeat::new()
        };
        if let Some(t) = team {
            points.iter_mut().for_each(|p| *p = t);
        }
        let summary = self.summary(&points, team);
        self.core.end_hand(HandScore {
            misdeal: false,
            bids: self.bids[..n].iter().copied().collect(),
            made: made_bids,
            points,
            seat_points,
            summary,
        });
        if self.playoff {
            self.playoffs += 1;
        }
        self.next_hand();
    }

    /// O9, O10, O15–O17: whether the match goes on, and if so who plays the
    /// next hand and who deals it.
    pub(super) fn next_hand(&mut self) {
        let n = self.n();
        let everyone = SeatSet::all(n);
        let played = self.core.played();
        let next = match self.cfg.mode {
            Mode::Multi if played - self.playoffs >= self.cfg.hands => {
                // O15: the seats tied for the lead play on among themselves.
                let leaders = self.highest_totals();
                (leaders.len() > 1 && self.playoffs < self.cfg.playoff_hands)
                    .then_some((leaders, true))
            }
            _ => (played < self.cfg.hands).then_some((everyone, false)),
        };
        match next {
            None => self.core.phase = Phase::Over,
            Some((active, playoff)) => {
                self.active = active;
                self.playoff = playoff;
                // The deal passes left; a play-off's deals rotate among the
                // tied seats, starting left of the last dealer (O15).
                self.core.dealer = self.first_from(self.core.dealer.next(n), active);
                self.core.phase = Phase::Deal;
            }
        }
    }

    pub(super) fn highest_totals(&self) -> SeatSet {
        let totals = self.core.totals();
        let top = totals.iter().copied().max().unwrap_or(0);
        Seat::all(self.n())
            .filter(|s| totals[s.index()] == top)
            .collect()
    }

    /// One line for people, e.g. `trump H; bids bid 5, null 2; tricks 5 0 (dummy 4); points +5 +2`.
    /// Written in place (no allocation for a line that fits a summary's
    /// inline bytes).
    pub(super) fn summary(&self, points: &[i32], team: Option<i32>) -> Summary {
        let n = self.n();
        let mut line = Summary::new();
        if self.playoff {
            line.push_str("play-off: ");
        }
        line.push_str("trump ");
        let _ = match self.turn_up {
            Some(c) if c.is_joker() => write!(line, "{} alone ({c} turned)", other_joker(c)),
            Some(c) => match c.suit() {
                Some(s) => write!(line, "{s}"),
                None => Ok(()),
            },
            None => line.write_str("-"),
        };
        line.push_str("; bids ");
        // A bid shows as its number, `-` for none.
        struct Bid(Option<Action>);
        impl std::fmt::Display for Bid {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.0 {
                    Some(b) => write!(f, "{b}"),
                    None => f.write_str("-"),
                }
            }
        }
        write_joined(&mut line, self.bids[..n].iter().map(|&b| Bid(b)), ", ");
        line.push_str("; tricks ");
        write_joined(&mut line, self.core.tricks.won_by_seat(n), " ");
        if self.cfg.mode.has_dummy() {
            let _ = write!(line, " (dummy {})", self.dummy_won);
        }
        match team {
            Some(t) => {
                let _ = write!(line, "; team {t:+}");
            }
            None => {
                struct Signed(i32);
                impl std::fmt::Display for Signed {
                    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        write!(f, "{:+}", self.0)
                    }
                }
                line.push_str("; points ");
                write_joined(&mut line, points.iter().map(|&p| Signed(p)), " ");
            }
        }
        line
    }

    /// The verdict of a finished match (see the module documentation).
    pub(super) fn verdict(&self) -> String {
        let total = self.core.totals()[0];
        let beaten = if total > 0 { "beaten" } else { "not beaten" };
        match (self.cfg.mode, self.cfg.scoring) {
            (Mode::Solitaire, Scoring::EddAllard) => match total.cmp(&EDD_ALLARD_TARGET) {
                std::cmp::Ordering::Less => "loss",
                std::cmp::Ordering::Equal => "draw",
                std::cmp::Ordering::Greater => "win",
            }
            .to_string(),
            (Mode::Solitaire, Scoring::Alternative) | (Mode::CoopDummy, _) => beaten.to_string(),
            _ => String::new(),
        }
    }
}
