//! Yogi's Whist (docs/rules/yogi.md, decisions Y1–Y13).
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
//! Finer points, beyond the source text:
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
// Y12: the most tricks of a hand: two seats with 26 cards, one bid card
// each, leave 25; the shared tricks hold more.
const _: () = assert!(25 <= super::tricks::MAX_TRICKS);
/// More events than a hand can log: start, 13 deals, turn-up, size, 52 counts
/// and placements, 26 votes, 52 rotated cards, 13 calls, a reveal, a leader,
/// 2 first-card reveals, 52 plays, 26 tricks, 13 end reveals and the end (255).
/// The log keeps this capacity across hands.
const LOG_CAPACITY: usize = 320;

/// The nines in Yogi's order, lowest first (Y2); also the order of the bid
/// values, D = 0 .. C = 3 (Y4).
pub const YOGI_ORDER: [Suit; 4] = [Suit::Diamonds, Suit::Spades, Suit::Hearts, Suit::Clubs];

/// One line describing the game.
pub const TITLE: &str = "Yogi's Whist: 2-13 players, a bid card face down, declare or reveal, fines (lowest wins)";

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

impl Stage {
    /// The shared phase this stage belongs to.
    fn phase(self) -> Phase {
        match self {
            Stage::Deal => Phase::Deal,
            Stage::Place | Stage::Count | Stage::PlaceEach => Phase::Bid,
            Stage::Size | Stage::Vote | Stage::Leader => Phase::Choose,
            Stage::Declare => Phase::Declare,
            Stage::Play => Phase::Play,
            Stage::Over => Phase::Over,
        }
    }
}

/// A match of Yogi's Whist.
#[derive(Debug, Clone)]
pub struct Yogi {
    cfg: Config,
    /// Dealer, deals, totals, results, the hand's log and tricks (shared by
    /// every game).
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
    /// Seats playing to the current trick: those holding cards when it was led.
    trick_size: u8,
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
            core: MatchCore::new(Variant::Yogi, cfg.to_options(), cfg.players, LOG_CAPACITY),
            stage: Stage::Deal,
            order: ArrayVec::new(),
            size: 0,
            turn_up: None,
            rules: TrickRules::plain(None),
            hands: [CardSet::EMPTY; MAX_SEATS],
            bids: [CardSet::EMPTY; MAX_SEATS],
            pending: [None; MAX_SEATS],
            counts: [0; MAX_SEATS],
            votes: [None; MAX_SEATS],
            rotated: None,
            spoken: 0,
            declarer: None,
            cancelled: None,
            revealer: None,
            hand_shown: false,
            leader: None,
            bids_public: SeatSet::EMPTY,
            trick_size: 0,
        }
    }

    /// The resolved options.
    pub fn config(&self) -> Config {
        self.cfg
    }

    fn n(&self) -> usize {
        self.cfg.players
    }

    /// Y12: the largest hand size: h × players + 1 ≤ 53.
    fn max_size(&self) -> u8 {
        ((DECK - 1) / self.n()) as u8
    }

    /// Moves to `stage`; the match core's phase follows.
    fn enter(&mut self, stage: Stage) {
        self.stage = stage;
        self.core.phase = stage.phase();
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

    fn start_play(&mut self, leader: Seat) {
        self.enter(Stage::Play);
        self.leader = Some(leader);
        self.core.turn = leader;
    }

    /// Y6, Y7: what turns public once the first card of the hand is played.
    fn first_card_played(&mut self) {
        if let Some(r) = self.revealer {
            self.hand_shown = true;
            let cards = self.hands[r.index()];
            if !cards.is_empty() {
                self.core.public(Event::Reveal { seat: r, cards });
            }
        }
        if let Some(d) = self.declarer {
            self.show_bid(d);
        }
    }

    fn finish_trick(&mut self) {
        let (_, winner) = self.core.finish_trick(&self.rules);
        let winner = winner.seat().expect("no dummy in Yogi's Whist");
        // Y12: a winner without cards is followed by the next seat that has some.
        match self.next_holding(winner.left(self.n() - 1, self.n())) {
            Some(next) => self.core.turn = next,
            None => self.end_hand(),
        }
    }
}

impl Game for Yogi {

    fn to_act(&self) -> SeatSet {
        // Y4, Y13: placing the bid cards and the vote are simultaneous.
        match self.stage {
            Stage::Place => Seat::all(self.n())
                .filter(|s| self.pending[s.index()].is_none())
                .collect(),
            Stage::Vote => Seat::all(self.n())
                .filter(|s| self.votes[s.index()].is_none())
                .collect(),
            _ => self.core.to_act(),
        }
    }

    fn simultaneous(&self) -> bool {
        matches!(self.stage, Stage::Place | Stage::Vote)
    }

    fn append_legal(&self, seat: Seat, out: &mut ActionList) {
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
            Stage::Play => self.core.plays(&self.rules, hand, out),
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
            (Stage::Play, Action::Play(c)) => self.core.check_play(&self.rules, hand, c),
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
                self.enter(Stage::PlaceEach);
            }
            (Stage::PlaceEach, Action::Place(c)) => {
                self.core.face_down(seat, action);
                self.hands[s].remove(c);
                self.bids[s].insert(c);
                if self.bid_complete(seat) {
                    let next = seat.next(n);
                    if next == self.core.dealer.next(n) {
                        self.after_bidding();
                    } else {
                        self.core.turn = next;
                        self.enter(Stage::Count);
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
                    self.core.turn = seat.next(n);
                }
            }
            (Stage::Declare, Action::Reveal) => {
                // Y5: a reveal ends the round and cancels a declaration; Y6:
                // the bid card turns face up at once.
                self.core.public(Event::Action { seat, action });
                self.cancelled = self.declarer.take();
                self.revealer = Some(seat);
                self.show_bid(seat);
                self.enter(Stage::Leader);
                self.core.turn = seat;
            }
            (Stage::Leader, Action::Leader(l)) => {
                self.core.public(Event::Action { seat, action });
                self.start_play(l);
            }
            (Stage::Play, Action::Play(c)) => {
                if self.core.tricks.current().is_empty() {
                    self.trick_size =
                        self.hands[..n].iter().filter(|h| !h.is_empty()).count() as u8;
                }
                let in_trick = self.core.play_card(seat, c, &mut self.hands[s]);
                if self.core.tricks.count() == 0 && in_trick == 1 {
                    self.first_card_played();
                }
                if in_trick == self.trick_size as usize {
                    self.finish_trick();
                } else {
                    self.core.turn = self.next_holding(seat).expect("a seat still to play");
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
        self.trick_size = 0;
        self.core.begin_hand();
        if self.cfg.dealer_chooses {
            // Y12: the dealer chooses the hand size before any card is dealt.
            self.enter(Stage::Size);
            self.core.turn = self.core.dealer;
        } else {
            self.distribute(HAND);
        }
    }

    fn core(&self) -> &MatchCore {
        &self.core
    }

    fn trick_rules(&self) -> &TrickRules {
        &self.rules
    }

    /// The passive fallback (docs/rules/yogi.md, "Fallback"): a bid card of
    /// the lowest value (Y4: D=0 first), the lowest card among equals; as
    /// leader (Y6), the seat that leads without a reveal (Y8: the dealer's
    /// left) or the next one holding cards.
    fn passive_key(&self, seat: Seat, action: Action) -> u32 {
        let _ = seat;
        match (action, self.turn_up) {
            (Action::Place(c), Some(turn_up)) => {
                u32::from(bid_value(c, turn_up)) * 512 + crate::passive::card_key(&self.rules, c)
            }
            (Action::Leader(s), _) => {
                let n = self.n();
                300 + ((s.index() + n - (self.core.dealer.index() + 1) % n) % n) as u32
            }
            _ => crate::passive::default_key(&self.rules, action),
        }
    }

    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        ctx.no_misdeals("Yogi's Whist")?;
        ctx.no_previous_bids("Yogi's Whist")?;
        ctx.within(self.cfg.hands, "Y11")?;
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

    fn append_vocabulary(&self, out: &mut Vec<Action>) {
        // Y12: hand sizes and bid counts, under `dealer-chooses` only.
        if self.cfg.dealer_chooses {
            out.extend((2..=self.max_size()).map(Action::HandSize));
            out.extend((1..self.max_size()).map(Action::Count));
        }
        // Y4: any card of the deck may be dealt and placed.
        out.extend(decks::WITH_ONE_JOKER.iter().map(Action::Place));
        // Y13.
        if self.cfg.rotate_vote {
            out.extend([Action::Vote(true), Action::Vote(false)]);
        }
        // Y5, Y6.
        out.extend([Action::No, Action::Declare, Action::Reveal]);
        out.extend(Seat::all(self.n()).map(Action::Leader));
        out.extend(decks::WITH_ONE_JOKER.iter().map(Action::Play));
    }

    fn score_order(&self) -> ScoreOrder {
        ScoreOrder::LowerIsBetter
    }
}

mod bidding;
mod observation;
mod scoring;
mod values;
pub use values::{bid_value, fines, nines_are_a_suit, suit_value, target, trick_rules};

#[cfg(test)]
mod tests;
