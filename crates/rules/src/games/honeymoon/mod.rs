//! Honeymoon Whist (docs/rules/honeymoon.md, decisions H1–H7).
//!
//! Two players, 52 cards and both jokers. The dealer deals 13 cards each, one
//! at a time, starting with the non-dealer; the other 28 cards are the stock,
//! kept in deck order, and its top card is turned face up. Its suit is trump; a
//! turned joker makes `joker-trump` trump, spades by default, or no trump (H1).
//! In the trump suit BJ > LJ > A > K > ... > 2 and the jokers are trump-suit
//! cards for every purpose, following included; at no trump the two jokers form
//! a suit of their own that beats everything, BJ > LJ (H2).
//!
//! Phase 1 lasts while the stock holds cards: 14 tricks. The non-dealer leads
//! the first trick, the winner of a trick leads the next, and nobody has to
//! follow suit. After each trick the winner takes the face-up stock card (every
//! seat sees which), the loser takes the next card face down (only the loser
//! sees it), and the new top card is turned face up, except after the 14th
//! trick, which empties the stock (H3). Phase 2 plays out the 13 cards each seat
//! then holds: follow suit if able, no need to trump (H4). A seat scores one
//! point per trick above 13 of the 27; the first to `target` (14) wins; if both
//! reach it on the same deal the higher total wins, and equal totals play
//! another deal. The deal alternates (H5).
//!
//! Options: `jokers=equal` makes the jokers equal: either beats any other card,
//! and of two jokers the one led wins (H6). `phase1-follow=true` is German
//! Whist's follow rule in phase 1; `scoring` chooses `standard` (H5),
//! `phase2-only` (only phase-2 tricks count; the seat with more of them scores
//! those above 6), `per-trick` (one point a trick, both seats score) or
//! `parlett` (one point a phase-1 trick, two a phase-2 trick, both seats score);
//! `phase1-trumps=false` plays phase 1 at no trump, and `scoring=parlett` makes
//! that the default (H7). The `target` default follows the scoring: 14
//! (`standard`), 7 (`phase2-only`), 100 (`per-trick`, `parlett`); the option
//! spec names this default `auto`.
//!
//! Notation: play `AS`, `BJ`. Playing is the only decision in this game.
//!
//! What a seat sees ([`Honeymoon::observe`](crate::Game::observe)): its own
//! hand; the face-up stock card in `table` as `stock-top`, and the card that
//! set trump as `turn-up` too while it still lies face up on the stock (until
//! the first trick is won; from then on the trump is in `trump` and the card in
//! the winner's `known` cards); the face-down part of the stock in
//! `piles` as `stock`; in the opponent's `known`, the cards it took face
//! up and has not played yet. `trump` is the trump of the trick being played:
//! [`Trump::Jokers`] at no trump (H2), so in phase 1 under
//! `phase1-trumps=false` it differs from the hand's trump in the `trump` note.
//!
//! Observation notes: `phase` (`1` while the stock holds cards, `2` after, `-`
//! when no hand is being played), `stock` (cards left in the stock, the face-up
//! one included), `trump` (the hand's trump as set by the turn-up and
//! `joker-trump`: `C`, `D`, `H`, `S` or `NT`; `-` before the first deal),
//! `phase1-tricks` and `phase2-tricks` (tricks of seat 0 and seat 1 in that
//! phase, space-separated), `hands-played`, and the options `scoring`,
//! `target`, `hands`, `jokers`, `phase1-follow`, `phase1-trumps`.
//!
//! Finer points, beyond the source text:
//! * `hands` (default unset) plays exactly that many deals, for tournaments;
//!   the target is then ignored, the highest total wins and equal totals share
//!   first place. With no `hands`, `max-hands` (default 100) ends a match that
//!   is still undecided after that many deals (highest total wins, ties shared),
//!   so that every match ends, even when per-trick totals keep tying.
//! * `phase1-trumps=false` plays phase 1 at no trump, with the jokers as their
//!   own trump suit (H7); the turn-up still sets phase 2's trump, so the jokers
//!   are trump-suit cards again in phase 2 unless the hand itself is at no trump.
//! * Phase 2 is led by the winner of the last phase-1 trick (the winner of a
//!   trick leads the next, H3).
//! * An illegal play in a trick led with a joker at no trump is refused as
//!   `MustFollowSpecial("jokers")`; a joker led in a trump suit asks for that
//!   printed suit, `MustFollow(suit)`.

use std::fmt::Write as _;

use arrayvec::ArrayVec;

use super::prelude::*;
use crate::action::Strain;

const SEATS: usize = 2;
const HAND: usize = 13;
/// H1: 54 cards less two hands of 13.
const STOCK: usize = 28;
/// H3: each phase-1 trick takes two stock cards.
const PHASE1_TRICKS: usize = STOCK / 2;
/// H5: 14 tricks in phase 1 and 13 in phase 2.
const TRICKS: usize = PHASE1_TRICKS + HAND;
const _: () = assert!(TRICKS <= super::tricks::MAX_TRICKS);
/// Events in one hand: a start, two deals, 14 turn-ups, 54 plays, 27 tricks
/// won, 28 takes and an end (127). The log keeps this capacity across hands.
const LOG_CAPACITY: usize = 128;

/// One line describing the game.
pub const TITLE: &str =
    "Honeymoon Whist: 2 players, 54 cards, 14 tricks drawing from a stock, then 13";

/// The options of Honeymoon Whist.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "joker-trump",
        default: "S",
        values: "S|H|D|C|NT",
        doc: "H1: trump when a joker is turned up (NT: the jokers are a trump suit of their own, H2)",
    },
    OptionSpec {
        key: "jokers",
        default: "distinct",
        values: "distinct|equal",
        doc: "H6: equal jokers: a joker beats any other card; of two jokers the one led wins",
    },
    OptionSpec {
        key: "phase1-follow",
        default: "false",
        values: "true|false",
        doc: "H7: follow suit in phase 1 too (German Whist)",
    },
    OptionSpec {
        key: "phase1-trumps",
        default: "true",
        values: "true|false",
        doc: "H7: trumps in phase 1 (false: no trump, jokers their own suit); scoring=parlett makes it false unless given",
    },
    OptionSpec {
        key: "scoring",
        default: "standard",
        values: "standard|phase2-only|per-trick|parlett",
        doc: "H5, H7: tricks above 13; phase-2 tricks above 6; 1 a trick; 1 a phase-1 and 2 a phase-2 trick",
    },
    OptionSpec {
        key: "target",
        default: "auto",
        values: "auto or 1..=100000",
        doc: "H5: a total that wins; auto = 14 (standard), 7 (phase2-only), 100 (per-trick, parlett)",
    },
    OptionSpec {
        key: "hands",
        default: "unset",
        values: "1..=10000 or unset",
        doc: "play exactly this many deals instead of playing to the target (tournaments)",
    },
    OptionSpec {
        key: "max-hands",
        default: "100",
        values: "1..=10000",
        doc: "with no `hands`, end after this many deals even if the target has not decided the match",
    },
];

/// How a hand scores (H5, H7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// H5: one point per trick above 13 of the 27; only one seat can score.
    Standard,
    /// H7 (German Whist after Holdsworth): only the 13 phase-2 tricks count;
    /// the seat that took more of them scores those above 6.
    Phase2Only,
    /// H7 (McLeod): one point per trick; both seats score.
    PerTrick,
    /// H7 (Parlett): one point per phase-1 trick and two per phase-2 trick;
    /// both seats score.
    Parlett,
}

impl Scoring {
    /// Every scoring, in the order of the option's values.
    pub const ALL: [Scoring; 4] = [
        Scoring::Standard,
        Scoring::Phase2Only,
        Scoring::PerTrick,
        Scoring::Parlett,
    ];

    /// The option value naming this scoring.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Phase2Only => "phase2-only",
            Scoring::PerTrick => "per-trick",
            Scoring::Parlett => "parlett",
        }
    }

    /// H5: the target when the `target` option is `auto`.
    pub const fn default_target(self) -> i32 {
        match self {
            Scoring::Standard => 14,
            Scoring::Phase2Only => 7,
            Scoring::PerTrick | Scoring::Parlett => 100,
        }
    }
}

/// Honeymoon Whist's options, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// H1: trump (or no trump) when a joker is turned up.
    pub joker_trump: Strain,
    /// H6: jokers of equal power (the one led wins between them).
    pub equal_jokers: bool,
    /// H7: follow suit in phase 1 too.
    pub phase1_follow: bool,
    /// H7: whether phase 1 is played with the hand's trump (else at no trump).
    pub phase1_trumps: bool,
    /// H5, H7: how hands score.
    pub scoring: Scoring,
    /// H5: the winning total (resolved from `auto` by the scoring).
    pub target: i32,
    /// Fixed number of deals, if set (the target is then ignored).
    pub hands: Option<u32>,
    /// Cap on deals when `hands` is unset.
    pub max_hands: u32,
}

impl Config {
    /// Reads the options.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn from_options(options: &Options) -> Result<Config, OptionError> {
        let r = OptionReader::new("honeymoon", OPTIONS, options)?;
        let scoring = Scoring::ALL[r.choice("scoring", &Scoring::ALL.map(Scoring::name))?];
        let joker_trump = match r.choice("joker-trump", &["S", "H", "D", "C", "NT"])? {
            0 => Strain::Suit(Suit::Spades),
            1 => Strain::Suit(Suit::Hearts),
            2 => Strain::Suit(Suit::Diamonds),
            3 => Strain::Suit(Suit::Clubs),
            _ => Strain::NoTrump,
        };
        let target = match r.raw("target") {
            "auto" => scoring.default_target(),
            value => match r.int("target", 1, 100_000)? {
                Some(n) => n as i32,
                None => {
                    return Err(OptionError::BadValue {
                        key: "target".to_string(),
                        value: value.to_string(),
                        expected: "auto or 1..=100000".to_string(),
                    });
                }
            },
        };
        // H7: Parlett recommends phase 1 at no trump, so his scoring implies it
        // unless the option is given explicitly.
        let phase1_trumps = if r.given("phase1-trumps") {
            r.bool("phase1-trumps")?
        } else {
            scoring != Scoring::Parlett
        };
        Ok(Config {
            joker_trump,
            equal_jokers: r.choice("jokers", &["distinct", "equal"])? == 1,
            phase1_follow: r.bool("phase1-follow")?,
            phase1_trumps,
            scoring,
            target,
            hands: r.int("hands", 1, 10_000)?.map(|n| n as u32),
            max_hands: r.int("max-hands", 1, 10_000)?.unwrap_or(100) as u32,
        })
    }

    /// Every option with its effective value. Reading these back gives the
    /// same config: the target and `phase1-trumps` are written out resolved.
    fn to_options(self) -> Options {
        let mut o = Options::new();
        o.set("joker-trump", &self.joker_trump.to_string());
        o.set_either("jokers", self.equal_jokers, "equal", "distinct");
        o.set("phase1-follow", &self.phase1_follow.to_string());
        o.set("phase1-trumps", &self.phase1_trumps.to_string());
        o.set("scoring", self.scoring.name());
        o.set("target", &self.target.to_string());
        o.set("hands", &hands_text(self.hands));
        o.set("max-hands", &self.max_hands.to_string());
        o
    }
}

fn hands_text(hands: Option<u32>) -> String {
    hands.map_or("unset".to_string(), |h| h.to_string())
}

/// H5, H7: the points of seat 0 and seat 1 for a hand in which they took
/// `phase1[s]` phase-1 tricks and `phase2[s]` phase-2 tricks.
pub fn score(scoring: Scoring, phase1: [u8; SEATS], phase2: [u8; SEATS]) -> [i32; SEATS] {
    let (p1, p2) = (phase1.map(i32::from), phase2.map(i32::from));
    match scoring {
        // Of 27 tricks (13 in phase 2) at most one seat can take more than half,
        // so at most one seat scores.
        Scoring::Standard => [0, 1].map(|s| (p1[s] + p2[s] - HAND as i32).max(0)),
        Scoring::Phase2Only => [0, 1].map(|s| (p2[s] - 6).max(0)),
        Scoring::PerTrick => [0, 1].map(|s| p1[s] + p2[s]),
        Scoring::Parlett => [0, 1].map(|s| p1[s] + 2 * p2[s]),
    }
}

/// H2, H6: how cards follow and win under `trump`.
///
/// With a trump suit the jokers join it above its ace, BJ > LJ; at no trump
/// they form a suit of their own ([`suit_id::JOKERS`]) that is trump. With
/// `equal_jokers` both jokers get the same power, and [`TrickRules`] gives a
/// tie to the card played first, so the joker led wins.
pub fn trick_rules(trump: Strain, equal_jokers: bool) -> TrickRules {
    let (suit, mut rules) = match trump {
        Strain::Suit(s) => (s as u8, TrickRules::plain(Some(s))),
        Strain::NoTrump => {
            let mut rules = TrickRules::plain(None);
            rules.set_trump(suit_id::JOKERS);
            (suit_id::JOKERS, rules)
        }
    };
    // Suited cards have powers 1 (two) to 13 (ace); the jokers rank above.
    rules.set(Card::BIG_JOKER, suit, 15);
    rules.set(Card::LITTLE_JOKER, suit, if equal_jokers { 15 } else { 14 });
    rules
}

/// A match of Honeymoon Whist.
#[derive(Debug, Clone)]
pub struct Honeymoon {
    cfg: Config,
    /// Dealer, deals, totals, results, the hand's log and tricks (shared by
    /// every game).
    core: MatchCore,
    // The hand.
    /// The hand's trump (H1); phase 1 may be at no trump instead (H7).
    trump: Strain,
    /// Trick rules for phase 1 and phase 2 (index 0 and 1).
    rules: [TrickRules; 2],
    hands: [CardSet; SEATS],
    /// The cards a seat took face up (public, H3).
    taken_up: [CardSet; SEATS],
    /// The stock in deck order; `stock[top]` is the face-up card.
    stock: ArrayVec<Card, STOCK>,
    top: usize,
    /// Tricks won by phase (index 0 and 1), then by seat.
    won: [[u8; SEATS]; 2],
}

impl Honeymoon {
    /// A new match under `options`, waiting for its first deal; seat 0 deals first.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn new(options: &Options) -> Result<Honeymoon, OptionError> {
        Ok(Honeymoon::with_config(Config::from_options(options)?))
    }

    /// A new match with a resolved config.
    pub fn with_config(cfg: Config) -> Honeymoon {
        let rules = trick_rules(Strain::Suit(Suit::Spades), cfg.equal_jokers);
        Honeymoon {
            cfg,
            core: MatchCore::new(Variant::Honeymoon, cfg.to_options(), SEATS, LOG_CAPACITY),
            trump: Strain::Suit(Suit::Spades),
            rules: [rules.clone(), rules],
            hands: [CardSet::EMPTY; SEATS],
            taken_up: [CardSet::EMPTY; SEATS],
            stock: ArrayVec::new(),
            top: 0,
            won: [[0; SEATS]; 2],
        }
    }

    /// The resolved options.
    pub fn config(&self) -> Config {
        self.cfg
    }

    /// Whether the stock still holds cards, which is what phase 1 means (H3).
    #[inline]
    fn in_phase1(&self) -> bool {
        self.top < self.stock.len()
    }

    /// 0 in phase 1, 1 in phase 2.
    #[inline]
    fn phase_index(&self) -> usize {
        usize::from(!self.in_phase1())
    }

    /// The trick rules of the current phase.
    #[inline]
    fn current_rules(&self) -> &TrickRules {
        &self.rules[self.phase_index()]
    }

    /// H3, H4, H7: whether the follow-suit rule applies now.
    #[inline]
    fn must_follow(&self) -> bool {
        !self.in_phase1() || self.cfg.phase1_follow
    }

    /// The cards of `hand` that may be played to the current trick.
    #[inline]
    fn allowed(&self, hand: CardSet) -> CardSet {
        if self.must_follow() {
            self.current_rules()
                .follow(hand, self.core.tricks.current())
        } else {
            hand
        }
    }

    /// The trump of the current phase (H7: phase 1 may be at no trump).
    fn current_trump(&self) -> Strain {
        if self.in_phase1() && !self.cfg.phase1_trumps {
            Strain::NoTrump
        } else {
            self.trump
        }
    }

    fn finish_trick(&mut self) {
        let phase = self.phase_index();
        let (index, winner) = self.core.finish_trick(&self.rules[phase]);
        let winner = winner.seat().expect("no dummy in Honeymoon Whist");
        self.won[phase][winner.index()] += 1;
        self.core.turn = winner;
        if phase == 0 {
            self.draw(winner);
        }
        if index as usize == TRICKS - 1 {
            self.end_hand();
        }
    }

    /// H3: the winner takes the face-up card, the loser the next one face
    /// down; then the new top card is turned, unless the stock is empty.
    fn draw(&mut self, winner: Seat) {
        let loser = winner.next(SEATS);
        let up = self.stock[self.top];
        let down = self.stock[self.top + 1];
        self.top += 2;
        for (seat, card) in [(winner, up), (loser, down)] {
            self.hands[seat.index()].insert(card);
        }
        self.taken_up[winner.index()].insert(up);
        self.core.public(Event::Take {
            seat: winner,
            card: Some(up),
            from: Source::Stock,
        });
        self.core
            .take(loser, down, Source::Stock, SeatSet::single(loser));
        if let Some(&card) = self.stock.get(self.top) {
            self.core.public(Event::TurnUp { card });
        }
    }

    fn end_hand(&mut self) {
        let points = score(self.cfg.scoring, self.won[0], self.won[1]);
        let tricks = [0, 1].map(|s| self.won[0][s] + self.won[1][s]);
        self.core.end_hand(HandScore {
            bids: [None; SEATS].into_iter().collect(),
            made: [None; SEATS].into_iter().collect(),
            points: points.into_iter().collect(),
            summary: self.summary(tricks, points),
            ..HandScore::default()
        });
        let played = self.core.played();
        let over = match self.cfg.hands {
            Some(h) => played >= h,
            None => {
                // H5: the target decides unless both totals reached it and are
                // equal; then (and only then) another deal is played. A single
                // seat at or above the target is always strictly ahead.
                let &[a, b] = self.core.totals() else {
                    unreachable!("two seats")
                };
                (a.max(b) >= self.cfg.target && a != b) || played >= self.cfg.max_hands
            }
        };
        // H5: the deal alternates.
        self.core.pass_deal(over);
    }

    /// One line for people, e.g. `trump S; tricks 15-12 (phase 2 8-5); +2 to 0`,
    /// written in place (no allocation: it fits a summary's inline bytes).
    fn summary(&self, tricks: [u8; SEATS], points: [i32; SEATS]) -> Summary {
        let mut line = Summary::new();
        let _ = match (self.trump, self.cfg.phase1_trumps) {
            (Strain::Suit(s), false) => write!(line, "trump {s} (phase 1 NT)"),
            (strain, _) => write!(line, "trump {strain}"),
        };
        let _ = write!(
            line,
            "; tricks {}-{} (phase 2 {}-{}); ",
            tricks[0], tricks[1], self.won[1][0], self.won[1][1]
        );
        let _ = match points {
            [0, 0] => line.write_str("no score"),
            [p, 0] => write!(line, "+{p} to 0"),
            [0, p] => write!(line, "+{p} to 1"),
            [a, b] => write!(line, "+{a} to 0, +{b} to 1"),
        };
        line
    }
}

impl Game for Honeymoon {
    fn append_legal(&self, seat: Seat, out: &mut ActionList) {
        let allowed = self.allowed(self.hands[seat.index()]);
        out.extend(allowed.iter().map(Action::Play));
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        let (Phase::Play, Action::Play(card)) = (self.core.phase, action) else {
            return Err(IllegalReason::WrongPhase);
        };
        let hand = self.hands[seat.index()];
        if !hand.contains(card) {
            return Err(IllegalReason::NotInHand(card));
        }
        if self.allowed(hand).contains(card) {
            return Ok(());
        }
        // H2, H4: the suit to follow is the led card's effective suit: a joker
        // led asks for the trump suit, or for the jokers at no trump.
        Err(self
            .current_rules()
            .follow_reason(self.core.tricks.current()))
    }

    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        let (Phase::Play, Action::Play(card)) = (self.core.phase, action) else {
            panic!("apply_unchecked: {action} in {:?}", self.core.phase);
        };
        if self
            .core
            .play_card(seat, card, &mut self.hands[seat.index()])
            == SEATS
        {
            self.finish_trick();
        } else {
            self.core.turn = seat.next(SEATS);
        }
    }

    fn deck(&self) -> CardSet {
        decks::WITH_TWO_JOKERS
    }

    fn deal_unchecked(&mut self, order: &[Card]) {
        // H1: one card at a time, alternately, the non-dealer first.
        let first = self.core.dealer.next(SEATS);
        self.hands = [CardSet::EMPTY; SEATS];
        for (i, &c) in order[..SEATS * HAND].iter().enumerate() {
            self.hands[first.left(i, SEATS).index()].insert(c);
        }
        self.taken_up = [CardSet::EMPTY; SEATS];
        // H1: the rest is the stock in deck order; its top card is turned up.
        self.stock.clear();
        self.stock.extend(order[SEATS * HAND..].iter().copied());
        self.top = 0;
        let turn_up = self.stock[0];
        self.trump = turn_up.suit().map_or(self.cfg.joker_trump, Strain::Suit);
        let phase2 = trick_rules(self.trump, self.cfg.equal_jokers);
        self.rules[0] = if self.cfg.phase1_trumps {
            phase2.clone()
        } else {
            trick_rules(Strain::NoTrump, self.cfg.equal_jokers)
        };
        self.rules[1] = phase2;
        self.won = [[0; SEATS]; 2];
        self.core.begin_hand();
        self.core.dealt(&self.hands);
        self.core.public(Event::TurnUp { card: turn_up });
        self.core.phase = Phase::Play;
        // H3: the non-dealer leads the first trick.
        self.core.turn = first;
    }

    fn core(&self) -> &MatchCore {
        &self.core
    }

    fn trick_rules(&self) -> &TrickRules {
        self.current_rules()
    }

    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        ctx.no_misdeals("Honeymoon Whist")?;
        ctx.no_previous_bids("Honeymoon Whist")?;
        let [a, b] = <[i32; SEATS]>::try_from(ctx.totals_or_zero(SEATS)).expect("two seats");
        let target = self.cfg.target;
        let ended = (a.max(b) >= target && a != b).then(|| {
            format!(
                "totals {a} and {b}: the match ended when a total reached the target {target} (H5)"
            )
        });
        ctx.within_target(
            self.cfg.hands,
            "the `hands` option",
            self.cfg.max_hands,
            ended,
        )?;
        self.core.start_at(ctx)
    }

    fn accepts(&self, kind: ActionKind) -> bool {
        kind == ActionKind::Play
    }

    fn append_vocabulary(&self, out: &mut Vec<Action>) {
        // H1: every card of the 54 may be played (stock cards are taken
        // into the hands).
        out.extend(decks::WITH_TWO_JOKERS.iter().map(Action::Play));
    }
}

mod observation;

#[cfg(test)]
mod tests;
