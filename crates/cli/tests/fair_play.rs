//! Fair play with untrusted bots (docs/fair-play.md): real hostile bot
//! processes in real tournaments. Each bot here tries what a cheating
//! student would and writes what worked to its stderr log; the tests read
//! those logs, the results and the files around the event. Well-behaved
//! bundled bots play beside them, sandboxed.
//!
//! Where this machine cannot make a sandbox, the run must refuse to start;
//! that is checked instead.

mod common;

use std::{
    collections::{BTreeMap, BTreeSet},
    io::Read,
    net::TcpListener,
    path::Path,
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use common::{Event, Scratch, SpawnKilled, WHISTLE, builder_ext::EventExt, whistle};
use serde_json::Value;

/// Whether this machine can sandbox bots (if not, runs must refuse).
fn sandbox_available() -> bool {
    whistle_sandbox::probe(Path::new(WHISTLE)).is_ok()
}

const HOSTILE: &str = r#"#!/bin/sh
# A cheating bot: it tries to read the event's secrets, steal other seats,
# signal other processes, reach the network and write where it should not,
# says on stderr what worked (LEAK) and what did not (denied), then plays.
W="$1"; EVENT="$2"; OUT="$3"; VICTIM="$4"; PORT="$5"
try() { if sh -c "$2" >/dev/null 2>&1; then echo "LEAK $1" >&2; else echo "denied $1" >&2; fi; }
try event-file "cat '$EVENT' | grep -q seed"
try runner-cmdline "cat /proc/[0-9]*/cmdline | tr '\0' '\n' | grep -qx 'tournamen[t]'"
try output-folder "ls '$OUT/matches' | grep -q ."
try signal-other "kill -CONT $VICTIM"
try write-output "echo x > '$OUT/planted'"
try write-beside-event "echo x > '$EVENT.planted'"
try write-tmp "echo x > /tmp/whistle-planted-$$"
try write-own-folder "echo x > planted"
try fill-scratch "dd if=/dev/zero of=\$HOME/fill bs=1M count=100"
PY=$(command -v /usr/bin/python3 || command -v python3)
try loopback "$PY -c 'import socket; socket.create_connection((\"127.0.0.1\", $PORT), 2)'"
# Other processes' tokens: any WHISTLE_TOKEN that is not this one.
STOLEN=$(for f in /proc/[0-9]*/environ; do tr '\0' '\n' < $f 2>/dev/null; done | grep '^WHISTLE_TOKEN=' | sort -u | grep -v "^WHISTLE_TOKEN=$WHISTLE_TOKEN\$" | head -1 | cut -d= -f2)
if [ -n "$STOLEN" ]; then
  echo "LEAK stolen-token" >&2
  "$W" bot --bot first --token "$STOLEN" >/dev/null 2>&1 &
else
  echo "denied stolen-token" >&2
fi
rm -f "$HOME/fill"
exec "$W" bot --bot random
"#;

/// The event: `event/t.toml` beside nothing else, output in `out/`, the
/// hostile bot in `bots/hostile/`, the bundled bots from the binary's folder.
fn event(
    s: &Scratch,
    format: &str,
    extra_bots: &str,
    victim: u32,
    port: u16,
) -> std::path::PathBuf {
    std::fs::create_dir_all(s.path("event")).unwrap();
    std::fs::create_dir_all(s.path("bots/hostile")).unwrap();
    s.write("bots/hostile/hostile.sh", HOSTILE);
    let file = s.path("event/t.toml");
    let out = s.path("out");
    let text = format!(
        r#"name = "fair"
game = "israeli"
seed = "ac7f1242ccc06b65b28c79b7a3db5d3b223bdd536e7c511e065af924e9c9a252"
format = "{format}"
hands = 2
parallel = 2
out = "../out"

[time]
per_action_ms = 2000
time_bank_ms = 20000
start_timeout_ms = 10000
"#
    );
    let (file_text, out_text) = (file.display().to_string(), out.display().to_string());
    let (victim, port) = (victim.to_string(), port.to_string());
    Event::with(&text)
        .command_with(
            "hostile",
            &[
                "sh",
                "../bots/hostile/hostile.sh",
                WHISTLE,
                &file_text,
                &out_text,
                &victim,
                &port,
            ],
            "dir = \"../bots/hostile\"\n",
        )
        .bundled("random", "random")
        .bundled("heuristic", "heuristic")
        .bundled("first", "first")
        .and(extra_bots)
        .write(s, "event/t.toml")
}

fn results(s: &Scratch) -> Value {
    results_in(&s.path("out"))
}

fn results_in(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

/// A loopback listener that is not the referee, counting connections.
fn listener() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let n = Arc::new(AtomicUsize::new(0));
    let counted = n.clone();
    std::thread::spawn(move || {
        for mut c in l.incoming().flatten() {
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = c.read(&mut [0u8; 16]);
        }
    });
    (port, n)
}

#[test]
fn a_hostile_bot_reads_no_secret_steals_no_seat_signals_no_one_and_reaches_nothing() {
    let s = Scratch::new("fair-hostile");
    let mut victim = Command::new("sleep").arg("120").spawn_killed();
    let (port, connections) = listener();
    let file = event(&s, "round-robin", "", victim.id(), port);
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap(), "--progress", "plain"],
        Duration::from_secs(240),
    );
    if !sandbox_available() {
        assert_ne!(r.status.code(), Some(0), "{}", r.stderr);
        victim.kill().unwrap();
        let _ = victim.wait();
        assert!(r.stderr.contains("sandbox = false"), "{}", r.stderr);
        return;
    }
    let victim_alive = victim.try_wait().unwrap().is_none();
    victim.kill().unwrap();
    let _ = victim.wait();
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = std::fs::read_to_string(s.path("out/logs/hostile.stderr.log")).unwrap();
    let leaks: BTreeSet<&str> = log.lines().filter(|l| l.starts_with("LEAK")).collect();
    assert!(leaks.is_empty(), "what the bot could do: {leaks:?}\n{log}");
    for tried in [
        "event-file",
        "output-folder",
        "signal-other",
        "write-output",
        "write-beside-event",
        "write-tmp",
        "write-own-folder",
        "fill-scratch",
        "stolen-token",
        "runner-cmdline",
    ] {
        assert!(
            log.contains(&format!("denied {tried}")),
            "{tried} not tried:\n{log}"
        );
    }
    assert_eq!(
        connections.load(Ordering::SeqCst),
        0,
        "it reached the listener"
    );
    assert!(victim_alive, "the other process was signalled");
    assert!(!s.path("out/planted").exists() && !s.path("event/t.toml.planted").exists());
    assert!(!s.path("bots/hostile/planted").exists());
    // Every bot played every hand it was dealt, the hostile one included
    // (after its attempts it plays as `random`): no seat was taken over.
    let res = results(&s);
    for b in res["bots"].as_array().unwrap() {
        assert!(b["faults"].as_object().unwrap().is_empty(), "{b}");
        assert_eq!(b["forfeits"].as_u64(), Some(0), "{b}");
        assert!(b["hands"].as_u64().unwrap() > 0, "{b}");
    }
    assert!(
        res.get("notes").is_none(),
        "nothing to note: {}",
        res["notes"]
    );
}

/// A wrapper that plays the bundled random bot and prefixes everything it
/// logs with an id of its own process, so the test can tell instances apart.
const POOLING: &str = r#"#!/bin/sh
ID=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
"$1" bot --bot random --log info 2>&1 | sed -u "s/^/[$ID] /" >&2
"#;

#[test]
fn in_a_duplicate_event_no_instance_of_a_bot_ever_holds_two_seats_of_one_deal() {
    let s = Scratch::new("fair-pooling");
    std::fs::create_dir_all(s.path("event")).unwrap();
    std::fs::create_dir_all(s.path("bots/pool")).unwrap();
    s.write("bots/pool/pool.sh", POOLING);
    let file = Event::with(
        r#"name = "pool"
game = "israeli"
seed = 5
format = "duplicate"
seatings = "rotations"
hands = 2
parallel = 4
out = "../out"
"#,
    )
    .command_with(
        "pool",
        &["sh", "../bots/pool/pool.sh", WHISTLE],
        "dir = \"../bots/pool\"\n",
    )
    .bundled("random", "random")
    .bundled("first", "first")
    .bundled("heuristic", "heuristic")
    .write(&s, "event/t.toml");
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(240),
    );
    if !sandbox_available() {
        assert_ne!(r.status.code(), Some(0), "{}", r.stderr);
        return;
    }
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    // Which deal each table plays: its duplicate group.
    let mut group_of = BTreeMap::new();
    for e in std::fs::read_dir(s.path("out/matches")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        group_of.insert(
            header["table"].as_str().unwrap().to_string(),
            header["duplicate"]["group"].as_u64().unwrap(),
        );
    }
    // Every seat each instance was dealt into.
    let log = std::fs::read_to_string(s.path("out/logs/pool.stderr.log")).unwrap();
    let mut seats: BTreeMap<String, Vec<(u64, String)>> = BTreeMap::new();
    for line in log.lines().filter(|l| l.contains("assigned a seat")) {
        let id = line[1..line.find(']').unwrap()].to_string();
        let table = line
            .split("table=")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .unwrap()
            .to_string();
        let seat = line.split("seat=").nth(1).unwrap().trim().to_string();
        seats
            .entry(id)
            .or_default()
            .push((group_of[&table], format!("{table}/{seat}")));
    }
    // 4 rotations of one group: the bot sits in every seat of the deals once.
    let total: usize = seats.values().map(Vec::len).sum();
    assert_eq!(total, 4, "{seats:?}\n{log}");
    for (id, held) in &seats {
        let groups: BTreeSet<u64> = held.iter().map(|(g, _)| *g).collect();
        assert_eq!(
            groups.len(),
            held.len(),
            "instance {id} held two seats of one deal: {held:?}"
        );
        assert_eq!(
            held.len(),
            1,
            "instance {id} played more than one seat: {held:?}"
        );
    }
}

#[test]
fn bots_stopped_by_their_limits_are_named_with_the_limit_and_the_event_goes_on() {
    let s = Scratch::new("fair-limits");
    std::fs::create_dir_all(s.path("event")).unwrap();
    for b in ["bomb", "hog"] {
        std::fs::create_dir_all(s.path(&format!("bots/{b}"))).unwrap();
    }
    s.write(
        "bots/bomb/bomb.sh",
        "#!/bin/sh\n# Processes that stay, as many as it can make.\nwhile :; do sleep 60 & done\n",
    );
    s.write(
        "bots/hog/hog.py",
        "x = bytearray(10 << 30)\nprint('allocated 10 GiB')\n",
    );
    let file = Event::with(
        r#"name = "limits"
game = "israeli"
seed = 3
format = "round-robin"
hands = 1
parallel = 1
out = "../out"

[time]
per_action_ms = 50
time_bank_ms = 100
start_timeout_ms = 2000

[faults]
max_faults = 1

[sandbox]
processes = 32
memory_mib = 512
"#,
    )
    .command_with(
        "bomb",
        &["sh", "../bots/bomb/bomb.sh"],
        "dir = \"../bots/bomb\"\n",
    )
    .command_with(
        "hog",
        &["python3", "../bots/hog/hog.py"],
        "dir = \"../bots/hog\"\n",
    )
    .bundled("random", "random")
    .command_with(
        "first",
        &["whistle", "bot", "--bot", "first"],
        "limits = { memory_mib = 256 }\n",
    )
    .write(&s, "event/t.toml");
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(240),
    );
    if !sandbox_available() {
        assert_ne!(r.status.code(), Some(0), "{}", r.stderr);
        return;
    }
    // Finished, with bots out of the event: exit status 3.
    assert_eq!(r.status.code(), Some(3), "{}\n{}", r.stdout, r.stderr);
    let res = results(&s);
    let notes = res["notes"].as_array().unwrap();
    let about = |bot: &str| -> Vec<String> {
        notes
            .iter()
            .filter(|n| n["bot"] == bot)
            .map(|n| n["detail"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        about("bomb").iter().any(|d| d.contains("process limit 32")),
        "{notes:?}"
    );
    assert!(
        about("hog")
            .iter()
            .any(|d| d.contains("memory limit 512 MiB")),
        "{notes:?}"
    );
    let standings = std::fs::read_to_string(s.path("out/standings.md")).unwrap();
    assert!(standings.contains("process limit 32"), "{standings}");
    assert!(r.stdout.contains("memory limit 512 MiB"), "{}", r.stdout);
    let hog_log = std::fs::read_to_string(s.path("out/logs/hog.stderr.log")).unwrap();
    assert!(hog_log.contains("MemoryError"), "{hog_log}");
    let bomb_log = std::fs::read_to_string(s.path("out/logs/bomb.stderr.log")).unwrap();
    assert!(bomb_log.contains("process limit 32"), "{bomb_log}");
}

#[test]
fn the_organisers_opt_out_is_said_everywhere_and_a_bot_beside_the_file_is_refused() {
    let s = Scratch::new("fair-optout");
    s.write("bot.sh", "#!/bin/sh\nexec \"$1\" bot --bot random\n");
    let text = |sandbox: &str| {
        Event::with("name = \"optout\"\ngame = \"honeymoon\"\nseed = 1\nhands = 1\n")
            .command_with(
                "beside",
                &["sh", "bot.sh", WHISTLE],
                &format!("{sandbox}\n"),
            )
            .bundled("random", "random")
            .text()
            .to_string()
    };
    // Sandboxed, a bot whose folder holds the event file is refused.
    let file = s.write("t.toml", &text(""));
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("bot `beside`") && r.stderr.contains("holds"),
        "{}",
        r.stderr
    );
    // Unsandboxed by the organiser's choice: it plays, and that is said.
    let file = s.write("t.toml", &text("sandbox = false"));
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("WITHOUT a sandbox"), "{}", r.stderr);
    let res = results_in(&s.path("replays/optout"));
    assert!(
        res["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["bot"] == "beside" && n["kind"] == "unsandboxed"),
        "{res}"
    );
    let standings = std::fs::read_to_string(s.path("replays/optout/standings.md")).unwrap();
    assert!(standings.contains("without a sandbox"), "{standings}");
}

#[test]
fn remote_bots_are_refused_by_formats_that_replay_deals_and_play_a_movement() {
    let s = Scratch::new("fair-movement");
    let head = |format: &str| {
        Event::new("mv", "israeli").and(&format!(
            "seed = 8\nhands = 1\nparallel = 4\nformat = \"{format}\"\n"
        ))
    };
    let kinds = [
        "random",
        "first",
        "heuristic",
        "random",
        "first",
        "heuristic",
        "first",
        "random",
    ];
    let with_bots = |event: Event| {
        kinds
            .iter()
            .enumerate()
            .fold(event, |e, (i, kind)| e.bundled(&format!("b{i}"), kind))
    };
    let file = with_bots(head("duplicate"))
        .remote("far", "bot-far-secret")
        .write(&s, "dup.toml");
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_ne!(r.status.code(), Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("`duplicate` format") && r.stderr.contains("bot `far`"),
        "{}",
        r.stderr
    );
    // A movement: each set of deals at two tables of disjoint bots.
    let file = with_bots(head("movement")).write(&s, "mv.toml");
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(240),
    );
    if !sandbox_available() {
        return;
    }
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let out = s.path("replays/mv");
    let mut by_set: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for e in std::fs::read_dir(out.join("matches")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let h: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let set = h["duplicate"]["group"].as_u64().unwrap();
        for b in h["seats"].as_array().unwrap() {
            by_set
                .entry(set)
                .or_default()
                .push(b.as_str().unwrap().to_string());
        }
    }
    assert_eq!(by_set.len(), 8, "{by_set:?}");
    for (set, seated) in &by_set {
        let distinct: BTreeSet<&String> = seated.iter().collect();
        assert_eq!(
            distinct.len(),
            8,
            "set {set}: a bot held the deal twice: {seated:?}"
        );
    }
    let res = results_in(&out);
    let mp = res["duplicate"]["matchpoints"].as_array().unwrap();
    assert_eq!(mp.len(), 8, "{res}");
    assert!(r.stdout.contains("matchpoints"), "{}", r.stdout);
}

/// `GET path` from the site at `site` (`http://HOST:PORT/`): status and body.
fn http_get(site: &str, path: &str) -> (u16, String) {
    use std::io::Write;
    let host = site.trim_start_matches("http://").trim_end_matches('/');
    let mut c = std::net::TcpStream::connect(host).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(c, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// The hands a hand-viewer page holds (its packed match data); none on
/// the page a live table shows before its first hand can be shown.
fn hands_on_page(page: &str) -> usize {
    use base64::Engine as _;
    if page.contains("id=\"waiting\"") {
        assert!(!page.contains("match-data"), "{page}");
        return 0;
    }
    let start = page.find("id=\"match-data\"").expect("a viewer page");
    let data = &page[start..];
    let data = &data[data.find('>').unwrap() + 1..];
    let data = &data[..data.find('<').unwrap()];
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .unwrap();
    let m: Value = serde_json::from_reader(flate2::read::GzDecoder::new(&bytes[..])).unwrap();
    m["hands"].as_array().unwrap().len()
}

/// Finished hands of a match log (hand lines carry a `deck`).
fn hands_in_log(path: &Path) -> usize {
    common::read_log(path)
        .lines()
        .skip(1)
        .filter(|l| l.contains("\"deck\""))
        .count()
}

#[test]
fn a_spectator_of_a_duplicate_league_sees_no_hand_before_every_table_of_its_deal_finished_it() {
    let s = Scratch::new("fair-spectator");
    Event::new("watched", "israeli")
        .and("seed = 8\nhands = 2\nformat = \"duplicate\"\nparallel = 8\n\n")
        .calm()
        .init_league(&s, "l.toml", "lg");
    let names: Vec<String> = (1..=8).map(|i| format!("b{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tokens = common::add_league_bots(&s, "lg", &names);
    let delay = Duration::from_secs(1);
    let (mut serve, lines) = common::spawn_serve(
        &s,
        "lg",
        &["--http", "127.0.0.1:0", "--watch-delay-s", "1"],
        &["listening on ", "site on "],
    );
    let grpc = common::listening_address(&lines[0]);
    let site = lines[1]["site on ".len()..].to_string();
    // Tables at different paces: the one with a bot that thinks for a
    // while finishes a hand seconds after the other.
    let mut bots: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let kind = if i == 0 { "sampler:150ms" } else { "random" };
            common::spawn_remote_bot(&grpc, t, kind)
        })
        .collect();
    let round = s.path("lg/rounds/0001");
    // The spectator: every table's page, over and over, until round 1 is
    // over and every page shows every hand. After each page, the logs of
    // every table playing the same deals say what they had finished.
    let mut first_seen: BTreeMap<(String, usize), std::time::Instant> = BTreeMap::new();
    let mut shown_at: BTreeMap<(String, usize), std::time::Instant> = BTreeMap::new();
    let start = std::time::Instant::now();
    let mut pages = 0;
    let mut partial = 0;
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "round 1 did not finish: {}",
            std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
        );
        let expected = std::fs::read_to_string(round.join("tables.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Vec<Vec<usize>>>(&t).ok())
            .map(|t| t.len());
        let mut logs: Vec<(String, u64, std::path::PathBuf)> = Vec::new();
        for e in std::fs::read_dir(round.join("matches"))
            .into_iter()
            .flatten()
        {
            let path = e.unwrap().path();
            // A round that closed compressed its logs (`.jsonl.gz`); a
            // compression in progress leaves a `.tmp` beside.
            let name = path.to_string_lossy().into_owned();
            if !(name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")) {
                continue;
            }
            let path = std::path::PathBuf::from(name.trim_end_matches(".gz"));
            let Some(header) = serde_json::from_str::<Value>(
                common::read_log(&path).lines().next().unwrap_or_default(),
            )
            .ok() else {
                continue;
            };
            if logs
                .iter()
                .any(|(t, _, _)| t == header["table"].as_str().unwrap())
            {
                continue; // both forms of one log, mid-compression
            }
            logs.push((
                header["table"].as_str().unwrap().to_string(),
                header["duplicate"]["group"].as_u64().unwrap(),
                path,
            ));
        }
        let now = std::time::Instant::now();
        for (table, _, path) in &logs {
            for h in 1..=hands_in_log(path) {
                first_seen.entry((table.clone(), h)).or_insert(now);
            }
        }
        let mut all_shown = expected.is_some_and(|n| n > 0);
        for (table, group, _) in &logs {
            let (status, page) = http_get(&site, &format!("/live/{table}"));
            assert_eq!(status, 200, "{page}");
            pages += 1;
            let shown = hands_on_page(&page);
            let seen_at = std::time::Instant::now();
            // Every table of these deals, read after the page was made.
            let set: Vec<_> = logs.iter().filter(|(_, g, _)| g == group).collect();
            let finished = set
                .iter()
                .map(|(_, _, p)| hands_in_log(p))
                .min()
                .unwrap_or(0);
            if shown > 0 {
                assert_eq!(
                    Some(set.len()),
                    expected,
                    "{table} shows {shown} hand(s) while only {} of its deals' tables started",
                    set.len()
                );
            }
            assert!(
                shown <= finished,
                "{table} shows {shown} hand(s) while a table of its deals finished {finished}"
            );
            for h in 1..=shown {
                shown_at.entry((table.clone(), h)).or_insert(seen_at);
                // The hand was finished everywhere `delay` before it showed
                // (less what this loop's polling may have missed).
                let finished_last = set
                    .iter()
                    .filter_map(|(t, _, _)| first_seen.get(&(t.clone(), h)))
                    .max()
                    .copied()
                    .unwrap();
                if shown_at[&(table.clone(), h)] == seen_at {
                    let waited = seen_at.duration_since(finished_last);
                    assert!(
                        waited + Duration::from_millis(700) >= delay,
                        "{table} showed hand {h} {waited:?} after its deal's last table finished it"
                    );
                }
            }
            if shown < 2 {
                all_shown = false;
                partial += usize::from(shown > 0);
            }
        }
        // 4 seats: 4 sets of deals, each at every table.
        if all_shown && logs.len() == expected.unwrap_or(0) * 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Another league's table id (or any made-up one) is no page at all.
    for id in ["other-r0001-m00000", "watched-r0001-m99999", "x"] {
        let (status, _) = http_get(&site, &format!("/live/{id}"));
        assert_eq!(status, 404, "/live/{id}");
    }
    common::stop_all(&mut serve, &mut bots);
    assert!(pages > 0 && !shown_at.is_empty(), "nothing was watched");
    eprintln!("{pages} pages read, {partial} showed part of a match");
}

/// A stdio bot that tells on stderr, prefixed with an id of its own, when
/// it starts (`start T`), the 13 cards it is dealt at each table (`cards
/// TABLE DEAL CARDS`), that it is still alive every 50 ms (`alive T`) until
/// it is gone, and when its match is over (`played T`); then it lingers,
/// deaf to SIGTERM, as a bot that meant to pass its hand on would.
const LINGERING: &str = r#"import json, os, signal, sys, threading, time

ID = os.urandom(8).hex()


def say(*words):
    sys.stderr.write("[%s] %s\n" % (ID, " ".join(str(w) for w in words)))
    sys.stderr.flush()


def alive():
    while True:
        say("alive", "%.6f" % time.time())
        time.sleep(0.05)


signal.signal(signal.SIGTERM, signal.SIG_IGN)
say("start", "%.6f" % time.time())
threading.Thread(target=alive, daemon=True).start()
dealt = set()
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") != "request":
        continue
    o = m["observation"]
    deal = next((e["hand_start"]["deal"] for e in o.get("history", []) if "hand_start" in e), 0)
    if (m["table"], deal) not in dealt and len(o.get("hand", [])) == 13:
        dealt.add((m["table"], deal))
        say("cards", m["table"], deal, ",".join(sorted(o["hand"])))
    print(0, flush=True)
say("played", "%.6f" % time.time())
time.sleep(30)
"#;

/// One instance of the lingering bot, read from its stderr log.
#[derive(Debug, Default)]
struct Instance {
    start: f64,
    /// The last sign of life: it was gone within 50 ms (and a scheduling
    /// delay) of this.
    last: f64,
    played: Option<f64>,
    table: Option<String>,
    /// Its cards at each deal.
    cards: BTreeMap<u64, String>,
}

/// Runs a duplicate event of the lingering bot and three bundled ones, two
/// sets of deals (`rounds = 2`) of four rotations each, with `parallel`
/// tables, and returns the lingering bot's instances with the set of deals
/// (duplicate group) of each.
fn lingering_event(name: &str, parallel: usize) -> Option<Vec<(u64, Instance)>> {
    let s = Scratch::new(name);
    std::fs::create_dir_all(s.path("event")).unwrap();
    std::fs::create_dir_all(s.path("bots/linger")).unwrap();
    s.write("bots/linger/linger.py", LINGERING);
    let file = Event::with(&format!(
        r#"name = "linger"
game = "israeli"
seed = 12
format = "duplicate"
seatings = "rotations"
hands = 2
rounds = 2
parallel = {parallel}
out = "../out"

[time]
per_action_ms = 5000
time_bank_ms = 20000
"#
    ))
    .command_with(
        "linger",
        &["python3", "../bots/linger/linger.py"],
        "dir = \"../bots/linger\"\nstdio = true\n",
    )
    .bundled("random", "random")
    .bundled("first", "first")
    .bundled("heuristic", "heuristic")
    .write(&s, "event/t.toml");
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(300),
    );
    if !sandbox_available() {
        assert_ne!(r.status.code(), Some(0), "{}", r.stderr);
        return None;
    }
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let mut group_of = BTreeMap::new();
    for e in std::fs::read_dir(s.path("out/matches")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        group_of.insert(
            header["table"].as_str().unwrap().to_string(),
            header["duplicate"]["group"].as_u64().unwrap(),
        );
    }
    let log = std::fs::read_to_string(s.path("out/logs/linger.stderr.log")).unwrap();
    let mut seen: BTreeMap<String, Instance> = BTreeMap::new();
    for line in log.lines() {
        let Some((id, rest)) = line.strip_prefix('[').and_then(|l| l.split_once("] ")) else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let time = || words.get(1).and_then(|t| t.parse::<f64>().ok());
        let i = seen.entry(id.to_string()).or_default();
        match words.first() {
            Some(&"start") => i.start = time().unwrap(),
            Some(&"alive") => i.last = i.last.max(time().unwrap_or(0.0)),
            Some(&"played") => i.played = time(),
            Some(&"cards") if words.len() == 4 => {
                i.table = Some(words[1].to_string());
                i.cards
                    .insert(words[2].parse().unwrap(), words[3].to_string());
            }
            _ => {}
        }
    }
    let instances: Vec<(u64, Instance)> = seen
        .into_values()
        .map(|mut i| {
            i.last = i.last.max(i.played.unwrap_or(0.0));
            let table = i.table.clone().expect("every instance was dealt cards");
            (group_of[&table], i)
        })
        .collect();
    // 2 sets of deals, each in 4 rotations: the bot holds each set 4 times,
    // each time in another seat (the cards of one deal never repeat).
    assert_eq!(instances.len(), 8, "{instances:#?}\n{log}");
    for g in [0, 1] {
        let of: Vec<&Instance> = instances
            .iter()
            .filter(|(x, _)| *x == g)
            .map(|(_, i)| i)
            .collect();
        assert_eq!(of.len(), 4, "{instances:#?}");
        let hands: BTreeSet<&String> = of.iter().filter_map(|i| i.cards.get(&0)).collect();
        assert_eq!(hands.len(), 4, "four seats of one deal: {of:#?}");
    }
    Some(instances)
}

/// Checks that no two instances of the bot that held the same deals were
/// alive at once, and that each lingering one delayed the next of its
/// deals rather than overlapping it. Returns whether instances of
/// different deals were alive at once (the event's parallelism).
fn one_view_of_each_deal(instances: &[(u64, Instance)]) -> bool {
    for g in [0, 1] {
        let mut of: Vec<&Instance> = instances
            .iter()
            .filter(|(x, _)| *x == g)
            .map(|(_, i)| i)
            .collect();
        of.sort_by(|a, b| a.start.total_cmp(&b.start));
        for w in of.windows(2) {
            let (before, next) = (w[0], w[1]);
            assert!(
                next.start > before.last,
                "two instances that held the deals of set {g} were alive at once: one until \
                 {:.3}, the next from {:.3}",
                before.last,
                next.start
            );
            // It lingered after its match (3 s of grace, then killed), and
            // the next one waited for its end.
            let played = before.played.expect("it played its match");
            assert!(
                next.start - played > 2.0,
                "the next instance of set {g} started {:.3} s after the last one's match ended, \
                 while that one lingered",
                next.start - played
            );
        }
    }
    instances.iter().any(|(g, a)| {
        instances
            .iter()
            .any(|(h, b)| g != h && a.start < b.last && b.start < a.last)
    })
}

#[test]
fn lingering_instances_never_overlap_the_next_of_their_deals_and_other_deals_play_meanwhile() {
    let Some(instances) = lingering_event("fair-linger", 4) else {
        return;
    };
    assert!(
        one_view_of_each_deal(&instances),
        "the two sets of deals never played at once: {instances:#?}"
    );
}

#[test]
fn with_one_table_at_a_time_a_lingering_instance_still_delays_the_next_of_its_deals() {
    let Some(instances) = lingering_event("fair-linger-serial", 1) else {
        return;
    };
    one_view_of_each_deal(&instances);
}
