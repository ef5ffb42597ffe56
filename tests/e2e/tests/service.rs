//! `whistle serve` as a long-running service, with real bot processes: it
//! returns the memory of finished tables, stops cleanly on SIGTERM (and at
//! once on a second signal), logs every refused call without the token,
//! and ends a retired bot's stream at once (its process exits, refused).

use std::time::Duration;

use tokio::{process::Command, time::timeout};
use tonic::{Request, transport::Channel};
use whistle_e2e::{bins::workspace_bin, process::Proc};
use whistle_protocol::pb::{self, admin_client::AdminClient, referee_client::RefereeClient};

const LIMIT: Duration = Duration::from_secs(60);

/// A running `whistle serve` and what it printed.
struct Server {
    proc: Proc,
    addr: String,
    admin_token: String,
}

impl Server {
    async fn start(extra: &[&str]) -> Server {
        let mut cmd = Command::new(workspace_bin("whistle"));
        cmd.args(["serve", "--listen", "127.0.0.1:0", "--log", "info"])
            .args(extra)
            .env_remove("WHISTLE_ADMIN_TOKEN");
        let mut proc = Proc::spawn("whistle serve", &mut cmd);
        let line = proc.line(LIMIT, |l| l.starts_with("listening on ")).await;
        let words: Vec<&str> = line.split_whitespace().collect();
        Server {
            addr: words[2].to_string(),
            admin_token: words[4].to_string(),
            proc,
        }
    }

    async fn admin(&self) -> AdminClient<Channel> {
        AdminClient::new(self.channel().await)
    }

    async fn channel(&self) -> Channel {
        Channel::from_shared(format!("http://{}", self.addr))
            .expect("address")
            .connect()
            .await
            .expect("the referee is reachable")
    }

    fn authorized<T>(&self, msg: T) -> Request<T> {
        let mut req = Request::new(msg);
        req.metadata_mut().insert(
            "authorization",
            format!("Bearer {}", self.admin_token)
                .parse()
                .expect("metadata"),
        );
        req
    }

    async fn register(&self, name: &str) -> String {
        let mut admin = self.admin().await;
        admin
            .register_bot(self.authorized(pb::RegisterBotRequest {
                bot_name: name.into(),
                token: String::new(),
            }))
            .await
            .expect("registered")
            .into_inner()
            .token
    }

    /// An Israeli table of `hands` hands with every seat for `bot`.
    async fn table(&self, bot: &str, hands: u32, seed: u64) -> String {
        let mut admin = self.admin().await;
        let req = pb::CreateTableRequest {
            game: "israeli".into(),
            options: vec![pb::Option {
                key: "hands".into(),
                value: hands.to_string(),
            }],
            match_seed: format!("{seed:064x}"),
            seats: (0..4)
                .map(|_| pb::SeatConfig {
                    token: String::new(),
                    bot_name: bot.into(),
                })
                .collect(),
            ..Default::default()
        };
        admin
            .create_table(self.authorized(req))
            .await
            .expect("a table")
            .into_inner()
            .table_id
    }

    async fn tables(&self) -> Vec<pb::TableStatus> {
        let mut admin = self.admin().await;
        admin
            .list_tables(self.authorized(pb::ListTablesRequest {}))
            .await
            .expect("tables")
            .into_inner()
            .tables
    }

    async fn status(&self, id: &str) -> pb::TableStatus {
        self.status_if_kept(id).await.expect("the table")
    }

    /// A table's status; `None` once the referee has forgotten it.
    async fn status_if_kept(&self, id: &str) -> Option<pb::TableStatus> {
        let mut admin = self.admin().await;
        match admin
            .get_table(self.authorized(pb::GetTableRequest {
                table_id: id.into(),
            }))
            .await
        {
            Ok(r) => Some(r.into_inner()),
            Err(e) if e.code() == tonic::Code::NotFound => None,
            Err(e) => panic!("GetTable {id}: {e}"),
        }
    }
}

/// `whistle bot --bot random` with a bot token.
fn bot_process(server: &Server, token: &str, name: &str) -> Proc {
    let mut cmd = Command::new(workspace_bin("whistle"));
    cmd.args(["bot", "--bot", "random", "--log", "info"])
        .env("WHISTLE_ADDRESS", &server.addr)
        .env("WHISTLE_TOKEN", token)
        .env("WHISTLE_BOT_NAME", name);
    Proc::spawn(format!("whistle bot {name}"), &mut cmd)
}

/// Resident memory of a process, in kB, from /proc.
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS")
}

async fn until(what: &str, limit: Duration, mut f: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + limit;
    while !f().await {
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn over(t: &pb::TableStatus) -> bool {
    t.state == pb::table_status::State::Over as i32
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_tables_are_let_go_and_memory_stays_flat() {
    // 20 batches of 64 with WHISTLE_LONG_TESTS=1 (the measure);
    // fewer by default, with the same bound.
    let long = std::env::var_os("WHISTLE_LONG_TESTS").is_some();
    let (batches, per_batch) = if long { (20, 64) } else { (6, 32) };
    let server = Server::start(&["--keep-finished", "16"]).await;
    let token = server.register("rb").await;
    let mut bot = bot_process(&server, &token, "rb");
    let pid = server.proc.pid().expect("running");
    let mut first_rss = 0;
    let mut rss = Vec::new();
    for batch in 0..batches {
        let mut ids = Vec::new();
        for i in 0..per_batch {
            ids.push(server.table("rb", 1, batch * 1000 + i + 1).await);
        }
        for id in &ids {
            until(&format!("table {id} ends"), LIMIT, async || {
                server.status_if_kept(id).await.is_none_or(|st| over(&st))
            })
            .await;
        }
        let tables = server.tables().await;
        assert!(
            tables.len() <= 16 + per_batch as usize,
            "{} tables kept",
            tables.len()
        );
        let now = rss_kb(pid);
        rss.push(now);
        if batch == 0 {
            first_rss = now;
        }
    }
    // Only the newest finished tables are kept.
    until("the oldest are forgotten", LIMIT, async || {
        server.tables().await.len() <= 16
    })
    .await;
    let last = *rss.last().expect("batches");
    eprintln!("RSS by batch (kB): {rss:?}");
    assert!(
        last < first_rss + 20 * 1024,
        "RSS grew from {first_rss} kB to {last} kB over {batches} batches of {per_batch}: {rss:?}"
    );
    server.proc.signal("TERM");
    let mut server = server;
    server.proc.wait(LIMIT).await;
    assert_eq!(server.proc.code(), Some(0), "{}", server.proc.dump());
    bot.wait(LIMIT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_the_hand_finish_ends_every_stream_and_exits_zero() {
    let mut server = Server::start(&["--drain-ms", "5000"]).await;
    let token = server.register("rb").await;
    let mut bot = bot_process(&server, &token, "rb");
    let id = server.table("rb", 500, 7).await;
    until("a hand is played", LIMIT, async || {
        server.status(&id).await.hands_done >= 1
    })
    .await;
    server.proc.signal("TERM");
    let started = std::time::Instant::now();
    server.proc.wait(Duration::from_secs(20)).await;
    let d = server.proc.dump();
    assert_eq!(server.proc.code(), Some(0), "{d}");
    assert!(started.elapsed() < Duration::from_secs(12), "{d}");
    let err = server.proc.stderr();
    assert!(err.contains("SIGTERM received"), "{d}");
    assert!(err.contains("draining"), "{d}");
    // Stopped at a hand boundary, well before the 500 hands.
    assert!(err.contains("table stopped"), "{d}");
    assert!(err.contains("mid_hand=false"), "{d}");
    assert!(err.contains("referee stopped"), "{d}");
    // The bot-token process was told and exits by itself, without retrying.
    bot.wait(Duration::from_secs(20)).await;
    let said = bot.stderr();
    assert!(
        said.contains(whistle_protocol::SHUTTING_DOWN),
        "{}",
        bot.dump()
    );
    assert!(!said.contains("reconnecting"), "{}", bot.dump());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_signal_exits_at_once_while_a_hand_is_still_draining() {
    let mut server = Server::start(&["--drain-ms", "120000"]).await;
    // A bot that never answers under a long clock: the hand never ends.
    let out = {
        let mut cmd = Command::new(workspace_bin("whistle"));
        cmd.args([
            "table",
            "--server",
            &server.addr,
            "--admin-token",
            &server.admin_token,
            "--game",
            "israeli",
            "--seed",
            "3",
            "--hands",
            "5",
            "--per-action-ms",
            "120000",
            // Long enough for the silent bot to open its seat on a loaded
            // machine (the other three are absent and forfeit after it).
            "--start-timeout-ms",
            "3000",
            "--grace-ms",
            "120000",
        ]);
        let mut p = Proc::spawn("whistle table", &mut cmd);
        p.wait(LIMIT).await;
        assert_eq!(p.code(), Some(0), "{}", p.dump());
        p.stdout()
    };
    let tokens: Vec<String> = out
        .lines()
        .filter_map(|l| l.strip_prefix("seat "))
        .map(|l| l.split_whitespace().nth(1).expect("token").to_string())
        .collect();
    let mut silent = Command::new(env!("CARGO_BIN_EXE_badbot"));
    silent
        .args(["--mode", "silent"])
        .env("WHISTLE_ADDRESS", &server.addr)
        .env("WHISTLE_TOKEN", &tokens[1]);
    let _silent = Proc::spawn("badbot silent", &mut silent);
    let id = out
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("table "))
        .expect("id")
        .to_string();
    until("play begins", LIMIT, async || {
        server.status(&id).await.state == pb::table_status::State::Playing as i32
    })
    .await;
    server.proc.signal("TERM");
    // Wait until the drain has begun, then signal again.
    until("the drain begins", LIMIT, async || {
        server.proc.stderr().contains("draining")
    })
    .await;
    let started = std::time::Instant::now();
    server.proc.signal("TERM");
    server.proc.wait(Duration::from_secs(10)).await;
    let d = server.proc.dump();
    assert!(started.elapsed() < Duration::from_secs(5), "{d}");
    assert_eq!(server.proc.code(), Some(128 + 15), "{d}");
    assert!(server.proc.stderr().contains("second signal"), "{d}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_calls_are_logged_with_the_peer_and_never_the_whole_token() {
    let mut server = Server::start(&[]).await;
    let secret = "bot-0123456789abcdef-very-secret";
    // An Admin call with a wrong token.
    let mut admin = server.admin().await;
    let mut req = Request::new(pb::ListTablesRequest {});
    req.metadata_mut().insert(
        "authorization",
        format!("Bearer {secret}").parse().expect("metadata"),
    );
    let e = admin.list_tables(req).await.unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unauthenticated);
    // A Subscribe with an unknown token.
    let mut bots = RefereeClient::new(server.channel().await);
    let e = bots
        .subscribe(pb::SubscribeRequest {
            token: secret.into(),
            bot_name: "x".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unauthenticated);
    // A Play stream whose first message is not a Hello, and one whose Hello
    // names another protocol.
    let answer = pb::BotMessage {
        msg: Some(pb::bot_message::Msg::Answer(pb::Answer::default())),
    };
    let e = bots
        .play(tokio_stream::iter(vec![answer]))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unauthenticated);
    let hello = pb::BotMessage {
        msg: Some(pb::bot_message::Msg::Hello(pb::Hello {
            token: secret.into(),
            bot_name: "x".into(),
            protocol: "whistle.v9".into(),
            quiet: true,
            compact: false,
            binary: false,
        })),
    };
    let e = bots
        .play(tokio_stream::iter(vec![hello]))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);
    let want = [
        "admin call refused",
        "subscribe refused: unknown token",
        "the first message must be a Hello",
        "whistle.v9",
    ];
    until("every refusal is logged", LIMIT, async || {
        let err = server.proc.stderr();
        want.iter().all(|w| err.contains(w))
    })
    .await;
    server.proc.signal("TERM");
    server.proc.wait(LIMIT).await;
    let err = server.proc.stderr();
    for line in err.lines().filter(|l| l.contains("refused")) {
        assert!(line.contains("WARN"), "{line}");
        assert!(line.contains("127.0.0.1:"), "no peer address: {line}");
    }
    assert!(!err.contains(secret), "a token appears whole:\n{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retired_bot_token_process_is_cut_off_and_exits_refused() {
    let mut server = Server::start(&[]).await;
    let token = server.register("rb").await;
    let mut bot = bot_process(&server, &token, "rb");
    let id = server.table("rb", 1, 11).await;
    until("the table ends", LIMIT, async || {
        over(&server.status(&id).await)
    })
    .await;
    // Still running: nobody said it was done.
    assert!(bot.pid().is_some());
    let mut cmd = Command::new(workspace_bin("whistle"));
    cmd.args(["retire-bot", "rb", "--server", &server.addr])
        .env("WHISTLE_ADMIN_TOKEN", &server.admin_token);
    let mut retire = Proc::spawn("whistle retire-bot", &mut cmd);
    retire.wait(LIMIT).await;
    assert_eq!(retire.code(), Some(0), "{}", retire.dump());
    // Its Subscribe stream ends at once with UNAUTHENTICATED: the kit exits
    // as a bot whose token is refused.
    let status = timeout(Duration::from_secs(5), async { bot.wait(LIMIT).await }).await;
    assert!(status.is_ok(), "{}", bot.dump());
    assert_eq!(
        bot.code(),
        Some(i32::from(whistle_bot::client::EXIT_REFUSED)),
        "{}",
        bot.dump()
    );
    // The retired token is refused from now on, as retired (not as a
    // token never seen).
    let mut bots = RefereeClient::new(server.channel().await);
    let e = bots
        .subscribe(pb::SubscribeRequest {
            token,
            bot_name: "rb".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unauthenticated);
    assert_eq!(e.message(), whistle_referee::RETIRED, "{e:?}");
    server.proc.signal("TERM");
    server.proc.wait(LIMIT).await;
    assert_eq!(server.proc.code(), Some(0), "{}", server.proc.dump());
}
