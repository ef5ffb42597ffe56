//! Standings as text, Markdown and CSV, and the results file.

use std::{fmt::Write as _, path::Path};

use crate::stats::{BotStats, Interval, Results, Verdict};

/// A number with two decimals, never `-0.00`: a difference of nothing
/// between two bots on the same cards is `0.00`, not a negative one.
pub fn two_places(x: f64) -> String {
    let text = format!("{x:.2}");
    if text == "-0.00" { "0.00".into() } else { text }
}

fn interval(i: &Interval) -> String {
    if i.n < 2 {
        two_places(i.mean)
    } else {
        format!(
            "{} [{}, {}]",
            two_places(i.mean),
            two_places(i.low),
            two_places(i.high)
        )
    }
}

fn rating(b: &BotStats) -> String {
    b.rating.as_ref().map_or("-".into(), |r| {
        format!("{:.1} ± {:.1}", r.value, r.uncertainty)
    })
}

/// The paired per-deal differences between two ranked bots (a bot out of
/// the event, or that forfeited every match, is compared with nobody).
fn ranked_pairs<'a>(
    r: &'a Results,
    d: &'a crate::stats::DuplicateStats,
) -> impl Iterator<Item = &'a crate::stats::PairStats> {
    let ranked = |name: &str| {
        r.bots
            .iter()
            .any(|b| b.name == name && b.unranked.is_none())
    };
    d.pairs.iter().filter(move |p| ranked(&p.a) && ranked(&p.b))
}

fn faults(b: &BotStats) -> String {
    if b.faults.is_empty() {
        "0".into()
    } else {
        b.faults
            .iter()
            .map(|(k, n)| format!("{k}:{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Decisions by fallback, with their share of the bot's decisions: `0`,
/// or `12/160 (7.5%)`.
pub fn fallbacks_text(b: &BotStats) -> String {
    let (by, of) = b.fallbacks;
    if by == 0 || of == 0 {
        "0".into()
    } else {
        format!("{by}/{of} ({})", share(by, of))
    }
}

/// `part` of `whole` in percent, one decimal.
fn share(part: u64, whole: u64) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

fn bids(b: &BotStats) -> String {
    let (made, of) = b.bids_made;
    if of == 0 {
        "-".into()
    } else {
        format!("{made}/{of} ({:.0}%)", 100.0 * made as f64 / of as f64)
    }
}

/// What the ± after a rating means, for the system the results use.
fn rating_note(r: &Results) -> Option<String> {
    let system = r
        .bots
        .iter()
        .find_map(|b| b.rating.as_ref())?
        .system
        .clone();
    let (what, start) = match system.as_str() {
        "glicko-2" => ("Glicko-2 rating ± its deviation", "1500 ± 350"),
        _ => ("Weng-Lin μ ± σ", "25 ± 8.3"),
    };
    Some(format!(
        "rating: {what}: the ± is the rating's own uncertainty (one standard deviation, starting at {start} and shrinking with every match), not a 95 % interval; two ratings closer than their ± may well be the same strength. The pairwise verdicts below say which differences are real."
    ))
}

/// Each bot's place in the standings, and whether it shares it. A bot's
/// place is one more than the number of bots clearly better than it (their
/// pairwise verdict says so; for two bots that never met and never held
/// the same cards, their grades' 95 % intervals are apart), and never
/// above the place of the bot listed above it. Bots with one place share
/// it, shown as `1=`: two copies of one bot read as the tie they are, and
/// so do bots the event cannot tell apart.
///
/// A bot that is not ranked (did not play, out, forfeited every match) has
/// no place: `(0, false)`, shown as `-`.
pub fn places(r: &Results) -> Vec<(usize, bool)> {
    let ranked: Vec<&BotStats> = r.bots.iter().filter(|b| b.unranked.is_none()).collect();
    // Whether `x` (listed above `y`, or below) is clearly better than `y`.
    let better = |x: &BotStats, y: &BotStats| -> bool {
        match r
            .pairwise
            .iter()
            .find(|v| (v.a == x.name && v.b == y.name) || (v.a == y.name && v.b == x.name))
        {
            Some(v) if v.a == x.name => v.verdict == "better",
            Some(v) => v.verdict == "worse",
            None => {
                let higher =
                    r.lower_is_better && matches!(r.grade.as_str(), "points" | "team points");
                match (&x.grade, &y.grade) {
                    (Some(gx), Some(gy)) if gx.n >= 2 && gy.n >= 2 && gx.disjoint(gy) => {
                        (gx.mean > gy.mean) != higher
                    }
                    _ => false,
                }
            }
        }
    };
    let mut numbers: Vec<usize> = Vec::with_capacity(ranked.len());
    for b in &ranked {
        let above = ranked.iter().filter(|x| better(x, b)).count();
        let floor = numbers.last().copied().unwrap_or(1);
        numbers.push((above + 1).max(floor));
    }
    let mut shown = numbers.iter();
    r.bots
        .iter()
        .map(|b| {
            if b.unranked.is_some() {
                (0, false)
            } else {
                let n = *shown.next().expect("one number a ranked bot");
                (n, numbers.iter().filter(|&&m| m == n).count() > 1)
            }
        })
        .collect()
}

/// Whether two bots' grades are within each other's 95 % intervals (or
/// either has none): no clear difference between them.
fn grades_overlap(a: &BotStats, b: &BotStats) -> bool {
    match (&a.grade, &b.grade) {
        (Some(x), Some(y)) => x.n < 2 || y.n < 2 || !x.disjoint(y),
        _ => true,
    }
}

/// A place as the standings show it: `3`, or `1=` when shared.
pub fn place_text((place, tied): (usize, bool)) -> String {
    if place == 0 {
        "-".into()
    } else if tied {
        format!("{place}=")
    } else {
        place.to_string()
    }
}

/// A pairwise verdict in the words every output uses.
pub fn verdict_words(v: &Verdict) -> &'static str {
    match v.verdict.as_str() {
        "better" => "better",
        "worse" => "worse (ranked above by chance)",
        _ => "no clear difference",
    }
}

fn head_to_head(v: &Verdict) -> String {
    format!("{}-{}-{}", v.a_ahead, v.b_ahead, v.level)
}

fn los_text(v: &Verdict) -> String {
    v.los.map_or("-".into(), |l| format!("{:.1} %", 100.0 * l))
}

fn difference_text(v: &Verdict) -> String {
    v.difference.as_ref().map_or("-".into(), interval)
}

/// A note as a line: `bot: detail` (the name between `mark`s), or the
/// detail alone for a note on the whole event (the seed's).
fn note_text(n: &crate::stats::Note, mark: &str) -> String {
    if n.bot.is_empty() {
        n.detail.clone()
    } else {
        format!("{mark}{}{mark}: {}", n.bot, n.detail)
    }
}

/// The grade's column heading, as every output names it.
pub fn grade_heading(r: &Results) -> &'static str {
    match r.grade.as_str() {
        "matchpoints" => "matchpoints % [95% CI]",
        "rating" => "rating [± 2σ]",
        "team points" => "team points/hand [95% CI]",
        _ if r.lower_is_better => "fines/hand [95% CI]",
        _ => "points/hand [95% CI]",
    }
}

/// A bot's grade as the outputs show it.
pub fn grade_text(b: &BotStats) -> String {
    b.grade.as_ref().map_or("-".into(), interval)
}

/// A bot's points per hand against par (same deal, same seat), where the
/// event has them.
pub fn par_text(r: &Results, name: &str) -> Option<String> {
    let d = r.duplicate.as_ref()?;
    d.versus_par
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, i)| if i.n == 0 { "-".into() } else { interval(i) })
}

/// How a bot ran, in one line, for a bot with faults, forfeits or
/// fallbacks: `12 faults (late 10, illegal 2); 3 of 8 matches forfeited;
/// 96 of 320 decisions by fallback (30.0%)`.
pub fn trouble(b: &BotStats) -> Option<String> {
    let total: u64 = b.faults.values().sum();
    if total == 0 && b.forfeits == 0 && b.fallbacks.0 == 0 {
        return None;
    }
    let mut out = String::new();
    if total > 0 {
        let kinds: Vec<String> = b.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = write!(
            out,
            "{total} fault{} ({})",
            if total == 1 { "" } else { "s" },
            kinds.join(", ")
        );
    }
    if b.forfeits > 0 {
        if !out.is_empty() {
            out.push_str("; ");
        }
        let _ = write!(out, "{} of {} matches forfeited", b.forfeits, b.matches);
    }
    let (by, of) = b.fallbacks;
    if by > 0 {
        if !out.is_empty() {
            out.push_str("; ");
        }
        let _ = write!(
            out,
            "{by} of {of} decisions by fallback ({})",
            share(by, of)
        );
    }
    Some(out)
}

/// The verdict on two bots next to each other in the standings, or why
/// there is none: they never met and never held the same cards.
fn next_down<'a>(r: &'a Results, a: &str, b: &str) -> Option<&'a Verdict> {
    r.pairwise.iter().find(|v| v.a == a && v.b == b)
}

/// How two bots that never met and never held the same cards compare:
/// through their grades, each earned against the same field.
pub fn never_met(r: &Results, a: &BotStats, b: &BotStats) -> String {
    let how = if r.duplicate.is_some() {
        "never met, never held the same cards"
    } else {
        "never met"
    };
    let grade = if r.grade.is_empty() {
        "grade"
    } else {
        r.grade.as_str()
    };
    if grades_overlap(a, b) {
        format!("{how}; their {grade} intervals overlap: no clear difference")
    } else {
        format!("{how}; their {grade} intervals are apart: better")
    }
}

/// The standings as a plain-text table for a terminal.
pub fn text(r: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}): {} matches; ranked {}",
        r.tournament,
        r.game,
        r.matches.len(),
        r.ranking
    );
    // A bot out of the event is listed with why among the bots not ranked.
    for n in r.notes.iter().filter(|n| n.kind != "out") {
        let _ = writeln!(out, "note: {}", note_text(n, ""));
    }
    let width = r
        .bots
        .iter()
        .map(|b| b.name.len())
        .max()
        .unwrap_or(3)
        .max(3);
    // The ranked bots' table, each column as wide as its widest cell, so
    // that sixty bots fit a terminal: the grade first, then (events on the
    // same cards) points against par, the rating, and the rest.
    let shown = places(r);
    let ranked: Vec<(usize, &BotStats)> = r
        .bots
        .iter()
        .enumerate()
        .filter(|(_, b)| b.unranked.is_none())
        .collect();
    let mut columns: Vec<(String, bool, Vec<String>)> = Vec::new();
    let mut column = |head: &str, left: bool, cell: &dyn Fn(usize, &BotStats) -> String| {
        let cells = ranked.iter().map(|&(i, b)| cell(i, b)).collect();
        columns.push((head.to_string(), left, cells));
    };
    column("rank", false, &|i, _| place_text(shown[i]));
    column("bot", true, &|_, b| b.name.clone());
    column(grade_heading(r), false, &|_, b| grade_text(b));
    if r.duplicate.is_some() {
        column("vs par/hand [95% CI]", false, &|_, b| {
            par_text(r, &b.name).unwrap_or_default()
        });
    }
    column("rating", false, &|_, b| rating(b));
    column("hands", false, &|_, b| b.hands.to_string());
    column(
        if r.lower_is_better {
            "fines/hand [95% CI]"
        } else {
            "points/hand [95% CI]"
        },
        false,
        &|_, b| interval(&b.points),
    );
    column("bids made", false, &|_, b| bids(b));
    column("wins", false, &|_, b| b.wins.to_string());
    column("ms mean", false, &|_, b| format!("{:.2}", b.mean_ms));
    column("ms max", false, &|_, b| format!("{:.1}", b.max_ms));
    column("by fallback", false, &|_, b| fallbacks_text(b));
    column("faults", true, &|_, b| faults(b));
    let row = |cells: Vec<&str>| -> String {
        let mut line = String::new();
        for (k, ((_, left, all), cell)) in columns.iter().zip(cells).enumerate() {
            let w = all
                .iter()
                .map(|c| c.chars().count())
                .chain(std::iter::once(columns[k].0.chars().count()))
                .max()
                .unwrap_or(0);
            if k > 0 {
                line.push_str("  ");
            }
            if k + 1 == columns.len() {
                line.push_str(cell);
            } else if *left {
                let _ = write!(line, "{cell:<w$}");
            } else {
                let _ = write!(line, "{cell:>w$}");
            }
        }
        line
    };
    let _ = writeln!(
        out,
        "{}",
        row(columns.iter().map(|c| c.0.as_str()).collect())
    );
    for k in 0..ranked.len() {
        let cells: Vec<&str> = columns.iter().map(|c| c.2[k].as_str()).collect();
        let _ = writeln!(out, "{}", row(cells));
    }
    let unranked: Vec<&BotStats> = r.bots.iter().filter(|b| b.unranked.is_some()).collect();
    if !unranked.is_empty() {
        let _ = writeln!(out, "not ranked (no numbers they did not earn):");
        for b in unranked {
            let _ = writeln!(
                out,
                "  {:<width$}  {}",
                b.name,
                b.unranked.as_deref().unwrap_or_default()
            );
        }
    }
    let troubled: Vec<(&BotStats, String)> = r
        .bots
        .iter()
        .filter_map(|b| trouble(b).map(|t| (b, t)))
        .collect();
    if !troubled.is_empty() {
        let _ = writeln!(
            out,
            "how the bots ran: faults and forfeits, one line a bot (each fault is in the match logs, matches/)"
        );
        for (b, t) in troubled {
            let _ = writeln!(out, "  {:<width$}  {t}", b.name);
        }
    }
    if !r.teams.is_empty() {
        let _ = writeln!(out, "line-ups (the bots of one side): side points per hand");
        let w = r.teams.iter().map(|t| t.line_up.len()).max().unwrap_or(0);
        for t in &r.teams {
            let _ = writeln!(
                out,
                "  {:<w$}  {:>30}  hands {:>5}  wins {:>4}",
                t.line_up,
                interval(&t.points),
                t.hands,
                t.wins
            );
        }
    }
    if r.bots.iter().any(|b| b.own_points.is_some()) {
        let _ = writeln!(
            out,
            "own scores (each seat's O6 score beside the team's, O16/O17): per hand"
        );
        for b in &r.bots {
            if let Some(i) = &b.own_points {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {:>30}  hands {:>5}",
                    b.name,
                    interval(i),
                    i.n
                );
            }
        }
    }
    if let Some(note) = rating_note(r) {
        let _ = writeln!(out, "{note}");
    }
    // The terminal shows each ranked bot against the next one down, every
    // pair of them (those that never met, or never held the same cards,
    // said so); the files hold every pair.
    let ranked: Vec<&BotStats> = r.bots.iter().filter(|b| b.unranked.is_none()).collect();
    if ranked.len() >= 2 {
        let _ = writeln!(
            out,
            "is each bot better than the next one down? head to head (ahead-behind-level), LOS, {}, verdict",
            if r.duplicate.is_some() {
                "same-cards difference per deal [95% CI]"
            } else {
                "-"
            }
        );
        for w in ranked.windows(2) {
            match next_down(r, &w[0].name, &w[1].name) {
                Some(v) => {
                    let _ = writeln!(
                        out,
                        "  {} vs {}: {}  LOS {}  {}  {}",
                        v.a,
                        v.b,
                        head_to_head(v),
                        los_text(v),
                        difference_text(v),
                        verdict_words(v)
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "  {} vs {}: {}",
                        w[0].name,
                        w[1].name,
                        never_met(r, w[0], w[1])
                    );
                }
            }
        }
    }
    if let Some(d) = &r.duplicate {
        // Every pair is a line: the terminal shows them for a few bots.
        if r.bots.len() <= 8 {
            let _ = writeln!(out, "duplicate: paired per-deal differences");
            for p in ranked_pairs(r, d) {
                let _ = writeln!(out, "  {} − {}: {}", p.a, p.b, interval(&p.difference));
            }
        } else {
            let _ = writeln!(
                out,
                "duplicate: the {} paired per-deal differences are in standings.md and results.json",
                d.pairs.len()
            );
        }
    }
    out
}

/// The standings as Markdown.
pub fn markdown(r: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {} — standings\n", r.tournament);
    let _ = writeln!(
        out,
        "Game `{}`; {} matches; ranked {}. Intervals are 95 % confidence intervals.\n",
        r.game,
        r.matches.len(),
        r.ranking
    );
    if !r.grade.is_empty() {
        let _ = writeln!(
            out,
            "**The grade is the {} column** (the first after the bot's name); the standings are in its order.\n",
            grade_heading(r)
        );
    }
    let troubled: Vec<(&BotStats, String)> = r
        .bots
        .iter()
        .filter_map(|b| trouble(b).map(|t| (b, t)))
        .collect();
    // One line a bot: its notes, then its faults and forfeits.
    let mut ran: Vec<(&str, Vec<String>)> = Vec::new();
    let lines = r
        .notes
        .iter()
        .map(|n| (n.bot.as_str(), n.detail.clone()))
        .chain(troubled.into_iter().map(|(b, t)| (b.name.as_str(), t)));
    for (bot, line) in lines {
        match ran.iter_mut().find(|e| e.0 == bot) {
            Some(e) => e.1.push(line),
            None => ran.push((bot, vec![line])),
        }
    }
    if !ran.is_empty() {
        let _ = writeln!(out, "How the bots ran:\n");
        for (bot, lines) in ran {
            if bot.is_empty() {
                let _ = writeln!(out, "- {}", lines.join("; "));
            } else {
                let _ = writeln!(out, "- **{bot}**: {}", lines.join("; "));
            }
        }
        let _ = writeln!(out);
    }
    let par = r.duplicate.is_some() && r.grade != "rating";
    let _ = writeln!(
        out,
        "| rank | bot | {} |{} rating | matches | hands | {}/hand [95% CI] | bids made | wins | mean place | ms mean | ms max | forfeits | decisions by fallback | faults |",
        grade_heading(r),
        if par { " versus par [95% CI] |" } else { "" },
        if r.lower_is_better { "fines" } else { "points" }
    );
    let _ = writeln!(
        out,
        "|---:|---|---:|{}---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        if par { "---:|" } else { "" }
    );
    let shown = places(r);
    for (i, b) in r.bots.iter().enumerate() {
        if b.unranked.is_some() {
            continue;
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} |{} {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} | {} | {} | {} |",
            place_text(shown[i]),
            b.name,
            grade_text(b),
            if par {
                format!(" {} |", par_text(r, &b.name).unwrap_or_else(|| "-".into()))
            } else {
                String::new()
            },
            rating(b),
            b.matches,
            b.hands,
            interval(&b.points),
            bids(b),
            b.wins,
            b.mean_place,
            b.mean_ms,
            b.max_ms,
            b.forfeits,
            fallbacks_text(b),
            faults(b)
        );
    }
    let unranked: Vec<&BotStats> = r.bots.iter().filter(|b| b.unranked.is_some()).collect();
    if !unranked.is_empty() {
        let _ = writeln!(out, "\n## Not ranked\n");
        let _ = writeln!(
            out,
            "Bots that did not play, were out of the event or forfeited every match: listed apart, with what they did.\n"
        );
        let _ = writeln!(
            out,
            "| bot | why | matches | hands | forfeits | decisions by fallback | faults |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---|");
        for b in unranked {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                b.name,
                b.unranked.as_deref().unwrap_or_default(),
                b.matches,
                b.hands,
                b.forfeits,
                fallbacks_text(b),
                faults(b)
            );
        }
    }
    if !r.teams.is_empty() {
        let _ = writeln!(out, "\n## Line-ups\n");
        let _ = writeln!(out, "Each side's bots and the side's points per hand.\n");
        let _ = writeln!(
            out,
            "| line-up | matches | hands | points/hand [95% CI] | wins | mean place |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
        for t in &r.teams {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {:.2} |",
                t.line_up,
                t.matches,
                t.hands,
                interval(&t.points),
                t.wins,
                t.mean_place
            );
        }
    }
    if r.bots.iter().any(|b| b.own_points.is_some()) {
        let _ = writeln!(out, "\n## Own scores\n");
        let _ = writeln!(
            out,
            "The team scores above are the rule's (O16, O17); here each bot's own O6 score per hand, one sample per seat it held.\n"
        );
        let _ = writeln!(out, "| bot | own points/hand [95% CI] | hands |");
        let _ = writeln!(out, "|---|---:|---:|");
        for b in &r.bots {
            if let Some(i) = &b.own_points {
                let _ = writeln!(out, "| {} | {} | {} |", b.name, interval(i), i.n);
            }
        }
    }
    if let Some(note) = rating_note(r) {
        let _ = writeln!(out, "\n{note}");
    }
    if !r.pairwise.is_empty() {
        let _ = writeln!(out, "\n## Pairwise verdicts\n");
        let _ = writeln!(
            out,
            "Every two bots that met as opponents, the higher-ranked first. Head to head: matches where a finished ahead of b, behind it, level. LOS: the likelihood that a is the stronger from those results (fastchess's formula). In duplicate events the verdict comes from the same-cards difference a − b per deal (an interval holding 0 means no clear difference); otherwise from the LOS (at least 95 %: better).\n"
        );
        let _ = writeln!(
            out,
            "| a | b | matches | head to head | LOS | a − b same cards [95% CI] | verdict |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---|");
        for v in &r.pairwise {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                v.a,
                v.b,
                v.matches,
                head_to_head(v),
                los_text(v),
                difference_text(v),
                verdict_words(v)
            );
        }
    }
    if let Some(d) = &r.duplicate {
        let _ = writeln!(out, "\n## Duplicate: against par\n");
        let _ = writeln!(
            out,
            "Points per hand minus the mean of every bot's points on the same deal from the same seat.\n"
        );
        let _ = writeln!(out, "| bot | versus par [95% CI] | samples |");
        let _ = writeln!(out, "|---|---:|---:|");
        // A bot without a cell (it did not play) has no row.
        for (name, i) in d.versus_par.iter().filter(|(_, i)| i.n > 0) {
            let _ = writeln!(out, "| {name} | {} | {} |", interval(i), i.n);
        }
        let _ = writeln!(out, "\n## Duplicate: matchpoints\n");
        let _ = writeln!(
            out,
            "On each deal and seat, the percentage of the others who held the same cards that the bot outdid (a tie counts half).\n"
        );
        let _ = writeln!(out, "| bot | matchpoints % [95% CI] | samples |");
        let _ = writeln!(out, "|---|---:|---:|");
        for (name, i) in d.matchpoints.iter().filter(|(_, i)| i.n > 0) {
            let _ = writeln!(out, "| {name} | {} | {} |", interval(i), i.n);
        }
        let _ = writeln!(out, "\n## Duplicate: paired per-deal differences\n");
        let _ = writeln!(out, "| a | b | a − b [95% CI] | deals |");
        let _ = writeln!(out, "|---|---|---:|---:|");
        for p in ranked_pairs(r, d) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                p.a,
                p.b,
                interval(&p.difference),
                p.difference.n
            );
        }
    }
    out
}

/// The standings as CSV (one row per bot), written by the `csv` crate so
/// that a name or a cell holding a comma or a quote stays in its column.
pub fn csv(r: &Results) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let header = [
        "rank",
        "bot",
        "rating_system",
        "rating",
        "uncertainty",
        "matches",
        "hands",
        "points_mean",
        "points_low",
        "points_high",
        "bids_made",
        "bids",
        "wins",
        "mean_place",
        "ms_mean",
        "ms_max",
        "forfeits",
        "faults",
        "grade",
        "grade_low",
        "grade_high",
        "unranked",
        "fallbacks",
        "decisions",
    ];
    w.write_record(header).expect("writing to memory");
    let shown = places(r);
    for (i, b) in r.bots.iter().enumerate() {
        let (sys, val, unc) =
            b.rating
                .as_ref()
                .map_or((String::new(), String::new(), String::new()), |x| {
                    (
                        x.system.clone(),
                        format!("{:.3}", x.value),
                        format!("{:.3}", x.uncertainty),
                    )
                });
        let row = [
            if shown[i].0 == 0 {
                String::new()
            } else {
                shown[i].0.to_string()
            },
            b.name.clone(),
            sys,
            val,
            unc,
            b.matches.to_string(),
            b.hands.to_string(),
            format!("{:.4}", b.points.mean),
            format!("{:.4}", b.points.low),
            format!("{:.4}", b.points.high),
            b.bids_made.0.to_string(),
            b.bids_made.1.to_string(),
            b.wins.to_string(),
            format!("{:.4}", b.mean_place),
            format!("{:.3}", b.mean_ms),
            format!("{:.3}", b.max_ms),
            b.forfeits.to_string(),
            faults(b).replace(' ', ";"),
            b.grade.map_or(String::new(), |g| format!("{:.4}", g.mean)),
            b.grade.map_or(String::new(), |g| format!("{:.4}", g.low)),
            b.grade.map_or(String::new(), |g| format!("{:.4}", g.high)),
            b.unranked.clone().unwrap_or_default(),
            b.fallbacks.0.to_string(),
            b.fallbacks.1.to_string(),
        ];
        w.write_record(&row).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("UTF-8 cells")
}

/// Writes `results.json`, `standings.md` and `standings.csv` into `out`.
///
/// # Errors
/// IO errors.
pub fn write_all(out: &Path, r: &Results) -> std::io::Result<()> {
    std::fs::write(
        out.join("results.json"),
        serde_json::to_string_pretty(r).expect("results serialize") + "\n",
    )?;
    std::fs::write(out.join("standings.md"), markdown(r))?;
    std::fs::write(out.join("standings.csv"), csv(r))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Tally;

    #[test]
    fn a_difference_of_nothing_reads_zero_not_minus_zero() {
        let i = Interval {
            n: 4,
            mean: -0.0,
            low: -0.0,
            high: -0.001,
        };
        assert_eq!(interval(&i), "0.00 [0.00, 0.00]");
        assert_eq!(two_places(-0.006), "-0.01");
        assert_eq!(two_places(2.5), "2.50");
    }

    #[test]
    fn csv_cells_holding_commas_and_quotes_stay_in_their_column() {
        let bots = ["smith,j".to_string(), "o\"neil".to_string()];
        let r = Tally::new("t", "israeli", &bots).finish();
        let text = csv(&r);
        let mut reader = ::csv::Reader::from_reader(text.as_bytes());
        let width = reader.headers().unwrap().len();
        let rows: Vec<::csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        for row in &rows {
            assert_eq!(row.len(), width, "{row:?}");
        }
        let names: Vec<&str> = rows.iter().map(|r| &r[1]).collect();
        assert!(
            names.contains(&"smith,j") && names.contains(&"o\"neil"),
            "{names:?}"
        );
    }
}
