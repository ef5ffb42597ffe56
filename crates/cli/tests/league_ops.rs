//! End-to-end tests of running a league for weeks: one writer per league
//! folder (real processes: two serves, serve and a cron `round`, a killed
//! holder), a damaged log of the open round, the site's log download for
//! disputes, a read-only league folder.

mod common;

use std::{
    io::{Read, Write},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{Event, Scratch, SpawnKilled, WHISTLE, whistle};
use serde_json::Value;

use common::whistle_ok as ok;

/// A league of four reference bots that fill every seat (Israeli Whist,
/// duplicate tables, two at once, `hands` hands a match), the bots
/// answering after `delay` (e.g. `30ms`) so that a round lasts a while.
fn slow_reference_league(name: &str, hands: u32, delay: &str) -> String {
    let kind = format!("sampler:{delay}");
    Event::new(name, "israeli")
        .and(&format!(
            "seed = 11\nhands = {hands}\nformat = \"duplicate\"\nparallel = 2\nfill = true\n\n"
        ))
        .calm()
        .reference_bot("r1", &["--bot", &kind])
        .reference_bot("r2", &["--bot", &kind])
        .reference_bot("r3", &["--bot", &kind])
        .reference_bot("r4", &["--bot", &kind])
        .text()
        .to_string()
}

/// Waits up to `limit` for `done`, polling.
fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether a log of round `round` in `lg` has at least `lines` lines (a
/// header and hands; its end).
fn some_log_has(s: &Scratch, round: &str, lines: usize) -> bool {
    std::fs::read_dir(s.path(&format!("lg/rounds/{round}/matches")))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.lines().count() >= lines))
}

/// `whistle league rounds --json` of `lg`.
fn rounds(s: &Scratch) -> Vec<Value> {
    let r = ok(s, &["league", "rounds", "--json", "--dir", "lg"]);
    serde_json::from_str::<Value>(&r.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// One GET to the site at `addr`: the status line's code and the body.
fn get(addr: &str, path: &str) -> (u16, Vec<u8>) {
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    let _ = c.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let code = head[9..12].parse().unwrap();
    let body = raw[split + 4..].to_vec();
    // The site answers whole bodies or chunks; chunks are joined.
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let eol = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let n = usize::from_str_radix(std::str::from_utf8(&rest[..eol]).unwrap().trim(), 16)
                .unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&rest[eol + 2..eol + 2 + n]);
            rest = &rest[eol + 2 + n + 2..];
        }
        out
    } else {
        body
    };
    (code, body)
}

#[test]
fn one_league_folder_has_one_writer_and_a_killed_one_holds_nothing() {
    let s = Scratch::new("league-one-writer");
    s.write("l.toml", &slow_reference_league("one", 3, "20ms"));
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let (mut serve, _) = common::spawn_serve(&s, "lg", &[], &["listening on "]);
    // An upload waiting in the inbox, as the site would leave one.
    let inbox = s.path("lg/submissions/.inbox");
    std::fs::create_dir_all(&inbox).unwrap();
    std::fs::write(inbox.join("1-1"), "an upload being checked").unwrap();
    // A second serve is refused at once, naming the first; it touches
    // nothing of the first one's (its inbox stays).
    let started = Instant::now();
    let second = whistle(
        &s,
        &[
            "league",
            "serve",
            "--dir",
            "lg",
            "--listen",
            "127.0.0.1:0",
            "--http",
            "127.0.0.1:0",
            "--progress",
            "quiet",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(second.status.code(), Some(2), "{}", second.stderr);
    assert!(started.elapsed() < Duration::from_secs(20));
    let holder = format!("pid {}, `whistle league serve`, since ", serve.id());
    assert!(second.stderr.contains(&holder), "{}", second.stderr);
    assert!(second.stdout.is_empty(), "{}", second.stdout);
    assert!(
        inbox.join("1-1").exists(),
        "the refused serve emptied the inbox"
    );
    // A cron `league round` beside it: refused the same way.
    let round = whistle(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
        Duration::from_secs(60),
    );
    assert_eq!(round.status.code(), Some(2), "{}", round.stderr);
    assert!(round.stderr.contains(&holder), "{}", round.stderr);
    // Readers read meanwhile.
    ok(&s, &["league", "standings", "--dir", "lg"]);
    ok(&s, &["league", "rounds", "--dir", "lg"]);
    ok(&s, &["league", "history", "r1", "--dir", "lg"]);
    common::stop_all(&mut serve, &mut []);
    // A writer killed mid-round (SIGKILL: no clean-up at all) holds
    // nothing: the next one takes the folder at once.
    let mut round = Command::new(WHISTLE)
        .args(["league", "round", "--dir", "lg", "--progress", "quiet"])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_killed();
    wait_until(Duration::from_secs(120), "round 1 part played", || {
        some_log_has(&s, "0001", 2)
    });
    round.kill().unwrap();
    round.wait().unwrap();
    assert!(
        s.path("lg/.lock").exists(),
        "the lock file stays; it locks nothing"
    );
    let open = rounds(&s)
        .into_iter()
        .find(|r| r["closed"] == false)
        .expect("the round left open");
    let number = open["round"].as_u64().unwrap();
    // Its first log written twice at once (as two writers did before the
    // folder was locked): a line broken in the middle.
    let dir = s.path(&format!("lg/rounds/{number:04}"));
    let log = std::fs::read_dir(dir.join("matches"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.lines().count() >= 2))
        .expect("a log with a hand");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[1].insert_str(40, "{\"type\":\"hand\",\"deal\":");
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    // The next start plays the round on: the damaged log set aside (kept),
    // its match played again from the round's seed, and it says so.
    let r = ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    let name = log.file_name().unwrap().to_string_lossy().into_owned();
    let said = format!("it is kept as damaged/{name} and the match is played again");
    assert!(r.stderr.contains(&said), "{}", r.stderr);
    let notes = std::fs::read_to_string(dir.join("notes.txt")).unwrap();
    assert!(notes.contains(&said), "{notes}");
    assert_eq!(
        std::fs::read_to_string(dir.join("damaged").join(&name)).unwrap(),
        lines.join("\n") + "\n"
    );
    // The round closed, every match of it recorded once, its logs verify.
    let closed = rounds(&s);
    assert!(closed.iter().all(|r| r["closed"] == true), "{closed:?}");
    let v = whistle(
        &s,
        &["replay", "verify", &dir.display().to_string()],
        Duration::from_secs(60),
    );
    assert_eq!(v.status.code(), Some(0), "{}{}", v.stdout, v.stderr);
    let i = ok(
        &s,
        &[
            "league",
            "import",
            &dir.display().to_string(),
            "--dir",
            "lg",
        ],
    );
    assert!(i.stdout.starts_with("0 match(es) recorded"), "{}", i.stdout);
}

#[test]
fn a_closed_rounds_logs_download_from_the_site_and_verify_and_an_open_rounds_do_not() {
    let s = Scratch::new("league-dispute");
    s.write("l.toml", &slow_reference_league("dispute", 4, "30ms"));
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    // Round 1 stopped (SIGTERM) once a match of it is over: what finished
    // is recorded, the round stays open.
    let mut round = Command::new(WHISTLE)
        .args(["league", "round", "--dir", "lg", "--progress", "quiet"])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_killed();
    wait_until(Duration::from_secs(120), "a match of round 1 over", || {
        std::fs::read_dir(s.path("lg/rounds/0001/matches"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("\"type\":\"end\""))
            })
    });
    let _ = Command::new("kill")
        .args(["-TERM", &round.id().to_string()])
        .status();
    round.wait().unwrap();
    let open = rounds(&s);
    assert_eq!(
        open[0]["closed"], false,
        "{open:?}: round 1 finished before the stop"
    );
    // Served, the league plays round 1 on; meanwhile its recorded matches'
    // logs are refused (they show every hand's cards).
    let (mut serve, site) = common::serve_with_site(&s, "lg");
    let (code, body) = get(&site, "/matches/1/log");
    if rounds(&s)[0]["closed"] == false {
        assert_eq!(code, 403, "{}", String::from_utf8_lossy(&body));
        assert!(
            String::from_utf8_lossy(&body).contains("round 1 is still open"),
            "{}",
            String::from_utf8_lossy(&body)
        );
        let (code, page) = get(&site, "/matches/1");
        assert_eq!(code, 200);
        assert!(
            String::from_utf8_lossy(&page).contains("can be downloaded once round 1 is closed"),
            "the match page says when its log is published"
        );
    } else {
        panic!("round 1 closed before the site was asked: make its matches longer");
    }
    wait_until(Duration::from_secs(180), "round 1 closed", || {
        rounds(&s)[0]["closed"] == true
    });
    // Closed: the page links the log, the log is the exact bytes recorded
    // (its SHA-256 the store's), and verifies with the published seed.
    let (code, page) = get(&site, "/matches/1");
    assert_eq!(code, 200);
    assert!(
        String::from_utf8_lossy(&page).contains("href=\"/matches/1/log\""),
        "the match page links its log"
    );
    let (code, log) = get(&site, "/matches/1/log");
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&log));
    // A bot's rating history links each row to its match.
    let (code, page) = get(&site, "/bots/r1");
    assert_eq!(code, 200);
    assert!(
        String::from_utf8_lossy(&page).contains("<a href=\"/matches/"),
        "rating-history rows link their matches"
    );
    common::stop_all(&mut serve, &mut []);
    s.write("m.jsonl", std::str::from_utf8(&log).unwrap());
    let seed = match &rounds(&s)[0]["seed"] {
        Value::String(t) => t.clone(),
        other => other.to_string(),
    };
    let v = whistle(
        &s,
        &["replay", "verify", "m.jsonl", "--seed", &seed],
        Duration::from_secs(60),
    );
    assert_eq!(v.status.code(), Some(0), "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("ok"), "{}", v.stdout);
    // A wrong seed is caught: the download is the evidence, not a page.
    let wrong = format!("{:0>64}", "1");
    let v = whistle(
        &s,
        &["replay", "verify", "m.jsonl", "--seed", &wrong],
        Duration::from_secs(60),
    );
    assert_ne!(v.status.code(), Some(0), "{}", v.stdout);
}

#[test]
fn a_client_trickling_its_headers_is_dropped_within_seconds() {
    let s = Scratch::new("league-slow-client");
    s.write("l.toml", &slow_reference_league("slow", 1, "1ms"));
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let (mut serve, site) = common::serve_with_site(&s, "lg");
    // One byte of a header every 200 ms: never a whole request.
    let mut c = std::net::TcpStream::connect(&site).unwrap();
    c.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
    let start = Instant::now();
    let request = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".to_vec();
    let mut sent = 0usize;
    let closed = loop {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "a trickling client was held 30 s"
        );
        let byte = request.get(sent).copied().unwrap_or(b'a');
        if c.write_all(&[byte]).is_err() {
            break start.elapsed();
        }
        sent += 1;
        let mut buf = [0u8; 256];
        match c.read(&mut buf) {
            Ok(0) => break start.elapsed(),
            Ok(_) => break start.elapsed(),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break start.elapsed(),
            Err(_) => {}
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    eprintln!("a trickling client dropped after {closed:?}, {sent} bytes sent");
    assert!(closed < Duration::from_secs(15), "dropped after {closed:?}");
    assert!(closed >= Duration::from_secs(4), "dropped after {closed:?}");
    // Every other client is served meanwhile and after.
    let (code, _) = get(&site, "/");
    assert_eq!(code, 200);
    common::stop_all(&mut serve, &mut []);
}

/// One POST to the site at `addr` with `body` of `content_type`: the
/// status line's code and the body.
fn post(addr: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        c,
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    c.write_all(body).unwrap();
    let mut raw = Vec::new();
    let _ = c.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    (text[9..12].parse().unwrap(), text)
}

/// The site's upload form posted: `token` and an archive of `bytes`.
fn upload(addr: &str, token: &str, bytes: &[u8]) -> (u16, String) {
    let mut body = format!(
        "--XB\r\nContent-Disposition: form-data; name=\"token\"\r\n\r\n{token}\r\n--XB\r\n\
         Content-Disposition: form-data; name=\"archive\"; filename=\"bot.zip\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(b"\r\n--XB--\r\n");
    post(addr, "/upload", "multipart/form-data; boundary=XB", &body)
}

#[test]
fn a_second_upload_is_refused_at_once_and_the_uploads_outcomes_outlive_a_restart() {
    let s = Scratch::new("league-uploads");
    s.write("l.toml", &slow_reference_league("ups", 1, "1ms"));
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    let token = common::add_league_bots(&s, "lg", &["alice"]).remove(0);
    let (mut serve, site) = common::serve_with_site(&s, "lg");
    // Not an archive: taken (202), refused by its check later.
    let (code, body) = upload(&site, &token, b"not an archive at all");
    assert_eq!(code, 202, "{body}");
    // A second one while the first waits: refused at once, in the 202's
    // place, as the docs say.
    let (code, body) = upload(&site, &token, b"not an archive either");
    assert_eq!(code, 503, "{body}");
    assert!(
        body.contains("an upload of `alice` is waiting to be checked already"),
        "{body}"
    );
    // Killed at once: the first upload's check ended, or it never will.
    let _ = serve.kill();
    let _ = serve.wait();
    let (mut serve, site) = common::serve_with_site(&s, "lg");
    // The restarted site still lists the upload, with what it came to.
    let (code, page) = post(
        &site,
        "/owner",
        "application/x-www-form-urlencoded",
        format!("token={token}").as_bytes(),
    );
    assert_eq!(code, 200, "{page}");
    assert!(
        page.contains("dropped: the league stopped before this upload&#39;s check ended")
            || page.contains("dropped: the league stopped before this upload's check ended")
            || page.contains("refused: "),
        "{page}"
    );
    assert!(!page.contains("None yet"), "{page}");
    common::stop_all(&mut serve, &mut []);
}

#[test]
fn round_files_say_what_they_rate_old_stderr_goes_and_a_read_only_folder_reads() {
    let s = Scratch::new("league-files");
    // One table of four (no deal held by another table: no matchpoints),
    // stderr kept for the last round only.
    let file = slow_reference_league("files", 1, "1ms").replacen(
        "fill = true\n",
        "fill = true\nkeep_stderr_rounds = 1\n",
        1,
    );
    s.write("l.toml", &file);
    ok(&s, &["league", "init", "l.toml", "--dir", "lg"]);
    // A bot that connects by itself: it never plays a round run alone.
    common::add_league_bots(&s, "lg", &["alice"]);
    for _ in 0..2 {
        ok(
            &s,
            &["league", "round", "--dir", "lg", "--progress", "quiet"],
        );
    }
    // Each round's files rate it alone, and say where the league's are.
    let md = std::fs::read_to_string(s.path("lg/rounds/0002/standings.md")).unwrap();
    assert!(
        md.starts_with("> League round 2: These standings rate round 2's matches alone"),
        "{md}"
    );
    assert!(md.contains("`whistle league standings`"), "{md}");
    let results: Value = serde_json::from_str(
        &std::fs::read_to_string(s.path("lg/rounds/0002/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(results["notes"][0]["kind"], "league round", "{results}");
    // One table compared no seat on the same cards (no matchpoints):
    // ranked by rating, every bot with its grade.
    assert_eq!(results["grade"], "rating", "{results}");
    assert!(
        results["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["grade"].is_object()),
        "{results}"
    );
    // Only the last round keeps its bots' stderr.
    let stderr_logs = |r: &str| {
        std::fs::read_dir(s.path(&format!("lg/rounds/{r}/logs")))
            .map(|d| {
                d.flatten()
                    .filter(|e| e.file_name().to_string_lossy().ends_with(".stderr.log"))
                    .count()
            })
            .unwrap_or(0)
    };
    assert_eq!(stderr_logs("0001"), 0);
    assert!(stderr_logs("0002") > 0);
    // The league's standings as CSV: a header, one row a bot.
    let csv = ok(&s, &["league", "standings", "--csv", "--dir", "lg"]).stdout;
    let mut rows = csv.lines();
    assert!(
        rows.next()
            .unwrap()
            .starts_with("rank,bot,rating,sigma,low,high,matches,hands,"),
        "{csv}"
    );
    let first: Vec<&str> = rows.next().unwrap().split(',').collect();
    assert_eq!(first[0], "1", "{csv}");
    // Four bots ranked, alice (who did not play) last, with no rank.
    assert_eq!(csv.lines().count(), 6, "{csv}");
    assert!(csv.lines().last().unwrap().starts_with(",alice,"), "{csv}");
    // A read-only folder (a read-only bind mount in a mount namespace of
    // its own): every reader works, and says the folder cannot be written.
    let lg = s.path("lg").display().to_string();
    let script = format!(
        "mount --bind {lg} {lg} && mount -o remount,ro,bind {lg} {lg} && \
         touch {lg}/x 2>/dev/null && exit 9; \
         \"$0\" league standings --dir {lg} && \"$0\" league rounds --dir {lg} && \
         \"$0\" league history r1 --dir {lg} && \"$0\" league versions alice --dir {lg}"
    );
    let out = common::output_within(
        Command::new("unshare").args(["-m", "sh", "-c", &script, WHISTLE]),
        Duration::from_secs(60),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("mount") {
        eprintln!("SKIPPED the read-only part: no mount namespace here: {stderr}");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("r1"), "{stdout}");
    assert!(
        stderr.contains("cannot be written: its store is opened read-only"),
        "{stderr}"
    );
    assert!(!stderr.contains("unable to open"), "{stderr}");
}
