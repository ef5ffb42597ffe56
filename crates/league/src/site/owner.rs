//! The site's pages for a bot's owner (docs/leagues.md, "For students"):
//! the upload form and the owner's page, both behind the bot's token.
//!
//! The token only ever travels in a POST's body (a form field): never in a
//! URL, a cookie or a log line. A token that admits no bot gets one answer,
//! [`BAD_TOKEN`], whether the bot exists, is retired or never was.
//!
//! An upload is answered at once: its token (the form's first field) is
//! checked before a byte of its archive is kept; its body (bounded by the
//! league's `archive_mib` before it is read, by its `Content-Length` and as
//! it streams) is written to `submissions/.inbox/`, then checked in the
//! background by [`crate::submit::submit`], behind the same lock and queue
//! as `whistle league submit`. The owner's page shows each upload's state
//! ("checking", then its outcome), the versions and their results, the
//! bot's recent stderr (bounded) and its faults. Nobody else's page shows a
//! bot's code or stderr.

use std::{
    collections::VecDeque,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use axum::{
    Form,
    extract::{FromRequest, Multipart, Request, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use maud::{Markup, html};
use serde::Deserialize;

use super::{Site, site_page};
use crate::{
    STORE_FILE,
    store::{Store, now},
    submit::{self, BAD_TOKEN, Rules, SUBMISSIONS},
};

/// The folder of `submissions/` where uploads wait for their check.
pub const INBOX: &str = ".inbox";
/// What a form's fields other than the archive may take, bytes.
const FIELD_BYTES: usize = 1024;
/// Room for the form's other fields and the multipart framing, bytes.
const FORM_SLACK: u64 = 64 << 10;
/// Uploads from the site being checked or waiting, all bots together.
pub const MAX_WAITING: usize = 64;
/// Uploads of one bot being checked or waiting at once: one, as the upload
/// queue holds (a second is refused at once, in place of the 202).
pub const MAX_WAITING_PER_BOT: usize = 1;
/// The file of `submissions/` that keeps the site's uploads and their
/// outcomes across restarts (the owner's page lists them).
pub const UPLOADS_FILE: &str = "site-uploads.json";
/// What an upload still being checked when the site stopped came to: its
/// check never ended, nothing of it was recorded.
pub const DROPPED: &str = "dropped: the league stopped before this upload's check ended; \
                           nothing of it was recorded: upload it again";
/// Uploads remembered per bot for its page (the versions table keeps
/// every outcome for good).
const REMEMBERED: usize = 20;
/// The stderr the owner's page shows: this many rounds, this many bytes of
/// each log.
const STDERR_ROUNDS: usize = 3;
const STDERR_BYTES: u64 = 8 << 10;

/// An upload made from the site.
#[derive(Debug, Clone, serde::Serialize, Deserialize)]
struct Upload {
    /// Its number among the site's uploads.
    id: u64,
    /// Its bot.
    owner: String,
    /// When it was received.
    received: String,
    /// Its size.
    bytes: u64,
    /// `None` while it waits or is checked; then what it came to.
    outcome: Option<String>,
}

/// The site's uploads, newest last.
#[derive(Default)]
pub struct Uploads(VecDeque<Upload>);

impl Uploads {
    /// The uploads an earlier run of the site kept in `league`'s
    /// [`UPLOADS_FILE`]; one it left unchecked is [`DROPPED`].
    fn load(league: &Path) -> Uploads {
        let path = league.join(SUBMISSIONS).join(UPLOADS_FILE);
        let mut list: VecDeque<Upload> = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        for u in &mut list {
            if u.outcome.is_none() {
                u.outcome = Some(DROPPED.into());
            }
        }
        Uploads(list)
    }

    /// Keeps the uploads in `league`'s [`UPLOADS_FILE`] (written beside
    /// and renamed into place: a kill leaves the old list or the new).
    fn save(&self, league: &Path) {
        let dir = league.join(SUBMISSIONS);
        let path = dir.join(UPLOADS_FILE);
        let write = || -> std::io::Result<()> {
            use std::{io::Write, os::unix::fs::OpenOptionsExt};
            let tmp = dir.join(format!("{UPLOADS_FILE}.new"));
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&tmp)?;
            f.write_all(
                serde_json::to_string(&self.0)
                    .map_err(std::io::Error::other)?
                    .as_bytes(),
            )?;
            f.sync_all()?;
            std::fs::rename(&tmp, &path)
        };
        if let Err(e) = write() {
            tracing::warn!(error = %e, path = %path.display(), "site: cannot keep the uploads' outcomes");
        }
    }

    fn waiting(&self) -> usize {
        self.0.iter().filter(|u| u.outcome.is_none()).count()
    }

    fn waiting_of(&self, owner: &str) -> usize {
        self.0
            .iter()
            .filter(|u| u.owner == owner && u.outcome.is_none())
            .count()
    }

    /// Adds an upload.
    fn add(&mut self, upload: Upload) {
        let owner = upload.owner.clone();
        self.0.push_back(upload);
        // Forget the oldest finished uploads of this bot past the bound.
        while self.0.iter().filter(|u| u.owner == owner).count() > REMEMBERED {
            let Some(i) = self
                .0
                .iter()
                .position(|u| u.owner == owner && u.outcome.is_some())
            else {
                break;
            };
            self.0.remove(i);
        }
    }
}

/// What the owner pages need beside the site's own state.
#[derive(Clone)]
pub struct Owners {
    /// The whistle binary: the build's sandbox launcher and `check-bot`.
    pub whistle: PathBuf,
    /// The largest archive the league takes, bytes.
    pub archive_bytes: u64,
    /// The uploads made from the site.
    pub uploads: Arc<Mutex<Uploads>>,
    /// Whether the site is served over TLS.
    pub tls: bool,
    /// A counter naming the inbox's files.
    pub next: Arc<std::sync::atomic::AtomicU64>,
}

impl Owners {
    /// The owner pages' state for the league in `league`. Uploads a killed
    /// site left in the inbox were never queued: they are removed (their
    /// owners upload again).
    pub fn new(league: &Path, tls: bool) -> Owners {
        let inbox = league.join(SUBMISSIONS).join(INBOX);
        if inbox.exists()
            && let Err(e) = std::fs::remove_dir_all(&inbox)
        {
            tracing::warn!(error = %e, "site: cannot empty the upload inbox");
        }
        let archive_bytes = crate::round::open_read_only(league)
            .ok()
            .and_then(|(f, _)| Rules::of(&f).ok())
            .unwrap_or_default()
            .archive_mib
            << 20;
        Owners {
            whistle: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("whistle")),
            archive_bytes,
            uploads: Arc::new(Mutex::new(Uploads::load(league))),
            tls,
            // Past the numbers kept: a new upload is never taken for an old.
            next: Arc::new(std::sync::atomic::AtomicU64::new(
                Uploads::load(league)
                    .0
                    .iter()
                    .map(|u| u.id + 1)
                    .max()
                    .unwrap_or(0),
            )),
        }
    }

    /// The most bytes an upload's request body may hold.
    pub fn body_limit(&self) -> u64 {
        self.archive_bytes + FORM_SLACK
    }
}

/// The warning every token form carries when the site is plain HTTP.
fn clear_text_warning(site: &Site) -> Markup {
    html! {
        @if !site.owners.tls {
            p.warning #plain-http {
                strong { "This site is served over plain HTTP: " }
                "the token you type travels in clear. Type it here only if the organiser \
                 put the site behind HTTPS (an address starting with https://), or serves it \
                 with the league's certificate (" code { "league serve --tls-cert --tls-key" } ")."
            }
        }
    }
}

/// A response no cache keeps (it may show a bot's stderr).
fn private(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    r
}

fn refusal(site: &Site, status: StatusCode, title: &str, why: &str) -> Response {
    let page = site_page(
        site,
        title,
        false,
        html! {
            p #refused { (why) }
            p { a href="/upload" { "Upload" } " · " a href="/owner" { "Your bot's page" } }
        },
    );
    private((status, page).into_response())
}

fn bad_token(site: &Site) -> Response {
    refusal(site, StatusCode::FORBIDDEN, "Refused", BAD_TOKEN)
}

/// The upload form.
pub async fn upload_form(State(site): State<Site>) -> Response {
    let mib = site.owners.archive_bytes >> 20;
    private(
        site_page(
            &site,
            "Upload a version of your bot",
            false,
            html! {
                (clear_text_warning(&site))
                p { "A folder of your bot as a " code { ".tar.gz" } " or a " code { ".zip" }
                    " (at most " (mib) " MiB) with its manifest, " code { "whistle.toml" }
                    ", at its root (docs/leagues.md, \"For students\"). The league builds it \
                     in a sandbox and runs " code { "whistle check-bot" } " on it; accepted, \
                     it plays from the next round." }
                form #upload method="post" action="/upload" enctype="multipart/form-data" {
                    p { label { "Your bot's token " input type="password" name="token" autocomplete="off" required; } }
                    p { label { "Archive " input type="file" name="archive" accept=".tar.gz,.tgz,.zip,.tar" required; } }
                    p { button type="submit" { "Upload" } }
                }
                p { "The check takes a few minutes; see its outcome on " a href="/owner" { "your bot's page" } "." }
            },
        )
        .into_response(),
    )
}

/// An upload: bounded, its token checked, written to the inbox and queued;
/// answered at once.
pub async fn upload(State(site): State<Site>, req: Request) -> Response {
    let limit = site.owners.body_limit();
    let too_large = |site: &Site| {
        refusal(
            site,
            StatusCode::PAYLOAD_TOO_LARGE,
            "Refused",
            &format!(
                "refused: the archive is larger than the league takes ({} MiB)",
                site.owners.archive_bytes >> 20
            ),
        )
    };
    // Said before a byte of the body is read.
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit) {
        return too_large(&site);
    }
    let mut form = match Multipart::from_request(req, &site).await {
        Ok(m) => m,
        Err(e) => {
            return refusal(
                &site,
                StatusCode::BAD_REQUEST,
                "Refused",
                &format!("refused: {e}"),
            );
        }
    };
    let inbox = site.league.join(SUBMISSIONS).join(INBOX);
    if let Err(e) = make_private_dir(&inbox) {
        return super::error(&format!("{}: {e}", inbox.display()));
    }
    let n = site
        .owners
        .next
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = inbox.join(format!("{}-{n}", std::process::id()));
    let read = read_form(&mut form, &site.league, &path, site.owners.archive_bytes).await;
    let (token, owner, bytes) = match read {
        Ok(r) => r,
        Err(FormError::TooLarge) => {
            let _ = std::fs::remove_file(&path);
            return too_large(&site);
        }
        Err(FormError::BadToken) => {
            let _ = std::fs::remove_file(&path);
            return bad_token(&site);
        }
        Err(FormError::Internal(e)) => {
            let _ = std::fs::remove_file(&path);
            return super::error(&e);
        }
        Err(FormError::Bad(why)) => {
            let _ = std::fs::remove_file(&path);
            return refusal(
                &site,
                StatusCode::BAD_REQUEST,
                "Refused",
                &format!("refused: {why}"),
            );
        }
    };
    let received = now();
    {
        let mut uploads = site.owners.uploads.lock().expect("uploads lock");
        let full = if uploads.waiting_of(&owner) >= MAX_WAITING_PER_BOT {
            Some(format!(
                "refused: an upload of `{owner}` is waiting to be checked already (a bot has one \
                 upload waiting at a time); see its outcome on your bot's page, then upload again"
            ))
        } else if let Some(why) = submit::refused_before_queue(&site.league, &owner) {
            // What the check would refuse at once (the hourly bound, an
            // upload of the bot waiting from the command line) is said
            // now, in the 202's place.
            Some(why)
        } else if uploads.waiting() >= MAX_WAITING {
            Some(
                "refused: the league is checking too many uploads; try again in a few minutes"
                    .into(),
            )
        } else {
            None
        };
        if let Some(why) = full {
            drop(uploads);
            let _ = std::fs::remove_file(&path);
            return refusal(&site, StatusCode::SERVICE_UNAVAILABLE, "Refused", &why);
        }
        uploads.add(Upload {
            id: n,
            owner: owner.clone(),
            received: received.clone(),
            bytes,
            outcome: None,
        });
        uploads.save(&site.league);
    }
    tracing::info!(bot = %owner, bytes, "site: upload received");
    let (league, whistle, uploads) = (
        site.league.clone(),
        site.owners.whistle.clone(),
        site.owners.uploads.clone(),
    );
    let who = owner.clone();
    tokio::task::spawn_blocking(move || {
        let outcome = match submit::submit(&league, &token, &path, &whistle) {
            Ok(o) => o.message,
            Err(crate::LeagueError::Refused(m)) => m,
            Err(e) => format!("refused: {e}"),
        };
        let _ = std::fs::remove_file(&path);
        tracing::info!(bot = %who, outcome = %outcome.lines().next().unwrap_or_default(), "site: upload checked");
        let mut u = uploads.lock().expect("uploads lock");
        if let Some(up) = u.0.iter_mut().find(|x| x.id == n) {
            up.outcome = Some(outcome);
        }
        u.save(&league);
    });
    let page = site_page(
        &site,
        "Upload received",
        false,
        html! {
            p #received { "received: checking" }
            p { "Your upload of " (owner) " (" (bytes) " bytes, " (received) ") waits for the \
                 uploads ahead of it, then is built and run through check-bot: a few minutes. \
                 Its outcome (\"accepted: version N\" or \"refused: ...\" with your bot's last \
                 stderr lines) shows on " a href="/owner" { "your bot's page" } " (your token \
                 again), and with " code { "whistle league versions --token TOKEN" } "." }
        },
    );
    private((StatusCode::ACCEPTED, page).into_response())
}

/// Why a form could not be read.
enum FormError {
    TooLarge,
    BadToken,
    Bad(String),
    Internal(String),
}

/// The bot a token admits in the league at `league`.
async fn bot_of(league: &Path, token: &str) -> Result<String, FormError> {
    let (league, token) = (league.to_path_buf(), token.to_string());
    match tokio::task::spawn_blocking(move || {
        Store::open_read_only(&league.join(STORE_FILE)).and_then(|s| s.bot_by_token(&token))
    })
    .await
    {
        Ok(Ok(Some(o))) => Ok(o),
        Ok(Ok(None)) => Err(FormError::BadToken),
        Ok(Err(e)) => Err(FormError::Internal(e.to_string())),
        Err(e) => Err(FormError::Internal(e.to_string())),
    }
}

/// Reads the upload form: its token, checked at once (the form puts it
/// first: nothing of the archive is kept before the token admits a bot of
/// the league at `league`), then its archive, streamed to `path` and
/// bounded by `max` bytes. Returns the token, its bot and the archive's
/// size.
async fn read_form(
    form: &mut Multipart,
    league: &Path,
    path: &Path,
    max: u64,
) -> Result<(String, String, u64), FormError> {
    use tokio::io::AsyncWriteExt;
    let bad = |e: axum::extract::multipart::MultipartError| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            FormError::TooLarge
        } else {
            FormError::Bad(e.body_text())
        }
    };
    let mut token: Option<(String, String)> = None;
    let mut bytes = None;
    while let Some(mut field) = form.next_field().await.map_err(bad)? {
        match field.name() {
            Some("token") => {
                let mut text = Vec::new();
                while let Some(c) = field.chunk().await.map_err(bad)? {
                    text.extend_from_slice(&c);
                    if text.len() > FIELD_BYTES {
                        return Err(FormError::Bad("the token field is too long".into()));
                    }
                }
                let t = String::from_utf8_lossy(&text).trim().to_string();
                if t.is_empty() {
                    return Err(FormError::BadToken);
                }
                let bot = bot_of(league, &t).await?;
                token = Some((t, bot));
            }
            Some("archive") => {
                if token.is_none() {
                    return Err(FormError::Bad(
                        "the form's token must come before its archive (as the site's form \
                         sends them)"
                            .into(),
                    ));
                }
                let mut f = tokio::fs::File::create(path)
                    .await
                    .map_err(|e| FormError::Bad(format!("cannot keep the upload: {e}")))?;
                let mut n = 0u64;
                while let Some(c) = field.chunk().await.map_err(bad)? {
                    n += c.len() as u64;
                    if n > max {
                        return Err(FormError::TooLarge);
                    }
                    f.write_all(&c)
                        .await
                        .map_err(|e| FormError::Bad(format!("cannot keep the upload: {e}")))?;
                }
                f.flush()
                    .await
                    .map_err(|e| FormError::Bad(format!("cannot keep the upload: {e}")))?;
                bytes = Some(n);
            }
            _ => {
                // Unknown fields are drained, bounded like the body.
                while field.chunk().await.map_err(bad)?.is_some() {}
            }
        }
    }
    let (token, bot) = token.ok_or_else(|| FormError::Bad("the form has no token".into()))?;
    match bytes {
        Some(n) if n > 0 => Ok((token, bot, n)),
        _ => Err(FormError::Bad(
            "the form has no archive (choose a file)".into(),
        )),
    }
}

fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    if let Some(parent) = dir.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)?;
        std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o700))?;
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

/// The owner's page form: the token in, by POST.
pub async fn owner_form(State(site): State<Site>) -> Response {
    private(
        site_page(
            &site,
            "Your bot",
            false,
            html! {
                (clear_text_warning(&site))
                p { "Your bot's uploads and their outcome, its versions and their results, \
                     its stderr in recent rounds and its faults: shown to its token only." }
                (token_form())
            },
        )
        .into_response(),
    )
}

fn token_form() -> Markup {
    html! {
        form #owner method="post" action="/owner" {
            p { label { "Your bot's token " input type="password" name="token" autocomplete="off" required; } }
            p { button type="submit" { "Show" } }
        }
    }
}

/// The owner page's form.
#[derive(Deserialize)]
pub struct TokenForm {
    token: String,
}

/// The owner's page.
pub async fn owner(State(site): State<Site>, Form(form): Form<TokenForm>) -> Response {
    let token = form.token.trim().to_string();
    if token.is_empty() || token.len() > FIELD_BYTES {
        return bad_token(&site);
    }
    let league = site.league.clone();
    let read = tokio::task::spawn_blocking(move || {
        let (name, versions) = submit::versions_by_token(&league, &token)?;
        let stderr = submit::stderr(&league, &token, STDERR_ROUNDS, STDERR_BYTES)?;
        Ok::<_, crate::LeagueError>((name, versions, stderr))
    })
    .await;
    let (name, versions, stderr) = match read {
        Ok(Ok(r)) => r,
        Ok(Err(crate::LeagueError::Refused(_))) => return bad_token(&site),
        Ok(Err(e)) => return super::error(&e.to_string()),
        Err(e) => return super::error(&e.to_string()),
    };
    let uploads: Vec<Upload> = site
        .owners
        .uploads
        .lock()
        .expect("uploads lock")
        .0
        .iter()
        .filter(|u| u.owner == name)
        .rev()
        .cloned()
        .collect();
    let faults: u64 = versions.iter().filter_map(|v| v.faults).sum();
    private(
        site_page(
            &site,
            &format!("{name}: your bot"),
            false,
            html! {
                h2 { "Uploads from this site" }
                @if uploads.is_empty() {
                    p { "None yet (every checked outcome is also under versions below)." }
                } @else {
                    div.scroll { table #uploads {
                        thead { tr { th { "received" } th { "bytes" } th { "state" } } }
                        tbody { @for u in &uploads { tr {
                            td { (u.received) } td { (u.bytes) }
                            td { @match &u.outcome {
                                None => span.checking { "checking" },
                                Some(o) => pre.outcome { (o) },
                            } }
                        } } }
                    } }
                    p { "A check takes a few minutes: show this page again (your token again) to see it end." }
                }
                h2 { "Versions" }
                p { "Faults in all its matches: " span #faults { (faults) } "." }
                div.scroll { table #versions {
                    thead { tr {
                        th { "version" } th { "status" } th { "uploaded" } th { "sha256" }
                        th { "rating" } th { "matches" } th { "faults" } th { "check" }
                    } }
                    tbody { @for v in &versions { tr {
                        td { (v.number.map_or("-".to_string(), |n| format!("v{n}"))) }
                        td { (v.status) } td { (v.submitted_at) }
                        td { code { (v.hash.get(..12).unwrap_or(&v.hash)) } }
                        td { (v.rating.map_or("-".into(), |r| format!("{r:.2}"))) }
                        td { (v.matches.map_or("-".into(), |m| m.to_string())) }
                        td { (v.faults.map_or("-".into(), |f| f.to_string())) }
                        td { details { summary { "output" } pre { (v.output) } } }
                    } } }
                } }
                h2 { "Its stderr in recent rounds" }
                p { "A round's stderr shows once the round is closed: the round being played \
                     is hidden." }
                pre #stderr { (stderr) }
                p { a href="/upload" { "Upload a new version" } }
            },
        )
        .into_response(),
    )
}
