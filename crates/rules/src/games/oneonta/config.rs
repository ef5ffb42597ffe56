//! The options of Oneonta Whist: its forms (`mode`), scorings, decks and
//! the resolved configuration.

use super::*;

/// The options of Oneonta Whist.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "mode",
        default: "solitaire",
        values: "solitaire|multi|coop|coop-dummy",
        doc: "O1-O17: solitaire against a dummy, competitive, cooperative, cooperative with a dummy",
    },
    OptionSpec {
        key: "players",
        default: "auto",
        values: "auto, 1 (solitaire), 2..=7 (multi, coop), 2..=6 (coop-dummy)",
        doc: "O11, O17: seats; auto = 1 (solitaire), 4 (multi, coop), 3 (coop-dummy)",
    },
    OptionSpec {
        key: "scoring",
        default: "standard",
        values: "standard|alternative|edd-allard",
        doc: "O6, O8, O9: overtricks cost 1 each (standard) or score 0 (alternative); edd-allard is solitaire only",
    },
    OptionSpec {
        key: "doubling",
        default: "false",
        values: "true|false",
        doc: "O7: a maximum bid or a maximum-risk null may be doubled once per hand (+/-14)",
    },
    OptionSpec {
        key: "hands",
        default: "auto",
        values: "auto or 1..=10000",
        doc: "O10, O15-O17: hands in a match; auto = 9, in multi the cards per seat; edd-allard is always 9",
    },
    OptionSpec {
        key: "lead",
        default: "winner-leads",
        values: "winner-leads|fixed",
        doc: "O14: the winner of a trick leads the next, or (fixed) the first trick's leader leads them all",
    },
    OptionSpec {
        key: "playoff-hands",
        default: "3",
        values: "0..=100",
        doc: "O15: at most this many extra hands between seats tied for the lead (multi)",
    },
    OptionSpec {
        key: "team-score",
        default: "sum",
        values: "sum|lowest",
        doc: "O16, O17: the team scores the sum of the seats' scores, or the lowest one",
    },
];

/// Which form of the game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// O1–O10: one seat against a dummy.
    Solitaire,
    /// O11–O15: 2 to 7 players, each for itself.
    Multi,
    /// O16: 2 to 7 players as one team.
    Coop,
    /// O17: 2 to 6 players as one team, with a dummy leading every trick.
    CoopDummy,
}

impl Mode {
    /// Every mode, in the order of the option's values.
    pub const ALL: [Mode; 4] = [Mode::Solitaire, Mode::Multi, Mode::Coop, Mode::CoopDummy];

    /// The option value naming this mode.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Solitaire => "solitaire",
            Mode::Multi => "multi",
            Mode::Coop => "coop",
            Mode::CoopDummy => "coop-dummy",
        }
    }

    /// Whether a dummy hand played by the rules leads every trick (O5, O17).
    pub const fn has_dummy(self) -> bool {
        matches!(self, Mode::Solitaire | Mode::CoopDummy)
    }

    /// Whether every seat plays for one team (O16, O17).
    pub const fn cooperative(self) -> bool {
        matches!(self, Mode::Coop | Mode::CoopDummy)
    }

    /// The allowed numbers of players: lowest, highest and the default.
    pub const fn players(self) -> (u8, u8, u8) {
        match self {
            Mode::Solitaire => (1, 1, 1),
            Mode::Multi | Mode::Coop => (2, 7, 4),
            Mode::CoopDummy => (2, 6, 3),
        }
    }
}

/// How bids score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// O6: exact b scores b, each overtrick costs 1, a miss costs b.
    Standard,
    /// O8: as O6 but overtricks score 0.
    Alternative,
    /// O9: as O6 for positive bids; a null has no risk and scores +10 or −(10 + t).
    EddAllard,
}

impl Scoring {
    /// Every scoring, in the order of the option's values.
    pub const ALL: [Scoring; 3] = [Scoring::Standard, Scoring::Alternative, Scoring::EddAllard];

    /// The option value naming this scoring.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Alternative => "alternative",
            Scoring::EddAllard => "edd-allard",
        }
    }
}

/// O1, O11, O17: the deck and the cards per seat when `players` seats play a
/// hand in `mode` (in a play-off, the number of tied seats).
///
/// | players | solitaire | multi, coop | coop-dummy |
/// |---|---|---|---|
/// | 1 | T–A, 22, 9 each | | |
/// | 2 | | 8–A, 30, 9 each | 8–A, 30, 9 each (3 hands) |
/// | 3 | | T–A, 22, 7 each | 8–A, 30, 7 each (4 hands) |
/// | 4 | | 8–A, 30, 7 each | 6–A, 38, 7 each |
/// | 5 | | 6–A, 38, 7 each | 4–A, 46, 7 each |
/// | 6 | | 4–A, 46, 7 each | 2–A, 54, 7 each |
/// | 7 | | 2–A, 54, 7 each | |
///
/// Every deck holds both jokers.
pub fn deck_for(mode: Mode, players: usize) -> (CardSet, u8) {
    let lowest = match (mode, players) {
        (Mode::Solitaire, _) => Rank::Ten,
        (Mode::CoopDummy, 2 | 3) => Rank::Eight,
        (Mode::CoopDummy, 4) => Rank::Six,
        (Mode::CoopDummy, 5) => Rank::Four,
        (Mode::CoopDummy, _) => Rank::Two,
        (_, 2) => Rank::Eight,
        (_, 3) => Rank::Ten,
        (_, 4) => Rank::Eight,
        (_, 5) => Rank::Six,
        (_, 6) => Rank::Four,
        _ => Rank::Two,
    };
    let size = if players <= 2 { 9 } else { 7 };
    (decks::reduced(lowest), size)
}

/// Oneonta Whist's options, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Which form is played.
    pub mode: Mode,
    /// Number of seats.
    pub players: u8,
    /// O6, O8, O9.
    pub scoring: Scoring,
    /// O7.
    pub doubling: bool,
    /// Regular hands in a match (O9, O10, O15–O17).
    pub hands: u32,
    /// O14: the first trick's leader leads every trick (the text's literal words).
    pub fixed_lead: bool,
    /// O15: the most play-off hands.
    pub playoff_hands: u32,
    /// O16, O17: the team scores its lowest seat's score instead of the sum.
    pub team_lowest: bool,
}

pub(super) fn bad_value(key: &str, value: &str, expected: &str) -> OptionError {
    OptionError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

impl Config {
    /// Reads the options.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys, bad values, a player count outside the
    /// mode's range, or Edd Allard scoring outside solitaire.
    pub fn from_options(options: &Options) -> Result<Config, OptionError> {
        let r = OptionReader::new("oneonta", OPTIONS, options)?;
        let mode = Mode::ALL[r.choice("mode", &Mode::ALL.map(Mode::name))?];
        let (min, max, default) = mode.players();
        let players = match r.raw("players") {
            "auto" => default,
            value => match value.parse::<u8>() {
                Ok(n) if (min..=max).contains(&n) => n,
                _ => {
                    return Err(bad_value(
                        "players",
                        value,
                        &format!("auto or {min}..={max} with mode={}", mode.name()),
                    ));
                }
            },
        };
        let scoring = Scoring::ALL[r.choice("scoring", &Scoring::ALL.map(Scoring::name))?];
        if scoring == Scoring::EddAllard && mode != Mode::Solitaire {
            return Err(bad_value(
                "scoring",
                "edd-allard",
                "standard|alternative (edd-allard is for solitaire only, O9)",
            ));
        }
        let hands = if scoring == Scoring::EddAllard {
            // O9: exactly nine deals, whatever `hands` says.
            EDD_ALLARD_DEALS
        } else {
            match r.raw("hands") {
                "auto" => match mode {
                    Mode::Multi => u32::from(deck_for(mode, players as usize).1),
                    _ => 9,
                },
                value => match r.int("hands", 1, 10_000) {
                    Ok(Some(n)) => n as u32,
                    _ => return Err(bad_value("hands", value, "auto or 1..=10000")),
                },
            }
        };
        Ok(Config {
            mode,
            players,
            scoring,
            doubling: r.bool("doubling")?,
            hands,
            fixed_lead: r.choice("lead", &["winner-leads", "fixed"])? == 1,
            playoff_hands: r.int("playoff-hands", 0, 100)?.unwrap_or(3) as u32,
            team_lowest: r.choice("team-score", &["sum", "lowest"])? == 1,
        })
    }

    /// Every option with its effective value; reading them back gives the
    /// same config (`players` and `hands` are written out resolved).
    pub(super) fn to_options(self) -> Options {
        let mut o = Options::new();
        o.set("mode", self.mode.name());
        o.set("players", &self.players.to_string());
        o.set("scoring", self.scoring.name());
        o.set("doubling", &self.doubling.to_string());
        o.set("hands", &self.hands.to_string());
        o.set_either("lead", self.fixed_lead, "fixed", "winner-leads");
        o.set("playoff-hands", &self.playoff_hands.to_string());
        o.set(
            "team-score",
            if self.team_lowest { "lowest" } else { "sum" },
        );
        o
    }
}
