//! `whistle play`: one match in-process between built-in bots.

use std::fmt::Write;

use anyhow::Context;
use clap::Args;
use serde::Serialize;
use whistle_bot::{Bot, HandRecord, MatchRecord, bot_by_name, bot_seed, play_match};
use whistle_rules::{
    Action, Game, MatchResult, Options, Seat, Trump, Variant,
    dealing::{Domain, Seed},
};

use crate::usage;

/// Arguments of `whistle play`.
#[derive(Debug, Args)]
#[command(after_long_help = SEED_HELP)]
pub struct PlayArgs {
    /// The game to play (`whistle games` lists them).
    #[arg(long, value_name = "GAME")]
    game: String,

    /// A game option as key=value; repeat the flag for several
    /// (`whistle games` lists each game's options).
    #[arg(long = "opt", value_name = "KEY=VALUE")]
    opts: Vec<String>,

    /// The tournament seed, a number: the match is dealt from
    /// Seed::from_u64(N).derive(Match, 0).
    ///
    /// The same seed, game, options and bots always give the same match.
    #[arg(long, value_name = "N")]
    seed: u64,

    /// Number of hands to play: a shortcut for `--opt hands=N`.
    #[arg(long, value_name = "N")]
    hands: Option<u32>,

    /// Built-in bots, one per seat in seat order, separated by commas
    /// (`random`, `first`, `heuristic`, `sampler`, `sampler:N` playouts,
    /// `sampler:Nms`); cycled when fewer than the seats.
    #[arg(
        long,
        value_name = "NAMES",
        value_delimiter = ',',
        default_value = "random"
    )]
    bots: Vec<String>,

    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

const SEED_HELP: &str = "\
Seeds: --seed N is the tournament seed Seed::from_u64(N) (N's 8 little-endian
bytes, then zeros). This match is match 0 of that tournament: its seed is
derive(Domain::Match, 0). Deal d is dealt from the match seed's derive(Deal, d),
and the random bot in seat s draws from its derive(Bot, s). docs/dealing.md
specifies every step.

Bots: `random` plays a uniformly random legal action (seeded as above);
`first` always plays the first legal action in the game's fixed order.";

/// The match seed of `whistle play --seed n`.
pub fn match_seed(n: u64) -> Seed {
    Seed::from_u64(n).derive(Domain::Match, 0)
}

/// Everything `whistle play` reports; `--json` prints it as it is and the
/// text form is rendered from it.
#[derive(Debug, Serialize)]
struct Report {
    game: Variant,
    title: &'static str,
    /// Every option with its effective value.
    options: Options,
    /// `--seed`.
    seed: u64,
    match_seed: Seed,
    seats: Vec<SeatReport>,
    hands: Vec<HandReport>,
    result: MatchResult,
    standing: Vec<Standing>,
    decisions: u64,
}

/// The hands a match played, as the rules count them: misdeals are hands
/// (I3, L2: "the hand counts as played"), named apart.
fn hands_played(hands: &[HandReport]) -> String {
    let n = hands.len();
    let misdeals = hands.iter().filter(|h| h.misdeal).count();
    let s = if n == 1 { "" } else { "s" };
    match misdeals {
        0 => format!("{n} hand{s}"),
        m if m == n => format!("{n} hand{s}, all misdeals"),
        1 => format!("{n} hand{s}, 1 of them a misdeal"),
        m => format!("{n} hand{s}, {m} of them misdeals"),
    }
}

#[derive(Debug, Serialize)]
struct SeatReport {
    seat: Seat,
    bot: String,
}

#[derive(Debug, Serialize)]
struct HandReport {
    deal: u32,
    dealer: Seat,
    misdeal: bool,
    /// `S`, `H`, `D`, `C`, `NT`, `nines` or `jokers`; `None` if never fixed.
    trump: Option<&'static str>,
    contract: Option<Contract>,
    /// Decisions that name no card, in order.
    calls: Vec<Call>,
    bids: Vec<Option<Action>>,
    tricks: Vec<u8>,
    made: Vec<Option<bool>>,
    points: Vec<i32>,
    totals: Vec<i32>,
    summary: String,
}

#[derive(Debug, Serialize)]
struct Contract {
    seat: Seat,
    bid: Action,
}

#[derive(Debug, Serialize)]
struct Call {
    seat: Seat,
    action: Action,
}

#[derive(Debug, Serialize)]
struct Standing {
    place: u8,
    seat: Seat,
    bot: String,
    total: i32,
}

/// Runs `whistle play`, returning what to print.
pub fn run(args: &PlayArgs) -> anyhow::Result<String> {
    let variant: Variant = args.game.parse().map_err(usage)?;
    let mut options = Options::parse(&args.opts).map_err(usage)?;
    if let Some(hands) = args.hands {
        if options.get("hands").is_some() {
            return Err(usage(
                "give the number of hands once: `--hands` or `--opt hands=`",
            ));
        }
        if !variant.option_specs().iter().any(|s| s.key == "hands") {
            return Err(usage(format!(
                "game `{variant}` has no option `hands`, so `--hands` does not apply (see `whistle games`)"
            )));
        }
        options.set("hands", &hands.to_string());
    }
    let mut game = variant.new_game(&options).map_err(usage)?;

    let seats = game.seats();
    let names = bot_names(&args.bots, seats)?;
    let match_seed = match_seed(args.seed);
    let mut bots: Vec<Box<dyn Bot>> = names
        .iter()
        .enumerate()
        .map(|(s, name)| bot_by_name(name, bot_seed(match_seed, s)))
        .collect::<Result<_, _>>()
        .map_err(usage)?;

    let record = play_match(&mut game, match_seed, &mut bots).context("the match failed")?;
    let report = report(&game, args.seed, match_seed, &names, record);
    if args.json {
        Ok(serde_json::to_string_pretty(&report)? + "\n")
    } else {
        Ok(render(&report)?)
    }
}

/// One bot name per seat: `given` cycled to `seats`, trimmed and lower-cased.
fn bot_names(given: &[String], seats: usize) -> anyhow::Result<Vec<String>> {
    if given.len() > seats {
        return Err(usage(format!(
            "{} bots given but the game has {seats} seat{}",
            given.len(),
            if seats == 1 { "" } else { "s" }
        )));
    }
    Ok(given
        .iter()
        .cycle()
        .take(seats)
        .map(|n| n.trim().to_ascii_lowercase())
        .collect())
}

fn report<G: Game>(
    game: &G,
    seed: u64,
    match_seed: Seed,
    names: &[String],
    record: MatchRecord,
) -> Report {
    let result = record.result;
    let mut standing: Vec<Standing> = names
        .iter()
        .enumerate()
        .map(|(s, bot)| Standing {
            place: result.ranks[s],
            seat: Seat::new(s),
            bot: bot.clone(),
            total: result.totals[s],
        })
        .collect();
    standing.sort_by_key(|s| (s.place, s.seat));
    Report {
        game: game.variant(),
        title: game.variant().title(),
        options: game.options(),
        seed,
        match_seed,
        seats: names
            .iter()
            .enumerate()
            .map(|(s, bot)| SeatReport {
                seat: Seat::new(s),
                bot: bot.clone(),
            })
            .collect(),
        hands: record.hands.into_iter().map(hand_report).collect(),
        result,
        standing,
        decisions: record.decisions,
    }
}

fn hand_report(hand: HandRecord) -> HandReport {
    let calls = hand
        .calls()
        .map(|(seat, action)| Call { seat, action })
        .collect();
    let r = hand.result;
    HandReport {
        deal: r.deal,
        dealer: r.dealer,
        misdeal: r.misdeal,
        trump: trump_text(hand.trump),
        contract: hand.contract.map(|(seat, bid)| Contract { seat, bid }),
        calls,
        bids: r.bids.to_vec(),
        tricks: r.tricks.to_vec(),
        made: r.made.to_vec(),
        points: r.points.to_vec(),
        totals: r.totals.to_vec(),
        summary: r.summary.into(),
    }
}

fn trump_text(trump: Trump) -> Option<&'static str> {
    Some(match trump {
        Trump::Undecided => return None,
        Trump::Suit(s) => ["C", "D", "H", "S"][s.index()],
        Trump::NoTrump => "NT",
        Trump::Nines => "nines",
        Trump::Jokers => "jokers",
    })
}

/// A contract without the `bid ` of its notation: `7D`, `bid 5` stays `5`.
fn contract_text(bid: Action) -> String {
    let text = bid.to_string();
    text.strip_prefix("bid ").unwrap_or(&text).to_string()
}

/// The text form of a report.
fn render(r: &Report) -> Result<String, std::fmt::Error> {
    let mut out = String::new();
    writeln!(out, "{}: {}", r.game, r.title)?;
    writeln!(out, "options: {}", r.options)?;
    writeln!(out, "seed {} (match seed {})", r.seed, r.match_seed)?;
    let seats: Vec<String> = r
        .seats
        .iter()
        .map(|s| format!("{} {}", s.seat, s.bot))
        .collect();
    writeln!(out, "seats: {}", seats.join(", "))?;

    // One column per seat, wide enough for every number shown.
    let width = r
        .hands
        .iter()
        .flat_map(|h| h.points.iter().chain(&h.totals))
        .map(|n| n.to_string().len())
        .max()
        .unwrap_or(1)
        .max(3);
    let row = |out: &mut String, label: &str, cells: Vec<String>| {
        let cells: Vec<String> = cells.iter().map(|c| format!("{c:>width$}")).collect();
        writeln!(out, "  {label:<7}{}", cells.join(" "))
    };
    for h in &r.hands {
        writeln!(out)?;
        write!(out, "deal {}  dealer {}", h.deal, h.dealer)?;
        if h.misdeal {
            writeln!(out, "  {}", h.summary)?;
        } else {
            write!(out, "  trump {}", h.trump.unwrap_or("-"))?;
            if let Some(c) = &h.contract {
                write!(
                    out,
                    "  contract {} by seat {}",
                    contract_text(c.bid),
                    c.seat
                )?;
            }
            writeln!(out)?;
        }
        if !h.calls.is_empty() {
            let calls: Vec<String> = h
                .calls
                .iter()
                .map(|c| format!("{} {}", c.seat, c.action))
                .collect();
            writeln!(out, "  calls: {}", calls.join(", "))?;
        }
        let seats = (0..h.totals.len()).map(|s| s.to_string()).collect();
        row(&mut out, "seat", seats)?;
        if !h.misdeal {
            if h.bids.iter().any(Option::is_some) {
                let bids = h
                    .bids
                    .iter()
                    .map(|b| b.map_or("-".to_string(), contract_text))
                    .collect();
                row(&mut out, "bid", bids)?;
            }
            row(
                &mut out,
                "tricks",
                h.tricks.iter().map(u8::to_string).collect(),
            )?;
            row(
                &mut out,
                "points",
                h.points.iter().map(i32::to_string).collect(),
            )?;
        }
        row(
            &mut out,
            "total",
            h.totals.iter().map(i32::to_string).collect(),
        )?;
    }

    writeln!(out)?;
    let note = if r.result.note.is_empty() {
        String::new()
    } else {
        format!(" ({})", r.result.note)
    };
    writeln!(out, "final standing after {}{note}", hands_played(&r.hands))?;
    let bot_w = r
        .standing
        .iter()
        .map(|s| s.bot.len())
        .max()
        .unwrap_or(3)
        .max(3);
    writeln!(out, "  place  seat  {:bot_w$}  total", "bot")?;
    for s in &r.standing {
        writeln!(
            out,
            "  {:>5}  {:>4}  {:bot_w$}  {:>5}",
            s.place,
            s.seat.index(),
            s.bot,
            s.total
        )?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_names_cycle_and_normalise() {
        let given = vec!["Random".to_string(), " first".to_string()];
        assert_eq!(
            bot_names(&given, 4).unwrap(),
            ["random", "first", "random", "first"]
        );
        assert_eq!(bot_names(&given[..1], 2).unwrap(), ["random", "random"]);
        assert!(bot_names(&given, 1).is_err());
    }

    #[test]
    fn the_match_seed_is_match_zero_of_the_tournament_seed() {
        assert_eq!(match_seed(1), Seed::from_u64(1).derive(Domain::Match, 0));
        assert_ne!(match_seed(1), match_seed(2));
    }

    #[test]
    fn notation_helpers() {
        assert_eq!(contract_text("bid 7NT".parse().unwrap()), "7NT");
        assert_eq!(contract_text(Action::Bid(0)), "0");
        assert_eq!(contract_text(Action::Pass), "pass");
        assert_eq!(trump_text(Trump::Undecided), None);
        assert_eq!(trump_text(Trump::NoTrump), Some("NT"));
    }
}
