//! Scoring of Illustrated Whist: the feats made (L5), the hand value and the
//! contract's outcome (L7), the hand's result and its summary.

use std::fmt::Write as _;

use super::*;

impl Illustrated {
    /// The hand's finished tricks with the seat that won each.
    fn tricks(&self) -> impl DoubleEndedIterator<Item = (&Trick, Seat)> {
        self.core.tricks.done().iter().map(|(t, w)| {
            let winner = w.seat().expect("no dummy in Illustrated Whist");
            (t, winner)
        })
    }

    /// Tricks `seat` won this hand.
    fn won(&self, seat: Seat) -> u8 {
        self.core.tricks.won(seat)
    }

    /// The cards in each team's tricks.
    pub(super) fn team_cards(&self) -> [CardSet; 2] {
        let mut cards = [CardSet::EMPTY; 2];
        for (t, w) in self.tricks() {
            cards[team(w)] = cards[team(w)].or(t.card_set());
        }
        cards
    }

    pub(super) fn team_tricks(&self) -> [u8; 2] {
        let won = self.core.tricks.won_by_seat(SEATS);
        [won[0] + won[2], won[1] + won[3]]
    }

    /// L5: whether team `t` made `feat` (for the declaring team's Slam, only
    /// the trick count), given whether the contract was made.
    pub(super) fn achieved(&self, t: usize, feat: Feat, made: bool) -> bool {
        let cards = self.team_cards()[t];
        let trump = self.contract().trump();
        let dix = trump.map(|s| Card::new(Rank::Two, s));
        match feat {
            Feat::FourKings => cards.and(CardSet::rank(Rank::King)).len() == 4,
            Feat::FourAces => cards.and(CardSet::rank(Rank::Ace)).len() == 4,
            Feat::Slam => self.team_tricks()[t] as usize == TRICKS,
            Feat::AllThree => dix.is_some_and(|d| {
                cards.contains(d)
                    && cards.contains(Card::BIG_JOKER)
                    && cards.contains(Card::LITTLE_JOKER)
            }),
            Feat::JokerCatch => self.tricks().any(|(trick, winner)| {
                let by = |card: Card| {
                    trick
                        .cards()
                        .iter()
                        .find(|&&(_, c)| c == card)
                        .and_then(|&(p, _)| p.seat())
                };
                match (by(Card::BIG_JOKER), by(Card::LITTLE_JOKER)) {
                    (Some(big), Some(little)) => {
                        big == winner && team(big) == t && team(little) != t
                    }
                    _ => false,
                }
            }),
            Feat::DixLast => {
                let (Some(dix), Some((last, winner))) = (dix, self.tricks().next_back()) else {
                    return false;
                };
                let Some(player) = last
                    .cards()
                    .iter()
                    .find(|&&(_, c)| c == dix)
                    .and_then(|&(p, _)| p.seat())
                else {
                    return false;
                };
                if player == winner {
                    // Won with the dix: the declaring team only if the
                    // contract is made, the opponents only if it is set.
                    team(player) == t && (made == (t == team(self.declarer)))
                } else {
                    // Played to the last trick and lost: its player's
                    // opponents, whatever the contract.
                    team(player) != t
                }
            }
        }
    }

    /// L5, L7: the hand's score, once its tricks are complete.
    pub(super) fn score(&self) -> Breakdown {
        let contract = self.contract();
        let exchange = self.exchange.expect("an exchange choice");
        let decl = team(self.declarer);
        let bonus = difficulty(exchange, contract.section());
        let taken = self.team_tricks()[decl];
        let slam_announced = self.calls[decl][Feat::Slam as usize] != 0;
        let (made, hand) = match contract {
            Contract::Null | Contract::OpenNull => {
                let made = self.won(self.declarer) == 0;
                let value = contract.base() + bonus;
                (made, if made { value } else { -value })
            }
            // L7: an announced Slam is a new bid of all twelve tricks.
            Contract::Numbered { .. } if slam_announced => {
                let made = taken as usize == TRICKS;
                (made, if made { 12 + bonus } else { -(24 + bonus) })
            }
            Contract::Numbered { tricks, .. } => {
                let made = taken >= tricks;
                let base = if taken as usize == TRICKS && tricks < 12 {
                    (contract.base() + 6).min(12)
                } else {
                    contract.base()
                };
                let value = base + bonus;
                (made, if made { value } else { -value })
            }
        };
        let mut feats = [[0; 6]; 2];
        for (t, row) in feats.iter_mut().enumerate() {
            for feat in Feat::ALL {
                // The declaring team's Slam is part of the hand value.
                if !contract.has_feat(feat) || (feat == Feat::Slam && t == decl) {
                    continue;
                }
                let achieved = self.achieved(t, feat, made);
                let mult = self.calls[t][feat as usize] as i32;
                row[feat as usize] = if mult > 0 {
                    let value = feat_value(feat, true) * mult;
                    if achieved { value } else { -value }
                } else if achieved {
                    feat_value(feat, false)
                } else {
                    0
                };
            }
        }
        let game = self.game_mult as i32;
        let mut points = [feats[0].iter().sum(), feats[1].iter().sum()];
        points[decl] += hand * game;
        Breakdown {
            made,
            hand,
            game,
            feats,
            points,
        }
    }

    pub(super) fn end_hand(&mut self, misdeal: bool) {
        let mut points = [0; 2];
        let mut bids: PerSeat<Option<Action>> = [None; SEATS].into_iter().collect();
        let mut made: PerSeat<Option<bool>> = [None; SEATS].into_iter().collect();
        let summary = if misdeal {
            Summary::from("misdeal: four passes")
        } else {
            let b = self.score();
            points = b.points;
            let contract = self.contract();
            bids[self.declarer.index()] = Some(contract.action());
            made[self.declarer.index()] = Some(b.made);
            self.summary(&b)
        };
        self.core.end_hand(HandScore {
            misdeal,
            bids,
            made,
            points: (0..SEATS).map(|s| points[team(Seat::new(s))]).collect(),
            summary,
            ..HandScore::default()
        });
        // L1: the deal passes left; L8: the match has `hands` hands.
        self.core.pass_deal(self.core.played() >= self.cfg.hands);
    }

    /// One line for people, e.g.
    /// `8S by 0, whole: tricks 12-0, made +7; feats 0 four-kings +2; team 0 +9, team 1 +0`.
    ///
    /// Written in place (no allocation for a line that fits a summary's
    /// inline bytes).
    pub(super) fn summary(&self, b: &Breakdown) -> Summary {
        let contract = self.contract();
        let exchange = self.exchange.expect("an exchange choice");
        let decl = team(self.declarer);
        let mut line = Summary::new();
        let _ = write!(line, "{contract} by {}, {}: ", self.declarer, exchange.name());
        let _ = if contract.is_null() {
            write!(line, "declarer took {}", self.won(self.declarer))
        } else {
            let t = self.team_tricks();
            write!(line, "tricks {}-{}", t[decl], t[1 - decl])
        };
        let _ = write!(
            line,
            ", {} {:+}",
            if b.made { "made" } else { "set" },
            b.hand
        );
        if b.game != 1 {
            let _ = write!(line, " x{}", b.game);
        }
        line.push_str("; feats ");
        let mut any = false;
        for (t, row) in b.feats.iter().enumerate() {
            for feat in Feat::ALL {
                let v = row[feat as usize];
                if v != 0 {
                    if any {
                        line.push_str(", ");
                    }
                    any = true;
                    let _ = write!(line, "{t} {} {v:+}", feat.name());
                }
            }
        }
        if !any {
            line.push_str("none");
        }
        let _ = write!(line, "; team 0 {:+}, team 1 {:+}", b.points[0], b.points[1]);
        line
    }
}
