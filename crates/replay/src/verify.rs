//! Verification: re-deal, re-apply, re-judge, re-score; check the hash chain
//! and the seed commitment. Settles a dispute from the log alone.
//!
//! Input is either a match log as the tournament runner writes it (sealed:
//! every line after the header carries `prev`), or a record typed by a
//! person: a header naming the game and options, then hands given by their
//! deal (a deck order, or each seat's cards plus the rest) and their actions,
//! without hashes, seeds or results. For the latter the verifier reports the
//! verdict on every action and the scores that result.

use std::{borrow::Cow, collections::BTreeMap, path::Path};

use rayon::prelude::*;
use ring::digest::Digest;
use serde::{Deserialize, Serialize};
use whistle_rules::{
    Action, AnyGame, Card, CardSet, Fallback, Game, HandContext, HandResult, MatchDriver,
    MatchResult, Options, PerSeat, Seat, Status, Variant,
    dealing::{self, Domain, Seed},
};

mod scan;

use crate::{
    ActionLog, Duplicate, EndLog, FORMAT, FaultLog, HandLog, Header, MatchLog, VERSION, hex,
    is_hex_of, seed_commitment, sha256,
};

/// A header as accepted for verification: only the game is required.
#[derive(Debug, Clone, Deserialize)]
struct HeaderIn {
    format: String,
    version: u32,
    game: String,
    #[serde(default)]
    options: Options,
    #[serde(rename = "match")]
    match_index: Option<u64>,
    seats: Option<Vec<String>>,
    seed_commitment: Option<String>,
    faults: Option<crate::Faults>,
    duplicate: Option<Duplicate>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum CardsIn {
    Text(String),
    List(Vec<Card>),
}

impl CardsIn {
    fn cards(&self) -> Result<Vec<Card>, String> {
        match self {
            CardsIn::List(v) => Ok(v.clone()),
            CardsIn::Text(t) => t
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(|w| w.parse::<Card>().map_err(|e| e.to_string()))
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum ActionIn {
    Full {
        seat: Seat,
        action: Action,
        #[serde(default)]
        fallback: bool,
    },
    /// `"2 bid 7D"`: seat, then the action.
    Short(String),
}

impl ActionIn {
    fn parse(&self) -> Result<(Seat, StepAction, bool), String> {
        match self {
            ActionIn::Full {
                seat,
                action,
                fallback,
            } => Ok((*seat, StepAction::Typed(*action), *fallback)),
            ActionIn::Short(s) => {
                let (seat, rest) = s
                    .trim()
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| format!("`{s}` is not `SEAT ACTION`"))?;
                let seat: usize = seat
                    .parse()
                    .ok()
                    .filter(|&n| n < whistle_rules::MAX_SEATS)
                    .ok_or_else(|| format!("no such seat: `{seat}`"))?;
                Ok((
                    Seat::new(seat),
                    StepAction::Text(rest.trim().to_string()),
                    false,
                ))
            }
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
struct HandIn<'a> {
    /// Borrowed from the line, as the runner writes it (hex, no escapes).
    #[serde(borrow)]
    prev: Option<Cow<'a, str>>,
    deal: Option<u32>,
    dealer: Option<Seat>,
    deck: Option<CardsIn>,
    hands: Option<Vec<CardsIn>>,
    rest: Option<CardsIn>,
    #[serde(default)]
    actions: Vec<ActionIn>,
    #[serde(default)]
    faults: Vec<FaultLog>,
    result: Option<HandResult>,
    /// Typed-in records only, on the first hand: where it sits in its match.
    context: Option<HandContext>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum LineIn<'a> {
    Header(HeaderIn),
    #[serde(borrow)]
    Hand(Box<HandIn<'a>>),
    End(EndLog),
}

/// One line of a log: a runner-written hand line read in one pass
/// (`scan`), a runner-written end line by its concrete type, anything else
/// (the header, typed-in records, a line that is not a record) by the
/// general parser, which says what is wrong with a bad line.
fn parse_line(l: &str) -> Result<LineIn<'_>, serde_json::Error> {
    if l.starts_with(r#"{"type":"hand","#) {
        if let Some(h) = scan::hand(l) {
            return Ok(LineIn::Hand(Box::new(h)));
        }
    } else if l.starts_with(r#"{"type":"end","#) {
        if let Ok(e) = serde_json::from_str::<EndLog>(l) {
            return Ok(LineIn::End(e));
        }
    }
    serde_json::from_str::<LineIn<'_>>(l)
}

/// The verdict on one action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Index of the action in its hand.
    pub index: usize,
    /// The seat.
    pub seat: Seat,
    /// The action as given.
    pub action: StepAction,
    /// Whether the referee played it as a fallback.
    pub fallback: bool,
    /// `legal`, or why not.
    pub verdict: Cow<'static, str>,
}

/// An action as a log gives it: typed (a runner-written log, kept as the
/// action itself) or as text (typed in by a person, kept as written).
/// Displayed and serialized as its text either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepAction {
    /// An action the log gave in canonical form.
    Typed(Action),
    /// An action as a person wrote it.
    Text(String),
}

impl std::fmt::Display for StepAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Through `pad`, so `{:<14}` lines the steps up as before.
            StepAction::Typed(a) => f.pad(&a.to_string()),
            StepAction::Text(t) => f.pad(t),
        }
    }
}

impl Serialize for StepAction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            StepAction::Typed(a) => a.serialize(s),
            StepAction::Text(t) => s.serialize_str(t),
        }
    }
}

/// A verified hand.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandReport {
    /// The deal index.
    pub deal: u32,
    /// Every action's verdict.
    pub steps: Vec<Step>,
    /// The result computed by the engine, if the hand was complete.
    pub result: Option<HandResult>,
    /// For an incomplete typed-in hand: who must act next and their legal actions.
    pub next: Option<String>,
}

/// A mismatch between the log and what the rules give.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// 1-based line of the log.
    pub line: usize,
    /// The hand (deal index), if the problem is in one.
    pub deal: Option<u32>,
    /// The action index in that hand, if the problem is at one.
    pub step: Option<usize>,
    /// What was checked.
    pub what: String,
    /// What the rules (or the chain, or the seed) give.
    pub expected: String,
    /// What the log says.
    pub found: String,
}

/// The result of verifying one log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The file.
    pub file: String,
    /// The game.
    pub game: String,
    /// Whether the log carries a hash chain (written by the runner).
    pub sealed: bool,
    /// Whether the match seed was checked against the deals.
    pub seed_checked: bool,
    /// Whether the tournament seed was checked against the commitment and the match seed.
    pub commitment_checked: bool,
    /// The hands.
    pub hands: Vec<HandReport>,
    /// The match result computed by the engine, if the match is over.
    pub result: Option<MatchResult>,
    /// Every problem found; empty means the log is correct.
    pub problems: Vec<Problem>,
    /// The game's effective options and seat count, once the header is read.
    #[serde(skip)]
    game_options: Option<(Options, usize)>,
}

impl Report {
    /// Whether no problem was found.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// What the verifier may use beyond the log.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context {
    /// The tournament seed, once revealed: checked against the header's
    /// commitment and used to re-derive the match seed.
    pub tournament_seed: Option<Seed>,
}

struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    fn add(
        &mut self,
        line: usize,
        deal: Option<u32>,
        step: Option<usize>,
        what: &str,
        expected: impl ToString,
        found: impl ToString,
    ) {
        self.problems.push(Problem {
            line,
            deal,
            step,
            what: what.to_string(),
            expected: expected.to_string(),
            found: found.to_string(),
        });
    }

    fn compare<T: PartialEq + Plain>(
        &mut self,
        line: usize,
        deal: Option<u32>,
        what: &str,
        expected: &T,
        found: &T,
    ) {
        if expected != found {
            self.add(line, deal, None, what, expected.plain(), found.plain());
        }
    }
}

/// A value as a problem report shows it to a person: the game's notation
/// (`bid 4`, `AH`, seat numbers), never Rust's debug form.
trait Plain {
    fn plain(&self) -> String;
}

macro_rules! plain_by_display {
    ($($t:ty),*) => {$(
        impl Plain for $t {
            fn plain(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

plain_by_display!(
    i32,
    u32,
    u8,
    usize,
    bool,
    String,
    Seat,
    whistle_rules::Action
);

impl<T: Plain> Plain for Option<T> {
    fn plain(&self) -> String {
        self.as_ref().map_or_else(|| "-".to_string(), Plain::plain)
    }
}

impl<T: Plain> Plain for Vec<T> {
    fn plain(&self) -> String {
        format!(
            "[{}]",
            self.iter().map(Plain::plain).collect::<Vec<_>>().join(", ")
        )
    }
}

impl<T: Plain> Plain for PerSeat<T> {
    fn plain(&self) -> String {
        format!(
            "[{}]",
            self.iter().map(Plain::plain).collect::<Vec<_>>().join(", ")
        )
    }
}

impl Plain for whistle_rules::ScoreOrder {
    fn plain(&self) -> String {
        match self {
            whistle_rules::ScoreOrder::HigherIsBetter => "higher is better".into(),
            whistle_rules::ScoreOrder::LowerIsBetter => "lower is better".into(),
        }
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Verifies the log in `path`.
///
/// # Errors
/// Only for a file that cannot be read; everything wrong inside it is a
/// [`Problem`] in the report.
pub fn verify_file(path: &Path, ctx: Context) -> std::io::Result<Report> {
    let text = String::from_utf8(crate::read_log_bytes(path)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    Ok(verify_text(&path.display().to_string(), &text, ctx))
}

/// Verifies a log given as text (`name` is for the report).
pub fn verify_text(name: &str, text: &str, ctx: Context) -> Report {
    run(name, text, ctx, false).0
}

/// Reads a record typed in by a person (or any log) as a [`MatchLog`], as
/// far as its actions are legal: each hand's deal index, dealer, deck,
/// actions, faults, context and the result the engine computes (an
/// incomplete hand has an empty result). The header is filled with what a
/// typed-in record leaves out (no tournament, no bot names).
///
/// # Errors
/// The file cannot be read, or its header names no known game or valid
/// options (the report's first problem).
pub fn read_typed_in(path: &Path) -> Result<MatchLog, String> {
    let text = crate::read_log_bytes(path)
        .and_then(|b| {
            String::from_utf8(b)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (report, hands, header) = run(&path.display().to_string(), &text, Context::default(), true);
    let (Some(header), Some(game)) = (header, report.game_options) else {
        let p = report.problems.first();
        return Err(p.map_or("not a log".into(), |p| {
            format!(
                "line {}: {}: expected {}, found {}",
                p.line, p.what, p.expected, p.found
            )
        }));
    };
    let (options, seats) = game;
    let variant: Variant = header.game.parse().map_err(|e| format!("line 1: {e}"))?;
    let built = Header::builder(
        "",
        header.match_index.unwrap_or(0),
        variant,
        options,
        header.seats.unwrap_or_else(|| vec![String::new(); seats]),
    )
    .table(String::new())
    .seed_commitment(header.seed_commitment.unwrap_or_default())
    .faults(header.faults.unwrap_or(crate::Faults {
        max_faults: 0,
        fallback: "first".into(),
    }))
    .duplicate(header.duplicate)
    .build();
    Ok(MatchLog {
        // The game as the record names it.
        header: Header {
            game: header.game,
            ..built
        },
        hands,
        end: None,
        last_hash: String::new(),
    })
}

/// Verifies; also returns the header as read and, with `collect`, the hands
/// as re-played (verification alone does not build them). The log is
/// checked along its format: its lines as records, then the header (the
/// format, the hash chain, the game and the seeds), then the hands in
/// order, then the end.
fn run(
    name: &str,
    text: &str,
    ctx: Context,
    collect: bool,
) -> (Report, Vec<HandLog>, Option<HeaderIn>) {
    let mut v = Verifier {
        c: Checker {
            problems: Vec::new(),
        },
        report: Report {
            file: name.to_string(),
            game: String::new(),
            sealed: false,
            seed_checked: false,
            commitment_checked: false,
            hands: Vec::new(),
            result: None,
            problems: Vec::new(),
            game_options: None,
        },
        played: Vec::new(),
        collect,
    };
    if !text.is_empty() && !text.ends_with('\n') {
        let last = text.lines().count();
        v.c.add(
            last,
            None,
            None,
            "last line",
            "a complete line ending in a newline",
            "a partial line (the log was cut)",
        );
    }
    let raw: Vec<&str> = text.lines().collect();
    let (lines, hashes) = match read_lines(&raw) {
        Ok(read) => read,
        Err((line, e)) => {
            v.c.add(line, None, None, "record", "a valid record", e.to_string());
            return v.finish(None);
        }
    };
    let Some((_, LineIn::Header(header))) = lines.first() else {
        v.c.add(
            1,
            None,
            None,
            "header",
            "a header as the first line",
            "something else",
        );
        return v.finish(None);
    };
    let Some(mut m) = v.header(header, &lines, &hashes, ctx) else {
        return v.finish(Some(header.clone()));
    };
    let faults = v.hands(&lines, &mut m);
    v.end(&m, &faults, raw.len());
    v.finish(Some(header.clone()))
}

/// A verification under way: the problems found and the report so far,
/// and (with `collect`) the hands as re-played.
struct Verifier {
    c: Checker,
    report: Report,
    played: Vec<HandLog>,
    collect: bool,
}

/// The match as the header sets it up, re-played hand by hand.
struct Replay<'l> {
    driver: MatchDriver<AnyGame>,
    /// The match seed, from the end record.
    match_seed: Option<Seed>,
    /// Whether logged fallbacks are compared with the rule's.
    fallbacks_checked: bool,
    /// The end record and its line.
    end: Option<(usize, &'l EndLog)>,
}

/// Each seat's fault count and whether it forfeited, as the hands' fault
/// records leave them.
type FaultCounts = BTreeMap<Seat, (u32, bool)>;

/// What follows a hand.
enum After {
    /// The next hand.
    Next,
    /// Nothing more can be checked, and what stopped it is said already.
    Stop,
    /// Hand `deal` stops the replay (`broken`: at an action the rules
    /// refuse; else it is incomplete): the hand lines after it are named
    /// as not checked.
    Cut { deal: u32, broken: bool },
}

impl Verifier {
    fn finish(mut self, header: Option<HeaderIn>) -> (Report, Vec<HandLog>, Option<HeaderIn>) {
        self.report.problems = self.c.problems;
        (self.report, self.played, header)
    }

    /// The header: the format, the hash chain (a sealed log carries `prev`
    /// on every line after the header), the game and its options, the
    /// seeds (the tournament seed against its commitment, the match seed
    /// against its derivation). Returns the match to re-play, unless the
    /// game cannot be set up.
    fn header<'l>(
        &mut self,
        header: &HeaderIn,
        lines: &'l [(usize, LineIn<'_>)],
        hashes: &[Digest],
        ctx: Context,
    ) -> Option<Replay<'l>> {
        let c = &mut self.c;
        let report = &mut self.report;
        if header.format != FORMAT || header.version != VERSION {
            c.add(
                1,
                None,
                None,
                "format",
                format!("{FORMAT} version {VERSION}"),
                format!("{} version {}", header.format, header.version),
            );
        }
        report.game = header.game.clone();
        let prevs: Vec<Option<&str>> = lines
            .iter()
            .skip(1)
            .map(|(_, l)| match l {
                LineIn::Hand(h) => h.prev.as_deref(),
                LineIn::End(e) => Some(e.prev.as_str()),
                LineIn::Header(_) => None,
            })
            .collect();
        report.sealed = header.seed_commitment.is_some() || prevs.iter().any(Option::is_some);
        if report.sealed {
            check_chain(c, lines, hashes, &prevs);
        }
        let variant: Variant = match header.game.parse() {
            Ok(v) => v,
            Err(e) => {
                c.add(1, None, None, "game", "a known game", e);
                return None;
            }
        };
        let game: AnyGame = match variant.new_game(&header.options) {
            Ok(g) => g,
            Err(e) => {
                c.add(1, None, None, "options", "valid options", e);
                return None;
            }
        };
        if let Some(seats) = &header.seats {
            c.compare(1, None, "seats", &game.seats(), &seats.len());
        }
        report.game_options = Some((game.options(), game.seats()));
        let end = lines.iter().find_map(|(n, l)| match l {
            LineIn::End(e) => Some((*n, e)),
            _ => None,
        });
        let match_seed = end.map(|(_, e)| e.match_seed);
        if let (Some(seed), Some(commitment)) = (ctx.tournament_seed, &header.seed_commitment) {
            report.commitment_checked = true;
            c.compare(
                1,
                None,
                "seed commitment (SHA-256 of the tournament seed)",
                &seed_commitment(seed),
                commitment,
            );
            if let (Some(ms), Some(index)) = (match_seed, header.match_index) {
                let slot = header.duplicate.map_or(index, |d| d.group);
                let expected = seed.derive(Domain::Match, slot);
                let line = end.map_or(1, |(n, _)| n);
                c.compare(
                    line,
                    None,
                    "match seed (derived from the tournament seed)",
                    &expected.to_hex(),
                    &ms.to_hex(),
                );
            }
        }
        report.seed_checked = match_seed.is_some();
        // The match is re-played through the same driver the referee uses:
        // its fallback rule and count decide what each logged fallback must
        // be. A header without a fault policy predates the `passive`
        // default: its fallbacks were `random`, as they were then.
        let rule = header
            .faults
            .as_ref()
            .map_or(Some(Fallback::Random), |f| Fallback::from_name(&f.fallback))
            .unwrap_or(Fallback::Random);
        Some(Replay {
            driver: MatchDriver::new(game, match_seed.unwrap_or_default(), rule).without_events(),
            match_seed,
            // A random fallback can be checked only against a known match
            // seed.
            fallbacks_checked: rule != Fallback::Random || match_seed.is_some(),
            end,
        })
    }

    /// The hands, in order, each re-dealt and re-played; returns the fault
    /// counts they leave.
    fn hands(&mut self, lines: &[(usize, LineIn<'_>)], m: &mut Replay<'_>) -> FaultCounts {
        let mut faults = FaultCounts::new();
        for (k, (line, l)) in lines.iter().enumerate().skip(1) {
            let line = *line;
            let hand = match l {
                LineIn::Hand(h) => h,
                LineIn::End(_) => continue,
                LineIn::Header(_) => {
                    self.c.add(
                        line,
                        None,
                        None,
                        "record",
                        "a hand or the end",
                        "a second header",
                    );
                    continue;
                }
            };
            match self.hand(line, hand, m, &mut faults) {
                After::Next => {}
                After::Stop => break,
                After::Cut { deal, broken } => {
                    self.not_checked(&lines[k + 1..], deal, broken);
                    break;
                }
            }
        }
        faults
    }

    /// The hand lines after hand `deal`, which stopped the replay: what
    /// follows cannot be played from here, and is said, not skipped.
    fn not_checked(&mut self, after: &[(usize, LineIn<'_>)], deal: u32, broken: bool) {
        let rest: Vec<usize> = after
            .iter()
            .filter(|(_, l)| matches!(l, LineIn::Hand(_)))
            .map(|(n, _)| *n)
            .collect();
        if let Some(first) = rest.first() {
            self.c.add(
                *first,
                None,
                None,
                "hand",
                format!(
                    "no hand after hand {deal}, which {}",
                    if broken {
                        "stops at an action the rules refuse"
                    } else {
                        "is incomplete"
                    }
                ),
                format!(
                    "{} more hand line(s) (lines {}), not checked",
                    rest.len(),
                    rest.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }

    /// One hand: where it starts (a typed-in record's context), its deal
    /// (against the match seed), its actions and faults, its result.
    fn hand(
        &mut self,
        line: usize,
        hand: &HandIn<'_>,
        m: &mut Replay<'_>,
        faults: &mut FaultCounts,
    ) -> After {
        let c = &mut self.c;
        let sealed = self.report.sealed;
        let driver = &mut m.driver;
        if let Some(context) = &hand.context {
            if sealed {
                c.add(
                    line,
                    None,
                    None,
                    "context",
                    "none (a sealed log holds its whole match)",
                    "a context",
                );
                return After::Stop;
            }
            if !self.report.hands.is_empty() {
                c.add(
                    line,
                    None,
                    None,
                    "context",
                    "a context on the first hand only (later hands follow from it)",
                    "a context on a later hand",
                );
                return After::Stop;
            }
            if let Err(e) = driver.start_at(context) {
                c.add(
                    line,
                    Some(context.hand),
                    None,
                    "context",
                    "a match state the rules allow",
                    e,
                );
                return After::Stop;
            }
        }
        if driver.game().status() != Status::Deal {
            c.add(
                line,
                None,
                None,
                "hand",
                "no more hands (the match is over or the previous hand is incomplete)",
                "another hand",
            );
            return After::Stop;
        }
        let deal = driver.game().deals();
        let dealer = driver.game().dealer();
        if let Some(d) = hand.deal {
            c.compare(line, Some(deal), "deal index", &deal, &d);
        }
        if let Some(d) = hand.dealer {
            c.compare(line, Some(deal), "dealer", &driver.game().dealer(), &d);
        }
        let deck = match deck_of(driver.game(), hand) {
            Ok(d) => d,
            Err(e) => {
                c.add(line, Some(deal), None, "deal", "a valid deal", e);
                return After::Stop;
            }
        };
        if let Some(ms) = m.match_seed {
            let expected = dealing::deck_order(dealing::deal_seed(ms, deal), driver.game().deck());
            if expected.as_slice() != deck.as_slice() {
                c.add(
                    line,
                    Some(deal),
                    None,
                    "deal (from the match seed)",
                    cards_text(&expected),
                    cards_text(&deck),
                );
            }
        }
        if let Err(e) = driver.deal_with(&deck) {
            c.add(line, Some(deal), None, "deal", "exactly the game's deck", e);
            return After::Stop;
        }
        let results_before = driver.game().hand_results().len();
        let (steps, actions, broken) = self.actions(line, deal, hand, m, faults);
        let c = &mut self.c;
        let driver = &mut m.driver;
        for f in hand.faults.iter().filter(|f| f.at >= hand.actions.len()) {
            let e = faults.entry(f.seat).or_default();
            e.0 = f.faults;
            e.1 |= f.forfeited;
        }
        let computed = driver.game().hand_results().get(results_before).cloned();
        let mut next = None;
        if !broken && computed.is_none() {
            if sealed {
                c.add(
                    line,
                    Some(deal),
                    None,
                    "hand",
                    "complete (the actions end the hand)",
                    "incomplete",
                );
            } else {
                // A typed-in hand may stop anywhere: say what comes next.
                next = Some(next_actions(driver.game()));
            }
        }
        if let (Some(found), Some(expected)) = (&hand.result, &computed) {
            compare_results(c, line, deal, expected, found);
        }
        let incomplete = next.is_some();
        if self.collect {
            self.played.push(HandLog {
                prev: String::new(),
                deal,
                dealer,
                deck,
                actions,
                faults: hand.faults.clone(),
                result: computed
                    .clone()
                    .unwrap_or_else(|| incomplete_result(deal, dealer)),
                context: hand.context.clone(),
            });
        }
        self.report.hands.push(HandReport {
            deal,
            steps,
            result: computed,
            next,
        });
        if broken || incomplete {
            After::Cut { deal, broken }
        } else {
            After::Next
        }
    }

    /// A hand's actions, each judged and applied in turn, and its faults
    /// re-judged where they happened; stops at the first action the rules
    /// refuse. Returns each action's verdict, the actions applied (with
    /// `collect`) and whether an action was refused.
    fn actions(
        &mut self,
        line: usize,
        deal: u32,
        hand: &HandIn<'_>,
        m: &mut Replay<'_>,
        faults: &mut FaultCounts,
    ) -> (Vec<Step>, Vec<ActionLog>, bool) {
        let c = &mut self.c;
        let driver = &mut m.driver;
        let mut steps = Vec::with_capacity(hand.actions.len());
        let mut actions = Vec::new();
        let mut broken = false;
        for (i, a) in hand.actions.iter().enumerate() {
            for f in hand.faults.iter().filter(|f| f.at == i) {
                check_fault(c, driver.game(), line, deal, i, f);
                let e = faults.entry(f.seat).or_default();
                e.0 = f.faults;
                e.1 |= f.forfeited;
            }
            let (seat, given, fallback) = match a.parse() {
                Ok(x) => x,
                Err(e) => {
                    c.add(line, Some(deal), Some(i), "action", "SEAT ACTION", e);
                    broken = true;
                    break;
                }
            };
            // The fallback the driver's rule gives here, before the action
            // changes the game (only for a seat that is asked: any other
            // action is rejected below, and has no fallback to compare).
            let expected_fallback = (fallback
                && m.fallbacks_checked
                && driver.game().status() == Status::Act
                && driver.game().to_act().contains(seat))
            .then(|| driver.fallback(seat));
            // A typed action the game accepts and applies is what judging
            // its text would give (the legal list is exactly the actions
            // that pass `validate`: tests/conformance.rs), so it is applied
            // at once; anything else is judged from its text, for the same
            // messages as the referee's, and applied if legal.
            let applied = match given {
                StepAction::Typed(action) if driver.game().accepts(action.kind()) => driver
                    .apply(seat, action, fallback)
                    .is_ok()
                    .then_some(action),
                _ => None,
            };
            let judged = match applied {
                Some(action) => Ok(action),
                None => whistle_rules::judge(
                    driver.game(),
                    seat,
                    &whistle_rules::Answer::Text(given.to_string()),
                )
                .inspect(|&action| {
                    driver.apply(seat, action, fallback).expect("judged legal");
                }),
            };
            let verdict = match judged {
                Ok(action) => {
                    if let Some(expected) = expected_fallback
                        && expected != action
                    {
                        c.add(
                            line,
                            Some(deal),
                            Some(i),
                            "fallback action",
                            expected,
                            action,
                        );
                    }
                    if self.collect {
                        actions.push(ActionLog {
                            seat,
                            action,
                            ms: 0.0,
                            fallback,
                        });
                    }
                    Cow::Borrowed("legal")
                }
                Err(r) => {
                    c.add(
                        line,
                        Some(deal),
                        Some(i),
                        &format!("action `{given}` by seat {seat}"),
                        "a legal action",
                        format!("{r}{}", played_before(&hand.actions[..i], &given)),
                    );
                    broken = true;
                    Cow::Owned(format!("rejected: {r}"))
                }
            };
            steps.push(Step {
                index: i,
                seat,
                action: given,
                fallback,
                verdict,
            });
            if broken {
                break;
            }
        }
        (steps, actions, broken)
    }

    /// The end: the match result against the engine's, the forfeits and
    /// fault counts against the hands' fault records; or, for a sealed log
    /// whose match is over, that the end record is there.
    fn end(&mut self, m: &Replay<'_>, faults: &FaultCounts, lines: usize) {
        let c = &mut self.c;
        let game = m.driver.game();
        self.report.result = game.result();
        let Some((line, e)) = m.end else {
            if self.report.sealed && game.is_over() {
                c.add(
                    lines,
                    None,
                    None,
                    "end",
                    "an end record after the last hand",
                    "none",
                );
            }
            return;
        };
        match &self.report.result {
            None => c.add(
                line,
                None,
                None,
                "end",
                format!(
                    "more hands: after the {} hand(s) logged the match is not over",
                    self.report.hands.len()
                ),
                "an end record, as if it were",
            ),
            Some(r) => {
                let f = &e.result;
                c.compare(line, None, "match result: totals", &r.totals, &f.totals);
                c.compare(line, None, "match result: places", &r.ranks, &f.ranks);
                c.compare(line, None, "match result: teams", &r.teams, &f.teams);
                c.compare(line, None, "match result: order", &r.order, &f.order);
                c.compare(line, None, "match result: hands", &r.hands, &f.hands);
                c.compare(line, None, "match result: note", &r.note, &f.note);
            }
        }
        let forfeited: Vec<Seat> = faults
            .iter()
            .filter(|(_, v)| v.1)
            .map(|(s, _)| *s)
            .collect();
        c.compare(line, None, "forfeited seats", &forfeited, &e.forfeited);
        let counts: Vec<u32> = (0..game.seats())
            .map(|s| faults.get(&Seat::new(s)).map_or(0, |v| v.0))
            .collect();
        if e.faults.len() == counts.len() {
            c.compare(line, None, "fault counts", &counts, &e.faults);
        }
    }
}

/// A hand's deck: the order given, or made from each seat's cards and the
/// rest.
fn deck_of(game: &AnyGame, hand: &HandIn<'_>) -> Result<Vec<Card>, String> {
    match (&hand.deck, &hand.hands) {
        (Some(d), _) => d.cards(),
        (None, Some(hs)) => {
            let sets: Vec<CardSet> = hs
                .iter()
                .map(|h| h.cards().map(|v| v.into_iter().collect()))
                .collect::<Result<_, _>>()?;
            let rest = hand.rest.as_ref().map_or(Ok(Vec::new()), CardsIn::cards)?;
            dealing::deck_from_hands(game, &sets, &rest).map_err(|e| e.to_string())
        }
        (None, None) => Err("a hand needs `deck`, or `hands` (and `rest`)".into()),
    }
}

/// For a card refused as played twice: where it was played already (one
/// of the two steps was edited, and the earlier one may be the edit).
fn played_before(before: &[ActionIn], given: &StepAction) -> String {
    let text = given.to_string();
    text.parse::<Card>()
        .ok()
        .and_then(|_| {
            before
                .iter()
                .position(|b| b.parse().is_ok_and(|(_, g, _)| g.to_string() == text))
        })
        .map_or_else(String::new, |j| {
            format!(
                " ({text} was played at step {j} already: if the record was \
                 edited, the change is at step {j} or here)"
            )
        })
}

/// Who must act next in an incomplete hand, and their legal actions.
fn next_actions(game: &AnyGame) -> String {
    game.to_act()
        .iter()
        .map(|s| {
            let legal: Vec<String> = game
                .legal_actions(s)
                .iter()
                .map(|a| a.to_string())
                .collect();
            format!("seat {s}: {}", legal.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A log's lines with their 1-based numbers, and the hash of each.
type ReadLines<'a> = (Vec<(usize, LineIn<'a>)>, Vec<Digest>);

/// Parses every non-blank line of a log and hashes its bytes (SHA-256, one
/// pass over them), on every core: until the chain is compared and the
/// match re-played, which follow in order, lines are independent. Returns
/// the lines with their 1-based numbers, and each one's hash; or the first
/// line, in order, that is not a record (as reading them one by one would).
fn read_lines<'a>(raw: &[&'a str]) -> Result<ReadLines<'a>, (usize, serde_json::Error)> {
    let read: Vec<_> = raw
        .par_iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, parse_line(l), sha256(l.as_bytes())))
        .collect();
    let mut lines = Vec::with_capacity(read.len());
    let mut hashes = Vec::with_capacity(read.len());
    for (n, line, hash) in read {
        lines.push((n, line.map_err(|e| (n, e))?));
        hashes.push(hash);
    }
    Ok((lines, hashes))
}

/// The hash chain: each line's `prev` against the hash of the line before
/// it (`hashes[k]` is the hash of `lines[k]`; `prevs[k]` the `prev` of
/// `lines[k + 1]`). Hex is made only for a link that does not hold.
fn check_chain(
    c: &mut Checker,
    lines: &[(usize, LineIn<'_>)],
    hashes: &[Digest],
    prevs: &[Option<&str>],
) {
    for (k, (line, _)) in lines.iter().enumerate().skip(1) {
        let expected = hashes[k - 1].as_ref();
        let before = lines[k - 1].0;
        match prevs[k - 1] {
            Some(p) if is_hex_of(p, expected) => {}
            // The line whose hash no longer matches is the changed one
            // (or the next line's `prev` was).
            Some(p) => c.add(
                before,
                None,
                None,
                &format!(
                    "hash chain: line {before} changed after it was written (line {line}'s \
                     `prev` is its SHA-256 as written)"
                ),
                p,
                hex(expected),
            ),
            None => c.add(
                *line,
                None,
                None,
                "hash chain (prev)",
                hex(expected),
                "missing",
            ),
        }
    }
}

/// The result of a hand that did not finish: nothing scored.
fn incomplete_result(deal: u32, dealer: Seat) -> HandResult {
    HandResult {
        deal,
        dealer,
        misdeal: false,
        bids: PerSeat::new(),
        tricks: PerSeat::new(),
        made: PerSeat::new(),
        points: PerSeat::new(),
        totals: PerSeat::new(),
        seat_points: PerSeat::new(),
        summary: "incomplete".into(),
    }
}

/// Compares the result a log gives for a hand with the engine's, field by
/// field (text is made only for a field that differs).
fn compare_results(
    c: &mut Checker,
    line: usize,
    deal: u32,
    expected: &HandResult,
    found: &HandResult,
) {
    let at = Some(deal);
    c.compare(line, at, "result: points", &expected.points, &found.points);
    c.compare(line, at, "result: totals", &expected.totals, &found.totals);
    c.compare(line, at, "result: tricks", &expected.tricks, &found.tricks);
    c.compare(line, at, "result: bids", &expected.bids, &found.bids);
    c.compare(line, at, "result: made", &expected.made, &found.made);
    c.compare(
        line,
        at,
        "result: misdeal",
        &expected.misdeal,
        &found.misdeal,
    );
    c.compare(line, at, "result: dealer", &expected.dealer, &found.dealer);
    // Logs written before seat points were reported hold none.
    if !found.seat_points.is_empty() {
        c.compare(
            line,
            at,
            "result: seat_points",
            &expected.seat_points,
            &found.seat_points,
        );
    }
    if expected.summary != found.summary {
        c.add(
            line,
            at,
            None,
            "result: summary",
            &expected.summary,
            &found.summary,
        );
    }
}

/// Re-judges a logged fault where its answer was recorded.
fn check_fault(c: &mut Checker, game: &AnyGame, line: usize, deal: u32, step: usize, f: &FaultLog) {
    let Some(answer) = &f.answer else { return };
    let judged = whistle_rules::judge(game, f.seat, answer);
    let kind = match &judged {
        Ok(_) => "accepted",
        Err(whistle_rules::Rejection::Malformed(_)) => "malformed",
        Err(whistle_rules::Rejection::Illegal(_)) => "illegal",
    };
    if matches!(f.kind.as_str(), "malformed" | "illegal") && kind != f.kind {
        c.add(
            line,
            Some(deal),
            Some(step),
            &format!("fault verdict on {answer} by seat {}", f.seat),
            kind,
            &f.kind,
        );
    }
}

#[cfg(test)]
mod tests {
    use whistle_rules::{Options, Variant};

    use super::*;
    use crate::{ActionLog, Header, Writer};

    /// A sealed one-hand Israeli log whose hand holds `actions` (dealt from
    /// the match seed of match 0 of tournament seed 7); returns its text.
    fn log_with(actions: &[(usize, &str, bool)]) -> String {
        log_under(None, actions)
    }

    /// `log_with` under the fallback rule named `rule` (default: the test
    /// header's).
    fn log_under(rule: Option<&str>, actions: &[(usize, &str, bool)]) -> String {
        let seed = Seed::from_u64(7);
        let match_seed = seed.derive(Domain::Match, 0);
        let game = Variant::Israeli
            .new_game(&Options::parse(&["hands=1"]).unwrap())
            .unwrap();
        let header = Header {
            match_index: 0,
            table: "t-m00000".into(),
            options: game.options(),
            seed_commitment: seed_commitment(seed),
            ..crate::tests::header()
        };
        let header = match rule {
            Some(r) => Header {
                faults: crate::Faults {
                    max_faults: 10,
                    fallback: r.into(),
                },
                ..header
            },
            None => header,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let mut w = Writer::create(&path, &header).unwrap();
        w.hand(HandLog {
            prev: String::new(),
            deal: 0,
            dealer: Seat::new(0),
            deck: dealing::deck_order(dealing::deal_seed(match_seed, 0), game.deck()).to_vec(),
            actions: actions
                .iter()
                .map(|&(s, a, fallback)| ActionLog {
                    seat: Seat::new(s),
                    action: a.parse().unwrap(),
                    ms: 1.0,
                    fallback,
                })
                .collect(),
            faults: Vec::new(),
            result: incomplete_result(0, Seat::new(0)),
            context: None,
        })
        .unwrap();
        drop(w);
        std::fs::read_to_string(&path).unwrap()
    }

    /// An action logged as a fallback for a seat that is not asked is
    /// rejected as out of turn, with no fallback to compare it with (it
    /// must not be asked of a seat with no legal actions).
    #[test]
    fn a_fallback_out_of_turn_is_a_problem_not_a_crash() {
        // Seat 1 is first to act (the dealer's left); seat 3 is not asked.
        let text = log_with(&[(3, "pass", true)]);
        let r = verify_text("m.jsonl", &text, Context::default());
        assert!(!r.ok());
        let p = &r.problems[0];
        assert_eq!(p.step, Some(0), "{:?}", r.problems);
        assert!(p.what.contains("by seat 3"), "{p:?}");
        assert!(p.found.contains("turn"), "{p:?}");
        assert_eq!(
            r.hands[0].steps[0].verdict.as_ref(),
            format!("rejected: {}", p.found)
        );
        assert_eq!(r.hands[0].steps[0].action.to_string(), "pass");
    }

    /// A legal fallback that is not the rule's (`first`: index 0, `pass` in
    /// the auction) is reported as a wrong fallback; the rule's is accepted.
    #[test]
    fn fallbacks_are_checked_against_the_rule() {
        let wrong = log_with(&[(1, "bid 5C", true)]);
        let r = verify_text("m.jsonl", &wrong, Context::default());
        assert!(
            r.problems.iter().any(|p| p.what == "fallback action"
                && p.expected == "pass"
                && p.found == "bid 5C"),
            "{:?}",
            r.problems
        );
        let right = log_with(&[(1, "pass", true)]);
        let r = verify_text("m.jsonl", &right, Context::default());
        assert!(
            r.problems.iter().all(|p| p.what != "fallback action"),
            "{:?}",
            r.problems
        );
        assert_eq!(r.hands[0].steps[0].verdict.as_ref(), "legal");
    }

    /// A log of the passive rule: its fallbacks are checked against the
    /// passive choice (here a frisch's `give` of the lowest card, I3); a
    /// legal give that is not it is a wrong fallback.
    #[test]
    fn passive_fallbacks_are_checked_against_the_rule() {
        let match_seed = Seed::from_u64(7).derive(Domain::Match, 0);
        let mut game = Variant::Israeli
            .new_game(&Options::parse(&["hands=1"]).unwrap())
            .unwrap();
        let deck = dealing::deck_order(dealing::deal_seed(match_seed, 0), game.deck());
        game.deal(&deck).unwrap();
        let passes = [
            (1, "pass", true),
            (2, "pass", true),
            (3, "pass", true),
            (0, "pass", true),
        ];
        for (s, a, _) in passes {
            game.apply(Seat::new(s), a.parse().unwrap()).unwrap();
        }
        let legal = game.legal_actions(Seat::new(1));
        let passive = whistle_rules::passive::passive_action(&game, Seat::new(1), &legal);
        let other = legal.iter().find(|a| **a != passive).unwrap().to_string();
        let passive = passive.to_string();
        let mut wrong = passes.to_vec();
        wrong.push((1, other.as_str(), true));
        let r = verify_text(
            "m.jsonl",
            &log_under(Some("passive"), &wrong),
            Context::default(),
        );
        assert!(
            r.problems
                .iter()
                .any(|p| p.what == "fallback action" && p.expected == passive && p.found == other),
            "{:?}",
            r.problems
        );
        let mut right = passes.to_vec();
        right.push((1, passive.as_str(), true));
        let r = verify_text(
            "m.jsonl",
            &log_under(Some("passive"), &right),
            Context::default(),
        );
        assert!(
            r.problems.iter().all(|p| p.what != "fallback action"),
            "{:?}",
            r.problems
        );
    }
    /// A sealed Israeli log of `hands` hands as the runner writes it
    /// (random legal actions, dealt from the match seed of match 0 of
    /// tournament seed 7, hash chain and end record); returns its text.
    fn match_log(hands: usize) -> String {
        let seed = Seed::from_u64(7);
        let match_seed = seed.derive(Domain::Match, 0);
        let options = Options::parse(&[&format!("hands={hands}")]).unwrap();
        let game = Variant::Israeli.new_game(&options).unwrap();
        let header = Header {
            match_index: 0,
            table: "t-m00000".into(),
            options: game.options(),
            seed_commitment: seed_commitment(seed),
            ..crate::tests::header()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let mut w = Writer::create(&path, &header).unwrap();
        let mut driver = MatchDriver::new(game, match_seed, Fallback::First);
        let mut rng = dealing::Shuffler::new(Seed::from_u64(1));
        let mut hand: Option<(u32, Vec<Card>, Vec<ActionLog>)> = None;
        loop {
            let seats = driver.to_ask().unwrap();
            let Some(seat) = seats.iter().next() else {
                for e in driver.take_events() {
                    record(&mut w, &mut hand, e, match_seed);
                }
                break;
            };
            let legal = driver.game().legal_actions(seat);
            let action = legal[rng.below(legal.len() as u32) as usize];
            driver.apply(seat, action, false).unwrap();
            for e in driver.take_events() {
                record(&mut w, &mut hand, e, match_seed);
            }
        }
        drop(w);
        std::fs::read_to_string(&path).unwrap()
    }

    fn record(
        w: &mut Writer,
        hand: &mut Option<(u32, Vec<Card>, Vec<ActionLog>)>,
        event: whistle_rules::MatchEvent,
        match_seed: Seed,
    ) {
        use whistle_rules::MatchEvent;
        match event {
            MatchEvent::Dealt { deal, order } => *hand = Some((deal, order, Vec::new())),
            MatchEvent::Applied {
                seat,
                action,
                fallback,
            } => hand.as_mut().unwrap().2.push(ActionLog {
                seat,
                action,
                ms: 0.5,
                fallback,
            }),
            MatchEvent::HandEnded(result) => {
                let (deal, deck, actions) = hand.take().unwrap();
                w.hand(HandLog {
                    prev: String::new(),
                    deal,
                    dealer: result.dealer,
                    deck,
                    actions,
                    faults: Vec::new(),
                    result,
                    context: None,
                })
                .unwrap();
            }
            MatchEvent::Over(result) => w
                .end(EndLog {
                    prev: String::new(),
                    result,
                    forfeited: Vec::new(),
                    faults: vec![0; 4],
                    match_seed,
                })
                .unwrap(),
        }
    }

    /// `verify_text` of `text` on a pool of `threads` threads.
    fn verify_on(threads: usize, text: &str) -> Report {
        let ctx = Context {
            tournament_seed: Some(Seed::from_u64(7)),
        };
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| verify_text("m.jsonl", text, ctx))
    }

    /// `text` with line `n` (1-based) replaced by `edit` of it, the newline
    /// kept.
    fn edit_line(text: &str, n: usize, edit: impl Fn(&str) -> String) -> String {
        text.lines()
            .enumerate()
            .map(|(i, l)| if i + 1 == n { edit(l) } else { l.to_string() } + "\n")
            .collect()
    }

    /// Lines are read and hashed on every core: a line edited in the middle
    /// of a long log is reported as it is on one thread, where it is: the
    /// chain names the changed line, and the re-dealt hand its deal.
    #[test]
    fn a_line_edited_in_a_long_log_is_reported_as_on_one_thread() {
        let text = match_log(60);
        assert!(
            verify_on(4, &text).ok(),
            "{:?}",
            verify_on(4, &text).problems
        );
        // Line 31 is the hand of deal 29 (line 1 is the header): its first
        // two cards swapped, the chain left as written.
        let edited = edit_line(&text, 31, |l| {
            let deck = l.find(r#""deck":[""#).unwrap() + 9;
            let (a, b) = (&l[deck..deck + 2], &l[deck + 5..deck + 7]);
            format!(
                "{}{b}{}{a}{}",
                &l[..deck],
                &l[deck + 2..deck + 5],
                &l[deck + 7..]
            )
        });
        let one = verify_on(1, &edited);
        let every = verify_on(4, &edited);
        assert_eq!(one, every);
        let p = &every.problems;
        assert!(
            p[0].what.starts_with("hash chain: line 31 changed"),
            "{p:?}"
        );
        assert_eq!((p[0].line, p[0].deal), (31, None), "{p:?}");
        assert_eq!(p[1].what, "deal (from the match seed)", "{p:?}");
        assert_eq!((p[1].line, p[1].deal), (31, Some(29)), "{p:?}");
        // The swapped cards are dealt to two seats, so one of them later
        // plays a card it does not hold: the replay stops in that hand, and
        // the lines after it are named as not checked.
        assert_eq!(every.hands.len(), 30);
        let at: Vec<_> = p.iter().map(|p| (p.line, p.deal, p.step)).collect();
        assert_eq!(
            at,
            [
                (31, None, None),
                (31, Some(29), None),
                (31, Some(29), Some(29)),
                (32, None, None),
                (62, None, None)
            ],
            "{p:?}"
        );
        assert!(
            p[3].found
                .starts_with("30 more hand line(s) (lines 32, 33,")
        );
    }

    /// Of several lines that are not records, the first in the file is the
    /// one reported, on every core as on one thread (lines parsed in
    /// parallel finish in any order).
    #[test]
    fn the_first_broken_line_is_the_one_reported() {
        let text = match_log(60);
        let cut = |l: &str| l[..l.len() / 2].to_string();
        let edited = edit_line(&edit_line(&text, 12, cut), 55, cut);
        for threads in [1, 2, 4, 8] {
            let r = verify_on(threads, &edited);
            assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
            assert_eq!(r.problems[0].line, 12, "{:?}", r.problems);
            assert_eq!(r.problems[0].what, "record");
            assert_eq!(r, verify_on(1, &edited));
        }
    }

    /// A runner-written hand line, read in one pass (`scan`), gives what
    /// the general parser gives; a line in any other form is left to the
    /// general parser (or read alike), never read differently.
    #[test]
    fn a_hand_line_read_in_one_pass_is_what_the_general_parser_reads() {
        let general = |l: &str| {
            serde_json::from_str::<LineIn<'_>>(l)
                .ok()
                .map(|h| format!("{h:?}"))
        };
        let fast = |l: &str| scan::hand(l).map(|h| format!("{:?}", LineIn::Hand(Box::new(h))));
        let text = match_log(6);
        let hands: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(r#"{"type":"hand","#))
            .collect();
        assert_eq!(hands.len(), 6);
        let fault = r#"[{"seat":2,"kind":"illegal","detail":"d","fallback":"pass","faults":1,"at":0,"answer":{"text":"bid 4S"}}]"#;
        let context = r#"{"hand":1,"dealer":1,"totals":[1,2,3,4]}"#;
        for l in hands {
            assert!(
                fast(l).is_some(),
                "a runner's line is read in one pass: {l}"
            );
            assert_eq!(fast(l), general(l));
            let changed = [
                l.replacen(
                    r#","result":"#,
                    &format!(r#","faults":{fault},"result":"#),
                    1,
                ),
                format!("{},\"context\":{context}}}", &l[..l.len() - 1]),
                format!("{},\"context\":null}}", &l[..l.len() - 1]),
                l.replacen(r#""ms":0.5}"#, r#""ms":0.5,"fallback":true}"#, 1),
                l.replacen(r#""ms":0.5}"#, r#""ms":0.5,"fallback":false}"#, 1),
                l.replacen(r#""ms":0.5"#, r#""ms":-12.5e-3"#, 1),
                l.replacen(r#""ms":0.5"#, r#""ms":0"#, 1),
                l.replacen(r#""ms":0.5"#, r#""ms":"slow""#, 1),
                l.replacen(r#""ms":0.5"#, r#""ms":1."#, 1),
                l.replacen(r#""ms":0.5"#, r#""ms":05"#, 1),
                l.replacen(r#""ms":0.5}"#, r#""ms":0.5,"x":[1]}"#, 1),
                l.replacen(r#","deal":"#, r#", "deal":"#, 1),
                l.replacen(r#","deal":"#, r#","deal":0"#, 1),
                l.replacen(r#","deal":"#, r#","deal":4294967296"#, 1),
                l.replacen(r#","deal":"#, r#","deal":-"#, 1),
                l.replacen(r#","dealer":"#, r#","dealer":9"#, 1),
                l.replacen(r#""prev":""#, r#""prev":"\u0061"#, 1),
                l.replacen(r#""deck":[""#, r#""deck":["10H","#, 1),
                l.replacen(r#""deck":[""#, r#""deck":["XX","#, 1),
                l.replacen(r#""action":""#, r#""action":"bid  "#, 1),
                l.replacen(r#""deck":["#, r#""deck":[],"x":["#, 1),
                format!("{l} "),
                l[..l.len() - 1].to_string(),
            ];
            // Faults, fallbacks and any number of milliseconds are in the
            // runner's layout too.
            for c in [
                &changed[0],
                &changed[3],
                &changed[4],
                &changed[5],
                &changed[6],
            ] {
                assert!(fast(c).is_some(), "{c}");
            }
            for c in &changed {
                assert_ne!(c, l);
                if let Some(read) = fast(c) {
                    assert_eq!(Some(read), general(c), "{c}");
                } else {
                    assert_eq!(
                        parse_line(c).ok().map(|h| format!("{h:?}")),
                        general(c),
                        "{c}"
                    );
                }
            }
        }
    }
}
