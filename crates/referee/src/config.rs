//! What a table is made of: the game, the seed, the seats, the clocks and the
//! fault policy.

use std::time::Duration;

use whistle_rules::{Action, Card, Options, Seat, Variant, dealing::Seed};

/// How the referee picks the action it plays for a seat that faulted (the
/// one fallback rule, beside `judge` in the rules crate).
pub use whistle_rules::Fallback;

/// Time allowed to each seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Time per decision before the bank is drawn on.
    pub per_action: Duration,
    /// Extra time for the whole match, drawn on when a decision takes longer
    /// than `per_action`.
    pub time_bank: Duration,
    /// How long a disconnected seat may take to reconnect before it forfeits.
    pub reconnect_grace: Duration,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl {
            per_action: Duration::from_secs(1),
            time_bank: Duration::from_secs(30),
            reconnect_grace: Duration::from_secs(10),
        }
    }
}

/// When a seat forfeits, and what is played for it after a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaultPolicy {
    /// The seat forfeits when its fault count reaches this number.
    pub max_faults: u32,
    /// How the fallback action is chosen.
    pub fallback: Fallback,
    /// Unsolicited messages (out of turn, stale, unknown ids) a stream may send
    /// per second before it is closed as a flood.
    pub flood_per_second: u32,
}

impl Default for FaultPolicy {
    fn default() -> FaultPolicy {
        FaultPolicy {
            max_faults: 10,
            fallback: Fallback::Passive,
            flood_per_second: 50,
        }
    }
}

/// One seat of a table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeatSpec {
    /// The token that authorises the seat; `None`: the referee makes one.
    pub token: Option<String>,
    /// The bot's name, for logs and for routing seats to a bot token.
    pub bot_name: String,
    /// `Some(reason)`: the bot is out of the event; the seat forfeits at the
    /// start of the match (an `Absent` fault with this reason) and the table
    /// does not wait for it.
    pub withdrawn: Option<String>,
}

/// Everything needed to create a table: one match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// The table id; `None`: the referee picks one.
    pub table_id: Option<String>,
    /// The game.
    pub game: Variant,
    /// Its options.
    pub options: Options,
    /// The match seed: deals and fallbacks derive from it.
    pub match_seed: Seed,
    /// The seats, one per seat of the game.
    pub seats: Vec<SeatSpec>,
    /// The clocks.
    pub time: TimeControl,
    /// The fault policy.
    pub faults: FaultPolicy,
    /// How long to wait for every seat to connect before starting anyway.
    pub start_timeout: Duration,
    /// Deck orders to deal instead of seeded ones, by deal index.
    pub deals: Vec<Vec<Card>>,
    /// A match already partly played, to continue rather than start.
    pub resume: Option<Resume>,
}

/// The completed hands of a match that was interrupted (a resumed
/// tournament). The table re-applies them silently, with the same fault
/// counts, and play continues with the next deal; nothing is sent to the
/// seats or recorded for them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resume {
    /// The deck orders of the completed deals, by deal index.
    pub deals: Vec<Vec<Card>>,
    /// Every action of those deals in order: seat, action, whether it was a
    /// fallback played by the referee.
    pub actions: Vec<(Seat, Action, bool)>,
    /// Each seat's fault count so far.
    pub faults: Vec<u32>,
    /// Which seats had forfeited.
    pub forfeited: Vec<bool>,
    /// Whether `actions` may stop in the middle of a hand: the table then
    /// starts at the next decision of that hand (check-bot's positions,
    /// where an earlier choice of a seat was made for it). A resumed
    /// tournament match starts at a hand's end (the default: a record that
    /// stops mid-hand is refused).
    pub mid_hand: bool,
}

impl TableSpec {
    /// A table of `game` under default options, clocks and policy, with one
    /// seat per name.
    pub fn new(game: Variant, match_seed: Seed, bot_names: &[&str]) -> TableSpec {
        TableSpec {
            table_id: None,
            game,
            options: Options::new(),
            match_seed,
            seats: bot_names
                .iter()
                .map(|n| SeatSpec {
                    token: None,
                    bot_name: n.to_string(),
                    withdrawn: None,
                })
                .collect(),
            time: TimeControl::default(),
            faults: FaultPolicy::default(),
            start_timeout: Duration::from_secs(30),
            deals: Vec::new(),
            resume: None,
        }
    }
}
