//! The contracts of Illustrated Whist: the twelve bids by base value and
//! section (L2), the difficulty bonus of each exchange (L3) and the value of
//! each feat (L5).

use std::fmt;

use super::*;

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

pub(super) const fn numbered(tricks: u8, strain: Strain) -> Contract {
    Contract::Numbered { tricks, strain }
}

pub(super) const CL: Strain = Strain::Suit(Suit::Clubs);
pub(super) const DI: Strain = Strain::Suit(Suit::Diamonds);
pub(super) const HE: Strain = Strain::Suit(Suit::Hearts);
pub(super) const SP: Strain = Strain::Suit(Suit::Spades);
pub(super) const NT: Strain = Strain::NoTrump;

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
