//! The league's web site, served by `whistle league serve --http ADDR`:
//! standings, each bot's rating history, recent matches opening in the hand
//! viewer, and the tables being played, shown a configurable delay late so
//! that a spectator cannot help a bot. The pages refresh themselves.
//! Spectators' pages only read. A bot's owner, with its token, uploads
//! versions and sees their checks, its versions and its stderr on the pages
//! of [`owner`] (`/upload`, `/owner`).
//!
//! Everything comes from the same store and logs as the command line
//! (`standings`, `history`, the viewer of `replay html`).

use std::{
    collections::VecDeque,
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

mod owner;

use axum::{
    Router,
    extract::{DefaultBodyLimit, Path as UrlPath, State},
    http::StatusCode,
    response::{Html, IntoResponse, Response},
    routing::get,
};
use maud::{PreEscaped, html};
pub use owner::{INBOX, MAX_WAITING, MAX_WAITING_PER_BOT};
use whistle_pages::{page, plot, report::REPORT_CSS};
use whistle_referee::{Referee, TableSnapshot};

use whistle_replay::{Header, LogReader};

use crate::{STORE_FILE, store::Store};

/// How often the pages refresh themselves, in seconds.
const REFRESH_S: u32 = 10;
/// How many recent matches the front page lists.
const RECENT: usize = 30;

/// What the site serves from.
#[derive(Clone)]
struct Site {
    league: PathBuf,
    name: String,
    referee: Referee,
    delay: Duration,
    /// Table states sampled once a second, oldest first, kept while they may
    /// still be shown (`delay` plus a little).
    samples: Arc<Mutex<VecDeque<Sample>>>,
    /// The owners' pages' state.
    owners: owner::Owners,
}

/// The tables' states at one moment.
type Sample = (Instant, Vec<TableSnapshot>);

impl Site {
    fn store(&self) -> Result<Store, Box<Response>> {
        Store::open_read_only(&self.league.join(STORE_FILE))
            .map_err(|e| Box::new(error(&e.to_string())))
    }

    /// The newest table states at least `delay` old.
    fn delayed(&self) -> Option<(Duration, Vec<TableSnapshot>)> {
        let samples = self.samples.lock().expect("samples lock");
        let now = Instant::now();
        samples
            .iter()
            .rev()
            .find(|(at, _)| now.duration_since(*at) >= self.delay)
            .map(|(at, t)| (now.duration_since(*at), t.clone()))
    }
}

fn error(message: &str) -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, message.to_string()).into_response()
}

fn not_found(what: &str) -> Response {
    (StatusCode::NOT_FOUND, format!("no {what}")).into_response()
}

/// A page of the site with its navigation; `refresh` reloads it by itself.
fn site_page(site: &Site, title: &str, refresh: bool, body: maud::Markup) -> Html<String> {
    let full = format!("{title} — {}", site.name);
    let body = html! {
        @if refresh { meta http-equiv="refresh" content=(REFRESH_S); }
        header {
            nav {
                a href="/" { (site.name) } " · " a href="/live" { "live tables" }
                " · " a href="/rounds" { "rounds and seeds" }
                " · " a href="/owner" { "your bot" }
            }
            h1 { (title) }
        }
        main { (body) }
    };
    Html(page(&full, REPORT_CSS, body))
}

/// Each round's seed commitment, and its seed once the round is closed.
async fn rounds(State(site): State<Site>) -> Response {
    let league = site.league.clone();
    let rows = match tokio::task::spawn_blocking(move || crate::round::round_seeds(&league)).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return error(&e.to_string()),
        Err(e) => return error(&e.to_string()),
    };
    site_page(
        &site,
        "Rounds and seeds",
        true,
        html! {
            p { "Each round's seed is committed to (SHA-256) before the round plays: every log \
                 of the round carries the commitment. The seed is shown once the round is closed; \
                 anyone can then check a log with " code { "whistle replay verify LOG --seed SEED" } "." }
            div.scroll { table #rounds {
                thead { tr { th { "round" } th { "commitment" } th { "seed" } } }
                tbody { @for r in rows.iter().rev() { tr {
                    td { (r.round) } td { code { (r.commitment) } }
                    td { @match r.seed { Some(s) => code { (s) }, None => "secret until the round closes" } }
                } } }
            } }
        },
    )
    .into_response()
}

async fn standings(State(site): State<Site>) -> Response {
    let store = match site.store() {
        Ok(s) => s,
        Err(r) => return *r,
    };
    let (rows, recent) = match (store.standings(), store.recent_matches(RECENT)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return error(&e.to_string()),
    };
    let playing_out = playing_out(&site.league, &store);
    site_page(
        &site,
        "Standings",
        true,
        html! {
            p { "Weng-Lin rating μ ± σ; the interval is μ ± 2σ. Refreshes every " (REFRESH_S) " s." }
            div.scroll { table #standings {
                thead { tr {
                    th { "#" } th { "bot" } th { "rating" } th { "σ" } th { "interval" }
                    th { "matches" } th { "points / hand [95 %]" } th { "faults" } th { "last seen" }
                } }
                tbody { @for (i, r) in rows.iter().filter(|r| r.played).enumerate() {
                    tr.bot data-bot=(r.bot) {
                        td { (i + 1) }
                        td.name { a href=(format!("/bots/{}", r.bot)) { (r.bot) } @if r.retired {
                            @if playing_out.contains(&r.bot) { " (replaced: plays this round out)" } @else { " (retired)" }
                        } }
                        td { (format!("{:.2}", r.rating)) } td { (format!("{:.2}", r.uncertainty)) }
                        td { (format!("[{:.1}, {:.1}]", r.interval[0], r.interval[1])) }
                        td { (r.matches) }
                        td { (match (r.points_per_hand, r.points_interval) {
                            (Some(m), Some([lo, hi])) => format!("{m:.2} [{lo:.1}, {hi:.1}]"),
                            (Some(m), None) => format!("{m:.2}"),
                            _ => "-".into(),
                        }) }
                        td { (r.faults) }
                        td { (r.last_seen.as_deref().unwrap_or("never")) }
                    }
                } }
            } }
            @let idle: Vec<&crate::store::Standing> = rows.iter().filter(|r| !r.played).collect();
            @if !idle.is_empty() {
                p #did-not-play { "Did not play (no rated match yet; not ranked): "
                    @for (i, r) in idle.iter().enumerate() {
                        @if i > 0 { ", " }
                        a href=(format!("/bots/{}", r.bot)) { (r.did_not_play(&rows)) }
                    }
                }
            }
            h2 { "Recent matches" }
            div.scroll { table #recent {
                thead { tr { th { "match" } th { "seats (points)" } th { "hands" } th { "recorded" } } }
                tbody { @for m in &recent { tr {
                    td { a href=(format!("/matches/{}", m.id)) { (m.tournament) " #" (m.match_index) } }
                    td { (m.bots.iter().zip(&m.points).map(|(b, p)| format!("{b} ({p:+})")).collect::<Vec<_>>().join(", ")) }
                    td { (m.hands) } td { (m.recorded_at) }
                } } }
            } }
        },
    )
    .into_response()
}

/// The versions their owners replaced or withdrew that still play the
/// open round (seated when it started, they play it to the end, rated).
fn playing_out(league: &Path, store: &Store) -> std::collections::BTreeSet<String> {
    let Ok((Some((number, _)), _)) = store.rounds() else {
        return Default::default();
    };
    let path = crate::round::round_dir(league, number).join("round.toml");
    let Some(t) = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| whistle_tournament::Tournament::parse(&path, &text).ok())
    else {
        return Default::default();
    };
    t.bots
        .into_iter()
        .map(|b| b.name)
        .filter(|b| store.stopped_by_owner(b).unwrap_or(false))
        .collect()
}

async fn bot(State(site): State<Site>, UrlPath(name): UrlPath<String>) -> Response {
    let store = match site.store() {
        Ok(s) => s,
        Err(r) => return *r,
    };
    let Ok(history) = store.history(&name) else {
        return not_found("such bot");
    };
    let points: Vec<(u64, f64, f64)> = history
        .iter()
        .enumerate()
        .map(|(i, h)| (i as u64, h.rating, h.uncertainty))
        .collect();
    let (before, after) = store.lineage(&name).unwrap_or_default();
    // A student who uploads plays through versions (`NAME.v1`, ...), not
    // under the name: their pages hold the ratings.
    let rows = store.standings().unwrap_or_default();
    let versions: Vec<String> = rows
        .iter()
        .find(|r| r.bot == name)
        .map(|r| r.versions(&rows).into_iter().map(str::to_string).collect())
        .unwrap_or_default();
    let svg = plot::ratings_svg(&[(name.clone(), points)], 900, 320);
    site_page(
        &site,
        &format!("{name}: rating history"),
        true,
        html! {
            @if before.is_some() || after.is_some() { p #lineage {
                @if let Some(b) = &before { "A new version of " a href=(format!("/bots/{b}")) { (b) } ". " }
                @if let Some(a) = &after { "Replaced by " a href=(format!("/bots/{a}")) { (a) } "." }
            } }
            @if !versions.is_empty() { p #versions {
                (name) " plays through its uploaded versions, each rated on its own page: "
                @for (i, v) in versions.iter().enumerate() {
                    @if i > 0 { ", " }
                    a href=(format!("/bots/{v}")) { (v) }
                }
                "."
            } }
            div.chart #history-plot { (PreEscaped(svg)) }
            div.scroll { table #history {
                thead { tr { th { "after" } th { "rating" } th { "σ" } th { "when" } } }
                tbody { @for h in history.iter().rev() { tr {
                    td { @match (&h.r#match, h.match_id) {
                        (Some(m), Some(id)) => a href=(format!("/matches/{id}")) { (m) },
                        (m, _) => (m.as_deref().unwrap_or("(start)")),
                    } }
                    td { (format!("{:.2}", h.rating)) } td { (format!("{:.2}", h.uncertainty)) }
                    td { (h.at) }
                } } }
            } }
        },
    )
    .into_response()
}

async fn match_viewer(State(site): State<Site>, UrlPath(id): UrlPath<i64>) -> Response {
    let (store, path) = match recorded_log(&site, id) {
        Ok(found) => found,
        Err(r) => return *r,
    };
    let open = open_round_of(&site.league, &store, &path);
    let link = match open {
        None => format!(
            "<p id=\"log\"><a href=\"/matches/{id}/log\" download>the match log (.jsonl)</a>: \
             check it with <code>whistle replay verify LOG --seed SEED</code>, the round's seed \
             from <a href=\"/rounds\">rounds and seeds</a></p>"
        ),
        Some(round) => format!(
            "<p id=\"log\">The match log can be downloaded once round {round} is closed \
             (with its seed, on <a href=\"/rounds\">rounds and seeds</a>).</p>"
        ),
    };
    match tokio::task::spawn_blocking(move || viewer_page_of(&path, false)).await {
        // The link goes above the verdict: the page's own markup, the
        // viewer's script untouched.
        Ok(Ok(p)) => Html(p.replacen(
            "<p id=\"verdict\">",
            &format!("{link}<p id=\"verdict\">"),
            1,
        ))
        .into_response(),
        other => respond(other),
    }
}

/// The store and the log file of recorded match `id`, or the page saying
/// why not.
fn recorded_log(site: &Site, id: i64) -> Result<(Store, PathBuf), Box<Response>> {
    let store = site.store()?;
    let Ok(Some(log_path)) = store.match_log(id) else {
        return Err(Box::new(not_found("such match")));
    };
    let path = resolve(&site.league, &log_path);
    Ok((store, path))
}

/// The open round whose folder holds the log at `path`, if one does: its
/// logs are not published (they show every hand's cards, and a duplicate
/// round deals the same cards at tables still playing) until it closes.
fn open_round_of(league: &Path, store: &Store, path: &Path) -> Option<u64> {
    // A store that cannot say which round is open publishes nothing.
    let Ok((open, _)) = store.rounds() else {
        return Some(0);
    };
    let (number, _) = open?;
    let dir = crate::round::round_dir(league, number);
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    canon(path).starts_with(canon(&dir)).then_some(number)
}

/// A recorded match's log, the exact bytes the store's hash is of (a
/// closed round's compressed log uncompressed), for `whistle replay
/// verify`; refused while its round is open.
async fn match_log(State(site): State<Site>, UrlPath(id): UrlPath<i64>) -> Response {
    let (store, path) = match recorded_log(&site, id) {
        Ok(found) => found,
        Err(r) => return *r,
    };
    if let Some(round) = open_round_of(&site.league, &store, &path) {
        return (
            StatusCode::FORBIDDEN,
            format!(
                "round {round} is still open: its logs show every hand's cards, and are \
                 published with its seed once it is closed\n"
            ),
        )
            .into_response();
    }
    let name = match header_of(&path) {
        Some(h) => format!("{}-m{:05}.jsonl", h.tournament, h.match_index),
        None => format!("match-{id}.jsonl"),
    };
    match tokio::task::spawn_blocking(move || whistle_replay::read_log_bytes(&path)).await {
        Ok(Ok(bytes)) => (
            [
                (
                    axum::http::header::CONTENT_TYPE,
                    "application/x-ndjson".to_string(),
                ),
                (
                    axum::http::header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{name}\""),
                ),
            ],
            bytes,
        )
            .into_response(),
        Ok(Err(e)) => error(&e.to_string()),
        Err(e) => error(&e.to_string()),
    }
}

/// A table being played: in the viewer, the hands no spectator can use
/// any more. A hand shows once it was finished at least the delay ago at
/// every table that plays its deal (the tables of one duplicate group); the
/// rest of the log is not read into the page at all.
async fn live_table(State(site): State<Site>, UrlPath(table): UrlPath<String>) -> Response {
    // Table ids are `<league>-r<round>-m<match>` (the round's tournament
    // name and the match index).
    let parsed = table.rsplit_once("-m").and_then(|(rest, m)| {
        let (name, r) = rest.rsplit_once("-r")?;
        (name == site.name).then_some(())?;
        Some((r.parse::<u64>().ok()?, m.parse::<u64>().ok()?))
    });
    let Some((round, index)) = parsed else {
        return not_found("such table");
    };
    let dir = crate::round::round_dir(&site.league, round);
    let path = whistle_tournament::layout::match_path(&dir, index);
    // Its round closed, the log is compressed.
    let path = with_gz(path);
    if !path.exists() {
        return not_found("such table");
    }
    let delayed = site.delayed().map(|(_, t)| t).unwrap_or_default();
    let delay = site.delay;
    let page = tokio::task::spawn_blocking(move || -> Result<Option<String>, String> {
        let shown = public_prefix(&dir, &path, &delayed, delay)?;
        // The header alone: no hand to show yet.
        if shown.lines().count() < 2 {
            return Ok(None);
        }
        let file = tempfile::NamedTempFile::new().map_err(|e| e.to_string())?;
        std::fs::write(file.path(), shown).map_err(|e| e.to_string())?;
        viewer_page_of(file.path(), true).map(Some)
    })
    .await;
    match page {
        Ok(Ok(None)) => site_page(
            &site,
            &table,
            true,
            html! {
                p #waiting { "Waiting for the first hand: a hand shows here once it has been \
                             finished " (site.delay.as_secs()) " s ago at every table dealt its \
                             cards. This page reloads itself." }
            },
        )
        .into_response(),
        Ok(Ok(Some(p))) => Html(p).into_response(),
        Ok(Err(e)) => error(&e),
        Err(e) => error(&e.to_string()),
    }
}

/// The hand viewer page of the log at `path`, linking back to the site;
/// `live`: a table being played, the page reloads itself.
fn viewer_page_of(path: &Path, live: bool) -> Result<String, String> {
    whistle_pages::viewer::from_file(path, Default::default()).map(|(_, mut m)| {
        m.back = Some("/".into());
        m.live = live;
        whistle_pages::viewer_page(&m)
    })
}

/// A page built in a blocking task, or the error that stopped it.
fn respond(page: Result<Result<String, String>, tokio::task::JoinError>) -> Response {
    match page {
        Ok(Ok(p)) => Html(p).into_response(),
        Ok(Err(e)) => error(&e),
        Err(e) => error(&e.to_string()),
    }
}

/// The header of the match log at `path`.
fn header_of(path: &Path) -> Option<Header> {
    LogReader::open(path).ok().map(|log| log.header().clone())
}

/// A match log as a spectator's page reads it: the header, and the exact
/// text of the header line and of each complete hand line after it, in
/// order (the end line is not among them).
struct HandLines {
    header: Header,
    lines: Vec<String>,
}

/// The header and hand lines of the log at `path`: the hands up to the
/// first line that is not a complete hand record.
fn log_lines(path: &Path) -> Result<HandLines, String> {
    let mut log = LogReader::open(path).map_err(|e| e.to_string())?;
    let mut lines = vec![log.text().to_string()];
    while let Some(Ok(_)) = log.next() {
        lines.push(log.text().to_string());
    }
    Ok(HandLines {
        header: log.header().clone(),
        lines,
    })
}

fn hand_count(log: &HandLines) -> usize {
    log.lines.len() - 1
}

/// The hands of a table that were finished at least `delay` ago: all of a
/// log last written that long ago, else what the delayed sample of the
/// referee's tables says (nothing when the table is not in it).
fn finished_long_enough(
    path: &Path,
    log: &HandLines,
    delayed: &[TableSnapshot],
    delay: Duration,
) -> usize {
    let old = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age >= delay);
    if old {
        return hand_count(log);
    }
    delayed
        .iter()
        .find(|t| t.table_id == log.header.table)
        .map_or(0, |t| (t.hands_done as usize).min(hand_count(log)))
}

/// The part of the log at `path` a spectator may see now: its header and
/// the hands every table of its deals (its duplicate group in `dir`) has
/// finished at least `delay` ago, as a log of its own (a prefix, so its hash
/// chain holds).
fn public_prefix(
    dir: &Path,
    path: &Path,
    delayed: &[TableSnapshot],
    delay: Duration,
) -> Result<String, String> {
    let log = log_lines(path)?;
    let group = log.header.duplicate.map(|d| d.group);
    let mut shown = finished_long_enough(path, &log, delayed, delay);
    if let Some(group) = group {
        let matches = dir.join("matches");
        let entries =
            std::fs::read_dir(&matches).map_err(|e| format!("{}: {e}", matches.display()))?;
        for e in entries.flatten() {
            let other = e.path();
            if other == path {
                continue;
            }
            let Ok(other_log) = log_lines(&other) else {
                continue;
            };
            if other_log.header.duplicate.map(|d| d.group) == Some(group) {
                shown = shown.min(finished_long_enough(&other, &other_log, delayed, delay));
            }
        }
        // A table of the group that has no log yet has finished nothing.
        let rotations = lines_in_group(dir, group);
        if rotations < expected_tables(dir, &log.header) {
            shown = 0;
        }
    }
    let mut out = String::new();
    for l in log.lines.iter().take(1 + shown) {
        out.push_str(l);
        out.push('\n');
    }
    Ok(out)
}

/// How many logs of a round's folder belong to duplicate `group`.
fn lines_in_group(dir: &Path, group: u64) -> usize {
    std::fs::read_dir(dir.join("matches"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    header_of(&e.path())
                        .is_some_and(|h| h.duplicate.map(|d| d.group) == Some(group))
                })
                .count()
        })
        .unwrap_or(0)
}

/// The tables that play one set of deals: in a league's round (a movement)
/// every table of the round, as its `tables.json` lists them; else one per
/// rotation of the seats.
fn expected_tables(dir: &Path, header: &Header) -> usize {
    std::fs::read_to_string(dir.join(crate::round::TABLES_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<Vec<Vec<usize>>>(&t).ok())
        .map_or_else(|| header.seats.len(), |t| t.len())
}

/// A recorded log path: relative ones lie in the league folder.
fn resolve(league: &Path, log_path: &str) -> PathBuf {
    let p = Path::new(log_path);
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        league.join(p)
    };
    with_gz(p)
}

/// `p`, or its compressed form if only that is there (a closed round's
/// logs are compressed after they were recorded).
fn with_gz(p: PathBuf) -> PathBuf {
    let mut gz = p.as_os_str().to_owned();
    gz.push(whistle_replay::GZ);
    let gz = PathBuf::from(gz);
    if !p.exists() && gz.exists() { gz } else { p }
}

async fn live(State(site): State<Site>) -> Response {
    let delayed = site.delayed();
    site_page(
        &site,
        "Live tables",
        true,
        html! {
            p { "Shown " (site.delay.as_secs()) " s late, so that no one watching can help a bot." }
            @match delayed {
                None => p #no-tables { "Nothing to show yet." },
                Some((age, tables)) => {
                    p { "As of " (age.as_secs()) " s ago." }
                    div.scroll { table #live {
                        thead { tr { th { "table (its hands so far)" } th { "state" } th { "hands played" } th { "connected" } th { "faults" } } }
                        tbody { @for t in tables.iter().filter(|t| t.result.is_none()) { tr {
                            td { a href=(format!("/live/{}", t.table_id)) { (t.table_id) } }
                            td { (format!("{:?}", t.state).to_lowercase()) }
                            td { (t.hands_done) }
                            td { (t.connected.iter().filter(|c| **c).count()) " of " (t.connected.len()) }
                            td { (t.faults.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(" ")) }
                        } } }
                    } }
                }
            }
        },
    )
    .into_response()
}

/// Serves the site on `addr` in a background task (abort it to stop);
/// returns the bound address and the task. With `tls` (the league's
/// certificate, as its gRPC side serves) the site is HTTPS only.
///
/// # Errors
/// If the address cannot be bound, or rustls refuses the certificate.
pub async fn spawn(
    addr: SocketAddr,
    league: &Path,
    name: &str,
    referee: Referee,
    delay: Duration,
    tls: Option<&whistle_referee::TlsIdentity>,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let acceptor = tls.map(tls_acceptor).transpose()?;
    let site = Site {
        league: league.to_path_buf(),
        name: name.to_string(),
        referee,
        delay,
        samples: Arc::default(),
        owners: owner::Owners::new(league, acceptor.is_some()),
    };
    let sampler = site.clone();
    let sample = async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            let now = Instant::now();
            let tables = sampler.referee.tables();
            let mut s = sampler.samples.lock().expect("samples lock");
            s.push_back((now, tables));
            let keep = sampler.delay + Duration::from_secs(5);
            while s
                .front()
                .is_some_and(|(at, _)| now.duration_since(*at) > keep)
            {
                s.pop_front();
            }
        }
    };
    let app = Router::new()
        .route("/", get(standings))
        .route("/bots/{name}", get(bot))
        .route("/matches/{id}", get(match_viewer))
        .route("/matches/{id}/log", get(match_log))
        .route("/live", get(live))
        .route("/rounds", get(rounds))
        .route("/live/{table}", get(live_table))
        .route(
            "/upload",
            get(owner::upload_form)
                .post(owner::upload)
                .layer(DefaultBodyLimit::max(
                    usize::try_from(site.owners.body_limit()).unwrap_or(usize::MAX),
                )),
        )
        .route("/owner", get(owner::owner_form).post(owner::owner))
        .with_state(site);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let task = tokio::spawn(async move {
        tokio::select! {
            () = serve(listener, app, acceptor) => {}
            () = sample => {}
        }
    });
    Ok((bound, task))
}

/// Site connections open at once; more are closed as they come, so that
/// spectators never take the descriptors the bots' port needs.
pub const MAX_CONNECTIONS: usize = 256;
/// Site connections open at once from one client address: one client that
/// opens many and sends nothing (slowloris) holds no more than this many of
/// the [`MAX_CONNECTIONS`], and every other client is served.
pub const MAX_PER_CLIENT: usize = 16;
/// How long a client has to send a request's headers (from the moment it
/// connects): a half-sent request (slowloris) holds its slot no longer.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one connection (one request: no keep-alive) may last in all.
pub const CONNECTION_TIMEOUT: Duration = Duration::from_secs(120);

/// The site's TLS from the league's certificate chain and key (PEM).
fn tls_acceptor(id: &whistle_referee::TlsIdentity) -> std::io::Result<tokio_rustls::TlsAcceptor> {
    use tokio_rustls::rustls::{
        self,
        pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject},
    };
    let bad = |what: &str, e: String| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("the site's TLS {what}: {e}"),
        )
    };
    let certs = CertificateDer::pem_slice_iter(&id.cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad("certificate", e.to_string()))?;
    let key = PrivateKeyDer::from_pem_slice(&id.key_pem).map_err(|e| bad("key", e.to_string()))?;
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| bad("setup", e.to_string()))?
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .map_err(|e| bad("certificate", e.to_string()))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

/// One exchange on a connection (plain or TLS): one request, headers within
/// [`HEADER_READ_TIMEOUT`].
async fn exchange<I>(io: I, app: Router) -> Result<(), hyper::Error>
where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service = hyper_util::service::TowerToHyperService::new(app);
    hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .keep_alive(false)
        .serve_connection(hyper_util::rt::TokioIo::new(io), service)
        .await
}

/// The connections each client has open: a client is an IPv4 address, or
/// an IPv6 /64 (one host commonly holds a whole /64, and could otherwise
/// open [`MAX_PER_CLIENT`] from each of its addresses).
#[derive(Default)]
struct PerClient(std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>);

/// The client an address counts as: an IPv4 address (an IPv4-mapped IPv6
/// one as that address), or an IPv6 address's /64.
fn client_of(ip: std::net::IpAddr) -> std::net::IpAddr {
    match ip {
        std::net::IpAddr::V4(_) => ip,
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => std::net::IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                std::net::IpAddr::V6(std::net::Ipv6Addr::from(bits))
            }
        },
    }
}

/// One connection of a client, counted while it lives.
struct ClientSlot {
    clients: Arc<PerClient>,
    ip: std::net::IpAddr,
}

impl PerClient {
    /// A slot for `ip`, unless it has [`MAX_PER_CLIENT`] open already.
    fn take(self: &Arc<Self>, ip: std::net::IpAddr) -> Option<ClientSlot> {
        let mut open = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = open.entry(ip).or_insert(0);
        if *n >= MAX_PER_CLIENT {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            clients: self.clone(),
            ip,
        })
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self
            .clients
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener`: one request a connection, headers within
/// [`HEADER_READ_TIMEOUT`] (and with `tls`, the handshake too), at most
/// [`MAX_CONNECTIONS`] at once and [`MAX_PER_CLIENT`] from one address.
async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    tls: Option<tokio_rustls::TlsAcceptor>,
) {
    let permits = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let clients = Arc::new(PerClient::default());
    let mut turned_away = 0u64;
    let mut crowding = 0u64;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(a) => a,
            Err(e) => {
                tracing::warn!(error = %e, "site: accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(slot) = clients.take(client_of(peer.ip())) else {
            crowding += 1;
            if crowding.is_power_of_two() {
                tracing::warn!(%peer, crowding, max = MAX_PER_CLIENT, "site: too many connections from one client; closed");
            }
            continue;
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            turned_away += 1;
            if turned_away.is_power_of_two() {
                tracing::warn!(%peer, turned_away, max = MAX_CONNECTIONS, "site: too many connections; closed");
            }
            continue;
        };
        let app = app.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let _slot = slot;
            let conn = async move {
                match tls {
                    None => exchange(stream, app).await.map_err(|e| e.to_string()),
                    Some(acceptor) => {
                        match tokio::time::timeout(HEADER_READ_TIMEOUT, acceptor.accept(stream))
                            .await
                        {
                            Ok(Ok(s)) => exchange(s, app).await.map_err(|e| e.to_string()),
                            Ok(Err(e)) => Err(format!("TLS handshake: {e}")),
                            Err(_) => Err("TLS handshake too slow".into()),
                        }
                    }
                }
            };
            match tokio::time::timeout(CONNECTION_TIMEOUT, conn).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::debug!(%peer, error = %e, "site: connection ended"),
                Err(_) => tracing::debug!(%peer, "site: connection too long; closed"),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match log of duplicate `group` (a table of league `lg`'s round 1)
    /// with `hands` hand lines, last written `age` ago.
    fn log(dir: &Path, index: u64, group: u64, hands: usize, age: Duration) {
        use whistle_replay::{Duplicate, HandLog, Writer};
        use whistle_rules::{HandResult, Options, Seat, Variant};

        let path = whistle_tournament::layout::match_path(dir, index);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let header = Header::builder(
            "lg-r0001",
            index,
            Variant::Israeli,
            Options::default(),
            ["a", "b", "c", "d"].map(String::from).to_vec(),
        )
        .duplicate(Some(Duplicate {
            group,
            rotation: index as u32,
        }))
        .build();
        let mut w = Writer::create(&path, &header).unwrap();
        for h in 0..hands as u32 {
            let result = HandResult {
                deal: h,
                dealer: Seat::new(0),
                misdeal: false,
                bids: Default::default(),
                tricks: Default::default(),
                made: Default::default(),
                points: Default::default(),
                totals: Default::default(),
                seat_points: Default::default(),
                summary: Default::default(),
            };
            w.hand(HandLog {
                prev: String::new(),
                deal: h,
                dealer: Seat::new(0),
                deck: Vec::new(),
                actions: Vec::new(),
                faults: Vec::new(),
                result,
                context: None,
            })
            .unwrap();
        }
        drop(w);
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(std::time::SystemTime::now() - age).unwrap();
    }

    fn shown(dir: &Path, index: u64, delayed: &[TableSnapshot], delay: Duration) -> usize {
        let path = whistle_tournament::layout::match_path(dir, index);
        let text = public_prefix(dir, &path, delayed, delay).unwrap();
        text.lines().filter(|l| l.contains("\"deck\"")).count()
    }

    #[test]
    fn an_ipv6_client_is_its_64_and_an_ipv4_one_its_address() {
        let ip = |t: &str| t.parse::<std::net::IpAddr>().unwrap();
        assert_eq!(client_of(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(
            client_of(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")),
            client_of(ip("2001:db8:1:2::7"))
        );
        assert_ne!(
            client_of(ip("2001:db8:1:3::1")),
            client_of(ip("2001:db8:1:2::1"))
        );
        assert_eq!(client_of(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_of(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        // The cap counts a /64 as one client.
        let clients = Arc::new(PerClient::default());
        let slots: Vec<ClientSlot> = (0..MAX_PER_CLIENT)
            .map(|i| {
                clients
                    .take(client_of(ip(&format!("2001:db8::{:x}", i + 1))))
                    .unwrap()
            })
            .collect();
        assert!(clients.take(client_of(ip("2001:db8::ffff"))).is_none());
        assert!(clients.take(client_of(ip("2001:db8:0:1::1"))).is_some());
        drop(slots);
        assert!(clients.take(client_of(ip("2001:db8::ffff"))).is_some());
    }

    #[test]
    fn a_hand_shows_only_once_every_table_of_its_deal_finished_it_long_enough_ago() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let delay = Duration::from_secs(60);
        // Group 0: four rotations; three finished long ago with 4 hands,
        // one still playing (its log written just now, 2 hands).
        for i in 0..3 {
            log(d, i, 0, 4, Duration::from_secs(600));
        }
        log(d, 3, 0, 2, Duration::ZERO);
        // Nothing sampled a delay ago: the playing table counts as none.
        assert_eq!(
            shown(d, 0, &[], delay),
            0,
            "a table of the deal still plays it"
        );
        assert_eq!(shown(d, 3, &[], delay), 0, "its own hands are too fresh");
        // A delay ago the playing table had finished one hand.
        let snap = TableSnapshot {
            table_id: "lg-r0001-m00003".into(),
            game: "israeli".into(),
            state: whistle_referee::TableState::Playing,
            connected: vec![true; 4],
            faults: vec![0; 4],
            hands_done: 1,
            result: None,
        };
        assert_eq!(shown(d, 0, std::slice::from_ref(&snap), delay), 1);
        assert_eq!(shown(d, 3, std::slice::from_ref(&snap), delay), 1);
        // Once everything is a delay old, all of it shows.
        log(d, 3, 0, 4, Duration::from_secs(600));
        assert_eq!(shown(d, 1, &[], delay), 4);
        // A group with a rotation not started yet shows nothing.
        for i in 4..7 {
            log(d, i, 1, 4, Duration::from_secs(600));
        }
        assert_eq!(
            shown(d, 4, &[], delay),
            0,
            "one table of the deal has not started"
        );
    }
}
