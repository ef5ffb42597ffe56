//! Results from match logs: per-bot statistics with confidence intervals,
//! ratings, and the paired per-deal comparison of duplicate events.
//!
//! A pure function of the logs, taken in schedule order, so one run, a
//! resumed run and merged shards give the same results.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skillratings::{
    MultiTeamOutcome, Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
    weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team},
};
use whistle_replay::MatchLog;
use whistle_rules::ScoreOrder;

/// The results file's format name and version.
pub const RESULTS_FORMAT: &str = "whistle-results";
/// Version of the results format.
pub const RESULTS_VERSION: u32 = 1;

/// A mean with its 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Number of samples.
    pub n: u64,
    /// The mean.
    pub mean: f64,
    /// Lower end of the 95 % interval (`null` in JSON when unbounded: one
    /// sample).
    #[serde(deserialize_with = "unbounded_low")]
    pub low: f64,
    /// Upper end of the 95 % interval (`null` in JSON when unbounded).
    #[serde(deserialize_with = "unbounded_high")]
    pub high: f64,
}

/// An interval's end as written: JSON has no infinity, so serde_json writes
/// an unbounded end as `null`; read back, `null` is that infinity again.
fn unbounded_low<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NEG_INFINITY))
}

fn unbounded_high<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
}

/// Two-sided 97.5 % quantiles of Student's t for 1..=30 degrees of freedom.
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

impl Interval {
    /// The mean of `xs` with a 95 % interval from Student's t (normal beyond
    /// 30 degrees of freedom). One sample gives an unbounded interval.
    pub fn of(xs: &[f64]) -> Interval {
        let n = xs.len();
        if n == 0 {
            return Interval {
                n: 0,
                mean: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Interval {
                n: 1,
                mean,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            };
        }
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let t = T975.get(n - 2).copied().unwrap_or(1.96);
        let half = t * (var / n as f64).sqrt();
        Interval {
            n: n as u64,
            mean,
            low: mean - half,
            high: mean + half,
        }
    }

    /// Whether the two intervals share no point.
    pub fn disjoint(&self, other: &Interval) -> bool {
        self.high < other.low || other.high < self.low
    }
}

/// A rating with its uncertainty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// `weng-lin` or `glicko-2`.
    pub system: String,
    /// The rating (Weng-Lin mu, Glicko-2 rating).
    pub value: f64,
    /// Its uncertainty (Weng-Lin sigma, Glicko-2 deviation).
    pub uncertainty: f64,
}

/// One bot's statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BotStats {
    /// The bot.
    pub name: String,
    /// Matches played (counting each seat it held).
    pub matches: u64,
    /// Hands played (each seat it held).
    pub hands: u64,
    /// Points (or fines) per hand.
    pub points: Interval,
    /// Hands where its bid was made, and hands where it had a bid to make.
    pub bids_made: (u64, u64),
    /// First places (ties included).
    pub wins: u64,
    /// Mean place (1 = first).
    pub mean_place: f64,
    /// Matches it forfeited.
    pub forfeits: u64,
    /// Faults by kind.
    pub faults: BTreeMap<String, u64>,
    /// Decisions by fallback: those the referee played for it (after a
    /// late, illegal or malformed answer, or once it had forfeited), and
    /// every decision of its seats. Their share is how much of its result
    /// the fallback rule earned rather than the bot. `[0, 0]` in files
    /// written before it.
    #[serde(default)]
    pub fallbacks: (u64, u64),
    /// Mean milliseconds per decision it answered itself.
    pub mean_ms: f64,
    /// Slowest decision, in milliseconds.
    pub max_ms: f64,
    /// Its rating, where the game has one (not for solitaire).
    pub rating: Option<Rating>,
    /// Its own score per hand (one sample per seat it held) where the
    /// points are a team's figure: cooperative Oneonta's O6 score of each
    /// seat (O16, O17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_points: Option<Interval>,
    /// Its grade: the measure [`Results::grade`] names, with its 95 %
    /// interval (a rating: the value ± two uncertainties; `n` its matches).
    /// Absent for a bot that is not ranked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<Interval>,
    /// Why the bot is not ranked, if it is not: `did not play`, `out: ...`
    /// (out of the event) or `forfeited every match`. Such bots come after
    /// every ranked bot, in name order, with no place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unranked: Option<String>,
}

/// A comparison of two bots on the same deals from the same seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairStats {
    /// First bot.
    pub a: String,
    /// Second bot.
    pub b: String,
    /// Per-deal differences (a − b) of points from the same seat on the same cards.
    pub difference: Interval,
}

/// Duplicate analysis: each bot against the par of the same deal and seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuplicateStats {
    /// Per bot: its points minus the mean of every bot's points on the same
    /// deal from the same seat.
    pub versus_par: Vec<(String, Interval)>,
    /// Per pair of bots: paired per-deal differences.
    pub pairs: Vec<PairStats>,
    /// Per bot: matchpoints, in percent: on each deal and seat, the share
    /// of the others who held the same cards that it did better than (a tie
    /// counts half), averaged over its deals, with a 95 % interval.
    #[serde(default)]
    pub matchpoints: Vec<(String, Interval)>,
}

/// Whether one bot is really better than another: what their meetings say.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The bot ranked higher in the standings.
    pub a: String,
    /// The bot ranked lower.
    pub b: String,
    /// Matches in which both sat at the table as opponents.
    pub matches: u64,
    /// Of those, the matches where `a` finished ahead of `b`, behind it, and
    /// level with it.
    pub a_ahead: u64,
    /// Matches where `b` finished ahead of `a`.
    pub b_ahead: u64,
    /// Matches where they finished level.
    pub level: u64,
    /// Likelihood of superiority: the probability that `a` is the stronger,
    /// from the head-to-head results (levels ignored), as fastchess and
    /// cutechess compute it: ½·(1 + erf((W − L) / √(2·(W + L)))). `None`
    /// without a decided meeting.
    pub los: Option<f64>,
    /// Duplicate events: `a − b` on the same deals from the same seat, per
    /// deal, with its 95 % interval.
    pub difference: Option<Interval>,
    /// `better` (a is better), `worse` (b is better) or `equal` (no clear
    /// difference). In duplicate events the same-cards interval decides
    /// (it holds 0: `equal`; fines: below 0 is better); otherwise the LOS
    /// (at least 95 %: `better`; at most 5 %: `worse`).
    pub verdict: String,
}

/// One side's line-up in partnership and cooperative games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamStats {
    /// The bots of the side, sorted, joined by `+`.
    pub line_up: String,
    /// Matches this line-up played.
    pub matches: u64,
    /// Hands it played.
    pub hands: u64,
    /// The side's points per hand.
    pub points: Interval,
    /// First places.
    pub wins: u64,
    /// Mean place.
    pub mean_place: f64,
}

/// One match in the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// Schedule index.
    #[serde(rename = "match")]
    pub index: u64,
    /// Bot per seat.
    pub seats: Vec<String>,
    /// Final totals per seat.
    pub totals: Vec<i32>,
    /// Places per seat (1 = first), as rated: forfeiting seats after all
    /// the others (see [`places`]).
    pub ranks: Vec<u8>,
    /// Seats that forfeited.
    pub forfeited: Vec<u8>,
    /// Hands played.
    pub hands: u64,
    /// Each seat's own match total where `totals` are a team's (the sum of
    /// its own O6 hand scores in cooperative Oneonta, O16/O17); empty
    /// otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seat_totals: Vec<i32>,
}

/// Everything a tournament produced, as written to `results.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Always [`RESULTS_FORMAT`].
    pub format: String,
    /// [`RESULTS_VERSION`].
    pub version: u32,
    /// The tournament.
    pub tournament: String,
    /// The game.
    pub game: String,
    /// Whether lower totals are better.
    pub lower_is_better: bool,
    /// Matches finished, in schedule order.
    pub matches: Vec<MatchSummary>,
    /// Per-bot statistics, best first.
    pub bots: Vec<BotStats>,
    /// For duplicate and solitaire events.
    pub duplicate: Option<DuplicateStats>,
    /// Partnership and cooperative games: each line-up (the bots of one side,
    /// joined by `+`) with its side's points per hand, best first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<TeamStats>,
    /// Every two bots that met as opponents, in standings order (`a` above
    /// `b`): head to head, likelihood of superiority, the same-cards
    /// difference in duplicate events, and the verdict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairwise: Vec<Verdict>,
    /// How the ranking was derived, for people.
    pub ranking: String,
    /// The grade the ranking is by: `matchpoints` (events that compare
    /// seats on the same cards: duplicate, movement, budget, solitaire),
    /// `rating` (round robins and gauntlets: Weng-Lin, or Glicko-2 in
    /// two-seat games), `points` (points or fines per hand) or
    /// `team points` (cooperative games). Empty in files written before it.
    #[serde(default)]
    pub grade: String,
    /// The tournament seed, revealed once play is over (check it against the
    /// commitment in `tournament.json` and in every log header): a number
    /// as the file gave it, or 64 hex digits (a drawn seed).
    pub seed: Option<whistle_rules::dealing::WrittenSeed>,
    /// Each bot's rating after each match it played, in schedule order (the
    /// rating system of `bots[].rating`), for plotting.
    #[serde(default)]
    pub rating_history: BTreeMap<String, Vec<RatingPoint>>,
    /// What the organiser and the players should know about how bots ran:
    /// a bot without a sandbox, a bot stopped by a limit, a bot out of the
    /// event, a ranked bot whose place says little of it (`doubtful`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Something about how one bot ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The bot.
    pub bot: String,
    /// `unsandboxed`, `limit`, `out`, `doubtful` (a ranked bot that made
    /// many of its decisions by fallback or forfeited many of its matches:
    /// see [`DOUBTFUL_FALLBACK_SHARE`]), or `seed` (a note on the event, not
    /// on one bot: `bot` is empty).
    pub kind: String,
    /// In words.
    pub detail: String,
}

/// A bot's rating after one match.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// The match's index.
    pub r#match: u64,
    /// The rating.
    pub value: f64,
    /// Its uncertainty.
    pub uncertainty: f64,
}

#[derive(Default)]
struct Acc {
    matches: u64,
    points: Vec<f64>,
    /// Own scores per hand and seat held, where the game reports them.
    own: Vec<f64>,
    made: u64,
    bids: u64,
    wins: u64,
    places: Vec<f64>,
    forfeits: u64,
    faults: BTreeMap<String, u64>,
    /// Decisions played by fallback, and every decision of its seats.
    fallbacks: (u64, u64),
    /// Decisions answered, their total and the slowest, in milliseconds.
    ms: (u64, f64, f64),
}

/// Computes the results of `logs` (finished matches; unfinished ones are
/// ignored), ordered by schedule index. `bots` lists every bot name so that
/// bots without a finished match still appear. The same as feeding the logs,
/// in schedule order, to a [`Tally`].
pub fn compute(tournament: &str, game: &str, bots: &[String], logs: &[MatchLog]) -> Results {
    let mut logs: Vec<&MatchLog> = logs.iter().collect();
    logs.sort_by_key(|l| l.header.match_index);
    let mut tally = Tally::new(tournament, game, bots);
    for log in logs {
        tally.add(log);
    }
    tally.finish()
}

/// (group, deal, seat) → [(bot index, points)].
type Cells = BTreeMap<(u64, u32, usize), Vec<(usize, f64)>>;

/// The results, computed one match log at a time: it keeps a few numbers per
/// hand (points per bot, duplicate cells) rather than the logs, so a runner
/// can read a tournament's logs one by one and its memory does not grow with
/// their size.
pub struct Tally {
    tournament: String,
    game: String,
    bots: Vec<String>,
    /// Bot name → index (the bots of the file first).
    index: BTreeMap<String, usize>,
    acc: BTreeMap<String, Acc>,
    team_acc: BTreeMap<String, Acc>,
    matches: Vec<MatchSummary>,
    wl: BTreeMap<String, WengLinRating>,
    g2: BTreeMap<String, Glicko2Rating>,
    kind: Sides,
    /// From the first finished match: lower totals better, seats per table.
    first: Option<(bool, usize)>,
    /// Duplicate events: who scored what on each deal and seat.
    cells: Cells,
    duplicate: bool,
    last_index: Option<u64>,
    /// (bot index i, bot index j), i < j → (i ahead, j ahead, level).
    head_to_head: BTreeMap<(usize, usize), (u64, u64, u64)>,
    rating_history: BTreeMap<String, Vec<RatingPoint>>,
    /// Bots out of the event, and why.
    out: BTreeMap<String, String>,
}

impl Tally {
    /// An empty tally for the bots named in `bots`.
    pub fn new(tournament: &str, game: &str, bots: &[String]) -> Tally {
        Tally {
            tournament: tournament.into(),
            game: game.into(),
            bots: bots.to_vec(),
            index: bots
                .iter()
                .enumerate()
                .map(|(i, b)| (b.clone(), i))
                .collect(),
            acc: bots.iter().map(|b| (b.clone(), Acc::default())).collect(),
            team_acc: BTreeMap::new(),
            matches: Vec::new(),
            wl: BTreeMap::new(),
            g2: BTreeMap::new(),
            kind: Sides::Individual,
            first: None,
            cells: BTreeMap::new(),
            duplicate: false,
            last_index: None,
            head_to_head: BTreeMap::new(),
            rating_history: BTreeMap::new(),
            out: BTreeMap::new(),
        }
    }

    /// Names the bots that were out of the event (withdrawn: the rest of
    /// their matches forfeited), with why: they are listed apart from the
    /// ranked bots.
    pub fn mark_out(&mut self, out: &[(String, String)]) {
        for (bot, why) in out {
            self.out.insert(bot.clone(), why.clone());
        }
    }

    /// Counts one match log; an unfinished one is ignored. Ratings depend on
    /// the order of matches: give the logs in schedule order.
    ///
    /// # Panics
    /// If a log comes after one with a higher match index.
    pub fn add(&mut self, log: &MatchLog) {
        let Some(end) = log.end.as_ref() else {
            return;
        };
        let index = log.header.match_index;
        assert!(
            self.last_index.is_none_or(|last| last < index),
            "match logs must come in schedule order ({index} after {:?})",
            self.last_index
        );
        self.last_index = Some(index);
        let names = &log.header.seats;
        self.first
            .get_or_insert((end.result.order == ScoreOrder::LowerIsBetter, names.len()));
        let forfeited: Vec<usize> = end.forfeited.iter().map(|s| s.index()).collect();
        let places = places(&end.result.ranks, &forfeited);
        let teams = &end.result.teams;
        let kind = sides(teams);
        self.kind = kind;
        let acc = &mut self.acc;
        for (bots, place) in line_ups(names, teams, &places) {
            if kind == Sides::Individual {
                continue;
            }
            let t = self.team_acc.entry(bots.join("+")).or_default();
            t.matches += 1;
            t.places.push(place as f64);
            t.wins += (place == 1) as u64;
        }
        for (s, name) in names.iter().enumerate() {
            let a = acc.entry(name.clone()).or_default();
            a.matches += 1;
            a.places.push(places[s] as f64);
            if places[s] == 1 {
                a.wins += 1;
            }
            if forfeited.contains(&s) {
                a.forfeits += 1;
            }
        }
        let mut seat_totals: Vec<i32> = Vec::new();
        for hand in &log.hands {
            // O16, O17: each seat's own score beside the team's.
            for (s, &own) in hand.result.seat_points.iter().enumerate() {
                if let Some(a) = names.get(s).and_then(|n| acc.get_mut(n)) {
                    a.own.push(own as f64);
                }
                if seat_totals.len() <= s {
                    seat_totals.resize(s + 1, 0);
                }
                seat_totals[s] += own;
            }
            // One sample per bot and side: in team games every seat of a side
            // carries the side's points, which count once.
            let mut counted: Vec<(&String, u8)> = Vec::new();
            for (s, name) in names.iter().enumerate() {
                let side = teams.get(s).copied().unwrap_or(s as u8);
                if kind != Sides::Individual {
                    if counted.iter().any(|&(n, t)| n == name && t == side) {
                        continue;
                    }
                    counted.push((name, side));
                }
                let a = acc.get_mut(name).expect("every seat's bot");
                a.points.push(hand.result.points[s] as f64);
                if let Some(m) = hand.result.made.get(s).copied().flatten() {
                    a.bids += 1;
                    a.made += m as u64;
                }
            }
            for act in &hand.actions {
                let a = acc
                    .get_mut(&names[act.seat.index()])
                    .expect("every seat's bot");
                a.fallbacks.0 += u64::from(act.fallback);
                a.fallbacks.1 += 1;
                if !act.fallback {
                    let ms = &mut a.ms;
                    ms.0 += 1;
                    ms.1 += act.ms;
                    ms.2 = ms.2.max(act.ms);
                }
            }
            for f in &hand.faults {
                *acc.get_mut(&names[f.seat.index()])
                    .expect("every seat's bot")
                    .faults
                    .entry(f.kind.clone())
                    .or_default() += 1;
            }
        }
        rate(&mut self.wl, &mut self.g2, names, teams, &places);
        for name in names {
            let rating = match names.len() {
                _ if kind == Sides::Cooperative => None,
                0 | 1 => None,
                2 if kind == Sides::Individual => {
                    self.g2.get(name).map(|r| (r.rating, r.deviation))
                }
                _ => self.wl.get(name).map(|r| (r.rating, r.uncertainty)),
            };
            if let Some((value, uncertainty)) = rating {
                let h = self.rating_history.entry(name.clone()).or_default();
                if h.last().is_none_or(|p| p.r#match != index) {
                    h.push(RatingPoint {
                        r#match: index,
                        value,
                        uncertainty,
                    });
                }
            }
        }
        if kind != Sides::Individual {
            for (bots, _) in line_ups(names, teams, &places) {
                let side = names
                    .iter()
                    .position(|n| bots.contains(n))
                    .expect("a side has a seat");
                let t = self.team_acc.entry(bots.join("+")).or_default();
                t.points
                    .extend(log.hands.iter().map(|h| h.result.points[side] as f64));
            }
        }
        if let Some(d) = log.header.duplicate {
            self.duplicate = true;
            for hand in &log.hands {
                for (s, name) in names.iter().enumerate() {
                    let bot = self.bot_index(name);
                    self.cells
                        .entry((d.group, hand.deal, s))
                        .or_default()
                        .push((bot, hand.result.points[s] as f64));
                }
            }
        }
        self.meet(names, teams, &places);
        self.matches.push(MatchSummary {
            index,
            seats: names.clone(),
            totals: end.result.totals.clone(),
            ranks: places.iter().map(|&p| p as u8).collect(),
            forfeited: forfeited.iter().map(|&s| s as u8).collect(),
            hands: log.hands.len() as u64,
            seat_totals,
        });
    }

    /// The index of bot `name` (the file's bots first, then any other name a
    /// log brings, in order of appearance).
    fn bot_index(&mut self, name: &str) -> usize {
        let next = self.index.len();
        *self.index.entry(name.to_string()).or_insert(next)
    }

    /// Head to head: every two bots of a match on opposing sides, each at
    /// its best place.
    fn meet(&mut self, names: &[String], teams: &[u8], places: &[usize]) {
        let mut best: BTreeMap<usize, (usize, u8)> = BTreeMap::new();
        for (s, name) in names.iter().enumerate() {
            let bot = self.bot_index(name);
            let side = teams.get(s).copied().unwrap_or(s as u8);
            let e = best.entry(bot).or_insert((places[s], side));
            e.0 = e.0.min(places[s]);
        }
        let met: Vec<(usize, (usize, u8))> = best.into_iter().collect();
        for (k, &(i, (pi, ti))) in met.iter().enumerate() {
            for &(j, (pj, tj)) in &met[k + 1..] {
                if ti == tj {
                    continue;
                }
                let e = self.head_to_head.entry((i, j)).or_default();
                match pi.cmp(&pj) {
                    std::cmp::Ordering::Less => e.0 += 1,
                    std::cmp::Ordering::Greater => e.1 += 1,
                    std::cmp::Ordering::Equal => e.2 += 1,
                }
            }
        }
    }

    /// The results of every log counted.
    pub fn finish(self) -> Results {
        let (lower, seats) = self.first.unwrap_or((false, 0));
        let kind = self.kind;
        let (wl, g2) = (&self.wl, &self.g2);
        let mut stats: Vec<BotStats> = self
            .acc
            .into_iter()
            .map(|(name, a)| {
                let rating = match seats {
                    _ if kind == Sides::Cooperative => None,
                    0 | 1 => None,
                    2 if kind == Sides::Individual => g2.get(&name).map(|r| Rating {
                        system: "glicko-2".into(),
                        value: r.rating,
                        uncertainty: r.deviation,
                    }),
                    _ => wl.get(&name).map(|r| Rating {
                        system: "weng-lin".into(),
                        value: r.rating,
                        uncertainty: r.uncertainty,
                    }),
                };
                BotStats {
                    matches: a.matches,
                    hands: a.points.len() as u64,
                    points: Interval::of(&a.points),
                    bids_made: (a.made, a.bids),
                    wins: a.wins,
                    mean_place: if a.places.is_empty() {
                        0.0
                    } else {
                        a.places.iter().sum::<f64>() / a.places.len() as f64
                    },
                    forfeits: a.forfeits,
                    faults: a.faults,
                    fallbacks: a.fallbacks,
                    mean_ms: if a.ms.0 == 0 {
                        0.0
                    } else {
                        a.ms.1 / a.ms.0 as f64
                    },
                    max_ms: a.ms.2,
                    rating,
                    own_points: (!a.own.is_empty()).then(|| Interval::of(&a.own)),
                    grade: None,
                    unranked: if a.matches == 0 {
                        Some("did not play".into())
                    } else if let Some(why) = self.out.get(&name) {
                        Some(format!("out: {why}"))
                    } else if a.forfeits == a.matches {
                        Some("forfeited every match".into())
                    } else {
                        None
                    },
                    name,
                }
            })
            .collect();
        let duplicate = self
            .duplicate
            .then(|| duplicate_stats(&self.cells, &self.bots, lower));
        let rated = if kind == Sides::Cooperative {
            "cooperative game: no individual rating; each bot by the mean team score per hand of the line-ups it played in (see the line-ups table)"
        } else if kind == Sides::Partnerships {
            "by Weng-Lin rating derived from partnership results (each match one game between the partnerships, a partnership a team of its bots; forfeits rank last); see the line-ups table"
        } else if seats <= 1 {
            if lower {
                "by mean score per hand (lower is better)"
            } else {
                "by mean score per hand"
            }
        } else if seats == 2 {
            "by Glicko-2 rating (one rating period per match; forfeits rank last)"
        } else {
            "by Weng-Lin rating (one multi-player game per match ranked by final totals; forfeits rank last; a bot in two seats of one match counts once, at its better place)"
        };
        // The grade: on the same cards where the event compares seats so
        // (the cards' luck cancels out), else the rating, else the points.
        // A duplicate event whose deals were held by no one else (one
        // table) compared no seat: it is graded as a round robin.
        let compared = duplicate
            .as_ref()
            .is_some_and(|d| d.matchpoints.iter().any(|(_, i)| i.n > 0));
        let grade = if compared {
            "matchpoints"
        } else if kind == Sides::Cooperative {
            "team points"
        } else if stats.iter().any(|b| b.rating.is_some()) {
            "rating"
        } else {
            "points"
        };
        for b in &mut stats {
            if b.unranked.is_some() {
                continue;
            }
            b.grade = match grade {
                "matchpoints" => duplicate.as_ref().and_then(|d| {
                    d.matchpoints
                        .iter()
                        .find(|(n, _)| *n == b.name)
                        .map(|(_, i)| *i)
                        .filter(|i| i.n > 0)
                }),
                "rating" => b.rating.as_ref().map(|r| Interval {
                    n: b.matches,
                    mean: r.value,
                    low: r.value - 2.0 * r.uncertainty,
                    high: r.value + 2.0 * r.uncertainty,
                }),
                _ => (b.points.n > 0).then_some(b.points),
            };
        }
        let ranking = match grade {
            "matchpoints" => {
                let mut words = String::from(
                    "by matchpoints, the grade: on each deal and seat, the percentage of the others \
                     who held the same cards that the bot outdid (a tie counts half), with its 95 % \
                     interval; where seats are compared on the same cards this is the fairest \
                     grade, the cards' luck cancelling out",
                );
                if stats.iter().any(|b| b.rating.is_some()) {
                    words.push_str(". Beside it the rating: ");
                    words.push_str(rated.trim_start_matches("by "));
                }
                words
            }
            _ => rated.to_string(),
        };
        stats.sort_by(|x, y| {
            // Ranked bots by grade (better first), then the bots without a
            // grade, then the bots not ranked; names break ties.
            let key = |b: &BotStats| {
                let better = match (&b.grade, grade) {
                    (Some(g), "points" | "team points") if lower => -g.mean,
                    (Some(g), _) => g.mean,
                    (None, _) => 0.0,
                };
                (b.unranked.is_some(), b.grade.is_none(), -better)
            };
            let (kx, ky) = (key(x), key(y));
            kx.0.cmp(&ky.0)
                .then(kx.1.cmp(&ky.1))
                .then(kx.2.total_cmp(&ky.2))
                .then_with(|| x.name.cmp(&y.name))
        });
        let mut teams: Vec<TeamStats> = self
            .team_acc
            .into_iter()
            .map(|(line_up, a)| TeamStats {
                line_up,
                matches: a.matches,
                hands: a.points.len() as u64,
                points: Interval::of(&a.points),
                wins: a.wins,
                mean_place: if a.places.is_empty() {
                    0.0
                } else {
                    a.places.iter().sum::<f64>() / a.places.len() as f64
                },
            })
            .collect();
        teams.sort_by(|x, y| {
            let (a, b) = if lower { (x, y) } else { (y, x) };
            a.points
                .mean
                .total_cmp(&b.points.mean)
                .then_with(|| x.line_up.cmp(&y.line_up))
        });
        let ranked: Vec<BotStats> = stats
            .iter()
            .filter(|b| b.unranked.is_none())
            .cloned()
            .collect();
        let pairwise = verdicts(
            &ranked,
            &self.index,
            &self.head_to_head,
            duplicate.as_ref(),
            lower,
        );
        Results {
            format: RESULTS_FORMAT.into(),
            version: RESULTS_VERSION,
            tournament: self.tournament,
            game: self.game,
            lower_is_better: lower,
            matches: self.matches,
            duplicate,
            teams,
            pairwise,
            ranking,
            grade: grade.into(),
            seed: None,
            rating_history: self.rating_history,
            notes: stats.iter().filter_map(doubtful).collect(),
            bots: stats,
        }
    }
}

/// The share of a ranked bot's decisions made by the fallback at or above
/// which its place is flagged (a `doubtful` note): its result is the
/// fallback rule's as much as its own.
pub const DOUBTFUL_FALLBACK_SHARE: f64 = 0.2;

/// The share of a ranked bot's matches forfeited at or above which its
/// place is flagged (a `doubtful` note).
pub const DOUBTFUL_FORFEIT_SHARE: f64 = 0.25;

/// A `doubtful` note for a ranked bot that made a large share of its
/// decisions by fallback ([`DOUBTFUL_FALLBACK_SHARE`]) or forfeited a large
/// share of its matches ([`DOUBTFUL_FORFEIT_SHARE`]): its place, among
/// bots that played, says little of the bot.
fn doubtful(b: &BotStats) -> Option<Note> {
    if b.unranked.is_some() || b.matches == 0 {
        return None;
    }
    let (by_fallback, decisions) = b.fallbacks;
    let share = if decisions == 0 {
        0.0
    } else {
        by_fallback as f64 / decisions as f64
    };
    let fell_back = share >= DOUBTFUL_FALLBACK_SHARE;
    let forfeited = b.forfeits as f64 >= DOUBTFUL_FORFEIT_SHARE * b.matches as f64;
    let mut why = Vec::new();
    if fell_back {
        why.push(format!(
            "{:.0} % of its decisions were made by the fallback",
            share * 100.0
        ));
    }
    if forfeited {
        why.push(format!("{} of {} matches forfeited", b.forfeits, b.matches));
    }
    (!why.is_empty()).then(|| Note {
        bot: b.name.clone(),
        kind: "doubtful".into(),
        detail: format!("{}: its place says little of the bot", why.join(" and ")),
    })
}

/// Places for a match: the seats that did not forfeit are ranked among
/// themselves by the game's ranks (1 + the number of them strictly better;
/// ties share a place), and every forfeiting seat shares the place after
/// them. So a forfeit never ties with, nor pushes down, a seat that played on.
pub fn places(ranks: &[u8], forfeited: &[usize]) -> Vec<usize> {
    let playing: Vec<usize> = (0..ranks.len())
        .filter(|s| !forfeited.contains(s))
        .collect();
    (0..ranks.len())
        .map(|s| {
            if forfeited.contains(&s) {
                playing.len() + 1
            } else {
                1 + playing.iter().filter(|&&o| ranks[o] < ranks[s]).count()
            }
        })
        .collect()
}

/// How seats form sides in a game, read from its match results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sides {
    /// Every seat for itself.
    Individual,
    /// Partnerships (several seats per team, several teams).
    Partnerships,
    /// One team of every seat (cooperative).
    Cooperative,
}

fn sides(teams: &[u8]) -> Sides {
    let mut ids = teams.to_vec();
    ids.sort_unstable();
    ids.dedup();
    match ids.len() {
        n if n == teams.len() => Sides::Individual,
        1 => Sides::Cooperative,
        _ => Sides::Partnerships,
    }
}

/// The sides of one match: each team's distinct bots and its place (a bot in
/// several seats of one side counts once).
fn line_ups(names: &[String], teams: &[u8], places: &[usize]) -> Vec<(Vec<String>, usize)> {
    let mut out: BTreeMap<u8, (Vec<String>, usize)> = BTreeMap::new();
    for (s, n) in names.iter().enumerate() {
        let e = out.entry(teams[s]).or_insert((Vec::new(), places[s]));
        if !e.0.contains(n) {
            e.0.push(n.clone());
        }
        e.1 = e.1.max(places[s]);
    }
    out.into_values()
        .map(|(mut bots, place)| {
            bots.sort();
            (bots, place)
        })
        .collect()
}

fn rate(
    wl: &mut BTreeMap<String, WengLinRating>,
    g2: &mut BTreeMap<String, Glicko2Rating>,
    names: &[String],
    teams: &[u8],
    places: &[usize],
) {
    if sides(teams) == Sides::Individual {
        // A bot in several seats counts once, at its better place.
        let mut best: BTreeMap<&String, usize> = BTreeMap::new();
        for (s, n) in names.iter().enumerate() {
            let p = best.entry(n).or_insert(places[s]);
            *p = (*p).min(places[s]);
        }
        if best.len() < 2 {
            return;
        }
        if names.len() == 2 {
            let (a, b) = (&names[0], &names[1]);
            let ra = *g2.entry(a.clone()).or_default();
            let rb = *g2.entry(b.clone()).or_default();
            let outcome = match places[0].cmp(&places[1]) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
            };
            let (na, nb) = glicko2(&ra, &rb, &outcome, &Glicko2Config::new());
            g2.insert(a.clone(), na);
            g2.insert(b.clone(), nb);
            return;
        }
    }
    let current: Vec<WengLinRating> = names
        .iter()
        .map(|n| *wl.entry(n.clone()).or_default())
        .collect();
    for (n, r) in names
        .iter()
        .zip(weng_lin_sides(&current, names, teams, places))
    {
        wl.insert(n.clone(), r);
    }
}

/// Weng-Lin after one match, over its sides: each side a team of its
/// distinct bots at the side's place. `ratings` are the seats' ratings
/// before (one per seat; a bot in several seats has the same in each); the
/// result is each seat's rating after. A cooperative game (one side) carries
/// no rating information and changes nothing.
pub fn weng_lin_sides(
    ratings: &[WengLinRating],
    names: &[String],
    teams: &[u8],
    places: &[usize],
) -> Vec<WengLinRating> {
    let sides = line_ups(names, teams, places);
    let mut after = ratings.to_vec();
    if sides.len() < 2 {
        return after;
    }
    let rating_of = |bot: &String| {
        let seat = names.iter().position(|n| n == bot).expect("a seated bot");
        ratings[seat]
    };
    let rosters: Vec<(Vec<String>, Vec<WengLinRating>, usize)> = sides
        .into_iter()
        .map(|(bots, place)| {
            let r = bots.iter().map(rating_of).collect();
            (bots, r, place)
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = rosters
        .iter()
        .map(|(_, r, p)| (&r[..], MultiTeamOutcome::new(*p)))
        .collect();
    let out = weng_lin_multi_team(&input, &WengLinConfig::new());
    for ((bots, _, _), new) in rosters.iter().zip(out) {
        for (b, r) in bots.iter().zip(new) {
            for (seat, n) in names.iter().enumerate() {
                if n == b {
                    after[seat] = r;
                }
            }
        }
    }
    after
}

/// Duplicate comparisons from the cells: (group, deal, seat) → the points of
/// each bot (by index; bots of the file first) that held that seat's cards.
/// Likelihood of superiority from `wins` and `losses` (draws ignored).
pub fn los(wins: u64, losses: u64) -> Option<f64> {
    let n = wins + losses;
    (n > 0)
        .then(|| 0.5 * (1.0 + libm::erf((wins as f64 - losses as f64) / (2.0 * n as f64).sqrt())))
}

/// `better`, `worse` or `equal` for `a` against `b`: the same-cards
/// difference `a − b` decides where there is one (points: above 0 is better;
/// fines: below), else the likelihood of superiority.
fn decide(difference: Option<&Interval>, los: Option<f64>, lower: bool) -> &'static str {
    let sign = if lower { -1.0 } else { 1.0 };
    match (difference, los) {
        (Some(d), _) if d.n >= 2 && d.low * sign > 0.0 && d.high * sign > 0.0 => "better",
        (Some(d), _) if d.n >= 2 && d.low * sign < 0.0 && d.high * sign < 0.0 => "worse",
        (Some(d), _) if d.n >= 2 => "equal",
        (_, Some(l)) if l >= 0.95 => "better",
        (_, Some(l)) if l <= 0.05 => "worse",
        _ => "equal",
    }
}

/// The verdict on every two bots that met, in standings order.
fn verdicts(
    stats: &[BotStats],
    index: &BTreeMap<String, usize>,
    head_to_head: &BTreeMap<(usize, usize), (u64, u64, u64)>,
    duplicate: Option<&DuplicateStats>,
    lower: bool,
) -> Vec<Verdict> {
    let mut out = Vec::new();
    for (k, a) in stats.iter().enumerate() {
        for b in &stats[k + 1..] {
            let (Some(&i), Some(&j)) = (index.get(&a.name), index.get(&b.name)) else {
                continue;
            };
            let (a_ahead, b_ahead, level) = if i < j {
                head_to_head.get(&(i, j)).copied()
            } else {
                head_to_head.get(&(j, i)).map(|&(x, y, z)| (y, x, z))
            }
            .unwrap_or_default();
            let difference = duplicate.and_then(|d| {
                d.pairs.iter().find_map(|p| {
                    if p.a == a.name && p.b == b.name {
                        Some(p.difference)
                    } else if p.a == b.name && p.b == a.name {
                        let d = p.difference;
                        Some(Interval {
                            n: d.n,
                            mean: -d.mean,
                            low: -d.high,
                            high: -d.low,
                        })
                    } else {
                        None
                    }
                })
            });
            let matches = a_ahead + b_ahead + level;
            if matches == 0 && difference.is_none() {
                continue;
            }
            let los = los(a_ahead, b_ahead);
            let verdict = decide(difference.as_ref(), los, lower);
            out.push(Verdict {
                a: a.name.clone(),
                b: b.name.clone(),
                matches,
                a_ahead,
                b_ahead,
                level,
                los,
                difference,
                verdict: verdict.into(),
            });
        }
    }
    out
}

fn duplicate_stats(cells: &Cells, bots: &[String], lower: bool) -> DuplicateStats {
    let mut vs_par: Vec<Vec<f64>> = vec![Vec::new(); bots.len()];
    let mut mps: Vec<Vec<f64>> = vec![Vec::new(); bots.len()];
    let mut pairs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    for entries in cells.values() {
        if entries.len() < 2 {
            continue;
        }
        let par = entries.iter().map(|(_, p)| p).sum::<f64>() / entries.len() as f64;
        let sign = if lower { -1.0 } else { 1.0 };
        for (k, &(bot, p)) in entries.iter().enumerate() {
            if let Some(v) = vs_par.get_mut(bot) {
                v.push(p - par);
            }
            // Matchpoints against the others on the same cards.
            let mut mp = 0.0;
            for (l, &(_, q)) in entries.iter().enumerate() {
                if l != k {
                    mp += match (sign * (p - q)).partial_cmp(&0.0) {
                        Some(std::cmp::Ordering::Greater) => 1.0,
                        Some(std::cmp::Ordering::Equal) => 0.5,
                        _ => 0.0,
                    };
                }
            }
            if let Some(v) = mps.get_mut(bot) {
                v.push(100.0 * mp / (entries.len() - 1) as f64);
            }
        }
        // A bot may hold a deal's seat in several matches of its group (every
        // order of the others, or a repeated bot): its mean there.
        let of = |bot: usize| {
            let mine: Vec<f64> = entries
                .iter()
                .filter(|(b, _)| *b == bot)
                .map(|x| x.1)
                .collect();
            (!mine.is_empty()).then(|| mine.iter().sum::<f64>() / mine.len() as f64)
        };
        for i in 0..bots.len() {
            for j in i + 1..bots.len() {
                if let (Some(pa), Some(pb)) = (of(i), of(j)) {
                    pairs.entry((i, j)).or_default().push(pa - pb);
                }
            }
        }
    }
    // Bots in name order, as before.
    let mut versus_par: Vec<(String, Interval)> = bots
        .iter()
        .zip(&vs_par)
        .map(|(n, v)| (n.clone(), Interval::of(v)))
        .collect();
    versus_par.sort_by(|a, b| a.0.cmp(&b.0));
    // A percentage: its interval stays within 0 and 100.
    let mut matchpoints: Vec<(String, Interval)> = bots
        .iter()
        .zip(&mps)
        .map(|(n, v)| {
            let i = Interval::of(v);
            let (low, high) = if i.n < 2 {
                (i.low, i.high)
            } else {
                (i.low.max(0.0), i.high.min(100.0))
            };
            (n.clone(), Interval { low, high, ..i })
        })
        .collect();
    matchpoints.sort_by(|a, b| a.0.cmp(&b.0));
    DuplicateStats {
        versus_par,
        matchpoints,
        pairs: pairs
            .into_iter()
            .map(|((i, j), v)| PairStats {
                a: bots[i].clone(),
                b: bots[j].clone(),
                difference: Interval::of(&v),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ranked_bot_playing_much_by_fallback_or_forfeit_is_doubtful() {
        let b = |fallbacks: (u64, u64), forfeits: u64, unranked: Option<&str>| BotStats {
            name: "illegal".into(),
            matches: 8,
            hands: 16,
            points: Interval::of(&[1.0, 2.0]),
            bids_made: (0, 0),
            wins: 0,
            mean_place: 2.0,
            forfeits,
            faults: BTreeMap::new(),
            fallbacks,
            mean_ms: 0.0,
            max_ms: 0.0,
            rating: None,
            own_points: None,
            grade: None,
            unranked: unranked.map(String::from),
        };
        let note = doubtful(&b((49, 100), 4, None)).unwrap();
        assert_eq!(note.kind, "doubtful");
        assert_eq!(note.bot, "illegal");
        assert_eq!(
            note.detail,
            "49 % of its decisions were made by the fallback and 4 of 8 matches forfeited: \
             its place says little of the bot"
        );
        assert_eq!(
            doubtful(&b((0, 100), 2, None)).unwrap().detail,
            "2 of 8 matches forfeited: its place says little of the bot"
        );
        assert_eq!(
            doubtful(&b((20, 100), 1, None)).unwrap().detail,
            "20 % of its decisions were made by the fallback: its place says little of the bot"
        );
        // Below both thresholds: a working bot with a few faults.
        assert_eq!(doubtful(&b((19, 100), 1, None)), None);
        // A bot not ranked says why already.
        assert_eq!(
            doubtful(&b((100, 100), 8, Some("forfeited every match"))),
            None
        );
    }

    #[test]
    fn los_is_fastchess_formula() {
        assert_eq!(los(0, 0), None);
        assert!((los(10, 10).unwrap() - 0.5).abs() < 1e-12);
        // W − L = 20 over 100 decided: ½(1 + erf(20 / √200)) ≈ 0.9772.
        assert!((los(60, 40).unwrap() - 0.977_249_9).abs() < 1e-6);
        assert!(los(5, 0).unwrap() > 0.98 && los(0, 5).unwrap() < 0.02);
    }

    #[test]
    fn verdicts_use_the_same_cards_difference_first_then_the_los() {
        let iv = |low: f64, high: f64| Interval {
            n: 10,
            mean: (low + high) / 2.0,
            low,
            high,
        };
        assert_eq!(decide(Some(&iv(1.0, 3.0)), Some(0.2), false), "better");
        assert_eq!(decide(Some(&iv(-3.0, -1.0)), Some(0.99), false), "worse");
        assert_eq!(decide(Some(&iv(-1.0, 3.0)), Some(0.99), false), "equal");
        // Fines: fewer is better.
        assert_eq!(decide(Some(&iv(-3.0, -1.0)), None, true), "better");
        assert_eq!(decide(None, Some(0.96), false), "better");
        assert_eq!(decide(None, Some(0.04), false), "worse");
        assert_eq!(decide(None, Some(0.5), false), "equal");
        assert_eq!(decide(None, None, false), "equal");
    }

    #[test]
    fn intervals_use_students_t_and_shrink_with_samples() {
        let i = Interval::of(&[1.0, 2.0, 3.0]);
        assert_eq!(i.n, 3);
        assert!((i.mean - 2.0).abs() < 1e-12);
        // sd = 1, t(2) = 4.303: half width 4.303 / sqrt(3).
        assert!((i.high - 2.0 - 4.303 / 3f64.sqrt()).abs() < 1e-9);
        let many: Vec<f64> = (0..1000).map(|k| (k % 3) as f64 + 1.0).collect();
        let j = Interval::of(&many);
        assert!(j.high - j.low < i.high - i.low);
        assert!(Interval::of(&[5.0]).high.is_infinite());
        assert!(!i.disjoint(&j));
    }
}
