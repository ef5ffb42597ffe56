//! A real `whistle serve` process and four real `whistle-bot` processes play a
//! seeded Israeli match over gRPC, on a table made by `whistle table`; the
//! referee's record (read with the Admin `WatchTable` RPC) equals
//! `whistle play --json` in-process with the same seed and the same
//! deterministic bots: the same calls and hand results, the same number of
//! decisions and the same final totals. Proves that the referee, the wire
//! and the bot kit add nothing of their own to a match.

use std::time::Duration;

use serde_json::Value;
use tokio::{process::Command, time::timeout};
use tonic::{Request, transport::Channel};
use whistle_e2e::{bins::workspace_bin, process::Proc};
use whistle_protocol::pb::{
    self, admin_client::AdminClient, table_record::Entry, table_status::State,
};
use whistle_rules::{Game, Options, Variant};

const LIMIT: Duration = Duration::from_secs(60);

/// A running `whistle serve` and what it printed.
struct Server {
    proc: Proc,
    addr: String,
    admin_token: String,
}

async fn serve() -> Server {
    let mut cmd = Command::new(workspace_bin("whistle"));
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--log", "warn"])
        .env_remove("WHISTLE_ADMIN_TOKEN");
    let mut proc = Proc::spawn("whistle serve", &mut cmd);
    let line = proc.line(LIMIT, |l| l.starts_with("listening on ")).await;
    // `listening on ADDR admin-token TOKEN`
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 5, "{line}");
    assert_eq!(words[3], "admin-token", "{line}");
    Server {
        addr: words[2].to_string(),
        admin_token: words[4].to_string(),
        proc,
    }
}

/// Runs a `whistle` subcommand to completion and returns its stdout.
async fn whistle(args: &[&str]) -> String {
    let mut cmd = Command::new(workspace_bin("whistle"));
    cmd.args(args);
    let mut p = Proc::spawn(format!("whistle {}", args.join(" ")), &mut cmd);
    p.wait(LIMIT).await;
    assert_eq!(p.code(), Some(0), "{}", p.dump());
    p.stdout()
}

fn authorized<T>(msg: T, token: &str) -> Request<T> {
    let mut req = Request::new(msg);
    req.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("metadata"),
    );
    req
}

/// One hand as the referee recorded it: calls, then the result.
#[derive(Debug, Default, PartialEq, Eq)]
struct Hand {
    calls: Vec<(u32, String)>,
    deal: u32,
    dealer: u32,
    misdeal: bool,
    bids: Vec<String>,
    tricks: Vec<u32>,
    points: Vec<i32>,
    totals: Vec<i32>,
}

/// What the referee's record says about the match.
#[derive(Debug, Default, PartialEq, Eq)]
struct Match {
    hands: Vec<Hand>,
    decisions: u64,
    totals: Vec<i32>,
}

fn from_json(report: &Value) -> Match {
    let ints = |v: &Value| -> Vec<i64> {
        v.as_array()
            .expect("an array")
            .iter()
            .map(|x| x.as_i64().expect("a number"))
            .collect()
    };
    let hands = report["hands"]
        .as_array()
        .expect("hands")
        .iter()
        .map(|h| Hand {
            calls: h["calls"]
                .as_array()
                .expect("calls")
                .iter()
                .map(|c| {
                    (
                        c["seat"].as_u64().expect("a seat") as u32,
                        c["action"].as_str().expect("an action").to_string(),
                    )
                })
                .collect(),
            deal: h["deal"].as_u64().expect("deal") as u32,
            dealer: h["dealer"].as_u64().expect("dealer") as u32,
            misdeal: h["misdeal"].as_bool().expect("misdeal"),
            bids: h["bids"]
                .as_array()
                .expect("bids")
                .iter()
                .map(|b| b.as_str().unwrap_or_default().to_string())
                .collect(),
            tricks: ints(&h["tricks"]).into_iter().map(|t| t as u32).collect(),
            points: ints(&h["points"]).into_iter().map(|t| t as i32).collect(),
            totals: ints(&h["totals"]).into_iter().map(|t| t as i32).collect(),
        })
        .collect();
    Match {
        hands,
        decisions: report["decisions"].as_u64().expect("decisions"),
        totals: ints(&report["result"]["totals"])
            .into_iter()
            .map(|t| t as i32)
            .collect(),
    }
}

/// Plays `seed` with four `whistle-bot --bot <bot>` processes against a
/// `whistle serve` process and checks the record against `whistle play`.
async fn check(bot: &str, seed: u64, hands: u32) {
    let server = serve().await;
    let seed_arg = seed.to_string();
    let hands_arg = hands.to_string();
    let table = whistle(&[
        "table",
        "--server",
        &format!("http://{}", server.addr),
        "--admin-token",
        &server.admin_token,
        "--game",
        "israeli",
        "--seed",
        &seed_arg,
        "--hands",
        &hands_arg,
        "--bots",
        bot,
    ])
    .await;
    // `table ID` then `seat N TOKEN bot-seed HEX` per seat.
    let mut lines = table.lines();
    let table_id = lines
        .next()
        .and_then(|l| l.strip_prefix("table "))
        .unwrap_or_else(|| panic!("no table line in\n{table}"))
        .to_string();
    let seats: Vec<(String, String)> = lines
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert!(w.len() == 5 && w[0] == "seat" && w[3] == "bot-seed", "{l}");
            (w[2].to_string(), w[4].to_string())
        })
        .collect();
    assert_eq!(seats.len(), 4, "{table}");

    // Watch the table before any bot connects: it cannot start before then.
    let channel = Channel::from_shared(format!("http://{}", server.addr))
        .expect("uri")
        .connect()
        .await
        .expect("the referee answers");
    let mut admin = AdminClient::new(channel);
    let mut watch = admin
        .watch_table(authorized(
            pb::WatchTableRequest {
                table_id: table_id.clone(),
            },
            &server.admin_token,
        ))
        .await
        .expect("watch")
        .into_inner();

    let mut bots: Vec<Proc> = seats
        .iter()
        .enumerate()
        .map(|(i, (token, bot_seed))| {
            let mut cmd = Command::new(workspace_bin("whistle-bot"));
            cmd.args(["--bot", bot, "--seed", bot_seed])
                .env("WHISTLE_ADDRESS", &server.addr)
                .env("WHISTLE_TOKEN", token);
            Proc::spawn(format!("whistle-bot seat {i}"), &mut cmd)
        })
        .collect();

    let engine = Variant::Israeli.new_game(&Options::new()).expect("a game");
    let mut seen = Match::default();
    let mut hand = Hand::default();
    let read = timeout(LIMIT, async {
        while let Some(r) = watch.message().await.expect("the watch stream") {
            match r.entry {
                Some(Entry::Action(a)) => {
                    assert!(!a.fallback, "a fallback in a clean match: {a:?}");
                    seen.decisions += 1;
                    // Calls are the decisions that name no card.
                    let action = engine.parse_action(&a.action).expect("an action");
                    if action.card().is_none() {
                        hand.calls.push((a.seat, a.action));
                    }
                }
                Some(Entry::Fault(f)) => panic!("a fault in a clean match: {f:?}"),
                Some(Entry::Hand(h)) => {
                    hand.deal = h.deal;
                    hand.dealer = h.dealer;
                    hand.misdeal = h.misdeal;
                    hand.bids = h.bids;
                    hand.tricks = h.tricks;
                    hand.points = h.points;
                    hand.totals = h.totals;
                    seen.hands.push(std::mem::take(&mut hand));
                }
                Some(Entry::Result(m)) => {
                    seen.totals = m.totals;
                    assert!(m.forfeited.is_empty());
                    return;
                }
                Some(Entry::Deal(_)) | None => {}
            }
        }
        panic!("the watch stream ended without a result");
    })
    .await;
    if read.is_err() {
        let mut s = server.proc.dump();
        for b in &bots {
            s.push_str(&b.dump());
        }
        panic!("no match result within {LIMIT:?}\n{s}");
    }
    for b in &mut bots {
        b.wait(LIMIT).await;
        assert_eq!(b.code(), Some(0), "{}", b.dump());
    }
    let status = admin
        .get_table(authorized(
            pb::GetTableRequest {
                table_id: table_id.clone(),
            },
            &server.admin_token,
        ))
        .await
        .expect("get table")
        .into_inner();
    assert_eq!(status.state, State::Over as i32);
    assert_eq!(status.faults, [0, 0, 0, 0]);
    assert_eq!(status.result.expect("a result").totals, seen.totals);

    let report = whistle(&[
        "play", "--game", "israeli", "--seed", &seed_arg, "--hands", &hands_arg, "--bots", bot,
        "--json",
    ])
    .await;
    let report: Value = serde_json::from_str(&report).expect("JSON from whistle play");
    let expected = from_json(&report);
    assert_eq!(seen.hands.len(), expected.hands.len());
    for (i, (a, b)) in seen.hands.iter().zip(&expected.hands).enumerate() {
        assert_eq!(a, b, "hand {i}: referee (left) vs whistle play (right)");
    }
    assert_eq!(seen.decisions, expected.decisions);
    assert_eq!(seen.totals, expected.totals);
    assert_eq!(seen.hands.len(), hands as usize);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_bots_over_grpc_equal_whistle_play() {
    for seed in [5, 2026] {
        check("random", seed, 3).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heuristic_bots_over_grpc_equal_whistle_play() {
    check("heuristic", 11, 3).await;
}
