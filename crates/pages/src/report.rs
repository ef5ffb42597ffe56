//! The tournament report: `report.html` in a tournament's output folder,
//! from its `results.json` and match logs, with a hand viewer page for every
//! match under `viewer/` (each hand linked from the report).

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use maud::{Markup, PreEscaped, html};
use whistle_replay::verify::Context;
use whistle_tournament::{
    Results, layout,
    report::two_places,
    stats::{BotStats, Interval},
};

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
    write_with(out, Written::default())
}

/// Viewer pages written while a tournament plays: each match's page as soon
/// as its log is finished, on a thread of its own, so that the run's end
/// writes only the pages of matches it did not see finish and the report.
/// A finished log never changes, so its page is the one [`write`] would
/// write. Only for a run that deals from `tournament_seed` (the page says
/// whether each deal follows from it).
pub struct Ahead {
    queue: Option<std::sync::mpsc::Sender<(u64, PathBuf)>>,
    worker: Option<std::thread::JoinHandle<Written>>,
}

/// The pages [`Ahead`] wrote: by match index, the log each was written
/// from and the report's row, or why it could not be.
#[derive(Default)]
pub struct Written {
    rows: std::collections::HashMap<u64, (PathBuf, Result<Option<Row>, String>)>,
}

impl Ahead {
    /// A worker writing pages into `out/viewer/` for matches dealt from
    /// `tournament_seed`.
    #[must_use]
    pub fn start(out: &Path, tournament_seed: whistle_rules::dealing::Seed) -> Ahead {
        let (queue, jobs) = std::sync::mpsc::channel::<(u64, PathBuf)>();
        let viewer_dir = out.join("viewer");
        let ctx = Context {
            tournament_seed: Some(tournament_seed),
        };
        let worker = std::thread::Builder::new()
            .name("viewer-pages".into())
            .spawn(move || {
                #[cfg(target_os = "linux")]
                let _ = rustix::process::setpriority_process(None, 19);
                let mut written = Written::default();
                if std::fs::create_dir_all(&viewer_dir).is_err() {
                    // `write` makes the folder again and says why it cannot.
                    return written;
                }
                let mut buffers = Buffers::default();
                for (index, log) in jobs {
                    let row = viewer_row(index, &log, ctx, &viewer_dir, &mut buffers);
                    written.rows.insert(index, (log, row));
                }
                written
            })
            .ok();
        Ahead {
            queue: worker.is_some().then_some(queue),
            worker,
        }
    }

    /// Match `index` finished: its log `log` is complete.
    pub fn finished(&self, index: u64, log: &Path) {
        if let Some(q) = &self.queue {
            let _ = q.send((index, log.to_path_buf()));
        }
    }

    /// Waits for the pages queued so far and returns them.
    #[must_use]
    pub fn finish(mut self) -> Written {
        drop(self.queue.take());
        self.worker
            .take()
            .and_then(|w| w.join().ok())
            .unwrap_or_default()
    }
}

/// A match's index and its row (none for an unfinished log).
type IndexedRow = (u64, Option<Row>);

/// [`write`], taking the pages in `written` as they are (the log each was
/// written from must still be the match's log) and writing the others.
///
/// # Errors
/// As [`write`].
pub fn write_with(out: &Path, mut written: Written) -> Result<PathBuf, String> {
    let results_path = out.join("results.json");
    let text = std::fs::read_to_string(&results_path)
        .map_err(|e| format!("{}: {e}", results_path.display()))?;
    let results: Results =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", results_path.display()))?;
    let viewer_dir = out.join("viewer");
    std::fs::create_dir_all(&viewer_dir).map_err(|e| format!("{}: {e}", viewer_dir.display()))?;
    remove_parts(&viewer_dir);
    let ctx = Context {
        tournament_seed: results.seed.map(whistle_rules::dealing::WrittenSeed::seed),
    };
    let logs = layout::log_paths(out).map_err(|e| e.to_string())?;
    let mut ready = std::collections::HashMap::new();
    let mut todo = Vec::with_capacity(logs.len());
    for (i, p) in logs {
        match written.rows.remove(&i) {
            // The same file (the runner and `out` may spell the folder
            // differently).
            Some((log, row)) if log.file_name() == p.file_name() => {
                ready.insert(i, row);
            }
            _ => todo.push((i, p)),
        }
    }
    // Every match's viewer page is independent: one worker a core.
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = todo.len().div_ceil(workers).max(1);
    let done: Vec<Result<Vec<IndexedRow>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = todo
            .chunks(chunk)
            .map(|part| {
                scope.spawn(|| {
                    let mut buffers = Buffers::default();
                    part.iter()
                        .map(|(i, p)| Ok((*i, viewer_row(*i, p, ctx, &viewer_dir, &mut buffers)?)))
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
    for part in done {
        for (i, row) in part? {
            ready.insert(i, Ok(row));
        }
    }
    // In the order of the logs, as the report lists them.
    let mut order: Vec<u64> = ready.keys().copied().collect();
    order.sort_unstable();
    let mut rows = Vec::with_capacity(order.len());
    for i in order {
        if let Some(row) = ready.remove(&i).transpose()?.flatten() {
            rows.push(row);
        }
    }
    let html = page_html(&results, &rows);
    let path = out.join("report.html");
    std::fs::write(&path, html).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Removes the half-written pages (`.part`) a run stopped while writing
/// pages left in `viewer_dir` (those matches' pages are written again).
fn remove_parts(viewer_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(viewer_dir) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name()
            .to_str()
            .is_some_and(|n| n.ends_with(".html.part"))
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// What a thread writing pages keeps from page to page.
#[derive(Default)]
struct Buffers {
    scratch: viewer::Scratch,
    packer: crate::Packer,
}

/// Verifies the finished log of match `index`, writes its viewer page and
/// returns its row (none for an unfinished log).
fn viewer_row(
    index: u64,
    path: &Path,
    ctx: Context,
    viewer_dir: &Path,
    buffers: &mut Buffers,
) -> Result<Option<Row>, String> {
    let (log, m) = viewer::from_file_with(path, ctx, &mut buffers.scratch)?;
    let Some(end) = log.end.as_ref() else {
        return Ok(None);
    };
    let name = format!("m{index:05}.html");
    let page_path = viewer_dir.join(&name);
    // Whole or not at all: a run stopped while pages are written leaves
    // no half page (a resumed run writes them all again).
    let part = viewer_dir.join(format!("{name}.part"));
    std::fs::write(&part, crate::viewer_page_with(&m, &mut buffers.packer))
        .and_then(|()| std::fs::rename(&part, &page_path))
        .map_err(|e| format!("{}: {e}", page_path.display()))?;
    let verified = m.verified;
    buffers.scratch.recycle(m);
    Ok(Some(Row {
        index,
        seats: log.header.seats.clone(),
        totals: end.result.totals.clone(),
        hands: log.hands.iter().map(|h| h.deal).collect(),
        verified,
        viewer: format!("viewer/{name}"),
    }))
}

fn rating_text(r: &whistle_tournament::stats::BotStats) -> String {
    match &r.rating {
        Some(x) => format!("{:.1} ± {:.1}", x.value, x.uncertainty),
        None => "-".into(),
    }
}

/// A mean over its 95 % interval, the interval in small type beneath.
fn interval_cell(i: Option<&Interval>) -> Markup {
    match i {
        Some(i) if i.n >= 2 => html! {
            span.mean { (two_places(i.mean)) }
            br;
            span.ci { "[" (two_places(i.low)) ", " (two_places(i.high)) "]" }
        },
        Some(i) if i.n == 1 => html! { span.mean { (two_places(i.mean)) } },
        _ => html! { "-" },
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

/// Picks a bot's rating line out of the chart when its standings row is
/// clicked (and back). Names are read from `data-bot` and compared as
/// text.
const PICK_JS: &str = r#"
document.querySelectorAll('#standings tr.bot').forEach(function (tr) {
  tr.addEventListener('click', function () {
    var on = !tr.classList.contains('picked');
    tr.classList.toggle('picked', on);
    document.querySelectorAll('#ratings polyline.rating').forEach(function (line) {
      if (line.dataset.bot === tr.dataset.bot) {
        line.classList.toggle('picked', on);
        line.parentNode.appendChild(line);
      }
    });
  });
});
"#;

fn page_html(r: &Results, rows: &[Row]) -> String {
    use whistle_tournament::report as text;
    // The chart follows the standings: the ranked bots first, best first.
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
    let places = text::places(r);
    let par = r.duplicate.is_some() && r.grade != "rating";
    let ranked: Vec<(usize, &BotStats)> = r
        .bots
        .iter()
        .enumerate()
        .filter(|(_, b)| b.unranked.is_none())
        .collect();
    let unranked: Vec<&BotStats> = r.bots.iter().filter(|b| b.unranked.is_some()).collect();
    let troubled: Vec<(&BotStats, String)> = r
        .bots
        .iter()
        .filter_map(|b| text::trouble(b).map(|t| (b, t)))
        .collect();
    // How the bots ran: one line a bot, its notes, then its faults and
    // forfeits.
    let mut ran: Vec<(String, String, Vec<String>)> = Vec::new();
    let mut add = |bot: &str, kind: &str, line: String| match ran.iter_mut().find(|e| e.0 == bot) {
        Some(e) => {
            e.1.push(' ');
            e.1.push_str(kind);
            e.2.push(line);
        }
        None => ran.push((bot.to_string(), kind.to_string(), vec![line])),
    };
    for n in &r.notes {
        add(&n.bot, &n.kind, n.detail.clone());
    }
    for (b, t) in &troubled {
        add(&b.name, "faults", t.clone());
    }
    let grade_name = if r.grade.is_empty() {
        "rank".to_string()
    } else {
        text::grade_heading(r).to_string()
    };
    let drawn = series.len().min(plot::DRAWN);
    let body: Markup = html! {
        header {
            h1 { (title) }
            p { (rows.len()) " matches."
                @if let Some(seed) = r.seed { " Tournament seed " (seed) " (revealed)." } }
            @if !r.grade.is_empty() {
                p.grade { strong { "The grade is the " (grade_name) " column" } ", the standings' order: ranked " (r.ranking) "." }
            } @else {
                p { "Ranked " (r.ranking) "." }
            }
        }
        main {
            @if !ran.is_empty() {
                section #notes {
                    h2 { "How the bots ran" }
                    ul {
                        @for (bot, kinds, lines) in &ran {
                            li.note data-kind=(kinds) data-bot=(bot) {
                                @if !bot.is_empty() { strong { (bot) } ": " }
                                (lines.join("; "))
                            }
                        }
                    }
                    p.explain { "Every fault is in the match logs (matches/) and each hand's viewer page; a bot's own output is in logs/." }
                }
            }
            section #standings {
                h2 { "Standings" }
                p.explain {
                    "The first number is the grade, with its 95 % interval beneath. "
                    @if par { "vs par: points per hand against the mean of everyone who held the same cards from the same seat. " }
                    "rating: " (system) " value ± its uncertainty (one standard deviation; as a grade, its interval is the value ± two standard deviations, about 95 %): ratings within each other's intervals may well be the same strength. "
                    "A place counts the bots clearly better (their pairwise verdict, or for bots that never met nor held the same cards, grades whose intervals are apart); a place marked = is shared. "
                    "decisions by fallback: the decisions the referee played for the bot (after a late, illegal or malformed answer, or once it forfeited) of all its decisions: how much of its result the fallback rule earned. "
                    "Click a bot to pick out its line in the ratings chart."
                }
                div.scroll { table {
                    thead { tr {
                        th { "#" } th { "bot" } th.grade { (grade_name) }
                        @if par { th { "vs par / hand [95 %]" } }
                        th { "rating (± σ)" }
                        th.minor { (if r.lower_is_better { "fines" } else { "points" }) " / hand [95 %]" }
                        th { "matches" } th.minor { "wins" } th { "forfeits" } th { "faults" } th { "decisions by fallback" } th.minor { "decision ms (mean / max)" }
                    } }
                    tbody {
                        @for (i, b) in &ranked {
                            tr.bot data-bot=(b.name) {
                                td.place { (text::place_text(places[*i])) }
                                td.name {
                                    (b.name)
                                    // A place that says little of the bot (a `doubtful` note).
                                    @if let Some(n) = r.notes.iter().find(|n| n.kind == "doubtful" && n.bot == b.name) {
                                        " " span.doubtful title=(n.detail) { "(doubtful: see How the bots ran)" }
                                    }
                                }
                                td.grade { (interval_cell(b.grade.as_ref())) }
                                @if par {
                                    td { (interval_cell(r.duplicate.as_ref().and_then(|d| d.versus_par.iter().find(|(n, _)| *n == b.name).map(|(_, i)| i)))) }
                                }
                                td { (rating_text(b)) }
                                td.minor { (interval_cell(Some(&b.points))) }
                                td { (b.matches) } td.minor { (b.wins) }
                                td.forfeits { (b.forfeits) }
                                td { (faults_text(&b.faults)) }
                                td.fallbacks { (text::fallbacks_text(b)) }
                                td.minor { (format!("{:.1} / {:.1}", b.mean_ms, b.max_ms)) }
                            }
                        }
                    }
                } }
            }
            @if !unranked.is_empty() {
                section #unranked {
                    h2 { "Not ranked" }
                    p.explain { "Bots that did not play, were out of the event, or forfeited every match: listed apart, with no numbers they did not earn." }
                    div.scroll { table {
                        thead { tr { th { "bot" } th { "why" } th { "matches" } th { "forfeits" } th { "faults" } th { "decisions by fallback" } } }
                        tbody { @for b in &unranked {
                            tr.unranked data-bot=(b.name) {
                                td.name { (b.name) }
                                td.why { (b.unranked.as_deref().unwrap_or_default()) }
                                td { (b.matches) }
                                td.forfeits { (b.forfeits) }
                                td { (faults_text(&b.faults)) }
                                td.fallbacks { (text::fallbacks_text(b)) }
                            }
                        } }
                    } }
                }
            }
            @if !series.is_empty() {
                section #ratings {
                    h2 { "Ratings over the matches (" (system) ", ± one standard deviation)" }
                    @if series.len() > drawn {
                        p.explain { "The top " (drawn) " are drawn in colour; the other " (series.len() - drawn) " are grey: hover a line for its bot, or click a bot in the standings to pick out its line." }
                    }
                    div.chart { (PreEscaped(plot::ratings_svg(&series, 900, 360))) }
                    ul.legend {
                        @for (i, (name, _)) in series.iter().take(drawn).enumerate() {
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
                            td { (v.difference.as_ref().map_or("-".to_string(), |d| format!("{} [{}, {}]", two_places(d.mean), two_places(d.low), two_places(d.high)))) }
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
        script { (PreEscaped(PICK_JS)) }
    };
    page(&title, REPORT_CSS, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page a stopped run was writing (`.part`) is removed before the
    /// pages are written; finished pages and other files stay.
    #[test]
    fn half_written_pages_are_removed() {
        let dir = std::env::temp_dir().join(format!("whistle-parts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["m00001.html.part", "m00002.html", "notes.part"] {
            std::fs::write(dir.join(name), "x").unwrap();
        }
        remove_parts(&dir);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(left, ["m00002.html", "notes.part"]);
    }
}
