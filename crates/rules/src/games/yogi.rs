//! Yogi's Whist (RULES.md section 1, decisions Y1–Y13).
//!
//! Two to thirteen players (option `players`, default 5), 52 cards and one
//! joker, `BJ`. Each seat gets four cards, dealt one at a time clockwise from
//! the dealer's left, and the next card is turned up (Y1). Its suit is trump;
//! a nine or the joker turned up makes the four nines a suit of their own,
//! trump, ranked 9D < 9S < 9H < 9C, and while the nines are a suit a nine
//! neither follows nor must follow its printed suit (Y2). The joker is a
//! second copy of the turn-up in play and in bidding; with a nine turned up it
//! is that nine; if the joker itself is turned up, no joker is in play (Y3).
//!
//! Every seat places one of its cards face down as its bid, all at once; the
//! printed suit gives the target: D = 0, S = 1, H = 2, C = 3 tricks (a nine by
//! its printed suit, the joker by the turn-up's) (Y4). Then, from the dealer's
//! left, each seat says `no`, `declare` or `reveal`: at most one declarer, and
//! a reveal ends the round at once and cancels an earlier declaration (Y5). A
//! revealer's bid card turns face up at once, the revealer names the leader of
//! the first trick, and once the first card is played its whole hand is public
//! (Y6); a declarer's bid card turns face up once the first card is played
//! (Y7). Three tricks are played, the dealer's left leading unless a revealer
//! chose (Y8). Fines (Y9): with m seats on target, each seat that missed pays
//! m + 1; a declarer who made adds 2 to every other seat, one who missed 4 to
//! itself; a revealer 4 to every other seat, or 8 to itself. Every bid card is
//! shown at the end of the hand (Y10). A match is `hands` hands, by default
//! two deals per seat, and the lowest total wins (Y11).
//!
//! Option `dealer-chooses` (Y12): the dealer chooses the hand size h
//! (2 ≤ h, h × players + 1 ≤ 53); bidding is in turn from the dealer's left,
//! each seat announcing a count b (1 ≤ b ≤ h − 1) and then placing b cards face
//! down one at a time, its target the sum of their values; tricks are played
//! until every hand is empty, seats without cards are skipped, and a trick won
//! by a seat without cards is followed by a lead from the next seat clockwise
//! that holds some. Option `rotate-vote` (Y13): once the bids are down, every
//! seat votes at once; a strict majority of `vote yes` passes each seat's bid
//! card (or group of cards) face down to the next seat clockwise, whose bid it
//! becomes.
//!
//! Notation: `size 6` (Y12), `count 2` (Y12), `place 4S`, `vote yes` /
//! `vote no` (Y13), `no` / `declare` / `reveal`, `lead 3`, and cards to play
//! (`AS`, `BJ`). Legal actions come in a fixed order: sizes and counts
//! ascending, cards ascending, `vote yes` before `vote no`, `no` before
//! `declare` before `reveal`, seats ascending. `size`, `count` and `vote` are
//! in the game's vocabulary only under their options.
//!
//! What a seat sees ([`Yogi::observe`](crate::Game::observe)):
//! * `table`: the turn-up as `turn-up`, and every bid card the viewer knows as
//!   `bid-card` with its owner: its own (face down), the one it passed on in a
//!   rotation (Y13), and the public ones (a revealer's at once, Y6; a
//!   declarer's after the first card, Y7; all at the end of the hand, Y10).
//! * `players[s].bid`: `bid N`, the target of seat `s`, once the viewer knows
//!   all of that seat's bid cards; `players[s].known`: the revealer's hand once
//!   it is public (Y6); `players[s].active`: false for a seat with no cards
//!   left during play (Y12).
//! * `contract`: the standing declaration (`declare`) or the reveal
//!   (`reveal`) with its seat.
//! * `piles`: `undealt` (cards neither dealt nor turned up) and
//!   `bid-cards` (face-down bid cards the viewer does not know).
//! * During a simultaneous step (the bid cards of Y4, the vote of Y13) the
//!   chosen card stays in the hand, and `to_act` lists every seat, until every
//!   seat has chosen: nobody learns who has finished. A placed card shows at
//!   once in its seat's own history, and to every other seat as a `Hidden`
//!   `place` marker per seat once the step is complete. The votes show, all of
//!   them in seat order, once every seat has voted.
//!
//! Observation notes: `players`, `hands` (hands in the match), `hands-played`,
//! `dealer-chooses`, `rotate-vote`, `hand-size` (`-` until chosen), `turn-up`
//! (`-` before it is turned), `trump` (`C`, `D`, `H`, `S`, `nines` or `-`),
//! `joker` (the card the joker counts as, `none` when the joker is the
//! turn-up, `-` before the turn-up), `bid-counts` (bid cards per seat,
//! space-separated, `-` where not known yet), `rotated` (`yes` or `no` once a
//! vote has been taken, else `-`), `declarer`, `revealer` and `leader` (a seat
//! number, or `-`).
//!
//! Decisions beyond RULES.md:
//! * `hands` defaults to `auto`, which is 2 × players (Y11).
//! * Under `dealer-chooses` the deck order is supplied first, as in every
//!   hand, and the dealer then chooses h knowing nothing of it; the cards are
//!   dealt once h is chosen. What anyone knows when h is chosen is exactly as
//!   if it were chosen before the shuffle, and a hand stays one deal followed
//!   by its actions, as the referee and replay logs record it.
//! * Y12 bidding: a seat announces its count, then places all its cards,
//!   before the next seat announces. The revealer may name any seat to lead
//!   (every seat holds a card then, since b ≤ h − 1).
//! * Y10: at the end of the hand, the bid cards not yet public are shown with a
//!   `Reveal` event per seat, in seat order, before `HandEnd`.
//! * The joker's original is the turn-up, out of play, so no trick ever holds
//!   two cards of equal power.

use arrayvec::ArrayVec;

use super::prelude::*;
use crate::seat::MAX_SEATS;

/// Y1: cards per seat without `dealer-chooses`.
const HAND: u8 = 4;
/// Y1: 52 cards and the joker.
const DECK: usize = 53;
/// Y12: the most tricks of a hand: two seats with 26 cards, one bid card each.
const MAX_TRICKS: usize = 25;
/// More events than a hand can log: start, 13 deals, turn-up, size, 52 counts
/// and placements, 26 votes, 52 rotated cards, 13 calls, a reveal, a leader,
/// 2 first-card reveals, 52 plays, 26 tricks, 13 end reveals and the end (255).
/// The log keeps this capacity across hands.
const LOG_CAPACITY: usize = 320;

/// The nines in Yogi's order, lowest first (Y2); also the order of the bid
/// values, D = 0 .. C = 3 (Y4).
pub const YOGI_ORDER: [Suit; 4] = [Suit::Diamonds, Suit::Spades, Suit::Hearts, Suit::Clubs];

/// The options of Yogi's Whist.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "players",
        default: "5",
        values: "2..=13",
        doc: "Y1: number of seats",
    },
    OptionSpec {
        key: "hands",
        default: "auto",
        values: "auto or 1..=10000",
        doc: "Y11: hands in the match; auto = 2 x players (each seat deals twice)",
    },
    OptionSpec {
        key: "dealer-chooses",
        default: "false",
        values: "true|false",
        doc: "Y12: the dealer chooses the hand size; sequential bids of several cards",
    },
    OptionSpec {
        key: "rotate-vote",
        default: "false",
        values: "true|false",
        doc: "Y13: a vote after the bids; a strict majority passes every bid left",
    },
];

/// Yogi's Whist's options, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Y1: number of seats, 2..=13.
    pub players: usize,
    /// Y11: hands in the match (resolved from `auto`).
    pub hands: u32,
    /// Y12: the dealer chooses the hand size; bids of several cards.
    pub dealer_chooses: bool,
    /// Y13: a vote to pass the bid cards left.
    pub rotate_vote: bool,
}

impl Config {
    /// Reads the options.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn from_options(options: &Options) -> Result<Config, OptionError> {
        let r = OptionReader::new("yogi", OPTIONS, options)?;
        let bad = |key: &str| OptionError::BadValue {
            key: key.to_string(),
            value: r.raw(key).to_string(),
            expected: OPTIONS
                .iter()
                .find(|s| s.key == key)
                .map_or("", |s| s.values)
                .to_string(),
        };
        let players = r
            .int("players", 2, MAX_SEATS as i64)?
            .ok_or_else(|| bad("players"))? as usize;
        let hands = match r.raw("hands") {
            "auto" => 2 * players as u32,
            _ => r.int("hands", 1, 10_000)?.ok_or_else(|| bad("hands"))? as u32,
        };
        Ok(Config {
            players,
            hands,
            dealer_chooses: r.bool("dealer-chooses")?,
            rotate_vote: r.bool("rotate-vote")?,
        })
    }

    /// Every option with its effective value; `hands` is written out resolved.
    fn to_options(self) -> Options {
        let mut o = Options::new();
        o.set("players", &self.players.to_string());
        o.set("hands", &self.hands.to_string());
        o.set("dealer-chooses", &self.dealer_chooses.to_string());
        o.set("rotate-vote", &self.rotate_vote.to_string());
        o
    }
}

/// Y4: the tricks a printed suit asks for: D = 0, S = 1, H = 2, C = 3.
pub const fn suit_value(suit: Suit) -> u8 {
    match suit {
        Suit::Diamonds => 0,
        Suit::Spades => 1,
        Suit::Hearts => 2,
        Suit::Clubs => 3,
    }
}

/// Y3, Y4: the value of one bid card with `turn_up` face up: its printed suit
/// (a nine too, even while the nines are a suit); the joker counts as the
/// turn-up's printed suit.
///
/// # Panics
/// If `card` is the joker and so is `turn_up` (no joker is in play then).
pub fn bid_value(card: Card, turn_up: Card) -> u8 {
    let suit = card
        .suit()
        .or(turn_up.suit())
        .expect("the joker is in play only under a suited turn-up (Y3)");
    suit_value(suit)
}

/// Y4, Y12: a seat's target: the sum of the values of its bid cards.
pub fn target(bid: CardSet, turn_up: Card) -> u8 {
    bid.iter().map(|c| bid_value(c, turn_up)).sum()
}

/// Y2: whether `turn_up` makes the four nines a suit of their own (a nine or
/// the joker).
pub fn nines_are_a_suit(turn_up: Card) -> bool {
    turn_up.is_joker() || turn_up.rank() == Some(Rank::Nine)
}

/// Y2, Y3: how cards follow and beat each other under `turn_up`.
///
/// A suited turn-up other than a nine makes its suit trump, and the joker a
/// card of that suit with the turn-up's power. A nine or the joker turned up
/// makes the nines a suit of their own ([`suit_id::NINES`]), trump, in Yogi's
/// order; a nine then belongs to no printed suit, and the joker is a copy of
/// the nine turned up (with the joker turned up it is out of play).
pub fn trick_rules(turn_up: Card) -> TrickRules {
    if nines_are_a_suit(turn_up) {
        let mut rules = TrickRules::plain(None);
        rules.set_trump(suit_id::NINES);
        for (i, suit) in YOGI_ORDER.into_iter().enumerate() {
            rules.set(Card::new(Rank::Nine, suit), suit_id::NINES, i as u8 + 1);
        }
        if !turn_up.is_joker() {
            let power = rules.power_of(turn_up);
            rules.set(Card::BIG_JOKER, suit_id::NINES, power);
        }
        rules
    } else {
        let suit = turn_up.suit().expect("a suited turn-up");
        let mut rules = TrickRules::plain(Some(suit));
        let power = rules.power_of(turn_up);
        rules.set(Card::BIG_JOKER, suit as u8, power);
        rules
    }
}

/// Y9: the fines of one hand. `made[s]` says whether seat `s` won exactly its
/// target; `declarer` is a declaration still standing at the end of the hand
/// (a reveal cancels it, Y5), `revealer` the seat that revealed.
pub fn fines(made: &[bool], declarer: Option<Seat>, revealer: Option<Seat>) -> Vec<i32> {
    let m = made.iter().filter(|&&x| x).count() as i32;
    let mut out: Vec<i32> = made.iter().map(|&x| if x { 0 } else { m + 1 }).collect();
    for (caller, others, itself) in [(declarer, 2, 4), (revealer, 4, 8)] {
        let Some(c) = caller else { continue };
        if made[c.index()] {
            for (s, f) in out.iter_mut().enumerate() {
                if s != c.index() {
                    *f += others;
                }
            }
        } else {
            out[c.index()] += itself;
        }
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Waiting for the deck order.
    Deal,
    /// Y12: the dealer chooses the hand size (the order is known, not dealt).
    Size,
    /// Y4: every seat places its bid card at once.
    Place,
    /// Y12: the seat to bid announces its count.
    Count,
    /// Y12: the seat to bid places its cards one at a time.
    PlaceEach,
    /// Y13: every seat votes at once.
    Vote,
    /// Y5: the declare round.
    Declare,
    /// Y6: the revealer names the leader.
    Leader,
    /// Y8, Y12: tricks.
    Play,
    /// The match is over.
    Over,
}

/// A match of Yogi's Whist.
#[derive(Debug, Clone)]
pub struct Yogi {
    cfg: Config,
    totals: [i32; MAX_SEATS],
    /// Dealer, deals, results and the hand's log (shared by every game).
    core: MatchCore,
    stage: Stage,
    // The hand.
    /// The deck order of this hand (top first).
    order: ArrayVec<Card, DECK>,
    /// Cards per seat (0 until chosen under `dealer-chooses`).
    size: u8,
    turn_up: Option<Card>,
    rules: TrickRules,
    hands: [CardSet; MAX_SEATS],
    dealt: [CardSet; MAX_SEATS],
    /// Bid cards received in a rotation (Y13).
    received: [CardSet; MAX_SEATS],
    /// Each seat's bid card(s): placed, or received in a rotation.
    bids: [CardSet; MAX_SEATS],
    /// Y4: a card chosen during the simultaneous step, still in the hand.
    pending: [Option<Card>; MAX_SEATS],
    /// Bid cards each seat places (announced under Y12; 0 until known).
    counts: [u8; MAX_SEATS],
    /// Y13: votes cast during the vote step.
    votes: [Option<bool>; MAX_SEATS],
    /// Y13: whether a vote has been taken, and whether it passed the bids on.
    rotated: Option<bool>,
    turn: Seat,
    /// Seats that have spoken in the declare round.
    spoken: u8,
    declarer: Option<Seat>,
    /// A declaration cancelled by a reveal (Y5), for the summary.
    cancelled: Option<Seat>,
    revealer: Option<Seat>,
    /// Whether the revealer's hand is public (Y6).
    hand_shown: bool,
    leader: Option<Seat>,
    /// Seats whose bid cards are public.
    bids_public: SeatSet,
    /// Every card shown face up this hand other than plays.
    shown: CardSet,
    played: CardSet,
    trick: Trick,
    /// Seats playing to the current trick: those holding cards when it was led.
    trick_size: u8,
    tricks: ArrayVec<(Trick, Seat), MAX_TRICKS>,
    won: [u8; MAX_SEATS],
}

impl Yogi {
    /// A new match under `options`, waiting for its first deal; seat 0 deals first.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn new(options: &Options) -> Result<Yogi, OptionError> {
        Ok(Yogi::with_config(Config::from_options(options)?))
    }

    /// A new match with a resolved config.
    ///
    /// # Panics
    /// If `cfg.players` is not in 2..=13.
    pub fn with_config(cfg: Config) -> Yogi {
        assert!((2..=MAX_SEATS).contains(&cfg.players), "2 to 13 players");
        Yogi {
            cfg,
            totals: [0; MAX_SEATS],
            core: MatchCore::new(cfg.players as usize, LOG_CAPACITY),
            stage: Stage::Deal,
            order: ArrayVec::new(),
            size: 0,
            turn_up: None,
            rules: TrickRules::plain(None),
            hands: [CardSet::EMPTY; MAX_SEATS],
            dealt: [CardSet::EMPTY; MAX_SEATS],
            received: [CardSet::EMPTY; MAX_SEATS],
            bids: [CardSet::EMPTY; MAX_SEATS],
            pending: [None; MAX_SEATS],
            counts: [0; MAX_SEATS],
            votes: [None; MAX_SEATS],
            rotated: None,
            turn: Seat::new(0),
            spoken: 0,
            declarer: None,
            cancelled: None,
            revealer: None,
            hand_shown: false,
            leader: None,
            bids_public: SeatSet::EMPTY,
            shown: CardSet::EMPTY,
            played: CardSet::EMPTY,
            trick: Trick::new(),
            trick_size: 0,
            tricks: ArrayVec::new(),
            won: [0; MAX_SEATS],
        }
    }

    /// The resolved options.
    pub fn config(&self) -> Config {
        self.cfg
    }

    fn n(&self) -> usize {
        self.cfg.players
    }

    fn all(&self) -> SeatSet {
        SeatSet::all(self.n())
    }

    /// Y12: the largest hand size: h × players + 1 ≤ 53.
    fn max_size(&self) -> u8 {
        ((DECK - 1) / self.n()) as u8
    }

    /// An event every seat but `seat` sees (`seat` saw its own decision when
    /// it made it).
    fn log_for_others(&mut self, seat: Seat, event: Event) {
        let mut to = self.all();
        to.remove(seat);
        self.core.log.push(LogEntry::private(event, to));
    }

    fn turn_up(&self) -> Card {
        self.turn_up.expect("the turn-up is face up")
    }

    fn target_of(&self, seat: Seat) -> u8 {
        target(self.bids[seat.index()], self.turn_up())
    }

    /// The next seat clockwise after `seat` that holds cards (Y12).
    fn next_holding(&self, seat: Seat) -> Option<Seat> {
        (1..=self.n())
            .map(|k| seat.left(k, self.n()))
            .find(|s| !self.hands[s.index()].is_empty())
    }

    /// Y1, Y12: deals `size` cards to each seat from the dealer's left, one at
    /// a time, turns up the next card, and starts the bidding.
    fn distribute(&mut self, size: u8) {
        let n = self.n();
        self.size = size;
        let dealt = n * size as usize;
        for (i, &c) in self.order[..dealt].iter().enumerate() {
            self.hands[self.core.dealer.left(1 + i, n).index()].insert(c);
        }
        self.dealt = self.hands;
        let turn_up = self.order[dealt];
        self.turn_up = Some(turn_up);
        self.rules = trick_rules(turn_up);
        self.shown = CardSet::single(turn_up);
        for s in Seat::all(n) {
            self.core.private(
                Event::Dealt {
                    seat: s,
                    cards: self.hands[s.index()],
                },
                SeatSet::single(s),
            );
        }
        self.core.public(Event::TurnUp { card: turn_up });
        if self.cfg.dealer_chooses {
            self.stage = Stage::Count;
            self.turn = self.core.dealer.next(n);
        } else {
            self.stage = Stage::Place;
        }
    }

    /// Y4: every seat has chosen; the cards go face down, and everyone learns
    /// that the others have placed theirs.
    fn finish_placing(&mut self) {
        for s in Seat::all(self.n()) {
            let c = self.pending[s.index()].take().expect("every seat placed");
            self.hands[s.index()].remove(c);
            self.bids[s.index()].insert(c);
            self.counts[s.index()] = 1;
        }
        for s in Seat::all(self.n()) {
            self.log_for_others(
                s,
                Event::Hidden {
                    seat: s,
                    kind: ActionKind::Place,
                },
            );
        }
        self.after_bidding();
    }

    fn after_bidding(&mut self) {
        if self.cfg.rotate_vote {
            self.stage = Stage::Vote;
        } else {
            self.start_declaring();
        }
    }

    /// Y13: every seat has voted; the votes are shown in seat order (each
    /// once: the log is also the hand's record), and a strict majority
    /// passes every bid card (group) to the next seat clockwise.
    fn finish_vote(&mut self) {
        let n = self.n();
        let mut yes = 0;
        for s in Seat::all(n) {
            let v = self.votes[s.index()].expect("every seat voted");
            yes += usize::from(v);
            self.core.public(Event::Action {
                seat: s,
                action: Action::Vote(v),
            });
        }
        let rotate = 2 * yes > n;
        self.rotated = Some(rotate);
        if rotate {
            let old = self.bids;
            for g in Seat::all(n) {
                let r = g.next(n);
                self.bids[r.index()] = old[g.index()];
                self.received[r.index()] = old[g.index()];
                let mut to = SeatSet::single(g);
                to.insert(r);
                for c in old[g.index()] {
                    self.core.log.push(LogEntry::redacted(
                        Event::Take {
                            seat: r,
                            card: Some(c),
                            from: Source::Seat(g),
                        },
                        to,
                        Event::Take {
                            seat: r,
                            card: None,
                            from: Source::Seat(g),
                        },
                    ));
                }
            }
        }
        self.start_declaring();
    }

    fn start_declaring(&mut self) {
        self.stage = Stage::Declare;
        self.turn = self.core.dealer.next(self.n());
        self.spoken = 0;
    }

    /// Makes `seat`'s bid cards public (Y6, Y7, Y10).
    fn show_bid(&mut self, seat: Seat) {
        if self.bids_public.contains(seat) {
            return;
        }
        self.bids_public.insert(seat);
        let cards = self.bids[seat.index()];
        self.shown = self.shown.or(cards);
        self.core.public(Event::Reveal { seat, cards });
    }

    fn start_play(&mut self, leader: Seat) {
        self.stage = Stage::Play;
        self.leader = Some(leader);
        self.turn = leader;
    }

    /// Y6, Y7: what turns public once the first card of the hand is played.
    fn first_card_played(&mut self) {
        if let Some(r) = self.revealer {
            self.hand_shown = true;
            let cards = self.hands[r.index()];
            self.shown = self.shown.or(cards);
            if !cards.is_empty() {
                self.core.public(Event::Reveal { seat: r, cards });
            }
        }
        if let Some(d) = self.declarer {
            self.show_bid(d);
        }
    }

    fn finish_trick(&mut self) {
        let winner = self
            .rules
            .winner(&self.trick)
            .seat()
            .expect("no dummy in Yogi's Whist");
        self.won[winner.index()] += 1;
        let index = self.tricks.len() as u8;
        self.tricks.push((self.trick.clone(), winner));
        self.trick.clear();
        self.core.public(Event::TrickWon {
            index,
            winner: Player::Seat(winner),
        });
        // Y12: a winner without cards is followed by the next seat that has some.
        match self.next_holding(winner.left(self.n() - 1, self.n())) {
            Some(next) => self.turn = next,
            None => self.end_hand(),
        }
    }

    fn end_hand(&mut self) {
        let n = self.n();
        // Y10: every bid card is shown.
        for s in Seat::all(n) {
            self.show_bid(s);
        }
        let targets: Vec<u8> = Seat::all(n).map(|s| self.target_of(s)).collect();
        let made: Vec<bool> = (0..n).map(|s| self.won[s] == targets[s]).collect();
        let points = fines(&made, self.declarer, self.revealer);
        for (t, p) in self.totals.iter_mut().zip(&points) {
            *t += p;
        }
        let summary = self.summary(&targets, &made);
        let deal = self.core.current_deal();
        self.core.end_hand(HandResult {
            deal,
            dealer: self.core.dealer,
            misdeal: false,
            bids: targets.iter().map(|&t| Some(Action::Bid(t))).collect(),
            tricks: self.won[..n].to_vec(),
            made: made.iter().map(|&m| Some(m)).collect(),
            points,
            totals: self.totals[..n].to_vec(),
            seat_points: Vec::new(),
            summary,
        });
        self.core.dealer = self.core.dealer.next(n);
        self.stage = if self.core.played() >= self.cfg.hands {
            Stage::Over
        } else {
            Stage::Deal
        };
    }

    /// One line for people, e.g. `turn-up 7H (trump H); targets 3 0 2 2 1;
    /// tricks 0 3 0 0 0; declared by 1 (made)`.
    fn summary(&self, targets: &[u8], made: &[bool]) -> String {
        let n = self.n();
        let turn_up = self.turn_up();
        let mut out = String::new();
        if self.cfg.dealer_chooses {
            out.push_str(&format!("size {}; ", self.size));
        }
        out.push_str(&format!("turn-up {turn_up} (trump {})", self.trump_text()));
        if self.rotated == Some(true) {
            out.push_str("; bids rotated");
        }
        let join = |v: Vec<String>| v.join(" ");
        out.push_str(&format!(
            "; targets {}; tricks {}",
            join(targets.iter().map(u8::to_string).collect()),
            join(self.won[..n].iter().map(u8::to_string).collect()),
        ));
        let result = |s: Seat| if made[s.index()] { "made" } else { "missed" };
        match (self.declarer, self.revealer) {
            (Some(d), _) => out.push_str(&format!("; declared by {d} ({})", result(d))),
            (None, Some(r)) => {
                out.push_str(&format!("; revealed by {r} ({})", result(r)));
                if let Some(c) = self.cancelled {
                    out.push_str(&format!(", cancelling {c}'s declaration"));
                }
            }
            (None, None) => {}
        }
        out
    }

    fn trump_text(&self) -> String {
        match self.turn_up {
            None => "-".to_string(),
            Some(t) if nines_are_a_suit(t) => "nines".to_string(),
            Some(t) => t.suit().expect("a suited turn-up").to_string(),
        }
    }

    fn phase(&self) -> Phase {
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
    fn knows_bid(&self, viewer: Seat, owner: Seat) -> bool {
        owner == viewer
            || self.bids_public.contains(owner)
            || (self.rotated == Some(true) && owner == viewer.next(self.n()))
    }

    /// Whether `seat` has placed all its bid cards.
    fn bid_complete(&self, seat: Seat) -> bool {
        let placed = self.bids[seat.index()].len();
        placed > 0 && placed == self.counts[seat.index()] as usize
    }

    fn table(&self, viewer: Seat) -> Vec<TableCard> {
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

    fn notes(&self) -> Vec<(&'static str, String)> {
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

impl Game for Yogi {
    fn variant(&self) -> Variant {
        Variant::Yogi
    }

    fn options(&self) -> Options {
        self.cfg.to_options()
    }

    fn seats(&self) -> usize {
        self.n()
    }

    fn status(&self) -> Status {
        match self.stage {
            Stage::Deal => Status::Deal,
            Stage::Over => Status::Over,
            _ => Status::Act,
        }
    }

    fn to_act(&self) -> SeatSet {
        match self.stage {
            Stage::Deal | Stage::Over => SeatSet::EMPTY,
            Stage::Place => Seat::all(self.n())
                .filter(|s| self.pending[s.index()].is_none())
                .collect(),
            Stage::Vote => Seat::all(self.n())
                .filter(|s| self.votes[s.index()].is_none())
                .collect(),
            _ => SeatSet::single(self.turn),
        }
    }

    fn simultaneous(&self) -> bool {
        matches!(self.stage, Stage::Place | Stage::Vote)
    }

    fn legal_actions_into(&self, seat: Seat, out: &mut ActionList) {
        if !self.to_act().contains(seat) {
            return;
        }
        let hand = self.hands[seat.index()];
        match self.stage {
            Stage::Size => out.extend((2..=self.max_size()).map(Action::HandSize)),
            Stage::Place | Stage::PlaceEach => out.extend(hand.iter().map(Action::Place)),
            Stage::Count => out.extend((1..self.size).map(Action::Count)),
            Stage::Vote => out.extend([Action::Vote(true), Action::Vote(false)]),
            Stage::Declare => {
                out.push(Action::No);
                if self.declarer.is_none() {
                    out.push(Action::Declare);
                }
                out.push(Action::Reveal);
            }
            Stage::Leader => out.extend(
                Seat::all(self.n())
                    .filter(|s| !self.hands[s.index()].is_empty())
                    .map(Action::Leader),
            ),
            Stage::Play => out.extend(
                self.rules
                    .follow(hand, &self.trick)
                    .iter()
                    .map(Action::Play),
            ),
            Stage::Deal | Stage::Over => {}
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        let hand = self.hands[seat.index()];
        match (self.stage, action) {
            (Stage::Size, Action::HandSize(h)) => {
                if (2..=self.max_size()).contains(&h) {
                    Ok(())
                } else {
                    Err(IllegalReason::OutOfRange {
                        min: 2,
                        max: self.max_size() as i32,
                    })
                }
            }
            (Stage::Place | Stage::PlaceEach, Action::Place(c)) => {
                if hand.contains(c) {
                    Ok(())
                } else {
                    Err(IllegalReason::NotInHand(c))
                }
            }
            (Stage::Count, Action::Count(b)) => {
                if (1..self.size).contains(&b) {
                    Ok(())
                } else {
                    Err(IllegalReason::OutOfRange {
                        min: 1,
                        max: self.size as i32 - 1,
                    })
                }
            }
            (Stage::Vote, Action::Vote(_)) => Ok(()),
            (Stage::Declare, Action::No | Action::Reveal) => Ok(()),
            (Stage::Declare, Action::Declare) => match self.declarer {
                Some(_) => Err(IllegalReason::Rule {
                    id: "Y5",
                    text: "there is already a declarer: only `no` or `reveal`",
                }),
                None => Ok(()),
            },
            (Stage::Leader, Action::Leader(l)) => {
                if l.index() >= self.n() {
                    Err(IllegalReason::OutOfRange {
                        min: 0,
                        max: self.n() as i32 - 1,
                    })
                } else if self.hands[l.index()].is_empty() {
                    Err(IllegalReason::Rule {
                        id: "Y12",
                        text: "that seat holds no cards",
                    })
                } else {
                    Ok(())
                }
            }
            // Y2: the suit to follow is the led card's effective suit.
            (Stage::Play, Action::Play(c)) => self.rules.check_play(hand, &self.trick, c),
            _ => Err(IllegalReason::WrongPhase),
        }
    }

    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        let s = seat.index();
        let n = self.n();
        match (self.stage, action) {
            (Stage::Size, Action::HandSize(h)) => {
                self.core.public(Event::Action { seat, action });
                self.distribute(h);
            }
            (Stage::Place, Action::Place(c)) => {
                // Y4: seen by the seat alone; the card stays in the hand until
                // every seat has chosen.
                self.core
                    .private(Event::Action { seat, action }, SeatSet::single(seat));
                self.pending[s] = Some(c);
                if self.pending[..n].iter().all(Option::is_some) {
                    self.finish_placing();
                }
            }
            (Stage::Count, Action::Count(b)) => {
                self.core.public(Event::Action { seat, action });
                self.counts[s] = b;
                self.stage = Stage::PlaceEach;
            }
            (Stage::PlaceEach, Action::Place(c)) => {
                self.core.log.push(LogEntry::redacted(
                    Event::Action { seat, action },
                    SeatSet::single(seat),
                    Event::Hidden {
                        seat,
                        kind: ActionKind::Place,
                    },
                ));
                self.hands[s].remove(c);
                self.bids[s].insert(c);
                if self.bid_complete(seat) {
                    let next = seat.next(n);
                    if next == self.core.dealer.next(n) {
                        self.after_bidding();
                    } else {
                        self.turn = next;
                        self.stage = Stage::Count;
                    }
                }
            }
            (Stage::Vote, Action::Vote(v)) => {
                // Y13: nothing shows until every seat has voted.
                self.votes[s] = Some(v);
                if self.votes[..n].iter().all(Option::is_some) {
                    self.finish_vote();
                }
            }
            (Stage::Declare, Action::No | Action::Declare) => {
                self.core.public(Event::Action { seat, action });
                if action == Action::Declare {
                    self.declarer = Some(seat);
                }
                self.spoken += 1;
                if self.spoken as usize == n {
                    // Y8: without a reveal the dealer's left leads.
                    self.start_play(self.core.dealer.next(n));
                } else {
                    self.turn = seat.next(n);
                }
            }
            (Stage::Declare, Action::Reveal) => {
                // Y5: a reveal ends the round and cancels a declaration; Y6:
                // the bid card turns face up at once.
                self.core.public(Event::Action { seat, action });
                self.cancelled = self.declarer.take();
                self.revealer = Some(seat);
                self.show_bid(seat);
                self.stage = Stage::Leader;
                self.turn = seat;
            }
            (Stage::Leader, Action::Leader(l)) => {
                self.core.public(Event::Action { seat, action });
                self.start_play(l);
            }
            (Stage::Play, Action::Play(c)) => {
                self.core.public(Event::Action { seat, action });
                if self.trick.is_empty() {
                    self.trick_size =
                        self.hands[..n].iter().filter(|h| !h.is_empty()).count() as u8;
                }
                self.hands[s].remove(c);
                self.played.insert(c);
                self.trick.push(Player::Seat(seat), c);
                if self.tricks.is_empty() && self.trick.len() == 1 {
                    self.first_card_played();
                }
                if self.trick.len() == self.trick_size as usize {
                    self.finish_trick();
                } else {
                    self.turn = self.next_holding(seat).expect("a seat still to play");
                }
            }
            (stage, action) => panic!("apply_unchecked: {action} in {stage:?}"),
        }
    }

    fn deck(&self) -> CardSet {
        decks::WITH_ONE_JOKER
    }

    fn deal_unchecked(&mut self, order: &[Card]) {
        self.order.clear();
        self.order.extend(order.iter().copied());
        self.size = 0;
        self.turn_up = None;
        self.rules = TrickRules::plain(None);
        self.hands = [CardSet::EMPTY; MAX_SEATS];
        self.dealt = [CardSet::EMPTY; MAX_SEATS];
        self.received = [CardSet::EMPTY; MAX_SEATS];
        self.bids = [CardSet::EMPTY; MAX_SEATS];
        self.pending = [None; MAX_SEATS];
        self.counts = [0; MAX_SEATS];
        self.votes = [None; MAX_SEATS];
        self.rotated = None;
        self.spoken = 0;
        self.declarer = None;
        self.cancelled = None;
        self.revealer = None;
        self.hand_shown = false;
        self.leader = None;
        self.bids_public = SeatSet::EMPTY;
        self.shown = CardSet::EMPTY;
        self.played = CardSet::EMPTY;
        self.trick.clear();
        self.trick_size = 0;
        self.tricks.clear();
        self.won = [0; MAX_SEATS];
        self.core.begin_hand();
        if self.cfg.dealer_chooses {
            // Y12: the dealer chooses the hand size before any card is dealt.
            self.stage = Stage::Size;
            self.turn = self.core.dealer;
        } else {
            self.distribute(HAND);
        }
    }

    fn observe(&self, seat: Seat) -> Observation {
        let n = self.n();
        let in_hand = !matches!(self.stage, Stage::Deal | Stage::Over);
        let players = Seat::all(n)
            .map(|s| {
                let hand = self.hands[s.index()];
                SeatView {
                    seat: s,
                    held: hand.len() as u8,
                    known: if s == seat || (self.hand_shown && self.revealer == Some(s)) {
                        hand
                    } else {
                        CardSet::EMPTY
                    },
                    bid: (self.bid_complete(s) && self.knows_bid(seat, s))
                        .then(|| Action::Bid(self.target_of(s))),
                    tricks: self.won[s.index()],
                    total: self.totals[s.index()],
                    team: s.index() as u8,
                    active: !(self.stage == Stage::Play && hand.is_empty()),
                }
            })
            .collect();
        let trump = match self.turn_up {
            None => Trump::Undecided,
            Some(t) if nines_are_a_suit(t) => Trump::Nines,
            Some(t) => Trump::Suit(t.suit().expect("a suited turn-up")),
        };
        let contract = match (self.declarer, self.revealer) {
            (Some(d), _) => Some((d, Action::Declare)),
            (None, Some(r)) => Some((r, Action::Reveal)),
            (None, None) => None,
        };
        let undealt = if self.order.is_empty() {
            0
        } else {
            DECK - n * self.size as usize - usize::from(self.turn_up.is_some())
        };
        let unknown_bids: usize = Seat::all(n)
            .filter(|&s| !self.knows_bid(seat, s))
            .map(|s| self.bids[s.index()].len())
            .sum();
        Observation {
            game: Variant::Yogi,
            seat,
            seats: n as u8,
            deal: self.core.current_deal(),
            dealer: self.core.observed_dealer(in_hand),
            phase: self.phase(),
            to_act: if self.simultaneous() {
                self.all()
            } else {
                self.to_act()
            },
            simultaneous: self.simultaneous(),
            hand: self.hands[seat.index()],
            players,
            trump,
            contract,
            table: self.table(seat),
            piles: vec![
                ("undealt".to_string(), undealt as u8),
                ("bid-cards".to_string(), unknown_bids as u8),
            ],
            trick: trick_view(&self.trick, None),
            tricks: self
                .tricks
                .iter()
                .map(|(t, w)| trick_view(t, Some(Player::Seat(*w))))
                .collect(),
            history: visible_events(&self.core.log, seat),
            notes: self
                .notes()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        }
    }

    fn seen_by(&self, seat: Seat) -> CardSet {
        self.dealt[seat.index()]
            .or(self.received[seat.index()])
            .or(self.shown)
            .or(self.played)
    }

    fn core(&self) -> &MatchCore {
        &self.core
    }

    fn result(&self) -> Option<MatchResult> {
        (self.stage == Stage::Over).then(|| {
            MatchResult::by_totals(
                self.totals[..self.n()].to_vec(),
                self.teams(),
                ScoreOrder::LowerIsBetter,
                self.core.played(),
            )
        })
    }

    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        ctx.no_misdeals("Yogi's Whist")?;
        ctx.no_previous_bids("Yogi's Whist")?;
        ctx.within(self.cfg.hands, "Y11")?;
        let n = self.n();
        self.totals[..n].copy_from_slice(&ctx.totals_or_zero(n));
        self.core.start_at(ctx)?;
        Ok(())
    }

    fn accepts(&self, kind: ActionKind) -> bool {
        match kind {
            ActionKind::Play
            | ActionKind::Place
            | ActionKind::No
            | ActionKind::Declare
            | ActionKind::Reveal
            | ActionKind::Leader => true,
            ActionKind::HandSize | ActionKind::Count => self.cfg.dealer_chooses,
            ActionKind::Vote => self.cfg.rotate_vote,
            _ => false,
        }
    }

    fn score_order(&self) -> ScoreOrder {
        ScoreOrder::LowerIsBetter
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::{Seed, Shuffler, deal_if_needed, deck_order};
    use crate::games::testing::{act, card, cards, seat};

    fn game(options: &[&str]) -> Yogi {
        Yogi::new(&Options::parse(options).unwrap()).unwrap()
    }

    /// A deck order that deals `hands[s]` to seat `s` (one at a time from the
    /// dealer's left) when `dealer` deals, then turns up `turn_up`; the rest
    /// of the deck follows in ascending order.
    fn order_for(dealer: usize, hands: &[&str], turn_up: &str) -> Vec<Card> {
        let n = hands.len();
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h).to_vec()).collect();
        let size = hands[0].len();
        assert!(hands.iter().all(|h| h.len() == size));
        let mut order: Vec<Card> = (0..n * size)
            .map(|i| hands[(dealer + 1 + i) % n][i / n])
            .collect();
        order.push(card(turn_up));
        let used: CardSet = order.iter().copied().collect();
        assert_eq!(used.len(), order.len(), "a card twice");
        order.extend(decks::WITH_ONE_JOKER.minus(used));
        order
    }

    fn legal(g: &Yogi, s: usize) -> Vec<String> {
        g.legal_actions(seat(s))
            .iter()
            .map(Action::to_string)
            .collect()
    }

    fn playable(g: &Yogi, s: usize) -> CardSet {
        g.legal_actions(seat(s))
            .iter()
            .filter_map(|a| a.card())
            .collect()
    }

    fn table(o: &Observation) -> Vec<(String, Option<usize>, String)> {
        o.table
            .iter()
            .map(|t| {
                (
                    t.label.clone(),
                    t.owner.map(Seat::index),
                    t.card.to_string(),
                )
            })
            .collect()
    }

    fn bid_cards_seen(o: &Observation) -> Vec<(usize, String)> {
        o.table
            .iter()
            .filter(|t| t.label == "bid-card")
            .map(|t| (t.owner.unwrap().index(), t.card.to_string()))
            .collect()
    }

    fn bids_seen(o: &Observation) -> Vec<Option<u8>> {
        o.players
            .iter()
            .map(|p| match p.bid {
                Some(Action::Bid(n)) => Some(n),
                None => None,
                Some(other) => panic!("unexpected bid {other}"),
            })
            .collect()
    }

    /// The source's example, dealt by seat 0 with 2C turned up (clubs trump).
    /// Seat 1 holds the three top spades and bids 4C (3 tricks); seat 2 holds
    /// diamonds and bids 5D (0); seats 3, 4 and 0 hold hearts and diamonds and
    /// bid hearts (2). Nobody else holds a spade or a club, so seat 1 wins
    /// every trick it leads with a spade.
    const EXAMPLE: [&str; 5] = [
        "6D 7D 8D TH",
        "AS KS QS 4C",
        "2D 3D 4D 5D",
        "2H 3H 4H 5H",
        "6H 7H 8H 9H",
    ];
    const EXAMPLE_BIDS: [&str; 5] = ["TH", "4C", "5D", "5H", "9H"];

    /// The example dealt, and every bid card placed (seat order 4, 2, 0, 3, 1:
    /// the order of a simultaneous step does not matter).
    fn example_bid() -> Yogi {
        let mut g = game(&[]);
        g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
        for s in [4, 2, 0, 3, 1] {
            act(&mut g, s, &format!("place {}", EXAMPLE_BIDS[s]));
        }
        assert_eq!(g.stage, Stage::Declare);
        g
    }

    /// Seat 1 leads its three spades; every other seat throws its lowest card.
    fn seat_1_takes_three_spade_tricks(g: &mut Yogi) {
        for lead in ["AS", "KS", "QS"] {
            act(g, 1, lead);
            for s in [2, 3, 4, 0] {
                let a = g.legal_actions(seat(s))[0];
                g.apply(seat(s), a).unwrap();
            }
            assert_eq!(g.tricks.last().unwrap().1, seat(1));
        }
    }

    #[test]
    fn y1_four_cards_each_from_the_dealers_left_and_the_next_turned_up() {
        let mut g = game(&[]);
        assert_eq!(g.seats(), 5);
        assert_eq!(g.deck(), decks::WITH_ONE_JOKER);
        let order = decks::WITH_ONE_JOKER.to_vec();
        g.deal(&order).unwrap();
        // Seat 1 gets the 1st, 6th, 11th and 16th cards; the 21st is turned up.
        assert_eq!(g.hands[1], cards("2C 7C QC 4D"));
        assert_eq!(g.hands[0], cards("6C JC 3D 8D"));
        assert_eq!(g.turn_up, Some(card("9D")));
        assert_eq!(g.to_act(), SeatSet::all(5));
        assert!(g.simultaneous());
        let o = g.observe(seat(3));
        assert_eq!(o.phase, Phase::Bid);
        assert_eq!(table(&o), [("turn-up".to_string(), None, "9D".to_string())]);
        assert_eq!(o.note("turn-up"), Some("9D"));
        assert_eq!(
            o.piles,
            [("undealt".to_string(), 32), ("bid-cards".to_string(), 0)]
        );
        assert_eq!(
            g.seen_by(seat(3)),
            g.hands[3].or(CardSet::single(card("9D")))
        );
        // Y1: 2 to 13 players; 13 × 4 + 1 = 53 cards.
        for bad in ["players=1", "players=14", "players=x", "players=unset"] {
            assert!(
                Yogi::new(&Options::parse(&[bad]).unwrap()).is_err(),
                "{bad}"
            );
        }
        let mut g = game(&["players=13"]);
        g.deal(&order).unwrap();
        assert!(g.hands[..13].iter().all(|h| h.len() == 4));
        assert_eq!(g.turn_up, Some(Card::BIG_JOKER));
        let o = g.observe(seat(0));
        assert_eq!(o.piles[0], ("undealt".to_string(), 0));
        assert_eq!(o.trump, Trump::Nines);
        assert_eq!(o.note("joker"), Some("none"));
    }

    #[test]
    fn y2_a_nine_turned_up_makes_the_nines_a_suit_and_trump() {
        // Dealer 0, three seats, 9D turned up: the nines are trump.
        let hands = ["9H 3S 4S 5S", "2H 9C JD QD", "AH KH 2S 9S"];
        let mut g = game(&["players=3"]);
        g.deal(&order_for(0, &hands, "9D")).unwrap();
        let o = g.observe(seat(0));
        assert_eq!(o.trump, Trump::Nines);
        assert_eq!(o.note("trump"), Some("nines"));
        assert_eq!(o.note("joker"), Some("9D"));
        act(&mut g, 0, "place 5S");
        act(&mut g, 1, "place JD");
        act(&mut g, 2, "place 2S");
        for s in [1, 2, 0] {
            act(&mut g, s, "no");
        }
        // Seat 1 leads 2H. Seat 2 must follow with a heart. Seat 0 holds 9H,
        // which is no heart while the nines are a suit: it may play anything.
        act(&mut g, 1, "2H");
        assert_eq!(playable(&g, 2), cards("AH KH"));
        act(&mut g, 2, "KH");
        assert_eq!(playable(&g, 0), cards("9H 3S 4S"));
        act(&mut g, 0, "9H");
        assert_eq!(g.tricks[0].1, seat(0), "the nine trumps the hearts");
        // Seat 0 leads a spade: seat 2's 9S does not follow spades, AH may go.
        act(&mut g, 0, "3S");
        assert_eq!(playable(&g, 1), cards("9C QD"));
        act(&mut g, 1, "QD");
        assert_eq!(playable(&g, 2), cards("AH 9S"), "9S is not a spade");
        act(&mut g, 2, "AH");
        assert_eq!(g.tricks[1].1, seat(0));
        // A nine led must be followed by a nine when held.
        act(&mut g, 0, "4S");
        act(&mut g, 1, "9C");
        act(&mut g, 2, "9S");
        assert_eq!(g.tricks[2].1, seat(1), "9C beats 9S");
        let mut g = game(&["players=3"]);
        g.deal(&order_for(0, &hands, "9D")).unwrap();
        act(&mut g, 0, "place 3S");
        act(&mut g, 1, "place 2H");
        act(&mut g, 2, "place 2S");
        for s in [1, 2, 0] {
            act(&mut g, s, "no");
        }
        act(&mut g, 1, "9C");
        assert_eq!(playable(&g, 2), cards("9S"));
        assert_eq!(
            g.check(seat(2), Action::Play(card("AH"))),
            Err(IllegalReason::MustFollowSpecial("nines"))
        );
        act(&mut g, 2, "9S");
        assert_eq!(playable(&g, 0), cards("9H"), "9H must follow the nines");
        assert_eq!(
            g.check(seat(0), Action::Play(card("4S"))),
            Err(IllegalReason::MustFollowSpecial("nines"))
        );
    }

    #[test]
    fn y2_yogis_order_of_the_nines() {
        let winner = |rules: &TrickRules, text: &str| {
            let mut t = Trick::new();
            for (i, c) in text.split_whitespace().enumerate() {
                t.push(Player::Seat(seat(i)), card(c));
            }
            rules.winning_index(&t)
        };
        for turn_up in ["9D", "9S", "9H", "9C", "BJ"] {
            let rules = trick_rules(card(turn_up));
            assert_eq!(rules.trump(), suit_id::NINES, "{turn_up}");
            // 9D < 9S < 9H < 9C.
            assert_eq!(winner(&rules, "9D 9S"), 1);
            assert_eq!(winner(&rules, "9S 9H"), 1);
            assert_eq!(winner(&rules, "9H 9C"), 1);
            assert_eq!(winner(&rules, "9C 9D 9S 9H"), 0);
            assert_eq!(winner(&rules, "9S 9C 9D 9H"), 1);
            // The lowest nine trumps an ace; a plain nine is no card of its suit.
            assert_eq!(winner(&rules, "AS 9D"), 1);
            assert_eq!(winner(&rules, "8H 9H"), 1);
            assert_eq!(rules.suit_of(card("9H")), suit_id::NINES);
        }
        // Otherwise a nine is a card of its suit, between the eight and the ten.
        let rules = trick_rules(card("2C"));
        assert_eq!(winner(&rules, "8H 9H TH"), 2);
        assert_eq!(winner(&rules, "9H 8H"), 0);
        assert_eq!(winner(&rules, "9H 9C"), 1, "a club trumps");
        assert_eq!(winner(&rules, "9H 9S"), 0, "a spade does not follow");
    }

    #[test]
    fn y2_y3_a_joker_turned_up_makes_nines_trump_and_no_joker_in_play() {
        let hands = ["9H AS", "2S 3S"];
        let mut g = game(&["players=2", "dealer-chooses=true"]);
        g.deal(&order_for(0, &hands, "BJ")).unwrap();
        act(&mut g, 0, "size 2");
        assert_eq!(g.turn_up, Some(Card::BIG_JOKER));
        let o = g.observe(seat(0));
        assert_eq!(o.trump, Trump::Nines);
        assert_eq!(o.note("joker"), Some("none"));
        assert_eq!(g.rules.suit_of(Card::BIG_JOKER), suit_id::NONE);
        assert_eq!(g.rules.suit_of(card("9H")), suit_id::NINES);
    }

    #[test]
    fn y3_the_joker_is_a_second_copy_of_the_turn_up() {
        // 7H turned up: hearts are trump and BJ is a heart between 6H and 8H.
        let rules = trick_rules(card("7H"));
        assert_eq!(rules.suit_of(Card::BIG_JOKER), Suit::Hearts as u8);
        assert_eq!(rules.power_of(Card::BIG_JOKER), rules.power_of(card("7H")));
        let winner = |text: &str| {
            let mut t = Trick::new();
            for (i, c) in text.split_whitespace().enumerate() {
                t.push(Player::Seat(seat(i)), card(c));
            }
            rules.winning_index(&t)
        };
        assert_eq!(winner("6H BJ"), 1);
        assert_eq!(winner("BJ 8H"), 1);
        assert_eq!(winner("AS BJ"), 1, "the joker trumps");
        // In play: a heart led, the holder of BJ must follow with it.
        let hands = ["BJ 2S 3S 4S", "2H 5D 6D 7D", "AD KD QD JD"];
        let mut g = game(&["players=3"]);
        g.deal(&order_for(0, &hands, "7H")).unwrap();
        act(&mut g, 0, "place 4S");
        act(&mut g, 1, "place 7D");
        act(&mut g, 2, "place JD");
        for s in [1, 2, 0] {
            act(&mut g, s, "no");
        }
        act(&mut g, 1, "2H");
        assert_eq!(playable(&g, 2), cards("AD KD QD"));
        act(&mut g, 2, "AD");
        assert_eq!(playable(&g, 0), cards("BJ"));
        assert_eq!(
            g.check(seat(0), Action::Play(card("2S"))),
            Err(IllegalReason::MustFollow(Suit::Hearts))
        );
        act(&mut g, 0, "BJ");
        assert_eq!(g.tricks[0].1, seat(0));
        // Y4: the joker bids as the turn-up's printed suit.
        assert_eq!(bid_value(Card::BIG_JOKER, card("7H")), 2);
        assert_eq!(bid_value(Card::BIG_JOKER, card("QD")), 0);
        assert_eq!(bid_value(Card::BIG_JOKER, card("9S")), 1);
        assert_eq!(bid_value(Card::BIG_JOKER, card("2C")), 3);
    }

    #[test]
    fn y3_with_a_nine_turned_up_the_joker_is_that_nine() {
        let rules = trick_rules(card("9S"));
        assert_eq!(rules.suit_of(Card::BIG_JOKER), suit_id::NINES);
        let winner = |text: &str| {
            let mut t = Trick::new();
            for (i, c) in text.split_whitespace().enumerate() {
                t.push(Player::Seat(seat(i)), card(c));
            }
            rules.winning_index(&t)
        };
        assert_eq!(winner("9D BJ"), 1, "9S > 9D");
        assert_eq!(winner("BJ 9H"), 1, "9H > 9S");
        assert_eq!(winner("AS BJ"), 1, "a nine trumps");
        // It bids as a spade.
        let hands = ["BJ 2S 3S 4S", "2H 5D 6D 7D"];
        let mut g = game(&["players=2"]);
        g.deal(&order_for(0, &hands, "9S")).unwrap();
        act(&mut g, 0, "place BJ");
        act(&mut g, 1, "place 2H");
        assert_eq!(g.target_of(seat(0)), 1);
        assert_eq!(g.target_of(seat(1)), 2);
    }

    #[test]
    fn y4_bid_cards_are_placed_at_once_and_face_down() {
        let mut g = game(&[]);
        g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
        let before = g.observe(seat(3));
        assert_eq!(
            legal(&g, 1),
            ["place 4C", "place QS", "place KS", "place AS"]
        );
        act(&mut g, 1, "place 4C");
        act(&mut g, 4, "place 9H");
        // Nothing of it shows to seat 3, not even who has placed: the cards stay
        // in their hands and every seat stays listed to act.
        let o3 = g.observe(seat(3));
        assert_eq!(o3, before);
        assert_eq!(o3.to_act, SeatSet::all(5));
        assert!(o3.simultaneous);
        assert_eq!(o3.players[1].held, 4);
        assert_eq!(
            g.to_act().iter().map(Seat::index).collect::<Vec<_>>(),
            [0, 2, 3]
        );
        assert!(g.legal_actions(seat(1)).is_empty());
        assert_eq!(
            g.validate(seat(1), Action::Place(card("AS"))),
            Err(IllegalReason::NotYourTurn {
                to_act: SeatSet::EMPTY
            })
        );
        // Seat 1 sees its own choice in its history.
        let o1 = g.observe(seat(1));
        assert_eq!(
            o1.history.last(),
            Some(&Event::Action {
                seat: seat(1),
                action: Action::Place(card("4C"))
            })
        );
        assert_eq!(
            g.check(seat(2), Action::Place(card("AS"))),
            Err(IllegalReason::NotInHand(card("AS")))
        );
        act(&mut g, 2, "place 5D");
        act(&mut g, 0, "place TH");
        act(&mut g, 3, "place 5H");
        // Complete: a Hidden marker for every other seat, in seat order.
        let o3 = g.observe(seat(3));
        let hidden = |s: usize| Event::Hidden {
            seat: seat(s),
            kind: ActionKind::Place,
        };
        assert_eq!(
            o3.history[o3.history.len() - 4..],
            [hidden(0), hidden(1), hidden(2), hidden(4)]
        );
        assert_eq!(o3.history.last(), Some(&hidden(4)));
        assert_eq!(o3.hand, cards("2H 3H 4H"));
        assert!(o3.players.iter().all(|p| p.held == 3));
        // Its own bid card shows to seat 3 alone, with its target.
        assert_eq!(bid_cards_seen(&o3), [(3, "5H".to_string())]);
        assert_eq!(bids_seen(&o3), [None, None, None, Some(2), None]);
        assert_eq!(o3.note("bid-counts"), Some("1 1 1 1 1"));
        assert_eq!(o3.piles[1], ("bid-cards".to_string(), 4));
        assert!(!format!("{o3:?}").contains("4C"));
        // Targets: D = 0, S = 1, H = 2, C = 3.
        let targets: Vec<u8> = (0..5).map(|s| g.target_of(seat(s))).collect();
        assert_eq!(targets, [2, 3, 0, 2, 2]);
        assert_eq!(
            YOGI_ORDER.map(suit_value),
            [0, 1, 2, 3],
            "D S H C is Yogi's order"
        );
        // A nine bids by its printed suit even while the nines are a suit.
        assert_eq!(bid_value(card("9H"), card("9D")), 2);
        assert_eq!(bid_value(card("9C"), Card::BIG_JOKER), 3);
    }

    #[test]
    fn y5_at_most_one_declarer_and_a_reveal_ends_the_round() {
        let mut g = example_bid();
        assert_eq!(
            g.to_act(),
            SeatSet::single(seat(1)),
            "the dealer's left first"
        );
        assert_eq!(legal(&g, 1), ["no", "declare", "reveal"]);
        act(&mut g, 1, "declare");
        assert_eq!(legal(&g, 2), ["no", "reveal"]);
        assert_eq!(
            g.check(seat(2), Action::Declare),
            Err(IllegalReason::Rule {
                id: "Y5",
                text: "there is already a declarer: only `no` or `reveal`"
            })
        );
        let o = g.observe(seat(4));
        assert_eq!(o.phase, Phase::Declare);
        assert_eq!(o.contract, Some((seat(1), Action::Declare)));
        assert_eq!(o.note("declarer"), Some("1"));
        // Y7: the declarer's bid card stays face down for now.
        assert_eq!(bid_cards_seen(&o), [(4, "9H".to_string())]);
        act(&mut g, 2, "no");
        // Seat 3 reveals: the round ends at once (seats 4 and 0 are not asked)
        // and the declaration is cancelled.
        act(&mut g, 3, "reveal");
        assert_eq!(g.stage, Stage::Leader);
        assert_eq!(g.to_act(), SeatSet::single(seat(3)));
        let o = g.observe(seat(4));
        assert_eq!(o.contract, Some((seat(3), Action::Reveal)));
        assert_eq!(o.note("declarer"), Some("-"));
        assert_eq!(o.note("revealer"), Some("3"));
        act(&mut g, 3, "lead 1");
        seat_1_takes_three_spade_tricks(&mut g);
        // Seats 1 (3 of 3) and 2 (0 of 0) made: m = 2. Seat 3 revealed and
        // missed (0 of 2): 3 + 8. Seats 4 and 0 missed: 3. Seat 1's cancelled
        // declaration counts for nothing.
        let r = &g.hand_results()[0];
        assert_eq!(r.tricks, [0, 3, 0, 0, 0]);
        assert_eq!(r.made, [false, true, true, false, false].map(Some));
        assert_eq!(r.points, [3, 0, 0, 11, 3]);
        assert_eq!(
            r.summary,
            "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; \
             revealed by 3 (missed), cancelling 1's declaration"
        );
    }

    #[test]
    fn y5_y8_nobody_calls_and_the_dealers_left_leads() {
        let mut g = example_bid();
        for s in [1, 2, 3, 4, 0] {
            act(&mut g, s, "no");
        }
        assert_eq!(g.stage, Stage::Play);
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        let o = g.observe(seat(0));
        assert_eq!(o.contract, None);
        assert_eq!(o.note("leader"), Some("1"));
        seat_1_takes_three_spade_tricks(&mut g);
        // Y8: three tricks, then the hand is over. m = 2: the three others pay 3.
        assert_eq!(g.tricks.len(), 3);
        assert_eq!(g.status(), Status::Deal);
        let r = &g.hand_results()[0];
        assert_eq!(r.points, [3, 0, 0, 3, 3]);
        assert_eq!(r.totals, [3, 0, 0, 3, 3]);
        assert_eq!(
            r.summary,
            "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0"
        );
        assert_eq!(g.dealer(), seat(1), "the deal passes left");
    }

    #[test]
    fn y6_the_revealers_card_at_once_its_leader_and_its_hand_after_the_first_card() {
        let mut g = example_bid();
        act(&mut g, 1, "no");
        act(&mut g, 2, "reveal");
        // Y6: seat 2's bid card is public at once, with its target.
        let o = g.observe(seat(4));
        assert_eq!(
            o.history.last(),
            Some(&Event::Reveal {
                seat: seat(2),
                cards: cards("5D")
            })
        );
        assert_eq!(
            bid_cards_seen(&o),
            [(2, "5D".to_string()), (4, "9H".to_string())]
        );
        assert_eq!(bids_seen(&o), [None, None, Some(0), None, Some(2)]);
        assert_eq!(o.players[2].known, CardSet::EMPTY, "not the hand yet");
        assert_eq!(o.phase, Phase::Choose);
        // The revealer names any seat to lead, itself included.
        assert_eq!(
            legal(&g, 2),
            ["lead 0", "lead 1", "lead 2", "lead 3", "lead 4"]
        );
        assert_eq!(
            g.check(seat(2), Action::Leader(seat(7))),
            Err(IllegalReason::OutOfRange { min: 0, max: 4 })
        );
        assert_eq!(g.check(seat(2), Action::No), Err(IllegalReason::WrongPhase));
        act(&mut g, 2, "lead 1");
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        assert_eq!(g.observe(seat(0)).note("leader"), Some("1"));
        act(&mut g, 1, "AS");
        // After the first card the revealer's whole hand is public.
        let o = g.observe(seat(4));
        assert_eq!(o.players[2].known, cards("2D 3D 4D"));
        assert_eq!(
            o.history.last(),
            Some(&Event::Reveal {
                seat: seat(2),
                cards: cards("2D 3D 4D")
            })
        );
        assert!(g.seen_by(seat(4)).contains(card("3D")));
        act(&mut g, 2, "2D");
        assert_eq!(g.observe(seat(0)).players[2].known, cards("3D 4D"));
        for s in [3, 4, 0] {
            let a = g.legal_actions(seat(s))[0];
            g.apply(seat(s), a).unwrap();
        }
        for lead in ["KS", "QS"] {
            act(&mut g, 1, lead);
            for s in [2, 3, 4, 0] {
                let a = g.legal_actions(seat(s))[0];
                g.apply(seat(s), a).unwrap();
            }
        }
        // The revealer (seat 2) made: m = 2; +4 to every other seat. Seat 1
        // made: 4; seats 3, 4, 0 missed: 3 + 4.
        let r = &g.hand_results()[0];
        assert_eq!(r.points, [7, 4, 0, 7, 7]);
        assert_eq!(
            r.summary,
            "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; revealed by 2 (made)"
        );
    }

    #[test]
    fn y7_the_declarers_card_turns_up_after_the_first_card() {
        let mut g = example_bid();
        act(&mut g, 1, "declare");
        for s in [2, 3, 4, 0] {
            act(&mut g, s, "no");
        }
        let o = g.observe(seat(3));
        assert_eq!(o.contract, Some((seat(1), Action::Declare)));
        assert_eq!(bid_cards_seen(&o), [(3, "5H".to_string())]);
        assert_eq!(o.players[1].bid, None);
        assert!(!g.seen_by(seat(3)).contains(card("4C")));
        act(&mut g, 1, "AS");
        let o = g.observe(seat(3));
        assert_eq!(
            o.history.last(),
            Some(&Event::Reveal {
                seat: seat(1),
                cards: cards("4C")
            })
        );
        assert_eq!(
            bid_cards_seen(&o),
            [(1, "4C".to_string()), (3, "5H".to_string())]
        );
        assert_eq!(o.players[1].bid, Some(Action::Bid(3)));
        assert_eq!(
            o.players[1].known,
            CardSet::EMPTY,
            "a declarer's hand stays hidden"
        );
        assert!(g.seen_by(seat(3)).contains(card("4C")));
    }

    #[test]
    fn y9_the_sources_example_two_make_and_one_of_them_declared() {
        let mut g = example_bid();
        act(&mut g, 1, "declare");
        for s in [2, 3, 4, 0] {
            act(&mut g, s, "no");
        }
        seat_1_takes_three_spade_tricks(&mut g);
        // Seat 1 (declared, 3 of 3) and seat 2 (0 of 0) made: m = 2. The other
        // maker pays the declarer's 2; the three others 3 + 2 = 5.
        let r = &g.hand_results()[0];
        assert_eq!(r.bids, [2, 3, 0, 2, 2].map(|t| Some(Action::Bid(t))));
        assert_eq!(r.tricks, [0, 3, 0, 0, 0]);
        assert_eq!(r.points, [5, 0, 2, 5, 5]);
        assert_eq!(
            r.summary,
            "turn-up 2C (trump C); targets 2 3 0 2 2; tricks 0 3 0 0 0; declared by 1 (made)"
        );
    }

    #[test]
    fn y9_fines_by_hand() {
        let s = |i| Some(seat(i));
        // The source's example.
        assert_eq!(
            fines(&[false, true, true, false, false], s(1), None),
            [5, 0, 2, 5, 5]
        );
        // Two make, nobody calls: the three others pay 3.
        assert_eq!(
            fines(&[false, true, true, false, false], None, None),
            [3, 0, 0, 3, 3]
        );
        // Nobody makes: everyone pays 1.
        assert_eq!(fines(&[false; 4], None, None), [1, 1, 1, 1]);
        // A declarer who missed pays 4 on top of m + 1 (m = 1: 2 + 4).
        assert_eq!(fines(&[true, false, false], s(1), None), [0, 6, 2]);
        // A revealer who made: 4 to every other seat (m = 1, 2 + 4 for misses).
        assert_eq!(fines(&[true, false, false], None, s(0)), [0, 6, 6]);
        // A revealer who missed pays 8 on top (m = 2: 3 + 8).
        assert_eq!(fines(&[true, true, false], None, s(2)), [0, 0, 11]);
        // Everyone makes: nobody pays, but a declarer's 2 still goes to the others.
        assert_eq!(fines(&[true, true], None, None), [0, 0]);
        assert_eq!(fines(&[true, true], s(0), None), [0, 2]);
    }

    #[test]
    fn y10_every_bid_card_is_public_at_the_end_of_the_hand() {
        let mut g = example_bid();
        act(&mut g, 1, "declare");
        for s in [2, 3, 4, 0] {
            act(&mut g, s, "no");
        }
        seat_1_takes_three_spade_tricks(&mut g);
        let o = g.observe(seat(3));
        assert_eq!(o.phase, Phase::Deal);
        let every: Vec<(usize, String)> =
            (0..5).map(|s| (s, EXAMPLE_BIDS[s].to_string())).collect();
        assert_eq!(bid_cards_seen(&o), every);
        assert_eq!(bids_seen(&o), [2, 3, 0, 2, 2].map(Some));
        // One Reveal per seat not yet shown (seat 1 was, after the first card).
        let reveals: Vec<usize> = o
            .history
            .iter()
            .rev()
            .skip(1)
            .take(4)
            .map(|e| match e {
                Event::Reveal { seat, .. } => seat.index(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(reveals, [4, 3, 2, 0]);
        assert_eq!(o.history.last(), Some(&Event::HandEnd { deal: 0 }));
        for (s, bid) in EXAMPLE_BIDS.iter().enumerate() {
            assert!(g.seen_by(seat(s)).contains(card(bid)));
            assert_eq!(
                g.seen_by(seat(s)).len(),
                21,
                "every card dealt and the turn-up"
            );
        }
    }

    #[test]
    fn y11_a_match_is_two_deals_per_seat_and_the_lowest_total_wins() {
        assert_eq!(game(&[]).config().hands, 10);
        assert_eq!(game(&["players=3"]).config().hands, 6);
        assert_eq!(game(&["players=3", "hands=1"]).config().hands, 1);
        let mut g = game(&["players=3"]);
        assert_eq!(g.score_order(), ScoreOrder::LowerIsBetter);
        let seed = Seed::from_u64(8);
        let mut dealers = Vec::new();
        while !g.is_over() {
            if deal_if_needed(&mut g, seed).unwrap() {
                dealers.push(g.dealer().index());
                continue;
            }
            let s = g.to_act().first().unwrap();
            let a = g.legal_actions(s)[0];
            g.apply(s, a).unwrap();
        }
        assert_eq!(dealers, [0, 1, 2, 0, 1, 2], "each seat deals twice");
        let m = g.result().unwrap();
        assert_eq!(m.hands, 6);
        assert_eq!(m.order, ScoreOrder::LowerIsBetter);
        let sum = |s: usize| g.hand_results().iter().map(|r| r.points[s]).sum::<i32>();
        assert_eq!(m.totals, [sum(0), sum(1), sum(2)]);
        for s in 0..3 {
            let better = m.totals.iter().filter(|&&t| t < m.totals[s]).count();
            assert_eq!(m.ranks[s] as usize, 1 + better);
        }
        // Lower is better in the ranks.
        let r = MatchResult::by_totals(vec![9, 2, 5], vec![0, 1, 2], ScoreOrder::LowerIsBetter, 6);
        assert_eq!(r.ranks, [3, 1, 2]);
    }

    /// Y12 with three seats, dealer 0, h = 3 and 2C turned up. Seat 1 bids
    /// one card (3D: 0), seat 2 two (4S 5S: 2), seat 0 one (KD: 0).
    const CHOOSER: [&str; 3] = ["7H 8D KD", "5H 6H 3D", "AH 4S 5S"];

    fn chooser_bid(options: &[&str]) -> Yogi {
        let mut g = game(options);
        g.deal(&order_for(0, &CHOOSER, "2C")).unwrap();
        act(&mut g, 0, "size 3");
        act(&mut g, 1, "count 1");
        act(&mut g, 1, "place 3D");
        act(&mut g, 2, "count 2");
        act(&mut g, 2, "place 4S");
        act(&mut g, 2, "place 5S");
        act(&mut g, 0, "count 1");
        act(&mut g, 0, "place KD");
        g
    }

    #[test]
    fn y12_the_dealer_chooses_the_size_and_bids_are_sequential() {
        let mut g = game(&["players=3", "dealer-chooses=true", "hands=1"]);
        assert!(g.accepts(ActionKind::HandSize));
        assert!(!game(&[]).accepts(ActionKind::HandSize));
        assert!(game(&[]).parse_action("size 3").is_err());
        g.deal(&order_for(0, &CHOOSER, "2C")).unwrap();
        // The dealer chooses before any card is dealt: nobody holds or sees any.
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        let o = g.observe(seat(0));
        assert_eq!(o.phase, Phase::Choose);
        assert_eq!(o.hand, CardSet::EMPTY);
        assert_eq!(o.table, []);
        assert_eq!(o.trump, Trump::Undecided);
        assert_eq!(o.note("hand-size"), Some("-"));
        assert_eq!(g.seen_by(seat(0)), CardSet::EMPTY);
        // 2 ≤ h and 3h + 1 ≤ 53: 2..=17.
        let sizes = g.legal_actions(seat(0));
        assert_eq!(sizes.first(), Some(&Action::HandSize(2)));
        assert_eq!(sizes.last(), Some(&Action::HandSize(17)));
        assert_eq!(sizes.len(), 16);
        assert_eq!(
            g.check(seat(0), Action::HandSize(18)),
            Err(IllegalReason::OutOfRange { min: 2, max: 17 })
        );
        act(&mut g, 0, "size 3");
        assert_eq!(g.hands[1], cards("5H 6H 3D"));
        assert_eq!(g.turn_up, Some(card("2C")));
        assert_eq!(g.observe(seat(2)).note("hand-size"), Some("3"));
        // Sequential from the dealer's left: a count (1..=h-1), then the cards.
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        assert!(!g.simultaneous());
        assert_eq!(legal(&g, 1), ["count 1", "count 2"]);
        act(&mut g, 1, "count 1");
        assert_eq!(g.observe(seat(0)).note("bid-counts"), Some("- 1 -"));
        act(&mut g, 1, "place 3D");
        act(&mut g, 2, "count 2");
        act(&mut g, 2, "place 4S");
        // Others see that seat 2 placed a card, not which.
        let o0 = g.observe(seat(0));
        assert_eq!(
            o0.history.last(),
            Some(&Event::Hidden {
                seat: seat(2),
                kind: ActionKind::Place
            })
        );
        assert_eq!(o0.players[2].held, 2);
        assert_eq!(o0.players[1].bid, None);
        let o2 = g.observe(seat(2));
        assert_eq!(bid_cards_seen(&o2), [(2, "4S".to_string())]);
        assert_eq!(o2.players[2].bid, None, "not complete yet");
        act(&mut g, 2, "place 5S");
        assert_eq!(g.observe(seat(2)).players[2].bid, Some(Action::Bid(2)));
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        act(&mut g, 0, "count 1");
        act(&mut g, 0, "place KD");
        assert_eq!(g.stage, Stage::Declare);
        assert_eq!(g.observe(seat(1)).note("bid-counts"), Some("1 1 2"));
        let targets: Vec<u8> = (0..3).map(|s| g.target_of(seat(s))).collect();
        assert_eq!(targets, [0, 0, 2]);
    }

    #[test]
    fn y12_empty_hands_are_skipped_and_a_winner_without_cards_passes_the_lead() {
        let mut g = chooser_bid(&["players=3", "dealer-chooses=true", "hands=1"]);
        for s in [1, 2, 0] {
            act(&mut g, s, "no");
        }
        // Trick 1: 5H, AH (seat 2's last card) wins, 7H.
        act(&mut g, 1, "5H");
        act(&mut g, 2, "AH");
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        act(&mut g, 0, "7H");
        assert_eq!(g.tricks[0].1, seat(2));
        // Seat 2 has no cards: the next seat clockwise holding cards, seat 0, leads.
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        let o = g.observe(seat(1));
        assert!(!o.players[2].active);
        assert!(o.players[0].active);
        act(&mut g, 0, "8D");
        // Seat 2 is skipped; seat 1 follows and the trick is complete.
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        act(&mut g, 1, "6H");
        assert_eq!(g.tricks[1].0.len(), 2);
        assert_eq!(g.tricks[1].1, seat(0));
        // Tricks 1 0 1 against targets 0 0 2: seat 1 made (m = 1); the others pay 2.
        assert!(g.is_over());
        let r = &g.hand_results()[0];
        assert_eq!(r.tricks, [1, 0, 1]);
        assert_eq!(r.points, [2, 0, 2]);
        assert_eq!(
            r.summary,
            "size 3; turn-up 2C (trump C); targets 0 0 2; tricks 1 0 1"
        );
    }

    #[test]
    fn y12_a_declare_or_reveal_shows_every_bid_card_of_the_seat() {
        let mut g = chooser_bid(&["players=3", "dealer-chooses=true"]);
        act(&mut g, 1, "no");
        act(&mut g, 2, "reveal");
        let o = g.observe(seat(0));
        assert_eq!(
            bid_cards_seen(&o),
            [
                (0, "KD".to_string()),
                (2, "4S".to_string()),
                (2, "5S".to_string())
            ]
        );
        assert_eq!(o.players[2].bid, Some(Action::Bid(2)));
        act(&mut g, 2, "lead 2");
        act(&mut g, 2, "AH");
        // The revealer's hand (now empty) is public; seat 2 sits out from now on.
        let o = g.observe(seat(0));
        assert_eq!(o.players[2].known, CardSet::EMPTY);
        assert_eq!(o.players[2].held, 0);
        let mut g = chooser_bid(&["players=3", "dealer-chooses=true"]);
        act(&mut g, 1, "no");
        act(&mut g, 2, "declare");
        act(&mut g, 0, "no");
        assert_eq!(bid_cards_seen(&g.observe(seat(1))), [(1, "3D".to_string())]);
        act(&mut g, 1, "5H");
        assert_eq!(
            bid_cards_seen(&g.observe(seat(1))),
            [
                (1, "3D".to_string()),
                (2, "4S".to_string()),
                (2, "5S".to_string())
            ]
        );
    }

    #[test]
    fn y13_a_majority_passes_every_bid_card_left() {
        let hands = ["2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S"];
        let mut g = game(&["players=3", "rotate-vote=true", "hands=1"]);
        g.deal(&order_for(0, &hands, "2C")).unwrap();
        act(&mut g, 0, "place 2D");
        act(&mut g, 1, "place 2H");
        act(&mut g, 2, "place 2S");
        // The vote: simultaneous; nothing shows until every seat has voted.
        assert_eq!(g.stage, Stage::Vote);
        assert!(g.simultaneous());
        assert_eq!(legal(&g, 0), ["vote yes", "vote no"]);
        let before = g.observe(seat(2));
        act(&mut g, 0, "vote yes");
        act(&mut g, 1, "vote no");
        assert_eq!(g.observe(seat(2)), before);
        assert_eq!(g.observe(seat(2)).to_act, SeatSet::all(3));
        act(&mut g, 2, "vote yes");
        // Two of three said yes: a strict majority. 2D goes to seat 1, 2H to
        // seat 2, 2S to seat 0.
        assert_eq!(g.stage, Stage::Declare);
        assert_eq!(g.bids[..3], [cards("2S"), cards("2D"), cards("2H")]);
        let o2 = g.observe(seat(2));
        assert_eq!(o2.note("rotated"), Some("yes"));
        // Every vote shows once the step is complete, in seat order.
        let votes: Vec<Event> = o2
            .history
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Action {
                        action: Action::Vote(_),
                        ..
                    }
                )
            })
            .copied()
            .collect();
        let vote = |s: usize, v: bool| Event::Action {
            seat: seat(s),
            action: Action::Vote(v),
        };
        assert_eq!(votes, [vote(0, true), vote(1, false), vote(2, true)]);
        let all_votes = g
            .log()
            .iter()
            .filter(|e| {
                matches!(
                    e.event,
                    Event::Action {
                        action: Action::Vote(_),
                        ..
                    }
                )
            })
            .count();
        assert_eq!(all_votes, 3, "each vote once in the hand's log");
        // Seat 2 sees the card it receives (2H from seat 1) and the one it
        // gives (2S to seat 0); of 2D passing from seat 0 to seat 1 it sees
        // only that a card passed.
        let take = |r: usize, c: Option<&str>, g: usize| Event::Take {
            seat: seat(r),
            card: c.map(card),
            from: Source::Seat(seat(g)),
        };
        let tail = [
            take(1, None, 0),
            take(2, Some("2H"), 1),
            take(0, Some("2S"), 2),
        ];
        assert!(o2.history.ends_with(&tail), "{:?}", o2.history);
        assert_eq!(
            bid_cards_seen(&o2),
            [(0, "2S".to_string()), (2, "2H".to_string())]
        );
        assert_eq!(bids_seen(&o2), [Some(1), None, Some(2)]);
        assert_eq!(g.seen_by(seat(2)), cards("2S 3S 4S 5S 2H 2C"));
        // Seat 2's target is now 2 (hearts): it holds no heart and wins nothing.
        for s in [1, 2, 0] {
            act(&mut g, s, "no");
        }
        for _ in 0..3 {
            for s in [1, 2, 0] {
                let a = g.legal_actions(seat(s))[0];
                g.apply(seat(s), a).unwrap();
            }
        }
        // Seat 1 leads hearts each time and wins: tricks 0 3 0 against targets
        // 1 (2S), 0 (2D), 2 (2H): nobody made; everyone pays 1.
        let r = &g.hand_results()[0];
        assert_eq!(r.tricks, [0, 3, 0]);
        assert_eq!(r.bids, [1, 0, 2].map(|t| Some(Action::Bid(t))));
        assert_eq!(r.points, [1, 1, 1]);
        assert_eq!(
            r.summary,
            "turn-up 2C (trump C); bids rotated; targets 1 0 2; tricks 0 3 0"
        );
    }

    #[test]
    fn y13_a_tie_is_no_majority() {
        let hands = ["2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S", "6D 7D 8D TD"];
        let mut g = game(&["players=4", "rotate-vote=true"]);
        g.deal(&order_for(0, &hands, "2C")).unwrap();
        for (s, c) in [(0, "2D"), (1, "2H"), (2, "2S"), (3, "6D")] {
            act(&mut g, s, &format!("place {c}"));
        }
        for (s, v) in [(0, "yes"), (1, "yes"), (2, "no"), (3, "no")] {
            act(&mut g, s, &format!("vote {v}"));
        }
        assert_eq!(
            g.bids[..4],
            [cards("2D"), cards("2H"), cards("2S"), cards("6D")]
        );
        let o = g.observe(seat(0));
        assert_eq!(o.note("rotated"), Some("no"));
        assert_eq!(bid_cards_seen(&o), [(0, "2D".to_string())]);
        assert!(!o.history.iter().any(|e| matches!(e, Event::Take { .. })));
    }

    #[test]
    fn y12_y13_groups_of_bid_cards_pass_as_one() {
        let mut g = chooser_bid(&["players=3", "dealer-chooses=true", "rotate-vote=true"]);
        assert_eq!(g.stage, Stage::Vote);
        for s in [0, 1, 2] {
            act(&mut g, s, "vote yes");
        }
        // Seat 2's 4S 5S go to seat 0, seat 1's 3D to seat 2, seat 0's KD to seat 1.
        assert_eq!(g.bids[..3], [cards("4S 5S"), cards("KD"), cards("3D")]);
        let targets: Vec<u8> = (0..3).map(|s| g.target_of(seat(s))).collect();
        assert_eq!(targets, [2, 0, 0]);
        let o1 = g.observe(seat(1));
        assert_eq!(
            bid_cards_seen(&o1),
            [(1, "KD".to_string()), (2, "3D".to_string())]
        );
        assert_eq!(o1.piles[1], ("bid-cards".to_string(), 2));
        let takes = o1
            .history
            .iter()
            .filter(|e| matches!(e, Event::Take { card: None, .. }))
            .count();
        assert_eq!(
            takes, 2,
            "seat 1 sees two cards pass from 2 to 0, face down"
        );
        // The hands are untouched: trick play as before.
        for s in [1, 2, 0] {
            act(&mut g, s, "no");
        }
        for (s, c) in [(1, "5H"), (2, "AH"), (0, "7H"), (0, "8D"), (1, "6H")] {
            act(&mut g, s, c);
        }
        // Tricks 1 0 1 against targets 2 0 0: seat 1 made (m = 1); the others pay 2.
        assert_eq!(g.hand_results()[0].points, [2, 0, 2]);
    }

    #[test]
    fn observations_at_each_decision_show_exactly_what_is_public() {
        // Seat 4 watches the example hand with a declaration by seat 1.
        let mut g = game(&[]);
        g.deal(&order_for(0, &EXAMPLE, "2C")).unwrap();
        let w = seat(4);
        let o = g.observe(w);
        assert_eq!(o.hand, cards(EXAMPLE[4]));
        assert_eq!(table(&o), [("turn-up".to_string(), None, "2C".to_string())]);
        assert_eq!(o.trump, Trump::Suit(Suit::Clubs));
        assert_eq!(o.note("joker"), Some("2C"));
        assert!(o.players.iter().all(|p| p.bid.is_none()));
        for s in [4, 2, 0, 3, 1] {
            act(&mut g, s, &format!("place {}", EXAMPLE_BIDS[s]));
        }
        act(&mut g, 1, "declare");
        act(&mut g, 2, "no");
        act(&mut g, 3, "no");
        let o = g.observe(w);
        assert_eq!(o.to_act, SeatSet::single(w));
        assert_eq!(legal(&g, 4), ["no", "reveal"]);
        let known_to_4 = cards("6H 7H 8H 9H 2C");
        assert_eq!(g.seen_by(w), known_to_4);
        // No card seat 4 has not seen is named anywhere in what it observes.
        let text = format!("{o:?}");
        let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        for c in decks::WITH_ONE_JOKER.minus(known_to_4) {
            assert!(!words.contains(&c.to_string().as_str()), "{c} in {text}");
        }
        assert!(o.players.iter().all(|p| p.known.is_empty() || p.seat == w));
        act(&mut g, 4, "no");
        act(&mut g, 0, "no");
        act(&mut g, 1, "AS");
        let o = g.observe(w);
        assert_eq!(o.trick.cards, [(Player::Seat(seat(1)), card("AS"))]);
        assert_eq!(bids_seen(&o), [None, Some(3), None, None, Some(2)]);
        assert_eq!(g.seen_by(w), known_to_4.or(cards("AS 4C")));
    }

    #[test]
    fn options_resolve_and_round_trip() {
        let g = game(&[]);
        assert_eq!(
            g.options().to_string(),
            "dealer-chooses=false hands=10 players=5 rotate-vote=false"
        );
        for given in [
            &["players=2"][..],
            &["players=13", "hands=3", "dealer-chooses=true"],
            &["rotate-vote=true", "hands=auto", "players=7"],
        ] {
            let g = game(given);
            let again = Yogi::new(&g.options()).unwrap();
            assert_eq!(again.config(), g.config(), "{given:?}");
        }
        for bad in [
            "hands=0",
            "hands=unset",
            "players=0",
            "dealer-chooses=yes",
            "rotate-vote=1",
            "target=5",
        ] {
            assert!(
                Yogi::new(&Options::parse(&[bad]).unwrap()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn illegal_actions_have_precise_reasons() {
        let mut g = game(&["dealer-chooses=true", "players=4"]);
        assert_eq!(
            g.validate(seat(0), Action::HandSize(3)),
            Err(IllegalReason::AwaitingDeal)
        );
        g.deal(&decks::WITH_ONE_JOKER.to_vec()).unwrap();
        assert_eq!(
            g.check(seat(0), Action::Count(1)),
            Err(IllegalReason::WrongPhase)
        );
        assert_eq!(
            g.validate(seat(1), Action::HandSize(3)),
            Err(IllegalReason::NotYourTurn {
                to_act: SeatSet::single(seat(0))
            })
        );
        act(&mut g, 0, "size 5");
        assert_eq!(
            g.check(seat(1), Action::Count(5)),
            Err(IllegalReason::OutOfRange { min: 1, max: 4 })
        );
        assert!(g.check(seat(1), Action::Count(0)).is_err());
        assert!(g.parse_action("give 2C").is_err());
        assert!(
            g.parse_action("vote yes").is_err(),
            "no vote without rotate-vote"
        );
        assert!(matches!(
            g.resolve(seat(1), "AS"),
            Err(crate::error::ActionError::Illegal(_))
        ));
    }

    /// Plays random legal actions from a seeded shuffler.
    fn random_steps(g: &mut Yogi, rng: &mut Shuffler, steps: usize) -> Vec<(Seat, Action)> {
        let mut done = Vec::new();
        while g.status() == Status::Act && done.len() < steps {
            let to_act: Vec<Seat> = g.to_act().iter().collect();
            let s = to_act[rng.below(to_act.len() as u32) as usize];
            let legal = g.legal_actions(s);
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.apply(s, a).unwrap();
            done.push((s, a));
        }
        done
    }

    const OPTION_SETS: [&[&str]; 5] = [
        &["hands=3"],
        &["players=2", "dealer-chooses=true", "hands=3"],
        &["players=13", "rotate-vote=true", "hands=2"],
        &[
            "players=7",
            "dealer-chooses=true",
            "rotate-vote=true",
            "hands=2",
        ],
        &["players=13", "dealer-chooses=true", "hands=2"],
    ];

    #[test]
    fn legal_actions_agree_with_check() {
        let mut universe = vec![
            Action::No,
            Action::Declare,
            Action::Reveal,
            Action::Vote(true),
            Action::Vote(false),
            Action::Pass,
        ];
        for c in decks::WITH_TWO_JOKERS {
            universe.extend([Action::Play(c), Action::Place(c)]);
        }
        for k in 0..30 {
            universe.extend([Action::HandSize(k), Action::Count(k)]);
        }
        universe.extend((0..MAX_SEATS).map(|i| Action::Leader(Seat::new(i))));
        for (n, options) in OPTION_SETS.iter().enumerate() {
            for seed in 0..6u64 {
                let mut g = game(options);
                let mut rng = Shuffler::new(Seed::from_u64(1000 + seed));
                while !g.is_over() {
                    if deal_if_needed(&mut g, Seed::from_u64(seed * 7 + n as u64)).unwrap() {
                        continue;
                    }
                    for s in Seat::all(g.seats()) {
                        let legal = g.legal_actions(s);
                        for &a in &universe {
                            assert_eq!(
                                g.validate(s, a).is_ok(),
                                legal.contains(&a),
                                "{options:?} seed {seed}: {s} {a}"
                            );
                        }
                    }
                    random_steps(&mut g, &mut rng, 1);
                }
            }
        }
    }

    #[test]
    fn observations_do_not_depend_on_unseen_cards() {
        for (n, options) in OPTION_SETS.iter().enumerate() {
            for seed in 0..25u64 {
                let mut g = game(options);
                let order = deck_order(Seed::from_u64(seed * 11 + n as u64), g.deck());
                g.deal(&order).unwrap();
                let mut rng = Shuffler::new(Seed::from_u64(seed));
                let steps = rng.below(120) as usize;
                let done = random_steps(&mut g, &mut rng, steps);
                for s in Seat::all(g.seats()) {
                    let seen = g.seen_by(s);
                    // Re-deal the unseen cards among their own positions; the
                    // placed cards follow their cards, and each nine and the
                    // joker stay (a nine changes suit under Y2).
                    let movable = |c: Card| {
                        !seen.contains(c) && c.rank() != Some(Rank::Nine) && !c.is_joker()
                    };
                    for suit in Suit::ALL {
                        let hidden: Vec<usize> = (0..order.len())
                            .filter(|&i| movable(order[i]) && order[i].suit() == Some(suit))
                            .collect();
                        let mut moved: Vec<Card> = hidden.iter().map(|&i| order[i]).collect();
                        rng.shuffle(&mut moved);
                        let mut map = [None; Card::COUNT];
                        for (&i, &c) in hidden.iter().zip(&moved) {
                            map[order[i].index()] = Some(c);
                        }
                        let remap = |c: Card| map[c.index()].unwrap_or(c);
                        let other: Vec<Card> = order.iter().map(|&c| remap(c)).collect();
                        let mut h = game(options);
                        h.deal(&other).unwrap();
                        for &(who, a) in &done {
                            let a = a.card().map_or(a, |c| a.with_card(remap(c)));
                            h.apply(who, a).unwrap_or_else(|e| {
                                panic!("{options:?} seed {seed} seat {s}: {e}")
                            });
                        }
                        assert_eq!(
                            h.observe(s),
                            g.observe(s),
                            "{options:?} seed {seed} seat {s}"
                        );
                        assert_eq!(h.legal_actions(s), g.legal_actions(s));
                        assert_eq!(h.seen_by(s), seen);
                    }
                }
            }
        }
    }

    #[test]
    fn random_matches_end_totals_add_up_and_the_log_never_grows() {
        for (n, options) in OPTION_SETS.iter().enumerate() {
            let mut g = game(options);
            let seed = Seed::from_u64(n as u64);
            let mut rng = Shuffler::new(seed);
            let log_buffer = g.core.log.as_ptr();
            while !g.is_over() {
                if deal_if_needed(&mut g, seed).unwrap() {
                    continue;
                }
                random_steps(&mut g, &mut rng, usize::MAX);
                assert!(g.core.log.len() <= LOG_CAPACITY);
            }
            assert_eq!(g.core.log.as_ptr(), log_buffer, "the log never reallocated");
            let results = g.hand_results();
            for r in results {
                let dealt = r.tricks.iter().map(|&t| t as usize).sum::<usize>();
                assert!(dealt >= 1);
                assert!(r.bids.iter().all(Option::is_some));
            }
            let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
            let totals: Vec<i32> = (0..g.seats()).map(sum).collect();
            assert_eq!(g.result().unwrap().totals, totals);
        }
    }

    #[test]
    fn the_largest_hand_fits_the_log() {
        // Two seats, 26 cards each, the longest Y12 hand: one bid card each,
        // then 25 tricks; and thirteen seats of four with every option.
        for (options, size) in [
            (
                &["players=2", "dealer-chooses=true", "rotate-vote=true"][..],
                "size 26",
            ),
            (
                &["players=13", "dealer-chooses=true", "rotate-vote=true"],
                "size 4",
            ),
        ] {
            let mut g = game(options);
            g.deal(&decks::WITH_ONE_JOKER.to_vec()).unwrap();
            let s = g.to_act().first().unwrap();
            act(&mut g, s.index(), size);
            while g.status() == Status::Act {
                let s = g.to_act().first().unwrap();
                let legal = g.legal_actions(s);
                // The most cards bid and a rotation: the last count, `vote yes`.
                let a = match legal[0] {
                    Action::Count(_) => *legal.last().unwrap(),
                    a => a,
                };
                g.apply(s, a).unwrap();
            }
            assert!(g.core.log.len() <= LOG_CAPACITY, "{}", g.core.log.len());
        }
    }

    #[test]
    fn registered_as_a_variant() {
        let mut g = Variant::Yogi.new_game(&Options::new()).unwrap();
        assert_eq!("yogi".parse::<Variant>().unwrap(), Variant::Yogi);
        assert_eq!(g.seats(), 5);
        assert_eq!(g.deck().len(), 53);
        assert_eq!(g.score_order(), ScoreOrder::LowerIsBetter);
        deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
        assert_eq!(g.observe(seat(0)).game, Variant::Yogi);
    }
}
