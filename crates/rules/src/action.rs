//! [`Action`]: one atomic decision, and its canonical text notation.
//!
//! Every decision in every game is one value of [`Action`]. Its `Display` is the
//! canonical text used by logs, the command line and the wire protocol alike;
//! [`Action::from_str`](std::str::FromStr) parses it back (case-insensitive,
//! surrounding whitespace ignored). The notation is documented per game in
//! `docs/notation.md`.
//!
//! Parsing is syntax only: `"bid 7D"` parses in every game, but only games whose
//! vocabulary holds a trump bid accept it (see `Game::parse_action`), and only
//! the game state decides whether it is legal now.

use std::{fmt, str::FromStr};

use arrayvec::ArrayVec;

use crate::{
    card::{Card, Suit},
    seat::{MAX_SEATS, Seat},
};

/// The most legal actions any decision here can have (an Israeli auction with
/// 9 × 5 bids and a pass is the largest: 46).
pub const MAX_ACTIONS: usize = 64;

/// A list of actions on the stack; legal-action generation never allocates.
pub type ActionList = ArrayVec<Action, MAX_ACTIONS>;

/// What a numbered bid names: a trump suit or no trump.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strain {
    /// A trump suit.
    Suit(Suit),
    /// No trump (`NT`).
    NoTrump,
}

impl Strain {
    /// Rank in the order `C < D < H < S < NT` (0..=4).
    pub const fn order(self) -> u8 {
        match self {
            Strain::Suit(s) => s as u8,
            Strain::NoTrump => 4,
        }
    }

    /// All five strains, `C D H S NT`.
    pub const ALL: [Strain; 5] = [
        Strain::Suit(Suit::Clubs),
        Strain::Suit(Suit::Diamonds),
        Strain::Suit(Suit::Hearts),
        Strain::Suit(Suit::Spades),
        Strain::NoTrump,
    ];

    /// The trump suit, if any.
    pub const fn suit(self) -> Option<Suit> {
        match self {
            Strain::Suit(s) => Some(s),
            Strain::NoTrump => None,
        }
    }
}

impl fmt::Display for Strain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strain::Suit(s) => write!(f, "{s}"),
            Strain::NoTrump => f.write_str("NT"),
        }
    }
}

/// Illustrated Whist's feats (L5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feat {
    /// `four-kings`
    FourKings,
    /// `four-aces`
    FourAces,
    /// `dix-last`
    DixLast,
    /// `all-three`
    AllThree,
    /// `joker-catch`
    JokerCatch,
    /// `slam`
    Slam,
}

impl Feat {
    /// All six feats in the order of the L5 table.
    pub const ALL: [Feat; 6] = [
        Feat::FourKings,
        Feat::FourAces,
        Feat::DixLast,
        Feat::AllThree,
        Feat::JokerCatch,
        Feat::Slam,
    ];

    /// The feat's canonical name.
    pub const fn name(self) -> &'static str {
        match self {
            Feat::FourKings => "four-kings",
            Feat::FourAces => "four-aces",
            Feat::DixLast => "dix-last",
            Feat::AllThree => "all-three",
            Feat::JokerCatch => "joker-catch",
            Feat::Slam => "slam",
        }
    }

    fn from_name(s: &str) -> Option<Feat> {
        Feat::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// What a double or redouble applies to (Illustrated Whist, L4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// The game (the contract's hand score): `game`.
    Game,
    /// An announced feat.
    Feat(Feat),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Game => f.write_str("game"),
            Target::Feat(feat) => f.write_str(feat.name()),
        }
    }
}

/// Illustrated Whist's exchange choices (L3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exchange {
    /// Take all six kitty cards, discard six: `whole`.
    Whole,
    /// Take the first three, discard three: `half`.
    Half,
    /// No exchange: `without`.
    Without,
    /// The opponents see the kitty; the one at the declarer's left exchanges: `against`.
    Against,
}

impl Exchange {
    /// All four choices.
    pub const ALL: [Exchange; 4] = [
        Exchange::Whole,
        Exchange::Half,
        Exchange::Without,
        Exchange::Against,
    ];

    /// The canonical word.
    pub const fn name(self) -> &'static str {
        match self {
            Exchange::Whole => "whole",
            Exchange::Half => "half",
            Exchange::Without => "without",
            Exchange::Against => "against",
        }
    }
}

/// One atomic decision. `Copy`, three bytes.
///
/// | variant | text | used by |
/// |---|---|---|
/// | `Play(c)` | `AS`, `BJ` | every game: play a card to a trick |
/// | `Pass` | `pass` | auctions and announcements |
/// | `Contract{..}` | `bid 7D`, `bid 8NT` | Israeli trump auction, Illustrated numbered bids |
/// | `Bid(n)` | `bid 5` | Israeli contract bid, Oneonta positive bid |
/// | `Null(r)` | `null 3`; `null` when r = 0 | Oneonta null with risk r; Edd Allard null; Illustrated null |
/// | `OpenNull` | `open-null` | Illustrated |
/// | `DoubleBid(n)` | `bid 9 double` | Oneonta doubling (O7) |
/// | `DoubleNull(r)` | `null 9 double` | Oneonta doubling (O7) |
/// | `Give(c)` | `give 3C` | Israeli frisch: pass a card left face down |
/// | `Place(c)` | `place 4S` | Yogi's bid card, face down |
/// | `Discard(c)` | `discard 3C` | Illustrated exchange |
/// | `Declare`, `Reveal`, `No` | `declare`, `reveal`, `no` | Yogi's declare round |
/// | `Leader(s)` | `lead 2` | Yogi's revealer names the leader |
/// | `HandSize(h)` | `size 4` | Yogi's `dealer-chooses` |
/// | `Count(b)` | `count 2` | Yogi's `dealer-chooses`: number of bid cards |
/// | `Vote(y)` | `vote yes`, `vote no` | Yogi's `rotate-vote` |
/// | `Exchange(e)` | `whole`, `half`, `without`, `against` | Illustrated |
/// | `Announce(f)` | `announce four-kings` | Illustrated |
/// | `Double(t)` | `double game`, `double slam` | Illustrated |
/// | `Redouble(t)` | `redouble game` | Illustrated |
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Play a card to the current trick.
    Play(Card),
    /// Pass in an auction or an announcement round.
    Pass,
    /// A numbered bid naming a strain.
    Contract {
        /// Number of tricks.
        tricks: u8,
        /// Trump suit or no trump.
        strain: Strain,
    },
    /// A bid of exactly this many tricks.
    Bid(u8),
    /// A null bid risking `r` points (`r` = 0: a null with no risk number).
    Null(u8),
    /// Illustrated's open null.
    OpenNull,
    /// Oneonta: a maximum positive bid, doubled.
    DoubleBid(u8),
    /// Oneonta: a maximum-risk null, doubled.
    DoubleNull(u8),
    /// Pass a card face down to the seat on the left.
    Give(Card),
    /// Place a bid card face down.
    Place(Card),
    /// Discard a card face down out of play.
    Discard(Card),
    /// Yogi's: declare.
    Declare,
    /// Yogi's: reveal.
    Reveal,
    /// Yogi's: neither declare nor reveal.
    No,
    /// Yogi's: the revealer names the leader of the first trick.
    Leader(Seat),
    /// Yogi's `dealer-chooses`: cards per hand.
    HandSize(u8),
    /// Yogi's `dealer-chooses`: number of bid cards.
    Count(u8),
    /// Yogi's `rotate-vote`.
    Vote(bool),
    /// Illustrated exchange choice.
    Exchange(Exchange),
    /// Illustrated: announce a feat for one's team.
    Announce(Feat),
    /// Illustrated: double the game or an opponent's feat.
    Double(Target),
    /// Illustrated: redouble a double made against one's team.
    Redouble(Target),
}

impl Action {
    /// The card this action names, if any (played, given, placed or discarded).
    pub const fn card(self) -> Option<Card> {
        match self {
            Action::Play(c) | Action::Give(c) | Action::Place(c) | Action::Discard(c) => Some(c),
            _ => None,
        }
    }

    /// The same action naming `card` instead (used to remap hidden cards in tests
    /// and what-if replays). Actions without a card are returned unchanged.
    pub const fn with_card(self, card: Card) -> Action {
        match self {
            Action::Play(_) => Action::Play(card),
            Action::Give(_) => Action::Give(card),
            Action::Place(_) => Action::Place(card),
            Action::Discard(_) => Action::Discard(card),
            other => other,
        }
    }

    /// The kind of action, for vocabularies and error messages.
    pub const fn kind(self) -> ActionKind {
        match self {
            Action::Play(_) => ActionKind::Play,
            Action::Pass => ActionKind::Pass,
            Action::Contract { .. } => ActionKind::Contract,
            Action::Bid(_) => ActionKind::Bid,
            Action::Null(_) => ActionKind::Null,
            Action::OpenNull => ActionKind::OpenNull,
            Action::DoubleBid(_) => ActionKind::DoubleBid,
            Action::DoubleNull(_) => ActionKind::DoubleNull,
            Action::Give(_) => ActionKind::Give,
            Action::Place(_) => ActionKind::Place,
            Action::Discard(_) => ActionKind::Discard,
            Action::Declare => ActionKind::Declare,
            Action::Reveal => ActionKind::Reveal,
            Action::No => ActionKind::No,
            Action::Leader(_) => ActionKind::Leader,
            Action::HandSize(_) => ActionKind::HandSize,
            Action::Count(_) => ActionKind::Count,
            Action::Vote(_) => ActionKind::Vote,
            Action::Exchange(_) => ActionKind::Exchange,
            Action::Announce(_) => ActionKind::Announce,
            Action::Double(_) => ActionKind::Double,
            Action::Redouble(_) => ActionKind::Redouble,
        }
    }
}

/// The kinds of [`Action`], without their payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[allow(missing_docs)]
pub enum ActionKind {
    Play,
    Pass,
    Contract,
    Bid,
    Null,
    OpenNull,
    DoubleBid,
    DoubleNull,
    Give,
    Place,
    Discard,
    Declare,
    Reveal,
    No,
    Leader,
    HandSize,
    Count,
    Vote,
    Exchange,
    Announce,
    Double,
    Redouble,
}

impl ActionKind {
    /// Every kind.
    pub const ALL: [ActionKind; 22] = [
        ActionKind::Play,
        ActionKind::Pass,
        ActionKind::Contract,
        ActionKind::Bid,
        ActionKind::Null,
        ActionKind::OpenNull,
        ActionKind::DoubleBid,
        ActionKind::DoubleNull,
        ActionKind::Give,
        ActionKind::Place,
        ActionKind::Discard,
        ActionKind::Declare,
        ActionKind::Reveal,
        ActionKind::No,
        ActionKind::Leader,
        ActionKind::HandSize,
        ActionKind::Count,
        ActionKind::Vote,
        ActionKind::Exchange,
        ActionKind::Announce,
        ActionKind::Double,
        ActionKind::Redouble,
    ];

    /// The kind's name in kebab case (`play`, `double-bid`, ...), as on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            ActionKind::Play => "play",
            ActionKind::Pass => "pass",
            ActionKind::Contract => "contract",
            ActionKind::Bid => "bid",
            ActionKind::Null => "null",
            ActionKind::OpenNull => "open-null",
            ActionKind::DoubleBid => "double-bid",
            ActionKind::DoubleNull => "double-null",
            ActionKind::Give => "give",
            ActionKind::Place => "place",
            ActionKind::Discard => "discard",
            ActionKind::Declare => "declare",
            ActionKind::Reveal => "reveal",
            ActionKind::No => "no",
            ActionKind::Leader => "leader",
            ActionKind::HandSize => "hand-size",
            ActionKind::Count => "count",
            ActionKind::Vote => "vote",
            ActionKind::Exchange => "exchange",
            ActionKind::Announce => "announce",
            ActionKind::Double => "double",
            ActionKind::Redouble => "redouble",
        }
    }

    /// The kind with this name.
    pub fn from_name(s: &str) -> Option<ActionKind> {
        ActionKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Play(c) => f.write_str(c.text()),
            Action::Pass => f.write_str("pass"),
            Action::Contract { tricks, strain } => write!(f, "bid {tricks}{strain}"),
            Action::Bid(n) => write!(f, "bid {n}"),
            Action::Null(0) => f.write_str("null"),
            Action::Null(r) => write!(f, "null {r}"),
            Action::OpenNull => f.write_str("open-null"),
            Action::DoubleBid(n) => write!(f, "bid {n} double"),
            Action::DoubleNull(r) => write!(f, "null {r} double"),
            Action::Give(c) => write!(f, "give {c}"),
            Action::Place(c) => write!(f, "place {c}"),
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Declare => f.write_str("declare"),
            Action::Reveal => f.write_str("reveal"),
            Action::No => f.write_str("no"),
            Action::Leader(s) => write!(f, "lead {s}"),
            Action::HandSize(h) => write!(f, "size {h}"),
            Action::Count(b) => write!(f, "count {b}"),
            Action::Vote(true) => f.write_str("vote yes"),
            Action::Vote(false) => f.write_str("vote no"),
            Action::Exchange(e) => f.write_str(e.name()),
            Action::Announce(feat) => write!(f, "announce {}", feat.name()),
            Action::Double(t) => write!(f, "double {t}"),
            Action::Redouble(t) => write!(f, "redouble {t}"),
        }
    }
}

/// Text that is not an action in the notation (a syntax error, as opposed to
/// an illegal action).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseActionError {
    /// The text as given.
    pub text: String,
    /// Why it does not parse.
    pub reason: String,
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot parse action `{}`: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseActionError {}

fn parse_small(word: &str) -> Option<u8> {
    if word.is_empty() || word.len() > 2 || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        let err = |reason: &str| ParseActionError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let text_trimmed = text.trim();
        // The common case, a card played, without allocating.
        if text_trimmed.len() <= 3
            && let Ok(c) = text_trimmed.parse::<Card>()
        {
            return Ok(Action::Play(c));
        }
        // Lower case on the stack for short texts (every action's text is).
        let mut buf = [0u8; 32];
        let owned;
        let lower: &str = if text_trimmed.len() <= buf.len() {
            let b = &mut buf[..text_trimmed.len()];
            b.copy_from_slice(text_trimmed.as_bytes());
            b.make_ascii_lowercase();
            std::str::from_utf8(b).expect("ASCII case changes keep UTF-8 valid")
        } else {
            owned = text_trimmed.to_ascii_lowercase();
            &owned
        };
        let mut words: arrayvec::ArrayVec<&str, 4> = arrayvec::ArrayVec::new();
        for w in lower.split_whitespace() {
            if words.try_push(w).is_err() {
                return Err(err("not a card, bid or keyword"));
            }
        }
        let number = |w: &str| parse_small(w).ok_or_else(|| err("expected a number"));
        let card = |w: &str| w.parse::<Card>().map_err(|e| err(&e.to_string()));
        let target = |w: &str| match w {
            "game" => Ok(Target::Game),
            _ => Feat::from_name(w)
                .map(Target::Feat)
                .ok_or_else(|| err("expected `game` or a feat name")),
        };
        let action = match words.as_slice() {
            [] => return Err(err("empty text")),
            ["pass"] => Action::Pass,
            ["null"] => Action::Null(0),
            ["open-null"] => Action::OpenNull,
            ["declare"] => Action::Declare,
            ["reveal"] => Action::Reveal,
            ["no"] => Action::No,
            ["vote", "yes"] => Action::Vote(true),
            ["vote", "no"] => Action::Vote(false),
            ["bid", n] => match parse_small(n) {
                Some(n) => Action::Bid(n),
                None => parse_contract(n)
                    .ok_or_else(|| err("expected a number, or a number and a strain like `7D`"))?,
            },
            ["bid", n, "double"] => Action::DoubleBid(number(n)?),
            ["null", r] => Action::Null(number(r)?),
            ["null", r, "double"] => Action::DoubleNull(number(r)?),
            ["give", c] => Action::Give(card(c)?),
            ["place", c] => Action::Place(card(c)?),
            ["discard", c] => Action::Discard(card(c)?),
            ["play", c] => Action::Play(card(c)?),
            ["lead", s] => {
                let i = number(s)?;
                if i as usize >= MAX_SEATS {
                    return Err(err("no such seat"));
                }
                Action::Leader(Seat::new(i as usize))
            }
            ["size", h] => Action::HandSize(number(h)?),
            ["count", b] => Action::Count(number(b)?),
            ["announce", f] => {
                Action::Announce(Feat::from_name(f).ok_or_else(|| err("expected a feat name"))?)
            }
            ["double", t] => Action::Double(target(t)?),
            ["redouble", t] => Action::Redouble(target(t)?),
            [w] => {
                if let Some(e) = Exchange::ALL.into_iter().find(|e| e.name() == *w) {
                    Action::Exchange(e)
                } else if let Ok(c) = w.parse::<Card>() {
                    Action::Play(c)
                } else {
                    return Err(err("not a card, bid or keyword"));
                }
            }
            _ => return Err(err("not a card, bid or keyword")),
        };
        Ok(action)
    }
}

fn parse_contract(w: &str) -> Option<Action> {
    let split = w.find(|c: char| !c.is_ascii_digit())?;
    let (n, strain) = w.split_at(split);
    let tricks = parse_small(n)?;
    let strain = match strain {
        "nt" => Strain::NoTrump,
        s if s.len() == 1 => Strain::Suit(Suit::from_char(s.chars().next()?)?),
        _ => return None,
    };
    Some(Action::Contract { tricks, strain })
}

#[cfg(feature = "serde")]
impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            // Most actions of a log: no formatting machinery for them.
            Action::Play(c) => s.serialize_str(c.text()),
            a => s.collect_str(a),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        d.deserialize_str(crate::card::FromText::<Action>::new(
            "an action in canonical text, such as `AS`, `pass` or `bid 7H`",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Rank;

    fn every_shape() -> Vec<Action> {
        let c = Card::new(Rank::Ten, Suit::Clubs);
        let mut v = vec![
            Action::Play(c),
            Action::Play(Card::BIG_JOKER),
            Action::Pass,
            Action::Bid(0),
            Action::Bid(13),
            Action::Null(0),
            Action::Null(9),
            Action::OpenNull,
            Action::DoubleBid(9),
            Action::DoubleNull(7),
            Action::Give(c),
            Action::Place(Card::LITTLE_JOKER),
            Action::Discard(c),
            Action::Declare,
            Action::Reveal,
            Action::No,
            Action::Leader(Seat::new(12)),
            Action::HandSize(26),
            Action::Count(3),
            Action::Vote(true),
            Action::Vote(false),
            Action::Double(Target::Game),
            Action::Redouble(Target::Feat(Feat::JokerCatch)),
        ];
        for strain in Strain::ALL {
            v.push(Action::Contract { tricks: 12, strain });
        }
        v.extend(Exchange::ALL.map(Action::Exchange));
        v.extend(Feat::ALL.map(Action::Announce));
        v.extend(Feat::ALL.map(|f| Action::Double(Target::Feat(f))));
        v
    }

    #[test]
    fn every_action_round_trips_through_its_text() {
        for a in every_shape() {
            let text = a.to_string();
            assert_eq!(text.parse::<Action>(), Ok(a), "{text}");
            assert_eq!(text.to_uppercase().parse::<Action>(), Ok(a), "{text}");
        }
    }

    #[test]
    fn garbage_is_a_parse_error() {
        for bad in [
            "", "  ", "bid", "bid x", "bid 123", "7X", "lead 13", "give", "XX", "bid 5 6",
            "bid 7X", "bid 7DD",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn cards_and_keywords_parse_in_any_case_and_length() {
        let play = |t: &str| t.parse::<Action>();
        let ten = Card::new(crate::Rank::Ten, Suit::Spades);
        for t in ["TS", "ts", " 10s ", "10S", "play ts", "PLAY 10S"] {
            assert_eq!(play(t), Ok(Action::Play(ten)), "{t:?}");
        }
        assert_eq!(play("bj"), Ok(Action::Play(Card::BIG_JOKER)));
        assert_eq!(play("Lj"), Ok(Action::Play(Card::LITTLE_JOKER)));
        assert_eq!(play("No"), Ok(Action::No));
        assert_eq!(
            play("BID 7nt"),
            Ok(Action::Contract {
                tricks: 7,
                strain: Strain::NoTrump
            })
        );
        // Longer than the stack buffer, and more words than any action has.
        let long = format!("{}pass", " ".repeat(40));
        assert_eq!(play(&long), Ok(Action::Pass));
        assert!(play("bid 5 double now please").is_err());
        assert!(play(&"x".repeat(100)).is_err());
        for bad in ["1", "100S", "1S", "AÄ", "ÄS", "SS"] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn actions_are_small() {
        assert!(std::mem::size_of::<Action>() <= 3);
    }
}
