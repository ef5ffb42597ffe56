//! [`Variant`] (which game) and [`AnyGame`] (a game chosen at run time).
//!
//! Code outside `games/` never names a concrete game type: it builds an
//! [`AnyGame`] from a [`Variant`] and options, and drives it through [`Game`].

use std::{fmt, str::FromStr};

use crate::{
    action::{Action, ActionKind, ActionList},
    card::Card,
    card_set::CardSet,
    context::{ContextError, HandContext},
    error::{IllegalReason, OptionError},
    game::Game,
    games::{
        honeymoon::Honeymoon, illustrated::Illustrated, israeli::Israeli, oneonta::Oneonta,
        yogi::Yogi,
    },
    options::{OptionSpec, Options},
    outcome::{MatchResult, ScoreOrder},
    seat::{Seat, SeatSet},
    view::{Observation, Phase},
};

/// The games the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Variant {
    /// Israeli Whist (RULES.md section 3).
    Israeli,
    /// Honeymoon Whist (RULES.md section 4).
    Honeymoon,
    /// Illustrated Whist (RULES.md section 5).
    Illustrated,
    /// Yogi's Whist (RULES.md section 1).
    Yogi,
    /// Oneonta Whist (RULES.md section 2).
    Oneonta,
}

impl Variant {
    /// Every game, in the order `whistle games` lists them.
    pub const ALL: [Variant; 5] = [
        Variant::Israeli,
        Variant::Honeymoon,
        Variant::Illustrated,
        Variant::Yogi,
        Variant::Oneonta,
    ];

    /// The game's canonical name (e.g. `israeli`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Israeli => "israeli",
            Variant::Honeymoon => "honeymoon",
            Variant::Illustrated => "illustrated",
            Variant::Yogi => "yogi",
            Variant::Oneonta => "oneonta",
        }
    }

    /// One line describing the game.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Israeli => "Israeli Whist: 4 players, trump auction, exact contract bids",
            Variant::Honeymoon => {
                "Honeymoon Whist: 2 players, 54 cards, 14 tricks drawing from a stock, then 13"
            }
            Variant::Illustrated => {
                "Illustrated Whist: 4 players in partnerships, auction, kitty, announced feats"
            }
            Variant::Yogi => {
                "Yogi's Whist: 2-13 players, a bid card face down, declare or reveal, fines (lowest wins)"
            }
            Variant::Oneonta => {
                "Oneonta Whist: solitaire against a dummy, or 2-7 players competitive or cooperative"
            }
        }
    }

    /// The options the game accepts, with defaults.
    pub fn option_specs(self) -> &'static [OptionSpec] {
        match self {
            Variant::Israeli => crate::games::israeli::OPTIONS,
            Variant::Honeymoon => crate::games::honeymoon::OPTIONS,
            Variant::Illustrated => crate::games::illustrated::OPTIONS,
            Variant::Yogi => crate::games::yogi::OPTIONS,
            Variant::Oneonta => crate::games::oneonta::OPTIONS,
        }
    }

    /// A new match of this game under `options`.
    ///
    /// # Errors
    /// [`OptionError`] for an unknown option or a bad value.
    pub fn new_game(self, options: &Options) -> Result<AnyGame, OptionError> {
        Ok(match self {
            Variant::Israeli => AnyGame::Israeli(Israeli::new(options)?),
            Variant::Honeymoon => AnyGame::Honeymoon(Honeymoon::new(options)?),
            Variant::Illustrated => AnyGame::Illustrated(Illustrated::new(options)?),
            Variant::Yogi => AnyGame::Yogi(Yogi::new(options)?),
            Variant::Oneonta => AnyGame::Oneonta(Oneonta::new(options)?),
        })
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = OptionError;

    fn from_str(s: &str) -> Result<Variant, OptionError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| OptionError::UnknownGame(s.to_string()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Any game, chosen at run time; implements [`Game`] by delegation.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    /// Israeli Whist.
    Israeli(Israeli),
    /// Honeymoon Whist.
    Honeymoon(Honeymoon),
    /// Illustrated Whist.
    Illustrated(Illustrated),
    /// Yogi's Whist.
    Yogi(Yogi),
    /// Oneonta Whist.
    Oneonta(Oneonta),
}

macro_rules! delegate {
    ($self:ident, $g:ident => $e:expr) => {
        match $self {
            AnyGame::Israeli($g) => $e,
            AnyGame::Honeymoon($g) => $e,
            AnyGame::Illustrated($g) => $e,
            AnyGame::Yogi($g) => $e,
            AnyGame::Oneonta($g) => $e,
        }
    };
}

impl Game for AnyGame {
    fn phase(&self) -> Phase {
        delegate!(self, g => g.phase())
    }
    fn to_act(&self) -> SeatSet {
        delegate!(self, g => g.to_act())
    }
    fn simultaneous(&self) -> bool {
        delegate!(self, g => g.simultaneous())
    }
    fn legal_actions_into(&self, seat: Seat, out: &mut ActionList) {
        delegate!(self, g => g.legal_actions_into(seat, out))
    }
    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        delegate!(self, g => g.check(seat, action))
    }
    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        delegate!(self, g => g.apply_unchecked(seat, action))
    }
    fn deck(&self) -> CardSet {
        delegate!(self, g => g.deck())
    }
    fn deal_unchecked(&mut self, order: &[Card]) {
        delegate!(self, g => g.deal_unchecked(order))
    }
    fn observe(&self, seat: Seat) -> Observation {
        delegate!(self, g => g.observe(seat))
    }
    fn core(&self) -> &crate::games::MatchCore {
        delegate!(self, g => g.core())
    }
    fn result(&self) -> Option<MatchResult> {
        delegate!(self, g => g.result())
    }
    fn accepts(&self, kind: ActionKind) -> bool {
        delegate!(self, g => g.accepts(kind))
    }
    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        delegate!(self, g => g.start_at_unchecked(ctx))
    }
    fn teams(&self) -> Vec<u8> {
        delegate!(self, g => g.teams())
    }
    fn score_order(&self) -> ScoreOrder {
        delegate!(self, g => g.score_order())
    }
}
