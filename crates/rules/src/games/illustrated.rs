//! Illustrated Whist (RULES.md section 5, decisions L1–L8).
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
//! Decisions beyond RULES.md:
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
//! * [`HandResult::bids`] and [`HandResult::made`] hold the contract and its
//!   outcome at the declarer's seat only.

use std::fmt;

use arrayvec::ArrayVec;

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

/// L2: the section of a bid, which sets its difficulty bonus (L3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    /// Base values 1–4.
    Low,
    /// Base values 5–9.
    Middle,
    /// Base values 10–12.
    High,
}

impl Section {
    /// `low`, `middle` or `high`.
    pub const fn name(self) -> &'static str {
        match self {
            Section::Low => "low",
            Section::Middle => "middle",
            Section::High => "high",
        }
    }
}

/// L2: a bid of the auction, and so a contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Contract {
    /// A positive bid: take at least `tricks` (8..=12) tricks in `strain`.
    Numbered {
        /// Tricks bid.
        tricks: u8,
        /// Trump suit or no trump.
        strain: Strain,
    },
    /// Null: the declarer alone takes no trick.
    Null,
    /// Open null: a null whose declarer's hand turns public after the first trick.
    OpenNull,
}

const fn numbered(tricks: u8, strain: Strain) -> Contract {
    Contract::Numbered { tricks, strain }
}

const CL: Strain = Strain::Suit(Suit::Clubs);
const DI: Strain = Strain::Suit(Suit::Diamonds);
const HE: Strain = Strain::Suit(Suit::Hearts);
const SP: Strain = Strain::Suit(Suit::Spades);
const NT: Strain = Strain::NoTrump;

impl Contract {
    /// Every bid, by base value (suits `C`, `D`, `H`, `S` within a number): the
    /// order of the auction's legal actions.
    pub const BIDS: [Contract; 27] = [
        numbered(8, CL),
        numbered(8, DI),
        numbered(8, HE),
        numbered(8, SP),
        numbered(8, NT),
        numbered(9, CL),
        numbered(9, DI),
        numbered(9, HE),
        numbered(9, SP),
        numbered(9, NT),
        Contract::Null,
        numbered(10, CL),
        numbered(10, DI),
        numbered(10, HE),
        numbered(10, SP),
        numbered(10, NT),
        numbered(11, CL),
        numbered(11, DI),
        numbered(11, HE),
        numbered(11, SP),
        numbered(11, NT),
        Contract::OpenNull,
        numbered(12, CL),
        numbered(12, DI),
        numbered(12, HE),
        numbered(12, SP),
        numbered(12, NT),
    ];

    /// The contract an auction action bids, if it is one of the twelve bids.
    pub const fn from_action(action: Action) -> Option<Contract> {
        match action {
            Action::Contract { tricks, strain } if tricks >= 8 && tricks <= 12 => {
                Some(Contract::Numbered { tricks, strain })
            }
            Action::Null(0) => Some(Contract::Null),
            Action::OpenNull => Some(Contract::OpenNull),
            _ => None,
        }
    }

    /// The action that bids this contract.
    pub const fn action(self) -> Action {
        match self {
            Contract::Numbered { tricks, strain } => Action::Contract { tricks, strain },
            Contract::Null => Action::Null(0),
            Contract::OpenNull => Action::OpenNull,
        }
    }

    /// L2: the base value, 1..=12.
    pub const fn base(self) -> i32 {
        match self {
            Contract::Null => 5,
            Contract::OpenNull => 10,
            Contract::Numbered { tricks, strain } => {
                let nt = matches!(strain, Strain::NoTrump) as i32;
                nt + match tricks {
                    8 => 1,
                    9 => 3,
                    10 => 6,
                    11 => 8,
                    _ => 11,
                }
            }
        }
    }

    /// L2: the section.
    pub const fn section(self) -> Section {
        match self.base() {
            1..=4 => Section::Low,
            5..=9 => Section::Middle,
            _ => Section::High,
        }
    }

    /// Whether this is a null or an open null.
    pub const fn is_null(self) -> bool {
        matches!(self, Contract::Null | Contract::OpenNull)
    }

    /// The trump suit, if any.
    pub const fn trump(self) -> Option<Suit> {
        match self {
            Contract::Numbered {
                strain: Strain::Suit(s),
                ..
            } => Some(s),
            _ => None,
        }
    }

    /// L5: whether `feat` exists in this contract.
    pub const fn has_feat(self, feat: Feat) -> bool {
        match self {
            Contract::Numbered {
                strain: Strain::Suit(_),
                ..
            } => true,
            Contract::Numbered {
                strain: Strain::NoTrump,
                ..
            } => matches!(feat, Feat::FourKings | Feat::FourAces | Feat::Slam),
            Contract::Null | Contract::OpenNull => false,
        }
    }
}

impl fmt::Display for Contract {
    /// `8S`, `12NT`, `null`, `open-null`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contract::Numbered { tricks, strain } => write!(f, "{tricks}{strain}"),
            Contract::Null => f.write_str("null"),
            Contract::OpenNull => f.write_str("open-null"),
        }
    }
}

/// L3: the difficulty bonus of an exchange choice in a section.
pub const fn difficulty(exchange: Exchange, section: Section) -> i32 {
    let by_section = match exchange {
        Exchange::Whole => [0, 0, 0],
        Exchange::Half => [0, 2, 4],
        Exchange::Without => [0, 3, 5],
        Exchange::Against => [0, 6, 10],
    };
    by_section[section as usize]
}

/// L5: the value of a feat, silent or announced.
pub const fn feat_value(feat: Feat, announced: bool) -> i32 {
    let silent = match feat {
        Feat::FourKings | Feat::AllThree => 2,
        Feat::FourAces => 3,
        Feat::DixLast => 4,
        Feat::JokerCatch => 10,
        Feat::Slam => 6,
    };
    if announced { 2 * silent } else { silent }
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Deal,
    Auction,
    Choose,
    Discard,
    Announce,
    Play,
    Over,
}

/// A match of Illustrated Whist.
#[derive(Debug, Clone)]
pub struct Illustrated {
    cfg: Config,
    /// Match totals by team.
    totals: [i32; 2],
    /// Dealer, deals, results and the hand's log (shared by every game).
    core: MatchCore,
    stage: Stage,
    // The hand.
    hands: [CardSet; SEATS],
    dealt: [CardSet; SEATS],
    /// The kitty in deal order.
    kitty: [Card; KITTY],
    /// Kitty cards nobody has taken.
    kitty_left: u8,
    /// The kitty cards each seat has seen.
    kitty_seen: [CardSet; SEATS],
    /// Cards each seat discarded.
    discarded: [CardSet; SEATS],
    turn: Seat,
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
    trick: Trick,
    tricks: ArrayVec<(Trick, Seat), TRICKS>,
    won: [u8; SEATS],
    played: CardSet,
    /// The open-null declarer's hand as revealed after the first trick.
    shown: CardSet,
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
            totals: [0; 2],
            core: MatchCore::new(SEATS, LOG_CAPACITY),
            stage: Stage::Deal,
            hands: [CardSet::EMPTY; SEATS],
            dealt: [CardSet::EMPTY; SEATS],
            kitty: [Card::BIG_JOKER; KITTY],
            kitty_left: 0,
            kitty_seen: [CardSet::EMPTY; SEATS],
            discarded: [CardSet::EMPTY; SEATS],
            turn: Seat::new(1),
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
            trick: Trick::new(),
            tricks: ArrayVec::new(),
            won: [0; SEATS],
            played: CardSet::EMPTY,
            shown: CardSet::EMPTY,
        }
    }

    /// The resolved options.
    pub fn config(&self) -> Config {
        self.cfg
    }

    /// How the last hand played scored, once all its tricks are complete
    /// (`None` during the hand, before the first deal or after a misdeal).
    pub fn breakdown(&self) -> Option<Breakdown> {
        (self.tricks.len() == TRICKS).then(|| self.score())
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
        if self.rules.led_suit(&self.trick) == suit_id::NONE {
            // Leading, or only jokers so far at notrump or null: a joker only
            // from a hand that holds nothing else.
            let suited = hand.minus(self.suitless());
            if suited.is_empty() { hand } else { suited }
        } else {
            self.rules.follow(hand, &self.trick)
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
        self.stage = Stage::Choose;
        self.turn = declarer;
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
            self.core.log.push(LogEntry::redacted(
                Event::Take {
                    seat,
                    card: Some(card),
                    from: Source::Kitty,
                },
                viewers,
                Event::Take {
                    seat,
                    card: None,
                    from: Source::Kitty,
                },
            ));
        }
        self.kitty_left -= count as u8;
        self.exchanger = Some(seat);
        self.to_discard = count as u8;
        self.turn = seat;
        self.stage = Stage::Discard;
    }

    fn start_calls(&mut self) {
        self.stage = Stage::Announce;
        self.turn = self.declarer;
        self.passes = 0;
    }

    fn finish_trick(&mut self) {
        let winner = self
            .rules
            .winner(&self.trick)
            .seat()
            .expect("no dummy in Illustrated Whist");
        self.won[winner.index()] += 1;
        let index = self.tricks.len() as u8;
        self.tricks.push((self.trick.clone(), winner));
        self.trick.clear();
        self.core.public(Event::TrickWon {
            index,
            winner: Player::Seat(winner),
        });
        self.turn = winner;
        if index == 0 && self.contract == Some(Contract::OpenNull) {
            // L6: the open-null hand turns public once the first trick is complete.
            let cards = self.hands[self.declarer.index()];
            self.shown = cards;
            self.core.public(Event::Reveal {
                seat: self.declarer,
                cards,
            });
        }
        if self.tricks.len() == TRICKS {
            self.end_hand(false);
        }
    }

    /// The cards in each team's tricks.
    fn team_cards(&self) -> [CardSet; 2] {
        let mut cards = [CardSet::EMPTY; 2];
        for (t, w) in &self.tricks {
            cards[team(*w)] = cards[team(*w)].or(t.card_set());
        }
        cards
    }

    fn team_tricks(&self) -> [u8; 2] {
        [self.won[0] + self.won[2], self.won[1] + self.won[3]]
    }

    /// L5: whether team `t` made `feat` (for the declaring team's Slam, only
    /// the trick count), given whether the contract was made.
    fn achieved(&self, t: usize, feat: Feat, made: bool) -> bool {
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
            Feat::JokerCatch => self.tricks.iter().any(|(trick, winner)| {
                let by = |card: Card| {
                    trick
                        .cards()
                        .iter()
                        .find(|&&(_, c)| c == card)
                        .and_then(|&(p, _)| p.seat())
                };
                match (by(Card::BIG_JOKER), by(Card::LITTLE_JOKER)) {
                    (Some(big), Some(little)) => {
                        big == *winner && team(big) == t && team(little) != t
                    }
                    _ => false,
                }
            }),
            Feat::DixLast => {
                let (Some(dix), Some((last, winner))) = (dix, self.tricks.last()) else {
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
                if player == *winner {
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
    fn score(&self) -> Breakdown {
        let contract = self.contract();
        let exchange = self.exchange.expect("an exchange choice");
        let decl = team(self.declarer);
        let bonus = difficulty(exchange, contract.section());
        let taken = self.team_tricks()[decl];
        let slam_announced = self.calls[decl][Feat::Slam as usize] != 0;
        let (made, hand) = match contract {
            Contract::Null | Contract::OpenNull => {
                let made = self.won[self.declarer.index()] == 0;
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

    fn end_hand(&mut self, misdeal: bool) {
        let mut points = [0; 2];
        let mut bids = vec![None; SEATS];
        let mut made = vec![None; SEATS];
        let summary = if misdeal {
            "misdeal: four passes".to_string()
        } else {
            let b = self.score();
            points = b.points;
            let contract = self.contract();
            bids[self.declarer.index()] = Some(contract.action());
            made[self.declarer.index()] = Some(b.made);
            self.summary(&b)
        };
        for (total, p) in self.totals.iter_mut().zip(points) {
            *total += p;
        }
        let deal = self.core.current_deal();
        self.core.end_hand(HandResult {
            deal,
            dealer: self.core.dealer,
            misdeal,
            bids,
            tricks: self.won.to_vec(),
            made,
            points: (0..SEATS).map(|s| points[s % 2]).collect(),
            totals: (0..SEATS).map(|s| self.totals[s % 2]).collect(),
            seat_points: Vec::new(),
            summary,
        });
        // L1: the deal passes left.
        self.core.dealer = self.core.dealer.next(SEATS);
        self.stage = if self.core.played() >= self.cfg.hands {
            Stage::Over
        } else {
            Stage::Deal
        };
    }

    /// One line for people, e.g.
    /// `8S by 0, whole: tricks 12-0, made +7; feats 0 four-kings +2; team 0 +9, team 1 +0`.
    fn summary(&self, b: &Breakdown) -> String {
        let contract = self.contract();
        let exchange = self.exchange.expect("an exchange choice");
        let decl = team(self.declarer);
        let tricks = if contract.is_null() {
            format!("declarer took {}", self.won[self.declarer.index()])
        } else {
            let t = self.team_tricks();
            format!("tricks {}-{}", t[decl], t[1 - decl])
        };
        let game = match b.game {
            1 => String::new(),
            m => format!(" x{m}"),
        };
        let mut feats = Vec::new();
        for (t, row) in b.feats.iter().enumerate() {
            for feat in Feat::ALL {
                let v = row[feat as usize];
                if v != 0 {
                    feats.push(format!("{t} {} {v:+}", feat.name()));
                }
            }
        }
        format!(
            "{contract} by {}, {}: {tricks}, {} {:+}{game}; feats {}; team 0 {:+}, team 1 {:+}",
            self.declarer,
            exchange.name(),
            if b.made { "made" } else { "set" },
            b.hand,
            if feats.is_empty() {
                "none".to_string()
            } else {
                feats.join(", ")
            },
            b.points[0],
            b.points[1],
        )
    }

    fn phase(&self) -> Phase {
        match self.stage {
            Stage::Deal => Phase::Deal,
            Stage::Auction => Phase::Auction,
            Stage::Choose => Phase::Choose,
            Stage::Discard => Phase::Exchange,
            Stage::Announce => Phase::Declare,
            Stage::Play => Phase::Play,
            Stage::Over => Phase::Over,
        }
    }

    /// L2: why `contract` may not be bid now, if it may not.
    fn check_bid(&self, contract: Contract) -> Result<(), IllegalReason> {
        match self.standing {
            Some((_, standing)) if contract.base() <= standing.base() => {
                Err(IllegalReason::NotHigher(standing.action()))
            }
            _ => Ok(()),
        }
    }

    /// L4: why `seat` may not make the call `action` now, if it may not.
    fn check_call(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        let contract = self.contract();
        let t = team(seat);
        let decl = team(self.declarer);
        let rule = |text| IllegalReason::Rule { id: "L4", text };
        match action {
            Action::Pass => Ok(()),
            Action::Announce(feat) => {
                if contract.is_null() {
                    Err(NULL_CALLS_ONLY)
                } else if !contract.has_feat(feat) {
                    Err(IllegalReason::Rule {
                        id: "L5",
                        text: "that feat does not exist in this contract",
                    })
                } else if self.calls[t][feat as usize] != 0 {
                    Err(rule("a team announces each feat at most once"))
                } else {
                    Ok(())
                }
            }
            Action::Double(Target::Game) => {
                if t == decl {
                    Err(rule("only the declarer's opponents may double the game"))
                } else if self.game_mult != 1 {
                    Err(rule("the game is already doubled"))
                } else {
                    Ok(())
                }
            }
            Action::Double(Target::Feat(feat)) => {
                let mult = self.calls[1 - t][feat as usize];
                if contract.is_null() {
                    Err(NULL_CALLS_ONLY)
                } else if mult == 0 {
                    Err(rule("a double needs a feat the other team announced"))
                } else if feat == Feat::Slam && 1 - t == decl {
                    Err(IllegalReason::Rule {
                        id: "L5",
                        text: "a declaring team's slam cannot be doubled as a feat (double the game)",
                    })
                } else if mult != 1 {
                    Err(rule("that announcement is already doubled"))
                } else {
                    Ok(())
                }
            }
            Action::Redouble(Target::Game) => {
                if t != decl {
                    Err(rule("only the declaring team may redouble the game"))
                } else if self.game_mult != 2 {
                    Err(rule(
                        "a redouble needs a double of the game not yet redoubled",
                    ))
                } else {
                    Ok(())
                }
            }
            Action::Redouble(Target::Feat(feat)) => {
                if contract.is_null() {
                    Err(NULL_CALLS_ONLY)
                } else if self.calls[t][feat as usize] != 2 {
                    Err(rule(
                        "a redouble needs a double of this team's announcement not yet redoubled",
                    ))
                } else {
                    Ok(())
                }
            }
            _ => Err(IllegalReason::WrongPhase),
        }
    }

    fn notes(&self) -> Vec<(&'static str, String)> {
        let seat_or_dash = |s: Option<Seat>| s.map_or("-".to_string(), |s| s.to_string());
        let passed = if self.passed.is_empty() {
            "-".to_string()
        } else {
            self.passed
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut announcements = Vec::new();
        for (t, row) in self.calls.iter().enumerate() {
            for feat in Feat::ALL {
                let m = row[feat as usize];
                if m != 0 {
                    announcements.push(format!("{t} {} x{m}", feat.name()));
                }
            }
        }
        let announcements = if announcements.is_empty() {
            "-".to_string()
        } else {
            announcements.join(", ")
        };
        let difficulty = match (self.contract, self.exchange) {
            (Some(c), Some(e)) => difficulty(e, c.section()).to_string(),
            _ => "-".to_string(),
        };
        let tricks = self.team_tricks();
        vec![
            ("hands", self.cfg.hands.to_string()),
            ("hands-played", self.core.played().to_string()),
            ("passed", passed),
            (
                "declarer",
                seat_or_dash(self.contract.map(|_| self.declarer)),
            ),
            (
                "base",
                self.contract
                    .map_or("-".to_string(), |c| c.base().to_string()),
            ),
            (
                "section",
                self.contract
                    .map_or("-".to_string(), |c| c.section().name().to_string()),
            ),
            (
                "exchange",
                self.exchange
                    .map_or("-".to_string(), |e| e.name().to_string()),
            ),
            ("difficulty", difficulty),
            ("exchanger", seat_or_dash(self.exchanger)),
            ("to-discard", self.to_discard.to_string()),
            ("sitting-out", seat_or_dash(self.sitting_out)),
            ("announcements", announcements),
            ("game", format!("x{}", self.game_mult)),
            ("team-tricks", format!("{} {}", tricks[0], tricks[1])),
        ]
    }
}

impl Game for Illustrated {
    fn variant(&self) -> Variant {
        Variant::Illustrated
    }

    fn options(&self) -> Options {
        self.cfg.to_options()
    }

    fn seats(&self) -> usize {
        SEATS
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
            _ => SeatSet::single(self.turn),
        }
    }

    fn simultaneous(&self) -> bool {
        false
    }

    fn legal_actions_into(&self, seat: Seat, out: &mut ActionList) {
        if !self.to_act().contains(seat) {
            return;
        }
        let hand = self.hands[seat.index()];
        match self.stage {
            Stage::Auction => {
                out.push(Action::Pass);
                for bid in Contract::BIDS {
                    if self.check_bid(bid).is_ok() {
                        out.push(bid.action());
                    }
                }
            }
            Stage::Choose => out.extend(Exchange::ALL.map(Action::Exchange)),
            Stage::Discard => {
                let keep = if self.suitless().is_empty() {
                    // L3: no one who exchanges discards a joker at trumps.
                    CardSet::JOKERS
                } else {
                    CardSet::EMPTY
                };
                out.extend(hand.minus(keep).iter().map(Action::Discard));
            }
            Stage::Announce => {
                for call in CALLS {
                    if self.check_call(seat, call).is_ok() {
                        out.push(call);
                    }
                }
            }
            Stage::Play => out.extend(self.allowed(hand).iter().map(Action::Play)),
            Stage::Deal | Stage::Over => {}
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        let hand = self.hands[seat.index()];
        match (self.stage, action) {
            (Stage::Auction, Action::Pass) => Ok(()),
            (Stage::Auction, Action::Contract { .. } | Action::Null(_) | Action::OpenNull) => {
                match Contract::from_action(action) {
                    Some(contract) => self.check_bid(contract),
                    None if matches!(action, Action::Null(_)) => Err(IllegalReason::Rule {
                        id: "L2",
                        text: "a null bid has no number",
                    }),
                    None => Err(IllegalReason::OutOfRange { min: 8, max: 12 }),
                }
            }
            (Stage::Choose, Action::Exchange(_)) => Ok(()),
            (Stage::Discard, Action::Discard(c)) => {
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
                Stage::Announce,
                Action::Pass | Action::Announce(_) | Action::Double(_) | Action::Redouble(_),
            ) => self.check_call(seat, action),
            (Stage::Play, Action::Play(c)) => {
                if !hand.contains(c) {
                    return Err(IllegalReason::NotInHand(c));
                }
                if self.allowed(hand).contains(c) {
                    return Ok(());
                }
                let led = self.rules.led_suit(&self.trick);
                if led == suit_id::NONE {
                    Err(IllegalReason::Rule {
                        id: "L6",
                        text: "at notrump or null a joker is led only from a hand that holds nothing else",
                    })
                } else {
                    Err(self.rules.follow_reason(&self.trick))
                }
            }
            _ => Err(IllegalReason::WrongPhase),
        }
    }

    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        match (self.stage, action) {
            (Stage::Auction, Action::Pass) => {
                self.core.public(Event::Action { seat, action });
                self.passed.insert(seat);
                if self.passed.len() == SEATS {
                    // L2: four passes are a misdeal.
                    self.core.public(Event::Misdeal);
                    self.end_hand(true);
                } else if self.passed.len() == SEATS - 1 && self.standing.is_some() {
                    self.finish_auction();
                } else {
                    self.turn = self.next_bidder(seat);
                }
            }
            (Stage::Auction, _) => {
                let contract = Contract::from_action(action).expect("a checked bid");
                self.core.public(Event::Action { seat, action });
                self.standing = Some((seat, contract));
                self.last_bid[seat.index()] = Some(contract);
                if self.passed.len() == SEATS - 1 {
                    self.finish_auction();
                } else {
                    self.turn = self.next_bidder(seat);
                }
            }
            (Stage::Choose, Action::Exchange(e)) => {
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
            (Stage::Discard, Action::Discard(c)) => {
                self.core.log.push(LogEntry::redacted(
                    Event::Action { seat, action },
                    SeatSet::single(seat),
                    Event::Hidden {
                        seat,
                        kind: ActionKind::Discard,
                    },
                ));
                self.hands[seat.index()].remove(c);
                self.discarded[seat.index()].insert(c);
                self.to_discard -= 1;
                if self.to_discard == 0 {
                    self.start_calls();
                }
            }
            (Stage::Announce, _) => {
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
                    self.stage = Stage::Play;
                    // L6: the declarer leads.
                    self.turn = self.declarer;
                } else {
                    self.turn = seat.next(SEATS);
                }
            }
            (Stage::Play, Action::Play(c)) => {
                self.core.public(Event::Action { seat, action });
                self.hands[seat.index()].remove(c);
                self.played.insert(c);
                self.trick.push(Player::Seat(seat), c);
                if self.trick.len() == self.active() {
                    self.finish_trick();
                } else {
                    self.turn = self.next_active(seat);
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
        self.dealt = self.hands;
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
        self.trick.clear();
        self.tricks.clear();
        self.won = [0; SEATS];
        self.played = CardSet::EMPTY;
        self.shown = CardSet::EMPTY;
        self.core.begin_hand();
        for s in Seat::all(SEATS) {
            self.core.private(
                Event::Dealt {
                    seat: s,
                    cards: self.hands[s.index()],
                },
                SeatSet::single(s),
            );
        }
        // L2: the auction starts at the dealer's left.
        self.stage = Stage::Auction;
        self.turn = self.core.dealer.next(SEATS);
    }

    fn observe(&self, seat: Seat) -> Observation {
        let in_hand = !matches!(self.stage, Stage::Deal | Stage::Over);
        let revealed = !self.shown.is_empty();
        let players = Seat::all(SEATS)
            .map(|s| {
                let hand = self.hands[s.index()];
                SeatView {
                    seat: s,
                    held: hand.len() as u8,
                    known: if s == seat || (revealed && s == self.declarer) {
                        hand
                    } else {
                        CardSet::EMPTY
                    },
                    bid: self.last_bid[s.index()].map(Contract::action),
                    tricks: self.won[s.index()],
                    total: self.totals[team(s)],
                    team: team(s) as u8,
                    active: self.sitting_out != Some(s),
                }
            })
            .collect();
        let trump = match self.contract {
            None => Trump::Undecided,
            Some(c) => c.trump().map_or(Trump::NoTrump, Trump::Suit),
        };
        let table = self.kitty_seen[seat.index()]
            .iter()
            .map(|card| TableCard {
                label: "kitty".to_string(),
                owner: self.exchanger,
                card,
            })
            .collect();
        let discards: usize = self.discarded.iter().map(|d| d.len()).sum();
        Observation {
            game: Variant::Illustrated,
            seat,
            seats: SEATS as u8,
            deal: self.core.current_deal(),
            dealer: self.core.observed_dealer(in_hand),
            phase: self.phase(),
            to_act: self.to_act(),
            simultaneous: false,
            hand: self.hands[seat.index()],
            players,
            trump,
            contract: self.contract.map(|c| (self.declarer, c.action())),
            table,
            piles: vec![
                ("kitty".to_string(), self.kitty_left),
                ("discards".to_string(), discards as u8),
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
            .or(self.kitty_seen[seat.index()])
            .or(self.played)
            .or(self.shown)
    }

    fn core(&self) -> &MatchCore {
        &self.core
    }

    fn result(&self) -> Option<MatchResult> {
        (self.stage == Stage::Over).then(|| {
            MatchResult::by_totals(
                (0..SEATS).map(|s| self.totals[s % 2]).collect(),
                self.teams(),
                ScoreOrder::HigherIsBetter,
                self.core.scored(),
            )
        })
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
        self.totals = [t[0], t[1]];
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

    fn teams(&self) -> Vec<u8> {
        (0..SEATS).map(|s| (s % 2) as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::testing::{act, card, cards, seat};
    use crate::{
        dealing::{Seed, Shuffler, deal_if_needed},
        error::{ActionError, IllegalAction},
    };

    /// A deck order that deals `hands[s]` to seat `s` when `dealer` deals,
    /// one card at a time from the dealer's left, then `kitty` in order (L1).
    fn order_for(hands: [&str; 4], kitty: &str, dealer: usize) -> Vec<Card> {
        let hands = hands.map(|h| cards(h).to_vec());
        assert!(hands.iter().all(|h| h.len() == HAND), "{hands:?}");
        let mut order: Vec<Card> = (0..SEATS * HAND)
            .map(|i| hands[(dealer + 1 + i) % SEATS][i / SEATS])
            .collect();
        order.extend(kitty.split_whitespace().map(card));
        assert_eq!(order.len(), 54);
        order
    }

    fn game(options: &[&str]) -> Illustrated {
        Illustrated::new(&Options::parse(options).unwrap()).unwrap()
    }

    /// A one-hand match dealt by seat 3, so seat 0 opens the auction.
    fn dealt(hands: [&str; 4], kitty: &str) -> Illustrated {
        let mut g = game(&["hands=1"]);
        g.core.dealer = seat(3);
        g.deal(&order_for(hands, kitty, 3)).unwrap();
        g
    }

    fn acts(g: &mut Illustrated, steps: &[(usize, &str)]) {
        for &(s, text) in steps {
            act(g, s, text);
        }
    }

    /// Plays each trick's cards in order, each by the seat to act.
    fn play(g: &mut Illustrated, tricks: &[&str]) {
        for (i, trick) in tricks.iter().enumerate() {
            for c in trick.split_whitespace() {
                let s = g.to_act().first().expect("a seat to act");
                g.apply(s, Action::Play(card(c)))
                    .unwrap_or_else(|e| panic!("trick {}: {e}", i + 1));
            }
        }
    }

    /// Plays the first legal action until the hand ends.
    fn play_out(g: &mut Illustrated) {
        while g.status() == Status::Act {
            let s = g.to_act().first().unwrap();
            let a = g.legal_actions(s)[0];
            g.apply(s, a).unwrap();
        }
    }

    /// Seat 0 wins the auction with `contract`; the others pass.
    fn declare(g: &mut Illustrated, contract: &str) {
        acts(g, &[(0, contract), (1, "pass"), (2, "pass"), (3, "pass")]);
    }

    fn discard(g: &mut Illustrated, s: usize, list: &str) {
        for c in list.split_whitespace() {
            act(g, s, &format!("discard {c}"));
        }
    }

    fn points(g: &Illustrated) -> [i32; 2] {
        let p = &g.hand_results().last().unwrap().points;
        assert_eq!((p[0], p[1]), (p[2], p[3]), "partners share their points");
        [p[0], p[1]]
    }

    fn passes(g: &mut Illustrated, seats: &[usize]) {
        for &s in seats {
            act(g, s, "pass");
        }
    }

    // ----- deals -----

    /// A: one suit a seat; the kitty holds the twos and both jokers. Seat 0
    /// holds every spade but the two.
    const A: [&str; 4] = [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
    ];
    const A_KITTY: &str = "2S LJ BJ 2H 2D 2C";

    /// Deal A at spades after a `whole` exchange that keeps both jokers and
    /// the dix: seat 0 leads its trumps from the top and wins all twelve
    /// tricks, the last with the dix.
    const A_WHOLE_DISCARDS: &str = "2H 2D 2C 3S 4S 5S";
    const A_SWEEP: [&str; 12] = [
        "BJ AH AD AC",
        "LJ KH KD KC",
        "AS QH QD QC",
        "KS JH JD JC",
        "QS TH TD TC",
        "JS 9H 9D 9C",
        "TS 8H 8D 8C",
        "9S 7H 7D 7C",
        "8S 6H 6D 6C",
        "7S 5H 5D 5C",
        "6S 4H 4D 4C",
        "2S 3H 3D 3C",
    ];

    /// Deal A, 8S, `whole`, ready for the round of calls.
    fn a_whole_8s() -> Illustrated {
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 8S");
        act(&mut g, 0, "whole");
        discard(&mut g, 0, A_WHOLE_DISCARDS);
        g
    }

    // ----- L1 -----

    #[test]
    fn l1_deal_partnerships_and_kitty() {
        let g = dealt(A, A_KITTY);
        for (s, hand) in A.iter().enumerate() {
            assert_eq!(g.hands[s], cards(hand));
        }
        assert_eq!(g.kitty.map(|c| c.to_string()).join(" "), A_KITTY);
        assert_eq!(g.teams(), [0, 1, 0, 1]);
        let o = g.observe(seat(1));
        assert_eq!(
            o.players.iter().map(|p| p.team).collect::<Vec<_>>(),
            [0, 1, 0, 1]
        );
        assert_eq!(o.piles[0], ("kitty".to_string(), 6));
        assert_eq!(o.hand, cards(A[1]));
        assert_eq!(g.seen_by(seat(1)), cards(A[1]));
        assert_eq!(g.deck().len(), 54);
        // L2: the auction starts at the dealer's left.
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        assert_eq!(o.phase, Phase::Auction);
        assert_eq!(o.trump, Trump::Undecided);
    }

    // ----- L2 -----

    #[test]
    fn l2_bids_by_base_value() {
        let expected = [
            ("bid 8S", 1, Section::Low),
            ("bid 8NT", 2, Section::Low),
            ("bid 9D", 3, Section::Low),
            ("bid 9NT", 4, Section::Low),
            ("null", 5, Section::Middle),
            ("bid 10H", 6, Section::Middle),
            ("bid 10NT", 7, Section::Middle),
            ("bid 11C", 8, Section::Middle),
            ("bid 11NT", 9, Section::Middle),
            ("open-null", 10, Section::High),
            ("bid 12S", 11, Section::High),
            ("bid 12NT", 12, Section::High),
        ];
        for (text, base, section) in expected {
            let c = Contract::from_action(text.parse().unwrap()).unwrap();
            assert_eq!((c.base(), c.section()), (base, section), "{text}");
            assert_eq!(c.action().to_string(), text);
        }
        // The bids' order is by base value.
        for pair in Contract::BIDS.windows(2) {
            assert!(pair[0].base() <= pair[1].base());
        }
        for bad in ["bid 7S", "bid 13NT", "null 3"] {
            assert!(
                Contract::from_action(bad.parse().unwrap()).is_none(),
                "{bad}"
            );
        }
    }

    #[test]
    fn l2_a_bid_must_have_a_higher_base_value_and_a_pass_is_final() {
        let mut g = dealt(A, A_KITTY);
        let legal = g.legal_actions(seat(0));
        assert_eq!(legal.len(), 28);
        assert_eq!(legal[0], Action::Pass);
        assert_eq!(legal[1].to_string(), "bid 8C");
        assert_eq!(legal[11], Action::Null(0));
        assert_eq!(legal[27].to_string(), "bid 12NT");
        act(&mut g, 0, "bid 8S");
        // Trump bids of the same number never overcall each other (L2).
        assert_eq!(
            g.check(seat(1), "bid 8D".parse().unwrap()),
            Err(IllegalReason::NotHigher("bid 8S".parse().unwrap()))
        );
        assert!(g.check(seat(1), "bid 8NT".parse().unwrap()).is_ok());
        assert_eq!(
            g.check(seat(1), "bid 7NT".parse().unwrap()),
            Err(IllegalReason::OutOfRange { min: 8, max: 12 })
        );
        assert!(matches!(
            g.check(seat(1), "null 2".parse().unwrap()),
            Err(IllegalReason::Rule { id: "L2", .. })
        ));
        act(&mut g, 1, "bid 9D");
        act(&mut g, 2, "pass");
        act(&mut g, 3, "null");
        assert_eq!(
            g.check(seat(0), "bid 9S".parse().unwrap()),
            Err(IllegalReason::NotHigher(Action::Null(0)))
        );
        act(&mut g, 0, "bid 10C");
        act(&mut g, 1, "pass");
        // Seat 2 passed: it is never asked again.
        assert_eq!(g.to_act(), SeatSet::single(seat(3)));
        act(&mut g, 3, "open-null");
        assert_eq!(g.stage, Stage::Auction);
        act(&mut g, 0, "pass");
        // Three passes with a bid standing: its bidder declares.
        assert_eq!(g.stage, Stage::Choose);
        assert_eq!(g.to_act(), SeatSet::single(seat(3)));
        let o = g.observe(seat(2));
        assert_eq!(o.contract, Some((seat(3), Action::OpenNull)));
        assert_eq!(o.trump, Trump::NoTrump);
        assert_eq!(o.note("declarer"), Some("3"));
        assert_eq!(o.note("base"), Some("10"));
        assert_eq!(o.note("section"), Some("high"));
        assert_eq!(o.note("passed"), Some("0 1 2"));
        assert_eq!(
            o.players[0].bid.map(|b| b.to_string()).as_deref(),
            Some("bid 10C")
        );
    }

    #[test]
    fn l2_the_dealer_may_still_bid_after_three_passes() {
        let mut g = dealt(A, A_KITTY);
        passes(&mut g, &[0, 1, 2]);
        assert_eq!(g.to_act(), SeatSet::single(seat(3)));
        assert_eq!(g.legal_actions(seat(3)).len(), 28);
        act(&mut g, 3, "bid 8C");
        assert_eq!(g.stage, Stage::Choose);
        assert_eq!(g.declarer, seat(3));
    }

    #[test]
    fn l2_four_passes_are_a_misdeal_and_the_deal_passes_left() {
        let mut g = game(&["hands=2"]);
        g.core.dealer = seat(3);
        g.deal(&order_for(A, A_KITTY, 3)).unwrap();
        passes(&mut g, &[0, 1, 2, 3]);
        assert_eq!(g.status(), Status::Deal);
        let r = &g.hand_results()[0];
        assert!(r.misdeal);
        assert_eq!(r.points, [0, 0, 0, 0]);
        assert_eq!(r.summary, "misdeal: four passes");
        assert_eq!(g.dealer(), seat(0));
        assert_eq!(
            g.observe(seat(1)).history.last(),
            Some(&Event::HandEnd { deal: 0 })
        );
        // L8: a misdeal counts towards `hands`, and scores nothing.
        g.deal(&order_for(A, A_KITTY, 0)).unwrap();
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        passes(&mut g, &[1, 2, 3, 0]);
        assert!(g.is_over());
        let m = g.result().unwrap();
        assert_eq!(m.hands, 0);
        assert_eq!(m.ranks, [1, 1, 1, 1]);
    }

    // ----- L3 -----

    #[test]
    fn l3_difficulty_bonus_table() {
        let table: Vec<[i32; 3]> = Exchange::ALL
            .iter()
            .map(|&e| [Section::Low, Section::Middle, Section::High].map(|s| difficulty(e, s)))
            .collect();
        assert_eq!(table, [[0, 0, 0], [0, 2, 4], [0, 3, 5], [0, 6, 10]]);
    }

    #[test]
    fn l3_whole_the_declarer_alone_sees_the_kitty_and_discards_face_down() {
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 8S");
        assert_eq!(
            g.legal_actions(seat(0)).as_slice(),
            Exchange::ALL.map(Action::Exchange)
        );
        act(&mut g, 0, "whole");
        assert_eq!(g.hands[0].len(), 18);
        let kitty = cards(A_KITTY);
        let o0 = g.observe(seat(0));
        assert_eq!(o0.phase, Phase::Exchange);
        assert_eq!(o0.table.len(), 6);
        assert!(
            o0.table
                .iter()
                .all(|t| t.label == "kitty" && t.owner == Some(seat(0)))
        );
        assert_eq!(o0.table.iter().map(|t| t.card).collect::<CardSet>(), kitty);
        assert_eq!(o0.piles[0], ("kitty".to_string(), 0));
        assert_eq!(o0.note("to-discard"), Some("6"));
        assert_eq!(g.seen_by(seat(0)), cards(A[0]).or(kitty));
        for (s, hand) in A.iter().enumerate().skip(1) {
            let o = g.observe(seat(s));
            assert!(o.table.is_empty());
            assert_eq!(o.players[0].held, 18);
            assert_eq!(g.seen_by(seat(s)), cards(hand));
            let takes: Vec<Event> = o
                .history
                .iter()
                .copied()
                .filter(|e| matches!(e, Event::Take { .. }))
                .collect();
            assert_eq!(takes.len(), 6);
            assert!(takes.iter().all(|e| matches!(
                e,
                Event::Take { seat: taker, card: None, from: Source::Kitty } if *taker == seat(0)
            )));
        }
        // L3: at trumps no joker may be discarded; aces and kings may.
        assert_eq!(
            g.check(seat(0), Action::Discard(Card::BIG_JOKER)),
            Err(IllegalReason::Rule {
                id: "L3",
                text: "in a trump contract no one who exchanges may discard a joker"
            })
        );
        assert_eq!(g.legal_actions(seat(0)).len(), 16);
        assert!(g.check(seat(0), "discard AS".parse().unwrap()).is_ok());
        assert_eq!(
            g.check(seat(0), "discard AH".parse().unwrap()),
            Err(IllegalReason::NotInHand(card("AH")))
        );
        act(&mut g, 0, "discard 2H");
        assert_eq!(
            g.observe(seat(0)).history.last(),
            Some(&Event::Action {
                seat: seat(0),
                action: "discard 2H".parse().unwrap()
            })
        );
        assert_eq!(
            g.observe(seat(3)).history.last(),
            Some(&Event::Hidden {
                seat: seat(0),
                kind: ActionKind::Discard
            })
        );
        assert_eq!(g.observe(seat(3)).piles[1], ("discards".to_string(), 1));
        discard(&mut g, 0, "2D 2C 3S 4S 5S");
        assert_eq!(g.stage, Stage::Announce);
        assert_eq!(g.hands[0].len(), 12);
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        // The kitty stays in the declarer's view for the rest of the hand.
        assert_eq!(g.observe(seat(0)).table.len(), 6);
        assert!(!format!("{:?}", g.observe(seat(2))).contains("2H"));
    }

    #[test]
    fn l3_half_takes_the_first_three_kitty_cards() {
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 8NT");
        act(&mut g, 0, "half");
        let taken = cards("2S LJ BJ");
        assert_eq!(g.hands[0], cards(A[0]).or(taken));
        let o = g.observe(seat(0));
        assert_eq!(o.table.iter().map(|t| t.card).collect::<CardSet>(), taken);
        assert_eq!(o.piles[0], ("kitty".to_string(), 3));
        assert_eq!(o.note("difficulty"), Some("0"));
        assert_eq!(g.seen_by(seat(0)), cards(A[0]).or(taken));
        // At notrump a joker may be discarded.
        assert!(g.check(seat(0), Action::Discard(Card::BIG_JOKER)).is_ok());
        discard(&mut g, 0, "BJ LJ 2S");
        assert_eq!(g.stage, Stage::Announce);
        assert_eq!(g.observe(seat(1)).piles[1], ("discards".to_string(), 3));
    }

    #[test]
    fn l3_without_no_one_sees_the_kitty() {
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 10H");
        act(&mut g, 0, "without");
        assert_eq!(g.stage, Stage::Announce);
        for (s, hand) in A.iter().enumerate() {
            let o = g.observe(seat(s));
            assert!(o.table.is_empty());
            assert_eq!(o.piles[0], ("kitty".to_string(), 6));
            assert_eq!(o.note("difficulty"), Some("3"));
            assert_eq!(g.seen_by(seat(s)), cards(hand));
        }
    }

    #[test]
    fn l3_against_both_opponents_see_the_kitty_and_the_left_one_exchanges() {
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 8S");
        act(&mut g, 0, "against");
        let kitty = cards(A_KITTY);
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        assert_eq!(g.hands[1], cards(A[1]).or(kitty));
        for s in [1, 3] {
            let o = g.observe(seat(s));
            assert_eq!(o.table.iter().map(|t| t.card).collect::<CardSet>(), kitty);
            assert!(o.table.iter().all(|t| t.owner == Some(seat(1))));
            assert_eq!(g.seen_by(seat(s)), cards(A[s]).or(kitty));
            assert_eq!(o.note("exchanger"), Some("1"));
        }
        for s in [0, 2] {
            let o = g.observe(seat(s));
            assert!(o.table.is_empty());
            assert_eq!(g.seen_by(seat(s)), cards(A[s]));
            assert!(!format!("{o:?}").contains("BJ"));
        }
        // No one who exchanges may discard a joker at trumps (L3).
        assert!(matches!(
            g.check(seat(1), Action::Discard(Card::LITTLE_JOKER)),
            Err(IllegalReason::Rule { id: "L3", .. })
        ));
        discard(&mut g, 1, "2S 2H 2D 2C 3H 4H");
        // The taker's partner saw the kitty but not the discards.
        let o3 = g.observe(seat(3));
        assert_eq!(
            o3.history
                .iter()
                .filter(|e| matches!(e, Event::Hidden { .. }))
                .count(),
            6
        );
        assert_eq!(g.stage, Stage::Announce);
        // The calls start with the declarer.
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        assert_eq!(o3.note("difficulty"), Some("0"));
    }

    // ----- L4 -----

    #[test]
    fn l4_who_may_call_what_and_four_passes_end_the_round() {
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 8S");
        act(&mut g, 0, "without");
        let all_announcements: Vec<Action> = Feat::ALL.map(Action::Announce).to_vec();
        let mut expected = vec![Action::Pass];
        expected.extend(&all_announcements);
        assert_eq!(g.legal_actions(seat(0)).as_slice(), expected);
        assert!(matches!(
            g.check(seat(0), "double game".parse().unwrap()),
            Err(IllegalReason::Rule { id: "L4", text }) if text.contains("opponents")
        ));
        act(&mut g, 0, "announce four-kings");
        let legal1 = g.legal_actions(seat(1));
        assert!(legal1.contains(&"double game".parse().unwrap()));
        assert!(legal1.contains(&"double four-kings".parse().unwrap()));
        assert!(legal1.contains(&"announce four-kings".parse().unwrap()));
        act(&mut g, 1, "double four-kings");
        let legal2 = g.legal_actions(seat(2));
        assert!(legal2.contains(&"redouble four-kings".parse().unwrap()));
        assert!(!legal2.contains(&"double four-kings".parse().unwrap()));
        assert!(!legal2.contains(&"announce four-kings".parse().unwrap()));
        act(&mut g, 2, "announce slam");
        // A declaring team's slam is not doubled as a feat (L5).
        assert!(matches!(
            g.check(seat(3), "double slam".parse().unwrap()),
            Err(IllegalReason::Rule { id: "L5", .. })
        ));
        assert!(matches!(
            g.check(seat(3), "redouble four-kings".parse().unwrap()),
            Err(IllegalReason::Rule { id: "L4", .. })
        ));
        act(&mut g, 3, "double game");
        assert!(g.check(seat(0), "redouble game".parse().unwrap()).is_ok());
        act(&mut g, 0, "redouble game");
        assert!(g.check(seat(1), "double game".parse().unwrap()).is_err());
        assert!(g.check(seat(1), "redouble game".parse().unwrap()).is_err());
        passes(&mut g, &[1, 2, 3]);
        assert_eq!(g.stage, Stage::Announce);
        // A call other than a pass starts the count again.
        act(&mut g, 0, "announce four-aces");
        passes(&mut g, &[1, 2, 3]);
        assert_eq!(g.stage, Stage::Announce);
        act(&mut g, 0, "pass");
        assert_eq!(g.stage, Stage::Play);
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        let o = g.observe(seat(3));
        assert_eq!(o.phase, Phase::Play);
        assert_eq!(
            o.note("announcements"),
            Some("0 four-kings x2, 0 four-aces x1, 0 slam x1")
        );
        assert_eq!(o.note("game"), Some("x4"));
    }

    #[test]
    fn l4_l5_notrump_feats_and_null_calls() {
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 9NT");
        act(&mut g, 0, "without");
        let legal = g.legal_actions(seat(0));
        assert_eq!(
            legal.as_slice(),
            [
                Action::Pass,
                Action::Announce(Feat::FourKings),
                Action::Announce(Feat::FourAces),
                Action::Announce(Feat::Slam)
            ]
        );
        assert!(matches!(
            g.check(seat(0), "announce dix-last".parse().unwrap()),
            Err(IllegalReason::Rule { id: "L5", .. })
        ));

        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "null");
        act(&mut g, 0, "without");
        assert_eq!(g.legal_actions(seat(0)).as_slice(), [Action::Pass]);
        assert_eq!(
            g.check(seat(0), "announce four-kings".parse().unwrap()),
            Err(NULL_CALLS_ONLY)
        );
        act(&mut g, 0, "pass");
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        assert_eq!(
            g.legal_actions(seat(1)).as_slice(),
            [Action::Pass, Action::Double(Target::Game)]
        );
        act(&mut g, 1, "double game");
        // L4: the partner of a null declarer takes part in the round of calls.
        assert_eq!(g.to_act(), SeatSet::single(seat(2)));
        assert_eq!(
            g.legal_actions(seat(2)).as_slice(),
            [Action::Pass, Action::Redouble(Target::Game)]
        );
        act(&mut g, 2, "pass");
        act(&mut g, 3, "pass");
        assert_eq!(
            g.legal_actions(seat(0)).as_slice(),
            [Action::Pass, Action::Redouble(Target::Game)]
        );
        act(&mut g, 0, "pass");
        // L4: four seats, so three passes in a row do not end it in a null.
        assert_eq!(g.stage, Stage::Announce);
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
        act(&mut g, 1, "pass");
        assert_eq!(g.stage, Stage::Play);
        // L6: it sits out of the play only; the declarer leads.
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
    }

    #[test]
    fn l4_the_partner_of_a_null_declarer_redoubles_a_double_of_the_game() {
        let mut g = dealt(N, N_KITTY);
        declare(&mut g, "null");
        act(&mut g, 0, "without");
        acts(
            &mut g,
            &[(0, "pass"), (1, "double game"), (2, "redouble game")],
        );
        assert_eq!(g.game_mult, 4);
        // After a call, four passes in a row are needed again.
        passes(&mut g, &[3, 0, 1]);
        assert_eq!(g.stage, Stage::Announce);
        act(&mut g, 2, "pass");
        assert_eq!(g.stage, Stage::Play);
        let mut to_act = SeatSet::EMPTY;
        for trick in N_PLAY {
            for c in trick.split_whitespace() {
                let s = g.to_act().first().unwrap();
                to_act.insert(s);
                g.apply(s, Action::Play(card(c))).unwrap();
            }
        }
        assert!(!to_act.contains(seat(2)), "the partner plays no card (L6)");
        // Made: (5 + 3) × 4 = 32 (middle section, without; redoubled).
        assert_eq!(points(&g), [32, 0]);
    }

    // ----- L5 and L7 on deal A -----

    #[test]
    fn l5_l7_silent_feats_and_a_silent_slam_on_a_low_contract() {
        let mut g = a_whole_8s();
        passes(&mut g, &[0, 1, 2, 3]);
        play(&mut g, &A_SWEEP);
        // 8S by 0, whole, twelve tricks: base min(1 + 6, 12) = 7, difficulty 0.
        // Silent: four kings 2, four aces 3, dix last 4 (won with 2S, contract
        // made), all three 2 (BJ, LJ, 2S). 7 + 11 = 18.
        let b = g.breakdown().unwrap();
        assert!(b.made);
        assert_eq!((b.hand, b.game), (7, 1));
        assert_eq!(b.feats, [[2, 3, 4, 2, 0, 0], [0; 6]]);
        assert_eq!(points(&g), [18, 0]);
        let r = &g.hand_results()[0];
        assert_eq!(
            r.summary,
            "8S by 0, whole: tricks 12-0, made +7; feats 0 four-kings +2, 0 four-aces +3, \
             0 dix-last +4, 0 all-three +2; team 0 +18, team 1 +0"
        );
        assert_eq!(r.tricks, [12, 0, 0, 0]);
        assert_eq!(r.bids[0], Some("bid 8S".parse().unwrap()));
        assert_eq!(r.made, [Some(true), None, None, None]);
        let m = g.result().unwrap();
        assert_eq!(m.totals, [18, 0, 18, 0]);
        assert_eq!(m.ranks, [1, 3, 1, 3]);
        assert_eq!(m.winners(), [seat(0), seat(2)]);
    }

    /// Also the example hand of docs/notation.md.
    #[test]
    fn l5_announced_feats_doubles_redoubles_and_a_doubled_game() {
        let mut g = a_whole_8s();
        acts(
            &mut g,
            &[
                (0, "announce four-kings"),
                (1, "double four-kings"),
                (2, "redouble four-kings"),
                (3, "double game"),
                (0, "announce dix-last"),
                (1, "double dix-last"),
                (2, "announce all-three"),
                (3, "announce slam"),
                (0, "double slam"),
            ],
        );
        passes(&mut g, &[1, 2, 3, 0]);
        play(&mut g, &A_SWEEP);
        // Team 0: four kings announced, redoubled: 4 × 4 = 16; four aces
        // silent 3; dix last announced, doubled: 8 × 2 = 16; all three
        // announced 4; hand 7 × 2 (game doubled) = 14. Total 53.
        // Team 1: its slam announced, doubled, failed: −12 × 2 = −24.
        let b = g.breakdown().unwrap();
        assert_eq!((b.hand, b.game), (7, 2));
        assert_eq!(b.feats, [[16, 3, 16, 4, 0, 0], [0, 0, 0, 0, 0, -24]]);
        assert_eq!(points(&g), [53, -24]);
    }

    #[test]
    fn l5_announced_feats_that_fail_cost_their_value() {
        let mut g = a_whole_8s();
        acts(
            &mut g,
            &[
                (0, "announce four-aces"),
                (1, "announce four-kings"),
                (2, "pass"),
                // Both teams may announce the same feat.
                (3, "announce four-aces"),
                (0, "pass"),
                (1, "announce dix-last"),
                (2, "pass"),
                (3, "announce all-three"),
                (0, "pass"),
                (1, "announce joker-catch"),
            ],
        );
        passes(&mut g, &[2, 3, 0, 1]);
        play(&mut g, &A_SWEEP);
        // Team 0: four aces announced 6; four kings 2, dix last 4 and all
        // three 2 silent (the other team's announcements do not stop them);
        // hand 7. Total 21. Team 1: −4 − 6 − 8 − 4 − 20 = −42.
        let b = g.breakdown().unwrap();
        assert_eq!(b.feats, [[2, 6, 4, 2, 0, 0], [-4, -6, -8, -4, -20, 0]]);
        assert_eq!(points(&g), [21, -42]);
    }

    #[test]
    fn l7_an_announced_slam_made_scores_base_twelve_and_the_game_redoubled() {
        let mut g = a_whole_8s();
        acts(
            &mut g,
            &[(0, "pass"), (1, "double game"), (2, "announce slam")],
        );
        assert!(matches!(
            g.check(seat(3), "double slam".parse().unwrap()),
            Err(IllegalReason::Rule { id: "L5", .. })
        ));
        acts(&mut g, &[(3, "pass"), (0, "redouble game")]);
        passes(&mut g, &[1, 2, 3, 0]);
        play(&mut g, &A_SWEEP);
        // Hand (12 + 0) × 4 = 48; silent feats 2 + 3 + 4 + 2 = 11.
        let b = g.breakdown().unwrap();
        assert_eq!((b.hand, b.game), (12, 4));
        assert_eq!(b.feats[0][Feat::Slam as usize], 0);
        assert_eq!(points(&g), [59, 0]);
    }

    #[test]
    fn l7_a_silent_slam_on_a_high_contract_a_made_slam_bid_keeps_its_base() {
        // RULES.md L7 follows the source's prose (a slam neither bid nor
        // announced raises the base); the source's formula would give 12 here.
        let mut g = dealt(A, A_KITTY);
        declare(&mut g, "bid 12S");
        act(&mut g, 0, "without");
        passes(&mut g, &[0, 1, 2, 3]);
        let tricks: Vec<String> = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"]
            .iter()
            .map(|r| format!("{r}S {r}H {r}D {r}C"))
            .collect();
        play(
            &mut g,
            &tricks.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        // Base 11 + difficulty 5 (without, high) = 16; four kings 2, four aces 3.
        let b = g.breakdown().unwrap();
        assert_eq!(b.hand, 16);
        assert_eq!(points(&g), [21, 0]);
    }

    /// B: deal A with seat 0's 3S and seat 1's 3H swapped.
    const B: [&str; 4] = [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3H",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3S",
        A[2],
        A[3],
    ];

    #[test]
    fn l7_an_announced_slam_that_fails_scores_minus_24_plus_difficulty() {
        let mut g = dealt(B, A_KITTY);
        declare(&mut g, "bid 10S");
        act(&mut g, 0, "half");
        discard(&mut g, 0, "4S 5S 6S");
        acts(
            &mut g,
            &[(0, "announce slam"), (1, "pass"), (2, "announce dix-last")],
        );
        passes(&mut g, &[3, 0, 1, 2]);
        play(
            &mut g,
            &[
                "3H AH 3D 3C",
                "3S 4D 4C BJ",
                "LJ KH AD AC",
                "AS QH KD KC",
                "KS JH QD QC",
                "QS TH JD JC",
                "JS 9H TD TC",
                "TS 8H 9D 9C",
                "9S 7H 8D 8C",
                "8S 6H 7D 7C",
                "7S 5H 6D 6C",
                "2S 4H 5D 5C",
            ],
        );
        assert_eq!(g.team_tricks(), [11, 1]);
        // Eleven tricks make 10S, but the announced slam is a bid of twelve:
        // set, −(24 + 2) (half, middle). Dix Last then counts the contract as
        // set: won with the dix, it fails (−8). Silent four kings 2 (the aces
        // are split) and all three 2 (BJ, LJ, 2S). −26 − 8 + 2 + 2 = −30.
        let b = g.breakdown().unwrap();
        assert!(!b.made);
        assert_eq!(b.hand, -26);
        assert_eq!(b.feats[0], [2, 0, -8, 2, 0, 0]);
        assert_eq!(points(&g), [-30, 0]);
        assert_eq!(g.hand_results()[0].made[0], Some(false));
    }

    /// C: seat 0 holds the dix and loses it to the ace at the last trick.
    const C: [&str; 4] = [
        "BJ LJ KS QS JS 4S 3S 2S AD KD QD JD",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "TD 9D 8D 7D 6D 5D 4D 3D 9C 8C 7C 6C",
        "AS TS 9S 8S 7S 6S 5S AC KC QC JC TC",
    ];
    const C_KITTY: &str = "2H 2D 5C 4C 3C 2C";

    #[test]
    fn l5_dix_last_lost_scores_for_the_dix_players_opponents() {
        let mut g = dealt(C, C_KITTY);
        declare(&mut g, "bid 8S");
        act(&mut g, 0, "without");
        acts(
            &mut g,
            &[
                (0, "announce dix-last"),
                (1, "pass"),
                (2, "pass"),
                (3, "announce dix-last"),
                (0, "double dix-last"),
            ],
        );
        passes(&mut g, &[1, 2, 3, 0]);
        play(
            &mut g,
            &[
                "BJ 3H 3D 5S",
                "LJ 4H 4D 6S",
                "KS 5H 5D 7S",
                "QS 6H 6D 8S",
                "JS 7H 7D 9S",
                "AD 8H 8D AC",
                "KD 9H 9D KC",
                "QD TH TD QC",
                "JD JH 9C JC",
                "4S QH 8C TS",
                "TC 3S KH 7C",
                "2S AH 6C AS",
            ],
        );
        assert_eq!(g.team_tricks(), [10, 2]);
        // 8S made: +1. The dix played to the last trick and lost: the dix
        // player's opponents make Dix Last whatever the contract; team 1's
        // announcement, doubled, scores 8 × 2 = 16, team 0's fails (−8).
        // Team 0 also makes four kings silently (+2); the aces are split.
        let b = g.breakdown().unwrap();
        assert!(b.made);
        assert_eq!(b.hand, 1);
        assert_eq!(b.feats, [[2, 0, -8, 0, 0, 0], [0, 0, 16, 0, 0, 0]]);
        assert_eq!(points(&g), [-5, 16]);
    }

    /// D: seat 0 holds BJ and seat 1 LJ as its only trump.
    const D: [&str; 4] = [
        "BJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
        "LJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
    ];

    #[test]
    fn l5_joker_catch_announced_and_doubled() {
        let mut g = dealt(D, "3S 2S 3H 2H 2D 2C");
        declare(&mut g, "bid 9S");
        act(&mut g, 0, "without");
        acts(
            &mut g,
            &[(0, "announce joker-catch"), (1, "double joker-catch")],
        );
        passes(&mut g, &[2, 3, 0, 1]);
        let mut tricks = vec!["BJ LJ AD AC".to_string()];
        let (s, h, d, c) = ("AKQJT98765", "AKQJT98765", "KQJT987654", "KQJT987654");
        for i in 0..10 {
            tricks.push(
                [s, h, d, c]
                    .iter()
                    .zip(["S", "H", "D", "C"])
                    .map(|(r, suit)| format!("{}{suit}", &r[i..i + 1]))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        tricks.push("4S 4H 3D 3C".to_string());
        play(
            &mut g,
            &tricks.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        // 9S with a silent slam: min(3 + 6, 12) = 9. Joker catch announced,
        // doubled: 20 × 2 = 40; four kings 2, four aces 3. 54.
        let b = g.breakdown().unwrap();
        assert_eq!(b.hand, 9);
        assert_eq!(b.feats[0], [2, 3, 0, 0, 40, 0]);
        assert_eq!(points(&g), [54, 0]);
    }

    #[test]
    fn l5_joker_catch_fails_when_the_partner_plays_the_little_joker() {
        let hands = [
            D[0],
            "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
            "LJ AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
            D[3],
        ];
        let mut g = dealt(hands, "3S 2S 2H 3D 2D 2C");
        declare(&mut g, "bid 9S");
        act(&mut g, 0, "without");
        act(&mut g, 0, "announce joker-catch");
        passes(&mut g, &[1, 2, 3, 0]);
        // Seat 2 must follow the big joker with its only trump, the little one.
        act(&mut g, 0, "BJ");
        act(&mut g, 1, "AH");
        assert_eq!(
            g.legal_actions(seat(2)).as_slice(),
            [Action::Play(Card::LITTLE_JOKER)]
        );
        play(
            &mut g,
            &[
                "LJ AC",
                "AS KH AD KC",
                "KS QH KD QC",
                "QS JH QD JC",
                "JS TH JD TC",
                "TS 9H TD 9C",
                "9S 8H 9D 8C",
                "8S 7H 8D 7C",
                "7S 6H 7D 6C",
                "6S 5H 6D 5C",
                "5S 4H 5D 4C",
                "4S 3H 4D 3C",
            ],
        );
        // Hand 9 (silent slam); joker catch announced and failed −20; four
        // kings 2, four aces 3: −6.
        let b = g.breakdown().unwrap();
        assert_eq!(b.feats[0], [2, 3, 0, 0, -20, 0]);
        assert_eq!(points(&g), [-6, 0]);
    }

    // ----- L6 and the nulls -----

    /// N: seat 0 holds every two, three and four; seat 1 the court cards.
    const N: [&str; 4] = [
        "2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S",
        "AC KC QC AD KD QD AH KH QH AS KS QS",
        "JC TC 9C JD TD 9D JH TH 9H JS TS 9S",
        "8C 7C 6C 8D 7D 6D 8H 7H 6H 8S 7S 6S",
    ];
    const N_KITTY: &str = "5C 5D 5H 5S LJ BJ";
    /// Three-card tricks: seat 1 wins them all.
    const N_PLAY: [&str; 12] = [
        "2C AC 8C", "KC 7C 3C", "QC 6C 4C", "AD 8D 2D", "KD 7D 3D", "QD 6D 4D", "AH 8H 2H",
        "KH 7H 3H", "QH 6H 4H", "AS 8S 2S", "KS 7S 3S", "QS 6S 4S",
    ];

    #[test]
    fn l6_null_the_partner_sits_out_and_a_made_null_doubled() {
        let mut g = dealt(N, N_KITTY);
        declare(&mut g, "null");
        let o = g.observe(seat(2));
        assert!(!o.players[2].active);
        assert!(o.players.iter().filter(|p| p.active).count() == 3);
        assert_eq!(o.note("sitting-out"), Some("2"));
        assert_eq!(o.trump, Trump::NoTrump);
        act(&mut g, 0, "without");
        acts(&mut g, &[(0, "pass"), (1, "double game")]);
        passes(&mut g, &[2, 3, 0, 1]);
        let mut to_act = SeatSet::EMPTY;
        for (i, trick) in N_PLAY.iter().enumerate() {
            for c in trick.split_whitespace() {
                let s = g.to_act().first().unwrap();
                to_act.insert(s);
                g.apply(s, Action::Play(card(c)))
                    .unwrap_or_else(|e| panic!("trick {}: {e}", i + 1));
            }
        }
        assert!(!to_act.contains(seat(2)), "the partner never acts");
        assert!(g.tricks.iter().all(|(t, _)| t.len() == 3));
        assert_eq!(g.hands[2].len(), 12, "the partner's cards stay out of play");
        // Made: (5 + 3) × 2 = 16 (middle section, without).
        let b = g.breakdown().unwrap();
        assert!(b.made);
        assert_eq!((b.hand, b.game), (8, 2));
        assert_eq!(points(&g), [16, 0]);
        assert_eq!(
            g.hand_results()[0].summary.split(':').next(),
            Some("null by 0, without")
        );
    }

    #[test]
    fn l6_open_null_against_is_revealed_after_the_first_trick() {
        let mut g = dealt(N, N_KITTY);
        declare(&mut g, "open-null");
        act(&mut g, 0, "against");
        // Seat 1 takes the kitty; at null it may discard the jokers.
        assert!(g.check(seat(1), Action::Discard(Card::BIG_JOKER)).is_ok());
        discard(&mut g, 1, N_KITTY);
        passes(&mut g, &[0, 1, 2, 3]);
        // The first trick is complete with its third card.
        acts(&mut g, &[(0, "2C"), (1, "AC")]);
        assert_eq!(g.observe(seat(3)).players[0].known, CardSet::EMPTY);
        assert!(!g.seen_by(seat(3)).contains(card("3C")));
        act(&mut g, 3, "8C");
        let hand0 = g.hands[0];
        for s in [1, 2, 3] {
            let o = g.observe(seat(s));
            assert_eq!(o.players[0].known, hand0);
            assert!(g.seen_by(seat(s)).and(hand0) == hand0);
        }
        assert!(g.observe(seat(3)).history.contains(&Event::Reveal {
            seat: seat(0),
            cards: cards("3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S"),
        }));
        play(&mut g, &N_PLAY[1..]);
        // Made: 10 + 10 (against, high) = 20.
        assert_eq!(points(&g), [20, 0]);
    }

    /// N2: seat 0's ace of spades is a sure trick while its partner, who
    /// holds the other spades, sits out.
    const N2: [&str; 4] = [
        "AS 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H",
        "AC KC QC JC AD KD QD JD AH KH QH JH",
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        "TC 9C 8C 7C TD 9D 8D 7D TH 9H 8H 7H",
    ];
    const N2_KITTY: &str = "6C 6D 6H 5H LJ BJ";

    #[test]
    fn l6_a_null_set_by_one_trick() {
        let mut g = dealt(N2, N2_KITTY);
        declare(&mut g, "null");
        act(&mut g, 0, "half");
        discard(&mut g, 0, "6C 6D 6H");
        passes(&mut g, &[0, 1, 2, 3]);
        play(&mut g, &["AS AC TC"]);
        assert_eq!(g.won[0], 1);
        play_out(&mut g);
        // Set: −(5 + 2) (half, middle).
        assert_eq!(points(&g), [-7, 0]);
        assert_eq!(g.hand_results()[0].made[0], Some(false));
    }

    #[test]
    fn l6_an_open_null_set_high_section() {
        let mut g = dealt(N2, N2_KITTY);
        declare(&mut g, "open-null");
        act(&mut g, 0, "without");
        passes(&mut g, &[0, 1, 2, 3]);
        play(&mut g, &["AS AC TC"]);
        let hand0 = g.hands[0];
        assert_eq!(g.observe(seat(2)).players[0].known, hand0);
        play_out(&mut g);
        // Set: −(10 + 5) (without, high).
        assert_eq!(points(&g), [-15, 0]);
    }

    #[test]
    fn l6_jokers_at_notrump_follow_nothing_and_never_win() {
        let hands = [
            "BJ 2H AS KS QS JS TS 9S 8S 7S 6S 5S",
            "LJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
            A[2],
            A[3],
        ];
        let mut g = dealt(hands, "4S 3S 2S 3H 2D 2C");
        declare(&mut g, "bid 8NT");
        act(&mut g, 0, "without");
        passes(&mut g, &[0, 1, 2, 3]);
        // A joker is led only from a hand that holds nothing else.
        assert!(
            !g.legal_actions(seat(0))
                .contains(&Action::Play(Card::BIG_JOKER))
        );
        assert!(matches!(
            g.check(seat(0), Action::Play(Card::BIG_JOKER)),
            Err(IllegalReason::Rule { id: "L6", .. })
        ));
        act(&mut g, 0, "2H");
        // It may not be played by a hand that can follow.
        assert_eq!(
            g.check(seat(1), Action::Play(Card::LITTLE_JOKER)),
            Err(IllegalReason::MustFollow(Suit::Hearts))
        );
        play(&mut g, &["AH 3D 3C"]);
        assert_eq!(g.tricks[0].1, seat(1));
        // Played by a hand that cannot follow, it never wins.
        play(&mut g, &["KH 4D 4C"]);
        assert!(
            g.legal_actions(seat(0))
                .contains(&Action::Play(Card::BIG_JOKER))
        );
        act(&mut g, 0, "BJ");
        assert_eq!(g.tricks[1].1, seat(1));
        // The little joker cannot be led either while seat 1 holds hearts.
        assert!(
            !g.legal_actions(seat(1))
                .contains(&Action::Play(Card::LITTLE_JOKER))
        );
    }

    #[test]
    fn l6_trump_jokers_are_the_two_top_trumps_and_follow_as_trumps() {
        let rules = Illustrated::trick_rules(Contract::Numbered {
            tricks: 8,
            strain: Strain::Suit(Suit::Hearts),
        });
        let winner = |text: &str| {
            let mut t = Trick::new();
            for (i, c) in text.split_whitespace().enumerate() {
                t.push(Player::Seat(seat(i)), card(c));
            }
            rules.winning_index(&t)
        };
        assert_eq!(winner("AH LJ 2H BJ"), 3);
        assert_eq!(winner("AS 2H KS LJ"), 3);
        assert_eq!(winner("LJ AH KH 2H"), 0);
        assert_eq!(rules.suit_of(Card::BIG_JOKER), Suit::Hearts as u8);
        let nt = Illustrated::trick_rules(Contract::Null);
        assert_eq!(nt.suit_of(Card::BIG_JOKER), suit_id::NONE);
    }

    // ----- L7: the sections -----

    /// L: seat 0 holds six top spades and six low hearts; seat 1 the high hearts.
    const L: [&str; 4] = [
        "AS KS QS JS TS 9S 2H 3H 4H 5H 6H 7H",
        "AH KH QH JH TH 9H 8H 2C 3C 4C 5C 6C",
        A[2],
        "8S 7S 6S 5S 4S 3S 2S AC KC QC JC TC",
    ];

    #[test]
    fn l7_a_low_contract_set() {
        let mut g = dealt(L, "9C 8C 7C BJ LJ 2D");
        declare(&mut g, "bid 9NT");
        act(&mut g, 0, "without");
        passes(&mut g, &[0, 1, 2, 3]);
        play(
            &mut g,
            &[
                "AS 2C AD 2S",
                "KS 3C 3D 3S",
                "QS 4C 4D 4S",
                "JS 5C 5D 5S",
                "TS 6C 6D 6S",
                "9S 8H 7D 7S",
                "2H AH KD 8S",
                "KH 8D AC 3H",
                "QH 9D KC 4H",
                "JH TD QC 5H",
                "TH JD JC 6H",
                "9H QD TC 7H",
            ],
        );
        assert_eq!(g.team_tricks(), [6, 6]);
        // Set: −(4 + 0); no feat (kings and aces are split).
        let b = g.breakdown().unwrap();
        assert!(!b.made);
        assert_eq!(b.feats, [[0; 6]; 2]);
        assert_eq!(points(&g), [-4, 0]);
    }

    /// M: seat 0 holds eleven hearts and the two of spades.
    const M: [&str; 4] = [
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 2S",
        "3S AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3H",
    ];

    #[test]
    fn l7_a_middle_contract_made() {
        let mut g = dealt(M, "2H 3D 2D 2C LJ BJ");
        declare(&mut g, "bid 11H");
        act(&mut g, 0, "without");
        passes(&mut g, &[0, 1, 2, 3]);
        play(
            &mut g,
            &[
                "AH 4D 3C 3H",
                "KH 5D 4C 4S",
                "QH 6D 5C 5S",
                "JH 7D 6C 6S",
                "TH 8D 7C 7S",
                "9H 9D 8C 8S",
                "8H TD 9C 9S",
                "7H JD TC TS",
                "6H QD JC JS",
                "5H KD QC QS",
                "4H AD KC KS",
                "2S 3S AC AS",
            ],
        );
        assert_eq!(g.team_tricks(), [11, 1]);
        // Made: 8 + 3 (without, middle) = 11; four kings 2 silent.
        let b = g.breakdown().unwrap();
        assert!(b.made);
        assert_eq!(b.hand, 11);
        assert_eq!(b.feats[0], [2, 0, 0, 0, 0, 0]);
        assert_eq!(points(&g), [13, 0]);
    }

    // ----- L8 -----

    #[test]
    fn l8_a_match_is_hands_deals_and_the_higher_team_total_wins() {
        assert_eq!(game(&[]).config().hands, 16);
        assert_eq!(game(&[]).options().to_string(), "hands=16");
        for bad in ["hands=0", "hands=unset", "hands=x", "target=3"] {
            assert!(
                Illustrated::new(&Options::parse(&[bad]).unwrap()).is_err(),
                "{bad}"
            );
        }
        let mut g = game(&["hands=3"]);
        let seed = Seed::from_u64(9);
        let mut rng = Shuffler::new(seed);
        while !g.is_over() {
            if deal_if_needed(&mut g, seed).unwrap() {
                continue;
            }
            kind_first(&mut g, &mut rng);
        }
        let results = g.hand_results();
        assert_eq!(results.len(), 3);
        assert_eq!(
            results.iter().map(|r| r.dealer.index()).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        let m = g.result().unwrap();
        let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
        assert_eq!(m.totals, [sum(0), sum(1), sum(0), sum(1)]);
        assert_eq!(m.teams, [0, 1, 0, 1]);
        assert_eq!(m.ranks[0], m.ranks[2]);
        assert_eq!(g.observe(seat(1)).players[3].total, sum(1));
    }

    // ----- the engine contract -----

    /// Random play choosing a kind of action first, then an action of it.
    fn kind_first(g: &mut Illustrated, rng: &mut Shuffler) -> (Seat, Action) {
        let s = g.to_act().first().unwrap();
        let legal = g.legal_actions(s);
        let mut kinds: Vec<ActionKind> = legal.iter().map(|a| a.kind()).collect();
        kinds.dedup();
        let kind = kinds[rng.below(kinds.len() as u32) as usize];
        let of_kind: Vec<Action> = legal.iter().copied().filter(|a| a.kind() == kind).collect();
        let a = of_kind[rng.below(of_kind.len() as u32) as usize];
        g.apply(s, a).unwrap();
        (s, a)
    }

    #[test]
    fn random_play_reaches_every_contract_exchange_and_call() {
        let mut seen: std::collections::BTreeSet<String> = Default::default();
        let mut g = game(&["hands=400"]);
        let seed = Seed::from_u64(4);
        let mut rng = Shuffler::new(seed);
        let log_buffer = g.core.log.as_ptr();
        while !g.is_over() {
            if deal_if_needed(&mut g, seed).unwrap() {
                continue;
            }
            let (_, a) = kind_first(&mut g, &mut rng);
            let key = match a {
                Action::Exchange(e) => format!("exchange {}", e.name()),
                Action::Double(Target::Game) | Action::Redouble(Target::Game) => a.to_string(),
                Action::Double(_) => "double feat".into(),
                Action::Redouble(_) => "redouble feat".into(),
                Action::Announce(_) => "announce".into(),
                _ => continue,
            };
            seen.insert(key);
            if let Some(c) = g.contract {
                seen.insert(match c {
                    Contract::Numbered {
                        strain: Strain::NoTrump,
                        ..
                    } => "notrump".into(),
                    Contract::Numbered { .. } => "trump".into(),
                    other => other.to_string(),
                });
            }
        }
        assert_eq!(g.core.log.as_ptr(), log_buffer, "the log never reallocated");
        assert_eq!(
            seen.into_iter().collect::<Vec<_>>(),
            [
                "announce",
                "double feat",
                "double game",
                "exchange against",
                "exchange half",
                "exchange whole",
                "exchange without",
                "notrump",
                "null",
                "open-null",
                "redouble feat",
                "redouble game",
                "trump"
            ]
        );
    }

    #[test]
    fn results_add_up_and_every_hand_has_twelve_tricks() {
        let mut g = game(&["hands=200"]);
        let seed = Seed::from_u64(5);
        let mut rng = Shuffler::new(seed);
        while !g.is_over() {
            if deal_if_needed(&mut g, seed).unwrap() {
                continue;
            }
            kind_first(&mut g, &mut rng);
            if g.status() != Status::Act && !g.hand_results().last().unwrap().misdeal {
                assert_eq!(g.tricks.len(), TRICKS);
                let active = g.active();
                assert!(g.tricks.iter().all(|(t, _)| t.len() == active));
                let b = g.breakdown().unwrap();
                assert_eq!(g.hand_results().last().unwrap().points[0], b.points[0]);
            }
        }
        let results = g.hand_results();
        let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
        assert_eq!(g.result().unwrap().totals, [sum(0), sum(1), sum(0), sum(1)]);
    }

    #[test]
    fn parse_errors_differ_from_illegal_actions() {
        let g = dealt(A, A_KITTY);
        for text in ["give 2C", "bid 5", "declare", "null 3 double"] {
            assert!(g.parse_action(text).is_err(), "{text}");
        }
        assert!(matches!(
            g.resolve(seat(0), "whole"),
            Err(ActionError::Illegal(IllegalAction {
                reason: IllegalReason::WrongPhase,
                ..
            }))
        ));
        assert!(matches!(
            g.resolve(seat(1), "pass"),
            Err(ActionError::Illegal(IllegalAction {
                reason: IllegalReason::NotYourTurn { .. },
                ..
            }))
        ));
    }

    #[test]
    fn registered_as_a_variant() {
        let mut g = Variant::Illustrated.new_game(&Options::new()).unwrap();
        assert_eq!(
            "illustrated".parse::<Variant>().unwrap(),
            Variant::Illustrated
        );
        assert_eq!(g.seats(), 4);
        assert_eq!(g.teams(), [0, 1, 0, 1]);
        deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
        assert_eq!(g.observe(seat(0)).game, Variant::Illustrated);
        assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    }
}
