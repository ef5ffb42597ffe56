//! The hand viewer's data: a match log played again through the match
//! driver, and at every step of every hand what each seat saw (its
//! observation and legal actions, exactly what `whistle replay show --seat
//! --step` prints), the action taken, fallbacks and faults, and the
//! verifier's verdict.

use serde::Serialize;
use whistle_replay::{MatchLog, verify::Report};
use whistle_rules::{
    Fallback, Game, MatchDriver, Observation, Seat, Status, Variant, dealing::Seed,
};

/// What one seat saw at one step.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// Its observation. Within a hand the history only grows, so a step's
    /// view leaves it out and says how long it was (`history_len`): the
    /// page takes that many events of the hand's last view.
    pub observation: Observation,
    /// How many events of the hand's history the seat had seen.
    pub history_len: usize,
    /// Its legal actions in canonical text (empty when not asked).
    pub legal: Vec<String>,
}

/// A fault, as the viewer marks it.
#[derive(Debug, Clone, Serialize)]
pub struct Fault {
    /// The seat at fault.
    pub seat: usize,
    /// Its kind (`late`, `illegal`, ...).
    pub kind: String,
    /// What was wrong (already cut to a bounded length by the referee).
    pub detail: String,
    /// Whether it made the seat forfeit.
    pub forfeited: bool,
}

/// One decision of a hand.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// Who decided.
    pub seat: usize,
    /// What, in canonical text.
    pub action: String,
    /// Whether the referee played it for the seat (a fallback).
    pub fallback: bool,
    /// Faults just before it.
    pub faults: Vec<Fault>,
    /// What each seat saw before it.
    pub views: Vec<View>,
}

/// One hand.
#[derive(Debug, Clone, Serialize)]
pub struct Hand {
    /// The deal index.
    pub deal: u32,
    /// The dealer.
    pub dealer: usize,
    /// The decisions.
    pub steps: Vec<Step>,
    /// What each seat saw once the hand was over.
    pub end: Vec<View>,
    /// Faults after the last decision.
    pub faults: Vec<Fault>,
    /// The hand's result in one line.
    pub summary: String,
    /// Points per seat.
    pub points: Vec<i32>,
    /// Totals after the hand.
    pub totals: Vec<i32>,
}

/// Everything the viewer page shows.
#[derive(Debug, Clone, Serialize)]
pub struct Match {
    /// The game's name.
    pub game: String,
    /// The game's title.
    pub title: String,
    /// The tournament (or record) it belongs to.
    pub tournament: String,
    /// Its index there.
    pub match_index: u64,
    /// The bot in each seat.
    pub seats: Vec<String>,
    /// Whether the verifier found the log correct.
    pub verified: bool,
    /// What the verifier found wrong, one line each.
    pub problems: Vec<String>,
    /// The hands.
    pub hands: Vec<Hand>,
}

fn faults(list: &[whistle_replay::FaultLog], at: impl Fn(usize) -> bool) -> Vec<Fault> {
    list.iter()
        .filter(|f| at(f.at))
        .map(|f| Fault {
            seat: f.seat.index(),
            kind: f.kind.clone(),
            detail: whistle_protocol::limits::echo(&f.detail),
            forfeited: f.forfeited,
        })
        .collect()
}

/// Every seat's view; `keep_history` for the hand's last view only.
fn views<G: Game>(game: &G, keep_history: bool) -> Vec<View> {
    Seat::all(game.seats())
        .map(|s| {
            let mut observation = game.observe(s);
            let history_len = observation.history.len();
            if !keep_history {
                observation.history.clear();
            }
            View {
                observation,
                history_len,
                legal: game
                    .legal_actions(s)
                    .iter()
                    .map(|a| a.to_string())
                    .collect(),
            }
        })
        .collect()
}

/// Reads the match log at `path`, verifies it (with `ctx`) and collects its
/// views: the log and what the viewer page shows.
///
/// # Errors
/// An unreadable log, or one the rules cannot play.
pub fn from_file(
    path: &std::path::Path,
    ctx: whistle_replay::verify::Context,
) -> Result<(MatchLog, Match), String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let log = whistle_replay::read(path).map_err(|e| at(&e))?;
    let report = whistle_replay::verify::verify_file(path, ctx).map_err(|e| at(&e))?;
    let m = collect(&log, &report).map_err(|e| at(&e))?;
    Ok((log, m))
}

/// Plays `log` again and collects what every seat saw at every step.
///
/// # Errors
/// A log the rules cannot play (an unknown game, a deck or an action the
/// game refuses); `report` then says why in more detail.
pub fn collect(log: &MatchLog, report: &Report) -> Result<Match, String> {
    let variant: Variant = log.header.game.parse().map_err(|e| format!("{e}"))?;
    let game = variant
        .new_game(&log.header.options)
        .map_err(|e| e.to_string())?;
    let seed = log.end.as_ref().map_or(Seed::default(), |e| e.match_seed);
    // The log says which actions were fallbacks; the driver's own rule is
    // never asked.
    let mut driver = MatchDriver::new(game, seed, Fallback::First);
    if let Some(ctx) = log.hands.first().and_then(|h| h.context.as_ref()) {
        driver.start_at(ctx).map_err(|e| format!("context: {e}"))?;
    }
    let mut hands = Vec::with_capacity(log.hands.len());
    for hand in &log.hands {
        if driver.game().status() != Status::Deal {
            return Err(format!(
                "hand {} does not follow a complete hand",
                hand.deal
            ));
        }
        driver.deal_with(&hand.deck).map_err(|e| e.to_string())?;
        let mut steps = Vec::with_capacity(hand.actions.len());
        for (i, act) in hand.actions.iter().enumerate() {
            steps.push(Step {
                seat: act.seat.index(),
                action: act.action.to_string(),
                fallback: act.fallback,
                faults: faults(&hand.faults, |at| at == i),
                views: views(driver.game(), false),
            });
            driver
                .apply(act.seat, act.action, act.fallback)
                .map_err(|e| format!("hand {} step {i}: {e}", hand.deal))?;
            driver.take_events();
        }
        let n = hand.actions.len();
        hands.push(Hand {
            deal: hand.deal,
            dealer: hand.dealer.index(),
            steps,
            end: views(driver.game(), true),
            faults: faults(&hand.faults, |at| at >= n),
            summary: hand.result.summary.clone(),
            points: hand.result.points.clone(),
            totals: hand.result.totals.clone(),
        });
    }
    Ok(Match {
        game: variant.name().to_string(),
        title: variant.title().to_string(),
        tournament: log.header.tournament.clone(),
        match_index: log.header.match_index,
        seats: log.header.seats.clone(),
        verified: report.ok(),
        problems: report
            .problems
            .iter()
            .map(|p| {
                let at = match (p.deal, p.step) {
                    (Some(d), Some(s)) => format!("hand {d} step {s}: "),
                    (Some(d), None) => format!("hand {d}: "),
                    _ => String::new(),
                };
                format!(
                    "line {}: {at}{}: expected {}, found {}",
                    p.line, p.what, p.expected, p.found
                )
            })
            .collect(),
        hands,
    })
}
