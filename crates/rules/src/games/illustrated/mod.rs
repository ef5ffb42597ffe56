//! Illustrated Whist (docs/rules/illustrated.md, decisions L1–L8).
//!
//! Four players in fixed partnerships, seats 0 & 2 against 1 & 3 (L1). 52
//! cards and both jokers: 12 cards each, dealt one at a time clockwise from the
//! dealer's left, then the last 6 cards of the deck to the kitty, in order.
//!
//! An auction from the dealer's left (L2) names the contract. The twelve bids
//! by base value: 8 in a suit 1, 8 notrumps 2, 9 in a suit 3, 9 notrumps 4,
//! null 5, 10 in a suit 6, 10 notrumps 7, 11 in a suit 8, 11 notrumps 9, open
//! null 10, 12 (slam) in a suit 11, 12 notrumps 12; base 1–4 is the low
//! section, 5–9 the middle, 10–12 the high. A bid must have a higher base value
//! than the standing bid, so trump bids of one number never overcall each
//! other. A pass is final. When three seats have passed and a bid stands, its
//! bidder declares; four passes are a misdeal and the deal passes left.
//!
//! The declarer chooses how the kitty is used (L3): `whole` (take all six,
//! discard six), `half` (take the first three, discard three), `without` (no
//! exchange) or `against` (both opponents see the kitty; the opponent at the
//! declarer's left takes it and discards six). The choice adds a difficulty
//! bonus by section (low/middle/high): whole 0/0/0, half 0/2/4, without 0/3/5,
//! against 0/6/10. Discards are single cards, face down and out of play; in a
//! trump contract no one who exchanges may discard a joker.
//!
//! Then comes a round of calls (L4), from the declarer leftwards until four
//! seats have passed in a row; all four seats take part in every contract,
//! the partner of a null declarer included (it may redouble a double of the
//! game). A call announces a feat for one's team (each
//! team at most once per feat), doubles a feat the other team announced,
//! doubles the game (the declarer's opponents only), redoubles a double made
//! against one's team, or passes. Double ×2, redouble ×4. In null contracts the
//! only calls are doubling and redoubling the game.
//!
//! The feats (L5; silent / announced value): Four Kings 2/4 and Four Aces 3/6
//! (a team's tricks hold all four), Dix Last 4/8 (the last trick won with the
//! dix, the 2 of trumps, by a declaring team whose contract is made or by an
//! opposing team that set it; a dix played to the last trick that does not
//! win it scores for its player's opponents whatever the contract), All Three
//! 2/4 (a team's tricks hold BJ, LJ and the dix), Joker Catch 10/20 (BJ wins a
//! trick to which an opponent of its player played LJ), Slam 6/12 (all 12
//! tricks). Four Kings, Four Aces and Slam exist in trump and notrump
//! contracts, the others in trump contracts only; null contracts have no
//! feats. Silent feats score for the team that makes them, never multiplied;
//! an announced feat scores its announced value if made and costs it if not,
//! times its doubles. For the declaring team Slam is not a feat but changes
//! the hand value (L7); its Slam announcement cannot be doubled as a feat.
//!
//! Play (L6): the declarer leads; follow suit if able. In a trump contract the
//! jokers are the top trumps, BJ > LJ > A > K > … > 2. In notrump and null
//! contracts the jokers belong to no suit and never win: a joker may be played
//! only when its holder cannot follow, and led only when the hand holds
//! nothing else (the first other card then sets the suit led). In a null the
//! declarer plays alone: its partner sits out and tricks have three cards; the
//! null is made iff the declarer takes no trick. In an open null the declarer's
//! hand turns public when the first trick is complete.
//!
//! Scoring (L7): the hand value is the contract's base value plus the
//! difficulty bonus. A Slam announced by the declaring team makes the contract
//! a bid of all 12 tricks: made, the base is 12; set, the hand scores
//! −(24 + difficulty), and Dix Last counts the contract as set. A slam taken
//! without a slam bid or announcement raises the base to min(base + 6, 12); a
//! slam bid made without announcement keeps its own base. A made contract
//! (tricks ≥ the number bid; no trick in a null) scores +HV for the declaring
//! team, a set one −HV; the hand score is multiplied by the game's doubles, and
//! each team adds its feat scores. The opponents score only feats.
//!
//! A match is `hands` deals (L8, default 16); the higher team total wins.
//! Every seat carries its team's points and totals.
//!
//! Notation: auction `pass`, `bid 8S` … `bid 12NT`, `null`, `open-null`;
//! exchange `whole`, `half`, `without`, `against`, then `discard 3C`; calls
//! `pass`, `announce four-kings`, `double game`, `double slam`, `redouble game`,
//! `redouble dix-last`; play `AS`, `BJ`.
//!
//! Legal-action order: auction `pass`, then the bids by base value (suits `C`,
//! `D`, `H`, `S` within a number); exchange `whole`, `half`, `without`,
//! `against`; discards by card; calls `pass`, then `announce` (feats in the
//! order above), `double game`, `double` a feat, `redouble game`, `redouble` a
//! feat; play by card (`LJ`, `BJ` last).
//!
//! What a seat sees ([`Illustrated::observe`](crate::Game::observe)): its own
//! cards; every call, bid and played card; the kitty cards it has seen, in
//! `table` labelled `kitty` with the seat that took them as owner, until the
//! next deal, even once in that seat's hand (the declarer sees them for
//! `whole` and `half`, both opponents for `against`); its own discards (in its history; the others see that a discard
//! was made, not which card); the open-null declarer's hand in that seat's
//! `known` cards once the first trick is complete. `piles` counts the
//! kitty cards nobody took (`kitty`) and the discards (`discards`). Each seat's
//! `bid` is its last bid of the auction; `active` is false for the partner of a
//! null declarer; `total` is the team's total.
//!
//! Observation notes: `hands`, `hands-played`, `passed` (seats that passed in
//! the auction), `declarer`, `base` and `section` of the contract,
//! `exchange`, `difficulty`, `exchanger` (the seat taking the kitty),
//! `to-discard` (cards it has still to discard), `sitting-out`,
//! `announcements` (`TEAM FEAT xMULT`, comma-separated), `game` (the game's
//! multiplier), `team-tricks` (team 0, team 1). A value not yet known is `-`.
//!
//! Finer points, beyond the source text:
//! * A misdeal (four passes) is a deal that scores nothing and counts towards
//!   `hands`, so a match of bots that always pass still ends.
//! * The kitty is used in every contract, nulls included (the source's "the
//!   declarer then picks up the kitty"); a null's difficulty bonus is that of
//!   its section (middle for null, high for open null).
//! * `half` takes the first three kitty cards in deal order. Kitty cards
//!   nobody takes and discarded cards stay face down and are never shown.
//! * The partner of a null declarer sits out of the play only (L4, L6): it
//!   calls in the round of calls like every seat and plays no card.
//! * An announced Slam keeps the difficulty bonus of the contract's own
//!   section.
//! * A null is played out to the twelfth trick even once decided.
//! * Both teams may announce the same feat; at most one team can make it. A
//!   double of a feat is by either member of the other team, a redouble by
//!   either member of the announcing team; the game is doubled by either
//!   opponent and redoubled by either member of the declaring team. Each
//!   announcement, and the game, is doubled at most once and redoubled at most
//!   once.
//! * [`HandResult::bids`](crate::HandResult::bids) and [`HandResult::made`](crate::HandResult::made) hold the contract and its
//!   outcome at the declarer's seat only.


use super::prelude::*;
use crate::action::{Exchange, Feat, Strain, Target};

const SEATS: usize = 4;
/// L1: twelve cards each.
const HAND: usize = 12;
/// L1: the kitty, dealt last.
const KITTY: usize = 6;
/// Twelve tricks a hand.
const TRICKS: usize = HAND;
/// Events in one hand at most: a start, four deals, an auction of at most 12
/// bids and 4 passes, a misdeal, the exchange choice, 6 takes, 6 discards, a
/// round of at most 38 calls other than passes with up to 3 passes after
/// each and 4 at the end, 48 plays, 12 tricks, a reveal and an end (253).
/// The log keeps this capacity across hands.
const LOG_CAPACITY: usize = 320;

/// One line describing the game.
pub const TITLE: &str = "Illustrated Whist: 4 players in partnerships, auction, kitty, announced feats";

/// The options of Illustrated Whist.
pub const OPTIONS: &[OptionSpec] = &[OptionSpec {
    key: "hands",
    default: "16",
    values: "1..=10000",
    doc: "L8: deals in a match (misdeals included); the higher team total wins",
}];

/// Illustrated Whist's options, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// L8: the number of deals in a match.
    pub hands: u32,
}

impl Config {
    /// Reads the options.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn from_options(options: &Options) -> Result<Config, OptionError> {
        let r = OptionReader::new("illustrated", OPTIONS, options)?;
        match r.int("hands", 1, 10_000)? {
            Some(n) => Ok(Config { hands: n as u32 }),
            None => Err(OptionError::BadValue {
                key: "hands".to_string(),
                value: r.raw("hands").to_string(),
                expected: OPTIONS[0].values.to_string(),
            }),
        }
    }

    fn to_options(self) -> Options {
        let mut o = Options::new();
        o.set("hands", &self.hands.to_string());
        o
    }
}

/// L1: the team of a seat (0 for seats 0 and 2, 1 for seats 1 and 3).
const fn team(seat: Seat) -> usize {
    seat.index() % 2
}

/// Every call of the round of calls, in legal-action order (L4).
const CALLS: [Action; 21] = [
    Action::Pass,
    Action::Announce(Feat::FourKings),
    Action::Announce(Feat::FourAces),
    Action::Announce(Feat::DixLast),
    Action::Announce(Feat::AllThree),
    Action::Announce(Feat::JokerCatch),
    Action::Announce(Feat::Slam),
    Action::Double(Target::Game),
    Action::Double(Target::Feat(Feat::FourKings)),
    Action::Double(Target::Feat(Feat::FourAces)),
    Action::Double(Target::Feat(Feat::DixLast)),
    Action::Double(Target::Feat(Feat::AllThree)),
    Action::Double(Target::Feat(Feat::JokerCatch)),
    Action::Double(Target::Feat(Feat::Slam)),
    Action::Redouble(Target::Game),
    Action::Redouble(Target::Feat(Feat::FourKings)),
    Action::Redouble(Target::Feat(Feat::FourAces)),
    Action::Redouble(Target::Feat(Feat::DixLast)),
    Action::Redouble(Target::Feat(Feat::AllThree)),
    Action::Redouble(Target::Feat(Feat::JokerCatch)),
    Action::Redouble(Target::Feat(Feat::Slam)),
];

const NULL_CALLS_ONLY: IllegalReason = IllegalReason::Rule {
    id: "L4",
    text: "in a null contract the only calls are double and redouble the game",
};

/// How one hand scored (L5, L7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breakdown {
    /// Whether the contract was made (an announced Slam counts as a bid of 12).
    pub made: bool,
    /// The declaring team's hand score before the game's doubles: +HV, −HV,
    /// or −(24 + difficulty) for an announced Slam that failed.
    pub hand: i32,
    /// The game's multiplier: 1, 2 (doubled) or 4 (redoubled).
    pub game: i32,
    /// Feat scores by team, then by feat in [`Feat::ALL`] order.
    pub feats: [[i32; 6]; 2],
    /// Points by team: the declaring team's hand score times the game's
    /// multiplier plus its feats; the opponents' feats.
    pub points: [i32; 2],
}

/// A match of Illustrated Whist.
#[derive(Debug, Clone)]
pub struct Illustrated {
    cfg: Config,
    /// Dealer, deals, totals, results, the hand's log and tricks (shared by
    /// every game; partners carry equal totals).
    core: MatchCore,
    // The hand.
    hands: [CardSet; SEATS],
    /// The kitty in deal order.
    kitty: [Card; KITTY],
    /// Kitty cards nobody has taken.
    kitty_left: u8,
    /// The kitty cards each seat has seen.
    kitty_seen: [CardSet; SEATS],
    /// Cards each seat discarded.
    discarded: [CardSet; SEATS],
    /// Seats that passed in the auction (a pass is final, L2).
    passed: SeatSet,
    standing: Option<(Seat, Contract)>,
    last_bid: [Option<Contract>; SEATS],
    declarer: Seat,
    contract: Option<Contract>,
    sitting_out: Option<Seat>,
    exchange: Option<Exchange>,
    /// The seat taking the kitty (the declarer, or its left for `against`).
    exchanger: Option<Seat>,
    to_discard: u8,
    /// Announcements by team and feat: 0 none, else the multiplier 1, 2, 4.
    calls: [[u8; 6]; 2],
    /// The game's multiplier: 1, 2, 4.
    game_mult: u8,
    /// Consecutive passes in the round of calls.
    passes: u8,
    rules: TrickRules,
    /// Whether the open-null declarer's hand has been revealed (after the
    /// first trick, L6).
    revealed: bool,
}

impl Illustrated {
    /// A new match under `options`, waiting for its first deal; seat 0 deals first.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn new(options: &Options) -> Result<Illustrated, OptionError> {
        Ok(Illustrated::with_config(Config::from_options(options)?))
    }

    /// A new match with a resolved config.
    pub fn with_config(cfg: Config) -> Illustrated {
        Illustrated {
            cfg,
            core: MatchCore::new(Variant::Illustrated, cfg.to_options(), SEATS, LOG_CAPACITY),
            hands: [CardSet::EMPTY; SEATS],
            kitty: [Card::BIG_JOKER; KITTY],
            kitty_left: 0,
            kitty_seen: [CardSet::EMPTY; SEATS],
            discarded: [CardSet::EMPTY; SEATS],
            passed: SeatSet::EMPTY,
            standing: None,
            last_bid: [None; SEATS],
            declarer: Seat::new(0),
            contract: None,
            sitting_out: None,
            exchange: None,
            exchanger: None,
            to_discard: 0,
            calls: [[0; 6]; 2],
            game_mult: 1,
            passes: 0,
            rules: TrickRules::plain(None),
            revealed: false,
        }
    }

    /// The resolved options.
    pub fn config(&self) -> Config {
        self.cfg
    }

    /// How the last hand played scored, once all its tricks are complete
    /// (`None` during the hand, before the first deal or after a misdeal).
    pub fn breakdown(&self) -> Option<Breakdown> {
        (self.core.tricks.count() == TRICKS).then(|| self.score())
    }

    fn contract(&self) -> Contract {
        self.contract.expect("a contract")
    }

    /// Seats taking part in the play (three in a null, L6; all four call, L4).
    fn active(&self) -> usize {
        SEATS - self.sitting_out.is_some() as usize
    }

    /// The next seat clockwise that takes part in the hand.
    fn next_active(&self, seat: Seat) -> Seat {
        let next = seat.next(SEATS);
        if Some(next) == self.sitting_out {
            next.next(SEATS)
        } else {
            next
        }
    }

    /// The next seat clockwise that has not passed in the auction.
    fn next_bidder(&self, seat: Seat) -> Seat {
        let mut next = seat.next(SEATS);
        while self.passed.contains(next) {
            next = next.next(SEATS);
        }
        next
    }

    /// In a trump contract the jokers are trumps; elsewhere they have no suit.
    fn suitless(&self) -> CardSet {
        match self.contract.and_then(Contract::trump) {
            Some(_) => CardSet::EMPTY,
            None => CardSet::JOKERS,
        }
    }

    /// L6: the cards of `hand` that may be played to the current trick.
    fn allowed(&self, hand: CardSet) -> CardSet {
        if self.rules.led_suit(self.core.tricks.current()) == suit_id::NONE {
            // Leading, or only jokers so far at notrump or null: a joker only
            // from a hand that holds nothing else.
            let suited = hand.minus(self.suitless());
            if suited.is_empty() { hand } else { suited }
        } else {
            self.rules.follow(hand, self.core.tricks.current())
        }
    }

    /// L6: trick rules for a contract: the jokers as the two top trumps, or
    /// in no suit (as [`TrickRules::plain`] leaves them) without a trump suit.
    fn trick_rules(contract: Contract) -> TrickRules {
        let trump = contract.trump();
        let mut rules = TrickRules::plain(trump);
        if let Some(s) = trump {
            // Suited cards have powers 1 (two) to 13 (ace).
            rules.set(Card::BIG_JOKER, s as u8, 15);
            rules.set(Card::LITTLE_JOKER, s as u8, 14);
        }
        rules
    }

    fn finish_auction(&mut self) {
        let (declarer, contract) = self.standing.expect("a standing bid");
        self.declarer = declarer;
        self.contract = Some(contract);
        self.rules = Illustrated::trick_rules(contract);
        // L6: the null declarer plays alone.
        self.sitting_out = contract.is_null().then(|| declarer.left(2, SEATS));
        self.core.phase = Phase::Choose;
        self.core.turn = declarer;
    }

    /// L3: `seat` takes the first `count` kitty cards (in deal order), which
    /// `viewers` see, and must discard as many.
    fn take(&mut self, seat: Seat, count: usize, viewers: SeatSet) {
        for i in 0..count {
            let card = self.kitty[i];
            self.hands[seat.index()].insert(card);
            for v in viewers.iter() {
                self.kitty_seen[v.index()].insert(card);
            }
            self.core.take(seat, card, Source::Kitty, viewers);
        }
        self.kitty_left -= count as u8;
        self.exchanger = Some(seat);
        self.to_discard = count as u8;
        self.core.turn = seat;
        self.core.phase = Phase::Exchange;
    }

    fn start_calls(&mut self) {
        self.core.phase = Phase::Declare;
        self.core.turn = self.declarer;
        self.passes = 0;
    }

    fn finish_trick(&mut self) {
        let (index, winner) = self.core.finish_trick(&self.rules);
        self.core.turn = winner.seat().expect("no dummy in Illustrated Whist");
        if index == 0 && self.contract == Some(Contract::OpenNull) {
            // L6: the open-null hand turns public once the first trick is complete.
            let cards = self.hands[self.declarer.index()];
            self.revealed = true;
            self.core.public(Event::Reveal {
                seat: self.declarer,
                cards,
            });
        }
        if index as usize == TRICKS - 1 {
            self.end_hand(false);
        }
    }
}

impl Game for Illustrated {
    fn append_legal(&self, seat: Seat, out: &mut ActionList) {
        let hand = self.hands[seat.index()];
        match self.core.phase {
            Phase::Auction => {
                out.push(Action::Pass);
                for bid in Contract::BIDS {
                    if self.check_bid(bid).is_ok() {
                        out.push(bid.action());
                    }
                }
            }
            Phase::Choose => out.extend(Exchange::ALL.map(Action::Exchange)),
            Phase::Exchange => {
                let keep = if self.suitless().is_empty() {
                    // L3: no one who exchanges discards a joker at trumps.
                    CardSet::JOKERS
                } else {
                    CardSet::EMPTY
                };
                out.extend(hand.minus(keep).iter().map(Action::Discard));
            }
            Phase::Declare => {
                for call in CALLS {
                    if self.check_call(seat, call).is_ok() {
                        out.push(call);
                    }
                }
            }
            Phase::Play => out.extend(self.allowed(hand).iter().map(Action::Play)),
            _ => {}
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        let hand = self.hands[seat.index()];
        match (self.core.phase, action) {
            (Phase::Auction, Action::Pass) => Ok(()),
            (Phase::Auction, Action::Contract { .. } | Action::Null(_) | Action::OpenNull) => {
                match Contract::from_action(action) {
                    Some(contract) => self.check_bid(contract),
                    None if matches!(action, Action::Null(_)) => Err(IllegalReason::Rule {
                        id: "L2",
                        text: "a null bid has no number",
                    }),
                    None => Err(IllegalReason::OutOfRange { min: 8, max: 12 }),
                }
            }
            (Phase::Choose, Action::Exchange(_)) => Ok(()),
            (Phase::Exchange, Action::Discard(c)) => {
                if !hand.contains(c) {
                    Err(IllegalReason::NotInHand(c))
                } else if c.is_joker() && self.suitless().is_empty() {
                    Err(IllegalReason::Rule {
                        id: "L3",
                        text: "in a trump contract no one who exchanges may discard a joker",
                    })
                } else {
                    Ok(())
                }
            }
            (
                Phase::Declare,
                Action::Pass | Action::Announce(_) | Action::Double(_) | Action::Redouble(_),
            ) => self.check_call(seat, action),
            (Phase::Play, Action::Play(c)) => {
                if !hand.contains(c) {
                    return Err(IllegalReason::NotInHand(c));
                }
                if self.allowed(hand).contains(c) {
                    return Ok(());
                }
                let led = self.rules.led_suit(self.core.tricks.current());
                if led == suit_id::NONE {
                    Err(IllegalReason::Rule {
                        id: "L6",
                        text: "at notrump or null a joker is led only from a hand that holds nothing else",
                    })
                } else {
                    Err(self.rules.follow_reason(self.core.tricks.current()))
                }
            }
            _ => Err(IllegalReason::WrongPhase),
        }
    }

    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        match (self.core.phase, action) {
            (Phase::Auction, Action::Pass) => {
                self.core.public(Event::Action { seat, action });
                self.passed.insert(seat);
                if self.passed.len() == SEATS {
                    // L2: four passes are a misdeal.
                    self.core.public(Event::Misdeal);
                    self.end_hand(true);
                } else if self.passed.len() == SEATS - 1 && self.standing.is_some() {
                    self.finish_auction();
                } else {
                    self.core.turn = self.next_bidder(seat);
                }
            }
            (Phase::Auction, _) => {
                let contract = Contract::from_action(action).expect("a checked bid");
                self.core.public(Event::Action { seat, action });
                self.standing = Some((seat, contract));
                self.last_bid[seat.index()] = Some(contract);
                if self.passed.len() == SEATS - 1 {
                    self.finish_auction();
                } else {
                    self.core.turn = self.next_bidder(seat);
                }
            }
            (Phase::Choose, Action::Exchange(e)) => {
                self.core.public(Event::Action { seat, action });
                self.exchange = Some(e);
                let left = self.declarer.next(SEATS);
                match e {
                    Exchange::Whole => self.take(seat, KITTY, SeatSet::single(seat)),
                    Exchange::Half => self.take(seat, KITTY / 2, SeatSet::single(seat)),
                    Exchange::Without => self.start_calls(),
                    Exchange::Against => {
                        let opponents = [left, left.left(2, SEATS)].into_iter().collect();
                        self.take(left, KITTY, opponents);
                    }
                }
            }
            (Phase::Exchange, Action::Discard(c)) => {
                self.core.face_down(seat, action);
                self.hands[seat.index()].remove(c);
                self.discarded[seat.index()].insert(c);
                self.to_discard -= 1;
                if self.to_discard == 0 {
                    self.start_calls();
                }
            }
            (Phase::Declare, _) => {
                self.core.public(Event::Action { seat, action });
                let t = team(seat);
                match action {
                    Action::Pass => self.passes += 1,
                    Action::Announce(f) => self.calls[t][f as usize] = 1,
                    Action::Double(Target::Game) | Action::Redouble(Target::Game) => {
                        self.game_mult *= 2;
                    }
                    Action::Double(Target::Feat(f)) => self.calls[1 - t][f as usize] = 2,
                    Action::Redouble(Target::Feat(f)) => self.calls[t][f as usize] = 4,
                    _ => panic!("apply_unchecked: {action} in the round of calls"),
                }
                if action != Action::Pass {
                    self.passes = 0;
                }
                // L4: the round of calls is the same in every contract: all
                // four seats, the partner of a null declarer included, and
                // four passes in a row end it.
                if self.passes as usize == SEATS {
                    self.core.phase = Phase::Play;
                    // L6: the declarer leads.
                    self.core.turn = self.declarer;
                } else {
                    self.core.turn = seat.next(SEATS);
                }
            }
            (Phase::Play, Action::Play(c)) => {
                if self.core.play_card(seat, c, &mut self.hands[seat.index()]) == self.active() {
                    self.finish_trick();
                } else {
                    self.core.turn = self.next_active(seat);
                }
            }
            (stage, action) => panic!("apply_unchecked: {action} in {stage:?}"),
        }
    }

    fn deck(&self) -> CardSet {
        decks::WITH_TWO_JOKERS
    }

    fn deal_unchecked(&mut self, order: &[Card]) {
        // L1: one card at a time clockwise from the dealer's left, then the kitty.
        self.hands = [CardSet::EMPTY; SEATS];
        for (i, &c) in order[..SEATS * HAND].iter().enumerate() {
            self.hands[self.core.dealer.left(1 + i, SEATS).index()].insert(c);
        }
        self.kitty.copy_from_slice(&order[SEATS * HAND..]);
        self.kitty_left = KITTY as u8;
        self.kitty_seen = [CardSet::EMPTY; SEATS];
        self.discarded = [CardSet::EMPTY; SEATS];
        self.passed = SeatSet::EMPTY;
        self.standing = None;
        self.last_bid = [None; SEATS];
        self.contract = None;
        self.sitting_out = None;
        self.exchange = None;
        self.exchanger = None;
        self.to_discard = 0;
        self.calls = [[0; 6]; 2];
        self.game_mult = 1;
        self.passes = 0;
        self.revealed = false;
        self.core.begin_hand();
        self.core.dealt(&self.hands);
        // L2: the auction starts at the dealer's left.
        self.core.phase = Phase::Auction;
        self.core.turn = self.core.dealer.next(SEATS);
    }

    fn core(&self) -> &MatchCore {
        &self.core
    }

    fn trick_rules(&self) -> &TrickRules {
        &self.rules
    }

    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        ctx.no_previous_bids("Illustrated Whist")?;
        ctx.within(self.cfg.hands, "L8")?;
        let t = ctx.totals_or_zero(SEATS);
        if t[0] != t[2] || t[1] != t[3] {
            return Err(ContextError::Impossible(format!(
                "totals {t:?}: seats 0 and 2, and seats 1 and 3, are partners and carry one total (L1)"
            )));
        }
        self.core.start_at(ctx)?;
        Ok(())
    }

    fn accepts(&self, kind: ActionKind) -> bool {
        matches!(
            kind,
            ActionKind::Play
                | ActionKind::Pass
                | ActionKind::Contract
                | ActionKind::Null
                | ActionKind::OpenNull
                | ActionKind::Exchange
                | ActionKind::Discard
                | ActionKind::Announce
                | ActionKind::Double
                | ActionKind::Redouble
        )
    }

    fn append_vocabulary(&self, out: &mut Vec<Action>) {
        // L2: pass and the twelve bids, in auction order.
        out.push(Action::Pass);
        out.extend(Contract::BIDS.map(Contract::action));
        // L3: the exchange, and discards (a joker only at no trump or null).
        out.extend(Exchange::ALL.map(Action::Exchange));
        out.extend(decks::WITH_TWO_JOKERS.iter().map(Action::Discard));
        // L4: the calls (`pass` is above).
        out.extend(CALLS.into_iter().filter(|&c| c != Action::Pass));
        out.extend(decks::WITH_TWO_JOKERS.iter().map(Action::Play));
    }

    fn teams(&self) -> PerSeat<u8> {
        (0..SEATS).map(|s| (s % 2) as u8).collect()
    }
}

mod calls;
mod contract;
mod observation;
mod scoring;
pub use contract::{Contract, Section, difficulty, feat_value};

#[cfg(test)]
mod tests;
