//! A league that serves: the referee, the scheduler and the store in one
//! process.
//!
//! Bots connect from their owners' machines with their league tokens
//! (`Subscribe`, over TLS when the league has a certificate) and wait. The
//! scheduler plays rounds one after the other: each round's tables form
//! around the bots waiting then (least played first, spreading opponents),
//! the league's reference bots fill empty seats if the league file allows
//! it, and the round's matches are recorded as they finish. A bot that
//! disconnects mid-match follows the fault policy; it plays again in the
//! round after it reconnects. Bots added while the league serves are
//! admitted at the next check. A bot retired in the store is refused from
//! the moment the retirement is committed: the referee asks the store
//! whether a bot is retired on every `Subscribe` and `Play`
//! ([`Referee::set_admits`]); and a watcher that reads the store's data
//! version every [`RETIRE_WATCH`] ends the retired bot's open `Subscribe`
//! stream with `UNAUTHENTICATED` and forfeits its seats, without waiting
//! for the scheduler's next look.
//!
//! The referee listens twice: on the public address (TLS or not) for the
//! bots' owners, and on a loopback port for the reference bots it starts.

use std::{
    collections::BTreeSet,
    net::SocketAddr,
    path::Path,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use whistle_referee::{Referee, RefereeConfig, TlsIdentity};
use whistle_tournament::{Reporter, RunOptions, runner::SharedReferee};

use crate::{
    error::LeagueError,
    round::{self, Prepared},
};

/// How often a serving league looks whether a bot was retired in its store.
pub const RETIRE_WATCH: Duration = Duration::from_millis(50);

/// How a league serves.
pub struct ServeOptions {
    /// Where bots' owners connect.
    pub listen: SocketAddr,
    /// The certificate chain and key to serve TLS with.
    pub tls: Option<TlsIdentity>,
    /// The token Admin calls must carry (league bots' tokens are not it).
    pub admin_token: String,
    /// Turns true to stop: no new round; tables finish their hand (at most
    /// `drain`), the round stays open and plays on at the next start.
    pub stop: tokio::sync::watch::Receiver<bool>,
    /// How long tables may take to finish their hand once stopped.
    pub drain: Duration,
    /// How often the scheduler looks for waiting bots.
    pub poll: Duration,
    /// Stop after this many rounds (a benchmark, a test); none: until
    /// stopped.
    pub rounds: Option<u64>,
    /// A new round starts at most this often (counted from one round's
    /// start to the next's); zero: each as soon as the last one ends. A
    /// round stopped midway resumes at once.
    pub every: Duration,
    /// Where the rounds' progress goes.
    pub reporter: Arc<dyn Reporter>,
    /// Serve the league's web site here (see [`crate::site`]).
    pub http: Option<SocketAddr>,
    /// How late the site shows the tables being played.
    pub watch_delay: Duration,
}

/// What a serving league reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServeEvent {
    /// The referee listens.
    Listening {
        /// The public address.
        addr: SocketAddr,
        /// Whether it serves TLS.
        tls: bool,
    },
    /// A round starts (or an open one plays on).
    RoundStarted {
        /// Its number.
        number: u64,
        /// Its matches.
        matches: usize,
        /// Whether it continues an open round.
        resumed: bool,
        /// The remote bots waiting when it was seated.
        waiting: Vec<String>,
        /// Why its seed can be searched, if it can (a league file's number).
        seed_warning: Option<String>,
        /// Who sits out this round and why, if anyone does.
        note: Option<String>,
    },
    /// A round ended (or stopped).
    RoundEnded {
        /// Its number.
        number: u64,
        /// Matches recorded now.
        recorded: u64,
        /// Whether every match of it is recorded.
        complete: bool,
        /// The round's seed, revealed once the round is closed (its
        /// commitment is in every log and was printed when it started).
        seed: Option<whistle_rules::dealing::WrittenSeed>,
    },
    /// The web site listens.
    Site {
        /// Its address.
        addr: SocketAddr,
        /// Whether it is served over TLS (the league's certificate).
        tls: bool,
    },
    /// A bot's token was revoked (retired while serving).
    Revoked {
        /// The bot.
        bot: String,
    },
    /// A bot missed its seats in a round (it never opened one within the
    /// start timeout): it is seated in no round until it plays again, that
    /// is, until its `Subscribe` stream ends and it subscribes anew.
    Benched {
        /// The bot.
        bot: String,
    },
    /// A benched bot subscribed anew: it is seated again.
    Unbenched {
        /// The bot.
        bot: String,
    },
}

/// What the referee says of a seat that was never opened by the start
/// timeout (a fault's detail in the match log).
pub const NOT_OPENED: &str = "not opened within the";

/// The bots of a round's logs (in `dir`) with a seat they never opened
/// (an `absent` fault whose detail says [`NOT_OPENED`]).
pub fn missed_seats(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Ok(entries) = std::fs::read_dir(dir.join("matches")) else {
        return out;
    };
    for e in entries.flatten() {
        let Ok(bytes) = whistle_replay::read_log_bytes(&e.path()) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut lines = text.lines();
        let Some(seats) = lines
            .next()
            .and_then(|h| serde_json::from_str::<serde_json::Value>(h).ok())
            .and_then(|h| serde_json::from_value::<Vec<String>>(h["seats"].clone()).ok())
        else {
            continue;
        };
        for line in lines.filter(|l| l.contains(NOT_OPENED)) {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            for f in v["faults"].as_array().into_iter().flatten() {
                if f["kind"] == "absent"
                    && f["detail"]
                        .as_str()
                        .is_some_and(|d| d.starts_with(NOT_OPENED))
                    && let Some(name) = f["seat"]
                        .as_u64()
                        .and_then(|i| seats.get(usize::try_from(i).ok()?))
                {
                    out.insert(name.clone());
                }
            }
        }
    }
    out
}

/// Serves the league at `league` until stopped (or `opts.rounds` rounds are
/// played); returns the number of rounds played.
///
/// # Errors
/// [`LeagueError`] if the league cannot be opened, another process writes
/// it ([`crate::lock`]), the address cannot be bound, the TLS identity
/// used, or a round's logs recorded.
pub async fn serve(
    league: &Path,
    opts: ServeOptions,
    mut report: impl FnMut(ServeEvent),
) -> Result<u64, LeagueError> {
    // Nothing of the league is touched (its inbox, its open round) before
    // this process is its one writer.
    round::holds_league(league)?;
    let _writer = crate::lock::acquire(league, "league serve")?;
    let (file, store) = round::open(league)?;
    round::compress_closed(league)?;
    let referee = Referee::with_config(RefereeConfig {
        admin_token: Some(opts.admin_token.clone()),
        ..RefereeConfig::default()
    });
    // A retired bot is refused from the moment its retirement is in the
    // store (the store's answer, not the scheduler's last look).
    let gate = Mutex::new(crate::store::Store::open(&league.join(crate::STORE_FILE))?);
    // The bots of the round being played: a version its owner replaces or
    // withdraws meanwhile plays its seats of that round to the end.
    let seated: Arc<Mutex<BTreeSet<String>>> = Arc::default();
    let in_round = seated.clone();
    referee.set_admits(Arc::new(move |bot: &str| {
        let store = gate.lock().unwrap_or_else(PoisonError::into_inner);
        match store.is_retired(bot) {
            Ok(true) => plays_out(&store, &in_round, bot),
            Ok(false) => true,
            Err(e) => {
                tracing::warn!(error = %e, bot, "league store unreadable; the bot is let in");
                true
            }
        }
    }));
    let watcher = tokio::spawn(watch_retired(
        crate::store::Store::open(&league.join(crate::STORE_FILE))?,
        referee.clone(),
        seated.clone(),
    ));
    let listen_err = |e: std::io::Error| LeagueError::Round(format!("cannot serve: {e}"));
    let (addr, public) = referee
        .spawn_tls(opts.listen, opts.tls.clone())
        .await
        .map_err(listen_err)?;
    let loopback: SocketAddr = "127.0.0.1:0".parse().expect("an address");
    let (local, inner) = referee.spawn(loopback).await.map_err(listen_err)?;
    report(ServeEvent::Listening {
        addr,
        tls: opts.tls.is_some(),
    });
    let site = match opts.http {
        Some(http) => {
            let (addr, task) = crate::site::spawn(
                http,
                league,
                &file.name,
                referee.clone(),
                opts.watch_delay,
                opts.tls.as_ref(),
            )
            .await
            .map_err(listen_err)?;
            report(ServeEvent::Site {
                addr,
                tls: opts.tls.is_some(),
            });
            Some(task)
        }
        None => None,
    };
    let shared = SharedReferee {
        referee: referee.clone(),
        address: format!("http://{local}"),
    };
    let mut admitted: BTreeSet<String> = BTreeSet::new();
    // Benched bots, and whether each one's stream has ended since.
    let mut benched: std::collections::BTreeMap<String, bool> = Default::default();
    let mut stop = opts.stop.clone();
    let mut rounds = 0u64;
    // When the last round started (the pause `opts.every` counts from it).
    let mut last_start: Option<tokio::time::Instant> = None;
    let result = loop {
        if *stop.borrow() {
            break Ok(());
        }
        let remote = admit(&store, &referee, &mut admitted, &mut report)?;
        let waiting: Vec<String> = referee
            .waiting_bots()
            .into_iter()
            .filter(|b| remote.contains(b))
            .collect();
        store.touch(&waiting)?;
        // A benched bot plays again once it subscribes anew.
        benched.retain(|bot, gone| {
            let here = waiting.contains(bot);
            if !here {
                *gone = true;
            }
            let back = here && *gone;
            if back {
                report(ServeEvent::Unbenched { bot: bot.clone() });
            }
            !back
        });
        let waiting: Vec<String> = waiting
            .into_iter()
            .filter(|b| !benched.contains_key(b))
            .collect();
        let open = store.rounds()?.0.is_some();
        let due = open || last_start.is_none_or(|t| t.elapsed() >= opts.every);
        if due && (open || !waiting.is_empty() || store.has_local_players()?) {
            match round::prepare_online(league, Some(&waiting)) {
                Ok(prepared) => {
                    if prepared.resumed {
                        wait_for_seated(&referee, &prepared, &mut stop).await;
                    }
                    last_start = Some(tokio::time::Instant::now());
                    report(ServeEvent::RoundStarted {
                        number: prepared.number,
                        matches: prepared.plan.len(),
                        resumed: prepared.resumed,
                        waiting: waiting.clone(),
                        seed_warning: prepared.tournament.seed_warning.clone(),
                        note: prepared.note.clone(),
                    });
                    *seated.lock().unwrap_or_else(PoisonError::into_inner) = prepared
                        .tournament
                        .bots
                        .iter()
                        .map(|b| b.name.clone())
                        .collect();
                    let ended = play(
                        league,
                        &prepared,
                        &opts,
                        &shared,
                        &stop,
                        &mut report,
                        &mut admitted,
                        &mut benched,
                    )
                    .await;
                    seated
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .clear();
                    let finished = match ended {
                        Ok(f) => f,
                        Err(e) => break Err(e),
                    };
                    report(ServeEvent::RoundEnded {
                        number: prepared.number,
                        recorded: finished.imported.recorded,
                        complete: finished.complete,
                        seed: finished
                            .complete
                            .then_some(prepared.tournament.written_seed),
                    });
                    if finished.complete {
                        rounds += 1;
                    }
                    for bot in missed_seats(&prepared.dir) {
                        if remote.contains(&bot) && !benched.contains_key(&bot) {
                            benched.insert(bot.clone(), false);
                            report(ServeEvent::Benched { bot });
                        }
                    }
                    if opts.rounds.is_some_and(|n| rounds >= n) {
                        break Ok(());
                    }
                }
                // Not enough bots for a table yet.
                Err(LeagueError::Round(_)) => {}
                Err(e) => break Err(e),
            }
        }
        tokio::select! {
            () = tokio::time::sleep(opts.poll) => {}
            _ = stop.wait_for(|s| *s) => {}
        }
    };
    watcher.abort();
    referee.drain(opts.drain).await;
    public.shutdown().await;
    inner.shutdown().await;
    if let Some(site) = site {
        site.abort();
    }
    result.map(|()| rounds)
}

/// Admits the bots added since the last look (their token hashes go to the
/// referee) and revokes the tokens of bots retired since; returns the
/// remote bots the league has now.
fn admit(
    store: &crate::store::Store,
    referee: &Referee,
    admitted: &mut BTreeSet<String>,
    report: &mut impl FnMut(ServeEvent),
) -> Result<Vec<String>, LeagueError> {
    let mut remote = Vec::new();
    for (bot, hash) in store.remote_tokens()? {
        match hash {
            Some(h) => {
                if admitted.insert(bot.clone()) {
                    referee.register_bot_hash(&bot, &h);
                }
                remote.push(bot);
            }
            None => {
                if admitted.remove(&bot) {
                    referee.retire_bot(&bot);
                    report(ServeEvent::Revoked { bot });
                }
            }
        }
    }
    Ok(remote)
}

/// Whether the retired bot `bot` plays on all the same: a version its owner
/// replaced or withdrew, seated in the round being played (`seated`). The
/// round plays its seats to the end and rates them; it sits in no later
/// round.
fn plays_out(store: &crate::store::Store, seated: &Mutex<BTreeSet<String>>, bot: &str) -> bool {
    seated
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(bot)
        && store.stopped_by_owner(bot).unwrap_or(false)
}

/// Ends at once what a bot retired while the league serves still holds:
/// its `Subscribe` stream (`UNAUTHENTICATED`) and its seats (forfeited, as
/// the scheduler's look would). Reads the store's data version every
/// [`RETIRE_WATCH`] and the bots only when it changed.
async fn watch_retired(
    store: crate::store::Store,
    referee: Referee,
    seated: Arc<Mutex<BTreeSet<String>>>,
) {
    let retired = |store: &crate::store::Store| -> BTreeSet<String> {
        store
            .bots()
            .map(|bots| {
                bots.into_iter()
                    .filter(|b| b.retired)
                    .map(|b| b.name)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut known = retired(&store);
    let mut version = store.data_version().ok();
    loop {
        tokio::time::sleep(RETIRE_WATCH).await;
        let now = store.data_version().ok();
        if now == version {
            continue;
        }
        version = now;
        for bot in retired(&store) {
            // A version its owner stopped plays out the round it sits in;
            // the round after seats it no more.
            if !known.contains(&bot) && plays_out(&store, &seated, &bot) {
                continue;
            }
            if known.insert(bot.clone()) {
                referee.retire_bot(&bot);
                referee.withdraw_bot(&bot, "retired from the league");
            }
        }
    }
}

/// A round left open (by a stop or a crash) plays on only once its remote
/// bots are back, or its reconnection grace has passed: resumed at once, it
/// would forfeit every seat of the bots still reconnecting.
async fn wait_for_seated(
    referee: &Referee,
    prepared: &Prepared,
    stop: &mut tokio::sync::watch::Receiver<bool>,
) {
    let remote: Vec<&str> = prepared
        .tournament
        .bots
        .iter()
        .filter(|b| matches!(b.kind, whistle_tournament::config::BotKind::Remote { .. }))
        .map(|b| b.name.as_str())
        .collect();
    let deadline = tokio::time::Instant::now() + prepared.tournament.time.reconnect_grace;
    while tokio::time::Instant::now() < deadline && !*stop.borrow() {
        let waiting = referee.waiting_bots();
        if remote.iter().all(|b| waiting.iter().any(|w| w == b)) {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
            _ = stop.changed() => {}
        }
    }
}

/// Plays a prepared round on the serving referee and records it. A bot of
/// the round retired meanwhile is taken out at once: its token revoked, its
/// seats at running tables forfeited, its seats at tables still to come
/// forfeited from their start (and the matches that name it are recorded
/// unrated, see [`crate::import`]). A version its owner replaced or
/// withdrew meanwhile is not: it plays its seats of the round to the end,
/// rated (the new version plays from the next round).
#[allow(clippy::too_many_arguments)]
async fn play(
    league: &Path,
    prepared: &Prepared,
    opts: &ServeOptions,
    shared: &SharedReferee,
    stop: &tokio::sync::watch::Receiver<bool>,
    report: &mut impl FnMut(ServeEvent),
    admitted: &mut BTreeSet<String>,
    benched: &mut std::collections::BTreeMap<String, bool>,
) -> Result<round::Finished, LeagueError> {
    let run = RunOptions {
        out: Some(prepared.dir.clone()),
        resume: true,
        reporter: opts.reporter.clone(),
        stop: Some(stop.clone()),
        drain: opts.drain,
        plan: Some(prepared.plan.clone()),
        referee: Some(shared.clone()),
        // No bot reads the league's folder: its store, logs and seeds.
        secrets: vec![league.to_path_buf()],
        ..RunOptions::default()
    };
    let playing: BTreeSet<String> = prepared
        .tournament
        .bots
        .iter()
        .map(|b| b.name.clone())
        .collect();
    let store = crate::store::Store::open(&league.join(crate::STORE_FILE))?;
    let mut taken_out = BTreeSet::new();
    let round = whistle_tournament::run(&prepared.tournament, &run);
    tokio::pin!(round);
    let ran = loop {
        tokio::select! {
            ran = &mut round => break ran,
            () = tokio::time::sleep(opts.poll) => {
                // A store that cannot be read now is read at the next look:
                // the round plays on.
                let bots = store.bots().unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "league store unreadable; retirements wait");
                    Vec::new()
                });
                for b in bots {
                    // A version its owner replaced or withdrew plays its
                    // seats of this round to the end, rated.
                    if b.retired && store.stopped_by_owner(&b.name).unwrap_or(false) {
                        continue;
                    }
                    if b.retired && playing.contains(&b.name) && taken_out.insert(b.name.clone()) {
                        shared.referee.retire_bot(&b.name);
                        shared.referee.withdraw_bot(&b.name, "retired from the league");
                        admitted.remove(&b.name);
                        report(ServeEvent::Revoked { bot: b.name });
                    }
                }
                // A benched bot whose stream ended may subscribe anew
                // before the round is over.
                let waiting = shared.referee.waiting_bots();
                for (bot, gone) in benched.iter_mut() {
                    if !waiting.contains(bot) {
                        *gone = true;
                    }
                }
                // Bots added meanwhile can connect now (and wait for the
                // next round); other retired ones are revoked.
                if let Err(e) = admit(&store, &shared.referee, admitted, report) {
                    tracing::warn!(error = %e, "league store unreadable; new bots wait");
                }
            }
        }
    };
    ran.map_err(|e| LeagueError::Round(format!("round {}: {e}", prepared.number)))?;
    round::finish(league, prepared)
}
