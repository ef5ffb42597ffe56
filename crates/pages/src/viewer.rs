//! The hand viewer's data: a match log played again through the match
//! driver, and at every step of every hand what each seat saw (its
//! observation and legal actions, exactly what `whistle replay show --seat
//! --step` prints), the action taken, fallbacks and faults, and the
//! verifier's verdict.

use serde::{
    Serialize,
    ser::{SerializeMap, SerializeSeq},
};
use serde_json::value::RawValue;
use whistle_replay::{MatchLog, verify::Report};
use whistle_rules::{
    Action, ActionList, Fallback, Game, MatchDriver, Observation, Seat, SeatView, Status, Variant,
    dealing::Seed,
};

/// What every seat saw at one step (or at a hand's end), as the page's
/// JSON: an array with one view a seat, written as the step is played (a
/// match's observations are never all held at once).
///
/// On the page, a step's view is small: within a hand the history and the
/// completed tricks only grow, so a step's view gives their lengths
/// (`history_len`, `tricks_len`) and the page takes that many of the hand's
/// end view; and of the other fields of the observation it carries only
/// those that differ from the same seat's view at the step before (all of
/// them at a hand's first step), and of `players` only the fields of each
/// seat's entry that differ (an entry without any is `null`). The page
/// merges them back. A hand's end view is whole.
#[derive(Debug, Clone)]
pub struct Views(Box<RawValue>);

impl Views {
    /// The JSON text.
    pub fn json(&self) -> &str {
        self.0.get()
    }
}

impl Serialize for Views {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// One seat's view as the page gets it.
struct View {
    /// Its observation; in a step's view without its history and completed
    /// tricks (their lengths are kept).
    observation: Observation,
    /// How many events of the hand's history the seat had seen.
    history_len: usize,
    /// How many tricks of the hand were complete.
    tricks_len: usize,
    /// Which fields of the observation the page gets (bit `f` for field
    /// number `f` of whistle.proto, history and tricks left out), or `None`
    /// for the whole observation (a hand's end).
    changed: Option<u32>,
    /// Which fields of each seat's entry of `players` the page gets when
    /// `changed` has the `players` field (byte `i` for seat `i`, bit `k`
    /// for the `k`th field of [`SeatView`]).
    players_changed: u64,
    /// Its legal actions (empty when not asked).
    legal: ActionList,
}

/// The fields of `.0` in the mask `.1` (bit `f` for field number `f`, as
/// [`whistle_protocol::compact::changed_fields`] gives it).
struct Partial<'a>(&'a Observation, u32, u64);

/// The fields of each seat's entry of `players` in its byte of the mask
/// `.1` (byte `i` for seat `i`, bit `k` for the `k`th field of
/// [`SeatView`]); an entry with none is `null`.
struct Players<'a>(&'a [SeatView], u64);

/// The byte of `mask` for seat `i` (every field past the eighth seat).
fn seat_fields(mask: u64, i: usize) -> u8 {
    if i < 8 {
        (mask >> (8 * i)) as u8
    } else {
        u8::MAX
    }
}

/// What changed in one seat's entry, as [`Players`] reads it.
fn seat_changes(a: &SeatView, b: &SeatView) -> u8 {
    [
        a.seat != b.seat,
        a.held != b.held,
        a.known != b.known,
        a.bid != b.bid,
        a.tricks != b.tricks,
        a.total != b.total,
        a.team != b.team,
        a.active != b.active,
    ]
    .iter()
    .enumerate()
    .fold(0, |m, (k, &c)| m | u8::from(c) << k)
}

/// The fields of `.0` in the mask `.1`.
struct SeatPart<'a>(&'a SeatView, u8);

impl Serialize for SeatPart<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (p, mask) = (self.0, self.1);
        let mut m = s.serialize_map(None)?;
        macro_rules! put {
            ($($k:literal $f:ident),*) => {
                $(if mask & (1 << $k) != 0 {
                    m.serialize_entry(stringify!($f), &p.$f)?;
                })*
            };
        }
        put!(0 seat, 1 held, 2 known, 3 bid, 4 tricks, 5 total, 6 team, 7 active);
        m.end()
    }
}

impl Serialize for Players<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut q = s.serialize_seq(Some(self.0.len()))?;
        for (i, p) in self.0.iter().enumerate() {
            match seat_fields(self.1, i) {
                0 => q.serialize_element(&())?,
                u8::MAX => q.serialize_element(p)?,
                f => q.serialize_element(&SeatPart(p, f))?,
            }
        }
        q.end()
    }
}

/// Actions in canonical text.
struct Texts<'a>(&'a [Action]);

impl Serialize for Texts<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut q = s.serialize_seq(Some(self.0.len()))?;
        for a in self.0 {
            q.serialize_element(&format_args!("{a}"))?;
        }
        q.end()
    }
}

impl Serialize for Partial<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use whistle_protocol::convert::field;
        let (o, mask) = (self.0, self.1);
        let players = Players(&o.players, self.2);
        let mut m = s.serialize_map(None)?;
        macro_rules! put {
            ($($bit:ident $f:ident),*) => {
                $(if mask & (1 << field::$bit) != 0 {
                    m.serialize_entry(stringify!($f), &o.$f)?;
                })*
            };
        }
        put!(GAME game, SEAT seat, SEATS seats, DEAL deal, DEALER dealer, PHASE phase,
            TO_ACT to_act, SIMULTANEOUS simultaneous, HAND hand, TRUMP trump,
            CONTRACT contract, TABLE table, PILES piles, TRICK trick, NOTES notes);
        if mask & (1 << field::PLAYERS) != 0 {
            m.serialize_entry("players", &players)?;
        }
        m.end()
    }
}

impl Serialize for View {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(4))?;
        match self.changed {
            Some(mask) => m.serialize_entry(
                "observation",
                &Partial(&self.observation, mask, self.players_changed),
            )?,
            None => m.serialize_entry("observation", &self.observation)?,
        }
        m.serialize_entry("history_len", &self.history_len)?;
        m.serialize_entry("tricks_len", &self.tricks_len)?;
        m.serialize_entry("legal", &Texts(&self.legal))?;
        m.end()
    }
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
    pub views: Views,
    /// Why the rules refuse this action, if they do: a disputed log is
    /// drawn up to here, the refused step marked, and play stops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
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
    pub end: Views,
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
    /// A page to link back to (a league site's standings), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back: Option<String>,
    /// Whether the match is being played: the page reloads itself.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub live: bool,
}

fn faults(game: &str, list: &[whistle_replay::FaultLog], at: impl Fn(usize) -> bool) -> Vec<Fault> {
    list.iter()
        .filter(|f| at(f.at))
        .map(|f| Fault {
            seat: f.seat.index(),
            kind: f.kind.clone(),
            detail: with_rule_id(game, whistle_protocol::limits::echo(&f.detail)),
            forfeited: f.forfeited,
        })
        .collect()
}

/// A refusal's reason with the decision id of the rule it applies where
/// the engine's words name none (the viewer and `replay show` say it
/// alike): following suit is each game's play rule (I5, H4, L6, Y8; O5 for
/// Oneonta, whose every form follows as there).
pub fn with_rule_id(game: &str, reason: String) -> String {
    let id = match game {
        "israeli" => "I5",
        "honeymoon" => "H4",
        "illustrated" => "L6",
        "yogi" => "Y8",
        "oneonta" => "O5",
        _ => return reason,
    };
    if reason.contains("must follow suit") && !reason.contains(&format!("rule {id}")) {
        format!(
            "{reason}, rule {id} (docs/rules/{game}.md#{})",
            id.to_lowercase()
        )
    } else {
        reason
    }
}

/// Every seat's view: only what changed since `before` (each seat's
/// observation at the step before in the same hand, none at a hand's first
/// step; replaced by this step's), or whole (`whole`: a hand's end).
fn views<G: Game>(game: &G, before: &mut Vec<Observation>, whole: bool) -> Result<Views, String> {
    let list: Vec<View> = Seat::all(game.seats())
        .map(|s| {
            // A step's view keeps only the length of the seat's history:
            // the events it may see, counted, not built.
            let history_len = game.log().iter().filter(|e| e.seen_by(s).is_some()).count();
            let mut observation = if whole {
                game.observe(s)
            } else {
                game.observe_without_history(s)
            };
            let prev = before.get(s.index());
            let tricks_len = observation.tricks.len();
            if !whole {
                observation.tricks = Vec::new();
            }
            let players_changed = prev.map_or(u64::MAX, |p| {
                // Seat by seat, field by field; a seat count that changed
                // sends them all.
                if p.players.len() != observation.players.len() {
                    return u64::MAX;
                }
                p.players
                    .iter()
                    .zip(&observation.players)
                    .enumerate()
                    .take(8)
                    .fold(0, |m, (i, (a, b))| {
                        m | u64::from(seat_changes(a, b)) << (8 * i)
                    })
            });
            View {
                changed: (!whole).then(|| {
                    prev.map_or(u32::MAX, |p| {
                        whistle_protocol::compact::changed_fields(p, &observation)
                    })
                }),
                players_changed,
                observation,
                history_len,
                tricks_len,
                legal: game.legal_actions(s),
            }
        })
        .collect();
    let json = serde_json::value::to_raw_value(&list).map_err(|e| e.to_string())?;
    if !whole {
        before.clear();
        before.extend(list.into_iter().map(|v| v.observation));
    }
    Ok(Views(json))
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
            // A hand after an incomplete one: the report says so; the page
            // shows what plays.
            break;
        }
        driver.deal_with(&hand.deck).map_err(|e| e.to_string())?;
        let mut steps = Vec::with_capacity(hand.actions.len());
        let mut before = Vec::new();
        let mut stopped = false;
        for (i, act) in hand.actions.iter().enumerate() {
            steps.push(Step {
                seat: act.seat.index(),
                action: act.action.to_string(),
                fallback: act.fallback,
                faults: faults(&log.header.game, &hand.faults, |at| at == i),
                views: views(driver.game(), &mut before, false)?,
                refused: None,
            });
            if let Err(e) = driver.apply(act.seat, act.action, act.fallback) {
                if let Some(last) = steps.last_mut() {
                    last.refused = Some(e.to_string());
                }
                stopped = true;
                break;
            }
            driver.take_events();
        }
        let n = hand.actions.len();
        hands.push(Hand {
            deal: hand.deal,
            dealer: hand.dealer.index(),
            steps,
            end: views(driver.game(), &mut before, true)?,
            faults: faults(&log.header.game, &hand.faults, |at| at >= n),
            summary: if stopped {
                "play stops here: the rules refuse this step".into()
            } else {
                hand.result.summary.to_string()
            },
            points: hand.result.points.to_vec(),
            totals: hand.result.totals.to_vec(),
        });
        if stopped {
            break;
        }
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
        back: None,
        live: false,
    })
}

#[cfg(test)]
mod tests {
    use whistle_rules::Seat;

    use super::*;

    /// The viewer's fault text names the rule a refusal applies, as `replay
    /// show` does (I5: follow suit in Israeli Whist), once.
    #[test]
    fn a_refusal_to_follow_suit_names_its_rule() {
        let fault = whistle_replay::FaultLog {
            seat: Seat::new(2),
            kind: "illegal".into(),
            detail: "`KH`: must follow suit (S)".into(),
            fallback: None,
            faults: 1,
            forfeited: false,
            at: 4,
            answer: None,
        };
        let shown = faults("israeli", std::slice::from_ref(&fault), |at| at == 4);
        assert_eq!(
            shown[0].detail,
            "`KH`: must follow suit (S), rule I5 (docs/rules/israeli.md#i5)"
        );
        assert_eq!(
            with_rule_id("israeli", shown[0].detail.clone()),
            shown[0].detail
        );
        // A refusal whose words cite their rule already is left as it is.
        let bid = "`bid 4`: the bids must not total 13 (I4)".to_string();
        assert_eq!(with_rule_id("israeli", bid.clone()), bid);
        assert!(faults("israeli", &[fault], |at| at == 5).is_empty());
    }
}

#[cfg(test)]
mod page_data {
    use serde_json::{Map, Value};
    use whistle_rules::{Fallback, Game, MatchDriver, Seat, Status, dealing::Seed};

    /// A step's view merged back onto the same seat's view at the step
    /// before, as `assets/viewer.js` does.
    fn merge(before: &Map<String, Value>, part: &Map<String, Value>) -> Map<String, Value> {
        let mut o = before.clone();
        for (k, v) in part {
            o.insert(k.clone(), v.clone());
        }
        if let (Some(Value::Array(now)), Some(Value::Array(was))) =
            (part.get("players"), before.get("players"))
        {
            let players = now
                .iter()
                .zip(was)
                .map(|(p, w)| match p {
                    Value::Null => w.clone(),
                    Value::Object(p) => {
                        let mut w = w.as_object().cloned().unwrap_or_default();
                        w.extend(p.clone());
                        Value::Object(w)
                    }
                    other => panic!("a player entry {other}"),
                })
                .collect();
            o.insert("players".into(), Value::Array(players));
        }
        o
    }

    /// The page's data, merged back, is at every step exactly each seat's
    /// observation (what `replay show --seat --step` prints, without its
    /// history and completed tricks, which the page takes from the hand's
    /// end by length) and legal actions: nothing a seat may not see, and
    /// nothing it saw left out. Every game's sample log.
    #[test]
    fn the_page_data_merges_back_into_each_seats_observation() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../replays/samples");
        for game in ["israeli", "honeymoon", "illustrated", "yogi", "oneonta"] {
            let path = root.join(game).join("matches/m00000.jsonl");
            let (log, m) = super::from_file(&path, Default::default()).unwrap();
            assert!(m.verified, "{game}: {:?}", m.problems);
            let data = serde_json::to_value(&m).unwrap();
            let variant: whistle_rules::Variant = log.header.game.parse().unwrap();
            let seed = log.end.as_ref().map_or(Seed::default(), |e| e.match_seed);
            let mut driver = MatchDriver::new(
                variant.new_game(&log.header.options).unwrap(),
                seed,
                Fallback::First,
            );
            if let Some(ctx) = log.hands.first().and_then(|h| h.context.as_ref()) {
                driver.start_at(ctx).unwrap();
            }
            let mut compared = 0;
            for (h, hand) in log.hands.iter().enumerate() {
                if driver.game().status() != Status::Deal {
                    break;
                }
                driver.deal_with(&hand.deck).unwrap();
                let page = &data["hands"][h];
                let seats = driver.game().seats();
                let mut before = vec![Map::new(); seats];
                for (i, act) in hand.actions.iter().enumerate() {
                    for s in Seat::all(seats) {
                        let view = &page["steps"][i]["views"][s.index()];
                        let o = merge(&before[s.index()], view["observation"].as_object().unwrap());
                        let mut want = driver.game().observe_without_history(s);
                        assert_eq!(view["tricks_len"].as_u64(), Some(want.tricks.len() as u64));
                        want.tricks.clear();
                        let mut want = serde_json::to_value(&want).unwrap();
                        let want = want.as_object_mut().unwrap();
                        want.remove("tricks");
                        want.remove("history");
                        assert_eq!(&o, want, "{game} hand {h} step {i} seat {}", s.index());
                        let legal: Vec<String> = driver
                            .game()
                            .legal_actions(s)
                            .iter()
                            .map(ToString::to_string)
                            .collect();
                        assert_eq!(view["legal"], serde_json::json!(legal));
                        before[s.index()] = o;
                        compared += 1;
                    }
                    driver.apply(act.seat, act.action, act.fallback).unwrap();
                    driver.take_events();
                }
                for s in Seat::all(seats) {
                    let want = serde_json::to_value(driver.game().observe(s)).unwrap();
                    assert_eq!(page["end"][s.index()]["observation"], want);
                }
            }
            assert!(compared > 100, "{game}: {compared} views");
        }
    }
}
