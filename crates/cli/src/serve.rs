//! `whistle serve`: the referee as a gRPC server, and `whistle table`: the
//! admin client that creates tables on it.

use std::{net::SocketAddr, time::Duration};

use anyhow::Context;
use clap::Args;
use whistle_protocol::pb;
use whistle_referee::{Fallback, Referee, RefereeConfig, new_token};
use whistle_rules::{
    Options, Variant,
    dealing::{Domain, Seed},
};

use crate::usage;

/// Arguments of `whistle serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Token for Admin calls (`authorization: Bearer <token>`). Default:
    /// $WHISTLE_ADMIN_TOKEN, else a fresh random token printed at start.
    #[arg(long, env = "WHISTLE_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Log filter for stderr (tracing syntax), e.g. `info` or `whistle_referee=debug`.
    #[arg(long, default_value = "info")]
    log: String,
    /// On SIGTERM or Ctrl-C, how long tables may take to finish the hand in
    /// progress before every stream is ended (UNAVAILABLE).
    #[arg(long, default_value_t = 10_000)]
    drain_ms: u64,
    /// Finished tables kept for GetTable, ListTables and WatchTable (the
    /// oldest is forgotten first).
    #[arg(long, default_value_t = whistle_referee::KEEP_FINISHED)]
    keep_finished: usize,
}

/// Runs the referee until SIGTERM or Ctrl-C, then drains: no new tables,
/// hands in progress finish (up to `--drain-ms`), every stream ends with
/// UNAVAILABLE, and the process exits 0. A second signal exits at once.
pub fn run(args: &ServeArgs) -> anyhow::Result<String> {
    init_logging(&args.log);
    let admin = args
        .admin_token
        .clone()
        .unwrap_or_else(|| new_token("admin"));
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async {
        let referee = Referee::with_config(RefereeConfig {
            admin_token: Some(admin.clone()),
            keep_finished: args.keep_finished,
            ..RefereeConfig::default()
        });
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let local = listener.local_addr()?;
        // One line people and scripts can read: where, and the admin token.
        println!("listening on {local} admin-token {admin}");
        let mut stop = crate::signals::stop_on_signals("whistle serve");
        let (down_tx, down_rx) = tokio::sync::oneshot::channel::<()>();
        let server = {
            let referee = referee.clone();
            tokio::spawn(async move {
                referee
                    .serve(listener, async {
                        let _ = down_rx.await;
                    })
                    .await
            })
        };
        let _ = stop.wait_for(|s| *s).await;
        let drain = Duration::from_millis(args.drain_ms);
        referee.drain(drain).await;
        // Every stream has ended: the server closes its connections.
        let _ = down_tx.send(());
        match tokio::time::timeout(Duration::from_secs(5), server).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => return Err(e.into()),
            Ok(Err(e)) => return Err(e.into()),
            Err(_) => tracing::warn!("connections still open 5 s after the drain; exiting"),
        }
        tracing::info!("referee stopped");
        anyhow::Ok(())
    })?;
    // Return without waiting for tasks still blocked on connections.
    rt.shutdown_timeout(Duration::from_millis(100));
    Ok(String::new())
}

/// Sets up tracing to stderr with `filter`.
pub fn init_logging(filter: &str) {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .try_init();
}

/// Arguments of `whistle table`: create a table on a running referee.
#[derive(Debug, Args)]
pub struct TableArgs {
    /// The referee's address.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    server: String,
    /// The referee's admin token (default: $WHISTLE_ADMIN_TOKEN).
    #[arg(long, env = "WHISTLE_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// The game.
    #[arg(long)]
    game: String,
    /// A game option `key=value`; repeat for several.
    #[arg(long = "opt", value_name = "KEY=VALUE")]
    opts: Vec<String>,
    /// The tournament seed; the table plays match `--match` of it, exactly as
    /// `whistle play --seed N` plays match 0.
    #[arg(long)]
    seed: u64,
    /// Which match of the tournament seed.
    #[arg(long = "match", default_value_t = 0)]
    match_index: u64,
    /// Shortcut for `--opt hands=N`.
    #[arg(long)]
    hands: Option<u32>,
    /// Bot names by seat, comma-separated (names for logs).
    #[arg(long, value_delimiter = ',', default_value = "bot")]
    bots: Vec<String>,
    /// Milliseconds per decision before the time bank is drawn on.
    #[arg(long, default_value_t = 1000)]
    per_action_ms: u64,
    /// Milliseconds of time bank for the match.
    #[arg(long, default_value_t = 30000)]
    time_bank_ms: u64,
    /// Milliseconds a disconnected seat has to reconnect.
    #[arg(long, default_value_t = 10000)]
    grace_ms: u64,
    /// Faults at which a seat forfeits.
    #[arg(long, default_value_t = 10)]
    max_faults: u32,
    /// Fallback for faults: passive, first or random.
    #[arg(long, default_value = "passive")]
    fallback: String,
    /// Milliseconds to wait for all seats before starting anyway.
    #[arg(long, default_value_t = 30000)]
    start_timeout_ms: u64,
}

/// Creates the table and prints its id and one `seat N TOKEN bot-seed HEX`
/// line per seat.
pub fn table(args: &TableArgs) -> anyhow::Result<String> {
    let game: Variant = args.game.parse().map_err(usage)?;
    let mut options = Options::parse(&args.opts).map_err(usage)?;
    if let Some(h) = args.hands {
        options.set("hands", &h.to_string());
    }
    let probe = game.new_game(&options).map_err(usage)?;
    if Fallback::from_name(&args.fallback).is_none() {
        return Err(usage("--fallback must be `passive`, `first` or `random`"));
    }
    let seats = whistle_rules::Game::seats(&probe);
    let names: Vec<String> = (0..seats)
        .map(|i| args.bots[i % args.bots.len()].clone())
        .collect();
    let match_seed = Seed::from_u64(args.seed).derive(Domain::Match, args.match_index);
    let rt = tokio::runtime::Runtime::new()?;
    let created = rt.block_on(async {
        let mut admin = pb::admin_client::AdminClient::new(connect(&args.server).await?);
        let mut req = tonic::Request::new(pb::CreateTableRequest {
            table_id: String::new(),
            game: game.name().to_string(),
            options: whistle_protocol::convert::options(&options),
            match_seed: match_seed.to_hex(),
            seats: names
                .iter()
                .map(|n| pb::SeatConfig {
                    token: String::new(),
                    bot_name: n.clone(),
                })
                .collect(),
            time_control: Some(pb::TimeControl {
                per_action_ms: args.per_action_ms,
                time_bank_ms: args.time_bank_ms,
                reconnect_grace_ms: args.grace_ms,
            }),
            fault_policy: Some(pb::FaultPolicy {
                max_faults: args.max_faults,
                fallback: args.fallback.clone(),
                flood_per_second: 0,
            }),
            start_timeout_ms: args.start_timeout_ms,
            deals: Vec::new(),
        });
        authorize(&mut req, args.admin_token.as_deref())?;
        let resp = tokio::time::timeout(Duration::from_secs(30), admin.create_table(req))
            .await
            .context("the referee did not answer")??;
        anyhow::Ok(resp.into_inner())
    })?;
    // The bot seed is what `whistle play` gives the built-in random bot in
    // that seat, so external bots started with it replay `whistle play`.
    let mut out = format!("table {}\n", created.table_id);
    for (i, t) in created.tokens.iter().enumerate() {
        let bot_seed = match_seed.derive(Domain::Bot, i as u64);
        out.push_str(&format!("seat {i} {t} bot-seed {bot_seed}\n"));
    }
    Ok(out)
}

/// Arguments of `whistle retire-bot`: retire a bot on a running referee.
#[derive(Debug, Args)]
pub struct RetireArgs {
    /// The bot's name (as registered with its bot token).
    name: String,
    /// The referee's address.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    server: String,
    /// The referee's admin token (default: $WHISTLE_ADMIN_TOKEN).
    #[arg(long, env = "WHISTLE_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
}

/// Retires the bot: its tokens are revoked and its Subscribe stream ends
/// at once with UNAUTHENTICATED.
pub fn retire(args: &RetireArgs) -> anyhow::Result<String> {
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async {
        let mut admin = pb::admin_client::AdminClient::new(connect(&args.server).await?);
        let mut req = tonic::Request::new(pb::RetireBotRequest {
            bot_name: args.name.clone(),
        });
        authorize(&mut req, args.admin_token.as_deref())?;
        tokio::time::timeout(Duration::from_secs(30), admin.retire_bot(req))
            .await
            .context("the referee did not answer")??;
        anyhow::Ok(format!("retired {}\n", args.name))
    })
}

/// A channel to the referee at `server` (`http://` is added when missing).
/// A channel to the referee at `server` (`https://` over TLS, checked
/// against `$WHISTLE_CA` when set; see `whistle_bot::client::channel`).
async fn connect(server: &str) -> anyhow::Result<tonic::transport::Channel> {
    whistle_bot::client::channel(server)
        .await
        .with_context(|| format!("cannot reach {server}"))
}

/// Adds `authorization: Bearer <token>` when there is a token.
fn authorize<T>(req: &mut tonic::Request<T>, token: Option<&str>) -> anyhow::Result<()> {
    if let Some(t) = token {
        req.metadata_mut()
            .insert("authorization", format!("Bearer {t}").parse()?);
    }
    Ok(())
}
