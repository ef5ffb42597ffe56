//! Israeli Whist (docs/rules/israeli.md, decisions I1–I8).
//!
//! Four players, 52 cards, 13 each, dealt one at a time clockwise from the
//! dealer's left (I1). A trump auction from the dealer's left (I2) names a
//! strain and a minimum number of tricks; if all four pass before any bid,
//! every seat passes three cards to its left face down, one at a time and
//! simultaneously (a frisch), and a new auction starts with a minimum one
//! higher, at most three times; a fourth all-pass auction is a misdeal (I3).
//! Then each seat, from the auction winner leftwards, bids an exact number of
//! tricks; the fourth may not make the total 13 (I4). The auction winner leads;
//! follow suit; trump or no trump by the contract (I5). Exact bids score
//! t² + 10, zero bids 50 (Under) or 25 (Over), misses −10 per trick off, a
//! broken zero −50 + 10 × (t − 1) (I6). The match ends after the hand in which
//! a total reaches `target`, or after `hands` hands if set (I7).
//!
//! Notation: auction `bid 5H`, `bid 7NT`, `pass`; frisch `give 3C`; contract bids
//! `bid 0` .. `bid 13`; play `AS`.
//!
//! Observation notes: `min-bid` (current auction minimum), `frisch` (frisches
//! so far this hand), `auction-order`, `bids-total` and `over-under` (once all
//! contract bids are in), `hands-scored`, `target`, `hands`.
//!
//! Finer points, beyond the source text: a misdeal is a hand scoring zero and counts
//! towards `hands`; with no `hands` set, `max-hands` (default 100) ends a match
//! that never reaches the target (highest total wins). Both make every match
//! end, even between bots that always pass.

use std::fmt::Write as _;

use arrayvec::ArrayVec;

use super::prelude::*;
use crate::action::Strain;

const SEATS: usize = 4;
const HAND: usize = 13;

/// I2: every trump bid, strain by strain (`C D H S NT`), 5 to 13 tricks in
/// each: the order the auction lists its legal bids in.
const CONTRACTS: [Action; 45] = {
    let mut out = [Action::Pass; 45];
    let mut i = 0;
    while i < 45 {
        out[i] = Action::Contract {
            tricks: 5 + (i % 9) as u8,
            strain: Strain::ALL[i / 9],
        };
        i += 1;
    }
    out
};

/// One line describing the game.
pub const TITLE: &str = "Israeli Whist: 4 players, trump auction, exact contract bids";

/// The options of Israeli Whist.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "target",
        default: "300",
        values: "1..=100000",
        doc: "I7: the match ends after a hand in which a total reaches this",
    },
    OptionSpec {
        key: "hands",
        default: "unset",
        values: "1..=10000 or unset",
        doc: "I7: play exactly this many hands instead, misdeals included (tournaments)",
    },
    OptionSpec {
        key: "max-hands",
        default: "100",
        values: "1..=10000",
        doc: "with no `hands`, end after this many hands even if no one reached the target",
    },
    OptionSpec {
        key: "auction-order",
        default: "suit-first",
        values: "suit-first|number-first",
        doc: "I2: suit-first (any higher suit beats) or number-first (bridge order)",
    },
];

/// Israeli Whist's options, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// I7 target total.
    pub target: i32,
    /// I7 fixed number of scored hands, if set.
    pub hands: Option<u32>,
    /// Cap on scored hands when `hands` is unset.
    pub max_hands: u32,
    /// I2: number-first (bridge) order instead of suit-first.
    pub number_first: bool,
}

impl Config {
    /// Reads the options.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn from_options(options: &Options) -> Result<Config, OptionError> {
        let r = OptionReader::new("israeli", OPTIONS, options)?;
        Ok(Config {
            target: r.int("target", 1, 100_000)?.unwrap_or(300) as i32,
            hands: r.int("hands", 1, 10_000)?.map(|n| n as u32),
            max_hands: r.int("max-hands", 1, 10_000)?.unwrap_or(100) as u32,
            number_first: r.choice("auction-order", &["suit-first", "number-first"])? == 1,
        })
    }

    fn to_options(self) -> Options {
        let mut o = Options::new();
        o.set("target", &self.target.to_string());
        o.set(
            "hands",
            &self.hands.map_or("unset".to_string(), |h| h.to_string()),
        );
        o.set("max-hands", &self.max_hands.to_string());
        o.set_either(
            "auction-order",
            self.number_first,
            "number-first",
            "suit-first",
        );
        o
    }
}

/// I6: the score of one seat for a hand.
pub fn score(bid: u8, took: u8, over: bool) -> i32 {
    let (b, t) = (bid as i32, took as i32);
    match (b, t) {
        (0, 0) => {
            if over {
                25
            } else {
                50
            }
        }
        (0, _) => -50 + 10 * (t - 1),
        _ if b == t => t * t + 10,
        _ => -10 * (t - b).abs(),
    }
}

/// A match of Israeli Whist.
#[derive(Debug, Clone)]
pub struct Israeli {
    cfg: Config,
    /// Dealer, deals, totals, results, the hand's log and tricks (shared by
    /// every game).
    core: MatchCore,
    // The hand.
    hands: [CardSet; SEATS],
    giving: [ArrayVec<Card, 3>; SEATS],
    frisches: u8,
    standing: Option<(Seat, u8, Strain)>,
    passes: u8,
    trump: Option<Strain>,
    declarer: Seat,
    bids: [Option<u8>; SEATS],
    rules: TrickRules,
}

impl Israeli {
    /// A new match under `options`, waiting for its first deal; seat 0 deals first.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn new(options: &Options) -> Result<Israeli, OptionError> {
        Ok(Israeli::with_config(Config::from_options(options)?))
    }

    /// A new match with a resolved config.
    pub fn with_config(cfg: Config) -> Israeli {
        Israeli {
            cfg,
            core: MatchCore::new(Variant::Israeli, cfg.to_options(), SEATS, 128),
            hands: [CardSet::EMPTY; SEATS],
            giving: Default::default(),
            frisches: 0,
            standing: None,
            passes: 0,
            trump: None,
            declarer: Seat::new(0),
            bids: [None; SEATS],
            rules: TrickRules::plain(None),
        }
    }

    /// The resolved options.
    pub fn config(&self) -> Config {
        self.cfg
    }

    fn min_bid(&self) -> u8 {
        5 + self.frisches
    }

    /// I2: the order key of a trump bid; a bid beats another iff its key is higher.
    fn bid_key(&self, tricks: u8, strain: Strain) -> u16 {
        if self.cfg.number_first {
            tricks as u16 * 8 + strain.order() as u16
        } else {
            strain.order() as u16 * 16 + tricks as u16
        }
    }

    fn bids_total(&self) -> u8 {
        self.bids.iter().flatten().sum()
    }

    fn start_auction(&mut self) {
        self.core.phase = Phase::Auction;
        self.core.turn = self.core.dealer.next(SEATS);
        self.standing = None;
        self.passes = 0;
    }

    fn finish_frisch(&mut self) {
        // I3: the frisch is simultaneous, so nothing of it shows until every
        // seat has chosen; then each seat learns that every other seat gave
        // three cards, face down (I8: only the receiver sees them, below).
        for g in Seat::all(SEATS) {
            for _ in 0..3 {
                self.core.hidden_to_others(g, ActionKind::Give);
            }
        }
        for g in Seat::all(SEATS) {
            let r = g.next(SEATS);
            let cards = std::mem::take(&mut self.giving[g.index()]);
            for c in cards {
                self.hands[g.index()].remove(c);
                self.hands[r.index()].insert(c);
                let to = SeatSet::single(r).with(g);
                self.core.take(r, c, Source::Seat(g), to);
            }
        }
        self.frisches += 1;
        self.start_auction();
    }

    fn all_passed(&mut self) {
        if self.frisches < 3 {
            self.core.phase = Phase::Pass;
        } else {
            // I3: a fourth all-pass auction is a misdeal.
            self.core.public(Event::Misdeal);
            self.end_hand(true);
        }
    }

    fn finish_auction(&mut self) {
        let (winner, _, strain) = self.standing.expect("an auction with a bid");
        self.trump = Some(strain);
        self.declarer = winner;
        self.rules = TrickRules::plain(strain.suit());
        self.core.phase = Phase::Bid;
        self.core.turn = winner;
    }

    fn finish_trick(&mut self) {
        let (index, winner) = self.core.finish_trick(&self.rules);
        self.core.turn = winner.seat().expect("no dummy in Israeli Whist");
        if index as usize == HAND - 1 {
            self.end_hand(false);
        }
    }

    fn end_hand(&mut self, misdeal: bool) {
        let mut points: PerSeat<i32> = [0; SEATS].into_iter().collect();
        let mut made: PerSeat<Option<bool>> = [None; SEATS].into_iter().collect();
        let summary;
        if misdeal {
            summary = Summary::from("misdeal: four passes after three frisches");
        } else {
            let over = self.bids_total() > HAND as u8;
            let won = self.core.tricks.won_by_seat(SEATS);
            for s in 0..SEATS {
                let b = self.bids[s].expect("every seat bid");
                points[s] = score(b, won[s], over);
                made[s] = Some(b == won[s]);
            }
            let (d, t, strain) = self.standing.expect("a contract");
            // `7D by 2; bids 3 2 4 1 (under); tricks 3 2 5 3`, written into
            // one line held in place (this runs at every hand's end).
            let mut line = Line::new();
            push_number(&mut line, t);
            let _ = write!(line, "{strain}");
            line.push_str(" by ");
            push_number(&mut line, d.index() as u8);
            line.push_str("; bids ");
            push_numbers(&mut line, self.bids.map(|b| b.unwrap_or(0)));
            line.push_str(if over {
                " (over); tricks "
            } else {
                " (under); tricks "
            });
            push_numbers(&mut line, won.iter().copied());
            summary = line.summary();
        }
        self.core.end_hand(HandScore {
            misdeal,
            bids: self.bids.iter().map(|b| b.map(Action::Bid)).collect(),
            made,
            points,
            summary,
            ..HandScore::default()
        });
        let played = self.core.played();
        let over = match self.cfg.hands {
            Some(h) => played >= h,
            None => {
                self.core.totals().iter().any(|&t| t >= self.cfg.target)
                    || played >= self.cfg.max_hands
            }
        };
        // I1: the deal passes to the left.
        self.core.pass_deal(over);
    }
}

impl Game for Israeli {
    #[inline]
    fn to_act(&self) -> SeatSet {
        match self.core.phase {
            // I3: the frisch is simultaneous.
            Phase::Pass => Seat::all(SEATS)
                .filter(|s| self.giving[s.index()].len() < 3)
                .collect(),
            _ => self.core.to_act(),
        }
    }

    fn simultaneous(&self) -> bool {
        self.core.phase == Phase::Pass
    }

    fn append_legal(&self, seat: Seat, out: &mut ActionList) {
        let hand = self.hands[seat.index()];
        match self.core.phase {
            Phase::Auction => {
                out.push(Action::Pass);
                // I2: in each strain, the bids from the lowest that beats
                // the standing bid (what `bid_key` orders) up to 13.
                let min = self.min_bid();
                for (i, strain) in Strain::ALL.into_iter().enumerate() {
                    let lowest = match self.standing {
                        None => min,
                        Some((_, t, s)) => {
                            let (o, so) = (strain.order(), s.order());
                            if self.cfg.number_first {
                                min.max(if o > so { t } else { t + 1 })
                            } else if o < so {
                                continue;
                            } else if o == so {
                                min.max(t + 1)
                            } else {
                                min
                            }
                        }
                    };
                    let from = 9 * i + (lowest as usize).min(HAND + 1) - 5;
                    out.try_extend_from_slice(&CONTRACTS[from..9 * (i + 1)])
                        .expect("46 actions fit an action list");
                }
            }
            Phase::Pass => {
                let chosen: CardSet = self.giving[seat.index()].iter().copied().collect();
                out.extend(hand.minus(chosen).iter().map(Action::Give));
            }
            Phase::Bid => {
                // I4, as `check_contract_bid` says: the auction winner bids
                // at least its number; the fourth bid may not make 13.
                let lowest = match self.standing {
                    Some((_, tricks, _)) if seat == self.declarer => tricks,
                    _ => 0,
                };
                let placed = self.bids.iter().filter(|b| b.is_some()).count();
                let barred = (placed == SEATS - 1)
                    .then(|| (HAND as u8).checked_sub(self.bids_total()))
                    .flatten();
                for n in lowest..=HAND as u8 {
                    if Some(n) != barred {
                        out.push(Action::Bid(n));
                    }
                }
            }
            Phase::Play => self.core.plays(&self.rules, hand, out),
            _ => {}
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        let hand = self.hands[seat.index()];
        match (self.core.phase, action) {
            (Phase::Auction, Action::Pass) => Ok(()),
            (Phase::Auction, Action::Contract { tricks, strain }) => {
                if tricks < self.min_bid() || tricks > HAND as u8 {
                    return Err(IllegalReason::OutOfRange {
                        min: self.min_bid() as i32,
                        max: HAND as i32,
                    });
                }
                match self.standing {
                    Some((_, t, s)) if self.bid_key(tricks, strain) <= self.bid_key(t, s) => {
                        Err(IllegalReason::NotHigher(Action::Contract {
                            tricks: t,
                            strain: s,
                        }))
                    }
                    _ => Ok(()),
                }
            }
            (Phase::Pass, Action::Give(c)) => {
                if !hand.contains(c) {
                    Err(IllegalReason::NotInHand(c))
                } else if self.giving[seat.index()].contains(&c) {
                    Err(IllegalReason::Rule {
                        id: "I3",
                        text: "that card is already chosen to pass",
                    })
                } else {
                    Ok(())
                }
            }
            (Phase::Bid, Action::Bid(n)) => self.check_contract_bid(seat, n),
            (Phase::Play, Action::Play(c)) => self.core.check_play(&self.rules, hand, c),
            _ => Err(IllegalReason::WrongPhase),
        }
    }

    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        match (self.core.phase, action) {
            (Phase::Auction, Action::Pass) => {
                self.core.public(Event::Action { seat, action });
                self.passes += 1;
                self.core.turn = seat.next(SEATS);
                if self.standing.is_some() && self.passes == 3 {
                    self.finish_auction();
                } else if self.standing.is_none() && self.passes == 4 {
                    self.all_passed();
                }
            }
            (Phase::Auction, Action::Contract { tricks, strain }) => {
                self.core.public(Event::Action { seat, action });
                self.standing = Some((seat, tricks, strain));
                self.passes = 0;
                self.core.turn = seat.next(SEATS);
            }
            (Phase::Pass, Action::Give(c)) => {
                self.core
                    .private(Event::Action { seat, action }, SeatSet::single(seat));
                self.giving[seat.index()].push(c);
                if self.giving.iter().all(|g| g.len() == 3) {
                    self.finish_frisch();
                }
            }
            (Phase::Bid, Action::Bid(n)) => {
                self.core.public(Event::Action { seat, action });
                self.bids[seat.index()] = Some(n);
                self.core.turn = seat.next(SEATS);
                if self.bids.iter().all(Option::is_some) {
                    self.core.phase = Phase::Play;
                    self.core.turn = self.declarer;
                }
            }
            (Phase::Play, Action::Play(c)) => {
                self.core.turn = seat.next(SEATS);
                if self.core.play_card(seat, c, &mut self.hands[seat.index()]) == SEATS {
                    self.finish_trick();
                }
            }
            (stage, action) => panic!("apply_unchecked: {action} in {stage:?}"),
        }
    }

    fn deck(&self) -> CardSet {
        decks::STANDARD
    }

    fn deal_unchecked(&mut self, order: &[Card]) {
        self.hands = [CardSet::EMPTY; SEATS];
        for (i, &c) in order.iter().enumerate() {
            self.hands[self.core.dealer.left(1 + i, SEATS).index()].insert(c);
        }
        self.giving = Default::default();
        self.frisches = 0;
        self.trump = None;
        self.bids = [None; SEATS];
        self.core.begin_hand();
        self.core.dealt(&self.hands);
        self.start_auction();
    }

    fn core(&self) -> &MatchCore {
        &self.core
    }

    fn trick_rules(&self) -> &TrickRules {
        &self.rules
    }

    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        ctx.no_previous_bids("Israeli Whist")?;
        let totals = ctx.totals_or_zero(SEATS);
        let target = self.cfg.target;
        let ended = totals.iter().find(|&&t| t >= target).map(|t| {
            format!("a total of {t}: the match ended when it reached the target {target} (I7)")
        });
        let hands = self.cfg.hands;
        ctx.within_target(hands, "I7, the `hands` option", self.cfg.max_hands, ended)?;
        self.core.start_at(ctx)
    }

    fn accepts(&self, kind: ActionKind) -> bool {
        matches!(
            kind,
            ActionKind::Pass
                | ActionKind::Contract
                | ActionKind::Give
                | ActionKind::Bid
                | ActionKind::Play
        )
    }

    fn append_vocabulary(&self, out: &mut Vec<Action>) {
        // I2, I3: the trump auction (minimum 5, or 6 to 8 after frisches),
        // in the order its legal actions are listed.
        out.push(Action::Pass);
        out.extend(CONTRACTS);
        // I3: the frisch passes any card.
        out.extend(decks::STANDARD.iter().map(Action::Give));
        // I4: contract bids.
        out.extend((0..=HAND as u8).map(Action::Bid));
        out.extend(decks::STANDARD.iter().map(Action::Play));
    }
}

impl Israeli {
    /// I4: whether `seat` may bid `n` tricks in the contract round.
    fn check_contract_bid(&self, seat: Seat, n: u8) -> Result<(), IllegalReason> {
        if n > HAND as u8 {
            return Err(IllegalReason::OutOfRange {
                min: 0,
                max: HAND as i32,
            });
        }
        if seat == self.declarer {
            let (_, tricks, _) = self.standing.expect("a contract");
            if n < tricks {
                return Err(IllegalReason::Rule {
                    id: "I4",
                    text: "the auction winner must bid at least its auction number",
                });
            }
        }
        let placed = self.bids.iter().filter(|b| b.is_some()).count();
        if placed == SEATS - 1 && self.bids_total() + n == HAND as u8 {
            return Err(IllegalReason::Rule {
                id: "I4",
                text: "the fourth bid may not make the total exactly 13",
            });
        }
        Ok(())
    }
}

mod observation;

#[cfg(test)]
mod tests;
