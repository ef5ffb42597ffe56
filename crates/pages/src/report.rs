//! The tournament report: `report.html` in a tournament's output folder,
//! from its `results.json` and match logs, with a hand viewer page for every
//! match under `viewer/` (each hand linked from the report).

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use maud::{Markup, PreEscaped, html};
use whistle_replay::verify::Context;
use whistle_tournament::{Results, runner};

use crate::{page, plot, viewer};

/// The style of the report and the league site.
pub const REPORT_CSS: &str = include_str!("../assets/report.css");

/// One match as the report lists it.
struct Row {
    index: u64,
    seats: Vec<String>,
    totals: Vec<i32>,
    hands: Vec<u32>,
    verified: bool,
    viewer: String,
}

/// Writes `report.html` and `viewer/mNNNNN.html` for every finished match
/// into the tournament folder `out`. Returns the report's path.
///
/// # Errors
/// A folder without `results.json`, an unreadable log, or a file that
/// cannot be written.
pub fn write(out: &Path) -> Result<PathBuf, String> {
    let results_path = out.join("results.json");
    let text = std::fs::read_to_string(&results_path)
        .map_err(|e| format!("{}: {e}", results_path.display()))?;
    let results: Results =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", results_path.display()))?;
    let viewer_dir = out.join("viewer");
    std::fs::create_dir_all(&viewer_dir).map_err(|e| format!("{}: {e}", viewer_dir.display()))?;
    let ctx = Context {
        tournament_seed: results.seed.map(whistle_rules::dealing::WrittenSeed::seed),
    };
    let logs = runner::log_paths(out).map_err(|e| e.to_string())?;
    // Every match's viewer page is independent: one worker a core.
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = logs.len().div_ceil(workers).max(1);
    let done: Vec<Result<Vec<Row>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = logs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(|| {
                    part.iter()
                        .filter_map(|(i, p)| viewer_row(*i, p, ctx, &viewer_dir).transpose())
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a report worker panicked".into()))
            })
            .collect()
    });
    let mut rows = Vec::with_capacity(logs.len());
    for part in done {
        rows.extend(part?);
    }
    let html = page_html(&results, &rows);
    let path = out.join("report.html");
    std::fs::write(&path, html).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Verifies the finished log of match `index`, writes its viewer page and
/// returns its row (none for an unfinished log).
fn viewer_row(
    index: u64,
    path: &Path,
    ctx: Context,
    viewer_dir: &Path,
) -> Result<Option<Row>, String> {
    let (log, m) = viewer::from_file(path, ctx)?;
    let Some(end) = log.end.as_ref() else {
        return Ok(None);
    };
    let name = format!("m{index:05}.html");
    let page_path = viewer_dir.join(&name);
    std::fs::write(&page_path, crate::viewer_page(&m))
        .map_err(|e| format!("{}: {e}", page_path.display()))?;
    Ok(Some(Row {
        index,
        seats: log.header.seats.clone(),
        totals: end.result.totals.clone(),
        hands: log.hands.iter().map(|h| h.deal).collect(),
        verified: m.verified,
        viewer: format!("viewer/{name}"),
    }))
}

fn rating_text(r: &whistle_tournament::stats::BotStats) -> (String, String) {
    match &r.rating {
        Some(x) => (
            format!("{:.1} ± {:.1}", x.value, x.uncertainty),
            format!(
                "[{:.1}, {:.1}]",
                x.value - 2.0 * x.uncertainty,
                x.value + 2.0 * x.uncertainty
            ),
        ),
        None => ("-".into(), String::new()),
    }
}

fn faults_text(f: &std::collections::BTreeMap<String, u64>) -> String {
    if f.is_empty() {
        return "0".into();
    }
    let total: u64 = f.values().sum();
    let mut out = format!("{total} (");
    for (i, (k, n)) in f.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{k} {n}");
    }
    out.push(')');
    out
}

fn page_html(r: &Results, rows: &[Row]) -> String {
    let series: Vec<plot::Series> = r
        .bots
        .iter()
        .filter_map(|b| {
            r.rating_history.get(&b.name).map(|h| {
                (
                    b.name.clone(),
                    h.iter()
                        .map(|p| (p.r#match, p.value, p.uncertainty))
                        .collect(),
                )
            })
        })
        .collect();
    let system = r
        .bots
        .iter()
        .find_map(|b| b.rating.as_ref().map(|x| x.system.clone()))
        .unwrap_or_default();
    let title = format!("{} — {}", r.tournament, r.game);
    let places = whistle_tournament::report::places(r);
    let body: Markup = html! {
        header {
            h1 { (title) }
            p { (rows.len()) " matches; ranked " (r.ranking) "."
                @if let Some(seed) = r.seed { " Tournament seed " (seed) " (revealed)." } }
        }
        main {
            @if !r.notes.is_empty() {
                section #notes {
                    h2 { "How the bots ran" }
                    ul { @for n in &r.notes {
                        li.note data-kind=(n.kind) {
                            @if !n.bot.is_empty() { strong { (n.bot) } ": " }
                            (n.detail)
                        }
                    } }
                }
            }
            section #standings {
                h2 { "Standings" }
                p.explain {
                    "rating: " (system) " value ± its uncertainty (one standard deviation). "
                    "interval: the value ± two standard deviations (about 95 %): ratings whose "
                    "intervals overlap may well be the same strength. A place marked = is shared: "
                    "the pairwise verdict finds no clear difference from the bot above."
                }
                div.scroll { table {
                    thead { tr {
                        th { "#" } th { "bot" } th { "rating (± σ)" } th { "interval (± 2σ)" }
                        th { "points / hand [95 %]" } th { "matches" } th { "hands" }
                        th { "wins" } th { "faults" } th { "decision ms (mean / max)" }
                    } }
                    tbody {
                        @for (i, b) in r.bots.iter().enumerate() {
                            @let (rating, interval) = rating_text(b);
                            tr.bot data-bot=(b.name) {
                                td.place { (whistle_tournament::report::place_text(places[i])) }
                                td.name { (b.name) } td { (rating) } td { (interval) }
                                td { (format!("{:.2} [{:.2}, {:.2}]", b.points.mean, b.points.low, b.points.high)) }
                                td { (b.matches) } td { (b.hands) } td { (b.wins) }
                                td { (faults_text(&b.faults)) }
                                td { (format!("{:.1} / {:.1}", b.mean_ms, b.max_ms)) }
                            }
                        }
                    }
                } }
            }
            @if !series.is_empty() {
                section #ratings {
                    h2 { "Ratings over the matches (" (system) ", ± one standard deviation)" }
                    div.chart { (PreEscaped(plot::ratings_svg(&series, 900, 360))) }
                    ul.legend {
                        @for (i, (name, _)) in series.iter().enumerate() {
                            li { span.swatch style=(format!("background:{}", plot::color_css(i))) {} (name) }
                        }
                    }
                }
            }
            @if !r.pairwise.is_empty() {
                section #pairwise {
                    h2 { "Pairwise verdicts" }
                    div.scroll { table {
                        thead { tr {
                            th { "bots" } th { "matches" } th { "ahead / behind / level" }
                            th { "likelihood of superiority" } th { "same-cards difference" } th { "verdict" }
                        } }
                        tbody { @for v in &r.pairwise { tr {
                            td { (v.a) " vs " (v.b) } td { (v.matches) }
                            td { (v.a_ahead) " / " (v.b_ahead) " / " (v.level) }
                            td { (v.los.map_or("-".to_string(), |l| format!("{:.1} %", l * 100.0))) }
                            td { (v.difference.as_ref().map_or("-".to_string(), |d| format!("{:.2} [{:.2}, {:.2}]", d.mean, d.low, d.high))) }
                            td { (whistle_tournament::report::verdict_words(v)) }
                        } } }
                    } }
                }
            }
            section #matches {
                h2 { "Matches" }
                div.scroll { table {
                    thead { tr { th { "match" } th { "seats" } th { "totals" } th { "hands (viewer)" } th { "log" } } }
                    tbody { @for m in rows { tr {
                        td { (m.index) }
                        td { (m.seats.join(", ")) }
                        td { (m.totals.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ")) }
                        td.hands { @for (k, deal) in m.hands.iter().enumerate() {
                            a href=(format!("{}#hand={k}&step=0&seat=0", m.viewer)) { (deal) } " "
                        } }
                        td { @if m.verified { "verified" } @else { strong { "NOT verified" } } }
                    } } }
                } }
            }
        }
    };
    page(&title, REPORT_CSS, body)
}
